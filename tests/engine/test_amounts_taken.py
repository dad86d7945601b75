"""A calculator works only on the kinds of amount it takes (`amounts_taken` in data/decisions.yaml).

The decision-table facts on hand-made frames (each reading either side of its bar), then metamorphic
pairs through the engine: one figure as a gift and as a purchase, as a salary and as a balance or a price.
"""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

import pytest

from nztax.decision_rows import table
from nztax.decision_table import facts_of
from nztax.input_figures import not_taken
from nztax.frame import FrameAmount, QuestionFrame
from nztax.settings import get_settings


def _decision(tool: str, args: dict, role: str, value: Decimal):
    slots = SimpleNamespace(amounts=[SimpleNamespace(start=10, role=role, value=value, questioned=None, text="$40")],
                            questioned=[], annual=lambda a: a.value)
    return SimpleNamespace(action="calculate", intent=SimpleNamespace(copy="x", name="x"), calls=[(tool, args)],
                           slots=slots, classification=SimpleNamespace(confident=True), missing=[], rule_results={},
                           question="Q?", steps=[])


def _frame(role: str, kinds: dict) -> QuestionFrame:
    kind, sure = max(kinds.items(), key=lambda kv: kv[1])
    amount = FrameAmount("$40", 10, 13, Decimal(40), "annual", kind, sure, "me", 0.9, role, tuple(kinds.items()))
    return QuestionFrame(asks="figure", asks_sure=0.9, asking=("Q?",), asks_each=("figure",), amounts=(amount,),
                         tax_year=None, year_text=None, conditions=(), scope="nz_tax", scope_sure=0.9, scope_in=0.9)


DONATION = ("calculate_donation_tax_credit", {"donations": 40.0, "taxable_income": 40.0, "tax_year": "2026-27"})
INCOME_TAX = ("calculate_income_tax", {"annual_income": 40.0, "tax_year": "2026-27"})
KIWISAVER = ("calculate_kiwisaver", {"gross_pay": 40.0, "tax_year": "2026-27"})
KIWISAVER_GC = ("calculate_kiwisaver", {"gross_pay": 0.0, "member_contributions": 40.0, "tax_year": "2026-27"})


@pytest.mark.parametrize("call, role, kinds, taken", [
    # The grammar calls it a cost: the learned reading must be sure (0.7) it is a gift.
    (DONATION, "expense", {"price": 0.6, "contribution": 0.3, "income": 0.1}, False),
    (DONATION, "expense", {"price": 0.35, "contribution": 0.65}, False),
    (DONATION, "expense", {"price": 0.25, "contribution": 0.75}, True),
    # The grammar names a gift ("donated", "payroll giving"): taken, however the learned reading leans.
    (DONATION, "donation", {"income": 0.8, "contribution": 0.2}, True),
    # The grammar's income filling the gifts' input is no gift: the gift's kind is read.
    (DONATION, "income", {"income": 0.35, "contribution": 0.65}, False),
    # An income calculator on a figure the grammar names no kind: likely (0.5) is enough.
    (INCOME_TAX, "other", {"balance": 0.6, "income": 0.4}, False),
    (INCOME_TAX, "other", {"balance": 0.4, "income": 0.6}, True),
    (INCOME_TAX, "balance", {"balance": 0.4, "income": 0.6}, False),
    # A KiwiSaver sum's pay takes a pay, its member contributions a contribution: a figure leaning to a
    # contribution fills no pay ("contributed $800 or $900" was worked as a $900 pay).
    (KIWISAVER, "other", {"contribution": 0.35, "income": 0.3, "price": 0.35}, False),
    (KIWISAVER, "other", {"contribution": 0.3, "income": 0.55, "price": 0.15}, True),
    (KIWISAVER_GC, "other", {"contribution": 0.55, "income": 0.3, "price": 0.15}, True),
    (KIWISAVER_GC, "other", {"contribution": 0.3, "income": 0.55, "price": 0.15}, False),
])
def test_an_amount_is_worked_on_only_as_a_kind_its_input_takes(call, role, kinds, taken):
    decision = _decision(*call, role=role, value=Decimal(40))
    frame = _frame(role, kinds)
    facts = facts_of(decision, frame, get_settings())
    assert facts.inputs_taken is taken
    row = next(r for r in table().rows if facts.holds(r.when))
    assert (row.id == "amount_not_of_a_kind_taken") is (not taken), row.id


def test_the_kind_bar_is_a_setting():
    decision = _decision(*INCOME_TAX, role="other", value=Decimal(40))
    frame = _frame("other", {"price": 0.45, "income": 0.55})
    assert not not_taken(decision, frame, bar=0.5, sure_bar=0.7)
    assert not_taken(decision, frame, bar=0.6, sure_bar=0.7)


def test_a_reader_giving_only_its_likeliest_kind_counts_that_kind():
    # (LLM mode's frame gives one kind and how sure it is, no shares.)
    gift = FrameAmount("$40", 0, 3, Decimal(40), "annual", "contribution", 0.8, "me", 0.9)
    price = FrameAmount("$40", 0, 3, Decimal(40), "annual", "price", 0.8, "me", 0.9)
    assert gift.taken_as({"contribution"}) == 0.8 and price.taken_as({"contribution"}) == 0.0


# -- metamorphic pairs through the engine ------------------------------------------------------------

def _tools(engine, question):
    decision, _ = engine.understand(question, None, None)
    return [name for name, _ in decision.calls] if decision.action == "calculate" else []


@pytest.mark.parametrize("gift, purchase", [
    ("I gave $40 to a charity. Can I claim it?", "I bought raffle tickets for $40 from a charity. Can I claim them?"),
    ("I gave $60 to a school. How much can I get back?",
     "I bought $60 of chocolates from a school fundraiser. How much can I get back?"),
    ("I gave $200 to a charity this year. Is that claimable?",
     "I spent $200 at a charity auction on a painting. Is that claimable?"),
    ("I donated $150 to a charity. Can I claim a donation credit?",
     "I paid $150 for a charity gala dinner ticket. Can I claim a donation credit?"),
])
def test_a_gift_is_worked_and_the_same_sum_buying_something_is_not(engine, gift, purchase):
    assert _tools(engine, gift) == ["calculate_donation_tax_credit"]
    assert _tools(engine, purchase) == []


@pytest.mark.parametrize("other", ["My student loan balance is $85,000. How much tax do I pay?",
                                   "I bought a car for $85,000. How much tax do I pay?"])
def test_a_salary_is_worked_and_the_same_figure_owed_or_paid_is_not(engine, other):
    assert _tools(engine, "My salary is $85,000. How much tax do I pay?") == ["calculate_income_tax"]
    assert _tools(engine, other) == []
