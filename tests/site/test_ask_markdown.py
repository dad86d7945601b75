"""The Ask box's markdown renderer (site_src/javascripts/ask.js) under node: hostile answers stay text.

The browser test (test_browser.py) checks the same end to end; this one runs in ~0.1 s without a
browser and covers more payloads.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ASK_JS = ROOT / "site_src" / "javascripts" / "ask.js"
NODE = shutil.which("node") or "/usr/bin/node"
ALLOWED = {"p", "br", "strong", "em", "code", "pre", "ul", "ol", "li", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td", "a", "blockquote"}

HOSTILE = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "<svg/onload=alert(1)>",
    '<a href="javascript:alert(1)">x</a>',
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    '[x](https://ok.example/" onmouseover="alert(1))',
    "![x](https://e.example/x.png)",
    "<iframe src=//evil></iframe>",
    "| a |\n|---|\n| <img src=x onerror=alert(1)> |",
    "```\n<script>alert(1)</script>\n```",
    "# <b onclick=alert(1)>t</b>",
    "- <style>body{display:none}</style>",
    "> <object data=x></object>",
    "`<script>`",
    "**<img src=x onerror=alert(1)>**",
    "&lt;script&gt; &#x3C;script&#x3E; \u003cscript\u003e",
]


def render(texts: list[str]) -> list[str]:
    script = f"const a = require({json.dumps(str(ASK_JS))}); const t = JSON.parse(require('fs').readFileSync(0, 'utf8')); process.stdout.write(JSON.stringify(t.map(a.renderMarkdown)));"
    proc = subprocess.run([NODE, "-e", script], input=json.dumps(texts), capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.fixture(scope="module", autouse=True)
def node():
    if not Path(NODE).exists():
        pytest.fail(f"node not found at {NODE}")


def test_hostile_markdown_emits_only_whitelisted_tags():
    for source, html in zip(HOSTILE, render(HOSTILE)):
        tags = {t.lower() for t in re.findall(r"<\s*/?\s*([a-zA-Z][a-zA-Z0-9]*)", html)}
        assert tags <= ALLOWED, (source, html)
        attributes = re.findall(r"<[a-z0-9]+(\s[^>]*)?>", html)
        for attrs in attributes:
            names = set(re.findall(r"([a-zA-Z-]+)=", attrs or ""))
            assert names <= {"href", "rel", "target"}, (source, html)
        for href in re.findall(r'href="([^"]*)"', html):
            assert href.startswith("https://") and '"' not in href, (source, html)


def test_markdown_structure_is_kept():
    html = render(["**Tax** is *due*.\n\n- one\n- two\n\n| a | b |\n|---|--:|\n| 1 | $2 |\n\n[IRD](https://www.ird.govt.nz/x?a=1&b=2)"])[0]
    assert "<strong>Tax</strong>" in html and "<em>due</em>" in html
    assert "<ul><li>one</li><li>two</li></ul>" in html
    assert "<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>$2</td></tr></tbody></table>" in html
    assert '<a href="https://www.ird.govt.nz/x?a=1&amp;b=2" rel="noopener noreferrer nofollow" target="_blank">IRD</a>' in html


def test_text_is_escaped_not_dropped():
    html = render(["Use <b>code</b> M & ME"])[0]
    assert html == "<p>Use &lt;b&gt;code&lt;/b&gt; M &amp; ME</p>"
