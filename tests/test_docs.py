"""Checks that keep the docs honest without building them: snippets run, the SPEC copy is current,
every public name has a place on the API page, and the rules map finds what it should."""

from __future__ import annotations

import doctest
import os
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

import chickenfoot

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
sys.path.insert(0, str(DOCS / "_ext"))
import rulemap  # noqa: E402  (docs/_ext is not a package; rulemap needs no Sphinx)

from optional import imports_of_snippets, imports_of_source, skip_unless_importable  # noqa: E402

PAGES = sorted(path for path in DOCS.glob("*.md") if ">>>" in path.read_text(encoding="utf-8"))


# -- every snippet on every page runs -------------------------------------------------------


@pytest.mark.parametrize("page", PAGES, ids=[path.name for path in PAGES])
def test_page_snippets_run(page: Path) -> None:
    """Runs a page's ``>>>`` snippets; a page whose snippets import a package that is not installed
    (an optional extra such as OpenSpiel) is skipped, naming the package."""
    skip_unless_importable(imports_of_snippets(page.read_text(encoding="utf-8")), page.name)
    result = doctest.testfile(
        str(page), module_relative=False, optionflags=doctest.ELLIPSIS, raise_on_error=False, verbose=False
    )
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {page.name} failed (see above)"


README_BLOCKS = re.findall(r"^```python\n(.*?)^```", (REPO / "README.md").read_text(encoding="utf-8"), re.M | re.S)
SCRIPTS = [block for block in README_BLOCKS if not block.startswith(">>>")]  # the >>> ones run as doctests


@pytest.mark.parametrize("block", SCRIPTS, ids=[f"block-{n}" for n in range(len(SCRIPTS))])
def test_readme_code_runs_as_written(block: str) -> None:
    """Runs each plain (not ``>>>``) Python block of the README in a fresh interpreter, as a reader
    would paste it; one that imports an optional extra is skipped where it is missing."""
    skip_unless_importable(imports_of_source(block), "README.md")
    src = str(Path(chickenfoot.__file__).resolve().parents[1])  # the package under test, installed or not
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH")) if p)}
    done = subprocess.run([sys.executable, "-c", block], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def test_ci_reads_the_readme_set_up_commands_and_the_quickstart_repeats_them() -> None:
    commands = runpy.run_path(str(REPO / ".ci" / "readme-commands"))["commands"]
    main_job, tests, docs = commands((REPO / "README.md").read_text(encoding="utf-8"))
    assert main_job.startswith('python -m pip install ".[cli]" && chickenfoot ')
    assert tests == 'python -m pip install -e ".[test]" && python -m pytest -n auto'
    assert docs.startswith('python -m pip install -e ".[docs]" && python -m sphinx -W ')
    quickstart = (DOCS / "quickstart.md").read_text(encoding="utf-8")
    assert f"`{tests}`" in quickstart
    assert f"`{docs}`" in quickstart


def test_the_readme_shows_each_adapter() -> None:
    assert {"chickenfoot.openspiel", "chickenfoot.gymnasium", "chickenfoot.pettingzoo"} <= {
        module for block in SCRIPTS for module in imports_of_source(block)
    }


def test_the_cookbook_and_quickstart_have_snippets() -> None:
    assert {"quickstart.md", "variants.md", "writing-a-bot.md", "records.md"} <= {page.name for page in PAGES}


# -- the vendored specification -------------------------------------------------------------


def _shared_spec() -> Path | None:
    """Finds the project's shared SPEC.md: ``../shared`` beside a clone, or further up for a worktree."""
    for parent in REPO.parents:
        candidate = parent / "shared" / "SPEC.md"
        if candidate.is_file():
            return candidate
    return None


def _normalised(text: str) -> list[str]:
    # `ruff format` formats Python blocks inside Markdown, which only re-spaces the comments of
    # the SPEC's API block; compare with runs of blanks collapsed so that is no difference.
    return [re.sub(r"[ \t]+", " ", line).rstrip() for line in text.splitlines()]


def test_vendored_spec_matches_shared_spec() -> None:
    shared = _shared_spec()
    if shared is None:
        pytest.skip("no shared/SPEC.md beside this checkout")
    vendored = (DOCS / "SPEC.md").read_text(encoding="utf-8")
    assert _normalised(vendored) == _normalised(shared.read_text(encoding="utf-8")), (
        f"docs/SPEC.md differs from {shared}: copy it again (cp {shared} docs/SPEC.md && ruff format docs/SPEC.md)"
    )


# -- the API page ---------------------------------------------------------------------------


def test_every_public_name_is_on_the_api_page() -> None:
    page = (DOCS / "api.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"\.\. auto\w+:: chickenfoot\.(\w+)", page))
    documented |= set(re.findall(r"\.\. py:\w+:: (\w+)", page))
    documented |= set(re.findall(r"^\s+(?:class|exception|function) (\w+)$", page, re.MULTILINE))
    missing = sorted(set(chickenfoot.__all__) - documented)
    assert not missing, f"add these names from chickenfoot.__all__ to docs/api.md: {', '.join(missing)}"
    version = re.search(r"\.\. py:data:: FORMAT_VERSION\n(?:\s+:.*\n)*?\s+:value: (\d+)", page)
    assert version is not None, "document FORMAT_VERSION with a :value: on docs/api.md"
    assert int(version[1]) == chickenfoot.FORMAT_VERSION


# -- the architecture page -------------------------------------------------------------------


def test_the_architecture_page_lists_every_public_module_and_the_top_levels_limit() -> None:
    section = (DOCS / "architecture.md").read_text(encoding="utf-8").split("## Public modules", 1)[1]
    package = REPO / "src" / "chickenfoot"
    public = {f"chickenfoot.{path.stem}" for path in package.glob("*.py") if not path.stem.startswith("_")}
    public |= {f"chickenfoot.{path.parent.name}" for path in package.glob("[!_]*/__init__.py")}
    public |= {"chickenfoot", "chickenfoot.batch.env"}
    listed = set(re.findall(r"`(chickenfoot(?:\.\w+)*)`", section))
    assert sorted(public - listed) == [], "add these modules to the architecture page's table of public modules"
    limit = re.search(
        r"^TOP_LEVEL_LIMIT = (\d+)", (REPO / "tests" / "test_exports.py").read_text(encoding="utf-8"), re.M
    )
    assert limit is not None
    assert f"at most {limit[1]} names" in section, f"the page must state the top level's limit, {limit[1]} names"


# -- the rules map ---------------------------------------------------------------------------

SPEC = """# spec

## Rules (IDs)

Group one
- **ZIG-2** A foot is pending
  until it has three toes.
- **ZAG-A2** Deal the rest.

Group two
- **ZAG-2** Deals are pure.
- **ZUG-1** Ties are shared.

## Something else
- **NOPE-1** not a rule of the rules section.
"""


# Spelled in two parts so scanners of this repository's own markers do not read these fake ones.
MARK = "pytest.mark." + "rule"


def _repo(tmp_path: Path, src: str, tests: dict[str, str]) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "SPEC.md").write_text(SPEC)
    package = tmp_path / "src" / "chickenfoot"
    package.mkdir(parents=True)
    (package / "_game").mkdir()
    (package / "_game" / "_engine.py").write_text(src)
    (package / "_game" / "_rules.py").write_text(
        'class Rules:\n    deal: str = "trains"\n    """ZAG-A*: how hands are dealt."""\n'
        '    tie_break: str = "share"\n    """ZUG-1: ties."""\n'
    )
    (tmp_path / "tests").mkdir()
    for name, text in tests.items():
        (tmp_path / "tests" / name).write_text(text)
    return tmp_path


def test_rulemap_reads_ids_sections_and_wrapped_text(tmp_path: Path) -> None:
    rules = rulemap.read_rules(_repo(tmp_path, "", {}) / "docs" / "SPEC.md")
    assert [(rule.id, rule.section) for rule in rules] == [
        ("ZIG-2", "Group one"),
        ("ZAG-A2", "Group one"),
        ("ZAG-2", "Group two"),
        ("ZUG-1", "Group two"),
    ]
    assert rules[0].text == "A foot is pending until it has three toes."


def test_rulemap_finds_code_tests_and_options(tmp_path: Path) -> None:
    src = "x = 1  # ZIG-2\ny = 2  # ZAG-A2 and ZIG-21\n"
    tests = {
        "test_a.py": (
            "import pytest\n\n"
            "def test_zig_2_waits():\n    assert True\n\n"
            f'@{MARK}("ZAG-A2")\ndef test_marked():\n    assert True\n\n'
            "def helper_naming_ZAG_2():\n    pass  # ZAG-2 in a helper is not a test\n"
        ),
        "test_b.py": (
            f'import pytest\n\npytestmark = {MARK}("ZUG-1")\n\n'
            "class TestDeals:\n    def test_pure(self):\n        # proves ZAG-2\n        assert True\n"
        ),
    }
    result = rulemap.build(_repo(tmp_path, src, tests))
    assert [loc.line for loc in result.code["ZIG-2"]] == [1]  # ZIG-21 is another rule
    assert [loc.line for loc in result.code["ZAG-A2"]] == [2]
    assert result.code["ZAG-2"] == []  # ZAG-A2 does not name ZAG-2
    assert [ref.node_id for ref in result.tests["ZIG-2"]] == ["tests/test_a.py::test_zig_2_waits"]
    assert [ref.node_id for ref in result.tests["ZAG-A2"]] == ["tests/test_a.py::test_marked"]
    assert [ref.node_id for ref in result.tests["ZAG-2"]] == ["tests/test_b.py::TestDeals::test_pure"]
    assert [ref.node_id for ref in result.tests["ZUG-1"]] == ["tests/test_b.py::TestDeals::test_pure"]
    assert result.options == {"ZIG-2": [], "ZAG-A2": ["deal"], "ZAG-2": [], "ZUG-1": ["tie_break"]}
    assert [loc.path for loc in result.code["ZUG-1"]] == ["src/chickenfoot/_game/_rules.py"]  # an option's docstring
    assert result.problems() == ["ZAG-2: no code names it"]


def test_rulemap_reports_a_rule_without_code_or_test(tmp_path: Path) -> None:
    result = rulemap.build(_repo(tmp_path, "# ZIG-2 ZAG-A2\n", {}))
    assert "ZAG-2: no code and no test names it" in result.problems()
    assert "ZIG-2: no test names it" in result.problems()


def test_rulemap_refuses_a_spec_without_rules(tmp_path: Path) -> None:
    spec = tmp_path / "SPEC.md"
    spec.write_text("# spec\n\n## Rules (IDs)\n\nnothing here\n")
    with pytest.raises(ValueError, match="has no rule lines"):
        rulemap.read_rules(spec)


REFERENCE = """def deal(players):
    \"\"\"Deals (ZAG-2).\"\"\"
    # ZAG-2: deals are pure,
    # whatever the seed.
    hands = [[] for _ in range(players)]
    if players > 2:
        # ZIG-2: a foot waits.
        return hands
    for hand in hands:
        hand.append(1)  # ZUG-1: ties.
        hand.append(2)

    # ZAG-A2: the rest.
    return hands


def score():
    # ZUG-1: shared.
    return 0
"""


def test_rulemap_reads_the_references_commented_blocks(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "", {})
    (repo / "src" / "chickenfoot" / "reference.py").write_text(REFERENCE)
    blocks = rulemap.build(repo).reference
    # A comment on its own line opens a block with the comment's other lines and the code under it,
    # up to the next comment on its own line (cut code ends in "..."), and starts with its header.
    cut = ["# ZAG-2: deals are pure,", "# whatever the seed.", "hands = [[] for _ in range(players)]"]
    assert [(block.location.line, block.text) for block in blocks["ZAG-2"]] == [
        (3, "\n".join([*cut, "if players > 2:", "    ..."]))
    ]
    assert [block.text for block in blocks["ZIG-2"]] == [
        "if players > 2:\n    # ZIG-2: a foot waits.\n    return hands"
    ]
    # A comment after code: that line and what is indented under it. Two blank lines end a block.
    assert [block.text for block in blocks["ZUG-1"]] == [
        "hand.append(1)  # ZUG-1: ties.",
        "def score():\n    # ZUG-1: shared.\n    return 0",
    ]
    assert [block.text for block in blocks["ZAG-A2"]] == ["# ZAG-A2: the rest.\nreturn hands"]


def test_every_rule_opens_with_a_block_of_the_reference() -> None:
    result = rulemap.build(REPO)
    assert [rule.id for rule in result.rules if not result.reference[rule.id]] == []


def test_the_docs_compare_values_with_equals_not_identity() -> None:
    # `tile is T(5, 2)` holds only because tiles are interned: a page teaches ==, which always holds.
    found = [
        f"{path.name}: {line.strip()}"
        for path in [*DOCS.glob("*.md"), REPO / "README.md"]
        for line in path.read_text(encoding="utf-8").splitlines()
        if re.search(r"\bis (not )?(cf\.)?(T|Tile|Play|Draw|Pass|Rules)\(", line)
    ]
    assert found == []
