"""A topic answer's opening when the question asks an aspect of its subject: why, how, what
happens, how long, when (`aspects` in data/opening_fit.yaml, as the fact answer's lead choice reads them).

In: the asking text (a story's asking sentences, or the question as asked), candidates as (word
score, sentence, passage) best first (passage_sentences.best_scored). Out: `saying_first`: the candidates with the
best that says the aspect asked first; `answers_none`: whether an opening leaves every asking sentence
unanswered (each asks an aspect it does not say).

Why: word overlap favours the sentence that repeats the asked words, whatever it says of them: asked
why a rule applies, the sentence defining the rule's subject; asked how an amount is worked out, a
list naming it. Among the sentences that share enough of the question's words (the candidates), the
one saying what is asked answers it. When none does and every asking sentence asks such an aspect,
the opening is the topic's best sentence but no answer to the question, and the answer says so before it (say.topic, composer.NOT_SAID_DIRECTLY), as
a fact answer does when its lead opens for want of anything better (lead_choice.Opening.unanswered).
A definition asked is not counted: a sentence about the term says what it is in its own words.
"""

from __future__ import annotations

from typing import Any

from nztax.opening_fit import aspects_asked, says_aspect

# The word scorer's best this many sentences are weighed for the opening.
CANDIDATES = 6


def asked_aspects(asking: str) -> frozenset[str]:
    return aspects_asked(asking) - {"definition"}


def saying_first(asking: str, candidates: list[tuple[float, str, Any]], fits) -> list[tuple[float, str, Any]]:
    """`candidates` with the best of the first `CANDIDATES` that says an aspect asked and may open
    (`fits(sentence, passage)`) first; unchanged when nothing is asked of that kind or none says it."""
    aspects = asked_aspects(asking)
    if not aspects or not candidates:
        return candidates
    k = next((k for k, (_, s, hit) in enumerate(candidates[:CANDIDATES]) if says_aspect(asking, s, aspects) and fits(s, hit)), 0)
    return [candidates[k]] + candidates[:k] + candidates[k + 1:]


def answers_none(asking: list[str], sentence: str) -> bool:
    """Whether `sentence` (the opening) leaves every asking sentence unanswered: each asks an aspect
    it does not say. (A post asks several things; an opening answering one of them, or one asking
    no aspect, is an answer.)"""
    return bool(asking) and all(asked_aspects(a) and not says_aspect(a, sentence, asked_aspects(a)) for a in asking)
