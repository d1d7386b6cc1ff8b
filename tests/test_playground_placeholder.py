"""A docs build without the playground (no ``npm ci``): the docs' link leads to a page saying why, and how to add it."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]


def _bundler() -> Any:
    spec = importlib.util.spec_from_file_location(
        "playground_bundler_placeholder", REPO / "docs" / "_ext" / "playground.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_build_without_pyodide_writes_the_page_the_link_leads_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("sphinx")
    bundler = _bundler()

    def missing(target: Path, **options: object) -> Path:
        raise bundler.PlaygroundError("the npm package pyodide is not installed")

    monkeypatch.setattr(bundler, "bundle", missing)
    app = SimpleNamespace(outdir=str(tmp_path), builder=SimpleNamespace(format="html"))
    bundler._build_finished(app, None)
    page = (tmp_path / "playground" / "index.html").read_text(encoding="utf-8")
    assert "The playground was not built" in page
    assert "the npm package pyodide is not installed" in page
    assert "<code>npm ci</code>" in page
    link = (REPO / "docs" / "playground.md").read_text(encoding="utf-8")
    assert 'href="playground/index.html"' in link  # the link the page answers
