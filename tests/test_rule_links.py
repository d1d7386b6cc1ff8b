"""Every front end links a refused move's rule ID to the rule: the serve page to the rules page it serves."""

from __future__ import annotations

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
STATIC = REPO / "src" / "chickenfoot" / "server" / "static"
sys.path.insert(0, str(REPO / "docs" / "_ext"))

import rules_page  # noqa: E402 - docs/_ext, the page's writer


def test_the_served_rules_page_is_written_from_the_spec_with_an_anchor_for_every_rule() -> None:
    spec = (REPO / "docs" / "SPEC.md").read_text(encoding="utf-8")
    shown = (STATIC / "rules.html").read_text(encoding="utf-8")
    assert shown == rules_page.page(spec), "regenerate it: python docs/_ext/rules_page.py"
    ids = re.findall(r"^- \*\*([A-Z]+-[A-Z0-9]+)\*\*", spec, re.MULTILINE)
    assert len(ids) > 30
    assert re.findall(r'<li id="rule-([a-z0-9-]+)">', shown) == [rule.lower() for rule in ids]


def test_the_serve_page_links_a_refusals_rule_to_the_rules_page_it_serves() -> None:
    game = (STATIC / "game.js").read_text(encoding="utf-8")
    assert re.search(r'showRefusal\(message\.reason, message\.rule, "/static/rules\.html"\)', game)
    table = (STATIC / "table.js").read_text(encoding="utf-8")
    assert "#rule-${rule.toLowerCase()}" in table


def test_the_server_serves_its_rules_page(tmp_path: Path) -> None:
    import pytest

    pytest.importorskip("starlette")
    from _server import client_for

    with client_for(tmp_path / "games.sqlite3") as client:
        answer = client.get("/static/rules.html")
    assert answer.status_code == 200
    assert 'id="rule-foot-2"' in answer.text
