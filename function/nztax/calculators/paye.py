"""PAYE for one pay, exactly as IRD's payroll calculations specification does it.

In: gross pay for the period, pay frequency, tax code, pay date or tax year, KiwiSaver rate.
Out: PAYE (which includes the ACC earners' levy), its income tax and ACC parts, student loan,
KiwiSaver employee deduction and net pay.

Primary codes (M, ME): annualise the period's gross and drop the cents; annual tax on the bands in
force on the pay date, plus the ACC levy on that figure (the printed maximum levy once it reaches
the maximum liable earnings), less the IETC for ME; divide by 52 and truncate to the cent; other
frequencies are that weekly figure x 52 / pays a year, truncated. Secondary and flat-rate codes:
whole-dollar gross x (code rate + ACC rate), truncated, with no annualising and no levy cap.
Student loan: SL rate on whole-dollar gross over the pay-period threshold (primary) or on all of it
(secondary), truncated. KiwiSaver: rate x gross including cents, truncated.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from nztax.calculators.common import MAX_AMOUNT, PERIODS_PER_YEAR, as_rate, parse_date, parse_frequency, rules_for_date, tax_on_bands, year_rules
from nztax.calculators.errors import ToolArgumentError
from nztax.calculators.ietc import credit_for_period
from nztax.calculators.income_tax import TaxYear
from nztax.calculators.money import as_number, exact_amount, rate_number, truncate_cents, whole_dollars
from nztax.calculators.student_loan import deduction_for_pay
from nztax.rules import FLAT_CODES, SECONDARY_CODES, TaxYearRules, exact, today

WEEKS_PER_YEAR = PERIODS_PER_YEAR["weekly"]
PRIMARY_CODES = ("M", "ME")
TAX_CODES = (
    "M", "ME", "M SL", "ME SL",
    *SECONDARY_CODES, *(f"{c} SL" for c in SECONDARY_CODES),
    *FLAT_CODES,
)


@dataclass(frozen=True)
class TaxCode:
    base: str
    student_loan: bool

    @property
    def name(self) -> str:
        return f"{self.base} SL" if self.student_loan else self.base


def parse_tax_code(value: str) -> TaxCode:
    """'m sl', 'MSL', 'M SL' -> TaxCode('M', True); unknown codes are an error naming tax_code."""
    text = re.sub(r"[\s_-]+", " ", value.strip().upper())
    match = re.fullmatch(r"(ME|M|SB|SH|ST|SA|S|ND|NSW|CAE|EDW) ?(SL)?", text)
    if not match or f"{match.group(1)}{' SL' if match.group(2) else ''}" not in TAX_CODES:
        raise ToolArgumentError("tax_code", f"unknown or unsupported tax code {value!r} (supported: {', '.join(TAX_CODES)})")
    return TaxCode(match.group(1), bool(match.group(2)))


def resolve_pay_date(pay_date: str | None, tax_year: str | None) -> tuple[TaxYearRules, dt.date, str]:
    """The rules and the date whose rates apply, with a note on how the date was chosen.

    Without a pay date, a past or future year uses the rates in force at its end (for 2024-25:
    the bands from 31 July 2024); the current year uses today's rates."""
    day = parse_date(pay_date, "pay_date")
    if day is not None:
        return rules_for_date(day, tax_year, "paye"), day, "rates in force on the pay date"
    rules = year_rules(tax_year, "paye")
    now = today()
    if rules.covers(now):
        return rules, now, "rates in force today"
    last = rules.section("paye").periods[-1]
    return rules, last.start, f"rates in force from {last.start:%-d %B %Y} (give pay_date for earlier pays)"


def _primary_weekly(annual: int, rules: TaxYearRules, day: dt.date, with_ietc: bool) -> tuple[Fraction, Fraction, Fraction]:
    """(weekly PAYE, weekly ACC part, annual IETC) for annualised whole-dollar earnings."""
    income = Fraction(annual)
    tax, _ = tax_on_bands(income, rules.paye_period(day).bands)
    acc = rules.section("acc_levy")
    levy = exact_amount(acc.max_levy) if annual >= acc.max_liable_earnings else income * exact(acc.rate)
    ietc = credit_for_period(income, rules.ietc_period(day)) if with_ietc else Fraction(0)
    weekly = Fraction(truncate_cents(max(tax + levy - ietc, Fraction(0)) / WEEKS_PER_YEAR))
    weekly_acc = Fraction(truncate_cents(levy / WEEKS_PER_YEAR))
    return weekly, weekly_acc, ietc


def calculate_paye(
    gross_pay: Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Gross salary or wages for one pay period, in NZD.")],
    pay_frequency: Annotated[str, Field(description="weekly, fortnightly, four_weekly or monthly.")],
    tax_code: Annotated[str, Field(description="Tax code: M, ME, M SL, ME SL, SB, S, SH, ST, SA (each also with SL), ND, NSW, CAE or EDW.")] = "M",
    tax_year: TaxYear = None,
    pay_date: Annotated[str | None, Field(description="Pay date YYYY-MM-DD; selects the rates (2024-25 changed on 31 July 2024). Default: today, or the end of tax_year.")] = None,
    kiwisaver_rate: Annotated[float | None, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Employee KiwiSaver rate, e.g. 3.5 (percent) or 0.035. Omit for no KiwiSaver deduction.")] = None,
) -> dict:
    """PAYE, student loan, KiwiSaver and net pay for one pay, using IRD's payroll calculation
    method to the cent. PAYE includes the ACC earners' levy."""
    frequency = parse_frequency(pay_frequency)
    code = parse_tax_code(tax_code)
    rules, day, basis = resolve_pay_date(pay_date, tax_year)
    pays = PERIODS_PER_YEAR[frequency]
    gross = exact_amount(gross_pay)
    whole = whole_dollars(gross)
    acc_rate = exact(rules.section("acc_levy").rate)

    if code.base in PRIMARY_CODES:
        annual = whole_dollars(gross * pays)
        weekly, weekly_acc, ietc = _primary_weekly(annual, rules, day, with_ietc=code.base == "ME")
        paye = truncate_cents(weekly * WEEKS_PER_YEAR / pays)
        acc_part = truncate_cents(weekly_acc * WEEKS_PER_YEAR / pays)
        method = "annualised (IRD payroll specification): annual tax + ACC levy" + (" - IETC" if ietc else "") + ", / 52, truncated"
        code_rate = None
    else:
        if code.base in FLAT_CODES:
            if code.student_loan:
                raise ToolArgumentError("tax_code", f"{code.base} cannot carry a student loan (SL) suffix")
            code_rate = exact(rules.section("flat_codes").codes[code.base].rate)
        else:
            code_rate = exact(rules.secondary_period(day).codes[code.base].rate)
        paye = truncate_cents(whole * (code_rate + acc_rate))
        acc_part = truncate_cents(whole * acc_rate)
        annual = None
        ietc = Fraction(0)
        method = "flat rate on whole-dollar gross (code rate + ACC levy rate), truncated"

    student_loan = Fraction(0)
    if code.student_loan:
        student_loan = deduction_for_pay(rules.section("student_loan"), gross, frequency, secondary=code.base not in PRIMARY_CODES)
    student_loan_amount = truncate_cents(student_loan)

    kiwisaver = truncate_cents(gross * as_rate(kiwisaver_rate, "kiwisaver_rate")) if kiwisaver_rate is not None else truncate_cents(Fraction(0))
    net = exact_amount(gross_pay) - Fraction(paye) - Fraction(student_loan_amount) - Fraction(kiwisaver)

    result = {
        "tax_year": rules.year,
        "pay_date": day.isoformat(),
        "rates_basis": basis,
        "pay_frequency": frequency,
        "tax_code": code.name,
        "gross_pay": as_number(truncate_cents(gross)),
        "paye": as_number(paye),
        "income_tax": as_number(paye - acc_part),
        "acc_levy": as_number(acc_part),
        "student_loan": as_number(student_loan_amount),
        "kiwisaver_employee": as_number(kiwisaver),
        "net_pay": as_number(truncate_cents(net)),
        "method": method,
        "source": rules.section("paye").source,
    }
    if annual is not None:
        result["annualised_earnings"] = annual
    if code_rate is not None:
        result["combined_rate"] = rate_number(code_rate + acc_rate)
    if ietc:
        result["ietc_annual"] = as_number(truncate_cents(ietc))
    if kiwisaver_rate is not None:
        result["kiwisaver_rate"] = rate_number(as_rate(kiwisaver_rate, "kiwisaver_rate"))
    return result
