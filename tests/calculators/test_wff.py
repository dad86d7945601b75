"""Working for Families against IRD's own statements (nz_tax_facts.md s7; docs/figures.md).

IRD's family tax credit page: with family income of $42,700 or less you get the full credit, $7,524 for
the oldest child and $6,130 for every other child; over $42,700 "start with your family income, subtract
$42,700, then multiply the difference by 27%", and an abatement larger than the credit comes off the
in-work tax credit. IRD's in-work tax credit page: $5,070 a year for one to three children plus $780 for
each child after the third. From 1 April 2026 (Taxation (Budget Measures) Act 2025) the abatement is
27.5% of family income over $44,900. Each expected value is IRD's method worked by hand in the comment.
"""

import pytest

from nztax.calculators.wff import calculate_working_for_families, family_tax_credit
from nztax.tools import call_tool


def test_at_or_under_the_threshold_the_full_credit_2025_26():
    # IRD: "$42,700 or less: the full amount". Three children: 7,524 + 2 x 6,130 = 19,784.
    r = family_tax_credit(42_700, 3, "2025-26")
    assert (r["abatement"], r["full_credit"], r["credit_after_abatement"]) == (0, 19_784, 19_784)


def test_ird_method_over_the_threshold_2025_26():
    # (62,700 - 42,700) x 27% = 5,400; 7,524 + 6,130 = 13,654 - 5,400 = 8,254.
    r = family_tax_credit(62_700, 2, "2025-26")
    assert (r["abatement"], r["full_credit"], r["credit_after_abatement"]) == (5_400, 13_654, 8_254)


def test_abatement_larger_than_the_credit_comes_off_the_in_work_tax_credit_2025_26():
    # (80,000 - 42,700) x 27% = 10,071; one child 7,524: FTC nil, 2,547 left over;
    # IWTC 5,070 - 2,547 = 2,523.
    r = calculate_working_for_families(80_000, 1, True, "2025-26")
    assert (r["credit_after_abatement"], r["in_work_full"], r["in_work_after_abatement"], r["total"]) == (0, 5_070, 2_523, 2_523)


def test_in_work_tax_credit_adds_780_for_each_child_after_the_third_2025_26():
    # Five children under the threshold: IWTC 5,070 + 2 x 780 = 6,630; FTC 7,524 + 4 x 6,130 = 32,044.
    r = calculate_working_for_families(40_000, 5, True, "2025-26")
    assert (r["in_work_full"], r["full_credit"], r["total"]) == (6_630, 32_044, 38_674)


def test_2026_27_abatement_from_1_april_2026():
    # (62,700 - 44,900) x 27.5% = 4,895.
    r = family_tax_credit(62_700, None, "2026-27")
    assert (r["abatement_threshold"], r["abatement_rate"], r["abatement"]) == (44_900, 0.275, 4_895)
    assert r["abatement_from"] == "2026-04-01"
    # 44,900 itself is not over the threshold.
    assert family_tax_credit(44_900, None, "2026-27")["abatement"] == 0


def test_2026_27_states_no_family_tax_credit_amounts_it_has_no_source_for():
    r = family_tax_credit(62_700, 2, "2026-27")
    assert "full_credit" not in r and r["ftc_amounts_stated"] is False and "2026-27" in r["note"]


def test_the_superseded_2026_27_abatement_is_gone():
    # The 2026-27 rules used to say $42,700 at 27%; on $62,700 that was 5,400, not IRD's 4,895.
    assert family_tax_credit(62_700, None, "2026-27")["abatement"] != 5_400


@pytest.mark.parametrize("args", [{"family_income": -1}, {"family_income": 50_000, "children": 0}, {"family_income": 50_000, "tax_year": "2023-24"}])
def test_bad_arguments_are_named(args):
    assert "error" in call_tool("calculate_working_for_families", args)
