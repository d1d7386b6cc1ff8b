"""A bot in the chickenfoot bot protocol: plays the heaviest tile it can, else draws or passes.

Run it in a tournament:  chickenfoot tournament --bots "cmd:python examples/bots/heaviest.py",greedy
"""

import json
import sys


def pips(move: str) -> int:
    """Counts the pips of a play like '9-5@3'; draw and pass count -1."""
    if "@" not in move:
        return -1
    high, low = move.split("@")[0].split("-")
    return int(high) + int(low)


print(json.dumps({"bot": "heaviest (Python)", "protocol": 1}), flush=True)
for line in sys.stdin:
    view = json.loads(line)
    print(max(view["legal_moves"], key=pips), flush=True)
