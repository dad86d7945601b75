"""The family payments' parts of the tax-year pages: Working for Families and FamilyBoost.

In: one year's rules (`TaxYearRules`). Out: (heading, markdown) per published family section, for
`render.year_sections`. Figures that apply from a date inside the years shown say from when
(FamilyBoost by quarter; the WFF abatement from 1 April 2026); amounts no stored IRD page states
for the year are said to be not stated rather than carried over.
"""

from __future__ import annotations

from .render import long_date, md_escape, money, percent, rules_source_title, table


def _source(url: str, section: str) -> str:
    return f"<small>Source: [{md_escape(rules_source_title(section, url))}]({url})</small>\n"


def _quarter(day) -> str:
    """"July–September 2025" for any day of that quarter."""
    first = day.replace(month=3 * ((day.month - 1) // 3) + 1, day=1)
    last = {1: "March", 4: "June", 7: "September", 10: "December"}[first.month]
    return f"{first:%B}–{last} {first.year}"


def _cents(rate) -> str:
    return f"{float(rate) * 100:g}c"


def _quarters(p, last: bool) -> str:
    first, end = _quarter(p.since or p.start), _quarter(p.end)
    if last:
        return f"From the {first} quarter"
    return f"The {first} quarter" if first == end else f"The {first} to {end} quarters"


def familyboost_change(old, new) -> str:
    """FamilyBoost's settings at the end of the old year and through the new one, when they change."""
    a, b = old.data.familyboost, new.data.familyboost
    if b is None:
        return ""
    if a is None:
        return "## FamilyBoost\n\nFamilyBoost began on 1 July 2024.\n"
    same = {"start", "end", "since"}
    if len(b.periods) == 1 and a.periods[-1].model_dump(exclude=same) == b.periods[0].model_dump(exclude=same):
        return ""
    shown = [(a.periods[-1], False), *[(p, p is b.periods[-1]) for p in b.periods]]
    rows = [[_quarters(p, last), percent(p.rate), money(p.quarterly_max),
             f"{_cents(p.abatement_rate)} a dollar over {money(p.abatement_threshold)}", money(p.income_limit)] for p, last in shown]
    return "## FamilyBoost\n\n" + table(["Quarters", "Share of ECE fees", "Most a quarter", "Reduced by", "Nothing at"], rows)


def family_sections(rules) -> list[tuple[str, str]]:
    d = rules.data
    out: list[tuple[str, str]] = []
    w = d.working_for_families
    if w is not None:
        since = f" (from {long_date(w.abatement_from.isoformat())})" if w.abatement_from else ""
        rows = [["Abatement" + since, f"{percent(w.abatement_rate)} of family income over {money(w.abatement_threshold)}"]]
        if w.ftc_eldest_child is not None:
            rows += [["Family tax credit, eldest child", money(w.ftc_eldest_child)],
                     ["Family tax credit, each other child", money(w.ftc_each_other_child)]]
        else:
            rows.append(["Family tax credit amounts", f"not yet stated on the IRD pages held here for {rules.year}"])
        iw = d.in_work_tax_credit
        if iw is not None:
            for p in iw.periods:
                rows.append(["In-work tax credit" + (f" ({long_date(p.start.isoformat())} to {long_date(p.end.isoformat())})" if len(iw.periods) > 1 else ""),
                             f"{money(p.up_to_three_children)} for 1–3 children, plus {money(p.each_child_after_third)} for each child after the third"])
        m = d.minimum_family_tax_credit
        if m is not None:
            rows.append(["Minimum family tax credit hours", f"{m.sole_parent_hours} a week (sole parent), {m.couple_hours} (couple)"])
        b = d.best_start
        if b is not None:
            if b.yearly_amount is not None:
                rows.append(["Best Start", f"{money(b.weekly_amount)} a week (up to {money(b.yearly_amount)} a year)"])
            tested = f"{percent(b.abatement_rate)} of family income over {money(b.abatement_threshold)}"
            if b.income_tested_from_birth_for_births_from:
                tested += f"; from birth for babies born on or after {long_date(b.income_tested_from_birth_for_births_from.isoformat())}"
            rows.append(["Best Start abatement", tested])
        text = "Yearly amounts; the abatement comes off the family tax credit first, then the in-work tax credit.\n\n"
        out.append(("Working for Families", text + table(["", ""], rows, ["---", "---"]) + _source(w.source, "working_for_families")))
    fb = d.familyboost
    if fb is not None:
        rows = [[_quarters(p, p is fb.periods[-1]), percent(p.rate), money(p.quarterly_max),
                 f"{_cents(p.abatement_rate)} a dollar over {money(p.abatement_threshold)}", money(p.income_limit)] for p in fb.periods]
        text = "Assessed per quarter on that quarter's household income; no end-of-year square-up.\n\n"
        out.append(("FamilyBoost", text + table(["Quarters", "Share of ECE fees", "Most a quarter", "Reduced by", "Nothing at"], rows)
                    + _source(fb.source, "familyboost")))
    return out
