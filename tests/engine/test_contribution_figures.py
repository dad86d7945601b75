"""Money put into a scheme or an account is never income (issue 36: a wrong figure is worse than none).

A metamorphic family: verbs of contributing x schemes and accounts x ways of writing the figure (hedged,
in words, in thousands, two alternatives "X or Y") x with and without an income sentence. The figure put in
is never read as an income, nor fills an income field of a calculation or a link; the income sentence's
figure still is an income."""

from __future__ import annotations

import itertools

import pytest

from nztax.money_reader import find_money

VERBS = ["I contributed {f} to {s}", "I may have contributed {f} to {s}", "I think I put in about {f} to {s}",
         "I put {f} into {s}", "I've chucked in {f} to {s}", "I deposited {f} into {s}", "I topped up {s} with {f}",
         "My contributions to {s} were {f}", "I paid {f} into {s}"]
SCHEMES = ["kiwisaver", "my super fund", "my savings account"]
FIGURES = {"$800": {800}, "800 dollars": {800}, "$1.2k": {1200}, "$800 or $900": {800, 900}, "about $800": {800}}
INCOME = "I earn $60,000 a year. "
ASKS = ["Do I get the government contribution?", "How much tax will I pay?"]
INCOME_FIELDS = {"gross_pay", "annual_income", "taxable_income", "total_annual_income", "esct_threshold_income"}


@pytest.mark.parametrize("verb,scheme", list(itertools.product(VERBS, SCHEMES)))
def test_family_money_put_in_is_never_income(verb, scheme):
    for (figure, values), income, ask in itertools.product(FIGURES.items(), ("", INCOME), ASKS):
        text = f"{income}{verb.format(f=figure, s=scheme)} this year. {ask}"
        amounts = find_money(text)
        assert not [a for a in amounts if a.is_income and a.value in values], (text, amounts)
        assert {a.value for a in amounts if a.value in values} == values, (text, amounts)
        if income:
            assert [a.value for a in amounts if a.is_income] == [60000], (text, amounts)


@pytest.mark.parametrize("text,roles", [
    # Alternatives of one figure share the kind their words give either of them.
    ("I paid $800 or $900 into kiwisaver.", ["contribution", "contribution"]),
    ("I contributed $800 or maybe $900 to my super fund. Do I get the government contribution?", ["contribution", "contribution"]),
    # Not alternatives: two figures of different sizes keep their own readings.
    ("I contributed $800 or my whole $60,000 salary? Do I get the government contribution?", ["contribution", "income"]),
    # Money put in where no KiwiSaver is named is no contribution of the person's own, nor income.
    ("I put in $800 to my savings account. How much tax do I pay?", ["other"]),
    # Put in each period, the period between the figure and the scheme.
    ("I earn $900 a week and put $50 a week into kiwisaver.", ["income", "contribution"]),
    # A pay paid into an account is still a pay.
    ("I get paid $900 into my savings account each fortnight. How much PAYE?", ["income"]),
    ("I earn $900 a week into my savings account. How much tax?", ["income"]),
])
def test_alternatives_and_accounts(text, roles):
    assert [a.role for a in find_money(text)] == roles


@pytest.mark.parametrize("question,field,worked", [
    ("I may have contributed $800 or $900 to kiwisaver this year, do I get the government contribution?",
     "member_contributions", 800.0),
    ("I donated $100 or $150 to the Red Cross, how much do I get back?", "donations", 100.0),
])
def test_engine_never_adds_two_figures_given_for_one_amount(engine, question, field, worked):
    decision, _ = engine.understand(question, None, None)
    assert [a[field] for _, a in decision.calls if field in a] == [worked], decision.trace.to_json()


@pytest.mark.parametrize("question", [
    "I may have contributed $800 or $900 to kiwisaver this year, do I get the government contribution?",
    "I think I put in about $500 to kiwisaver. How much will the government put in?",
    "My contributions to my super fund were $800 this year. How much tax will I pay?",
    "I earn $60,000 a year. I topped up my super fund with $1.2k this year. How much tax will I pay?",
])
def test_engine_never_works_or_links_money_put_in_as_income(engine, question):
    decision, _ = engine.understand(question, None, None)
    put_in = {800.0, 900.0, 500.0, 1200.0}
    args = [a for _, a in decision.calls] + [a for _, a in decision.handed_over]
    assert not [(k, v) for a in args for k, v in a.items() if k in INCOME_FIELDS and v in put_in], decision.trace.to_json()
