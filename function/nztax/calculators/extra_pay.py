"""PAYE on an extra pay (a bonus, leave paid out, back pay, a redundancy payment), as IRD's payroll
specification works it (Income Tax Act s RD 17; spec 5.11-5.12; IR335).

In: the extra pay (all the extra pays in one pay, added together, as the specification does), the
pay frequency, the regular pay or the earnings the annualising looks at, the tax code, whether it is
paid on leaving the job and whether it is a redundancy payment, KiwiSaver rate, pay date or tax year.
Out: the rate, the PAYE on the extra pay (income tax and ACC earners' levy parts), the student loan
and KiwiSaver deductions on it, what is left, and (main codes) what the year's tax on it would be.

Annualising: the four weeks' earnings before the extra pay x 13 (a monthly pay x 12); for an extra
pay on leaving a job from 1 April 2025, the last two pay periods x half the pays in a year (weekly
x 26, fortnightly x 13, four-weekly x 6.5, monthly x 6). A secondary code adds the low threshold of
its band. The rate is the band rate for the whole dollars of (annualised + extra pay), applied to the
whole extra pay; the ACC levy is added up to the maximum liable earnings, and not at all on a
redundancy payment or retiring allowance; the sum is truncated to the cent once. ND and NSW use their
flat rate; CAE and EDW use the main-code method.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

from pydantic import Field, StrictBool

from nztax.calculators.common import MAX_AMOUNT, PERIODS_PER_YEAR, as_rate, marginal_rate, parse_frequency, tax_on_bands
from nztax.calculators.errors import ToolArgumentError
from nztax.calculators.income_tax import TaxYear
from nztax.calculators.money import as_number, exact_amount, rate_number, round_cents, truncate_cents, whole_dollars
from nztax.calculators.paye import PRIMARY_CODES, parse_tax_code, resolve_pay_date
from nztax.calculators.student_loan import deduction_for_pay
from nztax.rules import Band, exact

# How many pays of each frequency the four weeks before an extra pay hold (one for a monthly pay,
# whose month is annualised x 12 instead of x 13).
PAYS_IN_FOUR_WEEKS = {"weekly": 4, "fortnightly": 2, "four_weekly": 1, "monthly": 1}
FLAT_RATE_CODES = ("ND", "NSW")  # IRD: use the employee's usual rate, not the extra-pay method


def secondary_low_threshold(code_rate: Fraction, bands: list[Band]) -> int:
    """The first dollar of the band taxed at a secondary code's rate (SB 0, S 15,601 ...)."""
    for band in bands:
        if exact(band.rate) == code_rate:
            return 0 if band.lower == 0 else int(band.lower) + 1
    raise ToolArgumentError("tax_code", "no tax band has this secondary code's rate")


def calculate_extra_pay_paye(
    extra_pay: Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="The extra pay (bonus, leave paid out, back pay, redundancy) in NZD; several in one pay added together.")],
    pay_frequency: Annotated[str, Field(description="How often the regular pay is paid: weekly, fortnightly, four_weekly or monthly.")],
    regular_pay: Annotated[float | None, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="The usual gross pay for one pay period, NZD (also the regular pay paid with the extra pay, for the student loan).")] = None,
    recent_earnings: Annotated[float | None, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description=(
        "Instead of regular_pay x pays: the gross earnings the rule annualises, NZD - the four weeks (or month) before "
        "the extra pay, or on leaving the last two pay periods. 0 for a first pay."))] = None,
    tax_code: Annotated[str, Field(description="Tax code: M, ME, M SL, ME SL, a secondary code (SB, S, SH, ST, SA, each also with SL), ND, NSW, CAE or EDW.")] = "M",
    on_leaving: Annotated[StrictBool, Field(description="Paid when the job ends (final pay: leave paid out, redundancy).")] = False,
    redundancy: Annotated[StrictBool, Field(description="A redundancy payment or retiring allowance: no ACC earners' levy and no KiwiSaver.")] = False,
    tax_year: TaxYear = None,
    pay_date: Annotated[str | None, Field(description="Date the extra pay is paid, YYYY-MM-DD. Default: today, or the end of tax_year.")] = None,
    kiwisaver_rate: Annotated[float | None, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Employee KiwiSaver rate, e.g. 3.5 (percent). Omit for none.")] = None,
) -> dict:
    """PAYE on an extra pay - a bonus, leave paid out, back pay or a redundancy payment - by IRD's
    extra-pay method: the rate for the annualised earnings plus the extra pay applies to the whole
    extra pay (on leaving a job from 1 April 2025, the last two pay periods are annualised). Also the
    ACC levy, student loan and KiwiSaver on it, what is left, and the tax the year's income will
    actually carry on it."""
    frequency = parse_frequency(pay_frequency)
    code = parse_tax_code(tax_code)
    rules, day, basis = resolve_pay_date(pay_date, tax_year)
    section = rules.section("extra_pay")
    if regular_pay is None and recent_earnings is None:
        raise ToolArgumentError("regular_pay", "give regular_pay (the usual gross pay) or recent_earnings (what the rule annualises; 0 for a first pay)")
    extra = exact_amount(extra_pay)
    acc = rules.section("acc_levy")
    acc_rate = exact(acc.rate)
    notes: list[str] = []

    two_pays = on_leaving and section.leaving_two_pays
    if on_leaving and not section.leaving_two_pays:
        notes.append("Before 1 April 2025 an extra pay on leaving used the same four-week rule as any other extra pay.")
    if two_pays:
        span, multiplier, rule = 2, Fraction(PERIODS_PER_YEAR[frequency], 2), "last two pay periods"
    else:
        span = PAYS_IN_FOUR_WEEKS[frequency]
        multiplier = Fraction(12 if frequency == "monthly" else 13)
        rule = "the month before" if frequency == "monthly" else "four weeks before"
    earnings = exact_amount(recent_earnings) if recent_earnings is not None else exact_amount(regular_pay) * span
    annualised = earnings * multiplier

    threshold = 0
    levy = Fraction(0)
    if code.base in FLAT_RATE_CODES:
        if code.student_loan:
            raise ToolArgumentError("tax_code", f"{code.base} cannot carry a student loan (SL) suffix")
        rate = exact(rules.section("flat_codes").codes[code.base].rate)
        whole = Fraction(whole_dollars(extra))
        levy = Fraction(0) if redundancy else whole * acc_rate
        income_tax = whole * rate
        grossed_up = None
        method = f"{code.base}: the code's flat rate on the whole-dollar extra pay (IRD: the rate you usually would)"
    else:
        if code.base not in PRIMARY_CODES and code.base not in ("CAE", "EDW"):
            code_rate = exact(rules.secondary_period(day).codes[code.base].rate)
            threshold = secondary_low_threshold(code_rate, section.bands)
        base = annualised + threshold
        grossed_up = whole_dollars(base + extra)
        rate = marginal_rate(Fraction(grossed_up), section.bands)
        income_tax = extra * rate
        cap = exact_amount(acc.max_liable_earnings)
        if redundancy:
            levy = Fraction(0)
        elif grossed_up <= cap:
            levy = extra * acc_rate
        elif base <= cap:
            levy = (cap - base) * acc_rate  # only the part of the extra pay under the maximum
        method = (f"extra pay: ({rule} x {float(multiplier):g}" + (f" + the {code.base} code's low threshold" if threshold else "")
                  + " + the extra pay) picks the band rate, applied to the whole extra pay" + ("" if redundancy else " with the ACC levy") + ", truncated")
    paye = truncate_cents(income_tax + levy)
    levy_part = truncate_cents(levy)

    student_loan = Fraction(0)
    if code.student_loan:
        loan = rules.section("student_loan")
        if code.base in PRIMARY_CODES:
            # The pay's deduction on the regular pay and the extra pay together, less what the regular pay alone carries.
            regular = exact_amount(regular_pay) if regular_pay is not None else Fraction(0)
            student_loan = (Fraction(truncate_cents(deduction_for_pay(loan, regular + extra, frequency, secondary=False)))
                            - Fraction(truncate_cents(deduction_for_pay(loan, regular, frequency, secondary=False))))
        else:
            student_loan = deduction_for_pay(loan, extra, frequency, secondary=True)
    student_loan_amount = truncate_cents(student_loan)
    ks_rate = as_rate(kiwisaver_rate, "kiwisaver_rate") if kiwisaver_rate is not None else Fraction(0)
    if redundancy and kiwisaver_rate:
        notes.append("No KiwiSaver is deducted from a redundancy payment or retiring allowance.")
        ks_rate = Fraction(0)
    kiwisaver = truncate_cents(extra * ks_rate)
    net = extra - Fraction(paye) - Fraction(student_loan_amount) - Fraction(kiwisaver)

    result = {
        "tax_year": rules.year,
        "pay_date": day.isoformat(),
        "rates_basis": basis,
        "pay_frequency": frequency,
        "tax_code": code.name,
        "extra_pay": as_number(truncate_cents(extra)),
        "annualising_rule": "flat rate" if grossed_up is None else rule,
        "earnings_annualised": as_number(truncate_cents(earnings)),
        "annualised_income": as_number(truncate_cents(annualised)),
        "secondary_threshold": threshold,
        "grossed_up_income": grossed_up,
        "tax_rate": rate_number(rate),
        "acc_levy_rate": 0.0 if redundancy else rate_number(acc_rate),
        "paye": as_number(paye),
        "income_tax": as_number(paye - levy_part),
        "acc_levy": as_number(levy_part),
        "student_loan": as_number(student_loan_amount),
        "kiwisaver_employee": as_number(kiwisaver),
        "net_extra_pay": as_number(truncate_cents(net)),
        "kept_share": round(float(net / extra), 4) if extra else 0.0,
        "method": method,
        "notes": notes,
        "source": section.leaving_source if two_pays and section.leaving_source else section.source,
    }
    if grossed_up is not None and code.base in PRIMARY_CODES:
        result["year_end"] = _year_end_view(rules, annualised, extra, Fraction(paye - levy_part))
    return result


def _year_end_view(rules, annualised: Fraction, extra: Fraction, withheld: Fraction) -> dict:
    """If the year's other income is the annualised figure, the income tax the extra pay really adds
    (annual rates; composite in 2024-25) against what was withheld: the square-up's share of it."""
    bands = rules.section("income_tax").bands
    with_extra, _ = tax_on_bands(annualised + extra, bands)
    without, _ = tax_on_bands(annualised, bands)
    due = round_cents(with_extra - without)
    return {
        "assumed_other_income": as_number(round_cents(annualised)),
        "income_tax_due_on_extra_pay": as_number(due),
        "income_tax_withheld": as_number(round_cents(withheld)),
        "over_withheld": as_number(round_cents(withheld) - due),
        "marginal_rate_reached": rate_number(marginal_rate(annualised + extra, bands)),
        "note": "an estimate: the real square-up uses the year's actual income from every source",
    }

