"""Ranking behaviour on the fixture corpus: BM25, dense, fusion, identifiers, filters, floor."""

from __future__ import annotations

import dataclasses

import pytest

from nztax.index import bm25_tokenize, extract_identifiers
from nztax.retrieval import Hit, Retriever, rrf_fuse


def top(retriever, query, mode="hybrid", **kw):
    hits = retriever.search(query, k=5, mode=mode, **kw)
    return hits[0] if hits else None


def test_bm25_finds_legislation_section_by_identifier(retriever):
    hit = top(retriever, "LC 15", mode="bm25")
    assert hit.source_type == "legislation" and hit.section.startswith("LC 15")


def test_dense_finds_paraphrase_that_shares_no_word(retriever):
    query = "rewarding generosity toward good causes"
    page_words = set(bm25_tokenize([retriever.index.parents[top(retriever, query, "dense").parent_id]["text"]],
                                   retriever.index.manifest.bm25, return_ids=False)[0])
    query_words = set(bm25_tokenize([query], retriever.index.manifest.bm25, return_ids=False)[0])
    assert not page_words & query_words  # really a paraphrase
    assert retriever.search(query, mode="bm25") == []  # so keywords alone find nothing
    assert top(retriever, query, "dense").title == "Donation tax credits"
    assert top(retriever, query, "hybrid").title == "Donation tax credits"


def test_rrf_matches_hand_worked_example():
    # list A ranks docs 1,2,3; list B ranks 3,1 (weight 2). With k = 60:
    # doc1 = 1/61 + 2/62, doc2 = 1/62, doc3 = 1/63 + 2/61
    fused = rrf_fuse([([1, 2, 3], 1.0), ([3, 1], 2.0)], rrf_k=60)
    assert fused[1] == pytest.approx(0.016393443 + 0.032258065)
    assert fused[2] == pytest.approx(0.016129032)
    assert fused[3] == pytest.approx(0.015873016 + 0.032786885)
    assert sorted(fused, key=fused.get, reverse=True) == [3, 1, 2]
    assert rrf_fuse([([1], 0.0)], rrf_k=60) == {}


@pytest.mark.parametrize("query, title", [
    ("tax code ME", "Tax codes for individuals"),  # "me" is a stopword for BM25; the identifier list finds it
    ("what is M SL", "Tax codes for individuals"),
    ("IR330", "Tax code declaration (IR330)"),
    ("ir3 return due", "Individual income tax return (IR3)"),
    ("YA 1", "Income Tax Act 2007"),
])
def test_hybrid_ranks_exact_identifiers_first(retriever, query, title):
    assert top(retriever, query).title == title


def test_identifier_extraction():
    assert extract_identifiers("tax code M SL or ME, see IR340 and s LC 15, YA 1") >= {"M SL", "ME", "IR340", "LC 15", "YA 1"}
    assert extract_identifiers("tell me something") == set()
    assert "IR3" in extract_identifiers("file an ir3") and "IR3" not in extract_identifiers("IR330")
    assert extract_identifiers("schedule 1 part d rates") == {"Schedule 1", "Schedule 1 Part D"}
    assert extract_identifiers("Income Tax Act 2007, Schedule 1: Basic tax rates") == {"Schedule 1"}


def test_bm25_coverage_counts_unknown_words(retriever):
    scores, coverage = retriever.bm25_scores_and_coverage("independent earner tax credit zzqx")
    best = int(scores.argmax())
    # the best chunk has all four real words; "zzqx" is in no chunk, so at most 4/5
    assert coverage[best] == pytest.approx(4 / 5)
    assert (coverage <= 4 / 5 + 1e-6).all()
    assert retriever.bm25_scores("independent earner tax credit zzqx") == pytest.approx(scores)


def test_query_expansion_reaches_both_searches(retriever):
    assert retriever.query_text("KS rates") == "KS rates KiwiSaver"
    plain = dataclasses.replace(retriever.settings, query_expansion=False)
    assert Retriever(retriever.index, plain, retriever.embedder).query_text("KS rates") == "KS rates"
    # "KS" is in no chunk: only its canonical name lets keyword search find the KiwiSaver page
    assert Retriever(retriever.index, plain, retriever.embedder).search("KS", mode="bm25") == []
    assert top(retriever, "KS", mode="bm25").title == "KiwiSaver employee contributions"


def test_children_become_unique_parents(retriever):
    hits = retriever.search("ACC earners levy rate and maximum liable earnings", k=10)
    assert len({h.parent_id for h in hits}) == len(hits)
    acc = [h for h in hits if h.title.startswith("ACC")]
    assert {h.section for h in acc} == {"2026-27", "2025-26"}
    assert all(h.text == retriever.index.parents[h.parent_id]["text"] for h in hits)


def test_source_type_filter(retriever):
    hits = retriever.search("independent earner tax credit", k=10, source_types=["legislation"])
    assert hits and {h.source_type for h in hits} == {"legislation"}


def test_tax_year_filter_keeps_untagged_and_drops_other_years(retriever):
    hits = retriever.search("income tax rates for individuals", k=10, tax_year="2024-25")
    sections = {h.section for h in hits if h.title == "Tax rates for individuals"}
    assert sections == {"1 April 2024 to 31 March 2025"}
    assert all(h.tax_years in ([], ["2024-25"]) for h in hits)
    assert top(retriever, "income tax rates", tax_year="2023-24").section == "1 April 2021 to 31 March 2024"


@pytest.mark.parametrize("query", ["best sourdough starter recipe", "who won the rugby world cup", "zzqx vvbn"])
def test_relevance_floor_reports_nothing(retriever, query):
    assert retriever.search(query, mode="hybrid") == []


def test_bm25_drops_zero_scores_and_caps_k(retriever):
    assert retriever.search("zzqx vvbn", mode="bm25") == []
    hits = retriever.search("tax", k=500, mode="bm25")
    assert 0 < len(hits) <= len(retriever.index.parents)
    assert all(h.score > 0 for h in hits)


def test_hit_json_shape_and_tax_year(retriever):
    hit = top(retriever, "secondary tax code for a second job")
    assert isinstance(hit, Hit)
    assert list(hit.to_json()) == ["url", "title", "section", "source_type", "tax_year", "score", "text"]
    assert hit.tax_year == "2025-26, 2026-27" and hit.tax_years == ["2025-26", "2026-27"]
    untagged = top(retriever, "YA 1 definitions")
    assert untagged.tax_year is None


def test_bad_mode_and_k(retriever):
    with pytest.raises(ValueError):
        retriever.search("tax", mode="fuzzy")
    with pytest.raises(ValueError):
        retriever.search("tax", k=0)
    assert retriever.search("   ") == []


def test_search_tax_documents_tool(built_index, monkeypatch):
    import nztax.retrieval as retrieval

    settings, index_dir = built_index
    monkeypatch.setattr(retrieval, "_shared", Retriever.load(index_dir, settings=settings))
    result = retrieval.search_tax_documents("IR3 due date", k=2)
    assert result["query"] == "IR3 due date" and len(result["results"]) <= 2
    assert "individual-income-tax-return-ir3" in result["results"][0]["url"]
    nothing = retrieval.search_tax_documents("best sourdough starter recipe")
    assert nothing["results"] == [] and "Nothing relevant" in nothing["message"]
    assert retrieval.search_tax_documents("")["error"]["argument"] == "query"
    assert retrieval.search_tax_documents("tax", k=99)["error"]["argument"] == "k"
    assert retrieval.search_tax_documents("tax", tax_year="2026")["error"]["argument"] == "tax_year"
    assert retrieval.search_tax_documents("tax", source_type="blog")["error"]["argument"] == "source_type"


def test_fixture_golden_metrics(retriever):
    from pathlib import Path

    from nztax_build.evaluate_retrieval import evaluate, load_golden

    golden = load_golden(Path(__file__).with_name("golden_fixture.yaml"))
    results = evaluate(retriever, golden)["modes"]
    hybrid = results["hybrid"]
    assert hybrid.hit_at(5) == 1.0
    for mode in ("bm25", "dense"):
        assert hybrid.hit_at(1) >= results[mode].hit_at(1)
        assert hybrid.mrr() >= results[mode].mrr()


# A whole post, not a search-box query: more distinct terms than `bm25_coverage_max_words`.
LONG_RATES_QUESTION = ("My salary went up this year and my partner says our wages now fall into a higher "
                       "income tax bracket. Which tax rates for individuals apply to each dollar we earn?")


def _pages_before_repeat(hits):
    """How many hits come before the first one whose page was already listed."""
    seen = []
    for hit in hits:
        if hit.url in seen:
            break
        seen.append(hit.url)
    return len(seen)


def test_long_query_lists_each_page_once_before_any_page_twice(retriever):
    assert retriever.query_words(retriever.query_text(LONG_RATES_QUESTION)) > retriever.settings.bm25_coverage_max_words
    hits = retriever.search(LONG_RATES_QUESTION, k=25)
    pages = {h.url for h in hits}
    assert len(pages) < len(hits)  # some page has a second passing section ...
    assert _pages_before_repeat(hits) == len(pages)  # ... and it waits until every page has been listed once
    assert "tax-rates-for-individuals" in hits[0].url


def test_short_query_may_list_two_sections_of_one_page(retriever):
    hits = retriever.search("income tax rates for individuals", k=5)
    assert sum("tax-rates-for-individuals" in h.url for h in hits[:3]) == 2


def test_long_query_page_cap_is_a_setting(retriever):
    original = retriever.settings
    try:
        retriever.settings = dataclasses.replace(original, long_query_sections_per_page=2)
        hits = retriever.search(LONG_RATES_QUESTION, k=25)
    finally:
        retriever.settings = original
    assert _pages_before_repeat(hits) < len({h.url for h in hits})


def _two_pages(retriever):
    """(a1, a2, b): two children of one page and one child of another page."""
    pages = retriever.index.child_page
    for a1 in range(len(pages)):
        same = [row for row in range(len(pages)) if row != a1 and pages[row] == pages[a1]]
        other = [row for row in range(len(pages)) if pages[row] != pages[a1]]
        if same and other:
            return a1, same[0], other[0]
    pytest.skip("the fixture corpus has no page with two chunks")


def _page_fused(retriever, lists, votes):
    original = retriever.settings
    try:
        retriever.settings = dataclasses.replace(original, long_query_page_votes=votes)
        return retriever._page_fused(lists, 10, rrf_fuse(lists, rrf_k=10))
    finally:
        retriever.settings = original


@pytest.mark.parametrize("votes", [1, 2])
def test_page_fusion_votes_per_page_not_per_chunk(retriever, votes):
    a1, a2, b = _two_pages(retriever)
    # Both rankings put page A first, each through a different chunk; both put B's chunk second.
    lists = [([a1, b], 1.0), ([a2, b], 1.0)]
    by_chunk = rrf_fuse(lists, rrf_k=10)
    assert max(by_chunk, key=by_chunk.get) == b  # per chunk, B's one chunk wins on two votes
    by_page = _page_fused(retriever, lists, votes)
    assert by_page[a1] == pytest.approx(2 / 11, abs=1e-3) and by_page[b] == pytest.approx(2 / 12, abs=1e-3)
    assert max(by_page, key=by_page.get) in (a1, a2)
    # Within a page its chunks keep their fused order.
    one_list = [([a2, a1, b], 1.0)]
    within = _page_fused(retriever, one_list, votes)
    assert within[a2] > within[a1] > within[b]


def test_page_fusion_counts_a_pages_second_chunk_with_two_votes(retriever):
    a1, a2, b = _two_pages(retriever)
    # Page B's one chunk leads both rankings; page A's two chunks follow it in both.
    lists = [([b, a1, a2], 1.0), ([b, a2, a1], 1.0)]
    one_vote = _page_fused(retriever, lists, 1)  # pages B, A in each: B 2/11, A 2/12
    assert one_vote[b] == pytest.approx(2 / 11, abs=1e-3) and one_vote[a1] == pytest.approx(2 / 12, abs=1e-3)
    two_votes = _page_fused(retriever, lists, 2)  # A's chunks at their own ranks 2 and 3 in each
    assert two_votes[b] == pytest.approx(2 / 11, abs=1e-3)
    assert two_votes[a1] == pytest.approx(2 * (1 / 12 + 1 / 13), abs=1e-3)
    assert max(two_votes, key=two_votes.get) in (a1, a2)


def test_page_fusion_ignores_chunks_beyond_the_votes(retriever):
    pages = retriever.index.child_page
    rows = next((r for r in (list(map(int, (pages == p).nonzero()[0])) for p in set(pages.tolist())) if len(r) >= 3), None)
    if rows is None:
        pytest.skip("the fixture corpus has no page with three chunks")
    a1, a2, a3 = rows[:3]
    lists = [([a1, a2, a3], 1.0)]
    assert _page_fused(retriever, lists, 2)[a1] == pytest.approx(1 / 11 + 1 / 12, abs=1e-3)  # the third adds nothing
    assert _page_fused(retriever, lists, 3)[a1] == pytest.approx(1 / 11 + 1 / 12 + 1 / 13, abs=1e-3)


def test_long_query_fusion_settings_apply_to_long_queries_only(retriever):
    original = retriever.settings
    short = "income tax rates for individuals"

    def ranked(query, **change):
        retriever.settings = dataclasses.replace(original, **change)
        try:
            return [h.parent_id for h in retriever.search(query, k=10)]
        finally:
            retriever.settings = original

    assert ranked(short, long_query_weight_dense=0.0) == ranked(short)
    assert ranked(LONG_RATES_QUESTION, rrf_weight_dense=0.0) == ranked(LONG_RATES_QUESTION)
    assert ranked(LONG_RATES_QUESTION, long_query_weight_dense=0.0) != ranked(LONG_RATES_QUESTION)


def test_long_query_dense_score_uses_its_own_page_vector_weight(retriever):
    import numpy as np

    original = retriever.settings
    settings = retriever.settings = dataclasses.replace(original, long_query_page_vector_weight=1.0)
    assert settings.long_query_page_vector_weight != settings.page_vector_weight  # else nothing to tell apart
    try:
        rows = {child["id"]: row for row, child in enumerate(retriever.index.children)}
        for query, weight in (("income tax rates for individuals", settings.page_vector_weight),
                              (LONG_RATES_QUESTION, settings.long_query_page_vector_weight)):
            vector = retriever.embed_query(query)
            page_cosine = retriever.index.page_vectors @ vector
            hits = retriever.search(query, k=3, mode="dense", query_vector=vector)
            assert hits
            for hit in hits:
                row = rows[hit.child_id]
                expected = float(retriever.index.vectors[row] @ vector) + weight * float(page_cosine[retriever.index.child_page[row]])
                assert hit.score == pytest.approx(expected, abs=1e-5)
    finally:
        retriever.settings = original


def test_long_query_bm25_counts_a_repeated_word_once(retriever):
    original = retriever.settings
    repeated = LONG_RATES_QUESTION + " Rates, rates, rates."  # "rates" is already in the question

    def scores(query, **change):
        retriever.settings = dataclasses.replace(original, **change)
        try:
            return [(h.parent_id, round(h.score, 5)) for h in retriever.search(query, k=5, mode="bm25")]
        finally:
            retriever.settings = original

    assert scores(repeated, long_query_bm25_distinct=True) == scores(LONG_RATES_QUESTION, long_query_bm25_distinct=True)
    assert scores(repeated, long_query_bm25_distinct=False) != scores(LONG_RATES_QUESTION, long_query_bm25_distinct=False)
    short = "tax rates rates"  # a short query keeps its repeats
    assert scores(short, long_query_bm25_distinct=True) == scores(short, long_query_bm25_distinct=False)


def test_long_query_keeps_bm25_top_chunks_under_the_cosine_floor(retriever):
    import numpy as np

    original = retriever.settings
    text = retriever.query_text(LONG_RATES_QUESTION)
    vector = retriever.embed_query(LONG_RATES_QUESTION)
    cosine = retriever.dense_scores(vector)
    bm25 = retriever.bm25_scores(text)
    bm25_top = [int(row) for row in np.argsort(-bm25)[:original.long_query_bm25_passes] if bm25[row] > 0]
    best = float(cosine[bm25 > 0].max())
    below = [row for row in bm25_top if cosine[row] < best]
    assert below, "every BM25 top chunk has the best cosine: nothing to test"
    row = max(below, key=lambda r: cosine[r])
    floor = (float(cosine[row]) + best) / 2  # the row is under it; the query as a whole still passes
    parent = retriever.index.children[row]["parent_id"]

    def parents(**change):
        retriever.settings = dataclasses.replace(original, relevance_floor=floor, **change)
        try:
            return {h.parent_id for h in retriever.search(LONG_RATES_QUESTION, k=25, query_vector=vector)}
        finally:
            retriever.settings = original

    kept = parents()
    assert kept and parent in kept
    assert parent not in parents(long_query_bm25_passes=0)


def test_long_query_variants_table_reports_each_split_and_restores_settings(retriever):
    from nztax_build.evaluate_retrieval import LONG_QUERY_VARIANTS, GoldenQuery, GoldenSet, long_query_variants

    golden = GoldenSet([
        GoldenQuery("p1", LONG_RATES_QUESTION, "real_post", ("tax-rates-for-individuals",), (), None, "dev"),
        GoldenQuery("p2", LONG_RATES_QUESTION, "real_post", ("no-such-page",), (), None, "test"),
    ])
    before = retriever.settings
    table = long_query_variants(retriever, golden)
    assert retriever.settings is before
    rows = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith("| variant")]
    from nztax_build import page_bm25_variants, rerank_variants

    assert [row.split(" | ")[0][2:] for row in rows] == ([name for name, _ in LONG_QUERY_VARIANTS]
                                                         + [f"{v[0]} (not kept)" for v in rerank_variants.VARIANTS]
                                                         + [f"{v[0]} (not kept)" for v in page_bm25_variants.VARIANTS])
    assert "| dev (1) | test (1) |" in table
    assert rows[0].split(" | ")[1].startswith("1.000") and rows[0].split(" | ")[2].startswith("0.000")


def test_asking_reranker_reorders_only_a_long_querys_candidates(retriever):
    from nztax_build.rerank_variants import CANDIDATES, AskingReranker

    plain = lambda q, k: [h.parent_id for h in retriever.search(q, k=k)]
    reranker = AskingReranker.from_page_vectors(retriever, weight=1.0)
    short = "tax rates for individuals"
    assert [h.parent_id for h in reranker.search(short, k=5)] == plain(short, 5)
    reranked = [h.parent_id for h in reranker.search(LONG_RATES_QUESTION, k=CANDIDATES)]
    assert sorted(reranked) == sorted(plain(LONG_RATES_QUESTION, CANDIDATES))
    # With no weight on the asking sentences the hybrid order stands.
    unweighted = AskingReranker(retriever, reranker.page_vectors, weight=0.0)
    assert [h.parent_id for h in unweighted.search(LONG_RATES_QUESTION, k=5)] == plain(LONG_RATES_QUESTION, 5)


def test_page_summaries_hold_title_headings_and_opening(retriever):
    from nztax_build.rerank_variants import page_summaries

    summaries = page_summaries(retriever)
    parent = next(iter(retriever.index.parents.values()))
    text = summaries[parent["url"]]
    assert text.startswith(parent["title"])
    assert page_summaries(retriever, first_sentences=0, headings=False)[parent["url"]] == parent["title"]


def test_pages_the_annotators_never_read_are_set_aside(retriever):
    from nztax_build.evaluate_retrieval import GoldenQuery, GoldenSet, ReadPagesOnly, _page_key, read_pages_rows

    hits = retriever.search(LONG_RATES_QUESTION, k=10)
    first = hits[0].url
    read = frozenset(_page_key(c.get("url", "")) for c in retriever.index.children) - {_page_key(first)}
    wrapped = ReadPagesOnly(retriever, read)
    assert wrapped.unread == 1
    kept = wrapped.search(LONG_RATES_QUESTION, k=5)
    assert [h.parent_id for h in kept] == [h.parent_id for h in hits if h.url != first][:5]
    # A post whose only accepted page was never read cannot be found once it is set aside.
    golden = GoldenSet([GoldenQuery("p1", LONG_RATES_QUESTION, "real_post", (_page_key(first),), (), None, "dev")])
    table = read_pages_rows(retriever, golden, read)
    assert "(1 pages;" in table and "| hybrid | 0.000 / 0.000 / 0.000 |" in table


def test_page_texts_hold_every_section_of_their_page(retriever):
    from nztax_build.page_bm25_variants import page_texts

    texts = page_texts(retriever.index, title_repeat=2)
    for parent in retriever.index.parents.values():
        page = int(retriever.index.child_page[next(i for i, c in enumerate(retriever.index.children)
                                                   if c.get("url") == parent["url"])])
        assert parent["text"] in texts[page]
        assert texts[page].startswith(f"{parent['title']} " * 3)


def test_page_bm25_vote_moves_only_a_long_querys_pages(retriever):
    from nztax_build.page_bm25_variants import PageBM25, PageVoteRetriever

    pages = PageBM25.build(retriever.index)
    ids = lambda r, q: [h.parent_id for h in r.search(q, k=5)]
    # No weight: the plain search; a short query is never fused per page.
    assert ids(PageVoteRetriever(retriever, pages, 0.0), LONG_RATES_QUESTION) == ids(retriever, LONG_RATES_QUESTION)
    short = "tax rates for individuals"
    assert ids(PageVoteRetriever(retriever, pages, 100.0), short) == ids(retriever, short)
    # An overwhelming weight puts the page the page ranking names first on top (one plain search does not).
    page_of = {c.get("id"): int(p) for c, p in zip(retriever.index.children, retriever.index.child_page)}
    plain_first = page_of[retriever.search(LONG_RATES_QUESTION, k=1)[0].child_id]
    target = next(int(p) for p in retriever.index.child_page if int(p) != plain_first)

    class OnePage(PageBM25):
        def ranking(self, tokens, depth):
            return [target]

    hits = PageVoteRetriever(retriever, OnePage(None, {}), 100.0).search(LONG_RATES_QUESTION, k=5)
    assert page_of[hits[0].child_id] == target
    assert pages.ranking(retriever.query_tokens("salary wages income tax"), 5)  # the real ranking finds pages
