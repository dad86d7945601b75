"""The working shown under an answer from the two pay calculators: PAYE on an extra pay and the
year-end square-up.

In: the tool's name, arguments and result. Out: markdown lines (a table and the steps), the
figures all taken from the result.
"""

from __future__ import annotations

from nztax.composer import money, pct

TOOLS = ("calculate_extra_pay_paye", "calculate_year_end_square_up")


def describe(name: str, args: dict, result: dict) -> list[str]:
    return _extra_pay(result) if name == "calculate_extra_pay_paye" else _square_up(result)


def _extra_pay(r: dict) -> list[str]:
    freq = str(r["pay_frequency"]).replace("_", "-")
    if r["grossed_up_income"] is None:
        steps = [f"Tax code {r['tax_code']} takes its flat rate of {pct(r['tax_rate'])} on the extra pay."]
    else:
        threshold = f", plus the {r['tax_code'].split()[0]} code's low threshold of {money(r['secondary_threshold'])}" if r["secondary_threshold"] else ""
        steps = [f"Earnings annualised ({r['annualising_rule']}, {freq} pay): {money(r['earnings_annualised'])} → {money(r['annualised_income'])} a year{threshold}.",
                 f"Plus the extra pay: {money(r['grossed_up_income'])}, in the {pct(r['tax_rate'])} band, so all of the extra pay is taxed at {pct(r['tax_rate'])}.",
                 ("No ACC earners' levy on a redundancy payment." if not r["acc_levy_rate"] else
                  f"The ACC earners' levy ({pct(r['acc_levy_rate'])}, up to the maximum liable earnings) is added.")]
    lines = [f"{n}. {s}" for n, s in enumerate(steps, 1)] + ["", "| | Amount |", "|---|---|",
             f"| Extra pay | {money(r['extra_pay'])} |",
             f"| PAYE (includes the ACC earners' levy of {money(r['acc_levy'])}) | {money(r['paye'])} |"]
    if r["student_loan"]:
        lines.append(f"| Student loan | {money(r['student_loan'])} |")
    if r["kiwisaver_employee"]:
        lines.append(f"| KiwiSaver (your contribution) | {money(r['kiwisaver_employee'])} |")
    lines.append(f"| **You keep** | **{money(r['net_extra_pay'])}** |")
    view = r.get("year_end")
    if view:
        lines += ["", f"At the end of the year, on {money(view['assumed_other_income'])} of other income, the year's bands tax the extra pay at "
                  f"{money(view['income_tax_due_on_extra_pay'])} against {money(view['income_tax_withheld'])} taken: "
                  + (f"about {money(view['over_withheld'])} comes back in the square-up." if view["over_withheld"] > 0 else "nothing comes back on it.")]
    return lines + [*r.get("notes", []), "", "Worked out by IRD's extra-pay method (payroll specification), to the cent."]


def _square_up(r: dict) -> list[str]:
    lines = [f"{r['summary']} ({r['tax_year']})", "", "| Source | Income | Tax taken | Tax due on it |", "|---|---|---|---|"]
    for s in r["sources"]:
        lines.append(f"| {s['source']} | {money(s['income'])} | {money(s['tax_paid'])} | {money(s['tax_due'])} |")
    lines.append(f"| **Year** | **{money(r['total_income'])}** | **{money(r['tax_paid'])}** | **{money(r['tax_due'])}** |")
    if r["ietc"]:
        lines += ["", f"The tax due includes the independent earner tax credit of {money(r['ietc'])}."]
    lines += ["", *[f"- {w}" for w in r["why"]]]
    loan = r.get("student_loan") or {}
    if loan.get("has_loan"):
        lines += ["", loan["reason"]]
    if r.get("donation_tax_credit"):
        lines += ["", f"Donation tax credit, claimed separately: {money(r['donation_tax_credit'])}."]
    return lines + ["", *r["notes"]]
