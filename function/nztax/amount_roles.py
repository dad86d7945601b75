"""The role of an amount of money from the words next to it.

In: the text and an amount's span (or the amounts found). Out: a role — income, second job, partner,
donation, deduction, expense, contribution, value, balance, threshold, a figure someone worked out
("claimed") … — for each amount (`_role_of`), and the passes that revise roles from the whole sentence
(balances, a list of costs, thresholds named, figures claimed by a payslip or a calculator).
"""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal

from nztax.rules import PAY_FREQUENCIES
from nztax.settings import get_settings
from nztax.cue_words import alternatives
from nztax.amount_grammar import (_FREQ_AFTER, FIGURE_JUST_BEFORE, LABELS_NEXT_AMOUNT, LEADS_ANOTHER_AMOUNT, MONEY_FIGURE,
                                  Money, NOUN_AFTER, TAX_SAID_TAKEN, _clause_start, given_for_one_amount,
                                  tax_taken_after)
from nztax.literal_screen import screen_patterns

# A saving scheme or account, with the word before it ("my KiwiSaver", "the super fund"), and the word
# that puts money in it ("into", "to").
_DETERMINER = r"(?:(?:" + alternatives("scheme_determiners") + r")\s+)?"
_SCHEME = _DETERMINER + r"(?:" + alternatives("saving_schemes") + r")\b"
_PUT_INTO = r"(?:" + alternatives("put_into_words") + r")\s+"
# A figure put to or into a scheme is a contribution, a period between ("$800 to KiwiSaver", "$50 a week into
# KiwiSaver", "$1.2k into my super fund").
SCHEME_AFTER = r"(?:(?:" + "|".join(p for _, p in _FREQ_AFTER) + r")\s+)?" + _PUT_INTO + _SCHEME
# A figure put into a savings account or a term deposit: money saved, not income (nor a scheme's contribution),
# unless being paid or earning is said right before it ("I get paid $900 into my savings account").
ACCOUNT_AFTER = re.compile(_PUT_INTO + _DETERMINER + r"(?:" + alternatives("saving_accounts") + r")\b", re.I)
# Being paid, said right before an amount.
PAID_BEFORE = re.compile(alternatives("paid_before"), re.I)
ROLE_WORDS = [
    # (role, the words near an amount that give it that role: data/amount_words.yaml). The nearest
    # match wins, before the amount first.
    ("income", alternatives("income_words")),
    ("donation", alternatives("donation_words")),
    ("contribution", alternatives("contribution_words") + "|" + SCHEME_AFTER),
    ("pie_income", alternatives("pie_income_words")),
    ("partner", alternatives("partner_words")),
    ("second_job", alternatives("second_job_words")),
    ("total", alternatives("total_words")),
    ("main_job", alternatives("main_job_words")),
    ("deduction", alternatives("deduction_words")),
    ("deduction_label", r"(?:" + alternatives("deduction_label_words") + r")(?=\s*[:|=]?\s*\$?$)"),
    ("expense_label", alternatives("expense_label_words")),
    ("other_label", r"employer (?:" + alternatives("other_label_words") + r")\s+\d+(?:\.\d+)?%(?=\s*[:|=]?\s*\$?$)"),
    ("household", alternatives("household_words")),
    ("expense", alternatives("expense_words")),
    ("investment_income", alternatives("investment_income_words")),
    ("takings", alternatives("takings_words")),
    ("rent_received", alternatives("rent_received_words")),
    ("other_income", alternatives("other_income_words")),
    ("other", alternatives("other_words")),
    ("value", alternatives("value_words")),
]
# Taxable income besides pay from work: a side business's profit, a bonus, interest, rent.
OTHER_INCOME_ROLES = ("other_income", "investment_income")
# Takings before costs, and the income that is left of them after the costs: a business's profit
# is earnings (the ACC levy is charged on it), a rental's is not.
GROSS_ROLES = {"takings": "other_income", "rent_received": "investment_income"}
# Costs that come off takings, not a purchase price or the rent someone pays where they live.
BUSINESS_COSTS = re.compile(r"\b(?:" + alternatives("business_cost_words") + r")\b", re.I)
INCOME_ROLE_HANDICAP = 20  # characters
# Earning said right before an amount ("only earned 2,700", "monthly pay 3900"), and of that, a pay
# named ("salary 60k"), which beats any other kind of income.
_PAY_NAMED = alternatives("pay_named")
_RIGHT_BEFORE = r"\s*(?:" + alternatives("figure_joiners") + r")?\s*(?:" + alternatives("earned_figure_hedges") + r")?\s*\$?$"
EARNED_RIGHT_BEFORE = re.compile(r"\b(?:" + alternatives("earning_words") + "|" + _PAY_NAMED + ")" + _RIGHT_BEFORE, re.I)
SALARY_RIGHT_BEFORE = re.compile(rf"\b(?:{_PAY_NAMED}){_RIGHT_BEFORE}", re.I)
LINKING_WORD = re.compile(r"(?:" + alternatives("linking_words") + r")\b", re.I)
# Nouns of a kind of income that may follow the amount after one word ("bank interest", "cash bonus").
ONE_WORD_BEFORE_ROLES = frozenset({"investment_income", "other_income", "donation"})
# Roles of money that is not earned: earning said right before the amount beats them however near they are.
# The role of a line a rule compares against (a threshold, a limit, a cap): never a figure worked on.
RULE_LINE_ROLE = "threshold"
NOT_EARNED_ROLES = frozenset({"donation", "expense", "contribution", "deduction", "other", "value", RULE_LINE_ROLE})
# Roles that say which job or whose pay it is: nothing right before the amount overrides them.
JOB_ROLES = frozenset({"main_job", "second_job", "total", "partner", "household"})
# Roles a later amount in the same list takes on when it has no words of its own.
LISTED_ROLES = frozenset({"donation", "expense", "contribution", "investment_income"})
LIST_JOIN = re.compile(r"[^.?!\d$]{0,40}?(?:,|\band\b|&|\bplus\b)\s*", re.I)
# An amount that came off is a deduction; one a question asks what comes off is the pay asked
# about. Before an amount, only a label right next to it counts.
AFTER_ONLY_ROLES = frozenset({"deduction"})
# What may stand between such a label and its amount: "PAYE 612.40", "PAYE: 612.40", "PAYE of $171.50".
LABEL_JOINERS = frozenset({"", ":", "-", "=", "of", "was", "is", "of about", "of around"})
# A statement's label may name its tax and then what the figure sums ("PAYE total: $55,038.24", "PAYE
# YTD $4,210"): the same label as "Total PAYE:", so the words for a sum (`label_sum_words`) are skipped.
LABEL_SUM = re.compile(r"\s*(?:" + alternatives("label_sum_words") + r")\b", re.I)
# A tax code right after an amount ("$3,200 M code", "880 on ME"): the amount is the pay it applies to.
CODE_RIGHT_AFTER = re.compile(r"\s?(?:on\s+)?(?:m|me|s|sb|sh|st|sa|nd)(?:\s?sl)?\s+(?:tax\s+)?code\b|\s?(?:on\s+)?(?:m|me)\s?sl\b", re.I)
# An amount said to be taken out is a deduction; a pay followed by its code and a question is asked about.
ASKING_WORD = re.compile(r"\b(?:" + alternatives("asking_words") + r")\b", re.I)
# An amount in rent is rent received, unless the person says they pay it.
RENT_AFTER = re.compile(r"(?:(?:a|per|each|every) (?:week|fortnight|month|year)\s+|p/?w\s+|weekly\s+)?(?:in\s+)?rent(?:al)?\b(?! (?:income|profit))", re.I)
RENT_PAID = re.compile(r"\b(?:" + alternatives("rent_paid_words") + r")\b", re.I)
# Contribution words right next to an amount make it a contribution; a rate contributed on a pay does not.
ADJACENT_ONLY_ROLES = frozenset({"contribution"})
ADJACENT = 3  # characters between the words and the amount
# What may stand between a contribution word and its figure and still leave it right before it: the scheme,
# a joining word, a hedge ("contributed about $800", "my contributions to KiwiSaver were $800", "topped up
# my super fund with $1.2k").
CONTRIBUTION_LEAD = re.compile(r"\s*(?:(?:" + _PUT_INTO + r")?" + _SCHEME + r"\s*)?(?:(?:" + alternatives("contribution_joiners")
                               + r")\b\s*)?(?:(?:" + alternatives("spoken_figure_hedges") + r")\b\s*)?(?:nz)?\$?\s*", re.I)
# "Worth" before an amount says what something is worth; after it, it asks whether something is worthwhile.
BEFORE_ONLY_ROLES = frozenset({"value", "deduction_label", "expense_label", "other_label"})
# Labels read only before their figure, and the role each gives it.
LABEL_ROLES = {"deduction_label": "deduction", "expense_label": "expense", "other_label": "other"}
ROLE_PATTERNS = [(role, re.compile(rf"\b(?:{p})\b", re.I)) for role, p in ROLE_WORDS]


def _after_label(window: str, end: int) -> str:
    """What stands between a label ending at `end` and its figure, past a word for what it sums."""
    summed = LABEL_SUM.match(window, end)
    return window[summed.end() if summed else end:].strip()
SECOND_JOB_WORDS = dict(ROLE_PATTERNS)["second_job"]
NEGATED_JOB = re.compile(r"\b(?:" + alternatives("negated_job_words") + r")\s+$", re.I)
# A job said to be the only one is the one job there is, not a second one (an only other job still
# names another).
ONLY_JOB_BEFORE = re.compile(r"\b(?:" + alternatives("only_job_before") + r")\s+$", re.I)
NOT_ONE_MORE = re.compile(r"(?:" + alternatives("one_more_job_words") + r")\b", re.I)


def names_no_second_job(text: str, match: re.Match) -> bool:
    """A second-job word that says there is none ("no other job") or that this is the only one."""
    before = text[:match.start()]
    return bool(NEGATED_JOB.search(before) or ONLY_JOB_BEFORE.search(before) and not NOT_ONE_MORE.match(match.group(0)))


RULE_FIGURE_AFTER = re.compile(r"(?:" + alternatives("rule_figure_words") + r")\b", re.I)
# The determiner right before a rule's own figure ("the $50,000"), a currency sign between.
RULE_FIGURE_BEFORE = re.compile(r"\b(?:" + alternatives("rule_figure_determiners") + r")\s*\$?$", re.I)
# A line a rule compares against (a threshold, a limit, a cap) named after "the <figure>", with up to two
# words between ("the $180k top-rate threshold", "the $5,000 de minimis cap"), or right before the figure ("the
# threshold of $50,000", "limit: 50k"): the rule's figure, even when it is the only one in the question.
RULE_LINE = alternatives("rule_line_words")
RULE_LINE_AFTER = re.compile(r"(?:[a-z][\w-]*\s+){0,2}?(?:" + RULE_LINE + r")s?\b", re.I)
RULE_LINE_BEFORE = re.compile(r"\b(?:" + RULE_LINE + r")s?\s*(?:(?:" + alternatives("rule_line_before")
                              + r")\s*|[:=]\s*)?(?:nz)?\$?$", re.I)
ASSET_AFTER = re.compile(r"(?:" + alternatives("asset_words") + r")\b(?!\s+(?:account\s+)?(?:"
                         + alternatives("asset_income_words") + r"))", re.I)
# An organisation named as the owner right before a figure ("the firm's $400,000").
ORGANISATIONS_FIGURE = re.compile(r"\b(?:" + alternatives("organisation_before_a_figure") + r")'s\s*(?:nz)?\$?$", re.I)
# A day rate, and how many days it is paid for.
DAY_RATE = re.compile(r"^\s*(?:" + alternatives("day_rate_after") + r")\b", re.I)
DAYS_WORKED = re.compile(r"\b(?P<d>\d{1,3})\s+(?:(?:" + alternatives("days_worked_kinds") + r")\s+)?days?\b(?!\s+(?:"
                         + alternatives("days_not_worked_after") + r"))", re.I)


def _role_of(text: str, start: int, end: int, skip: str | None = None, default: str | None = "income") -> str | None:
    # The noun right after the amount, else the nearest money-role words, before the amount first
    # (in its clause), then just after.
    lead_in = NOUN_AFTER.match(text[end:])
    directly_after = text[end + lead_in.end(): end + lead_in.end() + 30]
    unbracketed, clause_start = _clause_start(text, start)
    before = re.sub(r"\s{2,}", " ", unbracketed[clause_start:start])[-45:]
    if ORGANISATIONS_FIGURE.search(before):
        return "other"  # an organisation's own figure ("the firm's $400,000 of fees"), whatever follows it
    if ASSET_AFTER.match(directly_after) and not EARNED_RIGHT_BEFORE.search(before):
        return "other"  # an asset named right after: a price, not an income (unless a pay is named right before)
    if ACCOUNT_AFTER.match(directly_after) and not (EARNED_RIGHT_BEFORE.search(before) or PAID_BEFORE.search(before)):
        return "other"  # money put into a savings account, not a pay paid into one
    if TAX_SAID_TAKEN.match(text[end:]) and not TAX_ON_BEFORE.search(before):
        return "deduction"  # tax said to have been taken ("was taken off"), before "was" reads as a tax figure
    if TAX_FIGURE_AFTER.match(text[end:]) and not TAX_ON_BEFORE.search(before):
        return "other"  # tax named right after: a tax figure, not the income (tax on an amount names the income)
    if tax_taken_after(text[end:]) is not None and not TAX_ON_BEFORE.search(before):
        return "deduction"  # "$534 tax for the fortnight", "$190 of tax comes off": tax taken, never a pay
    if RULE_FIGURE_BEFORE.search(before) and RULE_LINE_AFTER.match(directly_after):
        return RULE_LINE_ROLE  # a threshold, a limit or a cap named after "the <figure>"
    if RULE_FIGURE_AFTER.match(directly_after) and RULE_FIGURE_BEFORE.search(before):
        return "value"  # a rule's own figure (a credit, an allowance) named right after
    if RENT_AFTER.match(directly_after) and skip != "rent_received":
        return "expense" if RENT_PAID.search(before) else "rent_received"
    # (One word may stand between the amount and its noun.)
    after_one_word = "" if LINKING_WORD.match(directly_after) else re.sub(r"^[\w-]+\s+", "", directly_after, count=1)
    for role, pattern in ROLE_PATTERNS:
        if role in BEFORE_ONLY_ROLES or role == skip:
            continue
        m = pattern.match(directly_after) or (role in ONE_WORD_BEFORE_ROLES and pattern.match(after_one_word))
        if m and not (role == "income" and m.group(0).lower() == "on a") \
                and not LABELS_NEXT_AMOUNT.match(directly_after, m.end()):
            # (Money spent on something is not a pay; words that lead the next amount are not this one's.)
            return role
    if RULE_LINE_BEFORE.search(before):
        return RULE_LINE_ROLE  # a threshold, a limit or a cap named right before ("the threshold of $50,000")
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
                if role in AFTER_ONLY_ROLES and window is before and (_after_label(window, m.end()) not in LABEL_JOINERS
                                                                      or ASKING_WORD.search(window[:m.start()])
                                                                      or CODE_RIGHT_AFTER.match(text[end:])):
                    continue  # only a label right before it counts (a label before a pay and its code asks)
                if role in AFTER_ONLY_ROLES and window is before:
                    distance = 0  # right before it, or only a word for what it sums between ("PAYE total")
                if role in ADJACENT_ONLY_ROLES and distance > ADJACENT:
                    if window is not before or not CONTRIBUTION_LEAD.fullmatch(window, m.end()):
                        continue
                    distance = 0  # only its scheme, a joining word or a hedge between: right before it
                if role in AFTER_ONLY_ROLES and window is not before and ASKING_WORD.search(window[:m.start()]):
                    continue  # the question's own words about what it asks
                if role in ("second_job", "main_job") and names_no_second_job(window, m):
                    continue  # a job negated or said to be the only one: there is no second one
                if window is not before and LEADS_ANOTHER_AMOUNT.match(text, end + m.end()):
                    continue  # the words lead the next amount: they are its own
                if window is not before and MONEY_FIGURE.search(window[:m.start()]):
                    continue  # another amount stands between: the words are that amount's
                if window is before and FIGURE_JUST_BEFORE.search(window[:m.start()]):
                    continue  # a figure just before the words: they describe that figure
                # Plain income words lose near-ties to a specific role (a main or second job).
                distance += INCOME_ROLE_HANDICAP if role == "income" else 0
                if best is None or distance < best[0]:
                    best = (distance, role)
        if best:
            if earned_right_before and (best[1] in NOT_EARNED_ROLES
                                        or best[1] not in JOB_ROLES and SALARY_RIGHT_BEFORE.search(before)):
                # The income word right before it wins over a role named further away (but a business
                # named as what earned it keeps the business's role).
                return "income"
            return LABEL_ROLES.get(best[1], best[1])
    return default


# A couple's income put together (together, combined, between us).
COUPLE_TOGETHER = re.compile(alternatives("couple_together"), re.I)


# Work besides a main job (also, on the side, weekends, evenings, casual).
ALSO_WORK = re.compile(r"\b(?:" + alternatives("also_work_words") + r")\b", re.I)
# One of two offers asked about by its figure.
ONE_OF_THEM_PICKED = re.compile(r"\b(?:" + alternatives("one_picked_before") + r")\s+" + alternatives("one_picked_determiners")
                                + r"\s+\$?(?P<num>\d[\d,]*(?:\.\d+)?)\s?(?P<suf>k)?\s+(?P<noun>" + alternatives("one_picked_nouns")
                                + r")\b", re.I)
BARE_NUMBER_QUESTIONED = " on its own could be dollars a year, a week or an hour"
HOUSEHOLD_QUESTIONED = "income tax is worked out for each person on their own income, not for a couple or household together"


RESTATED_IN_BRACKETS = re.compile(r"^\s*[(\[]\s*(?:" + alternatives("restating_words") + r")?\s*\$?$", re.I)
# Words that make two equal amounts two things: "plus", "each", "also", "both", "two jobs".
# ("total" does not: a total equal to an amount said before is that amount, said again.)
TWO_OF_THEM = re.compile(r"\b(?:" + alternatives("two_of_them_words") + r")\b", re.I)
# The words of a question right before an amount: the amount is asked about.
ASKED_ABOUT_AGAIN = re.compile(r"\b(?:" + alternatives("asked_again_words") + r")\b[^.?!$\d]*\b(?:" + alternatives("asked_again_on")
                               + r")\s*$", re.I)


# How far before an amount find_money reads its leading words (characters).
LOOKBACK = 64


# A figure asked for each pay, on a year's income written in thousands, typed as a search. (A
# dollar amount written out in full beside a pay period is still questioned.)
FIGURE_ASKED_BEFORE = re.compile(r"\b(?:" + alternatives("figure_asked_words") + r")(?:\s+(?:" + alternatives("figure_asked_on")
                                 + r"))?\s*$", re.I)
PAY_NOUN_AFTER = re.compile(r"^\s*(?:" + alternatives("pay_nouns_after") + r")\b", re.I)


def _a_year_asked_per_pay(text: str, amount: Money) -> Money:
    if (amount.period in PAY_FREQUENCIES and amount.period_stated and re.match(r"\d[\d.]*\s?k\b", amount.text.lstrip("$ "), re.I)
            and FIGURE_ASKED_BEFORE.search(text[max(0, amount.start - 20):amount.start])
            and not PAY_NOUN_AFTER.match(text[amount.end:])):
        limit = get_settings().plausible_pay_per_period.get(amount.period)
        if limit is not None and amount.value > Decimal(str(limit)):
            return replace(amount, period="annual", period_stated=False)
    return amount


# Money held, not earned: an amount in deposits, a fund or an account (its currency's code may come between).
BALANCE_AFTER = re.compile(r"^\s*(?:(?-i:[A-Z]{3})\s+)?(?:" + alternatives("held_verbs") + r")?" + alternatives("held_in")
                           + r"(?:" + alternatives("held_in_determiners") + r")?(?:"
                           + alternatives("holdings") + r")", re.I)
# What a fund earned in the same clause: what it made, not what is in it.
EARNED_IN_CLAUSE = re.compile(r"\b(?:" + alternatives("earned_in_clause_words") + r")\b", re.I)
BALANCE_BEFORE = re.compile(r"\b(?:" + alternatives("balance_words") + r")\b[^.?!$\d]{0,12}$", re.I)


def _balances(text: str, amounts: list[Money]) -> list[Money]:
    """An amount held in an account or fund is a balance: never an income (its interest may be)."""
    return [replace(a, role="balance") if a.role in ("income", "other", "total")
            and (BALANCE_AFTER.match(text[a.end:]) and not EARNED_IN_CLAUSE.search(re.split(r"[.?!;]", text[:a.start])[-1])
                 or BALANCE_BEFORE.search(text[max(0, a.start - 40):a.start])) else a
            for a in amounts]


# A figure the post works out under a label ("ACC levy = $52,000 x 1.6% = $832"): the label's
# words (its sentence before the first "=") say what it is. A tax or a levy worked out is tax taken; a
# refund, a fee or a balance is money not earned. Either way it is not an income to work on.
WORKED_LABEL_ROLES = (("deduction", re.compile(r"\b(?:" + alternatives("worked_tax_label") + r")\b", re.I)),
                      ("other", re.compile(r"\b(?:" + alternatives("worked_other_label") + r")\b", re.I)))
# A sentence's end (not a decimal point).
SENTENCE_STOP = re.compile(r"[.?!;](?=\s|$)")
# An amount a rate is applied to ("$52,000 x 1.6%", "($52,000 - $14,000) x 17.5%"): the base
# of the worked figure, not it.
TIMES_A_RATE = re.compile(r"(?:[^=();?!.]|\.\d)*?\)?\s*[x*×]\s*\d+(?:\.\d+)?\s?%", re.I)


# What may stand between an "=" and the figure it works out: sums of figures and rates, no words.
ARITHMETIC = re.compile(r"[\s\d$,.+\-–*×x/()%]*", re.I)


def _label_of(sentence: str) -> str | None:
    """The label a figure at the end of `sentence` is worked out under: the words before the chain of
    "= sum = sum =" that leads to it ("ACC levy" in "ACC levy = $52,000 x 1.6% = "), or None."""
    parts = sentence.split("=")
    if len(parts) < 2 or not ARITHMETIC.fullmatch(parts[-1]):
        return None
    return next((p for p in reversed(parts[:-1]) if not ARITHMETIC.fullmatch(p)), None)


def _worked_under_a_label(text: str, found: list[Money]) -> list[Money]:
    """Each income-like figure worked out under a label takes the role the label names, when it names one."""
    out = []
    for a in found:
        label = _label_of(SENTENCE_STOP.split(text[:a.start])[-1])
        if label is not None and a.role in ("income", "other", "total") and not TIMES_A_RATE.match(text, a.end):
            role = next((r for r, words in WORKED_LABEL_ROLES if words.search(label)), None)
            if role is not None:
                a = replace(a, role=role, questioned=None)
        out.append(a)
    return out


# What a list of costs came to.
COSTS_CAME_TO = re.compile(r"\b(?:" + alternatives("costs_came_to_words") + r")\s*(?:" + alternatives("rough_figure_words")
                           + r")?\s*\$?$", re.I)


def _sentence_before(text: str, a: Money) -> str:
    """The words of an amount's sentence before it."""
    return re.split(r"[.?!;]", text[:a.start])[-1]


def _a_list_of_costs_came_to(text: str, a: Money) -> bool:
    sentence = _sentence_before(text, a)
    return bool(COSTS_CAME_TO.search(sentence) and BUSINESS_COSTS.search(sentence) and not EARNED_RIGHT_BEFORE.search(sentence))


# An amount said to be what is left after costs is a profit, whether the words follow it or lead to it.
_AFTER_COSTS = r"(?:" + alternatives("net_of_costs_words") + ")"
NET_OF_COSTS_BEFORE = re.compile(r"\b" + _AFTER_COSTS + r"[^.?!\d$]{0,40}$", re.I)
NET_OF_COSTS_AFTER = re.compile(r"^(?:\s+(?:a|per|each)\s+(?:year|yr|week|month))?\s+" + _AFTER_COSTS, re.I)


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
            a = replace(a, role="pie_income", questioned=None)  # PIE income is the sentence's subject
        elif a.role in ("expense", "income") and (NET_OF_COSTS_AFTER.match(text[a.end:]) or a.role == "expense" and NET_OF_COSTS_BEFORE.search(text[:a.start])):
            a = replace(a, role="other_income")  # an amount after costs: a profit
        elif a.role == "contribution" and EMPLOYER_PUTS_IN.search(text[max(0, a.start - 40):a.start]):
            a = replace(a, role="other")  # the employer's contribution: not their own
        out.append(a)
    return out


EMPLOYER_PUTS_IN = re.compile(r"\b(?:" + alternatives("employer_words") + r")\b[^.?!$\d]{0,15}\b(?:"
                              + alternatives("employer_puts_in_words") + r")\b[^.?!$\d]{0,12}$", re.I)


# A line someone's income is compared with (over, under, above a threshold), not a second income
# (unless it is the only one).
COMPARED_WITH = re.compile(r"\b(?:" + alternatives("compared_with_words") + r")\s*(?:"
                           + alternatives("compared_with_determiners") + r")?$", re.I)


def _thresholds_named(text: str, found: list[Money]) -> list[Money]:
    incomes = [a for a in found if a.is_income]
    if len(incomes) < 2:
        return found
    compared = [a for a in incomes if COMPARED_WITH.search(text[max(0, a.start - 15):a.start])
                and not EARNED_RIGHT_BEFORE.search(COMPARED_WITH.sub("", text[max(0, a.start - 40):a.start]).rstrip())]
    if not compared or len(compared) == len(incomes):
        return found
    return [replace(a, role="other") if a in compared else a for a in found]


# A figure the person (or an app, a friend, an accountant) worked out and asks us to check: the
# answer to compare with, never an income.
CLAIMED_BEFORE = re.compile(alternatives("claimed_before"), re.I)
GUESSED_BEFORE = re.compile(r"(?:" + alternatives("guessed_before_words") + r")\s*\$?$", re.I)
# What a payslip says is the pay and its deductions, not a figure someone worked out.
PAYSLIP_SAYS = re.compile(r"\b(?:" + alternatives("payslip_words") + r")\b[^.?!$]{0,20}\b(?:"
                          + alternatives("payslip_says_words") + r")\b", re.I)
PAY_WORDS_AFTER = re.compile(r"\s*(?:" + alternatives("pay_words_after") + r")\b", re.I)
INCOME_RIGHT_BEFORE = re.compile(r"\b(?:" + alternatives("income_right_before_words")
                                 + r")\b\s*(?:(?:" + alternatives("figure_joiners") + r")\s+)?(?:(?:"
                                 + alternatives("spoken_figure_hedges") + r")\s*)?$", re.I)
# Asking whether a figure is right ("look right", "sound right" included).
ASKS_IF_RIGHT = re.compile(r"\b(?:" + alternatives("asks_if_right") + r")\b", re.I)


def _claimed_figures(text: str, found: list[Money]) -> list[Money]:
    """In a question asking whether something is right, the figures it quotes to be checked; and a
    figure guessed at and asked ("52k take home fortnight ~1,650?")."""
    guessed = [a for a in found if a.role == "income" and GUESSED_BEFORE.search(text[:a.start]) and re.match(r"[^.!?\w]*\?", text[a.end:])]
    if guessed and any(a.is_income or a.role in OTHER_INCOME_ROLES for a in found if a not in guessed):
        # (The only income in the question is the income, however it is asked.)
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


# A tax figure, named by the word tax right after it (but not tax on an amount, nor tax-free, a tax
# code and the like).
TAX_FIGURE_AFTER = re.compile(r"\s*(?:" + alternatives("tax_figure_names") + r")\b(?!\s*(?:" + alternatives("not_a_tax_figure_after")
                              + r"))(?=\s+(?:" + alternatives("tax_figure_after") + r")\b)", re.I)
TAX_ON_BEFORE = re.compile(r"\b(?:" + alternatives("tax_on_before") + r")\s*(?:" + alternatives("rough_figure_words")
                           + r")?\s*\$?$", re.I)


screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)


# Why the second of them is set aside (Money.questioned).
ALTERNATIVE_QUESTIONED = "the second of two figures given for one amount"


def _alternatives_share_a_role(text: str, found: list[Money]) -> list[Money]:
    """Two figures given as alternatives of one amount are one kind of money: when the words beside one make
    it money that is not earned (a contribution, a gift, a cost) and the other is read as income only for
    want of words of its own (or both are that kind), both are the unearned kind ("contributed $800 or $900 to
    KiwiSaver"), and the second is set aside (questioned): two guesses at one amount are never added up."""
    out = list(found)
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        kind = b.role if a.role == "income" else a.role
        if kind in NOT_EARNED_ROLES and b.role in ("income", kind) and given_for_one_amount(text, a, b):
            # (One amount, said two ways: the first is worked on, the other is never added to it.)
            out[i], out[i + 1] = replace(a, role=kind), replace(b, role=kind, questioned=b.questioned or ALTERNATIVE_QUESTIONED)
    return out

