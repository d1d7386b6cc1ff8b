"""A test fixture for the bot protocol: programs that misbehave in every way the supervisor must survive.

Run as ``python hostile.py MODE``; the modes are listed in MODES. Each one that lingers sleeps
an hour, so a test that waits for it to end by itself cannot pass.
"""

import json
import os
import sys
import time

HOUR = 3600
MODES = {
    "linger": "plays, then ignores the end of its input and keeps running (run it from a shell without exec)",
    "fork": "forks a helper that keeps its standard streams, then plays",
    "detach": "starts a child in a session of its own (setsid) that keeps its streams, then plays",
    "deaf": "never reads its input, and prints blank lines without end",
    "endless": "answers with a line that never ends",
    "huge": "answers with a 50 MB line",
    "twice": "answers every view twice, in one write (version 1)",
    "twice2": "answers every request twice, the second a moment later (version 2)",
    "chatty": "answers, and writes 200 lines that answer nothing with it",
    "hello": "writes the handshake named (or given) by its second argument, then plays",
    "stderr": "writes 100 MB to standard error, then plays",
    "closeout": "closes its standard output and keeps running",
    "crash": "ends with exit code 3 and a message on standard error at its first view",
    "sleep": "never answers",
    "silent": "never writes its handshake",
}


HELLOS = {  # handshakes the schema refuses, by name: a list of bots cannot hold their commas
    "true": '{"bot": "t", "protocol": true}',
    "nameless": '{"protocol": 1}',
    "number": '{"bot": 5, "protocol": 1}',
}


def hello(protocol=1):
    print(json.dumps({"bot": "hostile", "protocol": protocol}), flush=True)


def play(protocol=1):
    """Answers every view with its first legal move until the end of input."""
    for line in sys.stdin:
        view = json.loads(line)
        if view.get("type") != "view":
            continue
        if protocol == 2:
            print(json.dumps({"type": "move", "id": view["id"], "move": view["legal_moves"][0]}), flush=True)
        else:
            print(view["legal_moves"][0], flush=True)


def main(mode):
    if mode == "silent":
        time.sleep(HOUR)
    if mode == "hello":
        print(HELLOS.get(sys.argv[2], sys.argv[2]), flush=True)
        play()
        return
    if mode == "stderr":
        chunk = b"e" * (1 << 20)
        for _ in range(100):
            sys.stderr.buffer.write(chunk)
        sys.stderr.flush()
    hello(2 if mode == "twice2" else 1)
    if mode == "fork" and os.fork() == 0:
        time.sleep(HOUR)
        os._exit(0)
    if mode == "detach" and os.fork() == 0:
        os.setsid()
        time.sleep(HOUR)
        os._exit(0)
    if mode == "deaf":
        while True:
            sys.stdout.write("\n" * 1000)
            sys.stdout.flush()
    if mode == "closeout":
        os.close(1)
        time.sleep(HOUR)
    if mode in ("endless", "huge", "crash", "sleep"):
        view = json.loads(sys.stdin.readline())
        if mode == "crash":
            sys.stderr.write("Traceback (most recent call last):\nRuntimeError: something broke\n")
            sys.exit(3)
        if mode == "sleep":
            time.sleep(HOUR)
        if mode == "huge":
            sys.stdout.write("x" * 50_000_000 + "\n")
            sys.stdout.flush()
        while True:
            sys.stdout.write("x" * 65536)
            sys.stdout.flush()
    if mode == "chatty":
        for line in sys.stdin:
            sys.stdout.write(json.loads(line)["legal_moves"][0] + "\n" + "chat\n" * 200)  # in one write
            sys.stdout.flush()
        return
    if mode == "twice":
        for line in sys.stdin:
            move = json.loads(line)["legal_moves"][0]
            sys.stdout.write(f"{move}\n{move}\n")
            sys.stdout.flush()
        return
    if mode == "twice2":
        for line in sys.stdin:
            view = json.loads(line)
            if view.get("type") == "view":
                answer = json.dumps({"type": "move", "id": view["id"], "move": view["legal_moves"][0]})
                print(answer, flush=True)
                print(answer, flush=True)
        return
    play()
    if mode == "linger":
        time.sleep(HOUR)


if __name__ == "__main__":  # pytest's doctest collection imports this file
    main(sys.argv[1])
