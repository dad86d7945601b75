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
from nztax.rules import RuleBook
from nztax.settings import get_settings
from nztax.years import read_year
from nztax.amount_grammar import MONTH_NAMES, PERCENT, _CODES
from nztax.amount_roles import SECOND_JOB_WORDS
from nztax.amount_owners import BUSINESS_PLACES

# A KiwiSaver year runs 1 July to 30 June and is named here by the June it ends in.
# ("Before 1 July 2025" names the KiwiSaver year that ended the day before.)
KIWISAVER_YEAR_END = re.compile(r"\b(?:end(?:s|ed|ing)?|to|until)\s+(?:(?:the\s+)?30(?:th)?\s+)?june\s+(?P<y>20\d\d)\b|"
                                r"\b(?:before|prior to)\s+(?:the\s+)?1(?:st)?\s+(?:of\s+)?july,?\s+(?P<y2>20\d\d)\b", re.I)
# A tax code asked for (which or what code, for a job).
CODE_ASKED = re.compile(r"\b(?:which|what)\s+(?:secondary\s+)?(?:tax\s+)?code\b", re.I)
MONTH_YEAR = re.compile(r"\b(?:in|during|back in|from|since|of)\s+(?P<m>" + MONTH_NAMES + r")\.?\s+(?P<y>20\d\d)\b", re.I)
IT_PAYS = re.compile(r"\b(?:it|that job|that one|the job)(?: only)? (?:pays|pays me|is|brings in)\b[^.?!]*$", re.I)
NAMES_TAKE_HOME = re.compile(r"\btake[- ]?home\b|\bafter[- ]tax\b|\bnet (?:pay|income|salary)\b|\bin my pocket\b|"
                             r"\b(?:weekly|fortnightly|monthly|yearly|annual) net\b|\bnet (?:per|a|each) (?:week|fortnight|month|year)\b|"
                             r"\blands? in my\b|\bland in (?:my|the)\b|\bget in (?:my )?hand\b|\bin hand\b|"
                             r"\bhits? my (?:account|bank)\b|\bclear (?:each|a|per|every)\b|"
                             # what is kept or ended up with
                             r"\b(?:i|we)(?: actually)?(?: get to)? keep\b|\bend up with\b|\bleft with\b", re.I)
COMPARISON = re.compile(r"\b(?:(?:vs\.?|versus|or|compared (?:to|with)|instead of)\s+(?:staying|stay|remaining|keeping|sticking)\s+(?:on|at|with)|"
                        r"vs\.?|versus|compared (?:to|with)|or|instead of|than(?:\s+(?:my|the|our))?(?:\s+(?:current|old|existing|present))?(?:\s+(?:pay|salary|job))?(?:\s+(?:on|at|with|of))?|(?:raise|rise|increase|bump|up|jump|promotion) to)\s*$", re.I)
# Two offers weighed, not two incomes.
OFFERS_WEIGHED = re.compile(r"\b(?:two|2|both|the)\s+(?:job\s+)?offers\b|\bthe (?:higher|lower|bigger|smaller|better) (?:one|offer|salary)\b", re.I)
RANGE_BEFORE = re.compile(r"\b(?:from|between)\s*$", re.I)
ADD_UP = re.compile(r"\b(?:(?:two|2|three|3|four|4|multiple|several) (?:part[- ]time |casual )?jobs|both jobs|second job|2nd job|other job|another job|"
                    r"(?:take|taking|get|getting|pick up|picking up|add|adding) (?:a|another) (?:second|2nd) one|(?:take|taking|get|getting) another one|"
                    r"plus|on top|as well as|"
                    r"total|combined|altogether|all up|in total|together|also earn|also get|also make|and also|the lot|all of it)\b", re.I)


# A clause about someone else: a rate said of them is not the asker's.
SOMEONE_ELSES = re.compile(r"\b(?:partner|wife|husband|spouse|girlfriend|boyfriend|hubby|missus|mum|dad|mother|father|son|daughter|"
                           r"friend|mate|colleague|co-?worker|brother|sister|flatmate|boss)'?s?\b|\b(?:she|he|they)(?:'s| is| are)?\b", re.I)
# Words of a rate that is not a KiwiSaver contribution rate.
OTHER_RATE_NEAR = re.compile(r"\b(?:(?:home|car|personal|business) loan|loan (?:at|rate)|mortgage|interest|fixed|floating|pir|prescribed|tax rate|bracket|band|returns?|growth|"
                             r"inflation|gst|raise|rise|increase|pay rise|discount)\b", re.I)


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
PROPOSED_BEFORE = re.compile(r"\b(?:should|can|could|would|do|shall|will|may|must)\s+i\s+$", re.I)
# A search-box query that ends in its code after the pay's period.
CODE_ENDS_QUERY = re.compile(r"(?:\bp/?w|\bpw|\bwk|\bweek|\bweekly|\bfortnight|\bfortnightly|\bmonth|\bmonthly|\bhrs?|\bhours?|\d)\s+"
                             r"(?P<c>(?:me|m|sb|sh|st|sa)(?:\s?sl)?)(?:\s+(?:right|correct|ok|pls|please|tax|paye))?\s*\??\s*$", re.I)
BARE_SL_CODE = re.compile(r"(?<![\w'])(?P<c>(?:ME|M|SB|SH|ST|SA|S) SL)(?![\w'])")
ESCT = re.compile(r"\besct\b|employer superannuation contribution tax|employer (?:kiwi\s?saver )?contributions?", re.I)
# One negation before a short list joined by or negates each item. (Not a list joined by a comma or
# and: the next item there is said to hold.)
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
                           # still waiting for it
                           r"\bbefore (?:i got |i had |getting )?(?:my|an|the) ird number\b|\b(?:waiting (?:on|for)|still waiting for) (?:my|an|the) ird number\b|"
                           r"\bird number (?:hasn'?t|has not|didn'?t|did not|still hasn'?t|isn'?t|is not)(?: yet)? (?:come|came|arrived|through|here)\b|"
                           r"\bno ird (?:number )?yet\b", re.I)
NEGATION = re.compile(r"\b(?:not|no|never|without|don'?t|doesn'?t|didn'?t|isn'?t|aren'?t|can'?t|cannot|won'?t|"
                      r"shouldn'?t|haven'?t|hasn'?t|wasn'?t|weren'?t)\b", re.I)

# Money earned abroad: whether New Zealand taxes it, and at what rate, turns on residency and the rest of the year's income.
FOREIGN_PLACE = (r"(?:overseas|abroad|offshore|in (?:australia|oz|the uk|the us|the usa|america|canada|england|scotland|ireland|"
                 r"london|sydney|melbourne|brisbane|perth|singapore|hong kong|dubai|japan|korea|china|india|fiji|samoa|tonga|"
                 r"the cook islands|the philippines|germany|france))")
EARNED_OVERSEAS = re.compile(rf"\b(?:earned|made|earn|make|income|contract|contracting|worked|working)\b[^.?!]{{0,30}}\b{FOREIGN_PLACE}\b|"
                             r"\b(?:foreign|overseas) income\b", re.I)
# (Work abroad in the past, income earned here now: the income is this country's.)
EARNED_HERE = re.compile(r"\b(?:earn\w*|make|made|paid|salary|job)\b[^.?!]{0,25}\b(?:here|in nz|in new zealand)\b", re.I)
# Money on top of the rest of someone's income (side work, a bonus): the tax on it depends on that
# income, unless the text says there is none. (A total said to include the bonus is not extra money.)
EXTRA_INCOME = re.compile(r"\bon the side\b|\bside (?:hustle|job|gig|income|work|business)\b|"
                          r"(?<!with )(?<!with my )(?<!with the )(?<!including )(?<!including my )(?<!including the )(?<!incl )(?<!incl\. )(?<!incl my )(?<!incl\. my )(?<!inc my )\bbonus\b|\bone[- ]off\b|"
                          r"\bextra (?:income|money|cash|work|shifts?)\b|\bsome (?:extra )?work\b|\bcash jobs?\b|\bodd jobs?\b|"
                          r"\b(?:goes|go|going|went) up by\b|\b(?:pay )?(?:rise|raise|increase) of\b|\bpay (?:rise|raise|increase)\b(?!\s+to\b)|"
                          r"\bback ?pay\b|\bredundancy\b|\blump sum\b|\bpayout\b|(?<!including )(?<!incl )(?<!with )\bholiday pay\b|\bfinal pay\b|"
                          # income from savings or a rental, taxed at the rate the rest of the year's income sets
                          r"\binterest\b|\bdividends?\b|\brental (?:profit|income)\b|\brental made\b|\bmy rental\b|"
                          # a gain on something sold
                          r"\b(?:sold|selling|cashed out)\b[^.?!]{0,60}\b(?:profit|gain)\b|"
                          r"\b(?:profit|gain)\b[^.?!]{0,30}\b(?:on|from)\s+(?:my\s+|the\s+|some\s+)?(?:crypto|bitcoin|btc|eth|ethereum|shares|stocks|coins?)\b", re.I)
ONLY_INCOME = re.compile(r"\b(?:no|not any|nothing|without any|don'?t have any) other (?:income|job|jobs|work|earnings)\b|"
                         r"\bonly (?:income|earnings|money)\b|\bno (?:salary|wages|job|day job|main job)\b|\bnothing else\b|"
                         r"\bthat'?s (?:all|it)\b|\ball (?:i|he|she|they) (?:earn|earned|made|make|get|got)\b|\bmy only\b|"
                         r"\bno side (?:income|job|business|hustle|work)\b|\bjust (?:my|the) (?:\S+ )?(?:job|salary|wages?|pay)\b", re.I)
# A business's profit with nothing said of how it is set up. A sole
# trader's profit is their own income; a company's is taxed in the company (and partners pay on their shares).
UNNAMED_BUSINESS_PROFIT = re.compile(rf"\b(?:the|our|this|that)\s+(?:\w+\s+)?(?:{BUSINESS_PLACES})\b[^.?!$\d]{{0,25}}"
                                     r"\b(?:made|cleared|netted|earned|turned|had|did)\b[^.?!]{0,25}\bprofit\b", re.I)
BUSINESS_OWNED_AS = re.compile(r"\bsole[- ]?trader\b|\bself[- ]employ|\bfreelanc|\bcontractor\b|\bmy (?:own )?(?:\w+ )?business\b|"
                               r"\bside (?:business|biz|hustle)\b|\b(?:my|our|his|her) shares?\b|\bpartnership\b|\bpartners?\b|"
                               r"\bcompany\b|\bltd\b|\blimited\b|\btrusts?\b|\bshareholders?\b|\bin my (?:own )?name\b", re.I)
# A salary earned for only part of the tax year (arrived or started partway).
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


# The amount said to be for the rest of the tax year.
PART_AMOUNT_STATED = re.compile(r"\b(?:between now and|from now (?:until|till|to)|(?:up )?(?:to|until|till|by) (?:the end of |31(?:st)? )?march|"
                                r"for the rest of the (?:tax )?year|rest of (?:this|the) (?:tax )?year|before 31 march|this tax year)\b", re.I)
# When something was acquired, not the tax year asked about.
ACQUIRED_BEFORE = re.compile(r"\b(?:bought|brought|buying|purchased|purchasing|acquired|acquiring|settled)\b[^.?!]*$", re.I)
# Figures said to be without GST.
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


# A condition that has ended (came off, no longer on).
ENDED = re.compile(r"\b(?:came|come|coming|got|get|getting) off\b|\bno longer\b|\bstopped\b|\bfinished\b|\bused to\b", re.I)


# A bare calendar year is the tax's year only beside a word of a tax figure, or an amount, just before it.
YEAR_OF_TAX_BEFORE = re.compile(r"\b(?:" + alternatives("year_of_tax") + r")\b|\$\d|\d[\d,.]*k\b", re.I)
BARE_YEAR = re.compile(r"\b(?:in|for|during|of)\s+(?P<y>20\d{2})\b(?!\s?[-–/])", re.I)
# A calendar year's number right after what is asked about.
YEAR_AFTER_TAX_WORD = re.compile(r"\b(?:tax|taxes|repayments?|levy|acc|paye|refund|income|return|rates?|brackets?|bands?|"
                                 r"thresholds?|ietc|sl|kiwisaver|esct)\s+(?P<y>20\d{2})\b(?!\s?[-–/]|\s+(?:tax\s+)?(?:year|yr)\b)", re.I)
# A year that opens its sentence and is followed by what was earned.
YEAR_OPENS_CLAUSE = re.compile(r"(?:^|[.;!?,])\s*(?:(?:and|but|so|back|well|ok|okay|also)\s+)?$", re.I)
YEAR_OF_TAX_AFTER = re.compile(r"^[^.?!;]{0,30}?\b(?:earn\w*|made|make|paid|got paid|income|salary|wages?|worked)\b", re.I)

MID_MONTH = 15  # the day that stands for a pay date named only by its month
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
    number counts only beside what was earned or taxed ("tax in 2024", not "bought it in 2019")."""
    named = read_year(text, current)
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
GOVERNMENT_CONTRIBUTION = re.compile(r"\b(?:gov(?:ernment|t|'t)?|state)\b[^.?!]{0,25}\b(?:contribution|top[- ]?up|put|puts|pay|pays|chip|match)|"
                                     r"\bmember tax credit\b|\bgovernment contribution\b", re.I)


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
                         r"apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|"
                         r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?)\b|\b(?P<month2>april|may|june|july|august|september|october|"
                         r"november|december|january|february|march)\s+\d{1,2}(?:st|nd|rd|th)?\b", re.I)
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
            month = TAX_YEAR_MONTHS.index(named[0][:3].lower())
            if ENDED.search(s) and not MONTH_BEGAN.search(s):
                readings.add(11 - month)   # the month it ended had some of it: the months after it are free
            elif MONTH_BEGAN.search(s) and not ENDED.search(s):
                readings.add(month)        # the months before the one it began in
    sure = next(iter(readings)) if len(readings) == 1 else None
    return part_year, sure
