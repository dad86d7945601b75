"""The answers' Working for Families and FamilyBoost figures, each saying from when it applies.

In: one year's rules. Out: the placeholders the `wff` intent's lead fills (`wff_ftc`, `wff_abate_from`,
`wff_abate_rate`, `wff_abate_since`, `fb_sentence`): the FamilyBoost settings with the quarter they
began, the WFF abatement with its start date when that falls inside the years held, and, for a year
whose rules state no family tax credit amounts, that it is not yet stated (the answer
guard allows only the year's own figures, so last year's amounts are not carried over).
"""

from __future__ import annotations

from nztax.composer import money, pct
from nztax.rules import TaxYearRules


def _since(day) -> str:
    """"the July–September 2025 quarter" for a quarter's first day."""
    last = {1: "March", 4: "June", 7: "September", 10: "December"}[day.month]
    return f"the {day:%B}–{last} {day.year} quarter"


def family_values(rules: TaxYearRules) -> dict[str, str]:
    """Working for Families and FamilyBoost placeholders, each figure that changed saying from when."""
    d, v = rules.data, {}
    w = d.working_for_families
    since = f" from {w.abatement_from:%-d %B %Y}" if w.abatement_from else ""
    v.update(wff_abate_from=money(w.abatement_threshold), wff_abate_rate=pct(w.abatement_rate), wff_abate_since=since)
    if w.ftc_eldest_child is not None:
        v.update(ftc_eldest=money(w.ftc_eldest_child), ftc_other=money(w.ftc_each_other_child),
                 wff_ftc=(f": the family tax credit is {money(w.ftc_eldest_child)} a year for the eldest child and "
                          f"{money(w.ftc_each_other_child)} for each other child"))
    else:
        v["wff_ftc"] = f" (the IRD pages held here do not yet state the family tax credit amounts for {rules.year})"
    fb = d.familyboost
    v["fb_sentence"] = ""
    if fb is not None:
        p = fb.periods[-1]
        start = p.since or p.start
        v["fb_sentence"] = (
            f"From {_since(start)}, FamilyBoost pays back {pct(p.rate)} of early childhood education fees, up to "
            f"{money(p.quarterly_max)} a quarter, less {float(p.abatement_rate) * 100:g} cents for each dollar of household "
            f"income over {money(p.abatement_threshold)} a quarter, so nothing at {money(p.income_limit)} a quarter.")
    return v

    return v
