"""A test fixture for the bot protocol: a version 2 bot that plays the first legal move and copies every message it
receives to its standard error, one JSON line each."""

import json
import sys

if __name__ == "__main__":  # pytest's doctest collection imports this file
    print(json.dumps({"bot": "recorder", "protocol": 2}), flush=True)
    for line in sys.stdin:
        message = json.loads(line)
        print(json.dumps(message), file=sys.stderr, flush=True)
        if message["type"] == "view":
            print(json.dumps({"type": "move", "id": message["id"], "move": message["legal_moves"][0]}), flush=True)
