"""Analysis: every legal move with its estimate, interval, visits, win chance and line; the sampler, omniscient bots."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

import chickenfoot as cf
import chickenfoot.tournament
from _games import games
from chickenfoot.bots import OmniscientBot, SamplerBot, analyse, make_bot, play_out

Tile = cf.Tile


def _to_move(game: cf.GameState) -> cf.PlayerView:
    return cf.observe(game, game.round.current_player)


def _game_with_choices(players: int = 2, seed: int = 7, placed: int = 1) -> cf.GameState:
    """Plays first moves until the board has ``placed`` tiles or more and the player to move has 3 moves or more."""
    game = cf.new_game(cf.Rules.trains(), players=players, seed=seed)
    while len(cf.legal_moves(game)) < 3 or len(game.round.board.nodes) < placed:
        game = cf.apply(game, cf.legal_moves(game)[0])
    return game


def test_every_legal_move_is_analysed_with_its_interval_and_line() -> None:
    game = _game_with_choices()
    view = _to_move(game)
    analysis = analyse(view, simulations=300)
    assert analysis.player == view.player
    assert analysis.simulations == 300
    assert sorted(map(str, (row.move for row in analysis.moves))) == sorted(map(str, view.legal_moves))
    assert sum(row.visits for row in analysis.moves) == 300  # every simulation starts with one of them
    assert [row.visits for row in analysis.moves] == sorted((row.visits for row in analysis.moves), reverse=True)
    assert analysis.best == analysis.moves[0].move
    for row in analysis.moves:
        assert row.line[0] == row.move
        assert row.low <= row.score <= row.high
        assert 0 <= row.score <= 495  # a round score: tiles left in hand
        assert row.win is not None
        assert 0 <= row.win <= 1
    # The line is a sequence of play a round could have: it applies, move after move, in some world.
    line = analysis.moves[0].line
    assert len(line) > 1


def test_an_analysis_is_reproducible_for_a_seed() -> None:
    view = _to_move(_game_with_choices(seed=3))
    assert analyse(view, simulations=100, seed=4) == analyse(view, simulations=100, seed=4)
    assert analyse(view, simulations=100, seed=4) != analyse(view, simulations=100, seed=5)


def test_going_out_scores_nothing_in_every_simulation() -> None:
    # Player 0 holds only 5-3, which fits both open ends (5 at #1, 3 at #2): either play goes out.
    rules = cf.Rules.trains(max_pip=6)
    board = cf.Board.start(Tile(6, 6), arms=2).place(Tile(6, 5), onto=0).place(Tile(6, 3), onto=0)
    rest = [tile for tile in cf.full_set(6) if tile not in {node.tile for node in board.nodes} | {Tile(5, 3)}]
    round_ = cf.RoundState(
        rules=rules,
        hands=((Tile(5, 3),), tuple(rest[:8])),
        yard=tuple(rest[8:]),
        board=board,
        current_player=0,
        reserve=2,
    )
    game = cf.GameState(rules=rules, players=2, seed=0, round=round_, round_index=0, totals=(0, 0))
    analysis = analyse(cf.observe(game, 0), simulations=40)
    assert {row.move for row in analysis.moves} == {cf.Play(Tile(5, 3), onto=1), cf.Play(Tile(5, 3), onto=2)}
    for row in analysis.moves:
        assert (row.score, row.low, row.high) == (0, 0, 0)
        assert row.line == (row.move,)  # the round ends with it
        assert row.win is None  # a position with no history: no game to win


def test_win_chance_is_exact_in_a_decided_last_round() -> None:
    # A mover far behind on totals cannot win whatever this last round brings.
    rules = cf.Rules.trains(max_pip=6)
    game = cf.new_game(rules, players=2, seed=2)
    while game.round_index < rules.rounds - 1:
        game = cf.apply(game, cf.legal_moves(game)[0])
    while len(cf.legal_moves(game)) < 2:
        game = cf.apply(game, cf.legal_moves(game)[0])
    view = _to_move(game)
    mover = view.player
    totals = list(game.totals)
    totals[mover] += 500
    behind = cf.GameState(rules, 2, game.seed, game.round, game.round_index, tuple(totals), game.results)
    analysis = analyse(cf.observe(behind, mover), simulations=50)
    assert all(row.win == 0 for row in analysis.moves if row.visits)


def test_a_position_without_history_deals_the_unseen_tiles_and_has_no_win_chance() -> None:
    game = _game_with_choices(players=3, seed=4, placed=4)
    state = cf.parse_position(cf.position(game.round))  # the same round, its history dropped
    assert not state.history
    positioned = cf.GameState(state.rules, 3, 0, state, game.round_index, (0, 0, 0))
    view = cf.observe(positioned, state.current_player)
    analysis = analyse(view, simulations=200)
    assert sorted(map(str, (row.move for row in analysis.moves))) == sorted(map(str, view.legal_moves))
    assert all(row.win is None for row in analysis.moves)


def test_analysis_refuses_a_view_without_a_move_or_a_double_budget() -> None:
    game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    idle = (game.round.current_player + 1) % 4
    with pytest.raises(ValueError, match=f"player {idle} has no move to make"):
        analyse(cf.observe(game, idle), simulations=10)
    with pytest.raises(ValueError, match="not both"):
        analyse(_to_move(game), simulations=10, seconds=1.0)
    with pytest.raises(ValueError, match="simulations must be a whole number"):
        analyse(_to_move(game), simulations=0)


def test_a_time_budget_is_cpu_time_and_ends() -> None:
    view = _to_move(_game_with_choices())
    analysis = analyse(view, seconds=0.05)
    assert analysis.simulations >= 1


@settings(max_examples=8)
@given(games(max_steps=120), st.integers(0, 2**16))
def test_the_sampler_bot_chooses_a_legal_move_reproducibly(game: cf.GameState, seed: int) -> None:
    if game.is_over:
        return
    view = _to_move(game)
    move = SamplerBot(simulations=30, seed=seed)(view)
    assert move in cf.legal_moves(game)
    assert SamplerBot(simulations=30, seed=seed)(view) == move


def test_the_sampler_bot_plays_what_the_analysis_prefers() -> None:
    view = _to_move(_game_with_choices(seed=5))
    assert SamplerBot(simulations=200, seed=2)(view) == analyse(view, simulations=200, seed=2).best


def test_the_omniscient_bot_sees_the_game_not_a_view() -> None:
    game = _game_with_choices(seed=6)
    bot = OmniscientBot(simulations=40)
    with pytest.raises(TypeError, match="sees every hand"):
        bot(_to_move(game))
    assert bot.see(game) in cf.legal_moves(game)
    finished = play_out(cf.new_game(cf.Rules.trains(max_pip=6), players=2, seed=1), [bot, make_bot("greedy")])
    assert finished.is_over


@pytest.mark.slow
def test_seeing_every_hand_helps() -> None:
    # With the hands in sight the same search scores less than with them sampled, over a few games.
    rules = cf.Rules.cross(max_pip=6)
    lineup = [OmniscientBot(40, worlds=4), SamplerBot(40, worlds=4)]
    result = cf.tournament.run_ladder(lineup, deals=6, rules=rules, seed=3, workers=1)
    omniscient, sampler = (next(r for r in result.ratings() if r.bot == repr(bot)) for bot in lineup)
    assert omniscient.cheats
    assert not sampler.cheats
    assert omniscient.mean_round_score < sampler.mean_round_score


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("sampler", "SamplerBot(simulations=1000, seed=0)"),
        ("sampler:300", "SamplerBot(simulations=300, seed=0)"),
        ("search:20ms", "SearchBot(simulations=100, seconds=0.02, seed=0)"),
        ("omniscient:50", "OmniscientBot(simulations=50, seed=0)"),
        ("heaviest", "HeaviestBot()"),
    ],
)
def test_bot_names_give_kinds_and_budgets(spec: str, expected: str) -> None:
    assert repr(make_bot(spec)) == expected


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("greedy:5", "only search, sampler, rollout and omniscient take a budget"),
        ("search:0", "write the budget as search:N"),
        ("sampler:5s", "write the budget as sampler:N"),
        ("search:ms", "write the budget as search:N"),
        ("omniscient:-3", "write the budget as omniscient:N"),
        ("rollout:", r"write the budget as rollout:N \(N rollouts a move\)"),
        ("greedy:", "only search, sampler, rollout and omniscient take a budget"),
    ],
)
def test_bad_budgets_are_refused_with_a_reason(spec: str, message: str) -> None:
    with pytest.raises(cf.BotSpecError, match=message):
        make_bot(spec)


def test_search_bots_refuse_bad_budgets() -> None:
    for bot in (SamplerBot, OmniscientBot):
        with pytest.raises(ValueError, match="simulations must be"):
            bot(simulations=0)
        with pytest.raises(ValueError, match="seconds must be"):
            bot(seconds=math.inf)
        with pytest.raises(ValueError, match="worlds must be"):
            bot(worlds=0)
