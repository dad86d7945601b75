"""Every amount of money in a question, in order (`find_money`).

In: the cleaned text. Out: a list of `Money`, each with its span, value, period and role; an amount
that cannot be used as it stands is kept with `questioned` set, so the engine asks instead of
computing. Uses the number grammar (amount_grammar), the roles (amount_roles) and owners
(amount_owners).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import replace
from decimal import Decimal

from nztax import budget
from nztax.cue_words import alternatives
from nztax.rules import PAY_FREQUENCIES
from nztax.settings import get_settings
from nztax.text_cleaning import WORD_NUMBER, clean_text, words_to_number
from nztax.amount_grammar import (AGE, AMOUNT, ANY_PERIOD_WORD, DATE_AROUND, EVERY_PAY_WORDS, FIGURE_BEFORE_DASH,
                                  FOREIGN_AFTER, FOREIGN_BEFORE, FOREIGN_QUESTIONED, FREQ_AFTER, KIN, LONGEST_COUNT,
                                  MONEY_AFTER_AGE, MONEY_WORDS, Money, NAME_BEFORE, NOT_MONEY_AFTER, NOT_MONEY_BEFORE,
                                  PAY_FREQUENCY_WORD, _CODES, _clause_around, _period_and_end,
                                  _questioned_for_period, _value, asked_period, of_one_size, second_figure_after)
from nztax.amount_roles import (ASKED_ABOUT_AGAIN, BARE_NUMBER_QUESTIONED, COUPLE_TOGETHER,
                                HOUSEHOLD_QUESTIONED, LISTED_ROLES, LIST_JOIN, LOOKBACK, NOT_EARNED_ROLES, PAID_BEFORE,
                                RESTATED_IN_BRACKETS, TWO_OF_THEM, _a_year_asked_per_pay, _alternatives_share_a_role,
                                _balances, _claimed_figures, _role_of, _roles_from_the_sentence, _thresholds_named,
                                _worked_under_a_label)
from nztax.amount_owners import _of_the_person_asked_about
from nztax.ages import age_spans
from nztax.literal_screen import screen_patterns


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

    ages = age_spans(text)
    for m in AMOUNT.finditer(text):
        budget.check()
        num, cur, suf, dollars = m.group("num"), m.group("cur"), m.group("suf"), m.group("dollars")
        # A dash right after a figure of the same size joins a range ("$800-$900"): it is no minus sign.
        ranged = m.group("neg") and FIGURE_BEFORE_DASH.search(text, max(0, m.start() - LOOKBACK), m.start())
        range_dash = bool(ranged) and of_one_size(_value(ranged.group("num"), None, True), _value(num, None, True))
        start, end = m.start("num") if not (m.group("neg") or cur) else m.start(), m.end()
        at = (m.start("cur") if cur else m.start("num")) if range_dash else m.start()  # (the range's dash is not the figure's)
        # The words just before an amount: every pattern tried on them is anchored at their end and far
        # shorter than LOOKBACK (whitespace is collapsed), so the window reads as the whole prefix would.
        before, after = text[max(0, m.start("num") - LOOKBACK):m.start("num")], text[end:]
        code_after = False
        spaced_m = suf == "m" and m.end("num") < m.start("suf") and "." not in num and len(num.replace(",", "")) >= 3
        if suf and suf.lower() == "m" and (not cur and (suf == "M" or spaced_m or re.match(r"\s?sl\b", after, re.I))
                                           or re.match(r"\s(?:sl\b|(?:tax\s)?code\b)", after, re.I)):
            # (A lone lower-case m after a pay and its period is a code; a decimal or small number with m is millions.)
            # A capital M (alone, with SL or with "code") after the amount is a tax code, not a million.
            suf, end, after = None, m.end("num"), text[m.end("num"):]
        cm = re.match(r"\s?(?:on\s+)?(?:" + _CODES + r")\b(?:\s?(?:tax\s)?code)?", text[end:])
        if cm and cm.group(0).strip().upper() == cm.group(0).strip() and not cur:
            code_after = True  # the period comes after the code
            end += cm.end()
        second = None if suf else second_figure_after(text, m.start(), m.end())
        if second is not None and second.group("suf") and of_one_size(_value(num, None, True), _value(second.group("num"), None, True)):
            suf = second.group("suf")  # "$50-60k": a range's scale is written once, after its second figure
        counted = NOT_MONEY_AFTER.match(text[m.end("num"):])
        if counted and not cur and not suf and not (re.fullmatch(r"\s?(?:wk|week|yr|year|month)", counted.group(0), re.I)
                                                    and _value(num, None, is_money=False) is not None
                                                    and _value(num, None, is_money=False) > LONGEST_COUNT):
            continue  # (a small number before a period word is a count of periods; a large one is a pay for it)
        if re.match(r"\s?[-–/]\s?\d{1,2}\b", text[m.end("num"):]) or (
                re.search(r"\d\s?[-–/]\s?$", before) and not (cur or suf or dollars or MONEY_BEFORE_DASH.search(before))):
            continue  # part of a tax year or a date (a range of money has money on one side: "$800-900", "800-900 dollars")
        if NOT_MONEY_BEFORE.search(before) and not cur and not (suf and re.search(r"\bcode\s$", before, re.I)):
            continue  # (a form or section number; but a k amount after a code's name is money)
        if not (cur or suf or dollars) and ((m.start("num"), m.end("num")) in ages
                                            or num.isdigit() and NAME_BEFORE.search(before)):
            continue  # an age the age grammar reads ("under 16"), or a number that is part of a name ("S&P 500")
        if (re.search(r"\bat\s$|\b(?:widow|widower|man|woman|lady|gentleman|pensioner|retiree|person|couple|age)\s+of\s$|"
                      r"\b(?:student|worker|nurse|teacher|apprentice|retiree|pensioner|mum|dad|son|daughter|guy|girl|boy|woman|man|"
                      r"male|female|kid|teen|teenager|grad|graduate|migrant),\s$|"
                      r"\b(?:" + KIN + r"|he|she)(?:'s|\s+is|\s+was|\s+turns|\s+turned)\s$", before, re.I)
                and not (cur or suf or "." in num) and AGE.fullmatch(num) and not MONEY_AFTER_AGE.match(after)):
            continue  # an age (after "at" or a possessive); a rate with its period is money
        if not (cur or suf or "." in num) and AGE.fullmatch(num) and re.search(r"[a-z],\s?$", before, re.I) and re.match(r"\s*[,;]", after):
            continue  # a bare number set off by commas in a description of the person: an age
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
            # A payslip's gross: the gross of the payslip's own period, or of the period the question names.
            named = next((name for name, said in PAYSLIP_PERIOD if anywhere(said)), None) or asked_anywhere()
            if named in PAY_FREQUENCIES:
                period, period_stated = named, True
        if not period_stated and (HOURS_THEN_RATE.search(before) or RATE_LABEL.search(before) and anywhere(HOURS_LABELLED)):
            # Hours at an amount, or a rate label beside hours: a rate an hour.
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
            continue  # a year after a period word, not a pay
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
        # A minus sign right before an amount is a loss; a dash after a date only separates.
        separator = bool(m.group("neg")) and m.group("neg") != "-" and text[max(0, m.start() - 1):m.start()].isspace()
        negative = (bool(m.group("neg") and not range_dash or m.group("neg2")) and not separator
                    and bool(cur or "$" in text[max(0, m.start() - 2):m.start("num")])
                    or bool(MINUS_SAID.search(before, max(0, len(before) - SIGN_WORDS_REACH)))
                    and not SUBTRACTED.search(before, max(0, len(before) - 2 * SIGN_WORDS_REACH)))
        role = _role_of(text, at, end, default=None)
        if role is None:
            # A list's later amounts share its first amount's role.
            listed = found[-1] if found and found[-1].role in LISTED_ROLES else None
            role = listed.role if listed and LIST_JOIN.fullmatch(text[listed.end:at]) else "income"
        if negative:
            questioned = "a negative amount (a loss) is not an income to work tax out on"
            role = "other"
        elif foreign and role in ("income", "main_job", "second_job", "total", "other_income", "partner"):
            # Not New Zealand dollars: never worked out as such, whoever's it is.
            said = (currency_before.group(0) if currency_before else "") + num + (suf or "") + (currency_after.group(0) if currency_after else "")
            questioned, role = FOREIGN_QUESTIONED.format(said.strip()), "foreign"
        elif role == "household" or role in ("income", "total") and COUPLE_TOGETHER.search(_clause_around(text, m.start(), end)):
            questioned = HOUSEHOLD_QUESTIONED
            role = "income"
        elif value < Decimal(str(get_settings().bare_amount_minimum)) and not period_stated and role == "income":
            # Too small for a year's pay, and no period said.
            if (not (cur or suf or dollars) and not re.search(r"\b(?:donat|gave)", near, re.I)
                    and not anywhere(ANY_PERIOD_WORD, hours_aside=True)):
                # (A pay period named elsewhere is its period; the week of hours a week is the hours',
                # not a pay's.)
                questioned = f"{num}{BARE_NUMBER_QUESTIONED}"
            elif (PAID_BEFORE.search(text[max(0, m.start() - 20):m.start()])
                  or GETS_BEFORE.search(text[max(0, m.start() - 20):m.start()]) and PAY_AFTER.match(text[m.end():])
                  or EACH_PAY_AFTER.match(text[m.end():]) and not anywhere(PAY_FREQUENCY_WORD)):
                # A pay, but of which period?
                questioned = f"{m.group(0).strip()} paid could be a week's, a fortnight's or a month's pay"
                one_pay = True
            elif (EARNS_BEFORE.search(text[max(0, m.start() - 20):m.start()])
                  and not anywhere(WHOLE_YEAR_WORDS) and not anywhere(ANY_PERIOD_WORD)
                  and not ON_TOP_OF_ANOTHER.search(text[m.end():])):
                # Too small for a year's pay, said of a pay, and no period anywhere in the question.
                questioned = f"{m.group(0).strip()} could be a week's, a fortnight's, a month's or a year's pay"
                one_pay = True
        says_salary = bool(re.search(r"salary|annual|a year|per year|yearly|per annum", near, re.I))
        found.append(Money(value=value, period=period, period_stated=period_stated, role=role,
                           text=text[at:m.end()].strip(), start=at, questioned=questioned, end=period_end, one_pay=one_pay,
                           says_salary=says_salary))
    for m in WORD_NUMBER.finditer(text):
        value = words_to_number(m.group(0))
        if value is None or any(abs(f.start - m.start()) < 3 for f in found):
            continue
        period, stated, period_end = _period_and_end(text, m.start(), m.end())
        found.append(Money(value=value, period=period, period_stated=stated, role=_role_of(text, m.start(), m.end()),
                           text=m.group(0).strip(), start=m.start(), end=period_end))
    found.sort(key=lambda a: a.start)
    # An amount named again (picked by its figure, pointed back to, asked about again, or a heading's
    # amount said again in the text under it) is not a second one; a bare number may name a stated
    # amount in thousands.
    # (The sentence ends and the words for two of them are found once, so weighing each amount against
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
            continue  # the same pay put another way in brackets
        twin = next((i for i, b in enumerate(kept) if same_again(a, b, asked_again)), None)
        if twin is None:
            kept.append(a)
            continue
        # One amount said twice: the later saying (the text under a heading, the sentence with its
        # people and words) stands, with what either tells about it.
        b = kept[twin]
        kept[twin] = replace(a, role=b.role if a.role == "income" else a.role, questioned=a.questioned or b.questioned,
                             one_pay=a.one_pay or b.one_pay, says_salary=a.says_salary or b.says_salary)
    found = _alternatives_share_a_role(text, kept)
    if not KIWISAVER.search(text):
        # Only KiwiSaver has contributions of the person's own here; other money put in is not one, nor
        # is it income.
        found = [replace(a, role=_not_earned(_role_of(text, a.start, a.end, skip="contribution"))) if a.role == "contribution"
                 else a for a in found]
    return [_questioned_for_period(_a_year_asked_per_pay(text, a)) for a in _of_the_person_asked_about(
        text, _claimed_figures(text, _thresholds_named(text, _balances(text, _worked_under_a_label(text, _roles_from_the_sentence(text, found))))))]


def _not_earned(role: str) -> str:
    """A role for money put in: its own unearned one, else "other" (never an income)."""
    return role if role in NOT_EARNED_ROLES else "other"


HOURS = re.compile(r"(?<![\d,.])(?P<h>\d+(?:\.\d+)?)\s?(?:hours|hrs|hr|h)\b(?:\s?(?:a|per|each|/|p)\s?(?:week|wk|w)\b|\s?pw\b|/wk)?", re.I)
# A payslip's or roster's label before the hours.
PAYSLIP_NUMBER_BEFORE = re.compile(r"\|\s*pay\s*[:#]?\s*$|"
                                   r"(?<!per )(?<!a )(?<!each )(?<!every )\b(?:(?:pay\s+)?period|week|wk|fortnight|"
                                   r"clause|period\s+(?:no|number))\.?\s*[:#|]?\s*$", re.I)
REFERENCE_BEFORE = re.compile(r"\b(?:" + alternatives("reference_labels") + r")\.?\s*[:#|]?\s*$", re.I)
# A payslip's own period named anywhere in it: "Week 47", "w/e 15/11/26", "Payslip fortnight 21", "Weekly payslip".
PAYSLIP_PERIOD = [("weekly", re.compile(r"\b(?:week|wk)\s*\d{1,2}\b|\bw/e\b|\bweek\s+ending\b|\bweekly\s+payslip\b|\bpayslip\s+weekly\b", re.I)),
                  ("fortnightly", re.compile(r"\bfortnight\s*\d{1,2}\b|\bfortnightly\s+payslip\b|\bpayslip\s+fortnight", re.I))]
# A sign said in words right before a figure ("minus $500"); after another figure it subtracts ("$60,000 minus $5,000").
MINUS_SAID = re.compile(r"\b(?:" + alternatives("minus_words") + r")\s*(?:nz)?\$?\s*$", re.I)
SIGN_WORDS_REACH = 13  # (the longest sign word with its currency fits: each amount's lookup stays short)
SUBTRACTED = re.compile(r"\d\s?k?\s*(?:" + alternatives("minus_words") + r")\s*(?:nz)?\$?\s*$", re.I)
# A figure in dollars right before a dash: the number after it is the range's second figure, not a date's part.
MONEY_BEFORE_DASH = re.compile(r"\$\s?\d[\d,.]*\s?k?\s?[-–—]\s?$", re.I)
GROSS_LABEL = re.compile(r"\bgross(?:\s+pay)?\s*[:|=]?\s*\$?$", re.I)
HOURS_THEN_RATE = re.compile(r"\b\d+(?:\.\d+)?\s?(?:hours|hrs|hr|h)(?:\s+(?:a|per|each)\s+(?:week|wk))?\s*(?:at|@|x)\s*\$?$", re.I)
RATE_LABEL = re.compile(r"\b(?:hourly\s+)?rate\s*[:|=]?\s*\$?$", re.I)
HOURS_LABELLED = re.compile(r"\b(?:hours|hrs)(?:\s+(?:this|per|a|each)\s+(?:week|wk)|\s+worked|/wk)?\s*[:|=]?\s*(?P<h>\d{1,2}(?:\.\d+)?)\b"
                            r"(?!\s?(?:%|k\b|[,.]\d{3}))", re.I)
KIWISAVER = re.compile(alternatives("kiwisaver_words"), re.I)


# One pay, whose period the amount itself does not say.
# What someone earns, said right before a small amount.
EARNS_BEFORE = re.compile(r"\b(?:" + alternatives("earns_before")
                          + r")\s*(?:" + alternatives("spoken_figure_hedges") + r")?\s*$", re.I)
# Words that place a small amount in a whole year (a season, this tax year).
WHOLE_YEAR_WORDS = re.compile(r"\b(?:" + alternatives("whole_year_words") + r")\b", re.I)
# Extra money beside a year's income, so a year's too.
ON_TOP_OF_ANOTHER = re.compile(r"^[^.?!]{0,30}\b(?:" + alternatives("on_top_of_words") + r")\b[^.?!\d]{0,20}\$?\d", re.I)
# "$2,400 each pay", "$4,100 a pay": one pay, whichever period it is.
EACH_PAY_AFTER = re.compile(r"\s*(?:" + EVERY_PAY_WORDS + r"|a\s+pay\b(?!\s*(?:rise|raise|increase)))", re.I)
# One pay, said without its period.
GETS_BEFORE = re.compile(alternatives("gets_before"), re.I)
PAY_AFTER = re.compile(r"\s*(?:(?:gross|net|take[- ]home)\s+)?pay\b(?!\s*(?:rise|raise|increase|out|back))", re.I)


screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
