"""Every public name documents itself: a docstring that opens with a verb, and an example.

The style is python-chess's ("Parses…", "Gets…"); exceptions read "Raised when…". The
examples are doctests, run by pytest --doctest-modules.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

import chickenfoot

# Type aliases (Pip is int, Move a union) and constants are documented on docs/api.md instead:
# only classes and functions defined by chickenfoot carry docstrings of their own.
PUBLIC = sorted(
    name
    for name in chickenfoot.__all__
    if (inspect.isclass(getattr(chickenfoot, name)) or inspect.isfunction(getattr(chickenfoot, name)))
    and getattr(getattr(chickenfoot, name), "__module__", "").startswith("chickenfoot")
)
NOT_VERBS = {"This", "The", "A", "An", "Its", "One", "Everything", "How", "What"}


def _opening(doc: str | None) -> str:
    return (doc or "").strip().split(maxsplit=1)[0] if doc and doc.strip() else ""


def _is_verb(word: str, exception: bool) -> bool:
    if exception and word == "Raised":
        return True
    return word[:1].isupper() and word.endswith("s") and word not in NOT_VERBS


@pytest.mark.parametrize("name", PUBLIC)
def test_public_name_opens_with_a_verb_and_shows_an_example(name: str) -> None:
    obj = getattr(chickenfoot, name)
    doc = obj.__doc__
    exception = inspect.isclass(obj) and issubclass(obj, BaseException)
    assert doc, f"chickenfoot.{name} has no docstring"
    assert _is_verb(_opening(doc), exception), f"chickenfoot.{name}: open the docstring with a verb, not {doc[:40]!r}"
    assert ">>>" in doc, f"chickenfoot.{name}: show a >>> example in the docstring"


def _members() -> Iterator[tuple[str, Any]]:
    for name in PUBLIC:
        cls = getattr(chickenfoot, name)
        if not inspect.isclass(cls) or issubclass(cls, BaseException):
            continue
        fields = {field.name for field in attrs.fields(cls)} if attrs.has(cls) else set()
        for attr, value in vars(cls).items():
            if attr.startswith("_") or attr in fields:  # a field's docstring is in the class body, under it
                continue
            func = value.fget if isinstance(value, property) else getattr(value, "__func__", value)
            if inspect.isfunction(func):
                yield f"{name}.{attr}", func


MEMBERS = list(_members())


@pytest.mark.parametrize(("name", "func"), MEMBERS, ids=[name for name, _ in MEMBERS])
def test_public_method_opens_with_a_verb(name: str, func: Any) -> None:
    doc = func.__doc__
    assert doc, f"chickenfoot.{name} has no docstring"
    assert _is_verb(_opening(doc), exception=False), f"chickenfoot.{name}: open with a verb, not {doc[:40]!r}"


def test_the_check_tells_verbs_from_nouns() -> None:
    assert _is_verb("Parses", exception=False)
    assert not _is_verb("A", exception=False)
    assert not _is_verb("The", exception=False)
    assert not _is_verb("Raised", exception=False)
    assert _is_verb("Raised", exception=True)
