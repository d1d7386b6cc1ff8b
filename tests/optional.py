"""Skipping a test whose optional extra is missing, by the same table as the package's own errors."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

import pytest

from chickenfoot._io._extras import why_missing


def skip_unless_importable(modules: Iterable[str], what: str) -> None:
    """Skips the running test, naming the extra, if any of ``modules`` needs an extra that is missing."""
    for module in modules:
        reason = why_missing(module)
        if reason is not None:
            pytest.skip(f"{what}: {reason}")


def imports_of_source(source: str) -> list[str]:
    """Gets the absolute modules a Python source imports (``import a.b``, ``from a.b import c``)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
    return found


_SNIPPET_IMPORT = re.compile(r"^>>> (?:import ([\w.]+)|from ([\w.]+) import)", re.MULTILINE)


def imports_of_snippets(text: str) -> list[str]:
    """Gets the modules the ``>>>`` snippets of a page import."""
    return [plain or source for plain, source in _SNIPPET_IMPORT.findall(text)]


def skip_module_unless_importable(module: str, what: str) -> None:
    """Skips a whole test module, naming the extra, if ``module`` needs an extra that is missing."""
    reason = why_missing(module)
    if reason is not None:
        pytest.skip(f"{what}: {reason}", allow_module_level=True)
