"""A rules or calculator citation names the heading of its page that states the figures used.

The headings and texts below are written for the test; the figures in them are the rules data's
(IRD's published thresholds), so the right heading is the one holding the year's own figures.
"""

from __future__ import annotations

from nztax.citation_sections import CitationSections
from nztax.contract import Citation
from nztax.rules import load_rules

RULES = load_rules()
RATES = RULES.years["2025-26"].data.income_tax.source


def parents():
    return {
        "a": {"url": RATES, "section": "Who pays tax", "tax_years": [], "text": "Everyone with income in the 2 years pays tax."},
        "b": {"url": RATES, "section": "From 1 April 2025", "tax_years": ["2025-26"],
              "text": "Up to $15,600 at 10.5%, $15,601 to $53,500 at 17.5%, $53,501 to $78,100 at 30%, then 33% and 39% over $180,000."},
        "c": {"url": RATES, "section": "1 April 2021 to 31 March 2024", "tax_years": ["2023-24"],
              "text": "Up to $14,000 at 10.5%, to $48,000 at 17.5%, to $70,000 at 30%, to $180,000 at 33%, then 39%."},
        "d": {"url": "https://www.ird.govt.nz/other", "section": "Elsewhere", "tax_years": [], "text": "$15,600"},
    }


def test_the_heading_with_the_years_figures_is_named():
    finder = CitationSections(parents(), RULES)
    [current] = finder.fill([Citation(title="IRD: Tax rates for individuals", url=RATES)], "2025-26")
    [earlier] = finder.fill([Citation(title="IRD: Tax rates for individuals", url=RATES)], "2023-24")
    assert current.section == "From 1 April 2025"
    assert earlier.section == "1 April 2021 to 31 March 2024"


def test_a_citation_keeps_its_own_section_and_an_unmatched_page_gets_none():
    finder = CitationSections(parents(), RULES)
    kept, unmatched = finder.fill([Citation(title="T", url=RATES, section="Given"),
                                   Citation(title="O", url="https://www.ird.govt.nz/other")], "2025-26")
    assert kept.section == "Given"
    assert unmatched.section is None  # no rules section cites that page: no heading is guessed


def test_the_engine_names_the_section_of_a_calculation_source(engine):
    result = engine.answer("How much income tax on $85,000 in 2025-26?", use_faq=False, mode="offline")
    rates = [c for c in result.citations if c.url == RATES]
    assert rates and all(c.section for c in rates), result.citations


def test_a_unit_citation_names_the_section_that_holds_its_quote():
    finder = CitationSections(parents(), RULES)
    # Compared as the build's support check compares: case and spacing folded, the words the same.
    assert finder.section_quoting(RATES, "everyone with  INCOME in the 2 years") == "Who pays tax"
    assert finder.section_quoting(RATES, "Nobody pays tax.") is None
    assert finder.section_quoting("https://www.ird.govt.nz/missing", "Everyone") is None


def test_a_unit_answer_names_its_page_and_section():
    from types import SimpleNamespace

    from nztax import units

    unit = units.Unit(question="Who pays tax?", slug="who-pays-tax", topic="t", topic_title="T",
                      lead="Everyone with income pays it.",
                      source=units.UnitSource(RATES, "Everyone with income in the 2 years pays tax."))
    decision = SimpleNamespace(tax_year="2025-26", asked="Who pays tax?", complex_situation=False)
    finder = CitationSections(parents(), RULES)
    result = units.compose(unit, decision, RULES, "2025-26", {RATES: "Inland Revenue: Tax rates"}, finder.section_quoting)
    assert result.citations[0].url == RATES and result.citations[0].section == "Who pays tax"
    assert result.answer.splitlines()[-1].endswith("“Who pays tax”")
    # A page that no longer holds the quote is cited by page alone, never by a guessed heading.
    moved = units.Unit(question="Who pays tax?", slug="who-pays-tax", topic="t", topic_title="T", lead="Everyone pays.",
                       source=units.UnitSource(RATES, "Words no section holds."))
    again = units.compose(moved, decision, RULES, "2025-26", {RATES: "Inland Revenue: Tax rates"}, finder.section_quoting)
    assert again.citations[0].section is None
