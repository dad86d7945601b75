"""The answer units' questions as a page ranking for a long query (`nztax.unit_pages`, issue 43)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from nztax.unit_pages import UnitPages
from nztax.units import Unit, UnitSource

from tests.retrieval.test_retrieval import LONG_RATES_QUESTION


def _unit(slug: str, url: str, *also: str, topic: str = "t") -> Unit:
    return Unit(question=f"{slug}?", slug=slug, topic=topic, topic_title="T", also=also, lead="Yes.",
                source=UnitSource(url, "quote"))


def _axis(i: int, dims: int = 4) -> np.ndarray:
    v = np.zeros(dims, dtype=np.float32)
    v[i] = 1.0
    return v


# Three pages (0, 1, 2) of a made-up index; units cite pages 0 and 1 only.
CHILD_URLS = ["https://a.nz/p0", "https://a.nz/p0", "https://a.nz/p1", "https://a.nz/p2"]
CHILD_PAGE = np.array([0, 0, 1, 2])


def _bank():
    units = [_unit("u0", "https://a.nz/p0", "u0 again"),    # page 0: rows 0, 1
             _unit("u1", "https://a.nz/p1"),                 # page 1: row 2
             _unit("u2", "https://a.nz/p1"),                 # page 1: row 3
             _unit("gone", "https://a.nz/not-indexed")]      # no page: row 4, left out
    vectors = np.stack([_axis(0), (_axis(0) + _axis(1)) / np.sqrt(2), _axis(1), _axis(2), _axis(3)])
    return units, vectors


def test_a_page_scores_by_its_nearest_unit_paraphrase():
    units, vectors = _bank()
    pages = UnitPages.from_units(units, vectors, CHILD_URLS, CHILD_PAGE)
    assert pages.ranking([_axis(1)]) == [1, 0]  # u1's only paraphrase is the query: page 1 first
    cited, scores = pages.page_scores([_axis(1)])
    assert dict(zip(cited.tolist(), scores.tolist())) == pytest.approx({0: 1 / np.sqrt(2), 1: 1.0})
    assert 2 not in pages.ranking([_axis(3)])  # no unit cites page 2; the unit citing no page is left out


def test_pool_averages_a_pages_best_units_and_query_vectors_add():
    units, vectors = _bank()
    pages = UnitPages.from_units(units, vectors, CHILD_URLS, CHILD_PAGE)
    query = (_axis(1) + _axis(2)) / np.sqrt(2)  # u1 and u2 (page 1) each at 0.707; u0 at 0.5
    cited, best = pages.page_scores([query], pool=1)
    cited2, two = pages.page_scores([query], pool=2)
    assert best[list(cited).index(1)] == pytest.approx(1 / np.sqrt(2))
    assert two[list(cited2).index(1)] == pytest.approx(1 / np.sqrt(2))  # (0.707 + 0.707) / 2
    assert two[list(cited2).index(0)] == pytest.approx(0.5)  # a page with one unit: that unit
    _, summed = pages.page_scores([_axis(0), _axis(1)])
    assert summed.tolist() == pytest.approx([1 + 1 / np.sqrt(2), 1.0])  # page 0: u0 (1.0 + 0.707); page 1: u1 (0 + 1)


def _topic_bank():
    """Two topics over three pages: topic a's units cite page 0 three times and page 1 once; topic b's
    one unit cites page 2. Every unit's paraphrase lies on its own axis, so a query picks its unit."""
    urls = ["https://a.nz/p0"] * 3 + ["https://a.nz/p1", "https://a.nz/p2"]
    units = [_unit(f"u{i}", url, topic="b" if i == 4 else "a") for i, url in enumerate(urls)]
    return units, np.stack([_axis(i, 5) for i in range(5)])


def test_a_topic_votes_for_the_page_most_of_its_units_cite():
    units, vectors = _topic_bank()
    pages = UnitPages.from_units(units, vectors, CHILD_URLS, CHILD_PAGE)
    # The nearest unit cites page 1, but its topic's other units cite page 0: the unit ranking puts
    # page 1 first, the topic ranking page 0.
    assert pages.ranking([_axis(3, 5)])[0] == 1
    assert pages.topic_ranking([_axis(3, 5)], temperature=0.02) == [0, 1, 2]
    scores = pages.topic_scores([_axis(3, 5)], temperature=0.02)
    assert scores[0] == pytest.approx(3 * scores[1])  # within the topic, by its share of the units
    assert scores.sum() == pytest.approx(1.0)
    # Nearer topic b's unit, the other topic's page leads.
    assert pages.topic_ranking([_axis(4, 5)], temperature=0.02)[0] == 2


def test_the_temperature_says_how_sure_the_topic_reading_is():
    units, vectors = _topic_bank()
    pages = UnitPages.from_units(units, vectors, CHILD_URLS, CHILD_PAGE)
    between = (_axis(3, 5) + 0.9 * _axis(4, 5)) / np.linalg.norm(_axis(3, 5) + 0.9 * _axis(4, 5))
    sharp = pages.topic_scores([between], temperature=0.001)
    soft = pages.topic_scores([between], temperature=1.0)
    assert sharp[2] < 0.01 and soft[2] > 0.3  # a near second topic keeps a share only when unsure
    assert not pages.topic_scores([between], temperature=0.0).any()  # off


def test_excluded_units_and_missing_vectors():
    units, vectors = _bank()
    pages = UnitPages.from_units(units, vectors, CHILD_URLS, CHILD_PAGE, exclude=frozenset({"t/u1"}))
    assert pages.ranking([_axis(1)]) == [0, 1]  # without u1, page 1 has only u2 (cosine 0)
    assert UnitPages.from_units(units, None, CHILD_URLS, CHILD_PAGE) is None


def test_ranked_rows_are_each_pages_best_allowed_chunk():
    units, vectors = _bank()
    pages = UnitPages.from_units(units, vectors, CHILD_URLS, CHILD_PAGE)
    dense = np.array([0.1, 0.9, 0.5, 0.7], dtype=np.float32)
    allowed = np.ones(4, dtype=bool)
    assert pages.ranked_rows([_axis(0)], 1, 10, CHILD_PAGE, dense, allowed) == [1, 2]
    allowed[1] = False
    assert pages.ranked_rows([_axis(0)], 1, 10, CHILD_PAGE, dense, allowed) == [0, 2]
    allowed[0] = False  # page 0 has no allowed chunk left: it drops out
    assert pages.ranked_rows([_axis(0)], 1, 10, CHILD_PAGE, dense, allowed) == [2]


@pytest.fixture
def units_on(retriever):
    """Point the fixture retriever at a made-up unit bank; restores its settings and units after."""
    settings, source = retriever.settings, retriever.units_source

    def use(units, vectors, **change):
        retriever.units_source = lambda: (units, vectors)
        retriever._unit_pages = False
        # (The intent reading's vote is left out: these tests read the units' votes alone.)
        retriever.settings = dataclasses.replace(settings, **{"long_query_intent_weight": 0.0, **change})

    yield use
    retriever.settings, retriever.units_source, retriever._unit_pages = settings, source, False


def _page_order(retriever):
    return list(dict.fromkeys(h.url for h in retriever.search(LONG_RATES_QUESTION, k=25)))


def test_a_page_with_a_matching_unit_paraphrase_rises_and_others_stay(retriever, units_on):
    vector = retriever.embed_query(LONG_RATES_QUESTION)
    units_on([], np.zeros((0, len(vector)), dtype=np.float32), long_query_unit_weight=0.0, long_query_topic_weight=0.0)
    before = _page_order(retriever)  # no unit's vote
    assert len(before) >= 3
    raised = before[2]
    units = [_unit("near", raised, "the post itself")]
    units_on(units, np.stack([-vector, vector]), long_query_unit_weight=0.0, long_query_topic_weight=0.0)
    assert _page_order(retriever) == before  # weight 0: the ranking is off
    units_on(units, np.stack([-vector, vector]), long_query_unit_weight=2.0, long_query_topic_weight=0.0)
    after = _page_order(retriever)
    assert after[0] == raised
    assert set(before) <= set(after)  # pages no unit cites keep their places in the ranking


def test_the_topic_ranking_raises_its_page_and_is_off_at_weight_0(retriever, units_on):
    vector = retriever.embed_query(LONG_RATES_QUESTION)
    units_on([], np.zeros((0, len(vector)), dtype=np.float32), long_query_unit_weight=0.0, long_query_topic_weight=0.0)
    before = _page_order(retriever)
    raised = before[2]
    units = [_unit("near", raised, "the post itself", topic="x")]
    units_on(units, np.stack([-vector, vector]), long_query_unit_weight=0.0, long_query_topic_weight=0.0)
    assert _page_order(retriever) == before
    units_on(units, np.stack([-vector, vector]), long_query_unit_weight=0.0, long_query_topic_weight=2.0)
    after = _page_order(retriever)
    assert after[0] == raised
    assert set(before) <= set(after)
    # Leaving the units out of a search (unit_vote=False) leaves their topic reading out too.
    assert list(dict.fromkeys(h.url for h in retriever.search(LONG_RATES_QUESTION, k=25, unit_vote=False))) == before


def test_the_unit_ranking_leaves_short_queries_alone(retriever, units_on):
    query = "income tax rates"
    before = [h.parent_id for h in retriever.search(query, k=10)]
    vector = retriever.embed_query(query)
    other = next(c["url"] for c in retriever.index.children if "tax-rates" not in c["url"])
    units_on([_unit("near", other)], np.stack([vector]), long_query_unit_weight=5.0, long_query_topic_weight=5.0)
    assert [h.parent_id for h in retriever.search(query, k=10)] == before
