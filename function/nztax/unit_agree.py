"""A unit for a story below the asking-sentence bars, when a reading of the corpus agrees on it.

In: the unit matcher, the retriever, a post (its text and vector, its asking sentences as the matcher
reads them) and the settings. Out: `retrieval_agrees(...)` -> (the unit matched on its asking
sentence, or None; a trace note).

Why: the bars a story's asking sentence must clear (`UnitMatcher.match_asked`) were set on
development wordings, and posts nobody tuned on reach a unit far less often. Two readings built from
different data agreeing is the guard here instead of one reading's height: the unit the asking
sentences and the whole post rank first by the units' paraphrases (the current score, led by
`unit_retrieval_margin`, its sentence at least `unit_retrieval_score`, the post at least
`asked_unit_post_least` near), and the page that unit cites among the first `unit_retrieval_pages`
pages hybrid retrieval ranks for the whole post over the corpus alone (the units' own page vote left
out, so the two readings share no data). Retrieval tells pages apart, not the units citing one page:
over a unit citing the same page the lead must still be the asking sentences' own margin. Only against
the engine's stock lead or retrieved sentence (unit_choice.against_stock_answer): never over a decline,
a sum, or a figure the engine works out.
"""

from __future__ import annotations

from nztax.unit_match import AskingSentence, UnitMatch

# Sections fetched per page wanted: a page may fill several of retrieval's places.
SECTIONS_PER_PAGE = 3


def page_rank(retriever, post: str, vector, tax_year: str | None, pages: int) -> list[str]:
    """The first `pages` pages (addresses) hybrid retrieval ranks for the post, best first, without the
    answer units' page ranking."""
    hits = retriever.search(post, k=pages * SECTIONS_PER_PAGE, mode="hybrid", tax_year=tax_year,
                            query_vector=vector, unit_vote=False)
    return list(dict.fromkeys(h.url for h in hits))[:pages]


def _page(unit) -> str | None:
    return unit.source.url if unit.source is not None else None


def retrieval_agrees(matcher, retriever, post: str, vector, asking: list[AskingSentence], settings,
                     tax_year: str | None = None, allowed=None) -> tuple[UnitMatch | None, str]:
    """The unit a post's asking sentences rank first (`UnitMatcher.asked_ranking`, every sentence
    counted freely: the corpus is the second reading), when it clears the lower bars and retrieval
    ranks its cited page among the first `unit_retrieval_pages`; with the trace's note."""
    if not settings.unit_retrieval_pages or not asking:
        return None, ""
    ranked, post_cosines, _ = matcher.asked_ranking(asking, vector, allowed)
    if not ranked:
        return None, ""
    best, (total, score, sentence, _) = ranked[0]
    unit = matcher.units[best]
    if unit.source is None:
        return None, ""
    # Retrieval tells pages apart, not the units of one page: over a unit citing the same page the lead
    # must be the asking sentences' own margin (`asked_unit_margin`), over one citing another the lower one.
    same = max((t for u, (t, *_) in ranked[1:] if _page(matcher.units[u]) == unit.source.url), default=0.0)
    other = max((t for u, (t, *_) in ranked[1:] if _page(matcher.units[u]) != unit.source.url), default=0.0)
    runner = max(same, other)
    if (total - other < settings.unit_retrieval_margin or total - same < settings.asked_unit_margin
            or score < settings.unit_retrieval_score or post_cosines.get(best, 0.0) < settings.asked_unit_post_least):
        return None, ""
    pages = page_rank(retriever, post, vector, tax_year, settings.unit_retrieval_pages)
    if unit.source.url not in pages:
        return None, ""
    runner_id = matcher.units[ranked[1][0]].id if len(ranked) > 1 else "-"
    note = (f"served: retrieval agrees, page {unit.source.url} ranked {pages.index(unit.source.url) + 1} "
            f"(sentence {score:.3f}, {total - runner:.3f} ahead of {runner_id})")
    return UnitMatch(unit, round(total, 4), round(runner, 4), sentence=sentence), note
