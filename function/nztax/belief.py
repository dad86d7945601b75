"""The rule a post sets out as its own understanding, and the answer unit that confirms or corrects it.

In: a post, its asking sentences, the unit matcher, the belief's and the post's vectors. Out: `stated(...)` -> the
text where the poster states what they believe a rule to be (from the `states_belief` cue in
data/cue_words.yaml, "My understanding is ...", "I was told ...", "... is unfair", to the next asking
sentence), or None; `unit_for(...)` -> the unit answering whether that rule holds, or None.

A post that sets out its reasoning and asks "Is my understanding correct?" (or asks to be corrected,
"I stand to be corrected", beside questions resting on the belief), or a complaint whose point is a
misreading of a rule, asks nothing a unit's wording is near: its asking sentence names nothing,
and the story's figures keep its sentences from any paraphrase. The stated belief names the rule. Only
a unit whose lead gives a verdict (it answers whether a rule holds) can confirm or correct it; its
verdict word is dropped, for whether "No." denies the poster's belief or the unit's own question is
not known, and the rule it states is the answer either way.
"""

from __future__ import annotations

from dataclasses import replace

from nztax.cue_words import cue
from nztax.leaning import leans_back
from nztax.sentences import sentences
from nztax.understand import words
from nztax.unit_kind import ANSWER_WORD
from nztax.units import asks_alternatives, opening_verdict

# What a post's asking sentences may ask for its stated belief to be what it asks about: whether it
# holds ("Is my understanding correct?", "Does that still hold?") or why it does.
ASKS_OF_A_BELIEF = frozenset({"check", "yes_no", "why"})
# A belief naming no more content words than this is a heading ("My understanding:") with nothing after it.
HEADING_WORDS = 4
# At most this many sentences of a post make one stated belief: past them the story moves on.
BELIEF_SENTENCES = 3


def stated(post: str, asking) -> str | None:
    """The belief the post sets out: the first sentence holding a cue (not an asking sentence; its
    subject may come before the cue: "Secondary tax is unfair") and the sentences after it, up to
    the next asking sentence or `BELIEF_SENTENCES` in all; None when it names no more than a
    heading does."""
    found = cue("states_belief")
    parts = [s.strip() for s in sentences(post)]
    asking = {s.strip() for s in asking}
    for i, sentence in enumerate(parts):
        if not found.search(sentence) or sentence in asking:
            continue
        span = [sentence]
        for after in parts[i + 1:]:
            if after in asking or len(span) == BELIEF_SENTENCES:
                break
            span.append(after)
        text = " ".join(span)
        return text if len(words(text)) > HEADING_WORDS else None
    return None


def checked(post: str, asking, asks_each) -> str | None:
    """The belief the post sets out (`stated`) when every asking sentence asks only whether (or why)
    it holds (`ASKS_OF_A_BELIEF`) or which of two ways it holds ("Do I pay it every year or only when I
    sell?", units.asks_alternatives), or when the post asks outright to be corrected (`invites_correction`
    in data/cue_words.yaml: "I stand to be corrected", "correct me if I'm wrong"), whatever its questions
    ask on top of the belief; else None: a post asking "How do I ...?" asks something of its own."""
    if not asking:
        return None
    asks_of_it = all(asks in ASKS_OF_A_BELIEF or asks_alternatives(sentence) for sentence, asks in zip(asking, asks_each))
    if not asks_of_it and not invites_correction(post, asking):
        return None
    return stated(post, asking)


def invites_correction(post: str, asking) -> bool:
    """Whether the post asks to be corrected in a sentence of its own, not one of its questions ("I
    stand to be corrected", "please correct me if I'm wrong"): what it asks then rests on the belief it
    set out ("Is it worth paying the 5%?"), and that belief is the first thing to confirm or correct."""
    asked = {s.strip() for s in asking}
    found = cue("invites_correction")
    return any(found.search(s) for s in sentences(post) if s.strip() not in asked)


def answers_the_belief(sentence: str | None, belief: str) -> bool:
    """Whether a unit matched on `sentence` (None: on the whole post) answers the poster's belief
    rather than a question of the poster's own: matched on the whole post, on the belief, or on an
    asking sentence that only points back to it ("Is that correct?"). A "Yes." or "No." to such a
    match would confirm or deny the unit's own question, which is not known to be the poster's claim."""
    return sentence is None or sentence.strip() in belief or leans_back(sentence)


def unit_for(matcher, belief_vector, post_vector, settings, allowed=None, eligible=None):
    """The verdict unit (its lead opens Yes, No or Not) the belief and the whole post are nearest
    together: the belief's cosine to the unit's nearest paraphrase at least `belief_unit_least`, the
    post's at least `asked_unit_post_least`, and their sum ahead of the next verdict unit's by
    `belief_unit_margin`. `allowed(unit)`: whether it may answer the post (its subject; the next unit
    is not let through in its place); `eligible(unit)`: whether it is a candidate at all (a unit for a
    situation the post does not name answers another question). The unit is returned with its verdict
    word dropped."""
    belief, post = matcher.post_cosines(belief_vector), matcher.post_cosines(post_vector)
    verdicts = [(b + post.get(u, 0.0), u) for u, b in belief.items()
                if ANSWER_WORD.match(matcher.units[u].lead or "") and (eligible is None or eligible(matcher.units[u]))]
    ranked = sorted(verdicts, reverse=True)
    if not ranked:
        return None
    total, best = ranked[0]
    runner = ranked[1][0] if len(ranked) > 1 else 0.0
    unit = matcher.units[best]
    if (belief[best] < settings.belief_unit_least or post.get(best, 0.0) < settings.asked_unit_post_least
            or total - runner < settings.belief_unit_margin or (allowed is not None and not allowed(unit))):
        return None
    return without_verdict(unit)


def without_verdict(unit):
    """The unit with the "Yes." or "No." its lead opens with dropped (a "Not ..." verdict is a clause,
    kept); the rule it states follows."""
    verdict = opening_verdict(unit.lead or "")
    if not verdict:
        return unit
    rest = unit.lead[len(verdict):]
    return replace(unit, lead=rest[:1].upper() + rest[1:])
