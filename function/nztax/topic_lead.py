"""A topic answer's lead where the sentence scorer's first choice is not the asker's rule.

In: the post, its asking sentences, the retrieved passages (best first), the year asked and, for
`reconsidered`, the opening say.topic chose. Out: (sentence, passage) pairs.

- `story_lead`: a sentence must cover `passage_sentences.MIN_SENTENCE_COVERAGE` of the question's words to answer
  it. A long post's words are mostly its story (the amounts' context, the poster's plans), words no
  passage uses, and a short asking sentence that refers back ("Is my understanding correct?") shares
  too few with any; so a post whose passages plainly hold its topic was answered "I couldn't find
  anything". When nothing else answers, the share is counted over only the post's words that the
  first passage uses (retrieval read the whole post and ranked that passage first); the sentence
  must still be on the post's subject and fit to open, and state a rule rather than work an example:
  on this weaker footing another person's figures would read as the answer to the post's own.
- `reconsidered`: an opening whose term's defining condition the post denies (a boarder's rule for
  tenants given no meals, opening_fit.definition_denied) gives way to the best sentence of the
  best-ranked passages that may open, whatever its share (the term's definition, when retrieved); one that names the post's situation only through its passage heading
  (opening_fit.only_by_heading: the heading covers the general rule too) gives way to a sentence
  naming the situation in its own words, which states that situation's rule. So does one that
  opened for want of any other though its condition on an amount is not the post's
  (amount_conditions.py: "under the threshold" to a post over it); then a sentence whose condition
  the post's figures meet ("if they cost more than $50,000") comes first.
"""

from __future__ import annotations

from nztax.amount_conditions import contradicted, met
from nztax.passage_sentences import MIN_SENTENCE_COVERAGE, RANK_BONUS, passage_candidates, scored_sentences
from nztax.opening_fit import (definition_denied, may_open, only_by_heading, other_subject, situations_asked,
                               situations_named, worked_example)


def story_lead(post: str, hits: list, tax_year: str | None, past_year: bool,
               notes: list | None = None) -> list[tuple[str, object]]:
    scored = scored_sentences(post, passage_candidates(hits[:1], tax_year, past_year), shared_only=True)
    best = next((s for _, coverage, s, _ in scored if coverage >= MIN_SENTENCE_COVERAGE), "")
    if notes is not None and (why := contradicted(post, best)):
        notes.append(f"held back from the opening: {why}")  # (the trace says why the best by words does not open)
    return [(s, hit) for _, coverage, s, hit in scored
            if coverage >= MIN_SENTENCE_COVERAGE and may_open(post, s, hit) and not other_subject(post, s, hit)
            and not worked_example(s, hit)][:2]


def reconsidered(post: str, asking: list[str], opening: tuple[str, object], hits: list, tax_year: str | None,
                 past_year: bool) -> tuple[str, object]:
    headed = only_by_heading(situations_asked(asking, post), *opening)
    if not headed and not definition_denied(post, opening[0]) and not contradicted(post, opening[0]):
        return opening
    # (Whatever its share of the post's words, but from the passages retrieval ranked best.)
    scored = scored_sentences(post, passage_candidates(hits[:len(RANK_BONUS)], tax_year, past_year))
    fitting = [(s, hit) for _, _, s, hit in scored if may_open(post, s, hit) and (not headed or situations_named(s) & headed)]
    # (In place of a condition the post's figures lie outside, first a rule whose condition they meet.)
    return next((c for c in fitting if met(post, c[0])), None) or next(iter(fitting), opening)
