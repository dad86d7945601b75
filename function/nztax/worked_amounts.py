"""Amounts the reader works out from others the question states.

In: the text and its amounts (and the slots or the bright-line period where needed). Out: the
amounts with the worked ones put in: a day rate over the days stated, takings less costs, a rental's
rent, a sale less its purchase (with how long it was held, `months_held`), a total that restates its
parts, a pay over the months it is paid.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace
from decimal import Decimal
from typing import TYPE_CHECKING

from nztax.cue_words import alternatives
from nztax.rules import RuleBook
from nztax.text_cleaning import UNIT_WORDS
from nztax.amount_grammar import MONTH_NAMES, Money, PERIODS_PER_YEAR, _clause_start
from nztax.calendar_dates import month_number, place_in_tax_year
from nztax.amount_roles import (BUSINESS_COSTS, DAYS_WORKED, DAY_RATE, GROSS_ROLES, OTHER_INCOME_ROLES,
                                RENT_PAID, _a_list_of_costs_came_to)
from nztax.amount_owners import INCOME_LIKE_ROLES
from nztax.literal_screen import screen_patterns

if TYPE_CHECKING:
    from nztax.slots import Slots


def _one_year_each(text: str, amounts: list[Money], slots: Slots) -> list[Money]:
    """A day rate worked out over the days stated ("$1,200 per day … 20 days": $24,000), or questioned;
    and an amount that only restates another for a year ("$300 a week … $15,600 for the year") dropped."""
    result: list[Money] = []
    for a in amounts:
        if a.role in INCOME_LIKE_ROLES and not a.questioned and DAY_RATE.match(text[a.end:]):
            days = next((int(m.group("d")) for m in DAYS_WORKED.finditer(text) if not a.start <= m.start() < a.end), None)
            if days is None or days > 366:
                a = replace(a, questioned=f"{a.text} a day: how many days is it paid for in the year?")
            else:
                a = replace(a, value=a.value * days, period="annual", period_stated=True, text=f"{a.text} a day for {days} days")
        restates = any(b.role in INCOME_LIKE_ROLES and a.role in INCOME_LIKE_ROLES and b.period != a.period
                       and not (a.questioned or b.questioned) and slots.annual(a) == slots.annual(b) for b in result)
        if not restates:
            result.append(a)
    return result


def _own_words(text: str, amount: Money) -> str:
    """The words of an amount's own clause, either side of it."""
    start = max(_clause_start(text, amount.start)[1], amount.start - 45)
    after = re.split(r"[.?!;,]| and | but ", text[amount.end:amount.end + 30], maxsplit=1)[0]
    return text[start:amount.start] + " " + after


def _rent_of_their_rental(text: str, amounts: list[Money]) -> list[Money]:
    """"Bought a rental … Rent is $610 a week", "my flat is rented out at $500 a week": rent of a
    place they let out is received, not paid."""
    if not OWNS_RENTAL.search(text):
        return amounts

    def told_as_rent(a: Money) -> bool:
        own = _own_words(text, a)
        near = re.split(r"[.?!;]", text[max(0, a.start - 45):a.start])[-1] + " " + own  # (its sentence, past commas)
        return (bool(RENT_WORD.search(near)) and not (RENT_PAID.search(own) and not PAYS_THEM.search(near))
                and not BUSINESS_COSTS.search(own))  # (a rental's own costs come off its rent)

    return [replace(a, role="rent_received") if a.role in ("expense", "income") and told_as_rent(a) else a for a in amounts]


OWNS_RENTAL = re.compile(alternatives("owns_rental"), re.I)
PAYS_THEM = re.compile(alternatives("pays_them"), re.I)
RENT_WORD = re.compile(alternatives("rent_words"), re.I)
# The weeks a weekly rent was received in the year.
# A profit stated ("$40k profit", "$40k after costs"): what is taxed, the takings beside it only where it came from.
PROFIT_STATED = re.compile(r"\b(?:" + alternatives("profit_words") + r")\b|\b(?:" + alternatives("net_of_costs_words") + ")", re.I)
RENT_WEEKS = re.compile(r"\b(?P<w>\d{1,2})\s+weeks?\s+(?:of\s+)?(?:rent|let|tenanted)\b", re.I)


def _takings_less_costs(text: str, amounts: list[Money], slots: Slots) -> list[Money]:
    """Takings or rent received less the costs stated with them: the profit, which is what is taxed
    ("$83,000 in bookings … costs were $27,400" is $55,600). With no costs stated, `gross_only`."""
    amounts = _rent_of_their_rental(text, amounts)
    gross = [a for a in amounts if a.role in GROSS_ROLES and not a.questioned]
    if not gross:
        return amounts
    costs = [a for a in amounts if a.role == "expense" and not a.questioned
             and (BUSINESS_COSTS.search(_own_words(text, a)) or _a_list_of_costs_came_to(text, a))]
    profits = [a for a in amounts if a.role in (*OTHER_INCOME_ROLES, "income") and not a.questioned
               and PROFIT_STATED.search(_own_words(text, a))]
    if not costs and profits:
        # The profit is stated; the takings only say where it came from.
        return [a for a in amounts if a not in gross]
    if not costs:
        slots.gross_only = True
        return amounts
    weeks = RENT_WEEKS.search(text)

    def year_of(a: Money) -> Decimal:
        if a.role == "rent_received" and a.period == "weekly" and weeks and int(weeks.group("w")) <= PERIODS_PER_YEAR["weekly"]:
            return a.value * int(weeks.group("w"))
        return slots.annual(a) or a.value

    taken, spent = (sum((year_of(a) for a in group), Decimal(0)) for group in (gross, costs))
    profit = Money(value=taken - spent, period="annual", period_stated=True, role=GROSS_ROLES[gross[0].role],
                   text=f"{gross[0].text} less {', '.join(c.text for c in costs)}", start=gross[0].start, end=gross[0].end)
    if profit.value < 0:
        profit = replace(profit, role="other", questioned="the costs are more than what was taken in: a loss, not an income to work tax out on")
    return sorted([a for a in amounts if a not in gross and a not in costs] + [profit], key=lambda a: a.start)


# Something bought and later sold: the gain is what is taxed, less the costs of the sale stated with
# it.
BOUGHT = re.compile(r"\b(?:" + alternatives("bought_words") + r")\b", re.I)
SOLD = re.compile(r"\b(?:" + alternatives("sold_words") + r")\b", re.I)
SALE_COSTS = re.compile(r"\b(?:" + alternatives("sale_cost_words") + r")\b", re.I)


SALE_CLAUSE_BREAK = re.compile(r"[.?!;,](?=\s)| and | but ", re.I)  # a decimal point ("0.4 BTC") does not end a clause


SALE_PRICE_ONLY = "that is what it sold for, not the gain"
PRICE_ONLY_CLAUSE = re.compile(r"\s*(?:for|at)(?:\s+(?:about|around|roughly|approx\.?|just over|just under))?\s*\$?", re.I)
# A home or rental's gain is taxed only when it is sold within the bright-line period, which needs when it was bought.
PROPERTY_HELD_UNKNOWN = "a property's gain is taxed only when it is sold within the bright-line period: when was it bought?"
PROPERTY_SOLD = re.compile(r"\b(?:" + alternatives("property_words") + r")\b", re.I)
# When it was bought, or how long it was held: a year, a month, "18 months", "last year".
HOLDING_TIME = re.compile(r"\b(?:19|20)\d\d\b|\b\d+\s*(?:months?|mths?|years?|yrs?|weeks?)\b|\b(?:a|one|two|three|four|five|six|ten) "
                          r"(?:months?|years?)\b|\b(?:last|this) (?:year|month|summer|winter)\b|\bin " + MONTH_NAMES + r"\b|\bbright[- ]line (?:period )?(?:is over|has passed|ended)\b", re.I)
# A purchase after the sale that is another thing bought.
ANOTHER_BOUGHT = re.compile(r"\b(?:" + alternatives("another_bought_words") + r")\b", re.I)


# How long a property was held: months or years held, or the year it was bought.
_HELD_COUNT = r"\d+(?:\.\d+)?|a|an|" + "|".join(list(UNIT_WORDS)[1:11])  # a number of years or months: "18", "three"
_HELD_UNIT = r"years?|yrs?|months?|mths?"
HELD_FOR = re.compile(rf"\b(?P<n>{_HELD_COUNT})\s*(?P<u>{_HELD_UNIT})\b(?=[^.?!]{{0,12}}\b(?:after|later|since)\b)|"
                      r"\b(?:held|owned|had|kept)\s+(?:it|the \w+|them)?\s*(?:for\s+)?(?:about\s+|around\s+|just over\s+|just under\s+)?"
                      rf"(?P<n2>{_HELD_COUNT})\s*(?P<u2>{_HELD_UNIT})\b|"
                      rf"\b(?P<n3>{_HELD_COUNT})\s*(?P<u3>{_HELD_UNIT})\s+ago\b", re.I)
BOUGHT_IN_YEAR = re.compile(r"\b(?:bought|purchased|got)\b[^.?!]{0,30}?\bin\s+(?:(?P<m>" + MONTH_NAMES + r")\s+)?(?P<y>20\d\d)\b", re.I)
SOLD_IN_YEAR = re.compile(r"\b(?:sold|sell|selling|sale)\b[^.?!$]{0,30}?\bin\s+(?:(?P<m>" + MONTH_NAMES + r")\s+)?(?P<y>20\d\d)\b", re.I)
HELD_PAST_BRIGHT_LINE = "held longer than the bright-line period: the gain is not taxed under the bright-line test"


def months_held(text: str, today: dt.date) -> tuple[float, float] | None:
    """The fewest and most months a property sold now was held, from the question's words; None
    when it does not say, or when the sale was before today's bright-line rules (sold in 2023)."""
    sale = SOLD_IN_YEAR.search(text)
    if sale and int(sale.group("y")) < today.year - 1:
        return None
    # (Sold in a month named: held to then; sold in a year with no month: to as late as today.)
    sold_at = (int(sale.group("y")) * 12 + month_number(sale.group("m")) if sale and sale.group("m")
               else today.year * 12 + today.month)
    m = HELD_FOR.search(text)
    if m:
        n = next(g for g in (m.group("n"), m.group("n2"), m.group("n3")) if g)
        unit = next(g for g in (m.group("u"), m.group("u2"), m.group("u3")) if g).lower()
        count = 1.0 if n.lower() in ("a", "an") else float(UNIT_WORDS.get(n.lower(), n))
        months = count * (12 if unit.startswith("y") else 1)
        return months, months
    b = BOUGHT_IN_YEAR.search(text)
    if b:
        year = int(b.group("y"))
        first, last = (1, 12) if not b.group("m") else (month_number(b.group("m")),) * 2
        return float(sold_at - (year * 12 + last)), float(sold_at - (year * 12 + first))
    return None


def _sale_less_purchase(text: str, amounts: list[Money], bright_line_years: int | None = None,
                        today: dt.date | None = None) -> list[Money]:
    """One purchase and one sale in the question: the gain (sale less purchase less the sale's
    costs), taxed as income but not earnings for the ACC levy. A loss is questioned; so is a
    property's gain when the question does not settle whether it was held inside the bright-line
    period, and one held past it is marked so."""
    def clause(a: Money) -> str:  # its words before it, back to a clause break or the amount before it
        starts = [m.end() for m in SALE_CLAUSE_BREAK.finditer(text, 0, a.start)] + [b.end for b in amounts if b.end <= a.start]
        start = max(starts, default=0)
        if PRICE_ONLY_CLAUSE.fullmatch(text[start:a.start]) and not any(start - 2 <= b.end <= start for b in amounts):
            # The clause before the price says what the price is for.
            start = max([m.end() for m in SALE_CLAUSE_BREAK.finditer(text, 0, max(start - 1, 0))], default=0)
        return text[start:a.start]

    def after(a: Money) -> str:
        return re.split(r"[.?!;]", text[a.end:a.end + 45], maxsplit=1)[0]

    bought = [a for a in amounts if not a.questioned and BOUGHT.search(clause(a)) and not SOLD.search(clause(a))]
    sold = [a for a in amounts if not a.questioned and SOLD.search(clause(a))]
    if not bought and len(sold) == 1 and (sold[0].role == "other" or sold[0].role == "income" and PROPERTY_SOLD.search(clause(sold[0]))):
        # A sale price alone: the price, not the gain, and nothing says what it cost.
        return [replace(a, questioned=SALE_PRICE_ONLY) if a is sold[0] else a for a in amounts]
    if len(bought) != 1 or len(sold) != 1 or bought[0].start > sold[0].start and ANOTHER_BOUGHT.search(clause(bought[0])):
        return amounts  # (an amount paid for it after the sale is what it cost)
    costs = [a for a in amounts if a not in bought + sold and not a.questioned and a.start > sold[0].start
             and SALE_COSTS.search(after(a) + " " + clause(a))]
    gain_value = sold[0].value - bought[0].value - sum((c.value for c in costs), Decimal(0))
    gain = Money(value=gain_value, period="annual", period_stated=True, role="investment_income",
                 text=f"{sold[0].text} less {', '.join(x.text for x in [bought[0], *costs])}", start=sold[0].start, end=sold[0].end)
    if gain_value <= 0:
        gain = replace(gain, role="other", questioned="sold for no more than it cost: no gain to work tax out on")
    elif PROPERTY_SOLD.search(text) and not HOLDING_TIME.search(text):
        gain = replace(gain, questioned=PROPERTY_HELD_UNKNOWN)
    elif PROPERTY_SOLD.search(text) and bright_line_years and today is not None and (held := months_held(text, today)) is not None:
        period = bright_line_years * 12
        if held[0] > period:
            gain = replace(gain, role="other", questioned=HELD_PAST_BRIGHT_LINE)
        elif held[1] > period:
            gain = replace(gain, questioned=PROPERTY_HELD_UNKNOWN)  # ("bought in 2024": either side of two years)
    used = [*bought, *sold, *costs]
    return sorted([a for a in amounts if a not in used] + [gain], key=lambda a: a.start)


# A monthly pay for the months named, in the tax year
# that runs from April to March.
MONTH_RANGE = re.compile(r"^[^.?!;]{0,25}?\b(?:from\s+)?(?P<a>" + MONTH_NAMES + r")\b\.?\s*(?:-|–|to|through|till|until)\s*"
                         r"(?:the end of\s+)?(?P<b>" + MONTH_NAMES + r")\b", re.I)


# The total of amounts just added, restated (so, that's, making).
RESTATES = re.compile(r"(?:\bso|\bthat'?s|\bthats|\bwhich is|\bmaking|\btotal(?: of)?|\ball up|\baltogether|=)\s*(?:about\s+)?$", re.I)


def _restated_total(text: str, amounts: list[Money]) -> list[Money]:
    """Parts that the question itself adds up to a later amount are that amount: only the total,
    with its own period, is kept."""
    for i, total in enumerate(amounts):
        parts = [a for a in amounts[:i] if a.is_income and not a.questioned]
        if (total.is_income and len(parts) > 1 and RESTATES.search(text[max(0, total.start - 20):total.start])
                and sum((a.value for a in parts), Decimal(0)) == total.value):
            return [a for a in amounts if a not in parts]
    return amounts


def _months_paid(text: str, amounts: list[Money]) -> tuple[list[Money], int]:
    """A monthly pay with the months it was paid for is that many months' pay, for the year; an
    amount for a span of months is what was earned in it. Also how many incomes name their months
    (two such, "the old job paid $31,200 from April to August, the new one $4,500 a month from
    September to March", are one year's income and add up)."""
    out, spans = [], 0
    for a in amounts:
        m = MONTH_RANGE.match(text[a.end:]) if a.is_income and not a.questioned else None
        if m:
            first, last = (place_in_tax_year(m.group(k)) for k in ("a", "b"))
            if last >= first and a.period in ("monthly", "annual"):
                spans += 1
                if a.period == "monthly":
                    a = replace(a, value=a.value * (last - first + 1), period="annual", period_stated=True)
        out.append(a)
    return out, spans


def _bright_line_years(rules: RuleBook | None, year: str) -> int | None:
    """The bright-line period in years that year's rules give, if they give one."""
    year_rules = rules.years.get(year) if rules is not None else None
    section = year_rules.data.bright_line if year_rules is not None else None
    return section.years if section is not None else None


def _without_restated_gap(amounts: list[Money]) -> list[Money]:
    """Two incomes compared and a third that is their gap ("from $76k to $81k, how much of that extra
    $5k goes to tax?"): the gap restated, not a third income."""
    incomes = [a for a in amounts if a.is_income and not a.questioned]
    if len(incomes) != 3:
        return amounts
    for gap in incomes:
        a, b = [x for x in incomes if x is not gap]
        if a.period == b.period and gap.start > min(a.start, b.start) and abs(b.value - a.value) == gap.value:
            return [x for x in amounts if x is not gap]
    return amounts


screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
