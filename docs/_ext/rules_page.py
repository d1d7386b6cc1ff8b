"""The game server's rules page: every rule of docs/SPEC.md, with an anchor per ID, as one static HTML file.

``chickenfoot serve`` links a refused move's rule ID to ``/static/rules.html#rule-foot-2``, as the
docs link it into their rules page; the server has no docs, so the page it serves is written from
the same SPEC. A test keeps the committed page equal to what :func:`page` writes. Regenerate it
with ``python docs/_ext/rules_page.py``.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SPEC = REPO / "docs" / "SPEC.md"
TARGET = REPO / "src" / "chickenfoot" / "server" / "static" / "rules.html"

_RULE = re.compile(r"^- \*\*([A-Z]+-[A-Z0-9]+)\*\* (.*)$")


def _inline(text: str) -> str:
    """Writes a line of Markdown's inline marks (code, bold, italic) as HTML, the rest escaped."""
    out = []
    for part in re.split(r"(`[^`]*`)", text):
        if part.startswith("`") and part.endswith("`") and len(part) > 1:
            out.append(f"<code>{html.escape(part[1:-1])}</code>")
            continue
        part = html.escape(part, quote=False)
        part = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", part)
        part = re.sub(r"\*([^*]+)\*", r"<em>\1</em>", part)
        out.append(part)
    return "".join(out)


def page(spec: str) -> str:
    """Writes the rules page from the text of SPEC.md: its rules section, a heading per group, an anchor per rule."""
    section = spec.split("## Rules (IDs)", 1)[1].split("\n## ", 1)[0]
    body: list[str] = []
    open_list = False
    for line in section.strip().splitlines():
        rule = _RULE.match(line)
        if rule:
            if not open_list:
                body.append("<ul>")
                open_list = True
            rule_id, text = rule.groups()
            body.append(f'<li id="rule-{rule_id.lower()}"><strong>{rule_id}</strong> {_inline(text)}</li>')
        elif line.strip():
            if open_list:
                body.append("</ul>")
                open_list = False
            body.append(f"<h2>{_inline(line.strip())}</h2>")
    if open_list:
        body.append("</ul>")
    lines = [
        "<!doctype html>",
        '<html lang="en">',
        "<head>",
        '  <meta charset="utf-8">',
        '  <meta name="viewport" content="width=device-width, initial-scale=1">',
        "  <title>The rules · chickenfoot serve</title>",
        '  <link rel="icon" href="data:,">',
        '  <link rel="stylesheet" href="/static/pages.css">',
        "</head>",
        "<body>",
        "<!-- Written by docs/_ext/rules_page.py from docs/SPEC.md: edit those, not this file. -->",
        "<header><h1>The rules of Chicken Foot, by ID</h1></header>",
        "<main>",
        "<p>A refused move names the rule it breaks; this is that rule, as the library states it.</p>",
        *body,
        "</main>",
        "</body>",
        "</html>",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    TARGET.write_text(page(SPEC.read_text(encoding="utf-8")), encoding="utf-8")
    print(TARGET)
