"""The bot protocol: programs in any language play through ProcessBot (versions 1 and 2), every message matches the
documented schema, and a failing program forfeits moves, is stopped and never hangs or breaks a tournament."""

from __future__ import annotations

import copy
import json
import os
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, strategies as st

import chickenfoot as cf
import chickenfoot.tournament
from _processes import living_with, marked
from chickenfoot.bots import BotFault, Info, MoveInfo, ProcessBot, handshake_problem, play_out, view_message

jsonschema = pytest.importorskip("jsonschema")

pytestmark = pytest.mark.slow  # bot programs run as subprocesses
__all__ = ["marked"]  # the fixture, used by name

REPO = Path(__file__).resolve().parents[1]
SRC = str(REPO / "src")
BOTS = REPO / "examples" / "bots"
PYTHON_BOT = str(BOTS / "heaviest.py")
NODE_BOT = str(BOTS / "heaviest.js")
V2_BOT = str(BOTS / "heaviest_v2.py")
NONSENSE = str(REPO / "tests" / "bots" / "nonsense.py")
HANGS = str(REPO / "tests" / "bots" / "hangs.py")
HOSTILE = str(REPO / "tests" / "bots" / "hostile.py")
RECORDER = str(REPO / "tests" / "bots" / "recorder.py")
SMALL = cf.Rules.trains(max_pip=6)
PATIENT = 60.0  # seconds for a well-behaved program: never reached, even on a loaded machine


def _schema() -> dict[str, object]:
    """Reads the JSON Schema from the protocol's docs page, so the page and the tests cannot drift apart."""
    page = (REPO / "docs" / "bot-protocol.md").read_text(encoding="utf-8")
    block = re.search(r"```\{code-block\} json\n:name: bot-protocol-schema\n\n(.*?)```", page, re.DOTALL)
    assert block is not None, "the schema block is missing from docs/bot-protocol.md"
    schema: dict[str, object] = json.loads(block[1])
    return schema


def _validator(part: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator({**_schema(), "$ref": f"#/$defs/{part}"})


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


def first(view: cf.PlayerView) -> cf.Move:
    """What a forfeit plays: the first legal move."""
    return view.legal_moves[0]


def _view() -> cf.PlayerView:
    start = cf.new_game(SMALL, players=2, seed=3)
    return cf.observe(start, start.current_player)


def test_every_view_message_of_a_game_matches_the_documented_schema() -> None:
    validator = _validator("view")
    game = cf.new_game(cf.Rules.cross(), players=3, seed=4)
    seen = 0
    while not game.is_over and seen < 300:
        view = cf.observe(game, game.current_player)
        for request in (None, seen + 1):
            message = view_message(view, request=request)
            if seen % 15 == 0:  # the validator is slow; a sample covers every field's forms
                validator.validate(json.loads(json.dumps(message)))
            assert message["legal_moves"] == [str(move) for move in view.legal_moves]
            assert message["hand"] == [str(tile) for tile in view.hand]
            assert ("id" in message) == (message["protocol"] == 2)
        game = cf.apply(game, view.legal_moves[-1])
        seen += 1
    assert seen == 300
    version_1 = view_message(view)
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({**version_1, "id": 3})  # version 1 has no id
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({**version_1, "protocol": 2})  # version 2 has one


def test_the_example_handshakes_match_the_schema() -> None:
    validator = _validator("handshake")
    for command in ([sys.executable, PYTHON_BOT], [_node(), NODE_BOT], [sys.executable, V2_BOT]):
        with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as process:
            assert process.stdout is not None
            hello = json.loads(process.stdout.readline())
            validator.validate(hello)
            assert handshake_problem(hello) is None
            process.communicate("", timeout=PATIENT)  # end of input: the program exits
        assert process.returncode == 0


@pytest.mark.parametrize(
    ("hello", "problem"),
    [
        ({"bot": "t", "protocol": True}, '"protocol" must be 1 or 2, got true'),
        ({"protocol": 1}, '"bot" must be a name of 1 to 64 characters'),
        ({"bot": 5, "protocol": 1}, '"bot" must be a name'),
        ({"bot": "t", "protocol": 3}, '"protocol" must be 1 or 2, got 3'),
        ({"bot": "t"}, '"protocol" must be 1 or 2, got nothing'),
        ({"bot": "  ", "protocol": 1}, "not blank"),
        ({"bot": "\x1b[2Jbot", "protocol": 1}, "without control characters"),
        ({"bot": "x" * 65, "protocol": 2}, "1 to 64 characters"),
        (["bot", 1], "must be a JSON object"),
    ],
)
def test_handshakes_the_schema_refuses_are_refused_with_the_reason(hello: object, problem: str) -> None:
    assert not _validator("handshake").is_valid(hello)
    found = handshake_problem(hello)
    assert found is not None
    assert problem in found


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([1.0, 2.0, 1.5]) | st.text(max_size=70),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=3), children, max_size=3),
    max_leaves=8,
)
_HANDSHAKES = st.fixed_dictionaries(
    {},
    optional={
        "bot": _JSON | st.text(min_size=60, max_size=70) | st.sampled_from(["ok", " a ", "\t", "b\n", "é\x85"]),
        "protocol": _JSON | st.sampled_from([1, 2, 1.0, True, False, 0]),
        "author": _JSON,
    },
)


@given(_JSON | _HANDSHAKES)
def test_the_handshake_check_is_the_schema(hello: object) -> None:
    assert (handshake_problem(hello) is None) == _validator("handshake").is_valid(hello)


@pytest.mark.parametrize("language", ["python", "node", "version 2"])
def test_a_program_plays_the_moves_it_answers(language: str) -> None:
    command = {
        "python": [sys.executable, PYTHON_BOT],
        "node": [_node(), NODE_BOT],
        "version 2": [sys.executable, V2_BOT],
    }[language]
    start = cf.new_game(SMALL, players=3, seed=11)
    with ProcessBot(command, seconds=PATIENT, startup_seconds=PATIENT) as bot:
        through_pipe = play_out(start, [bot, cf.bots.GreedyBot(), cf.bots.RandomBot(seed=2)])
        assert bot.protocol == (2 if language == "version 2" else 1)
    in_process = play_out(start, [heaviest, cf.bots.GreedyBot(), cf.bots.RandomBot(seed=2)])
    assert through_pipe == in_process  # every move the program chose is the one its strategy picks
    assert bot.faults == []
    assert bot.stopped == 0
    names = {"python": "heaviest (Python)", "node": "heaviest (Node)", "version 2": "heaviest v2 (Python)"}
    assert bot.name == names[language]


def test_a_version_2_program_gives_info_lines_and_they_are_logged(tmp_path: Path) -> None:
    log = tmp_path / "bots.log"
    view = _view()
    with ProcessBot([sys.executable, V2_BOT], seconds=PATIENT, startup_seconds=PATIENT, log=log) as bot:
        move = bot(view)
    plays = sorted(view.legal_moves, key=lambda move: -move.tile.pips if isinstance(move, cf.Play) else 1)
    assert move == heaviest(view)
    assert bot.info == Info(
        nodes=len(view.legal_moves),
        line=(move,),
        text=f"{len(view.legal_moves)} legal, heaviest first",
        moves=tuple(
            MoveInfo(play, score=-float(play.tile.pips if isinstance(play, cf.Play) else -1)) for play in plays
        ),
    )
    logged = log.read_text(encoding="utf-8").splitlines()
    assert len(logged) == 1
    assert re.fullmatch(r"heaviest v2 \(Python\) \[\d+\] info: \{.*\}", logged[0])
    _validator("info").validate(json.loads(logged[0].split(" info: ", 1)[1]))


def test_a_version_2_program_is_told_of_each_round_and_the_game_end(tmp_path: Path) -> None:
    log = tmp_path / "bots.log"
    start = cf.new_game(SMALL, players=2, seed=5)
    bot = ProcessBot([sys.executable, RECORDER], seconds=PATIENT, startup_seconds=PATIENT, log=log)
    game = cf.tournament.play_game(SMALL, [bot, "greedy"], seed=5, index=0)
    received = [
        json.loads(line.split(" stderr: ", 1)[1])
        for line in log.read_text(encoding="utf-8").splitlines()
        if " stderr: " in line
    ]
    kinds = [message["type"] for message in received]
    assert kinds.count("round_over") == len(game.round_scores) == SMALL.rounds
    assert kinds[-2:] == ["round_over", "game_over"]
    for message in received:
        _validator(message["type"]).validate(message)
    views = [message for message in received if message["type"] == "view"]
    assert [message["id"] for message in views] == list(range(1, len(views) + 1))
    rounds = [message for message in received if message["type"] == "round_over"]
    seat = game.seats.index(0)
    assert [message["scores"][seat] for message in rounds] == [scores[seat] for scores in game.round_scores]
    assert received[-1]["totals"] == list(game.totals)
    assert start.players == 2


def test_the_recorder_answers_like_the_first_legal_move() -> None:
    start = cf.new_game(SMALL, players=2, seed=5)
    with ProcessBot([sys.executable, RECORDER], seconds=PATIENT, startup_seconds=PATIENT) as bot:
        assert play_out(start, [bot, cf.bots.GreedyBot()]) == play_out(start, [first, cf.bots.GreedyBot()])
    assert bot.faults == []


def test_nonsense_and_illegal_answers_forfeit_the_move_and_a_crash_stops_the_program() -> None:
    start = cf.new_game(SMALL, players=2, seed=3)
    bot = ProcessBot([sys.executable, NONSENSE], seconds=PATIENT, startup_seconds=PATIENT)
    game = play_out(start, [bot, cf.bots.GreedyBot()])
    forfeiting = play_out(start, [first, cf.bots.GreedyBot()])
    assert game == forfeiting  # every move of the bot was forfeited: the first legal move
    assert [fault.kind for fault in bot.faults] == ["illegal", "illegal", "illegal", "crash"]
    assert "'a move, surely' is not a move" in bot.faults[0].detail
    assert bot.faults[1].detail == "9-9@99 is not a legal move"
    assert bot.faults[3].detail == "the program ended (exit code 3)"
    assert (bot.faults[0].round_index, bot.faults[1].round_index) == (0, 0)
    assert bot.faults[0].turn < bot.faults[1].turn
    bot_moves = sum(1 for state in _states(game) if state.round.current_player == 0)
    assert bot.stopped == bot_moves - 4  # every move after the crash, counted apart from the faults
    report = bot.report()
    assert (report.name, [(tally.kind, tally.count) for tally in report.faults]) == (
        "nonsense",
        [("illegal", 3), ("crash", 1)],
    )


def test_a_program_that_hangs_times_out_and_is_killed(
    marked: tuple[dict[str, str], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, mark = marked
    monkeypatch.setenv(*mark.split("="))  # the program inherits the mark
    view = _view()
    bot = ProcessBot([sys.executable, HANGS], seconds=0.2, startup_seconds=PATIENT)
    assert bot(view) == view.legal_moves[0]
    assert bot.faults == [BotFault("timeout", round_index=0, turn=len(view.history), detail="no answer within 0.2 s")]
    assert living_with(mark) == []  # stopped at once, not left behind
    assert bot(view) == view.legal_moves[0]  # later moves: forfeited without asking
    assert (len(bot.faults), bot.stopped) == (1, 1)


@pytest.mark.parametrize(
    ("mode", "detail"),
    [
        ("hello hello", "the handshake must be a JSON line"),
        ('hello {"bot":"t","protocol":true}', '"protocol" must be 1 or 2, got true'),
        ('hello {"protocol":1}', '"bot" must be a name of 1 to 64 characters'),
        ('hello {"bot":5,"protocol":1}', '"bot" must be a name'),
        ('hello {"bot":"x","protocol":3}', '"protocol" must be 1 or 2, got 3'),
        ("crash-early", "the program ended (exit code 1) before its handshake"),
    ],
)
def test_a_program_without_a_valid_handshake_forfeits(mode: str, detail: str) -> None:
    view = _view()
    command = [sys.executable, "-c", "import sys; sys.exit(1)"] if mode == "crash-early" else []
    if not command:
        _, _, hello = mode.partition(" ")
        command = [sys.executable, HOSTILE, "hello", hello]
    bot = ProcessBot(command, startup_seconds=PATIENT)
    assert bot(view) == view.legal_moves[0]
    assert [fault.kind for fault in bot.faults] == ["startup"]
    assert detail in bot.faults[0].detail
    assert bot.handshake is None


def test_a_program_that_cannot_start_forfeits() -> None:
    view = _view()
    bot = ProcessBot(["/no/such/program"])
    assert bot(view) == view.legal_moves[0]
    assert bot.faults[0].kind == "startup"
    assert "cannot start '/no/such/program'" in bot.faults[0].detail


def test_late_and_second_answers_are_discarded_never_played() -> None:
    start = cf.new_game(SMALL, players=2, seed=3)
    expected = play_out(start, [first, cf.bots.GreedyBot()])
    for mode in ("twice", "twice2"):  # version 1 (both in one write), version 2 (echoing the id)
        with ProcessBot([sys.executable, HOSTILE, mode], seconds=PATIENT, startup_seconds=PATIENT) as bot:
            assert play_out(start, [bot, cf.bots.GreedyBot()]) == expected
        bot_moves = sum(1 for state in _states(expected) if state.round.current_player == 0)
        assert [fault.kind for fault in bot.faults] == ["discarded"] * (bot_moves - 1)  # the last is never read
        reason = "a line written while no view was asked" if mode == "twice" else "a second or late answer to view 1"
        assert reason in bot.faults[0].detail


def _states(game: cf.GameState) -> list[cf.GameState]:
    """Gets every state of a finished game before a move."""
    return cf.replay(cf.GameRecord(game.rules, game.players, game.seed, tuple(move for _, move in game.history)))[:-1]


def test_a_program_that_writes_lines_without_end_is_stopped() -> None:
    view = _view()
    bot = ProcessBot([sys.executable, HOSTILE, "chatty"], seconds=PATIENT, startup_seconds=PATIENT)
    first_move = bot(view)
    assert first_move == view.legal_moves[0]
    assert bot.faults == []
    bot(view)  # the 200 lines it wrote after its answer are waiting
    assert [fault.kind for fault in bot.faults] == ["discarded"] * 101 + ["overflow"]
    assert bot.faults[-1].detail == "more than 100 lines that were no answer to one view"
    bot.close()


@pytest.mark.parametrize(
    ("answer", "kind", "detail"),
    [
        ('{"type": "move", "id": 1, "move": "9-9@9"}', "illegal", "9-9@9 is not a legal move"),
        ('{"type": "move", "id": 7, "move": "draw"}', "illegal", 'the answer must echo "id": 1'),
        ('{"type": "move", "id": true, "move": "draw"}', "illegal", 'the answer must echo "id": 1'),
        ("draw", "illegal", "is not a JSON message"),
        ('{"move": "draw"}', "illegal", "is not a JSON message"),
    ],
)
def test_a_version_2_answer_must_echo_the_id_and_name_a_legal_move(answer: str, kind: str, detail: str) -> None:
    view = _view()
    program = f"import json\nprint(json.dumps({{'bot': 'b', 'protocol': 2}}), flush=True)\ninput()\nprint({answer!r})"
    bot = ProcessBot([sys.executable, "-c", program], seconds=PATIENT, startup_seconds=PATIENT)
    assert bot(view) == view.legal_moves[0]
    assert [fault.kind for fault in bot.faults] == [kind]
    assert detail in bot.faults[0].detail
    bot.close()


def test_info_lines_that_break_the_schema_and_unknown_messages_are_discarded() -> None:
    view = _view()
    lines = [
        {"type": "info", "id": 1, "score": "high"},
        {"type": "info", "id": 1, "moves": [{"score": 1}]},
        {"type": "info", "id": 1, "nodes": True},
        {"type": "chat", "id": 1},
        {"type": "info", "id": 1, "score": 2, "nodes": 5.0, "line": ["draw"], "moves": [{"move": "pass"}]},
        {"type": "move", "id": 1, "move": str(view.legal_moves[-1])},
    ]
    validator = _validator("info")
    assert [validator.is_valid(line) for line in lines[:3]] == [False] * 3
    assert validator.is_valid(lines[4])
    program = "import json\nprint(json.dumps({'bot': 'b', 'protocol': 2}), flush=True)\ninput()\n"
    program += "".join(f"print({json.dumps(line)!r}, flush=True)\n" for line in lines)
    program += "input()"
    bot = ProcessBot([sys.executable, "-c", program], seconds=PATIENT, startup_seconds=PATIENT)
    assert bot(view) == view.legal_moves[-1]  # the answer still counts
    assert [fault.kind for fault in bot.faults] == ["discarded"] * 4
    assert "breaks the schema" in bot.faults[0].detail
    assert "unknown type" in bot.faults[3].detail
    assert bot.info == Info(score=2.0, nodes=5, line=(cf.Draw(),), moves=(MoveInfo(cf.Pass()),))
    bot.close()


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
def test_bad_process_bots_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ProcessBot(**kwargs)


def test_a_copy_carries_the_settings_and_starts_its_own_program(tmp_path: Path) -> None:
    bot = ProcessBot([sys.executable, PYTHON_BOT], seconds=2.5, startup_seconds=7, name="mine", log=tmp_path / "l")
    bot(_view())
    for other in (pickle.loads(pickle.dumps(bot)), copy.copy(bot)):
        assert (other.command, other.seconds, other.startup_seconds, other.name, other.log) == (
            bot.command,
            2.5,
            7,
            "mine",
            tmp_path / "l",
        )
        assert (other.faults, other.handshake, other.pid) == ([], None, None)
    assert bot.pid is not None
    bot.close()
    assert bot.pid is None


@pytest.mark.parametrize("spec", ["cmd:", "cmd:   ", "cmd:python 'unclosed"])
def test_bad_cmd_names_are_refused(spec: str) -> None:
    with pytest.raises(cf.BotSpecError, match="bad bot"):
        cf.bots.make_bot(spec)


def _cli(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chickenfoot", *argv],
        capture_output=True,
        text=True,
        env={**(env or os.environ), "PYTHONPATH": SRC, "COLUMNS": "80"},
        timeout=600,
    )


def test_a_cli_tournament_survives_programs_that_answer_nonsense(marked: tuple[dict[str, str], str]) -> None:
    env, mark = marked
    programs = [(sys.executable, PYTHON_BOT), (_node(), NODE_BOT), (sys.executable, NONSENSE)]
    lineup = ",".join(f"cmd:{program} {script}" for program, script in programs)
    run = _cli(
        *("tournament", "--games", "4", "--rule", "max_pip=6", "--workers", "2"),
        *("--move-seconds", str(PATIENT), "--startup-seconds", str(PATIENT), "--bots", lineup, "--json", "-"),
        env=env,
    )
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    reports = {standing["report"]["name"]: standing["report"] for standing in result["standings"]}
    assert reports["heaviest (Python)"]["faults"] == reports["heaviest (Node)"]["faults"] == []
    counts = {tally["kind"]: tally["count"] for tally in reports["nonsense"]["faults"]}
    assert counts == {"illegal": 12, "crash": 4}  # three nonsense answers and a crash in each of its 4 games
    assert reports["nonsense"]["stopped"] > 0
    shown = " ".join(run.stderr.split())  # the table wraps at 80 columns
    for expected in ("nonsense: cmd:", "illegal 12", "'a move, surely' is not a move", "crash 4", "exit code 3"):
        assert expected in shown
    assert living_with(mark) == []  # every program was stopped


def test_a_cli_tournament_times_out_a_program_that_hangs_once_a_game(marked: tuple[dict[str, str], str]) -> None:
    env, mark = marked
    run = _cli(
        *("tournament", "--games", "3", "--rule", "max_pip=6", "--workers", "1", "--move-seconds", "0.5"),
        *("--startup-seconds", str(PATIENT), "--bots", f"cmd:{sys.executable} {HANGS},greedy", "--json", "-"),
        env=env,
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)["standings"][0]["report"]
    assert [(tally["kind"], tally["count"]) for tally in report["faults"]] == [("timeout", 3)]
    assert report["name"] == "hangs"
    assert "timeout 3 first in game 1, round 1" in " ".join(run.stderr.split())
    assert "no answer within 0.5 s" in " ".join(run.stderr.split())
    assert living_with(mark) == []


def test_a_bot_object_is_copied_for_each_game_and_its_faults_come_back_in_the_results() -> None:
    bot = ProcessBot([sys.executable, HANGS], seconds=0.2, startup_seconds=PATIENT)
    result = cf.tournament.run_tournament([bot, "greedy"], games=2, workers=1, rules=SMALL)
    assert (bot.faults, bot.stopped, bot.pid) == ([], 0, None)  # the object itself never ran
    per_game = [outcome.reports[outcome.seats.index(0)] for outcome in result.outcomes]
    assert [[(tally.kind, tally.count) for tally in report.faults] for report in per_game] == [[("timeout", 1)]] * 2
    assert [report.faults[0].first.game for report in per_game] == [0, 1]
    pooled = result.standings[0].report
    assert (pooled.name, pooled.fault_count, pooled.stopped) == ("hangs", 2, sum(r.stopped for r in per_game))
    assert result.standings[1].report == cf.bots.BotReport()
    assert result.lineup[0] == f"{sys.executable} {HANGS}"
