"""Sphinx configuration for the chickenfoot docs.

Build (from the repository root; this is what CI runs):

    python -m pip install -e ".[docs]" && python -m sphinx -W --keep-going -n -b html docs docs/_build/html
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
REPO = DOCS.parent
# Document the checked-out source, not whatever chickenfoot happens to be installed.
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(DOCS / "_ext"))

from chickenfoot_docs import write_inventories  # noqa: E402

import chickenfoot  # noqa: E402

project = "chickenfoot"
author = "chickenfoot maintainers"
copyright = "chickenfoot maintainers, MIT License"
release = version = chickenfoot.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
    "chickenfoot_docs",
    "playground",  # bundles the browser playground into <html>/playground/ (needs `npm ci`)
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = [
    "_build",
    "_generated/rules_table.md",
    "_generated/layers.md",
    "_generated/inventories",
    "_playground",
]
templates_path: list[str] = []
html_static_path = ["_static"]
html_theme = "furo"
html_title = f"chickenfoot {release}"

# Warnings are errors (-W) and every reference must resolve (-n): the docs cannot rot quietly.
nitpicky = True
nitpick_ignore = [
    # attrs' generated __init__ parameters and private aliases in hints link nowhere on purpose.
    ("py:class", "chickenfoot._game._state.History"),
    ("py:class", "History"),
    ("py:class", "chickenfoot._io._json_read.T"),  # from_json's TypeVar: "the type you asked for"
    # The option types of Rules are private Literal aliases; the options' docstrings list the values.
    ("py:class", "DealStyle"),
    ("py:class", "DrawnTilePolicy"),
    ("py:class", "CenterFallback"),
    ("py:class", "TieBreak"),
    # numpy ships no inventory here; the observation functions return float32 arrays, and the
    # batch module's hints name numpy types and its private table type.
    ("py:class", "NDArray"),
    ("py:class", "np.float32"),
    ("py:class", "Tables"),
    # Starlette ships no inventory here: create_app returns its application.
    ("py:class", "starlette.applications.Starlette"),
]
nitpick_ignore_regex = [("py:class", r"numpy\..*")]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

autodoc_typehints = "description"
autodoc_typehints_description_target = "documented_params"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": False}
python_use_unqualified_type_names = True

# The build machine reaches no documentation site: intersphinx reads small vendored inventories
# of the objects these pages link to (docs/_inventories/*.txt), compiled here.
_inventories = write_inventories(DOCS / "_inventories", DOCS / "_generated" / "inventories")
intersphinx_mapping = {
    "python": ("https://docs.python.org/3", str(_inventories["python"])),
    "attrs": ("https://www.attrs.org/en/stable", str(_inventories["attrs"])),
}
