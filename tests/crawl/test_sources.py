"""sources.yaml loading: the schema other parts rely on, and clear messages for every mistake."""

from __future__ import annotations

import pytest

from nztax_build.sources import SourcesError, load_sources, parse_sources

from .conftest import SOURCES_SMALL

GOOD = {"url": "https://www.ird.govt.nz/a", "source_type": "ird_guidance", "title": "A"}


def test_small_fixture_loads_with_defaults_applied():
    sources = load_sources(SOURCES_SMALL)
    assert len(sources) == 5
    assert sources[0].recrawl == "weekly" and sources[1].recrawl == "daily"  # default vs explicit
    assert {s.source_type for s in sources} == {"ird_guidance", "legislation", "qwba", "guide_pdf"}
    assert sources[0].topic == "tax-rates"


@pytest.mark.parametrize(
    "data, message",
    [
        ([GOOD], "expected a mapping"),
        ({"sources": []}, "non-empty list"),
        ({"sources": [GOOD], "extra": 1}, "unknown top-level key"),
        ({"sources": [{**GOOD, "source_type": "gst"}]}, "source_type 'gst' is not one of"),
        ({"sources": [{**GOOD, "recrawl": "hourly"}]}, "recrawl 'hourly'"),
        ({"sources": [{**GOOD, "url": "ftp://x/y"}]}, "absolute http"),
        ({"sources": [{"url": "https://www.ird.govt.nz/a", "source_type": "tib"}]}, "'title' is required"),
        ({"sources": [GOOD, GOOD]}, "duplicate url"),
        ({"sources": [{**GOOD, "colour": "red"}]}, "unknown field"),
        ({"defaults": {"recrawl": "yearly"}, "sources": [GOOD]}, "defaults.recrawl"),
    ],
)
def test_invalid_sources_give_clear_errors(data, message):
    with pytest.raises(SourcesError, match=message):
        parse_sources(data, origin="test.yaml")


def test_missing_and_malformed_files(tmp_path):
    with pytest.raises(SourcesError, match="not found"):
        load_sources(tmp_path / "nope.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("sources: [unclosed")
    with pytest.raises(SourcesError, match="not valid YAML"):
        load_sources(bad)
