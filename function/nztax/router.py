"""The offline intent router: what a question asks for, read without a model.

In: a question, the latest turns of history, an explicit tax year (if any) and the rule book.
Out: an `Intent` — its kind (calculation, topic, clarify, out of scope, refused), the calculation
to run with its arguments, the topics it touches, the tax year it is about, and what is missing.

It recognises amounts ("$85k", "85,000", "1.5k a week", "$3,500 a month", "$30 an hour for 40
hours"), pay frequencies, tax codes ("M SL", "tax code ME"), tax years ("2024-25", "last year",
"the 2025 income year", "year ending 31 March 2025"), student loan / KiwiSaver mentions and
topics. The LLM path uses it too, to decline out-of-scope and harmful requests before any call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from nztax.rules import RuleBook, current_tax_year

PAY_FREQUENCIES = ("weekly", "fortnightly", "four_weekly", "monthly")
# Pay periods per year, to turn a period amount into an annual one (IRD's annualisation factors).
PERIODS_PER_YEAR = {"weekly": 52, "fortnightly": 26, "four_weekly": 13, "monthly": 12, "annual": 1}

# ---------------------------------------------------------------------------------------------
# Scope: what is declined (with fixed copy chosen in the composer) and what is refused.

OUT_OF_SCOPE_PATTERNS: dict[str, re.Pattern] = {
    "gst": re.compile(r"\bgst\b|goods and services tax", re.I),
    "company": re.compile(r"\bcompan(y|ies)\b|\bcorporate tax\b|\bltd\b|look-through compan", re.I),
    "trust": re.compile(r"\btrusts?\b|\btrustees?\b", re.I),
    "fbt": re.compile(r"\bfbt\b|fringe benefit", re.I),
    "provisional": re.compile(r"provisional tax", re.I),
    "overseas": re.compile(
        r"\b(irs|hmrc|ato|cra)\b|\b(australian?|american|us|usa|uk|british|canadian|indian|chinese|singapore|"
        r"united states|united kingdom)\s+(income\s+)?tax|\btax\w*\s+in\s+(australia|america|the (us|uk|usa)|"
        r"the united (states|kingdom)|canada|india|china|singapore|england)\b|\b(state|federal) tax\b|\bvat\b",
        re.I,
    ),
    "other_tax": re.compile(r"\b(customs|excise|stamp duty|inheritance tax|estate tax|land tax|import duty)\b", re.I),
}

REFUSE_PATTERNS: dict[str, re.Pattern] = {
    "evasion": re.compile(
        r"\b(evad\w*|evasion|hide|hiding|conceal\w*)\b.*\b(tax|income|ird|money|earnings|cash)\b|"
        r"\b(not|never|without)\s+(declar\w*|report\w*|tell\w*)\b.*\b(ird|income|cash|tax)\b|"
        r"\bcash (job|jobs|work) .*\b(no|not|without)\b.*\btax|\bunder the table\b|\bfake (receipts?|invoices?|expenses?)\b|"
        r"\bcheat\w*\b.*\b(tax|ird)\b|\bavoid (getting )?caught\b|\bcash in hand\b.*\b(declare|tax)\b|"
        r"\bavoid (declar|report|disclos)\w*|\bdodg(e|ing)\b.*\btax|\bwithout (ird|inland revenue) (knowing|finding out)",
        re.I,
    ),
    # "How do I avoid tax?": not hiding income, but asking to get out of paying tax that is owed.
    # ("avoid paying too much tax" and "avoid a tax bill" are fine: the pattern needs tax right after.)
    "avoidance": re.compile(
        r"\b(avoid\w*|dodg\w*|escap\w*|get(ting)? out of|not (to )?pay(ing)?|never pay(ing)?)\s+(paying\s+)?(any\s+|my\s+|all\s+|the\s+)?"
        r"(income\s+)?tax(es)?\b(?!\s+(bills?|debts?|penalt\w*|codes?|twice))|\bpay (no|zero) tax\b|\btax (avoidance|loopholes?)\b",
        re.I,
    ),
    "injection": re.compile(
        r"\bignore (all |any |the |your )?(previous |prior |above )?(instructions|rules|prompt)|\bsystem prompt\b|"
        r"\breveal (your|the) (instructions|prompt|rules)\b|\bjailbreak\b|\bdeveloper mode\b|\bpretend (you are|to be)\b",
        re.I,
    ),
}

# Words that make a question plausibly about New Zealand personal tax.
IN_SCOPE_WORDS = re.compile(
    r"\b(tax\w*|income|salary|salaries|wages?|pay|paid|paye|payslip|earn\w*|kiwi ?saver|student loans?|acc|levy|"
    r"ird|inland revenue|refunds?|ietc|credits?|deduct\w*|withholding|rwt|pir|pie|esct|donat\w*|"
    r"working for families|rental|bonus|holiday pay|ir3|ir330|net|gross|take[- ]home|bracket|threshold|"
    r"residen\w*|code|bright[- ]?line|property|expenses?|claim\w*|file|filing|returns?|ird number|super(annuation)?|"
    r"benefits?|allowances?|invest\w*|interest|dividends?|shares|employ\w*)\b",
    re.I,
)
GREETING = re.compile(r"^\s*(hi|hello|hey|kia ora|help|thanks|thank you|test)\W*$", re.I)

# ---------------------------------------------------------------------------------------------
# Topics: keyword -> topic id. The composer knows how to summarise each from the rules data.

TOPIC_PATTERNS: dict[str, re.Pattern] = {
    "tax_rates": re.compile(r"tax (rate|bracket|band|table)s?|income tax rates?|\bbrackets?\b|\bmarginal\b|top (tax )?rate|"
                            r"\brates? of (income )?tax\b|tax thresholds?", re.I),
    "acc": re.compile(r"\bacc\b|earners?'?\s*levy", re.I),
    "student_loan": re.compile(r"student loans?|\bsl\b(?! code)", re.I),
    "ietc": re.compile(r"\bietc\b|independent earner", re.I),
    "esct": re.compile(r"\besct\b|employer superannuation contribution tax|tax on employer contributions?", re.I),
    "government_contribution": re.compile(r"government contribution|member tax credit", re.I),
    "kiwisaver": re.compile(r"kiwi ?saver", re.I),
    "secondary": re.compile(r"secondary|second job|two jobs|more than one job|another job|extra job|side job", re.I),
    "tax_codes": re.compile(r"tax codes?|\bwhich code\b|\bcode (should|do)\b|\bir330\b", re.I),
    "donations": re.compile(r"donat\w+|charit\w+", re.I),
    "pir": re.compile(r"\bpir\b|prescribed investor|\bpie\b", re.I),
    "rwt": re.compile(r"\brwt\b|resident withholding|interest (income|earned|on savings)|tax on interest", re.I),
    "paye": re.compile(r"\bpaye\b|pay as you earn", re.I),
}
# Topics the composer summarises from the rules data (others are answered from passages only).
RULES_TOPICS = frozenset(TOPIC_PATTERNS)

# A request to compute something (as opposed to "what is the rate").
CALC_WORDS = re.compile(
    r"\bhow much\b|\bwhat('s| is| would be| will be)? (my|the) (tax|take[- ]home|net|pay|paye|repayment|levy|credit)\b|"
    r"\bcalculat\w*|\bwork out\b|\btake[- ]home\b|\bnet pay\b|\bafter tax\b|\bin (my )?hand\b|\bdeduct\w*\b|"
    r"\btax on\b|\bpaye on\b|\bi (earn|make|get paid|am paid|'m paid)\b|\bmy (salary|income|wage|pay)\b|"
    r"\bdo i (pay|owe|get)\b|\bwill i (pay|get|owe)\b|\bwould i (pay|get)\b|\bowe\b|\brepay(ment)?s?\b",
    re.I,
)
BARE_FREQUENCY = re.compile(r"\b(four[- ]weekly|4[- ]weekly|weekly|fortnightly|monthly)\b", re.I)
BARE_FREQUENCY_NAMES = {"four weekly": "four_weekly", "fourweekly": "four_weekly", "weekly": "weekly",
                        "fortnightly": "fortnightly", "monthly": "monthly"}
# A question this short after earlier turns is read as a follow-up to them.
FOLLOW_UP_MAX_WORDS = 8
FOLLOW_UP = re.compile(r"^\s*(and|but|also|what about|how about|what if|and if|with|without|same|now|ok|okay)\b", re.I)
TAKE_HOME = re.compile(r"take[- ]home|net pay|\bnet\b|after tax|in (my )?hand|left over|what i (get|keep)|pocket", re.I)
NO_STUDENT_LOAN = re.compile(r"\b(no|without|don'?t have an?|paid off( my)?)\s+(a\s+)?student loans?", re.I)

# ---------------------------------------------------------------------------------------------
# Amounts, frequencies, codes, percentages, years.

# "85,000", "85 000" (a space groups thousands, as IRD's own forms print them), "85000.50".
_NUMBER = r"(?<![\d.,])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?: \d{3})+(?![\d,])(?:\.\d+)?|\d+(?:\.\d+)?)"
# Characters people paste without seeing them; inside "8\u200b5,000" they would split the number.
INVISIBLE = re.compile("[\u200b-\u200d\u2060\ufeff]")


def clean_text(text: str) -> str:
    """A question as one line: invisible characters dropped, every run of whitespace one space."""
    return " ".join(INVISIBLE.sub("", str(text)).split())
AMOUNT = re.compile(
    r"(?P<cur>\$|nzd\s?|nz\$)?\s?" + _NUMBER +
    r"\s?(?P<suf>k\b|m\b|mil\b|million\b|thousand\b|grand\b)?(?P<dollars>\s?(dollars|nzd|bucks)\b)?",
    re.I,
)
_FREQ_WORDS = [
    ("hourly", r"an hour|per hour|a hr|/\s?hr|/\s?hour|hourly|p/?h\b|ph\b"),
    ("weekly", r"a week|per week|each week|every week|weekly|/\s?wk|/\s?week|p/?w\b|pw\b"),
    ("fortnightly", r"a fortnight|per fortnight|each fortnight|every fortnight|fortnightly|every (two|2) weeks|/\s?fortnight"),
    ("four_weekly", r"every (four|4) weeks|(four|4)[- ]?weekly|per (four|4) weeks|a (four|4)[- ]week"),
    ("monthly", r"a month|per month|each month|every month|monthly|/\s?month|/\s?mth|p/?m\b|pm\b|a mth"),
    ("annual", r"a year|per year|per annum|p\.?a\.?\b|annually|annual|/\s?yr|/\s?year|yearly|each year"),
]
FREQ_AFTER = re.compile(r"^\s*(?:gross\s+|before tax\s+|pre-tax\s+)?(?P<f>" + "|".join(f"(?P<{n}>{p})" for n, p in _FREQ_WORDS) + ")", re.I)
# "weekly 880", "four-weekly pay of $3,500", "monthly salary 9000": the frequency written first.
FREQ_BEFORE_WORDS = {
    "four_weekly": r"four[- ]?weekly|4[- ]?weekly",
    "weekly": r"weekly",
    "fortnightly": r"fortnightly",
    "monthly": r"monthly",
    "annual": r"annual|yearly",
}
FREQ_BEFORE = re.compile(
    r"\b(?:" + "|".join(f"(?P<{n}>{p})" for n, p in FREQ_BEFORE_WORDS.items()) + r")"
    r"\s*(?:(?:gross|before[- ]tax)\s+)?(?:(?:pay|wages?|salary|income|earnings|pay ?check)\s+)?(?:(?:of|is|=|:)\s*)?$",
    re.I,
)
FREQ_ANYWHERE = re.compile(r"\b(paid|pay|wages?|salary)\b[^.?!]{0,20}?\b(?P<f>weekly|fortnightly|monthly|every (two|2|four|4) weeks|four[- ]weekly)\b|"
                           r"\b(?P<f2>weekly|fortnightly|monthly|four[- ]weekly) (pay|wage|salary|income|gross)", re.I)
HOURS = re.compile(r"(?P<h>\d+(?:\.\d+)?)\s?(hours|hrs|h)\b(\s?(a|per|each)\s?week|\s?pw|/\s?wk|/\s?week)?", re.I)
EMPLOYER_RATE = re.compile(r"\bemployer(?:'?s)?\s+(?:kiwi ?saver\s+)?(?:contributions?\s+|contributes\s+)?(?:of\s+|at\s+|is\s+)?(?P<p>\d+(?:\.\d+)?)\s?%", re.I)
PERCENT = re.compile(r"(?P<p>\d+(?:\.\d+)?)\s?(%|percent\b|per cent\b)", re.I)

_CODES = r"ME SL|M SL|SB SL|S SL|SH SL|ST SL|SA SL|ME|M|SB|SH|ST|SA|S|ND|NSW|CAE|EDW"
TAX_CODE = re.compile(
    r"(?P<pre>tax\s+code(?:\s+is)?|code(?:\s+is)?|on|using|use|under)\s+(?:an?\s+|the\s+)?[\"'“]?(?P<c1>" + _CODES + r")\b(?![\w'])"
    r"|\b(?P<c2>" + _CODES + r")\s+(?:tax\s+)?code\b",
    re.I,
)

BARE_SL_CODE = re.compile(r"(?<![\w'])(?P<c>(?:ME|M|SB|SH|ST|SA|S) SL)(?![\w'])")

TAX_YEAR_EXPLICIT = re.compile(r"\b(?P<a>20\d{2})\s?(?:-|–|—|/|to)\s?(?P<b>20\d{2}|\d{2})\b")
INCOME_YEAR = re.compile(r"\b(?P<y>20\d{2})\s+(?:income|tax|financial)\s+year\b", re.I)
YEAR_ENDING = re.compile(r"\b(?:year\s+)?(?:ending|ended|to)\s+(?:31\s+)?march\s+(?P<y>20\d{2})\b", re.I)
BARE_YEAR = re.compile(r"\b(?:in|for|during|of|since)\s+(?P<y>20\d{2})\b(?!\s?[-–/])", re.I)
RELATIVE_YEAR = {
    -1: re.compile(r"\b(last|previous|prior)\s+(tax\s+|income\s+|financial\s+)?year\b", re.I),
    0: re.compile(r"\b(this|current)\s+(tax\s+|income\s+|financial\s+)?year\b", re.I),
    1: re.compile(r"\bnext\s+(tax\s+|income\s+|financial\s+)?year\b|\bfrom (next )?april\b|\bnext april\b", re.I),
}


@dataclass
class Amount:
    value: Decimal
    frequency: str | None  # weekly … monthly, annual, hourly, or None (not stated)
    text: str
    start: int


@dataclass
class Intent:
    """What the question asks for; the composer turns it into an answer."""

    kind: str  # calculation | topic | clarify | out_of_scope | refused
    question: str
    tax_year: str
    tax_year_source: str  # request | question | history | default
    topics: list[str] = field(default_factory=list)
    scope_topic: str | None = None  # which out-of-scope / refusal topic
    calculation: str | None = None  # a tool name
    arguments: dict = field(default_factory=dict)
    extra_calls: list[tuple[str, dict]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)
    amounts: list[Amount] = field(default_factory=list)
    frequency: str | None = None
    tax_code: str | None = None
    student_loan: bool | None = None
    kiwisaver_rate: float | None = None
    complex_situation: bool = False
    known_year: bool = True
    year_text: str | None = None
    used_history: bool = False


# ---------------------------------------------------------------------------------------------
# Parsing helpers


def money_value(num: str, suffix: str | None, dot_groups_thousands: bool = False) -> Decimal:
    """'85,000' -> 85000; '85 000' -> 85000; '85' + 'k' -> 85000; '1.5' + 'million' -> 1500000;
    '85.000' -> 85000 when `dot_groups_thousands` (a currency sign says it is money, and no
    amount of money is written to a tenth of a cent)."""
    if dot_groups_thousands and not suffix and re.fullmatch(r"[1-9]\d{0,2}(?:\.\d{3})+", num):
        num = num.replace(".", "")
    value = Decimal(num.replace(",", "").replace(" ", ""))
    suffix = (suffix or "").lower()
    if suffix in ("k", "thousand", "grand"):
        value *= 1000
    elif suffix in ("m", "mil", "million"):
        value *= 1_000_000
    return value


def find_amounts(text: str) -> list[Amount]:
    """Money amounts with their pay frequency; years, percentages, hours and counts are skipped."""
    amounts: list[Amount] = []
    text = clean_text(text)
    for m in AMOUNT.finditer(text):
        num, cur, suf, dollars = m.group("num"), m.group("cur"), m.group("suf"), m.group("dollars")
        after = text[m.end():]
        before = text[: m.start()]
        if re.match(r"\s?(%|percent|per cent)", after, re.I):
            continue
        if re.match(r"\s?-?\s?(hours?|hrs?|h\b|weeks?|months?|years?|days?|kids?|children|child|jobs?|of (them|us))", after, re.I) and not cur:
            continue
        if re.match(r"\s?[-–/]\s?\d{2}", after) or re.search(r"\d\s?[-–/]\s?$", before):
            continue  # part of a tax year "2024-25"
        if re.search(r"(?:\bcode|\bir|\bsection|\bs|\bLC|\bMK|\bRD|\bYA)\s?$", before, re.I) and not cur:
            continue  # IR3, s LC 15 …
        if suf and suf.lower() == "m" and not cur and (
                (suf == "M" and text[m.start("suf") - 1].isspace()) or re.match(r"\s?sl\b", text[m.end():], re.I)):
            # "3500 M SL", "880 M": a tax code after the amount, not "million".
            suf, after = None, text[m.end("num"):]
        value = money_value(num, suf, dot_groups_thousands=bool(cur or dollars))
        plain = not (cur or suf or dollars or "," in num)
        if plain:
            # A bare number is money only when large enough not to be a count, and not a year.
            if value < 100:
                continue
            if re.fullmatch(r"(19|20)\d{2}", num) and not re.match(r"\s?(a|per|/)\s?(year|week|month|fortnight|hour)", after, re.I):
                continue
            if re.search(r"(march|april|july|june|may|january|february|august|september|october|november|december)\s+\d{0,2}\s?$", before, re.I):
                continue
        freq = None
        fm = FREQ_AFTER.match(after)
        if fm:
            freq = next(name for name, _ in _FREQ_WORDS if fm.group(name))
        else:
            bm = FREQ_BEFORE.search(before)
            if bm:
                freq = next(name for name in FREQ_BEFORE_WORDS if bm.group(name))
        amounts.append(Amount(value=value, frequency=freq, text=m.group(0).strip(), start=m.start()))
    return amounts


NEGATION = re.compile(r"\b(not|no|never|without|don'?t|doesn'?t|didn'?t|isn'?t|aren'?t|can'?t|cannot|won'?t|"
                      r"shouldn'?t|haven'?t|hasn'?t|wasn'?t|weren'?t)\b", re.I)


@dataclass(frozen=True)
class Reading:
    """What a question says, beyond its words: two questions with the same words but a different
    reading ("do I have to give …" / "don't give …"; $60,000 a month / a year) want different answers."""

    negated: bool
    amounts: frozenset[tuple[Decimal, str | None]]
    frequency: str | None
    tax_code: str | None
    student_loan: bool | None
    kiwisaver_rate: float | None


def reading_of(intent: Intent) -> Reading:
    """The slots of a routed question that a stored answer must share to be served for it."""
    text = intent.question.replace("\u2019", "'")
    return Reading(
        negated=bool(NEGATION.search(text)),
        amounts=frozenset((a.value.normalize(), a.frequency) for a in intent.amounts),
        frequency=intent.frequency,
        tax_code=intent.tax_code,
        student_loan=intent.student_loan,
        kiwisaver_rate=intent.kiwisaver_rate,
    )


def find_tax_code(text: str) -> str | None:
    """A tax code named in the text. After "on"/"use" only upper-case counts ("on M SL", not "on me")."""
    for m in TAX_CODE.finditer(text):
        if m.group("c2"):
            raw, named_as_code = m.group("c2"), True
        else:
            raw = m.group("c1")
            named_as_code = " ".join(m.group("pre").lower().split()).removesuffix(" is") in ("tax code", "code")
        if not named_as_code and raw != raw.upper():
            continue
        return " ".join(raw.upper().split())
    # "$3,500 four-weekly M SL": a code with the SL suffix, in capitals, is unmistakable anywhere.
    m = BARE_SL_CODE.search(text)
    return " ".join(m.group("c").split()) if m else None


def resolve_tax_year(text: str, rules: RuleBook, current: str) -> tuple[str | None, str | None]:
    """(tax year "YYYY-YY", the words it was read from) or (None, None) when the question names none."""
    first_current = int(current[:4])

    def year_from_start(start: int) -> str:
        return f"{start}-{(start + 1) % 100:02d}"

    m = TAX_YEAR_EXPLICIT.search(text)
    if m:
        a, b = int(m.group("a")), m.group("b")
        b_full = int(b) if len(b) == 4 else (a // 100) * 100 + int(b)
        if b_full == a + 1:
            return year_from_start(a), m.group(0)
    m = INCOME_YEAR.search(text) or YEAR_ENDING.search(text)
    if m:
        # IRD names an income year after the March it ends in: the "2025 income year" is 2024-25.
        return year_from_start(int(m.group("y")) - 1), m.group(0)
    for offset, pattern in RELATIVE_YEAR.items():
        m = pattern.search(text)
        if m:
            return year_from_start(first_current + offset), m.group(0)
    m = BARE_YEAR.search(text)
    if m:
        return year_from_start(int(m.group("y"))), m.group(0)
    return None, None


def detect_scope(text: str) -> tuple[str, str] | None:
    """("refused" | "out_of_scope", topic) for questions the engine must not answer."""
    for topic, pattern in REFUSE_PATTERNS.items():
        if pattern.search(text):
            return "refused", topic
    for topic, pattern in OUT_OF_SCOPE_PATTERNS.items():
        if pattern.search(text):
            if topic == "trust" and re.search(r"\b(trust(ed|worthy)?\s+(you|this|the answer)|can i trust)\b", text, re.I):
                continue
            if topic == "company" and re.search(r"\b(my|the) company('s)? (pays?|gives|contribut|deduct|kiwisaver|payroll)", text, re.I):
                continue  # an employee talking about their employer is still personal tax
            return "out_of_scope", topic
    if not IN_SCOPE_WORDS.search(text) and not find_amounts(text):
        if GREETING.match(text):
            return None
        return "out_of_scope", "not_tax"
    return None


def find_topics(text: str) -> list[str]:
    return [topic for topic, pattern in TOPIC_PATTERNS.items() if pattern.search(text)]


# ---------------------------------------------------------------------------------------------
# The router


@dataclass
class _Features:
    amounts: list[Amount]
    frequency: str | None
    hours: Decimal | None
    tax_code: str | None
    student_loan: bool | None
    kiwisaver_rate: float | None
    topics: list[str]
    calc_words: bool
    take_home: bool


def _features(text: str) -> _Features:
    amounts = find_amounts(text)
    freq = None
    fm = FREQ_ANYWHERE.search(text)
    if fm:
        word = (fm.group("f") or fm.group("f2")).lower()
        freq = {"weekly": "weekly", "fortnightly": "fortnightly", "monthly": "monthly"}.get(word)
        if freq is None:
            freq = "fortnightly" if re.search(r"two|2", word) else "four_weekly"
    hours = None
    hm = HOURS.search(text)
    if hm:
        hours = Decimal(hm.group("h"))
    tax_code = find_tax_code(text)
    student_loan: bool | None = None
    if NO_STUDENT_LOAN.search(text):
        student_loan = False
    elif re.search(r"student loans?", text, re.I) or (tax_code and tax_code.endswith("SL")):
        student_loan = True
    ks_rate = None
    if re.search(r"kiwi ?saver", text, re.I):
        pm = PERCENT.search(text)
        if pm:
            ks_rate = float(pm.group("p"))
    return _Features(
        amounts=amounts, frequency=freq, hours=hours, tax_code=tax_code, student_loan=student_loan,
        kiwisaver_rate=ks_rate, topics=find_topics(text), calc_words=bool(CALC_WORDS.search(text)),
        take_home=bool(TAKE_HOME.search(text)),
    )


def _is_rate_question(text: str) -> bool:
    """'What is the ACC levy rate?' is a topic question even though it says 'what is the'."""
    return bool(re.search(r"\b(rates?|thresholds?|brackets?|bands?|eligib\w*|who can|qualif\w*|how does|explain|what does|mean|maximum|minimum|cap)\b", text, re.I))


def route(question: str, history: list[dict] | None, tax_year: str | None, rules: RuleBook) -> Intent:
    """Read a question (and, for follow-ups, the latest turns of history) into an `Intent`."""
    text = clean_text(question)
    current = current_tax_year()
    year, year_text, year_source = tax_year, None, "request" if tax_year else "default"
    if not year:
        year, year_text = resolve_tax_year(text, rules, current)
        year_source = "question" if year else "default"

    scope = detect_scope(text)
    if scope == ("out_of_scope", "not_tax") and history and _continues_conversation(text, year_text):
        # "What about last year?", "what if I'm on ME?": no tax words of its own, but it continues
        # the conversation, which was about tax (an earlier turn that was not, was declined).
        scope = None
    if scope:
        kind, topic = scope
        return Intent(kind=kind, question=text, tax_year=year or current, tax_year_source=year_source, scope_topic=topic,
                      known_year=(year or current) in rules.years, year_text=year_text)

    feats = _features(text)
    history = history or []
    used_history = False
    # A follow-up ("what about with a student loan?") borrows what the latest turns said.
    past = [_features(" ".join(str(t.get("question", "")).split())) for t in reversed(history[-3:])]
    is_follow_up = bool(history) and (bool(FOLLOW_UP.search(text)) or (
        not feats.amounts and not _is_rate_question(text) and len(text.split()) <= 12
        and (feats.student_loan is not None or feats.kiwisaver_rate is not None or feats.tax_code or feats.frequency)))
    inherited_kind = None
    bare_frequency = None
    if is_follow_up and feats.frequency is None and not feats.amounts:
        bare = BARE_FREQUENCY.search(text)
        if bare:
            bare_frequency = BARE_FREQUENCY_NAMES[bare.group(0).lower().replace("-", " ").replace("4", "four")]
    if is_follow_up:
        for p in past:
            if p.amounts and not feats.amounts:
                feats.amounts, used_history = p.amounts, True
                per_pay = bool(p.tax_code or "paye" in p.topics or p.frequency in PAY_FREQUENCIES
                               or any(a.frequency in PAY_FREQUENCIES for a in p.amounts))
                if bare_frequency and per_pay:
                    # "And fortnightly?" after "PAYE on $2,500 on M": the same pay, at this frequency.
                    feats.amounts = [Amount(a.value, bare_frequency, a.text, a.start) for a in p.amounts]
                feats.frequency = feats.frequency or p.frequency
                feats.hours = feats.hours or p.hours
                feats.calc_words = True
                inherited_kind = "take_home" if p.take_home else None
            if feats.tax_code is None and p.tax_code and not feats.student_loan:
                feats.tax_code = p.tax_code
            if feats.kiwisaver_rate is None and p.kiwisaver_rate is not None:
                feats.kiwisaver_rate = p.kiwisaver_rate
            if feats.student_loan is None and p.student_loan is not None:
                feats.student_loan = p.student_loan
            if not feats.topics and p.topics:
                feats.topics = list(p.topics)
            if year_source == "default" and history:
                y, _ = resolve_tax_year(" ".join(str(t.get("question", "")) for t in history[-3:]), rules, current)
                if y:
                    year, year_source = y, "history"
            if used_history:
                break
        if inherited_kind == "take_home":
            feats.take_home = True

    intent = Intent(
        kind="topic", question=text, tax_year=year or current, tax_year_source=year_source, topics=feats.topics,
        amounts=feats.amounts, frequency=feats.frequency, tax_code=feats.tax_code, student_loan=feats.student_loan,
        kiwisaver_rate=feats.kiwisaver_rate, year_text=year_text, used_history=used_history,
    )
    intent.known_year = intent.tax_year in rules.years
    if re.search(r"rental|landlord|self[- ]employ|contract(or|ing)|overseas income|foreign income|shares|crypto|"
                 r"dividends|business income|more than one (income|source)", text, re.I) or len(feats.amounts) > 1:
        intent.complex_situation = True

    if GREETING.match(text):
        intent.kind, intent.missing = "clarify", ["question"]
        return intent

    # "What is the tax rate for income between $50,000 and $70,000?" asks about the rates, not a sum.
    asks_rates = bool(re.search(r"\b(rates?|brackets?|bands?|thresholds?)\b", text, re.I))
    wants_calc = bool(feats.amounts) and (not _is_rate_question(text) or (
        (feats.calc_words or feats.take_home) and not asks_rates))
    if wants_calc:
        _plan_calculation(intent, feats, text)
        return intent
    if feats.calc_words and not _is_rate_question(text) and not feats.amounts and _asks_for_own_figure(text):
        intent.kind = "clarify"
        intent.missing = ["income"]
        return intent
    if "tax_codes" in feats.topics and re.search(r"\b(which|what) (tax )?code (should|do|must|will)\b|\bshould i (use|choose|pick|be on)\b|"
                                                  r"\bwhat tax code (should|do)\b|\bm or me\b", text, re.I):
        intent.kind = "clarify"
        intent.missing = ["situation"]
        return intent
    intent.kind = "topic"
    return intent


def _continues_conversation(text: str, year_text: str | None) -> bool:
    """A short follow-up that names something the router reads (a year, code, frequency, loan, KiwiSaver)."""
    if len(text.split()) > FOLLOW_UP_MAX_WORDS:
        return False
    named = bool(year_text or find_tax_code(text) or NO_STUDENT_LOAN.search(text)
                 or BARE_FREQUENCY.search(text))
    return named or (bool(FOLLOW_UP.search(text)) and bool(find_amounts(text)))


def _asks_for_own_figure(text: str) -> bool:
    return bool(re.search(r"\b(i|my|me)\b", text, re.I)) or bool(re.search(r"\bhow much (tax|paye)\b", text, re.I))


def _annual_from(amount: Amount, frequency: str | None, hours: Decimal | None) -> tuple[Decimal | None, str]:
    freq = amount.frequency or frequency or "annual"
    if freq == "hourly":
        return None, freq
    return amount.value * PERIODS_PER_YEAR[freq], freq


def _plan_calculation(intent: Intent, feats: _Features, text: str) -> None:
    """Pick the calculator and its arguments; note what is missing or assumed."""
    intent.kind = "calculation"
    amount = feats.amounts[0]
    freq = amount.frequency or feats.frequency
    if freq == "hourly":
        if feats.hours is None:
            intent.kind, intent.missing = "clarify", ["hours"]
            return
        amount = Amount(value=amount.value * feats.hours, frequency="weekly", text=amount.text, start=amount.start)
        freq = "weekly"
        intent.assumptions.append(f"{feats.hours.normalize():f} hours a week")
    if len(feats.amounts) > 1 and not re.search(r"donat|pie|pir|kiwi ?saver", text, re.I):
        # Several incomes: tax is on the total taxable income.
        total = sum((_annual_from(a, feats.frequency, feats.hours)[0] or Decimal(0)) for a in feats.amounts)
        amount = Amount(value=total, frequency="annual", text="total", start=0)
        freq = "annual"
        intent.assumptions.append("the amounts added together as one year's taxable income")
    intent.frequency = freq
    year = intent.tax_year
    per_period = freq in PAY_FREQUENCIES
    annual = amount.value * PERIODS_PER_YEAR.get(freq or "annual", 1)
    code = feats.tax_code
    topics = feats.topics
    lower = text.lower()

    def money(value: Decimal) -> float:
        return float(value)

    if "donations" in topics:
        income_amounts = [a for a in feats.amounts[1:]]
        if not income_amounts:
            intent.kind, intent.missing = "clarify", ["taxable_income_for_donations"]
            intent.calculation = "calculate_donation_tax_credit"
            return
        intent.calculation = "calculate_donation_tax_credit"
        intent.arguments = {"donations": money(feats.amounts[0].value), "taxable_income": money(_annual_from(income_amounts[0], None, None)[0]), "tax_year": year}
        return
    if "pir" in topics:
        if len(feats.amounts) < 2:
            intent.kind, intent.missing = "clarify", ["pie_income"]
            intent.calculation = "find_prescribed_investor_rate"
            return
        intent.calculation = "find_prescribed_investor_rate"
        intent.arguments = {"taxable_income": money(feats.amounts[0].value), "pie_income": money(feats.amounts[1].value), "tax_year": year}
        return
    if "secondary" in topics and not feats.take_home and not (code and per_period):
        intent.calculation = "choose_secondary_tax_code"
        intent.arguments = {"total_annual_income": money(annual), "student_loan": bool(feats.student_loan), "tax_year": year}
        return
    if "ietc" in topics:
        intent.calculation = "calculate_ietc"
        intent.arguments = {"annual_income": money(annual), "tax_year": year}
        return
    if "acc" in topics and not feats.take_home and "paye" not in topics:
        intent.calculation = "calculate_acc_levy"
        intent.arguments = {"income": money(annual), "tax_year": year}
        return
    if ("kiwisaver" in topics or "esct" in topics) and not feats.take_home and not code and re.search(r"kiwi ?saver (contribution|deduction)|contribut|employer|esct|government", lower):
        args = {"gross_pay": money(amount.value), "tax_year": year}
        if per_period:
            args["pay_frequency"] = freq
        else:
            args["pay_frequency"] = "annual"
        employer = EMPLOYER_RATE.search(text)
        if employer:
            args["employer_rate"] = float(employer.group("p"))
        if feats.kiwisaver_rate is not None and not (employer and employer.group("p") == f"{feats.kiwisaver_rate:g}"):
            args["employee_rate"] = feats.kiwisaver_rate
        intent.calculation = "calculate_kiwisaver"
        intent.arguments = args
        return
    if "student_loan" in topics and not feats.take_home and feats.student_loan and not code and re.search(r"repay|student loan (deduction|payment)|pay (back|off)|how much .*student loan|student loan .*how much", lower):
        intent.calculation = "calculate_student_loan_repayment"
        intent.arguments = {"income": money(annual), "tax_year": year}
        return

    if per_period or code or "paye" in topics:
        if not per_period:
            # A code with an annual figure: IRD's PAYE works per pay; show a fortnightly pay.
            intent.calculation = "calculate_take_home_pay"
            args = {"annual_salary": money(annual), "tax_year": year}
            if code:
                base = code.replace(" SL", "")
                if base in ("M", "ME"):
                    args["tax_code"] = base
                else:
                    # A secondary or flat code works per pay on a flat rate: show one month's pay
                    # (a twelfth of the yearly amount, to the cent).
                    monthly = (annual / PERIODS_PER_YEAR["monthly"]).quantize(Decimal("0.01"))
                    intent.calculation = "calculate_paye"
                    intent.arguments = {"gross_pay": money(monthly), "pay_frequency": "monthly", "tax_code": code, "tax_year": year}
                    intent.assumptions.append("paid monthly, a twelfth of the yearly amount each month")
                    return
            if feats.student_loan:
                args["student_loan"] = True
            if feats.kiwisaver_rate is not None:
                args["kiwisaver_rate"] = feats.kiwisaver_rate
            intent.arguments = args
            return
        if code is None:
            code = "M SL" if feats.student_loan else "M"
            intent.assumptions.append(f"tax code {code} (your main job, no independent earner tax credit)")
        elif feats.student_loan and not code.endswith("SL") and code not in ("ND", "NSW", "CAE", "EDW"):
            code = f"{code} SL"
        args = {"gross_pay": money(amount.value), "pay_frequency": freq, "tax_code": code, "tax_year": year}
        if feats.kiwisaver_rate is not None:
            args["kiwisaver_rate"] = feats.kiwisaver_rate
        intent.calculation = "calculate_paye"
        intent.arguments = args
        return

    if feats.take_home or feats.student_loan or feats.kiwisaver_rate is not None:
        args = {"annual_salary": money(annual), "tax_year": year}
        if feats.student_loan:
            args["student_loan"] = True
        if feats.kiwisaver_rate is not None:
            args["kiwisaver_rate"] = feats.kiwisaver_rate
        intent.calculation = "calculate_take_home_pay"
        intent.arguments = args
        return
    intent.calculation = "calculate_income_tax"
    intent.arguments = {"taxable_income": money(annual), "tax_year": year}
