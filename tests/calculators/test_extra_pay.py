"""PAYE on an extra pay against IRD's own examples, to the cent.

Expected figures are IRD's: the payroll calculations and business rules specification 2026-27
(5.11.1 examples 1-3, 5.11.2, 5.12) and IR335 (September 2026: Heidi, Rama; Connor, Kelvin and Tama
on leaving), as relayed with section and page by Willy-nz/Tohyee (nz_tax_facts.md §9 rates it the
most trustworthy relay). IRD prints XP1 as $9,900.18 + $466.21 = $10,366.39, truncating each part;
its own steps truncate once (10,366.40), which is what the specification's payroll software does.
The secondary low thresholds are IRD's "calculate PAYE for a lump sum payment" tables.
"""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings, strategies as st

from nztax.calculators.extra_pay import secondary_low_threshold
from nztax.rules import default_rules, exact
from nztax.tools import call_tool

PAY_DATE = "2026-11-04"


def extra(**args) -> dict:
    args.setdefault("pay_date", PAY_DATE)
    if args["pay_date"] is None:
        del args["pay_date"]
    result = call_tool("calculate_extra_pay_paye", args)
    assert "error" not in result, result
    return result


def test_spec_example_1_levy_stops_at_the_maximum_inside_the_extra_pay():
    # Four weeks' earnings of $10,000 x 13 = $130,000; bonus $30,000.56 -> $160,000 at 33%.
    r = extra(extra_pay=30000.56, pay_frequency="weekly", recent_earnings=10000)
    assert (r["grossed_up_income"], r["tax_rate"], r["paye"]) == (160000, 0.33, 10366.40)


def test_spec_example_2_top_rate_and_no_levy_above_the_maximum():
    r = extra(extra_pay=15000, pay_frequency="weekly", regular_pay=3750)
    assert (r["annualised_income"], r["grossed_up_income"], r["paye"], r["acc_levy"]) == (195000, 210000, 5850.00, 0)


def test_spec_example_3_signing_bonus_with_no_earlier_pay():
    r = extra(extra_pay=10000, pay_frequency="fortnightly", recent_earnings=0)
    assert (r["tax_rate"], r["paye"]) == (0.105, 1225.00)


def test_spec_secondary_code_adds_its_low_threshold():
    assert extra(extra_pay=1000, pay_frequency="weekly", recent_earnings=500, tax_code="SH")["paye"] == 317.50
    r = extra(extra_pay=40000, pay_frequency="fortnightly", recent_earnings=2300 + 2395, tax_code="ST SL")
    assert (r["grossed_up_income"], r["paye"]) == (179136, 13506.33)
    assert r["student_loan"] == 4800.00  # 12% of the whole extra pay on a secondary code (IRD lump-sum page)


def test_ir335_heidi_bonus_and_flat_rate_codes():
    assert extra(extra_pay=1000, pay_frequency="weekly", regular_pay=1537.50)["paye"] == 347.50
    assert extra(extra_pay=1000, pay_frequency="weekly", regular_pay=1537.50, tax_code="ME")["paye"] == 347.50  # no IETC on an extra pay
    assert extra(extra_pay=1000, pay_frequency="weekly", regular_pay=1537.50, tax_code="ND")["paye"] == 467.50
    assert extra(extra_pay=1000, pay_frequency="weekly", regular_pay=1537.50, tax_code="NSW")["paye"] == 122.50


def test_ir335_rama_student_loan_on_the_pay_with_the_extra_pay():
    r = extra(extra_pay=10100, pay_frequency="fortnightly", regular_pay=1800, recent_earnings=3600, tax_code="M SL")
    assert (r["paye"], r["tax_rate"]) == (3206.75, 0.30)
    # IRD: the pay's deduction is 1,316.64 on 1,800 + 10,100; the regular pay alone carries 104.64.
    assert r["student_loan"] == round(1316.64 - 104.64, 2)


@pytest.mark.parametrize("name, last_two, extra_pay, redundancy, expected", [
    ("Connor", 550 + 650, 1000, True, 175.00),
    ("Kelvin", 500 + 600, 2000, False, 385.00),
    ("Tama", 1000 + 1000, 400, False, 77.00),
])
def test_ir335_extra_pay_on_leaving_uses_the_last_two_pays(name, last_two, extra_pay, redundancy, expected):
    r = extra(extra_pay=extra_pay, pay_frequency="weekly", recent_earnings=last_two, on_leaving=True, redundancy=redundancy)
    assert r["paye"] == expected, name
    assert r["annualising_rule"] == "last two pay periods"


def test_redundancy_carries_no_acc_levy_and_no_kiwisaver():
    for year, day in (("2023-24", "2023-10-02"), ("2024-25", "2024-10-01"), ("2025-26", "2025-10-01"), ("2026-27", PAY_DATE)):
        r = extra(extra_pay=20000, pay_frequency="monthly", regular_pay=5000, redundancy=True, kiwisaver_rate=3, pay_date=day, on_leaving=True)
        assert r["acc_levy"] == 0 and r["acc_levy_rate"] == 0 and r["kiwisaver_employee"] == 0, year
        assert r["paye"] == r["income_tax"] == round(20000 * r["tax_rate"], 2), year
        bonus = extra(extra_pay=20000, pay_frequency="monthly", regular_pay=5000, pay_date=day, on_leaving=True)
        assert bonus["acc_levy"] > 0, year


def test_leaving_rule_starts_1_april_2025():
    before = extra(extra_pay=1000, pay_frequency="weekly", regular_pay=500, on_leaving=True, pay_date="2025-03-20")
    after = extra(extra_pay=1000, pay_frequency="weekly", regular_pay=500, on_leaving=True, pay_date="2025-04-20")
    assert before["annualising_rule"] == "four weeks before" and before["annualised_income"] == 500 * 4 * 13
    assert after["annualising_rule"] == "last two pay periods" and after["annualised_income"] == 500 * 2 * 26


def test_2024_25_extra_pays_keep_the_thresholds_from_before_31_july_2024():
    # IRD: until 1 April 2025 extra pays use the 1 April - 30 July 2024 thresholds, so $50,000
    # (over the old $48,000) is at 30% even after 31 July 2024, and 17.5% from 1 April 2025.
    late_2024 = extra(extra_pay=2000, pay_frequency="monthly", regular_pay=4000, pay_date="2024-11-15")
    next_year = extra(extra_pay=2000, pay_frequency="monthly", regular_pay=4000, pay_date="2025-04-15")
    assert late_2024["grossed_up_income"] == next_year["grossed_up_income"] == 50000
    assert (late_2024["tax_rate"], next_year["tax_rate"]) == (0.30, 0.175)


@pytest.mark.parametrize("year, day, thresholds", [
    ("2024-25", "2024-11-15", {"SB": 0, "S": 14001, "SH": 48001, "ST": 70001, "SA": 180001}),
    ("2026-27", PAY_DATE, {"SB": 0, "S": 15601, "SH": 53501, "ST": 78101, "SA": 180001}),
])
def test_secondary_low_thresholds_are_irds(year, day, thresholds):
    rules = default_rules().get(year)
    codes = rules.secondary_period(dt.date.fromisoformat(day)).codes
    bands = rules.section("extra_pay").bands
    # 2024-25 extra pays read the old bands; the code rates are the same in both periods.
    assert {c: secondary_low_threshold(exact(codes[c].rate), bands) for c in thresholds} == thresholds


@settings(max_examples=60, deadline=None)
@given(year=st.sampled_from(["2025-26", "2026-27"]), weekly=st.integers(0, 5000), bonus=st.integers(1, 100_000))
def test_the_whole_extra_pay_at_the_top_rate_never_withholds_less_than_the_year_asks(year, weekly, bonus):
    # Same bands for the year and for the extra pay: the rate of the band the total reaches, on all
    # of the bonus, is at least the tax the bonus adds on the year's bands.
    r = extra(extra_pay=bonus, pay_frequency="weekly", regular_pay=weekly, tax_year=year, pay_date=None)
    assert r["year_end"]["over_withheld"] >= -0.01


@pytest.mark.parametrize("args, argument", [
    ({"extra_pay": 1000, "pay_frequency": "weekly"}, "regular_pay"),
    ({"extra_pay": -1, "pay_frequency": "weekly", "regular_pay": 500}, "extra_pay"),
    ({"extra_pay": 1000, "pay_frequency": "yearly", "regular_pay": 500}, "pay_frequency"),
    ({"extra_pay": 1000, "pay_frequency": "weekly", "regular_pay": 500, "tax_code": "XX"}, "tax_code"),
    ({"extra_pay": 1000, "pay_frequency": "weekly", "regular_pay": 500, "tax_code": "ND SL"}, "tax_code"),
    ({"extra_pay": 1000, "pay_frequency": "weekly", "regular_pay": 500, "redundancy": "yes"}, "redundancy"),
])
def test_bad_arguments_name_the_argument(args, argument):
    result = call_tool("calculate_extra_pay_paye", args)
    assert result["error"]["code"] == "invalid_argument" and result["error"]["argument"] == argument
