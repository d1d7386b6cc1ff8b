"""A game of Chicken Foot with its randomness as explicit chance events, for OpenSpiel.

The engine deals from a seed (DEAL-2). Search and learning frameworks want every random event
as a node of the game tree instead, so this module plays the same rules with chance made
explicit, and keeps to the engine for everything else (``legal_moves``/``apply`` on a
``RoundState`` built with the public constructors):

* *trains* deal: one chance event picks the starter (DEAL-A1: seat ``s`` with the probability
  that the double's position in a shuffle of the set lands on ``s``), then one event per tile
  dealt, seat by seat, each uniform over the tiles not yet dealt (DEAL-A2, DEAL-A3);
* *cross* deal: one event per tile dealt (DEAL-B1); if nobody holds the round's double (and the
  rules do not fall back to a lower double held), one event per setup draw, seat by seat, until
  the double turns up (DEAL-B2);
* every draw during play: the player's draw action, then one event uniform over the yard.
  The engine draws ``yard[0]``; here the yard is an unordered pool, so the chosen tile is put
  first and the engine's ``Draw`` applied (DRAW-1). Which tiles end up as the reserve (YARD-1)
  is decided the same way: whatever is left. So a rule that needs to know the reserve's tiles
  before then cannot be followed here, and is refused: ``unfillable_foot_ends_round`` counts
  the tiles left to draw, so it needs ``reserve=0``.

The distributions are the seeded deal's; only the order of events differs, so a seed does not
reproduce a game here (the chance outcomes do).
"""

from __future__ import annotations

import random

import attrs

from ._board import Board
from ._deal import find_center, open_round, setup_seat, starter_seat
from ._determinize import determinize
from ._engine import apply, legal_moves
from ._errors import IllegalMoveError, RulesError
from ._moves import DRAW, Draw, Move
from ._rules import Rules
from ._scoring import close_round, decide_winners
from ._state import GameState, PlayerIndex, RoundResult, RoundState
from ._tiles import Tile, full_set
from ._views import PlayerView, observe

__all__ = ["ChanceGame"]


@attrs.define(slots=True)
class ChanceGame:
    """A mutable game in progress whose chance events are explicit (see module doc).

    Copying is cheap: the engine's states are immutable and shared between copies.
    """

    rules: Rules
    players: int
    rounds: int
    round_index: int = 0
    totals: list[int] = attrs.field(factory=list)
    results: list[RoundResult] = attrs.field(factory=list)
    # The deal in progress (round is None while dealing).
    hands: list[list[Tile]] = attrs.field(factory=list)
    pool: list[Tile] = attrs.field(factory=list)
    starter: PlayerIndex | None = None
    setup_seat: PlayerIndex | None = None
    round: RoundState | None = None
    drawing: bool = False
    # (who may see it or None for everyone, text): the information-state history.
    events: list[tuple[PlayerIndex | None, str]] = attrs.field(factory=list)

    @classmethod
    def start(cls, rules: Rules, players: int, rounds: int | None = None) -> ChanceGame:
        """Starts a game at the first chance event of its first deal."""
        rules.check_players(players)  # DEAL-1
        if rules.unfillable_foot_ends_round and rules.reserve_for(players):
            raise RulesError(
                "unfillable_foot_ends_round counts the tiles that can still be drawn, but the chance layer keeps "
                "the yard as a pool whose reserve is whatever is left at the end: use reserve=0 with it"
            )
        game = cls(rules=rules, players=players, rounds=rules.rounds if rounds is None else rounds)
        game.totals = [0] * players
        game._begin_round()
        return game

    def copy(self) -> ChanceGame:
        """Copies the game; the copies share only immutable parts."""
        return ChanceGame(
            rules=self.rules,
            players=self.players,
            rounds=self.rounds,
            round_index=self.round_index,
            totals=list(self.totals),
            results=list(self.results),
            hands=[list(hand) for hand in self.hands],
            pool=list(self.pool),
            starter=self.starter,
            setup_seat=self.setup_seat,
            round=self.round,
            drawing=self.drawing,
            events=list(self.events),
        )

    def __deepcopy__(self, memo: dict[int, object]) -> ChanceGame:
        return self.copy()

    # -- where we are ------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Tells whether the last round to play has been scored."""
        return len(self.results) >= self.rounds

    @property
    def is_chance(self) -> bool:
        """Tells whether the next event is chance's: a deal step or the tile of a draw."""
        return not self.is_over and (self.round is None or self.drawing)

    @property
    def current_player(self) -> PlayerIndex:
        """Gets the player to move (only meaningful when neither over nor chance)."""
        assert self.round is not None
        return self.round.current_player

    @property
    def double_tile(self) -> Tile:
        """Gets the round's double, as a tile (ROUND-1); ``RoundState.double`` is its value."""
        value = self.rules.round_double(self.round_index)
        return Tile(value, value)

    def _hand_size(self) -> int:
        return self.rules.hand_size_for(self.players)

    def _dealt(self) -> int:
        return sum(len(hand) for hand in self.hands)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Lists the next chance event's outcomes as ``(outcome, probability)``, outcomes ascending.

        An outcome is a seat for the *trains* starter and a ``Tile.index`` otherwise.
        """
        if self.round is None and self.rules.deal == "trains" and self.starter is None:
            size = self.rules.set_size
            counts = [0] * self.players
            for position in range(size):  # DEAL-A1: whoever takes the double's position
                counts[starter_seat(self.round_index, position, self.players)] += 1
            return [(seat, count / size) for seat, count in enumerate(counts) if count]
        tiles = self.round.yard if self.round is not None else self.pool
        indexes = sorted(tile.index for tile in tiles)
        return [(index, 1 / len(indexes)) for index in indexes]

    def chance_text(self, outcome: int) -> str:
        """Describes a chance outcome of the next chance event."""
        if self.round is None and self.rules.deal == "trains" and self.starter is None:
            return f"starter {outcome}"
        return f"tile {full_set(self.rules.max_pip)[outcome]}"

    # -- chance --------------------------------------------------------------------------------

    def _begin_round(self) -> None:
        self.hands = [[] for _ in range(self.players)]
        self.pool = list(full_set(self.rules.max_pip))
        self.starter = None
        self.setup_seat = None
        self.round = None
        self.drawing = False
        self.events.append((None, f"round {self.round_index + 1}"))  # counted from 1, as people read it
        if self.rules.deal == "trains":
            self.pool.remove(self.double_tile)  # DEAL-A2: the double is set aside as the center

    def apply_chance(self, outcome: int) -> None:
        """Applies chance's outcome, which must be one of ``chance_outcomes()``.

        Raises :class:`IllegalMoveError` for any other outcome (a starter that is no seat, a tile
        already dealt or held), leaving the game unchanged.
        """
        offered = [choice for choice, _ in self.chance_outcomes()]
        if type(outcome) is not int or outcome not in offered:
            starter = self.round is None and self.rules.deal == "trains" and self.starter is None
            what = "a starter seat" if starter else "a tile index"
            more = " ..." if len(offered) > 8 else ""
            raise IllegalMoveError(
                f"chance outcome {outcome!r:.40} is not offered: the next event is {what}, one of {offered[:8]}{more}"
            )
        if self.round is None:
            self._deal_step(outcome)
            return
        tile = full_set(self.rules.max_pip)[outcome]
        state = self.round
        # DRAW-1: the engine draws yard[0], so the chosen tile goes first.
        yard = (tile, *(other for other in state.yard if other is not tile))
        self.drawing = False
        self.events.append((state.current_player, f"got {tile}"))
        self._advance(apply(attrs.evolve(state, yard=yard), DRAW))

    def _deal_step(self, outcome: int) -> None:
        rules, players = self.rules, self.players
        if rules.deal == "trains" and self.starter is None:
            self.starter = outcome
            self.events.append((None, f"starter {outcome}"))
            return
        tile = full_set(rules.max_pip)[outcome]
        self.pool.remove(tile)
        size = self._hand_size()
        if self.setup_seat is None:
            seat = self._dealt() // size
            self.hands[seat].append(tile)
            self.events.append((seat, f"deal {tile}"))
            if self._dealt() == players * size:
                self._deal_done()
            return
        # DEAL-B2: a setup draw; the round's double, once drawn, is placed as the center.
        seat = self.setup_seat
        if tile is self.double_tile:
            self.events.append((None, f"p{seat} center {tile}"))
            self._open(tile, first=(seat + 1) % players)
            return
        self.hands[seat].append(tile)
        self.events.append((seat, f"setup {tile}"))
        self.events.append((None, f"p{seat} setup draw"))
        self.setup_seat = (seat + 1) % players

    def _deal_done(self) -> None:
        rules, players = self.rules, self.players
        if rules.deal == "trains":
            assert self.starter is not None
            self._open(self.double_tile, first=self.starter)  # DEAL-A4
            return
        center, holder = find_center(rules, self.hands, self.double_tile)
        if holder is None:
            self.setup_seat = setup_seat(self.round_index, players)  # DEAL-B2
            return
        self.hands[holder].remove(center)
        self.events.append((None, f"p{holder} center {center}"))
        self._open(center, first=(holder + 1) % players)  # DEAL-B3

    def _open(self, center: Tile, first: PlayerIndex) -> None:
        state = open_round(self.rules, self.hands, sorted(self.pool), center, first)
        self.hands, self.pool, self.setup_seat = [], [], None
        self._advance(state)  # a round blocked as dealt (contrived options only) ends at once (END-2)

    # -- players ------------------------------------------------------------------------------

    def legal_moves(self) -> tuple[Move, ...]:
        """Lists the legal moves of the player to move."""
        assert self.round is not None
        assert not self.drawing
        return legal_moves(self.round)

    def apply_move(self, move: Move) -> None:
        """Applies a player's move; a draw hands over to chance for the tile."""
        state = self.round
        assert state is not None
        assert not self.drawing
        if type(move) is Draw:
            if move not in legal_moves(state):
                apply(state, move)  # raises IllegalMoveError with the engine's reason
            self.drawing = True
            self.events.append((None, f"p{state.current_player} draw"))
            return
        after = apply(state, move)
        self.events.append((None, f"p{state.current_player} {move}"))
        self._advance(after)

    def _advance(self, state: RoundState) -> None:
        self.round = state
        if not state.is_over:
            return
        # SCORE-1, GAME-1: score the round, then deal the next one unless the game is over.
        result, totals = close_round(self.totals, state)
        self.results.append(result)
        self.totals = list(totals)
        self.events.append((None, f"{result.outcome}; scores {' '.join(map(str, result.scores))}"))
        if not self.is_over:
            self.round_index += 1
            self._begin_round()

    # -- views ---------------------------------------------------------------------------------

    def game_state(self) -> GameState:
        """Gets the engine's ``GameState`` for the round in play (none while a deal is in progress)."""
        state = self.round
        if state is None:
            raise RuntimeError("no round is in play while a deal is in progress: see view()")
        return GameState(
            rules=self.rules,
            players=self.players,
            seed=0,
            round=state,
            round_index=self.round_index,
            totals=tuple(self.totals),
            results=tuple(self.results),
        )

    def view(self, player: PlayerIndex) -> PlayerView:
        """Gets what ``player`` may see now; nobody is to move during a deal or once over.

        During a deal, the view shows the tiles dealt so far and the round's double as the center.
        """
        if self.round is None:
            return self._dealing_view(player)
        view = observe(self.game_state(), player)
        if self.is_over:
            return attrs.evolve(view, current_player=None, drawn=None, legal_moves=())
        return view

    def _dealing_view(self, player: PlayerIndex) -> PlayerView:
        rules, players, results = self.rules, self.players, self.results
        return PlayerView(
            player=player,
            rules=rules,
            players=players,
            round_index=self.round_index,
            hand=tuple(self.hands[player]),
            board=Board.start(self.double_tile, rules.arms_for(players)),
            hand_sizes=tuple(len(hand) for hand in self.hands),
            yard_size=len(self.pool),
            reserve=rules.reserve_for(players),
            drawn=None,
            current_player=None,
            totals=tuple(self.totals),
            round_doubles=tuple(result.double for result in results),
            round_scores=tuple(result.scores for result in results),
            round_went_out=tuple(result.went_out for result in results),
            round_outcomes=tuple(result.outcome for result in results),
            winners=(),
            outcome=None,
            history=(),
            legal_moves=(),
            is_over=False,
        )

    def winners(self) -> tuple[PlayerIndex, ...]:
        """Gets the players with the lowest total once over (GAME-1, TIE-1, TIE-2)."""
        return decide_winners(self.rules, self.totals, self.results)

    def information(self, player: PlayerIndex) -> str:
        """Gets everything ``player`` has seen, in order, then their hand: a perfect-recall information state.

        The hand follows from the events, so adding it splits no information state; but in a
        ``resample()`` copy, where others' private events are masked, it keeps their
        information states apart whenever their hands (and so their legal moves) differ.
        """
        seen = [text for seen_by, text in self.events if seen_by is None or seen_by == player]
        hand = self.round.hands[player] if self.round is not None else tuple(self.hands[player])
        seen.append(f"hand {' '.join(map(str, sorted(hand)))}")
        if self.round is not None and self.round.drawn is not None and self.round.current_player == player:
            seen.append(f"drawn {self.round.drawn}")
        return " | ".join(seen)

    # -- resampling ------------------------------------------------------------------------------

    def resample(self, player: PlayerIndex, rng: random.Random) -> ChanceGame:
        """Returns a copy where the tiles ``player`` cannot see are dealt again at random.

        In play, ``determinize`` samples others' hands and the yard, honouring what the public
        history proves (a player who drew held nothing playable, and so on); during a deal, the
        undealt tiles and others' partial hands are shuffled. Hand sizes are kept. Others'
        private events are masked in the copy, since they no longer match their new tiles.
        """
        copy = self.copy()
        copy.events = [(seen_by, text if seen_by in (None, player) else "?") for seen_by, text in self.events]
        if self.round is None:
            unseen = [tile for seat, hand in enumerate(self.hands) if seat != player for tile in hand] + self.pool
            rng.shuffle(unseen)
            for seat, hand in enumerate(copy.hands):
                if seat != player:
                    hand[:] = [unseen.pop() for _ in hand]
            copy.pool = sorted(unseen)
            return copy
        copy.round = determinize(observe(self.game_state(), player), rng).round
        return copy
