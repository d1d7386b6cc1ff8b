"""Hostile programs: each plays a 2-game CLI tournament that ends in a bound that does not depend on the program's
lifetime (they linger an hour), leaves no process behind, keeps the host under 200 MB, and the CLI names each fault's
kind and first reason. Interrupting a tournament leaves no process behind either."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from _processes import living_with, marked

pytestmark = pytest.mark.slow  # hostile programs run as subprocesses

__all__ = ["marked"]  # the fixture, used by name

REPO = Path(__file__).resolve().parents[1]
SRC = str(REPO / "src")
HOSTILE = f"{sys.executable} {REPO / 'tests' / 'bots' / 'hostile.py'}"
PATIENT = 60  # seconds a move for the programs that answer: never reached, even on a loaded machine
BOUND = 300  # seconds a whole run may take; the programs would linger 3600
HOST_MB = 200

# The host: the command line in this process, reporting its own peak memory when done (VmHWM: the peak
# of this program, where getrusage's peak would count the forked copy of pytest that started it).
DRIVER = """
import json, re, sys
from chickenfoot.cli import main
code = main(sys.argv[1:])
peak = int(re.search(r"VmHWM:\\s+(\\d+) kB", open("/proc/self/status").read())[1]) / 1024
print(json.dumps({"code": code, "rss_mb": peak}), file=sys.stderr)
"""
# The host for Ctrl-C: Python's Ctrl-C restored first, which a shell without job control hands down ignored.
INTERRUPTIBLE_DRIVER = "import signal\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n" + DRIVER

# mode, the command after "cmd:", seconds a move, the faults (kind: count over 2 games), words of the first reasons
CASES = [
    ("wrapper", f"sh -c '{HOSTILE} linger; :'", PATIENT, {}, []),
    ("fork", f"{HOSTILE} fork", PATIENT, {}, []),
    ("detach", f"{HOSTILE} detach", PATIENT, {}, []),
    ("non-reader", f"{HOSTILE} deaf", 1, {"timeout": 2}, ["no answer within 1 s"]),
    ("endless line", f"{HOSTILE} endless", PATIENT, {"overflow": 2}, ["a line over 65,536 bytes"]),
    ("huge line", f"{HOSTILE} huge", PATIENT, {"overflow": 2}, ["a line over 65,536 bytes"]),
    ("many lines", f"{HOSTILE} chatty", PATIENT, {"discarded": 202, "overflow": 2},
     ["a line written while no view was asked: 'chat'", "more than 100 lines that were no answer"]),
    ("double answers", f"{HOSTILE} twice", PATIENT, {"discarded": None}, ["a line written while no view was asked"]),
    ("double answers v2", f"{HOSTILE} twice2", PATIENT, {"discarded": None}, ["a second or late answer to view 1"]),
    ("protocol true", f"{HOSTILE} hello true", PATIENT, {"startup": 2},
     ['"protocol" must be 1 or 2, got true']),
    ("no name", f"{HOSTILE} hello nameless", PATIENT, {"startup": 2}, ['"bot" must be a name']),
    ("a number for a name", f"{HOSTILE} hello number", PATIENT, {"startup": 2},
     ['"bot" must be a name of 1 to 64 characters']),
    ("stderr flood", f"{HOSTILE} stderr", PATIENT, {}, []),
    ("stdout closed", f"{HOSTILE} closeout", PATIENT, {"crash": 2},
     ["the program closed its standard output (it still ran)"]),
    ("crash", f"{HOSTILE} crash", PATIENT, {"crash": 2},
     ["the program ended (exit code 3); its last words on stderr: 'RuntimeError: something broke'"]),
    ("sleep", f"{HOSTILE} sleep", 1, {"timeout": 2}, ["no answer within 1 s"]),
    ("no handshake", f"{HOSTILE} silent", PATIENT, {"startup": 2}, ["no handshake within 2 s"]),
]  # fmt: skip


def _host(env: dict[str, str], *argv: str) -> tuple[subprocess.CompletedProcess[str], dict[str, float]]:
    run = subprocess.run(
        [sys.executable, "-c", DRIVER, *argv],
        capture_output=True,
        text=True,
        env={**env, "PYTHONPATH": SRC, "COLUMNS": "80"},
        timeout=BOUND,
    )
    host: dict[str, float] = json.loads(run.stderr.splitlines()[-1])
    return run, host


@pytest.mark.parametrize(("mode", "command", "seconds", "faults", "reasons"), CASES, ids=[case[0] for case in CASES])
def test_a_hostile_program_cannot_hang_flood_or_outlive_a_tournament(
    marked: tuple[dict[str, str], str],
    mode: str,
    command: str,
    seconds: float,
    faults: dict[str, int | None],
    reasons: list[str],
) -> None:
    env, mark = marked
    startup = 2 if mode == "no handshake" else PATIENT
    run, host = _host(
        env,
        *("tournament", "--games", "2", "--rule", "max_pip=6", "--workers", "1", "--bots", f"cmd:{command},greedy"),
        *("--move-seconds", str(seconds), "--startup-seconds", str(startup), "--json", "-"),
    )
    assert living_with(mark) == []  # the program, its shell, its forks and its detached children are all gone
    assert host["rss_mb"] < HOST_MB
    if "startup" in faults:  # a program that cannot start stops the tournament before its first game
        assert host["code"] == 1, run.stderr[-3000:]
        shown = " ".join(run.stderr.split())
        assert f"bot 'cmd:{command}' cannot play" in shown
        for reason in reasons:
            assert reason in shown
        assert run.stdout == ""
        return
    assert host["code"] == 0, run.stderr[-3000:]
    report = json.loads(run.stdout)["standings"][0]["report"]
    found = {tally["kind"]: tally["count"] for tally in report["faults"]}
    assert set(found) == set(faults)
    for kind, count in faults.items():
        assert count is None or found[kind] == count, found
    shown = " ".join(run.stderr.split())  # the table wraps at 80 columns
    for kind in faults:
        assert kind in shown
    for reason in reasons:
        assert reason in shown
    if not faults:
        assert "Faults" not in shown
    assert len(run.stderr) < 20_000  # a program's stderr never reaches the terminal


@pytest.mark.parametrize("how", ["Ctrl-C", "SIGTERM"])
def test_an_interrupted_tournament_leaves_no_process_behind(marked: tuple[dict[str, str], str], how: str) -> None:
    env, mark = marked
    lineup = f"cmd:{HOSTILE} sleep,cmd:sh -c '{HOSTILE} fork; :'"
    argv = ["tournament", "--games", "20", "--rule", "max_pip=6", "--workers", "2", "--bots", lineup]
    argv += ["--move-seconds", "600", "--startup-seconds", str(PATIENT)]
    host = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTIBLE_DRIVER, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**env, "PYTHONPATH": SRC},
        start_new_session=True,  # like a terminal's foreground job: Ctrl-C reaches the whole group
    )
    deadline = time.monotonic() + BOUND
    while len(_programs(mark, host.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)  # a game is under way in a worker, its programs asked for a move
    assert len(_programs(mark, host.pid)) >= 2
    if how == "Ctrl-C":
        os.killpg(host.pid, signal.SIGINT)
    else:
        os.kill(host.pid, signal.SIGTERM)  # the host alone: it must stop its workers itself
    _, errors = host.communicate(timeout=BOUND)
    assert json.loads(errors.splitlines()[-1])["code"] == (1 if how == "Ctrl-C" else 128 + signal.SIGTERM)
    assert "Traceback" not in errors
    assert living_with(mark) == []


def _programs(mark: str, host: int) -> list[int]:
    """Lists the marked processes a worker of the host started: a game's programs, not the host's check of them."""
    workers = set(_workers(host))
    return [pid for pid in living_with(mark) if workers & set(_ancestors(pid))]


def _ancestors(pid: int) -> list[int]:
    """Lists the parent of ``pid``, its parent, and so on up to init (as far as they can be read)."""
    found = []
    while (pid := _parent(pid)) > 1:
        found.append(pid)
    return found


def _parent(pid: int) -> int:
    """Gets the parent of ``pid``; 0 if it is gone."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def test_ctrl_c_as_the_workers_start_stops_the_tournament_without_a_traceback() -> None:
    # Ctrl-C reaches every process of the job: here, while a worker has its Python's handler of
    # Ctrl-C but is still importing the package, before it has said that Ctrl-C is its parent's.
    argv = ["tournament", "--games", "20", "--rule", "max_pip=6", "--workers", "2", "--bots", "greedy,random"]
    host = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTIBLE_DRIVER, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": SRC},
        start_new_session=True,
    )
    deadline = time.monotonic() + BOUND
    starting = None
    while starting is None and time.monotonic() < deadline:
        starting = next((pid for pid in _workers(host.pid) if _ctrl_c(pid) == "caught"), None)
    assert starting is not None, "no worker was seen starting"
    os.killpg(host.pid, signal.SIGINT)
    _, errors = host.communicate(timeout=BOUND)
    assert json.loads(errors.splitlines()[-1])["code"] == 1
    assert "Traceback" not in errors


def _workers(host: int) -> list[int]:
    """Lists the host's worker processes (fresh interpreters: multiprocessing's spawn_main)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            pid, command = int(entry.name), (entry / "cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        if b"spawn_main" in command and _parent(pid) == host:
            found.append(pid)
    return found


def _ctrl_c(pid: int) -> str | None:
    """Tells what ``pid`` does with SIGINT: "caught" (by a handler), "ignored", or ``None`` (the default)."""
    try:
        status = dict(line.split(":\t", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    except (OSError, ValueError):
        return None
    bit = 1 << (signal.SIGINT - 1)
    if int(status["SigIgn"], 16) & bit:
        return "ignored"
    return "caught" if int(status["SigCgt"], 16) & bit else None
