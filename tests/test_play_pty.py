"""``chickenfoot play`` driven through a real terminal (a pty): a full round, bad input included, then resumed."""

from __future__ import annotations

import json
import os
import re
import signal
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("click")
pytest.importorskip("rich")

import chickenfoot as cf  # noqa: E402

pytestmark = pytest.mark.slow  # the command line in a pseudo-terminal

SRC = Path(cf.__file__).resolve().parent.parent
PROMPT = "your move> "


def _spawn(*argv: str, columns: int = 100) -> pexpect.spawn:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH")) if p)}
    env.update(COLUMNS=str(columns), LINES="40", TERM="dumb", NO_COLOR="1")
    return pexpect.spawn(
        sys.executable,
        ["-m", "chickenfoot", "play", *argv],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(40, columns),
        preexec_fn=_ctrl_c_as_in_a_terminal,
    )


def _ctrl_c_as_in_a_terminal() -> None:
    # A terminal's shell starts a foreground program with Ctrl-C's default action; a suite started
    # in the background (nohup, `&` in a script) hands its children Ctrl-C ignored, which Python keeps.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_a_full_round_against_bots_with_bad_input(tmp_path: Path) -> None:
    record = tmp_path / "mid-game.json"
    final = tmp_path / "final.json"
    child = _spawn("--players", "3", "--seed", "4", "--bots", "greedy,random", "--save", str(final))
    child.expect_exact(PROMPT)
    for line, reply in [
        ("", "type a move number"),
        ("hello", "is not a move"),
        ("99", "there is no move 99"),
        ("0", "there is no move 0"),
        ("9-9@42", "not allowed"),
        ("pass", "not allowed"),
        ("save", "saved the game record to"),  # no file named: --save's (the path may wrap)
        ("help", "save [FILE]"),
    ]:
        child.sendline(line)
        child.expect_exact(reply)
        child.expect_exact(PROMPT)
    child.sendline(f"save {record}")
    child.expect_exact("saved the game record")
    child.expect_exact(PROMPT)
    # Play the first listed move, every other time by its notation, until the round ends.
    child.sendline("1")
    turns = 1
    while child.expect_exact(["Round 1 of 10 over", PROMPT]) == 1:
        listed = re.search(r"^\s*1\. (\S+)", child.before, re.MULTILINE)
        assert listed is not None, child.before
        turns += 1
        child.sendline(listed[1] if turns % 2 else "1")
    assert turns > 0
    child.expect_exact(PROMPT)  # round 2 starts and it comes back to us
    child.sendeof()  # end of input: the game is left, not crashed
    child.expect_exact("end of input")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    saved = json.loads(final.read_text())
    assert saved["players"] == 3
    assert len(saved["moves"]) > turns
    assert json.loads(record.read_text())["moves"] == []  # saved before the first move


def test_a_saved_game_resumes_where_it_was_left(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    child = _spawn("--players", "2", "--seed", "9", "--name", "Ada", "--rule", "max_pip=6", "--save", str(saved))
    child.expect_exact(PROMPT)
    child.sendline("1")
    child.expect_exact(PROMPT)
    child.sendline("comment my first move")
    child.expect_exact("noted a comment on move")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    before = cf.from_json(saved.read_text(), cf.GameRecord)
    assert before.names == ("Ada", "greedy")
    # Resumed: the same game from where it stood, Ada's seat found from the record's names.
    child = _spawn("--load", str(saved))
    child.expect_exact(f"resuming game.json at move {len(before.moves) + 1}, seed 9")
    child.expect_exact(PROMPT)
    child.sendline("1")
    child.expect_exact(PROMPT)
    child.sendline("save")  # no file named: back into the file it came from
    child.expect_exact("saved the game record to")  # then the path, which may wrap
    child.sendline("quit")
    child.expect(pexpect.EOF)
    after = cf.from_json(saved.read_text(), cf.GameRecord)
    assert after.moves[: len(before.moves)] == before.moves
    assert len(after.moves) > len(before.moves)
    assert (after.names, after.date, dict(after.comments)) == (before.names, before.date, dict(before.comments))
    assert list(before.comments.values()) == ["my first move"]


def test_ctrl_c_leaves_like_quit_saying_the_game_is_not_saved() -> None:
    child = _spawn("--players", "2", "--seed", "4")
    child.expect_exact(PROMPT)
    child.sendline("1")  # a move: now there is something to lose
    child.expect_exact(PROMPT)
    child.sendintr()
    child.expect_exact("interrupted (Ctrl-C): leaving the game.")
    child.expect_exact("It was not saved (--save FILE keeps a game)")
    child.expect(pexpect.EOF)
    child.close()
    assert "Aborted" not in (child.before or "")
    assert child.exitstatus == 130


def test_help_wraps_at_80_columns_between_phrases() -> None:
    child = _spawn("--players", "2", "--seed", "4", columns=80)
    child.expect_exact(PROMPT)
    child.sendline("help")
    child.expect_exact(PROMPT)
    shown = child.before.replace("\r", "")
    child.sendline("quit")
    child.expect_exact(PROMPT)  # the warning that the game is not saved
    child.sendline("quit")
    child.expect(pexpect.EOF)
    lines = shown.splitlines()
    assert max(map(len, lines)) <= 80
    assert any(
        line.strip() == "(as chickenfoot analyse)" or line.endswith("(as chickenfoot analyse)") for line in lines
    )
    summaries = [line for line in lines if line.startswith("  ")]
    assert all(not line.rstrip().endswith(("(as", "chickenfoot")) for line in summaries), shown
