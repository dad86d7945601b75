"""Answer markdown -> HTML (nztax.answer_html: markdown-it-py + nh3), shared by /ask's answer_html
and the FAQ pages. Hostile answers stay text; the structure answers use survives. The browser test
(test_browser.py) checks the Ask box end to end, with the vendored DOMPurify as a second line."""

from __future__ import annotations

import hashlib
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from nztax.answer_html import ALLOWED_TAGS, render_answer_html, sanitise_answer_html

ROOT = Path(__file__).resolve().parents[2]
VENDORED_PURIFY = ROOT / "site_src" / "javascripts" / "vendor" / "purify.min.js"
PURIFY_SHA256 = "8053ee2a6a09f9d50f7fcd6fb7f07072f52c7f3fa9aa12147cab4feaf65ee970"  # npm dompurify@3.4.18

HOSTILE = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "<svg/onload=alert(1)>",
    '<a href="javascript:alert(1)">x</a>',
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](jav&#x09;ascript:alert(1))",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "[x](vbscript:msgbox(1))",
    '[x](https://ok.example/" onmouseover="alert(1))',
    "[x](//evil.example/x)",
    "[x](../../etc/passwd)",
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
    "<!-- <script>alert(1)</script> -->",
    "<ScRiPt>alert(1)</sCrIpT>",
    "<p style=\"background:url(javascript:alert(1))\">x</p>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    "[x](<javascript:alert(1)>)",
    "<form action=https://evil><input name=q></form>",
]


class _Elements(HTMLParser):
    """Every real element and its attributes (escaped text such as "&lt;img" is not an element)."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))


def tags_of(html: str) -> set[str]:
    return {tag for tag, _ in _Elements(html).elements}


@pytest.mark.parametrize("source", HOSTILE)
def test_hostile_markdown_emits_only_allowed_tags_and_web_links(source):
    html = render_answer_html(source)
    elements = _Elements(html).elements
    assert {tag for tag, _ in elements} <= ALLOWED_TAGS, html
    for tag, attrs in elements:
        assert set(attrs) <= {"href", "rel", "target", "title", "style", "start"}, html
        assert "javascript" not in " ".join(str(v) for v in attrs.values()).lower(), html
        if "href" in attrs:
            assert re.match(r"https?://|/[^/]", attrs["href"] or ""), html
        if "style" in attrs:
            assert re.fullmatch(r"text-align:\s*(left|right|center);?", attrs["style"] or ""), html


def test_markdown_structure_is_kept():
    html = render_answer_html("**Tax** is *due*.\n\n- one\n- two\n\n1. first\n\n| a | b |\n|---|--:|\n| 1 | $2 |\n\n"
                              "[IRD](https://www.ird.govt.nz/x?a=1&b=2) and `M SL`\n\n> quoted")
    assert "<strong>Tax</strong>" in html and "<em>due</em>" in html
    assert re.search(r"<ul>\s*<li>one</li>\s*<li>two</li>\s*</ul>", html)
    assert re.search(r"<ol>\s*<li>first</li>\s*</ol>", html)
    assert re.search(r"<th>a</th>\s*<th style=\"text-align:right\">b</th>", html)
    assert re.search(r"<td>1</td>\s*<td style=\"text-align:right\">\$2</td>", html)
    assert 'href="https://www.ird.govt.nz/x?a=1&amp;b=2"' in html and 'rel="noopener noreferrer nofollow"' in html
    assert "<code>M SL</code>" in html and "<blockquote>" in html


def test_text_is_escaped_not_dropped():
    assert render_answer_html("Use <b>code</b> M & ME") == "<p>Use &lt;b&gt;code&lt;/b&gt; M &amp; ME</p>"


def test_answer_headings_never_outrank_the_page():
    assert tags_of(render_answer_html("# One\n\n## Two\n\n### Three")) == {"h3"}


def test_heading_levels_come_from_a_markdown_it_rule_not_string_replacement():
    # Setext headings, headings inside quotes and lists are lowered too; h4-h6 keep their level;
    # heading-like text in code stays text.
    html = render_answer_html("Title\n=====\n\nSub\n---\n\n> # Quoted\n\n- ## In a list\n\n#### Four\n\n`<h1>x</h1>`\n\n    # not a heading")
    assert [tag for tag, _ in _Elements(html).elements if tag.startswith("h")] == ["h3", "h3", "h3", "h3", "h4"]
    assert "&lt;h1&gt;x&lt;/h1&gt;" in html and "# not a heading" in html
    # Raw headings in HTML given to the sanitiser are not allowed at all (the renderer never makes them).
    assert tags_of(sanitise_answer_html("<h1>a</h1><h2>b</h2>")) == set()


def test_links_to_other_sites_open_in_a_new_tab_and_this_sites_pages_do_not():
    html = render_answer_html("[IRD](https://www.ird.govt.nz/x) and "
                              "[Change the figures in the income tax calculator](/calculators/income-tax/?taxable_income=85000&tax_year=2026-27)")
    links = {attrs["href"]: attrs for tag, attrs in _Elements(html).elements if tag == "a"}
    external = links["https://www.ird.govt.nz/x"]
    internal = links["/calculators/income-tax/?taxable_income=85000&tax_year=2026-27"]
    assert external.get("target") == "_blank" and "noopener" in external["rel"]
    assert "target" not in internal  # the calculator link in an answer opens in the same tab, like its chip
    assert "noopener" in internal["rel"]


@pytest.mark.parametrize(("dirty", "kept_href"), [
    ('<a href="/x" target="_top">x</a>', "/x"),             # target: only _blank survives
    ('<a href="/x" target="_blank" rel="opener">x</a>', "/x"),  # rel is always the sanitiser's own
    ('<a href="//evil.example/x">x</a>', None),              # protocol-relative: another site
    ('<a href="/\\evil.example/x">x</a>', None),            # browsers read a backslash as "/": "//"
    ('<a href="/\t/evil.example/x">x</a>', None),            # browsers drop the tab: "//"
    ('<a href="../../x">x</a>', None),                       # relative to the page: refused
    ('<a href="ftp://example.org/x">x</a>', None),           # other schemes
    ('<a href="https://www.ird.govt.nz/x" target="_blank">x</a>', "https://www.ird.govt.nz/x"),
])
def test_sanitiser_link_policy(dirty, kept_href):
    [(tag, attrs)] = _Elements(sanitise_answer_html(dirty)).elements
    assert tag == "a" and attrs.get("href") == kept_href, attrs
    assert attrs.get("target") in (None, "_blank") and attrs["rel"] == "noopener noreferrer nofollow"


def test_sanitiser_keeps_only_text_align_on_cells():
    html = sanitise_answer_html('<table><tr><td style="text-align:right; background:url(https://e.example/x)">1</td>'
                                '<td style="position:fixed;text-align:center">2</td><td style="color:red">3</td></tr></table>'
                                '<p style="text-align:center">p</p>')
    styles = [attrs.get("style") for tag, attrs in _Elements(html).elements if tag in ("td", "p")]
    assert styles[0] == "text-align:right" and styles[1] == "text-align:center"
    assert not styles[2] and styles[3] is None
    assert "url(" not in html and "position" not in html


def test_links_to_this_sites_calculators_are_kept():
    html = render_answer_html("[Open the calculator](/calculators/income-tax/?taxable_income=85000&tax_year=2026-27)")
    assert 'href="/calculators/income-tax/?taxable_income=85000&amp;tax_year=2026-27"' in html


def test_vendored_dompurify_is_the_recorded_release():
    assert hashlib.sha256(VENDORED_PURIFY.read_bytes()).hexdigest() == PURIFY_SHA256
