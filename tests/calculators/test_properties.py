"""Properties that must hold for every income, not just the printed examples."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from nztax.tools import call_tool

YEARS = st.sampled_from(["2023-24", "2024-25", "2025-26", "2026-27"])
INCOME = st.integers(min_value=0, max_value=400_000)
FREQUENCIES = {"weekly": 52, "fortnightly": 26, "four_weekly": 13, "monthly": 12}


def run(name: str, **args) -> dict:
    result = call_tool(name, args)
    assert "error" not in result, result
    return result


@settings(max_examples=200, deadline=None)
@given(year=YEARS, low=INCOME, extra=st.integers(min_value=0, max_value=50_000))
def test_tax_never_falls_as_income_rises(year, low, extra):
    assert run("calculate_income_tax", taxable_income=low + extra, tax_year=year)["total_tax"] >= run(
        "calculate_income_tax", taxable_income=low, tax_year=year
    )["total_tax"]


@settings(max_examples=200, deadline=None)
@given(year=YEARS, income=st.integers(min_value=1, max_value=400_000))
def test_effective_rate_never_exceeds_marginal(year, income):
    r = run("calculate_income_tax", taxable_income=income, tax_year=year)
    assert r["effective_rate"] <= r["marginal_rate"] + 0.0001


@settings(max_examples=200, deadline=None)
@given(year=YEARS, income=INCOME)
def test_acc_levy_never_exceeds_the_years_maximum(year, income):
    r = run("calculate_acc_levy", income=income, tax_year=year)
    assert r["annual_levy"] <= r["max_levy"]


@settings(max_examples=200, deadline=None)
@given(year=YEARS, gross=st.integers(min_value=0, max_value=8000), frequency=st.sampled_from(list(FREQUENCIES)), sl=st.booleans())
def test_me_never_exceeds_m(year, gross, frequency, sl):
    suffix = " SL" if sl else ""
    m = run("calculate_paye", gross_pay=gross, pay_frequency=frequency, tax_code="M" + suffix, tax_year=year)
    me = run("calculate_paye", gross_pay=gross, pay_frequency=frequency, tax_code="ME" + suffix, tax_year=year)
    assert me["paye"] <= m["paye"]
    assert me["student_loan"] == m["student_loan"]  # the IETC has no effect on the loan deduction


@settings(max_examples=200, deadline=None)
@given(year=st.sampled_from(["2023-24", "2025-26", "2026-27"]), gross=st.integers(min_value=0, max_value=12000), frequency=st.sampled_from(list(FREQUENCIES)))
def test_per_pay_paye_times_pays_matches_the_annual_method(year, gross, frequency):
    """M code, whole-dollar pays: a year of PAYE is the annual tax + levy on the same earnings,
    less at most the truncated cents (under a cent a week, plus under a cent a pay)."""
    pays = FREQUENCIES[frequency]
    pay = run("calculate_paye", gross_pay=gross, pay_frequency=frequency, tax_code="M", tax_year=year)
    annual = gross * pays
    expected = run("calculate_income_tax", taxable_income=annual, tax_year=year)["total_tax"] + run(
        "calculate_acc_levy", income=annual, tax_year=year
    )["annual_levy"]
    shortfall = expected - pay["paye"] * pays
    assert -0.02 <= shortfall <= 0.52 + 0.01 * pays + 0.02
