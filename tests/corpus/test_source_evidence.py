"""Every cited address carries its evidence, and every legislation link names the section it opens at.

The bundled sources.yaml (what the crawler fetches and the answers cite) must give, for each address,
a `verified:` block: a stored copy, a mirror copy of the same legislation id, a stored page linking the
address, or a public citation of it. A legislation page's address opens at one section; the first
provision on the page must be that section, and its title must name it, so a reader who follows the
link lands on the section the citation names.
"""

from __future__ import annotations

import re

import pytest
import yaml

from nztax_build.evidence import EvidenceError, parse_verified
from nztax_build.snapshot import split_provisions
from nztax_build.sources import SourcesError, parse_sources

from .conftest import CORPUS

SOURCES = yaml.safe_load((CORPUS / "sources.yaml").read_text(encoding="utf-8"))["sources"]
# What a stored legislation page (or its mirror) shows as the section at each id (docs/citations.md).
SECTION_AT_ID = {
    "DLM1518475": "MC 1",
    "DLM1518600": "MK 1",
    "DLM1519938": "RD 2",
    "DLM1520139": "RD 64",
    "DLM1523192": "Schedule 1",
    "DLM1949201": "LC 13",
    "LMS967330": "LC 15",
    "DLM1520575": "YA 1",
    "DLM3180114": "41",
}


@pytest.mark.parametrize("entry", SOURCES, ids=[s["url"].rsplit("/", 1)[-1][:60] for s in SOURCES])
def test_every_address_has_evidence(entry):
    verified = parse_verified(entry.get("verified"), entry["url"])
    assert verified is not None, f"{entry['url']}: no evidence that this address is real"
    if verified.how != "cited_by":
        assert verified.evidence.startswith("http")


def test_sources_yaml_round_trips_the_evidence():
    sources = parse_sources({"sources": SOURCES})
    assert all(s.verified is not None for s in sources)
    assert {s.verified.how for s in sources} <= {"stored_copy", "stored_mirror", "linked_from", "cited_by"}


@pytest.mark.parametrize("bad, message", [
    ({"how": "guess", "checked": "2026-11-28"}, "how must be one of"),
    ({"how": "stored_copy", "checked": "2026-11-28"}, "evidence must be the address"),
    ({"how": "cited_by", "checked": "2026-11-28"}, "note must say who cites"),
    ({"how": "stored_copy", "evidence": "https://x.test/p", "checked": "soon"}, "checked must be a date"),
    ({"how": "stored_copy", "evidence": "https://x.test/p", "checked": "2026-11-28", "seen": 1}, "unknown field"),
])
def test_malformed_evidence_is_refused_with_its_reason(bad, message):
    with pytest.raises(EvidenceError, match=message):
        parse_verified(bad, "sources.yaml: source #1")
    with pytest.raises(SourcesError, match=message):
        parse_sources({"sources": [{"url": "https://www.ird.govt.nz/a", "source_type": "ird_guidance", "title": "A", "verified": bad}]})


def test_each_legislation_link_opens_at_the_first_section_on_its_page(snapshot_sources):
    legislation = [s for s in snapshot_sources if s.source_type == "legislation"]
    assert legislation
    for source in legislation:
        page_id = re.search(r"/((?:DLM|LMS)\d+)\.html$", source.url).group(1)
        assert page_id in SECTION_AT_ID, f"{source.url}: no record of which section this id opens at"
        first_label = split_provisions(source.body, source.path)[1][0][0]
        assert first_label.startswith(SECTION_AT_ID[page_id]), f"{source.path}: link opens at {SECTION_AT_ID[page_id]}, page starts at {first_label}"
        assert SECTION_AT_ID[page_id] in source.title, f"{source.path}: title does not name {SECTION_AT_ID[page_id]}"


def test_the_five_corrected_legislation_ids_are_the_ones_cited():
    urls = {s["url"] for s in SOURCES}
    for wrong in ("DLM1518477", "DLM1518761", "DLM1519941", "DLM1520123", "DLM1523203", "LMS967327", "DLM3179952"):
        assert not any(wrong in u for u in urls), f"{wrong} points at a different section from the one cited"


def test_only_pdfs_rest_on_public_citations():
    # A web page or a section of the Act always has a stored copy or a stored page linking it; only a
    # PDF newer than every stored copy may rest on public citations until a live crawl fetches it.
    cited_only = [s for s in SOURCES if s["verified"]["how"] == "cited_by"]
    assert all(s["source_type"] == "guide_pdf" for s in cited_only), [s["url"] for s in cited_only]
    assert len(cited_only) <= 2, f"{len(cited_only)} sources rest on citations alone (docs/citations.md names 2)"


def test_every_page_records_what_it_was_compared_with(snapshot_sources):
    # `text_from:` names the stored copy (or, with none, the stored pages) each page's text follows.
    missing = [str(s.path) for s in snapshot_sources if not str(s.meta.get("text_from") or "").strip()]
    assert not missing, f"pages with no record of what their text was compared with: {missing}"
