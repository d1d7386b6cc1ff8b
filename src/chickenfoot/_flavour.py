"""Which rules core runs: the one compiled by mypyc, or the same modules as pure Python.

A compiled install ships the core's modules (:data:`COMPILED_MODULES`) and the extensions built
from them; Python imports the extensions. ``CHICKENFOOT_PURE=1`` in the environment, read once at
import, loads the ``.py`` modules instead (to compare the two, or to rule the compiled ones out
while debugging). Imported first by ``chickenfoot/__init__.py``, before anything reads the core.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

__all__ = ["COMPILED"]


COMPILED_MODULES = ("_codes", "_layout", "_round", "_dealing", "_matching", "_sampling", "_search", "_greedy")
"""The modules ``pip install .`` compiles, in import order (each reads only those before it, and the errors)."""


def _load_pure(name: str) -> None:
    spec = importlib.util.spec_from_file_location(f"{__package__}.{name}", Path(__file__).with_name(f"{name}.py"))
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    sys.modules[__package__].__dict__[name] = module  # bound on the package, as an import would


if os.environ.get("CHICKENFOOT_PURE", "") not in ("", "0") and f"{__package__}._codes" not in sys.modules:
    for _name in COMPILED_MODULES:
        _load_pure(_name)

from . import _round  # noqa: E402 - after the choice above

COMPILED = not str(_round.__file__).endswith(".py")
"""Whether the mypyc-compiled core is running."""
