"""The sentence that leads a story's answer when none answers enough of its asking sentences or of the whole post.

In: the post, the retrieved passages (best first) and the year asked. Out: up to two (sentence,
passage) pairs from the first passage, or none.

Why: a sentence must cover `say.MIN_SENTENCE_COVERAGE` of the question's words to answer it. A long
post's words are mostly its story (the amounts' context, the poster's plans), words no passage uses,
and a short asking sentence that refers back ("Is my understanding correct?") shares too few with
any; so a post whose passages plainly hold its topic was answered "I couldn't find anything". Here the
share is counted over only the post's words that the first passage uses (retrieval read the whole post
and ranked that passage first), and the sentence must still be on the post's subject and fit to open.
It must state a rule, not work an example: on this weaker footing another person's figures would
read as the answer to the post's own.
"""

from __future__ import annotations

from nztax.opening_fit import may_open, other_subject, worked_example


def story_lead(post: str, hits: list, tax_year: str | None, past_year: bool) -> list[tuple[str, object]]:
    from nztax.say import MIN_SENTENCE_COVERAGE, passage_candidates, scored_sentences  # (say calls this: no cycle at import)

    scored = scored_sentences(post, passage_candidates(hits[:1], tax_year, past_year), shared_only=True)
    return [(s, hit) for _, coverage, s, hit in scored
            if coverage >= MIN_SENTENCE_COVERAGE and may_open(post, s, hit) and not other_subject(post, s, hit)
            and not worked_example(s, hit)][:2]
