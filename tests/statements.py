"""Every statement of the rules in the package, each as a :class:`chickenfoot.conformance.Statement`.

A statement deals games and plays the moves the conformance check picks, showing each step
through public values. ``needs`` names the module a statement's extra installs, so its tests
skip cleanly where that extra is missing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import chickenfoot as cf
from chickenfoot import actions, conformance
from chickenfoot.conformance import Chance, Chooser, Dealt, Event


class _Statement:
    """What a statement is unless it says otherwise: no extra needed, dealt from the seed as
    ``new_game`` deals, its states keeping their history, every configuration the rules can deal taken."""

    needs: str | None = None
    seeded = True
    keeps_history = True

    @staticmethod
    def takes(rules: cf.Rules, players: int) -> bool:
        """Tells whether it plays ``rules`` with ``players`` (it refuses the others, documented)."""
        return True


def _offered(state: cf.GameState | cf.RoundState, numbers: Sequence[int]) -> tuple[str, ...]:
    """Reads legal action numbers as moves in the notation."""
    return tuple(str(actions.decode(int(number), state)) for number in numbers)


def _action(move: str, state: cf.GameState | cf.RoundState) -> int:
    return actions.encode(cf.parse_move(move), state)


class Engine(_Statement):
    """The rules core (compiled or pure, as installed), through ``new_game``, ``legal_moves`` and ``apply``."""

    statement = conformance.ENGINE
    name = f"the engine ({'compiled' if cf.__compiled__ else 'pure'})"

    def play(self, rules: cf.Rules, players: int, seeds: Sequence[int], choose: Chooser) -> Iterator[Event]:
        return self.statement.play(rules, players, seeds, choose)

    def deal(self, rules: cf.Rules, players: int, seeds: Sequence[int], round_index: int) -> Iterator[Dealt]:
        return self.statement.deal(rules, players, seeds, round_index)


class Batch(_Statement):
    """``chickenfoot.batch``: every game of a batch stepped at once, its deals vectorized or the engine's."""

    needs = "numpy"
    keeps_history = False  # to_state's states carry no history

    def __init__(self, deal: str) -> None:
        self.deal_kind = deal
        self.name = f"the batch, {deal} deal"
        self.seeded = deal == "engine"

    def play(self, rules: cf.Rules, players: int, seeds: Sequence[int], choose: Chooser) -> Iterator[Event]:
        from chickenfoot import batch

        games = batch.init(rules, players, list(seeds), deal=self.deal_kind)
        states = [batch.to_state(games, game) for game in range(games.size)]
        for game, state in enumerate(states):
            yield Event(game, state)
        yield from _step_batch(games, states, choose)

    def deal(self, rules: cf.Rules, players: int, seeds: Sequence[int], round_index: int) -> Iterator[Dealt]:
        from chickenfoot import batch

        games = batch.init(rules, players, list(seeds), single_round=True, round_index=round_index, deal=self.deal_kind)
        for game, seed in enumerate(seeds):
            state = batch.to_state(games, game)
            assert isinstance(state, cf.RoundState)
            yield Dealt(seed, state)


def _step_batch(games: Any, states: list[Any], choose: Chooser) -> Iterator[Event]:
    """Steps ``games`` to their ends, each game's move picked by ``choose`` from the batch's legal mask."""
    import numpy as np

    from chickenfoot import batch

    while not games.game_over.all():
        mask = batch.legal_action_mask(games)
        chosen = np.zeros(games.size, dtype=np.intp)
        moved: dict[int, tuple[str, tuple[str, ...]]] = {}
        for game in np.flatnonzero(~games.game_over).tolist():
            offered = _offered(states[game], np.flatnonzero(mask[game]))
            move = choose(game, offered)
            chosen[game] = _action(move, states[game])
            moved[game] = (move, offered)
        games = batch.step(games, chosen)
        for game, (move, offered) in moved.items():
            states[game] = batch.to_state(games, game)
            yield Event(game, states[game], move, offered)


class LoadedBatch(_Statement):
    """``batch.from_states``: games begun by the engine, loaded into a batch part way and played on there."""

    needs = "numpy"
    name = "the batch, loaded from states"
    keeps_history = False  # to_state's states carry no history
    # seeded: the games it loads were dealt by new_game, so it must go on dealing as apply does

    def play(self, rules: cf.Rules, players: int, seeds: Sequence[int], choose: Chooser) -> Iterator[Event]:
        from chickenfoot import batch

        states = []
        for game, seed in enumerate(seeds):
            state = cf.new_game(rules, players, seed)
            yield Event(game, state)
            for _ in range(25 + 60 * game):  # some games load in their first round, some later
                if state.is_over:
                    break
                offered = tuple(map(str, cf.legal_moves(state)))
                move = choose(game, offered)
                state = cf.apply(state, cf.parse_move(move))
                yield Event(game, state, move, offered)
            states.append(state)
        yield from _step_batch(batch.from_states(states), states, choose)


def _tile_text(rules: cf.Rules, index: int) -> str:
    return str(cf.full_set(rules.max_pip)[index])


class ChanceLayer(_Statement):
    """``chickenfoot._game._chance``: the game with every random event (a tile dealt or drawn) made explicit."""

    name = "the chance layer"
    seeded = False

    @staticmethod
    def takes(rules: cf.Rules, players: int) -> bool:
        """Tells whether it plays ``rules``: it refuses the unfillable-foot variant with a reserve (see its docs)."""
        return not (rules.unfillable_foot_ends_round and rules.reserve_for(players))

    def play(self, rules: cf.Rules, players: int, seeds: Sequence[int], choose: Chooser) -> Iterator[Event]:
        from chickenfoot._game._chance import ChanceGame

        for game, seed in enumerate(seeds):
            rng = random.Random(seed)
            core = ChanceGame.start(rules, players)
            chances = _resolve(core, rng)
            yield Event(game, core.game_state(), chances=chances)
            while not core.is_over:
                offered = tuple(map(str, core.legal_moves()))
                move = choose(game, offered)
                core.apply_move(cf.parse_move(move))
                chances = _resolve(core, rng)
                yield Event(game, core.game_state(), move, offered, chances)

    def deal(self, rules: cf.Rules, players: int, seeds: Sequence[int], round_index: int) -> Iterator[Dealt]:
        from chickenfoot._game._chance import ChanceGame

        for seed in seeds:
            core = ChanceGame(rules=rules, players=players, rounds=rules.rounds, round_index=round_index)
            core.totals = [0] * players
            core._begin_round()
            chances = _resolve(core, random.Random(seed))
            assert core.round is not None
            yield Dealt(seed, core.round, chances)


def _resolve(core: Any, rng: random.Random) -> tuple[Chance, ...]:
    """Plays chance's events by their odds until a player is to move (or the game is over); shows each."""
    shown = []
    while core.is_chance:
        outcomes = core.chance_outcomes()
        starter = core.round is None and core.rules.deal == "trains" and core.starter is None
        name = (lambda outcome: f"seat {outcome}") if starter else (lambda outcome: _tile_text(core.rules, outcome))
        outcome = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        shown.append(Chance({name(o): p for o, p in outcomes}, name(outcome)))
        core.apply_chance(outcome)
    return tuple(shown)


class OpenSpiel(_Statement):
    """``chickenfoot.openspiel``: the game through pyspiel's state API, chance nodes and action numbers."""

    needs = "pyspiel"
    name = "OpenSpiel"
    seeded = False

    @staticmethod
    def takes(rules: cf.Rules, players: int) -> bool:
        """Tells whether the game's parameters express ``rules``: a preset and a set, no other option."""
        return rules == cf.Rules.preset(rules.deal, max_pip=rules.max_pip) and ChanceLayer.takes(rules, players)

    def play(self, rules: cf.Rules, players: int, seeds: Sequence[int], choose: Chooser) -> Iterator[Event]:
        import pyspiel

        import chickenfoot.openspiel  # noqa: F401  (registers the game)

        for game, seed in enumerate(seeds):
            params = {"preset": rules.deal, "players": players, "max_pip": rules.max_pip}
            loaded = pyspiel.load_game("python_chickenfoot", params)
            if loaded.rules != rules:
                raise ValueError(f"the OpenSpiel game plays the presets only, not {rules!r}")
            state = loaded.new_initial_state()
            rng = random.Random(seed)
            chances = _resolve_spiel(state, rng)
            yield Event(game, state.core.game_state(), chances=chances)
            while not state.is_terminal():
                public = state.core.game_state()
                offered = _offered(public, state.legal_actions())
                move = choose(game, offered)
                state.apply_action(_action(move, public))
                chances = _resolve_spiel(state, rng)
                yield Event(game, state.core.game_state(), move, offered, chances)


def _resolve_spiel(state: Any, rng: random.Random) -> tuple[Chance, ...]:
    shown = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        texts = {action: state.action_to_string(state.current_player(), action) for action, _ in outcomes}
        names = {action: text.replace("starter", "seat").replace("tile ", "") for action, text in texts.items()}
        outcome = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        shown.append(Chance({names[a]: p for a, p in outcomes}, names[outcome]))
        state.apply_action(outcome)
    return tuple(shown)


class Gymnasium(_Statement):
    """``chickenfoot.gymnasium``: one seat steps, the other seats are bots (here: the check's picks)."""

    needs = "gymnasium"
    name = "the Gymnasium environment"

    def play(self, rules: cf.Rules, players: int, seeds: Sequence[int], choose: Chooser) -> Iterator[Event]:
        from chickenfoot.gymnasium import ChickenfootEnv

        for game, seed in enumerate(seeds):
            log = _Log(game)

            def opponent(view: cf.PlayerView, log: _Log = log, game: int = game) -> cf.Move:
                log.show(log.env.game)  # the state after the move before this one
                offered = tuple(map(str, view.legal_moves))
                return cf.parse_move(log.move(choose(game, offered), offered))

            env = log.env = ChickenfootEnv(rules=rules, players=players, opponents=opponent, seat=game % players)
            _, info = env.reset(seed=seed)
            done = False
            while not done:
                log.show(env.game)
                yield from log.take()
                state = env.game
                assert state is not None
                offered = _offered(state, info["action_mask"].nonzero()[0])
                move = log.move(choose(game, offered), offered)
                _, _, done, _, info = env.step(_action(move, state))
            log.show(env.game)
            yield from log.take()


class _Log:
    """Turns what an environment holds, seen between moves, into events: the deal, then each move."""

    def __init__(self, game: int) -> None:
        self.game = game
        self.env: Any = None  # the environment, once built
        self.events: list[Event] = []
        self.pending: tuple[str, tuple[str, ...]] | None = None
        self.dealt = False

    def move(self, move: str, offered: tuple[str, ...]) -> str:
        """Notes ``move``, picked from ``offered``, until the state after it is seen."""
        self.pending = (move, offered)
        return move

    def show(self, state: cf.GameState | None) -> None:
        """Notes the game as it is now: as dealt the first time, then after the pending move."""
        assert state is not None
        if not self.dealt:
            self.events.append(Event(self.game, state))
            self.dealt = True
        if self.pending is not None:
            self.events.append(Event(self.game, state, *self.pending))
            self.pending = None

    def take(self) -> list[Event]:
        """Gets the events noted since the last call."""
        events, self.events = self.events, []
        return events


class PettingZoo(_Statement):
    """``chickenfoot.pettingzoo``: every seat an agent of the AEC environment."""

    needs = "pettingzoo"
    name = "the PettingZoo environment"

    def play(self, rules: cf.Rules, players: int, seeds: Sequence[int], choose: Chooser) -> Iterator[Event]:
        from chickenfoot.pettingzoo import ChickenfootEnv

        for game, seed in enumerate(seeds):
            env = ChickenfootEnv(rules=rules, players=players)
            env.reset(seed=seed)
            assert env.game is not None
            yield Event(game, env.game)
            while not all(env.terminations.values()):
                state = env.game
                offered = _offered(state, env.observe(env.agent_selection)["action_mask"].nonzero()[0])
                move = choose(game, offered)
                env.step(_action(move, state))
                assert env.game is not None
                yield Event(game, env.game, move, offered)


STATEMENTS = [
    Engine(),
    Batch("numpy"),
    Batch("engine"),
    LoadedBatch(),
    ChanceLayer(),
    OpenSpiel(),
    Gymnasium(),
    PettingZoo(),
]
"""Every statement of the rules the suite checks: a new one is checked by adding it here."""
