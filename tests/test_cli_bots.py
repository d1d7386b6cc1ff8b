"""Bots named on the command line: Python classes by ``py:``, and bots that cannot play stopping a run at once."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("click")
pytest.importorskip("rich")

import chickenfoot as cf
from chickenfoot.bots import check_spec, kinds_help, make_bot
from chickenfoot.tournament import run_ladder, run_tournament

SRC = str(Path(__file__).resolve().parent.parent / "src")

BOT = textwrap.dedent(
    '''
    class FollowUpBot:
        """Plays the last legal move; ``depth`` only shows that arguments arrive."""

        def __init__(self, depth=1, seed=0):
            self.depth = depth
            self.seed = seed

        def __call__(self, view):
            return view.legal_moves[-1]
    '''
)


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC}
    command = [sys.executable, "-c", "import sys; from chickenfoot.cli import main; sys.exit(main())", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=300, cwd=cwd)


@pytest.fixture
def here(tmp_path: Path) -> Path:
    (tmp_path / "mybot.py").write_text(BOT, encoding="utf-8")
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "follow.py").write_text(BOT, encoding="utf-8")
    return tmp_path


def test_a_python_bot_is_built_from_a_module_or_a_file_with_its_arguments_and_seed(
    here: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(here)
    from_module = make_bot("py:mybot:FollowUpBot depth=3", seed=7)
    from_file = make_bot("py:bots/follow.py:FollowUpBot", seed=2)
    assert (type(from_module).__name__, from_module.depth, from_module.seed) == ("FollowUpBot", 3, 7)  # type: ignore[attr-defined]
    assert (from_file.depth, from_file.seed) == (1, 2)  # type: ignore[attr-defined]
    assert check_spec("PY:mybot:FollowUpBot").kind == "py"
    assert "py:MODULE:CLASS" in kinds_help()
    assert "omniscient" in kinds_help()


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("py:mybot", "write py:MODULE:CLASS"),
        ("py:nosuchmodule:Bot", "no module named 'nosuchmodule'"),
        ("py:mybot:Missing", "mybot has no Missing: it has FollowUpBot"),
        ("py:mybot:FollowUpBot colour=3", "does not take these arguments"),
        ("py:bots/none.py:Bot", "there is no file bots/none.py"),
        ("py:mybot:FollowUpBot depth", "'depth' is not an argument"),
    ],
)
def test_a_python_bot_that_cannot_be_loaded_is_refused_saying_why(
    here: Path, monkeypatch: pytest.MonkeyPatch, name: str, said: str
) -> None:
    monkeypatch.chdir(here)
    with pytest.raises(cf.BotSpecError, match="bad bot") as raised:
        make_bot(name)
    assert said in str(raised.value)


def test_reading_a_python_bots_name_runs_nothing_only_building_it_does(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    (tmp_path / "evil.py").write_text(f"open({str(marker)!r}, 'w').close()\nclass Bot:\n    pass\n", encoding="utf-8")
    name = f"py:{tmp_path / 'evil.py'}:Bot"
    assert check_spec(name).kind == "py"
    assert not marker.exists()
    with pytest.raises(cf.BotSpecError, match=r"Bot\(\.\.\.\) gave a Bot, not a bot"):
        make_bot(name)
    assert marker.exists()


def test_the_game_server_seats_no_python_bot_and_loads_none(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from chickenfoot.server import GameServer, SQLiteStore
    from chickenfoot.server._table import Refusal

    marker = tmp_path / "ran"
    (tmp_path / "evil.py").write_text(f"open({str(marker)!r}, 'w').close()\nBot = print\n", encoding="utf-8")
    server = GameServer(SQLiteStore(tmp_path / "games.sqlite3"))
    with pytest.raises(Refusal):
        server.check_seat(f"py:{tmp_path / 'evil.py'}:Bot")
    assert not marker.exists()
    assert all(not name.startswith("py") for name in server.bot_names)


def test_play_load_never_builds_a_python_bot_its_record_names(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    (tmp_path / "evil.py").write_text(f"open({str(marker)!r}, 'w').close()\nBot = print\n", encoding="utf-8")
    game = cf.new_game(cf.Rules.trains(max_pip=6), players=2, seed=1)
    record = cf.GameRecord.from_game(game, names=("human", f"py:{tmp_path / 'evil.py'}:Bot"))
    (tmp_path / "game.json").write_text(cf.to_json(record), encoding="utf-8")
    result = _run(tmp_path, "play", "--load", "game.json")
    assert result.returncode == 2, result.stdout + result.stderr
    assert "runs Python code: name the opponents with --bots" in " ".join(result.stderr.split())
    assert not marker.exists()


def test_play_load_seats_the_python_bot_that_bots_names(here: Path) -> None:
    game = cf.new_game(cf.Rules.trains(max_pip=6), players=2, seed=1)
    record = cf.GameRecord.from_game(game, names=("human", "greedy"))
    (here / "game.json").write_text(cf.to_json(record), encoding="utf-8")
    command = [sys.executable, "-c", "import sys; from chickenfoot.cli import main; sys.exit(main())"]
    args = ["play", "--load", "game.json", "--bots", "py:mybot:FollowUpBot"]
    env = {**os.environ, "PYTHONPATH": SRC}
    result = subprocess.run([*command, *args], input="quit\n", capture_output=True, text=True, env=env, cwd=here)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "FollowUpBot" in result.stdout  # the seat named by --bots, not the record's greedy


def test_python_bots_keep_their_case_and_play_a_tournament_from_the_command_line(here: Path) -> None:
    bots = "py:mybot:FollowUpBot,py:bots/follow.py:FollowUpBot depth=2,greedy"
    result = _run(here, "tournament", "--bots", bots, "--games", "3", "--workers", "2", "--rule", "max_pip=6")
    assert result.returncode == 0, result.stderr
    assert "FollowUpBot: py:mybot:FollowUpBot" in result.stdout  # shown by its class, the legend names it whole
    assert "FollowUpBot depth=2: py:bots/follow.py:FollowUpBot depth=2" in result.stdout
    ladder = _run(here, "ladder", "--players", "2", "--bots", bots, "--deals", "3", "--rule", "max_pip=6")
    assert ladder.returncode == 0, ladder.stderr
    assert "FollowUpBot" in ladder.stdout.replace("\n", "").replace("│", "").replace(" ", "")


def test_python_bots_sit_in_play_and_simulate(here: Path) -> None:
    simulate = _run(here, "simulate", "--bots", "py:mybot:FollowUpBot", "--players", "2", "--rule", "max_pip=6")
    assert simulate.returncode == 0, simulate.stderr
    play = subprocess.run(
        [
            sys.executable,
            "-m",
            "chickenfoot",
            "play",
            "--bots",
            "py:mybot:FollowUpBot",
            "--players",
            "2",
            "--seed",
            "1",
        ],
        input="quit\ny\n",
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": SRC},
        timeout=120,
        cwd=here,
    )
    assert "Traceback" not in play.stderr, play.stderr
    assert play.returncode == 0, play.stdout + play.stderr


@pytest.mark.parametrize("command", ["tournament", "ladder"])
@pytest.mark.parametrize(
    ("program", "cause"),
    [
        ("nonexistent-binary-41", "cannot start 'nonexistent-binary-41'"),
        ("PYTHON hello.py", "the handshake must be a JSON line"),
    ],
)
def test_a_bot_that_cannot_play_stops_the_run_before_any_game(
    tmp_path: Path, command: str, program: str, cause: str
) -> None:
    (tmp_path / "hello.py").write_text("print('hello', flush=True)\n", encoding="utf-8")
    program = program.replace("PYTHON", sys.executable)
    extra = ["--games", "50"] if command == "tournament" else ["--players", "2", "--deals", "20"]
    result = _run(tmp_path, command, "--bots", f"cmd:{program},greedy", *extra)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"bot 'cmd:{program}' cannot play" in result.stderr
    assert cause in result.stderr
    assert "forfeited" not in result.stdout + result.stderr
    assert "Traceback" not in result.stderr


def test_the_library_checks_every_program_before_the_first_game() -> None:
    games: list[object] = []
    with pytest.raises(cf.BotSpecError, match="cannot start 'nonexistent-binary-41'"):
        run_tournament(["cmd:nonexistent-binary-41", "greedy"], 5, workers=1, progress=lambda *a: games.append(a))
    with pytest.raises(cf.BotSpecError, match="cannot start"):
        run_ladder(["cmd:nonexistent-binary-41", "greedy"], 2, workers=1, progress=lambda *a: games.append(a))
    assert games == []


def test_the_ladder_names_programs_by_handshake_with_a_legend_and_prints_its_table() -> None:
    program = "cmd:" + " ".join([sys.executable, str(Path(__file__).parent / "bots" / "recorder.py")])
    rules = cf.Rules.trains(max_pip=6)
    result = run_ladder([program, "greedy"], 2, rules=rules, workers=1)
    assert result.labels == ("recorder", "greedy")
    assert repr(result) == "LadderResult(bots=('" + program + "', 'greedy'), players=2, deals=2, games=4, seed=0)"
    table = str(result)
    assert table == result.table()
    assert f"{result.labels[0]}: {program}" in table


def _position() -> str:
    game = cf.new_game(cf.Rules.trains(), players=4, seed=1)
    for _ in range(9):
        game = cf.apply(game, cf.legal_moves(game)[0])
    return cf.position(game.round)


def test_analyse_sorts_by_the_score_its_title_names_marks_the_bots_move_and_explains_columns(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from chickenfoot.cli import main

    assert main(["analyse", _position(), "--simulations", "300", "--json"]) == 0
    chosen = json.loads(capsys.readouterr().out)["moves"][0]["move"]  # the most visited: the bot's move
    assert main(["analyse", _position(), "--simulations", "300"]) == 0
    shown = capsys.readouterr().out
    rows = [re.match(r"[│|]\s*(\d+)(\*?)\s*[│|]\s*(\S+)\s*[│|]\s*([\d.]+)", line) for line in shown.splitlines()]
    found = [row for row in rows if row is not None]
    scores = [float(row[4]) for row in found]
    assert len(found) > 2
    assert scores == sorted(scores)
    assert [row[3] for row in found if row[2]] == [chosen]
    assert "sorted by score, lower is better" in " ".join(shown.split())
    assert "visits: simulations that began with the move" in " ".join(shown.split())


def test_play_names_the_rule_of_every_refusal(tmp_path: Path) -> None:
    play = subprocess.run(
        [sys.executable, "-m", "chickenfoot", "play", "--players", "2", "--seed", "1", "--rule", "max_pip=6"],
        input="5-5@0\n9-9@0\nquit\nquit\n",
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": SRC, "COLUMNS": "200"},
        timeout=120,
        cwd=tmp_path,
    )
    refusals = [line for line in play.stdout.splitlines() if "not allowed:" in line]
    assert len(refusals) == 2, play.stdout
    assert refusals[1].endswith("9-9 is not in this double-6 set (SET-1)")
    assert all(re.search(r"\([A-Z]+-\d+\)$", line) for line in refusals), refusals


@pytest.mark.parametrize("command", ["simulate", "play"])
def test_a_program_that_cannot_start_stops_simulate_and_play_before_the_game(tmp_path: Path, command: str) -> None:
    result = _run(tmp_path, command, "--players", "2", "--seed", "1", "--bots", "cmd:nonexistent-binary-41")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "cannot start 'nonexistent-binary-41'" in result.stderr
    assert "Traceback" not in result.stderr
    assert "winner" not in result.stdout


@pytest.mark.parametrize("command", ["simulate", "play", "tournament", "ladder"])
def test_every_help_that_names_bots_lists_every_kind_of_the_registry(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from chickenfoot.bots import KINDS
    from chickenfoot.cli import main

    assert main([command, "--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert kinds_help() in shown
    assert [kind.name for kind in KINDS if kind.name not in shown] == []
