"""Search paths that exist for a large corpus: BM25 summed from the postings, and dense candidates
from an HNSW graph. Each must give what the small-corpus path gives on the fixture corpus."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from tests.retrieval.conftest import FIXTURE_CHUNKS, make_settings

GOLDEN = Path(__file__).with_name("golden_fixture.yaml")


def _queries() -> list[str]:
    golden = yaml.safe_load(GOLDEN.read_text())
    return [q["query"] for q in golden["queries"]] + golden["negatives"]


@pytest.fixture(scope="module")
def graph_retriever(tmp_path_factory):
    """The fixture corpus indexed with the graph threshold at 1 chunk, so the graph is written."""
    from nztax.retrieval import Retriever
    from nztax_build.indexer import embed_and_index

    tmp = tmp_path_factory.mktemp("graph_index")
    settings = make_settings(tmp, dense_graph_min_chunks=1)
    embed_and_index(settings, force=True, chunks_dir=FIXTURE_CHUNKS)
    return Retriever.load(settings.index_dir, settings=settings)


def test_small_corpus_has_no_graph_and_large_one_does(retriever, graph_retriever):
    from nztax.index import DENSE_GRAPH_FILE

    assert retriever.index.dense_graph is None
    assert not (retriever.index.directory / DENSE_GRAPH_FILE).exists()
    assert graph_retriever.index.dense_graph is not None
    assert graph_retriever.index.dense_graph.ntotal == len(graph_retriever.index.children)


@pytest.mark.parametrize("mode", ["hybrid", "dense"])
def test_graph_candidates_give_the_exact_results(retriever, graph_retriever, mode):
    for query in _queries():
        for tax_year in (None, "2024-25"):
            exact = retriever.search(query, k=5, mode=mode, tax_year=tax_year)
            graph = graph_retriever.search(query, k=5, mode=mode, tax_year=tax_year)
            assert [(h.parent_id, round(h.score, 5)) for h in graph] == [(h.parent_id, round(h.score, 5)) for h in exact], query


def test_bm25_from_postings_equals_the_library_scores(retriever):
    """bm25s's own get_scores is the reference: same scores, and coverage counts each known word once."""
    from nztax.index import bm25_tokenize

    bm25 = retriever.index.bm25
    for query in _queries() + ["tax tax tax code", "IR3 IR3 rental"]:
        text = retriever.query_text(query)
        scores, coverage = retriever.bm25_scores_and_coverage(text)
        tokens = bm25_tokenize([text], retriever.index.manifest.bm25, return_ids=False)[0]
        known = [t for t in tokens if t in bm25.vocab_dict]
        expected = np.asarray(bm25.get_scores(known), dtype=np.float32) if known else np.zeros(len(scores), np.float32)
        assert np.allclose(scores, expected, atol=1e-5), query
        contains = sum((np.asarray(bm25.get_scores([t])) > 0).astype(np.float32) for t in set(known)) if known else 0
        assert np.allclose(coverage, np.asarray(contains) / max(len(set(tokens)), 1)), query


def test_coverage_mutes_bm25_only_for_short_queries(retriever):
    """Over `bm25_coverage_max_words` terms a query keeps BM25's full vote, as with coverage power 0."""
    import dataclasses

    base = retriever.settings
    queries = _queries()

    def ranked(**change):
        retriever.settings = dataclasses.replace(base, **change)
        try:
            return [[h.parent_id for h in retriever.search(q, k=5)] for q in queries]
        finally:
            retriever.settings = base

    full_vote = ranked(bm25_coverage_power=0.0)
    # Every query counts as long then, which also changes the page cap and the fusion: hold those equal.
    assert ranked(bm25_coverage_max_words=0, long_query_sections_per_page=base.max_sections_per_page,
                  long_query_page_fusion=False, long_query_bm25_passes=0, long_query_rrf_k=base.rrf_k,
                  long_query_weight_bm25=base.rrf_weight_bm25, long_query_weight_dense=base.rrf_weight_dense,
                  long_query_page_vector_weight=base.page_vector_weight, long_query_bm25_distinct=False) == full_vote
    short_rule = ranked(bm25_coverage_max_words=100)
    assert short_rule == ranked()  # the fixture's queries are all short
    assert short_rule != full_vote  # coverage does change some short query's ranking
