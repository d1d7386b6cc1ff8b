"""The bot protocol: programs in any language play through ProcessBot, and a failing program forfeits
moves, is stopped and never hangs or breaks a tournament."""

from __future__ import annotations

import json
import os
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import chickenfoot as cf
import chickenfoot.tournament
from chickenfoot.bots import BotFault, ProcessBot, play_out, view_message

jsonschema = pytest.importorskip("jsonschema")

pytestmark = pytest.mark.slow  # bot programs run as subprocesses

REPO = Path(__file__).resolve().parents[1]
SRC = str(REPO / "src")
PYTHON_BOT = str(REPO / "examples" / "bots" / "heaviest.py")
NODE_BOT = str(REPO / "examples" / "bots" / "heaviest.js")
NONSENSE = str(REPO / "tests" / "bots" / "nonsense.py")
HANGS = str(REPO / "tests" / "bots" / "hangs.py")
SMALL = cf.Rules.trains(max_pip=6)


def _schema() -> dict[str, object]:
    """Reads the JSON Schema from the protocol's docs page, so the page and the tests cannot drift apart."""
    page = (REPO / "docs" / "bot-protocol.md").read_text(encoding="utf-8")
    block = re.search(r"```\{code-block\} json\n:name: bot-protocol-schema\n\n(.*?)```", page, re.DOTALL)
    assert block is not None, "the schema block is missing from docs/bot-protocol.md"
    schema: dict[str, object] = json.loads(block[1])
    return schema


def _validator(part: str) -> jsonschema.Draft202012Validator:
    schema = _schema()
    return jsonschema.Draft202012Validator({**schema, "$ref": f"#/$defs/{part}"})


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    return node


def heaviest(view: cf.PlayerView) -> cf.Move:
    """The example programs' strategy in Python: the heaviest play (first of equals), else the first move."""
    best = view.legal_moves[0]
    for move in view.legal_moves:
        if isinstance(move, cf.Play) and (not isinstance(best, cf.Play) or move.tile.pips > best.tile.pips):
            best = move
    return best


def _running(script: str) -> list[int]:
    """Lists the processes (on Linux) whose command line names ``script``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if script.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def test_every_view_message_of_a_game_matches_the_documented_schema() -> None:
    validator = _validator("view")
    game = cf.new_game(cf.Rules.cross(), players=3, seed=4)
    seen = 0
    while not game.is_over and seen < 300:
        view = cf.observe(game, game.current_player)
        message = view_message(view)
        if seen % 15 == 0:  # the validator is slow; a sample covers every field's forms
            validator.validate(json.loads(json.dumps(message)))
        assert message["legal_moves"] == [str(move) for move in view.legal_moves]
        assert message["hand"] == [str(tile) for tile in view.hand]
        game = cf.apply(game, view.legal_moves[-1])
        seen += 1
    assert seen == 300


def test_the_example_handshakes_match_the_schema() -> None:
    validator = _validator("handshake")
    for command in ([sys.executable, PYTHON_BOT], [_node(), NODE_BOT]):
        with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as process:
            assert process.stdout is not None
            validator.validate(json.loads(process.stdout.readline()))
            process.communicate("", timeout=10)  # end of input: the program exits
        assert process.returncode == 0


@pytest.mark.parametrize("language", ["python", "node"])
def test_a_program_plays_the_moves_it_answers(language: str) -> None:
    command = [sys.executable, PYTHON_BOT] if language == "python" else [_node(), NODE_BOT]
    start = cf.new_game(SMALL, players=3, seed=11)
    with ProcessBot(command) as bot:
        through_pipe = play_out(start, [bot, cf.bots.GreedyBot(), cf.bots.RandomBot(seed=2)])
    in_process = play_out(start, [heaviest, cf.bots.GreedyBot(), cf.bots.RandomBot(seed=2)])
    assert through_pipe == in_process  # every move the program chose is the one its strategy picks
    assert bot.faults == []
    assert bot.name == f"heaviest ({'Python' if language == 'python' else 'Node'})"


def test_nonsense_and_illegal_answers_forfeit_the_move_and_a_crash_stops_the_program() -> None:
    start = cf.new_game(SMALL, players=2, seed=3)
    bot = ProcessBot([sys.executable, NONSENSE], seconds=10)
    game = play_out(start, [bot, cf.bots.GreedyBot()])
    forfeiting = play_out(start, [lambda view: view.legal_moves[0], cf.bots.GreedyBot()])
    assert game == forfeiting  # every move of the bot was forfeited: the first legal move
    kinds = [fault.kind for fault in bot.faults]
    assert kinds[:4] == ["illegal", "illegal", "illegal", "crash"]
    assert set(kinds[4:]) == {"stopped"}
    assert "'a move, surely' is not a move" in bot.faults[0].detail
    assert "is not a legal move" in bot.faults[1].detail
    assert (bot.faults[0].round_index, bot.faults[1].round_index) == (0, 0)
    assert bot.faults[0].turn < bot.faults[1].turn


def test_a_program_that_hangs_times_out_and_is_killed() -> None:
    view = cf.observe(start := cf.new_game(SMALL, players=2, seed=3), start.current_player)
    bot = ProcessBot([sys.executable, HANGS], seconds=0.2)
    assert bot(view) == view.legal_moves[0]
    assert bot.faults == [BotFault("timeout", round_index=0, turn=len(view.history), detail="no answer within 0.2 s")]
    assert _running(HANGS) == []  # stopped at once, not left behind
    assert bot(view) == view.legal_moves[0]  # later moves: forfeited without asking
    assert bot.faults[-1].kind == "stopped"


@pytest.mark.parametrize(
    ("program", "detail"),
    [
        ("print('hello', flush=True)", "the handshake must be a JSON line"),
        ('print(\'{"bot": "x", "protocol": 2}\', flush=True)', "the handshake must be a JSON line"),
        ("import sys; sys.exit(1)", "ended before its handshake"),
    ],
)
def test_a_program_without_a_valid_handshake_forfeits(program: str, detail: str) -> None:
    view = cf.observe(start := cf.new_game(SMALL, players=2, seed=3), start.current_player)
    bot = ProcessBot([sys.executable, "-c", program], startup_seconds=5)
    assert bot(view) == view.legal_moves[0]
    assert bot.faults[0].kind == "startup"
    assert detail in bot.faults[0].detail


def test_a_program_that_cannot_start_forfeits() -> None:
    view = cf.observe(start := cf.new_game(SMALL, players=2, seed=3), start.current_player)
    bot = ProcessBot(["/no/such/program"])
    assert bot(view) == view.legal_moves[0]
    assert bot.faults[0].kind == "startup"
    assert "cannot start '/no/such/program'" in bot.faults[0].detail


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"command": "node bot.js"}, "command must be a non-empty list"),
        ({"command": []}, "command must be a non-empty list"),
        ({"command": ["node"], "seconds": float("inf")}, "seconds must be a finite number above 0"),
        ({"command": ["node"], "seconds": 0}, "seconds must be a finite number above 0"),
        ({"command": ["node"], "startup_seconds": float("nan")}, "startup_seconds must be"),
    ],
)
def test_bad_process_bots_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ProcessBot(**kwargs)  # type: ignore[arg-type]


def test_a_copy_carries_the_command_and_starts_its_own_program() -> None:
    bot = ProcessBot([sys.executable, PYTHON_BOT], seconds=2.5, name="mine")
    copy = pickle.loads(pickle.dumps(bot))
    assert (copy.command, copy.seconds, copy.name, copy.faults) == (bot.command, 2.5, "mine", [])


@pytest.mark.parametrize("spec", ["cmd:", "cmd:   ", "cmd:python 'unclosed"])
def test_bad_cmd_names_are_refused(spec: str) -> None:
    with pytest.raises(cf.BotSpecError, match="bad bot"):
        cf.bots.make_bot(spec)


def test_a_cli_tournament_survives_programs_that_answer_nonsense_and_hang() -> None:
    programs = [(sys.executable, PYTHON_BOT), (_node(), NODE_BOT), (sys.executable, NONSENSE), (sys.executable, HANGS)]
    lineup = ",".join(f"cmd:{program} {script}" for program, script in programs)
    argv = ["tournament", "--games", "4", "--rule", "max_pip=6", "--workers", "2", "--move-seconds", "0.3"]
    env = {**os.environ, "PYTHONPATH": SRC}
    run = subprocess.run(
        [sys.executable, "-m", "chickenfoot", *argv, "--bots", lineup, "--json", "-"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    faults = {standing["bot"].rsplit("/", 1)[-1]: standing["faults"] for standing in result["standings"]}
    assert faults["heaviest.py"] == faults["heaviest.js"] == 0
    assert faults["nonsense.py"] > 0
    assert faults["hangs.py"] > 0
    assert "forfeited" in run.stderr
    assert _running(HANGS) == _running(NONSENSE) == []  # every program was stopped


def test_a_bot_object_stopped_in_one_game_plays_again_in_the_next() -> None:
    bot = ProcessBot([sys.executable, HANGS], seconds=0.2)
    result = cf.tournament.run_tournament([bot, "greedy"], games=2, workers=1, rules=SMALL)
    assert [fault.kind for fault in bot.faults].count("timeout") == 2  # started afresh, timed out again
    per_game = [outcome.faults[outcome.seats.index(0)] for outcome in result.outcomes]
    assert all(count > 0 for count in per_game)
    assert sum(per_game) == result.standings[0].faults == len(bot.faults)
    assert result.standings[1].faults == 0
    assert _running(HANGS) == []
