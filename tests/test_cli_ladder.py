"""The ladder and analyse commands, and hint in play: tables that fit 80 columns, JSON, and clear refusals."""

from __future__ import annotations

import io
import json
import sys

import pytest

pytest.importorskip("click")
pytest.importorskip("rich")
from rich.cells import cell_len

import chickenfoot as cf
from chickenfoot.cli import main

SMALL = ("--rule", "max_pip=6")


def run(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def _eighty_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(sys, "stdin", sys.stdin)


def _fits(text: str) -> None:
    text = text.replace("your move> ", "your move> \n")
    wide = [line for line in text.splitlines() if cell_len(line) > 80]
    assert not wide, f"{len(wide)} lines wider than 80 columns, e.g. {wide[0]!r}"


def _position(moves: int = 6, players: int = 3) -> str:
    game = cf.new_game(cf.Rules.trains(max_pip=6), players=players, seed=4)
    for _ in range(moves):
        game = cf.apply(game, cf.legal_moves(game)[-1])
    while len(cf.legal_moves(game)) < 2:
        game = cf.apply(game, cf.legal_moves(game)[0])
    return cf.position(game.round)


def test_the_ladder_prints_ratings_marks_the_cheat_and_compares(capsys: pytest.CaptureFixture[str]) -> None:
    bots = "greedy,heaviest,random,omniscient:5"
    argv = ["ladder", "--players", "2", "--deals", "6", "--bots", bots, *SMALL, "--workers", "1"]
    code, out, err = run(capsys, *argv, "--compare", "greedy/heaviest")
    assert code == 0, err
    _fits(out + err)
    assert "omniscient:5 (cheats)" in out
    assert "95% bootstrap intervals over deals" in out
    assert "6 deals" in out
    assert "greedy vs heaviest:" in out
    again = run(capsys, *argv, "--compare", "greedy/heaviest")[1]
    table = out[out.index("6 deals") :]  # after the progress bar, whose times vary
    assert again[again.index("6 deals") :] == table  # deterministic for a seed


def test_the_ladder_writes_json_and_resumes_from_its_log(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    log = f"{tmp_path}/ladder.jsonl"
    argv = ["ladder", "--players", "2", "--deals", "2", "--bots", "greedy,random", *SMALL, "--workers", "1"]
    code, out, err = run(capsys, *argv, "--log", log, "--json", "-")
    assert code == 0, err
    data = json.loads(out)
    assert data["bots"] == ["greedy", "random"]
    assert len(data["games"]) == 4
    assert {rating["bot"] for rating in data["ratings"]} == {"greedy", "random"}
    code, out, err = run(capsys, *argv, "--log", log, "--seed", "5")
    assert code == 1
    assert "log of another ladder" in err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--bots", "greedy,greedy"], "name each bot once"),
        (["--bots", "greedy"], "2 players need 2 or more bots"),
        (["--bots", "greedy,chess"], "unknown bot 'chess'"),
        (["--compare", "greedy"], "write two bots as A/B"),
        (["--compare", "greedy/search:9"], "'search:9' is not in the ladder"),
        (["--deals", "0"], "'--deals'"),
    ],
)
def test_bad_ladders_are_refused(capsys: pytest.CaptureFixture[str], extra: list[str], message: str) -> None:
    code, _, err = run(capsys, "ladder", "--players", "2", "--bots", "greedy,random", *extra)
    assert code == 2
    assert message in err


def test_analyse_lists_every_legal_move_with_an_interval(capsys: pytest.CaptureFixture[str]) -> None:
    text = _position()
    state = cf.parse_position(text)
    code, out, err = run(capsys, "analyse", text, "--simulations", "300")
    assert code == 0, err
    _fits(out)
    assert f"P{state.current_player} to move, 300 simulations" in out
    for move in cf.legal_moves(state):
        assert str(move) in out
    code, out, err = run(capsys, "analyse", text, "--simulations", "300", "--json")
    data = json.loads(out)
    assert sorted(row["move"] for row in data["moves"]) == sorted(str(move) for move in cf.legal_moves(state))
    assert sum(row["visits"] for row in data["moves"]) == 300
    assert all(row["low"] <= row["score"] <= row["high"] for row in data["moves"] if row["visits"] > 1)


def test_analyse_refuses_what_it_cannot_analyse(capsys: pytest.CaptureFixture[str]) -> None:
    text = _position()
    turn = cf.parse_position(text).current_player
    code, _, err = run(capsys, "analyse", text, "--seat", str((turn + 1) % 3))
    assert code == 2
    assert f"it is P{turn}'s turn in this position: analyse --seat {turn}" in err
    code, _, err = run(capsys, "analyse", "trains 0 - 1 9-5")
    assert code == 2
    assert "a position has 8 fields" in err
    code, _, err = run(capsys, "analyse", text, "--simulations", "5", "--seconds", "1")
    assert code == 2
    assert "not both" in err


def test_analyse_exact_says_worlds_solved_and_takes_max_nodes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "analyse", PUZZLE, "--exact", "--simulations", "4")
    assert code == 0, err
    _fits(out)
    words = " ".join(out.split())
    assert "P0 to move, 4 worlds solved exactly; sorted by score" in words
    assert "the lowest round score P0 can guarantee" in words
    for wording in ("simulations", "visits", "search bot", "most visited", "expected line"):
        assert wording not in words
    code, out, err = run(capsys, "analyse", PUZZLE, "--exact", "--simulations", "2", "--max-nodes", "100000", "--json")
    assert code == 0, err
    assert json.loads(out)["exact"] is True
    code, _, err = run(capsys, "analyse", PUZZLE, "--max-nodes", "5")
    assert code == 2
    assert "--max-nodes is the budget of --exact" in err
    big = cf.position(cf.new_game(cf.Rules.trains(), players=4, seed=1).round)
    code, _, err = run(capsys, "analyse", big, "--exact", "--simulations", "1", "--max-nodes", "10")
    assert code == 2
    assert "raise --max-nodes, or analyse without --exact" in " ".join(err.split())
    assert "max_nodes" not in err
    assert "exact=True" not in err


@pytest.mark.slow
def test_hint_in_play_shows_the_analysis(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "play", "--players", "2", *SMALL, "--seed", "3", stdin="hint\nquit\nquit\n")
    assert code == 0, err
    _fits(out)
    assert "2,000 simulations" in out
    assert "expected line" in out


def test_the_new_commands_have_help_that_fits(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("ladder", "analyse", "solve"):
        code, out, _ = run(capsys, command, "--help")
        assert code == 0
        _fits(out)


PUZZLE = (
    "trains[max_pip=6] 0 - 2 5-5,2-1/4-4,3-0 0-0,1-0,1-1,2-0,2-2,3-1,3-2,3-3,4-0,4-1,4-2,4-3,5-0,5-1,5-2,5-3,"
    "5-4,6-0,6-1,6-3,6-4 6-6,6-5<0,6-2<0 play"
)
"""The positions page's puzzle: player 0 goes out in two turns, leaving player 1 with 4-4 and 3-0 (11)."""

HARDER = (
    "trains[max_pip=6] 0 - 2 5-5,2-1/4-4,5-2 0-0,1-0,1-1,2-0,2-2,3-1,3-2,3-3,4-0,4-1,4-2,4-3,5-0,5-1,3-0,5-3,"
    "5-4,6-0,6-1,6-3,6-4 6-6,6-5<0,6-2<0 play"
)
"""The positions page's harder variation: its line runs to 40 moves, player 1 blocking the 5s."""


def test_solve_prints_the_value_the_line_and_the_nodes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", PUZZLE, "--objective", "score")
    assert code == 0, err
    _fits(out)
    assert "value 0 (proven), the lowest P0 can guarantee:\n  P0's round score\n" in out
    assert "line: 2-1@2 draw pass 5-5@1" in out
    assert "nodes: " in out
    code, out, err = run(capsys, "solve", PUZZLE, "--player", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert (data["player"], data["objective"], data["value"], data["bound"]) == (1, "margin", 11, "exact")
    assert data["line"][-1] == "5-5@1"


def test_solve_with_too_few_nodes_says_it_gives_a_bound(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", PUZZLE, "--max-nodes", "3", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["bound"] == "upper"
    assert data["nodes"] <= 3
    code, out, err = run(capsys, "solve", PUZZLE, "--max-nodes", "3")
    assert "value at most" in out
    assert "a bound: --max-nodes ran out" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["trains 0 - 1 9-5"], "a position has 8 fields"),
        ([PUZZLE, "--player", "2"], "seat 2 does not exist with 2 players"),
        ([PUZZLE, "--objective", "win"], "'win' is not one of 'margin', 'score'"),
        ([PUZZLE, "--max-nodes", "-1"], "'--max-nodes'"),
    ],
)
def test_solve_refuses_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, _, err = run(capsys, "solve", *argv)
    assert code == 2
    assert message in err


def test_analyse_exact_solves_each_world(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "analyse", PUZZLE, "--exact", "--simulations", "4", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["simulations"] == 4
    assert [row["visits"] for row in data["moves"]] == [4, 4]
    best, other = data["moves"]
    assert best["score"] <= other["score"]
    assert all(row["low"] <= row["score"] <= row["high"] for row in data["moves"])
    assert sorted(row["move"] for row in data["moves"]) == ["2-1@2", "5-5@1"]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            [PUZZLE],
            "value -11 (proven), the lowest P0 can guarantee:\n  P0's round score less the lowest of the others'",
        ),
        ([PUZZLE, "--objective", "score"], "value 0 (proven)"),
        ([PUZZLE, "--max-nodes", "10"], "value at most 137 (a bound: --max-nodes ran out before the proof):"),
        ([PUZZLE, "--player", "1", "--max-nodes", "10"], "value at least -137 (a bound"),
        ([HARDER, "--objective", "score"], "line: 5-5@1 5-2@3 draw pass"),
    ],
)
def test_every_form_of_solve_fits_80_columns(
    capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    code, out, err = run(capsys, "solve", *argv)
    assert code == 0, err
    _fits(out)
    assert expected in out


def test_a_long_line_is_wrapped_with_its_later_lines_indented(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", HARDER, "--objective", "score")
    assert code == 0, err
    lines = out.splitlines()
    start = next(at for at, line in enumerate(lines) if line.startswith("line: "))
    end = next(at for at, line in enumerate(lines) if line.startswith("nodes: "))
    assert end - start > 1, "the line of 40 moves takes several lines"
    assert all(line.startswith("  ") for line in lines[start + 1 : end])
    moves = " ".join(lines[start:end]).removeprefix("line: ").split()
    assert [str(move) for move in cf.solve(cf.parse_position(HARDER), objective="score").line] == moves
