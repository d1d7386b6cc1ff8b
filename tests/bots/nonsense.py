"""A test fixture for the bot protocol: a bot that answers nonsense, then an illegal move, then crashes."""

import json
import sys

if __name__ == "__main__":  # pytest's doctest collection imports this file
    print(json.dumps({"bot": "nonsense", "protocol": 1}), flush=True)
    for count, _line in enumerate(sys.stdin):
        if count == 3:
            sys.exit(3)  # crash on its fourth move
        print("9-9@99" if count % 2 else "a move, surely", flush=True)
