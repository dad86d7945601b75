"""FamilyBoost against IRD's own statements (how-much-familyboost page; 30 Sep 2025 media release).

Quarters from 1 July 2025: 40% of ECE fees, up to $1,560 a quarter; over $35,000 of household income a
quarter the payment is the lesser of 40% of fees and $1,560 less 7 cents for each dollar over $35,000;
nothing at $57,286 a quarter. IRD's media release: paid on fees of up to $300 a week, at most $120 a week.
Quarters ending before 1 July 2025: 25%, up to $975, less 9.75 cents a dollar over $35,000, nothing at
$45,000. Each expected value is IRD's rule worked by hand in the comment.
"""

import pytest

from nztax.tools import call_tool


def boost(fees, income, quarter):
    r = call_tool("calculate_familyboost", {"ece_fees": fees, "household_income": income, "quarter": quarter})
    assert "error" not in r, r
    return r


def test_media_release_fees_of_300_a_week_pay_120_a_week():
    # 13 weeks x $300 = $3,900 x 40% = $1,560 = 13 x $120: the quarter's maximum.
    r = boost(3_900, 30_000, "2025-08-15")
    assert (r["payment"], r["quarter_start"], r["quarter_end"], r["settings_from"]) == (1_560, "2025-07-01", "2025-09-30", "2025-07-01")


def test_under_35000_forty_percent_of_fees():
    # $2,000 x 40% = $800, under the $1,560 maximum.
    assert boost(2_000, 35_000, "2026-01-10")["payment"] == 800


def test_over_35000_the_lesser_of_the_share_and_the_reduced_maximum():
    # $1,560 - 7c x (45,000 - 35,000) = 1,560 - 700 = 860; 40% x $5,000 = 2,000: pays 860.
    assert boost(5_000, 45_000, "2026-07-01")["payment"] == 860
    # 40% x $1,000 = 400 < 860: pays 400.
    assert boost(1_000, 45_000, "2026-07-01")["payment"] == 400


def test_nothing_at_57286_a_quarter():
    # IRD: "household income of less than $57,286 a quarter"; at it the maximum has abated away.
    assert boost(10_000, 57_286, "2025-10-01")["payment"] == 0
    # $1 under: 1,560 - 0.07 x 22,285 = 0.05.
    assert boost(10_000, 57_285, "2025-10-01")["payment"] == 0.05


def test_the_april_june_2025_quarter_keeps_the_first_settings():
    # Quarter ending before 1 July 2025: 25%, at most $975; 975 - 9.75c x 2,500 = 731.25.
    r = boost(4_550, 37_500, "2025-05-20")
    assert (r["payment"], r["rate"], r["quarterly_max"]) == (731.25, 0.25, 975)
    assert boost(10_000, 45_000, "2025-06-30")["payment"] == 0


def test_the_same_claim_pays_more_from_the_july_september_2025_quarter():
    # $37,500 a quarter, $4,550 fees: before 731.25 (above); after 1,560 - 0.07 x 2,500 = 1,385.
    assert boost(4_550, 37_500, "2025-07-01")["payment"] == 1_385


@pytest.mark.parametrize("quarter", ["2024-06-30", "2023-08-01", "next quarter"])
def test_quarters_without_familyboost_or_bad_dates_are_named(quarter):
    r = call_tool("calculate_familyboost", {"ece_fees": 100, "household_income": 1_000, "quarter": quarter})
    assert r["error"]["argument"] == "quarter"
