"""The package's shape: layers that import downward only, no import cycle, small modules and functions.

The layers are the import-linter contract in pyproject.toml (``lint-imports`` checks it in CI);
these tests prove that check can fail, look for cycles it does not, and hold the size limits of
issue 27: no module in src/ over 600 lines, no function over 60 unless a comment above it says
why it is kept whole, no core constructor taking more than three positional values.
"""

from __future__ import annotations

import ast
import inspect
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "chickenfoot"
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

import layers  # noqa: E402 - docs/_ext, the architecture page's table

grimp = pytest.importorskip("grimp", reason="import-linter (the dev and test extras) reads the imports")

MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 60
KEPT_WHOLE = "# Kept whole:"  # a comment right above a long function (or its decorators), saying why

# The display hook's imports, the one upward reach the contract allows (chickenfoot._display).
HOOK = {("chickenfoot._display", "chickenfoot.render"), ("chickenfoot._display", "chickenfoot.svg")}
HOOK.add(("chickenfoot._display", "chickenfoot.notebook"))


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """Runs ``lint-imports`` on the package under ``root/src`` with ``root/pyproject.toml``."""
    command = [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()"]
    env = {"PYTHONPATH": str(root / "src"), "PATH": ""}
    return subprocess.run(
        [*command, "--config", str(root / "pyproject.toml"), "--no-cache"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_package_keeps_its_layers_contract() -> None:
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Layers import downward only KEPT" in result.stdout
    assert "The compiled core reads only what is below it KEPT" in result.stdout


@pytest.mark.parametrize(
    ("module", "line", "where"),
    [
        # A function-level import: the display idiom's shape, anywhere but the hook.
        (
            "_engine.py",
            "\n\ndef _peek() -> object:\n    from .bots import RandomBot\n\n    return RandomBot\n",
            "function",
        ),
        # A module-level import of a higher layer.
        ("_codes.py", "\nfrom ._round import Round  # noqa: E402\n", "module"),
    ],
    ids=["function-level", "module-level"],
)
def test_the_contract_fails_when_a_lower_layer_imports_a_higher_one(
    tmp_path: Path, module: str, line: str, where: str
) -> None:
    shutil.copytree(SRC, tmp_path / "src" / "chickenfoot", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / "src" / "chickenfoot" / module
    target.write_text(target.read_text(encoding="utf-8") + line, encoding="utf-8")
    result = _lint_imports(tmp_path)
    assert result.returncode != 0, f"a {where}-level upward import passed the contract:\n{result.stdout}"
    assert "BROKEN" in result.stdout
    imported = "chickenfoot.bots" if module == "_engine.py" else "chickenfoot._round"
    assert f"chickenfoot.{module.removesuffix('.py')} -> {imported}" in result.stdout


def _import_cycles() -> list[list[str]]:
    """Finds the import cycles of the package (module-level and function-level imports), the hook left out."""
    graph = grimp.build_graph("chickenfoot", exclude_type_checking_imports=True)
    edges = {
        module: sorted(
            imported for imported in graph.find_modules_directly_imported_by(module) if (module, imported) not in HOOK
        )
        for module in graph.modules
    }
    # Tarjan's strongly connected components, iteratively: a component of two or more is a cycle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    cycles.append(sorted(component))
    return cycles


def test_no_import_cycle_remains_but_the_display_hook() -> None:
    assert _import_cycles() == []


def test_the_display_hook_is_the_cycle_it_is_said_to_be() -> None:
    # The cycle finder can fail: with the hook's imports counted, the values and pictures form one.
    global HOOK
    kept = HOOK
    HOOK = set()
    try:
        cycles = _import_cycles()
    finally:
        HOOK = kept
    assert any({"chickenfoot._display", "chickenfoot.render", "chickenfoot._state"} <= set(cycle) for cycle in cycles)


def test_every_module_of_the_package_is_in_a_layer() -> None:
    listed = {module.strip("()") for modules, _ in layers.layers(ROOT / "pyproject.toml") for module in modules}
    present = {path.stem for path in SRC.glob("*.py") if path.stem != "__init__"}
    present |= {path.name for path in SRC.iterdir() if (path / "__init__.py").exists()}
    assert present - listed == set()
    optional = {
        module[1:-1] for modules, _ in layers.layers(ROOT / "pyproject.toml") for module in modules if "(" in module
    }
    assert listed - present <= optional  # a module the contract names but the package lacks is an optional layer


def test_the_architecture_page_shows_the_contract() -> None:
    # The page includes the table the docs build draws from the contract; this is that table.
    table = layers.layer_table(ROOT / "pyproject.toml")
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert "```{include} _generated/layers.md" in page
    for modules, _ in layers.layers(ROOT / "pyproject.toml"):
        for module in modules:
            assert f"`{module.strip('()')}`" in table
    assert "`chickenfoot._display` → `chickenfoot.render`" in table


def _sources() -> list[Path]:
    return sorted(path for path in SRC.rglob("*.py") if "__pycache__" not in path.parts)


def test_no_module_is_over_600_lines() -> None:
    long = {
        str(path.relative_to(SRC)): lines
        for path in _sources()
        if (lines := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def _long_functions(source: str) -> list[tuple[str, int]]:
    """Lists the functions of ``source`` over the limit, ``(name, lines)``, but those kept whole with a reason."""
    lines = source.splitlines()
    found: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        length = (node.end_lineno or node.lineno) - node.lineno + 1
        first = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
        comment: list[str] = []  # the comment block right above the function
        at = first - 2
        while at >= 0 and lines[at].strip().startswith("#"):
            comment.insert(0, lines[at].strip())
            at -= 1
        kept = bool(comment) and comment[0].startswith(KEPT_WHOLE) and len(" ".join(comment)) > len(KEPT_WHOLE) + 10
        if length > MAX_FUNCTION_LINES and not kept:
            found.append((node.name, length))
    return found


def test_no_function_is_over_60_lines_unless_a_comment_says_why() -> None:
    long = {str(path.relative_to(SRC)): found for path in _sources() if (found := _long_functions(path.read_text()))}
    assert long == {}


def test_the_function_length_check_can_fail() -> None:
    body = "".join(f"    x{n} = {n}\n" for n in range(61))
    assert _long_functions(f"def f():\n{body}") == [("f", 62)]
    assert _long_functions(f"# Kept whole: the rule reads best as one block.\ndef f():\n{body}") == []
    assert _long_functions(f"# Kept whole:\ndef f():\n{body}") == [("f", 62)]  # a reason, not just the mark


def test_no_core_constructor_takes_more_than_three_positional_values() -> None:
    from chickenfoot import _codes, _dealing, _layout, _round

    crowded = []
    for module in (_codes, _layout, _round, _dealing):
        for name, value in vars(module).items():
            if not (inspect.isclass(value) or inspect.isfunction(value)) or value.__module__ != module.__name__:
                continue
            if inspect.isclass(value) and not {"__init__", "__new__"} & set(vars(value)):
                continue
            try:
                parameters = inspect.signature(value).parameters.values()
            except ValueError:  # a compiled class without a signature: its source is checked below
                continue
            positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
            if inspect.isclass(value) and len(positional) > 3:
                crowded.append(name)
    assert crowded == []


def test_no_call_passes_a_core_constructor_more_than_three_positional_values() -> None:
    # Every call of a core constructor passes keywords (a round is built field by field, by name).
    constructors = {"Settings", "Placed", "Layout", "Setup", "Round", "Deal", "Game", "round_on", "start_layout"}
    core = {"_codes", "_layout", "_round", "_dealing"}
    crowded = []
    for path in _sources():
        tree = ast.parse(path.read_text())
        # The core's own names, in a core module or imported from one (another module's Game is not the core's).
        known = constructors if path.stem in core else set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level and (node.module or "").split(".")[-1] in core:
                known |= {alias.asname or alias.name for alias in node.names} & constructors
        for function in [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]:
            for call in ast.walk(function):
                if not isinstance(call, ast.Call):
                    continue
                name = call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")
                if name in known and len(call.args) > 3:
                    crowded.append(f"{path.relative_to(SRC)}:{call.lineno} {name}")
    assert crowded == []


def test_setup_compiles_the_modules_the_flavour_loads() -> None:
    # setup.py's list and chickenfoot._flavour.COMPILED_MODULES name the compiled modules twice
    # (setup.py cannot import the package it builds): they must agree, in import order.
    from chickenfoot._flavour import COMPILED_MODULES

    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    listed = next(
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets)
    )
    names = ast.literal_eval(next(n for n in ast.walk(listed) if isinstance(n, ast.Tuple)))
    assert tuple(names) == COMPILED_MODULES
