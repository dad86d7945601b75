"""A payment an employer makes, as a question names it, and the answer unit that states its rule.

In: a question's asking sentences and its whole text; the answer units the Ask box may serve. Out:
`read_payment(text)` -> `PaymentReading` (the kinds of employer payment named: a bonus, leave paid
out, a redundancy payment, an allowance …, and what is asked about them: whether and how it is
taxed, a deduction from it (KiwiSaver, student loan, the ACC earners' levy) or the year's result);
`asked_payment(asking, whole)` -> the reading of what a post asks; `payment_unit(...)` -> the unit
whose own question names the same kinds and asks the same thing, or None.

Kinds and the words for them are data (`data/employer_payments.yaml`), each with the wider kind it
belongs to (`is_a`: a retention payment is a bonus, a bonus an extra pay), so a unit on the wider
kind answers a narrower one no unit names. A post's story names many payments ("the annual leave and
notice were paid out separately … the $50,000 is listed under hurt and humiliation"); what it asks
about are the kinds its asking sentences name, or, when they name none or only a wider kind ("these
lump sums"), the kinds the whole post names under it. A unit answers when its question (or one of
its paraphrases) asks the same thing about kinds the post names, and names, exactly or by a wider
kind, every kind asked about: a post asking about leave paid out with a redundancy payment is
answered by the unit on both, and a post asking about a kind no unit states a rule for (compensation
for hurt and humiliation) by none. The unit naming most of the asked kinds exactly wins; among
equals, the one the whole post is nearest.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from nztax.cue_words import exact_capitals
from nztax.yaml_data import load_yaml
from nztax.sentences import sentences

DATA = Path(__file__).resolve().parent / "data" / "employer_payments.yaml"
TAX = "tax"  # what is asked when no deduction and no year-end result is named: whether and how it is taxed
YEAR_END = "year end"
TAXED_MORE = "taxed more"  # asked beside TAX: the belief that the payment bears more tax than other pay


@dataclass(frozen=True)
class PaymentReading:
    kinds: frozenset[str]
    asked: frozenset[str]


@functools.lru_cache(maxsize=1)
def _data() -> dict:
    raw = load_yaml(DATA.read_text(encoding="utf-8"))

    def joined(words) -> re.Pattern:
        return re.compile(r"\b(?:" + "|".join(f"(?:{exact_capitals(w)})" for w in words) + r")\b", re.I)

    kinds = raw["kinds"]
    return {
        "kinds": {name: joined(spec["words"]) for name, spec in kinds.items()},
        "needs_employer": frozenset(name for name, spec in kinds.items() if spec.get("needs_employer")),
        "regular": frozenset(name for name, spec in kinds.items() if spec.get("regular")),
        "employer": joined(raw["employer"]),
        "parent": {name: spec.get("is_a") for name, spec in kinds.items()},
        "deductions": {name: joined(words) for name, words in raw["deductions"].items()},
        "year_end": joined(raw["year_end"]),
        "taxed_as": joined(raw["taxed_as"]),
        "taxed": joined(raw["taxed"]),
        "taxed_more": joined(raw["taxed_more"]),
        "taxed_more_judged": joined(raw["taxed_more_judged"]),
    }


def wider(kind: str) -> frozenset[str]:
    """The kind and every kind it belongs to."""
    parent, found = _data()["parent"], [kind]
    while parent.get(found[-1]) and parent[found[-1]] not in found:
        found.append(parent[found[-1]])
    return frozenset(found)


def kinds_named(text: str, context: str | None = None, regular: bool = False) -> frozenset[str]:
    """The kinds of payment a text names (not how it says one is taxed: "taxed as an extra pay"); a kind
    whose words are not an employer's alone ("a lump sum") only where `context` (the text itself by
    default: for a post's sentence, the whole post) names an employer; a kind of ordinary pay (a
    second job's, overtime: `regular` in the data) only when `regular` (the text holds the belief
    that it is taxed more)."""
    data = _data()
    text = data["taxed_as"].sub(" ", text)
    named = frozenset(name for name, pattern in data["kinds"].items()
                      if (regular or name not in data["regular"]) and pattern.search(text))
    employer = data["employer"].search(text if context is None else context)
    return named if not named & data["needs_employer"] or employer else named - data["needs_employer"]


def asked_about(text: str) -> frozenset[str]:
    """What a sentence asks about a payment: the deductions it names, else the year's result, else tax
    (and, when it holds the belief, whether the payment is taxed more than other pay)."""
    data = _data()
    named = frozenset(name for name, pattern in data["deductions"].items() if pattern.search(text))
    if named:
        return named
    if data["year_end"].search(text):
        return frozenset({YEAR_END})
    return frozenset({TAX, TAXED_MORE}) if holds_taxed_more(text) else frozenset({TAX})


def holds_taxed_more(text: str) -> bool:
    """Whether a text says (or asks, or complains) that a payment bears more tax than other pay."""
    return says_taxed_more(text) or bool(_data()["taxed_more_judged"].search(text))


def says_taxed_more(text: str) -> bool:
    """Whether a text says or asks that a payment bears more tax (not only judges it: "unfair")."""
    return bool(_data()["taxed_more"].search(text))


def names_asked(text: str) -> bool:
    """Whether a sentence names a kind of payment or what a unit on one decides: a deduction, the
    year's result or the tax itself (a sentence referring back, "Is it taxable?", names the tax)."""
    data = _data()
    return bool(kinds_named(text) or data["taxed"].search(text) or data["year_end"].search(text) or holds_taxed_more(text)
                or any(pattern.search(text) for pattern in data["deductions"].values()))


def asks_of_its_own(sentence: str) -> bool:
    """Whether an asking sentence that names nothing a payment's rule decides (`names_asked`) asks
    something of its own: it names more than a sentence leaning on its story does (leaning.py: "Can
    you help?", "Is that right?" carry the post's opening; "Will it reduce the parental leave
    payments?" asks about the parental leave)."""
    from nztax.leaning import POINTING_WORDS
    from nztax.understand import words

    return not names_asked(sentence) and len(words(sentence)) > POINTING_WORDS


def kinds_unsaid(asking: list[str] | tuple[str, ...], sentence: str, whole: str) -> frozenset[str]:
    """The kinds of payment an asking sentence names and asks the tax of that `sentence` (an answer's
    opening) names neither itself nor by a wider kind: compensation for hurt and humiliation asked
    about, a list of extra pays opening. Such an opening states another payment's rule."""
    data = _data()
    asked = frozenset().union(*(kinds_named(s, whole) for s in asking
                                if TAX in asked_about(s) and (data["taxed"].search(s) or holds_taxed_more(s))))
    if not asked:
        return frozenset()
    named = kinds_named(sentence, f"{sentence} {whole}", regular=True)
    return frozenset(k for k in narrowest(asked) if not named & wider(k))


def states_only_part(unit, asked: PaymentReading) -> bool:
    """Whether a unit states the rule asked for some of the kinds asked about but not all of them (the
    exit inducement's, to a post asking whether a settlement is that or compensation for hurt and
    humiliation): its verdict and rule would read as the answer for every kind."""
    if len(asked.kinds) < 2 or states_rule(unit, asked, belief=False):
        return False
    return any(states_rule(unit, PaymentReading(frozenset({k}), asked.asked), belief=False) for k in asked.kinds)


def read_payment(text: str) -> PaymentReading:
    return PaymentReading(kinds_named(text), asked_about(text))


def narrowest(kinds: frozenset[str]) -> frozenset[str]:
    """The kinds that are not a wider kind of another one named ("a one-off bonus" is a bonus)."""
    return frozenset(k for k in kinds if not any(k in wider(other) for other in kinds if other != k))


def asked_payment(asking: list[str] | tuple[str, ...], opening: str, whole: str) -> PaymentReading | None:
    """What a post asks about an employer payment, or None when it asks about none. The kinds are the
    asking sentences' own, with the narrower kinds the post names under a wider one they name ("these
    lump sums" after five bonuses); where the asking sentences name none, those of its `opening`
    (a title and first sentence say what the post is about: "Is this taxable?" refers back to them),
    else the one kind a payroll story names."""
    said = " ".join(asking)
    # Asking sentences that name nothing a payment's rule decides ("Could you confirm?") lean on the
    # opening for what is asked about the payment, as they do for which payment.
    asked = asked_about(said if names_asked(said) else opening)
    if asked == {TAX} and holds_taxed_more(whole):
        # The belief set out in the story ("Secondary tax is unfair ...") is what its question is about.
        asked = asked | {TAXED_MORE}
    regular = TAXED_MORE in asked
    kinds = kinds_named(said, whole, regular) or kinds_named(opening, whole, regular)
    if (not kinds and len(story := narrowest(kinds_named(whole, regular=regular))) == 1
            and _data()["employer"].search(whole)):
        # A payroll story naming one payment, whose question refers back to it ("How should payroll tax
        # it?") after the sentences setting the scene: that payment is what is asked about. (Not a
        # story without an employer: "this bonus from the government" is KiwiSaver's.)
        kinds = story
    if not kinds:
        return None
    under = {k for k in kinds_named(whole, regular=regular) if any(a in wider(k) and a != k for a in kinds)}
    kinds = narrowest(frozenset(kinds | under))
    # (A payment named with ordinary pay, "the bonus from my second job", is what the belief is about.)
    return PaymentReading(kinds - _data()["regular"] or kinds, asked)


def only_regular(reading: PaymentReading) -> bool:
    """Whether every kind read is ordinary pay (a second job's, overtime): income for the year, not a
    payment whose tax is worked out apart from it."""
    return reading.kinds <= _data()["regular"]


def asked_in_post(asking, question: str) -> PaymentReading | None:
    """`asked_payment` for a question, its opening being its first two sentences (a title and the first)."""
    return asked_payment(asking, " ".join(sentences(question)[:2]), question)


def answers(wording: PaymentReading, asked: PaymentReading) -> int | None:
    """How many asked kinds a unit's wording names exactly, when it answers what is asked (the same
    thing asked, the belief that it is taxed more aside, every kind it names one the post asks about
    or wider, and every asked kind covered); None when it does not."""
    if not wording.kinds or wording.asked - {TAXED_MORE} != asked.asked - {TAXED_MORE}:
        return None
    allowed = frozenset().union(*(wider(k) for k in asked.kinds))
    if not wording.kinds <= allowed or not all(wider(k) & wording.kinds for k in asked.kinds):
        return None
    return len(wording.kinds & asked.kinds)


def _fit(wording: PaymentReading, asked: PaymentReading) -> tuple[bool, int] | None:
    """How well a wording answers: whether it holds the belief a post holds (taxed more), then the
    asked kinds it names exactly (`answers`); None when it does not answer."""
    exact = answers(wording, asked)
    return None if exact is None else (TAXED_MORE in asked.asked and TAXED_MORE in wording.asked, exact)


@functools.lru_cache(maxsize=4096)
def _wording(text: str, context: str) -> PaymentReading:
    asked = asked_about(text)
    return PaymentReading(kinds_named(text, context, TAXED_MORE in asked), asked)


def _wordings(unit) -> list[PaymentReading]:
    """Each of a unit's wordings read, an employer named in any of them or its lead counting for all."""
    context = " ".join((*unit.paraphrases, unit.lead or ""))
    return [_wording(w, context) for w in unit.paraphrases]


def states_rule(unit, asked: PaymentReading, belief: bool = True) -> bool:
    """Whether a unit's question or a paraphrase asks what is asked about the kinds asked about (with
    `belief`, holding the belief that it is taxed more when the post does)."""
    fits = [_fit(w, asked) for w in _wordings(unit)]
    return any(f is not None and (f[0] or not belief or TAXED_MORE not in asked.asked) for f in fits)


def holds_the_belief(unit, asked: PaymentReading) -> bool:
    """Whether the unit answers the post's belief that the payment is taxed more (a wording holding it)."""
    return TAXED_MORE in asked.asked and states_rule(unit, asked)


def payment_unit(units, asked: PaymentReading, nearness: dict[int, float], allowed=None):
    """The unit (index into `units`) that states the rule for what is asked, or None: one whose
    question or a paraphrase holds the belief the post holds (taxed more) first, then the most asked
    kinds named exactly by it, then the one `nearness` (the whole post's cosine to each unit) puts
    nearest. `allowed(unit)`: whether it may answer at all."""
    best, best_key = None, None
    for i, unit in enumerate(units):
        fits = [f for f in (_fit(w, asked) for w in _wordings(unit)) if f is not None]
        if not fits:
            continue
        key = (*max(fits), nearness.get(i, 0.0))
        if (best_key is None or key > best_key) and (allowed is None or allowed(unit)):
            best, best_key = i, key
    return best
