"""Odd and bad arguments always come back as an error result naming the argument, never an
exception or a silently wrong answer."""

from __future__ import annotations

import datetime as dt

import pytest

from nztax.tools import call_tool

BAD = [
    # (tool, arguments, argument the error must name)
    ("calculate_income_tax", {"taxable_income": {"a": 1}}, "taxable_income"),
    ("calculate_income_tax", {"taxable_income": [50000]}, "taxable_income"),
    ("calculate_income_tax", {"taxable_income": 1e300}, "taxable_income"),
    ("calculate_income_tax", {"taxable_income": True}, "taxable_income"),
    ("calculate_income_tax", {"taxable_income": 50000, "tax_year": "2026/27"}, "tax_year"),
    ("calculate_income_tax", {"taxable_income": 50000, "tax_year": 2026}, "tax_year"),
    ("calculate_income_tax", {"taxable_income": 50000, "tax_year": "2031-32"}, "tax_year"),
    ("calculate_income_tax", {"taxable_income": 50000, "tax_year": "2027-28"}, "tax_year"),  # not published yet
    ("calculate_paye", {"gross_pay": 1e300, "pay_frequency": "weekly"}, "gross_pay"),
    ("calculate_paye", {"gross_pay": -0.01, "pay_frequency": "weekly"}, "gross_pay"),
    ("calculate_paye", {"gross_pay": 1000, "pay_frequency": "daily"}, "pay_frequency"),
    ("calculate_paye", {"gross_pay": 1000, "pay_frequency": {"weekly": 1}}, "pay_frequency"),
    ("calculate_paye", {"gross_pay": 1000, "pay_frequency": "weekly", "tax_code": "WT"}, "tax_code"),
    ("calculate_paye", {"gross_pay": 1000, "pay_frequency": "weekly", "tax_code": "ND SL"}, "tax_code"),
    ("calculate_paye", {"gross_pay": 1000, "pay_frequency": "weekly", "pay_date": "31/07/2024"}, "pay_date"),
    ("calculate_paye", {"gross_pay": 1000, "pay_frequency": "weekly", "pay_date": "2022-05-01"}, "pay_date"),
    ("calculate_paye", {"gross_pay": 1000, "pay_frequency": "weekly", "pay_date": "2024-08-01", "tax_year": "2025-26"}, "pay_date"),
    ("calculate_paye", {"gross_pay": 1000, "pay_frequency": "weekly", "kiwisaver_rate": 250}, "kiwisaver_rate"),
    ("calculate_paye", {"pay_frequency": "weekly"}, "gross_pay"),
    ("calculate_paye", {"gross_pay": 1000, "pay_frequency": "weekly", "bonus": 5}, "bonus"),
    ("calculate_student_loan_repayment", {"annual_income": 50000, "gross_pay": 900}, "pay_frequency"),
    ("calculate_student_loan_repayment", {"annual_income": 50000, "pay_frequency": "daily"}, "pay_frequency"),
    ("calculate_ietc", {"annual_income": 50000, "receives_benefit": "true"}, "receives_benefit"),
    ("calculate_ietc", {"annual_income": 50000, "receives_nz_super": 1}, "receives_nz_super"),
    ("calculate_ietc", {"annual_income": 50000, "months_eligible": 13}, "months_eligible"),
    ("calculate_take_home_pay", {"annual_salary": 65000, "student_loan": "yes"}, "student_loan"),
    ("calculate_take_home_pay", {"annual_salary": 65000, "tax_code": "SH"}, "tax_code"),
    ("calculate_donation_tax_credit", {"donations": [100, -5], "taxable_income": 1000}, "donations"),
    ("calculate_donation_tax_credit", {"donations": [100, True], "taxable_income": 1000}, "donations"),
    ("calculate_donation_tax_credit", {"donations": -5, "taxable_income": 1000}, "donations"),
    ("calculate_kiwisaver", {"gross_pay": 1000, "pay_frequency": "daily", "esct_threshold_income": 50000}, "pay_frequency"),
    ("calculate_kiwisaver", {"gross_pay": 1000, "member_contributions": 1000, "kiwisaver_year": "2025-99"}, "kiwisaver_year"),
    ("calculate_kiwisaver", {"gross_pay": 1000, "member_contributions": 1000, "kiwisaver_year": "2020-21"}, "kiwisaver_year"),
    ("calculate_kiwisaver", {"gross_pay": 1000, "age": 17.5}, "age"),
    ("find_prescribed_investor_rate", {"taxable_income": 90000, "pie_income": 0, "prior_pie_income": 10}, "prior_taxable_income"),
    ("choose_secondary_tax_code", {"total_annual_income": "lots"}, "total_annual_income"),
]


@pytest.mark.parametrize("name, arguments, argument", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_argument_is_named(name, arguments, argument):
    result = call_tool(name, arguments)
    assert "error" in result, result
    assert result["error"]["code"] == "invalid_argument", result
    assert result["error"]["argument"] == argument, result
    assert result["error"]["message"].startswith(argument), result


def test_list_item_error_says_which_item_and_why():
    message = call_tool("calculate_donation_tax_credit", {"donations": [100, -5], "taxable_income": 1000})["error"]["message"]
    assert message.startswith("donations[1]:") and "greater than or equal to 0" in message


def test_tax_year_is_optional_everywhere(clock):
    clock(dt.date(2025, 3, 31))  # last day of 2024-25
    minimal = {
        "calculate_income_tax": {"taxable_income": 50000},
        "calculate_paye": {"gross_pay": 1000, "pay_frequency": "weekly"},
        "calculate_acc_levy": {"income": 50000},
        "calculate_student_loan_repayment": {"income": 50000},
        "calculate_ietc": {"annual_income": 50000},
        "calculate_kiwisaver": {"gross_pay": 1000},
        "calculate_take_home_pay": {"annual_salary": 50000},
        "calculate_donation_tax_credit": {"donations": 100, "taxable_income": 50000},
        "find_prescribed_investor_rate": {"taxable_income": 50000, "pie_income": 0},
        "choose_secondary_tax_code": {"total_annual_income": 50000},
    }
    for name, arguments in minimal.items():
        result = call_tool(name, arguments)
        assert result.get("tax_year") == "2024-25", (name, result)


def test_government_contribution_defaults_to_the_current_kiwisaver_year(clock):
    # A KiwiSaver year runs 1 July - 30 June (§5): 30 June 2025 is in 2024-25 (50c, up to $521.43),
    # 1 July 2025 in 2025-26 (25c, up to $260.72).
    clock(dt.date(2025, 6, 30))
    r = call_tool("calculate_kiwisaver", {"gross_pay": 0, "member_contributions": 1042.86})
    assert (r["kiwisaver_year"], r["government_contribution"]) == ("2024-25", 521.43)
    clock(dt.date(2025, 7, 1))
    r = call_tool("calculate_kiwisaver", {"gross_pay": 0, "member_contributions": 1042.86})
    assert (r["kiwisaver_year"], r["government_contribution"]) == ("2025-26", 260.72)


def test_old_argument_names_are_still_accepted():
    from nztax.tools import call_tool

    # annual_income is the seed's name; income was this project's, kept as an alias.
    new = call_tool("calculate_acc_levy", {"annual_income": 50000, "tax_year": "2026-27"})
    old = call_tool("calculate_acc_levy", {"income": 50000, "tax_year": "2026-27"})
    assert new == old and new["annual_levy"] == 875.0  # 50,000 x 1.75%
    assert call_tool("calculate_student_loan_repayment", {"income": 50000, "tax_year": "2026-27"})["annual_repayment"] \
        == call_tool("calculate_student_loan_repayment", {"annual_income": 50000, "tax_year": "2026-27"})["annual_repayment"]
