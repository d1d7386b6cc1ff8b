"""The command line: every command runs, usage errors exit 2 with a message, never a traceback."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

pytest.importorskip("click")
pytest.importorskip("rich")

import chickenfoot as cf
import chickenfoot.bots
import chickenfoot.tournament
from chickenfoot._io._extras import install_command
from chickenfoot.cli import main
from chickenfoot.cli._records import load_record, save_record

SRC = str(Path(__file__).resolve().parent.parent / "src")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run(
        [sys.executable, "-m", "chickenfoot", *args], capture_output=True, text=True, env=env, timeout=120
    )


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--bogus"], "--bogus"),
        (["simulate", "--players", "9"], "'--players'"),
        (["simulate", "--players", "eight"], "'eight'"),
        (["simulate", "--preset", "mexican"], "'mexican'"),
        (["simulate", "--players", "8", "--preset", "cross"], "need 57 tiles"),
        (["simulate", "--bots", "chess"], "unknown bot 'chess'"),
        (["simulate", "--bots", "greedy,random"], "2 bots given for 4 seats"),
        (["simulate", "--rule", "max_pip=10"], "max_pip must be one of"),
        (["simulate", "--rule", "colour=red"], "unknown rules option(s) colour"),
        (["simulate", "--rule", "max_pip"], "write NAME=VALUE"),
        (["play", "--seat", "3", "--players", "2"], "seat 3 does not exist"),
        (["tournament", "--games", "0"], "'--games'"),
        (["tournament", "--bots", "greedy"], "two or more bots"),
        (["tournament", "--backend", "spark"], "'spark'"),
        (["tournament", "--address", "auto"], "--address is for --backend ray"),
        (["replay", "no-such-file.json"], "does not exist"),
        (["rules", "mexican"], "'mexican'"),
        (["dance"], "'dance'"),
    ],
)
def test_usage_errors_exit_2_with_a_clear_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in out + err


def test_simulate_shows_a_whole_game_in_one_screen(capsys: pytest.CaptureFixture[str]) -> None:
    # The README's first command: a row a round, the totals and the winner, no trees.
    assert main(["simulate", "--players", "4", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert len(lines) <= 24, out  # one screen of a classic terminal
    rows = [line for line in lines if re.match(r"│ +\d+ │", line)]
    assert [int(row.split("│")[1]) for row in rows] == list(range(1, 11))  # every round, numbered from 1
    assert all(
        row.split("│")[-2].strip() == "blocked" or re.fullmatch(r"P\d out", row.split("│")[-2].strip()) for row in rows
    )
    assert "#0 9-9 center" not in out
    assert "--verbose" in out
    game = cf.new_game(cf.Rules.trains(), players=4, seed=1)
    from chickenfoot._tournament import derive_seed as _derive

    game = cf.bots.play_out(game, [cf.bots.make_bot("greedy", seed=_derive(1, "simulate", seat)) for seat in range(4)])
    for row, result in zip(rows, game.results, strict=True):
        assert [int(cell) for cell in row.split("│")[3:7]] == list(result.scores)
        ended = "blocked" if result.went_out is None else f"P{result.went_out} out"
        assert row.split("│")[-2].strip() == ended


def test_simulate_prints_every_round_the_totals_and_the_winner(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--preset", "cross", "--players", "3", "--seed", "5", "--verbose"]) == 0
    out = capsys.readouterr().out
    assert len(re.findall(r"Round \d+ of 10: ", out)) == 10
    assert "#0 9-9 center" in out
    assert "#0 0-0 center" in out
    assert out.count("scores: ") == 10
    totals = [line for line in out.splitlines() if line.startswith("totals: ")]
    assert len(totals) == 1
    values = [int(part.split("=")[1]) for part in totals[0].split()[1:]]
    scores = [line for line in out.splitlines() if line.startswith("scores: ")]
    summed = [sum(int(line.split()[1 + p].split("=")[1]) for line in scores) for p in range(3)]
    assert values == summed
    winners = [int(w) for w in re.findall(r"P(\d+)", out.rsplit("winner", 1)[1])]
    assert winners
    assert all(values[w] == min(values) for w in winners)


def test_simulate_is_reproducible_from_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    main(["simulate", "--seed", "9"])
    first = capsys.readouterr().out
    main(["simulate", "--seed", "9"])
    assert capsys.readouterr().out == first


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--players", "1"], "'--players'"),
        (["simulate", "--preset", "cross", "--players", "8"], "use a double-12 set"),
        (["simulate", "--players", "four"], "'four'"),
        (["simulate", "--preset", "dutch"], "'dutch'"),
        (["simulate", "--bogus"], "--bogus"),
        (["explode"], "'explode'"),
        ([], "Usage:"),
    ],
)
def test_bad_options_exit_2_with_a_clear_message(args: list[str], message: str) -> None:
    # In a fresh process, through `python -m chickenfoot`, as a user would run it.
    result = _run(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_every_option_is_documented_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in ("simulate", "play", "tournament", "replay", "rules"):
        assert command in out
        code, text, _ = run(capsys, command, "--help")
        assert code == 0
        options = [word for word in text.split() if word.startswith("--")]
        assert options  # every command has options, and each comes with its help text:
        for line in text.splitlines():
            if line.strip().startswith("--"):
                assert len(line.split("  ")) > 1 or line.strip().endswith("]")


def test_simulate_prints_every_round_and_writes_pictures(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "simulate", "--players", "3", "--seed", "2", "--svg", str(tmp_path / "svg"), "-v")
    assert code == 0
    for number in range(1, 11):
        assert f"Round {number} of 10:" in out
    assert "winner" in out
    pictures = sorted((tmp_path / "svg").glob("round-*.svg"))
    assert [p.name for p in pictures] == [f"round-{n:02d}.svg" for n in range(1, 11)]
    assert all(p.read_text().startswith("<svg") for p in pictures)
    assert "Round 3 of 10: 7-7" in pictures[2].read_text()  # titled as the command names rounds
    assert 'class="cf-label' in pictures[2].read_text()  # node numbers drawn


def test_simulate_matches_the_library(capsys: pytest.CaptureFixture[str]) -> None:
    # The same game through the library: the totals the command prints are the game's.
    code, out, _ = run(capsys, "simulate", "--players", "2", "--seed", "5", "--bots", "random")
    assert code == 0
    game = cf.new_game(cf.Rules.trains(), players=2, seed=5)
    from chickenfoot._tournament import derive_seed as _derive

    bots = [cf.bots.RandomBot(seed=_derive(5, "simulate", seat)) for seat in range(2)]
    while not game.is_over:
        player = game.round.current_player
        game = cf.apply(game, bots[player](cf.observe(game, player)))
    total_line = next(line for line in out.splitlines() if line.startswith("│ total"))
    numbers = [int(word) for word in total_line.replace("*", " ").replace("│", " ").split() if word.isdigit()]
    assert tuple(numbers) == game.totals


def test_rules_explains_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    for preset in ("trains", "cross"):
        code, out, _ = run(capsys, "rules", preset)
        assert code == 0
        for field in attrs.fields(cf.Rules):
            assert field.name in out
    code, out, _ = run(capsys, "rules", "cross", "--players", "8")
    assert code == 0
    assert "cannot be dealt" in out


def test_tournament_writes_json_and_csv(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = ["tournament", "--games", "3", "--bots", "greedy,random", "--workers", "1", "--rule", "max_pip=6"]
    code, out, _ = run(capsys, *argv, "--json", str(tmp_path / "t.json"), "--csv", str(tmp_path / "t.csv"))
    assert code == 0
    assert "mean score/round" in out
    data = json.loads((tmp_path / "t.json").read_text())
    expected = cf.tournament.run_tournament(["greedy", "random"], games=3, workers=1, rules=cf.Rules.trains(max_pip=6))
    assert data["standings"] == json.loads(json.dumps([attrs.asdict(standing) for standing in expected.standings]))
    rows = list(csv.DictReader(io.StringIO((tmp_path / "t.csv").read_text())))
    assert [row["bot"] for row in rows] == ["greedy", "random"]
    assert [(row["name"], row["faults"], row["stopped"]) for row in rows] == [
        ("greedy", "0", "0"),
        ("random", "0", "0"),
    ]
    assert float(rows[0]["win_rate"]) == pytest.approx(expected.standings[0].win_rate)


def test_tournament_saves_each_game_as_a_record_naming_its_seats(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["tournament", "--games", "2", "--bots", "greedy,random", "--workers", "1", "--rule", "max_pip=6"]
    code, out, _ = run(capsys, *argv, "--save-games", str(tmp_path / "games"))
    assert code == 0
    assert "saved 2 games" in out
    rules = cf.Rules.trains(max_pip=6)
    expected = cf.tournament.run_tournament(["greedy", "random"], games=2, workers=1, rules=rules)
    for outcome in expected.outcomes:
        record, states = load_record(tmp_path / "games" / f"game-{outcome.index + 1:04d}.json")
        assert record.names == tuple(("greedy", "random")[entry] for entry in outcome.seats)  # seats rotate
        assert record.event is not None
        assert "game" in record.event
        assert states[-1].is_over
        assert states[-1].totals == outcome.totals
        assert [result.scores for result in states[-1].results] == list(outcome.round_scores)


def test_tournament_json_to_stdout_is_pure_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tournament", "--games", "2", "--bots", "greedy,random", "--workers", "1", "--json", "-")
    assert code == 0
    assert json.loads(out)["games"] == 2  # the table and progress went to stderr


def _finished_game(seed: int = 4) -> cf.GameState:
    game = cf.new_game(cf.Rules.trains(max_pip=6), players=3, seed=seed)
    while not game.is_over:
        game = cf.apply(game, cf.bots.GreedyBot()(cf.observe(game, game.round.current_player)))
    return game


def test_replay_steps_by_round_and_by_move(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = _finished_game()
    path = save_record(game, tmp_path / "game.json", names=["Ada", "greedy", "search:100"], event="test")
    record, states = load_record(path)
    assert states[-1] == game
    assert record.names == ("Ada", "greedy", "search:100")
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    assert out.count("Round ") >= 7
    assert "players: P0 Ada, P1 greedy, P2 search:100" in out  # as written: no markup, no emoji
    if game.results[0].went_out is not None:
        seat = game.results[0].went_out
        assert f"P{seat} {record.names[seat]} went out" in out
    code, out, _ = run(capsys, "replay", str(path), "--by", "move")
    assert code == 0
    assert f"move {len(game.history)}, round 7: " in out
    assert "move 1, round 1: " in out


def test_replay_refuses_bad_records_cleanly(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = save_record(_finished_game(), tmp_path / "game.json", names=["a", "b", "c"], event="test")
    record = json.loads(path.read_text())
    record["moves"][3] = "6-6@0"
    path.write_text(json.dumps(record))
    with pytest.raises(cf.InvalidRecordError, match="move 4"):
        load_record(path)
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1
    assert "move 4" in err
    (tmp_path / "junk.json").write_text("{not json")
    code, _, err = run(capsys, "replay", str(tmp_path / "junk.json"))
    assert code == 1
    assert "not JSON" in err
    assert "Traceback" not in err


def test_without_the_cli_extra_the_command_says_what_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "rich", None)  # as if rich were not installed
    code, _, err = run(capsys, "simulate")
    assert code == 1
    assert "the 'cli' extra" in err
    assert install_command("cli") in err  # the command that works for this install (a checkout here)


@pytest.mark.slow
def test_tournament_output_does_not_depend_on_workers(capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for workers in ("1", "2"):
        argv = ["tournament", "--games", "4", "--bots", "greedy,random,search:3", "--rule", "max_pip=6"]
        code, out, _ = run(capsys, *argv, "--workers", workers, "--json", "-")
        assert code == 0
        outputs.append(json.loads(out))
    assert outputs[0] == outputs[1]


def test_replay_pauses_between_steps_and_stops_on_q(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = save_record(_finished_game(), tmp_path / "game.json", names=["a", "b", "c"], event="test")
    monkeypatch.setattr(sys, "stdin", io.StringIO("\nq\n"))  # one step on, then stop
    code, out, _ = run(capsys, "replay", str(path), "--pause")
    assert code == 0
    assert "Round 2 of 7:" in out
    assert "Round 3 of 7:" not in out
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # end of input stops cleanly too
    code, out, _ = run(capsys, "replay", str(path), "--pause")
    assert code == 0
    assert "Round 1 of 7:" in out
    assert "Round 2 of 7:" not in out


def test_play_load_resumes_a_saved_game_at_the_right_seat(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = cf.new_game(cf.Rules.trains(max_pip=6), players=3, seed=4)
    while game.current_player != 1 or len(game.history) < 5:
        game = cf.apply(game, cf.bots.GreedyBot()(cf.observe(game, game.round.current_player)))
    path = save_record(game, tmp_path / "game.json", names=["greedy", "Ada", "random"], event="test")
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    code, out, err = run(capsys, "play", "--load", str(path))
    assert code == 0, err
    assert f"resuming game.json at move {len(game.history) + 1}, seed 4" in out
    hand = " ".join(f"[{tile}]" for tile in sorted(game.round.hands[1], reverse=True))
    assert hand in out  # Ada's seat: the one seat not named by a bot
    assert "this game is not saved" not in out  # nothing new to lose: one quit leaves


@pytest.mark.parametrize(
    ("change", "argv", "code", "message"),
    [
        ({}, ["--players", "3"], 2, "--load takes the rules, players and seed from"),
        ({}, ["--rule", "max_pip=9", "--seed", "1"], 2, "leave out --rule, --seed"),
        ({"names": ["greedy", "Ada", "Bob"]}, [], 2, "does not say which seat is yours: give --seat (0 to 2)"),
        ({"names": ["cmd:rm -rf /", "Ada", "random"]}, [], 2, "seat 0 of"),
        ({"names": ["cmd:rm -rf /", "Ada", "random"]}, [], 2, "runs a program: name the opponents with --bots"),
        ({"names": ["greedy", "Ada", "Bob"]}, ["--seat", "1"], 2, "seat 2 of"),
        ({}, ["--seat", "5"], 2, "seat 5 does not exist in a 3-player game"),
        ({"moves": ["6-6@0"]}, [], 1, "$.moves: move 1 (6-6@0) is illegal"),
        ({"type": "game"}, [], 1, "$: missing field(s)"),
    ],
)
def test_play_load_refuses_what_it_cannot_resume(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    change: dict[str, object],
    argv: list[str],
    code: int,
    message: str,
) -> None:
    game = cf.new_game(cf.Rules.trains(max_pip=6), players=3, seed=4)
    path = save_record(game, tmp_path / "game.json", names=["greedy", "Ada", "random"], event="test")
    path.write_text(json.dumps(json.loads(path.read_text()) | change))
    exit_code, out, err = run(capsys, "play", "--load", str(path), *argv)
    assert exit_code == code
    assert message in err
    assert "Traceback" not in out + err


def test_play_load_refuses_a_finished_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = save_record(_finished_game(), tmp_path / "done.json", names=["a", "b", "c"], event="test")
    code, _, err = run(capsys, "play", "--load", str(path))
    assert code == 1
    assert "that game is over (P" in err
    assert "chickenfoot replay" in err


def test_replay_shows_the_comments_and_tags(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = _finished_game()
    path = save_record(
        game,
        tmp_path / "notes.json",
        names=["Ada", "greedy", "random"],
        event="lesson",
        comments={3: "keep the 6s for later", len(game.history): "out!"},
        round_comments={2: "a blocked round"},
        tags={"Annotator": "Ada"},
    )
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    assert "Annotator: Ada" in out
    assert "move 3 (P" in out
    assert ": keep the 6s for later" in out
    assert "a blocked round" in out
    code, out, _ = run(capsys, "replay", str(path), "--by", "move")
    assert code == 0
    lines = out.splitlines()
    third = next(index for index, line in enumerate(lines) if line.startswith("move 3, round 1: "))
    assert lines[third + 1] == "  keep the 6s for later"  # right under the move it is on
    assert "Round 2 of 7: a blocked round" in out


def test_simulate_says_how_each_round_ended_as_its_outcome(capsys: pytest.CaptureFixture[str]) -> None:
    # Random play under the variant: feet that can no longer be filled end most rounds of seed 0.
    rule = "unfillable_foot_ends_round=true"
    code, out, _ = run(
        capsys, "simulate", "--players", "2", "--seed", "0", "--bots", "random", "--rule", rule, "--verbose"
    )
    assert code == 0
    game = cf.new_game(cf.Rules.trains(unfillable_foot_ends_round=True), players=2, seed=0)
    from chickenfoot._tournament import derive_seed as _derive

    bots = [cf.bots.RandomBot(seed=_derive(0, "simulate", seat)) for seat in range(2)]
    while not game.is_over:
        player = game.round.current_player
        game = cf.apply(game, bots[player](cf.observe(game, player)))
    titles = re.findall(r"Round \d+ of 10: \d+-\d+, ([^─]*?) ─", out)
    assert len(titles) == len(game.results) == 10
    seen = set()
    for title, result in zip(titles, game.results, strict=True):
        termination = result.outcome.termination
        seen.add(termination)
        if termination is cf.Termination.WENT_OUT:
            assert title == f"P{result.went_out} random went out"
        else:
            assert termination is cf.Termination.UNFILLABLE_FOOT
            foot = result.final.board.node(result.final.board.pending or 0).tile
            assert title == f"the chicken foot on {foot} could no longer be filled"
    assert seen == {cf.Termination.WENT_OUT, cf.Termination.UNFILLABLE_FOOT}


def test_every_command_is_added_to_the_app_from_one_list() -> None:
    from chickenfoot.cli._commands import COMMANDS, app

    assert sorted(app.commands.values(), key=lambda command: command.name or "") == sorted(
        COMMANDS, key=lambda command: command.name or ""
    )
    cli = Path(SRC) / "chickenfoot" / "cli"
    registering = [
        path.name
        for path in sorted(cli.glob("*.py"))
        if path.name != "_commands.py"
        and re.search(r"\bapp\.(command|add_command)\(", path.read_text(encoding="utf-8"))
    ]
    assert registering == [], "commands are added to the app in cli/_commands.py alone"
