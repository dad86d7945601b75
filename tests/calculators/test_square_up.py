"""The year-end square-up: properties that must hold whatever the figures, and IRD's rules.

Expected values come from IRD's rules, never from this code: PAYE on the right code all year is
meant to square up to (about) nothing; the IETC an ME code gave is paid back when the year's income
is above the IETC range; IRD writes off an automatically calculated bill of $50 or less; the ACC
earners' levy is not part of the square-up (IRD: "total tax deductions ... excludes the ACC earners'
levy"); student loan deductions from pay are full and final, and other income carries 12% of it
(less any unused threshold) once it reaches $500 (IRD's student loan page).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from nztax.tools import call_tool

YEARS = ["2023-24", "2024-25", "2025-26", "2026-27"]
FREQUENCIES = ["weekly", "fortnightly", "four_weekly", "monthly"]
# Per-pay PAYE drops cents (whole-dollar gross, truncation) on every pay: at most about $1 a pay
# across two jobs, so a year on the right codes squares up within this.
ABOUT_NOTHING = 60.0


def square_up(**args) -> dict:
    result = call_tool("calculate_year_end_square_up", args)
    assert "error" not in result, result
    return result


def signed(r: dict) -> float:
    return {"bill": r["amount"], "refund": -r["amount"], "nothing": 0.0}[r["result"]]


@settings(max_examples=40, deadline=None)
@given(year=st.sampled_from(["2023-24", "2025-26", "2026-27"]), salary=st.integers(1_000, 300_000), frequency=st.sampled_from(FREQUENCIES))
def test_one_job_on_m_all_year_squares_up_to_about_nothing(year, salary, frequency):
    r = square_up(tax_year=year, salary_wages=salary, tax_code="M", pay_frequency=frequency)
    # On M the IETC, if the income is in its range, is claimed at the end of the year.
    assert abs(signed(r) + r["ietc"]) <= ABOUT_NOTHING


@settings(max_examples=40, deadline=None)
@given(year=st.sampled_from(["2025-26", "2026-27"]), salary=st.integers(70_000, 250_000), frequency=st.sampled_from(FREQUENCIES))
def test_one_job_on_me_all_year_squares_up_to_about_nothing(year, salary, frequency):
    r = square_up(tax_year=year, salary_wages=salary, tax_code="ME", pay_frequency=frequency)
    assert abs(signed(r)) <= ABOUT_NOTHING


@pytest.mark.parametrize("year", ["2025-26", "2026-27"])
@pytest.mark.parametrize("main, second, code", [(60_000, 10_000, "SH"), (100_000, 30_000, "ST"), (20_000, 10_000, "S"), (200_000, 50_000, "SA")])
def test_two_jobs_with_the_right_secondary_code_square_up_to_about_nothing(year, main, second, code):
    # The second job's pay sits in one band above the main job's, so its code's rate is the year's rate on it.
    chosen = call_tool("choose_secondary_tax_code", {"total_annual_income": main + second, "tax_year": year})["tax_code"]
    assert chosen == code
    r = square_up(tax_year=year, salary_wages=main, second_job_wages=second, second_job_tax_code=code)
    assert abs(signed(r) + r["ietc"]) <= ABOUT_NOTHING


@pytest.mark.parametrize("year", ["2025-26", "2026-27"])
@pytest.mark.parametrize("frequency", FREQUENCIES)
def test_me_kept_all_year_above_the_ietc_range_gives_a_bill_of_the_ietc_received(year, frequency):
    # The main job alone is in the IETC range, so PAYE on ME allowed for the credit; with the second
    # job the year's income is above the range, so the credit is paid back.
    r = square_up(tax_year=year, salary_wages=60_000, tax_code="ME", second_job_wages=10_000, second_job_tax_code="SH", pay_frequency=frequency)
    assert r["ietc"] == 0 and r["ietc_through_paye"] > 0
    assert r["result"] == "bill"
    assert abs(r["amount"] - r["ietc_through_paye"]) <= ABOUT_NOTHING
    assert any("independent earner tax credit" in line for line in r["why"])


@pytest.mark.parametrize("year, main", [("2023-24", 40_000), ("2024-25", 60_000)])
def test_me_kept_all_year_above_the_ietc_range_with_the_second_jobs_exact_tax(year, main):
    # Where no secondary code's flat rate matches the second job's slice, give the second job's PAYE
    # as exactly the tax on its slice plus the levy: what is left over is the IETC the ME code gave.
    second = 10_000
    tax = lambda income: call_tool("calculate_income_tax", {"taxable_income": income, "tax_year": year})["total_tax"]
    levy = call_tool("calculate_acc_levy", {"annual_income": second, "tax_year": year})["annual_levy"]
    r = square_up(tax_year=year, salary_wages=main, tax_code="ME", second_job_wages=second,
                  second_job_paye=round(tax(main + second) - tax(main) + levy, 2))
    assert r["ietc"] == 0 and r["ietc_through_paye"] > 0 and r["result"] == "bill"
    # 2024-25's pays used the old or new tables by pay date against the composite year: within the tolerance.
    assert abs(r["amount"] - r["ietc_through_paye"]) <= ABOUT_NOTHING


def test_redundancy_pay_carries_no_acc_levy_in_the_square_up():
    # PAYE given with the levy in it has the levy taken out, except for a redundancy payment, which has none.
    bonus = square_up(tax_year="2026-27", salary_wages=60_000, extra_pays=10_000, extra_pays_paye=3175)
    redundancy = square_up(tax_year="2026-27", salary_wages=60_000, extra_pays=10_000, extra_pays_paye=3000, redundancy=True)
    by_source = lambda r: {s["source"]: s for s in r["sources"]}
    assert by_source(bonus)["extra pays"]["tax_paid"] == by_source(redundancy)["extra pays"]["tax_paid"] == 3000.00


def test_acc_levy_in_given_paye_is_left_out():
    worked = square_up(tax_year="2026-27", salary_wages=80_000)
    paye = call_tool("calculate_paye", {"gross_pay": round(80_000 / 26, 2), "pay_frequency": "fortnightly", "tax_code": "M", "tax_year": "2026-27"})["paye"] * 26
    given = square_up(tax_year="2026-27", salary_wages=80_000, salary_paye=round(paye, 2))
    assert abs(given["tax_paid"] - worked["tax_paid"]) <= 1.0


@pytest.mark.parametrize("year", YEARS)
def test_a_small_bill_is_written_off_and_a_larger_one_is_due_7_february(year):
    small = square_up(tax_year=year, interest=200, rwt=10.5 * 2 - 1, salary_wages=0)  # under-withheld by a little
    assert small["result"] == "bill" and small["amount"] <= 50 and small["written_off"]
    big = square_up(tax_year=year, salary_wages=50_000, interest=5_000, rwt=0)
    assert big["result"] == "bill" and not big["written_off"]
    assert big["tax_to_pay_due"] == f"7 February {int(year[:4]) + 2}"


def test_self_employed_income_needs_an_ir3_and_is_not_written_off():
    r = square_up(tax_year="2026-27", self_employed_profit=300)
    assert r["ir3_required"] and not r["written_off"] and r["return_due"] == "7 July 2027"


def test_interest_with_rwt_at_the_right_rate_adds_nothing():
    # $60,000 salary (30% band) and $1,000 interest with RWT at 30%: nothing more to pay on the interest.
    r = square_up(tax_year="2026-27", salary_wages=60_000, interest=1_000, rwt=300)
    interest = next(s for s in r["sources"] if s["source"] == "interest")
    assert interest["difference"] == 0


@pytest.mark.parametrize("year", YEARS)
def test_student_loan_deductions_from_pay_are_final_and_other_income_repays_12_percent(year):
    only_wages = square_up(tax_year=year, salary_wages=60_000, student_loan=True)
    assert only_wages["student_loan"]["end_of_year_repayment"] == 0
    small_other = square_up(tax_year=year, salary_wages=60_000, interest=499, rwt=150, student_loan=True)
    assert small_other["student_loan"]["end_of_year_repayment"] == 0
    other = square_up(tax_year=year, salary_wages=60_000, interest=1_000, rwt=300, student_loan=True)
    assert other["student_loan"]["end_of_year_repayment"] == 120.00
    # Wages under the threshold: only the other income over the unused threshold is repaid.
    low = square_up(tax_year="2026-27", salary_wages=20_000, self_employed_profit=10_000, student_loan=True)
    assert low["student_loan"]["end_of_year_repayment"] == round(0.12 * (10_000 - (24_128 - 20_000)), 2)


def test_2024_25_uses_composite_rates():
    r = square_up(tax_year="2024-25", interest=65_000, rwt=0)
    assert r["income_tax"] == 11985.32 and r["composite_rates"]


def test_the_why_names_the_source_that_withheld_too_little():
    r = square_up(tax_year="2026-27", salary_wages=80_000, interest=2_000, rwt=210)
    assert r["result"] == "bill"
    assert any(line.startswith("Your interest had") and "less tax" in line for line in r["why"])


@pytest.mark.parametrize("args, argument", [
    ({"tax_year": "2026-27", "interest": 100}, "rwt"),
    ({"tax_year": "2026-27", "salary_wages": 50000, "tax_code": "S"}, "tax_code"),
    ({"tax_year": "2026-27", "second_job_wages": 5000, "second_job_tax_code": "M"}, "second_job_tax_code"),
    ({"tax_year": "1999-00", "salary_wages": 50000}, "tax_year"),
    ({"tax_year": "2026-27", "salary_wages": -1}, "salary_wages"),
    ({"tax_year": "2026-27", "salary_wages": 1, "pay_frequency": "daily"}, "pay_frequency"),
])
def test_bad_arguments_name_the_argument(args, argument):
    result = call_tool("calculate_year_end_square_up", args)
    assert result["error"]["code"] == "invalid_argument" and result["error"]["argument"] == argument
