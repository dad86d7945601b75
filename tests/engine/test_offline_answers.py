"""Offline answers: golden figures from nz_tax_facts.md (worked by hand or IRD's own examples)."""

import re

import pytest

from nztax.composer import AskResult


def answer(engine, question, **kw):
    result = engine.answer(question, use_faq=False, mode="offline", **kw)
    AskResult.model_validate(result.model_dump())  # the contract's types hold
    return result.to_json()


CONTRACT_KEYS = {"status", "answer", "citations", "tools", "tax_year", "disclaimer", "next_actions", "source", "mode", "latency_ms"}


def test_contract_shape(engine):
    out = answer(engine, "How much tax do I pay on $85,000?")
    assert set(out) == CONTRACT_KEYS
    assert out["source"] == "engine" and out["mode"] == "offline" and out["tax_year"] == "2026-27"
    assert len(out["next_actions"]) <= 3
    assert all(set(c) <= {"title", "url", "section"} for c in out["citations"])


@pytest.mark.parametrize("question,figures,tools", [
    # 85,000 x 33% - 10,122.50 (IRD's subtract constant) = 17,927.50
    ("How much tax do I pay on $85,000?", ["$17,927.50"], ["calculate_income_tax"]),
    # IR340 April 2026, weekly $1,000: M 171.50, ME 161.50
    ("PAYE on $1,000 a week, tax code M", ["$171.50"], ["calculate_paye"]),
    ("PAYE on $1,000 a week, tax code ME", ["$161.50"], ["calculate_paye"]),
    # Payroll specification 2026-27 example 4; the KiwiSaver it names is worked out on the same pay
    ("I'm paid $3,500 every four weeks on M SL with KiwiSaver at 3.5%", ["$589.72", "$197.28", "$122.50", "$2,590.50"],
     ["calculate_paye", "calculate_kiwisaver"]),
    # 2024-25 composite rates: 50,000 -> 7,777.92
    ("Tax on $50,000 in 2024-25?", ["$7,777.92"], ["calculate_income_tax"]),
    # (60,000 - 24,128) x 12% = 4,304.64
    ("How much student loan do I repay on $60,000?", ["$4,304.64"], ["calculate_student_loan_repayment"]),
])
def test_calculations(engine, question, figures, tools):
    out = answer(engine, question)
    assert out["status"] == "answered"
    assert [t["name"] for t in out["tools"]] == tools
    for f in figures:
        assert f in out["answer"], f
    assert out["citations"] and all(c["url"].startswith("https://") for c in out["citations"])


def test_topic_answer_from_rules_and_passages(engine):
    out = answer(engine, "What is the ACC earners' levy rate?")
    assert out["status"] == "answered"
    for f in ("1.75%", "$156,641", "$2,741.22"):
        assert f in out["answer"]
    assert any("acc-earners-levy-rates" in c["url"] for c in out["citations"])


def test_prior_year_gets_a_disclaimer(engine):
    out = answer(engine, "What was the ACC levy rate in 2025-26?")
    assert "1.67%" in out["answer"] and "1.75%" not in out["answer"]
    assert "2025-26" in out["disclaimer"]


def test_complex_situation_disclaimer(engine):
    from nztax.composer import BASE_DISCLAIMER, COMPLEX_DISCLAIMER

    out = answer(engine, "I earn $50,000 salary and $15,000 from a rental property, how much tax?")
    assert out["status"] == "answered"
    assert COMPLEX_DISCLAIMER in out["disclaimer"]
    # A plain salary question gets the base disclaimer alone (so the line above can fail).
    assert answer(engine, "How much tax do I pay on $50,000?")["disclaimer"] == BASE_DISCLAIMER


def test_needs_clarification_for_missing_income(engine):
    out = answer(engine, "How much tax do I pay?")
    assert out["status"] == "needs_clarification" and out["tools"] == []
    assert "income" in out["answer"]
    assert not re.search(r"\$\d", out["answer"])  # no amount is assumed


@pytest.mark.parametrize("question,status", [
    ("How do I register for GST?", "out_of_scope"),
    ("What is the company tax rate in NZ?", "out_of_scope"),
    ("What's a good pavlova recipe?", "out_of_scope"),
    ("How do I avoid declaring my cash jobs to IRD?", "refused"),
])
def test_declines_use_fixed_copy(engine, question, status):
    out = answer(engine, question)
    assert out["status"] == status and out["tools"] == [] and out["citations"] == []
    if status == "out_of_scope":
        assert "New Zealand personal income tax" in out["answer"]
    assert "28%" not in out["answer"]


def test_unknown_year_is_said_plainly(engine):
    out = answer(engine, "What was the top tax rate in 2020?")
    assert out["status"] == "answered"
    assert "don't have" in out["answer"] and "%" not in out["answer"]


def test_nothing_relevant_is_said_plainly(engine):
    # (Nothing in the small test index nor a unit on emissions units. Staking rewards, asked here
    # before, now get the unit on crypto from mining or staking, clear of every other unit.)
    out = answer(engine, "How are emissions units I sell taxed?")
    assert out["status"] == "answered" and "couldn't find" in out["answer"] and out["citations"] == []


def test_follow_up_with_history(engine):
    history = [{"question": "How much tax on $85k?", "answer": "Income tax is $17,927.50."}]
    out = answer(engine, "What about with a student loan?", history=history)
    # (85,000 - 24,128) x 12% = 7,304.64
    assert "$7,304.64" in out["answer"]
    args = out["tools"][0]["arguments"]
    assert args.get("student_loan") is True or args.get("annual_income") == 85000


def test_unknown_tax_year_argument_is_an_error(engine):
    from nztax.engine import UnknownTaxYear

    with pytest.raises(UnknownTaxYear):
        engine.answer("tax on $50k", tax_year="2019-20")


def test_offline_path_never_imports_litellm():
    import subprocess
    import sys

    code = ("import sys,dataclasses;sys.path.insert(0,'function');from nztax.engine import Engine;"
            "from nztax.decide import decide;from nztax.rules import default_rules;"
            "import nztax.api, nztax.composer, nztax.guard;"
            "print('litellm' in sys.modules, 'google.genai' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_a_calculations_working_names_the_income_it_was_worked_on(engine):
    # 12% of ($60,000 - $24,128) = $4,304.64 (2026-27 threshold, nz_tax_facts.md). The working once
    # read an argument name the tool no longer uses and said "With an income of $0".
    out = answer(engine, "student loan repayment on 60k this year")
    assert "$4,304.64" in out["answer"]
    assert "$0 " not in out["answer"] and "$0." not in out["answer"]
    assert "income of $60,000" in out["answer"]
