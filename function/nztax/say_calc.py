"""Calculation answers: the sentences that answer a sum first, then the calculator's working.

In: a `Decision` (decide.py) and the calculators' results `(name, arguments, result)`, the rule book
and source titles. Out: `AskResult` (`calculation`); `lead_for` is the one sentence for one result,
in the period the question asked about. `say.py` re-exports these names.
"""

from __future__ import annotations

from decimal import Decimal

from nztax import composer, figure_check
from nztax.calculators.paye import PRIMARY_CODES
from nztax.composer import money, pct, section_or_none
from nztax.contract import AskResult, Citation, ToolCall
from nztax.decide import LOAN_DEDUCTION_ASKED, Decision, base_code
from nztax.rules import PAY_FREQUENCIES, RuleBook
from nztax.tool_working import describe_tool_result

PERIOD_WORDS = {"weekly": "week", "fortnightly": "fortnight", "four_weekly": "four weeks", "monthly": "month",
                "annual": "year"}
# "a week", "every four weeks": how a result's pay period reads after an amount.
PER_PERIOD = {"weekly": "a week", "fortnightly": "a fortnight", "four_weekly": "every four weeks", "monthly": "a month",
              "annual": "a year"}


def pir_not_worked_out(rule_results: dict, values: dict[str, str]) -> str | None:
    """Why the rate asked for is not worked out from the question's figures, when the year's rules
    lack the income limits the PIR finder needs and the rule answers instead (calculation_plan,
    `pir_limits_unstated`): said first, or the rule's general lead would read as the answer to the
    figures given. `values`: the year's placeholders (the rates, `pir_rates`)."""
    r = rule_results.get("pir_limits_unstated")
    if r is None or "pir_rates" not in values:
        return None
    return (f"I can't work out which prescribed investor rate ({values['pir_rates']}) your figures give: the income limits "
            f"that set each rate in {r['tax_year']} are not on an Inland Revenue page I hold, and IRD's Find my PIR tool "
            f"works it out (linked below).")


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


# The student loan deduction named as what comes off each pay: the loan is what is asked.


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
        # A flat-rate code (ND, say): its rate, as payroll takes it.
        year_rules = decision.rules.years.get(y) if decision.rules else None
        flat = _flat_code_rate(year_rules, result["tax_code"])
        rate = f" ({base_code(result['tax_code'])} is a flat {composer.with_acc_levy(flat, year_rules)})" if flat is not None else ""
        # (Another person's pay is worked for them: the take-home is theirs, not the poster's.)
        kept = ("the take-home pay is" if figure_check.someone_elses(decision, decision.slots.income_amount())
                else "you take home")
        return (f"On a pay of {money(result['gross_pay'])} {_per(result['pay_frequency'])} on tax code {result['tax_code']} ({y}), "
                f"PAYE is **{money(result['paye'])}**{extra}, so {kept} **{money(result['net_pay'])}** each {freq}{rate}.")
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
        if decision.slots.excluded_part_year and args.get("months_eligible") is None:
            return ietc_per_month(args, result, y)
        if args.get("months_eligible") is not None and result.get("months_eligible", 12) < 12:
            return (f"{'Partly. ' if answers_whether else ''}Not for a month with any of that payment in it, but for the "
                    f"other {result['months_eligible']} whole months: on {money(args.get('annual_income', 0))} in {y} the independent "
                    f"earner tax credit is **{money(result['annual_credit'])}**. {result.get('reason', '')}").strip()
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
        return _square_up_lead(result, figure_check.someone_elses(decision, decision.slots.income_amount()))
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


def _square_up_lead(result: dict, theirs: bool = False) -> str:
    """Refund, bill or nothing for the year, and the first reason; `theirs`: the income is another
    person's ("My daughter earned …"), so the outcome is not said to be the poster's."""
    if result["result"] == "refund":
        head = f"{'There' if theirs else 'You'} should {'be' if theirs else 'get'} a **refund of {money(result['amount'])}** for {result['tax_year']}"
    elif result["result"] == "bill":
        head = f"{'There' if theirs else 'You'} should {'be' if theirs else 'have'} **{money(result['amount'])} of tax to pay** for {result['tax_year']}"
        head += " (written off automatically, as IRD does for a small bill)" if result["written_off"] else f", due {result['tax_to_pay_due']}"
    else:
        head = f"{'The' if theirs else 'Your'} tax for {result['tax_year']} should square up to **nothing** to pay and no refund"
    reason = f" {result['why'][0]}" if result.get("why") else ""
    if theirs and reason.startswith(" Your "):
        reason = " The " + reason[len(" Your "):]  # (the calculator speaks to the earner)
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
        lines, approx = describe_tool_result(name, args, result)
        if name == "calculate_year_end_square_up" and figure_check.someone_elses(decision, decision.slots.income_amount()):
            # (The calculator's reasons speak to the earner: another person's are not said to be the poster's.)
            lines = [("- The " + line[len("- Your "):]) if line.startswith("- Your ") else line for line in lines]
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
        # Two jobs' pay asked together: what reaches them from both.
        leads.append(f"From the jobs together you take home **{money(both[0])}** {_per(both[1])}.")
    verdict = figure_check.verdict(decision, leads[0] if leads else "", results, together)
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
        # A second question about a rule: its answer from the rules.
        from nztax.say import fact_values, fill  # say imports this module: read at call time

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


def ietc_per_month(args: dict, result: dict, y: str) -> str:
    """The IETC when WFF, a benefit or NZ Super covered part of the year and the months are not sure:
    the rule per whole month, with the full year's credit it is a share of."""
    full = result.get("annual_credit") or 0
    if not full:
        return (f"On {money(args.get('annual_income', 0))} in {y} there is no independent earner tax credit to share out "
                f"over the months. {result.get('reason', '')}").strip()
    return (f"Not for the months you got it, but yes for the others: the independent earner tax credit is worked per whole "
            f"month, and a month with any Working for Families, benefit or NZ Super in it gets none. On "
            f"{money(args.get('annual_income', 0))} in {y} the credit for a whole year would be {money(full)}; each "
            f"whole month without the payment gets a twelfth of that. Tell me how many whole months were free of it to work out the total.")

