"""Chunker: tax-year extraction, splitting with overlap inside a parent, breadcrumbs, stable ids.

Expected values were worked out by hand from the texts (sentence lengths, NZ tax years running
1 April to 31 March, IRD's "2025 income year" = the year ending 31 March 2025 = 2024-25).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nztax_build.chunker import chunk_document, split_text, tax_years_in
from nztax_build.records import Document, Section

from .test_parsers import parsed

GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize(
    "text, open_until, expected",
    [
        ("Rates for 2024-25.", None, ["2024-25"]),
        ("Rates for 2024–25 and 2025/26.", None, ["2024-25", "2025-26"]),
        ("For the 2025 income year.", None, ["2024-25"]),
        ("the 2024 and 2026 income years", None, ["2023-24", "2025-26"]),
        ("Thresholds changed on 31 July 2024.", None, ["2024-25"]),
        ("Your return for the year ending 31 March 2027.", None, ["2026-27"]),
        ("From 1 April 2026 the rate is 3.5%.", None, ["2026-27"]),
        ("From 1 July 2025 the government pays 25 cents.", 2026, ["2025-26", "2026-27"]),
        ("from 1 April 2024 to 31 March 2026", 2026, ["2024-25", "2025-26"]),
        ("between 1 April 2023 and 31 March 2025", None, ["2023-24", "2024-25"]),
        ("2023-24 to 2026-27", None, ["2023-24", "2024-25", "2025-26", "2026-27"]),
        ("Updated 2026-03-31; the 2025 income year; from 31 July 2024", None, ["2024-25", "2025-26"]),
        ("No years here: $15,600 at 10.5% and 12 months.", 2026, []),
        ("In 2025 the rules changed.", None, []),  # a bare calendar year names no tax year
        ("Pays dated 31/07/2024 or later.", None, ["2024-25"]),  # NZ numeric dates are day first
        ("Dated 1/4/2026.", None, ["2026-27"]),
        ("Not a date: 12/13/2024.", None, []),
        ("For the income years 2024 to 2026.", None, ["2023-24", "2024-25", "2025-26"]),
        ("tax year 2026", None, ["2025-26"]),
        ("tax year 2024-25", None, ["2024-25"]),
        ("1 April 2024 – 31 March 2025", None, ["2024-25"]),
    ],
)
def test_tax_years_in(text, open_until, expected):
    assert tax_years_in(text, open_until) == expected


def test_split_text_by_hand():
    sentences = ["Tax code M is for your main job.", "Tax code S is for a second job.", "Tax code SH suits higher earners.",
                 "Tax code ST is for top earners.", "Tax code SA is for extra earnings."]
    pieces = split_text(" ".join(sentences), size=100, overlap=40)
    # 32+1+31+1+33 = 98 fits; the 4th would make 130. The next piece repeats the last sentence (33 <= 40).
    assert pieces == [" ".join(sentences[:3]), " ".join(sentences[2:])]


def test_split_text_short_text_is_one_piece_and_empty_is_none():
    assert split_text("  Short.  ", 100, 20) == ["Short."]
    assert split_text("", 100, 20) == []


def test_split_table_repeats_header_and_keeps_rows_whole():
    rows = "\n".join(f"| Band {i} income up to ${i},000 | {i}% |" for i in range(1, 30))
    table = "| Income | Rate |\n| --- | --- |\n" + rows
    pieces = split_text(table, size=300, overlap=0)
    assert len(pieces) > 1
    for piece in pieces:
        assert piece.startswith("| Income | Rate |\n| --- | --- |\n| Band")
        assert all(line.startswith("|") and line.endswith("|") for line in piece.splitlines())
    assert sum(p.count("| Band") for p in pieces) == 29


def test_long_sentence_is_wrapped_at_words():
    text = " ".join(["word"] * 100)  # 499 characters, no sentence end
    pieces = split_text(text, size=120, overlap=0)
    assert all(len(p) <= 120 for p in pieces) and " ".join(pieces) == text


def test_chunks_of_tax_rates_page_match_golden():
    doc = parsed("tax_rates")
    doc.crawl_date = "2026-11-21"
    parents, children = chunk_document(doc, size=160, overlap=60, parent_max=6000, open_until=2026)
    golden = json.loads((GOLDEN / "chunks_tax_rates.json").read_text())
    assert [(p.section, p.tax_years) for p in parents] == [tuple(x) for x in golden["parents"]]
    assert [c.text for c in children] == golden["children"]
    by_id = {p.id: p for p in parents}
    for child in children:
        parent = by_id[child.parent_id]
        assert child.text.startswith(f"Tax rates for individuals > {parent.section}\n\n")
        assert child.tax_years == parent.tax_years and child.crawl_date == "2026-11-21"
        # overlap only inside a parent: every child line comes from its own parent (or is its table header)
        body = child.text.split("\n\n", 1)[1]
        assert all(line in parent.text for line in body.splitlines())


def test_ids_are_stable_content_hashes_and_line_format():
    doc = parsed("legislation_lc")
    doc.crawl_date = "2026-11-21"
    first = chunk_document(doc, 1000, 150, 6000)
    second = chunk_document(parsed("legislation_lc"), 1000, 150, 6000)
    assert [c.id for c in first[0] + first[1]] == [c.id for c in second[0] + second[1]]
    parent, child = first[0][0], first[1][0]
    assert parent.id.startswith("p_") and child.id.startswith("c_") and len(parent.id) == 18
    assert list(child.to_dict()) == ["id", "parent_id", "url", "title", "section", "source_type", "tax_years", "crawl_date", "text"]
    assert "parent_id" not in parent.to_dict()
    assert parent.section == "LC 15 Independent earner tax credit" and parent.source_type == "legislation"
    assert "(2) The amount of the credit is $520" in parent.text
    # editing one provision changes only that provision's ids
    doc.sections[1].text += "\n\n(b) A new paragraph."
    edited = chunk_document(doc, 1000, 150, 6000)
    assert edited[0][0].id == parent.id and edited[0][1].id != first[0][1].id


def test_technical_items_are_titled_by_reference():
    doc = parsed("qwba")
    parents, children = chunk_document(doc, 1000, 150, 6000)
    assert parents[0].title == "QB 24/05: Renting a room in your home"
    assert children[1].text.startswith("QB 24/05: Renting a room in your home > Answer\n\n")
    assert children[1].tax_years == ["2024-25"]


def test_long_section_becomes_numbered_parent_parts():
    text = "\n\n".join(f"Paragraph {i} explains one more rule about secondary tax codes in plain words." for i in range(40))
    doc = Document(url="u", title="Secondary tax", source_type="ird_guidance", sections=[Section("Codes", text)])
    parents, children = chunk_document(doc, 300, 50, 1000)
    assert len(parents) == 4 and parents[0].section == "Codes (part 1 of 4)"
    assert all(len(p.text) <= 1000 for p in parents)
    assert {c.parent_id for c in children} == {p.id for p in parents}
