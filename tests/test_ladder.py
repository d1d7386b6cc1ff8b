"""Ladders: duplicate deals, one rating scale, bootstrap intervals, paired comparisons, logs that resume."""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from pathlib import Path

import pytest

import chickenfoot as cf
from chickenfoot.bots import ProcessBot
from chickenfoot.tournament import LadderGame, LadderResult, cheats, run_ladder

SMALL = cf.Rules.trains(max_pip=6)  # 7 short rounds: fast games
REPO = Path(__file__).resolve().parent.parent
PYTHON_BOT = str(REPO / "examples" / "bots" / "heaviest.py")


def test_every_bot_of_a_table_holds_every_hand_of_its_deal() -> None:
    result = run_ladder(["greedy", "heaviest", "random"], deals=2, players=3, rules=SMALL, workers=1)
    for deal in (0, 1):
        games = [game for game in result.games if game.deal == deal]
        assert len(games) == 3  # one game per rotation
        for seat in range(3):
            assert sorted(game.seating[seat] for game in games) == [0, 1, 2]
        # The same deal: the same first round dealt, so the same tiles scored in all (one total).
        assert len({sum(game.round_scores[0]) for game in games}) <= 3


def test_permutations_play_every_order_of_the_table() -> None:
    result = run_ladder(
        ["greedy", "heaviest", "random"], deals=1, players=3, rules=SMALL, seating="permutations", workers=1
    )
    assert sorted(game.seating for game in result.games) == sorted(
        [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    )


def test_the_tables_cycle_through_every_group_of_bots() -> None:
    bots = ["greedy", "heaviest", "random", "search:2"]
    result = run_ladder(bots, deals=12, players=2, rules=SMALL, workers=1)
    tables = Counter(frozenset(game.seating) for game in result.games if game.seating[0] < game.seating[1])
    assert len(tables) == 6
    assert set(tables.values()) == {2}


def test_a_deal_is_the_same_deal_in_every_seating() -> None:
    # Two copies of one deterministic bot: every seating plays the same game, so the same scores by seat.
    def first(view: cf.PlayerView) -> cf.Move:
        return view.legal_moves[0]

    def also_first(view: cf.PlayerView) -> cf.Move:
        return view.legal_moves[0]

    result = run_ladder([first, also_first], deals=3, rules=SMALL, workers=1)
    for deal in range(3):
        one, other = (game for game in result.games if game.deal == deal)
        assert one.round_scores == other.round_scores
        assert one.seating != other.seating
    assert len({game.round_scores for game in result.games}) == 3  # and the deals differ


@pytest.mark.slow  # worker processes
def test_the_games_do_not_depend_on_the_workers_and_follow_the_seed() -> None:
    bots = ["greedy", "random", "search:3"]
    alone = run_ladder(bots, deals=6, rules=SMALL, seed=3, workers=1)
    pooled = run_ladder(bots, deals=6, rules=SMALL, seed=3, workers=2)
    assert alone == pooled
    assert alone.ratings() == pooled.ratings()  # every interval defined: six deals leave no bot out
    assert run_ladder(bots, deals=6, rules=SMALL, seed=4, workers=1).games != alone.games


def test_a_logged_ladder_resumes_without_replaying_and_may_grow(tmp_path: Path) -> None:
    log = tmp_path / "ladder.jsonl"
    bots = ["greedy", "random"]
    run_ladder(bots, deals=2, rules=SMALL, seed=1, workers=1, log=log)
    lines = log.read_text().splitlines()
    assert len(lines) == 1 + 4
    assert json.loads(lines[0])["bots"] == bots
    # Mark a logged game: a resumed ladder reads it back rather than playing it again.
    marked = json.loads(lines[1])
    marked["round_scores"][0] = [99, 99]
    log.write_text("\n".join([lines[0], json.dumps(marked), *lines[2:]]) + "\n")
    seen: list[tuple[int, int]] = []
    grown = run_ladder(bots, deals=3, rules=SMALL, seed=1, workers=1, log=log, progress=lambda *a: seen.append(a))
    assert grown.games[0].round_scores[0] == (99, 99)
    assert seen == [(5, 6), (6, 6)]  # only the new deal's two games were played
    fresh = run_ladder(bots, deals=3, rules=SMALL, seed=1, workers=1)
    assert grown.games[1:] == fresh.games[1:]
    assert len(log.read_text().splitlines()) == 1 + 6


def test_a_game_cut_off_while_being_logged_is_played_again(tmp_path: Path) -> None:
    log = tmp_path / "ladder.jsonl"
    first = run_ladder(["greedy", "random"], deals=1, rules=SMALL, workers=1, log=log)
    log.write_text(log.read_text()[:-20])  # the last line half written, as a killed run leaves it
    again = run_ladder(["greedy", "random"], deals=1, rules=SMALL, workers=1, log=log)
    assert again.games == first.games


def test_the_log_of_another_ladder_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "ladder.jsonl"
    run_ladder(["greedy", "random"], deals=1, rules=SMALL, workers=1, log=log)
    with pytest.raises(ValueError, match=r"log of another ladder .*seed"):
        run_ladder(["greedy", "random"], deals=1, rules=SMALL, seed=9, workers=1, log=log)
    with pytest.raises(ValueError, match=r"log of another ladder .*bots"):
        run_ladder(["greedy", "heaviest"], deals=1, rules=SMALL, workers=1, log=log)
    other = tmp_path / "other.txt"
    other.write_text("hello\n")
    with pytest.raises(ValueError, match="is not a ladder log"):
        run_ladder(["greedy", "random"], deals=1, rules=SMALL, workers=1, log=other)


def _result(games: list[LadderGame], bots: tuple[str, ...] = ("a", "b")) -> LadderResult:
    return LadderResult(
        rules=SMALL,
        players=2,
        bots=bots,
        cheating=(False,) * len(bots),
        seed=0,
        seating="rotations",
        games=tuple(games),
    )


def _game(deal: int, seating: tuple[int, ...], rounds: list[tuple[int, ...]]) -> LadderGame:
    totals = tuple(sum(scores[seat] for scores in rounds) for seat in range(len(seating)))
    best = min(totals)
    return LadderGame(
        deal=deal,
        seating=seating,
        round_scores=tuple(rounds),
        totals=totals,
        winners=tuple(seat for seat, total in enumerate(totals) if total == best),
    )


def test_ratings_scores_and_comparisons_by_hand() -> None:
    # Four deals of two games; per deal "a" wins 3 of the 4 rounds against "b" and scores 5 a round less.
    games = []
    for deal in range(4):
        games.append(_game(deal, (0, 1), [(0, 10), (10, 5)]))  # a wins round 1 (0 < 10), loses round 2
        games.append(_game(deal, (1, 0), [(10, 0), (10, 5)]))  # a (seat 1) wins both
    result = _result(games)
    a, b = result.ratings()
    assert (a.bot, b.bot) == ("a", "b")
    # 12 wins to 4 (plus the prior's half each way): 400 log10(12.5 / 4.5).
    assert a.rating == pytest.approx(400 * math.log10(12.5 / 4.5))
    assert b.rating == 0
    assert a.mean_round_score == pytest.approx((0 + 10 + 0 + 5) / 4)
    assert b.mean_round_score == pytest.approx((10 + 5 + 10 + 10) / 4)
    assert (a.games, b.games) == (8, 8)
    assert a.win_rate == 1.0
    assert b.win_rate == 0.0
    # Every deal is alike, so the bootstrap has nothing to vary.
    assert a.low == pytest.approx(a.rating)
    assert a.high == pytest.approx(a.rating)
    comparison = result.compare("a", "b")
    assert comparison.deals == 4
    assert comparison.score_difference == pytest.approx(3.75 - 8.75)
    assert comparison.first_ahead == 0.75
    assert comparison.rating_difference == pytest.approx(a.rating)


def test_intervals_come_from_the_variation_between_deals() -> None:
    games = []
    for deal in range(40):
        a_wins = deal % 4 != 0  # "a" wins three deals in four, each deal's rounds going one way
        rounds = [(0, 10)] if a_wins else [(10, 0)]
        games += [_game(deal, (0, 1), rounds), _game(deal, (1, 0), [scores[::-1] for scores in rounds])]
    result = _result(games)
    a = next(rating for rating in result.ratings() if rating.bot == "a")
    assert a.low < a.rating < a.high
    assert a.low > 0  # 60 to 20 is not chance, even counted by deal
    assert a.score_low < a.mean_round_score < a.score_high
    comparison = result.compare("a", "b")
    assert comparison.low == pytest.approx(a.low)
    assert comparison.high == pytest.approx(a.high)
    assert comparison.score_low < comparison.score_difference < comparison.score_high < 0
    assert result.ratings() == result.ratings()  # the bootstrap is seeded


def test_rating_by_games_counts_totals() -> None:
    # "a" wins one round of three by a lot and the game; "b" wins the other two rounds.
    games = [_game(0, (0, 1), [(0, 30), (5, 4), (5, 4)]), _game(0, (1, 0), [(30, 0), (4, 5), (4, 5)])]
    result = _result(games)
    by_round = {rating.bot: rating.rating for rating in result.ratings(anchor="a")}
    by_game = {rating.bot: rating.rating for rating in result.ratings(unit="game", anchor="a")}
    assert by_round["b"] > 0 > by_game["b"]


def test_the_omniscient_bot_enters_only_by_name_and_is_marked() -> None:
    assert cheats("omniscient")
    assert cheats("Omniscient:5")
    assert not cheats("search:5")
    result = run_ladder(["greedy", "omniscient:8"], deals=1, rules=SMALL, workers=1)
    assert result.cheating == (False, True)
    marked = {rating.bot: rating.cheats for rating in result.ratings()}
    assert marked == {"greedy": False, "omniscient:8": True}


@pytest.mark.slow  # worker processes
def test_program_bots_and_bot_objects_play_in_a_ladder() -> None:
    program = ProcessBot([sys.executable, PYTHON_BOT], seconds=30, name="program")
    result = run_ladder([program, cf.bots.GreedyBot(), "random"], deals=3, rules=SMALL, workers=2)
    assert result.bots == ("program", "GreedyBot()", "random")
    assert {rating.bot: rating.games for rating in result.ratings()} == {"program": 4, "GreedyBot()": 4, "random": 4}
    assert all(rating.faults == 0 for rating in result.ratings())


@pytest.mark.parametrize(
    ("bots", "options", "message"),
    [
        (["greedy", "greedy"], {}, "takes each bot once; greedy appears more than once"),
        (["greedy"], {}, "needs 2 or more bots"),
        (["greedy", "random"], {"deals": 0}, "deals must be a whole number"),
        (["greedy", "random"], {"seating": "shuffled"}, "seating must be"),
        (["greedy", "random"], {"players": 9}, "at most"),
        (["greedy", "chess"], {}, "unknown bot 'chess'"),
        (["greedy", "random"], {"workers": 0}, "workers must be"),
    ],
)
def test_bad_ladders_are_refused_with_a_reason(bots: list[str], options: dict[str, object], message: str) -> None:
    kwargs: dict[str, object] = {"deals": 1, "rules": SMALL, **options}
    with pytest.raises(ValueError, match=message):
        run_ladder(bots, **kwargs)  # type: ignore[arg-type]


def test_a_comparison_names_a_bot_that_is_not_there() -> None:
    result = _result([_game(0, (0, 1), [(0, 1)])])
    with pytest.raises(ValueError, match="no bot 'c' in this ladder: its bots are a, b"):
        result.compare("a", "c")
