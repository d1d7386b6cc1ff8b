"""Player views (no hidden information leaks) and determinization (consistent with view and history)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Sequence

import attrs
import pytest
from hypothesis import given, strategies as st

import chickenfoot as cf
from _games import games, play_randomly, random_walk
from chickenfoot._game._state import stand_in_result
from chickenfoot.svg import render_svg


def _hide_differently(state: cf.RoundState, viewer: int, rng: random.Random) -> cf.RoundState:
    """Swaps tiles the viewer cannot see between other hands and the yard, and shuffles the yard.

    Where the round ends depends on the hands (END-2: nobody can play), so swaps that would end
    it differently are tried again: whether and how a round ended is public.
    """
    for _ in range(10):
        other = _swap_hidden(state, viewer, rng)
        if other.outcome == state.outcome:
            return other
    return state


def _swap_hidden(state: cf.RoundState, viewer: int, rng: random.Random) -> cf.RoundState:
    others = [seat for seat in range(state.players) if seat != viewer]
    hands = [list(hand) for hand in state.hands]
    yard = list(state.yard)
    keep = state.drawn  # the current player's drawn tile must stay theirs
    places = [(seat, i) for seat in others for i, tile in enumerate(hands[seat]) if tile is not keep]
    places += [(-1, i) for i in range(len(yard))]
    for _ in range(20):
        if len(places) < 2:
            break
        (a, i), (b, j) = rng.sample(places, 2)
        first = hands[a] if a >= 0 else yard
        second = hands[b] if b >= 0 else yard
        first[i], second[j] = second[j], first[i]
    rng.shuffle(yard)
    return attrs.evolve(state, hands=tuple(map(tuple, hands)), yard=tuple(yard))


def _hidden_result(result: cf.RoundResult, viewer: int, rng: random.Random) -> cf.RoundResult:
    """The same finished round, its hidden hands swapped: its scores no longer what the final hands
    score, as a RoundResult refuses, so built as a determinized game builds its stand-ins."""
    final = _hide_differently(result.final, viewer, rng)
    return stand_in_result(result.double, result.scores, final, result.outcome)


@pytest.mark.slow
@given(games(), st.integers(0, 3), st.randoms(use_true_random=False))
def test_views_show_no_hidden_information(game: cf.GameState, seat: int, rng: random.Random) -> None:
    viewer = seat % game.players
    results = tuple(  # finished rounds: their final hands and yards are hidden too
        _hidden_result(result, viewer, rng) for result in game.results
    )
    other = attrs.evolve(game, round=_hide_differently(game.round, viewer, rng), seed=game.seed + 1, results=results)
    view = cf.observe(game, viewer)
    assert view == cf.observe(other, viewer)
    assert repr(view) == repr(cf.observe(other, viewer))
    assert cf.to_json(view) == cf.to_json(cf.observe(other, viewer))  # what a web client gets


@given(games(), st.randoms(use_true_random=False))
def test_spectator_views_show_no_hand_at_all(game: cf.GameState, rng: random.Random) -> None:
    # Every hand and the yard hidden: swap tiles among them all (viewer -1 sits at no seat).
    results = tuple(_hidden_result(result, -1, rng) for result in game.results)
    other = attrs.evolve(game, round=_hide_differently(game.round, -1, rng), seed=game.seed + 1, results=results)
    view = cf.spectate(game)
    assert view == cf.spectate(other)
    assert cf.to_json(view) == cf.to_json(cf.spectate(other))
    shown = set(re.findall(r"\d+-\d+", cf.to_json(view)))
    assert shown <= {str(node.tile) for node in game.round.board.nodes}  # the board's tiles, and no others
    assert len(view.unseen) == sum(map(len, game.round.hands)) + len(game.round.yard)
    picture = render_svg(view)
    assert not re.search(r"class=\"[^\"]*(cf-hand|cf-playable)", picture)
    assert picture == render_svg(cf.spectate(other))


@given(games(max_steps=60), st.integers(0, 3))
def test_spectator_view_is_a_seat_view_without_the_seat(game: cf.GameState, seat: int) -> None:
    viewer = seat % game.players
    seat_view, watched = cf.observe(game, viewer), cf.spectate(game)
    own = {"player", "hand", "drawn", "legal_moves"}
    fields = [field.name for field in attrs.fields(cf.SpectatorView)]
    assert fields == [field.name for field in attrs.fields(cf.PlayerView) if field.name not in own]
    assert all(getattr(watched, name) == getattr(seat_view, name) for name in fields)
    seat_data, data = json.loads(cf.to_json(seat_view)), json.loads(cf.to_json(watched))
    assert data.pop("type") == "spectator"
    assert set(seat_data) - set(data) == own | {"type"}
    assert all(seat_data[key] == value for key, value in data.items())
    assert "hand" not in str(watched)
    assert str(watched).splitlines()[1:] == [line for line in str(seat_view).splitlines()[1:] if line[:5] != "hand:"]


def test_spectate_takes_a_game() -> None:
    with pytest.raises(TypeError, match="spectate takes a GameState, got RoundState"):
        cf.spectate(cf.new_game(cf.Rules.trains(), players=2, seed=1).round)  # type: ignore[arg-type]


def _everything_shown(game: cf.GameState) -> list[str]:
    return [cf.to_json(cf.observe(game, seat)) for seat in range(game.players)] + [cf.to_json(cf.spectate(game))]


@pytest.mark.parametrize("rules", [cf.Rules.trains(), cf.Rules.cross()], ids=["trains", "cross"])
def test_a_game_shown_at_every_move_shows_what_a_replay_nobody_watched_shows(rules: cf.Rules) -> None:
    """A state one move after a shown one builds its board and history on that one's (one node, one entry more).

    The replay reaches each state with nobody looking, so its views are built from the move log
    alone: both must show the same, after plays, draws and passes alike, across a round's end.
    """
    rng = random.Random(4)
    watched, unwatched = cf.new_game(rules, players=4, seed=9), cf.new_game(rules, players=4, seed=9)
    cf.observe(watched, 0)
    moves: list[cf.Move] = []
    for _, move, after in random_walk(watched, rng, 260):
        moves.append(move)
        replayed = unwatched
        for earlier in moves:
            replayed = cf.apply(replayed, earlier)
        assert _everything_shown(after) == _everything_shown(replayed)
    assert {type(move).__name__ for move in moves} == {"Play", "Draw", "Pass"}
    assert after.round_index > watched.round_index


@given(games(max_steps=60), st.integers(0, 3))
def test_view_shows_own_hand_and_public_facts(game: cf.GameState, seat: int) -> None:
    viewer = seat % game.players
    view = cf.observe(game, viewer)
    state = game.round
    assert view.hand == state.hands[viewer]
    assert view.board == state.board
    assert view.hand_sizes == tuple(map(len, state.hands))
    assert view.yard_size == len(state.yard)
    assert view.history == state.history
    assert view.legal_moves == (cf.legal_moves(game) if game.current_player == viewer else ())
    assert view.round_scores == tuple(result.scores for result in game.results)
    assert len(view.unseen) == sum(map(len, state.hands)) - len(state.hands[viewer]) + len(state.yard)


@given(games(max_steps=60), st.integers(0, 3))
def test_view_json_holds_the_view_in_notation(game: cf.GameState, seat: int) -> None:
    viewer = seat % game.players
    view = cf.observe(game, viewer)
    data = json.loads(cf.to_json(view))
    assert (data["type"], data["player"], data["current_player"]) == ("view", viewer, view.current_player)
    assert [cf.Tile.parse(text) for text in data["hand"]] == list(view.hand)
    assert [cf.parse_move(text) for text in data["legal_moves"]] == list(view.legal_moves)
    assert data["hand_sizes"] == list(map(len, game.round.hands))
    assert [(node["tile"], node["parent"]) for node in data["board"]] == [
        (str(node.tile), node.parent) for node in game.round.board.nodes
    ]
    # "ends": every node with room for one more tile, and the value it offers.
    board = game.round.board
    arms = game.rules.arms_for(game.players)
    children = Counter(node.parent for node in board.nodes)
    room = [
        [index, node.exposed]
        for index, node in enumerate(board.nodes)
        if children[index] < (arms if index == 0 else 3 if node.tile.is_double else 1)
    ]
    assert data["ends"] == room
    for move in view.legal_moves:
        if isinstance(move, cf.Play):
            assert move.onto in [index for index, _ in data["ends"]]


def test_view_of_another_players_draw_hides_the_tile() -> None:
    rng = random.Random(3)
    for seed in range(200):
        game = play_randomly(cf.new_game(cf.Rules.trains(), 4, seed), rng, 60)
        if game.round.drawn is not None:
            drawer = game.round.current_player
            assert cf.observe(game, drawer).drawn is game.round.drawn
            assert cf.observe(game, (drawer + 1) % 4).drawn is None
            assert str(game.round.drawn) not in repr(cf.observe(game, (drawer + 1) % 4).history)
            return
    pytest.fail("no position with a drawn tile found")


def test_observe_rejects_a_seat_outside_the_game() -> None:
    game = cf.new_game(cf.Rules.trains(), 3, seed=0)
    with pytest.raises(ValueError, match="seat from 0 to 2"):
        cf.observe(game, 3)


def _proven_absent(view: cf.PlayerView, seat: int) -> list[tuple[int, int, int]]:
    """Lists (time, mask, draws at or after time) for each moment ``seat`` showed they held no play.

    Written from the rules, apart from the implementation: a draw or a pass that starts a turn
    proves the whole hand had no tile fitting the board's open values (DRAW-4, YARD-2).
    """
    board = cf.Board.start(view.board.center, view.rules.arms_for(view.players))
    found = []
    previous: cf.Turn | None = None
    history = view.history
    for time, (player, move) in enumerate(history):
        starts_turn = previous is None or previous[0] != player or type(previous[1]) is cf.Play
        if player == seat and starts_turn and type(move) in (cf.Draw, cf.Pass):
            later_draws = sum(1 for p, m in history[time:] if p == seat and type(m) is cf.Draw)
            found.append((time, board.playable_mask, later_draws))
        if type(move) is cf.Play:
            board = board.place(move.tile, move.onto)
        previous = (player, move)
    return found


@pytest.mark.slow
@given(games(), st.integers(0, 3), st.randoms(use_true_random=False))
def test_determinize_matches_the_view_and_never_contradicts_the_history(
    game: cf.GameState, seat: int, rng: random.Random
) -> None:
    viewer = seat % game.players
    view = cf.observe(game, viewer)
    sample = cf.determinize(view, rng)
    assert cf.observe(sample, viewer) == view
    state = sample.round
    every = sorted(
        [*(tile for hand in state.hands for tile in hand), *state.yard, *(n.tile for n in state.board.nodes)]
    )
    assert every == list(cf.full_set(game.rules.max_pip))
    if state.drawn is not None:
        assert state.drawn in state.hands[state.current_player]
    for other in range(game.players):
        for _, mask, later_draws in _proven_absent(view, other):
            fitting = [tile for tile in state.hands[other] if tile.mask & mask]
            assert len(fitting) <= later_draws, (other, fitting)
    # The sample is a live game: it plays on to the end without error.
    play_randomly(sample, rng, 500)


def test_determinize_is_uniform_without_history() -> None:
    game = cf.new_game(cf.Rules.cross(), 3, seed=11)
    view = cf.observe(game, 0)
    tile = view.unseen[0]
    rng = random.Random(0)
    where = Counter()
    runs = 600
    for _ in range(runs):
        state = cf.determinize(view, rng).round
        holder = next((seat for seat in (1, 2) if tile in state.hands[seat]), "yard")
        where[holder] += 1
    unseen = len(view.unseen)
    for seat in (1, 2):
        expected = runs * view.hand_sizes[seat] / unseen
        assert abs(where[seat] - expected) < 4 * (expected**0.5)


def test_determinize_respects_a_draw_for_want_of_a_play() -> None:
    rng = random.Random(5)
    for seed in range(300):
        game = cf.new_game(cf.Rules.trains(), 3, seed)
        game = play_randomly(game, rng, 30)
        view = cf.observe(game, 0)
        absent = [(t, mask, later) for seat in (1, 2) for t, mask, later in _proven_absent(view, seat) if later == 1]
        if absent:
            break
    else:
        pytest.fail("no opponent drew for want of a play")
    for _ in range(30):
        state = cf.determinize(view, rng).round
        for seat in (1, 2):
            for _, mask, later in _proven_absent(view, seat):
                assert sum(1 for tile in state.hands[seat] if tile.mask & mask) <= later


def test_determinize_rejects_a_forged_view() -> None:
    game = play_randomly(cf.new_game(cf.Rules.trains(), 3, seed=2), random.Random(0), 10)
    view = cf.observe(game, 0)
    forged = attrs.evolve(view, hand_sizes=(view.hand_sizes[0], view.hand_sizes[1] + 5, view.hand_sizes[2]))
    with pytest.raises(cf.InvalidRecordError):
        cf.determinize(forged, random.Random(0))


def test_every_search_refuses_a_view_no_game_fits() -> None:
    # Forged in what the sampling does not read (whose turn it is): each search samples many
    # worlds from one reading of the view, and must refuse it as determinize does.
    from chickenfoot.bots import RolloutBot, SamplerBot, SearchBot, analyse

    game = play_randomly(cf.new_game(cf.Rules.trains(), 4, seed=3), random.Random(0), 12)
    view = cf.observe(game, game.round.current_player)
    assert len(view.legal_moves) > 1  # so no bot makes a forced move without searching
    forged = attrs.evolve(view, current_player=(view.player + 1) % 4)
    searches = [SearchBot(simulations=5), SamplerBot(simulations=5), RolloutBot(simulations=5)]
    for search in [*searches, lambda view: analyse(view, simulations=5)]:
        with pytest.raises(cf.InvalidRecordError, match="no game fits the view"):
            search(forged)


def test_determinize_refuses_a_seat_holding_fewer_tiles_than_it_drew_and_kept() -> None:
    # A seat that drew more tiles than it played holds at least the difference; a view that
    # says it holds none (the tiles moved to the yard, so the counts still add up) is impossible.
    rules = cf.Rules.cross(draw_until_playable=True)
    for seed in range(100):
        for game, _, _ in random_walk(cf.new_game(rules, 4, seed), random.Random(seed), 80):
            view = cf.observe(game, 0)
            for seat in (1, 2, 3):
                moves = [type(move) for who, move in view.history if who == seat]
                if moves.count(cf.Draw) > moves.count(cf.Play) and not game.round.is_over:
                    sizes = list(view.hand_sizes)
                    held, sizes[seat] = sizes[seat], 0
                    forged = attrs.evolve(view, hand_sizes=tuple(sizes), yard_size=view.yard_size + held)
                    message = f"player {seat} holds 0 tiles, fewer than their history allows"
                    with pytest.raises(cf.InvalidRecordError, match=message):
                        cf.determinize(forged, random.Random(0))
                    return
    pytest.fail("no seat drew more tiles than it played")


def _one_draw_then_pass(seed: int) -> tuple[cf.GameState, int, int] | None:
    """Plays a cross game (plays first) until one opponent of player 0 has drawn once and passed."""
    for game, _, _ in random_walk(cf.new_game(cf.Rules.cross(), 3, seed), random.Random(seed), 30, pick=_plays_first):
        history = game.round.history
        draws = [time for time, (_, move) in enumerate(history) if type(move) is cf.Draw]
        if len(draws) > 1:
            return None
        if draws and game.current_player == 0 and history[draws[0]][0] != 0 and len(history) > draws[0] + 1:
            return game, history[draws[0]][0], draws[0]
    return None


def _plays_first(rng: random.Random, moves: Sequence[cf.Move]) -> cf.Move:
    """Picks a play when there is one, else the first move (a draw or a pass)."""
    plays = [move for move in moves if type(move) is cf.Play]
    return rng.choice(plays) if plays else moves[0]


def test_determinize_follows_the_deal_posterior_after_a_draw() -> None:
    # An opponent who drew for want of a play and kept the tile (DRAW-3) held no fitting tile
    # before the draw; the drawn tile is any unseen tile not in their starting hand. Under a
    # uniform deal, the chance that they now hold a fitting tile is therefore
    # fitting / (unseen - (hand - 1)), far from the ~50% a uniform pick over hands would give.
    found = next(filter(None, map(_one_draw_then_pass, range(500))))
    game, opponent, time = found
    assert type(game.round.history[time + 1][1]) is cf.Pass
    view = cf.observe(game, 0)
    board = cf.Board.start(view.board.center, view.rules.arms_for(view.players))
    for _, move in view.history[:time]:
        if type(move) is cf.Play:
            board = board.place(move.tile, move.onto)
    mask = board.playable_mask
    fitting = sum(1 for tile in view.unseen if tile.mask & mask)
    expected = fitting / (len(view.unseen) - (view.hand_sizes[opponent] - 1))
    rng = random.Random(0)
    runs = 600
    hits = 0
    for _ in range(runs):
        held = [tile for tile in cf.determinize(view, rng).round.hands[opponent] if tile.mask & mask]
        assert len(held) <= 1
        hits += len(held)
    spread = 4 * (expected * (1 - expected) / runs) ** 0.5
    assert abs(hits / runs - expected) < spread


def test_determinize_rarely_needs_to_resample(monkeypatch: pytest.MonkeyPatch) -> None:
    # The replay at the end only catches what the slots cannot express (a deal that would have
    # blocked the round earlier); every draw and pass constraint must be met before it.
    import chickenfoot._game._determinize as module

    outcomes: list[bool] = []
    replay = module._replay

    def counting(*args: object) -> cf.RoundState | None:
        state = replay(*args)  # type: ignore[arg-type]
        outcomes.append(state is not None)
        return state

    monkeypatch.setattr(module, "_replay", counting)
    rng = random.Random(1)
    rules = (cf.Rules.trains(), cf.Rules.cross(), cf.Rules.cross(draw_until_playable=True))
    for seed in range(60):
        game = play_randomly(cf.new_game(rules[seed % 3], 2 + seed % 3, seed), rng, rng.randrange(120))
        cf.determinize(cf.observe(game, seed % game.players), rng)
    assert outcomes.count(False) <= len(outcomes) // 20


@given(games(max_steps=150), st.data())
def test_determinize_refuses_forged_views_cleanly(game: cf.GameState, data: st.DataObject) -> None:
    view = cf.observe(game, data.draw(st.integers(0, game.players - 1)))
    history = view.history
    forged = data.draw(
        st.sampled_from(
            [
                attrs.evolve(view, history=history[: len(history) // 2]),
                attrs.evolve(view, history=history[1:]),
                attrs.evolve(view, yard_size=view.yard_size + 1),
                attrs.evolve(view, hand_sizes=view.hand_sizes[:-1]),
                attrs.evolve(view, hand=view.hand[1:]),
                attrs.evolve(view, drawn=view.unseen[0] if view.unseen else None),
                attrs.evolve(view, history=(*history, (view.player, cf.Draw()))),
                attrs.evolve(view, history=(*history, (view.player, cf.Pass()))),
            ]
        )
    )
    try:
        sample = cf.determinize(forged, random.Random(0))
    except cf.InvalidRecordError:
        return  # refused with the documented error
    assert cf.observe(sample, forged.player) == forged  # or a game really does fit it


def test_a_shown_state_is_freed_once_dropped_without_waiting_for_the_cycle_collector() -> None:
    """A round holds its public state weakly: a server drops each state it showed as the next move replaces it."""
    import gc
    import weakref

    game = cf.new_game(cf.Rules.trains(), players=4, seed=2)
    cf.to_json(cf.spectate(game))
    cf.observe(game, 0)
    held = game.round
    assert game.round is held  # one public round while it is in use
    gone = weakref.ref(held)
    gc.disable()
    try:
        del game, held
        assert gone() is None
    finally:
        gc.enable()


def test_a_game_keeps_a_finished_round_without_what_showed_it_and_shows_it_the_same_when_asked() -> None:
    """A server shows every state; a finished round's views would then be most of a long game's memory.

    The game keeps the round's last position and its moves (packed), and makes the rest again
    only if someone asks for that round once more: what it shows is what the moves played say.
    """
    from chickenfoot._game._state import _game

    rng = random.Random(7)
    game = cf.new_game(cf.Rules.trains(), players=2, seed=5)
    played: list[tuple[int, cf.Move]] = []
    for before, move, after in random_walk(game, rng):
        assert before.current_player is not None
        played.append((before.current_player, move))
        _everything_shown(after)  # as a server shows every state
        if after.round_index != before.round_index:
            break
    else:
        pytest.fail("the walk ended inside the first round")
    kept = _game(after).finals[0]
    assert (kept.views, kept.legal_view, kept.legal_cache, kept.log) == (None, None, None, None)
    assert kept.packed is not None  # the history, packed
    assert len(kept.packed) == 4 * len(played)
    assert kept.setup.game is None  # and not the game it was played in, with what that game made
    final = after.results[0].final
    assert final.history == tuple(played)
    last = before.round.board.nodes  # the board as shown before the round's last move
    assert final.board.nodes[: len(last)] == last
    assert len(final.board.nodes) == len(last) + isinstance(move, cf.Play)
    unwatched = game
    for _, move in played:
        unwatched = cf.apply(unwatched, move)
    assert cf.to_json(final) == cf.to_json(unwatched.results[0].final)
