"""Whose an amount is: the asker's, or another person's they name.

In: the text and its amounts. Out: the people the text names with where they are named, the owner
nearest an amount, the person a question asks about, and the amounts re-labelled as that person's
income when the question is about them (`_of_the_person_asked_about`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from nztax.cue_words import alternatives
from nztax.amount_grammar import KIN, Money
from nztax.amount_roles import GROSS_ROLES, HOUSEHOLD_QUESTIONED
from nztax.literal_screen import screen_patterns

# Whose money an amount is. A question may tell of someone else's income beside the asker's and ask
# about either person: the amounts of the person asked about are the incomes, the other person's are
# not added. (Typed on a phone, "my" is dropped before a relative at the start of a sentence.)
KIN_POSSESSIVES = alternatives("possessives_of_kin")
ASKER_WORDS = alternatives("asker_beside_kin")
SECOND_KIN_POSSESSIVES = alternatives("possessives_of_a_second_kin")
KINLESS = alternatives("kin_without_kin_word")
TOGETHER = alternatives("earned_together")
KIN_AFTER = alternatives("possessives_after_kin")
KIN_NOUN = re.compile(rf"\b(?:{KIN_POSSESSIVES})\s+(?:\w+\s+)?(?:{KIN})s?\b(?:'s)?|\b(?:{KIN})s?\s+(?:{KIN_AFTER})\b|\b(?:{KINLESS})\b|"
                      rf"(?:^|(?<=[.?!])\s+)(?:{KIN})\b(?:'s)?", re.I)
# A third-person pronoun: only where the text names someone it can be (else it is the boss or the accountant).
OTHER_PRONOUN = re.compile(alternatives("third_person_pronouns"), re.I)
# "They" may be anyone (the employer, Inland Revenue): it names the person asked about only beside a figure
# the learned reading puts as someone else's (input_figures.others_figures).
PLURAL_OTHER = re.compile(alternatives("plural_third_person_pronouns"), re.I)
# The asker and a relative named together: one amount of two people. (Two relatives said to earn it
# together or between them: two others' pay as one amount.)
JOINT = re.compile(rf"\b(?:{ASKER_WORDS})\s+(?:and|&)\s+(?:{KIN_POSSESSIVES})\s+(?:\w+\s+)?(?:{KIN})\b|"
                   rf"\b(?:{KIN_POSSESSIVES})\s+(?:\w+\s+)?(?:{KIN})\s+(?:and|&)\s+(?:{ASKER_WORDS})\b|"
                   rf"\b(?:{KIN_POSSESSIVES})\s+(?:\w+\s+)?(?:(?:{KIN})s?\s+(?:and|&)\s+(?:(?:{SECOND_KIN_POSSESSIVES})\s+)?"
                   rf"(?:\w+\s+)?(?:{KIN})s?|(?:{KIN})s)\b"
                   rf"(?=[^.?!]{{0,40}}\b(?:{TOGETHER}))", re.I)
# ("My" before a business place names a place, not whose money a figure is.)
# A business by the kind of place it is ("the bakery", "my cafe").
BUSINESS_PLACES = alternatives("business_places")
SELF_WORDS = re.compile(r"\b(?:" + alternatives("self_words") + r")\b|\bmy\b(?!\s+(?:own\s+)?(?:" + BUSINESS_PLACES + r"|"
                        + alternatives("places_of_ones_own") + r")\b)", re.I)
# Words about the asking (tell me, I want to know), not about whose sum it is.
ASKING_FOR = re.compile(alternatives("asking_for"), re.I)
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
    # (A young child named in an earlier sentence earns nothing.)
    earlier = [who for at, who in people if at < sentence_start and not YOUNG_CHILD.match(text, at)]
    return (before or after[:1] or earlier or [None])[-1]


YOUNG_CHILD = re.compile(r"(?:" + alternatives("young_child_determiners") + r")*(?:" + alternatives("young_child_words")
                         + r")\b", re.I)
CLAUSE_END = re.compile(r"[.?!;,](?=\s|$)|\s(?:and|but|so|[-–—])\s", re.I)
ASKS_SOMETHING = re.compile(r"\b(?:" + alternatives("asks_something_words") + r")\b", re.I)
INCOME_LIKE_ROLES = ("income", "main_job", "second_job", "total", "partner", "other_income", "investment_income", *GROSS_ROLES)


# Whether the one who quoted a figure is right: the
# claim is checked, and the sum is still the asker's.
CLAIMANT_CHECKED = re.compile(r"\b(?:is|was|are|were) (?:he|she|they) (?:" + alternatives("right_or_wrong_words")
                              + r")\b", re.I)


def _asked_about(text: str, pronouns: bool = False) -> str | None:
    """Whose sum the (cleaned) question asks for: "other" ("how much does she owe?"), "self" ("what's
    my take-home?") or None when its asking clause names nobody. A "they" or "she" counts only when the
    text names a relative, or when `pronouns` (else it may be the employer or Inland Revenue)."""
    people = _people(_asking_clause(text), names_kin=pronouns or bool(KIN_NOUN.search(text)))
    return people[0][1] if people else None


def _asking_clause(text: str) -> str:
    """The clause of a (cleaned) question that asks, less the words about the asking itself."""
    text = CLAIMANT_CHECKED.sub("is that right", ASKING_FOR.sub(" ", text))
    # The sentences that end in a question mark are the asking ones, when there are any ("how much
    # tax is that?? my mate says anything under 10k is tax free").
    questions = re.findall(r"[^.?!]*\?", text)
    clauses = [p for p in CLAUSE_END.split(" ".join(questions) if questions else text) if p.strip()]
    return next((p for p in reversed(clauses) if ASKS_SOMETHING.search(p)), clauses[-1] if clauses else "")


def person_asked_about(text: str) -> str | None:
    """Whom a (cleaned) question's asking clause names: "other" (a relative, or "they", "she": "if someone
    earns $62,000, how much do they pay?"), "self", or None when it names nobody. The frame weighs it with
    the learned owner reading, which tells another person's figure from the employer's."""
    who = _asked_about(text, pronouns=True)
    return "other" if who is None and PLURAL_OTHER.search(_asking_clause(text)) else who


def named_owners(text: str, starts: list[int]) -> list[str | None]:
    """The person the words name as each amount's owner ("self", "other", "both" or None), read as
    `_of_the_person_asked_about` reads them: the frame weighs it beside the learned owner reading."""
    people = _people(text, names_kin=bool(KIN_NOUN.search(text)))
    return [_owner(people, text, start) for start in starts]


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


screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
