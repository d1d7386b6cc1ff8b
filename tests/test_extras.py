"""The one table of optional extras: it agrees with the package's extras, and its messages say what to install."""

from __future__ import annotations

import re
import sys
from importlib import metadata
from pathlib import Path

import pytest

from chickenfoot._io._extras import EXTRA_OF, install_command, needs, why_missing

REPO = Path(__file__).resolve().parents[1]


def _normal(name: str) -> str:
    return name.lower().replace("_", "-")


def _extras() -> dict[str, set[str]]:
    """Reads the installed package's extras (pyproject.toml's optional-dependencies): the distributions of each."""
    extras: dict[str, set[str]] = {}
    for requirement in metadata.requires("chickenfoot") or []:
        marker = re.search(r"""extra == ["']([\w-]+)["']""", requirement)
        if marker is not None:
            extras.setdefault(marker[1], set()).add(_normal(re.split(r"[\s<>=!~;\[(]", requirement, maxsplit=1)[0]))
    return extras


EXTRAS = _extras()


@pytest.mark.parametrize("module", sorted(EXTRA_OF))
def test_each_optional_import_comes_with_the_extra_the_table_names(module: str) -> None:
    extra = EXTRA_OF[module]
    assert extra in EXTRAS, f"pyproject.toml has no {extra!r} extra"
    installed = metadata.packages_distributions().get(module)
    if installed is None:
        pytest.skip(f"{module} is not installed, so which distribution provides it cannot be read here")
    provided = {_normal(name) for name in installed}
    assert provided & EXTRAS[extra], f"the {extra!r} extra does not install {module} (from {sorted(provided)})"


def test_a_missing_optional_dependency_says_which_extra_to_install() -> None:
    error = needs("chickenfoot.gymnasium", ModuleNotFoundError("No module named 'gymnasium'", name="gymnasium"))
    assert isinstance(error, ModuleNotFoundError)
    assert error.name == "gymnasium"
    assert str(error) == (
        "chickenfoot.gymnasium needs gymnasium, which is not installed: "
        f"it comes with the 'gymnasium' extra ({install_command('gymnasium')})"
    )
    chosen = needs("chickenfoot.pettingzoo", ModuleNotFoundError("no gymnasium", name="gymnasium"), "pettingzoo")
    assert "the 'pettingzoo' extra" in str(chosen)


def test_a_missing_module_that_no_extra_provides_is_left_as_it_is() -> None:
    original = ModuleNotFoundError("No module named 'nmupy'", name="nmupy")
    assert needs("chickenfoot.batch", original) is original


def test_the_install_command_of_a_checkout_names_the_checkout() -> None:
    command = install_command("gymnasium")
    assert command.startswith("python -m pip install ")
    if Path(__file__).resolve().parents[1] / "src" in Path(sys.modules["chickenfoot"].__file__ or "").parents:
        assert f'{REPO}[gymnasium]"' in command  # running from this checkout's src/
    else:
        assert command.endswith('[gymnasium]"')


def test_why_missing_names_the_extra_and_never_hides_a_broken_import(monkeypatch: pytest.MonkeyPatch) -> None:
    assert why_missing("chickenfoot.bots") is None
    monkeypatch.setitem(sys.modules, "gymnasium", None)  # as if gymnasium were not installed
    monkeypatch.delitem(sys.modules, "chickenfoot.gymnasium", raising=False)
    reason = why_missing("chickenfoot.gymnasium")
    assert reason is not None
    assert reason.startswith("chickenfoot.gymnasium needs gymnasium, which is not installed: ")
    assert (
        why_missing("gymnasium")
        == f"gymnasium is not installed: it comes with the 'gymnasium' extra ({install_command('gymnasium')})"
    )
    with pytest.raises(ModuleNotFoundError, match="nmupy"):
        why_missing("nmupy")
    with pytest.raises(ModuleNotFoundError, match=r"chickenfoot\.nonexistent"):
        why_missing("chickenfoot.nonexistent")
