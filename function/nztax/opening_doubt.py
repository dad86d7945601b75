"""A topic answer's retrieved opening in doubt: said not to answer, rather than told as the answer.

In: the topic answer (`say.topic`), the passages retrieved for it in retrieval's order, and the pages
the answer units nearest the question cite. Out: `hedged(result, hits, near_pages, pages)` -> the
answer, opening "I haven't found Inland Revenue's guidance saying that directly …" when its opening
sentence comes from a page neither reading puts near the question (`doubted`).

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
    near = near_pages()
    if not near or url in near:
        return result  # (without the units' reading, as on an index without their vectors, one reading is no doubt)
    result.answer = f"{composer.NOT_SAID_DIRECTLY} {answer}"
    if trace is not None:  # (what opened stays the passage: `nztax eval paraphrases` compares openings by it)
        trace.notes.append(f"opening in doubt: {url} is neither among retrieval's first {pages} pages nor cited "
                           "by a unit near the question")
    return result
