"""The ``chickenfoot`` command line: simulate, play, tournament, ladder, analyse, replay and rules.

Built on click and rich, which come with the optional ``cli`` extra (``python -m pip install ".[cli]"``
from a checkout, ``"chickenfoot[cli]"`` once it is on PyPI).
The library itself never imports this package.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from .._io import install_command

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit code.

    Usage errors (unknown options, bad values) exit with code 2 and a message, never a traceback.
    """
    try:
        import click  # noqa: F401
        import rich  # noqa: F401
    except ImportError as error:
        sys.stderr.write(
            f"chickenfoot: the command line needs click and rich (missing: {error.name or 'one of them'}); "
            f"they come with the 'cli' extra: {install_command('cli')}\n"
        )
        return 1
    from ._commands import app

    _exit_on_sigterm()
    try:
        app.main(args=list(argv) if argv is not None else None, prog_name="chickenfoot", standalone_mode=True)
    except SystemExit as exit_:
        code = exit_.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    return 0  # pragma: no cover - standalone mode always exits


def _exit_on_sigterm() -> None:
    """Makes SIGTERM (and a closed terminal's SIGHUP) exit like ``sys.exit``, so that cleanup runs.

    A tournament then stops its workers and its bots' programs, which run in sessions of their
    own and are not signalled with the command.
    """
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return

    def leave(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) is signal.SIG_DFL:
            signal.signal(number, leave)
