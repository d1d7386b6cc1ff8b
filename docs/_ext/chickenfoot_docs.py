"""Sphinx glue for the chickenfoot docs: the rules-as-code page, source pages, and build checks.

What it adds, and why:

* ``config-inited``: maps every SPEC.md rule ID to its code and tests (:mod:`rulemap`) and writes
  ``_generated/rules_table.md``, which ``rules.md`` includes. A rule ID that no code or no test
  names is a warning naming the ID, and the build exits non-zero even without ``-W``
  (``-D rules_strict=0`` lets a draft build pass). It also writes one highlighted page per source
  and test file with a link target per line (``#L-123``), so the rules page links to the exact
  line that names a rule, offline. And ``_generated/layers.md``, the architecture page's layers,
  from the import contract in pyproject.toml (:mod:`layers`).
* the ``{srcline}`` role: ``{srcline}`text <path:line>``` links to such a line.
* the ``{optional-toctree}`` directive: a toctree that leaves out entries whose page does not
  exist (a page can be added on one branch and listed on another), and with ``:others:`` lists
  every top-level page not placed anywhere else, so a new page never breaks the build.
* ``missing-reference``: type hints name private modules (``chickenfoot._game._tiles.Tile``); they
  resolve to the public name (``chickenfoot.Tile``) when it is exported.
* the ``board-picture`` directive: runs a snippet and draws the position it reaches (SVG once
  :func:`chickenfoot.svg.render_svg`).
* ``doctree-resolved``: every rule ID in running text links to its entry on the rules page.
* ``env-check-consistency``: every name in a public module's ``__all__`` must be documented.
"""

from __future__ import annotations

import importlib
import re
import zlib
from pathlib import Path
from typing import Any, ClassVar

import layers
import rulemap
from docutils import nodes
from docutils.parsers.rst import Directive, directives
from docutils.statemachine import StringList
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer
from sphinx.application import Sphinx
from sphinx.directives.other import TocTree
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.nodes import split_explicit_title

logger = logging.getLogger(__name__)

GENERATED = "_generated"
CODE_DIR = f"{GENERATED}/code"


# -- helpers --------------------------------------------------------------------------------


def _write_if_changed(path: Path, text: str) -> None:
    """Writes ``text`` unless the file already holds it, so Sphinx re-reads only what changed."""
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _code_doc(path: str) -> str:
    """Gets the docname of the source page for repository file ``path``."""
    return f"{CODE_DIR}/{path.removesuffix('.py')}"


def write_inventories(source_dir: Path, target_dir: Path) -> dict[str, Path]:
    """Compiles ``name role uri`` text inventories into Sphinx ``objects.inv`` files.

    The build machine reaches no documentation site, so intersphinx reads these small vendored
    inventories (the objects our docs link to) instead of downloading the full ones.
    """
    compiled = {}
    for text_file in sorted(source_dir.glob("*.txt")):
        project, version, *entries = [
            line for line in text_file.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")
        ]
        body = "".join(f"{name} {role} 1 {uri} -\n" for name, role, uri in (entry.split() for entry in entries))
        header = (
            "# Sphinx inventory version 2\n"
            f"# Project: {project}\n# Version: {version}\n"
            "# The remainder of this file is compressed using zlib.\n"
        )
        target = target_dir / f"{text_file.stem}.inv"
        data = header.encode() + zlib.compress(body.encode())
        if not target.exists() or target.read_bytes() != data:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        compiled[text_file.stem] = target
    return compiled


# -- generated pages ------------------------------------------------------------------------


def _source_page(repo: Path, path: str) -> str:
    source = (repo / path).read_text(encoding="utf-8")
    formatter = HtmlFormatter(linenos="inline", linespans="L", cssclass="highlight source-listing")
    body = highlight(source, PythonLexer(), formatter)
    fence = "`" * max(3, max((len(run) for run in re.findall(r"`+", body)), default=0) + 1)
    return (
        "---\norphan: true\n---\n\n"
        f"# {path}\n\n"
        "This page shows the file as the docs were built from it; line numbers are link targets\n"
        "(`#L-12`), used by [the rules, as code](/rules.md).\n\n"
        f"{fence}{{raw}} html\n{body}{fence}\n"
    )


def _options_text(options: list[str]) -> str:
    if not options:
        return "none: every preset plays it this way"
    return ", ".join(f"{{py:attr}}`Rules.{name} <chickenfoot.Rules.{name}>`" for name in options)


def _inline_code(text: str, limit: int = 110) -> str:
    """Formats one source line as inline code, shortened, whatever backticks it holds."""
    text = re.sub(" {3,}", "  ", text.strip())  # a table's alignment is noise in one line
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    ticks = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


ENGINE = "src/chickenfoot/_core/"  # the compiled core: what legal_moves and apply run
GAME = "src/chickenfoot/_game/"  # the values and the engine around the core
CHANCE = "src/chickenfoot/_game/_chance.py"  # the chance layer: a statement of its own
REFERENCE = "src/chickenfoot/reference.py"


def _short(path: str) -> str:
    """Names a source file as the package does, without ``src/chickenfoot/``."""
    return path.removeprefix("src/chickenfoot/")


def _fence(text: str, language: str) -> str:
    fence = "`" * max(3, max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    return f"{fence}{language}\n{text}\n{fence}"


def engine_lines(locations: list[rulemap.Location]) -> list[rulemap.Location]:
    """Picks the engine's lines among those that name a rule: the compiled core's, or where the
    core holds none of them (the configuration's checks, the winners), those of ``_game/``."""
    core = [loc for loc in locations if loc.path.startswith(ENGINE)]
    return core or [loc for loc in locations if loc.path.startswith(GAME) and loc.path != CHANCE]


def _rules_table(result: rulemap.RuleMap, repo: Path) -> str:
    sources: dict[str, list[str]] = {}

    def line_of(loc: rulemap.Location) -> str:
        if loc.path not in sources:
            sources[loc.path] = (repo / loc.path).read_text(encoding="utf-8").splitlines()
        return sources[loc.path][loc.line - 1]

    def link(loc: rulemap.Location) -> str:
        return f"{{srcline}}`{_short(loc.path)}:{loc.line} <{loc.path}:{loc.line}>` {_inline_code(line_of(loc))}"

    lines = [
        "<!-- Generated by docs/_ext/chickenfoot_docs.py from docs/SPEC.md, src/ and tests/; do not edit. -->",
        "",
    ]
    section = None
    for rule in result.rules:
        if rule.section != section:
            section = rule.section
            lines += [f"### {section}", ""]
        code, tests = result.code[rule.id], result.tests[rule.id]
        engine = engine_lines(code)
        others = [loc for loc in code if loc not in engine and loc.path != REFERENCE]
        lines += [
            f"(rule-{rule.id.lower()})=",
            f"#### {rule.id}",
            "",
            rule.text,
            "",
            f"**Options that change it:** {_options_text(result.options[rule.id])}",
            "",
        ]
        blocks = result.reference.get(rule.id, [])
        if blocks:
            places = ", ".join(
                f"{{srcline}}`{'reference.py:' * (n == 0)}{where.line} <{where.path}:{where.line}>`"
                for n, where in enumerate(block.location for block in blocks)
            )
            lines += [f"**The reference** ({places}):", ""]
            lines += [part for block in blocks for part in (_fence(block.text, "python"), "")]
        else:
            lines += ["**The reference:** no commented block names it.", ""]
        lines.append("**The engine:**" + ("" if engine else " **no line of the engine names it**"))
        lines += ["", *(f"- {link(loc)}" for loc in engine), ""]
        files = len({loc.path for loc in others})
        summary = (
            f"{len(others)} more line{'s' * (len(others) != 1)} in {files} file{'s' * (files != 1)}, "
            f"and the {len(tests)} test{'s' * (len(tests) != 1)} that prove{'s' * (len(tests) == 1)} it"
        )
        lines += ['<details class="rule-links">', f"<summary>{summary}</summary>", ""]
        if others:
            lines += ["**Other lines that name it:**", "", *(f"- {link(loc)}" for loc in others), ""]
        lines.append("**Tests:**" + ("" if tests else " **no test names it**"))
        lines += [""]
        for ref in tests:
            where = ref.location
            lines.append(f"- {{srcline}}`{ref.node_id.removeprefix('tests/')} <{where.path}:{where.line}>`")
        lines += ["", "</details>", ""]
    return "\n".join(lines)


def generate(app: Sphinx, config: Any) -> None:
    """Writes the generated pages and enforces that every rule has code and a test.

    Runs at ``config-inited``: Sphinx lists the source files right after, so pages written later
    would be missed by a fresh build.
    """
    srcdir = Path(app.srcdir)
    repo = Path(config.chickenfoot_repo).resolve()
    result = rulemap.build(repo, srcdir / "SPEC.md")

    # Each gap is a warning naming the rule (an error under -W), and in strict mode the build
    # exits non-zero even without -W (see fail_on_rule_gaps).
    problems = result.problems()
    for problem in problems:
        logger.warning(
            f"rule {problem}: every SPEC.md rule needs code that names it and a test that names it "
            "(in its name, docstring, a comment or @pytest.mark.rule)",
            type="chickenfoot",
            subtype="rules",
        )
    app._chickenfoot_rule_gaps = len(problems)  # type: ignore[attr-defined]
    app._chickenfoot_rule_ids = [rule.id for rule in result.rules]  # type: ignore[attr-defined]

    generated = srcdir / GENERATED
    _write_if_changed(generated / "rules_table.md", _rules_table(result, repo))
    _write_if_changed(generated / "layers.md", layers.layer_table(repo / "pyproject.toml"))  # architecture.md
    paths = sorted({loc.path for locs in result.code.values() for loc in locs})
    paths += sorted({ref.location.path for refs in result.tests.values() for ref in refs})
    for path in dict.fromkeys(paths):
        _write_if_changed(srcdir / f"{_code_doc(path)}.md", _source_page(repo, path))


# -- roles and directives -------------------------------------------------------------------


def srcline_role(
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: Any,
    options: dict[str, Any] | None = None,
    content: list[str] | None = None,
) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """Links ``title <path:line>`` to that line of the generated source page."""
    _, title, target = split_explicit_title(text)
    path, _, line = target.rpartition(":")
    if not path or not line.isdigit():
        message = inliner.reporter.error(f"srcline wants 'path:line', got {target!r}", line=lineno)
        return [inliner.problematic(rawtext, rawtext, message)], [message]
    env = inliner.document.settings.env
    if _code_doc(path) not in env.found_docs:
        message = inliner.reporter.warning(f"srcline: no source page for {path!r} (is it under src/ or tests/?)")
        return [inliner.problematic(rawtext, rawtext, message)], [message]
    uri = env.app.builder.get_relative_uri(env.docname, _code_doc(path)) + f"#L-{line}"
    reference = nodes.reference(rawtext, "", internal=True, refuri=uri)
    reference += nodes.literal(title, title)
    return [reference], []


_TOCTREE = re.compile(r"^```\{optional-toctree\}\n(.*?)^```", re.MULTILINE | re.DOTALL)
_TITLED = re.compile(r"^.*<(.+)>$")  # an entry with its own title: "The specification <SPEC>"


def _entry(line: str) -> str:
    """Gets the page a toctree entry names, with or without a title of its own."""
    titled = _TITLED.match(line.strip())
    return titled[1] if titled else line.strip()


def _pages_in_toctrees(srcdir: Path) -> set[str]:
    """Reads every page some ``{optional-toctree}`` of the docs names, so ``:others:`` adds only the rest."""
    placed: set[str] = set()
    for page in srcdir.glob("*.md"):
        for block in _TOCTREE.findall(page.read_text(encoding="utf-8")):
            placed.update(_entry(line) for line in block.splitlines() if line.strip() and not line.startswith(":"))
    return placed


class OptionalTocTree(TocTree):
    """A toctree that skips entries whose page does not exist; ``:others:`` adds unplaced pages."""

    option_spec: ClassVar[dict[str, Any]] = {**TocTree.option_spec, "others": directives.flag}

    def run(self) -> list[nodes.Node]:
        env = self.state.document.settings.env
        kept = [line for line in self.content if not line.strip() or _entry(line) in env.found_docs]
        if "others" in self.options:
            placed = _pages_in_toctrees(Path(env.srcdir)) | {env.docname}
            kept += sorted(
                doc
                for doc in env.found_docs
                if "/" not in doc and doc not in placed and not env.metadata.get(doc, {}).get("orphan")
            )
            del self.options["others"]
        self.content = StringList(kept, source=self.content.source(0) if self.content else "")
        return super().run()


class BoardPicture(Directive):
    """Runs the snippet in the content (``cf`` is chickenfoot) and draws its ``state``.

    The picture is the SVG of :func:`chickenfoot.svg.render_svg`. The snippet runs at every build,
    so a picture cannot show a position the engine no longer reaches.
    """

    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {"caption": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        import random

        import chickenfoot
        import chickenfoot.svg

        namespace: dict[str, Any] = {"cf": chickenfoot, "random": random}
        try:
            exec("\n".join(self.content), namespace)
            state = namespace["state"]
        except Exception as error:
            raise self.error(f"board-picture: the snippet failed ({error!r}); it must set `state`") from None
        caption = self.options.get("caption", "")
        figure = nodes.container(classes=["board-picture"])
        figure += nodes.raw("", chickenfoot.svg.render_svg(state), format="html")
        if caption:
            paragraph = nodes.paragraph(classes=["board-picture-caption"])
            inline, messages = self.state.inline_text(caption, self.lineno)
            paragraph += inline
            figure += paragraph
            figure += messages
        code = "\n".join(self.content)
        figure += nodes.literal_block(code, code, language="python")
        return [figure]


_NO_LINKS = (nodes.literal, nodes.literal_block, nodes.reference, nodes.title, nodes.raw, nodes.FixedTextElement)


def link_rule_ids(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Turns every rule ID in running text (``FOOT-2``) into a link to its entry on the rules page."""
    ids = getattr(app, "_chickenfoot_rule_ids", [])
    if not ids or docname.startswith(CODE_DIR):
        return
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(ids, key=len, reverse=True))) + r")(?![\w-])")
    rules_uri = app.builder.get_relative_uri(docname, "rules")
    for text in list(doctree.findall(nodes.Text)):
        parent = text.parent
        if parent is None or not pattern.search(text.astext()):
            continue
        ancestor: nodes.Node | None = parent
        while ancestor is not None and not isinstance(ancestor, _NO_LINKS):
            ancestor = ancestor.parent
        if ancestor is not None:
            continue
        pieces: list[nodes.Node] = []
        for index, part in enumerate(pattern.split(text.astext())):
            if index % 2:
                anchor = "" if docname == "rules" else rules_uri
                pieces.append(nodes.reference(part, part, internal=True, refuri=f"{anchor}#rule-{part.lower()}"))
            elif part:
                pieces.append(nodes.Text(part))
        parent.replace(text, pieces)


# -- reference resolution and checks --------------------------------------------------------


def resolve_public_alias(
    app: Sphinx, env: BuildEnvironment, node: Any, contnode: nodes.Element
) -> nodes.Element | None:
    """Resolves ``chickenfoot._module.Name[.attr]`` to ``chickenfoot.Name[.attr]`` when exported."""
    import chickenfoot

    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    if target.startswith("typing_extensions."):
        return contnode  # the typing backports link nowhere, like typing's own names
    match = re.fullmatch(r"chickenfoot\._\w+\.(\w+)(\.[\w.]+)?", target)
    if not match or match[1] not in chickenfoot.__all__:
        return None
    domain = env.get_domain("py")
    new_target = f"chickenfoot.{match[1]}{match[2] or ''}"
    return domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"], new_target, node, contnode)


def fail_on_rule_gaps(app: Sphinx, exception: Exception | None) -> None:
    """Makes the build exit non-zero when a rule lacks code or a test, unless ``rules_strict = False``."""
    gaps = getattr(app, "_chickenfoot_rule_gaps", 0)
    if gaps and app.config.rules_strict and exception is None:
        logger.error(f"{gaps} SPEC.md rule(s) lack code or a test (listed above): the rules page is incomplete")
        app.statuscode = 1


PUBLIC_MODULES = (
    "chickenfoot",
    "chickenfoot.actions",
    "chickenfoot.batch",
    "chickenfoot.batch.env",
    "chickenfoot.bots",
    "chickenfoot.conformance",
    "chickenfoot.gymnasium",
    "chickenfoot.observation",
    "chickenfoot.reference",
    "chickenfoot.render",
    "chickenfoot.svg",
    "chickenfoot.tournament",
)
"""The modules whose ``__all__`` the API reference must cover (the adapters have pages of their own)."""


def check_public_names(app: Sphinx, env: BuildEnvironment) -> None:
    """Warns (an error under -W) for every name in a public module's ``__all__`` that no page documents."""
    documented = env.get_domain("py").objects  # type: ignore[attr-defined]
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            if f"{module_name}.{name}" not in documented:
                logger.warning(
                    f"{module_name}.{name} is in {module_name}.__all__ but no page documents it: "
                    "add it to docs/api.md (autoclass, autofunction or py:type)",
                    type="chickenfoot",
                    subtype="api",
                )


def setup(app: Sphinx) -> dict[str, Any]:
    """Registers the role, the directive, the config values and the event handlers."""
    app.add_config_value("chickenfoot_repo", str(Path(__file__).resolve().parents[2]), "env")
    app.add_config_value("rules_strict", True, "env")
    app.add_role("srcline", srcline_role)
    app.add_directive("optional-toctree", OptionalTocTree)
    app.add_directive("board-picture", BoardPicture)
    app.connect("config-inited", generate)
    app.connect("missing-reference", resolve_public_alias)
    app.connect("env-check-consistency", check_public_names)
    app.connect("build-finished", fail_on_rule_gaps)
    app.connect("doctree-resolved", link_rule_ids)
    app.add_css_file("chickenfoot.css")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
