"""The IETC's whole months read from a question, and the years a date before or from 1 April names.

IRD works the IETC per whole month: a month with any Working for Families, benefit or NZ Super in it
gets none. The reader gives the months left only when the text says them surely; the families below
change the wording, the number's form and the sentence's place, and the reading must not move.
"""

from __future__ import annotations

import pytest

from nztax.question_conditions import KIWISAVER_YEAR_END, ietc_months
from nztax.tools import call_tool
from nztax.years import read_year


@pytest.mark.parametrize("text, months", [
    ("I was on the jobseeker benefit for two months and earned $40,000.", 10),
    ("I was on the jobseeker benefit for 2 months and earned $40,000.", 10),
    ("Earned $40,000. Before that I was on a benefit for two months.", 10),
    ("Three months on Sole Parent Support, then a job at $42k.", 9),
    ("My NZ Super started on 20 August.", 4),          # IRD's own example: April to July
    ("I came off the benefit in June.", 9),            # April to June had some of it
    ("We got Working for Families for the first 6 months.", 6),
])
def test_months_said_surely(text, months):
    assert ietc_months(text) == (True, months)


@pytest.mark.parametrize("text", [
    "I was on Working for Families for a few months and earn $50k.",   # part of the year, months unsure
    "I was on a benefit for two months and then on NZ Super from March.",  # two readings that disagree
])
def test_part_year_without_sure_months(text):
    part, months = ietc_months(text)
    assert part is True and months is None


@pytest.mark.parametrize("text", ["I get NZ Super and earn $30,000.", "I earn $45,000 and get no benefit."])
def test_no_part_year(text):
    assert ietc_months(text) == (False, None)


def test_months_read_reach_the_calculator(engine):
    # The answer's figure is the calculator's on the months read (10 of 12), not a whole-year "no".
    answer = engine.answer("I was on the jobseeker benefit for two months of the 2026-27 year and earned $40,000. Can I get the IETC?",
                           use_faq=False, mode="offline").to_json()
    expected = call_tool("calculate_ietc", {"annual_income": 40000, "tax_year": "2026-27", "months_eligible": 10})
    assert f"${expected['annual_credit']:,.2f}" in answer["answer"]
    assert not answer["answer"].startswith("No.")


@pytest.mark.parametrize("text, year", [
    ("the minimum rate before 1 April 2026", "2025-26"),
    ("prior to 1st April 2024", "2023-24"),
    ("pays from 1 April 2026", "2026-27"),
])
def test_a_date_around_1_april_names_its_tax_year(text, year):
    assert read_year(text, "2026-27").year == year


def test_before_1_july_names_the_kiwisaver_year_that_ended():
    m = KIWISAVER_YEAR_END.search("the government contribution before 1 July 2025")
    assert int(m.group("y") or m.group("y2")) == 2025
