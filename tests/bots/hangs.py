"""A test fixture for the bot protocol: a bot that shakes hands and then never answers."""

import json
import sys
import time

if __name__ == "__main__":  # pytest's doctest collection imports this file
    print(json.dumps({"bot": "hangs", "protocol": 1}), flush=True)
    sys.stdin.readline()
    time.sleep(3600)
