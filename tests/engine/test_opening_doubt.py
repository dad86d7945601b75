"""An opening in doubt (opening_doubt.py): a topic answer's retrieved opening said not to answer only
when both readings doubt its page, retrieval's order and the pages the nearest answer units cite; an
intent's stock lead only when, besides, what is asked is far in meaning from the lead.

Families over every place the opening's page can take in retrieval's order, with and without a near
unit citing it, rather than one question's wording.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from nztax import composer
from nztax.contract import AskResult, Citation
from nztax.opening_doubt import doubted, hedged, lead_doubted, nearest_pages
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


# -- an intent's stock lead in doubt (lead_doubted, asked by say.fact) ------------------------------

RULES_PAGE = "https://example.test/rules-page"


@pytest.mark.parametrize("place", [0, 1, 2, 3, None])
@pytest.mark.parametrize("near_cites", [True, False])
@pytest.mark.parametrize("cosine", [0.2, 0.5, 0.6, 0.9])
def test_a_lead_is_in_doubt_only_when_all_three_readings_doubt_it(place, near_cites, cosine):
    pages, floor = 2, 0.55
    urls = list(PAGES)
    if place is not None:
        urls.insert(place, RULES_PAGE)  # (None: retrieval never brought the rules page)
    near = frozenset({RULES_PAGE, PAGES[0]} if near_cites else {PAGES[0]})
    calls = []
    doubted_ = lead_doubted(RULES_PAGE, hits_in_order(urls), lambda: calls.append("units") or near, pages,
                            lambda: calls.append("cosine") or cosine, floor)
    ranked = place is not None and place < pages
    assert doubted_ is (not ranked and cosine < floor and not near_cites)
    # Cheapest reading first: the lead is embedded only when retrieval doubts its page, the units only
    # when the lead is also far from what is asked.
    assert ("cosine" in calls) is (not ranked)
    assert ("units" in calls) is (not ranked and cosine < floor)


@pytest.mark.parametrize("pages, floor", [(0, 0.55), (2, 0.0)])
def test_a_lead_is_never_in_doubt_when_the_check_is_off(pages, floor):
    assert not lead_doubted(RULES_PAGE, hits_in_order(PAGES), lambda: frozenset({PAGES[0]}), pages, lambda: 0.1, floor)


def test_without_the_units_reading_a_lead_is_not_in_doubt_and_the_trace_says_why_when_it_is():
    assert not lead_doubted(RULES_PAGE, hits_in_order(PAGES), lambda: frozenset(), 2, lambda: 0.1, 0.55)
    trace = SimpleNamespace(notes=[])
    assert lead_doubted(RULES_PAGE, hits_in_order(PAGES), lambda: frozenset({PAGES[0]}), 2, lambda: 0.1, 0.55, trace)
    assert any(RULES_PAGE in n and "lead in doubt" in n for n in trace.notes)


def _central_questions():
    """Each fact intent's first example: the question its lead was written to answer."""
    from nztax.understand import default_catalogue

    return [spec.examples[0] for spec in default_catalogue().intents if spec.does == "fact" and spec.lead]


@pytest.mark.parametrize("question", _central_questions())
def test_the_engine_hedges_exactly_the_lead_it_doubts(engine, monkeypatch, question):
    """On the fixture index, whatever opens: when the intent's lead opens through the lead's choice,
    the doubted answer is the same answer with the hedge before it, and the page asked about is one
    the answer cites; when a passage, a sum or a unit opens, the lead is never asked about."""
    import nztax.engine as engine_module

    asked: list[str] = []

    def answer(verdict: bool):
        def lead_doubted_(url, hits, near_pages, pages, cosine, floor, trace=None):
            asked.append(url)
            return verdict
        monkeypatch.setattr(engine_module.opening_doubt, "lead_doubted", lead_doubted_)
        return engine.answer(question, use_faq=False, mode="offline")

    trusted = answer(False)
    asked_trusted = list(asked)
    asked.clear()
    doubted_ = answer(True)
    assert asked == asked_trusted  # the same lead asked about either way
    if not asked:
        assert doubted_.answer == trusted.answer
        return
    assert asked[0] in {c.url for c in trusted.citations}
    assert not trusted.answer.startswith(composer.NOT_SAID_DIRECTLY)  # (asked only of an opening not already hedged)
    assert doubted_.answer == f"{composer.NOT_SAID_DIRECTLY} {trusted.answer}"


def test_most_central_questions_open_with_their_lead_and_are_asked_about(engine, monkeypatch):
    """(The test above is about something: on the fixture index most intents' central questions are
    opened by their lead and reach the doubt.)"""
    import nztax.engine as engine_module

    asked: list[str] = []
    monkeypatch.setattr(engine_module.opening_doubt, "lead_doubted", lambda url, *a, **k: asked.append(url) or False)
    questions = _central_questions()
    reached = 0
    for question in questions:
        before = len(asked)
        engine.answer(question, use_faq=False, mode="offline")
        reached += len(asked) > before
    assert reached >= len(questions) // 2
