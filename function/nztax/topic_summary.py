"""Topic summaries: what the rules data says about a topic for one tax year, as answer lines.

In: a topic name (an intent's `rules_topic`: tax_rates, acc, student_loan, ietc, kiwisaver, esct,
secondary, pir, ...) and one year's `TaxYearRules`. Out: markdown lines (sentences, a bullet list,
or a rates table that say_rows.py reads rows from); [] for a topic the data says nothing about or a
section that (partial) year has not published. say.fact shows them under a fact answer's lead.

    topic_lines("acc", rules.years["2026-27"])   # ["The ACC earners' levy for 2026-27 is 1.75% ..."]
"""

from __future__ import annotations

from nztax.composer import band_label, kiwisaver_reduction, money, pct, section_or_none, threshold_change, with_acc_levy
from nztax.rules import TaxYearRules, rate_with_acc_levy


def _tax_rates(it, rules: TaxYearRules) -> list[str]:
    y = rules.year
    lines = [f"Income tax rates for individuals in the {y} tax year ({rules.start:%-d %B %Y} to {rules.end:%-d %B %Y}):", "",
             "| Taxable income | Rate |", "|---|---|"]
    lines += [f"| {band_label(b.lower, b.upper)} | {pct(b.rate)} |" for b in it.bands]
    if it.composite_rates:
        lines += ["", f"The thresholds changed {threshold_change(y)}, so this year's rates include IRD's composite (blended) rates."]
    return lines


def _acc(acc, rules: TaxYearRules) -> list[str]:
    return [f"The ACC earners' levy for {rules.year} is {pct(acc.rate)} of liable earnings, up to maximum liable earnings "
            f"of {money(acc.max_liable_earnings)} (a maximum levy of {money(acc.max_levy)}). For employees it is "
            "deducted as part of PAYE."]


def _student_loan(sl, rules: TaxYearRules) -> list[str]:
    y = rules.year
    pt = sl.period_thresholds
    return [f"In {y}, student loan repayments are {pct(sl.rate)} of income over the repayment threshold of "
            f"{money(sl.annual_threshold)} a year. Employers deduct it each pay on earnings over {money(pt.weekly)} a week, "
            f"{money(pt.fortnightly)} a fortnight, {money(pt.four_weekly)} every four weeks or {money(pt.monthly)} a month "
            "(tax codes with SL)."]


def _ietc(ietc, rules: TaxYearRules) -> list[str]:
    y = rules.year
    p = ietc.periods[-1]
    lines = [f"The independent earner tax credit (IETC) in {y} is up to {money(p.amount)} a year. The full credit is for "
             f"income between {money(p.income_from)} and {money(p.abatement_from)}; above that it reduces by "
             f"{pct(p.abatement_rate)} of the extra income and stops at {money(p.income_to)}. It isn't available if you "
             "or your partner get Working for Families tax credits, or you get an income-tested benefit or NZ Super. "
             "Salary and wage earners get it through the ME tax code."]
    if len(ietc.periods) > 1:
        first = ietc.periods[0]
        lines.append(f"Before {p.start:%-d %B %Y} the credit reduced from {money(first.abatement_from)} and stopped at "
                     f"{money(first.income_to)}.")
    return lines


def _kiwisaver(ks, rules: TaxYearRules) -> list[str]:
    y = rules.year
    rates = ", ".join(pct(r) for r in ks.employee_rates)
    lines = [f"In {y}, KiwiSaver employee contribution rates are {rates} of gross pay; the default is "
             f"{pct(ks.default_employee_rate)}. Employers must contribute at least {pct(ks.employer_minimum_rate)}."]
    if ks.temporary_reduction_rate is not None:
        lines.append(kiwisaver_reduction(ks))
    return lines + topic_lines("government_contribution", rules)


def _government_contribution(gc, rules: TaxYearRules) -> list[str]:
    cap = f" It isn't paid if your income is over {money(gc.income_cap)}." if gc.income_cap else ""
    return [f"The government contribution for the KiwiSaver year from {gc.kiwisaver_year_start:%-d %B %Y} is "
            f"{pct(gc.match_rate)} of your own contributions, up to {money(gc.maximum)} (reached with "
            f"{money(gc.contributions_for_maximum)} of contributions), for members aged {gc.min_age} to {gc.max_age}.{cap}"]


def _esct(esct, rules: TaxYearRules) -> list[str]:
    y = rules.year
    lines = [f"Employer contributions to KiwiSaver are taxed with ESCT. In {y} the rate depends on your salary "
             "or wages plus employer contributions for the previous year:", "", "| Threshold income | ESCT rate |", "|---|---|"]
    return lines + [f"| {band_label(b.lower, b.upper)} | {pct(b.rate)} |" for b in esct.bands]


def _secondary(sec, rules: TaxYearRules) -> list[str]:
    y = rules.year
    period = sec.periods[-1]
    lines = [f"For a second job, the secondary tax code follows your expected total income for the year ({y}):", "",
             "| Code | Total yearly income up to | Rate | With the ACC earners' levy |", "|---|---|---|---|"]
    for code, c in period.codes.items():
        combined = pct(rate_with_acc_levy(c.rate, rules.data.acc_levy))
        lines.append(f"| {code} | {money(c.income_to) if c.income_to is not None else 'no limit'} | {pct(c.rate)} | {combined} |")
    lines += ["", "Payroll deducts the rate with the ACC earners' levy; add SL if you have a student loan."]
    return lines


def _tax_codes(_, rules: TaxYearRules) -> list[str]:
    fc = section_or_none(rules, "flat_codes")
    lines = ["Your tax code tells your employer how much tax to deduct: M for your main job, ME if you also "
             "qualify for the independent earner tax credit, SL added if you have a student loan, and SB, S, SH, "
             "ST or SA for a second job."]
    if fc is not None:
        lines.append(f"Without a declaration or IRD number you are taxed at the non-declaration rate of "
                     f"{with_acc_levy(fc.codes['ND'].rate, rules)} (code ND).")
    return lines


def _donations(dc, rules: TaxYearRules) -> list[str]:
    return [f"You can claim a donation tax credit of {pct(dc.rate)} (one third) of donations of {money(dc.minimum_donation)} or "
            f"more to approved donee organisations, limited to one third of your taxable income. Claims can be made "
            f"for up to {dc.claim_years} years."]


def _pir(pir, rules: TaxYearRules) -> list[str]:
    y = rules.year
    lines = ["Your prescribed investor rate (PIR) for a PIE such as a KiwiSaver fund depends on your income in either of the last two tax years:"]
    for tier in pir.rates:  # (a year whose limits no IRD page we hold confirms gives the rule, not another year's limits)
        lines.append(f"- {pct(tier.rate)} if taxable income was {money(tier.taxable_income_max)} or less and taxable plus PIE income was "
                     f"{money(tier.total_income_max)} or less;" if pir.limits_stated else f"- {pct(tier.rate)} if your income is within its limits;")
    lines.append(f"- {pct(pir.default_rate)} otherwise (also the rate when none is given).")
    return lines + ([] if pir.limits_stated else ["", f"The income limits for {y} are not confirmed on an Inland Revenue page I hold, so I "
                                                  f"don't state them: IRD's Find my PIR tool ({pir.finder or pir.source}) works out your rate."])


def _rwt(rwt, rules: TaxYearRules) -> list[str]:
    rates = ", ".join(pct(r) for r in rwt.interest_rates)
    return [f"Resident withholding tax (RWT) on interest can be deducted at {rates}. If you give your IRD number but "
            f"choose no rate, {pct(rwt.default_rate)} is used; without an IRD number it is {pct(rwt.non_declaration_rate)}."]


def _paye(acc, rules: TaxYearRules) -> list[str]:
    return [f"PAYE is the tax your employer deducts from each pay, based on your tax code. It includes the ACC "
            f"earners' levy ({pct(acc.rate)} in {rules.year}). To see the figures for a pay, ask with your pay and how "
            "often you're paid, or use the PAYE calculator."]


# Each topic: the section of the year's rules its lines are read from (None: the year itself), the lines,
# and what is said when the year has not published that section (nothing, unless given).
_TOPICS = {
    "tax_rates": ("income_tax", _tax_rates, "Income tax rates for {y} have not been published yet."),
    "acc": ("acc_levy", _acc, None),
    "student_loan": ("student_loan", _student_loan, None),
    "ietc": ("ietc", _ietc, None),
    "kiwisaver": ("kiwisaver", _kiwisaver, None),
    "government_contribution": ("government_contribution", _government_contribution, None),
    "esct": ("esct", _esct, None),
    "secondary": ("secondary_codes", _secondary, None),
    "tax_codes": (None, _tax_codes, None),
    "donations": ("donation_credit", _donations, None),
    "pir": ("pir", _pir, None),
    "rwt": ("rwt", _rwt, None),
    "paye": ("acc_levy", _paye, None),
}


def topic_lines(topic: str, rules: TaxYearRules) -> list[str]:
    """What the rules data says about a topic for one year (empty when it says nothing)."""
    if topic not in _TOPICS:
        return []
    section_name, lines, unpublished = _TOPICS[topic]
    section = section_or_none(rules, section_name) if section_name else None
    if section_name and section is None:
        return [unpublished.format(y=rules.year)] if unpublished else []
    return lines(section, rules)
