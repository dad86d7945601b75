"""Checking a figure the poster states (tax taken off their pay, a bill, another calculator's result)
like with like: which figure is checked, and the engine's figure of the same kind and period it is
checked against. PAYE taken from a salary holds the ACC earners' levy as well as income tax, so a
year's PAYE is checked against both; a figure taken each pay is checked against that pay's PAYE."""
from __future__ import annotations

import re
from decimal import Decimal

from nztax.amount_grammar import Money
from nztax.composer import money
from nztax.cue_words import alternatives
from nztax.rules import PAY_FREQUENCIES
from nztax.slots import ASKS_IF_RIGHT

# Owners a checked figure must not have: it is then someone else's, not the poster's to check.
OTHERS = ("partner", "someone_else")
# A figure read as one of these kinds is tax taken, a bill or a refund: checked against a tax figure.
TAX_KINDS = ("tax_withheld", "bill", "refund")
# The results whose figure is a year's (not one pay's).
ANNUAL_RESULTS = ("calculate_income_tax", "calculate_acc_levy")
LEAD_FIGURE = re.compile(r"\*\*\$(?P<v>[\d,]+(?:\.\d+)?)")
# The words just before a lead figure that name it a tax ("PAYE is **$1,203.75**").
TAX_BEFORE = re.compile(r"\b(?:" + alternatives("tax_named") + r")\b[^*]{0,45}$", re.I)


def _frame(decision) -> dict:
    return (decision.trace.frame if getattr(decision, "trace", None) is not None else None) or {}


def _read(frame: dict, amount: Money) -> dict:
    return next((a for a in frame.get("amounts", []) if a.get("start") == amount.start), {})


def someone_elses(decision, amount: Money | None, frame: dict | None = None) -> bool:
    """Whether the words or the learned reading give a figure to someone other than the poster ("My son
    earns $1,000 a week"): a sum on it may be worked, but not said to the poster as theirs."""
    if amount is None:
        return False
    read = _read(_frame(decision) if frame is None else frame, amount)
    return read.get("named") == "other" or read.get("owner") in OTHERS


def figure_to_check(decision, frame: dict | None = None) -> Money | None:
    """The figure the question asks to have checked: one claimed (a payslip's, a calculator's), or tax
    said to come off when the question asks whether it is right (its words, or the learned reading's
    check): a claim whoever makes it, tax taken off only the poster's own (never one the words or the
    learned reading give another person)."""
    frame = _frame(decision) if frame is None else frame
    checks = bool(ASKS_IF_RIGHT.search(decision.asked or "")) or "check" in (frame.get("asks_each") or ())
    figure = next((a for a in decision.slots.amounts if a.role == "claimed" or checks and a.role == "deduction"), None)
    if figure is None:
        return None
    # (A claim is checked whoever makes it; tax taken off someone else's pay is theirs, not the poster's.)
    return None if figure.role == "deduction" and someone_elses(decision, figure, frame) else figure


def check_agreed(decision, frame: dict) -> bool:
    """Two readings agree that a figure is to be checked, however unsure the learned one: an asking
    sentence read likeliest as a check, and a figure of the poster's the number grammar reads as claimed
    or taken off ("Is that right?" after "$420 PAYE comes off each fortnight")."""
    return "check" in (frame.get("asks_each") or ()) and figure_to_check(decision, frame) is not None


def is_tax_taken(decision, figure: Money) -> bool:
    """The checked figure is tax taken off, a bill or a refund (the number grammar's deduction, or the
    learned reading's kind): it is checked against a tax figure, never a take-home pay near it."""
    return figure.role == "deduction" or _read(_frame(decision), figure).get("kind") in TAX_KINDS


def add_the_levy(decision) -> None:
    """A year's tax taken off a salary, stated to be checked beside a sum on the salary: the year's
    income tax and the ACC earners' levy on it are worked out, since that tax holds both (a check of it is against both
    together), not one pay's PAYE the question did not ask for nor income tax alone."""
    taken = [a for a in decision.slots.amounts if a.role == "deduction" and a.period not in PAY_FREQUENCIES]
    names = [name for name, _ in decision.calls]
    # (Only a tax taken that is to be checked: beside "How much tax will I pay?" it is set aside, not answered.)
    if (not taken or figure_to_check(decision) is None or set(names) - {"calculate_income_tax", "calculate_paye"}
            or len(set(names)) != len(names)):
        return
    if "calculate_paye" in names:
        income, code = decision.slots.income_amount(), decision.calls[names.index("calculate_paye")][1].get("tax_code")
        if (not (taken[0].period_stated and income is not None and income.period == "annual" and code == "M")
                or decision.slots.asked_period is not None or decision.slots.kiwisaver or decision.slots.student_loan):
            return  # (a year's tax beside a salary on the main code only, no pay asked; a pay's other deductions are not tax)
        # One pay's PAYE at a period nobody named answers nothing asked: the year's income tax instead.
        decision.assumptions[:] = [a for a in decision.assumptions if not a.endswith("equal pays a year")]
        decision.calls[:] = [("calculate_income_tax", {"taxable_income": float(income.value), "tax_year": decision.calls[0][1].get("tax_year")})]
    args = decision.calls[0][1]
    if args.get("other_income"):
        return  # (other income is no liable earnings for the levy)
    decision.calls.append(("calculate_acc_levy", {"annual_income": args["taxable_income"], "tax_year": args.get("tax_year")}))


def _period_of(results: list[tuple[str, dict, dict]]) -> str | None:
    """The period of the figure the answer's lead gives (its first calculator's)."""
    if not results:
        return None
    name, args, result = results[0]
    return "annual" if name in ANNUAL_RESULTS else result.get("pay_frequency") or args.get("pay_frequency")


def verdict(decision, lead: str, results: list[tuple[str, dict, dict]], together: Decimal | None) -> str | None:
    """A figure they ask us to check answered first: yes when the calculation's own figure of the same
    kind and period is the same, to the cent; otherwise what it comes to and what it holds."""
    figure = figure_to_check(decision)
    if figure is None:
        return None
    taxed = is_tax_taken(decision, figure)
    period = _period_of(results)
    if figure.period_stated and period is not None and figure.period != period:
        return None  # a figure of another period is not this one
    income = decision.slots.income_amount()
    if figure.period_stated and income is not None and income.period in PAY_FREQUENCIES and income.period != figure.period:
        return None  # paid in one period and taxed in another: which pay the tax came off is not certain
    # (A figure of the same stated period is like ours however far apart; otherwise, one far from ours
    # may be another sum altogether.)
    alike = figure.period_stated
    if taxed and together is not None:
        ours, holds = together, " (income tax and the ACC earners' levy for the year)"
    elif figure.role == "deduction" and period == "annual":
        return None  # a year's tax taken off pay holds the levy too: income tax alone is not what it should be
    else:
        figures = [Decimal(m.group("v").replace(",", "")) for m in LEAD_FIGURE.finditer(lead)
                   if not taxed or TAX_BEFORE.search(lead[max(0, m.start() - 60):m.start()])]
        if not figures:
            return None
        ours = min(figures, key=lambda f: abs(f - figure.value))  # the lead's figure of the same kind
        paye = taxed and period in PAY_FREQUENCIES
        holds = " (PAYE holds income tax and the ACC earners' levy)" if paye else ""
        alike = alike and paye
    if not alike and not (figure.value / 2 <= ours <= figure.value * 2):
        return None
    if abs(ours - figure.value) < Decimal("0.01"):
        return f"Yes, {money(figure.value)} is right."
    said = f"Not quite: it comes to {money(ours)}{holds}, not {money(figure.value)}."
    if taxed and period in PAY_FREQUENCIES and figure.value > ours * Decimal("1.1"):
        said += (" If your payslip's figure is everything taken off, it may include KiwiSaver contributions"
                 " or student loan repayments, which are not PAYE.")
    return said

