"""Say: write the answer for a decision — the sentence that answers the question first, then the
working, then the sources.

In: a `Decision` (decide.py), calculator results, retrieved passages, the rule book. Out: `AskResult`.

- calculate: one to three sentences with the figure the question asked for, in the period it asked
  about; then the calculator's working (composer.describe_tool_result).
- fact: the catalogue's lead sentence with its {placeholders} filled from the year's rules data;
  then the rules summary, then the passage sentences that best support it.
- topic: the retrieved sentences that best answer the question (sentence-level scoring against the
  question), each cited; "not in my sources" when none does.
- clarify, decline, refuse: fixed copy (composer).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from decimal import Decimal
from typing import Any

from nztax import composer
from nztax.calculators.paye import PRIMARY_CODES
from nztax.composer import money, pct, section_or_none
from nztax.contract import AskResult, Citation, ToolCall
from nztax.decide import LOAN_DEDUCTION_ASKED, Decision, base_code
from nztax.rules import PAY_FREQUENCIES, RuleBook, TaxYearRules
from nztax.slots import ASKS_IF_RIGHT
from nztax.query_expansion import canonical_terms
from nztax.understand import words

PERIOD_WORDS = {"weekly": "week", "fortnightly": "fortnight", "four_weekly": "four weeks", "monthly": "month",
                "annual": "year"}
# "a week", "every four weeks": how a result's pay period reads after an amount.
PER_PERIOD = {"weekly": "a week", "fortnightly": "a fortnight", "four_weekly": "every four weeks", "monthly": "a month",
              "annual": "a year"}
# Sentences quoted under a fact or topic answer.
LEAD_SENTENCES = 4
SUPPORT_SENTENCES = 2
# A sentence must share at least this share of the question's words to answer it on its own.
MIN_SENTENCE_COVERAGE = 0.2
# Words every tax passage shares with every tax question (as `words` stems them: "taxes" is "taxe").
GENERIC_WORDS = frozenset({"tax", "taxe", "taxed", "taxable", "ird", "inland", "revenue", "income", "pay", "paid", "nz"})
QUESTION_AMOUNT = re.compile(r"\$\s?\d[\d,.]*\s?k?\b|\b\d{1,3}(?:,\d{3})+(?:\.\d+)?\b|\b\d+(?:\.\d+)?\s?k\b", re.I)
# Added to a sentence's score by the rank of its passage (first, second, third …).
RANK_BONUS = (0.2, 0.1, 0.05)
# Added to a sentence holding a figure when the question asks for one ("how long", "threshold").
FIGURE_BONUS = 0.1
FIGURE_MIN_COVERAGE = 0.3


# ---------------------------------------------------------------------------------------------
# Facts: the lead sentence's placeholders, from the rules data


def fact_values(rules: TaxYearRules) -> dict[str, str]:
    """Every {placeholder} a catalogue lead may use, for one tax year."""
    v: dict[str, str] = {"year": rules.year}
    it = section_or_none(rules, "income_tax")
    if it is not None:
        v.update(first_rate=pct(it.bands[0].rate), first_threshold=money(it.bands[0].upper),
                 top_rate=pct(it.bands[-1].rate), top_threshold=money(it.bands[-1].lower))
    acc = rules.data.acc_levy
    if acc is not None:
        v.update(acc_rate=pct(acc.rate), acc_max_earnings=money(acc.max_liable_earnings), acc_max_levy=money(acc.max_levy))
    sl = section_or_none(rules, "student_loan")
    if sl is not None:
        v.update(sl_rate=pct(sl.rate), sl_threshold=money(sl.annual_threshold), sl_weekly=money(sl.period_thresholds.weekly))
    ietc = section_or_none(rules, "ietc")
    if ietc is not None:
        p = ietc.periods[-1]
        v.update(ietc_max=money(p.amount), ietc_from=money(p.income_from), ietc_to=money(p.income_to),
                 ietc_abate_from=money(p.abatement_from))
    ks = section_or_none(rules, "kiwisaver")
    if ks is not None:
        rates = [pct(r) for r in ks.employee_rates]
        v.update(ks_rates=", ".join(rates[:-1]) + f" or {rates[-1]}", ks_default=pct(ks.default_employee_rate),
                 employer_min=pct(ks.employer_minimum_rate),
                 ks_reduction=" " + composer.kiwisaver_reduction(ks) if ks.temporary_reduction_rate is not None else "")
    gc = section_or_none(rules, "government_contribution")
    if gc is not None:
        cents = int(round(float(gc.match_rate) * 100))
        v.update(gc_match=f"{cents} cents for every dollar", gc_max=money(gc.maximum), gc_contrib=money(gc.contributions_for_maximum),
                 gc_min_age=str(gc.min_age), gc_max_age=str(gc.max_age),
                 gc_cap_text=f", and not if your income is over {money(gc.income_cap)}" if gc.income_cap else "")
    esct = section_or_none(rules, "esct")
    if esct is not None:
        v.update(esct_first_rate=pct(esct.bands[0].rate), esct_top_rate=pct(esct.bands[-1].rate))
    dc = section_or_none(rules, "donation_credit")
    if dc is not None:
        v.update(donation_rate="a third", donation_min=money(dc.minimum_donation), donation_years=str(dc.claim_years))
    pir = section_or_none(rules, "pir")
    if pir is not None:
        rates = [pct(t.rate) for t in pir.rates] + [pct(pir.default_rate)]
        v.update(pir_rates=", ".join(rates[:-1]) + f" or {rates[-1]}")
    rwt = section_or_none(rules, "rwt")
    if rwt is not None:
        rates = [pct(r) for r in rwt.interest_rates]
        v.update(rwt_rates=", ".join(rates[:-1]) + f" or {rates[-1]}", rwt_nd=pct(rwt.non_declaration_rate))
    v.update(_topic_values(rules))
    fc = section_or_none(rules, "flat_codes")
    if fc is not None and "ND" in fc.codes:
        v["nd_rate"] = composer.with_acc_levy(fc.codes["ND"].rate, rules)
    for code, flat in (fc.codes.items() if fc is not None else ()):
        # The code for work with a flat code of its own ("on the RSE scheme"), as the answer's opening.
        v[f"flat_{code}"] = (f"For this work ({flat.meaning.lower()}) your employer uses the **{code}** tax code: "
                             f"a flat {composer.with_acc_levy(flat.rate, rules)}. ")
    v["code_main"] = v["rule_sum"] = ""
    return v


def _topic_values(rules: TaxYearRules) -> dict[str, str]:
    """Placeholders for the topics beyond the rate tables (provisional tax, FIFs, residence, the end
    of the year, bright-line, Working for Families), where the year's rules data has them."""
    d, v = rules.data, {}
    if d.provisional_tax is not None:
        p = d.provisional_tax
        v.update(pt_threshold=money(p.residual_income_tax_threshold), pt_uplift=pct(p.standard_uplift),
                 pt_uplift_unfiled=pct(p.standard_uplift_unfiled),
                 pt_dates=", ".join(p.instalment_dates[:-1]) + f" and {p.instalment_dates[-1]}")
    if d.foreign_investment_funds is not None:
        f = d.foreign_investment_funds
        v.update(fif_threshold=money(f.de_minimis_cost), fdr_rate=pct(f.fair_dividend_rate))
    if d.residency is not None:
        r = d.residency
        v.update(res_days=str(r.days_present), res_absent=str(r.days_absent), res_transitional=str(r.transitional_months), res_transitional_years=str(r.transitional_years))
    if d.year_end is not None:
        e = d.year_end
        v.update(untaxed_limit=money(e.untaxed_income_limit), return_due=e.return_due, tax_due=e.tax_to_pay_due)
    if d.bright_line is not None:
        v.update(bl_years=str(d.bright_line.years), bl_from=d.bright_line.sales_from)
    if d.working_for_families is not None:
        from nztax.say_family import family_values

        v.update(family_values(rules))
    return v


def fill(template: str, values: dict[str, str]) -> str | None:
    """The template with its placeholders filled, or None when the year lacks one of them."""
    try:
        return template.format(**values)
    except (KeyError, IndexError):
        return None


# ---------------------------------------------------------------------------------------------
# Calculations: the answer's first sentences


def _per(period: str | None) -> str:
    return PER_PERIOD.get(period or "annual", "a year")


def _other_deductions(figures: dict) -> str:
    """', student loan $X, KiwiSaver $Y' for whichever of the two a result deducts."""
    out = ""
    if figures.get("student_loan"):
        out += f", student loan {money(figures['student_loan'])}"
    if figures.get("kiwisaver_employee"):
        out += f", KiwiSaver {money(figures['kiwisaver_employee'])}"
    return out


# "how much student loan should come off each week?", "what's the SL deduction each month": the loan is what is asked.


def _loan_rule(rate, frequency: str, threshold, secondary: bool) -> str:
    """How one pay's student loan deduction is worked: the rate on every dollar of a secondary code's pay,
    or on the pay over the pay period's threshold."""
    if secondary:
        return f"{pct(rate)} of every dollar, as a secondary code has no threshold"
    return f"{pct(rate)} of the pay over the {frequency.replace('_', '-')} threshold of {money(threshold)}"


def lead_for(name: str, args: dict, result: dict, decision: Decision) -> str:
    """The sentence that answers the question, in the period it asked about."""
    if "error" in result:
        return ""
    y = result.get("tax_year", decision.tax_year)
    asked = decision.slots.asked_period
    if name == "calculate_income_tax" and result.get("other_income"):
        # (The total on both is left to the working: a reader skimming for "the tax" takes the lead's figure.)
        return (f"The {money(result['other_income'])} on top of {money(result['income_without_other'])} adds "
                f"**{money(result['tax_on_other_income'])}** of income tax in {y}, its top dollar taxed at "
                f"{pct(result['marginal_rate'])} (income tax on {money(result['income_without_other'])} alone is "
                f"{money(result['tax_without_other_income'])}).")
    if name == "calculate_income_tax":
        return (f"Income tax on {money(result['taxable_income'])} in {y} is **{money(result['total_tax'])}** for the year: "
                f"an average rate of {pct(result['effective_rate'])}, with the top dollar taxed at {pct(result['marginal_rate'])}.")
    if name == "calculate_take_home_pay" and result.get("other_income"):
        extra = result["other_income"]
        parts = [f"{money(extra['income_tax'])} of income tax", f"{money(extra['acc_levy'])} of ACC earners' levy"]
        parts += [f"{money(extra[k])} of {label}" for k, label in (("student_loan", "student loan"), ("kiwisaver_employee", "KiwiSaver"))
                  if extra.get(k)]
        lost = f", and {money(-extra['ietc'])} less IETC" if extra.get("ietc") and extra["ietc"] < 0 else ""
        return (f"Of the {money(extra['amount'])} on top of {money(extra['rest_of_salary'])}, you keep about **{money(extra['kept'])}** "
                f"({y}): it adds {', '.join(parts[:-1])} and {parts[-1]}{lost}.")
    if name == "calculate_take_home_pay":
        per = result.get("per_pay") or {}
        if asked in PERIOD_WORDS and asked != "annual" and per:
            return (f"On {money(result['annual_salary'])} a year ({y}), your take-home pay is about "
                    f"**{money(per['net_pay'])} {_per(per['pay_frequency'])}**: each pay of {money(per['gross_pay'])} "
                    f"loses PAYE of {money(per['paye'])}{_other_deductions(per)}.")
        credit = f", plus the IETC of {money(result['ietc'])}" if result.get("ietc") else ""
        return (f"On {money(result['annual_salary'])} a year ({y}), your take-home pay is about **{money(result['net_pay'])} a year** "
                f"after income tax {money(result['income_tax'])}, ACC levy {money(result['acc_levy'])}"
                f"{_other_deductions(result)}{credit}.")
    if name == "calculate_paye" and result.get("student_loan") and LOAN_DEDUCTION_ASKED.search(decision.asked) \
            and not decision.slots.names_take_home and not any(n == "calculate_student_loan_repayment" for n, _ in decision.calls):
        # A student loan question about one pay (asked as PAYE): the employer's deduction leads, with
        # the pay period's threshold it is worked over.
        loan = decision.rules.years[y].data.student_loan if decision.rules and y in decision.rules.years else None
        over = "" if loan is None else ": " + _loan_rule(loan.rate, result["pay_frequency"], getattr(loan.period_thresholds, result["pay_frequency"]),
                                                         secondary=base_code(result["tax_code"]) not in PRIMARY_CODES)
        return (f"The student loan deduction from a pay of {money(result['gross_pay'])} {_per(result['pay_frequency'])} "
                f"({y}) is **{money(result['student_loan'])}**{over}. PAYE on the same pay is {money(result['paye'])}, "
                f"leaving {money(result['net_pay'])}.")
    if name == "calculate_paye":
        freq = PERIOD_WORDS.get(result["pay_frequency"], result["pay_frequency"])
        extra = _other_deductions(result)
        # A flat-rate code ("what rate is that?" of ND): its rate, as payroll takes it.
        year_rules = decision.rules.years.get(y) if decision.rules else None
        flat = _flat_code_rate(year_rules, result["tax_code"])
        rate = f" ({base_code(result['tax_code'])} is a flat {composer.with_acc_levy(flat, year_rules)})" if flat is not None else ""
        return (f"On a pay of {money(result['gross_pay'])} {_per(result['pay_frequency'])} on tax code {result['tax_code']} ({y}), "
                f"PAYE is **{money(result['paye'])}**{extra}, so you take home **{money(result['net_pay'])}** each {freq}{rate}.")
    if name == "calculate_acc_levy":
        if result.get("levy_per_pay") is not None:
            return (f"The ACC earners' levy is **{money(result['levy_per_pay'])} {_per(result['pay_frequency'])}**: "
                    f"{money(result['annual_levy'])} for the year on {money(result['liable_income'])} of earnings ({y}).")
        return f"The ACC earners' levy on {money(result['liable_income'])} of earnings in {y} is **{money(result['annual_levy'])}** for the year."
    if name == "calculate_student_loan_repayment" and result.get("deduction_per_pay") is not None:
        # One pay's deduction, with the pay period's threshold it is worked over.
        over = _loan_rule(result["rate"], result["pay_frequency"], result["period_threshold"], secondary=bool(result.get("secondary_income")))
        return (f"The student loan deduction from a pay of {money(result['gross_pay'])} {_per(result['pay_frequency'])} "
                f"({y}) is **{money(result['deduction_per_pay'])}**: {over}.")
    if name == "calculate_student_loan_repayment":
        return (f"On {money(args.get('annual_income', 0))} a year ({y}), student loan repayments are about "
                f"**{money(result['annual_repayment'])} a year**: {pct(result['rate'])} of income over {money(result['threshold'])}.")
    if name == "calculate_ietc":
        # "Yes."/"No." answers whether they get it, when that is what the answer leads with (not beside PAYE on two codes).
        answers_whether = not decision.calls or decision.calls[0][0] == name
        if result.get("eligible"):
            return (f"{'Yes. ' if answers_whether else ''}On {money(args.get('annual_income', 0))} in {y}, the independent earner "
                    f"tax credit is **{money(result['annual_credit'])}** for the year.")
        return (f"{'No. ' if answers_whether else ''}On {money(args.get('annual_income', 0))} in {y} you would not get the "
                f"independent earner tax credit. {result.get('reason', '')}").strip()
    if name == "calculate_kiwisaver":
        if args.get("member_contributions") is not None and result.get("government_contribution") is not None:
            reason = result.get("government_contribution_reason", "")
            if not result["government_contribution"] and reason.startswith("Not paid"):
                return (f"No. No government contribution is paid for the KiwiSaver year {result.get('kiwisaver_year', '')} "
                        f"(1 July to 30 June) in this case. {reason}")
            return (f"On {money(args['member_contributions'])} of your own contributions in the KiwiSaver year "
                    f"{result.get('kiwisaver_year', '')} (1 July to 30 June), the government contribution is "
                    f"**{money(result['government_contribution'])}**. {reason}").strip()
        period = args.get("pay_frequency", "annual")
        return (f"At {pct(result['employee_rate'])}, you put in **{money(result['employee_contribution'])}** {_per(period)}; your employer "
                f"adds {money(result['employer_contribution'])}, and after ESCT at {pct(result['esct_rate'])} ({money(result['esct'])}) "
                f"**{money(result['employer_contribution_net'])}** of it reaches your account.")
    if name == "calculate_donation_tax_credit":
        pay = next((a for a in decision.slots.amounts if a.role == "donation" and a.period in PAY_FREQUENCIES
                    and float(a.value) == args.get("donations")), None)
        if pay is not None:
            return (f"On {money(result['eligible_donations'])} given {_per(pay.period)}, the tax credit is **{money(result['credit'])}** "
                    f"on each pay: through payroll giving your employer takes it off that pay's PAYE ({y}).")
        return f"You can claim back **{money(result['credit'])}** on {money(result['eligible_donations'])} of donations ({y})."
    if name == "find_prescribed_investor_rate":
        return f"Your prescribed investor rate (PIR) is **{pct(result['rate'])}**."
    if name == "calculate_extra_pay_paye":
        return _extra_pay_lead(result)
    if name == "calculate_year_end_square_up":
        return _square_up_lead(result)
    if name == "choose_secondary_tax_code":
        return (f"Use **{result['tax_code']}** for the second job: with a total income of {money(args.get('total_annual_income', 0))} "
                f"a year, its pay is taxed at {pct(result['rate'])} ({pct(result['rate_with_acc_levy'])} with the ACC earners' levy)"
                + (f", and student loan is taken at {pct(result['student_loan_rate'])} of every dollar of it." if "SL" in result["tax_code"] else "."))
    return ""


def _extra_pay_lead(result: dict) -> str:
    """PAYE on the extra pay, the rate and why, and what the square-up gives back on it."""
    levy = " plus the ACC earners' levy" if result["acc_levy"] else ""
    basis = ("its code's flat rate" if result["grossed_up_income"] is None else
             f"the rate for your annualised income of {money(result['annualised_income'])} plus the extra pay ({money(result['grossed_up_income'])})")
    lead = (f"PAYE on the {money(result['extra_pay'])} extra pay is **{money(result['paye'])}** ({result['tax_year']}): all of it is taxed at "
            f"{pct(result['tax_rate'])}{levy}, {basis}. You keep {money(result['net_extra_pay'])}")
    deductions = [f"{money(result[k])} {label}" for k, label in (("student_loan", "student loan"), ("kiwisaver_employee", "KiwiSaver")) if result.get(k)]
    lead += f" after {' and '.join(deductions)} as well." if deductions else "."
    back = (result.get("year_end") or {}).get("over_withheld") or 0
    if back > 0:
        lead += (f" If the rest of your year's income is about {money(result['year_end']['assumed_other_income'])}, the year-end square-up "
                 f"gives back about {money(back)} of it: the year's bands tax it at {money(result['year_end']['income_tax_due_on_extra_pay'])}.")
    return lead


def _square_up_lead(result: dict) -> str:
    """Refund, bill or nothing for the year, and the first reason."""
    if result["result"] == "refund":
        head = f"You should get a **refund of {money(result['amount'])}** for {result['tax_year']}"
    elif result["result"] == "bill":
        head = f"You should have **{money(result['amount'])} of tax to pay** for {result['tax_year']}"
        head += " (written off automatically, as IRD does for a small bill)" if result["written_off"] else f", due {result['tax_to_pay_due']}"
    else:
        head = f"Your tax for {result['tax_year']} should square up to **nothing** to pay and no refund"
    reason = f" {result['why'][0]}" if result.get("why") else ""
    return (f"{head}: tax of {money(result['tax_due'])} on {money(result['total_income'])} against {money(result['tax_paid'])} already taken "
            f"(without the ACC levy).{reason}")


def _flat_code_rate(year_rules, tax_code):
    """The flat rate (before the ACC levy) of a flat-rate code such as ND in that year's rules, or None."""
    flat = section_or_none(year_rules, "flat_codes") if year_rules is not None else None
    code = flat.codes.get(base_code(str(tax_code or ""))) if flat is not None else None
    return code.rate if code is not None else None


# The figure a comparison is about, per calculator: (result field, what it is).
COMPARED_FIGURE = {"calculate_income_tax": ("total_tax", "income tax"),
                   "calculate_take_home_pay": ("net_pay", "take-home pay"),
                   "calculate_paye": ("net_pay", "take-home pay"),
                   "calculate_ietc": ("annual_credit", "independent earner tax credit"),
                   "calculate_acc_levy": ("annual_levy", "ACC earners' levy"),
                   "calculate_student_loan_repayment": ("annual_repayment", "student loan repayment"),
                   "calculate_kiwisaver": ("employee_contribution", "your KiwiSaver contribution")}
# The part of one pay's PAYE result a question is about, by the calculator it asks for: "how much more
# student loan comes off each week?" compares the loan's deduction, not only the take-home pay.
PAYE_PART_ASKED = {"calculate_paye": ("paye", "PAYE"), "calculate_student_loan_repayment": ("student_loan", "student loan deduction"),
                   "calculate_kiwisaver": ("kiwisaver_employee", "KiwiSaver deduction")}
# A calculator worked on one pay compares that pay's figure: (result field, what it is).
COMPARED_PER_PAY = {"calculate_student_loan_repayment": ("deduction_per_pay", "student loan deduction"),
                    "calculate_kiwisaver": ("employee_contribution", "your KiwiSaver contribution")}


def result_citations(result: dict, titles: dict[str, str]) -> list[Citation]:
    """The pages a calculator's result rests on: its own, then any part's (the government contribution's)."""
    if not isinstance(result, dict):
        return []
    return [Citation(title=titles.get(url, "Inland Revenue"), url=url) for key, url in result.items()
            if (key == "source" or key.endswith("_source")) and isinstance(url, str)]


def _difference(results: list[tuple[str, dict, dict]], decision: Decision | None = None) -> str | None:
    """The sentences a comparison is asked for: how far apart each calculator's two runs are
    ("90k vs 100k": in income tax, and in take-home pay when both were worked out)."""
    sentences = []
    pays = [r for n, _, r in results if n == "calculate_paye" and "error" not in r]
    asked_tool = decision.intent.tool if decision is not None and decision.intent is not None else None
    if decision is not None and LOAN_DEDUCTION_ASKED.search(decision.asked or ""):
        asked_tool = "calculate_student_loan_repayment"
    part = PAYE_PART_ASKED.get(asked_tool or "")
    if len(pays) == 2 and len(results) == 2 and part and all(r.get(part[0]) is not None for r in pays):
        gap = abs(Decimal(str(pays[0][part[0]])) - Decimal(str(pays[1][part[0]])))
        sentences.append(f"The difference in {part[1]} is **{money(gap)}** {_per(pays[0].get('pay_frequency'))}.")
    for name in dict.fromkeys(n for n, _, _ in results):
        # (A result without its pay period, the KiwiSaver calculator's, has it in its arguments.)
        runs = [{"pay_frequency": args.get("pay_frequency"), **r} for n, args, r in results if n == name]
        if len(runs) != 2 or any("error" in r for r in runs) or name not in COMPARED_FIGURE:
            continue
        a, b = runs
        per_pay = name == "calculate_paye" or (name in COMPARED_PER_PAY and a.get("pay_frequency") not in (None, "annual"))
        field_name, label = COMPARED_PER_PAY[name] if per_pay and name in COMPARED_PER_PAY else COMPARED_FIGURE[name]
        if a.get(field_name) is None or b.get(field_name) is None:
            continue
        gap = abs(Decimal(str(a[field_name])) - Decimal(str(b[field_name])))
        period = _per(a.get("pay_frequency")) if per_pay else "a year"
        sentences.append(f"The difference in {label} is **{money(gap)}** {period}.")
    return " ".join(sentences) or None


LEAD_FIGURE = re.compile(r"\*\*\$(?P<v>[\d,]+(?:\.\d+)?)")


# The words just before a lead figure that name it a tax ("PAYE is **$1,203.75**").
TAX_BEFORE = re.compile(r"\b(?:tax|paye|levy|repayments?|deductions?)\b[^*]{0,45}$", re.I)


def _stated_as_tax(decision: Decision, claimed) -> bool:
    """The frame reads the quoted figure as tax taken, a bill or a refund: it is checked against a tax
    figure, never a take-home pay that happens to lie near it."""
    frame = (decision.trace.frame if getattr(decision, "trace", None) is not None else None) or {}
    return any(a.get("start") == claimed.start and a.get("kind") in ("tax_withheld", "bill", "refund")
               for a in frame.get("amounts", []))


def _verdict(decision: Decision, lead: str) -> str | None:
    """A figure they ask us to check ("I worked out my levy as $742.05. Correct?") answered first:
    yes when the calculation's own figure is the same, to the cent; otherwise what it comes to."""
    checks = ASKS_IF_RIGHT.search(decision.asked or "")
    claimed = next((a for a in decision.slots.amounts if a.role == "claimed" or checks and a.role == "deduction"), None)
    figures = [Decimal(m.group("v").replace(",", "")) for m in LEAD_FIGURE.finditer(lead)
               if claimed is None or not _stated_as_tax(decision, claimed) or TAX_BEFORE.search(lead[max(0, m.start() - 60):m.start()])]
    if claimed is None or not figures:
        return None
    ours = min(figures, key=lambda f: abs(f - claimed.value))  # the lead's figure of the same kind
    if not (claimed.value / 2 <= ours <= claimed.value * 2):
        return None  # the sum worked out is not the figure they quoted (a credit against a take-home)
    if abs(ours - claimed.value) < Decimal("0.01"):
        return f"Yes, {money(claimed.value)} is right."
    return f"Not quite: it comes to {money(ours)}, not {money(claimed.value)}."


def together_total(results: list[tuple[str, dict, dict]]) -> Decimal | None:
    """Income tax and the ACC earners' levy on the same income ("and the levy on top of that?"):
    what the two come to together, or None."""
    by_name = {name: (args, result) for name, args, result in results if "error" not in result}
    if len(results) != 2 or set(by_name) != {"calculate_income_tax", "calculate_acc_levy"}:
        return None
    (tax_args, tax), (levy_args, levy) = by_name["calculate_income_tax"], by_name["calculate_acc_levy"]
    if tax.get("other_income") or tax_args.get("taxable_income") != levy_args.get("annual_income"):
        return None
    return Decimal(str(tax["total_tax"])) + Decimal(str(levy["annual_levy"]))


def take_home_together(results: list[tuple[str, dict, dict]]) -> tuple[Decimal, str] | None:
    """Several pays of one frequency, each worked by PAYE (one per job): what they leave together,
    and the frequency; or None."""
    pays = [r for name, _, r in results if name == "calculate_paye" and "error" not in r]
    if len(pays) < 2 or len({r["pay_frequency"] for r in pays}) != 1:
        return None
    return sum((Decimal(str(r["net_pay"])) for r in pays), Decimal(0)), pays[0]["pay_frequency"]


def calculation(decision: Decision, results: list[tuple[str, dict, dict]], rules: RuleBook, titles: dict[str, str],
                current_year: str) -> AskResult:
    leads, working, citations, tools = [], [], [], []
    approximate = False
    # One calculator on several amounts compares them, unless they are several jobs' pays.
    comparison = len({name for name, _, _ in results}) < len(results) and not decision.per_job
    one_pay = decision.slots.asked_period in PAY_FREQUENCIES
    paye_shown = {a.get("pay_frequency") for n, a, r in results if n == "calculate_paye" and "error" not in r}
    for name, args, result in results:
        citations += result_citations(result, titles)
        tools.append(ToolCall(name=name, arguments=args, result=result))
        if name == "calculate_take_home_pay" and one_pay and args.get("pay_frequency") in paye_shown and "error" not in result:
            continue  # the same pay's PAYE, student loan and KiwiSaver are already shown, to the cent
        lead = lead_for(name, args, result, decision)
        lines, approx = composer.describe_tool_result(name, args, result)
        approximate = approximate or approx
        if lead:
            leads.append(lead)
        if not comparison or "error" in result:
            working += ([""] if working else []) + lines
    difference = _difference(results, decision) if comparison else None
    if difference:
        leads.append(difference)
    together = together_total(results)
    if together is not None:
        leads.append(f"Together they come to **{money(together)}** for the year.")
    both = take_home_together(results) if decision.per_job else None
    if both is not None:
        # "What lands in my account from the two jobs together?"
        leads.append(f"From the jobs together you take home **{money(both[0])}** {_per(both[1])}.")
    verdict = _verdict(decision, leads[0] if leads else "")
    body = [" ".join(([verdict] if verdict else []) + leads)] if leads else []
    year_rules = rules.years.get(decision.tax_year)
    if year_rules is not None and decision.intent is not None and decision.intent.tool == "calculate_student_loan_repayment" \
            and all(name == "calculate_paye" for name, _, _ in results):
        # The loan's deduction from one pay, worked out by PAYE: its rules are the student loan's too.
        citations += composer.rule_citations(year_rules, composer.TOPIC_SECTIONS["student_loan"])
    if any(n == "calculate_paye" and _flat_code_rate(year_rules, a.get("tax_code")) is not None for n, a, _ in results):
        # A flat-rate code's pay (ND): the page that sets its rate.
        citations += composer.rule_citations(year_rules, ["flat_codes"])
    for extra in decision.also_facts if year_rules else ():
        # "… Also, does the ACC levy stop at some point?": the second question's answer from the rules.
        line = fill(extra.lead, fact_values(year_rules))
        if line:
            body += ["", line]
            for rules_topic in extra.topics:
                citations += composer.rule_citations(year_rules, composer.TOPIC_SECTIONS.get(rules_topic, []))
    if working:
        body += ["", "**How it's worked out**", ""] + working
    if decision.assumptions:
        body += ["", "Assumed: " + "; ".join(dict.fromkeys(decision.assumptions)) + "."]
    errors = all("error" in r for _, _, r in results)
    name = results[0][0] if results else ""
    actions = []
    if name == "calculate_income_tax" and not errors:
        # Chips are follow-ups: each carries the figure it continues from, so it needs nothing asked again.
        income = results[0][1].get("taxable_income")
        on = f" on {money(income)} a year" if income is not None else ""
        actions = [f"What is my take-home pay{on}?", "What about with a student loan?", f"Am I eligible for the IETC{on}?"]
    elif name in ("calculate_take_home_pay", "calculate_paye"):
        actions = ["What about with KiwiSaver at 4%?", "What tax code should I use?"]
    return AskResult(
        status="answered", answer="\n".join(body).strip(), citations=composer.dedupe(citations), tools=tools,
        tax_year=decision.tax_year,
        disclaimer=composer.disclaimer_for(decision, current_year, approximation=approximate, rules=rules),
        next_actions=actions[: composer.MAX_NEXT_ACTIONS],
    )


# ---------------------------------------------------------------------------------------------
# Sentences from passages


LEGAL_NUMBERING = re.compile(r"^\(\w{1,4}\)\s+")  # "(1) The family tax credit …" from legislation


def _sentences(hit) -> list[str]:
    return [LEGAL_NUMBERING.sub("", s) for s in composer.units(hit.text) if 25 <= len(s) <= 600]


YEAR_RANGE = re.compile(r"\b(20\d{2})\s?[-–/]\s?(\d{2})\b")
ASKS_FOR_A_FIGURE = re.compile(r"\bhow (much|long|many)\b|\bthreshold|\blimit|\brate\b|\bwhat'?s the\b|\bwhen\b|\bdue\b", re.I)


def _other_year(sentence: str, tax_year: str | None) -> bool:
    """True when the sentence is about tax years and none of them is the one asked about."""
    years = {f"{a}-{b}" for a, b in YEAR_RANGE.findall(sentence)}
    return bool(years) and tax_year is not None and tax_year not in years


FIGURE = re.compile(r"\$\d|\d%")  # a dollar amount or a rate in a sentence


def _several_years(sentence: str) -> bool:
    """Figures for several tax years in one sentence ("1.6% in 2024-25, 1.67% in 2025-26"): for a
    question about one earlier year, the others' figures read as its answer."""
    return len(set(YEAR_RANGE.findall(sentence))) > 1 and bool(FIGURE.search(sentence))


def _undated_figure(sentence: str, tax_year: str | None) -> bool:
    """A figure in a sentence that does not say its year: the sources describe today's rules, so for
    an earlier year such a figure may be another year's."""
    return bool(FIGURE.search(sentence)) and (tax_year is None or tax_year not in sentence)


def best_sentences(question: str, hits: list, limit: int, extra_words: set[str] | None = None,
                   tax_year: str | None = None, past_year: bool = False) -> list[tuple[str, Any]]:
    """The passage sentences that best answer the question: word overlap weighted by how rare each
    word is among the candidates, a bonus for the better-ranked passages (retrieval already read the
    whole question) and for a figure when one is asked for; sentences about another tax year are
    left out, and at most two come from one passage."""
    # (The question's own amounts are not words a passage shares with it: "$40,000 profit" is no "40";
    # a year or a rate still is.)
    plain = QUESTION_AMOUNT.sub(" ", question)
    # IRD's own term for a word the question uses ("bitcoin" -> "crypto-asset") is a word to share too.
    wanted = words(plain) | words(" ".join(canonical_terms(plain))) | (extra_words or set())
    if not wanted:
        return []
    candidates = [(s, hit, rank) for rank, hit in enumerate(hits) for s in _sentences(hit)
                  if not _other_year(s, tax_year) and not (past_year and (_undated_figure(s, tax_year) or _several_years(s)))]
    if not candidates:
        return []
    frequency = Counter(w for s, _, _ in candidates for w in words(s) & wanted)
    n = len(candidates)
    wants_figure = bool(ASKS_FOR_A_FIGURE.search(question))
    scored = []
    for i, (s, hit, rank) in enumerate(candidates):
        shared = words(s) & wanted
        if not shared - GENERIC_WORDS:
            continue  # ("taxed" alone is no answer to how staking rewards are taxed)
        # Summed in word order: a set's order follows the process's hash seed, and float sums in
        # another order can break a tie between two sentences differently from run to run.
        weight = sum(math.log(1 + n / frequency[w]) for w in sorted(shared))
        # A word no candidate has counts as if every one had it: it tells the sentences apart no more
        # than a common word does ("bought", "later" beside "crypto-asset").
        total = sum(math.log(1 + n / (frequency[w] or n)) for w in sorted(wanted))
        coverage = weight / total if total else 0.0
        bonus = RANK_BONUS[rank] if rank < len(RANK_BONUS) else 0.0
        if wants_figure and re.search(r"\d", s) and coverage >= FIGURE_MIN_COVERAGE:
            bonus += FIGURE_BONUS
        scored.append((coverage + bonus, coverage, i, s, hit))
    scored.sort(key=lambda x: (-x[0], x[2]))
    chosen, per_hit = [], Counter()
    for _, coverage, _, s, hit in scored:
        if coverage < MIN_SENTENCE_COVERAGE or per_hit[hit.parent_id] >= 2:
            continue
        chosen.append((s, hit))
        per_hit[hit.parent_id] += 1
        if len(chosen) >= limit:
            break
    return chosen


def _quoted(chosen: list[tuple[str, Any]]) -> tuple[list[str], list[Citation]]:
    lines, citations = [], []
    for sentence, hit in chosen:
        lines.append(f"{sentence} ([{hit.title}]({hit.url}))")
        citations.append(composer.passage_citation(hit))
    return lines, citations


def fact(decision: Decision, rules: RuleBook, hits: list, current_year: str, tool_results: list | None = None,
         titles: dict[str, str] | None = None) -> AskResult:
    intent = decision.intent
    year_rules = rules.years.get(decision.tax_year) or rules.years.get(current_year)
    values = fact_values(year_rules) if year_rules else {}
    ks_year = rules.years.get(decision.slots.kiwisaver_year or "")
    if ks_year is not None:
        # A tax year's rules hold the government contribution for the KiwiSaver year starting that
        # 1 July, so "the KiwiSaver year ending June 2025" reads 2024-25's.
        values.update({k: v for k, v in fact_values(ks_year).items() if k.startswith("gc_")})
    values.update(decision_values(decision, tool_results, values))
    lead = fill(intent.lead, values) if intent and intent.lead and year_rules else None
    if lead and values.get("rule_sum") and lead.startswith(values["rule_sum"] + "Yes. "):
        # The sum on their own figures answers first; the rule's bare "Yes." after it answers nothing.
        lead = values["rule_sum"] + lead[len(values["rule_sum"]) + len("Yes. "):]
    if not lead:
        return topic(decision, rules, hits, current_year)
    band = _band_asked(decision, year_rules) if intent and "tax_rates" in intent.show else None
    body: list[str] = [band or lead]
    citations: list[Citation] = []
    if intent and "calculation" in intent.show and tool_results:
        # What the misconception means for the income they stated ("On $15,000 you pay $1,575").
        sums = [lead_for(n, a, r, decision) for n, a, r in tool_results]
        sums.append(_difference(tool_results) or "")
        worked = " ".join(s for s in sums if s)
        if worked and all(s.startswith("No.") for s in sums if s):
            body = [worked]  # the answer for them is no: the rule's amounts are not theirs to expect
        else:
            body += ["", worked]
        citations += [c for _, _, r in tool_results for c in result_citations(r, titles or {})]
    # The rules summary only where it adds to the lead: a rates table for a question about rates.
    for rules_topic in (intent.topics if intent else ()):
        if year_rules is None:
            break
        # A question about one band is answered by that band; the whole table is for questions about all of them.
        lines = composer.topic_lines(rules_topic, year_rules) if rules_topic in intent.show and not band else []
        if lines:
            body += [""] + lines
        citations += composer.rule_citations(year_rules, composer.TOPIC_SECTIONS.get(rules_topic, []))
    support = best_sentences(decision.asked, hits, SUPPORT_SENTENCES, words(intent.search or "") if intent else None,
                             tax_year=decision.tax_year, past_year=decision.tax_year < current_year)
    if support:
        lines, cites = _quoted(support)
        body += ["", "From IRD's guidance:", ""] + [f"- {ln}" for ln in lines]
        citations += cites
    return AskResult(
        status="answered", answer="\n".join(body).strip(), citations=composer.dedupe(citations),
        tools=[ToolCall(name=n, arguments=a, result=r) for n, a, r in (tool_results or [])],
        tax_year=decision.tax_year, disclaimer=composer.disclaimer_for(decision, current_year, rules=rules),
        next_actions=list(intent.next[: composer.MAX_NEXT_ACTIONS]) if intent else [],
    )


def _provisional_sum(decision: Decision) -> str | None:
    """"Your RIT was $8,000: under the standard option …": the year's provisional tax and its
    instalments, worked out in decide.py from the residual income tax the question states."""
    r = decision.rule_results.get("provisional")
    if r is None:
        return None
    rit = money(r["residual_income_tax"])
    if not r["due"]:
        return (f"No. With residual income tax of {rit}, not more than {money(r['threshold'])}, you don't pay provisional "
                f"tax for the next year.")
    dates = r["instalment_dates"]
    basis = "last year's" if r["last_return_filed"] else "the year before's (last year's return is not filed)"
    return (f"Under the standard option, with {basis} residual income tax of {rit}, provisional tax is "
            f"**{money(r['provisional_tax'])}** ({rit} plus {pct(r['uplift'])}), paid in {len(dates)} instalments of "
            f"**{money(r['instalment'])}** on {', '.join(dates[:-1])} and {dates[-1]} (31 March balance date).")


def _second_job_loan_sum(decision: Decision) -> str | None:
    """"$240 a week from my second job: how much student loan?": the rate on every dollar of that pay."""
    r = decision.rule_results.get("secondary_sl")
    if r is None:
        return None
    per = _per(r["pay_frequency"])
    return (f"On {money(r['pay'])} {per} from a second job, **{money(r['deduction'])}** {per} comes off for your student "
            f"loan: {pct(r['rate'])} of every dollar, whichever secondary code the job is on.")


def _fif_sum(decision: Decision) -> str | None:
    """"Worth $120,000 on 1 April": FIF income under the fair dividend rate method (and the tax on
    it at a marginal rate the question states), worked out in decide.py."""
    under = decision.rule_results.get("fif_under")
    if under is not None:
        return (f"No: the shares cost {money(under['cost'])}, not over the {money(under['de_minimis_cost'])} threshold, so the "
                f"FIF rules do not apply in {under['tax_year']}, whatever they are worth now. Their dividends are taxed as "
                f"income instead.")
    r = decision.rule_results.get("fif")
    if r is None:
        return None
    out = (f"Under the fair dividend rate method your FIF income for {r['tax_year']} is **{money(r['fif_income'])}**: "
           f"{pct(r['fair_dividend_rate'])} of the opening market value of {money(r['opening_value'])}")
    if "tax" in r:
        out += f", and at your {pct(r['marginal_rate'])} rate the tax on it is **{money(r['tax'])}**"
    return out + f". This applies when the shares' total cost is over {money(r['de_minimis_cost'])} at any time in the year."


def _wff_sum(decision: Decision) -> str | None:
    """"Two kids, family income $62,700": the family tax credit's abatement on that income and, with
    the children counted, the credit left (worked out in decide.py)."""
    r = decision.rule_results.get("wff")
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


def _band_asked(decision: Decision, year_rules: TaxYearRules | None) -> str | None:
    """"Income between $48,000 and $53,500 is taxed at 21.64% in 2024-25": the rate for the range a
    question names, when one band covers all of it; None otherwise."""
    it = section_or_none(year_rules, "income_tax") if year_rules is not None and decision.slots.between else None
    ends = sorted(a.value for a in decision.slots.amounts if a.period == "annual" and not a.questioned)
    if it is None or len(ends) != 2:
        return None
    low, high = ends
    inside = [b for b in it.bands if b.lower < high and (b.upper is None or b.upper > low)]
    if len(inside) != 1:
        return None
    return (f"In {year_rules.year}, income between {money(low)} and {money(high)} is taxed at {pct(inside[0].rate)}: "
            f"that rate applies to the part of income in the {composer.band_label(inside[0].lower, inside[0].upper)} band.")


def _outside_bright_line(decision: Decision, values: dict[str, str]) -> str | None:
    """A property the question says was held past the bright-line period: its gain is not taxed under it."""
    if "bright_line_outside" not in decision.rule_results or "bl_years" not in values:
        return None
    return (f"No, not under the bright-line test: from what you say it was held for more than {values['bl_years']} years before "
            "the sale. The gain can still be taxable if you bought the property intending to sell it, or if you deal in property.")


def decision_values(decision: Decision, tool_results: list | None, values: dict[str, str]) -> dict[str, str]:
    """Placeholders that depend on the question itself (the main-job code for a stated income);
    `values` are the year's own placeholders."""
    sentence = (_provisional_sum(decision) or _fif_sum(decision) or _wff_sum(decision) or _second_job_loan_sum(decision)
                or _outside_bright_line(decision, values))
    if sentence:
        return {"rule_sum": sentence + "\n\n"}
    if decision.slots.no_ird_number and "nd_rate" in values:
        return {"code_main": f"Without an IRD number or a tax code declaration your employer must use **ND**, the non-declaration "
                             f"code: tax at {values['nd_rate']}. "}
    if decision.slots.flat_code and f"flat_{decision.slots.flat_code}" in values:
        return {"code_main": values[f"flat_{decision.slots.flat_code}"]}
    for name, args, result in tool_results or []:
        if name == "calculate_ietc" and "error" not in result:
            code = "ME" if result.get("eligible") else "M"
            if decision.slots.student_loan:
                code += " SL"
            return {"code_main": f"For your only job at {money(args['annual_income'])} a year, use **{code}**. "}
    return {}


def topic(decision: Decision, rules: RuleBook, hits: list, current_year: str) -> AskResult:
    chosen = best_sentences(decision.asked, hits, LEAD_SENTENCES, tax_year=decision.tax_year,
                            past_year=decision.tax_year < current_year)
    if not chosen:
        return AskResult(status="answered", answer=composer.NOTHING_FOUND, tax_year=decision.tax_year,
                         disclaimer=composer.BASE_DISCLAIMER,
                         next_actions=["Rephrase the question with the tax term you're asking about"])
    lead_sentence, lead_hit = chosen[0]
    body = [f"{lead_sentence} ([{lead_hit.title}]({lead_hit.url}))"]
    rest, cites = _quoted(chosen[1:])
    if rest:
        body += ["", "Also from IRD's guidance:", ""] + [f"- {ln}" for ln in rest]
    return AskResult(
        status="answered", answer="\n".join(body).strip(), citations=composer.dedupe([composer.passage_citation(lead_hit)] + cites),
        tax_year=decision.tax_year, disclaimer=composer.disclaimer_for(decision, current_year, rules=rules),
    )
