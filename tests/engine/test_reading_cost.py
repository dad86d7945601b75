"""Reading a question costs work linear in its length: a count-based guard.

Every compiled pattern of the question reader is wrapped so that each scan (search, finditer,
findall, sub) adds the number of characters it is offered. Before the fix, each amount's leading
words were searched back to the start of the question and every amount was compared with every
earlier one by scanning the text between them, so the characters offered grew with the square of
the number of amounts; now they grow in proportion to the question's length. A pattern behind the
literal screen (literal_screen.py) counts the text once when the screen looks at it (a substring scan
per literal, in C), and again only when the pattern itself runs.
"""

from __future__ import annotations

import json
import re

import pytest

from nztax import (amount_grammar, amount_owners, amount_roles, literal_screen, money_reader, question_conditions, slots,
                   text_cleaning, worked_amounts)
from nztax.api import FIGURE, MAX_QUESTION_CHARS, RequestError, parse_request
from nztax.settings import get_settings


class _Counting:
    def __init__(self, pattern: re.Pattern, tally: list[int]):
        self._pattern, self._tally = pattern, tally

    def _offered(self, string, pos=0, endpos=None):
        end = len(string) if endpos is None else min(endpos, len(string))
        self._tally[0] += max(0, end - pos)

    def search(self, string, pos=0, endpos=None):
        self._offered(string, pos, endpos)
        return self._pattern.search(string, pos, len(string) if endpos is None else endpos)

    def finditer(self, string, pos=0, endpos=None):
        self._offered(string, pos, endpos)
        return self._pattern.finditer(string, pos, len(string) if endpos is None else endpos)

    def findall(self, string, pos=0, endpos=None):
        self._offered(string, pos, endpos)
        return self._pattern.findall(string, pos, len(string) if endpos is None else endpos)

    def sub(self, repl, string, count=0):
        self._offered(string)
        return self._pattern.sub(repl, string, count)

    def __getattr__(self, name):
        return getattr(self._pattern, name)


# The question reader's modules: each looks its patterns up in its own namespace, so each is wrapped.
READER = (text_cleaning, amount_grammar, amount_roles, amount_owners, money_reader, worked_amounts, question_conditions, slots)


@pytest.fixture
def offered(monkeypatch):
    tally, screened = [0], set()
    for module in READER:
        for name, value in list(vars(module).items()):
            if isinstance(value, re.Pattern):
                monkeypatch.setattr(module, name, _Counting(value, tally))
            elif isinstance(value, literal_screen.Screened) and id(value) not in screened:
                screened.add(id(value))
                monkeypatch.setattr(value, "pattern_object", _Counting(value.pattern_object, tally))
    screen = literal_screen.Screened.cannot_match

    def screening(self, text, pos=0, endpos=len(NORMAL) * 1000):
        looked = isinstance(text, str) and min(endpos, len(text)) - max(pos, 0) >= literal_screen.SCREEN_FROM
        if id(self) in screened and looked:
            tally[0] += min(endpos, len(text)) - max(pos, 0)
        return screen(self, text, pos, endpos)

    monkeypatch.setattr(literal_screen.Screened, "cannot_match", screening)

    def count(question: str) -> int:
        tally[0] = 0
        slots.read_slots(question)
        return tally[0]

    return count


NORMAL = "How much tax will I pay on a salary of $85,000 a year?"
ADVERSARIAL_UNITS = ["85k", "$85,000", "$85k a year.", "85k per week and", "85k and then something else happened at work"]


@pytest.mark.parametrize("unit", ADVERSARIAL_UNITS)
def test_the_most_figures_a_question_may_hold_cost_a_bounded_scan_per_character(offered, unit):
    """As many repeated amounts as the API lets through, in up to the longest question: the
    characters scanned per character of the question stay within a small multiple of a normal
    question's (before the fix: 8-9x for 30 bare amounts, and 190x for the 250 the API let through)."""
    cap = get_settings().max_question_figures
    question = " ".join([unit] * cap)[:MAX_QUESTION_CHARS]
    assert len(FIGURE.findall(question)) <= cap
    assert offered(question) / len(question) <= 5 * offered(NORMAL) / len(NORMAL), unit


def test_a_long_question_of_words_is_scanned_a_bounded_number_of_times_per_character(offered):
    long = ("I earn a salary from my job and I also get some interest " * 17)[:990] + " $85,000?"
    assert offered(long) / len(long) <= 2 * offered(NORMAL) / len(NORMAL)


def test_a_question_with_more_figures_than_the_cap_is_refused_before_it_is_read():
    cap = get_settings().max_question_figures
    body = json.dumps({"question": " ".join(["85k"] * (cap + 1))}).encode()
    with pytest.raises(RequestError) as refused:
        parse_request(body, "application/json", lambda: set(), cap)
    assert refused.value.status == 400 and refused.value.code == "too_many_figures"
    # the figures of an earlier turn count too; a question at the cap is read
    body = json.dumps({"question": " ".join(["85k"] * cap), "history": [{"question": "1 " * (cap + 1), "answer": "x"}]}).encode()
    with pytest.raises(RequestError):
        parse_request(body, "application/json", lambda: set(), cap)
    assert parse_request(json.dumps({"question": " ".join(["85k"] * cap)}).encode(), "application/json", lambda: set(), cap)



# The bench's long questions of words ("Question cost", build/nztax_build/bench_cost.py). (One of many
# amounts is held to the figure cap above: each amount's leading words are still read back to the
# start of the question by a few patterns, so its work grows with the amounts times the length.)
BENCH_UNITS = ["a week per month ", "salary ", "I earn a salary from my job and I also get some interest "]


@pytest.mark.parametrize("unit", BENCH_UNITS)
def test_the_work_of_a_long_question_grows_no_faster_than_its_length(offered, unit):
    """Cut at a quarter, a half and the whole of the longest question allowed: the characters offered
    to the patterns (the literal screen's look included) grow at most in proportion to the length."""
    lengths = [MAX_QUESTION_CHARS // 4, MAX_QUESTION_CHARS // 2, MAX_QUESTION_CHARS]
    work = [offered((unit * 200)[:n]) for n in lengths]
    assert all(w / n <= 1.1 * work[0] / lengths[0] for n, w in zip(lengths, work)), work
