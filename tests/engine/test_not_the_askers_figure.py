"""A figure that is not surely the asker's is never worked (issue 36: a wrong figure is worse than none).

Metamorphic families: another person's pay put before a rate question (income tax, ACC levy, student
loan) is never the figure a calculation runs on, nor a link's; a threshold, a limit or a cap named as the
only figure is the rule's line, never an income; and the controls: the same question with "I earn" still
calculates, and one whose asking sentence names the other person works their figure."""

from __future__ import annotations

from decimal import Decimal

import pytest

from nztax.slots import read_slots

RATE_QUESTIONS = {
    "calculate_income_tax": "What's the top income tax rate?",
    "calculate_acc_levy": "What is the ACC levy rate for 2024-25?",
    "calculate_student_loan_repayment": "What is the student loan repayment rate?",
}
OTHERS = ["My brother makes {x}.", "My partner's friend earns {x}.", "My flatmate earns {x}.", "A friend of mine earns {x}.",
          # (a prefixed word is not spelt into the bare one: "coworker" was read as "worker", the asker)
          "A coworker of mine earns {x}.", "My coworker earns {x}.", "My coworker makes {x}.",
          # (the words name another person; the learned reading leaning to the partner or the asker fills no link)
          "My colleague is on {x} a year.", "My wife earns {x}.",
          # (people words in the plural, made when kin_words is read: "children", "coworkers")
          "Two coworkers of mine earn {x}.", "My children earn {x}."]


def _decided(engine, question):
    decision, _ = engine.understand(question, None, None)
    return decision


def _figures(decision) -> set[float]:
    """Every figure a decision works on or links: its calls' and its handed-over links' arguments."""
    args = [a for _, a in decision.calls] + [a for _, a in decision.handed_over]
    return {float(v) for a in args for v in a.values() if isinstance(v, (int, float)) and not isinstance(v, bool)}


@pytest.mark.parametrize("tool", sorted(RATE_QUESTIONS))
@pytest.mark.parametrize("other", OTHERS)
def test_family_another_persons_pay_before_a_rate_question_is_never_worked(engine, tool, other):
    d = _decided(engine, f"{other.format(x='$85,000')} {RATE_QUESTIONS[tool]}")
    assert d.action != "calculate" and not d.rule_results, d.trace.to_json()
    assert 85000.0 not in _figures(d), d.trace.to_json()


@pytest.mark.parametrize("tool", sorted(RATE_QUESTIONS))
def test_control_the_askers_own_pay_before_the_same_question_is_worked(engine, tool):
    d = _decided(engine, f"I earn $85,000. {RATE_QUESTIONS[tool]}")
    assert d.action == "calculate" and tool in [name for name, _ in d.calls], d.trace.to_json()
    assert 85000.0 in _figures(d)


def test_control_a_question_that_asks_about_the_other_person_works_their_pay(engine):
    d = _decided(engine, "My brother makes $85,000. How much income tax does he pay?")
    assert d.action == "calculate" and 85000.0 in _figures(d), d.trace.to_json()


@pytest.mark.parametrize("question,value", [
    ("I'm investing over the 50k FIF threshold. How much tax will I pay?", 50000),
    ("Over the $50,000 FIF threshold, what is my tax?", 50000),
    ("I have gone over the 50k FIF threshold. What tax do I pay on it?", 50000),
    ("I would be investing over the 50k FIF threshold. Is my understanding correct?", 50000),
    ("Is the $50k FIF threshold based on what I paid or what the shares are worth?", 50000),
    ("The de minimis threshold of $50,000: how is my income tax worked out?", 50000),
])
def test_family_a_threshold_named_as_the_only_figure_is_never_worked(engine, question, value):
    d = _decided(engine, question)
    assert not d.calls and not d.rule_results and float(value) not in _figures(d), d.trace.to_json()


@pytest.mark.parametrize("text,figure", [
    ("I would be investing over the 50k FIF threshold.", "50k"),
    ("staying under the $50,000 exemption limit", "$50,000"),
    ("Is the FIF threshold $50,000?", "$50,000"),
    ("the limit is $1,000 and I earn $50,000", "$1,000"),
])
def test_the_number_grammar_reads_a_named_threshold_as_the_rules_line(engine, text, figure):
    amounts = {a.text: a for a in read_slots(text, engine.rules).amounts}
    assert amounts[figure].role == "threshold"
    # (An income beside it is still an income.)
    assert all(a.role == "income" for a in amounts.values() if a.value == Decimal(50000) and "earn" in text)
