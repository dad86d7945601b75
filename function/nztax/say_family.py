"""The answers' Working for Families and FamilyBoost figures, each saying from when it applies.

In: one year's rules. Out: the placeholders the `wff` intent's lead fills (`wff_ftc`, `wff_abate_from`,
`wff_abate_rate`, `wff_abate_since`, `fb_sentence`): the FamilyBoost settings with the quarter they
began, the WFF abatement with its start date when that falls inside the years held, and, for a year
whose rules state no family tax credit amounts, that it is not yet stated (the answer
guard allows only the year's own figures, so last year's amounts are not carried over).
In: a decision's worked results. Out: `wff_sum`, the sentence working a stated family income's abatement.
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


def wff_sum(rule_results: dict) -> str | None:
    """"Two kids, family income $62,700": the family tax credit's abatement on that income and, with
    the children counted, the credit left (worked out in decide.py); None when no sum was worked."""
    r = rule_results.get("wff")
    if r is None:
        return None
    if r["abatement"] == 0:
        out = (f"On a family income of {money(r['family_income'])} the family tax credit is not reduced: it abates only "
               f"on family income over {money(r['abatement_threshold'])}.")
    else:
        out = (f"On a family income of {money(r['family_income'])} the family tax credit is reduced by **{money(r['abatement'])}** "
               f"a year: {pct(r['abatement_rate'])} of the {money(r['income_over_threshold'])} over "
               f"{money(r['abatement_threshold'])}.")
    if r.get("ftc_amounts_stated") is False:
        out += f" {r['note']}"
    if "abatement_from" in r:
        out = out.replace("abates only on family income over", f"from {r['abatement_from']} abates only on family income over")
    if "full_credit" in r:
        kids = "one child" if r["children"] == 1 else f"{r['children']} children"
        out += f" For {kids} the full credit is **{money(r['full_credit'])}** a year"
        if r["abatement"] == 0:
            out += f" in {r['tax_year']}."
        else:
            out += f", so about **{money(r['credit_after_abatement'])}** is left for {r['tax_year']}"
            out += " (the rest of the abatement comes off the in-work tax credit)." if r["credit_after_abatement"] == 0 else "."
    return out + " Working for Families has other credits and rules too; IRD works out the exact amounts."
