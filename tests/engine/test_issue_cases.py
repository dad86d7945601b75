"""The questions quoted in issue 11, answered as asked. Golden figures are worked by hand from
nz_tax_facts.md (IRD's bands, the payroll specification's method), never read off the engine."""

import pytest


def ask(engine, question, history=None):
    return engine.answer(question, history=history, use_faq=False, mode="offline").to_json()


def tools(out):
    return [(t["name"], t["arguments"]) for t in out["tools"]]


def test_a_form_number_is_not_an_income(engine):
    out = ask(engine, "How do I file my US 1040 as an American living in Auckland?")
    assert not out["tools"] and "$109.20" not in out["answer"]  # 1,040 x 10.5% would be 109.20


def test_a_claimed_credit_is_checked_not_computed(engine):
    out = ask(engine, "My friend says the IETC is worth $1,040 a year now. Is that right?")
    assert out["status"] == "answered" and "$520" in out["answer"]
    assert not any(args.get("annual_income") == 1040 for _, args in tools(out))


def test_a_yearly_salary_asked_per_fortnight(engine):
    out = ask(engine, "I earn $70,000 and contribute 3% to KiwiSaver. How much comes out of each fortnightly pay?")
    calls = dict(tools(out))
    # 70,000 / 26 = 2,692.307... -> 2,692.30 a fortnight; 3% of it = 80.769 -> 80.76.
    args = calls["calculate_paye"]
    assert args["pay_frequency"] == "fortnightly" and args["gross_pay"] == 2692.30
    # KiwiSaver, which the question names, is worked out on the same fortnightly pay.
    assert calls["calculate_kiwisaver"]["pay_frequency"] == "fortnightly" and calls["calculate_kiwisaver"]["gross_pay"] == 2692.30
    assert "$2,692.30" in out["answer"] and "$80.76" in out["answer"]
    assert "39%" not in out["answer"]  # the ESCT top rate a $70,000 fortnight would give


def test_two_jobs_with_a_student_loan_get_one_sl(engine):
    out = ask(engine, "Main salary $170,000, second employer pays me $20,000, and I have a student loan. "
                      "What tax code for the second job?")
    ((name, args),) = tools(out)
    assert name == "choose_secondary_tax_code" and args["total_annual_income"] == 190000 and args["student_loan"]
    # Over $180,000 in total: SA; with a student loan: SA SL.
    assert "SA SL" in out["answer"] and "SL SL" not in out["answer"]


def test_the_period_asked_about_is_answered(engine):
    out = ask(engine, "What will my monthly take-home pay be on $65,000?")
    calls = tools(out)
    assert calls and all(args["pay_frequency"] == "monthly" for _, args in calls)
    assert "a month" in out["answer"].split("\n")[0] and "fortnight" not in out["answer"].split("\n")[0]


def test_hourly_pay_for_a_year_is_a_year(engine):
    out = ask(engine, "$45 an hour, 40 hours a week, 52 weeks: income tax in a year?")
    ((name, args),) = tools(out)
    # 45 x 40 x 52 = 93,600; 93,600 x 33% - 10,122.50 = 20,765.50.
    assert name == "calculate_income_tax" and args["taxable_income"] == 93600
    assert "$20,765.50" in out["answer"]


def test_a_tax_code_question_gets_a_code(engine):
    out = ask(engine, "What tax code goes on my IR330 for my only job at $55,000?")
    assert out["status"] == "answered"
    assert not any(name == "calculate_income_tax" for name, _ in tools(out))
    # $55,000 is inside the IETC range ($24,000 - $70,000): ME, unless WFF or a benefit.
    assert "**ME**" in out["answer"]


@pytest.mark.parametrize("question,opening", [
    ("Do I pay ACC levy on interest or rent?", "No."),
    ("Can I deduct my home office as an employee?", "No."),
    ("What's the tax-free threshold?", "No."),
    ("Is my whole salary taxed at 39% past $180,000?", "No."),
])
def test_misconceptions_are_answered_first(engine, question, opening):
    out = ask(engine, question)
    assert out["status"] == "answered" and out["answer"].startswith(opening), out["answer"][:200]
    assert not out["tools"]


def test_no_tax_free_threshold_says_where_tax_starts(engine):
    assert "10.5%" in ask(engine, "What's the tax-free threshold?")["answer"].split("\n")[0]


def test_capital_gains_question_says_there_is_no_general_cgt(engine):
    first = ask(engine, "What's NZ's capital gains tax rate on shares?")["answer"].split("\n")[0]
    assert "no general capital gains tax" in first


def test_the_government_contribution_is_stated_not_asked_for(engine):
    out = ask(engine, "How much does the government put into my KiwiSaver?")
    assert out["status"] == "answered" and "$260.72" in out["answer"].split("\n")[0]


def test_a_pay_that_makes_no_sense_for_its_period_is_questioned(engine):
    out = ask(engine, "my fortnightly pay is $70,000, how much tax?")
    assert out["status"] == "needs_clarification" and not out["tools"]


def test_an_amount_with_a_space_is_read_whole(engine):
    # 85,000 x 33% - 10,122.50 = 17,927.50 (and not the tax on $85).
    assert "$17,927.50" in ask(engine, "tax on $85 000")["answer"]


def test_a_request_for_a_fake_receipt_is_refused_not_computed(engine):
    out = ask(engine, "Can you make me a fake donation receipt for $3,000 so I get $1,000 back?")
    assert out["status"] == "refused" and not out["tools"]
