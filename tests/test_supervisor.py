"""The supervisor: every exchange has a deadline, lines a cap, stderr a bound, and stopping a program kills all it
started (forks, wrappers, detached children) and reaps it."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time

import pytest

from _processes import living_with, marked
from chickenfoot import supervisor
from chickenfoot.supervisor import LineTooLong, ProgramEnded, ProgramTimeout, StartError, Supervisor

__all__ = ["marked"]  # the fixture, used by name
pytestmark = pytest.mark.slow  # programs run as subprocesses

HOUR = "3600"
ECHO = "import sys\nfor line in sys.stdin:\n    print(line.strip().upper(), flush=True)"
# A program that starts a helper keeping its pipes, and a child in a session of its own.
SPAWNER = f"""
import os, sys, time
if os.fork() == 0:
    time.sleep({HOUR})
middle = os.fork()
if middle == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep({HOUR})
    os._exit(0)
os.waitpid(middle, 0)  # the detached grandchild exists once its parent is gone
print("ready", flush=True)
time.sleep({HOUR})
"""


def python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def test_lines_go_both_ways_and_the_program_is_reaped() -> None:
    with Supervisor(python(ECHO)) as program:
        program.send("hello", timeout=30)
        program.send("wörld", timeout=30)
        assert program.receive(timeout=30) == "HELLO"
        assert program.receive(timeout=30) == "WÖRLD"
        assert program.exit_status() is None
    assert program.returncode == 0  # it saw the end of its input and exited by itself
    with pytest.raises(ProgramEnded):
        program.send("again", timeout=1)


def test_a_read_times_out_without_a_line() -> None:
    with Supervisor(python(f"import time; time.sleep({HOUR})")) as program:
        started = time.monotonic()
        with pytest.raises(ProgramTimeout, match=r"no line within 0\.2 s"):
            program.receive(timeout=0.2)
        assert time.monotonic() - started >= 0.2
        with pytest.raises(ProgramTimeout):
            program.receive(timeout=0)
    assert program.returncode == -9  # killed: it would sleep an hour


def test_a_write_to_a_program_that_stops_reading_times_out() -> None:
    with Supervisor(python(f"import time; time.sleep({HOUR})")) as program:
        line = "x" * 10_000
        with pytest.raises(ProgramTimeout, match=r"did not read its input within 0\.2 s"):  # noqa: PT012
            for _ in range(1000):  # 10 MB: far more than any pipe holds
                program.send(line, timeout=0.2)


def test_a_line_over_the_limit_is_refused_without_holding_it() -> None:
    endless = "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n    sys.stdout.flush()"
    with Supervisor(python(endless)) as program, pytest.raises(LineTooLong, match="over 65,536 bytes"):
        program.receive(timeout=30)
    small = "print('x' * 100, flush=True); print('y' * 10, flush=True)"
    with Supervisor(python(small), line_limit=50) as program, pytest.raises(LineTooLong, match="over 50 bytes"):
        program.receive(timeout=30)
    with Supervisor(python(small), line_limit=100) as program:
        assert program.receive(timeout=30) == "x" * 100  # exactly the limit is allowed


def test_the_end_of_output_is_told_apart_from_the_end_of_the_program() -> None:
    with Supervisor(python(f"import os, time; os.close(1); time.sleep({HOUR})")) as program:
        with pytest.raises(ProgramEnded, match="closed its standard output"):
            program.receive(timeout=30)
        assert program.exit_status() is None  # it closed its output but still runs
        assert not program.wait_exit(0.1)
    with Supervisor(python("import sys; sys.exit(3)")) as program:
        with pytest.raises(ProgramEnded):
            program.receive(timeout=30)
        assert program.wait_exit(30)
        assert program.exit_status() == 3
    assert program.returncode == 3


def test_standard_error_is_kept_bounded_and_passed_on() -> None:
    flood = "import sys\nsys.stderr.write('e' * 10_000_000 + '\\nlast words\\n'); sys.stderr.flush(); print('done')"
    chunks: list[bytes] = []
    with Supervisor(python(flood), on_stderr=chunks.append) as program:
        assert program.receive(timeout=60) == "done"
    assert program.stderr_tail.endswith("e\nlast words\n")
    assert len(program.stderr_tail) == 4096
    assert sum(map(len, chunks)) == 10_000_000 + len("\nlast words\n")


def test_stopping_kills_forks_wrappers_and_detached_children(marked: tuple[dict[str, str], str]) -> None:
    env, mark = marked
    for command in (python(SPAWNER), ["sh", "-c", f"{sys.executable} -c '{SPAWNER}'; :"]):
        program = Supervisor(command, env=env)
        assert program.receive(timeout=60) == "ready"
        assert len(living_with(mark)) >= 3  # the program (or its shell), its helper and the detached child
        program.stop()
        assert living_with(mark) == []


def test_a_program_that_cannot_start_is_refused() -> None:
    with pytest.raises(StartError, match="cannot start '/no/such/program': No such file"):
        Supervisor(["/no/such/program"])
    with pytest.raises(ValueError, match="command must be a non-empty list"):
        Supervisor("python bot.py")  # type: ignore[arg-type]
    with Supervisor(python(ECHO)) as program, pytest.raises(ValueError, match="no newline"):
        program.send("two\nlines", timeout=1)


def test_a_dropped_supervisor_still_kills_its_program(marked: tuple[dict[str, str], str]) -> None:
    env, mark = marked
    program = Supervisor(python(SPAWNER), env=env)
    assert program.receive(timeout=60) == "ready"
    del program  # garbage: the finalizer kills it all
    assert living_with(mark) == []


def test_a_sweep_kills_every_program_of_a_tag(marked: tuple[dict[str, str], str]) -> None:
    env, mark = marked
    tag = supervisor.new_tag()
    with supervisor.tagged(tag):
        programs = [Supervisor(python(SPAWNER), env=env) for _ in range(2)]
    untagged = Supervisor(python(ECHO))
    for program in programs:
        assert program.receive(timeout=60) == "ready"
        assert program.marker.startswith(f"{tag}/")
    assert supervisor.sweep(tag) >= 6
    assert living_with(mark) == []
    untagged.send("still here", timeout=30)
    assert untagged.receive(timeout=30) == "STILL HERE"
    untagged.stop()
    for program in programs:
        program.stop()
    with pytest.raises(ValueError, match="a tag is text without spaces"), supervisor.tagged("a b"):
        pass


def test_supervisors_work_from_the_threads_of_an_asyncio_server() -> None:
    def exchange(word: str) -> str:
        with Supervisor(python(ECHO)) as program:
            program.send(word, timeout=30)
            return program.receive(timeout=30)

    async def serve() -> list[str]:
        return list(await asyncio.gather(*(asyncio.to_thread(exchange, word) for word in ("a", "b", "c"))))

    assert asyncio.run(serve()) == ["A", "B", "C"]


def test_the_program_runs_in_a_session_of_its_own() -> None:
    with Supervisor(python("import os; print(os.getsid(0), os.getpgid(0), flush=True)")) as program:
        assert program.receive(timeout=30) == f"{program.pid} {program.pid}"
    assert os.getsid(0) != program.pid
    assert subprocess.run(["true"]).returncode == 0  # the host's own children are not disturbed
