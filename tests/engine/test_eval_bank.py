"""The held-out evaluation: a fixed split, and a wrong-figure count that can catch what it claims."""

from pathlib import Path

import yaml

from nztax_build.evaluate_answers import Scenario, score
from nztax_build.splits import split_of

ROOT = Path(__file__).resolve().parents[2]


def result(answer: str, status: str = "answered", tools=()):
    return {"status": status, "answer": answer, "tools": [{"name": t} for t in tools], "citations": [], "latency_ms": 1}


def test_the_split_was_made_once_and_does_not_move():
    # Pinned when the bank was split (24 Nov 2026): 191 of 469 questions are the frozen test part.
    # A changed hash or share would move questions between the parts and this fails.
    bank = yaml.safe_load((ROOT / "tests" / "golden" / "question_bank.yaml").read_text(encoding="utf-8"))["questions"]
    assert [split_of(q["id"]) for q in bank].count("test") == 191 and len(bank) == 469


def test_a_forbidden_figure_counts_as_a_wrong_figure():
    s = Scenario(id="x", category="c", question="q", status="answered", figures=["$520"], forbidden=["$1,040"])
    assert score(s, result("The IETC is worth $520.")).wrong_figure is False
    assert score(s, result("It is $1,040 and $520.")).wrong_figure is True


def test_calculating_instead_of_asking_counts_as_a_wrong_figure():
    s = Scenario(id="x", category="c", question="q", status="needs_clarification")
    assert score(s, result("Tax is $5.78.", tools=["calculate_income_tax"])).wrong_figure is True
    assert score(s, result("How much do you earn?", status="needs_clarification")).wrong_figure is False


def test_codes_and_dates_are_matched_as_whole_words():
    s = Scenario(id="x", category="c", question="q", status="answered", figures=["SH", "7 July"])
    assert score(s, result("Use **SH** by 7 July.")).facts_hit == 2
    assert score(s, result("SHE said 17 July.")).facts_hit == 0


def test_a_figure_below_the_first_paragraph_is_found_but_not_in_the_lead():
    """Outside checks read only the first paragraph: a figure further down counts for `facts` only."""
    s = Scenario(id="x", category="c", question="q", status="answered", figures=["$520"])
    lower = score(s, result("The credit depends on your income.\n\nIt is worth $520 a year."))
    assert lower.facts_hit == 1 and lower.lead_facts_hit == 0
    first = score(s, result("The credit is worth $520 a year.\n\nIt depends on your income."))
    assert first.facts_hit == 1 and first.lead_facts_hit == 1
