"""The family tax credit on a stated family income (nz_tax_facts.md s7: $7,524 for the eldest child,
$6,130 for each other child, abated at 27% of family income over $42,700). Figures worked by hand."""

from nztax.calculators.wff import family_tax_credit


def test_abatement_and_what_is_left_for_two_children():
    # 62,700 - 42,700 = 20,000 x 27% = 5,400; 7,524 + 6,130 = 13,654 - 5,400 = 8,254.
    r = family_tax_credit(62_700, 2, "2026-27")
    assert (r["abatement"], r["full_credit"], r["credit_after_abatement"]) == (5_400, 13_654, 8_254)


def test_no_abatement_under_the_threshold():
    # 40,000 is under 42,700; three children: 7,524 + 2 x 6,130 = 19,784.
    r = family_tax_credit(40_000, 3, "2026-27")
    assert (r["abatement"], r["full_credit"], r["credit_after_abatement"]) == (0, 19_784, 19_784)


def test_an_abatement_larger_than_the_credit_leaves_none_of_it():
    # 80,000 - 42,700 = 37,300 x 27% = 10,071 > 7,524 for one child.
    r = family_tax_credit(80_000, 1, "2026-27")
    assert (r["abatement"], r["credit_after_abatement"]) == (10_071, 0)


def test_without_children_only_the_abatement():
    # 55,000 - 42,700 = 12,300 x 27% = 3,321.
    r = family_tax_credit(55_000, None, "2026-27")
    assert r["abatement"] == 3_321 and "full_credit" not in r
