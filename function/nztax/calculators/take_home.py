"""Take-home pay from an annual salary: the annual picture and one pay.

In: annual salary, tax code (M, ME, with or without SL), KiwiSaver rate, student loan flag, pay
frequency, tax year, and optionally the part of the salary that is an extra pay (a bonus). Out: annual
income tax, ACC levy, IETC, student loan, KiwiSaver and net pay (end-of-year method: annual rates,
composite for 2024-25), plus one pay by IRD's payroll method, and what the extra pay adds to each
deduction and how much of it is kept.
The two methods differ by cents; each figure says which method made it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

from pydantic import Field, StrictBool

from nztax.calculators.acc import calculate_acc_levy
from nztax.calculators.common import MAX_AMOUNT, PERIODS_PER_YEAR, as_rate, parse_frequency, year_rules
from nztax.calculators.errors import ToolArgumentError
from nztax.calculators.ietc import calculate_ietc
from nztax.calculators.income_tax import TaxYear, calculate_income_tax
from nztax.calculators.money import as_number, exact_amount, truncate_cents
from nztax.calculators.paye import PRIMARY_CODES, calculate_paye, parse_tax_code
from nztax.calculators.student_loan import calculate_student_loan_repayment


def calculate_take_home_pay(
    annual_salary: Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Annual gross salary or wages in NZD.")],
    tax_code: Annotated[str, Field(description="Main-job tax code: M, ME, M SL or ME SL.")] = "M",
    kiwisaver_rate: Annotated[float | None, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Employee KiwiSaver rate, e.g. 3.5 (percent). Omit for none.")] = None,
    student_loan: Annotated[StrictBool, Field(description="Has a student loan (adds SL to the code).")] = False,
    pay_frequency: Annotated[str, Field(description="weekly, fortnightly, four_weekly or monthly, for the per-pay figures.")] = "fortnightly",
    tax_year: TaxYear = None,
    other_income: Annotated[float | None, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description=(
        "Part of annual_salary that is an extra pay on top of the rest (a bonus): its own deductions and what is kept."))] = None,
) -> dict:
    """Take-home pay for a salary: annual income tax, ACC levy, IETC (ME), student loan, KiwiSaver
    and net pay, plus the same for one pay using IRD's payroll method. With `other_income`, also
    what that part of the salary adds to each deduction and how much of it is kept."""
    code = parse_tax_code(tax_code)
    if code.base not in PRIMARY_CODES:
        raise ToolArgumentError("tax_code", "take-home pay is worked out for a main job: use M, ME, M SL or ME SL")
    has_loan = student_loan or code.student_loan
    frequency = parse_frequency(pay_frequency)
    rules = year_rules(tax_year, "income_tax", "paye")
    year = rules.year
    salary = exact_amount(annual_salary)

    income_tax = calculate_income_tax(annual_salary, year)["total_tax"]
    acc_levy = calculate_acc_levy(annual_salary, year)["annual_levy"]
    ietc = calculate_ietc(annual_salary, year)["annual_credit"] if code.base == "ME" else 0.0
    loan = calculate_student_loan_repayment(annual_salary, year)["annual_repayment"] if has_loan else 0.0
    ks_rate = as_rate(kiwisaver_rate, "kiwisaver_rate") if kiwisaver_rate is not None else Fraction(0)
    kiwisaver = as_number(truncate_cents(salary * ks_rate))
    net = salary - sum(exact_amount(x) for x in (income_tax, acc_levy, loan, kiwisaver)) + exact_amount(ietc)

    pays = PERIODS_PER_YEAR[frequency]
    per_pay_gross = as_number(truncate_cents(salary / pays))
    pay = calculate_paye(
        per_pay_gross, frequency, f"{code.base} SL" if has_loan else code.base, tax_year=year,
        kiwisaver_rate=kiwisaver_rate,
    )
    added = {}
    if other_income:
        extra = exact_amount(other_income)
        if extra > salary:
            raise ToolArgumentError("other_income", "other_income must not be more than annual_salary, which includes it")
        rest = calculate_take_home_pay(as_number(truncate_cents(salary - extra)), tax_code, kiwisaver_rate, student_loan, pay_frequency, year)
        now = {"income_tax": income_tax, "acc_levy": acc_levy, "ietc": ietc, "student_loan": loan, "kiwisaver_employee": kiwisaver}
        added = {"other_income": {
            "amount": as_number(truncate_cents(extra)), "rest_of_salary": rest["annual_salary"],
            **{k: as_number(truncate_cents(exact_amount(v) - exact_amount(rest[k]))) for k, v in now.items()},
            "kept": as_number(truncate_cents(exact_amount(truncate_cents(net)) - exact_amount(rest["net_pay"]))),
        }}
    return {
        **added,
        "tax_year": year,
        "annual_salary": as_number(truncate_cents(salary)),
        "tax_code": f"{code.base} SL" if has_loan else code.base,
        # Annual figures (end-of-year method).
        "income_tax": income_tax,
        "acc_levy": acc_levy,
        "ietc": ietc,
        "student_loan": loan,
        "kiwisaver_employee": kiwisaver,
        "net_pay": as_number(truncate_cents(net)),
        "annual_method": "end-of-year: annual income tax rates" + (" (composite rates)" if rules.section("income_tax").composite_rates else "")
        + ", ACC levy on the salary, student loan over the annual threshold (an approximation of per-pay deductions)",
        "per_pay": {
            "pay_frequency": frequency,
            "gross_pay": pay["gross_pay"],
            "paye": pay["paye"],
            "student_loan": pay["student_loan"],
            "kiwisaver_employee": pay["kiwisaver_employee"],
            "net_pay": pay["net_pay"],
            "pay_date": pay["pay_date"],
            "method": pay["method"],
        },
        "source": rules.section("income_tax").source,
    }
