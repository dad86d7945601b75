"""A range of money is one hedged figure, never a negative amount (issue 36).

A metamorphic family: ways of writing a range x what the money is (a pay, a contribution, a bill) x
the period said after it. The dash is never read as a minus sign, the two figures are never added up,
each takes the period said after the range, and a figure put into a scheme is never an income. Hand-worked
figures: $800 and $900 a week are $41,600 and $46,800 a year (x 52); $800 a month put in is $9,600 a year."""

from __future__ import annotations

import itertools

import pytest

from nztax.money_reader import find_money

# (how the range is written, its two figures)
RANGES = [("$800-$900", (800, 900)), ("$800 - $900", (800, 900)), ("$800–$900", (800, 900)),
          ("800-900 dollars", (800, 900)), ("$800-900", (800, 900)), ("$800 to $900", (800, 900)),
          ("between $800 and $900", (800, 900)), ("$5-6k", (5000, 6000)), ("$5k-$6k", (5000, 6000)),
          ("$5k - $6k", (5000, 6000))]
ROLES = {"income": "I earn {r} {p}. How much tax will I pay?",
         "contribution": "I'm putting {r} {p} into KiwiSaver. How much will the government add?",
         "bill": "My rent is {r} {p}. Can I claim it?"}
PERIODS = {"a week": "weekly", "a month": "monthly"}
NEGATIVE = "a negative amount"


@pytest.mark.parametrize("written,values", RANGES)
def test_family_a_range_is_one_hedged_figure(written, values):
    for (role, template), (said, period) in itertools.product(ROLES.items(), PERIODS.items()):
        text = template.format(r=written, p=said)
        amounts = find_money(text)
        assert [a.value for a in amounts] == list(values), (text, amounts)
        assert not [a for a in amounts if (a.questioned or "").startswith(NEGATIVE)], (text, amounts)
        assert {a.period for a in amounts} == {period}, (text, amounts)
        if role == "income":
            assert all(a.is_income for a in amounts), (text, amounts)
        else:
            # Not earned: never an income, and the second figure is set aside, so the two are never added.
            assert not [a for a in amounts if a.is_income], (text, amounts)
            assert amounts[1].questioned and not amounts[0].questioned, (text, amounts)


@pytest.mark.parametrize("text", ["I lost -$500 on shares this year.", "My rental made -$500 this year.",
                                  "My rental made minus $500 this year.", "My rental made a negative 500 dollars this year."])
def test_a_real_negative_stays_negative(text):
    assert [(a.questioned or "").startswith(NEGATIVE) for a in find_money(text)] == [True]


def test_a_figure_subtracted_from_another_is_no_negative():
    amounts = find_money("I earn $60,000 minus $5,000 in expenses.")
    assert [(a.value, (a.questioned or "").startswith(NEGATIVE)) for a in amounts] == [(60000, False), (5000, False)]


@pytest.mark.parametrize("text", ["In 2023-24 I earned $50,000.", "I earned $50,000 in 2023-24.", "On 12-05 I got paid $500."])
def test_a_tax_year_or_date_is_no_range(text):
    assert [a.value for a in find_money(text)] == [50000 if "50,000" in text else 500]


@pytest.mark.parametrize("question,field,values", [
    # A pay given as a range: both ends worked (as "X or Y" is), never their sum.
    ("I earn $800-$900 a week. How much tax will I pay?", "taxable_income", [41600.0, 46800.0]),
    ("I earn $50k-$60k a year. How much tax will I pay?", "taxable_income", [50000.0, 60000.0]),
    # A contribution given as a range: the first end is worked, the pay is the income.
    ("I'm thinking of saving $800-$900 a month into KiwiSaver. I earn $70,000. How much will I get from the government?",
     "member_contributions", [9600.0]),
])
def test_engine_works_a_range_never_as_a_loss_nor_a_sum(engine, question, field, values):
    decision, _ = engine.understand(question, None, None)
    assert [a[field] for _, a in decision.calls if field in a] == values, decision.trace.to_json()
