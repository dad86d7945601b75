"""The literal screen (literal_screen.py): what a pattern needs, and that a screened pattern answers
exactly as the pattern does."""

from __future__ import annotations

import re

import pytest

from nztax import (amount_grammar, amount_owners, amount_roles, ask_backs, calculation_plan, calculator_calls,
                   clarify_checks, decide, decide_outcomes, example_figures, frame, frame_model, guard, literal_screen,
                   money_reader, opening_fit, question_conditions, reading_switches, sentences, slots, sum_inputs,
                   text_cleaning, worked_amounts, years)
from nztax.literal_screen import SCREEN_FROM, Screened, needs

SCREENED_MODULES = (amount_grammar, amount_owners, amount_roles, ask_backs, calculation_plan, calculator_calls,
                    clarify_checks, decide, decide_outcomes, example_figures, frame, frame_model, guard, money_reader,
                    opening_fit, question_conditions, reading_switches, sentences, slots, sum_inputs, text_cleaning,
                    worked_amounts)


@pytest.mark.parametrize("source, flags, expected", [
    (r"\bside (?:job|gig)\b|\bbonus\b", re.I, {"side ", "bonus"}),       # the longer literal of a branch
    (r"(?:extra )?work\b", 0, {"work"}),                                   # an optional part needs nothing
    (r"(?<!with )\bholiday pay\b", re.I, {"holiday pay"}),                 # a look-behind is not read
    (r"\b(?:sold|selling)\b[^.?!]{0,60}\bprofit", re.I, {"profit"}),     # the most selective of the two
    (r"(?:ab)+c?", 0, {"ab"}),                                             # a repeat of at least one
    (r"Tax Code", re.I, {"tax code"}),                                      # lower-cased when case is ignored
    (r"(?<!\d)[.!?]+(?=\s|$)|[!?]+", 0, {".", "!", "?"}),                  # a class of listed characters
])
def test_the_literals_a_pattern_needs(source, flags, expected):
    assert needs(re.compile(source, flags)) == expected


@pytest.mark.parametrize("source, flags", [
    (r"\d+k?", 0),            # no literal at all
    (r"(?:bonus)?", 0),       # may match nothing
    (r"bonus|\d", 0),         # a branch without a literal
    (r"(?=bonus)", 0),        # only a look-ahead
    (r"[^.?!]+", 0),          # a class of characters left out
    (r"^bonus", 0),           # anchored at the start: tried at one place only
    (r"(?i:bonus)", 0),       # a group with flags of its own
    (r"ſide", re.I),          # a non-ASCII literal compared without case: left to the pattern
])
def test_a_pattern_with_no_literal_it_surely_needs_is_not_screened(source, flags):
    assert needs(re.compile(source, flags)) is None


def _screened_patterns() -> list[Screened]:
    found = {}
    for module in SCREENED_MODULES:
        for value in vars(module).values():
            items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else [value]
            for item in items:
                if isinstance(item, Screened):
                    found[id(item)] = item
    for form in years.grammar():
        found[id(form.pattern)] = form.pattern
    return list(found.values())


PAD = " and then something else happened at work" * 6
TEXTS = [
    ("a week per month " * 70)[:999],
    ("salary " * 150)[:999],
    " ".join(["85k and then something else happened at work"] * 30)[:999],
    "I started a side job in August 2024 and earn $85,000 a year on M SL with a bonus of $2k, no kiwisaver. "
    "My partner gets WFF and NZ Super; what tax code should I use for the 2024-25 tax year? Is the holiday pay taxed? " + PAD,
    "I STARTED A SIDE JOB, EARN $85K ON THE SIDE AND GET A BONUS. " + PAD.upper(),
    "A ſide job (with the long s) and a bonus in the ﬁrst week: " + PAD,  # non-ASCII: every pattern runs
]


def test_every_screened_pattern_reads_the_readers_texts_as_the_pattern_does():
    patterns = _screened_patterns()
    assert len(patterns) > 200  # the reading modules' patterns are behind the screen
    skipped = 0
    for screened in patterns:
        raw = screened.pattern_object
        for text in TEXTS:
            assert len(text) >= SCREEN_FROM
            assert screened.findall(text) == raw.findall(text), (raw.pattern[:80], text[:40])
            skipped += screened.cannot_match(text)
    assert skipped > len(patterns)  # (and the screen does turn most of them away on these texts)


def test_sub_split_and_match_answer_as_the_pattern_does_when_screened_out():
    screened = Screened(re.compile(r"\bbonus\b", re.I))
    text = "salary " * 40
    assert screened.cannot_match(text)
    assert screened.sub("x", text) == text and screened.subn("x", text) == (text, 0)
    assert screened.split(text) == [text] and screened.search(text) is None and list(screened.finditer(text)) == []
    assert screened.pattern == r"\bbonus\b" and screened.flags & re.I
    assert not screened.cannot_match("A BONUS! " + text) and screened.search("A BONUS! " + text).group() == "BONUS"


def test_a_text_of_ordinary_length_runs_the_pattern_without_reading_its_literals():
    screened = Screened(re.compile(r"\bbonus\b", re.I))
    assert screened.search("How much tax on my bonus?").group() == "bonus"
    assert screened._needs is literal_screen._UNREAD  # (no parse of the pattern for a short question)
