"""A tax figure the poster states is checked like with like (issue 36, figure_check.py).

Golden figures, hand-worked from nz_tax_facts.md (2026-27: bands s1, earners' levy 1.75% s2, IRD's PAYE
method s8) and IR340 (weekly $1,000 on M: $171.50):
- $80,000 a year: income tax 80,000 x 33% - 10,122.50 = 16,277.50; levy 1,400; together 17,677.50.
- $65,000 a year: income tax 65,000 x 30% - 7,779.50 = 11,720.50; levy 1,137.50; together 12,858.
  A week's PAYE on $1,250 (65,000 / 52): 12,858 / 52 = 247.2692 -> 247.26; a fortnight's on $2,500: 2 x
  247.26 = 494.52; a month's on $5,416.66: 247.26 x 52 / 12 = 1,071.46.
"""

from __future__ import annotations

import re

import pytest

from nztax.slots import read_slots

VERDICT = re.compile(r"^(?:Yes, \$(?P<yes>[\d,.]+)|Not quite: it comes to \$(?P<ours>[\d,.]+))")


def _answer(engine, question):
    return engine.answer(question, use_faq=False, mode="offline").to_json()


def _verdict(out) -> str | None:
    m = VERDICT.match(out["answer"])
    return None if m is None else (m.group("yes") or m.group("ours"))


@pytest.mark.parametrize("asked", ["Did I pay the right amount of tax?", "Is that right?"])
def test_a_years_paye_is_checked_against_income_tax_and_the_levy(engine, asked):
    out = _answer(engine, f"I earn $80,000. Over the year my employer deducted $17,000 in PAYE. {asked}")
    assert _verdict(out) == "17,677.50", out["answer"][:300]
    assert {"calculate_income_tax", "calculate_acc_levy"} <= {t["name"] for t in out["tools"]}


@pytest.mark.parametrize("withheld,ours", [("${} PAYE comes off each month.", "1,071.46"),
                                           ("My payslip shows ${} PAYE a fortnight.", "494.52"),
                                           ("${} of tax is taken off every week.", "247.26")])
@pytest.mark.parametrize("asked", ["Is that right?", "Is that too much?"])
@pytest.mark.parametrize("code", ["", " I'm on tax code M."])
def test_family_a_salarys_tax_each_pay_is_checked_against_that_pays_paye(engine, withheld, ours, asked, code):
    claimed = f"{float(ours.replace(',', '')) * 1.08:,.0f}"
    out = _answer(engine, f"I earn $65,000 a year.{code} {withheld.format(claimed)} {asked}")
    assert _verdict(out) == ours, out["answer"][:300]


def test_a_weeks_pay_and_a_weeks_tax_match_irds_table(engine):
    out = _answer(engine, "I earn $1,000 a week and $171.50 of tax is taken off every week. Is that correct?")
    assert out["answer"].startswith("Yes, $171.50 is right.")


def test_a_salarys_weekly_tax_matches_irds_table(engine):
    # $52,000 a year is $1,000 a week: IR340's $171.50 on M.
    out = _answer(engine, "I'm on $52,000 a year and $171.50 tax comes out each week. Is that correct?")
    assert out["answer"].startswith("Yes, $171.50 is right.")


def test_a_figure_of_no_stated_period_far_from_the_years_tax_gets_no_verdict(engine):
    # $171.50 with no period beside $52,000: not the year's $8,918 (8,008 + 910) told "Not quite".
    assert _verdict(_answer(engine, "I'm on $52,000 a year and $171.50 tax came out. Is that correct?")) is None


def test_a_payslip_figure_far_above_paye_names_what_else_it_may_hold(engine):
    out = _answer(engine, "I earn $65,000 a year on tax code M. My payslip shows $1,020 PAYE a fortnight. Is that right?")
    first = out["answer"].split("\n\n")[0]
    assert _verdict(out) == "494.52" and "KiwiSaver" in first and "student loan" in first


@pytest.mark.parametrize("question", [
    # paid in one period, taxed in another: which pay it came off is not certain
    "I earn $4,000 a month. My payslip shows $350 PAYE a fortnight. Is that right?",
    # tax taken off someone else's pay is theirs, not the poster's
    "My wife gets paid $2,500 a fortnight and $540 PAYE comes off each fortnight. Is that right?",
    "My partner earns $65,000 a year. Her payslip shows $1,020 PAYE a fortnight. Is that right?",
])
def test_no_verdict_on_a_figure_not_like_the_engines(engine, question):
    assert _verdict(_answer(engine, question)) is None


@pytest.mark.parametrize("text,period", [("My payslip shows $1,020 PAYE a fortnight.", "fortnightly"),
                                         ("$185 of tax is taken off every week.", "weekly"),
                                         ("$733 PAYE comes off each month.", "monthly"),
                                         ("$171.50 tax comes out each week.", "weekly"),
                                         ("Over the year my employer deducted $17,000 in PAYE.", "annual")])
def test_the_period_tax_was_taken_in_is_read_after_its_words_or_from_its_sentences_opening(text, period):
    taken = read_slots(text).amounts[0]
    assert taken.role == "deduction" and taken.period == period and taken.period_stated


def test_control_a_period_elsewhere_in_the_sentence_is_not_the_taxs():
    # (a period word after another figure, or a figure before the tax's, leaves the tax's period unsaid)
    taken = [a for a in read_slots("Each month I earn $4,000 and $700 PAYE comes off.").amounts if a.role == "deduction"]
    assert taken and not taken[0].period_stated


# A tax noun right after a figure ("$534 tax", "$534 in tax", "$534 of tax", "$534 PAYE", "$534 income
# tax") says the figure is tax taken: it is checked against that pay's PAYE, never worked as a pay.
TAX_RIGHT_AFTER = ["Payslip says ${x} tax for the {p} on my $65k salary.",
                   "I'm on $65,000 a year and my payslip shows ${x} in tax each {p}.",
                   "On my $65k salary ${x} of tax comes off every {p}.",
                   "My salary is $65,000 and I get ${x} PAYE taken out per {p}.",
                   "$65k salary, ${x} income tax a {p}."]


@pytest.mark.parametrize("wording", TAX_RIGHT_AFTER)
@pytest.mark.parametrize("period,ours", [("fortnight", "494.52"), ("week", "247.26")])
def test_family_a_tax_noun_right_after_a_figure_makes_it_tax_taken(engine, wording, period, ours):
    claimed = f"{float(ours) * 1.08:,.0f}"
    out = _answer(engine, wording.format(x=claimed, p=period) + " Is that right?")
    assert _verdict(out) == ours, out["answer"][:300]


@pytest.mark.parametrize("text", ["I earn $60k tax free.", "I paid $500 tax agent fees.", "I got a $3,000 tax refund.",
                                  "I earn $60,000 taxable income.", "What is $80k tax?", "$80k tax for a single person",
                                  "$80k tax a year?"])
def test_control_tax_as_part_of_another_noun_or_asked_on_the_figure_is_not_tax_taken(text):
    assert all(a.role != "deduction" for a in read_slots(text).amounts)


# Another person's pay and the tax taken off it: the pay may be worked (PAYE on $1,000 a week is IR340's
# $171.50; on $2,000 a fortnight 2 x 171.50 = $343), but the poster is not told they take it home, and
# the tax taken off is theirs to check, not the poster's (no verdict).
# (Each wording names another relative: five people across the family, kept to ten answers.)
OTHERS_TAX = [("My {kin} earns ${pay} a {p} and ${x} of tax comes off. Is that right?", "son"),
              ("My {kin} gets paid ${pay} a {p} and ${x} in tax comes off each {p}. Is that right?", "daughter"),
              ("My {kin} is on ${pay} a {p}. ${x} PAYE is taken out every {p}. Is that right?", "wife"),
              ("My {kin}'s pay is ${pay} a {p} with ${x} tax deducted. Is that right?", "brother"),
              ("My {kin} makes ${pay} per {p}, and ${x} tax is taken off. Is that right?", "mum")]


@pytest.mark.parametrize("wording,kin", OTHERS_TAX)
@pytest.mark.parametrize("pay,period,x,paye", [("1,000", "week", "190", "$171.50"), ("2,000", "fortnight", "380", "$343")])
def test_family_another_persons_pay_is_not_said_to_be_the_posters(engine, wording, kin, pay, period, x, paye):
    out = _answer(engine, wording.format(kin=kin, pay=pay, p=period, x=x))
    first = out["answer"].split("\n\n")[0]
    assert _verdict(out) is None, first
    assert not re.search(r"\byou take home\b|\byour take-home\b|\byou keep\b", first), first
    figures = re.findall(r"PAYE is \*\*(\$[\d,.]+)\*\*", first)
    assert all(f == paye for f in figures), first
