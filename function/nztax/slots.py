"""Slots: what a question says beyond its intent — amounts of money with their period and role,
hours and weeks, a tax code, a tax year and the conditions that change an answer.

In: the question text (and the rule book, for tax years). Out: `Slots`.

    slots = read_slots("I earn $70,000 and put 3.5% in KS. What comes out of each fortnightly pay?", rules)
    slots.annual_income()              # Decimal('70000') — a year unless the text says otherwise
    slots.asked_period                 # 'fortnightly' — the period the answer is wanted in
    slots.kiwisaver_rate               # 3.5

A number is money only where the text makes it money: a currency sign, a k/m suffix, a money word
nearby (earn, salary, pay, wage, income, donate …) or a period ("a week"). Form and section
numbers (IR330, US 1040, LC 15), ages, years, counts of hours, weeks, days or children never are.
An amount that cannot be read for sure is kept with `questioned` set, so the engine asks instead of
computing. Nothing here knows an intent: roles ("second job", "partner", "donations") come from the
words next to each amount.
"""

from __future__ import annotations

import datetime as dt
import re
from bisect import bisect_left
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation

from nztax import budget
from nztax.contract import tax_year_starting
from nztax import rules as nztax_rules
from nztax.rules import PAY_FREQUENCIES, RuleBook, current_tax_year, tax_year_for
from nztax.sentences import question_spans, sentence_spans
from nztax.rules import PERIODS_PER_YEAR as PAY_PERIODS_PER_YEAR
from nztax.settings import get_settings
from nztax.years import read_year

# Pay periods and how many make a year (the rules' annualisation factors) plus the year itself;
# "hourly" needs hours and weeks.
PERIODS_PER_YEAR = {**PAY_PERIODS_PER_YEAR, "annual": 1}

# Characters people paste without seeing them; inside "8\u200b5,000" they would split the number.
INVISIBLE = re.compile("[\u200b-\u200d\u2060\ufeff\u00ad]")


def clean_text(text: str) -> str:
    """A question as one line: invisible characters dropped, every run of whitespace one space, and a
    line that ends without a stop (a heading, "$62,400 salary paid fortnightly⏎Salary …") given one."""
    text = INVISIBLE.sub("", str(text)).replace("\u00a0", " ").replace("\u2019", "'").replace("\u2212", "-")
    text = _table_rows_labelled(text.strip())
    text = UNSTOPPED_LINE_END.sub(". ", text)
    return " ".join(text.split())


def _table_rows_labelled(text: str) -> str:
    """A pasted table's header row put beside the row of values under it: "Emp no | Base salary⏎4471 |
    83,250" becomes "Emp no 4471 | Base salary 83,250", so each figure keeps its column's name."""
    if "\n" not in text:
        return text  # (one line: no table; clean_text runs often)
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        header = _cells(lines[i])
        values = _cells(lines[i + 1]) if i + 1 < len(lines) else []
        if (len(header) >= 2 and len(header) == len(values) and not any(c.isdigit() for c in lines[i])
                and any(c.isdigit() for c in lines[i + 1])):
            out.append(" | ".join(f"{h} {v}" for h, v in zip(header, values)))
            i += 2
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in re.split(r"\s*\|\s*|\t+", line.strip())] if ("|" in line or "\t" in line) else []


UNSTOPPED_LINE_END = re.compile(r"(?<=[\w%)$])[ \t]*\n+\s*(?=\S)")


# ---------------------------------------------------------------------------------------------
# Numbers written in words: "eighty-five thousand", "one hundred and twenty thousand dollars".

UNIT_WORDS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                                     "fourteen fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * (i + 2) for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split())}
_SCALES = {"hundred": 100, "thousand": 1000, "grand": 1000, "million": 1_000_000}
WORD_NUMBER = re.compile(
    r"\b(?:(?:" + "|".join([*UNIT_WORDS, *_TENS, *_SCALES, "a", "and"]) + r")(?:[\s-]+|\b)){2,}", re.I)


def words_to_number(text: str) -> Decimal | None:
    """'eighty-five thousand' -> 85000; None unless the words name a number with a scale word."""
    words = [w for w in re.split(r"[\s-]+", text.lower().strip()) if w and w != "and"]
    while words and words[-1] == "a":
        words.pop()  # "eighty-five thousand a year": the "a" belongs to the period
    if not any(w in _SCALES for w in words) or not any(w in UNIT_WORDS or w in _TENS or w == "a" for w in words):
        return None
    total, current = 0, 0
    for w in words:
        if w == "a":
            current = current or 1
        elif w in UNIT_WORDS:
            current += UNIT_WORDS[w]
        elif w in _TENS:
            current += _TENS[w]
        elif w == "hundred":
            current = (current or 1) * 100
        elif w in _SCALES:
            total += (current or 1) * _SCALES[w]
            current = 0
    return Decimal(total + current) if total + current else None


# ---------------------------------------------------------------------------------------------
# Amounts

_CODES = r"ME SL|M SL|SB SL|S SL|SH SL|ST SL|SA SL|ME|M|SB|SH|ST|SA|S|ND|NSW|CAE|EDW|WT|STC"

_NUMBER = (r"(?P<num>\d{1,3},\d{1,2}(?=\s?k\b)"            # 1,5k (a decimal comma before k)
           r"|\d{1,3}(?:,\d{3})+(?:\.\d+)?"       # 85,000 / 1,234,567.89
           r"|(?<![-–/])\d{1,3}(?: \d{3})+(?!\d|,\d)(?:\.\d+)?"  # 85 000 (a space groups thousands; not "2023-24 500")
           r"|\d{1,3}(?:\.\d{3})+(?![\d.])"               # 85.000 (a dot groups thousands; money only)
           r"|\d+(?:\.\d+)?)")
AMOUNT = re.compile(
    r"(?P<neg>-\s?)?(?P<cur>nz\$|\$|nzd\s?)?\s?(?P<neg2>-)?" + r"(?<![\w.,])" + _NUMBER +
    r"(?:\s?(?P<suf>k\b|m\b|mil\b|million\b|thousand\b|grand\b))?(?P<dollars>\s?(?:dollars|nzd|bucks)\b)?",
    re.I,
)
# Money in another currency: "120k AUD", "A$95,000", "£40,000", "60000 pounds".
FOREIGN_BEFORE = re.compile(r"(?:\b(?:a|au|aud|us|usd|c|cad|s|sgd|hk|hkd|t|top|ws|wst|fj|f)\$\s?|[£€₹¥₱₩฿]\s?|\b(?:aud|usd|gbp|eur|cad|inr|php|cny|rmb|sgd|zar|fjd)\s?)$", re.I)
FOREIGN_AFTER = re.compile(r"^\s?(?:aud|usd|gbp|eur|cad|inr|php|cny|rmb|sgd|zar|fjd|top|wst|pounds?|quid|euros?|rupees?|pesos?|yuan|"
                           r"pa'?anga|tala|baht|ringgit|rand|lakhs?|"
                           r"(?:australian|aussie|us|american|canadian|singapore|hong kong|fijian) dollars?)\b", re.I)
FOREIGN_QUESTIONED = "{} is in another currency; what is it in New Zealand dollars?"
# Words that make a nearby bare number money.
MONEY_WORDS = re.compile(
    r"\b(earn\w*|salary|salaries|wages?|pay|paid|payslip|income|gross|make|making|made|donat\w*|gave|give|"
    r"contribut\w*|invest\w*|dividends?|interest|rent|rental|profit|loss|revenue|turnover|earnings|"
    r"bonus|sold|sell|bought|worth|owe|refund|(?:tax|paye|levy|acc|ietc|esct|kiwisaver|ks|repayments?|deductions?) on|taxed on|take[- ]?home on|clear on|after tax on)\b", re.I)
_FREQ_AFTER = [
    ("hourly", r"an hour|per hour|a hr|an hr|/\s?hr|/\s?hour|/\s?h\b|hourly|p/?h\b|ph\b|per hr"),
    ("weekly", r"a week|per week|each week|every week|for the week|this week|weekly|/\s?wk|/\s?week|p/?w\b|pw\b|a wk|per wk|wk\b|"
               r"week\b(?!s)"),  # "on a $1,000 week"
    ("fortnightly", r"a fortnight|per fortnight|each fortnight|every fortnight|for the fortnight|fortnightly|every (?:two|2) weeks|"
                    r"/\s?fortnight|/\s?f/?n\b|p/?f\b|fortnight\b(?!s)"),
    ("four_weekly", r"every (?:four|4) weeks|(?:four|4)[- ]?weekly|per (?:four|4) weeks|a (?:four|4)[- ]week"),
    ("monthly", r"a month|per month|each month|every month|for the month|monthly|/\s?month|/\s?mth|/\s?mo\b|p/?m\b|pm\b|a mth|per mth|"
                r"month\b(?!s)"),
    ("annual", r"a year|per year|per annum|p\.?a\.?(?!\w)|annually|annual|/\s?yr|/\s?year|/\s?y\b|yearly|each year|a yr|per yr|"
               r"in the year|for the year|ytd|year to date|(?:last|this|that) (?:tax )?year|over the year"),
]
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
# "each fortnight I get $2,000" / "earn $2,000 every fortnight" are both caught by FREQ_AFTER/BEFORE;
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
# A pay period named anywhere ("paid four-weekly, $4,100 a pay"); not "for the year".
PAY_FREQUENCY_WORD = re.compile("|".join(p for name, p in ASKED_PERIOD if name in PAY_FREQUENCIES), re.I)
ANY_PERIOD_WORD = re.compile("|".join(p for _, p in ASKED_PERIOD) + r"|\bin a week\b|\b(?:one|1|a single) (?:week|fortnight|month)\b", re.I)
# People someone may ask about besides themselves (whose money an amount is, below).
KIN = (r"wife|husband|partner|spouse|fianc[ée]e?|girlfriend|boyfriend|hubby|missus|son|daughter|kid|child|teenager|"
       r"mum|mom|mother|dad|father|parents?|brother|sister|friend|mate|flatmate|nan|nana|grandma|grandmother|"
       r"grandad|grandfather|grandson|granddaughter|uncle|aunt|aunty|auntie|cousin|niece|nephew|stepson|stepdaughter")
NOT_MONEY_BEFORE = re.compile(
    r"(?:\b(?:divided|divide|multiplied|multiply) (?:it |that )?by\s|[a-z)]\s?[/÷×]\s?|\bir\s?-?|\bform\s|\bus\s|\bsection\s|(?<!')\bs\s|\bLC\s|\bCB\s|\bCW\s|\bYA\s|\bMK\s|\bcode\s|\bnumber\s|#|\bno\.?\s|"
    r"\bage[ds]?\s|\baged\s|\bi'?m\s|\bi am\s|\bturning\s|\bturned\s|\bover\s(?=\d{2}\b)|\bunder\s(?=\d{2}\b)|"
    r"\bchapter\s|\bpart\s|\bitem\s|\bbox\s|\bline\s|\bquestion\s|\bq|"
    r"\b(?:hours|hrs)(?:\s+(?:this|per|a|each)\s+(?:week|wk)|\s+worked)?\s*[:|=]?\s*|"
    r"\b(?:" + KIN + r"|i|me|myself)\s?\()$", re.I)  # "my son (19)": an age
NOT_MONEY_AFTER = re.compile(  # ("my 19-year-old": the hyphen joins a count to its unit)
    r"^[\s-]?(?:%|percent|per ?cent|(?:(?:billable|billed|chargeable|working)\s)?(?:hours?\b|hrs?\b)|h\b|weeks?\b|wks?\b|months?\b|years?\b|yrs?\b|days?\b|kids?\b|children|"
    r"child\b|jobs?\b|people|employees|staff|times|of (?:them|us)|yo\b|y/o|years? old|shares?\b|units?\b|km|kg|sqm|m2|"
    r"form|bedrooms?|rooms?|flatmates?|boarders?|properties|houses?|st\b|nd\b|rd\b|th\b|am\b|pm\b(?!\s*(?:salary|pay|income|wage))|"
    r"cents?\b|s\b)", re.I)  # ("only 72 cents goes to my loan": a deduction being asked about, not a pay)
# "6 wk", "3 yr": a count of weeks, months or years is never more than this; "1200 wk" is a pay.
LONGEST_COUNT = 53
AGE = re.compile(r"1[5-9]|[2-9]\d")
MONEY_AFTER_AGE = re.compile(r"\s*(?:an?\b|per\b|/|grand|dollars|bucks|hours?\b|hrs?\b|%|percent|p/?h\b|ph\b|nzd)", re.I)
MONTH_NAMES = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*"
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
    one_pay: bool = False           # questioned as one pay whose period is not said ("comes out of my $620 pay")

    @property
    def is_income(self) -> bool:
        return self.role in ("income", "main_job", "second_job", "total")


ROLE_WORDS = [
    # (role, pattern near the amount). The nearest match wins, before the amount first.
    ("income", r"earn\w*|salary|wages?|paid|pay of|pay is|income of|i make|making|on a|gross|job paying|pays? me|"
               r"redundancy(?: pay(?:ment|out)?)?|severance(?: pay(?:ment)?)?|"
               r"(?:with|including|incl\.?|inc\.?) (?:my |the |a )?bonus(?:es)?|"
               r"from (?:[\w-]+ ){0,3}?(?:work|job|teaching|shifts|nursing|labouring)|"
               r"taxable income|income(?: (?:was|is|around|about|roughly))?"),
    ("donation", r"donat\w*|(?:gave|give|given)(?!\s+(?:me|us|him|her|them|my|our)\b)|payroll giving|charit\w*|church|tithe|koha|"
                 # a gift to a charity named after it ("$500 to the hospice")
                 r"to (?:the )?(?:red cross|hospice|salvation army|sally army|spca|unicef|world vision|starship|cancer society|"
                 r"heart foundation|plunket|oxfam|st john|city mission|women'?s refuge|foodbank|food bank|mosque|temple|gurdwara|marae)"),
    ("contribution", r"put in|putting in|paid in|chuck(?:ed)? in|(?:i|we|i've) put(?: in)?|contribut\w*|into (?:my |the )?kiwisaver|into ks"),
    ("pie_income", r"\bpie\b|pie income|kiwisaver (?:fund )?(?:earned|returns?|income)|fund (?:earned|income|returns?)"),
    ("partner", r"partner|wife|husband|spouse|girlfriend|boyfriend|hubby|missus|other half|my mum|my dad|flatmate'?s"),
    ("second_job", r"second(?:ary)? job|2nd job|other job|another job|second employer|side job|part[- ]time job|the second(?: one)?|"
                   r"the 2nd(?: one)?|the other one|"
                   r"weekend job|night job|evening job|secondary|extra job|second income"),
    ("total", r"total (?:income|earnings|pay)|in total|total(?=\s*\$?$)|total for the (?:tax )?year|total (?:this|a|per) year|altogether|all up|all together|together(?: (?:it'?s|it is|that'?s|thats|they'?re|they are|they make|they pay))?|across (?:both|all) (?:jobs|my jobs)"),
    ("main_job", r"main|main job|main employer|primary job|first job|day job|full[- ]time job|main salary|main income"),
    ("deduction", r"came off|taken off|taken out|comes off|deducted(?!\s+(?:from|on|off))|got taxed|paid in tax|tax of|"
                  r"paye\b|in tax\b|of tax\b|withheld"),
    # A payslip's or statement's label right before its figure ("RWT 70.12", "SL 28.80", "Rates | 3,100").
    ("deduction_label", r"(?:rwt|esct|sl|ks|kiwisaver employee|student loan)(?=\s*[:|=]?\s*\$?$)"),
    ("expense_label", r"(?<![a-z] )rates(?=\s?[:|=]?\s?\$?$)"),
    # An employer's own KiwiSaver contribution on a payslip ("Employer KS 3.5% 84.13").
    ("other_label", r"employer (?:ks|kiwisaver|contribution|contrib)\s+\d+(?:\.\d+)?%(?=\s*[:|=]?\s*\$?$)"),
    ("household", r"between us|together we|we earn|we make|our (?:combined |household |joint )?income|household income|our combined|"
                  r"combined (?:gross |taxable |total )?income|"
                  r"couple(?: [\w-]+){0,2} (?:earning|earn|earns|making|make|on|with)|(?:household|family) (?:earning|on|with an income of)|"
                  r"combined income|joint income|as a couple"),
    ("expense", r"expenses?|spent|spend|cost|costs|bought|buy|deductible|claim\w*|fees?|laptop|phone|mileage|home office|"
                r"materials|supplies|outgoings|overheads|postage|packaging|shipping|freight|ingredients|stock costs?|rent (?:is|of)|pay rent|paying rent|mortgage|"
                # what is charged for a service ("an accountant quoted me $650", "wants $900 for")
                r"quoted(?: me| us)?|quote of|charg(?:e|es|ed|ing) (?:me|us)|wants|invoiced me|"
                r"(?:invoice|bill)(?: from [\w' ]{1,25})? (?:is|was|of|for|says|came to|comes to)|"
                # a rental's costs listed by name ("rates 4,100, insurance 2,300, property manager 2,800")
                r"council rates|insurance|repairs|maintenance|property manager|"
                r"body corp\w*|letting fees|agent'?s? fees?"),
    # Income from investments and property: taxed, but not earnings the ACC levy is charged on.
    ("investment_income", r"interest|(?:term deposit|td|savings(?: account)?|bank account|on-call) interest|dividends?|rental income|rent from|rental profit|board from|crypto|trading|gain|"
                          r"(?:airbnb|bookabach|holiday home|holiday rental|bach) (?:income|profit|earnings)"),
    # What a business or a rental takes in before its costs: taxed only on what is left after them.
    ("takings", r"sales|(?:shop|store|business|stall) (?:sells|sold|makes|made|takes)|turnover|turned over|turns over|takings|bookings|invoiced(?! at)|invoicing|revenue|brought in|brings in|bring in|took in|takes in|billed|gross receipts"),
    ("rent_received", r"rent received|gross rent|rent (?:came|comes) to|in rent|"
                      r"(?:renting|rented|rent|letting|let) (?:it |them )?out(?: [\w-]+){0,6} for|(?:rent|let) it for"),
    ("other_income", r"profit|bonus|side (?:business|hustle|income|jobs?)|on the side|self[- ]employ\w*|freelanc\w*|contract(?:ing|or)|"
                     r"cash (?:jobs?|work)|odd jobs"),
    ("other", r"(?:partnership|company|trust|firm|business|estate|club|charity|society|body corp\w*)'s|owe|owed|owing|refund|tax bill|rit|residual income tax|tax to pay|terminal tax|debt|arrears|boarders?|flatmates? pay|shares|sold|sell|selling|sale|lump sum|redundancy|loss|inheritance|lotto|prize|gift|"
              r"reimburs\w*|paid (?:me )?back|voucher|"
              r"penalt\w*|student loan balance|balance|savings(?! interest)|deposit(?! interest)|house price|purchase price|sale price|"
              r"kiwisaver (?:balance |fund |account )?(?:is|was|sits at|has|of)|"
              # what an owner takes out of their business: not income (the business's profit is)
              r"drawings|drew|took out of the business|left me|inherited|estate"),
    ("value", r"worth|valued at|meant to be|supposed to be|the full"),  # "the IETC is worth $1,040": before the amount only
]
# Taxable income besides pay from work: a side business's profit, a bonus, interest, rent.
OTHER_INCOME_ROLES = ("other_income", "investment_income")
# Takings before costs, and the income that is left of them after the costs: a business's profit
# is earnings (the ACC levy is charged on it), a rental's is not.
GROSS_ROLES = {"takings": "other_income", "rent_received": "investment_income"}
# Costs that come off takings ("expenses plus materials came to $61k"), not a purchase price or the
# rent someone pays where they live.
BUSINESS_COSTS = re.compile(r"\b(?:expenses?|costs?|deductible|deductions?|materials|outgoings|overheads|rates|insurance|"
                            r"repairs|interest|postage|supplies|maintenance|property manager|body corp\w*|letting fees|agent'?s? fees?)\b", re.I)
INCOME_ROLE_HANDICAP = 20  # characters
# Earning said right before an amount ("only earned 2,700", "monthly pay 3900"), and of that, a pay
# named ("salary 60k"), which beats any other kind of income.
_PAY_NAMED = r"salary|wages?|(?:my|the|monthly|weekly|fortnightly|gross|net) pay"
_RIGHT_BEFORE = r"\s*(?:is|of|was)?\s*(?:about|around|roughly|only|just)?\s*\$?$"
EARNED_RIGHT_BEFORE = re.compile(rf"\b(?:earn\w*|made|make|makes|making|{_PAY_NAMED}){_RIGHT_BEFORE}", re.I)
SALARY_RIGHT_BEFORE = re.compile(rf"\b(?:{_PAY_NAMED}){_RIGHT_BEFORE}", re.I)
LINKING_WORD = re.compile(r"(?:and|or|plus|but|with|from|of|in|on|at|to|for|a|an|the|my|per|as|so|then|which|that)\b", re.I)
# Nouns of a kind of income that may follow the amount after one word ("bank interest", "cash bonus").
ONE_WORD_BEFORE_ROLES = frozenset({"investment_income", "other_income", "donation"})
# Roles of money that is not earned: earning said right before the amount beats them however near they are.
NOT_EARNED_ROLES = frozenset({"donation", "expense", "contribution", "deduction", "other", "value"})
# Roles that say which job or whose pay it is: nothing right before the amount overrides them.
JOB_ROLES = frozenset({"main_job", "second_job", "total", "partner", "household"})
# Roles a later amount in the same list takes on when it has no words of its own.
LISTED_ROLES = frozenset({"donation", "expense", "contribution", "investment_income"})
LIST_JOIN = re.compile(r"[^.?!\d$]{0,40}?(?:,|\band\b|&|\bplus\b)\s*", re.I)
# "1,843 came off" is a deduction; "what comes off a $1,000 wage" is asking about the wage. Before
# an amount, only a label right next to it counts ("PAYE 612.40").
AFTER_ONLY_ROLES = frozenset({"deduction"})
# What may stand between such a label and its amount: "PAYE 612.40", "PAYE: 612.40", "PAYE of $171.50".
LABEL_JOINERS = frozenset({"", ":", "-", "=", "of", "was", "is", "of about", "of around"})
# A tax code right after an amount ("$3,200 M code", "880 on ME"): the amount is the pay it applies to.
CODE_RIGHT_AFTER = re.compile(r"\s?(?:on\s+)?(?:m|me|s|sb|sh|st|sa|nd)(?:\s?sl)?\s+(?:tax\s+)?code\b|\s?(?:on\s+)?(?:m|me)\s?sl\b", re.I)
# "$312 was taken out" is a deduction; "1150 p/w on ME code, whats the paye" asks about the pay.
ASKING_WORD = re.compile(r"\b(?:what|whats|what's|how|which|when|why|is|are|does|do)\b", re.I)
# "22k in rent": rent received, unless the person pays it ("I pay $520 a week rent").
RENT_AFTER = re.compile(r"(?:(?:a|per|each|every) (?:week|fortnight|month|year)\s+|p/?w\s+|weekly\s+)?(?:in\s+)?rent(?:al)?\b(?! (?:income|profit))", re.I)
RENT_PAID = re.compile(r"\b(?:pay|pays|paying|paid|spend|spending|cost|costs)\b", re.I)
# "contributed $800" and "$800 into KiwiSaver" are contributions; "contributing 4% on $80k" is not.
ADJACENT_ONLY_ROLES = frozenset({"contribution"})
ADJACENT = 3  # characters between the words and the amount
# "worth $1,040" says what something is worth; "$100k, is it worth it?" does not.
BEFORE_ONLY_ROLES = frozenset({"value", "deduction_label", "expense_label", "other_label"})
# Labels read only before their figure, and the role each gives it.
LABEL_ROLES = {"deduction_label": "deduction", "expense_label": "expense", "other_label": "other"}
ROLE_PATTERNS = [(role, re.compile(rf"\b(?:{p})\b", re.I)) for role, p in ROLE_WORDS]
SECOND_JOB_WORDS = dict(ROLE_PATTERNS)["second_job"]
# A KiwiSaver year runs 1 July to 30 June and is named here by the June it ends in.
KIWISAVER_YEAR_END = re.compile(r"\b(?:end(?:s|ed|ing)?|to|until)\s+(?:(?:the\s+)?30(?:th)?\s+)?june\s+(?P<y>20\d\d)\b", re.I)
# A tax code asked for: "which tax code should the bar job use", "what code for the second job".
CODE_ASKED = re.compile(r"\b(?:which|what)\s+(?:secondary\s+)?(?:tax\s+)?code\b", re.I)
NEGATED_JOB = re.compile(r"\b(?:no|not a|not any|without a|without any|don'?t have a|dont have a)\s+$", re.I)
# "their only part-time job", "my only weekend job": the one job there is, not a second one
# ("the only other job" still names another).
ONLY_JOB_BEFORE = re.compile(r"\bonly\s+$", re.I)
NOT_ONE_MORE = re.compile(r"(?:other|another|second|2nd|extra|the)\b", re.I)


def names_no_second_job(text: str, match: re.Match) -> bool:
    """A second-job word that says there is none ("no other job") or that this is the only one."""
    before = text[:match.start()]
    return bool(NEGATED_JOB.search(before) or ONLY_JOB_BEFORE.search(before) and not NOT_ONE_MORE.match(match.group(0)))
MONTH_YEAR = re.compile(r"\b(?:in|during|back in|from|since|of)\s+(?P<m>" + MONTH_NAMES + r")\.?\s+(?P<y>20\d\d)\b", re.I)
IT_PAYS = re.compile(r"\b(?:it|that job|that one|the job)(?: only)? (?:pays|pays me|is|brings in)\b[^.?!]*$", re.I)
NAMES_TAKE_HOME = re.compile(r"\btake[- ]?home\b|\bafter[- ]tax\b|\bnet (?:pay|income|salary)\b|\bin my pocket\b|"
                             r"\b(?:weekly|fortnightly|monthly|yearly|annual) net\b|\bnet (?:per|a|each) (?:week|fortnight|month|year)\b|"
                             r"\blands? in my\b|\bland in (?:my|the)\b|\bget in (?:my )?hand\b|\bin hand\b|"
                             r"\bhits? my (?:account|bank)\b|\bclear (?:each|a|per|every)\b|"
                             # "how much of the bonus do I actually get to keep", "what do I end up with"
                             r"\b(?:i|we)(?: actually)?(?: get to)? keep\b|\bend up with\b|\bleft with\b", re.I)
COMPARISON = re.compile(r"\b(?:(?:vs\.?|versus|or|compared (?:to|with)|instead of)\s+(?:staying|stay|remaining|keeping|sticking)\s+(?:on|at|with)|"
                        r"vs\.?|versus|compared (?:to|with)|or|instead of|than(?:\s+(?:my|the|our))?(?:\s+(?:current|old|existing|present))?(?:\s+(?:pay|salary|job))?(?:\s+(?:on|at|with|of))?|(?:raise|rise|increase|bump|up|jump|promotion) to)\s*$", re.I)
# "Two job offers: $92,000 and $97,500 … on the higher one?": two offers weighed, not two incomes.
OFFERS_WEIGHED = re.compile(r"\b(?:two|2|both|the)\s+(?:job\s+)?offers\b|\bthe (?:higher|lower|bigger|smaller|better) (?:one|offer|salary)\b", re.I)
RANGE_BEFORE = re.compile(r"\b(?:from|between)\s*$", re.I)
ADD_UP = re.compile(r"\b(?:(?:two|2|three|3|four|4|multiple|several) (?:part[- ]time |casual )?jobs|both jobs|second job|2nd job|other job|another job|"
                    r"(?:take|taking|get|getting|pick up|picking up|add|adding) (?:a|another) (?:second|2nd) one|(?:take|taking|get|getting) another one|"
                    r"plus|on top|as well as|"
                    r"total|combined|altogether|all up|in total|together|also earn|also get|also make|and also|the lot|all of it)\b", re.I)


# A clause about someone else: "my partner's on 6%", "my mate puts in 10%".
SOMEONE_ELSES = re.compile(r"\b(?:partner|wife|husband|spouse|girlfriend|boyfriend|hubby|missus|mum|dad|mother|father|son|daughter|"
                           r"friend|mate|colleague|co-?worker|brother|sister|flatmate|boss)'?s?\b|\b(?:she|he|they)(?:'s| is| are)?\b", re.I)
# Words of a rate that is not a KiwiSaver contribution rate.
OTHER_RATE_NEAR = re.compile(r"\b(?:(?:home|car|personal|business) loan|loan (?:at|rate)|mortgage|interest|fixed|floating|pir|prescribed|tax rate|bracket|band|returns?|growth|"
                             r"inflation|gst|raise|rise|increase|pay rise|discount)\b", re.I)


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
        if m.group("weekly_opening"):  # "Week with Sunday time-and-a-half: gross $1,905.60" (the question's first word)
            if start <= len(before):
                return "weekly", True, end
        else:
            return _period_named(m), True, end
    # "takes my week from $1,180 to $1,420": the range's second amount has its first one's period.
    m = RANGE_TO_BEFORE.search(before)
    if m:
        first = FREQ_BEFORE.search(before[:m.start()] + "from ")
        if first and not first.group("weekly_opening"):
            return _period_named(first), True, end
    # "$1,750 gross a week", "$1,200 take home weekly": the period after a word about the pay.
    m = re.match(r"^\s*(?:(?:take[- ]home|net|after tax|before tax|gross|pay|salary|wages?|income)\s+){1,2}"
                 r"(?P<w>weekly|fortnightly|monthly|a week|a fortnight|a month|per week|per month|per fortnight|"
                 r"a year|per year|per annum|each week|each fortnight|each month)\b", after, re.I)
    if m:
        word = m.group("w").lower()
        name = ("weekly" if "week" in word else "fortnightly" if "fortnight" in word else "monthly" if "month" in word
                else "annual")
        return name, True, end + m.end()
    return "annual", False, end


# "$60k salary", "$20k profit", "$5,000 of interest": the noun right after an amount says what it is.
LABELS_NEXT_AMOUNT = re.compile(r"\s*(?:of|is|was|:|=|-)?\s*\$?\d")  # "income 40k kiwisaver returns 3k"
# Another figure among the words around an amount, whose role words are its own: "… on top of my $50k
# day job", "8k profit … on top of my 60k job".
MONEY_FIGURE = re.compile(r"\$\s?\d|\d\s?k\b", re.I)
FIGURE_JUST_BEFORE = re.compile(r"(?:\$\s?\d[\d,.]*|\d[\d,.]*\s?k)\s+(?:[a-z']+\s+){0,1}$", re.I)
# ("… $12,000 of term deposit interest and $9,000 from teaching": "and" closes the words before it.)
LEADS_ANOTHER_AMOUNT = re.compile(r"(?:(?!\band\b|&|\bplus\b)[^\d$.?!,;]){0,20}\$?\d", re.I)
NOUN_AFTER = re.compile(r"^\s*(?:(?:of|in|worth of|a year|per year|annual|gross)\s+)?")


BRACKETED = re.compile(r"\([^()]*\)")
CLAUSE_SEPARATORS = (".", "?", "!", ";", ",", " and ", " but ")


def _clause_start(text: str, start: int) -> tuple[str, int]:
    """(the text before `start` with bracketed asides blanked, where the clause holding `start`
    begins). A list in brackets, "costs (gear, travel, software) were $27,400", stays in its clause."""
    unbracketed = BRACKETED.sub(lambda m: " " * len(m.group(0)), text[:start])
    return unbracketed, max(unbracketed.rfind(sep) for sep in CLAUSE_SEPARATORS) + 1


RULE_FIGURE_AFTER = re.compile(r"(?:independent earner (?:tax )?credit|ietc|tax credit|credit|rebate|threshold|allowance|cap|limit|"
                               r"government contribution|max(?:imum)?)\b", re.I)
ASSET_AFTER = re.compile(r"(?:house|home|property|apartment|townhouse|unit|section|car|boat|mortgage|loan|deposit|term deposit|"
                         r"savings account|savings(?! scheme)|balance|portfolio|share portfolio|student loan|kiwisaver balance)\b"
                         r"(?!\s+(?:account\s+)?(?:interest|income|returns?|dividends?|earnings|repayments?|deductions?))", re.I)
# "$1,200 per day … 20 days this year": a day rate, and how many days it is paid for.
DAY_RATE = re.compile(r"^\s*(?:a day|per day|/\s?day|each day|daily|day rate)\b", re.I)
DAYS_WORKED = re.compile(r"\b(?P<d>\d{1,3})\s+(?:working\s+|billable\s+)?days?\b(?!\s+(?:in|out of|away|present|overseas))", re.I)


def _role_of(text: str, start: int, end: int, skip: str | None = None, default: str | None = "income") -> str | None:
    # The noun right after the amount, else the nearest money-role words, before the amount first
    # (in its clause), then just after.
    lead_in = NOUN_AFTER.match(text[end:])
    directly_after = text[end + lead_in.end(): end + lead_in.end() + 30]
    unbracketed, clause_start = _clause_start(text, start)
    before = re.sub(r"\s{2,}", " ", unbracketed[clause_start:start])[-45:]
    if ASSET_AFTER.match(directly_after) and not EARNED_RIGHT_BEFORE.search(before):
        return "other"  # "a $780k house": a price, not an income ("monthly pay 3900 student loan …" is a pay)
    if TAX_FIGURE_AFTER.match(text[end:]) and not TAX_ON_BEFORE.search(before):
        return "other"  # "ir3 showed $9,400 tax on my income": a tax figure, not the income ("tax on $9,400" is)
    if RULE_FIGURE_AFTER.match(directly_after) and re.search(r"\bthe\s*\$?$", before, re.I):
        return "value"  # "the $520 independent earner credit", "the $24,128 threshold": the rule's own figure
    if RENT_AFTER.match(directly_after) and skip != "rent_received":
        return "expense" if RENT_PAID.search(before) else "rent_received"
    # ("$1,200 of bank interest", "$500 cash bonus": one word may stand between the amount and its noun.)
    after_one_word = "" if LINKING_WORD.match(directly_after) else re.sub(r"^[\w-]+\s+", "", directly_after, count=1)
    for role, pattern in ROLE_PATTERNS:
        if role in BEFORE_ONLY_ROLES or role == skip:
            continue
        m = pattern.match(directly_after) or (role in ONE_WORD_BEFORE_ROLES and pattern.match(after_one_word))
        if m and not (role == "income" and m.group(0).lower() == "on a") \
                and not LABELS_NEXT_AMOUNT.match(directly_after, m.end()):
            # ("$2,000 on a laptop" is not a pay; in "income 40k kiwisaver returns 3k" the words lead the next amount.)
            return role
    after_clause = re.split(r"[.?!;,]| and | but ", text[end:end + 45], maxsplit=1)[0]
    # A payslip's figure has its cents or sits in a pasted row ("SL 28.80", "| SL | 103"); "sl 60k" asks about 60k.
    payslip_figure = "|" in text or bool(re.search(r"\.\d\d$", text[start:end].strip()))
    earned_right_before = bool(EARNED_RIGHT_BEFORE.search(before))
    for window in (before, after_clause):
        best: tuple[int, str] | None = None
        for role, pattern in ROLE_PATTERNS:
            if (role in BEFORE_ONLY_ROLES and window is not before) or role == skip:
                continue
            if role == "deduction_label" and not payslip_figure:
                continue
            for m in pattern.finditer(window):
                distance = (len(window) - m.end()) if window is before else m.start()
                if role in AFTER_ONLY_ROLES and window is before and (window[m.end():].strip() not in LABEL_JOINERS
                                                                      or ASKING_WORD.search(window[:m.start()])
                                                                      or CODE_RIGHT_AFTER.match(text[end:])):
                    continue  # only a label right before it: "my payslip says PAYE 612.40" ("paye $3,200 M code" asks)
                if role in ADJACENT_ONLY_ROLES and distance > ADJACENT:
                    continue
                if role in AFTER_ONLY_ROLES and window is not before and ASKING_WORD.search(window[:m.start()]):
                    continue  # the question's own words about what it asks
                if role in ("second_job", "main_job") and names_no_second_job(window, m):
                    continue  # "no other job", "my only part-time job": says there is none
                if window is not before and LEADS_ANOTHER_AMOUNT.match(text, end + m.end()):
                    continue  # "12k a year with PIE income of $500": the words are the next amount's
                if window is not before and MONEY_FIGURE.search(window[:m.start()]):
                    continue  # "$12k a year on top of my $50k day job": the words after $50k are its own
                if window is before and FIGURE_JUST_BEFORE.search(window[:m.start()]):
                    continue  # "8k profit this year on top of my 60k job": "profit" is the 8k's
                # Plain income words lose near-ties to a specific role ("main salary", "second employer pays me").
                distance += INCOME_ROLE_HANDICAP if role == "income" else 0
                if best is None or distance < best[0]:
                    best = (distance, role)
        if best:
            if earned_right_before and (best[1] in NOT_EARNED_ROLES
                                        or best[1] not in JOB_ROLES and SALARY_RIGHT_BEFORE.search(before)):
                # "gave 3,300 to charity, only earned 2,700", "5k profit, salary 60k": the word right before
                # it wins (but "my side business earned $20,000" is the business's).
                return "income"
            return LABEL_ROLES.get(best[1], best[1])
    return default


# "me and husband together make 140k", "how much tax do we pay on 160k combined", "Combined gross income
# 142,000 … are we paying": a couple's income put together.
COUPLE_TOGETHER = re.compile(r"\b(?:we|us|our|me and (?:my )?(?:husband|wife|partner|hubby|missus))\b[^.?!]{0,50}\b(?:combined|together|joint)\b|"
                             r"\bhow much (?:tax )?(?:do|will|would|should) we (?:pay|owe)\b[^.?!]{0,20}[.?!]?\s*$|"
                             r"\b(?:combined|joint)\b[^.?!]{0,50}\b(?:we|us|our)\b", re.I)


def _clause_around(text: str, start: int, end: int) -> str:
    """The clause an amount stands in: from the last stop, comma or cell edge before it to the next."""
    left = max(text.rfind(stop, 0, start) for stop in ".?!,;|")
    right = min([i for i in (text.find(stop, end) for stop in ".?!,;|") if i >= 0] or [len(text)])
    return text[left + 1:right + 1]


# Work besides a main job: "I also do weekend bar work", "evening shifts", "on the side".
ALSO_WORK = re.compile(r"\b(?:also|as well|on the side|on top|weekends?|evenings?|nights?|casual|part[- ]time|extra|picked up|"
                       r"relief|second|2nd|another|other)\b", re.I)
# One of two offers asked about by its figure: "on the $84,000 option", "for the 78k one".
ONE_OF_THEM_PICKED = re.compile(r"\b(?:on|for|with|of|take|taking|pick|choose)\s+the\s+\$?(?P<num>\d[\d,]*(?:\.\d+)?)\s?(?P<suf>k)?\s+"
                                r"(?P<noun>option|one|offer|job|salary|package)\b", re.I)
BARE_NUMBER_QUESTIONED = " on its own could be dollars a year, a week or an hour"
HOUSEHOLD_QUESTIONED = "income tax is worked out for each person on their own income, not for a couple or household together"


RESTATED_IN_BRACKETS = re.compile(r"^\s*[(\[]\s*(?:about|around|roughly|approx\w*\.?|~|so|i\.?e\.?,?|or|which is|that'?s|thats|=)?\s*\$?$", re.I)
# Words that make two equal amounts two things: "plus", "each", "also", "both", "two jobs".
# ("total" does not: a total equal to an amount said before is that amount, said again.)
TWO_OF_THEM = re.compile(r"\b(?:each|both|every one|apiece|twice|two|three|(?:2|3) (?:jobs|people|of)|plus|on top|as well as|"
                         r"also|another|other|too)\b", re.I)
# The words of a question right before an amount: "what's the tax on $184k?"
ASKED_ABOUT_AGAIN = re.compile(r"\b(?:what|what's|whats|how much|how)\b[^.?!$\d]*\b(?:on|of|for)\s*$", re.I)


# How far before an amount find_money reads its leading words (characters).
LOOKBACK = 64


def find_money(text: str) -> list[Money]:
    """Every amount of money in the text, in order, with its period and role."""
    text = clean_text(text)
    found: list[Money] = []
    said_anywhere: dict = {}

    def anywhere(pattern: re.Pattern, hours_aside: bool = False) -> bool:
        # Whole-question facts are looked up once per question, not once per amount: reading stays
        # linear in the question's length however many amounts it holds.
        key = (pattern, hours_aside)
        if key not in said_anywhere:
            said_anywhere[key] = bool(pattern.search(HOURS.sub(" ", text) if hours_aside else text))
        return said_anywhere[key]

    def asked_anywhere() -> str | None:
        if "asked" not in said_anywhere:
            said_anywhere["asked"] = asked_period(text, [])
        return said_anywhere["asked"]

    for m in AMOUNT.finditer(text):
        budget.check()
        num, cur, suf, dollars = m.group("num"), m.group("cur"), m.group("suf"), m.group("dollars")
        start, end = m.start("num") if not (m.group("neg") or cur) else m.start(), m.end()
        # The words just before an amount: every pattern tried on them is anchored at their end and far
        # shorter than LOOKBACK (whitespace is collapsed), so the window reads as the whole prefix would.
        before, after = text[max(0, m.start("num") - LOOKBACK):m.start("num")], text[end:]
        code_after = False
        spaced_m = suf == "m" and m.end("num") < m.start("suf") and "." not in num and len(num.replace(",", "")) >= 3
        if suf and suf.lower() == "m" and (not cur and (suf == "M" or spaced_m or re.match(r"\s?sl\b", after, re.I))
                                           or re.match(r"\s(?:sl\b|(?:tax\s)?code\b)", after, re.I)):
            # ("weekly 1100 m": a code typed in lower case after the pay; "1.2m" and "3 m" are millions.)
            # "3500 M SL", "880 M", "$3,200 M code": a tax code after the amount, not "million".
            suf, end, after = None, m.end("num"), text[m.end("num"):]
        cm = re.match(r"\s?(?:on\s+)?(?:" + _CODES + r")\b(?:\s?(?:tax\s)?code)?", text[end:])
        if cm and cm.group(0).strip().upper() == cm.group(0).strip() and not cur:
            code_after = True  # "3500 M SL four-weekly": the period comes after the code
            end += cm.end()
        counted = NOT_MONEY_AFTER.match(text[m.end("num"):])
        if counted and not cur and not suf and not (re.fullmatch(r"\s?(?:wk|week|yr|year|month)", counted.group(0), re.I)
                                                    and _value(num, None, is_money=False) is not None
                                                    and _value(num, None, is_money=False) > LONGEST_COUNT):
            continue  # ("6 wk" is a count of weeks; "1200 wk" is a week's pay, "41,250 yr" a year's)
        if re.match(r"\s?[-–/]\s?\d{1,2}\b", text[m.end("num"):]) or re.search(r"\d\s?[-–/]\s?$", before):
            continue  # part of a tax year "2024-25" or a date "31/3/2024"
        if NOT_MONEY_BEFORE.search(before) and not cur and not (suf and re.search(r"\bcode\s$", before, re.I)):
            continue  # ("IR 330", "section 50"; but "m vs me code 50k" is 50k after a code's name)
        if (re.search(r"\bat\s$|\b(?:widow|widower|man|woman|lady|gentleman|pensioner|retiree|person|couple|age)\s+of\s$|"
                      r"\b(?:student|worker|nurse|teacher|apprentice|retiree|pensioner|mum|dad|son|daughter|guy|girl|boy|woman|man|"
                      r"male|female|kid|teen|teenager|grad|graduate|migrant),\s$|"
                      r"\b(?:" + KIN + r"|he|she)(?:'s|\s+is|\s+was|\s+turns|\s+turned)\s$", before, re.I)
                and not (cur or suf or "." in num) and AGE.fullmatch(num) and not MONEY_AFTER_AGE.match(after)):
            continue  # "take my KiwiSaver out at 65", "Dad's 67": an age ("paid at 30 an hour" is money)
        if not (cur or suf or "." in num) and AGE.fullmatch(num) and re.search(r"[a-z],\s?$", before, re.I) and re.match(r"\s*[,;]", after):
            continue  # "a sole trader sparky in Whangārei, 42, GST registered": an age set off by commas
        if not (cur or suf) and (len(num) <= 2 and PAYSLIP_NUMBER_BEFORE.search(before) or REFERENCE_BEFORE.search(before)
                                 or re.fullmatch(r"0\d+", num)):
            continue  # "Pay period 34", "Week 31", "Employee 7781", "ref 0045-…": a payslip's or letter's numbering
        if num == "4" and not (cur or suf) and re.match(r"[- ]?weekly\b", text[m.end("num"):], re.I):
            continue  # "4 weekly pay 4,100": the period, paid every four weeks
        if not (cur or suf or "." in num) and AGE.fullmatch(num) and not before.strip() and re.match(r"\s*,", after):
            continue  # "34, salary $58,300 and …": an age opening the message
        if (DATE_AROUND.search(before) if m.start("num") <= LOOKBACK else DATE_AROUND.match(text, 0, m.start("num"))
                or DATE_AROUND.search(text, m.start("num") - LOOKBACK, m.start("num"))) or DATE_AROUND.match(text[m.end("num"):]):
            if not cur:
                continue
        near = text[max(0, m.start() - 40):m.end() + 30]
        period, period_stated, period_end = _period_and_end(text, m.start("num") - (len(cur) if cur else 0), end)
        if not period_stated and GROSS_LABEL.search(before):
            # "Week 47 | Hours 16 | Gross 320.00", "Gross 1,192.00 … what should it be for that week?": the
            # gross of the payslip's own period, or of the period the question names.
            named = next((name for name, said in PAYSLIP_PERIOD if anywhere(said)), None) or asked_anywhere()
            if named in PAY_FREQUENCIES:
                period, period_stated = named, True
        if not period_stated and (HOURS_THEN_RATE.search(before) or RATE_LABEL.search(before) and anywhere(HOURS_LABELLED)):
            # "38 hrs at $27.50", "40.00 hrs @ 29.80", "Rate 26.50 … Hours this week 32.0": a rate an hour.
            period, period_stated = "hourly", True
        # "68,500" written with a thousands separator is an amount (counts were ruled out above).
        grouped = bool(re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?: \d{3})+(?:\.\d+)?", num))
        is_money = bool(cur or suf or dollars or period_stated or grouped or MONEY_WORDS.search(near) or code_after)
        if not is_money:
            continue
        if (not (cur or suf or dollars) and re.fullmatch(r"(?:19|20)\d{2}", num)
                and (not period_stated or re.search(r"\b(?:in|since|during|from|until|by|of|year)\s*$", before, re.I))):
            continue  # a year, even next to a money word ("income in 2025"); "2000 weekly" is a pay
        if (not (cur or suf or dollars) and re.fullmatch(r"20[1-3]\d", num) and period_stated
                and not FREQ_AFTER.match(text[end:]) and not MONEY_WORDS.search(before[-25:])):
            continue  # "student loan threshold weekly 2026": a year after a period word, not a pay
        value = _value(num, suf, is_money=True)
        if value is None:
            continue
        value = value.normalize() if value == value.to_integral_value() else value
        value = value.quantize(Decimal(1)) if value == value.to_integral_value() else value
        plain = not (cur or suf or dollars or "," in num)
        if plain and value < 10 and not period_stated:
            continue  # "3 jobs", "a 2 bedroom": a small bare number is a count
        if plain and value < 100 and re.fullmatch(r"\d+\.\d", num) and not period_stated:
            continue  # "pir 10.5 or 17.5", "kiwisaver 3.5": a rate written without its % sign
        questioned, one_pay = None, False
        currency_before, currency_after = FOREIGN_BEFORE.search(before), FOREIGN_AFTER.match(text[end:])
        foreign = bool(currency_before or currency_after)
        # "-$5,000" is a loss; the dash in "20 Dec 2024 - $1000 weekly" only separates.
        separator = bool(m.group("neg")) and m.group("neg") != "-" and text[max(0, m.start() - 1):m.start()].isspace()
        negative = (bool(m.group("neg") or m.group("neg2")) and not separator
                    and bool(cur or "$" in text[max(0, m.start() - 2):m.start("num")]))
        role = _role_of(text, m.start(), end, default=None)
        if role is None:
            # "gave $1,200 to Red Cross and $300 to Starship": a list's later amounts share its role.
            listed = found[-1] if found and found[-1].role in LISTED_ROLES else None
            role = listed.role if listed and LIST_JOIN.fullmatch(text[listed.end:m.start()]) else "income"
        if negative:
            questioned = "a negative amount (a loss) is not an income to work tax out on"
            role = "other"
        elif foreign and role in ("income", "main_job", "second_job", "total", "other_income", "partner"):
            # Not New Zealand dollars: never worked out as such ("Currently on £68,000 … offer of NZ$120,000"),
            # whoever's it is ("my mum's pension is 300,000 pesos").
            said = (currency_before.group(0) if currency_before else "") + num + (suf or "") + (currency_after.group(0) if currency_after else "")
            questioned, role = FOREIGN_QUESTIONED.format(said.strip()), "foreign"
        elif role == "household" or role in ("income", "total") and COUPLE_TOGETHER.search(_clause_around(text, m.start(), end)):
            questioned = HOUSEHOLD_QUESTIONED
            role = "income"
        elif value < Decimal(str(get_settings().bare_amount_minimum)) and not period_stated and role == "income":
            # Too small for a year's pay, and no period said.
            if (not (cur or suf or dollars) and not re.search(r"\b(?:donat|gave)", near, re.I)
                    and not anywhere(ANY_PERIOD_WORD, hours_aside=True)):
                # (A pay period named elsewhere, "paid every 4 weeks, 3,900 gross", is its period; the
                # week of "40hrs a week" is the hours', not a pay's.)
                questioned = f"{num}{BARE_NUMBER_QUESTIONED}"
            elif (PAID_BEFORE.search(text[max(0, m.start() - 20):m.start()])
                  or GETS_BEFORE.search(text[max(0, m.start() - 20):m.start()]) and PAY_AFTER.match(text[m.end():])
                  or EACH_PAY_AFTER.match(text[m.end():]) and not anywhere(PAY_FREQUENCY_WORD)):
                # "I get paid 2.5k": a pay, but of which period?
                questioned = f"{m.group(0).strip()} paid could be a week's, a fortnight's or a month's pay"
                one_pay = True
            elif (EARNS_BEFORE.search(text[max(0, m.start() - 20):m.start()])
                  and not anywhere(WHOLE_YEAR_WORDS) and not anywhere(ANY_PERIOD_WORD)
                  and not ON_TOP_OF_ANOTHER.search(text[m.end():])):
                # "i make 4k", "net pay on $1,650": too small for a year's pay, said of a pay, and no
                # period anywhere in the question.
                questioned = f"{m.group(0).strip()} could be a week's, a fortnight's, a month's or a year's pay"
                one_pay = True
        says_salary = bool(re.search(r"salary|annual|a year|per year|yearly|per annum", near, re.I))
        found.append(Money(value=value, period=period, period_stated=period_stated, role=role,
                           text=m.group(0).strip(), start=m.start(), questioned=questioned, end=period_end, one_pay=one_pay,
                           says_salary=says_salary))
    for m in WORD_NUMBER.finditer(text):
        value = words_to_number(m.group(0))
        if value is None or any(abs(f.start - m.start()) < 3 for f in found):
            continue
        period, stated, period_end = _period_and_end(text, m.start(), m.end())
        found.append(Money(value=value, period=period, period_stated=stated, role=_role_of(text, m.start(), m.end()),
                           text=m.group(0).strip(), start=m.start(), end=period_end))
    found.sort(key=lambda a: a.start)
    # "… which code for the 18k one?", "out of that $250": an amount named again, not a second one.
    # ("the 92 or the 60?" after "profit 92k … 60k in drawings": the same amounts in thousands.)
    # "Just cracked $184,000 … What's the income tax on $184k?": the same amount asked about again; a
    # heading's amount said again in the text under it ("Second job at $300/wk? Starting a second job,
    # $300 a week.").
    # (The sentence ends and "two of them" words are found once, so weighing each amount against
    # the ones before it costs a lookup, not a scan of the text between them.)
    marks = [i for i, c in enumerate(text) if c in ".?!;"]
    spaced_ends = [i for i in marks if i + 1 < len(text) and text[i + 1].isspace()]
    two_of_them = bool(TWO_OF_THEM.search(text))

    def sentence_ends_between(lo: int, hi: int) -> bool:
        """SENTENCE_END.search(text, lo, hi), read off the marks found once."""
        if hi - 1 < lo:
            return False
        if text[hi - 1] in ".?!;":  # a stop at the very end of the span is followed by its end
            return True
        j = bisect_left(spaced_ends, lo)
        return j < len(spaced_ends) and spaced_ends[j] <= hi - 2

    def same_again(a: Money, b: Money, asked_again: bool) -> bool:
        return b.value == a.value and b.period == a.period and (
            asked_again or sentence_ends_between(b.end, a.start) and not two_of_them)

    kept: list[Money] = []
    for a in found:
        budget.check()
        asked_again = bool(ASKED_ABOUT_AGAIN.search(text[max(0, a.start - 40):a.start]))
        if re.search(r"\b(?:the|that|this)\s*$", text[max(0, a.start - 6):a.start], re.I) and any(
                b.value in (a.value, a.value * 1000) for b in kept):
            continue
        if kept and kept[-1].period != a.period and RESTATED_IN_BRACKETS.match(text[kept[-1].end:a.start]):
            continue  # "$250 a week (about $12,000 a year)": the same pay put another way
        twin = next((i for i, b in enumerate(kept) if same_again(a, b, asked_again)), None)
        if twin is None:
            kept.append(a)
            continue
        # One amount said twice: the later saying (the text under a heading, the sentence with its
        # people and words) stands, with what either tells about it ("$800 into KS", "my pay is $1,900").
        b = kept[twin]
        kept[twin] = replace(a, role=b.role if a.role == "income" else a.role, questioned=a.questioned or b.questioned,
                             one_pay=a.one_pay or b.one_pay, says_salary=a.says_salary or b.says_salary)
    found = kept
    if not KIWISAVER.search(text):
        # "I put $4 in a collection bucket": only KiwiSaver has contributions of the person's own here.
        found = [replace(a, role=_role_of(text, a.start, a.end, skip="contribution")) if a.role == "contribution" else a
                 for a in found]
    return [_questioned_for_period(_a_year_asked_per_pay(text, a)) for a in _of_the_person_asked_about(
        text, _claimed_figures(text, _thresholds_named(text, _balances(text, _roles_from_the_sentence(text, found)))))]


# "take home 85k fortnightly", "paye 90k monthly": a figure asked for each pay, on a year's income written
# in thousands, typed as a search. (A "$85,000 fortnightly pay" is still questioned.)
FIGURE_ASKED_BEFORE = re.compile(r"\b(?:take[- ]?home|net(?: pay)?|paye|tax|after tax|in hand|deductions?|student loan|sl|ks|"
                                 r"kiwisaver)(?:\s+(?:on|for|of))?\s*$", re.I)
PAY_NOUN_AFTER = re.compile(r"^\s*(?:pay|wages?|salary|income|earnings|gross)\b", re.I)


def _a_year_asked_per_pay(text: str, amount: Money) -> Money:
    if (amount.period in PAY_FREQUENCIES and amount.period_stated and re.match(r"\d[\d.]*\s?k\b", amount.text.lstrip("$ "), re.I)
            and FIGURE_ASKED_BEFORE.search(text[max(0, amount.start - 20):amount.start])
            and not PAY_NOUN_AFTER.match(text[amount.end:])):
        limit = get_settings().plausible_pay_per_period.get(amount.period)
        if limit is not None and amount.value > Decimal(str(limit)):
            return replace(amount, period="annual", period_stated=False)
    return amount


# Money held, not earned: "$60,000 in term deposits", "$210,000 in the fund", "KiwiSaver balance about $38,000".
BALANCE_AFTER = re.compile(r"^\s*(?:sitting |saved |invested |put away )?in (?:a |my |the |our |his |her )?(?:term deposits?|tds?\b|kiwisaver|ks\b|"
                           r"(?:[\w-]+ )?fund\b|savings|(?:savings |bank )?account|the bank)", re.I)
# "earned 11k last year plus about $600 in my kiwisaver": what the fund made, not what is in it.
EARNED_IN_CLAUSE = re.compile(r"\b(?:earn\w*|made|makes|return\w*|gain\w*|grew|growth|interest)\b", re.I)
BALANCE_BEFORE = re.compile(r"\b(?:balance|balances|saved up|savings of|nest egg)\b[^.?!$\d]{0,12}$", re.I)


def _balances(text: str, amounts: list[Money]) -> list[Money]:
    """An amount held in an account or fund is a balance: never an income (its interest may be)."""
    return [replace(a, role="balance") if a.role in ("income", "other", "total")
            and (BALANCE_AFTER.match(text[a.end:]) and not EARNED_IN_CLAUSE.search(re.split(r"[.?!;]", text[:a.start])[-1])
                 or BALANCE_BEFORE.search(text[max(0, a.start - 40):a.start])) else a
            for a in amounts]



# "… rates, insurance, repairs and the property manager came to $19,500": what a list of costs came to.
COSTS_CAME_TO = re.compile(r"\b(?:came to|come to|comes to|totall?ed|totals?|add(?:ed|s)? up to|were|cost(?: me| us)?)\s*"
                           r"(?:about|around|roughly)?\s*\$?$", re.I)


def _sentence_before(text: str, a: Money) -> str:
    """The words of an amount's sentence before it."""
    return re.split(r"[.?!;]", text[:a.start])[-1]


def _a_list_of_costs_came_to(text: str, a: Money) -> bool:
    sentence = _sentence_before(text, a)
    return bool(COSTS_CAME_TO.search(sentence) and BUSINESS_COSTS.search(sentence) and not EARNED_RIGHT_BEFORE.search(sentence))


NET_OF_COSTS_BEFORE = re.compile(r"\bafter\s+(?:\w+\s+)?(?:costs|expenses)\b[^.?!\d$]{0,40}$", re.I)  # "after costs (petrol) about 18 000"
NET_OF_COSTS_AFTER = re.compile(r"^(?:\s+(?:a|per|each)\s+(?:year|yr|week|month))?\s+after\s+(?:\w+\s+)?(?:costs|expenses)\b", re.I)


PIE_INCOME_SUBJECT = re.compile(r"\bpie income\b[^.?!$\d]{0,30}$", re.I)


def _roles_from_the_sentence(text: str, found: list[Money]) -> list[Money]:
    """Roles that words further off in an amount's sentence settle, past the commas its nearest words
    stop at: what a list of costs "came to", the PIE income a sentence is about, what is left "after
    her costs", and an employer's KiwiSaver contribution."""
    out = []
    for a in found:
        if a.role == "income" and _a_list_of_costs_came_to(text, a):
            a = replace(a, role="expense")
        elif a.role == "income" and PIE_INCOME_SUBJECT.search(_sentence_before(text, a)):
            a = replace(a, role="pie_income", questioned=None)  # "My KiwiSaver PIE income is tiny, like $150 a year"
        elif a.role in ("expense", "income") and (NET_OF_COSTS_AFTER.match(text[a.end:]) or a.role == "expense" and NET_OF_COSTS_BEFORE.search(text[:a.start])):
            a = replace(a, role="other_income")  # "about $18,000 a year after her costs": a profit
        elif a.role == "contribution" and EMPLOYER_PUTS_IN.search(text[max(0, a.start - 40):a.start]):
            a = replace(a, role="other")  # "My employer puts $3,000 into my KiwiSaver": not their own
        out.append(a)
    return out


EMPLOYER_PUTS_IN = re.compile(r"\b(?:employer|boss|work|company)\b[^.?!$\d]{0,15}\b(?:puts?|putting|pays?|paid|contributes?|contributed|"
                              r"chips? in|chipped in|adds?|added|gives?|gave|matches|matched)\b[^.?!$\d]{0,12}$", re.I)


# "Over $180k - is all my income taxed at 39%? Just cracked $184,000": a line someone's income is
# compared with, not a second income (unless it is the only one).
COMPARED_WITH = re.compile(r"\b(?:(?<!turned )(?<!turns )over|above|past|beyond|more than|under|below|less than|crosses?|cross|hit|hits)"
                           r"\s*(?:the\s+)?$", re.I)


def _thresholds_named(text: str, found: list[Money]) -> list[Money]:
    incomes = [a for a in found if a.is_income]
    if len(incomes) < 2:
        return found
    compared = [a for a in incomes if COMPARED_WITH.search(text[max(0, a.start - 15):a.start])
                and not EARNED_RIGHT_BEFORE.search(re.sub(COMPARED_WITH, "", text[max(0, a.start - 40):a.start]).rstrip())]
    if not compared or len(compared) == len(incomes):
        return found
    return [replace(a, role="other") if a in compared else a for a in found]


# A figure the person (or an app, a friend, an accountant) worked out and asks us to check: "I
# worked out my levy as $742.05. Correct?", "an app says I'll get $500 back. True?". It is the
# answer to compare with, never an income.
CLAIMED_BEFORE = re.compile(r"\b(?:worked (?:it )?out|calculated|figured|estimated|came up with)\b[^.?!]{0,80}\bas\s*$|"
                            r"\breckons?\b[^.?!]{0,80}\b(?:is|was|be|of|at|to|owe|get|pay|with)"
                            r"(?:\s+(?:about|around|roughly|approximately|approx\.?|like|only|just|nearly|close to))?\s*$|"
                            r"\b(?:i|we) reckon\b[^.?!$]{0,60}$|"
                            r"\b(?:says?|said|told (?:me|us)|claims?)\b[^.?!]{0,60}\b(?:is|was|be|of|at|get|take home|pay|owe|=)\s*$|"
                            r"\b(?:says?|said|told (?:me|us)|claims?)\b[^.?!$]{0,50}$|"
                            r"\b(?:ended up with|end up with|came to|comes to|worked out to|works out (?:to|at))\s*$|"
                            # "Is $196.07 the right PAYE on …?": the figure the question opens on
                            r"^\W*(?:is|was|would|should)\s*(?:it\s+be\s*)?$", re.I)
GUESSED_BEFORE = re.compile(r"(?:~|≈|\bapprox\.?|\bis it|\babout)\s*\$?$", re.I)
# What a payslip says is the pay and its deductions, not a figure someone worked out.
PAYSLIP_SAYS = re.compile(r"\b(?:pay ?slip|pay ?stub|statement)\b[^.?!$]{0,20}\b(?:says?|shows?|said)\b", re.I)
PAY_WORDS_AFTER = re.compile(r"\s*(?:gross|before tax|pre-tax|salary|wages?)\b", re.I)
INCOME_RIGHT_BEFORE = re.compile(r"\b(?:earn|earns|earning|make|makes|paid|salary|wages?|income|gross|on)\b\s*(?:(?:of|is|was)\s+)?"
                                 r"(?:(?:about|around|roughly|like|only|just)\s*)?$", re.I)
# Asking whether a figure is right ("look right", "sound right" included).
ASKS_IF_RIGHT = re.compile(r"\b(?:right|correct|true|accurate|legit|add up|is that it|enough|too much|too little)\b", re.I)


def _claimed_figures(text: str, found: list[Money]) -> list[Money]:
    """In a question asking whether something is right, the figures it quotes to be checked; and a
    figure guessed at and asked ("52k take home fortnight ~1,650?")."""
    guessed = [a for a in found if a.role == "income" and GUESSED_BEFORE.search(text[:a.start]) and re.match(r"[^.!?\w]*\?", text[a.end:])]
    if guessed and any(a.is_income or a.role in OTHER_INCOME_ROLES for a in found if a not in guessed):
        # (The only income in the question, "tax on about 60k?", is the income.)
        found = [replace(a, role="claimed", questioned=None) if a in guessed else a for a in found]
    if not ASKS_IF_RIGHT.search(text):
        return found
    out = []
    for a in found:
        sentence = re.split(r"[.?!]\s", text[:a.start])[-1]
        if (CLAIMED_BEFORE.search(sentence) and a.role not in ("donation", "contribution", "deduction")
                and not INCOME_RIGHT_BEFORE.search(sentence) and not PAYSLIP_SAYS.search(sentence)
                and not PAY_WORDS_AFTER.match(text[a.end:])):
            a = replace(a, role="claimed", questioned=None)
        out.append(a)
    return out


# Whose money an amount is. A question may tell of someone else's income ("My wife made $25k profit
# from hairdressing. I'm on $90k.") and ask about either person ("How much does she owe?"): the
# amounts of the person asked about are the incomes, the other person's are not added.
# (Typed on a phone, "my" is dropped at the start: "husband gets $1,850 a fortnight", "Wife's on $1,100".)
KIN_NOUN = re.compile(rf"\b(?:my|our)\s+(?:\w+\s+)?(?:{KIN})s?\b(?:'s)?|\bother half\b|(?:^|(?<=[.?!])\s+)(?:{KIN})\b(?:'s)?", re.I)
# "she", "he", "her job": only where the text names someone it can be (else it is the boss or the accountant).
OTHER_PRONOUN = re.compile(r"\b(?:she|he|she's|he's|she'll|he'll|shes)\b|\b(?:her|his)\s+(?=[a-z])", re.I)
# "me and my partner earn 140k", "my wife and I make": one amount of two people.
# ("my son and daughter … together they earn $70k", "my two daughters between them make $55k": two others' pay as one amount.)
JOINT = re.compile(rf"\b(?:me|i|myself)\s+(?:and|&)\s+(?:my|our)\s+(?:\w+\s+)?(?:{KIN})\b|"
                   rf"\b(?:my|our)\s+(?:\w+\s+)?(?:{KIN})\s+(?:and|&)\s+(?:me|i|myself)\b|"
                   rf"\b(?:my|our)\s+(?:\w+\s+)?(?:(?:{KIN})s?\s+(?:and|&)\s+(?:my\s+|our\s+|his\s+|her\s+)?(?:\w+\s+)?(?:{KIN})s?|(?:{KIN})s)\b"
                   r"(?=[^.?!]{0,40}\b(?:together|combined|between them|between the two))", re.I)
# ("in my cafe", "at my shop" name a place, not whose money a figure is.)
# A business by the kind of place it is ("the bakery", "my cafe").
BUSINESS_PLACES = (r"business|biz|shop|cafe|café|firm|practice|restaurant|store|salon|bar|farm|workshop|bakery|dairy|clinic|"
                   r"studio|agency|takeaways?|gym|pub|franchise|consultancy|garage|orchard|vineyard")
SELF_WORDS = re.compile(r"\b(?:i|i'm|im|i've|ive|i'd|i'll|me|mine|myself)\b|"
                        rf"\bmy\b(?!\s+(?:own\s+)?(?:{BUSINESS_PLACES}|company|house|home|flat|office|workplace)\b)", re.I)
# Words about the asking, not about whose sum it is: "can you tell me how much tax my son pays".
ASKING_FOR = re.compile(r"\b(?:tell|show|help|let|give|explain to|advise)\s+(?:me|us)\b|\bi\s+(?:want|need|would like|wanted|'d like)\s+to\s+know\b|"
                        r"\bi(?:'m| am)?\s+wonder(?:ing)?\b|\b(?:can|could|may)\s+i\s+(?:ask|check)\b|\bdo you know\b", re.I)
SENTENCE_END = re.compile(r"[.?!;](?=\s|$)")


def _people(text: str, names_kin: bool) -> list[tuple[int, str]]:
    """(position, "self" | "other") for every mention of a person in the text, in order; "she" and
    "he" count only when the whole question `names_kin`."""
    joint = [(m.start(), m.end()) for m in JOINT.finditer(text)]
    others = [(m.start(), m.end()) for m in KIN_NOUN.finditer(text) if not any(a <= m.start() < b for a, b in joint)]
    if names_kin:
        others += [(m.start(), m.end()) for m in OTHER_PRONOUN.finditer(text)]
    found = [(a, "other") for a, _ in others] + [(a, "both") for a, _ in joint]
    found += [(m.start(), "self") for m in SELF_WORDS.finditer(text) if not any(a <= m.start() < b for a, b in others + joint)]
    return sorted(found)


def _owner(people: list[tuple[int, str]], text: str, start: int) -> str | None:
    """Whose an amount at `start` is: the last person named before it in its sentence, else the
    first after it in its sentence, else the last one named before its sentence."""
    sentence_start = max((m.end() for m in SENTENCE_END.finditer(text, 0, start)), default=0)
    ends = [m.start() for m in SENTENCE_END.finditer(text, start)]
    sentence_end = ends[0] if ends else len(text)
    # After the amount, only someone in its own clause: in "Salary $71,500, plus …, and my partner earns
    # $48,000" the partner is the later amount's.
    clause_ends = [m.start() for m in CLAUSE_END.finditer(text, start, sentence_end)]
    clause_end = clause_ends[0] if clause_ends else sentence_end
    before = [who for at, who in people if sentence_start <= at < start]
    after = [who for at, who in people if start <= at < clause_end]
    # (A young child named in an earlier sentence, "back at work after my second kid", earns nothing.)
    earlier = [who for at, who in people if at < sentence_start and not YOUNG_CHILD.match(text, at)]
    return (before or after[:1] or earlier or [None])[-1]


YOUNG_CHILD = re.compile(r"(?:my |our |the |a |second |first |third |new )*(?:kid|kids|child|children|baby|babies|toddler|bub)\b", re.I)
CLAUSE_END = re.compile(r"[.?!;,](?=\s|$)|\s(?:and|but|so|[-–—])\s", re.I)
ASKS_SOMETHING = re.compile(r"\b(?:how|what|whats|what's|which|does|do|did|will|would|should|can|is|are|owe)\b", re.I)
INCOME_LIKE_ROLES = ("income", "main_job", "second_job", "total", "partner", "other_income", "investment_income", *GROSS_ROLES)


# Whether the one who quoted a figure is right ("my mate reckons it's $9,400 - is he right?"): the
# claim is checked, and the sum is still the asker's.
CLAIMANT_CHECKED = re.compile(r"\b(?:is|was|are|were) (?:he|she|they) (?:right|correct|wrong|spot on|on the money)\b", re.I)


def _asked_about(text: str) -> str | None:
    """Whose sum the (cleaned) question asks for: "other" ("how much does she owe?"), "self" ("what's
    my take-home?") or None when its asking clause names nobody."""
    text = CLAIMANT_CHECKED.sub("is that right", ASKING_FOR.sub(" ", text))
    # The sentences that end in a question mark are the asking ones, when there are any ("how much
    # tax is that?? my mate says anything under 10k is tax free").
    questions = re.findall(r"[^.?!]*\?", text)
    clauses = [p for p in CLAUSE_END.split(" ".join(questions) if questions else text) if p.strip()]
    asking = next((p for p in reversed(clauses) if ASKS_SOMETHING.search(p)), clauses[-1] if clauses else "")
    people = _people(asking, names_kin=bool(KIN_NOUN.search(text)))
    return people[0][1] if people else None


def _of_the_person_asked_about(text: str, amounts: list[Money]) -> list[Money]:
    """Amounts of someone other than the person asked about become "partner" (never added); the
    asked-about person's own income, named next to their relation ("my wife earns $50k"), is an income."""
    if not KIN_NOUN.search(text):
        return amounts
    people = _people(text, names_kin=True)
    owners = [_owner(people, text, a.start) for a in amounts]
    subject = _asked_about(text)
    incomes = [o for a, o in zip(amounts, owners) if a.role in INCOME_LIKE_ROLES]
    if subject is None:
        subject = "other" if incomes and all(o == "other" for o in incomes) else "self"
    result = []
    for amount, owner in zip(amounts, owners):
        if amount.role in INCOME_LIKE_ROLES and owner == "both":
            amount = replace(amount, role="income", questioned=HOUSEHOLD_QUESTIONED)
        elif amount.role in INCOME_LIKE_ROLES:
            if (owner or "self") != subject:
                amount = replace(amount, role="partner")
            elif amount.role == "partner":
                amount = replace(amount, role="income")
        result.append(amount)
    return result


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
                and not BUSINESS_COSTS.search(own))  # ("… $31,200 of rent a year, with $24,000 of deductible expenses")

    return [replace(a, role="rent_received") if a.role in ("expense", "income") and told_as_rent(a) else a for a in amounts]


OWNS_RENTAL = re.compile(r"\b(?:my|our|a|the|one)\s+(?:\w+\s+)?rental\b(?!\s+(?:application|agreement))|\brented out\b|"
                         r"\b(?:let|rent|renting) (?:it|(?:my|our|the) \w+) out\b|\bmy tenants?\b|\btenants? pays?\b", re.I)
PAYS_THEM = re.compile(r"\bpays? (?:me|us)\b|\bpaid (?:me|us)\b", re.I)
RENT_WORD = re.compile(r"\brent(?:ed)?\b|\btenants?\b|\b(?:let|lets|letting) (?:at|for)\b", re.I)
# "only got 50 weeks of rent": the weeks a weekly rent was received in the year.
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
               and re.search(r"\b(?:profit|net)\b|\bafter (?:\w+ )?(?:costs|expenses)\b", _own_words(text, a), re.I)]
    if not costs and profits:
        # "turnover of $45,000 and a profit of $18,000 after expenses": the profit is stated; the
        # takings only say where it came from.
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


# Something bought and later sold ("bought 0.4 BTC for $18,000 … sold it for $26,500"): the gain is
# what is taxed, less the costs of the sale stated with it ("$3,000 of legal and agent fees").
BOUGHT = re.compile(r"\b(?:bought|buy|buying|purchased?|paid|cost me|invested|acquired|title (?:was )?transferred|title transfer)\b", re.I)
SOLD = re.compile(r"\b(?:sold|sell|selling|sale price|sells|went for|fetched)\b", re.I)
SALE_COSTS = re.compile(r"\b(?:fees?|commission|legal|lawyer'?s?|agent'?s?|conveyancing)\b", re.I)


SALE_CLAUSE_BREAK = re.compile(r"[.?!;,](?=\s)| and | but ", re.I)  # a decimal point ("0.4 BTC") does not end a clause


SALE_PRICE_ONLY = "that is what it sold for, not the gain"
PRICE_ONLY_CLAUSE = re.compile(r"\s*(?:for|at)(?:\s+(?:about|around|roughly|approx\.?|just over|just under))?\s*\$?", re.I)
# A home or rental's gain is taxed only when it is sold within the bright-line period, which needs when it was bought.
PROPERTY_HELD_UNKNOWN = "a property's gain is taxed only when it is sold within the bright-line period: when was it bought?"
PROPERTY_SOLD = re.compile(r"\b(?:house|home|rental|property|properties|townhouse|apartment|unit|flat|section|bach|land|villa)\b", re.I)
# When it was bought, or how long it was held: a year, a month, "18 months", "last year".
HOLDING_TIME = re.compile(r"\b(?:19|20)\d\d\b|\b\d+\s*(?:months?|mths?|years?|yrs?|weeks?)\b|\b(?:a|one|two|three|four|five|six|ten) "
                          r"(?:months?|years?)\b|\b(?:last|this) (?:year|month|summer|winter)\b|\bin " + MONTH_NAMES + r"\b|\bbright[- ]line (?:period )?(?:is over|has passed|ended)\b", re.I)
# A purchase after the sale that is another thing bought ("… and bought a new one for $900k").
ANOTHER_BOUGHT = re.compile(r"\b(?:new|another|next|replacement|second)\b", re.I)


# How long a property was held: "18 months after buying it", "held it for 3 years", "bought it in 2023".
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
    # (Sold "in August 2026": held to then; sold "in 2026" with no month: to as late as today.)
    sold_at = (int(sale.group("y")) * 12 + MONTHS.index(sale.group("m")[:3].lower()) + 1 if sale and sale.group("m")
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
        first, last = (1, 12) if not b.group("m") else (MONTHS.index(b.group("m")[:3].lower()) + 1,) * 2
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
            # "sold my rental 18 months after buying it, for $1.05m": the clause before says what the price is for.
            start = max([m.end() for m in SALE_CLAUSE_BREAK.finditer(text, 0, max(start - 1, 0))], default=0)
        return text[start:a.start]

    def after(a: Money) -> str:
        return re.split(r"[.?!;]", text[a.end:a.end + 45], maxsplit=1)[0]

    bought = [a for a in amounts if not a.questioned and BOUGHT.search(clause(a)) and not SOLD.search(clause(a))]
    sold = [a for a in amounts if not a.questioned and SOLD.search(clause(a))]
    if not bought and len(sold) == 1 and (sold[0].role == "other" or sold[0].role == "income" and PROPERTY_SOLD.search(clause(sold[0]))):
        # "Sold some ETH for $12,000": the price, not the gain, and nothing says what it cost.
        return [replace(a, questioned=SALE_PRICE_ONLY) if a is sold[0] else a for a in amounts]
    if len(bought) != 1 or len(sold) != 1 or bought[0].start > sold[0].start and ANOTHER_BOUGHT.search(clause(bought[0])):
        return amounts  # ("sold for $780k, we paid $690k for it" is what it cost)
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


# "$4,500 a month from September to March": a monthly pay for the months named, in the tax year
# that runs from April to March.
MONTH_RANGE = re.compile(r"^[^.?!;]{0,25}?\b(?:from\s+)?(?P<a>" + MONTH_NAMES + r")\b\.?\s*(?:-|–|to|through|till|until)\s*"
                         r"(?:the end of\s+)?(?P<b>" + MONTH_NAMES + r")\b", re.I)


# "my normal $1,150 plus $380 of overtime, so $1,530 gross this week": the total, restated.
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
            first, last = ((MONTHS.index(m.group(k)[:3].lower()) - 3) % 12 for k in ("a", "b"))  # April is 0
            if last >= first and a.period in ("monthly", "annual"):
                spans += 1
                if a.period == "monthly":
                    a = replace(a, value=a.value * (last - first + 1), period="annual", period_stated=True)
        out.append(a)
    return out, spans


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


# ---------------------------------------------------------------------------------------------
# Hours, weeks, codes, years and conditions

# "did about 1,400 hours this tax year": hours worked in the whole year.
HOURS_A_YEAR = re.compile(r"(?<![\d,.])(?P<h>\d{1,3}(?:,\d{3})+|\d+)\s?(?:(?:billable|billed|chargeable|paid|working|work)\s+)?(?:hours|hrs)\s+(?:(?:in|over|for|during)\s+)?"
                          r"(?:this|last|the|a|per|each|that)\s+(?:(?:tax|income|financial|whole|full)\s+)?(?:year|yr)\b", re.I)
HOURS = re.compile(r"(?<![\d,.])(?P<h>\d+(?:\.\d+)?)\s?(?:hours|hrs|hr|h)\b(?:\s?(?:a|per|each|/|p)\s?(?:week|wk|w)\b|\s?pw\b|/wk)?", re.I)
# A payslip's or roster's label before the hours: "Hours 37.5/wk", "Hours this week 32.0", "Ordinary 40.00 hrs".
PAYSLIP_NUMBER_BEFORE = re.compile(r"\|\s*pay\s*[:#]?\s*$|"
                                   r"(?<!per )(?<!a )(?<!each )(?<!every )\b(?:(?:pay\s+)?period|week|wk|fortnight|"
                                   r"clause|period\s+(?:no|number))\.?\s*[:#|]?\s*$", re.I)
REFERENCE_BEFORE = re.compile(r"\b(?:employee|emp(?:loyee)?\s+(?:no|id|number)|staff\s+(?:no|id)|ref(?:erence)?|customer\s+ref(?:erence)?|"
                              r"id|ird\s+(?:no|number)|account\s+(?:no|number)|invoice\s+(?:no|number)|rcpt|receipt\s+(?:no|number))\.?\s*[:#|]?\s*$", re.I)
# A payslip's own period named anywhere in it: "Week 47", "w/e 15/11/26", "Payslip fortnight 21", "Weekly payslip".
PAYSLIP_PERIOD = [("weekly", re.compile(r"\b(?:week|wk)\s*\d{1,2}\b|\bw/e\b|\bweek\s+ending\b|\bweekly\s+payslip\b|\bpayslip\s+weekly\b", re.I)),
                  ("fortnightly", re.compile(r"\bfortnight\s*\d{1,2}\b|\bfortnightly\s+payslip\b|\bpayslip\s+fortnight", re.I))]
GROSS_LABEL = re.compile(r"\bgross(?:\s+pay)?\s*[:|=]?\s*\$?$", re.I)
HOURS_THEN_RATE = re.compile(r"\b\d+(?:\.\d+)?\s?(?:hours|hrs|hr|h)(?:\s+(?:a|per|each)\s+(?:week|wk))?\s*(?:at|@|x)\s*\$?$", re.I)
RATE_LABEL = re.compile(r"\b(?:hourly\s+)?rate\s*[:|=]?\s*\$?$", re.I)
HOURS_LABELLED = re.compile(r"\b(?:hours|hrs)(?:\s+(?:this|per|a|each)\s+(?:week|wk)|\s+worked|/wk)?\s*[:|=]?\s*(?P<h>\d{1,2}(?:\.\d+)?)\b"
                            r"(?!\s?(?:%|k\b|[,.]\d{3}))", re.I)
WEEKS = re.compile(r"(?P<w>\d+(?:\.\d+)?)\s?(?:weeks|wks)\b(?:\s?(?:a|per|each|of the|in a|in the)\s?(?:year|yr)\b)?", re.I)
TAX_CODE = re.compile(
    r"(?P<pre>tax\s+code(?:\s+is)?|code(?:\s+is)?|paye|on|using|use|under|(?:(?<=\bi )|(?<=\bi've )|(?<=\bi have ))(?:put|ticked|chose|picked|selected|wrote))\s+(?:an?\s+|the\s+)?[\"'“]?(?P<c1>" + _CODES + r")\b(?![\w]|'\w)"
    r"|\b(?P<c2>" + _CODES + r")\s+(?:tax\s+)?code\b",
    re.I,
)
# "should I put", "can I tick": the code after it is one they are asking about.
PROPOSED_BEFORE = re.compile(r"\b(?:should|can|could|would|do|shall|will|may|must)\s+i\s+$", re.I)
# A search-box query that ends in its code after the pay's period: "paye 950 p/w me", "1200 fortnightly m sl".
CODE_ENDS_QUERY = re.compile(r"(?:\bp/?w|\bpw|\bwk|\bweek|\bweekly|\bfortnight|\bfortnightly|\bmonth|\bmonthly|\bhrs?|\bhours?|\d)\s+"
                             r"(?P<c>(?:me|m|sb|sh|st|sa)(?:\s?sl)?)(?:\s+(?:right|correct|ok|pls|please|tax|paye))?\s*\??\s*$", re.I)
BARE_SL_CODE = re.compile(r"(?<![\w'])(?P<c>(?:ME|M|SB|SH|ST|SA|S) SL)(?![\w'])")
PERCENT = re.compile(r"(?P<p>\d+(?:\.\d+)?)\s?(?:%|percent\b|per cent\b)", re.I)
ESCT = re.compile(r"\besct\b|employer superannuation contribution tax|employer (?:kiwi\s?saver )?contributions?", re.I)
KIWISAVER = re.compile(r"kiwi\s?saver|\bks\b|\bk/s\b|\bgov(?:ernment|t|\.)?\s+(?:contribution|top[- ]?up)|\bmember tax credit", re.I)
# One "no" for a short list joined by "or": "no KS or SL", "no student loan or KiwiSaver". (Not a comma
# or "and": "no student loan, KiwiSaver at 3.5%" has KiwiSaver.)
NEGATED_LIST = r"(?:(?:[\w'-]+\s+)?[\w'-]+\s*(?:/|\bor\b|\bnor\b)\s*(?:an?\s+|any\s+)?){0,2}"
NO_KIWISAVER = re.compile(r"\b(?:no|not in|not on|without|opted out of|don'?t have|not a member of|no longer in|"
                          r"(?:is|am|are)(?:n'?t| not) in|(?:is|am|are)(?:n'?t| not) a member of)\s+(?:a\s+)?"
                          rf"{NEGATED_LIST}(?:kiwi\s?saver|ks)\b", re.I)
STUDENT_LOAN = re.compile(r"student\s?loans?|studylink loan|\bsl\b|\bstudent debt\b", re.I)
NO_STUDENT_LOAN = re.compile(r"\b(?:no|without|don'?t have an?|paid off(?: my)?|no longer have an?)\s+(?:a\s+)?"
                             rf"{NEGATED_LIST}(?:student\s?loans?|sl\b)", re.I)
NO_WFF = re.compile(r"\b(?:no|not on|not getting|not receiving|don'?t get|doesn'?t get|without)\s+(?:any\s+)?"
                    rf"{NEGATED_LIST}(?:working for families|wff)\b", re.I)
NO_OTHER_JOB = re.compile(r"\b(?:no|not any|without an?|don'?t have an?)\s+(?:other|second|2nd|another)\s+(?:job|jobs|income|employer)", re.I)


# Each only as a condition on its own: "no student loan threshold on a second job" is what is asked.
DENIED_ON_ITS_OWN = [re.compile(denied.pattern + r"(?=\s*(?:[,.;:?!)]|$|and\b|or\b|nor\b|no\b|with\b|on\b|code\b))", re.I)
                     for denied in (NO_KIWISAVER, NO_STUDENT_LOAN, NO_OTHER_JOB, NO_WFF)]


def without_denied(text: str) -> str:
    """The question without the conditions it says do not apply ("M, no kiwisaver, no SL"): they say
    what is left out of the sum, not what is asked."""
    cut = text
    for denied in DENIED_ON_ITS_OWN:
        cut = denied.sub(" ", cut)
    return " ".join(cut.split()) or text


WFF = re.compile(r"working for families|\bwff\b|family tax credits?|in-?work tax credit|best start", re.I)
BENEFIT_OR_SUPER = re.compile(r"\bbenefits?\b|jobseeker|sole parent support|supported living|\bnz ?super\b|"
                              r"new zealand superannuation|\bsuper(?:annuation)? (?:payments?|pension)|on the pension|\bpension\b|veteran'?s pension", re.I)
# NZ Super or a veteran's pension (as against an income-tested benefit): the IETC asks which.
NZ_SUPER = re.compile(r"\bnz ?super|superannuation|pension", re.I)
# Work that has a flat tax code of its own (the codes and their rates are rules data).
FLAT_CODE_WORK = {
    "NSW": re.compile(r"\brse\b|recogni[sz]ed seasonal|seasonal (?:worker|employer|employment) scheme", re.I),
    "CAE": re.compile(r"casual agricultur\w*|shearing gang|shearer|shearing\b[^.?!]{0,40}\b(?:day to day|daily|by the day|casual)|"
                      r"(?:day to day|daily|by the day|casual)\b[^.?!]{0,40}\bshearing", re.I),
    "EDW": re.compile(r"election day", re.I),
}
NO_IRD_NUMBER = re.compile(r"\b(?:(?:don'?t|do not|didn'?t|never|won'?t) (?:give|provide|hand)\w*(?: in)? (?:(?:my|the|your|an?) )?(?:employer|boss) "
                           r"(?:(?:an?|my|the|your) )?ird number)|"
                           r"\b(?:no|without|don'?t have|haven'?t got|not given|never gave|didn'?t give|lost|never (?:handed|filled|gave|given|sent)(?: in| out)?) "
                           r"(?:(?:an?|my|the|your) )?(?:ird number|tax code declaration|ir330|tax code(?: form)?)|\bno declaration\b|"
                           r"\bnon[- ]declaration\b|"
                           # still waiting for it: "before my IRD number came through", "IRD number hasn't arrived"
                           r"\bbefore (?:i got |i had |getting )?(?:my|an|the) ird number\b|\b(?:waiting (?:on|for)|still waiting for) (?:my|an|the) ird number\b|"
                           r"\bird number (?:hasn'?t|has not|didn'?t|did not|still hasn'?t|isn'?t|is not)(?: yet)? (?:come|came|arrived|through|here)\b|"
                           r"\bno ird (?:number )?yet\b", re.I)
NEGATION = re.compile(r"\b(?:not|no|never|without|don'?t|doesn'?t|didn'?t|isn'?t|aren'?t|can'?t|cannot|won'?t|"
                      r"shouldn'?t|haven'?t|hasn'?t|wasn'?t|weren'?t)\b", re.I)

# Money earned abroad ("made $8,000 abroad", "did a contract in australia and earned $40k there"): whether
# New Zealand taxes it, and at what rate, turns on residency and the rest of the year's income.
FOREIGN_PLACE = (r"(?:overseas|abroad|offshore|in (?:australia|oz|the uk|the us|the usa|america|canada|england|scotland|ireland|"
                 r"london|sydney|melbourne|brisbane|perth|singapore|hong kong|dubai|japan|korea|china|india|fiji|samoa|tonga|"
                 r"the cook islands|the philippines|germany|france))")
EARNED_OVERSEAS = re.compile(rf"\b(?:earned|made|earn|make|income|contract|contracting|worked|working)\b[^.?!]{{0,30}}\b{FOREIGN_PLACE}\b|"
                             r"\b(?:foreign|overseas) income\b", re.I)
# ("used to work in Australia, now I earn $80k here": the income is this country's.)
EARNED_HERE = re.compile(r"\b(?:earn\w*|make|made|paid|salary|job)\b[^.?!]{0,25}\b(?:here|in nz|in new zealand)\b", re.I)
# Money on top of the rest of someone's income ("$3,000 for some work on the side", "a 5k bonus"): the
# tax on it depends on that income, unless the text says there is none ("no other income").
# ("$184,000 with bonus", "including my bonus": a total that has the bonus in it, not extra money.)
EXTRA_INCOME = re.compile(r"\bon the side\b|\bside (?:hustle|job|gig|income|work|business)\b|"
                          r"(?<!with )(?<!with my )(?<!with the )(?<!including )(?<!including my )(?<!including the )(?<!incl )(?<!incl\. )(?<!incl my )(?<!incl\. my )(?<!inc my )\bbonus\b|\bone[- ]off\b|"
                          r"\bextra (?:income|money|cash|work|shifts?)\b|\bsome (?:extra )?work\b|\bcash jobs?\b|\bodd jobs?\b|"
                          r"\b(?:goes|go|going|went) up by\b|\b(?:pay )?(?:rise|raise|increase) of\b|\bpay (?:rise|raise|increase)\b(?!\s+to\b)|"
                          r"\bback ?pay\b|\bredundancy\b|\blump sum\b|\bpayout\b|(?<!including )(?<!incl )(?<!with )\bholiday pay\b|\bfinal pay\b|"
                          # income from savings or a rental, taxed at the rate the rest of the year's income sets
                          r"\binterest\b|\bdividends?\b|\brental (?:profit|income)\b|\brental made\b|\bmy rental\b|"
                          # a gain on something sold: "sold some ETH for the first time, made $4,000 profit"
                          r"\b(?:sold|selling|cashed out)\b[^.?!]{0,60}\b(?:profit|gain)\b|"
                          r"\b(?:profit|gain)\b[^.?!]{0,30}\b(?:on|from)\s+(?:my\s+|the\s+|some\s+)?(?:crypto|bitcoin|btc|eth|ethereum|shares|stocks|coins?)\b", re.I)
ONLY_INCOME = re.compile(r"\b(?:no|not any|nothing|without any|don'?t have any) other (?:income|job|jobs|work|earnings)\b|"
                         r"\bonly (?:income|earnings|money)\b|\bno (?:salary|wages|job|day job|main job)\b|\bnothing else\b|"
                         r"\bthat'?s (?:all|it)\b|\ball (?:i|he|she|they) (?:earn|earned|made|make|get|got)\b|\bmy only\b|"
                         r"\bno side (?:income|job|business|hustle|work)\b|\bjust (?:my|the) (?:\S+ )?(?:job|salary|wages?|pay)\b", re.I)
# "The business made $60,000 profit": a business's profit with nothing said of how it is set up. A sole
# trader's profit is their own income; a company's is taxed in the company (and partners pay on their shares).
UNNAMED_BUSINESS_PROFIT = re.compile(rf"\b(?:the|our|this|that)\s+(?:\w+\s+)?(?:{BUSINESS_PLACES})\b[^.?!$\d]{{0,25}}"
                                     r"\b(?:made|cleared|netted|earned|turned|had|did)\b[^.?!]{0,25}\bprofit\b", re.I)
BUSINESS_OWNED_AS = re.compile(r"\bsole[- ]?trader\b|\bself[- ]employ|\bfreelanc|\bcontractor\b|\bmy (?:own )?(?:\w+ )?business\b|"
                               r"\bside (?:business|biz|hustle)\b|\b(?:my|our|his|her) shares?\b|\bpartnership\b|\bpartners?\b|"
                               r"\bcompany\b|\bltd\b|\blimited\b|\btrusts?\b|\bshareholders?\b|\bin my (?:own )?name\b", re.I)
# "moved to NZ in August and started a job on 92k": a salary earned for only part of the tax year.
PART_YEAR = re.compile(r"\b(?:start(?:ed|ing)?|mov(?:ed|ing)|arriv(?:ed|ing)|began|join(?:ed|ing)|came)\b[^.?!]{0,40}?"
                       r"\b(?:(?:in|from|since|on)\s+(?:(?:the\s+)?(?P<day>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?)?|(?P<day2>\d{1,2})(?:st|nd|rd|th)?\s+)"
                       r"(?P<month>may|june?|july?|aug(?:ust)?|sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|jan(?:uary)?|feb(?:ruary)?|march|mar)\b", re.I)
# What started part-way through is a business whose own figures are stated ("started a side biz in sept.
# turnover $18,000"): its figures are the year's already.
BUSINESS_STARTED = re.compile(r"\b(?:start(?:ed|ing)?|began)\s+(?:a\s+|my\s+|up\s+)?(?:side\s+)?(?:biz|business|company|contracting|freelanc\w*|hustle)\b", re.I)
# Nothing earned in the tax year before the start, or the tax asked to 31 March: the year's pay is the
# months from the start to March.
NOTHING_BEFORE = re.compile(r"\bno (?:other )?income before\b|\bnothing before\b|\bno income (?:before|until)\b|"
                            r"\b(?:up )?(?:to|until|till) (?:the end of |31(?:st)? )?march\b|\bfor the rest of the (?:tax )?year\b", re.I)
TAX_YEAR_MONTHS = ("apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec", "jan", "feb", "mar")


def months_to_march(month: str) -> int:
    """The months of the tax year from the start of `month` ("sept", "January") to 31 March."""
    return 12 - TAX_YEAR_MONTHS.index(month[:3].lower())


# The amount said to be for the rest of the year: "$41,000 between now and 31 March", "for the rest of the tax year".
PART_AMOUNT_STATED = re.compile(r"\b(?:between now and|from now (?:until|till|to)|(?:up )?(?:to|until|till|by) (?:the end of |31(?:st)? )?march|"
                                r"for the rest of the (?:tax )?year|rest of (?:this|the) (?:tax )?year|before 31 march|this tax year)\b", re.I)
# "bought a rental in March 2023": when something was acquired, not the tax year asked about.
ACQUIRED_BEFORE = re.compile(r"\b(?:bought|brought|buying|purchased|purchasing|acquired|acquiring|settled)\b[^.?!]*$", re.I)
# Figures said to be without GST ("profit of $87,000 (GST-exclusive)", "leaving GST aside").
GST_EXCLUSIVE = re.compile(r"\b(?:excl?\.?|excluding|exclusive of|ex|before|without|less)\s+gst\b|\bgst[- ]exclusive\b|\bgst excl\b|"
                           r"\bgst aside\b|\bleaving gst\b|\bignor(?:e|ing) gst\b", re.I)
GST_INCLUSIVE = re.compile(r"\b(?:incl?\.?|including|inclusive of|with)\s+gst\b|\bgst[- ]inclusive\b|\bgst incl\b", re.I)
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


# "just came off Jobseeker", "no longer on the benefit": a condition that has ended.
ENDED = re.compile(r"\b(?:came|come|coming|got|get|getting) off\b|\bno longer\b|\bstopped\b|\bfinished\b|\bused to\b", re.I)


YEAR_OF_TAX_BEFORE = re.compile(r"\b(?:tax\w*|income|earn\w*|paid|pay|salary|wages?|made|owe\w*|refund|levy|acc|repa\w*|"
                                r"deduct\w*|rates?|thresholds?|brackets?|bands?|ietc|credits?|kiwisaver|return|filed?|profit|"
                                r"bright-line|sold|sell|changed?|scrapped|went up|go up)\b|\$\d|\d[\d,.]*k\b", re.I)
BARE_YEAR = re.compile(r"\b(?:in|for|during|of)\s+(?P<y>20\d{2})\b(?!\s?[-–/])", re.I)
# "acc levy 2025", "sl repayment 2024 on 55k": a calendar year's number right after what is asked about.
YEAR_AFTER_TAX_WORD = re.compile(r"\b(?:tax|taxes|repayments?|levy|acc|paye|refund|income|return|rates?|brackets?|bands?|"
                                 r"thresholds?|ietc|sl|kiwisaver|esct)\s+(?P<y>20\d{2})\b(?!\s?[-–/]|\s+(?:tax\s+)?(?:year|yr)\b)", re.I)
# "In 2025 I earned $61,000": a year that opens its sentence and is followed by what was earned.
YEAR_OPENS_CLAUSE = re.compile(r"(?:^|[.;!?,])\s*(?:(?:and|but|so|back|well|ok|okay|also)\s+)?$", re.I)
YEAR_OF_TAX_AFTER = re.compile(r"^[^.?!;]{0,30}?\b(?:earn\w*|made|make|paid|got paid|income|salary|wages?|worked)\b", re.I)

MID_MONTH = 15  # the day that stands for a pay date named only by its month
MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
# A payslip's date written day/month/year, as New Zealand writes it: "Pay date 12/07/2024", "w/e 15/11/26".
PAY_DATED = re.compile(r"\b(?:pay\s*date|dated|paid\s+on|w/?e|week\s+ending|period\s+ending|pay\s*day)\s*[:|]?\s*"
                       r"(?P<d>\d{1,2})/(?P<m>\d{1,2})/(?P<y>20\d{2}|\d{2})\b", re.I)


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
            continue  # "should I put S or SH?", "can I tick M": a code proposed, not the one they are on
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
    number counts only beside what was earned or taxed ("tax in 2024", not "bought it in 2019")."""
    named = read_year(text, current)
    if named is not None:
        return named.year, named.text
    m = YEAR_AFTER_TAX_WORD.search(text)
    if m:
        return tax_year_starting(int(m.group("y"))), m.group(0)
    for m in BARE_YEAR.finditer(text):
        # "tax in 2024", "what was the top rate in 2019"; not "finished uni in 2024", nor "$720k. Bought it in 2019".
        if ACQUIRED_BEFORE.search(text[max(0, m.start() - 40):m.start()]):
            continue
        if (YEAR_OF_TAX_BEFORE.search(text[max(0, m.start() - 40):m.start()])
                or (YEAR_OPENS_CLAUSE.search(text[:m.start()]) and YEAR_OF_TAX_AFTER.search(text[m.end():]))):
            return tax_year_starting(int(m.group("y"))), m.group(0)
    return None, None


# "I get paid 2.5k", "my pay is $1,800": one pay, whose period the amount itself does not say.
# "i make 4k", "net pay on $1,650": what someone earns, said right before a small amount.
EARNS_BEFORE = re.compile(r"\b(?:make|makes|making|earn|earns|earning|on(?: a| an| my| the| one| each)?|(?:net|take[- ]?home|after[- ]tax)\s+(?:pay\s+)?on|"
                          r"(?:come|comes|coming|taken|take|takes|came) (?:out of|off)(?: (?:my|a|the|his|her|their|each|one))?|out of my|off my)"
                          r"\s*(?:about|around|roughly|like|only|just)?\s*$", re.I)
# Words that place a small amount in a whole year ("made $6k over summer", "earned 8k this tax year").
WHOLE_YEAR_WORDS = re.compile(r"\b(?:year|yr|annual\w*|p\.?a|summer|holidays?|so far|in total|total|altogether|all up|"
                              r"(?:19|20)\d\d)\b", re.I)
# "$8k tutoring on top of my $45k day job": extra money beside a year's income, so a year's too.
ON_TOP_OF_ANOTHER = re.compile(r"^[^.?!]{0,30}\b(?:on top of|as well as|besides|beside|alongside)\b[^.?!\d]{0,20}\$?\d", re.I)
# "each pay", "every payday": one of the pays, whichever they are (not "a pay rise", "a payslip").
EVERY_PAY_WORDS = r"\b(?:each|every|per)\s+pay(?:day|cheque|check|packet)?\b"
EVERY_PAY = re.compile(EVERY_PAY_WORDS, re.I)
# "$2,400 each pay", "$4,100 a pay": one pay, whichever period it is.
EACH_PAY_AFTER = re.compile(r"\s*(?:" + EVERY_PAY_WORDS + r"|a\s+pay\b(?!\s*(?:rise|raise|increase)))", re.I)
# "$9,400 tax on my income", "$2,100 of tax to pay": a tax figure, named by "tax" right after it
# (but not "tax on $9,400", nor "tax free", "tax code" and the like).
TAX_FIGURE_AFTER = re.compile(r"\s*(?:of\s+)?(?:income\s+)?tax\b(?!\s*(?:free|code|credit|rate|bracket|band|year|return|refund|deductible|resident|file))"
                              r"(?=\s+(?:on|to pay|owing|owed|due|bill|was|showed|for the year|this year|last year)\b)", re.I)
TAX_ON_BEFORE = re.compile(r"\b(?:tax|paye|levy)\s+(?:on|of|for)\s*(?:about|around|roughly)?\s*\$?$", re.I)
# "I get $2,650 pay on M SL": one pay, said without its period.
GETS_BEFORE = re.compile(r"\b(?:i|we|he|she|they)\s+(?:get|gets|receive|receives)\s*(?:about|around|roughly|like)?\s*$", re.I)
PAY_AFTER = re.compile(r"\s*(?:(?:gross|net|take[- ]home)\s+)?pay\b(?!\s*(?:rise|raise|increase|out|back))", re.I)
PAID_BEFORE = re.compile(r"\b(?:get|gets|getting|am|i'm|im|being)\s+paid\s*(?:about|around|roughly|like)?\s*$|"
                         r"\b(?:pays|paid|paying)\s+me\s*(?:about|around|roughly|like)?\s*$|"
                         r"\bmy pay(?:check|cheque|packet)?\s+(?:is|was)\s*(?:about|around|roughly|like)?\s*$", re.I)
# The government's part of KiwiSaver, however it is called.
GOVERNMENT_CONTRIBUTION = re.compile(r"\b(?:gov(?:ernment|t|'t)?|state)\b[^.?!]{0,25}\b(?:contribution|top[- ]?up|put|puts|pay|pays|chip|match)|"
                                     r"\bmember tax credit\b|\bgovernment contribution\b", re.I)
COUNT_PER_PERIOD = re.compile(r"\b\d+(?:\.\d+)?\s*(?:hours?|hrs?|h|days?|shifts?|weeks?|wks?)\s+"
                              r"(?:a|per|each|every)\s+(?:week|wk|fortnight|month|year)\b", re.I)


EVENT_THIS_PERIOD = re.compile(r"\b(?:sold|sell|selling|bought|buying|settled?|settling|moved|started|starting|arrived|left|"
                               r"finished|signed|listed)\b(?:\s+(?:it|them|the \w+|my \w+|our \w+|here|in|up))?\s+(?P<when>this (?:week|month|fortnight))\b", re.I)


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
        return paid_every, paid_every  # "… paid every 2 weeks. PAYE each payday?": one of those pays
    return (asked[-1][2] if asked else None), paid_every


def _free_periods(text: str, amounts: list[Money]) -> list[tuple[int, int, str]]:
    """Period words not attached to an amount nor counting work, in order."""
    spans = [(a.start, a.end) for a in amounts if a.period_stated]
    matches = [(m.start(), m.end(), name) for name, pattern in ASKED_PERIOD for m in re.finditer(pattern, text, re.I)]
    # "four weekly" also holds "weekly": a match inside a longer one does not count.
    matches = [x for x in matches if not any(o != x and o[0] <= x[0] and x[1] <= o[1] for o in matches)]
    # "20 hrs a week", "52 weeks a year" say how much work, not which period the answer is wanted in.
    counted = [(m.start(), m.end()) for m in COUNT_PER_PERIOD.finditer(text)]
    # "Sold it this month", "started this week": when something happened.
    counted += [(m.start("when"), m.end("when")) for m in EVENT_THIS_PERIOD.finditer(text)]
    # In order: the last one wins ("I'm paid weekly … what's that a month?").
    return sorted(x for x in matches if not any(s <= x[0] < e for s, e in spans + counted))


@dataclass
class Slots:
    """Everything a question states that an answer depends on."""

    amounts: list[Money] = field(default_factory=list)
    hours_per_week: Decimal | None = None
    weeks_per_year: Decimal | None = None
    hours_per_year: Decimal | None = None   # "1,400 hours this tax year": an hourly rate's year without weeks
    asked_period: str | None = None
    paid_every: str | None = None     # "I'm paid fortnightly" said outside the asking sentence: how the pays fall
    tax_code: str | None = None
    student_loan: bool | None = None
    kiwisaver: bool | None = None
    kiwisaver_rate: float | None = None
    kiwisaver_rates: tuple[float, ...] = ()  # two KiwiSaver rates set side by side ("3.5% vs 4%")
    employer_rate: float | None = None
    wff: bool = False
    benefit_or_super: bool = False
    nz_super: bool = False
    calendar_year: bool = False       # "January to December": a year that is not a tax year
    gst_inclusive: bool = False       # "sales $69,000 incl GST": figures with GST in them, which income tax is not on
    year_of_rule: bool = False        # "acc levy 2025": a calendar year's number as the year of a rule
    extra_only: bool = False          # "$3,000 for some work on the side": extra money, and nothing said of the rest
    gross_only: bool = False          # "$95k in sales": takings or rent before costs, and no costs stated
    earned_overseas: bool = False     # "made $8,000 abroad": income earned in another country
    business_unnamed: bool = False    # "The business made $60,000 profit": whose, and how the business is set up, unsaid
    part_year: bool = False           # "started a job on 92k in August": a salary for part of the tax year
    part_year_months: int | None = None  # "starting 1 Sept on $84,000 a year, no income before": the months it is paid for
    denies_conditions: bool = False   # "no WFF, not on a benefit": what would stop the IETC is said not to apply
    no_ird_number: bool = False
    flat_code: str | None = None      # "on the RSE scheme": work with a flat code of its own (NSW)
    names_income_tax: bool = False    # "what's my total income tax": the sum it names
    names_acc_levy: bool = False      # "how much ACC earners' levy do I pay": the levy it names
    second_job: bool = False          # "my 2nd job": a second job is what the question is about
    names_take_home: bool = False     # "what's my take-home", "after tax": the net pay it names
    names_pir: bool = False           # "which PIR": the rate it names, whatever else the amount suggests
    asks_code: bool = False           # "which tax code does he use": a code is what is asked, not a sum
    names_government_contribution: bool = False  # "will the govt still top up my KiwiSaver"
    kiwisaver_year: str | None = None # "the KiwiSaver year ending June 2026": "2025-26" (1 July to 30 June)
    tax_year: str | None = None
    year_text: str | None = None
    pay_date: str | None = None       # "a pay dated 14 June 2024": YYYY-MM-DD
    negated: bool = False
    adds_up: bool = False
    comparison: bool = False
    between: bool = False            # "between $50,000 and $70,000": a band, not two incomes

    @property
    def incomes(self) -> list[Money]:
        return [a for a in self.amounts if a.is_income]

    @property
    def contributions(self) -> list[Money]:
        """What the person put into KiwiSaver themselves ("I contributed $800")."""
        return [a for a in self.amounts if a.role == "contribution" and not a.questioned]

    @property
    def questioned(self) -> list[Money]:
        return [a for a in self.amounts if a.questioned and a.role in ("income", "main_job", "second_job", "total", "other", *OTHER_INCOME_ROLES)]

    def annual(self, amount: Money) -> Decimal | None:
        """An amount as a year's worth; None for an hourly rate without hours a week."""
        if amount.period == "hourly":
            if self.hours_per_year is not None:
                return amount.value * self.hours_per_year
            if self.hours_per_week is None:
                return None
            return amount.value * self.hours_per_week * (self.weeks_per_year or PERIODS_PER_YEAR["weekly"])
        return amount.value * PERIODS_PER_YEAR[amount.period]

    def annual_income(self) -> Decimal | None:
        """The year's income the question is about: the main income, or the jobs added up when the
        text says they add up. None when there is no usable income."""
        incomes = [a for a in self.incomes if not a.questioned]
        if not incomes:
            return None
        totals = [a for a in incomes if a.role == "total"]
        if totals and not self.comparison:
            return self.annual(totals[0])  # "my total income is about 40k": already added up
        if self.adds_up and not self.comparison:
            # Other taxable income (interest, a side business, a trading gain) counts when the text
            # says it adds up ("plus", "on top", "total").
            incomes += [a for a in self.amounts if a.role in OTHER_INCOME_ROLES and not a.questioned]
        if len(incomes) > 1 and self.adds_up and not self.comparison:
            values = [self.annual(a) for a in incomes]
            return None if any(v is None for v in values) else sum(values, Decimal(0))
        return self.annual(incomes[0])

    def income_amount(self) -> Money | None:
        incomes = [a for a in self.incomes if not a.questioned]
        return incomes[0] if incomes else None


# A profit shared equally, and the asker's own part of it asked about.
HALF_SHARE = re.compile(r"\b50\s?/\s?50\b|\b50-50\b|\bhalf share\b|\bequal (?:partners|shares|owners)\b|"
                        r"\bsplit (?:it |the profits? )?(?:equally|evenly|50/50|down the middle)\b|\bhalves\b", re.I)
MY_SHARE_ASKED = re.compile(r"\bmy (?:half|share|part|cut|50%)\b|\bmy half share\b", re.I)
RENTAL_WORDS = re.compile(r"\brent(?:al|s|ed|ing)?\b|\btenants?\b|\bflat\b|\bbach\b", re.I)
ON_TOP_OF_BEFORE = re.compile(r"\bon top of\s*(?:my|the|a|an|his|her|our|their)?\s*(?:(?:main|day|full[- ]time|normal|usual|regular)\s+)?"
                              r"(?:salary|wages?|pay|income|job)?\s*(?:of\s+)?(?:nz)?\$?$", re.I)


def _bright_line_years(rules: RuleBook | None, year: str) -> int | None:
    """The bright-line period in years that year's rules give, if they give one."""
    year_rules = rules.years.get(year) if rules is not None else None
    section = year_rules.data.bright_line if year_rules is not None else None
    return section.years if section is not None else None


RATES_SIDE_BY_SIDE = re.compile(r"\d%\s*(?:vs\.?|versus|or|to|and)\s*\d+(?:\.\d+)?\s?%|\b(?:difference|compare|compared)\b", re.I)
TAX_AND_ACC = re.compile(r"\b(?:income )?tax\s+(?:and|&|\+|plus)\s+(?:the\s+)?acc\b|\bacc\s+(?:and|&|\+|plus)\s+(?:the\s+)?(?:income\s+)?tax\b", re.I)


def read_slots(text: str, rules: RuleBook | None = None, current: str | None = None) -> Slots:
    """Read a question's slots; never raises for any text."""
    text = clean_text(text)
    current = current or current_tax_year()
    amounts = find_money(text)
    # "Our 50/50 partnership made $80,000 profit … my income tax on my share?": half of it is theirs.
    if HALF_SHARE.search(text) and MY_SHARE_ASKED.search(text):
        shared = [a for a in amounts if a.role in OTHER_INCOME_ROLES or a.questioned == HOUSEHOLD_QUESTIONED]
        if len(shared) == 1:
            half = shared[0]
            amounts = [replace(a, value=a.value / 2, text=f"half of {a.text}", questioned=None,
                               role="investment_income" if RENTAL_WORDS.search(text) else "other_income") if a is half else a
                       for a in amounts]
    # "a $3,000 bonus on top of 70k", "$15,000 of cash jobs on top of my $50,000 salary": what comes after
    # "on top of" is the pay the extra sits on, the main income.
    base = next((a for a in amounts if a.role in ("other_income", "income") and ON_TOP_OF_BEFORE.search(text[max(0, a.start - 30):a.start])), None)
    if base is not None and any(a is not base and a.role in ("income", *OTHER_INCOME_ROLES) for a in amounts):
        amounts = [replace(a, role="income") if a is base else replace(a, role="other_income") if a.role == "income" and a.start < base.start
                   else a for a in amounts]
    if (len(amounts) == 1 and amounts[0].role == "deduction" and find_tax_code(text)
            and not ASKS_IF_RIGHT.search(text) and not PAYSLIP_SAYS.search(text)):
        # "paye 1,640 per fortnight code m": the one amount beside a tax code is the pay the PAYE is on,
        # not PAYE already taken (that comes with the pay it came off, or a "right?").
        amounts = [replace(amounts[0], role="income")]
    # "from $68k to $82k … since I'm on 82 now": a bare number that is a stated amount in thousands says it again.
    thousands = {a.value for a in amounts if not a.questioned}
    amounts = [a for a in amounts if not (a.questioned and a.questioned.endswith(BARE_NUMBER_QUESTIONED) and a.value * 1000 in thousands)]
    slots = Slots(amounts=amounts)
    ym = HOURS_A_YEAR.search(text)
    hm = HOURS.search(text) or HOURS_LABELLED.search(text)
    if ym:
        slots.hours_per_year = Decimal(ym.group("h").replace(",", ""))
    elif hm:
        slots.hours_per_week = Decimal(hm.group("h"))
    wm = WEEKS.search(text)
    if wm and Decimal(wm.group("w")) <= 53:
        slots.weeks_per_year = Decimal(wm.group("w"))
    if slots.hours_per_week is not None:
        weekly = {a.value for a in amounts if a.period == "weekly" and a.is_income}
        # "40.00 hrs @ 29.80 … Gross 1,192.00": the rate and the week's gross it makes are one pay.
        slots.amounts = amounts = [a for a in amounts if not (a.period == "hourly" and a.value * slots.hours_per_week in weekly)]
    slots.asked_period, slots.paid_every = asked_and_paid(text, amounts)
    claimed = next((a for a in amounts if a.role == "claimed" and a.period_stated), None)
    if slots.asked_period is None and claimed is not None:
        slots.asked_period = claimed.period  # "says I'd take home $6,214 a month": the month is what is checked
    slots.tax_code = find_tax_code(text)
    if NO_STUDENT_LOAN.search(text):
        slots.student_loan = False
    elif STUDENT_LOAN.search(text) or (slots.tax_code or "").endswith("SL"):
        slots.student_loan = True
    employer = re.search(r"employer\w*(?:'s)?\s+(?:\w+\s+){0,4}?(?P<p>\d+(?:\.\d+)?)\s?(?:%|percent)", text, re.I)
    if employer:
        slots.employer_rate = float(employer.group("p"))
    if NO_KIWISAVER.search(text):
        slots.kiwisaver = False
    elif KIWISAVER.search(text) or employer or ESCT.search(text):
        slots.kiwisaver = True
        # The rate said of KiwiSaver: of several percentages, the one nearest a KiwiSaver word that is
        # not another rate ("a $410,000 mortgage at 5.1% … put 4% into KiwiSaver": 4%).
        mentions = [m.start() for m in KIWISAVER.finditer(text)]
        rates = [pm for pm in PERCENT.finditer(text)
                 if not (employer and pm.start("p") == employer.start("p"))
                 and not OTHER_RATE_NEAR.search(text[max(0, pm.start() - 25):pm.end() + 15])
                 and not SOMEONE_ELSES.search(re.split(r"[.;!?]", text[:pm.start()])[-1])]
        # ("My partner's on 6% at her work": someone else's rate, not theirs.)
        if mentions and rates:
            nearest = min(rates, key=lambda pm: min(abs(pm.start() - k) for k in mentions))
            slots.kiwisaver_rate = float(nearest.group("p"))
        distinct = list(dict.fromkeys(float(pm.group("p")) for pm in rates))
        if mentions and len(distinct) == 2 and RATES_SIDE_BY_SIDE.search(text):
            # "the difference per week between 3.5% and 4% KS", "bumped KS from 3.5% to 6%": both rates.
            slots.kiwisaver_rates = tuple(distinct)
    slots.wff = _stated(WFF, text)
    slots.benefit_or_super = _stated(BENEFIT_OR_SUPER, text)
    slots.nz_super = slots.benefit_or_super and _stated(NZ_SUPER, text)
    slots.denies_conditions = not (slots.wff or slots.benefit_or_super) and bool(WFF.search(text) or BENEFIT_OR_SUPER.search(text))
    slots.no_ird_number = bool(NO_IRD_NUMBER.search(text))
    slots.second_job = any(not names_no_second_job(text, m) for m in SECOND_JOB_WORDS.finditer(text))
    # ("the tax and ACC on 57k": the year's income tax and the earners' levy, named as a pair.)
    tax_and_acc = TAX_AND_ACC.search(text)
    slots.names_income_tax = bool(re.search(r"\bincome tax\b", text, re.I) or tax_and_acc)
    slots.names_acc_levy = bool(re.search(r"\bacc\b[^.?!]{0,20}\blevy\b|\bearners'? levy\b", text, re.I) or tax_and_acc)
    slots.names_take_home = bool(NAMES_TAKE_HOME.search(text))
    slots.names_pir = bool(re.search(r"\b(?:pir|prescribed investor rate)\b", text, re.I))
    slots.asks_code = bool(CODE_ASKED.search(text))
    slots.names_government_contribution = bool(GOVERNMENT_CONTRIBUTION.search(text))
    ky = KIWISAVER_YEAR_END.search(text)
    if ky:
        end_year = int(ky.group("y"))
        slots.kiwisaver_year = tax_year_starting(end_year - 1)
    slots.calendar_year = bool(CALENDAR_YEAR.search(text))
    slots.gst_inclusive = bool(GST_INCLUSIVE.search(text)) and not GST_EXCLUSIVE.search(text)
    # (Two incomes, each for its part of the year, "April to September $31,200, then from October $27,900", are the year.)
    started = PART_YEAR.search(text)
    yearly = [a for a in amounts if a.is_income and a.period == "annual"]
    if started and not BUSINESS_STARTED.search(text) and len(yearly) == 1 and yearly[0].period_stated and NOTHING_BEFORE.search(text) \
            and (started.group("day") or started.group("day2") or "1") == "1":
        # "moved to NZ, starting 1 Sept on $84,000 a year, no income before that": the months from the start to 31 March.
        slots.part_year_months = months_to_march(started.group("month"))
    slots.part_year = (bool(started) and not BUSINESS_STARTED.search(text) and slots.part_year_months is None
                       and not (PART_AMOUNT_STATED.search(text) and not (yearly and yearly[0].period_stated))
                       and bool(yearly)
                       and len([a for a in amounts if a.is_income]) < 2)
    amounts, spans = _months_paid(text, _sale_less_purchase(text, _restated_total(text, amounts), _bright_line_years(rules, current),
                                                            nztax_rules.today()))
    amounts = slots.amounts = _one_year_each(text, _takings_less_costs(text, amounts, slots), slots)
    earned = [a for a in amounts if a.role in ("income", *OTHER_INCOME_ROLES)]
    slots.earned_overseas = bool(EARNED_OVERSEAS.search(text)) and not EARNED_HERE.search(text)
    # (Money earned abroad is beside whatever else they earn here.)
    slots.extra_only = (bool(EXTRA_INCOME.search(text) or slots.earned_overseas) and not ONLY_INCOME.search(text) and len(earned) == 1
                        and not earned[0].says_salary and not any(a.role in ("main_job", "second_job", "total") for a in amounts))
    slots.business_unnamed = bool(UNNAMED_BUSINESS_PROFIT.search(text)) and not BUSINESS_OWNED_AS.search(text)
    slots.flat_code = next((code for code, words in FLAT_CODE_WORK.items() if words.search(text)), None)
    slots.tax_year, slots.year_text = resolve_tax_year(text, rules, current)
    # "income tax for 2025 on $70,000": a calendar year's number alone could be the tax year ending
    # in March 2025 or the one starting in April 2025.
    slots.year_of_rule = bool(slots.year_text and YEAR_AFTER_TAX_WORD.fullmatch(slots.year_text))
    slots.calendar_year = slots.calendar_year or slots.year_of_rule or bool(slots.year_text and BARE_YEAR.fullmatch(slots.year_text))
    dm = FULL_DATE.search(text) or PAY_DATED.search(text)
    if dm:
        month = dm.group("m")
        try:
            day = dt.date(_full_year(dm.group("y")), int(month) if month.isdigit() else MONTHS.index(month[:3].lower()) + 1,
                          int(dm.group("d")))
        except ValueError:
            day = None
        if day is not None:
            slots.pay_date = day.isoformat()
            if slots.tax_year is None:
                slots.tax_year, slots.year_text = tax_year_for(day), dm.group(0)
    if slots.tax_year is None:
        dated = [(dt.date(int(mm.group("y")), MONTHS.index(mm.group("m")[:3].lower()) + 1, 1), mm.group(0))
                 for mm in MONTH_YEAR.finditer(text) if not ACQUIRED_BEFORE.search(text[max(0, mm.start() - 40):mm.start()])]
        if dated:
            # "back in February 2026": the tax year that month falls in (1 April to 31 March). Of
            # several ("bought in September 2024 … sell it in August 2026"), the latest: the sale.
            day, said = max(dated)
            slots.tax_year, slots.year_text = tax_year_for(day), said
            if slots.pay_date is None and len(dated) == 1:
                # A pay in that month is worked with the rates then in force ("back in June 2024":
                # before the 31 July 2024 change). Mid-month stands for the month.
                slots.pay_date = day.replace(day=MID_MONTH).isoformat()
    slots.negated = bool(NEGATION.search(text))
    each = re.search(r"\b(two|2|both)\b[^.?!]{0,30}\bjobs?\b(?:[^.?!]{0,30}\beach\b|.{0,80}\b(?:at|from|in|for) each(?: one| job)?\b|.{0,80}\bapiece\b)",
                     text, re.I)
    if each and len(slots.incomes) == 1:
        # "two part-time jobs that each pay about $30k", "two jobs … I earn 30k at each": the amount twice.
        first = slots.incomes[0]
        slots.amounts = [replace(first, role="main_job"), replace(first, role="second_job", start=first.start + 1)]
    mains = [a for a in slots.amounts if a.role == "main_job"]
    others = [a for a in slots.amounts if a.role == "income"]
    if not mains and len(others) == 2 and others[0].period == "annual" and others[1].period in PAY_FREQUENCIES:
        # "Main job is 62k salary. Picked up a bar job on weekends, about $260 p/w": a year's salary
        # first, then another job's pay.
        mains, others = others[:1], others[1:]
    if len(mains) == 1 and len(others) == 1 and ALSO_WORK.search(_sentence_before(text, others[0])):
        # "Main job is $49,000 a year. I also do weekend bar work for $260 a week": the other job.
        slots.amounts = [replace(a, role="second_job") if a is others[0] else replace(a, role="main_job") if a is mains[0] else a
                         for a in slots.amounts]
    if slots.second_job and not any(a.role in ("main_job", "second_job") for a in slots.amounts):
        # "My second job … It pays about 15k": the job just named.
        slots.amounts = [replace(a, role="second_job") if a.role == "income" and IT_PAYS.search(text[max(0, a.start - 25):a.start])
                         else a for a in slots.amounts]
    slots.adds_up = (bool(ADD_UP.search(text)) or {"main_job", "second_job"} <= {a.role for a in slots.amounts}
                     or spans >= 2)
    slots.between = bool(re.search(r"\bbetween\s+\$?\d[\d,.]*\s?k?\s+and\s+\$?\d", text, re.I))
    slots.comparison = any(
        COMPARISON.search(text[max(0, b.start - 30):b.start]) or RANGE_BEFORE.search(text[max(0, a.start - 10):a.start])
        for a, b in zip(slots.amounts, slots.amounts[1:]) if a.is_income and b.is_income) or (
        len(slots.incomes) == 2 and bool(OFFERS_WEIGHED.search(text)))
    if slots.comparison:
        slots.amounts = _without_restated_gap(slots.amounts)
    picked = ONE_OF_THEM_PICKED.search(text)
    if picked and len(slots.incomes) > 1 and (slots.comparison or picked.group("noun").lower() in ("option", "offer", "package")):
        # (Of two jobs, "the 18k one" is the job a code is asked for: both incomes still count.)
        # "$84,000, or $78,000 plus a car … take-home on the $84,000 option?": the one asked about.
        value = _value(picked.group("num"), picked.group("suf"), is_money=True)
        if value is not None and any(a.value == value for a in slots.incomes):
            slots.amounts = [a for a in slots.amounts if not a.is_income or a.value == value]
            slots.comparison = slots.adds_up = False
    return slots


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


@dataclass(frozen=True)
class Reading:
    """What a question says beyond its words: two questions with the same words but a different
    reading ("do I have to give …" / "don't give …"; $60,000 a month / a year) want different
    answers. The FAQ fast path serves a stored answer only for the same reading."""

    negated: bool
    amounts: frozenset[tuple[Decimal, str, str]]
    asked_period: str | None
    tax_code: str | None
    student_loan: bool | None
    kiwisaver_rate: float | None
    conditions: tuple[bool, bool, bool]


def reading(slots: Slots) -> Reading:
    return Reading(
        negated=slots.negated,
        amounts=frozenset((a.value.normalize(), a.period, a.role) for a in slots.amounts),
        asked_period=slots.asked_period, tax_code=slots.tax_code, student_loan=slots.student_loan,
        kiwisaver_rate=slots.kiwisaver_rate, conditions=(slots.wff, slots.benefit_or_super, slots.no_ird_number),
    )
