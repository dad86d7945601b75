"""Provisional tax, standard option (notes/topics.md: more than $5,000 of residual income tax last
year; last year's RIT + 5%, or the year before's + 10% while last year's return is not filed;
instalments 28 August, 15 January and 7 May). Figures worked by hand from those rules."""

import pytest

from nztax.calculators.errors import ToolArgumentError
from nztax.calculators.provisional import standard_provisional_tax


def test_last_years_rit_plus_five_percent_in_three_instalments():
    r = standard_provisional_tax(12_000, "2026-27")
    assert r["due"] and r["provisional_tax"] == 12_600 and r["instalment"] == 4_200
    assert r["instalment_dates"] == ["28 August", "15 January", "7 May"]


def test_the_year_befores_rit_plus_ten_percent_while_last_years_return_is_not_filed():
    r = standard_provisional_tax(6_000, "2026-27", last_return_filed=False)
    assert r["provisional_tax"] == 6_600 and r["instalment"] == 2_200


@pytest.mark.parametrize("rit", [5_000, 3_250.50, 0])
def test_not_due_at_or_under_the_threshold(rit):
    r = standard_provisional_tax(rit, "2026-27")
    assert not r["due"] and r["provisional_tax"] == 0 and r["threshold"] == 5_000


def test_a_year_without_rules_is_an_argument_error():
    with pytest.raises(ToolArgumentError):
        standard_provisional_tax(9_000, "2019-20")
