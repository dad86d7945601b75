"""A sentence stating a rule for a period that has ended is that period's rule: it is no candidate to
answer a question about a later year (years.years_bounded, passage_sentences). Wordings are made up."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from nztax.passage_sentences import best_sentences
from nztax.years import years_bounded


@pytest.mark.parametrize(("text", "years"), [
    ("For 1 April 2030 to 31 March 2031 you could claim half of the WX cost.", {"2030-31"}),
    ("In 2030-31 half of the WX cost could be claimed.", {"2030-31"}),
    ("Before 1 April 2031 half of the WX cost could be claimed.", {"2030-31"}),
    ("Income for the year to 31 March 2031 is taxed at these rates.", {"2030-31"}),
    # (A period that starts and runs on is today's rule too; a date of one event is no period.)
    ("From 1 April 2031 you can claim all of the WX cost.", set()),
    ("Up to 31 March 2031 half could be claimed; from 1 April 2031 all of it.", set()),
    ("Send your return by 7 July 2031.", set()),
])
def test_the_tax_years_a_text_names_as_ended_periods(text, years):
    assert years_bounded(text) == years


def _hit(text: str) -> SimpleNamespace:
    return SimpleNamespace(text=text, url="https://www.ird.govt.nz/x", parent_id="p", title="WX costs", section="Claiming WX costs")


def test_a_rule_for_an_ended_period_does_not_answer_a_later_year():
    hit = _hit("For 1 April 2030 to 31 March 2031 you could claim half of the WX cost of a rental. "
               "You claim the WX cost of a rental in your return for the year you pay it.")
    asked = "Can I claim the WX cost of my rental?"
    later = [s for s, _ in best_sentences(asked, [hit], 3, tax_year="2032-33")]
    assert later == ["You claim the WX cost of a rental in your return for the year you pay it."]
    # Family: asked about that period, its rule is a candidate.
    assert any(s.startswith("For 1 April 2030") for s, _ in best_sentences(asked, [hit], 3, tax_year="2030-31"))
