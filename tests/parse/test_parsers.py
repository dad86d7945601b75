"""Golden-file tests for the HTML, legislation, Tax Technical and PDF parsers.

The golden files in golden/ were written from the fixture pages by reading them: the expected
title, breadcrumb, dates and the markdown of each section (tables kept as tables, navigation,
banners, hidden text and footers gone, guide questions and legislation provisions as sections).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nztax_build.parse import parse_body
from nztax_build.records import ParseError

SITE = Path(__file__).resolve().parents[1] / "fixtures" / "crawl_site"
GOLDEN = Path(__file__).resolve().parent / "golden"

CASES = {
    "tax_rates": ("income-tax/income-tax-for-individuals/tax-codes-and-tax-rates-for-individuals/tax-rates-for-individuals.html", "text/html", "ird_guidance"),
    "kiwisaver": ("kiwisaver/kiwisaver-individuals/making-contributions.html", "text/html", "ird_guidance"),
    "legislation_lc": ("act/public/2007/0097/latest/DLM1518410.html", "text/html", "legislation"),
    "qwba": ("tax-technical/questions-we-ve-been-asked/qb-24-05.html", "text/html", "qwba"),
    "ir3g_pdf": ("media/forms-and-guides/ir3g.pdf", "application/pdf", "guide_pdf"),
}


def parsed(name: str):
    path, content_type, source_type = CASES[name]
    return parse_body((SITE / path).read_bytes(), content_type, f"https://example.test/{path}", source_type, "Fallback title")


@pytest.mark.parametrize("name", sorted(CASES))
def test_parser_matches_golden(name):
    doc = parsed(name)
    got = {"title": doc.title, "breadcrumb": doc.breadcrumb, "ref": doc.ref, "issued": doc.issued, "updated": doc.updated,
           "sections": [{"title": s.title, "level": s.level, "anchor": s.anchor, "text": s.text} for s in doc.sections]}
    assert got == json.loads((GOLDEN / f"{name}.json").read_text())


def test_page_furniture_never_reaches_the_text():
    text = parsed("tax_rates").main_text()
    for unwanted in ("contact centre is closed", "KiwiSaver", "Home", "Offline snapshot notice", "Hidden text",
                     "analytics", "Page last updated"):
        assert unwanted not in text


def test_rate_table_survives_as_a_markdown_table():
    section = parsed("tax_rates").sections[1]
    assert "| For each dollar of income | Tax rate |\n| --- | --- |\n| Up to $15,600 | 10.5% |" in section.text


def test_same_content_different_chrome_same_hash():
    body = (SITE / CASES["tax_rates"][0]).read_bytes()
    variant = body.replace(b"Our contact centre is closed on Monday for maintenance.", b"A different notice").replace(
        b'datetime="2026-04-01">1 April 2026', b'datetime="2026-05-01">1 May 2026')
    a = parse_body(body, "text/html", "u", "ird_guidance").compute_hash()
    b = parse_body(variant, "text/html", "u", "ird_guidance").compute_hash()
    assert a == b
    changed = body.replace(b"10.5%", b"11%")
    assert parse_body(changed, "text/html", "u", "ird_guidance").compute_hash() != a


def test_variant_markup_without_main_element():
    html = b"""<html><head><title>Student loans | Inland Revenue</title></head><body><nav><a>Menu</a></nav>
    <div role="main"><h2>Repayment threshold</h2><p>The threshold is set each year.</p></div></body></html>"""
    doc = parse_body(html, "text/html", "u", "ird_guidance", "Fallback")
    assert doc.title == "Student loans"
    assert [(s.title, s.text) for s in doc.sections] == [("Repayment threshold", "The threshold is set each year.")]


@pytest.mark.parametrize("body, content_type", [(b"", "text/html"), (b"<html><body><nav>only</nav></body></html>", "text/html"),
                                                 (b"%PDF-1.7 broken", "application/pdf")])
def test_unusable_bodies_raise_parse_error(body, content_type):
    with pytest.raises(ParseError):
        parse_body(body, content_type, "u", "guide_pdf" if "pdf" in content_type else "ird_guidance")


# Parser warnings: structure a page of its kind should have but whose parse lacks.
def _warnings(html: str, source_type: str) -> list[str]:
    from nztax_build.parse import parse_with_warnings

    return parse_with_warnings(html.encode(), "text/html", "https://www.ird.govt.nz/x", source_type, "X")[1]


PAGE = ('<html><body><nav class="breadcrumb"><ol><li>Home</li><li>Tax</li></ol></nav><main id="main-content">'
        "<h1>X</h1>{meta}<h2>Rates</h2><p>Some text.</p>{extra}</main></body></html>")


def test_a_well_formed_page_has_no_warnings():
    assert _warnings(PAGE.format(meta="", extra=""), "ird_guidance") == []


@pytest.mark.parametrize(
    "html, source_type, words",
    [
        (PAGE.replace('<nav class="breadcrumb"><ol><li>Home</li><li>Tax</li></ol></nav>', "").format(meta="", extra=""), "ird_guidance", "breadcrumb"),
        (PAGE.format(meta="", extra=""), "qwba", "reference id"),
        (PAGE.format(meta='<div class="tt-meta"><span class="ref">QB 25/01</span></div>', extra=""), "qwba", "issue date"),
        (PAGE.format(meta="", extra=""), "legislation", "provision ids"),
        (PAGE.format(meta="", extra="<p><strong>Question 4 Income</strong></p>"), "ird_guidance", "Question N"),
    ],
)
def test_missing_structure_is_a_warning(html, source_type, words):
    assert any(words in w for w in _warnings(html, source_type))


def test_other_acts_and_schedule_parts_keep_their_provision_ids():
    from nztax_build.parse_legislation import parse_legislation

    html = ('<html><body><main><h1>Act</h1><div class="prov" id="41"><h2 class="prov"><span class="label">41</span> '
            '<span class="heading">Deductions</span></h2><p>(1) Text.</p></div><div class="prov" id="S1A"><h2 class="prov">'
            '<span class="label">Schedule 1 Part A</span> <span class="heading">Rates</span></h2><p>(1) Text.</p></div></main></body></html>')
    doc = parse_legislation(html.encode(), "https://www.legislation.govt.nz/x", "legislation", "Act")
    assert [(s.title, s.anchor) for s in doc.sections] == [("41 Deductions", "41"), ("Schedule 1 Part A Rates", "Schedule 1 Part A")]
