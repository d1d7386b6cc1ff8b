"""Tournaments: seats rotate, results do not depend on the workers, standings add up."""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap
from pathlib import Path

import attrs
import pytest

import chickenfoot as cf
import chickenfoot.bots  # cf.bots, whichever test modules ran before in this process
from chickenfoot.tournament import GameOutcome, TournamentResult, run_tournament

SMALL = cf.Rules.trains(max_pip=6)  # 7 short rounds: fast games


@pytest.mark.slow
def test_results_do_not_depend_on_the_number_of_workers() -> None:
    lineup = ["greedy", "random", "search:4"]
    alone = run_tournament(lineup, games=6, seed=5, workers=1, rules=SMALL)
    pooled = run_tournament(lineup, games=6, seed=5, workers=2, rules=SMALL)
    assert alone == pooled
    assert alone.standings == pooled.standings


def test_seats_rotate_through_the_lineup() -> None:
    result = run_tournament(["greedy", "random", "random"], games=6, seed=1, workers=1, rules=SMALL)
    for outcome in result.outcomes:
        assert sorted(outcome.seats) == [0, 1, 2]
        assert outcome.seats[0] == outcome.index % 3  # game i puts lineup[i mod n] in seat 0
    seats_taken_by_greedy = {outcome.seats.index(0) for outcome in result.outcomes}
    assert seats_taken_by_greedy == {0, 1, 2}


def test_games_differ_and_the_seed_matters() -> None:
    first = run_tournament(["greedy", "greedy"], games=3, seed=1, workers=1, rules=SMALL)
    second = run_tournament(["greedy", "greedy"], games=3, seed=2, workers=1, rules=SMALL)
    assert len({outcome.seed for outcome in first.outcomes}) == 3
    assert first.outcomes != second.outcomes


def test_progress_is_reported_for_every_game() -> None:
    seen: list[tuple[int, int]] = []
    run_tournament(["greedy", "random"], games=3, seed=0, workers=1, rules=SMALL, progress=lambda *a: seen.append(a))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def _outcome(
    index: int, seats: tuple[int, ...], rounds: tuple[tuple[int, ...], ...], winners: tuple[int, ...]
) -> GameOutcome:
    totals = tuple(sum(scores[seat] for scores in rounds) for seat in range(len(seats)))
    return GameOutcome(index=index, seed=index, seats=seats, round_scores=rounds, totals=totals, winners=winners)


def test_standings_are_computed_by_hand() -> None:
    # Two games of two rounds; lineup "a" (entry 0) and "b" (entries 1 and 2, pooled).
    outcomes = (
        _outcome(0, (0, 1, 2), ((0, 10, 20), (5, 5, 5)), winners=(0,)),  # a in seat 0; round 2 a three-way tie
        _outcome(1, (1, 2, 0), ((0, 4, 8), (8, 6, 0)), winners=(0, 2)),  # a in seat 2; a shares the win with b
    )
    result = TournamentResult(rules=SMALL, lineup=("a", "b", "b"), seed=0, outcomes=outcomes)
    a, b = result.standings
    assert (a.bot, a.seats, a.games, b.bot, b.seats) == ("a", 1, 2, "b", 2)
    assert a.mean_round_score == pytest.approx((2.5 + 4.0) / 2)
    assert b.mean_round_score == pytest.approx((40 / 4 + 18 / 4) / 2)
    assert a.win_rate == pytest.approx((1 + 0.5) / 2)
    assert b.win_rate == pytest.approx((0 + 0.5 / 2) / 2)  # per seat: half a win over two seats
    assert a.win_rate * a.seats + b.win_rate * b.seats == pytest.approx(1)  # each game's win is shared out
    assert a.mean_rounds_won == pytest.approx(((1 + 1 / 3) + 1) / 2)
    assert b.mean_rounds_won == pytest.approx(((2 / 3) / 2 + 1 / 2) / 2)
    assert a.ci95 == pytest.approx(1.96 * math.sqrt(2 * 0.75**2) / math.sqrt(2))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"lineup": ["greedy", "chess"]}, "unknown bot 'chess'"),
        ({"lineup": ["greedy", "random:5"]}, "only search, sampler, rollout, solver and omniscient take a budget"),
        ({"lineup": ["greedy"]}, "2 or more players"),
        ({"games": 0}, "games must be"),
        ({"workers": 0}, "workers must be"),
        ({"backend": "spark"}, "backend must be"),
    ],
)
def test_bad_tournaments_are_refused_with_a_reason(kwargs: dict[str, object], message: str) -> None:
    arguments: dict[str, object] = {"lineup": ["greedy", "random"], "games": 1, "workers": 1, **kwargs}
    with pytest.raises(ValueError, match=message):
        run_tournament(**arguments)  # type: ignore[arg-type]


@pytest.mark.slow
def test_the_library_imports_no_optional_dependency() -> None:
    # `import chickenfoot` needs attrs and typing-extensions only; click, rich and ray stay out.
    import subprocess
    import sys
    from pathlib import Path

    src = str(Path(cf.__file__).resolve().parent.parent)
    code = "import sys, chickenfoot; print(sorted({m.split('.')[0] for m in sys.modules} & {'click', 'rich', 'ray'}))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={"PYTHONPATH": src})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def heaviest(view: cf.PlayerView) -> cf.Move:
    """A bot written as a plain function: the heaviest play, else the first move (draw or pass)."""
    plays = [move for move in view.legal_moves if isinstance(move, cf.Play)]
    return max(plays, key=lambda move: move.tile.pips) if plays else view.legal_moves[0]


def test_functions_bot_objects_and_names_play_together_on_any_number_of_workers() -> None:
    lineup = [heaviest, cf.bots.GreedyBot(), "random"]
    alone = run_tournament(lineup, games=4, seed=2, workers=1, rules=SMALL)
    pooled = run_tournament(lineup, games=4, seed=2, workers=2, rules=SMALL)
    assert alone == pooled
    assert [standing.bot for standing in alone.standings] == ["heaviest", "GreedyBot()", "random"]
    # The objects were really consulted: a lineup of names only plays other games.
    named = run_tournament(["random", "greedy", "random"], games=4, seed=2, workers=1, rules=SMALL)
    assert named.outcomes != alone.outcomes
    # A GreedyBot object plays as the name "greedy" does: same deals, same seats, same games.
    by_name = run_tournament([heaviest, "greedy", "random"], games=4, seed=2, workers=1, rules=SMALL)
    assert by_name.outcomes == alone.outcomes


def test_a_bot_with_a_name_attribute_is_listed_by_it() -> None:
    class Named:
        name = "my bot"

        def __call__(self, view: cf.PlayerView) -> cf.Move:
            return view.legal_moves[0]

    result = run_tournament([Named(), "greedy"], games=1, seed=0, workers=1, rules=SMALL)
    assert result.lineup == ("my bot", "greedy")


def test_a_bot_that_cannot_reach_worker_processes_is_refused_unless_played_here() -> None:
    def first(view: cf.PlayerView) -> cf.Move:  # local: pickle cannot copy it
        return view.legal_moves[0]

    with pytest.raises(cf.BotSpecError, match=r"bot .*first cannot be copied to worker processes.*workers=1"):
        run_tournament([first, "greedy"], games=2, workers=2, rules=SMALL)
    assert len(run_tournament([first, "greedy"], games=2, workers=1, rules=SMALL).outcomes) == 2


# A script whose other thread writes to standard error without end, holding the stream's lock a
# moment at a time, while it plays tournaments on two workers with a bot that writes there too. A
# worker forked at such a moment would start with the lock held by a thread it does not have, and
# hang at the bot's first line, and the tournament with it.
_LOCK_HELD_AT_START = """
import io
import os
import sys
import threading
import traceback

import chickenfoot as cf
import chickenfoot.tournament


def chatty(view):
    print("thinking", file=sys.stderr, flush=True)
    return view.legal_moves[0]


def write_forever(stream):
    while True:
        stream.write("x" * 4096)


if __name__ == "__main__":
    sys.stderr = io.TextIOWrapper(open(os.devnull, "wb"))
    threading.Thread(target=write_forever, args=(sys.stderr,), daemon=True).start()
    try:
        rules = cf.Rules.trains(max_pip=6)
        for seed in range(3):
            result = cf.tournament.run_tournament([chatty, "greedy"], games=2, seed=seed, workers=2, rules=rules)
            print(len(result.outcomes), flush=True)
    except BaseException:
        traceback.print_exc(file=sys.__stderr__)
        os._exit(1)
    os._exit(0)  # not an exit, which flushes and waits on the stream the thread holds
"""


@pytest.mark.slow
def test_workers_start_fresh_so_no_lock_held_by_another_thread_hangs_them(tmp_path: Path) -> None:
    script = tmp_path / "held.py"
    script.write_text(_LOCK_HELD_AT_START)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (0, "2\n2\n2\n"), done.stderr
    assert "thinking" in done.stderr  # the bot wrote on the workers' own standard error, not on the script's


@pytest.mark.parametrize(
    "call",
    [
        "cf.tournament.run_tournament([first, 'greedy'], games=2, workers=2)",
        "cf.tournament.run_ladder([first, 'greedy'], deals=2, workers=2)",
    ],
)
def test_a_bot_typed_at_a_prompt_is_refused_for_worker_processes(call: str) -> None:
    # python -c is a prompt's __main__ (no file): a worker, a fresh interpreter, could not import the bot.
    typed = f"""
        import chickenfoot as cf
        import chickenfoot.tournament
        def first(view):
            return view.legal_moves[0]
        try:
            {call}
        except cf.BotSpecError as error:
            print(error)
    """
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(typed)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("bot first is defined in an interactive session"), done.stdout
    assert "workers=1" in done.stdout


def test_an_entry_that_is_no_bot_is_refused() -> None:
    with pytest.raises(cf.BotSpecError, match="lineup entry 1 is 42"):
        run_tournament(["greedy", 42], games=1, workers=1)  # type: ignore[list-item]


class _Stop(Exception):
    pass


def _stop_after_first(done: int, total: int) -> None:
    assert total == 10**9
    raise _Stop


@pytest.mark.parametrize("workers", [1, 2])
def test_a_huge_tournament_starts_playing_at_once(workers: int) -> None:
    # The task list is never built: the first game ends (and the progress callback stops the run)
    # long before a billion tasks could be listed.
    with pytest.raises(_Stop):
        run_tournament(["greedy", "random"], games=10**9, workers=workers, rules=SMALL, progress=_stop_after_first)


class Crashes:
    """A bot that raises in its seat's first move of the second round (a module-level class: workers can copy it)."""

    def __call__(self, view: cf.PlayerView) -> cf.Move:
        if view.round_index == 1:
            raise ZeroDivisionError("division by zero")
        return view.legal_moves[0]


class Cheats:
    """A bot that passes when it may not."""

    name = "cheater"

    def __call__(self, view: cf.PlayerView) -> cf.Move:
        return cf.Pass() if view.round_index == 1 else view.legal_moves[0]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failing_python_bot_stops_the_tournament_naming_bot_seat_game_and_position(workers: int) -> None:
    for bot, name, what in (
        (Crashes(), "Crashes", "raised ZeroDivisionError: division by zero"),
        (Cheats(), "cheater", "chose pass, which is not legal"),
    ):
        with pytest.raises(cf.bots.BotError) as caught:
            run_tournament(["greedy", bot], games=4, seed=1, workers=workers, rules=SMALL)
        error = caught.value
        game = error.game
        assert game is not None
        seat = error.seat
        assert error.bot == name
        assert (seat + game) % 2 == 1  # game g puts lineup entry (s + g) % 2 in seat s: the bot is entry 1
        assert error.state.round_index == 1
        assert error.state.round.current_player == seat
        message = str(error)
        assert f"bot {name!r} in seat {seat} of game {game + 1} (index {game})" in message
        assert what in message
        assert f"position: {cf.position(error.state.round)}" in message
        if workers == 1:
            assert isinstance(error.__cause__, ZeroDivisionError | cf.IllegalMoveError)


def test_a_bot_object_without_a_name_shows_as_its_class() -> None:
    class Mine:
        def __call__(self, view: cf.PlayerView) -> cf.Move:
            return view.legal_moves[0]

    result = run_tournament([Mine(), cf.bots.GreedyBot()], games=1, workers=1, rules=SMALL)
    assert result.lineup == ("Mine", "GreedyBot()")


def test_round_and_game_hooks_are_called_with_the_bots_view() -> None:
    class Listening:
        def __init__(self) -> None:
            self.heard: list[tuple[str, int, int]] = []

        def __call__(self, view: cf.PlayerView) -> cf.Move:
            return view.legal_moves[0]

        def round_over(self, view: cf.PlayerView) -> None:
            self.heard.append(("round", view.player, len(view.round_scores)))

        def game_over(self, view: cf.PlayerView) -> None:
            assert view.is_over
            self.heard.append(("game", view.player, len(view.round_scores)))

    bot = Listening()
    game = cf.bots.play_out(cf.new_game(SMALL, players=2, seed=1), [bot, cf.bots.GreedyBot()])
    rounds = len(game.results)
    assert bot.heard == [("round", 0, number) for number in range(1, rounds + 1)] + [("game", 0, rounds)]


@pytest.mark.slow
def test_program_reports_are_the_same_on_one_and_two_workers() -> None:
    import sys
    from pathlib import Path

    bots = Path(__file__).resolve().parent / "bots"
    examples = Path(__file__).resolve().parents[1] / "examples" / "bots"
    lineup = [
        cf.bots.ProcessBot([sys.executable, str(examples / "heaviest_v2.py")], seconds=60, startup_seconds=60),
        cf.bots.ProcessBot([sys.executable, str(bots / "nonsense.py")], seconds=60, startup_seconds=60),
        cf.bots.ProcessBot([sys.executable, str(bots / "hangs.py")], seconds=0.3, startup_seconds=60),
    ]
    alone = run_tournament(lineup, games=3, seed=4, workers=1, rules=SMALL)
    pooled = run_tournament(lineup, games=3, seed=4, workers=2, rules=SMALL)
    assert alone == pooled
    assert alone.standings == pooled.standings
    reports = [standing.report for standing in alone.standings]
    assert [report.name for report in reports] == ["heaviest v2 (Python)", "nonsense", "hangs"]
    assert [[(tally.kind, tally.count) for tally in report.faults] for report in reports] == [
        [],
        [("illegal", 9), ("crash", 3)],
        [("timeout", 3)],
    ]
    assert reports[0].stopped == 0
    assert reports[2].stopped == sum(outcome.reports[outcome.seats.index(2)].stopped for outcome in alone.outcomes)
    first = reports[1].faults[0].first
    assert (first.kind, first.game, first.detail) == ("illegal", 0, "'a move, surely' is not a move")
    assert [bot.faults for bot in lineup] == [[], [], []]  # the objects are templates: each game ran a copy


def test_standings_pool_the_reports_of_every_seat_a_bot_took() -> None:
    fault = cf.bots.BotFault
    late = cf.bots.BotReport.tally("x", [fault("timeout", 2, 5, "no answer within 1 s", game=1)], stopped=7)
    early = cf.bots.BotReport.tally(
        "x", [fault("illegal", 0, 1, "'?' is not a move", game=0), fault("illegal", 0, 3, "'!' is not a move", game=0)]
    )
    outcomes = (
        _outcome(0, (0, 1, 2), ((0, 10, 20), (5, 5, 5)), winners=(0,)),
        _outcome(1, (1, 2, 0), ((0, 4, 8), (8, 6, 0)), winners=(0, 2)),
    )
    outcomes = (
        attrs.evolve(outcomes[0], reports=(cf.bots.BotReport(), early, cf.bots.BotReport())),
        attrs.evolve(outcomes[1], reports=(late, cf.bots.BotReport(), cf.bots.BotReport())),
    )
    a, b = TournamentResult(rules=SMALL, lineup=("a", "b", "b"), seed=0, outcomes=outcomes).standings
    assert a.report == cf.bots.BotReport()
    assert b.report.name == "x"
    assert [(tally.kind, tally.count, tally.first.where()) for tally in b.report.faults] == [
        ("illegal", 2, "game 1, round 1, move 2"),
        ("timeout", 1, "game 2, round 3, move 6"),
    ]
    assert (b.report.fault_count, b.report.stopped) == (3, 7)
