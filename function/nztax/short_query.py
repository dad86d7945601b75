"""Search-box queries read as the questions they stand for.

In: a question as typed. Out: the same text, or, for a few words typed the way people type into a
search box ("tax 85000", "paye 1200 weekly", "student loan 52000"), the text with the one word a
sentence would have ("on") put back before its amount, so the engine reads the amount as the
income the query is about, as it does in "tax on 85000". Anything written as a sentence is left
as it is: a preposition or verb before the amount, a question mark, more than a few words, or
more than one amount; and the word goes in only when it lets the amount be read as an income
that the text as typed does not give ("weekly 880 tax code M" already reads as a weekly pay).
"""

from __future__ import annotations

import re

from nztax.slots import read_slots

# A search-box query is short: the topic, the amount, perhaps its period or year.
MAX_WORDS = 6
# One token that is an amount: "85000", "$85,000", "85k", "1.2m", "nz$1200" (not a year range "2026-27").
AMOUNT = re.compile(r"^(?:nz)?\$?\d[\d,]*(?:\.\d+)?(?:k|m)?$", re.I)
YEAR = re.compile(r"^(?:19|20)\d\d$")
# Words that already tie the amount to the sentence ("tax on 85000", "I earn 85000", "paid 1200").
LINKS = frozenset("""on of for from at is are was be earn earning earns make making makes get getting gets paid pay
                  salary income wage wages to by with about around per if when than over under""".split())


def search_box_question(text: str, rules) -> str:
    """`text` with "on" before the amount of a search-box query; otherwise `text` unchanged."""
    candidate = _with_on(text)
    if candidate == text:
        return text

    def incomes(t: str) -> int:
        return sum(a.role == "income" for a in read_slots(t, rules).amounts)

    return candidate if incomes(candidate) > incomes(text) else text


def typed_as_search(text: str) -> bool:
    """A few words with no question mark: a search for a topic, whatever of it is asked."""
    return len(text.split()) <= MAX_WORDS and "?" not in text


def _with_on(text: str) -> str:
    words = text.split()
    if len(words) < 2 or not typed_as_search(text):
        return text
    amounts = [i for i, w in enumerate(words) if AMOUNT.match(w) and not YEAR.match(w)]
    if len(amounts) != 1 or amounts[0] == 0:
        return text
    i = amounts[0]
    before = words[i - 1].lower().strip(",.:")
    if before in LINKS or not before.isalpha():
        return text
    return " ".join(words[:i] + ["on"] + words[i:])
