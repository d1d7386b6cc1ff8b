"""Each public module's ``__all__`` is exactly the public names it defines (trio's ``test_exports``).

A name added without a place in ``__all__``, or listed without being defined, fails here; the docs
build then fails for any ``__all__`` name the API reference does not show.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path

import pytest

import chickenfoot as cf
from optional import skip_unless_importable

TOPIC_MODULES = [
    "bots",
    "tournament",
    "svg",
    "render",
    "notebook",
    "actions",
    "observation",
    "gymnasium",
    "batch",
    "batch.env",
    "reference",
    "conformance",
    "solver",
]
# The core stays small (the views, a seat's and a spectator's, are core); topics live in modules of their own.
TOP_LEVEL_LIMIT = 47


def _defined_names(module_name: str) -> set[str]:
    """Reads the public names a module's source binds at top level: defs, classes, assignments, re-exports."""
    spec = importlib.util.find_spec(module_name)
    assert spec is not None
    assert spec.origin is not None
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(target.id for target in node.targets if isinstance(target, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom) and node.level > 0:
            # ``from ._x import Name as Name`` is the re-export idiom (PEP 484); other imports are private use.
            names.update(alias.asname for alias in node.names if alias.asname == alias.name)
    return {name for name in names if not name.startswith("_")}


@pytest.mark.parametrize("module_name", ["chickenfoot", *(f"chickenfoot.{name}" for name in TOPIC_MODULES)])
def test_all_is_exactly_the_public_names(module_name: str) -> None:
    skip_unless_importable([module_name], module_name)
    module = importlib.import_module(module_name)
    assert sorted(module.__all__) == sorted(_defined_names(module_name))
    assert len(module.__all__) == len(set(module.__all__)), "a name is listed twice"
    for name in module.__all__:
        assert hasattr(module, name), f"{module_name}.{name} is listed but missing"


def test_the_top_level_holds_the_core_only() -> None:
    assert len(cf.__all__) <= TOP_LEVEL_LIMIT
    for name in ("GreedyBot", "run_tournament", "render_svg", "render_text"):
        assert not hasattr(cf, name), f"{name} belongs in a topic module"


def test_errors_read_as_public_names() -> None:
    errors = [getattr(cf, name) for name in cf.__all__ if name.endswith("Error")]
    assert {error.__name__ for error in errors} == {
        "BotSpecError",
        "IllegalMoveError",
        "InvalidMoveError",
        "InvalidPositionError",
        "InvalidRecordError",
        "RulesError",
    }
    for error in errors:
        assert error.__module__ == "chickenfoot", error
        assert issubclass(error, ValueError)
    with pytest.raises(cf.IllegalMoveError) as caught:
        cf.apply(cf.new_game(cf.Rules.trains(), players=2, seed=0), cf.Pass())
    assert caught.exconly().startswith("chickenfoot.IllegalMoveError: ")
