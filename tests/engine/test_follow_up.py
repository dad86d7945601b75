"""A conversation that follows on (issue 41): each follow-up changes one thing and keeps the rest.

Figures: IR340 April 2026 (weekly $1,000 on M: PAYE 171.50; student loan over the $464 weekly
threshold at 12%: 64.32) and the 2026-27 PAYE method (nz_tax_facts.md section on the spec): a
fortnightly pay is worked as its weekly equivalent, times two, truncated.
"""

from __future__ import annotations

from nztax.follow_up import conversation, lay_over
from nztax.rules import default_rules
from nztax.slots import read_slots


def ask_through(engine, questions):
    history, results = [], []
    for q in questions:
        result = engine.answer(q, history=history, use_faq=False, mode="offline")
        results.append(result)
        history.append({"question": q, "answer": result.answer})
    return results


def test_three_turns_amount_then_period_then_student_loan(engine):
    first, second, third = ask_through(engine, ["How much PAYE is taken from $1,000 a week?", "what if it's fortnightly?",
                                                "and with a student loan?"])
    assert "$171.50" in first.answer, first.answer[:300]
    # $1,000 a fortnight = $500 a week: A = 26,000; (15,600 x 10.5% + 10,400 x 17.5% + 26,000 x 1.75%) / 52 = 75.25; x 2
    assert "$150.50" in second.answer, second.answer[:300]
    paye = [t for t in second.tools if t.name == "calculate_paye"]
    assert paye and paye[0].arguments["gross_pay"] == 1000 and paye[0].arguments["pay_frequency"] == "fortnightly"
    # The same pay with a student loan: (1,000 - 928 fortnightly threshold) x 12% = 8.64; PAYE unchanged.
    assert "$8.64" in third.answer and "$150.50" in third.answer, third.answer[:300]


def test_a_follow_up_changes_the_amount_and_keeps_the_rest(engine):
    first, second = ask_through(engine, ["How much PAYE is taken from $1,000 a week on M SL?", "what about $880?"])
    assert "$171.50" in first.answer and "$64.32" in first.answer, first.answer[:300]
    # IR335 (Sept 2026): weekly $880 on M is 148.40; the student loan stays: (880 - 464) x 12% = 49.92.
    assert "$148.40" in second.answer and "$49.92" in second.answer, second.answer[:300]


def test_a_pay_moves_to_a_new_period_but_a_years_amount_keeps_its_year():
    rules = default_rules()
    pay = lay_over(read_slots("what if it's fortnightly?", rules), read_slots("PAYE on $1,200 a week", rules))
    assert [(a.value, a.period) for a in pay.amounts] == [(1200, "fortnightly")]
    view = lay_over(read_slots("and fortnightly?", rules), read_slots("PAYE on $1,200 a week", rules), changes_situation=False)
    assert [(a.value, a.period) for a in view.amounts] == [(1200, "weekly")] and view.asked_period == "fortnightly"
    year = lay_over(read_slots("and per week?", rules), read_slots("how much tax on $85,000", rules))
    assert [(a.value, a.period) for a in year.amounts] == [(85000, "annual")] and year.asked_period == "weekly"


def test_a_question_that_stands_alone_starts_a_new_conversation():
    rules = default_rules()
    history = [{"question": "How much PAYE is taken from $1,000 a week?"}]
    read = conversation("What is the top tax rate in New Zealand this year?", history, rules, "2026-27")
    assert not read.continues and not read.slots.amounts


def test_a_statement_answers_the_turn_before():
    """"my main job is 55k" after a second-job question asks nothing: it continues that question."""
    rules = default_rules()
    history = [{"question": "What tax code should I use for my second job of $20,000?"}]
    read = conversation("my main job is 55k", history, rules, "2026-27")
    assert read.continues and read.text.startswith("What tax code should I use for my second job")
    # The main job's amount joins the second job's; neither replaces the other.
    assert sorted(a.value for a in read.slots.amounts) == [20000, 55000]
