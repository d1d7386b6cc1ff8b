"""The optional extras: which import comes with which extra, and how to install it.

``import chickenfoot`` needs only attrs and typing-extensions; the command line, the learning
adapters and a few backends need more, and each comes with an extra named in ``pyproject.toml``.
This table is the one place that says which, so the modules that need an extra, the command line's
hints and the test suite's skips all say the same thing:

>>> EXTRA_OF["pyspiel"]
'openspiel'
"""

from __future__ import annotations

import importlib
import json
from importlib import metadata
from pathlib import Path

__all__ = ["EXTRA_OF", "install_command", "needs", "why_missing"]

EXTRA_OF = {
    "click": "cli",
    "rich": "cli",
    "numpy": "numpy",
    "pyspiel": "openspiel",
    "open_spiel": "openspiel",
    "pettingzoo": "pettingzoo",
    "gymnasium": "gymnasium",
    "ray": "ray",
    "selenium": "browser",
    "starlette": "server",
    "uvicorn": "server",
    "websockets": "server",
    "psycopg": "postgres",
}
"""The top-level module of each optional dependency, and the extra that installs it."""


def install_command(extra: str) -> str:
    """Gets the command that installs ``extra`` for the chickenfoot that is running.

    From a checkout (installed from a local directory, or run from its ``src/``) that is the
    checkout's own path, editable if the install is; otherwise the released package.
    """
    for distribution in metadata.distributions(name="chickenfoot"):
        try:
            origin = json.loads(distribution.read_text("direct_url.json") or "null")
        except ValueError:
            origin = None
        if isinstance(origin, dict) and str(origin.get("url", "")).startswith("file://"):
            editable = "-e " if origin.get("dir_info", {}).get("editable") else ""
            return f'python -m pip install {editable}"{origin["url"].removeprefix("file://")}[{extra}]"'
    checkout = Path(__file__).resolve().parents[3]
    if (checkout / "pyproject.toml").is_file() and (checkout / "src" / "chickenfoot").is_dir():
        return f'python -m pip install "{checkout}[{extra}]"'
    return f'python -m pip install "chickenfoot[{extra}]"'


class _MissingExtraError(ModuleNotFoundError):
    """A module of chickenfoot that needs an extra which is not installed (its message says which)."""


def needs(module: str, error: ModuleNotFoundError, extra: str | None = None) -> ModuleNotFoundError:
    """Makes the error a module raises when an optional dependency of it is missing.

    The error keeps the missing module's ``name`` and says which extra to install: ``extra``, or
    the one :data:`EXTRA_OF` names for the missing module::

        try:
            import gymnasium
        except ModuleNotFoundError as error:
            raise needs("chickenfoot.gymnasium", error) from error
    """
    missing = (error.name or "").partition(".")[0]
    extra = extra or EXTRA_OF.get(missing)
    if extra is None:  # not an optional dependency: a broken install, say it as it is
        return error
    message = f"{module} needs {missing}, which is not installed: {_comes_with(extra)}"
    return _MissingExtraError(message, name=error.name)


def _comes_with(extra: str) -> str:
    return f"it comes with the {extra!r} extra ({install_command(extra)})"


def why_missing(module: str) -> str | None:
    """Imports ``module`` and gets why it cannot be used here, or ``None`` if it imports.

    Only a missing optional dependency (one of :data:`EXTRA_OF`) is a reason; any other import
    error is raised, so a broken module is never mistaken for an absent extra.
    """
    try:
        importlib.import_module(module)
    except _MissingExtraError as error:
        return str(error)
    except ModuleNotFoundError as error:
        missing = (error.name or "").partition(".")[0]
        if missing not in EXTRA_OF:
            raise
        if module.partition(".")[0] == missing:  # the dependency itself, imported by a page or a script
            return f"{missing} is not installed: {_comes_with(EXTRA_OF[missing])}"
        return str(needs(module, error))
    return None
