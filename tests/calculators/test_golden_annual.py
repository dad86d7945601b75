"""Annual calculators against IRD's published rates and the worked figures in nz_tax_facts.md."""

from __future__ import annotations

import pytest

from nztax.tools import call_tool


def tool(name: str, **args) -> dict:
    result = call_tool(name, args)
    assert "error" not in result, result
    return result


# §1: the 2024-25 composite-rate worked figures.
@pytest.mark.parametrize(
    "income, tax",
    [(30000, 4195.12), (50000, 7777.92), (65000, 11985.32), (78100, 15995.51), (100000, 23222.51), (200000, 57422.51)],
)
def test_2024_25_composite_rates(income, tax):
    assert tool("calculate_income_tax", taxable_income=income, tax_year="2024-25")["total_tax"] == tax


# §9: correct 2025-26 figures for the amounts a peer system mis-summed.
@pytest.mark.parametrize("income, tax", [(35000, 5033.00), (60000, 10220.50), (150000, 39377.50), (200000, 57077.50)])
def test_2025_26_bands(income, tax):
    assert tool("calculate_income_tax", taxable_income=income, tax_year="2025-26")["total_tax"] == tax


def test_2023_24_top_of_bands_cumulative_tax():
    # §1 table: cumulative tax at the top of each band.
    for income, tax in [(14000, 1470), (48000, 7420), (70000, 14020), (180000, 50320)]:
        assert tool("calculate_income_tax", taxable_income=income, tax_year="2023-24")["total_tax"] == tax


def test_income_tax_breakdown_and_rates():
    r = tool("calculate_income_tax", taxable_income=85000, tax_year="2026-27")
    assert r["total_tax"] == 17927.50
    assert [b["tax"] for b in r["breakdown"]] == [1638.00, 6632.50, 7380.00, 2277.00]
    assert r["marginal_rate"] == 0.33
    assert r["effective_rate"] == round(17927.50 / 85000, 4)


def test_the_tax_other_income_adds_on_top_of_a_salary():
    # 2026-27 bands (§1): $12,000 on top of $70,000 falls $8,100 at 30% and $3,900 at 33%.
    r = tool("calculate_income_tax", taxable_income=82000, other_income=12000, tax_year="2026-27")
    assert r["tax_on_other_income"] == 8100 * 0.30 + 3900 * 0.33 == 3717.00
    assert (r["income_without_other"], r["tax_without_other_income"], r["total_tax"]) == (70000, 13220.50, 16937.50)
    assert "error" in call_tool("calculate_income_tax", {"taxable_income": 5000, "other_income": 6000})


@pytest.mark.parametrize(
    "year, max_levy", [("2023-24", 2132.57), ("2024-25", 2276.52), ("2025-26", 2551.59), ("2026-27", 2741.22)]
)
def test_acc_levy_caps_at_the_printed_maximum(year, max_levy):
    assert tool("calculate_acc_levy", income=500000, tax_year=year)["annual_levy"] == max_levy


def test_acc_levy_below_cap():
    r = tool("calculate_acc_levy", income=85000, tax_year="2026-27")
    assert (r["rate"], r["annual_levy"], r["liable_income"]) == (0.0175, 1487.50, 85000.00)


def test_student_loan_annual():
    r = tool("calculate_student_loan_repayment", income=50000, tax_year="2025-26")
    assert (r["threshold"], r["annual_repayment"]) == (24128, 3104.64)
    assert tool("calculate_student_loan_repayment", income=20000, tax_year="2026-27")["annual_repayment"] == 0


# §3: IRD's worked examples for one pay ("Repaying my student loan when I earn salary or wages"):
# weekly $600 on a main code -> (600 - 464) x 12% = $16.32; a secondary code's weekly $200 -> 200 x 12%
# = $24.00 (no threshold); spec 5.4: weekly 464.99 -> 464 whole dollars -> $0.00, 465.01 -> $0.12.
@pytest.mark.parametrize("gross, secondary, deduction", [
    (600, False, 16.32), (200, True, 24.00), (464.99, False, 0.00), (465.01, False, 0.12)])
def test_student_loan_deduction_from_one_pay(gross, secondary, deduction):
    r = tool("calculate_student_loan_repayment", annual_income=gross * 52, pay_frequency="weekly", gross_pay=gross,
             secondary_income=secondary, tax_year="2026-27")
    assert (r["deduction_per_pay"], r["period_threshold"]) == (deduction, 0 if secondary else 464)


def test_student_loan_one_pay_defaults_to_the_year_divided_into_pays():
    # $48,000 a year monthly is $4,000 a month: (4,000 - 2,010.66) x 12% = 238.7208 -> $238.72.
    r = tool("calculate_student_loan_repayment", annual_income=48000, pay_frequency="monthly", tax_year="2026-27")
    assert (r["gross_pay"], r["deduction_per_pay"]) == (4000, 238.72)
    # A secondary code's year has no threshold either: $9,000 x 12% = $1,080.
    assert tool("calculate_student_loan_repayment", annual_income=9000, secondary_income=True)["annual_repayment"] == 1080


# §4: the 2024-25 transitional IETC (LC 14 x 121/365 + LC 15 x 244/365).
@pytest.mark.parametrize("income, credit", [(30000, 520.00), (46000, 433.81), (60000, 347.62), (68000, 173.81)])
def test_ietc_2024_25_part_year(income, credit):
    assert tool("calculate_ietc", annual_income=income, tax_year="2024-25")["annual_credit"] == credit


@pytest.mark.parametrize(
    "year, income, credit",
    [
        ("2026-27", 23999, 0), ("2026-27", 24000, 520), ("2026-27", 66000, 520), ("2026-27", 67000, 390),
        ("2026-27", 70000, 0), ("2023-24", 44000, 520), ("2023-24", 46000, 260), ("2023-24", 48000, 0),
    ],
)
def test_ietc_full_and_abated(year, income, credit):
    assert tool("calculate_ietc", annual_income=income, tax_year=year)["annual_credit"] == credit


@pytest.mark.parametrize("flag", ["receives_working_for_families", "receives_benefit", "receives_nz_super"])
def test_ietc_exclusions(flag):
    r = tool("calculate_ietc", annual_income=40000, tax_year="2026-27", **{flag: True})
    assert r["eligible"] is False and r["annual_credit"] == 0


# IRD's IETC page: the credit is worked on whole months, and a month with any Working for Families,
# income-tested benefit, NZ Super or veteran's pension in it gets none. IRD's example: NZ Super from
# 20 August leaves April to July, 4 months. Worked by hand from that rule:
#   2025-26, income 40,000 (full credit 520): 520 x 4/12 = 173.333 -> 173.33;
#   2026-27, income 67,000 (IRD's own example, 520 - 13% x 1,000 = 390), a benefit in 2 months: 390 x 10/12 = 325.00;
#   2023-24, income 46,000 (IRD's example, 260), WFF in 6 months: 260 x 6/12 = 130.00.
@pytest.mark.parametrize(
    "year, income, flag, months, credit",
    [
        ("2025-26", 40000, "receives_nz_super", 4, 173.33),
        ("2026-27", 67000, "receives_benefit", 10, 325.00),
        ("2023-24", 46000, "receives_working_for_families", 6, 130.00),
    ],
)
def test_ietc_whole_months(year, income, flag, months, credit):
    r = tool("calculate_ietc", annual_income=income, tax_year=year, months_eligible=months, **{flag: True})
    assert (r["eligible"], r["annual_credit"], r["months_eligible"]) == (True, credit, months)


def test_ietc_exclusion_all_year_says_the_other_months_would_count():
    # An exclusion with no months given is taken as every month, and the reason says a part year differs.
    r = tool("calculate_ietc", annual_income=40000, tax_year="2026-27", receives_benefit=True)
    assert r["annual_credit"] == 0 and "other whole months" in r["reason"]
    assert tool("calculate_ietc", annual_income=40000, tax_year="2026-27", months_eligible=0)["eligible"] is False


def test_ietc_part_year_in_the_split_year_is_not_guessed():
    # 2024-25 is worked by days in two parts (LC 14, LC 15); a whole-month share of it is not IRD's stated rule.
    result = call_tool("calculate_ietc", {"annual_income": 40000, "tax_year": "2024-25", "months_eligible": 10})
    assert result["error"]["argument"] == "months_eligible"


def test_esct_on_whole_dollars_truncated():
    # §5: 122.50 at 17.5% -> 122 x 0.175 = 21.35; net 101.15.
    r = tool("calculate_kiwisaver", gross_pay=3500, employee_rate=3.5, employer_rate=3.5, esct_threshold_income=45500, tax_year="2026-27")
    assert (r["employee_contribution"], r["employer_contribution"], r["esct_rate"], r["esct"], r["employer_contribution_net"]) == (122.50, 122.50, 0.175, 21.35, 101.15)


def test_ir340_employer_contribution_after_10_5_percent_esct():
    r = tool("calculate_kiwisaver", gross_pay=1000, employer_rate=3.5, esct_threshold_income=18000, tax_year="2026-27")
    assert (r["esct_rate"], r["employer_contribution_net"]) == (0.105, 31.33)


@pytest.mark.parametrize(
    "year, threshold, rate",
    [("2024-25", 57600, 0.175), ("2024-25", 57601, 0.30), ("2025-26", 64200, 0.175), ("2025-26", 64201, 0.30), ("2026-27", 216001, 0.39)],
)
def test_esct_bands_by_year(year, threshold, rate):
    assert tool("calculate_kiwisaver", gross_pay=1000, esct_threshold_income=threshold, tax_year=year)["esct_rate"] == rate


def test_kiwisaver_default_rates_change_1_april_2026():
    assert tool("calculate_kiwisaver", gross_pay=1000, tax_year="2025-26")["employee_rate"] == 0.03
    assert tool("calculate_kiwisaver", gross_pay=1000, tax_year="2026-27")["employer_rate"] == 0.035


@pytest.mark.parametrize(
    "ks_year, contributions, income, expected",
    [
        ("2024-25", 1042.86, 60000, 521.43),
        ("2025-26", 1042.86, 60000, 260.72),
        ("2025-26", 400, 60000, 100.00),
        ("2025-26", 1042.86, 190000, 0),
        ("2024-25", 1042.86, 190000, 521.43),
    ],
)
def test_government_contribution_by_kiwisaver_year(ks_year, contributions, income, expected):
    r = tool("calculate_kiwisaver", gross_pay=0, member_contributions=contributions, annual_income=income, kiwisaver_year=ks_year)
    assert r["government_contribution"] == expected


def test_take_home_annual_2026_27():
    # Worked by hand: tax 17,927.50 + ACC 1,487.50 on 85,000 -> 65,585.00.
    r = tool("calculate_take_home_pay", annual_salary=85000, tax_year="2026-27")
    assert (r["income_tax"], r["acc_levy"], r["ietc"], r["student_loan"], r["kiwisaver_employee"], r["net_pay"]) == (17927.50, 1487.50, 0, 0, 0, 65585.00)
    assert "IRD payroll" in r["per_pay"]["method"]


def test_take_home_with_ietc_student_loan_and_kiwisaver():
    # 65,000 ME SL, KS 10%: tax 1,638 + 6,632.50 + 3,450 = 11,720.50, ACC 1,137.50, IETC 520, SL (65,000-24,128) x 12% = 4,904.64, KS 6,500.
    r = tool("calculate_take_home_pay", annual_salary=65000, tax_code="ME", student_loan=True, kiwisaver_rate=10, tax_year="2026-27")
    assert (r["income_tax"], r["acc_levy"], r["ietc"], r["student_loan"], r["kiwisaver_employee"]) == (11720.50, 1137.50, 520.00, 4904.64, 6500.00)
    assert r["net_pay"] == 41257.36  # 65,000 - 11,720.50 - 1,137.50 + 520 - 4,904.64 - 6,500
    assert r["tax_code"] == "ME SL"


def test_take_home_of_a_bonus_on_top_of_the_salary():
    # $64,000 ME + a $4,000 bonus = $68,000, KiwiSaver 3%, 2026-27 (worked by hand from §1, §2, §4):
    # the bonus falls in the 30% band (53,500-78,100): 1,200 of tax; ACC 1.75% of 4,000 = 70;
    # KiwiSaver 3% of 4,000 = 120; IETC on 64,000 is the full 520, on 68,000 it is 520 - 13% x 2,000 = 260,
    # so the bonus loses 260 of credit. Kept: 4,000 - 1,200 - 70 - 120 - 260 = 2,350.
    r = tool("calculate_take_home_pay", annual_salary=68000, tax_code="ME", kiwisaver_rate=3, other_income=4000, tax_year="2026-27")
    added = r["other_income"]
    assert (added["amount"], added["rest_of_salary"]) == (4000, 64000)
    assert (added["income_tax"], added["acc_levy"], added["kiwisaver_employee"], added["ietc"]) == (1200, 70, 120, -260)
    assert added["kept"] == 2350
    assert "error" in call_tool("calculate_take_home_pay", {"annual_salary": 3000, "other_income": 4000})


def test_donation_credit_is_a_third_capped_by_income():
    assert tool("calculate_donation_tax_credit", donations=300, taxable_income=50000)["credit"] == 100.00
    assert tool("calculate_donation_tax_credit", donations=3000, taxable_income=900)["credit"] == 300.00
    assert tool("calculate_donation_tax_credit", donations=[4, 10, 20], taxable_income=50000)["credit"] == 10.00


# 2024-25: IRD's stored "using prescribed investor rates" and "find my PIR" pages: 10.5% with taxable
# income $14,000 or less and taxable plus PIE income $48,000 or less; 17.5% with $48,000 or less and
# $70,000 or less; 28% otherwise. Each limit is tried at it and a dollar over it.
@pytest.mark.parametrize(
    "taxable, pie, expected",
    [(14000, 34000, 0.105), (14001, 30000, 0.175),    # taxable income $14,000 | $14,001
     (12000, 36000, 0.105), (12000, 36001, 0.175),    # taxable + PIE $48,000 | $48,001
     (48000, 22000, 0.175), (48001, 0, 0.28),         # taxable income $48,000 | $48,001
     (40000, 30000, 0.175), (40000, 30001, 0.28),     # taxable + PIE $70,000 | $70,001
     (90000, 0, 0.28)],
)
def test_prescribed_investor_rate(taxable, pie, expected):
    assert tool("find_prescribed_investor_rate", taxable_income=taxable, pie_income=pie, tax_year="2024-25")["rate"] == expected


def test_pir_uses_the_better_of_two_years():
    r = tool("find_prescribed_investor_rate", taxable_income=90000, pie_income=0, prior_taxable_income=12000, prior_pie_income=1000,
             tax_year="2024-25")
    assert r["rate"] == 0.105


# 2025-26: no Inland Revenue page we hold confirms the limits (docs/figures.md), so either side of
# both the old limits and the ones non-IRD pages report ($15,600 / $53,500 / $78,100) is refused with
# IRD's finder named, never worked on 2024-25's limits; a non-resident's 28% needs no limit.
@pytest.mark.parametrize("taxable, pie", [(14000, 0), (14001, 0), (15600, 0), (15601, 0), (48000, 0), (48001, 0),
                                          (53500, 0), (53501, 0), (40000, 30000), (40000, 38101)])
def test_prescribed_investor_rate_refused_where_no_limits_are_stated(taxable, pie):
    for year in ("2025-26", "2026-27"):
        err = call_tool("find_prescribed_investor_rate", {"taxable_income": taxable, "pie_income": pie, "tax_year": year})["error"]
        assert err["code"] == "rules_unavailable" and "find-my-prescribed-investor-rate" in err["message"], err
    non_resident = call_tool("find_prescribed_investor_rate", {"taxable_income": 90000, "pie_income": 0, "nz_resident": False, "tax_year": "2025-26"})
    assert non_resident["rate"] == 0.28


@pytest.mark.parametrize(
    "income, pay_date, code",
    [(15600, "2026-06-01", "SB"), (15601, "2026-06-01", "S"), (53500, "2026-06-01", "S"), (78101, "2026-06-01", "ST"),
     (180001, "2026-06-01", "SA"), (15000, "2024-07-30", "S"), (15000, "2024-07-31", "SB")],
)
def test_secondary_code_chooser(income, pay_date, code):
    assert tool("choose_secondary_tax_code", total_annual_income=income, pay_date=pay_date)["tax_code"] == code


def test_secondary_code_chooser_adds_sl():
    assert tool("choose_secondary_tax_code", total_annual_income=60000, student_loan=True, tax_year="2026-27")["tax_code"] == "SH SL"


@pytest.mark.parametrize("ks_year, age, expected", [("2024-25", 17, 0), ("2025-26", 17, 260.72), ("2025-26", 65, 0), ("2025-26", 64, 260.72)])
def test_government_contribution_age_rules(ks_year, age, expected):
    # §5: 16-17 year olds eligible from 1 July 2025; not paid from NZ Super age (65).
    r = tool("calculate_kiwisaver", gross_pay=0, member_contributions=1042.86, annual_income=60000, age=age, kiwisaver_year=ks_year)
    assert r["government_contribution"] == expected


def test_acc_levy_for_one_pay():
    # IR335 weekly: $1,500 a week is $78,000 a year; 78,000 x 1.75% = 1,365; / 52 = 26.25.
    r = tool("calculate_acc_levy", annual_income=78000, tax_year="2026-27", pay_frequency="weekly")
    assert r["levy_per_pay"] == 26.25 and r["annual_levy"] == 1365
