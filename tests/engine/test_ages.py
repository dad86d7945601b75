"""Rules that depend on the person's age: the age grammar (ages.py), the conditions in data
(applies.py, data/applies_when.yaml) and the Ask box never serving a rule or figure for an age it
does not hold for. Every age tested is worked out from the year's rules data, not written here."""

from __future__ import annotations

import pytest

from nztax import applies
from nztax.ages import Age, read_ages
from nztax.rules import default_rules
from nztax.say import pct

YEARS = ["2023-24", "2024-25", "2025-26", "2026-27"]


@pytest.mark.parametrize("text,ages", [
    ("My {n}-year-old has a part-time job", [(0, 0)]),
    ("my {n} year old son", [(0, 0)]),
    ("she is {n}, and works weekends", [(0, 0)]),
    ("aged {n}", [(0, 0)]),
    ("Can under-{n}s join?", [(None, 0)]),
    ("I work {n} hours a week", []),
    ("the year I turn {n}", []),
    ("will it be paid just to age {n}?", []),
    ("tax of under {n}% on it", []),
])
@pytest.mark.parametrize("n", [15, 17, 66])
def test_the_age_grammar_reads_a_stated_age_and_not_other_numbers(text, ages, n):
    want = tuple(Age(0 if low is None else n + low, n + high - (1 if low is None else 0)) for low, high in ages)
    assert read_ages(text.format(n=n)) == want


@pytest.mark.parametrize("year", YEARS)
def test_the_employer_rule_follows_the_years_ages(year):
    rules = default_rules().years[year]
    ks = rules.data.kiwisaver
    employer = next(c for c in applies.conditions() if c.name == "employer_contribution")
    assert applies.side(employer.bounds, Age(ks.employer_min_age - 1, ks.employer_min_age - 1), rules) == "younger"
    assert applies.side(employer.bounds, Age(ks.employer_min_age, ks.employer_min_age), rules) == "inside"
    assert applies.side(employer.bounds, Age(ks.employer_max_age, ks.employer_max_age), rules) == "older"
    # A range that may fall either side is not held against an answer.
    assert applies.side(employer.bounds, Age(0, ks.employer_min_age), rules) is None


def test_the_age_a_figure_holds_from_changed_for_16_and_17_year_olds():
    """The 2025 Budget change: compulsory employer contributions for 16 and 17 year olds from
    1 April 2026, so a 16-year-old is outside the rule in 2025-26 and inside it in 2026-27."""
    rules = default_rules().years
    assert rules["2025-26"].data.kiwisaver.employer_min_age > rules["2026-27"].data.kiwisaver.employer_min_age


def test_every_condition_names_units_that_exist_and_hold_on_their_side(bank):
    by_id = {u.id: u for u in bank.units}
    rules = default_rules().years["2026-27"]
    for condition in applies.conditions():
        figures = {bound: applies._figure(v, rules) for bound, v in condition.bounds}
        for side, bound, age in (("younger", "age_min", -1), ("older", "age_under", 0)):
            if bound not in figures:
                assert getattr(condition, side) is None, (condition.name, side)
                continue
            age += figures[bound]
            unit = by_id.get(getattr(condition, side))
            assert unit is not None, (condition.name, side)
            assert applies.allowed(unit, (Age(age, age),), rules), (condition.name, side)


def test_a_unit_stating_an_age_bound_figure_is_held_back_outside_those_ages(bank):
    rules = default_rules().years["2026-27"]
    young = rules.data.kiwisaver.employer_min_age - 1
    stating = [u for u in bank.units if u.lead and "{employer_min}" in u.lead]
    assert stating
    for unit in stating:
        assert not applies.allowed(unit, (Age(young, young),), rules), unit.id
        assert applies.allowed(unit, (Age(30, 30),), rules), unit.id
        assert applies.allowed(unit, (), rules), unit.id


def first_paragraph(out: dict) -> str:
    return out["answer"].split("\n\n")[0]


EMPLOYER_QUESTIONS = ["Does my employer have to contribute to my KiwiSaver?",
                      "What is the minimum employer KiwiSaver contribution?",
                      "How much does my employer have to pay into my KiwiSaver?"]
AGE_SENTENCES = ["I'm {n}.", "My son is {n}, and he has a part-time job.", "Asking for my {n} year old."]


@pytest.mark.parametrize("question", EMPLOYER_QUESTIONS)
@pytest.mark.parametrize("stated", AGE_SENTENCES)
def test_the_employer_minimum_is_never_served_to_someone_too_young_for_it(engine, question, stated):
    """Metamorphic: the same question, with an age stated before or after it. Below the year's
    employer age the answer's first paragraph never gives the employer's compulsory rate; an answer
    says the age rule instead (the year's employer age), or asks back what it needs."""
    rules = default_rules().years["2026-27"]
    young = rules.data.kiwisaver.employer_min_age - 1
    for text in (f"{question} {stated.format(n=young)}", f"{stated.format(n=young)} {question}"):
        out = engine.answer(text, use_faq=False, mode="offline").to_json()
        opening = first_paragraph(out)
        assert f"at least {pct(rules.data.kiwisaver.employer_minimum_rate)}" not in opening, (text, opening[:120])
        if out["status"] == "answered":
            assert str(rules.data.kiwisaver.employer_min_age) in opening, (text, opening[:120])


@pytest.mark.parametrize("form", ["Can my {n} year old get the KiwiSaver government contribution?",
                                  "How much government contribution does a {n}-year-old KiwiSaver member get?"])
def test_the_government_contribution_is_not_promised_below_its_age(engine, form):
    rules = default_rules().years["2026-27"]
    gc = rules.data.government_contribution
    out = engine.answer(form.format(n=gc.min_age - 1), use_faq=False, mode="offline").to_json()
    opening = first_paragraph(out)
    assert not opening.startswith("Yes"), opening[:120]
    assert f"{gc.maximum:,.2f}" not in opening, opening[:120]


@pytest.mark.parametrize("stated", AGE_SENTENCES)
def test_joining_through_the_employer_is_never_offered_to_someone_too_young_for_it(engine, stated):
    """Metamorphic: below the age a member may join through their employer (IRD's "Joining KiwiSaver"
    page), the casual worker's answer does not offer the employer's way in; it gives the age's rule."""
    question = "Does an employer have to auto-enrol casual workers who get holiday pay with their wages?"
    rules = default_rules().years["2026-27"]
    join_age = rules.data.kiwisaver.employer_join_min_age
    for age, held_back in ((join_age - 1, True), (join_age + 12, False)):
        out = engine.answer(f"{stated.format(n=age)} {question}", use_faq=False, mode="offline").to_json()
        opening = first_paragraph(out)
        assert ("through the employer" not in opening) == held_back, (age, opening[:120])
        if held_back and out["status"] == "answered":
            assert f"Under {join_age}" in opening, opening[:120]


# -- a situation that suspends a rule: a savings suspension stops the employer's compulsory contribution

SUSPENDED = ["I've suspended my KiwiSaver contributions.", "I'm on a KiwiSaver savings suspension at the moment.",
             "I'm taking a contributions holiday from KiwiSaver."]


def test_a_condition_a_situation_suspends_names_a_unit_that_holds_in_it(bank):
    by_id = {u.id: u for u in bank.units}
    rules = default_rules().years["2026-27"]
    for condition in applies.conditions():
        if condition.not_during:
            unit = by_id.get(condition.during)
            assert unit is not None and applies.allowed(unit, (), rules, condition.not_during), condition.name


@pytest.mark.parametrize("question", [*EMPLOYER_QUESTIONS, "What rate is my employer's compulsory KiwiSaver contribution?",
                                      "I earn $60,000. How much will my employer put into my KiwiSaver?"])
@pytest.mark.parametrize("stated", SUSPENDED)
def test_family_the_employer_minimum_is_never_stated_as_theirs_during_a_savings_suspension(engine, question, stated):
    """Metamorphic: the same question with a savings suspension said before it. The opening never
    gives the employer's compulsory rate nor works out the employer's contribution as theirs."""
    rules = default_rules().years["2026-27"]
    rate = f"at least {pct(rules.data.kiwisaver.employer_minimum_rate)}"
    plain = engine.answer(question, use_faq=False, mode="offline").to_json()
    # (Without it: the rate, the sum, or a question back for the pay the sum needs.)
    assert rate in first_paragraph(plain) or plain["tools"] or plain["status"] == "needs_clarification", plain["answer"][:120]
    for use_faq in (False, True):
        out = engine.answer(f"{stated} {question}", use_faq=use_faq, mode="offline").to_json()
        opening = first_paragraph(out)
        assert rate not in opening and not out["tools"] and out["status"] == "answered", (use_faq, opening[:120])


def test_ending_a_savings_suspension_keeps_the_rule_after_it():
    assert applies.situations_in(["How do I end my KiwiSaver savings suspension early?"],
                                 "How do I end my KiwiSaver savings suspension early?") == frozenset()
    assert applies.situations_in(["How much does my employer pay?"],
                                 "I'm on a savings suspension. How much does my employer pay?") == {"savings_suspension"}
