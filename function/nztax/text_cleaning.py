"""Question text made ready to read, and numbers written in words.

In: the text as typed or pasted. Out: one clean line (`clean_text`: invisible characters dropped,
whitespace joined, a pasted table's header put beside its values) and the value of a number written
in words (`words_to_number`).
"""

from __future__ import annotations

import re
from nztax.literal_screen import screen_patterns
from decimal import Decimal


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


# A whole number under a hundred in words, as a rate is written ("forty", "thirty-three", "eight").
SMALL_NUMBER = (r"(?:(?:" + "|".join(_TENS) + r")(?:[\s-](?:" + "|".join(list(UNIT_WORDS)[1:10]) + r"))?\b|(?:"
                + "|".join(sorted(UNIT_WORDS, key=len, reverse=True)) + r")\b)")


def small_number_in_words(text: str) -> Decimal | None:
    """'thirty-three' -> 33, 'eight' -> 8: a number `SMALL_NUMBER` matches; None for anything else."""
    words = [w for w in re.split(r"[\s-]+", text.lower().strip()) if w]
    if not words or any(w not in UNIT_WORDS and w not in _TENS for w in words):
        return None
    return Decimal(_words_value(words))


def words_to_number(text: str) -> Decimal | None:
    """'eighty-five thousand' -> 85000; None unless the words name a number with a scale word."""
    words = [w for w in re.split(r"[\s-]+", text.lower().strip()) if w and w != "and"]
    while words and words[-1] == "a":
        words.pop()  # a trailing "a" belongs to the period that follows
    if not any(w in _SCALES for w in words) or not any(w in UNIT_WORDS or w in _TENS or w == "a" for w in words):
        return None
    value = _words_value(words)
    return Decimal(value) if value else None


def _words_value(words: list[str]) -> int:
    """The number that lower-case number words name, in order ("a" is one, a scale multiplies)."""
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
    return total + current


screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
