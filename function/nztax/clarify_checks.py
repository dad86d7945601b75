"""The checks decide() makes before it calculates: what to ask back, which rule answers.

In: the question as typed, the intent read and the `Slots`. Out: what the question needs before any
reading can be answered (`_missing_before_anything`), whether it asks for a figure of its own,
whether a calendar year must be asked about, the catalogue's nearest rule or calculation, a pay
that changed during the year, and a topic turned away after retrieval found nothing
(`after_retrieval`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from nztax.cue_words import alternatives
from nztax.contract import tax_year_starting
from nztax.rules import RuleBook
from nztax.settings import get_settings
from nztax.calendar_dates import months_to_march
from nztax.slots import MONTH_NAMES, OTHER_INCOME_ROLES, Slots
from nztax.understand import IntentSpec, default_catalogue
from nztax.calculator_calls import TWO_JOBS, _truncated
from nztax.calculation_plan import INCOME_TOOLS, NEW_ONE_ASKED, _income_for
from nztax.literal_screen import screen_patterns

if TYPE_CHECKING:
    from nztax.decide import Decision

# A figure of their own asked for (in the first person, or of "my" something), and a topic question
# asking for their own sum. How much of an amount goes to tax: what comes off an amount of their own.
GOES_TO_TAX = r"\bhow much\b[^?]*\b(?:goes|go|going)\s+(?:to|in|on)\s+(?:extra\s+)?tax\b"
OWN_FIGURE = re.compile(alternatives("own_figure"), re.I)
# A figure of their own foretold (what they will get or be paid).
PREDICTS_OWN = re.compile(alternatives("predicts_own"), re.I)
# One rate asked of their own case: the question speaks of them or their employer and asks a rate or how much.
OWN_RATE_ASKED = re.compile(alternatives("own_rate_asked"), re.I | re.S)
# The rates themselves, or how they work: the table, the thresholds, an explanation.
RATES_TABLE_ASKED = re.compile(r"\b(?:" + alternatives("rates_table_asked") + r")", re.I)
# A figure asked for (not whether they get it), and a figure the rule itself gives: its most, or what is paid in.
FIGURE_ASKED = re.compile(r"\bhow (?:much|many dollars)\b|\bwhat|\bwhich\b|\bwork(?:ing)? out\b|\bcalculate\b", re.I)
RULE_FIGURE_ASKED = re.compile(alternatives("rule_figure_asked"), re.I)  # the rule's percentage asked
# Asking for a sum of their own outright: with no amount, only a figure from them can answer it.
SUM_REQUEST = re.compile(alternatives("sum_request"), re.I)
# Asking whether tax taken is right (right, correct, too much, overtaxed).
CHECKS_DEDUCTION = re.compile(r"\b(?:" + alternatives("checks_deduction") + r")\b", re.I)
# Asking whether an amount taken is right (not a tag question's "…, right?").
CHECKS_AMOUNT = re.compile(alternatives("checks_amount"), re.I)
# Something taken off an amount by someone else (taken off, deducted, withheld).
TAKEN_OFF = re.compile(r"\b(?:" + alternatives("taken_off") + r")\b", re.I)
PAY_WORD = re.compile(r"\b(?:pay|paid|payslip|wages?|salary|pay ?packet)\b", re.I)
# A sum wanted for a pay period or for what comes off a pay: a figure of the person's own, however
# it is worded.
PER_PAY_ASKED = re.compile(alternatives("per_pay_asked"), re.I)
# Whether someone is a tax resident, asked; how long they have been here, said.
ASKS_IF_RESIDENT = re.compile(r"\b(?:" + alternatives("asks_if_resident") + r")\b[^.?!]{0,30}\bresident\b", re.I)
HOW_LONG_HERE = re.compile(r"\b\d+\s*(?:days?|weeks?|months?|years?|yrs?)\b|\b(?:since|in|from|on)\s+(?:the\s+)?(?:\d{1,2}(?:st|nd|rd|th)?\s+)?"
                           + MONTH_NAMES + r"\b|\b(?:a|one|two|three|six) (?:days?|weeks?|months?|years?)\b|"
                           r"\bhalf a year\b|\bpermanent\w*\b|\bcitizen\b|\bhome here\b|\bbought a house\b", re.I)
# Where someone lives, said by its place (a living or home word before a place name): a home is one
# of the two facts residence turns on. (A place is a capitalised word.)
LIVES_IN_A_PLACE = re.compile(alternatives("lives_in_a_place"))
# Tax on an extra payment (a bonus, overtime, a redundancy) asked about by name.
EXTRA_ASKED_ABOUT = re.compile(r"\b(?:" + alternatives("extra_pay_asked_on") + r")\s+(?:"
                               + alternatives("determiners_of_an_extra_pay") + r")\s+(?:"
                               + alternatives("extra_pay_kinds") + r")?(?:" + alternatives("extra_pay_asked_by_name")
                               + r")\b", re.I)
# An extra pay named, then asked about as "it": the extra pay is what is asked about.
EXTRA_THEN_IT = re.compile(r"\b(?:" + alternatives("determiners_of_an_extra_pay_then_it") + r")\s+(?:" + alternatives("extra_pay_kinds_then_it") + r")?(?:"
                           + alternatives("extra_pay_then_it") + r")\b(?=[^?]*\b(?:" + alternatives("extra_pay_asked_on_as_it")
                           + r")\s+" + alternatives("extra_pay_as_it") + r"\b)", re.I)
EACH_JOB = re.compile(alternatives("each_job"), re.I)
# The year something happened (a change, a rumour), not the year asked about.
EVENT_YEAR = re.compile(r"\b(?:" + alternatives("event_year") + r")\s+(?:" + alternatives("event_year_back") + r")?(?:"
                        + alternatives("event_year_on") + r")\s+20\d\d\b", re.I)
# A pay that changed from one amount to another.
PAY_CHANGED = re.compile(r"\b(?:" + alternatives("pay_changed") + r")\b[^.?!]{0,20}\bfrom\b[^.?!]{0,20}\bto\b", re.I)
# When it changed, a month named after the new pay.
CHANGE_MONTH = re.compile(r"[^.?!]{0,25}?\b(?:from|starting|in|on|since|as of|effective)\s+(?:the\s+)?(?:1(?:st)?\s+(?:of\s+)?)?"
                          r"(?P<m>" + MONTH_NAMES + r")\b", re.I)
# A pay that stopped or changed part-way with nothing said of the pay after.
PAY_ENDED = re.compile(r"^[^.?!]{0,30}\buntil\b[^.?!]{0,20}\b" + MONTH_NAMES + r"\b[^.?!]{0,10}\b(?:then|and then|when|after which)\b", re.I)
OWN_AMOUNT = re.compile(alternatives("own_amount"), re.I)
# A threshold asked about (how much before something applies, how much is needed for it), which
# the rule answers.
THRESHOLD_ASKED = re.compile(alternatives("threshold_asked"), re.I)
# An amount stated as the person's own income (a first-person earning word before it), not a
# threshold being asked about.
OWN_INCOME_BEFORE = re.compile(alternatives("own_income_before"), re.I)
OWN_INCOME_AFTER = re.compile(r"^\s*(?:a year\s+|per year\s+)?(?:salary|income|wages?)\b", re.I)
FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|my|me)\b", re.I)


def _year_of_a_change(d: Decision, slots: Slots) -> Slots | None | bool:
    """A pay that changed during the tax year, asked about for the whole year: the year's income is
    each pay for its months ("from $64k to $68k from 1 January": 9 months and 3), as one income. False
    when the year's income cannot be known (no month for the change, or nothing said after an end);
    None when the question tells of no change."""
    pays = [a for a in slots.incomes if not a.questioned and a.period == "annual"]
    if (len(pays) == 2 and slots.comparison and PAY_CHANGED.search(d.asked) and not NEW_ONE_ASKED.search(d.asked)
            and d.asked.count(pays[1].text) == 1):  # (a question on the second pay asks about the new one)
        month = CHANGE_MONTH.match(d.asked, pays[1].end)
        if month is None:
            return False
        later = months_to_march(month.group("m"))
        year = _truncated((pays[0].value * (12 - later) + pays[1].value * later) / 12)
        d.assumptions.append(f"${pays[0].value:,.0f} a year for {12 - later} months and ${pays[1].value:,.0f} a year for "
                             f"{later} months: ${year:,.2f} for the tax year")
        whole = replace(pays[0], value=year, text=f"{pays[0].text} then {pays[1].text}")
        return replace(slots, comparison=False, adds_up=False,
                       amounts=[whole if a is pays[0] else a for a in slots.amounts if a is not pays[1]])
    if len(pays) == 1 and PAY_ENDED.search(d.asked[pays[0].end:]):
        return False  # a pay until a month, then something else: the rest of the year is not said
    return None


def _nearest_rule(classification) -> IntentSpec | None:
    """The best-scoring fact or topic in the catalogue, if it is near enough to the question."""
    rules = [spec for spec in default_catalogue().intents if spec.does in ("fact", "topic")
             and classification.scores.get(spec.name, 0.0) >= get_settings().intent_min_score]
    return max(rules, key=lambda spec: classification.scores[spec.name], default=None)


def _calculation(tool: str) -> IntentSpec | None:
    """The catalogue's calculation that runs `tool`."""
    return next((spec for spec in default_catalogue().intents if spec.does == "calculate" and spec.tool == tool), None)


def _asked_of_a_known_calendar_year(asked: str, slots: Slots, rules: RuleBook) -> bool:
    """A calendar year the question asks about ("the IETC cut-off in 2024"), both of whose tax years
    the rules hold: not a pay's date, a KiwiSaver year, or when something happened ("scrapped in 2025")."""
    named = re.search(r"20\d\d", slots.year_text or "")
    if named is None or slots.pay_date or slots.kiwisaver_year or EVENT_YEAR.search(asked):
        return False
    y = int(named.group())
    return all(tax_year_starting(year) in rules.years for year in (y - 1, y))


def _same_rule_either_year(fact: IntentSpec, rules: RuleBook, year_text: str) -> bool:
    """Whether a fact's lead says the same in both tax years a calendar year's number can mean."""
    from nztax.say import fact_values, fill  # (say renders decisions; only its rule values are needed here)

    y = int(re.search(r"20\d\d", year_text).group())
    years = [tax_year_starting(y - 1), tax_year_starting(y)]
    leads = []
    for year in years:
        year_rules = rules.years.get(year)
        lead = fill(fact.lead, fact_values(year_rules)) if year_rules is not None and fact.lead else None
        if lead is None:
            return False
        # (The lead shows a year's figures as they end it; a change part-way through, such as the
        # 31 July 2024 one, shows in the section's own figures.)
        leads.append((lead.replace(year, ""), [_figures_only(getattr(year_rules.data, t, None)) for t in fact.topics]))
    return leads[0] == leads[1]


def _figures_only(section) -> object:
    """A rules section's figures, without its dates and source (which differ every year)."""
    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("start", "end", "source")}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value
    return strip(section.model_dump()) if section is not None else None


def _missing_before_anything(asked: str, intent: IntentSpec, slots: Slots) -> str | None:
    """What a question needs before any reading of it can be answered, whatever it is about."""
    checked = ("deduction", "claimed") if intent.does == "calculate" and intent.tool in INCOME_TOOLS else ("deduction",)
    if (any(a.role in checked for a in slots.amounts) and _income_for(slots, intent.tool).income_amount() is None
            and CHECKS_DEDUCTION.search(asked)):
        # A deduction to check with no pay given: checking it needs the pay it came off. (A stated
        # profit is the income to check against.)
        return "pay_to_check"
    if (slots.amounts and all(a.role == "claimed" for a in slots.amounts) and intent.does == "topic"
            and CHECKS_DEDUCTION.search(asked)):
        # A figure to check, nothing it was worked from, and no rule that gives it.
        return "pay_to_check" if PAY_WORD.search(asked) else "details"
    if not slots.amounts and CHECKS_AMOUNT.search(asked) and TAKEN_OFF.search(asked):
        # Checking what was taken needs the figures it was taken from, and none is given.
        return "pay_to_check" if PAY_WORD.search(asked) else "details"
    if not slots.amounts and OWN_AMOUNT.search(asked) and PER_PAY_ASKED.search(asked):
        # What comes off a pay follows the pay, which is not given.
        return "income"
    if ((EXTRA_ASKED_ABOUT.search(asked) or EXTRA_THEN_IT.search(asked)) and slots.amounts
            and not any(a.role in OTHER_INCOME_ROLES for a in slots.amounts)):
        # An extra pay is what is asked about, and its amount is not said.
        return "extra_amount"
    if intent.asks == "residence_facts" and ASKS_IF_RESIDENT.search(asked) and not _residence_facts_said(asked):
        # Residence follows the days here and whether they have a home here, and neither is said.
        return "residence_facts"
    if (slots.second_job or TWO_JOBS.search(asked)) and len(slots.incomes) == 1 and EACH_JOB.search(asked):
        # One total, and a figure asked for each job, which follows how the total is split.
        return "job_split"
    if not slots.amounts and SUM_REQUEST.search(asked):
        # A sum of their own asked for with no figure.
        return "income"
    return None


def after_retrieval(d: Decision, found: bool) -> Decision:
    """A topic answer with nothing in the sources, for a question whose nearest intent was to turn
    it away, is turned away after all ("What's a good pavlova recipe?")."""
    if d.action == "topic" and not found and d.classification is not None:
        nearest = d.classification.intent
        if nearest.does in ("decline", "refuse"):
            d.action = nearest.does
    return d


def _asks_own_figure(text: str) -> bool:
    return bool(OWN_FIGURE.search(text))


def _asks_own_rate(asked: str, fact: IntentSpec, slots: Slots) -> bool:
    """One rate of their own asked of a fact whose rate follows the person's figures, none of which is stated."""
    return (fact.own_rate_asks and slots.income_amount() is None and bool(OWN_RATE_ASKED.search(asked))
            and not RATES_TABLE_ASKED.search(asked))


def _own_figure_with_nothing(asked: str, fact: IntentSpec, slots: Slots, states_nothing: bool) -> bool:
    """A fact asked of their own case with nothing to work it from: "What PIR should I pick for my
    KiwiSaver?", "how much Working for Families will we get?". A code follows the situation, which a
    stated condition can settle; every other fact's figure follows amounts. ("How much can we get?",
    "what's the most?", "how much does the government put in?" ask the rule, which answers them.)"""
    if fact.asks == "situation":
        return states_nothing and _asks_own_figure(asked)
    if _asks_own_rate(asked, fact, slots):
        return True
    if fact.asks == "residence_facts" and _residence_facts_said(asked):
        return False
    return (not slots.amounts and not THRESHOLD_ASKED.search(asked) and not RULE_FIGURE_ASKED.search(asked)
            and (bool(PREDICTS_OWN.search(asked)) or _asks_own_figure(asked) and bool(FIGURE_ASKED.search(asked))))


def _residence_facts_said(asked: str) -> bool:
    """Whether the question says how long someone has been here or where they live."""
    return bool(HOW_LONG_HERE.search(asked) or LIVES_IN_A_PLACE.search(asked))


def _states_own_figures(asked: str, slots: Slots) -> bool:
    """An income stated as the person's own, or what they put into KiwiSaver themselves."""
    return _states_own_income(asked, slots) or bool(slots.contributions)


def _states_own_income(asked: str, slots: Slots) -> bool:
    """Whether an income in the question is stated as the person's own."""
    for amount in slots.incomes:
        if amount.questioned:
            continue
        if OWN_INCOME_BEFORE.search(asked[max(0, amount.start - 45):amount.start]):
            return True
        if OWN_INCOME_AFTER.match(asked[amount.end:]) and FIRST_PERSON.search(asked):
            return True
    return False


screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
