"""A bot in version 2 of the chickenfoot bot protocol: the heaviest tile it can, with ids and info lines.

Run it in a tournament:  chickenfoot tournament --bots "cmd:python examples/bots/heaviest_v2.py",greedy

Every view carries a request id; the answer echoes it, so a late or doubled answer can never
be taken for another view's. Before answering, the bot says what it thought in an info line:
the pips of each candidate move, and its choice as the principal line.
"""

import json
import sys


def pips(move: str) -> int:
    """Counts the pips of a play like '9-5@3'; draw and pass count -1."""
    if "@" not in move:
        return -1
    high, low = move.split("@")[0].split("-")
    return int(high) + int(low)


def send(message: dict[str, object]) -> None:
    print(json.dumps(message), flush=True)


send({"bot": "heaviest v2 (Python)", "protocol": 2})
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "view":
        moves = message["legal_moves"]
        best = max(moves, key=pips)
        send(
            {
                "type": "info",
                "id": message["id"],
                "nodes": len(moves),
                "line": [best],
                "text": f"{len(moves)} legal, heaviest first",
                "moves": [{"move": move, "score": -pips(move)} for move in sorted(moves, key=pips, reverse=True)],
            }
        )
        send({"type": "move", "id": message["id"], "move": best})
    elif message["type"] == "game_over":
        print(f"game over: totals {message['totals']}", file=sys.stderr)
    # round_over, and any message type a later version adds, needs no answer
