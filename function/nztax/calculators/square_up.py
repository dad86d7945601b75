"""The year-end square-up: refund, bill or nothing, and which income source caused it.

In: a tax year's income by source - the main job's salary or wages and a second job's (each with the
PAYE deducted, or the tax code so the PAYE is worked out pay by pay), extra pays, paid parental leave,
NZ Super, interest with RWT, schedular payments with withholding tax, self-employed profit with any
provisional tax paid - plus student loan, Working for Families and donations.
Out: tax on the year's income (annual rates; composite in 2024-25) less the IETC, the tax already
paid, the result and its due date or write-off, each source's share of the tax against what it had
withheld (stacked in the order listed, so a later source carries the higher rates it reaches), the
reasons in words, the end-of-year student loan obligation and the donation tax credit.

IRD squares up income tax only: the ACC earners' levy inside PAYE is left out (IRD uses the "total
tax deductions", which exclude the levy). A PAYE figure given with the levy in it has the levy taken
out at the year's rate (capped at the maximum liable earnings for main-job pay, uncapped for a
secondary code). Student loan deductions from pay are full and final; only income other than salary
or wages can create an end-of-year repayment.
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import Annotated

from pydantic import Field, StrictBool

from nztax.calculators.common import MAX_AMOUNT, PERIODS_PER_YEAR, parse_frequency, tax_on_bands, year_rules
from nztax.calculators.donations import calculate_donation_tax_credit
from nztax.calculators.errors import ToolArgumentError
from nztax.calculators.extra_pay import calculate_extra_pay_paye
from nztax.calculators.ietc import calculate_ietc
from nztax.calculators.income_tax import TaxYear
from nztax.calculators.money import as_number, exact_amount, round_cents, truncate_cents
from nztax.calculators.paye import PRIMARY_CODES, calculate_paye, parse_tax_code
from nztax.rules import TaxYearRules, exact

def _amount(description: str):
    return Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description=description)]


def _optional(description: str):
    return Annotated[float | None, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description=description)]


def pay_dates(rules: TaxYearRules, pays: int) -> list[dt.date]:
    """Pay dates spread evenly through the year, each at the end of its period."""
    return [rules.start + dt.timedelta(days=(k * rules.days) // pays - 1) for k in range(1, pays + 1)]


def year_of_paye(rules: TaxYearRules, annual: Fraction, frequency: str, tax_code: str) -> dict:
    """A year of equal pays on `tax_code`: PAYE's income-tax part, its ACC part and, for an ME code,
    the IETC it allowed for (the same pays on M less the pays on ME)."""
    pays = PERIODS_PER_YEAR[frequency]
    gross = as_number(truncate_cents(annual / pays))
    income_tax = acc = ietc = Fraction(0)
    by_date: dict[dt.date, tuple[dict, dict | None]] = {}
    code = parse_tax_code(tax_code)
    for day in pay_dates(rules, pays):
        # Pays in the same PAYE period give the same result; work each period out once.
        key = rules.paye_period(day).start
        if key not in by_date:
            pay = calculate_paye(gross, frequency, code.base, rules.year, day.isoformat())
            plain = calculate_paye(gross, frequency, "M", rules.year, day.isoformat()) if code.base == "ME" else None
            by_date[key] = (pay, plain)
        pay, plain = by_date[key]
        income_tax += exact_amount(pay["income_tax"])
        acc += exact_amount(pay["acc_levy"])
        if plain is not None:
            ietc += exact_amount(plain["paye"]) - exact_amount(pay["paye"])
    return {"income_tax": income_tax, "acc": acc, "ietc": ietc, "pays": pays, "gross_per_pay": gross}


def _due_dates(rules: TaxYearRules) -> dict:
    year_end = rules.section("year_end")
    return {
        "tax_to_pay_due": f"{year_end.tax_to_pay_due} {rules.end.year + 1}",
        "return_due": f"{year_end.return_due} {rules.end.year}",
    }


def calculate_year_end_square_up(
    tax_year: TaxYear = None,
    salary_wages: _amount("Main job's gross salary or wages for the year, NZD (without extra pays).") = 0,
    salary_paye: _optional("PAYE deducted from the main job for the year, NZD, as on payslips (ACC levy included). Omit to work it out from tax_code.") = None,
    tax_code: Annotated[str, Field(description="Main job's tax code all year: M, ME (with or without SL). Used when salary_paye is omitted.")] = "M",
    pay_frequency: Annotated[str, Field(description="How often both jobs pay: weekly, fortnightly, four_weekly or monthly.")] = "fortnightly",
    second_job_wages: _amount("A second job's gross pay for the year, NZD.") = 0,
    second_job_paye: _optional("PAYE deducted from the second job, NZD (ACC levy included). Omit to work it out from second_job_tax_code.") = None,
    second_job_tax_code: Annotated[str, Field(description="The second job's secondary code: SB, S, SH, ST or SA (with or without SL), or ND.")] = "S",
    extra_pays: _amount("Bonuses, leave paid out and other extra pays from the main job in the year, NZD.") = 0,
    extra_pays_paye: _optional("PAYE deducted from the extra pays, NZD. Omit to work it out by IRD's extra-pay method from the main job's pay.") = None,
    redundancy: Annotated[StrictBool, Field(description="The extra pays are a redundancy payment (no ACC levy in their PAYE).")] = False,
    paid_parental_leave: _amount("Paid parental leave received in the year, NZD.") = 0,
    paid_parental_leave_tax: _optional("Tax deducted from paid parental leave, NZD.") = None,
    nz_super: _amount("NZ Superannuation or a veteran's pension received in the year (gross), NZD.") = 0,
    nz_super_tax: _optional("Tax deducted from NZ Super, NZD.") = None,
    interest: _amount("Interest earned in the year (gross), NZD.") = 0,
    rwt: _optional("Resident withholding tax (RWT) deducted from the interest, NZD.") = None,
    schedular_payments: _amount("Schedular payments (contracting with withholding tax) in the year, gross, NZD.") = 0,
    withholding_tax: _optional("Withholding tax deducted from schedular payments, NZD.") = None,
    self_employed_profit: _amount("Self-employed profit (income less expenses) for the year, NZD.") = 0,
    provisional_tax_paid: _amount("Provisional tax or other tax paid towards the year, NZD.") = 0,
    student_loan: Annotated[StrictBool, Field(description="You have a New Zealand student loan and live in New Zealand.")] = False,
    donations: _amount("Donations to approved donee organisations in the year, NZD.") = 0,
    receives_working_for_families: Annotated[StrictBool, Field(description="You or your partner are entitled to Working for Families (no IETC).")] = False,
) -> dict:
    """The year-end square-up for an individual: tax on the year's income from every source, less
    the IETC, against the tax already deducted (PAYE without its ACC levy, RWT, withholding tax,
    provisional tax) - a refund, a bill or nothing - and which source withheld too much or too
    little and why. Also the end-of-year student loan repayment on other income, the donation tax
    credit, and the due date or automatic write-off."""
    rules = year_rules(tax_year, "income_tax", "paye", "acc_levy", "year_end")
    frequency = parse_frequency(pay_frequency)
    acc = rules.section("acc_levy")
    acc_rate, cap = exact(acc.rate), exact_amount(acc.max_liable_earnings)
    main_code = parse_tax_code(tax_code)
    if main_code.base not in PRIMARY_CODES:
        raise ToolArgumentError("tax_code", "the main job's code is M or ME (with or without SL)")
    try:
        second_code = parse_tax_code(second_job_tax_code)
    except ToolArgumentError as exc:
        raise ToolArgumentError("second_job_tax_code", exc.message) from None
    if second_code.base in PRIMARY_CODES:
        raise ToolArgumentError("second_job_tax_code", "a second job uses a secondary code (SB, S, SH, ST or SA) or ND")
    notes: list[str] = []
    why: list[str] = []
    salary, extras, second = exact_amount(salary_wages), exact_amount(extra_pays), exact_amount(second_job_wages)

    def withheld_without_levy(given: float, gross: Fraction, liable_room: Fraction | None) -> Fraction:
        """A PAYE figure with its ACC levy taken out (IRD squares up the tax part only)."""
        liable = gross if liable_room is None else min(gross, max(liable_room, Fraction(0)))
        return exact_amount(given) - Fraction(round_cents(liable * acc_rate))

    # -- what each PAYE source withheld, income tax only ------------------------------------------------
    ietc_via_code = Fraction(0)
    if salary_paye is not None:
        main_tax = withheld_without_levy(salary_paye, salary, cap)
        main_how = "PAYE as given, less its ACC levy"
    elif salary:
        year = year_of_paye(rules, salary, frequency, main_code.base)
        main_tax, ietc_via_code = year["income_tax"], year["ietc"]
        main_how = f"worked out: {year['pays']} {frequency} pays of ${year['gross_per_pay']:,.2f} on {main_code.base}"
    else:
        main_tax, main_how = Fraction(0), "no main job"

    if extra_pays_paye is not None:
        extras_tax = withheld_without_levy(extra_pays_paye, extras, Fraction(0) if redundancy else cap - salary)
        extras_how = "PAYE as given" + ("" if redundancy else ", less its ACC levy")
    elif extras:
        regular = as_number(truncate_cents(salary / PERIODS_PER_YEAR[frequency]))
        extra = calculate_extra_pay_paye(as_number(truncate_cents(extras)), frequency, regular_pay=regular, tax_code=main_code.base,
                                         redundancy=redundancy, pay_date=rules.section("paye").periods[-1].end.isoformat())
        extras_tax = exact_amount(extra["income_tax"])
        extras_how = f"worked out by the extra-pay method at {extra['tax_rate'] * 100:g}%"
    else:
        extras_tax, extras_how = Fraction(0), ""

    if second_job_paye is not None:
        second_tax = withheld_without_levy(second_job_paye, second, None)
        second_how = "PAYE as given, less its ACC levy"
    elif second:
        second_year = year_of_paye_flat(rules, second, frequency, second_code.base)
        second_tax = second_year
        second_how = f"worked out on {second_code.base}"
    else:
        second_tax, second_how = Fraction(0), ""

    def given(amount: Fraction, tax: float | None, argument: str) -> Fraction:
        if amount and tax is None:
            raise ToolArgumentError(argument, f"give {argument}: the tax deducted from that income (0 if none)")
        return exact_amount(tax or 0)

    ppl, nzs, interest_amount = exact_amount(paid_parental_leave), exact_amount(nz_super), exact_amount(interest)
    schedular, business = exact_amount(schedular_payments), exact_amount(self_employed_profit)
    sources = [
        ("main job", salary, main_tax, main_how),
        ("extra pays", extras, extras_tax, extras_how),
        ("second job", second, second_tax, second_how),
        ("paid parental leave", ppl, given(ppl, paid_parental_leave_tax, "paid_parental_leave_tax"), "as given"),
        ("NZ Super", nzs, given(nzs, nz_super_tax, "nz_super_tax"), "as given"),
        ("schedular payments", schedular, given(schedular, withholding_tax, "withholding_tax"), "withholding tax as given"),
        ("interest", interest_amount, given(interest_amount, rwt, "rwt"), "RWT as given"),
        ("self-employed profit", business, exact_amount(provisional_tax_paid), "provisional tax paid"),
    ]
    total_income = sum((s[1] for s in sources), Fraction(0))

    # -- the year's tax and each source's share of it --------------------------------------------------
    bands = rules.section("income_tax").bands
    income_tax_total, _ = tax_on_bands(total_income, bands)
    ietc_result = calculate_ietc(as_number(round_cents(total_income)), rules.year, receives_working_for_families=receives_working_for_families,
                                 receives_nz_super=bool(nzs))
    ietc = exact_amount(ietc_result["annual_credit"])
    rows = []
    stacked = Fraction(0)
    for name, amount, tax_paid, how in sources:
        if not amount and not tax_paid:
            continue
        before, _ = tax_on_bands(stacked, bands)
        after, _ = tax_on_bands(stacked + amount, bands)
        stacked += amount
        due = after - before
        rows.append({"source": name, "income": as_number(round_cents(amount)), "tax_due": as_number(round_cents(due)),
                     "tax_paid": as_number(round_cents(tax_paid)), "difference": as_number(round_cents(tax_paid) - round_cents(due)), "how": how})
    if ietc and rows:
        # The credit belongs to the whole year's income; it is shown against the first source.
        rows[0]["tax_due"] = as_number(round_cents(exact_amount(rows[0]["tax_due"]) - ietc))
        rows[0]["difference"] = as_number(round_cents(exact_amount(rows[0]["tax_paid"]) - exact_amount(rows[0]["tax_due"])))
    tax_due = round_cents(max(income_tax_total - ietc, Fraction(0)))
    tax_paid = sum((round_cents(s[2]) for s in sources), start=round_cents(Fraction(0)))
    balance = tax_due - tax_paid  # positive: to pay

    # -- why ---------------------------------------------------------------------------------------------
    for row in rows:
        diff = exact_amount(row["difference"])
        if abs(diff) < 1:
            continue
        side = "more" if diff > 0 else "less"
        why.append(f"Your {row['source']} had ${abs(float(diff)):,.2f} {side} tax taken than the tax on it "
                   f"(${row['tax_paid']:,.2f} taken, ${row['tax_due']:,.2f} due on ${row['income']:,.2f}).")
    if ietc_via_code and ietc_via_code > ietc + 1:
        why.append(f"The ME code allowed for ${as_number(round_cents(ietc_via_code)):,.2f} of the independent earner tax credit through PAYE, "
                   f"but on the year's total income of ${as_number(round_cents(total_income)):,.2f} the credit is ${as_number(round_cents(ietc)):,.2f}, so the difference is paid back.")
    if extras and extras_tax > 0:
        why.append("An extra pay is taxed at the rate its annualised total reaches; if the year's real income is lower, part of that tax comes back.")
    if second and second_code.base != "ND":
        why.append(f"The second job's code ({second_code.base}) takes one flat rate on every dollar of it; the year's bands may ask more or less.")

    year_end = rules.section("year_end")
    untaxed = business
    needs_ir3 = untaxed > exact_amount(year_end.untaxed_income_limit)
    dates = _due_dates(rules)
    if balance > 0:
        written_off = (not needs_ir3 and year_end.write_off_limit is not None and balance <= exact_amount(year_end.write_off_limit))
        outcome = "bill"
        summary = (f"Tax to pay: ${float(balance):,.2f}" + (f" - written off automatically (IRD writes off an automatically calculated bill of ${year_end.write_off_limit:g} or less)."
                                                           if written_off else f", due {dates['tax_to_pay_due']}."))
    elif balance < 0:
        written_off = False
        outcome = "refund"
        summary = f"Refund: ${float(-balance):,.2f}."
    else:
        written_off = False
        outcome = "nothing"
        summary = "Nothing to pay and no refund."
    if needs_ir3:
        notes.append(f"Untaxed income over ${year_end.untaxed_income_limit:g} (self-employed profit): file an IR3 return by {dates['return_due']}; "
                     "an IR3 filer's bill is not written off.")
    if ietc_result["reason"].startswith("Not available"):
        notes.append("No independent earner tax credit. " + ietc_result["reason"])

    loan = _student_loan(rules, student_loan, salary + extras + second + ppl + nzs, interest_amount + schedular + business, dates)
    credit = calculate_donation_tax_credit(as_number(round_cents(exact_amount(donations))), as_number(round_cents(total_income)), rules.year)["credit"] if donations else 0.0

    return {
        "tax_year": rules.year,
        "result": outcome,
        "amount": as_number(abs(balance)),
        "summary": summary,
        "written_off": written_off,
        "total_income": as_number(round_cents(total_income)),
        "income_tax": as_number(round_cents(income_tax_total)),
        "ietc": as_number(round_cents(ietc)),
        "ietc_through_paye": as_number(round_cents(ietc_via_code)),
        "tax_due": as_number(tax_due),
        "tax_paid": as_number(tax_paid),
        "sources": rows,
        "why": why,
        "student_loan": loan,
        "donation_tax_credit": credit,
        "ir3_required": needs_ir3,
        **dates,
        "notes": notes + ["ACC earners' levy is left out: it is not part of the income tax square-up."],
        "composite_rates": rules.section("income_tax").composite_rates,
        "source": year_end.source,
        "write_off_source": year_end.write_off_source,
    }


def year_of_paye_flat(rules: TaxYearRules, annual: Fraction, frequency: str, code: str) -> Fraction:
    """A secondary or ND code's income-tax part over a year of equal pays (the flat rate on each
    pay's whole dollars), with the secondary rate in force on each pay date."""
    pays = PERIODS_PER_YEAR[frequency]
    gross = as_number(truncate_cents(annual / pays))
    total = Fraction(0)
    for day in pay_dates(rules, pays):
        total += exact_amount(calculate_paye(gross, frequency, code, rules.year, day.isoformat())["income_tax"])
    return total


def _student_loan(rules: TaxYearRules, has_loan: bool, wages: Fraction, other: Fraction, dates: dict) -> dict:
    """Deductions from pay are full and final; income other than salary or wages (adjusted net
    income) carries a repayment once it reaches the minimum and the total passes the threshold."""
    if not has_loan:
        return {"has_loan": False, "end_of_year_repayment": 0.0}
    loan = rules.section("student_loan")
    threshold = exact_amount(loan.annual_threshold)
    minimum = exact_amount(loan.other_income_minimum) if loan.other_income_minimum is not None else Fraction(0)
    owed = Fraction(0)
    if other >= minimum and wages + other > threshold:
        owed = exact(loan.rate) * (other - max(threshold - wages, Fraction(0)))
    reason = ("Deductions from salary and wages are full and final: there is no end-of-year repayment on them. "
              + (f"Income other than salary or wages of ${float(other):,.2f} adds an end-of-year repayment, due {dates['tax_to_pay_due']}."
                 if owed > 0 else "Other income is too small to add an end-of-year repayment."))
    return {"has_loan": True, "other_income": as_number(round_cents(other)), "end_of_year_repayment": as_number(round_cents(max(owed, Fraction(0)))),
            "reason": reason, "source": loan.other_income_source or loan.source}
