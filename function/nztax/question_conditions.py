"""Years and conditions: what a question says beyond its amounts.

In: the text (and the rule book for tax years). Out: the patterns and readers for hours and weeks,
tax codes (`find_tax_code`, `find_tax_codes`), KiwiSaver, a student loan, Working for Families, a
benefit or NZ Super, no IRD number, income earned overseas or on the side, a part year, GST, and
what the text denies (`without_denied`, `_stated`); and the tax year a text names
(`resolve_tax_year`).
"""

from __future__ import annotations

import re

from nztax.contract import tax_year_starting
from nztax.cue_words import alternatives
from nztax import rules as nztax_rules
from nztax.calendar_dates import (full_month_names, month_alternatives, place_in_tax_year, read_dates, relative,
                                  tax_year_of)
from nztax.rules import RuleBook
from nztax.settings import get_settings
from nztax.years import read_year
from nztax.amount_grammar import MONTH_NAMES, PERCENT, _CODES
from nztax.amount_roles import SECOND_JOB_WORDS
from nztax.amount_owners import BUSINESS_PLACES
from nztax.literal_screen import screen_patterns

# A KiwiSaver year runs 1 July to 30 June and is named here by the June it ends in.
# ("Before 1 July 2025" names the KiwiSaver year that ended the day before.)
KIWISAVER_YEAR_END = re.compile(r"\b(?:end(?:s|ed|ing)?|to|until)\s+(?:(?:the\s+)?30(?:th)?\s+)?june\s+(?P<y>20\d\d)\b|"
                                r"\b(?:before|prior to)\s+(?:the\s+)?1(?:st)?\s+(?:of\s+)?july,?\s+(?P<y2>20\d\d)\b", re.I)
# A tax code asked for (which or what code, for a job).
CODE_ASKED = re.compile(r"\b(?:which|what)\s+(?:secondary\s+)?(?:tax\s+)?code\b", re.I)
MONTH_YEAR = re.compile(r"\b(?:in|during|back in|from|since|of)\s+(?P<m>" + MONTH_NAMES + r")\.?\s+(?P<y>20\d\d)\b", re.I)
IT_PAYS = re.compile(r"\b(?:" + alternatives("it_pays_subjects") + r")(?: only)? (?:" + alternatives("it_pays_verbs")
                     + r")\b[^.?!]*$", re.I)
NAMES_TAKE_HOME = re.compile(alternatives("names_take_home"), re.I)
COMPARISON = re.compile(r"\b(?:" + alternatives("comparison_before") + r")\s*$", re.I)
# Two offers weighed, not two incomes.
OFFERS_WEIGHED = re.compile(alternatives("offers_weighed"), re.I)
RANGE_BEFORE = re.compile(r"\b(?:from|between)\s*$", re.I)
ADD_UP = re.compile(r"\b(?:" + alternatives("add_up_words") + r")\b", re.I)


# A clause about someone else: a rate said of them is not the asker's.
SOMEONE_ELSES = re.compile(r"\b(?:" + alternatives("someone_else_words") + r")'?s?\b|\b(?:"
                           + alternatives("someone_else_pronouns") + r")(?:'s| is| are)?\b", re.I)
# Words of a rate that is not a KiwiSaver contribution rate.
OTHER_RATE_NEAR = re.compile(r"\b(?:" + alternatives("other_rate_words") + r")\b", re.I)


# ---------------------------------------------------------------------------------------------
# Hours, weeks, codes, years and conditions

# Hours worked in the whole year.
HOURS_A_YEAR = re.compile(r"(?<![\d,.])(?P<h>\d{1,3}(?:,\d{3})+|\d+)\s?(?:(?:billable|billed|chargeable|paid|working|work)\s+)?(?:hours|hrs)\s+(?:(?:in|over|for|during)\s+)?"
                          r"(?:this|last|the|a|per|each|that)\s+(?:(?:tax|income|financial|whole|full)\s+)?(?:year|yr)\b", re.I)
WEEKS = re.compile(r"(?P<w>\d+(?:\.\d+)?)\s?(?:weeks|wks)\b(?:\s?(?:a|per|each|of the|in a|in the)\s?(?:year|yr)\b)?", re.I)
TAX_CODE = re.compile(
    r"(?P<pre>tax\s+code(?:\s+is)?|code(?:\s+is)?|paye|on|using|use|under|(?:(?<=\bi )|(?<=\bi've )|(?<=\bi have ))(?:put|ticked|chose|picked|selected|wrote))\s+(?:an?\s+|the\s+)?[\"'“]?(?P<c1>" + _CODES + r")\b(?![\w]|'\w)"
    r"|\b(?P<c2>" + _CODES + r")\s+(?:tax\s+)?code\b",
    re.I,
)
# A code after words that propose it is one they are asking about.
PROPOSED_BEFORE = re.compile(r"\b(?:" + alternatives("proposing_verbs") + r")\s+i\s+$", re.I)
# A search-box query that ends in its code after the pay's period.
CODE_ENDS_QUERY = re.compile(r"(?:\bp/?w|\bpw|\bwk|\bweek|\bweekly|\bfortnight|\bfortnightly|\bmonth|\bmonthly|\bhrs?|\bhours?|\d)\s+"
                             r"(?P<c>(?:me|m|sb|sh|st|sa)(?:\s?sl)?)(?:\s+(?:right|correct|ok|pls|please|tax|paye))?\s*\??\s*$", re.I)
BARE_SL_CODE = re.compile(r"(?<![\w'])(?P<c>(?:ME|M|SB|SH|ST|SA|S) SL)(?![\w'])")
ESCT = re.compile(alternatives("esct_words"), re.I)
# One negation before a short list joined by or negates each item. (Not a list joined by a comma or
# and: the next item there is said to hold.)
NEGATED_LIST = r"(?:(?:[\w'-]+\s+)?[\w'-]+\s*(?:/|\bor\b|\bnor\b)\s*(?:an?\s+|any\s+)?){0,2}"
NO_KIWISAVER = re.compile(r"\b(?:" + alternatives("kiwisaver_denied_by") + r")\s+(?:"
                          + alternatives("kiwisaver_denied_determiners") + r")?" + NEGATED_LIST
                          + r"(?:" + alternatives("kiwisaver_named_denied") + r")\b", re.I)
STUDENT_LOAN = re.compile(alternatives("student_loan_words"), re.I)
NO_STUDENT_LOAN = re.compile(r"\b(?:" + alternatives("student_loan_denied_by") + r")\s+(?:"
                             + alternatives("student_loan_denied_determiners") + r")?" + NEGATED_LIST
                             + r"(?:" + alternatives("student_loan_named_denied") + r")", re.I)
NO_WFF = re.compile(r"\b(?:" + alternatives("wff_denied_by") + r")\s+(?:" + alternatives("wff_denied_determiners")
                    + r")?" + NEGATED_LIST + r"(?:" + alternatives("wff_named_denied") + r")\b", re.I)
NO_OTHER_JOB = re.compile(r"\b(?:" + alternatives("other_job_denied_by") + r")\s+(?:" + alternatives("one_more_words")
                          + r")\s+(?:" + alternatives("job_or_income_words") + r")", re.I)


# Each only as a condition on its own: a negated rule of a condition is what is asked, not the condition.
DENIED_ON_ITS_OWN = [re.compile(denied.pattern + r"(?=\s*(?:[,.;:?!)]|$|and\b|or\b|nor\b|no\b|with\b|on\b|code\b))", re.I)
                     for denied in (NO_KIWISAVER, NO_STUDENT_LOAN, NO_OTHER_JOB, NO_WFF)]


def without_denied(text: str) -> str:
    """The question without the conditions it says do not apply ("M, no kiwisaver, no SL"): they say
    what is left out of the sum, not what is asked."""
    cut = text
    for denied in DENIED_ON_ITS_OWN:
        cut = denied.sub(" ", cut)
    return " ".join(cut.split()) or text


WFF = re.compile(alternatives("wff_words"), re.I)
BENEFIT_OR_SUPER = re.compile(alternatives("benefit_or_super_words"), re.I)
# NZ Super or a veteran's pension (as against an income-tested benefit): the IETC asks which.
NZ_SUPER = re.compile(alternatives("nz_super_words"), re.I)
# Work that has a flat tax code of its own (the codes and their rates are rules data).
FLAT_CODE_WORK = {
    "NSW": re.compile(alternatives("seasonal_scheme_work"), re.I),
    "CAE": re.compile(alternatives("casual_agricultural_work"), re.I),
    "EDW": re.compile(alternatives("election_day_work"), re.I),
}
NO_IRD_NUMBER = re.compile(alternatives("no_ird_number"), re.I)
NEGATION = re.compile(r"\b(?:" + alternatives("negation_words") + r")\b", re.I)

# Money earned abroad: whether New Zealand taxes it, and at what rate, turns on residency and the rest of the year's income.
FOREIGN_PLACE = "(?:" + alternatives("foreign_places") + ")"
EARNED_OVERSEAS = re.compile(r"\b(?:" + alternatives("earned_abroad_words") + r")\b[^.?!]{0,30}\b" + FOREIGN_PLACE + r"\b|"
                             r"\b(?:foreign|overseas) income\b", re.I)
# (Work abroad in the past, income earned here now: the income is this country's.)
EARNED_HERE = re.compile(r"\b(?:" + alternatives("earned_words_here") + r")\b[^.?!]{0,25}\b(?:" + alternatives("here_words")
                         + r")\b", re.I)
# Money on top of the rest of someone's income (side work, a bonus): the tax on it depends on that
# income, unless the text says there is none. (A total said to include the bonus is not extra money.)
EXTRA_INCOME = re.compile(alternatives("extra_income"), re.I)
ONLY_INCOME = re.compile(alternatives("only_income"), re.I)
# A business's profit with nothing said of how it is set up. A sole
# trader's profit is their own income; a company's is taxed in the company (and partners pay on their shares).
UNNAMED_BUSINESS_PROFIT = re.compile(r"\b(?:" + alternatives("determiners_of_a_business") + r")\s+(?:\w+\s+)?(?:"
                                     + BUSINESS_PLACES + r")\b[^.?!$\d]{0,25}\b(?:" + alternatives("made_a_profit_verbs")
                                     + r")\b[^.?!]{0,25}\bprofit\b", re.I)
BUSINESS_OWNED_AS = re.compile(alternatives("business_owned_as"), re.I)
# A salary earned for only part of the tax year (arrived or started partway).
PART_YEAR = re.compile(r"\b(?:" + alternatives("started_verbs")
                       + r")\b[^.?!]{0,40}?\b(?:(?:in|from|since|on)\s+(?:(?:the\s+)?(?P<day>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?)?|(?P<day2>\d{1,2})(?:st|nd|rd|th)?\s+)(?P<month>" + month_alternatives(leaving_out=frozenset({4})) + r")\b", re.I)  # (from April: the whole year)
# What started part-way through is a business whose own figures are stated ("started a side biz in sept.
# turnover $18,000"): its figures are the year's already.
BUSINESS_STARTED = re.compile(r"\b(?:" + alternatives("business_start_verbs") + r")\s+(?:"
                              + alternatives("business_start_determiners") + r")?(?:" + alternatives("business_start_side")
                              + r")?(?:"
                              + alternatives("business_started_words") + r")\b", re.I)
# Nothing earned in the tax year before the start, or the tax asked to 31 March: the year's pay is the
# months from the start to March.
NOTHING_BEFORE = re.compile(alternatives("nothing_before"), re.I)

# The amount said to be for the rest of the tax year.
PART_AMOUNT_STATED = re.compile(r"\b(?:" + alternatives("rest_of_year_words") + r")\b", re.I)
# When something was acquired, not the tax year asked about.
ACQUIRED_BEFORE = re.compile(r"\b(?:" + alternatives("acquired_words") + r")\b[^.?!]*$", re.I)
# Figures said to be without GST.
GST_EXCLUSIVE = re.compile(alternatives("gst_exclusive"), re.I)
GST_INCLUSIVE = re.compile(alternatives("gst_inclusive"), re.I)
CALENDAR_YEAR = re.compile(r"\bcalendar year\b|\bjan(?:uary)?\.?\s*(?:-|–|to|through|till|until|and)\s*dec(?:ember)?\b", re.I)
CLAUSE_BREAK = re.compile(r"[.,;:!?]|\bbut\b", re.I)


def _stated(condition: re.Pattern, text: str) -> bool:
    """True when `condition` is said to hold: not "no kids, not on any benefit or super", not "my
    partner doesn't get Working for Families", not "just came off Jobseeker" (a negation or an ending
    among the few words before it, in its clause)."""
    for m in condition.finditer(text):
        clause = CLAUSE_BREAK.split(text[:m.start()])[-1]
        window = " ".join(clause.split()[-get_settings().negation_window_words:])
        if not NEGATION.search(window) and not ENDED.search(window):
            return True
    return False


# A condition that has ended (came off, no longer on).
ENDED = re.compile(alternatives("ended_words"), re.I)


# A bare calendar year is the tax's year only beside a word of a tax figure, or an amount, just before it.
YEAR_OF_TAX_BEFORE = re.compile(r"\b(?:" + alternatives("year_of_tax") + r")\b|\$\d|\d[\d,.]*k\b", re.I)
BARE_YEAR = re.compile(r"\b(?:in|for|during|of)\s+(?P<y>20\d{2})\b(?!\s?[-–/])", re.I)
# A calendar year's number right after what is asked about.
YEAR_AFTER_TAX_WORD = re.compile(r"\b(?:" + alternatives("tax_words_before_a_year")
                                 + r")\s+(?P<y>20\d{2})\b(?!\s?[-–/]|\s+(?:tax\s+)?(?:year|yr)\b)", re.I)
# A year that opens its sentence and is followed by what was earned.
YEAR_OPENS_CLAUSE = re.compile(r"(?:^|[.;!?,])\s*(?:(?:and|but|so|back|well|ok|okay|also)\s+)?$", re.I)
YEAR_OF_TAX_AFTER = re.compile(r"^[^.?!;]{0,30}?\b(?:" + alternatives("earned_after_a_year") + r")\b", re.I)

MID_MONTH = 15  # the day that stands for a pay date named only by its month
# A payslip's date written day/month/year, as New Zealand writes it: "Pay date 12/07/2024", "w/e 15/11/26".
PAY_DATED = re.compile(r"\b(?:" + alternatives("pay_date_labels")
                       + r")\s*[:|]?\s*(?P<d>\d{1,2})/(?P<m>\d{1,2})/(?P<y>20\d{2}|\d{2})\b", re.I)


def _full_year(year: str) -> int:
    return int(year) if len(year) == 4 else 2000 + int(year)


FULL_DATE = re.compile(r"\b(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?P<m>" + MONTH_NAMES + r")\s+(?P<y>20\d{2})\b", re.I)


def find_tax_code(text: str) -> str | None:
    """A tax code named in the text. After "on"/"use" only upper-case counts ("on M SL", not "on me")."""
    codes = find_tax_codes(text)
    if codes:
        return codes[0][1]
    m = BARE_SL_CODE.search(text)
    return " ".join(m.group("c").split()) if m else None


def find_tax_codes(text: str) -> list[tuple[int, str]]:
    """Every tax code named in the text, with where it is ("$700 a week on M SL, the other $220 on S SL")."""
    found = []
    for m in TAX_CODE.finditer(text):
        if m.group("c2"):
            raw, named_as_code = m.group("c2"), True
        else:
            raw = m.group("c1")
            named_as_code = (" ".join(m.group("pre").lower().split()).removesuffix(" is") in ("tax code", "code", "paye")
                             or bool(re.match(r"\s+(?:tax\s+)?code\b", text[m.end():], re.I)))
        if not named_as_code and raw != raw.upper():
            continue
        if m.group("pre") and PROPOSED_BEFORE.search(text[:m.start("pre")]):
            continue  # a code proposed, not the one they are on
        if raw.upper() == "S" and not named_as_code and not (raw == "S" and SECOND_JOB_WORDS.search(text)):
            continue  # "on S" is too easily a typo or a word, except said of a second job
        found.append((m.start(), " ".join(raw.upper().split())))
    if not found:
        m = CODE_ENDS_QUERY.search(text)
        if m:
            found.append((m.start("c"), " ".join(m.group("c").upper().split())))
    return found


def resolve_tax_year(text: str, rules: RuleBook | None, current: str) -> tuple[str | None, str | None]:
    """(tax year "YYYY-YY", the words it was read from) or (None, None) when the text names none.

    The forms people write a year in are the grammar in data/years.yaml (years.py); a calendar year's
    number counts only beside what was earned or taxed ("tax in 2024", not "bought it in 2019").
    A calendar date whose year is named by words ("August last year"), or a stretch of dates ("since
    May 2024", "between July and September 2025"), is a date (calendar_dates.py): the tax year
    holding it, or the current one for a stretch running to today, and the grammar's reading of
    the words inside it ("last year", "from 1 April 2025") gives way."""
    named = read_year(text, current)
    dates = [d for d in read_dates(text, nztax_rules.today()) if relative(d) or d.to_today or d.start != d.end and d.start.month != d.end.month]
    if dates and (named is None or any(named.text.lower() in d.text.lower() for d in dates)):
        return tax_year_of(dates, current)
    if named is not None:
        return named.year, named.text
    m = YEAR_AFTER_TAX_WORD.search(text)
    if m:
        return tax_year_starting(int(m.group("y"))), m.group(0)
    for m in BARE_YEAR.finditer(text):
        # A year beside tax or a rate; not one beside another event, nor one after an acquisition.
        if ACQUIRED_BEFORE.search(text[max(0, m.start() - 40):m.start()]):
            continue
        if (YEAR_OF_TAX_BEFORE.search(text[max(0, m.start() - 40):m.start()])
                or (YEAR_OPENS_CLAUSE.search(text[:m.start()]) and YEAR_OF_TAX_AFTER.search(text[m.end():]))):
            return tax_year_starting(int(m.group("y"))), m.group(0)
    return None, None


# The government's part of KiwiSaver, however it is called.
GOVERNMENT_CONTRIBUTION = re.compile(alternatives("government_contribution"), re.I)


# The IETC's whole months: how many months of the tax year an excluded payment (WFF, a benefit, NZ
# Super) covered, read only when the text says it surely. A count said of the payment ("on Jobseeker
# for two months"), or the month it began or ended ("started NZ Super in August", "came off the
# benefit in June"). IRD counts a month with any of the payment in it as a month without the credit.
EXCLUDED_PAYMENT = re.compile(WFF.pattern + "|" + BENEFIT_OR_SUPER.pattern, re.I)
PART_OF_A_YEAR = re.compile(r"\b(?:" + alternatives("part_of_a_year") + r")\b", re.I)
_COUNT = r"(?P<n>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven)"
COUNT_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven")
MONTHS_ON_IT = re.compile(r"\b(?:for|over|during)\s+(?:the\s+)?(?:first\s+|last\s+)?" + _COUNT + r"\s+months?\b|\b" + _COUNT.replace("n>", "n2>")
                          + r"\s+months?\s+(?:on|of)\b", re.I)
MONTH_BEGAN = re.compile(r"\b(?:" + alternatives("payment_began") + r")\b", re.I)
MONTH_NAMED = re.compile(r"\b(?:in|from|on|since|at the (?:start|end) of)\s+(?:(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?)?(?P<month>"
                         + month_alternatives() + r")\b|\b(?P<month2>" + full_month_names() + r")\s+\d{1,2}(?:st|nd|rd|th)?\b", re.I)
SENTENCE = re.compile(r"[^.?!;\n]+")


def _count(word: str) -> int:
    return int(word) if word.isdigit() else COUNT_WORDS.index(word.lower()) + 1


def ietc_months(text: str) -> tuple[bool, int | None]:
    """(an excluded payment is said to have covered part of the year, the whole months left for the
    IETC when that is said surely, else None)."""
    readings: set[int] = set()
    part_year = False
    for sentence in SENTENCE.finditer(text):
        s = sentence.group()
        if not EXCLUDED_PAYMENT.search(s):
            continue
        counts = [_count(m.group("n") or m.group("n2")) for m in MONTHS_ON_IT.finditer(s)]
        named = [m.group("month") or m.group("month2") for m in MONTH_NAMED.finditer(s)]
        if counts or named or ENDED.search(s) or PART_OF_A_YEAR.search(s):
            part_year = True
        if len(counts) == 1 and not named and 0 < counts[0] < 12:
            readings.add(12 - counts[0])
        elif len(named) == 1 and not counts:
            month = place_in_tax_year(named[0])
            if ENDED.search(s) and not MONTH_BEGAN.search(s):
                readings.add(11 - month)   # the month it ended had some of it: the months after it are free
            elif MONTH_BEGAN.search(s) and not ENDED.search(s):
                readings.add(month)        # the months before the one it began in
    sure = next(iter(readings)) if len(readings) == 1 else None
    return part_year, sure


screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
