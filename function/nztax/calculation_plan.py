"""The plan for an intent: which sums run on the question's figures.

In: a `Decision`, the intent to plan and the `Slots`. Out: the decision with its calls, assumptions
and rule results (`_plan`; a fact's rule worked on a stated figure, `_rule_sum`), or a trial copy
of it (`_trial`, `_rule_answer`) that decide() uses to weigh two readings.
"""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal
from typing import TYPE_CHECKING

from nztax.amount_roles import RULE_LINE_ROLE
from nztax.contract import tax_year_starting
from nztax.cue_words import alternatives
from nztax.rules import SECONDARY_CODES
from nztax.slots import (EMPLOYER_PUTS_IN, HELD_PAST_BRIGHT_LINE, HOUSEHOLD_QUESTIONED, INCOME_LIKE_ROLES,
                         ONLY_INCOME, OTHER_INCOME_ROLES, PAY_FREQUENCIES, PERIODS_PER_YEAR, PROPERTY_HELD_UNKNOWN,
                         SALE_PRICE_ONLY, SECOND_JOB_WORDS, TAX_FIGURE_AFTER, UNIT_WORDS, Money, Slots)
from nztax.understand import IntentSpec, default_catalogue
from nztax.calculator_calls import (TAX_OFF_ASKED, _add_second_job_paye, _call_for, _clarify, _codes_compared,
                                    _income_and_extra, _loan_asked, _loan_deduction_call, _pay_asked_about,
                                    _paye_call, _pir_limits_unstated, _pir_taxable_ceiling, _plan_government_contribution,
                                    _second_job_loan, _take_home_call, _year_data, base_code)
from nztax.literal_screen import screen_patterns
from nztax.calculators.errors import ToolArgumentError
from nztax.calculators.fif import fair_dividend_rate_income
from nztax.calculators.provisional import standard_provisional_tax
from nztax.calculators.wff import family_tax_credit
from nztax.tools import call_tool

if TYPE_CHECKING:
    from nztax.decide import Decision

# How many amounts a comparison of incomes answers at most.
MAX_COMPARED = 3
# Rent from a place let out: its rates, insurance and agent's fees come off the rent.
RENTAL = re.compile(r"\b(?:" + alternatives("rental") + r")\b", re.I)
# A rental's own costs named right before a figure (data/cue_words.yaml rental_costs_before_a_figure).
RENTAL_COST_BEFORE = re.compile(r"\b(?:" + alternatives("rental_costs_before_a_figure") + r")\b[^.?!$\d]{0,12}\$?$", re.I)
# Someone in business on their own account, whose business expenses come off their income.
SELF_EMPLOYED = re.compile(alternatives("self_employed"), re.I)
# Calculators on earnings from work only: a sale or an investment is none of theirs.
EARNINGS_TOOLS = ("calculate_acc_levy", "calculate_paye", "calculate_take_home_pay", "calculate_kiwisaver")
# Calculators that work on a year's taxable income (the PAYE ones work on a pay).
ANNUAL_TOOLS = ("calculate_income_tax", "calculate_acc_levy", "calculate_student_loan_repayment")
# Calculators whose income is all taxable income: with no pay from work, a profit, interest or a
# gain is the income. (The ACC earners' levy is on earnings only.)
ALL_INCOME_TOOLS = ("calculate_income_tax", "calculate_student_loan_repayment", "calculate_ietc", "calculate_donation_tax_credit")
# The sums on a year's income, the ACC levy among them.
INCOME_AND_LEVY_TOOLS = (*ALL_INCOME_TOOLS, "calculate_acc_levy")
# Last year's return not yet filed: the standard option then starts from the year before.
RETURN_NOT_FILED = re.compile(alternatives("return_not_filed"), re.I)
# A value at the start of the year (1 April): the opening market value FDR works on.
OPENING_VALUE = re.compile(r"^\s*(?:at|on)\s+(?:the\s+)?(?:start|beginning|1(?:st)? april|1 apr)|^\s*(?:opening|market value)", re.I)
# The opening value named before its amount.
OPENING_VALUE_BEFORE = re.compile(r"\b(?:opening|market) value\b[^.?!$]{0,40}$", re.I)
MARGINAL_RATE = re.compile(r"(?P<p>\d{2}(?:\.\d+)?)\s?%\s*(?:tax\s+)?(?:rate|bracket|band)|(?:on|in) the (?P<q>\d{2}(?:\.\d+)?)\s?%", re.I)
# Calculators that need the person's income from work (or all their income) to run at all.
INCOME_TOOLS = ("calculate_income_tax", "calculate_paye", "calculate_take_home_pay", "calculate_acc_levy",
                "calculate_student_loan_repayment")
# The student loan deduction asked for by name (not the SL code).
LOAN_DEDUCTION_ASKED = re.compile(r"\b(?:" + alternatives("loan_deduction_asked")
                                  + r")\b[^?.]{0,20}\b(?:student loan|sl)\b(?! code)", re.I)
RIT_NAMED = re.compile(r"\b(?:rit|residual income tax|terminal tax|tax to pay|tax bill)\b", re.I)
# Income named right before an amount; not "paid" or "on", which a donation or a pay also takes.
INCOME_SAID_BEFORE = re.compile(r"\b(?:" + alternatives("income_said_before") + r")\b[^.?!$\d]{0,12}\$?$", re.I)
# The answer is wanted for one pay.
EACH_PAY = re.compile(r"\b(?:each|every|per|a|one) pay(?:slip|cheque|check|day|packet)?\b", re.I)
# What an income on top of the main one adds, asked for.
EXTRA_TAX = re.compile(alternatives("extra_tax"), re.I)
# An income said to be small without its amount: it may be below a credit's cap.
LOW_INCOME_NAMED = re.compile(alternatives("low_income_named"), re.I)
# An extra pay from the employer on top of the salary, whose deductions are the salary's own.
EXTRA_PAY = re.compile(alternatives("extra_pay_asked_about"), re.I)
# A job said to be the only one is the only one, even when named as a kind of second job (part-time).
ONLY_JOB = re.compile(alternatives("only_job"), re.I)
# A job's own pay named before the amount: that job's pay, not the year's total.
A_JOB_PAYS_BEFORE = re.compile(r"\b(?:" + alternatives("a_job_pays_before")
                               + r")\b[^.?!$\d]{0,25}\b(?:pay|pays|paying|that'?ll pay|will pay)\b[^.?!$\d]{0,12}\$?$", re.I)
# ESCT named as such (slots.ESCT also counts "employer contributions", which need not ask about the tax).
ESCT_NAMED = re.compile(r"\besct\b|employer (?:superannuation )?contribution tax", re.I)
# The later of two pays asked about (the new one).
NEW_ONE_ASKED = re.compile(alternatives("new_one_asked"), re.I)
# The whole year's tax asked for, not what one part adds.
ASKS_THE_YEARS_TAX = re.compile(r"\b(?:" + alternatives("asks_the_years_tax")
                                + r")\s+my\s+(?:income\s+)?tax\s+(?:for|this|over)\s+(?:the|this)?\s*(?:tax\s+)?year\b", re.I)
# A total asked for: the sum over every income, not what one part of it adds.
ASKS_TOTAL = re.compile(alternatives("asks_total"), re.I)
# Money paid for something in return (a raffle ticket, a gala dinner) is not a gift: which of several
# payments count is the rule's question, not a sum of them all.
BOUGHT_NOT_GIVEN = re.compile(r"\b(?:" + alternatives("bought_not_given") + r")\b", re.I)


def _loan_deduction_first(d: Decision, intent: IntentSpec, slots: Slots) -> None:
    """"How much SL comes off a $720 weekly pay?": the student loan calculator's deduction from that
    pay leads, with PAYE on the same pay beside it (two jobs' PAYE each lead with their own)."""
    pays = [args for name, args in d.calls if name == "calculate_paye"]
    if (d.action == "calculate" and len(pays) == 1 and "SL" in pays[0]["tax_code"].split()
            and all(name != "calculate_student_loan_repayment" for name, _ in d.calls)
            and (intent.tool == "calculate_student_loan_repayment" or LOAN_DEDUCTION_ASKED.search(d.asked) and not slots.names_take_home)):
        d.calls.insert(d.calls.index(("calculate_paye", pays[0])), _loan_deduction_call(pays[0], d.tax_year))


def _answered_by_the_rule(d: Decision, section: str) -> bool:
    """The fact that shows the rules `section` answers instead of its calculator (the year's rules do
    not state the figures the calculator needs); False when the catalogue has no such fact."""
    rule = next((spec for spec in default_catalogue().intents if spec.does == "fact" and section in spec.show), None)
    if rule is None:
        return False
    d.action, d.intent, d.calls, d.missing = "fact", rule, [], []
    return True


def _answered_as_outside_bright_line(d: Decision) -> bool:
    """A property the question says was held past the bright-line period: the bright-line rule answers,
    leading with its gain not being taxed under it (say.py); False when the catalogue has no such rule."""
    rule = next((spec for spec in default_catalogue().intents if spec.does == "fact" and spec.name == "bright_line"), None)
    if rule is None:
        return False
    d.action, d.intent = "fact", rule
    d.rule_results["bright_line_outside"] = {}
    return True


def _same_sum_either_year(d: Decision, intent: IntentSpec, slots: Slots) -> bool:
    """Whether a calculation on a calendar year's number comes out the same in both tax years it
    can mean; if so the later year is answered and the sameness said."""
    named = re.search(r"20\d\d", slots.year_text or "")
    if named is None or intent.tool is None:
        return False
    y = int(named.group())
    years = [tax_year_starting(y - 1), tax_year_starting(y)]
    outcomes = []
    for year in years:
        trial = replace(d, tax_year=year, calls=[], assumptions=[], known_year=year in d.rules.years)
        _plan(trial, intent, slots)
        if trial.action == "clarify" or not trial.calls:
            return False
        results = [call_tool(name, {**args, "tax_year": year}) for name, args in trial.calls]
        if any("error" in r for r in results):
            return False
        outcomes.append([{k: v for k, v in r.items() if k not in ("tax_year", "source", "sources")} for r in results])
    if outcomes[0] != outcomes[1]:
        return False
    d.tax_year = years[1]
    d.assumptions.append(f"{y} as either tax year it can mean, {years[0]} or {years[1]}: the figures are the same in both")
    return True


def _rule_answer(d: Decision, intent: IntentSpec, slots: Slots) -> Decision | None:
    """What `intent` would plan, as a copy of `d`, when its plan is a rule worked on their figure
    (a second job's loan deduction); None otherwise."""
    trial = replace(d, action="calculate", calls=[], assumptions=[], rule_results={})
    _plan(trial, intent, slots)
    return trial if trial.action == "fact" and trial.rule_results else None


def _trial(d: Decision, intent: IntentSpec, slots: Slots) -> Decision | None:
    """What `intent` would calculate on these slots, as a copy of `d`; None when it would ask instead."""
    trial = replace(d, action="calculate", calls=[], assumptions=[])
    _plan(trial, intent, slots)
    return trial if trial.action == "calculate" and trial.calls else None


def _add_calls(d: Decision, trial: Decision) -> None:
    d.calls += [c for c in trial.calls if c not in d.calls]
    d.assumptions += [a for a in trial.assumptions if a not in d.assumptions]


def _rule_sum(d: Decision, intent: IntentSpec, slots: Slots) -> bool:
    """A fact's rule worked on the amount the question states ("my RIT was $8,000", "shares worth
    $120,000 on 1 April"); whether it could be."""
    if not d.known_year:
        return False
    named_rit = [a for a in slots.amounts if a.period == "annual" and a.value > 0 and _rit_named_before(d.asked, a)]
    # (Tax on the income shown on a return is the year's whole tax, PAYE and all, not what was left to pay.)
    # (A threshold, a limit or a cap the question names is the rule's line, never a figure it is worked on.)
    stated = [a for a in slots.amounts if a.period == "annual" and a.value > 0 and a.role != RULE_LINE_ROLE
              and (a in named_rit or not TAX_FIGURE_AFTER.match(d.asked[a.end:]))]
    stated = named_rit or stated  # (the residual income tax named beats any other figure beside it)
    opening = [a for a in stated if a.role == "value" or OPENING_VALUE.search(d.asked[a.end:a.end + 40])
               or OPENING_VALUE_BEFORE.search(d.asked[max(0, a.start - 60):a.start])]
    try:
        # (A self-employed person's earnings named as making an amount: an income, not the tax on it.)
        tax_stated = named_rit or [a for a in stated if a.role not in (*INCOME_LIKE_ROLES, "takings")]
        if intent.rule_sum == "provisional" and len(tax_stated) == 1:
            d.rule_results["provisional"] = standard_provisional_tax(
                float(tax_stated[0].value), d.tax_year, last_return_filed=not RETURN_NOT_FILED.search(d.asked))
        elif intent.rule_sum == "fif" and (under := _fif_cost_under_threshold(d, slots)) is not None:
            d.rule_results["fif_under"] = under
        elif intent.rule_sum == "fif" and len(opening) == 1:
            d.rule_results["fif"] = fair_dividend_rate_income(float(opening[0].value), d.tax_year, _marginal_rate(d))
        elif intent.rule_sum == "wff" and not FAMILYBOOST.search(d.asked) and len(family := _family_incomes(slots)) in (1, 2):
            # (A couple's income together is just what Working for Families goes by: "my wife's salary is
            # $65k and mine is $80k" is a family income of $145,000.)
            d.rule_results["wff"] = family_tax_credit(float(sum((a.value for a in family), Decimal(0))), _children(d.asked), d.tax_year)
    except ToolArgumentError:
        return False  # (a year without those rules: the rule's text alone)
    return bool(d.rule_results)


def _family_incomes(slots: Slots) -> list[Money]:
    """A family's yearly incomes for Working for Families: one joint amount, or the person's own and a
    partner's; anything else (two of one person's) is not read as a family's."""
    own = [a for a in slots.incomes if a.period == "annual" and a.questioned in (None, HOUSEHOLD_QUESTIONED)]
    partner = [a for a in slots.amounts if a.role == "partner" and a.period == "annual" and not a.questioned]
    # (A household's joint amount already holds the partner's pay.)
    return own + partner if len(own) == 1 and (not partner or len(partner) == 1 and own[0].questioned is None) else []


# FamilyBoost (childcare fees), a Working for Families payment of its own: not the family tax credit's sum.
FAMILYBOOST = re.compile(r"\bfamily ?boost\b|\bday ?care\b|\bchildcare\b|\bece\b|\bkindy\b|\bkindergarten\b", re.I)
CHILD_COUNT = re.compile(r"\b(?P<n>\d|one|two|three|four|five|six)\s+(?:dependent\s+)?(?:kids|children|child|kid)\b|"
                         r"\b(?:a|our|one|an only)\s+(?:child|kid|baby|toddler|son|daughter)\b", re.I)


def _children(text: str) -> int | None:
    """How many dependent children the question says the family has ("two kids", "our child")."""
    m = CHILD_COUNT.search(text)
    if m is None:
        return None
    n = m.group("n")
    return 1 if n is None else int(n) if n.isdigit() else UNIT_WORDS[n.lower()]


# What the FIF interests cost, which decides whether the rules apply.
COST_WORDS = re.compile(r"\b(?:cost|costs|paid|bought|invested|purchase[ds]?)\b", re.I)
# A cost said to be over or under an amount: a bound, not the cost.
OVER_BEFORE = re.compile(r"\b(?:over|more than|above|exceed\w*)\s*$", re.I)


def _rit_named_before(asked: str, amount: Money) -> bool:
    """Residual income tax named earlier in the amount's clause ("My residual income tax for the
    2025-26 year came to $8,400"; not "… was $7,200 and turnover was about $95,000")."""
    return bool(RIT_NAMED.search(re.split(r"[.?!;,]\s| and | but ", asked[max(0, amount.start - 80):amount.start])[-1]))


def _fif_cost_under_threshold(d: Decision, slots: Slots) -> dict | None:
    """The interests' stated cost and the year's FIF threshold, when the cost is at or under it: no FDR
    income to work out, whatever they are worth now ("bought for $38,000, worth $61,000 now")."""
    year = _year_data(d)
    fif = year.foreign_investment_funds if year is not None else None
    cost = [a for a in slots.amounts if a.role in ("expense", "other", "total") and COST_WORDS.search(d.asked[max(0, a.start - 30):a.start])
            and not OVER_BEFORE.search(d.asked[max(0, a.start - 15):a.start])]
    total = sum((a.value for a in cost), Decimal(0))
    if fif is None or not cost or total > Decimal(str(fif.de_minimis_cost)):
        return None
    return {"cost": total, "de_minimis_cost": fif.de_minimis_cost, "tax_year": d.tax_year}


def _marginal_rate(d: Decision) -> float | None:
    """"I'm on the 33% rate": a rate the question states that is one of the year's income tax rates."""
    year = _year_data(d)
    bands = year.income_tax.bands if year is not None and year.income_tax is not None else []
    for m in MARGINAL_RATE.finditer(d.asked):
        rate = float(m.group("p") or m.group("q")) / 100
        if any(abs(float(b.rate) - rate) < 1e-9 for b in bands):
            return rate
    return None


def _gives_only(slots: Slots) -> bool:
    """Donations are the only money stated: no income to work a sum on."""
    return not slots.incomes and any(a.role == "donation" for a in slots.amounts)


def _income_for(slots: Slots, tool: str | None) -> Slots:
    """With no pay from work, a profit, interest or gain is the income of a calculator on all taxable
    income, and a business's profit that of the ACC levy (its caller leaves out investment income)."""
    if slots.income_amount() is None and tool in INCOME_AND_LEVY_TOOLS:
        return replace(slots, amounts=[replace(a, role="income") if a.role in OTHER_INCOME_ROLES else a for a in slots.amounts])
    return slots


def _fact_sum(d: Decision, fact: IntentSpec, slots: Slots) -> None:
    """The calls a fact's calculator makes on the stated figures (none when it would have to ask)."""
    trial = replace(d, calls=[], assumptions=[])
    _plan(trial, fact, slots)
    if trial.action == "fact":
        d.calls, d.assumptions = trial.calls, trial.assumptions


def _extra_tax_on_one_amount(slots: Slots, asked: str) -> bool:
    """"How much extra tax do I pay on my half of the rental's $18,000?": extra on top of income the
    question does not state, when the one amount given is income besides pay (a rental's, a business's)."""
    stated = [a for a in slots.amounts if not a.questioned]
    return (bool(EXTRA_TAX.search(asked)) and len(stated) == 1 and stated[0].role in OTHER_INCOME_ROLES
            and not ONLY_INCOME.search(asked))


def _what_else_reason(slots: Slots) -> str:
    """What to ask of extra money with nothing said of the rest: for money earned abroad, residency too."""
    return "overseas_income" if slots.earned_overseas else "rest_of_income"


def _plan(d: Decision, intent: IntentSpec, slots: Slots) -> None:
    """The calculator calls for a calculation intent, or a clarifying question."""
    year = d.tax_year
    questioned = slots.questioned
    if intent.tool in EARNINGS_TOOLS and slots.income_amount() is not None:
        # (A sale's price is no earnings, whatever sum is asked.)
        questioned = [a for a in questioned if a.questioned not in (SALE_PRICE_ONLY, PROPERTY_HELD_UNKNOWN)]
    changed = [a for a in slots.incomes if not a.questioned]
    if slots.comparison and len(changed) == 2 and NEW_ONE_ASKED.search(d.asked):
        # A pay that changes, with the new one asked about: the new one is worked on.
        slots = replace(slots, comparison=False, amounts=[a for a in slots.amounts if a is not changed[0]])
    if questioned and "income" in intent.needs:
        if questioned[0].one_pay and intent.tool == "calculate_paye":
            _clarify(d, "frequency")  # PAYE on one pay: how often it is paid is what is missing
        elif questioned[0].questioned == HOUSEHOLD_QUESTIONED:
            _clarify(d, "whose_income")  # tax is each person's, on their own income
        elif questioned[0].questioned == SALE_PRICE_ONLY:
            _clarify(d, "sale_cost")  # tax on a sale is on the gain, which needs what it cost
        elif questioned[0].questioned == PROPERTY_HELD_UNKNOWN:
            _clarify(d, "bought_when")  # a property's gain is taxed only inside the bright-line period
        elif questioned[0].questioned == HELD_PAST_BRIGHT_LINE and _answered_as_outside_bright_line(d):
            return  # held past the bright-line period: no tax on the gain to work out
        else:
            _clarify(d, "amount", questioned[0].questioned)
        return
    tool = intent.tool
    if tool in INCOME_TOOLS and _gives_only(slots):
        # Only donations stated: the sum their figures can answer is the donation tax credit.
        tool = "calculate_donation_tax_credit"
    if tool == "calculate_donation_tax_credit":
        # (A gift set aside as the second of two figures for one amount is not added to the first.)
        donations = ([a for a in slots.amounts if a.role == "donation" and not a.questioned]
                     or [a for a in slots.amounts if not a.is_income][:1])
        if not donations and len(slots.amounts) == 1 and not INCOME_SAID_BEFORE.search(d.asked[:slots.amounts[0].start]):
            donations = slots.amounts  # (an amount the credit is asked on; an income named as such is the income, and the gifts are not said)
        if not donations:
            _clarify(d, "donation")
            return
        earned = _income_for(slots, tool)  # interest or other income is a taxable income too
        income = earned.annual_income() if any(a is not donations[0] for a in earned.incomes) else None
        given = donations[0]
        donated = slots.annual(given) or given.value  # "$250 a month" is $3,000 a year
        if given.period in PAY_FREQUENCIES and (slots.asked_period == given.period or EACH_PAY.search(d.asked)):
            # Payroll giving credits each pay as it goes.
            donated = given.value
        elif (len(donations) > 1 and not slots.comparison and all(slots.annual(a) for a in donations)
              and not BOUGHT_NOT_GIVEN.search(d.asked)):
            # Several gifts: the credit is on all the year's gifts together.
            donated = sum((slots.annual(a) for a in donations), Decimal(0))
        if income is None and LOW_INCOME_NAMED.search(d.asked):
            # The credit is capped at the taxable income, which they say may be below the donations.
            _clarify(d, "income")
            return
        if income is None:
            # The credit is capped only by a taxable income below the donations: say the assumption.
            income = donated
            d.assumptions.append(f"your taxable income for the year was at least ${donated:,.0f}")
        d.calls = [(tool, {"donations": float(donated), "taxable_income": float(income), "tax_year": year})]
        return
    if tool == "find_prescribed_investor_rate":
        if _pir_limits_unstated(d) and _answered_by_the_rule(d, "pir"):
            # (Another year's limits would be a wrong figure: the rule and IRD's finder answer, opening
            # with why no rate is worked out for their figures.)
            d.rule_results["pir_limits_unstated"] = {"tax_year": d.tax_year}
            return
        pie = [a for a in slots.amounts if a.role == "pie_income"]
        incomes = [a for a in slots.incomes if a not in pie]
        if not pie and len(incomes) >= 2:
            incomes, pie = incomes[:1], incomes[1:2]
        taxable = slots.annual(incomes[0]) if incomes else None
        ceiling = _pir_taxable_ceiling(d)
        if not pie and taxable is not None and ceiling is not None and taxable > ceiling:
            # Taxable income alone is over every lower rate's limit: PIE income cannot change the rate.
            d.assumptions.append(f"taxable income over ${ceiling:,.0f} in both of the last two years, so PIE income doesn't change the rate")
            d.calls = [(tool, {"taxable_income": float(taxable), "pie_income": 0.0, "tax_year": year})]
            return
        if not pie or taxable is None:
            _clarify(d, "pie_income")
            return
        d.calls = [(tool, {"taxable_income": float(taxable), "pie_income": float(pie[0].value), "tax_year": year})]
        return

    employers = [a for a in slots.amounts if EMPLOYER_PUTS_IN.search(d.asked[max(0, a.start - 40):a.start])]
    if (tool == "calculate_kiwisaver" and ESCT_NAMED.search(d.asked) and employers
            and not [a for a in slots.incomes if a not in employers]):
        # ESCT's rate follows the salary and the employer's contributions, not the contribution alone.
        _clarify(d, "esct_salary")
        return
    if tool == "calculate_kiwisaver" and (slots.contributions or intent.does == "fact"):
        _plan_government_contribution(d, slots)
        return

    jobs = [a for a in slots.incomes if not a.questioned]
    asked_pay = _pay_asked_about(d.asked, slots) if tool == "choose_secondary_tax_code" else None
    if tool == "choose_secondary_tax_code" and any(a.role == "second_job" for a in jobs) and not any(
            a.role in ("main_job", "total") for a in jobs):
        # Beside a second job, the salary is the main one.
        first = next((a for a in jobs if a.role == "income"), None)
        slots = replace(slots, amounts=[replace(a, role="main_job") if a is first else a for a in slots.amounts])
        jobs = [a for a in slots.incomes if not a.questioned]
    if (tool == "choose_secondary_tax_code" and slots.benefit_or_super and len(jobs) == 2 and not slots.comparison and not slots.between
            and all(a.role == "income" for a in jobs)):
        # NZ Super (or the benefit) is the main income and the job the second; the code follows both.
        first, second = sorted(jobs, key=lambda a: a.start)
        slots = replace(slots, adds_up=True, amounts=[replace(a, role="main_job") if a is first else replace(a, role="second_job") if a is second
                                                      else a for a in slots.amounts])
        jobs = [a for a in slots.incomes if not a.questioned]
    if (tool == "choose_secondary_tax_code" and len(jobs) > 1 and asked_pay is None and not slots.comparison
            and not slots.between and all(a.role == "income" for a in jobs)):
        # Several pays and no total named: the secondary codes' thresholds are on the total annual
        # income of every job, so the pays add up (nz_tax_facts.md, tax codes).
        slots = replace(slots, adds_up=True)
    if tool == "choose_secondary_tax_code" and any(a.role == "main_job" for a in jobs):
        # Beside a main job, the other pays are the other jobs, all counted in the total the code
        # follows (a pay asked about is not a year's income).
        slots = replace(slots, adds_up=True, amounts=[
            replace(a, role="second_job") if a.role == "income" else a for a in slots.amounts if a is not asked_pay])
        jobs = [a for a in slots.incomes if not a.questioned]
    if (tool == "choose_secondary_tax_code" and len(jobs) == 1 and jobs[0].role == "income"
            and not ONLY_JOB.search(d.asked)
            and (jobs[0].period in (*PAY_FREQUENCIES, "hourly") and SECOND_JOB_WORDS.search(d.asked)
                 or A_JOB_PAYS_BEFORE.search(d.asked[max(0, jobs[0].start - 60):jobs[0].start])
                 or SECOND_JOB_WORDS.search(re.split(r"[.?!;]", d.asked[max(0, jobs[0].start - 60):jobs[0].start])[-1]))):
        # A job's own pay (a weekly or hourly pay, or one named after the job) in a question about its
        # code is that job's pay, not the year's total income.
        jobs = [replace(jobs[0], role="second_job")]
    if tool == "choose_secondary_tax_code" and jobs and all(a.role == "second_job" and a.value == jobs[0].value for a in jobs):
        # Only the second job's pay is known: its code follows the total income, which is not.
        if slots.tax_code is not None and base_code(slots.tax_code) in SECONDARY_CODES:
            call = _paye_call(d, slots, jobs[0], slots.annual(jobs[0]) or jobs[0].value, year)
            if call is not None:  # (otherwise it has asked back)
                d.calls = [call]
        elif not (_loan_asked(d, slots) and jobs[0].period in PAY_FREQUENCIES and _second_job_loan(d, jobs[0])):
            # (On a second job the loan's share is the rate on every dollar, whichever code.)
            _clarify(d, "secondary_code")
        return
    if tool == "calculate_acc_levy":
        # The levy is on earnings from work, never on interest, dividends or rent.
        slots = replace(slots, amounts=[a for a in slots.amounts if a.role not in ("investment_income", "rent_received")])
    slots = _income_for(slots, tool)
    amount = slots.income_amount()
    if amount is None:
        _clarify(d, "income")
        return
    if amount.period == "hourly" and slots.hours_per_week is None and slots.hours_per_year is None:
        _clarify(d, "hours")
        return
    if amount.period == "hourly" and slots.hours_per_year is not None:
        d.assumptions.append(f"{slots.hours_per_year.normalize():f} hours in the year")
    elif amount.period == "hourly":
        weeks = slots.weeks_per_year or Decimal(PERIODS_PER_YEAR["weekly"])
        d.assumptions.append(f"{slots.hours_per_week.normalize():f} hours a week for {weeks.normalize():f} weeks a year")
    incomes = [a for a in slots.incomes if not a.questioned]
    compared = incomes[:MAX_COMPARED] if slots.comparison and len(incomes) > 1 else [None]
    annual_total = slots.annual_income()
    invested = [a for a in slots.amounts if a.role in OTHER_INCOME_ROLES and not a.questioned and slots.annual(a)]
    if (tool == "calculate_ietc" and annual_total is not None and invested and not (slots.adds_up and not slots.comparison)
            and any(a.is_income for a in slots.amounts)):
        # The credit is on all their income for the year: interest and dividends count as well as pay.
        annual_total += sum((slots.annual(a) for a in invested), Decimal(0))
        d.assumptions.append("interest and other investment income added to the pay: the credit is on the year's whole income")
    if len(incomes) > 1 and slots.adds_up and not slots.comparison:
        d.assumptions.append("the incomes added together for the year")
    expenses = [a for a in slots.amounts if a.role == "expense" and not a.questioned]
    spent = Decimal(0)
    if not SELF_EMPLOYED.search(d.asked):
        # A rental's own costs named before them ("Rates $3,900, insurance $1,800"), not the price it was
        # bought for nor the rent paid where they live.
        expenses = [a for a in expenses if any(a.role in ("investment_income", "rent_received") for a in slots.amounts)
                    and RENTAL.search(d.asked) and RENTAL_COST_BEFORE.search(d.asked[max(0, a.start - 25):a.start])]
    if tool in ANNUAL_TOOLS and expenses and annual_total is not None:
        # Business expenses or a rental's costs named: taxed on what is left.
        spent = sum((slots.annual(a) or Decimal(0) for a in expenses), Decimal(0))
        if spent >= annual_total:
            _clarify(d, "income")
            return
        annual_total -= spent
        d.assumptions.append(f"business expenses of ${spent:,.0f} deducted from the income")

    if (tool == "calculate_income_tax" and compared == [None] and slots.asked_period not in PAY_FREQUENCIES
            and not ASKS_TOTAL.search(d.asked) and not (ASKS_THE_YEARS_TAX.search(d.asked) and not EXTRA_TAX.search(d.asked))):
        base, extra = _income_and_extra(slots, asks_extra=bool(EXTRA_TAX.search(d.asked)), asked=d.asked)
        extra -= spent  # a side business's expenses come off what it adds
        if base is not None and extra > 0:
            # The answer shows the total and what the other income adds to it.
            d.calls = [(tool, {"taxable_income": float(base + extra), "other_income": float(extra), "tax_year": year})]
            return
    if tool == "calculate_take_home_pay" and compared == [None] and slots.asked_period not in PAY_FREQUENCIES:
        base, extra = _income_and_extra(slots)
        paid_extra = [a for a in slots.amounts if a.role in OTHER_INCOME_ROLES and not a.questioned
                      and EXTRA_PAY.search(d.asked[max(0, a.start - 30):a.end + 30])]
        if base is not None and extra > 0 and paid_extra and extra == sum((slots.annual(a) for a in paid_extra), Decimal(0)):
            # What is kept of extra pay: the take-home pay on both, and what the extra adds to each
            # deduction.
            name, args = _take_home_call(d, slots, paid_extra[0], base + extra, year, "annual")
            d.calls = [(name, {**args, "other_income": float(extra)})]
            return
    codes = _codes_compared(d.asked)
    if tool in ("calculate_paye", "calculate_take_home_pay") and codes and compared == [None] and annual_total is not None:
        # Two codes weighed: PAYE on the same pay under each code, and the credit that makes the difference.
        for code in codes:
            call = _paye_call(d, replace(slots, tax_code=code), amount, annual_total, year)
            if call is None:
                return
            d.calls.append(call)
        if "ME" in codes:
            d.calls.append(("calculate_ietc", {"annual_income": float(annual_total), "tax_year": year}))
        return
    if tool == "calculate_kiwisaver" and len(slots.kiwisaver_rates) == 2 and compared == [None] and annual_total is not None:
        # Two KiwiSaver rates weighed: the same pay's contribution at each rate.
        for rate in slots.kiwisaver_rates:
            call = _call_for(tool, d, replace(slots, kiwisaver_rate=rate), amount, annual_total, year)
            if call is not None and call not in d.calls:
                d.calls.append(call)
        return
    for item in compared:
        annual = slots.annual(item) if item is not None else annual_total
        if annual is None:
            _clarify(d, "income")
            return
        basis = item or amount
        call = _call_for(tool, d, slots, basis, annual, year)
        if call is None:
            return
        if call not in d.calls:  # a comparison may name one amount twice
            d.calls.append(call)
    if tool == "choose_secondary_tax_code" and d.calls and TAX_OFF_ASKED.search(d.asked):
        _add_second_job_paye(d, slots, d.calls[0][1], year, asked_pay)
    if (tool == "calculate_take_home_pay" and compared == [None] and d.calls
            and d.calls[0][0] == "calculate_take_home_pay" and d.calls[0][1]["pay_frequency"] == d.slots.asked_period):
        # Take-home for one pay: IRD's PAYE on that pay, to the cent, leads; the take-home
        # calculator adds the student loan and KiwiSaver on the same pay.
        pay = _paye_call(d, slots, amount, annual_total, year)
        if pay is not None:
            d.calls.insert(0, pay)


screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
