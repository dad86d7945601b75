"""The intent reading's canonical query as a vote in a long query's page fusion (`nztax.intent_query`, issue 43)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from nztax.intent_query import IntentQuery
from nztax.understand import Catalogue, IntentClassifier, IntentSpec

from tests.retrieval.test_retrieval import LONG_RATES_QUESTION


def _axis(i: int, dims: int = 4) -> np.ndarray:
    v = np.zeros(dims, dtype=np.float32)
    v[i] = 1.0
    return v


def _classifier(settings, vectors_of: dict[str, list[np.ndarray]], does: dict[str, str] | None = None):
    """A made-up catalogue: each intent's examples are placeholders whose vectors are given (no shared
    words with the questions below, so only the cosines count)."""
    intents = [IntentSpec(name=name, does=(does or {}).get(name, "fact"),
                          examples=tuple(f"zzexample{name}{i}" for i in range(len(vectors))))
               for name, vectors in vectors_of.items()]
    vectors = np.stack([v for vs in vectors_of.values() for v in vs])
    return IntentClassifier(Catalogue(intents, "test"), vectors, dataclasses.replace(settings, intent_neighbours=3))


def test_the_canonical_query_is_the_normalised_mean_of_the_intents_examples(retriever):
    query = IntentQuery(_classifier(retriever.settings, {"a": [_axis(0), _axis(1)], "b": [_axis(2)]}))
    assert query.canonical[0] == pytest.approx((_axis(0) + _axis(1)) / np.sqrt(2))
    assert query.canonical[1] == pytest.approx(_axis(2))


def test_sureness_is_the_lead_over_the_next_intent_as_a_share_of_the_margin(retriever):
    query = IntentQuery(_classifier(retriever.settings, {"a": [_axis(0)], "b": [_axis(1)]}))
    canonical, sure = query.reading("qqq", _axis(0), sure_margin=0.04)
    assert canonical == pytest.approx(_axis(0)) and sure == 1.0  # a lead of 1 >> 0.04, capped at 1
    between = (_axis(0) * 0.51 + _axis(1) * 0.49)
    between /= np.linalg.norm(between)
    canonical, sure = query.reading("qqq", between, sure_margin=0.1)
    lead = float((_axis(0) - _axis(1)) @ between)
    assert canonical == pytest.approx(_axis(0)) and sure == pytest.approx(lead / 0.1)
    # Two intents alike: no lead, no reading.
    assert query.reading("qqq", (_axis(0) + _axis(1)) / np.sqrt(2), sure_margin=0.04) is None


@pytest.mark.parametrize("does", ["decline", "refuse", "clarify"])
def test_an_intent_that_answers_with_no_page_gives_no_reading(retriever, does):
    vectors = {"a": [_axis(0)], "b": [_axis(1)]}
    assert IntentQuery(_classifier(retriever.settings, vectors)).reading("qqq", _axis(0), 0.04) is not None
    assert IntentQuery(_classifier(retriever.settings, vectors, {"a": does})).reading("qqq", _axis(0), 0.04) is None


@pytest.fixture
def intents_on(retriever):
    """Point the fixture retriever at a made-up intent catalogue; restores it after."""
    settings, source = retriever.settings, retriever.intents_source

    def use(classifier, **change):
        retriever.intents_source = lambda: classifier
        retriever._intent_query = None
        retriever.settings = dataclasses.replace(settings, long_query_unit_weight=0.0, **change)

    yield use
    retriever.settings, retriever.intents_source, retriever._intent_query = settings, source, None


def _page_order(retriever, **kw):
    return list(dict.fromkeys(h.url for h in retriever.search(LONG_RATES_QUESTION, k=25, **kw)))


def test_the_intents_canonical_query_raises_its_page_and_is_off_at_weight_0(retriever, intents_on):
    post = retriever.embed_query(LONG_RATES_QUESTION)
    far = -post
    intents_on(_classifier(retriever.settings, {"a": [far], "b": [far]}), long_query_intent_weight=0.0)
    before = _page_order(retriever)
    assert len(before) >= 3
    raised = before[2]
    # Intent a's examples are the raised page's chunks: the post reads as a (its example vectors are
    # nearer the post than b's), so its canonical query is that page's subject.
    page_vectors = [retriever.index.vectors[row] for row, c in enumerate(retriever.index.children) if c["url"] == raised]
    reads_as_a = [(v + post) / np.linalg.norm(v + post) for v in page_vectors]
    classifier = _classifier(retriever.settings, {"a": reads_as_a, "b": [far]})
    intents_on(classifier, long_query_intent_weight=0.0)
    assert _page_order(retriever) == before  # weight 0: the vote is off
    intents_on(classifier, long_query_intent_weight=3.0)
    after = _page_order(retriever)
    assert after.index(raised) < before.index(raised)
    assert set(before) <= set(after)  # the other rankings' pages keep their places in the ranking
    assert _page_order(retriever, unit_vote=False) == before  # a reading of the corpus alone leaves it out
    # The same reading as a decline gives no vote.
    intents_on(_classifier(retriever.settings, {"a": reads_as_a, "b": [far]}, {"a": "decline"}),
               long_query_intent_weight=3.0)
    assert _page_order(retriever) == before


def test_the_intent_vote_leaves_short_queries_alone(retriever, intents_on):
    query = "income tax rates"
    before = [h.parent_id for h in retriever.search(query, k=10)]
    other = next(row for row, c in enumerate(retriever.index.children) if "tax-rates" not in c["url"])
    vector = retriever.index.vectors[other]
    intents_on(_classifier(retriever.settings, {"a": [vector], "b": [-vector]}), long_query_intent_weight=5.0)
    assert [h.parent_id for h in retriever.search(query, k=10)] == before
