"""Which of the asker's own figures a planned calculation leaves out.

In: a proposed `Decision` (its slots and calculator calls), the question's `QuestionFrame` and the bar
a reading must reach to be sure. Out: the amounts (`Money`) the number grammar reads as an income or a
deductible cost, that the frame reads surely as the asker's own, and that no planned call uses — as
stated, per pay period, or added to or taken from any of the other figures (`left_out`). A sum that
leaves one out has read the question's figures in a way it cannot show to be right: a year's income
beside another year's, costs stated beside the rent.

Figures a calculation rightly does not take are never counted: another person's income, a cost that
nothing it could come off stands beside (rent paid where they live, a mortgage), interest or rent
beside a levy on earnings only, the jobs inside a stated total that is used, another job's pay beside
a per-pay sum, and the figure a question compares the worked one with.

    missing = left_out(decision, frame, settings.frame_bar)
"""

from __future__ import annotations

from itertools import product

from nztax.slots import INCOME_LIKE_ROLES, Money
from nztax.calculation_plan import EARNINGS_TOOLS

# How many figures the check weighs together (every sum and difference of them); past it every
# figure is taken as used, as before the check.
MAX_WEIGHED = 8
# A pay period's share of a year, for an income the calculation uses per pay.
PAY_PERIODS = (1, 12, 26, 52)
# Incomes that are someone else's however the frame reads them.
OTHERS_ROLES = ("partner", "household")
# Incomes from investments or property: not earnings, so a levy or pay sum on earnings takes none of them.
NOT_EARNINGS_ROLES = ("investment_income", "rent_received")
# What a cost can come off: a business's or a rental's income. Beside none of them a cost is private.
COST_BEARING_ROLES = ("takings", "rent_received", "other_income", "investment_income")
# The pays of one job each: a sum worked per pay is on one of them alone.
JOB_ROLES = ("income", "main_job", "second_job")


def _cents(v) -> int:
    return round(v * 100)


def _call_figures(decision) -> set[int]:
    """Every figure the planned calls pass, in cents."""
    return {_cents(v) for _, args in decision.calls for v in args.values()
            if isinstance(v, (int, float)) and not isinstance(v, bool)}


def _weighed(decision, frame, bar: float) -> list[Money]:
    """The figures the check holds the calculation to: the grammar's incomes (the asker's, not someone
    else's) and, beside an income they can come off, its costs; each read surely as the asker's own."""
    slots = decision.slots
    mine = {f.start for f in frame.amounts if f.owner == "me" and f.owner_sure >= bar}
    costs_bear = any(a.role in COST_BEARING_ROLES for a in slots.amounts)
    return [a for a in slots.amounts if a.start in mine and not a.questioned
            and ((a.role in INCOME_LIKE_ROLES and a.role not in OTHERS_ROLES) or (a.role == "expense" and costs_bear))]


def _excused(a: Money, used_amounts: list[Money], decision) -> bool:
    """A figure the planned calculation rightly does not take."""
    tools = {name for name, _ in decision.calls}
    if a.role in NOT_EARNINGS_ROLES and tools <= set(EARNINGS_TOOLS):
        return True  # a levy or a pay's deductions are on earnings from work only
    if a.role in JOB_ROLES and any(b.role == "total" for b in used_amounts):
        return True  # a stated total already holds each job's pay
    per_pay = any("pay_frequency" in args for _, args in decision.calls)
    if per_pay and a.role in JOB_ROLES and any(b.role in JOB_ROLES and b is not a for b in used_amounts):
        return True  # a sum per pay is on one job's pay; the other job has its own
    return bool(decision.slots.comparison or decision.slots.between) and bool(used_amounts)


def left_out(decision, frame, bar: float) -> list[Money]:
    """The asker's own incomes and deductible costs that no planned call uses (see the module's docstring)."""
    if decision.action != "calculate" or not decision.calls:
        return []
    slots = decision.slots
    amounts = _weighed(decision, frame, bar)
    if not 1 < len(amounts) <= MAX_WEIGHED:
        return []
    used = _call_figures(decision)
    own = {a.start: {v for v in (a.value, slots.annual(a)) if v is not None} for a in amounts}
    yearly = {a.start: slots.annual(a) if slots.annual(a) is not None else a.value for a in amounts}

    def is_used(a: Money) -> bool:
        if any(abs(_cents(v) // n - u) <= 1 or abs(_cents(v / n) - u) <= 1 for v in own[a.start] for n in PAY_PERIODS for u in used):
            return True
        others = [b for b in amounts if b is not a]
        # Every sum and difference of this figure with any of the others (a side business less its
        # costs on top of a salary, a week's rent over a year less the rental's costs).
        for signs in product((0, 1, -1), repeat=len(others)):
            rest = [(s, b) for s, b in zip(signs, others) if s]
            if not rest:
                continue
            others_sum = sum(s * yearly[b.start] for s, b in rest)
            if any(abs(_cents(v + others_sum)) in used for v in own[a.start]):
                return True
        return False

    used_amounts = [a for a in amounts if is_used(a)]
    used_starts = {a.start for a in used_amounts}
    return [a for a in amounts if a.start not in used_starts and not _excused(a, used_amounts, decision)]
