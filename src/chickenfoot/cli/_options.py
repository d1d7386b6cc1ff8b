"""Options shared by the commands: rules preset and overrides, players, seed, bots."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from .._game import PRESETS, BotSpecError, Rules, RulesError
from ..bots import check_spec, kinds_help

__all__ = ["bots_option", "build_rules", "parse_bots", "players_option", "rules_options", "seed_option"]


F = TypeVar("F", bound=Callable[..., Any])


def _option_value(name: str, text: str) -> object:
    """Reads an override's value as the option's type: None, true/false, a whole number, or a word."""
    lowered = text.strip().lower()
    if lowered in ("none", "default"):
        return None
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered.lstrip("-").isdigit():
        return int(lowered)
    return lowered


def build_rules(preset: str, overrides: tuple[str, ...]) -> Rules:
    """Builds the preset with ``NAME=VALUE`` overrides; bad ones raise :class:`click.BadParameter`."""
    options: dict[str, object] = {}
    for item in overrides:
        name, equals, value = item.partition("=")
        name = name.strip().replace("-", "_")
        if not equals or not name:
            raise click.BadParameter(f"{item!r}: write NAME=VALUE, like max_pip=12", param_hint="'--rule'")
        options[name] = _option_value(name, value)
    try:
        return Rules.preset(preset, **options)
    except RulesError as error:
        raise click.BadParameter(str(error), param_hint="'--rule'") from None


players_option = click.option(
    "--players", type=click.IntRange(2, 8), default=4, show_default=True, help="Number of players."
)
"""Adds ``--players`` (2 to 8) to a game command."""
seed_option = click.option("--seed", type=int, default=0, show_default=True, help="Seed for the deals and the bots.")
"""Adds ``--seed`` (the deals' and the bots' seed) to a game command."""


def rules_options(function: F) -> F:
    """Adds ``--preset`` and ``--rule NAME=VALUE`` to a command."""
    function = click.option(
        "--rule",
        "rule_overrides",
        multiple=True,
        metavar="NAME=VALUE",
        help="Override one rules option, e.g. --rule max_pip=12 --rule drawn_tile=may_play "
        "(see `chickenfoot rules` for the options).",
    )(function)
    return click.option(
        "--preset",
        type=click.Choice(PRESETS),
        default="trains",
        show_default=True,
        help="Rules preset: trains (Mexican-train style deal) or cross (7 tiles each, 4-arm center).",
    )(function)


def _bot_case(name: str) -> str:
    """Reads a built-in bot name in any case; a ``cmd:`` program and a ``py:`` class keep theirs."""
    return name if name[:4].lower() == "cmd:" or name[:3].lower() == "py:" else name.lower()


def parse_bots(text: str, count: int | None = None) -> tuple[str, ...]:
    """Splits a comma-separated bot list; one name is repeated ``count`` times."""
    names = tuple(_bot_case(part.strip()) for part in text.split(",") if part.strip())
    if not names:
        raise click.BadParameter(
            f"name at least one bot: {kinds_help()}",
            param_hint="'--bots'",
        )
    for name in names:
        try:
            check_spec(name)
        except BotSpecError as error:
            raise click.BadParameter(str(error), param_hint="'--bots'") from None
    if count is not None and len(names) == 1:
        return names * count
    if count is not None and len(names) != count:
        raise click.BadParameter(
            f"{len(names)} bots given for {count} seats: give one bot, or one per seat", param_hint="'--bots'"
        )
    return names


def bots_option(default: str, help_text: str) -> Callable[[F], F]:
    """Adds ``--bots LIST`` to a command."""
    return click.option("--bots", default=default, show_default=True, metavar="LIST", help=help_text)
