"""Every rule ID in SPEC.md is named by the code that encodes it and by a test that proves it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "docs" / "SPEC.md"  # the project's copy of ../shared/SPEC.md


def _rule_ids() -> list[str]:
    return sorted(set(re.findall(r"\*\*([A-Z]+-[A-Z0-9]+)\*\*", SPEC.read_text(encoding="utf-8"))))


def _named_in(folder: Path, ids: list[str]) -> set[str]:
    text = "\n".join(path.read_text(encoding="utf-8") for path in folder.rglob("*.py"))
    return {rule for rule in ids if re.search(rf"\b{re.escape(rule)}\b", text)}


def test_spec_lists_rules() -> None:
    assert len(_rule_ids()) >= 30


@pytest.mark.slow
@pytest.mark.parametrize("folder", ["src", "tests"])
def test_every_rule_id_is_named(folder: str) -> None:
    ids = _rule_ids()
    missing = [rule for rule in ids if rule not in _named_in(ROOT / folder, ids)]
    assert not missing, f"rule IDs not named anywhere in {folder}/: {', '.join(missing)}"


def test_the_reference_states_every_rule_in_a_block_of_its_own() -> None:
    """The teaching copy, chickenfoot.reference, opens a commented block with each rule's ID ("DRAW-1:")."""
    text = (ROOT / "src" / "chickenfoot" / "reference.py").read_text(encoding="utf-8")
    missing = [rule for rule in _rule_ids() if not re.search(rf"#.*\b{re.escape(rule)}[,:]", text)]
    assert not missing, f"rule IDs without a block in reference.py: {', '.join(missing)}"


def test_every_rule_id_has_a_test_marked_with_it(request: pytest.FixtureRequest) -> None:
    ids = set(_rule_ids())
    marked: set[str] = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        for args in re.findall(r"@pytest\.mark\.rule\(([^)]*)\)", path.read_text(encoding="utf-8")):
            marked.update(re.findall(r'"([A-Z]+-[A-Z0-9]+)"', args))
    assert not marked - ids, f"tests mark unknown rule IDs: {sorted(marked - ids)}"
    assert not ids - marked, f"rule IDs without a @pytest.mark.rule test: {sorted(ids - marked)}"
