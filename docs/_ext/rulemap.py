"""Maps every rule ID of SPEC.md to the code that encodes it and the tests that prove it.

This module reads files only (no Sphinx, no import of the package), so the docs build, a test and
a person at a shell all get the same answer:

    python docs/_ext/rulemap.py          # prints the map; exits 1 naming every ID without code or test

Where an ID counts as found:

* code: any line of ``src/chickenfoot/**/*.py`` that names the ID exactly (``FOOT-2``, not ``FOOT-*``);
* tests: a test function (``test_*``, module-level or in a ``Test*`` class) whose name holds the ID
  in snake case (``test_foot_2_pending``), or whose decorators, docstring, body or comments name it
  (``@pytest.mark.rule("FOOT-2")``), or whose class or module ``pytestmark`` names it;
* options: a :class:`chickenfoot.Rules` field whose docstring names the ID, or a prefix pattern that
  covers it (``DEAL-A*``);
* the reference's statement: each commented block of ``src/chickenfoot/reference.py`` whose
  comment names the ID (:func:`reference_blocks`), which the rules page shows first.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import textwrap
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

RULE_LINE = re.compile(r"^- \*\*([A-Z]+-[A-Z]?\d+)\*\*\s+(.*)$")
RULES_HEADING = "## Rules (IDs)"


@dataclass(frozen=True)
class Rule:
    """A rule of SPEC.md: its ID, the section it sits in and its text."""

    id: str
    section: str
    text: str


@dataclass(frozen=True)
class Location:
    """A place in a file, 1-based line number, relative to the repository root."""

    path: str
    line: int


@dataclass(frozen=True)
class TestRef:
    """A test that names a rule: its pytest node id and where it starts."""

    node_id: str
    location: Location


@dataclass(frozen=True)
class Block:
    """A commented block of the reference: where it starts and its lines, dedented."""

    location: Location
    text: str


@dataclass
class RuleMap:
    """Everything found for every rule, and what is missing."""

    rules: list[Rule]
    code: dict[str, list[Location]] = field(default_factory=dict)
    tests: dict[str, list[TestRef]] = field(default_factory=dict)
    options: dict[str, list[str]] = field(default_factory=dict)
    reference: dict[str, list[Block]] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)

    def problems(self) -> list[str]:
        """Lists one sentence per rule ID that lacks code or a test."""
        found = []
        for rule in self.rules:
            missing = [what for what, table in (("code", self.code), ("test", self.tests)) if not table.get(rule.id)]
            if missing:
                found.append(f"{rule.id}: no {' and no '.join(missing)} names it")
        return found


def read_rules(spec: Path) -> list[Rule]:
    """Reads the rule IDs, their section headings and texts from the "Rules (IDs)" part of SPEC.md."""
    rules: list[Rule] = []
    section = ""
    inside = False
    for raw in spec.read_text(encoding="utf-8").splitlines():
        line = raw.rstrip()
        if line.startswith("## "):
            inside = line == RULES_HEADING
            continue
        if not inside or not line:
            continue
        match = RULE_LINE.match(line)
        if match:
            rules.append(Rule(match[1], section, match[2]))
        elif line.startswith("  ") and rules:  # a wrapped rule line
            last = rules[-1]
            rules[-1] = Rule(last.id, last.section, f"{last.text} {line.strip()}")
        else:
            section = line.strip()
    if not rules:
        raise ValueError(f"{spec} has no rule lines like '- **FOOT-1** ...' under {RULES_HEADING!r}")
    return rules


def _id_pattern(rule_id: str) -> re.Pattern[str]:
    # Exact ID only: FOOT-2 must not match FOOT-21 or DEAL-A2 match DEAL-2.
    return re.compile(rf"(?<![A-Za-z0-9-]){re.escape(rule_id)}(?![0-9A-Za-z])")


def _snake(rule_id: str) -> re.Pattern[str]:
    return re.compile(rf"(?:^|_){rule_id.lower().replace('-', '_')}(?:_|$)")


def _python_files(root: Path) -> list[Path]:
    return sorted(path for path in root.rglob("*.py") if "__pycache__" not in path.parts)


def find_code(rules: list[Rule], src: Path, repo: Path) -> dict[str, list[Location]]:
    """Finds, per rule ID, every source line that names it."""
    patterns = {rule.id: _id_pattern(rule.id) for rule in rules}
    found: dict[str, list[Location]] = {rule.id: [] for rule in rules}
    for path in _python_files(src):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for rule_id, pattern in patterns.items():
                if pattern.search(line):
                    found[rule_id].append(Location(path.relative_to(repo).as_posix(), number))
    return found


def _marker_text(tree: ast.Module, source: str) -> str:
    """Gets the source of a module's ``pytestmark = ...`` assignment(s), if any."""
    parts = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "pytestmark" for target in node.targets
        ):
            parts.append(ast.get_source_segment(source, node) or "")
    return "\n".join(parts)


def _span(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, lines: list[str]) -> str:
    """Gets a definition's text, decorators and comments included."""
    first = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
    return "\n".join(lines[first - 1 : node.end_lineno])


def _tests_in(path: Path, repo: Path) -> list[tuple[str, int, str, str]]:
    """Lists (node id, line, name, text that may name a rule) for each test in one file."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, filename=str(path))
    lines = source.splitlines()
    module_marks = _marker_text(tree, source)
    rel = path.relative_to(repo).as_posix()
    tests = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            tests.append((f"{rel}::{node.name}", node.lineno, node.name, _span(node, lines) + "\n" + module_marks))
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            class_marks = "\n".join(ast.get_source_segment(source, d) or "" for d in node.decorator_list)
            for item in node.body:
                if isinstance(item, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "pytestmark" for t in item.targets
                ):
                    class_marks += "\n" + (ast.get_source_segment(source, item) or "")
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith("test"):
                    text = "\n".join([_span(item, lines), class_marks, module_marks, node.name])
                    tests.append((f"{rel}::{node.name}::{item.name}", item.lineno, item.name, text))
    return tests


def find_tests(rules: list[Rule], tests_dir: Path, repo: Path) -> dict[str, list[TestRef]]:
    """Finds, per rule ID, every test that names it (see the module docstring)."""
    found: dict[str, list[TestRef]] = {rule.id: [] for rule in rules}
    if not tests_dir.is_dir():
        return found
    patterns = {rule.id: (_id_pattern(rule.id), _snake(rule.id)) for rule in rules}
    for path in _python_files(tests_dir):
        if not path.name.startswith("test_") and not path.name.endswith("_test.py"):
            continue
        for node_id, line, name, text in _tests_in(path, repo):
            for rule_id, (exact, snake) in patterns.items():
                if snake.search(name.lower()) or exact.search(text):
                    found[rule_id].append(TestRef(node_id, Location(path.relative_to(repo).as_posix(), line)))
    return found


def find_options(rules: list[Rule], rules_module: Path) -> dict[str, list[str]]:
    """Finds, per rule ID, the ``Rules`` fields whose docstrings name it (or a ``PREFIX-*`` covering it)."""
    tree = ast.parse(rules_module.read_text(encoding="utf-8"))
    found: dict[str, list[str]] = {rule.id: [] for rule in rules}
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Rules"), None)
    if cls is None:
        return found
    body = cls.body
    for index, node in enumerate(body):
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)):
            continue
        following = body[index + 1] if index + 1 < len(body) else None
        if not (
            isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            continue
        doc = following.value.value
        prefixes = re.findall(r"\b([A-Z]+-[A-Z]?)\*", doc)
        for rule in rules:
            if _id_pattern(rule.id).search(doc) or any(
                rule.id.startswith(prefix) and rule.id[len(prefix) :].isdigit() for prefix in prefixes
            ):
                found[rule.id].append(node.target.id)
    return found


def _comment_lines(source: str) -> dict[int, str]:
    """Maps each line number that holds a comment to the comment's text."""
    found: dict[int, str] = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            found[token.start[0]] = token.string
    return found


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _block(lines: list[str], start: int, comments: dict[int, str]) -> tuple[int, list[str]]:
    """Gets the block that the comment on line ``start`` (0-based) opens: its first line and its lines.

    A comment on a line of its own opens a block with the comment lines around it and the code
    under it, up to a line less indented than the comment, the next comment on a line of its own,
    or two blank lines in a row (the gap between definitions). Code cut short by a more indented
    comment (the next rule's block) ends in ``...``. A comment after code on its line opens a block
    of that line and the lines indented under it. A block that is the first thing under an ``if``,
    ``for`` or other header starts with that header, which says when the block applies.
    """
    indent = _indent(lines[start])
    if not lines[start].lstrip().startswith("#"):  # a comment after code
        end = start + 1
        while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > indent):
            end += 1
        return start, lines[start:end]
    first, block = _own_comment_block(lines, start, indent, comments)
    header = lines[first - 1] if first > 0 else ""
    if header.strip() and _indent(header) < indent and header.rstrip().endswith(":") and first not in comments:
        return first - 1, [header, *block]
    return first, block


def _own_comment_block(lines: list[str], start: int, indent: int, comments: dict[int, str]) -> tuple[int, list[str]]:
    """Gets the block a comment on a line of its own opens (see :func:`_block`)."""

    def own_comment(index: int) -> bool:
        return index + 1 in comments and lines[index].lstrip().startswith("#")

    first = start
    while first > 0 and own_comment(first - 1) and _indent(lines[first - 1]) == indent:
        first -= 1
    end = start + 1
    while end < len(lines) and own_comment(end) and _indent(lines[end]) == indent:
        end += 1  # the rest of the comment
    elided = None
    while end < len(lines):
        line = lines[end]
        if not line.strip():
            if end + 1 < len(lines) and not lines[end + 1].strip():
                break
        elif _indent(line) < indent:
            break
        elif own_comment(end):
            if _indent(line) > indent:
                elided = line[: _indent(line)] + "..."
            break
        end += 1
    block = lines[first:end]
    while block and not block[-1].strip():
        block.pop()
    if elided is not None:
        block.append(elided)
    return first, block


def reference_blocks(rules: list[Rule], reference: Path, repo: Path) -> dict[str, list[Block]]:
    """Finds, per rule ID, the reference's commented blocks whose comment names it, in file order."""
    source = reference.read_text(encoding="utf-8")
    lines = source.splitlines()
    comments = _comment_lines(source)
    path = reference.relative_to(repo).as_posix()
    found: dict[str, list[Block]] = {rule.id: [] for rule in rules}
    for rule in rules:
        pattern = _id_pattern(rule.id)
        starts: set[int] = set()
        for number, comment in sorted(comments.items()):
            if not pattern.search(comment):
                continue
            first, block = _block(lines, number - 1, comments)
            if first in starts:
                continue
            starts.add(first)
            found[rule.id].append(Block(Location(path, first + 1), textwrap.dedent("\n".join(block))))
    return found


def build(repo: Path, spec: Path | None = None) -> RuleMap:
    """Builds the map for the repository at ``repo`` (SPEC read from ``docs/SPEC.md`` unless given)."""
    spec = spec or repo / "docs" / "SPEC.md"
    src = repo / "src" / "chickenfoot"
    tests = repo / "tests"
    rules = read_rules(spec)
    result = RuleMap(rules)
    result.code = find_code(rules, src, repo)
    result.tests = find_tests(rules, tests, repo)
    result.options = find_options(rules, src / "_game" / "_rules.py")
    reference = src / "reference.py"
    result.reference = reference_blocks(rules, reference, repo) if reference.is_file() else {}
    result.files = [spec, *_python_files(src), *(_python_files(tests) if tests.is_dir() else [])]
    return result


def main() -> int:
    """Prints the map and exits 1 if any rule lacks code or a test."""
    repo = Path(__file__).resolve().parents[2]
    result = build(repo)
    for rule in result.rules:
        code = ", ".join(f"{loc.path}:{loc.line}" for loc in result.code[rule.id]) or "NO CODE"
        tests = ", ".join(ref.node_id for ref in result.tests[rule.id]) or "NO TEST"
        print(f"{rule.id}\n  code:  {code}\n  tests: {tests}")
    problems = result.problems()
    for problem in problems:
        print(f"missing: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
