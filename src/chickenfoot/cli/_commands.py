"""The ``chickenfoot`` app: its group, and the one list of its commands.

Each command is a plain ``click.command`` in the module of its job; :data:`COMMANDS` is the only
place one is added to the app (``chickenfoot --help`` lists them by name).
"""

from __future__ import annotations

import click

from .. import __version__
from ._analyse import analyse_command
from ._app import CONTEXT, play, replay, rules, simulate
from ._ladder import ladder_command
from ._serve import serve
from ._tournament import tournament

__all__ = ["COMMANDS", "app"]

COMMANDS: tuple[click.Command, ...] = (
    simulate,
    play,
    tournament,
    ladder_command,
    analyse_command,
    replay,
    rules,
    serve,
)
"""Every command of ``chickenfoot``, each added to :func:`app` here and nowhere else."""


@click.group(context_settings=CONTEXT)
@click.version_option(__version__, "--version", "-V", prog_name="chickenfoot", message="%(prog)s %(version)s")
def app() -> None:
    """Chicken Foot dominoes: simulate games between bots, play against them, run tournaments.

    Every command takes --help. Moves are written 9-5@3 (tile 9-5 onto node 3), draw, pass.
    """


for _command in COMMANDS:
    app.add_command(_command)
