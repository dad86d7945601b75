"""A figure whose rule changed within the years the rules data holds is given, to a story naming no
year, with the date it took effect and the figure before it (rule_changes.py, `say.gc_change`); a
one-line question gets today's figure, and a year named its own figure, alone."""

from __future__ import annotations

from nztax.composer import money
from nztax.rule_changes import change_before
from nztax.rules import current_tax_year, default_rules

SECTION = "government_contribution"


def _years_with_section(rules):
    return [y for y in sorted(rules.years) if SECTION in rules.years[y].data.model_dump() and
            rules.years[y].data.model_dump()[SECTION] is not None]


def test_a_change_is_the_nearest_earlier_year_with_other_figures():
    rules = default_rules()
    years = _years_with_section(rules)
    assert change_before(rules, years[0], SECTION) is None  # nothing earlier in the data
    for year in years:
        change = change_before(rules, year, SECTION)
        current = rules.years[year].section(SECTION)
        if change is None:
            continue
        assert change.before.maximum != current.maximum or change.before.match_rate != current.match_rate
        # Every year from the change up to this one has this year's figures.
        for other in years:
            section = rules.years[other].section(SECTION)
            if rules.years[other].start <= rules.years[year].start and section.kiwisaver_year_start >= change.since:
                assert (section.maximum, section.match_rate) == (current.maximum, current.match_rate), other


def test_the_2025_change_is_irds():
    """IRD: up to the KiwiSaver year ending 30 June 2025, 50c per $1 up to $521.43; from 1 July 2025
    25c per $1 up to $260.72 (ird.govt.nz "Getting the KiwiSaver government contribution", its older
    copy for the earlier figures; shared/nz_tax_facts.md section 5)."""
    import datetime as dt
    from decimal import Decimal

    rules = default_rules()
    change = change_before(rules, "2026-27", SECTION)
    assert change is not None
    assert change.since == dt.date(2025, 7, 1)
    assert Decimal(str(change.before.maximum)) == Decimal("521.43")
    assert Decimal(str(change.before.match_rate)) == Decimal("0.5")
    assert Decimal(str(rules.years["2026-27"].section(SECTION).maximum)) == Decimal("260.72")


ASKED = "How much does the government put into my KiwiSaver each year?"
STORY = ("I have been in KiwiSaver for a few years. I work part time and my hours went up and down a lot. "
         "My partner pays our rent. " + ASKED)


def _asked(engine, year: str | None, text: str = STORY) -> str:
    return engine.answer(text, tax_year=year, use_faq=False, mode="offline").answer


def test_a_one_line_question_naming_no_year_gets_todays_figure_alone(engine):
    """A one-line question asks about now; a story naming no year may be about an earlier year."""
    rules = default_rules()
    year = current_tax_year()
    answer = _asked(engine, None, ASKED).split("\n\n")[0]
    assert money(rules.years[year].section(SECTION).maximum) in answer
    assert "before then" not in answer


def test_the_figure_after_a_change_is_given_with_its_date_and_the_figure_before(engine):
    rules = default_rules()
    year = current_tax_year()
    change = change_before(rules, year, SECTION)
    assert change is not None, "the rules data holds the years before the 1 July 2025 change"
    answer = _asked(engine, None).split("\n\n")[0]
    assert money(rules.years[year].section(SECTION).maximum) in answer
    assert f"{change.since.day} {change.since:%B} {change.since.year}" in answer
    assert money(change.before.maximum) in answer


def test_a_year_before_the_change_gets_its_own_figure_alone(engine):
    rules = default_rules()
    years = _years_with_section(rules)
    changed = [y for y in years if change_before(rules, y, SECTION) is not None]
    unchanged_before = [y for y in years if changed and y < changed[0]]
    assert unchanged_before, "the rules data holds a year before the change"
    year = unchanged_before[-1]
    answer = _asked(engine, year).split("\n\n")[0]
    assert money(rules.years[year].section(SECTION).maximum) in answer
    assert "before then" not in answer
    later = rules.years[changed[0]].section(SECTION).maximum
    assert money(later) not in answer
