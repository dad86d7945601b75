"""An opening in doubt: said not to answer, rather than told as the answer.

In: the topic answer (`say.topic`), the passages retrieved for it in retrieval's order, and the pages
the answer units nearest the question cite. Out: `hedged(result, hits, near_pages, pages)` -> the
answer, opening "I haven't found Inland Revenue's guidance saying that directly …" when its opening
sentence comes from a page neither reading puts near the question (`doubted`). `lead_doubted`: the
same two readings of an intent's stock lead opening a fact answer (say.fact says the hedge), with a
third, the lead's meaning far from what is asked.

Why (issue 37): a topic answer opens with the retrieved sentence sharing most words with the asking
sentences; nothing checks that it answers them, and in a story the words it shares are often the
subject, not what is asked of it (a scheme's part-year rule to a question of whether one may still
join; a return guide's filling-in line to a question of when a tax falls due). A wrong opening costs
more than a hedged one, and the engine already has the hedge. Word overlap and the embedder's cosine do not tell these
openings from the ones that answer (docs/units.md, "Tried and not kept"); two readings from other
data do: retrieval, over the whole question, ranked the sentence's page below its first
`pages` pages (it won on words from a page retrieval thought less of), and none of the answer
units nearest the question or its asking sentences cites that page (the bank of questions people
ask, read by meaning, points elsewhere). Either reading alone hedges right openings too.
"""

from __future__ import annotations

from nztax import composer
from nztax.contract import AskResult


def nearest_pages(matcher, vectors: list, units: int) -> frozenset[str]:
    """The pages cited by the `units` answer units nearest each vector (the nearest paraphrase's cosine)."""
    pages: set[str] = set()
    for vector in vectors:
        cosines = matcher.post_cosines(vector)
        for unit in sorted(cosines, key=lambda u: -cosines[u])[:units]:
            source = matcher.units[unit].source
            if source is not None:
                pages.add(source.url)
    return frozenset(pages)


def ranked_first(url: str, hits: list, pages: int) -> bool:
    """Whether retrieval ranks page `url` among its first `pages` pages."""
    return url in list(dict.fromkeys(h.url for h in hits))[:pages]


def doubted(url: str, hits: list, near_pages: frozenset[str], pages: int) -> bool:
    """Whether an opening from page `url` is in doubt: retrieval ranks it below its first `pages`
    pages and no unit near the question cites it."""
    return not ranked_first(url, hits, pages) and url not in near_pages


def _units_doubt(url: str, near_pages) -> bool:
    """Whether none of the units near the question cites page `url` (`near_pages()` embeds). Without
    the units' reading, as on an index without their vectors, there is no doubt: one reading is none."""
    near = near_pages()
    return bool(near) and url not in near


def lead_doubted(url: str, hits: list, near_pages, pages: int, cosine, floor: float, trace=None) -> bool:
    """Whether an intent's stock lead, citing rules page `url`, is in doubt as the opening: retrieval
    ranks its page below its first `pages` pages, the asking sentences' cosine to the lead (`cosine()`)
    is under `floor`, and no unit near the question cites the page (`pages` or `floor` 0: off).

    `hits` is the answer's own search (the question with the intent's search words added), so a page it
    still ranks low is doubted even with the intent's words behind it.

    Why (issue 37): a question the classifier puts under an intent can ask something else of the same
    subject (which income counts, a code for one payment, what happens in a period without pay); the
    lead, written for the intent's central question, then opens as if it answered. Retrieval and the bank
    of questions people ask alone doubt many leads that answer (a rules page retrieval ranks below the
    guidance pages that explain it, cited by units of other wordings); a lead whose meaning is also far
    from what is asked is the one that answers another question (docs/units.md, "Openings that belong to another question")."""
    if pages <= 0 or floor <= 0 or ranked_first(url, hits, pages) or cosine() >= floor:
        return False
    if not _units_doubt(url, near_pages):
        return False
    if trace is not None:
        trace.notes.append(f"lead in doubt: {url} is neither among retrieval's first {pages} pages nor cited by a "
                           f"unit near the question, and what is asked is under {floor} in cosine to the lead")
    return True


def hedged(result: AskResult, hits: list, near_pages, pages: int, trace=None) -> AskResult:
    """The topic answer, said not to answer when its opening is in doubt (`doubted`); `near_pages`
    is called only then (it embeds)."""
    answer = result.answer or ""
    if (pages <= 0 or not result.citations or answer.startswith(composer.NOT_SAID_DIRECTLY)
            or answer.startswith(composer.NOTHING_FOUND)):
        return result
    url = result.citations[0].url
    if ranked_first(url, hits, pages):
        return result
    if not _units_doubt(url, near_pages):
        return result
    result.answer = f"{composer.NOT_SAID_DIRECTLY} {answer}"
    if trace is not None:  # (what opened stays the passage: `nztax eval paraphrases` compares openings by it)
        trace.notes.append(f"opening in doubt: {url} is neither among retrieval's first {pages} pages nor cited "
                           "by a unit near the question")
    return result
