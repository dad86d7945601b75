"""FIF income under the fair dividend rate method (notes/topics.md: 5% of the opening market value;
de minimis total cost $50,000). Figures worked by hand."""

from nztax.calculators.fif import fair_dividend_rate_income


def test_five_percent_of_the_opening_value():
    r = fair_dividend_rate_income(84_000, "2026-27")
    assert r["fif_income"] == 4_200 and r["de_minimis_cost"] == 50_000 and "tax" not in r


def test_tax_at_a_stated_marginal_rate():
    # 5% of $150,000 = $7,500; at 39% = $2,925.
    r = fair_dividend_rate_income(150_000, "2026-27", marginal_rate=0.39)
    assert r["fif_income"] == 7_500 and r["tax"] == 2_925
