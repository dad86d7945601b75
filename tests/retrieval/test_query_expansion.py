"""The synonym table (nztax/data/query_synonyms.yaml) and one-way query expansion."""

from __future__ import annotations

import pytest
import yaml

from nztax.query_expansion import SYNONYMS_FILE, QueryExpander, SynonymTableError, default_expander


def test_table_is_well_formed_and_has_the_common_nz_abbreviations():
    groups = yaml.safe_load(SYNONYMS_FILE.read_text())["groups"]
    canonical = {group[0] for group in groups}
    assert {"KiwiSaver", "independent earner tax credit", "prescribed investor rate", "Working for Families",
            "ACC earners' levy", "net pay", "student loan", "secondary tax code"} <= canonical
    variants = [term for group in groups for term in group]
    assert len(variants) == len(set(variants)), "a phrase may belong to one group only"


@pytest.mark.parametrize("query, added", [
    ("how much KS comes out of my pay", ["KiwiSaver"]),
    ("my take-home pay on $60,000", ["net pay"]),
    ("IETC in 2023-24", ["independent earner tax credit"]),
    ("which PIR should I use", ["prescribed investor rate"]),
    ("WFF for two kids", ["Working for Families"]),
    ("ACC levy on my wages", ["ACC earners' levy"]),
    ("paying off uni loans", ["student loan"]),  # plural and stemmed
    ("tax on my second job", ["secondary tax code"]),
])
def test_variants_add_the_canonical_term(query, added):
    assert default_expander().expansions(query) == added


@pytest.mark.parametrize("query", [
    "KiwiSaver contribution rates",  # already canonical: nothing added
    "apple pie recipe",              # "pie" in lower case is not the PIE abbreviation
    "tell me about ks",               # abbreviations match in capitals only
    "income tax rates",
])
def test_nothing_added(query):
    assert default_expander().expansions(query) == []


def test_expand_appends_to_the_query():
    assert default_expander().expand("KS rates") == "KS rates KiwiSaver"
    assert default_expander().expand("income tax rates") == "income tax rates"


def test_malformed_table_is_refused(tmp_path):
    bad = tmp_path / "synonyms.yaml"
    bad.write_text("groups:\n  - [lonely]\n")
    with pytest.raises(SynonymTableError, match="group #1"):
        QueryExpander.from_file(bad)
    bad.write_text("not: a list\n")
    with pytest.raises(SynonymTableError, match="groups"):
        QueryExpander.from_file(bad)
