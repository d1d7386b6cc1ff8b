"""Every file and module a docs page or the README names exists, so no page names a file that moved.

A page names source files in four ways, and each is checked against the checkout:

* a path from the repository's root (``src/chickenfoot/_core/_round.py``, ``benchmarks/run.py``,
  ``tests/test_docs.py``), from the package (``chickenfoot/server/static/``, ``_core/_round.py``,
  ``batch/_deal.py``), or from the docs folder (``../src/...``, ``_static/...``, and the generated
  source pages ``_generated/code/<path>.md``, which exist for ``<path>.py``);
* a bare file name (``_round.py``, ``flavours.py``), which some file of the checkout must have;
* a dotted module name (``chickenfoot._core._round``), whose modules must exist as far as the name
  goes into private ones (what follows a module is one of its names);
* a short dotted name from a private module in a code span (```_chance.apply_chance```), whose
  module must exist somewhere in the package.

History has its own page, the changelog, which this does not read.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
PACKAGE = REPO / "src" / "chickenfoot"
SKIPPED = {".git", "node_modules", "_build", "_generated", "mutants", "build", "__pycache__", ".venv", "dist"}
PAGES = sorted(
    [path for path in DOCS.rglob("*.md") if not SKIPPED & set(path.relative_to(DOCS).parts)] + [REPO / "README.md"]
)

URL = re.compile(r"\w+://\S+")
PATH = re.compile(r"(?<![\w/.:~-])((?:\.{0,2}[\w*.-]*/)+[\w*.-]*)")
BARE = re.compile(r"(?<![\w/.-])([\w-]+\.py)\b")
DOTTED = re.compile(r"(?<![\w./-])((?:chickenfoot|(?<=`)_[a-z]\w*)(?:\.\w+)+)")  # `_x.y` in code spans only
EXTENSIONS = {"py", "js", "css", "json", "md", "toml", "txt", "sh", "svg", "png", "html"}
ROOTS = {"src", "tests", "docs", "benchmarks", "examples", "scripts", ".ci", ".github"}
FOLDERS = {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").is_file()}


def _files() -> list[Path]:
    return [path for path in REPO.rglob("*") if path.is_file() and not SKIPPED & set(path.relative_to(REPO).parts)]


FILES = _files()
NAMES = {path.name for path in FILES}
SUFFIXES = {part for path in FILES for part in ("/".join(path.relative_to(REPO).parts[i:]) for i in range(3))}


def _exists(root: Path, path: str) -> bool:
    """Tells whether ``path`` (a glob with ``*``, or a folder ending in ``/``) names something under ``root``."""
    if "*" in path:
        return any(root.glob(path))
    return (root / path).exists()


def _path_is_missing(token: str) -> bool:
    """Tells whether a path a page names is missing; paths of no known root (``DIR/x.json``) are not checked."""
    last = token.rstrip("/").rsplit("/", 1)[-1]
    if not (token.endswith("/") or re.search(r"\.\w+$", last)) or last.endswith(".html"):
        return False  # not a source file or folder: "chickenfoot/Trains-v0", "moves/s", a built page
    if token.startswith("../"):
        return not _exists(DOCS, token)
    first, _, rest = token.partition("/")
    if first == "_generated":
        source = rest.removeprefix("code/")
        # The docs build writes _generated/code/<path>.md for each source file a rule names.
        return rest.startswith("code/") and not (REPO / source).with_suffix(".py").is_file()
    if first in ROOTS:
        return not token.startswith("docs/_build") and not _exists(REPO, token)
    if first == "chickenfoot":
        return not _exists(PACKAGE, rest)
    if first in FOLDERS:
        return not _exists(PACKAGE, token)
    if first.startswith("_"):  # a docs folder (_static, _ext, _playground) or a private package folder
        return not (_exists(DOCS, token) or token.rstrip("/") in SUFFIXES)
    return False


def _module(parts: list[str], start: Path) -> bool:
    """Tells whether the dotted ``parts`` name modules that exist from ``start`` as far as they are private."""
    where = start
    for part in parts:
        if (where / part / "__init__.py").is_file():
            where = where / part
        elif (where / f"{part}.py").is_file():
            return True  # the rest are names in that module
        else:
            private = part.startswith("_") and not part.endswith("__")  # __version__ is a name
            return not private  # a public name of the package, or a missing private module
    return True


def missing_names(text: str) -> list[str]:
    """Lists every file or module ``text`` names that does not exist in the checkout."""
    text = URL.sub(" ", text)
    missing = [token for token in PATH.findall(text) if _path_is_missing(token)]
    missing += [name for name in BARE.findall(text) if name not in NAMES]
    for name in DOTTED.findall(text):
        first, *rest = name.split(".")
        if rest[-1] in EXTENSIONS:
            continue  # a file name (a bare .py one is checked above)
        if first == "chickenfoot":
            found = _module(rest, PACKAGE)
        else:
            homes = [path for path in PACKAGE.rglob(first) if (path / "__init__.py").is_file()]
            homes += [path.parent for path in PACKAGE.rglob(f"{first}.py")]
            found = any(_module([first, *rest], home.parent if home.name == first else home) for home in homes)
        if not found:
            missing.append(name)
    return sorted(set(missing))


@pytest.mark.parametrize("page", PAGES, ids=[str(path.relative_to(REPO)) for path in PAGES])
def test_a_page_names_only_files_that_exist(page: Path) -> None:
    missing = missing_names(page.read_text(encoding="utf-8"))
    assert not missing, f"{page.relative_to(REPO)} names what the checkout does not have: {', '.join(missing)}"


PLANTED = [
    "src/chickenfoot/_round.py",  # a module that moved into a folder
    "chickenfoot/_planning.py",  # one that was renamed
    "_core.py",  # a bare name no file has
    "_core/_rounds.py",  # a path from the package
    "batch/_tabels.py",  # from a public folder
    "benchmarks/nothing.py",  # from the repository's root
    "../src/chickenfoot/_notation.py",  # from the docs folder, as literalinclude reads it
    "_generated/code/src/chickenfoot/_codes.md",  # a generated source page of a file that moved
    "chickenfoot._dealing",  # a dotted module name
    "chickenfoot._core._rounds.Round",  # a module inside a folder
    "_planning._standing",  # a short dotted name
]


def test_the_check_finds_a_planted_name(tmp_path: Path) -> None:
    # A copy of a real page, with a wrong name of every kind planted in it; the right names are not reported.
    page = tmp_path / "architecture.md"
    original = (DOCS / "architecture.md").read_text(encoding="utf-8")
    page.write_text(original + "".join(f"\nSee `{name}`.\n" for name in PLANTED), encoding="utf-8")
    assert missing_names(page.read_text(encoding="utf-8")) == sorted(set(missing_names(original)) | set(PLANTED))
    right = [
        "src/chickenfoot/_core/_round.py",
        "_core/_round.py",
        "batch/_tables.py",
        "_round.py",
        "chickenfoot._core._round.Round",
        "chickenfoot.Tile",
        "_chance.apply_chance",
        "_generated/code/src/chickenfoot/_core/_codes.md",
        "../src/chickenfoot/_io/_notation.py",
        "chickenfoot/Trains-v0",
        "docs/_build/html",
        "chickenfoot.__compiled__",
        "../rules.html",
    ]
    assert missing_names(" ".join(f"`{name}`" for name in right)) == []
