"""How each calculator's result is shown: one registry read by the FAQ pages, the calculator pages
and the links from answers to calculators.

In: nothing (data only: no calculator is imported, so the function's start-up does not load them).
Out: `PRESENTATION`: tool name -> `Presentation`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Presentation:
    """A calculator's label; the figures a worked-figures table lists (result key, label, format:
    money, money2, percent, bool, frequency, text); its page on the site (slug, and its name in
    "the … calculator"); the page fields an answer's link fills in (its query-string names; none:
    answers do not link to the page); and tool arguments whose page field has another name."""

    label: str
    figures: tuple[tuple[str, str, str], ...]
    page: str
    page_name: str
    page_fields: tuple[str, ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()


PRESENTATION: dict[str, Presentation] = {
    "calculate_income_tax": Presentation(
        label='Income tax for the year',
        figures=(
            ('taxable_income', 'Taxable income', 'money'),
            ('total_tax', 'Income tax', 'money'),
            ('effective_rate', 'Effective rate', 'percent'),
            ('marginal_rate', 'Marginal rate', 'percent'),
        ),
        page='income-tax', page_name='income tax',
        page_fields=('taxable_income', 'tax_year'),
    ),
    "calculate_paye": Presentation(
        label='PAYE for one pay',
        figures=(
            ('pay_frequency', 'Pay frequency', 'frequency'),
            ('tax_code', 'Tax code', 'text'),
            ('gross_pay', 'Gross pay', 'money2'),
            ('paye', 'PAYE (includes ACC levy)', 'money2'),
            ('acc_levy', "of which ACC earners' levy", 'money2'),
            ('student_loan', 'Student loan', 'money2'),
            ('kiwisaver_employee', 'KiwiSaver (employee)', 'money2'),
            ('net_pay', 'Net pay', 'money2'),
        ),
        page='paye', page_name='PAYE',
        page_fields=('gross_pay', 'pay_frequency', 'tax_code', 'kiwisaver_rate', 'tax_year', 'pay_date'),
    ),
    "calculate_acc_levy": Presentation(
        label="ACC earners' levy",
        figures=(
            ('liable_income', 'Liable earnings', 'money'),
            ('rate', 'Levy rate', 'percent'),
            ('max_liable_earnings', 'Maximum liable earnings', 'money'),
            ('annual_levy', 'Levy for the year', 'money2'),
        ),
        page='acc-levy', page_name="ACC earners' levy",
        page_fields=('income', 'tax_year'),
        renamed=(('annual_income', 'income'),),
    ),
    "calculate_student_loan_repayment": Presentation(
        label='Student loan repayment',
        figures=(
            ('threshold', 'Repayment threshold', 'money'),
            ('rate', 'Repayment rate', 'percent'),
            ('income_over_threshold', 'Income over the threshold', 'money'),
            ('annual_repayment', 'Repayment for the year', 'money2'),
        ),
        page='student-loan', page_name='student loan',
        page_fields=('income', 'pay_frequency', 'tax_year'),
        renamed=(('annual_income', 'income'),),
    ),
    "calculate_ietc": Presentation(
        label='Independent earner tax credit',
        figures=(
            ('eligible', 'Eligible', 'bool'),
            ('annual_credit', 'Credit for the year', 'money2'),
            ('reason', 'Why', 'text'),
        ),
        page='ietc', page_name='IETC',
        page_fields=('annual_income', 'tax_year', 'receives_working_for_families', 'receives_benefit', 'receives_nz_super', 'months_eligible'),
    ),
    "calculate_kiwisaver": Presentation(
        label='KiwiSaver and ESCT',
        figures=(
            ('employee_rate', 'Employee rate', 'percent'),
            ('employee_contribution', 'Employee contribution', 'money2'),
            ('employer_rate', 'Employer rate', 'percent'),
            ('employer_contribution', 'Employer contribution', 'money2'),
            ('esct_rate', 'ESCT rate', 'percent'),
            ('esct', 'ESCT', 'money2'),
            ('employer_contribution_net', 'Employer contribution after ESCT', 'money2'),
            ('government_contribution', 'Government contribution', 'money2'),
        ),
        page='kiwisaver', page_name='KiwiSaver',
    ),
    "calculate_take_home_pay": Presentation(
        label='Take-home pay',
        figures=(
            ('annual_salary', 'Salary', 'money'),
            ('tax_code', 'Tax code', 'text'),
            ('income_tax', 'Income tax', 'money2'),
            ('acc_levy', "ACC earners' levy", 'money2'),
            ('ietc', 'IETC', 'money2'),
            ('student_loan', 'Student loan', 'money2'),
            ('kiwisaver_employee', 'KiwiSaver', 'money2'),
            ('net_pay', 'Take-home pay for the year', 'money2'),
        ),
        page='take-home', page_name='take-home pay',
        page_fields=('annual_salary', 'tax_code', 'student_loan', 'kiwisaver_rate', 'pay_frequency', 'tax_year'),
    ),
    "calculate_donation_tax_credit": Presentation(
        label='Donation tax credit',
        figures=(
            ('eligible_donations', 'Eligible donations', 'money2'),
            ('rate', 'Credit rate', 'percent'),
            ('capped_by_income', 'Limited by income', 'bool'),
            ('credit', 'Tax credit', 'money2'),
        ),
        page='donations', page_name='donation tax credit',
        page_fields=('donations', 'taxable_income', 'tax_year'),
    ),
    "find_prescribed_investor_rate": Presentation(
        label='Prescribed investor rate',
        figures=(
            ('rate', 'Prescribed investor rate', 'percent'),
            ('reason', 'Why', 'text'),
        ),
        page='pir', page_name='PIR',
        page_fields=('taxable_income', 'pie_income', 'prior_taxable_income', 'prior_pie_income', 'tax_year'),
    ),
    "choose_secondary_tax_code": Presentation(
        label='Secondary tax code',
        figures=(
            ('tax_code', 'Secondary tax code', 'text'),
            ('rate', 'Tax rate', 'percent'),
            ('rate_with_acc_levy', 'Rate including the ACC levy', 'percent'),
        ),
        page='secondary-code', page_name='secondary tax code',
        page_fields=('total_annual_income', 'student_loan', 'tax_year'),
    ),
    "calculate_extra_pay_paye": Presentation(
        label='PAYE on an extra pay',
        figures=(
            ('extra_pay', 'Extra pay', 'money2'),
            ('tax_code', 'Tax code', 'text'),
            ('annualised_income', 'Annualised income', 'money'),
            ('tax_rate', 'Tax rate', 'percent'),
            ('paye', 'PAYE on the extra pay (includes ACC levy)', 'money2'),
            ('acc_levy', "of which ACC earners' levy", 'money2'),
            ('student_loan', 'Student loan', 'money2'),
            ('kiwisaver_employee', 'KiwiSaver (employee)', 'money2'),
            ('net_extra_pay', 'You keep', 'money2'),
        ),
        page='extra-pay', page_name='extra pay',
        page_fields=('extra_pay', 'regular_pay', 'pay_frequency', 'tax_code', 'on_leaving', 'redundancy', 'recent_earnings',
                     'kiwisaver_rate', 'tax_year', 'pay_date'),
    ),
    "calculate_year_end_square_up": Presentation(
        label='Year-end square-up',
        figures=(
            ('total_income', 'Income for the year', 'money2'),
            ('tax_due', 'Tax for the year', 'money2'),
            ('tax_paid', 'Tax already paid', 'money2'),
            ('result', 'Result', 'text'),
            ('amount', 'Amount', 'money2'),
        ),
        page='year-end', page_name='year-end square-up',
        page_fields=('tax_year', 'salary_wages', 'tax_code', 'pay_frequency', 'salary_paye', 'second_job_wages', 'second_job_tax_code',
                     'second_job_paye', 'extra_pays', 'extra_pays_paye', 'redundancy', 'paid_parental_leave', 'paid_parental_leave_tax',
                     'nz_super', 'nz_super_tax', 'interest', 'rwt', 'schedular_payments', 'withholding_tax', 'self_employed_profit',
                     'provisional_tax_paid', 'student_loan', 'donations', 'receives_working_for_families'),
    ),
}
