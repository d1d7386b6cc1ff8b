"""Skips collecting (for doctests) the adapter modules whose optional extra is not installed."""

from __future__ import annotations

import importlib.util

_EXTRAS = {
    "src/chickenfoot/observation.py": "numpy",
    "src/chickenfoot/openspiel.py": "pyspiel",
    "src/chickenfoot/pettingzoo.py": "pettingzoo",
}

collect_ignore = [path for path, module in _EXTRAS.items() if importlib.util.find_spec(module) is None]
