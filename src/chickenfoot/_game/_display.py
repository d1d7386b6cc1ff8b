"""The display hook: ``str()`` and Jupyter's picture of the public values, drawn by the picture modules.

A :class:`~chickenfoot.Board`, :class:`~chickenfoot.RoundState`, :class:`~chickenfoot.GameState`
or :class:`~chickenfoot.PlayerView` shows itself (``__str__``, ``_repr_svg_``, the display idiom
python-chess uses too) with :mod:`chickenfoot.render` and :mod:`chickenfoot.svg`, which import
those values to draw them; a :class:`~chickenfoot.GameRecord` shows itself in Jupyter with
:class:`chickenfoot.notebook.ReplayWidget`. This module is the one place a lower layer reaches up
(the import contract in pyproject.toml allows exactly these three imports), and only through
public names: each import is made at the call, when both sides are loaded.
"""

from __future__ import annotations

from typing import Any

__all__ = ["replay_html", "svg", "text"]


def text(shown: Any) -> str:
    """Writes ``shown`` as text (see :func:`chickenfoot.render.describe_state`)."""
    from ..render import describe_state

    return describe_state(shown)


def svg(shown: Any) -> str:
    """Draws ``shown`` for Jupyter (see :func:`chickenfoot.svg.render_svg`)."""
    from ..svg import render_svg

    return render_svg(shown)


def replay_html(record: Any) -> str:
    """Shows a game record in Jupyter as a replay to step through (see :class:`chickenfoot.notebook.ReplayWidget`)."""
    from ..notebook import ReplayWidget

    return ReplayWidget(record)._repr_html_()
