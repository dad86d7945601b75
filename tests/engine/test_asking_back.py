"""Asking back for figures only when the question surely asks a figure and the amounts are what the
ask-back takes them for (docs/understanding.md, "Asking back only when the answer depends on it").

Three mechanisms, each as a family: what an asking sentence asks counts only when read surely, and a
check needs a figure to check; a statement's label naming what its figure sums ("PAYE total:") is the
same label as "Total PAYE:"; "each pay" with an object after it is a verb, not one of the pays.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from nztax.amount_grammar import EVERY_PAY
from nztax.frame import FrameAmount, QuestionFrame
from nztax.slots import read_slots


def _frame(asks_each, sure, amounts=()) -> QuestionFrame:
    return QuestionFrame(asks=asks_each[0], asks_sure=sure[0], asking=tuple(f"q{i}?" for i in range(len(asks_each))),
                         asks_each=tuple(asks_each), asks_each_sure=tuple(sure), amounts=tuple(amounts),
                         tax_year=None, year_text=None, conditions=(), scope="nz_tax", scope_sure=0.9)


def _amount(period="annual"):
    return FrameAmount("$500", 10, 14, Decimal(500), period, "income", 0.9, "me", 0.9, "income")


@pytest.mark.parametrize("asks_each, sure, amounts, asked", [
    (["figure"], [0.4], [], False),                       # read unsurely: it may not ask a figure
    (["figure"], [0.8], [], True),
    (["yes_no", "figure"], [0.97, 0.42], [_amount()], False),
    (["yes_no", "figure"], [0.97, 0.77], [_amount()], True),
    (["check", "yes_no"], [0.89, 0.99], [], False),       # nothing stated to check
    (["check", "yes_no"], [0.89, 0.99], [_amount(None)], False),   # a percentage is no figure to check
    (["check", "yes_no"], [0.89, 0.99], [_amount()], True),
])
def test_a_figure_is_asked_only_when_read_surely_and_a_check_only_of_a_stated_figure(asks_each, sure, amounts, asked):
    assert _frame(asks_each, sure, amounts).asks_figure_surely(0.7) is asked


STORY = ("My hours were cut last month, so I'm weighing up some weekend shifts at a cafe. My main employer "
         "takes PAYE off my wages already. Would the cafe money change the tax I owe?")


@pytest.mark.parametrize("asks, sure, asked_back", [
    ("figure", 0.4, False), ("figure", 0.65, False), ("figure", 0.75, True), ("figure", 0.95, True),
    ("how", 0.9, False), ("check", 0.9, False),
])
def test_a_story_is_asked_back_for_an_income_only_when_it_surely_asks_a_figure(engine, asks, sure, asked_back):
    # The same proposal (a question back for the poster's income) and frame, only the reading of what
    # the asking sentence asks and how sure it is changed: below the sure bar, the rule is answered.
    proposal, _ = engine._propose(STORY, None, None)
    proposal = replace(proposal, action="clarify", missing=["income"], calls=[])
    frame = replace(engine.read_frame(proposal), asks=asks, asks_sure=sure, asks_each=(asks,), asks_each_sure=(sure,),
                    scope="nz_tax", scope_sure=0.95, scope_in=0.95)
    assert frame.story
    d = engine.settle(proposal, frame, None)
    assert (d.action == "clarify") is asked_back, d.trace.to_json()


LABELS = ["PAYE", "PAYE deducted", "Tax withheld"]
SUMS = ["total", "totals", "YTD", "year to date", "to date", "so far", "for the year"]


@pytest.mark.parametrize("label", LABELS)
@pytest.mark.parametrize("summed", SUMS)
@pytest.mark.parametrize("joiner", [": ", " ", " = "])
def test_family_a_label_naming_its_sum_after_the_tax_is_the_tax_taken(engine, label, summed, joiner):
    # "Total PAYE: $X" and "PAYE total: $X" label the same figure: the tax taken, never a pay.
    text = f"Gross pay: $86,400.00\n{label} {summed}{joiner}$17,902.35\nAm I due a refund?"
    roles = {a.text: a.role for a in read_slots(text, engine.rules).amounts}
    assert roles.get("$17,902.35") == "deduction", roles
    assert roles.get("$86,400.00") == "income", roles


@pytest.mark.parametrize("text, one_of_the_pays", [
    ("the partners would each pay the rates bill", False),
    ("they each pay tax on their own income", False),
    ("we each pay no tax on it", False),
    ("you each pay an ACC levy", False),
    ("how much tax comes off each pay?", True),
    ("each pay is $2,000 before tax", True),
    ("I get $300 taken off every pay.", True),
    ("what is taken per payday", True),
])
def test_each_pay_as_a_verb_is_not_one_of_the_pays(text, one_of_the_pays):
    assert bool(EVERY_PAY.search(text)) is one_of_the_pays


@pytest.mark.parametrize("people", ["Ana and Ben", "My brother and his wife", "The two flatmates"])
@pytest.mark.parametrize("paying", ["each pay the full levy", "each pay tax of about $28k", "each pay more tax than me"])
def test_family_people_who_each_pay_tax_are_not_asked_how_often_they_are_paid(engine, people, paying):
    # The verb "pay" after "each" says who pays, not which pay: no pay period is asked about.
    d, _ = engine.understand(f"{people} earn $100k a year each. So they {paying}? How much is that?", None, None)
    assert "ask_backs.pay_frequency" not in d.steps, d.trace.to_json()


def test_one_of_the_pays_asked_still_asks_how_often(engine):
    d, _ = engine.understand("I earn $100k a year. How much tax comes off each pay?", None, None)
    assert "ask_backs.pay_frequency" in d.steps, d.trace.to_json()
