"""A post's sentences, and which of them ask.

In: cleaned text. Out: its sentences (with their places in the text) and the asking ones: those
ending in "?", else those that open like a question, else the last one. The frame reads what is asked
from the asking sentences; the slots read the period an answer is wanted in from them.

    asking_sentences("I earn $85k. Why is my tax so high?")   # ['Why is my tax so high?']
"""

from __future__ import annotations

import re

from nztax.cue_words import alternatives
from nztax.literal_screen import screen_patterns

# A sentence that asks: it ends in a question mark, or opens with a word that asks; a question word
# followed by its subject opens a clause that tells, not a question (the words: data/cue_words.yaml).
OPENS_ASKING = re.compile(r"^\s*(?:(?:" + alternatives("asking_joiners") + r")\s+)?(?:(?:" + alternatives("asking_question_words")
                          + r")\b(?!\s+(?:" + alternatives("clause_subjects") + r")\s)|(?:" + alternatives("asking_auxiliaries")
                          + r")\b)", re.I)
SENTENCE = re.compile(r"[^.!?]+(?:[.!?]+|$)")
DECIMAL_POINT = re.compile(r"(?<=\d)\.(?=\d)")
# A full stop with a small letter or digit right after it and no space is inside a name, not at a
# sentence's end: a web address ("example.co.nz says?"), a file name, "e.g".
INSIDE_A_NAME = re.compile(r"(?<=[A-Za-z0-9])\.(?=[a-z0-9])")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence, surrounding space left out (a decimal point, "4.5%" or
    "$1,234.56", and a full stop inside a name, "ird.govt.nz", do not end one)."""
    protected = INSIDE_A_NAME.sub("\x00", DECIMAL_POINT.sub("\x00", text))
    out = []
    for m in SENTENCE.finditer(protected):
        piece = m.group(0)
        if not piece.strip(" .!?"):
            continue
        lead = len(piece) - len(piece.lstrip())
        out.append((m.start() + lead, m.start() + len(piece.rstrip())))
    return out


def sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text)]


def question_spans(text: str) -> list[tuple[int, int]]:
    """The sentences that end in a question mark."""
    return [(s, e) for s, e in sentence_spans(text) if text[s:e].endswith("?")]


def _spans_that_ask(text: str, found: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return ([(s, e) for s, e in found if text[s:e].endswith("?")]
            or [(s, e) for s, e in found if OPENS_ASKING.match(text[s:e])])


def asking_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of the sentences that ask (see `asking_sentences`)."""
    found = sentence_spans(text)
    return _spans_that_ask(text, found) or found[-1:] or [(0, len(text))]


def asks_in_words(text: str) -> bool:
    """Whether a sentence of the text asks (ends in "?" or opens like a question): a post that only
    tells, whose last sentence stands in for its question, does not."""
    return bool(_spans_that_ask(text, sentence_spans(text)))


def asking_sentences(text: str) -> list[str]:
    """The sentences that ask: those ending in "?" or opening like a question; else the last sentence."""
    return [text[s:e] for s, e in asking_spans(text)]


screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
