"""A topic answer's retrieved opening in doubt (opening_doubt.py): said not to answer only when both
readings doubt its page, retrieval's order and the pages the nearest answer units cite.

Families over every place the opening's page can take in retrieval's order, with and without a near
unit citing it, rather than one question's wording.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from nztax import composer
from nztax.contract import AskResult, Citation
from nztax.opening_doubt import doubted, hedged, nearest_pages
from nztax.retrieval import Hit

PAGES = [f"https://example.test/page-{k}" for k in range(6)]


def hits_in_order(urls: list[str]) -> list[Hit]:
    # (Two sections of each page: a page's place is its first section's, not the count of sections.)
    return [Hit(url=u, title="t", section=f"s{j}", source_type="ird_guidance", tax_year=None, score=1.0,
                text="x", parent_id=f"{u}#{j}") for u in urls for j in range(2)]


def answer_citing(url: str, answer: str) -> AskResult:
    return AskResult(status="answered", answer=answer, citations=[Citation(title="t", url=url)], tax_year="2026-27",
                     disclaimer=composer.BASE_DISCLAIMER)


def topic_answer(url: str, sentence: str = "A rule on the page.") -> AskResult:
    return answer_citing(url, f"{sentence} [[1]]({url})")


@pytest.mark.parametrize("place", range(len(PAGES)))
@pytest.mark.parametrize("near_cites", [True, False])
@pytest.mark.parametrize("pages", [1, 2, 3])
def test_hedged_only_when_both_readings_doubt_the_page(place, near_cites, pages):
    opening = PAGES[place]
    elsewhere = "https://example.test/elsewhere"  # (a page the units cite that retrieval did not bring)
    near = frozenset({opening, elsewhere} if near_cites else {elsewhere})
    asked = []
    result = hedged(topic_answer(opening), hits_in_order(PAGES), lambda: asked.append(1) or near, pages)
    in_doubt = place >= pages and not near_cites
    assert result.answer.startswith(composer.NOT_SAID_DIRECTLY + " ") is in_doubt
    assert doubted(opening, hits_in_order(PAGES), near, pages) is in_doubt
    # The units' reading (an embedding) is asked for only when retrieval already doubts the page.
    assert bool(asked) is (place >= pages)
    # What follows the hedge is the same opening, unchanged.
    assert result.answer.endswith(f"A rule on the page. [[1]]({opening})")


@pytest.mark.parametrize("answer", [f"{composer.NOT_SAID_DIRECTLY} A rule.", composer.NOTHING_FOUND])
def test_an_answer_already_saying_it_found_nothing_is_left_alone(answer):
    result = answer_citing(PAGES[4], answer)
    assert hedged(result, hits_in_order(PAGES), lambda: frozenset({PAGES[0]}), 2).answer == answer


def test_off_and_without_the_units_reading_nothing_changes():
    for pages, near in ((0, frozenset({PAGES[0]})), (2, frozenset())):
        result = hedged(topic_answer(PAGES[4]), hits_in_order(PAGES), lambda near=near: near, pages)
        assert not result.answer.startswith(composer.NOT_SAID_DIRECTLY)


def test_the_trace_says_why_and_what_opened_stays_the_passage():
    trace = SimpleNamespace(notes=[], opened={"said": f"the passage {PAGES[4]}"})
    hedged(topic_answer(PAGES[4]), hits_in_order(PAGES), lambda: frozenset({PAGES[0]}), 2, trace)
    assert trace.opened == {"said": f"the passage {PAGES[4]}"}
    assert any(PAGES[4] in n and "in doubt" in n for n in trace.notes)


def test_nearest_pages_are_those_the_nearest_units_cite_for_each_vector():
    rng = np.random.default_rng(7)
    cosines = [rng.random(8) for _ in range(2)]
    units = [SimpleNamespace(source=SimpleNamespace(url=PAGES[k % len(PAGES)]) if k != 3 else None) for k in range(8)]

    class Matcher:
        def __init__(self):
            self.units = units

        def post_cosines(self, vector):
            return {k: float(c) for k, c in enumerate(cosines[vector])}

    for n in (1, 3, 8):
        want = {units[k].source.url for v in (0, 1) for k in np.argsort(-cosines[v])[:n] if units[k].source is not None}
        assert nearest_pages(Matcher(), [0, 1], n) == want
        assert nearest_pages(Matcher(), [0], n) <= want
