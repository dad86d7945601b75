"""The number grammar: what makes a number money, and the period it is paid in.

In: the cleaned text and a number's position. Out: the `Money` record (text span, value, period,
role, whether it must be asked about), a number's value (`money_value`), an amount's period and where
its words end, and the period an answer is asked in (`asked_period`, `asked_and_paid`). The patterns
for currency, k/m suffixes, foreign currencies, counts, ages and dates live here.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation

from nztax.calendar_dates import month_alternatives
from nztax.cue_words import alternatives, with_plurals
from nztax.rules import PAY_FREQUENCIES
from nztax.sentences import question_spans, sentence_spans
from nztax.rules import PERIODS_PER_YEAR as PAY_PERIODS_PER_YEAR
from nztax.settings import get_settings
from nztax.literal_screen import screen_patterns

# Pay periods and how many make a year (the rules' annualisation factors) plus the year itself;
# "hourly" needs hours and weeks.
PERIODS_PER_YEAR = {**PAY_PERIODS_PER_YEAR, "annual": 1}


# ---------------------------------------------------------------------------------------------
# Amounts

_CODES = r"ME SL|M SL|SB SL|S SL|SH SL|ST SL|SA SL|ME|M|SB|SH|ST|SA|S|ND|NSW|CAE|EDW|WT|STC"
# A word written in capitals, as a tax code is when it is named as one ("SH", "M SL"); lower-case
# "me" and "s" are ordinary words. Callers keep the words that are codes in the rules data.
CAPITALISED_WORD = re.compile(r"\b[A-Z]{1,4}\b")

_NUMBER = (r"(?P<num>\d{1,3},\d{1,2}(?=\s?k\b)"            # 1,5k (a decimal comma before k)
           r"|\d{1,3}(?:,\d{3})+(?:\.\d+)?"       # 85,000 / 1,234,567.89
           r"|(?<![-–/])\d{1,3}(?: \d{3})+(?!\d|,\d)(?:\.\d+)?"  # 85 000 (a space groups thousands; not "2023-24 500")
           r"|\d{1,3}(?:\.\d{3})+(?![\d.])"               # 85.000 (a dot groups thousands; money only)
           r"|\d+(?:\.\d+)?)")
# A figure's scale written after it ("85k", "1.2 million") and its currency said after it ("500 dollars").
_SCALE = r"(?:k|m|mil|million|thousand|grand)\b"
CURRENCY_AFTER = r"(?:dollars|nzd|bucks)\b"
AMOUNT = re.compile(
    r"(?P<neg>-\s?)?(?P<cur>nz\$|\$|nzd\s?)?\s?(?P<neg2>-)?" + r"(?<![\w.,])" + _NUMBER +
    r"(?:\s?(?P<suf>" + _SCALE + r"))?(?P<dollars>\s?" + CURRENCY_AFTER + r")?",
    re.I,
)
# Money in another currency: "120k AUD", "A$95,000", "£40,000", "60000 pounds".
FOREIGN_BEFORE = re.compile(r"(?:\b(?:a|au|aud|us|usd|c|cad|s|sgd|hk|hkd|t|top|ws|wst|fj|f)\$\s?|[£€₹¥₱₩฿]\s?|\b(?:aud|usd|gbp|eur|cad|inr|php|cny|rmb|sgd|zar|fjd)\s?)$", re.I)
FOREIGN_AFTER = re.compile(r"^\s?(?:aud|usd|gbp|eur|cad|inr|php|cny|rmb|sgd|zar|fjd|top|wst|pounds?|quid|euros?|rupees?|pesos?|yuan|"
                           r"pa'?anga|tala|baht|ringgit|rand|lakhs?|"
                           r"(?:australian|aussie|us|american|canadian|singapore|hong kong|fijian) dollars?)\b", re.I)
FOREIGN_QUESTIONED = "{} is in another currency; what is it in New Zealand dollars?"
# Words that make a nearby bare number money.
MONEY_WORDS = re.compile(r"\b(" + alternatives("money_words") + r")\b", re.I)
_FREQ_AFTER = [
    ("hourly", r"an hour|per hour|a hr|an hr|/\s?hr|/\s?hour|/\s?h\b|hourly|p/?h\b|ph\b|per hr"),
    ("weekly", r"a week|per week|each week|every week|for the week|this week|weekly|/\s?wk|/\s?week|p/?w\b|pw\b|a wk|per wk|wk\b|"
               r"week\b(?!s)"),  # a pay said as a week's
    ("fortnightly", r"a fortnight|per fortnight|each fortnight|every fortnight|for the fortnight|fortnightly|every (?:two|2) weeks|"
                    r"/\s?fortnight|/\s?f/?n\b|p/?f\b|fortnight\b(?!s)"),
    ("four_weekly", r"every (?:four|4) weeks|(?:four|4)[- ]?weekly|per (?:four|4) weeks|a (?:four|4)[- ]week"),
    ("monthly", r"a month|per month|each month|every month|for the month|monthly|/\s?month|/\s?mth|/\s?mo\b|p/?m\b|pm\b|a mth|per mth|"
                r"month\b(?!s)"),
    ("annual", r"a year|per year|per annum|p\.?a\.?(?!\w)|annually|annual|/\s?yr|/\s?year|/\s?y\b|yearly|each year|a yr|per yr|"
               r"in the year|for the year|ytd|year to date|(?:last|this|that) (?:tax )?year|over the year"),
]
# Every period an amount or a question may be read in (slots.asked_period), by name.
PERIODS = tuple(name for name, _ in _FREQ_AFTER)
FREQ_AFTER = re.compile(r"^\s*(?:gross\s+|before tax\s+|pre-tax\s+)?(?:" +
                        "|".join(f"(?P<{n}>{p})" for n, p in _FREQ_AFTER) + ")", re.I)
FREQ_BEFORE = re.compile(
    r"(?:^\W*(?P<weekly_opening>week)\b[^.?!$\d]*|"
    r"\b(?:(?P<weekly>weekly|wkly|(?:this|last|next) week'?s|(?:my|our|his|her) week(?= from))|"
    r"(?P<fortnightly>fortnightly|fnightly|fn|f/n|(?:this|last|next) fortnight'?s|(?:my|our|his|her) fortnight(?= from))|"
    r"(?P<four_weekly>four[- ]?weekly|4[- ]?weekly)|"
    r"(?P<monthly>monthly|(?:this|last|next) month'?s|(?:my|our|his|her) month(?= from))|(?P<annual>annual|yearly|ytd|year to date)|(?P<hourly>hourly)))"
    r"\s*(?:(?:gross|before[- ]tax|take[- ]home)\s+)?(?:(?:pay|wages?|salary|income|earnings|rate|pay ?check)\s*)?"
    r"(?:(?:of|is|are|=|:|was|were|about|around|from)\s*)*(?:nz\$|\$|nzd)?\s*$",
    re.I,
)
# A period before or after the amount is caught by FREQ_AFTER/BEFORE;
# a period word elsewhere in the question is the period the answer is wanted in.
ASKED_PERIOD = [
    ("weekly", r"\b(?:weekly|a week|per week|each week|every week|p/?w|pw|week's|weekly pay|this week|the week|that week|one week|week ending|"
               r"(?:take[- ]?home|net|paye)\s+(?:week|wk))\b"),
    ("fortnightly", r"\b(?:fortnightly|a fortnight|per fortnight|each fortnight|every fortnight|every (?:two|2) weeks|every second week|"
                    r"this fortnight|the fortnight|that fortnight|one fortnight|fortnight ending|(?:take[- ]?home|net|paye)\s+fortnight)\b"),
    ("four_weekly", r"\b(?:four[- ]?weekly|4[- ]?weekly|every (?:four|4) weeks)\b"),
    ("monthly", r"\b(?:monthly|a month|per month|each month|every month|p/?m|month's|this month|the month|that month|one month|"
                r"(?:take[- ]?home|net|paye)\s+month)\b"),
    ("annual", r"\b(?:a year|per year|annually|yearly|for the year|per annum|in a year|each year|over (?:the|a) (?:full )?year|"
               r"(?:full|whole) year|per yr|a yr|(?:for|in|over) (?:one|1) year|(?:at|by) (?:the )?(?:year[- ]end|end of the year))\b"),
]
# Each compiled once, in the list's order (and put behind the literal screen with the rest, below).
ASKED_PERIOD_PATTERNS = {name: re.compile(pattern, re.I) for name, pattern in ASKED_PERIOD}
# A pay period named anywhere; not a year asked about.
PAY_FREQUENCY_WORD = re.compile("|".join(p for name, p in ASKED_PERIOD if name in PAY_FREQUENCIES), re.I)
ANY_PERIOD_WORD = re.compile("|".join(p for _, p in ASKED_PERIOD) + r"|\bin a week\b|\b(?:one|1|a single) (?:week|fortnight|month)\b", re.I)
# People someone may ask about besides themselves (whose money an amount is, below).
KIN = with_plurals("kin_words")  # (each word beside its plural: "wives", "children")
NOT_MONEY_BEFORE = re.compile(
    r"(?:\b(?:divided|divide|multiplied|multiply) (?:it |that )?by\s|[a-z)]\s?[/÷×]\s?|\bir\s?-?|\bform\s|\bus\s|\bsection\s|(?<!')\bs\s|\bLC\s|\bCB\s|\bCW\s|\bYA\s|\bMK\s|\bcode\s|\bnumber\s|#|\bno\.?\s|"
    r"\bage[ds]?\s|\baged\s|\bi'?m\s|\bi am\s|\bturning\s|\bturned\s|\bover\s(?=\d{2}\b)|\bunder\s(?=\d{2}\b)|"
    r"\bchapter\s|\bpart\s|\bitem\s|\bbox\s|\bline\s|\bquestion\s|\bq|"
    r"\b(?:hours|hrs)(?:\s+(?:this|per|a|each)\s+(?:week|wk)|\s+worked)?\s*[:|=]?\s*|"
    r"\b(?:" + KIN + r"|i|me|myself)\s?\()$", re.I)  # "my son (19)": an age
# What a number right after it counts or measures is not money (data/amount_words.yaml).
NOT_MONEY_AFTER = re.compile(r"^[\s-]?(?:" + alternatives("not_money_after") + r")", re.I)
# A bare whole number (no separators, cents or sign) right after a name written in capitals (an index,
# a fund, a product: letters joined by "&", or an acronym) is part of the name. Not after a payslip's
# or a tax's own label, a currency or a tax code, which a figure follows.
NAME_BEFORE = re.compile(r"(?<![\w$&])(?!(?:" + alternatives("labels_before_a_figure") + "|" + _CODES
                         + r")\s$)(?:[A-Z]+&[A-Z]+|[A-Z][A-Z0-9]{1,5})\s$")
# A count of weeks, months or years is never more than this; a larger number before a period is a pay.
LONGEST_COUNT = 53
AGE = re.compile(r"1[5-9]|[2-9]\d")
MONEY_AFTER_AGE = re.compile(r"\s*(?:an?\b|per\b|/|grand|dollars|bucks|hours?\b|hrs?\b|%|percent|p/?h\b|ph\b|nzd)", re.I)
# A month's name or abbreviation as a whole word, from the month table of data/calendar_dates.yaml:
# "march" or "mar", never "market" or "decent".
MONTH_NAMES = r"(?:" + month_alternatives() + r")\b"
DATE_AROUND = re.compile(r"\b(?:" + MONTH_NAMES + r")\s+\d{0,2}\s?$|^\s?(?:" + MONTH_NAMES + r")\b", re.I)  # ("turnover" is no "nov")


@dataclass(frozen=True)
class Money:
    """One amount of money in the question."""

    value: Decimal               # as written, for its period
    period: str                  # hourly, weekly, fortnightly, four_weekly, monthly or annual
    period_stated: bool          # False: "annual" is the default, not something the text said
    role: str                    # income, main_job, second_job, total, partner (not the person asked about),
                                 # donation, contribution, pie_income, expense, other
    text: str
    start: int
    questioned: str | None = None   # why this amount cannot be used as it stands
    end: int = 0                    # where the amount and its period words end

    says_salary: bool = False       # "salary", "annual" or "a year" next to it
    one_pay: bool = False           # questioned as one pay whose period is not said

    @property
    def is_income(self) -> bool:
        return self.role in ("income", "main_job", "second_job", "total")


def money_value(num: str, suffix: str | None) -> Decimal:
    """'85,000' -> 85000, '85 000' -> 85000, '85' + 'k' -> 85000, '1.5' + 'million' -> 1500000.
    Raises InvalidOperation for text that is not a number."""
    value = _value(num, suffix, is_money=True)
    if value is None:
        raise InvalidOperation(num)
    return value


def _value(num: str, suffix: str | None, is_money: bool) -> Decimal | None:
    if re.fullmatch(r"\d{1,3}(?:\.\d{3})+", num) and not suffix:
        if not is_money:
            return None
        num = num.replace(".", "")  # "$85.000": no amount of money is written to a tenth of a cent
    if re.fullmatch(r"\d{1,3},\d{1,2}", num) and (suffix or "").lower() == "k":
        num = num.replace(",", ".")  # "1,5k": 1.5 thousand
    try:
        value = Decimal(num.replace(",", "").replace(" ", ""))
    except InvalidOperation:
        return None
    suffix = (suffix or "").lower()
    if suffix in ("k", "thousand", "grand"):
        value *= 1000
    elif suffix in ("m", "mil", "million"):
        value *= 1_000_000
    return value


# "from $1,180 to": the words between a range's two amounts.
RANGE_TO_BEFORE = re.compile(r"\bfrom\s*(?:nz\$|\$)?\s?\d[\d,.]*\s?k?\s+to\s*(?:nz\$|\$)?\s*$", re.I)


# Two figures given for one amount: a range or alternatives ("$800-$900", "$50-60k", "$800 to $900",
# "$800 or $900", "between $800 and $900"); the joining words are data (data/amount_words.yaml).
_SECOND_FIGURE = r"(?:nz)?\$?\s?(?P<num>\d[\d,.]*)(?:\s?(?P<suf>" + _SCALE + r"))?(?:\s?" + CURRENCY_AFTER + r")?"
ALTERNATIVE_JOIN = re.compile(r"\s*(?:" + alternatives("alternative_figure_joiners") + r")\s*(?:nz)?\$?\s*", re.I)
SECOND_FIGURE_AFTER = re.compile(r"\s*(?:" + alternatives("alternative_figure_joiners") + r")\s*" + _SECOND_FIGURE, re.I)
# A range opened before its first figure is closed by its own word ("between $800 and $900").
RANGE_OPENED_BEFORE = re.compile(r"\b(?:" + alternatives("figure_range_openers") + r")\s*(?:nz)?\$?\s?$", re.I)
OPENER_REACH = 16  # (how far before a figure its opener is looked for: the opener and a currency fit)
RANGE_CLOSER = r"\s*(?:" + alternatives("figure_range_closers") + r")\s*"
RANGE_CLOSED = re.compile(RANGE_CLOSER + r"(?:nz)?\$?\s*", re.I)
RANGE_CLOSED_AFTER = re.compile(RANGE_CLOSER + _SECOND_FIGURE, re.I)
# A figure right before a dash: the dash joins a range's two figures, it is no minus sign ("$800-$900").
FIGURE_BEFORE_DASH = re.compile(r"(?P<num>\d[\d,.]*)(?:\s?(?P<suf>" + _SCALE + r"))?(?:\s?" + CURRENCY_AFTER + r")?\s?$", re.I)
# Two figures for one amount are of one size: the larger at most this many times the smaller.
ALTERNATIVES_RATIO = 2


def of_one_size(low: Decimal | None, high: Decimal | None) -> bool:
    """Whether two figures could be two guesses at one amount (neither over ALTERNATIVES_RATIO times the other)."""
    if low is None or high is None:
        return False
    low, high = sorted((low, high))
    return low > 0 and high <= low * ALTERNATIVES_RATIO


def second_figure_after(text: str, start: int, end: int) -> re.Match | None:
    """The joiner and the second of two figures given for one amount, right after the first
    (text[start:end]): "-$900", " to $900", " or 900 dollars"; " and $900" after "between"."""
    m = SECOND_FIGURE_AFTER.match(text, end)
    if m is None and (closed := RANGE_CLOSED_AFTER.match(text, end)) and RANGE_OPENED_BEFORE.search(
            text, max(0, start - OPENER_REACH), start):
        m = closed  # (the closer first: it is rarely there, so the opener is rarely looked for)
    return m


def given_for_one_amount(text: str, a: "Money", b: "Money") -> bool:
    """Whether amount b follows amount a as the second of two figures for one amount (joined by nothing
    else than a joiner), of one size."""
    joined = (ALTERNATIVE_JOIN.fullmatch(text, a.end, b.start) is not None
              or RANGE_CLOSED.fullmatch(text, a.end, b.start) is not None
              and RANGE_OPENED_BEFORE.search(text, max(0, a.start - OPENER_REACH), a.start) is not None)
    return joined and of_one_size(a.value, b.value)


def _period_named(m: re.Match) -> str:
    """The pay period a FREQ_BEFORE match names."""
    return next(n for n in ("weekly", "fortnightly", "four_weekly", "monthly", "annual", "hourly") if m.group(n))


def _period_and_end(text: str, start: int, end: int) -> tuple[str, bool, int]:
    """(period, whether the text states it, where the amount's period words end)."""
    after = text[end:]
    m = FREQ_AFTER.match(after)
    if m:
        return next(n for n, _ in _FREQ_AFTER if m.group(n)), True, end + m.end()
    before = text[max(0, start - 60):start]
    m = FREQ_BEFORE.search(before)
    if m:
        if m.group("weekly_opening"):  # a question that opens with the week its pay is for
            if start <= len(before):
                return "weekly", True, end
        else:
            return _period_named(m), True, end
    # The first of two figures for one amount has the second one's period ("$800-$900 a month").
    second = second_figure_after(text, start, end)
    if second is not None:
        m = FREQ_AFTER.match(text[second.end():])
        first = re.search(r"\d[\d,.]*", text[start:end])
        if m and first and of_one_size(_value(first.group(0), None, True), _value(second.group("num"), None, True)):
            return next(n for n, _ in _FREQ_AFTER if m.group(n)), True, end
    # A range's second amount has its first one's period.
    m = RANGE_TO_BEFORE.search(before)
    if m:
        first = FREQ_BEFORE.search(before[:m.start()] + "from ")
        if first and not first.group("weekly_opening"):
            return _period_named(first), True, end
    # The period after a word about the pay (gross, take home).
    m = re.match(r"^\s*(?:(?:take[- ]home|net|after tax|before tax|gross|pay|salary|wages?|income)\s+){1,2}"
                 r"(?P<w>weekly|fortnightly|monthly|a week|a fortnight|a month|per week|per month|per fortnight|"
                 r"a year|per year|per annum|each week|each fortnight|each month)\b", after, re.I)
    if m:
        word = m.group("w").lower()
        name = ("weekly" if "week" in word else "fortnightly" if "fortnight" in word else "monthly" if "month" in word
                else "annual")
        return name, True, end + m.end()
    # A tax figure's period after the words that say it came off ("$420 PAYE a fortnight", "$185 of tax
    # is taken off every week"): the period the tax was taken in.
    m = TAKEN_THEN_PERIOD.match(after)
    taken_end = m.end() if m else tax_taken_after(after)
    if taken_end is not None:
        period = FREQ_AFTER.match(after[taken_end:])
        if period and not period.group("hourly"):
            return next(n for n, _ in _FREQ_AFTER if period.group(n)), True, end + taken_end + period.end()
    return "annual", False, end


def period_opening_its_sentence(text: str, start: int) -> str | None:
    """The period a sentence opens with when no other figure comes before the amount at `start` ("Over
    the year my employer deducted $17,000", "Each week $185 comes off"): the period it was taken in."""
    head = text[max(text.rfind(c, 0, start) for c in ".?!") + 1:start]
    m = FREQ_AFTER.match(head)
    if m is None or m.group("hourly") or re.search(r"[$\d]", head):
        return None
    return next(n for n, _ in _FREQ_AFTER if m.group(n))


# A tax named right after a figure, alone or after "in"/"of" ("$534 tax", "$190 of tax", "$420 PAYE").
TAX_NOUN_AFTER = re.compile(r"^\s*(?P<link>(?:" + alternatives("tax_taken_links") + r")\s+)?(?:" + alternatives("tax_taken_nouns")
                            + r")\b", re.I)
# The words for being taken, and the helper verbs that may come before them.
_TAKEN_WORDS = alternatives("tax_taken_followers") + "|" + alternatives("deduction_words")
_AUXILIARIES = alternatives("passive_auxiliaries")
# What may follow it for the figure to be tax taken: a pay period, the words for being taken, or a stop
# after "in"/"of" tax. (A bare "80k tax?" or "$80k tax for a single person" asks the tax on it: no tax taken.)
TAKEN_AFTER_TAX = re.compile(r"\s*(?:" + _TAKEN_WORDS + "|" + _AUXILIARIES + r")\b", re.I)
STOP_AFTER = re.compile(r"\s*(?:[.,;:?!)]|$)")


# The tax named right after a figure, then a helper verb and the words for being taken ("$3,000 of tax was
# taken off", "$900 tax is deducted"): tax taken, though a bare helper verb may start a tax figure ("was due").
TAX_SAID_TAKEN = re.compile(TAX_NOUN_AFTER.pattern + r"(?:\s+(?:" + _AUXILIARIES + r")\b)+\s*(?:" + _TAKEN_WORDS + r")\b", re.I)


def tax_taken_after(after: str) -> int | None:
    """Where the tax named right after a figure ends when it says the figure is tax taken ("$534 tax for
    the fortnight", "$190 of tax comes off", "$534 in tax."), else None."""
    m = TAX_NOUN_AFTER.match(after)
    if m is None:
        return None
    rest = after[m.end():]
    period = FREQ_AFTER.match(rest)
    # (A pay period, not a year: "$80k tax a year" may ask the year's tax on $80k.)
    taken = (period and not period.group("hourly") and not period.group("annual") or TAKEN_AFTER_TAX.match(rest)
             or m.group("link") and STOP_AFTER.match(rest))
    return m.end() if taken else None


# The words after a figure that say it was taken off a pay, with any auxiliary between them.
TAKEN_THEN_PERIOD = re.compile(r"^(?:\s*(?:" + alternatives("tax_named") + r")\b)?(?:\s*(?:" + alternatives("deduction_words") + r")(?:\s+(?:" + _AUXILIARIES + r")\b)?){1,2}", re.I)


# "$60k salary", "$20k profit", "$5,000 of interest": the noun right after an amount says what it is.
LABELS_NEXT_AMOUNT = re.compile(r"\s*(?:of|is|was|:|=|-)?\s*\$?\d")  # words right before the next amount label it
# A rate, written with its sign or in words ("30%", "30 percent").
PERCENT = re.compile(r"(?P<p>\d+(?:\.\d+)?)\s?(?:%|percent\b|per cent\b)", re.I)
# Another figure among the words around an amount, whose role words are its own.
MONEY_FIGURE = re.compile(r"\$\s?\d|\d\s?k\b", re.I)
FIGURE_JUST_BEFORE = re.compile(r"(?:\$\s?\d[\d,.]*|\d[\d,.]*\s?k)\s+(?:[a-z']+\s+){0,1}$", re.I)
# (A joining "and" closes the words before it: what follows describes the next amount.)
LEADS_ANOTHER_AMOUNT = re.compile(r"(?:(?!\band\b|&|\bplus\b)[^\d$.?!,;]){0,20}\$?\d", re.I)
NOUN_AFTER = re.compile(r"^\s*(?:(?:of|in|worth of|a year|per year|annual|gross)\s+)?")


BRACKETED = re.compile(r"\([^()]*\)")
CLAUSE_SEPARATORS = (".", "?", "!", ";", ",", " and ", " but ")


def _clause_start(text: str, start: int) -> tuple[str, int]:
    """(the text before `start` with bracketed asides blanked, where the clause holding `start`
    begins). A list in brackets, "costs (gear, travel, software) were $27,400", stays in its clause."""
    unbracketed = BRACKETED.sub(lambda m: " " * len(m.group(0)), text[:start])
    return unbracketed, max(unbracketed.rfind(sep) for sep in CLAUSE_SEPARATORS) + 1


def _clause_around(text: str, start: int, end: int) -> str:
    """The clause an amount stands in: from the last stop, comma or cell edge before it to the next."""
    left = max(text.rfind(stop, 0, start) for stop in ".?!,;|")
    right = min([i for i in (text.find(stop, end) for stop in ".?!,;|") if i >= 0] or [len(text)])
    return text[left + 1:right + 1]


def _questioned_for_period(amount: Money) -> Money:
    """A "$70,000 fortnightly pay" is a year's pay written against a pay period: ask, don't compute."""
    if amount.questioned:
        return amount
    if amount.period == "annual":
        floor = get_settings().plausible_pay_per_period.get("annual_minimum", 0)
        if amount.is_income and amount.value < Decimal(str(floor)) and amount.says_salary:
            return replace(amount, questioned=f"${amount.value:,.2f} is less than a year's pay usually is (did you mean ${amount.value:,.0f}k?)")
        return amount
    limits = get_settings().plausible_pay_per_period
    limit = limits.get(amount.period)
    if limit is not None and amount.value > Decimal(str(limit)):
        word = amount.period.replace("_", "-").replace("hourly", "an hour").replace("weekly", "a week")
        return replace(amount, questioned=f"${amount.value:,.0f} {word} is more than a pay for that period usually is")
    return amount


# One of the pays, whichever they are, named as such (data/cue_words.yaml). Not "pay" as a verb with
# its object after it: "the two of them each pay the rates bill" asks no pay period.
EVERY_PAY_WORDS = r"(?:" + alternatives("every_pay") + r")(?!\s+(?:" + alternatives("pay_verb_objects") + r")\b)"
EVERY_PAY = re.compile(EVERY_PAY_WORDS, re.I)
COUNT_PER_PERIOD = re.compile(r"\b\d+(?:\.\d+)?\s*(?:hours?|hrs?|h|days?|shifts?|weeks?|wks?)\s+"
                              r"(?:a|per|each|every)\s+(?:week|wk|fortnight|month|year)\b", re.I)


EVENT_THIS_PERIOD = re.compile(r"\b(?:" + alternatives("event_this_period")
                               + r")\b(?:\s+(?:it|them|the \w+|my \w+|our \w+|here|in|up))?\s+(?P<when>this (?:week|month|fortnight))\b", re.I)


def asked_period(text: str, amounts: list[Money]) -> str | None:
    """The period the answer is wanted in: a period word not attached to an amount."""
    free = _free_periods(text, amounts)
    return free[-1][2] if free else None


def asked_and_paid(text: str, amounts: list[Money]) -> tuple[str | None, str | None]:
    """The period the answer is wanted in, and how often the poster is paid when a sentence that does
    not ask says so. When a sentence asks with "?", the asked period is read from the asking
    sentences: "I'm paid fortnightly" in the story says how the pays fall, not that the answer is
    wanted per fortnight."""
    free = _free_periods(text, amounts)
    asking = question_spans(text)
    if not asking or len(asking) == len(sentence_spans(text)):
        return (free[-1][2] if free else None), None
    def asks(x):
        return any(s <= x[0] < e for s, e in asking)
    asked = [x for x in free if asks(x)]
    paid = [x for x in free if not asks(x) and x[2] in PAY_FREQUENCIES]
    paid_every = paid[-1][2] if paid else None
    if not asked and paid_every and any(EVERY_PAY.search(text, s, e) for s, e in asking):
        return paid_every, paid_every  # a pay frequency said, and each payday asked: one of those pays
    return (asked[-1][2] if asked else None), paid_every


def _free_periods(text: str, amounts: list[Money]) -> list[tuple[int, int, str]]:
    """Period words not attached to an amount nor counting work, in order."""
    spans = [(a.start, a.end) for a in amounts if a.period_stated]
    matches = [(m.start(), m.end(), name) for name, pattern in ASKED_PERIOD_PATTERNS.items() for m in pattern.finditer(text)]
    # "four weekly" also holds "weekly": a match inside a longer one does not count. (Only a match starting
    # no earlier than the longest match's length before x's end can hold x: linear in a long question.)
    matches.sort()
    starts, longest = [o[0] for o in matches], max((o[1] - o[0] for o in matches), default=0)
    matches = [x for x in matches if not any(o != x and o[0] <= x[0] and x[1] <= o[1] for o in
                                             matches[bisect_left(starts, x[1] - longest):bisect_right(starts, x[0])])]
    # A count per period (hours a week, weeks a year) says how much work, not which period the answer is wanted in.
    counted = [(m.start(), m.end()) for m in COUNT_PER_PERIOD.finditer(text)]
    # This week or month after an event word: when something happened.
    counted += [(m.start("when"), m.end("when")) for m in EVENT_THIS_PERIOD.finditer(text)]
    # In order: the last one wins (the asking sentence comes last).
    return sorted(x for x in matches if not any(s <= x[0] < e for s, e in spans + counted))


screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
