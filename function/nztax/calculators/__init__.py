"""Deterministic tax calculators: plain typed functions returning JSON-ready dicts.

Each function's signature (types, defaults, `Field` descriptions) and docstring are the single
definition from which `nztax.tools` builds its OpenAI tool definition and validates arguments.
"""

from nztax.calculators.acc import calculate_acc_levy
from nztax.calculators.donations import calculate_donation_tax_credit
from nztax.calculators.extra_pay import calculate_extra_pay_paye
from nztax.calculators.errors import ToolArgumentError
from nztax.calculators.familyboost import calculate_familyboost
from nztax.calculators.ietc import calculate_ietc
from nztax.calculators.income_tax import calculate_income_tax
from nztax.calculators.kiwisaver import calculate_kiwisaver
from nztax.calculators.paye import calculate_paye
from nztax.calculators.pir import find_prescribed_investor_rate
from nztax.calculators.square_up import calculate_year_end_square_up
from nztax.calculators.secondary import choose_secondary_tax_code
from nztax.calculators.student_loan import calculate_student_loan_repayment
from nztax.calculators.take_home import calculate_take_home_pay
from nztax.calculators.wff import calculate_working_for_families

CALCULATORS = (
    calculate_income_tax,
    calculate_paye,
    calculate_acc_levy,
    calculate_student_loan_repayment,
    calculate_ietc,
    calculate_kiwisaver,
    calculate_take_home_pay,
    calculate_donation_tax_credit,
    find_prescribed_investor_rate,
    choose_secondary_tax_code,
    calculate_working_for_families,
    calculate_familyboost,
    calculate_extra_pay_paye,
    calculate_year_end_square_up,
)

__all__ = ["CALCULATORS", "ToolArgumentError", *(f.__name__ for f in CALCULATORS)]
