"""The architecture page's layer table, drawn from the import contract that ``lint-imports`` checks.

:func:`layer_table` reads ``[tool.importlinter]`` from pyproject.toml (the layers, top first, and
the imports the contract lets through) and writes them as a Markdown table, so the page shows
exactly what CI checks. ``chickenfoot_docs`` writes it to ``_generated/layers.md`` at every docs
build, and tests/test_architecture.py checks it against the contract and the package.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 reads TOML with tomli (pytest's own dependency there)
    import tomli as tomllib

# What each layer is for, by its first module as the contract lists it.
LAYER_NAMES = {
    "__main__": "the command line",
    "server": "front ends: the server, the learning frameworks' adapters, the batch, the conformance suite",
    "tournament": "tournaments and ladders",
    "bots": "bots and their searches",
    "render": "pictures",
    "actions": "text, JSON, records, numbers for learning, supervised programs",
    "_game": "the game as values, and the engine",
    "_core": "the compiled core, and the rules stated plainly (the oracle)",
}


def contracts(pyproject: Path) -> list[dict[str, Any]]:
    """Gets the import contracts pyproject.toml states (``[[tool.importlinter.contracts]]``)."""
    config = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = config["tool"]["importlinter"]["contracts"]
    return found


def layers(pyproject: Path) -> list[tuple[list[str], bool]]:
    """Gets the package's layers, top first: each layer's modules and whether they may import each other.

    A module in parentheses may be absent (the contract's optional layers).
    """
    contract = next(item for item in contracts(pyproject) if item["id"] == "layers")
    found: list[tuple[list[str], bool]] = []
    for layer in contract["layers"]:
        shared = ":" in layer
        found.append(([name.strip() for name in re.split(r"[|:]", layer)], shared))
    return found


def layer_table(pyproject: Path) -> str:
    """Writes the layers as a Markdown table, top first, and the imports the contract lets through."""
    contract = next(item for item in contracts(pyproject) if item["id"] == "layers")
    rows = ["| layer | what it holds | modules (`chickenfoot.` omitted) | siblings |", "| --- | --- | --- | --- |"]
    listed = layers(pyproject)
    for number, (modules, shared) in zip(range(len(listed), 0, -1), listed, strict=True):
        name = LAYER_NAMES.get(modules[0], "(unnamed: add it to docs/_ext/layers.py)")
        shown = " ".join(f"`{module}`" if not module.startswith("(") else f"(`{module[1:-1]}`)" for module in modules)
        siblings = "may import each other" if shared else ("independent" if len(modules) > 1 else "")
        rows.append(f"| {number} | {name} | {shown} | {siblings} |")
    allowed = [f"`{line.replace(' -> ', '` → `')}`" for line in contract.get("ignore_imports", [])]
    return (
        "\n".join(rows)
        + "\n\nThe one upward reach the contract lets through, the display hook: "
        + ", ".join(allowed)
        + ".\n"
    )


if __name__ == "__main__":
    print(layer_table(Path(__file__).resolve().parents[2] / "pyproject.toml"), end="")
