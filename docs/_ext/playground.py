"""Builds the browser playground: the page, the library's pure wheel, its dependencies' wheels, Pyodide.

The page (``docs/_playground/``) runs the library itself in the browser through Pyodide, with no
network at run time: everything it loads sits next to it. This module assembles that folder,

    playground/
        index.html, playground.js, playground.css, session.py   the page (copied)
        table.js, table.css                                     the table's drawing, shared with chickenfoot serve
        wheels/chickenfoot-*.whl, attrs-*.whl, typing_extensions-*.whl
        pyodide/                                                the npm package's runtime files
        manifest.json                                           the wheels to load, the rules page's URL

for the docs build (at ``build-finished``, into ``<html>/playground/``) and for anyone at a shell:

    python docs/_ext/playground.py DIR      # then: python -m http.server -d DIR, open /index.html

Where things come from: the chickenfoot wheel is built from the checkout (``pip wheel``, with
``CHICKENFOOT_PURE=1`` so it is the pure-Python build Pyodide can run); attrs and
typing-extensions are the versions installed here, fetched as wheels by ``pip download``;
Pyodide is the npm package ``pyodide`` that ``npm ci`` installs from the repository's
``package-lock.json`` into ``node_modules/`` (never committed).

Without Pyodide (no ``npm ci``), the docs build leaves the playground out with a note, so a
docs build needs no Node; with ``CHICKENFOOT_REQUIRE_EXTRAS=1`` (CI) that is a warning, an error
under ``-W``.
"""

from __future__ import annotations

import html
import json
import os
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "_playground"
# The table's drawing lives with the server's pages, which the package ships; the playground copies it.
SHARED = REPO / "src" / "chickenfoot" / "server" / "static"
SHARED_FILES = ("table.js", "table.css")
PYODIDE = REPO / "node_modules" / "pyodide"
# The runtime files of the npm package: the loader, the interpreter and the standard library.
# Its lock file is read at start-up; no package of Pyodide's own is loaded.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
DEPENDENCIES = ("attrs", "typing-extensions")


class PlaygroundError(RuntimeError):
    """Raised when the playground cannot be assembled, saying what to install."""


def pyodide_version(pyodide: Path = PYODIDE) -> str | None:
    """Gets the version of the installed npm package ``pyodide``, or ``None`` if it is not installed."""
    package = pyodide / "package.json"
    if not all((pyodide / name).is_file() for name in PYODIDE_FILES) or not package.is_file():
        return None
    version: str = json.loads(package.read_text(encoding="utf-8"))["version"]
    return version


def _pip(*args: str, env: dict[str, str] | None = None) -> None:
    command = [sys.executable, "-m", "pip", "-q", "--disable-pip-version-check", *args]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode:
        raise PlaygroundError(f"{' '.join(command[2:])} failed:\n{done.stderr.strip()[-2000:]}")


def build_wheels(target: Path, repo: Path = REPO) -> list[str]:
    """Builds the library's pure wheel and fetches its dependencies' wheels into ``target``."""
    target.mkdir(parents=True, exist_ok=True)
    for old in target.glob("*.whl"):
        old.unlink()
    with tempfile.TemporaryDirectory() as scratch:
        env = {**os.environ, "CHICKENFOOT_PURE": "1"}
        _pip("wheel", "--no-deps", "-w", scratch, str(repo), env=env)
        pins = [f"{name}=={metadata.version(name)}" for name in DEPENDENCIES]
        _pip("download", "--no-deps", "--only-binary=:all:", "-d", scratch, *pins)
        names = []
        for wheel in sorted(Path(scratch).glob("*.whl")):
            if not wheel.name.endswith("-py3-none-any.whl"):
                raise PlaygroundError(f"{wheel.name} is not a pure-Python wheel: Pyodide cannot load it")
            shutil.copy2(wheel, target / wheel.name)
            names.append(wheel.name)
    return names


def bundle(target: Path, *, rules_url: str = "../rules.html", pyodide: Path = PYODIDE, repo: Path = REPO) -> Path:
    """Assembles the playground into ``target`` (see the module docs) and returns ``target``.

    ``rules_url`` is where the page links a refused move's rule ID (``rules_url#rule-foot-2``).
    Raises :class:`PlaygroundError` naming what is missing.
    """
    version = pyodide_version(pyodide)
    if version is None:
        raise PlaygroundError(
            f"the npm package pyodide is not installed in {pyodide.parent}: run 'npm ci' in {repo} "
            "(package.json pins the version)"
        )
    target.mkdir(parents=True, exist_ok=True)
    for source in [*sorted(PAGE.iterdir()), *(SHARED / name for name in SHARED_FILES)]:
        if source.is_file():
            shutil.copy2(source, target / source.name)
    runtime = target / "pyodide"
    runtime.mkdir(exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(pyodide / name, runtime / name)
    wheels = build_wheels(target / "wheels", repo)
    manifest = {"pyodide": version, "wheels": wheels, "rules_url": rules_url}
    (target / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return target


def placeholder(target: Path, reason: str) -> Path:
    """Writes ``target/index.html`` for a docs build without the playground: the page the docs' link
    leads to then says why it is missing and how to build it, instead of a missing file."""
    target.mkdir(parents=True, exist_ok=True)
    page = target / "index.html"
    page.write_text(
        '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8">'
        "<title>The playground was not built</title></head>\n<body>\n"
        "<h1>The playground was not built with these docs</h1>\n"
        f"<p>{html.escape(reason)}</p>\n"
        "<p>To add it, run <code>npm ci</code> in the repository (it installs Pyodide, pinned in "
        "<code>package.json</code>), then build the docs again: <code>python -m sphinx -W --keep-going -n "
        "-b html docs docs/_build/html</code>.</p>\n"
        '<p><a href="../playground.html">Back to the playground\'s page</a></p>\n</body>\n</html>\n',
        encoding="utf-8",
    )
    return page


# -- Sphinx ---------------------------------------------------------------------------------


def _build_finished(app: Any, exception: Exception | None) -> None:
    from sphinx.util import logging

    if exception is not None or app.builder.format != "html":
        return
    logger = logging.getLogger(__name__)
    try:
        bundle(Path(app.outdir) / "playground")
    except PlaygroundError as error:
        placeholder(Path(app.outdir) / "playground", str(error))  # the link leads to why, and how to add it
        message = f"the playground was left out: {error}"
        if os.environ.get("CHICKENFOOT_REQUIRE_EXTRAS") == "1":
            logger.warning(message, type="chickenfoot", subtype="playground")
        else:
            logger.info(message)


def setup(app: Any) -> dict[str, Any]:
    """Bundles the playground into the HTML output after every HTML build."""
    app.connect("build-finished", _build_finished)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python docs/_ext/playground.py DIR")
    print(bundle(Path(sys.argv[1]), rules_url=os.environ.get("RULES_URL", "../rules.html")))
