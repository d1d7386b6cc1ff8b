"""Playing a game out between bots: the :class:`Bot` protocol, and :func:`play_out`.

A bot is any callable from a :class:`~chickenfoot.PlayerView` to one of its legal moves; the
game asks each seat's bot in turn and tells every bot, through optional hooks, when a round and
the game are over. A bot that raises, or chooses a move that is not legal, stops the game with a
:class:`~chickenfoot.bots.BotError` naming the bot, its seat and the position.
"""

from __future__ import annotations

from collections.abc import Sequence

from .._game import BotError, Draw, GameState, IllegalMoveError, Move, Pass, Play, apply, observe
from .._io import position
from ._registry import bot_name
from ._searches import OmniscientBot
from ._simple import Bot

__all__ = ["Bot", "choose", "play", "play_out"]


def play_out(game: GameState, bots: Sequence[Bot]) -> GameState:
    """Plays ``game`` to its end, each seat's move chosen by ``bots[seat]`` from that seat's view.

    >>> import chickenfoot as cf
    >>> game = play_out(cf.new_game(cf.Rules.cross(), players=2, seed=1), [GreedyBot(), RandomBot(seed=1)])
    >>> game.is_over, len(game.results)
    (True, 10)
    """
    return play(game, bots, None)


def play(game: GameState, bots: Sequence[Bot], index: int | None) -> GameState:
    """Plays ``game`` out (see :func:`play_out`); ``index`` is the tournament game's, for errors."""
    if len(bots) != game.players:
        raise ValueError(f"play_out needs one bot per seat: {game.players} seats, {len(bots)} bots")
    while not game.is_over:
        player = game.round.current_player
        bot = bots[player]
        try:
            move = choose(bot, game, player)
        except Exception as error:
            raise _bot_error(bot, player, game, index, f"raised {type(error).__name__}: {error}") from error
        try:
            after = apply(game, move)
        except IllegalMoveError as error:
            raise _bot_error(bot, player, game, index, f"chose {_shown(move)}, which is not legal ({error})") from error
        if len(after.results) > len(game.results):
            _tell(bots, after, index)
        game = after
    return game


def _tell(bots: Sequence[Bot], game: GameState, index: int | None) -> None:
    """Calls each bot's ``round_over`` method (and ``game_over`` at the end), if it has one, with its view."""
    for seat, bot in enumerate(bots):
        _call_hook(bot, "round_over", seat, game, index)
        if game.is_over:
            _call_hook(bot, "game_over", seat, game, index)


def _call_hook(bot: Bot, hook: str, seat: int, game: GameState, index: int | None) -> None:
    method = getattr(bot, hook, None)
    if callable(method):
        try:
            method(observe(game, seat))
        except Exception as error:
            raise _bot_error(bot, seat, game, index, f"raised {type(error).__name__} in {hook}: {error}") from error


def _shown(move: object) -> str:
    return str(move) if isinstance(move, (Play, Draw, Pass)) else repr(move)


def _bot_error(bot: Bot, seat: int, game: GameState, index: int | None, what: str) -> BotError:
    where = f"seat {seat}" if index is None else f"seat {seat} of game {index + 1} (index {index})"
    name = bot_name(bot)
    reason = (
        f"bot {name!r} in {where} {what}, in round {game.round_index + 1} at move {len(game.round.history) + 1}; "
        f"position: {position(game.round)}"
    )
    return BotError(reason, name, seat, game, index)


def choose(bot: Bot, game: GameState, player: int) -> Move:
    """Asks ``bot`` for its move: from ``player``'s view, or, an :class:`OmniscientBot`, from the whole game."""
    if isinstance(bot, OmniscientBot):
        return bot.see(game)
    return bot(observe(game, player))
