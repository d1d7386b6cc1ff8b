"""The package's shape: folders by job in layers that import downward only, no import cycle, short functions.

The layers and the folders' privacy are the import-linter contracts in pyproject.toml
(``lint-imports`` checks them in CI); these tests prove those checks can fail, look for cycles
and private names taken across folders, which they do not, and hold the shape rules: the top
level holds public modules and private folders only, no function over 60 lines unless a comment
above it says why it is kept whole, no core constructor taking more than three positional values.
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

MAX_FUNCTION_LINES = 60
KEPT_WHOLE = "# Kept whole:"  # a comment right above a long function (or its decorators), saying why

# The display hook's imports, the one upward reach the contract allows (chickenfoot._game._display).
HOOK = {("chickenfoot._game._display", "chickenfoot.render"), ("chickenfoot._game._display", "chickenfoot.svg")}
HOOK.add(("chickenfoot._game._display", "chickenfoot.notebook"))


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
    assert "A folder's modules are read through its __init__ KEPT" in result.stdout
    assert "The compiled core reads only what is below it KEPT" in result.stdout


@pytest.mark.parametrize(
    ("module", "line", "broken"),
    [
        # A function-level import of a higher layer: the display idiom's shape, anywhere but the hook.
        (
            "_game/_engine.py",
            "\n\ndef _peek() -> object:\n    from ..bots import RandomBot\n\n    return RandomBot\n",
            "chickenfoot._game._engine -> chickenfoot.bots",
        ),
        # A module-level import of a higher layer.
        (
            "_core/_codes.py",
            "\nfrom .._game import Tile  # noqa: E402\n",
            "chickenfoot._core._codes -> chickenfoot._game",
        ),
        # A module of another folder read past its __init__.
        (
            "_io/_notation.py",
            "\nfrom .._core._round import Round  # noqa: E402\n",
            "chickenfoot._io._notation -> chickenfoot._core._round",
        ),
        # Inside the core, a lower module reading a higher one.
        (
            "_core/_codes.py",
            "\nfrom ._round import Round  # noqa: E402\n",
            "chickenfoot._core._codes -> chickenfoot._core._round",
        ),
    ],
    ids=["function-level", "module-level", "past-the-init", "inside-the-core"],
)
def test_the_contracts_fail_on_an_import_against_them(tmp_path: Path, module: str, line: str, broken: str) -> None:
    shutil.copytree(SRC, tmp_path / "src" / "chickenfoot", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / "src" / "chickenfoot" / module
    target.write_text(target.read_text(encoding="utf-8") + line, encoding="utf-8")
    result = _lint_imports(tmp_path)
    assert result.returncode != 0, f"{broken} passed the contracts:\n{result.stdout}"
    assert "BROKEN" in result.stdout
    assert broken in result.stdout


def _private_names_across_folders() -> list[str]:
    """Lists every import of an underscored name from a module of another folder (``where <- module.name``)."""
    found = []
    for path in _sources():
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        is_package = parts[-1] == "__init__"
        here = parts[:-1] if is_package else parts
        folder = here if is_package else here[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not node.level:
                continue
            base = folder[: len(folder) - (node.level - 1)]
            target = (*base, *(node.module or "").split(".")) if node.module else base
            target_folder = target if (SRC.parent.joinpath(*target) / "__init__.py").exists() else target[:-1]
            if target_folder[: len(folder)] == folder or folder[: len(target_folder)] == target_folder:
                continue  # the same folder, or one inside it, or the folder's own ancestors' public face
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{'.'.join(here)} <- {'.'.join(target)}.{alias.name}")
    return found


def test_no_private_name_is_imported_across_folders() -> None:
    assert _private_names_across_folders() == []


def test_the_top_level_holds_public_modules_and_folders_only() -> None:
    private = sorted(path.name for path in SRC.glob("_*.py") if path.name not in ("__init__.py", "__main__.py"))
    assert private == []


def _import_cycles(*, types: bool = False) -> list[list[str]]:
    """Finds the import cycles of the package (module-level and function-level imports, with ``types`` those
    under ``TYPE_CHECKING`` too), the hook left out."""
    graph = grimp.build_graph("chickenfoot", exclude_type_checking_imports=not types)
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


def test_the_ladder_and_its_rating_import_one_way_even_for_types() -> None:
    # The ladder's rating once imported the ladder's types under TYPE_CHECKING: a circle that only
    # type checkers saw. What both need (LadderGame, Unit) now lives in _ladder_rating.
    tournament = [cycle for cycle in _import_cycles(types=True) if any("._tournament." in name for name in cycle)]
    assert tournament == []


def test_the_display_hook_is_the_cycle_it_is_said_to_be() -> None:
    # The cycle finder can fail: with the hook's imports counted, the values and pictures form one.
    global HOOK
    kept = HOOK
    HOOK = set()
    try:
        cycles = _import_cycles()
    finally:
        HOOK = kept
    assert any(
        {"chickenfoot._game._display", "chickenfoot.render", "chickenfoot._game._state"} <= set(cycle)
        for cycle in cycles
    )


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
    assert "`chickenfoot._game._display` → `chickenfoot.render`" in table


def _sources() -> list[Path]:
    return sorted(path for path in SRC.rglob("*.py") if "__pycache__" not in path.parts)


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
    from chickenfoot._core import _codes, _round

    crowded = []
    for module in (_codes, _round):
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
    core = {"_codes", "_round"}
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


def test_the_core_lists_every_module_of_its_folder_in_import_order() -> None:
    # setup.py compiles every module of the folder; MODULES says the order the pure core loads them in.
    from chickenfoot._core import MODULES

    folder = SRC / "_core"
    assert sorted(MODULES) == sorted(path.stem for path in folder.glob("*.py") if path.stem != "__init__")
    for at, name in enumerate(MODULES):
        tree = ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))
        read = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level == 1}
        assert read <= set(MODULES[:at]), f"{name} reads {read - set(MODULES[:at])}, listed after it"
