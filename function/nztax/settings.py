"""Every tuning knob and path in one place, read from environment variables.

In: the process environment. Out: a frozen `Settings` value (`get_settings()`).
Tax figures never live here: they are in `nztax/rules/*.yaml`. Each variable, its default and what it
does is in the settings table of `docs/operations.md` ("Settings"; tests/engine/test_settings_table.py
checks that every variable read here has a row there, with the default the code uses).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

# function/nztax/settings.py -> the repository root is three levels up.
_PACKAGE_DIR = Path(__file__).resolve().parent
_DEFAULT_HOME = _PACKAGE_DIR.parents[1]


def _env(name: str, default: str) -> str:
    value = os.environ.get(name)
    return default if value is None or value == "" else value


def _path(name: str, default: str, home: Path) -> Path:
    p = Path(_env(name, default))
    return p if p.is_absolute() else home / p


@dataclass(frozen=True)
class Settings:
    home: Path
    corpus_dir: Path
    index_dir: Path
    work_dir: Path
    site_src: Path
    rules_dir: Path
    embedder: str
    gemini_api_key: str | None
    gemini_base_url: str | None
    llm_model: str | None
    llm_api_base: str | None
    llm_timeout: float
    llm_max_retries: int
    llm_max_hops: int
    rrf_k: int
    rrf_weight_bm25: float
    rrf_weight_dense: float
    allowed_origins: tuple[str, ...]
    rate_limit_per_minute: int
    ask_url: str
    crawl_delay: float
    crawl_timeout: float
    user_agent: str
    # crawler and chunker knobs (issue 3); defaulted like the knobs below
    crawl_max_bytes: int = 20_000_000
    crawl_retries: int = 3
    crawl_backoff: float = 1.0
    crawl_backoff_cap: float = 30.0
    crawl_retry_after_cap: float = 120.0
    crawl_gone_threshold: int = 3
    crawl_max_redirects: int = 5
    # A 200 whose main content is below this share of the good copy's is a damaged fetch (issue 14).
    crawl_min_content_ratio: float = 0.8
    # A new site/index holding less than (1 - this) of the live one's files/chunks/answers is refused.
    publish_max_shrink: float = 0.2
    chunk_size: int = 1000
    chunk_overlap: int = 150
    chunk_parent_max: int = 6000
    # retrieval knobs (issue 5); defaulted so older callers constructing Settings keep working
    rrf_weight_identifier: float = 1.0
    retrieval_candidates: int = 50
    max_sections_per_page: int = 2  # diversity: sections of one page among the results (0 = no cap)
    # The same cap for a long query (more distinct terms than `bm25_coverage_max_words`): a real post
    # asks about a page, so its best passage per page lets the next pages in (docs/realposts.md).
    long_query_sections_per_page: int = 1
    relevance_floor: float | None = None
    bm25_k1: float = 1.5
    bm25_b: float = 0.75
    bm25_heading_repeat: int = 3
    page_vector_weight: float = 0.5
    # From this many chunks the index also holds an HNSW graph and a search takes its dense
    # candidates from it rather than scoring every chunk (0 = always score every chunk).
    dense_graph_min_chunks: int = 20000
    query_expansion: bool = True
    bm25_coverage_power: float = 2.0
    # Coverage scales BM25's vote only for queries of at most this many distinct terms (a long post
    # keeps BM25's full vote); measured on the real-post and short-query development parts.
    bm25_coverage_max_words: int = 8
    # A long query (a whole post) asks about a page: each ranking votes per page (`long_query_page_votes`), and BM25's
    # first few chunks pass the cosine floor a story's diluted vector would hold them under (docs/retrieval.md).
    long_query_page_fusion: bool = True
    # In that page fusion each ranking votes for a page at the ranks of its best this-many chunks: a
    # page that answers a post in two passages outranks one with a single look-alike passage (1 = one
    # vote at the page's place among pages; measured in docs/retrieval.md, "Real posts").
    long_query_page_votes: int = 2
    long_query_bm25_passes: int = 5
    # Fusion per query length class: a long query's own RRF k and weights (k 5 chosen on the real-post development
    # part; k 10 with the page-vector weight 1.0 and distinct words below lost on the frozen part; weights flat).
    long_query_rrf_k: int = 5
    long_query_weight_bm25: float = 1.0
    long_query_weight_dense: float = 1.0
    # Measured and not adopted (docs/retrieval.md, "Real posts"): a long query's dense score leaning
    # more on the page's vector, and its BM25 query counting each word once.
    long_query_page_vector_weight: float = 0.5
    long_query_bm25_distinct: bool = False
    # A fourth vote in a long query's page fusion: pages ranked by the answer units' paraphrases
    # nearest the post (`unit_pages.py`); its weight (0 = off), what is compared with the paraphrases
    # (the asking sentences, the whole post, or both summed), how many of a page's best units its
    # score averages, and how many of its first pages pass the cosine floor. Chosen on the real-post
    # development part (docs/retrieval.md, "The answer units' questions").
    long_query_unit_weight: float = 0.5
    long_query_unit_query: str = "post"
    long_query_unit_pool: int = 2
    long_query_unit_passes: int = 1
    # More votes: pages by the post's topic as the units read it (`UnitPages.topic_ranking`; won on
    # development, lost on the frozen part) and by its intent's canonical query (intent_query.py; 1.5
    # won on both parts, but 3 development answers got worse, none better): both off.
    long_query_topic_weight: float = 0.0
    long_query_topic_temperature: float = 0.02
    long_query_intent_weight: float = 0.0
    embed_batch_size: int = 16
    gemini_timeout: float = 30.0
    gemini_max_retries: int = 5
    gemini_backoff: float = 2.0
    # publish gates and deploy (issue 8); defaulted like the retrieval knobs above
    gate_max_shrink: float = 0.10
    gate_max_parse_failures: int = 0
    gate_score_tolerance: float = 0.01
    gcp_project: str | None = None
    gcp_region: str = "australia-southeast1"
    function_name: str = "nztax-ask"
    function_max_instances: int = 3
    function_concurrency: int = 8
    function_cpu: str = "1"
    function_memory: str = "1Gi"
    function_timeout: int = 60
    function_llm_model: str = "gemini/gemini-2.5-flash"
    function_embedder: str = "auto"
    bench_baseline: str = "0c9586f"
    bench_baseline_index: Path | None = None
    bench_lighthouse_runs: int = 3
    trusted_proxy_depth: int = 0
    server_threads: int = 32
    blas_threads: int = 1
    query_model_threads: int = 1
    request_read_timeout: float = 10.0
    request_deadline: float = 10.0
    server_max_connections: int = 200
    question_cpu_budget: float = 1.0
    max_question_figures: int = 30
    gemini_secret: str = "gemini-api-key"
    site_url: str | None = None
    firebase_site: str | None = None
    # answer engine (issue 6)
    llm_max_tokens: int = 1200
    llm_frame_retries: int = 1
    llm_unit_margin: float = 0.3
    answer_passages: int = 5
    faq_match_threshold: float = 0.8
    query_memo_size: int = 512
    frame_bar: float = 0.7
    frame_certain_bar: float = 0.5
    # How likely, at least, each amount a calculation feeds must be read as a kind its calculator takes
    # (`amounts_taken` in data/decisions.yaml: a donation credit takes a gift, not a ticket's price).
    frame_kind_bar: float = 0.5
    frame_scope_bar: float = 0.8
    frame_scope_firm_bar: float = 0.95
    # A story read at least this likely to be New Zealand personal tax is answered even when the intent
    # reading proposes declining it as another tax's or an employer's matter. (A story is declined when
    # its other subjects together reach `frame_scope_bar`, or `frame_scope_firm_bar` against a sure
    # intent reading, as one subject alone is.)
    frame_scope_in_bar: float = 0.4
    ask_trace: bool = False
    units_dir: Path | None = None         # None: the package's data/units
    units_serve: bool = True
    unit_min_score: float = 1.0
    unit_margin: float = 0.1
    unit_over_decline: float = 1.1
    unit_alone_score: float = 0.8
    unit_alone_margin: float = 0.3
    unit_near_score: float = 0.8
    unit_near_margin: float = 0.15
    # ... and for a search typed as a few words (short_query.typed_as_search), which asks its topic's
    # central question as often as the unit's: a wider lead over every other unit.
    unit_search_margin: float = 0.2
    unit_rank_margin: float = 2.0
    unit_rank_min_score: float = 0.7
    unit_rank_veto: bool = True
    unit_rank_one_sentence: bool = True
    # A post's asking sentence read against the units (docs/units.md): its own score at least
    # `asked_unit_min_score`, and its score plus `asked_unit_post_weight` x the whole post's cosine to
    # the unit ahead of every other unit by `asked_unit_margin`.
    asked_unit_min_score: float = 0.85
    asked_unit_post_weight: float = 1.0
    asked_unit_margin: float = 0.1
    # ... or, at `asked_unit_agree_score`, when the unit is both the sentence's nearest and the whole
    # post's nearest (a cosine of at least `asked_unit_agree_post`): two readings agree.
    asked_unit_agree_score: float = 0.75
    asked_unit_post_least: float = 0.6  # the whole post's least cosine to a unit its asking sentence is served
    asked_unit_agree_post: float = 0.7
    # A story no route served (unit_agree.py): the unit its asking sentences rank first, at least
    # `unit_retrieval_score` and `unit_retrieval_margin` ahead, when retrieval over the corpus alone
    # ranks the unit's page among its first `unit_retrieval_pages` (0 = off): two readings agree.
    unit_retrieval_pages: int = 1
    unit_retrieval_score: float = 0.35
    unit_retrieval_margin: float = 0.03
    # A story's unit by the learned gate (story_gate.py): `story_gate` off, extra (when no route served) or replace (in place of match_asked's bars), at `story_gate_bar`.
    story_gate: str = "off"
    story_gate_bar: float = 0.8
    # A post's asking sentence read less than `frame_bar` sure but at least this sure serves only the
    # unit it and the whole post are both nearest (the agreement above): its words may not ask what
    # they suggest, but the story pointing at the same unit settles it.
    asked_unit_unsure_bar: float = 0.5
    # ... and one read less sure than that, when its words ask (a question mark, a question's opening):
    # the sureness says what kind of answer it wants, not whether it asks (only agreement serves it).
    asked_unit_unsure_agree: bool = True
    # A post the intent reading declines, which the scope reading is sure (`frame_scope_bar`) is New
    # Zealand personal tax: its surely read asking sentence's unit answers at this score, twice the margin.
    asked_unit_over_decline: float = 0.95
    # A decline unit (decline_units.py) declines a question the engine would answer when the question,
    # or one of its asking sentences, is at least this near one of its wordings and leads the nearest
    # answer unit's wording by the margin.
    decline_unit_score: float = 0.55
    decline_unit_margin: float = 0.05
    # A post of several sentences naming a situation: the lead a unit for that situation needs over
    # the next when its asking sentences and the whole post are both nearest it (two readings agree).
    asked_situation_agreed_margin: float = 0.0
    # A story none of whose sentences matched a unit (`UnitMatcher.match_topic`): the unit its whole
    # post is nearest both in meaning and in BM25 words, when their sum (BM25 scaled by the best
    # unit's, times the weight) leads the next unit's by the margin.
    unit_topic_lexical_weight: float = 0.15
    unit_topic_margin: float = 0.0
    # A story that sets out its own understanding of a rule (belief.py): the verdict unit the belief
    # is at least `belief_unit_least` near, whose sum with the whole post's cosine leads the next
    # verdict unit's by `belief_unit_margin`.
    belief_unit_least: float = 0.6
    belief_unit_margin: float = 0.05
    # Another asked part of a post (asked_parts.py) is answered by a unit from a sentence read at least
    # this sure; its kind is then held to that reading as if sure.
    asked_part_bar: float = 0.5
    # A question nothing in the reading understood (docs/units.md): a unit answers it only when the
    # corpus and units know its content words, and at a stricter score and margin.
    unread_known_share: float = 1.0
    unknown_words_share: float = 0.5
    unread_min_words: int = 2
    unread_unit_score: float = 1.2
    unread_unit_margin: float = 0.2
    lead_yield: float = 0.5
    opening_weights: str = "0,1,0,0"  # (read by opening_rank.weights)
    opening_doubt_pages: int = 2
    opening_doubt_units: int = 5
    lead_doubt_cosine: float = 0.55  # (0: off)
    # understanding (issue 11)
    intent_margin: float = 0.04
    intent_cover_margin: float = 0.15     # a named sum that shows the best intent's figure too wins by this much
    intent_min_score: float = 0.45
    intent_lexical_weight: float = 0.35
    intent_neighbours: int = 3
    intent_slot_weight: float = 0.1
    intent_avoid_weight: float = 0.2
    per_pay_ceiling: float = 12000.0
    refuse_margin: float = 0.15
    intent_sequence_gap: int = 3          # words allowed between the steps of a refusal's word sequence
    refuse_min_score_unworded: float = 0.6  # a refusal by nearness alone, without its words, needs this score
    bare_amount_minimum: float = 10000.0
    negation_window_words: int = 5        # words before a condition searched for a negation
    spelling_cutoff: float = 0.85
    spelling_min_length: int = 5
    plausible_pay_per_period: dict = field(default_factory=lambda: dict(PLAUSIBLE_PAY_DEFAULT))
    extra: dict = field(default_factory=dict)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Read the environment once per process (tests call `get_settings.cache_clear()`)."""
    home = Path(_env("NZTAX_HOME", str(_DEFAULT_HOME))).resolve()
    rules_default = str(_PACKAGE_DIR / "rules")
    return Settings(
        home=home, corpus_dir=_path("NZTAX_CORPUS_DIR", "corpus", home),
        index_dir=_path("NZTAX_INDEX_DIR", "index", home),
        work_dir=_path("NZTAX_WORK_DIR", ".work", home),
        site_src=_path("NZTAX_SITE_SRC", "site_src", home),
        rules_dir=_path("NZTAX_RULES_DIR", rules_default, home),
        embedder=_env("NZTAX_EMBEDDER", "auto"),
        gemini_api_key=os.environ.get("GEMINI_API_KEY") or None,
        gemini_base_url=os.environ.get("NZTAX_GEMINI_BASE_URL") or None,
        llm_model=os.environ.get("NZTAX_LLM_MODEL") or None,
        llm_api_base=os.environ.get("NZTAX_LLM_API_BASE") or None,
        llm_timeout=float(_env("NZTAX_LLM_TIMEOUT", "20")),
        llm_max_retries=int(_env("NZTAX_LLM_MAX_RETRIES", "1")),
        llm_max_hops=int(_env("NZTAX_LLM_MAX_HOPS", "3")),
        rrf_k=int(_env("NZTAX_RRF_K", "10")),
        rrf_weight_bm25=float(_env("NZTAX_RRF_WEIGHT_BM25", "1.0")),
        rrf_weight_dense=float(_env("NZTAX_RRF_WEIGHT_DENSE", "1.0")),
        allowed_origins=tuple(
            o.strip()
            for o in _env("NZTAX_ALLOWED_ORIGINS", "http://127.0.0.1:8000,http://localhost:8000").split(",")
            if o.strip()
        ),
        rate_limit_per_minute=int(_env("NZTAX_RATE_LIMIT_PER_MINUTE", "30")),
        trusted_proxy_depth=int(_env("NZTAX_TRUSTED_PROXY_DEPTH", "0")),
        server_threads=int(_env("NZTAX_SERVER_THREADS", "32")),
        blas_threads=int(_env("NZTAX_BLAS_THREADS", "1")),
        query_model_threads=int(_env("NZTAX_QUERY_MODEL_THREADS", "1")),
        request_read_timeout=float(_env("NZTAX_REQUEST_READ_TIMEOUT", "10")),
        request_deadline=float(_env("NZTAX_REQUEST_DEADLINE", "10")),
        server_max_connections=int(_env("NZTAX_SERVER_MAX_CONNECTIONS", "200")),
        question_cpu_budget=float(_env("NZTAX_QUESTION_CPU_BUDGET", "1.0")),
        max_question_figures=int(_env("NZTAX_MAX_QUESTION_FIGURES", "30")),
        ask_url=_env("NZTAX_ASK_URL", "http://127.0.0.1:8080/"),
        crawl_delay=float(_env("NZTAX_CRAWL_DELAY", "1.0")),
        crawl_timeout=float(_env("NZTAX_CRAWL_TIMEOUT", "20")),
        user_agent=_env("NZTAX_USER_AGENT", "nztax-crawler/0.1 (+https://github.com/nztax/nztax)"),
        crawl_max_bytes=int(_env("NZTAX_CRAWL_MAX_BYTES", "20000000")),
        crawl_retries=int(_env("NZTAX_CRAWL_RETRIES", "3")),
        crawl_backoff=float(_env("NZTAX_CRAWL_BACKOFF", "1.0")),
        crawl_backoff_cap=float(_env("NZTAX_CRAWL_BACKOFF_CAP", "30")),
        crawl_retry_after_cap=float(_env("NZTAX_CRAWL_RETRY_AFTER_CAP", "120")),
        crawl_gone_threshold=int(_env("NZTAX_CRAWL_GONE_THRESHOLD", "3")),
        crawl_max_redirects=int(_env("NZTAX_CRAWL_MAX_REDIRECTS", "5")),
        crawl_min_content_ratio=float(_env("NZTAX_CRAWL_MIN_CONTENT_RATIO", "0.8")),
        publish_max_shrink=float(_env("NZTAX_PUBLISH_MAX_SHRINK", "0.2")),
        chunk_size=int(_env("NZTAX_CHUNK_SIZE", "1000")),
        chunk_overlap=int(_env("NZTAX_CHUNK_OVERLAP", "150")),
        chunk_parent_max=int(_env("NZTAX_CHUNK_PARENT_MAX", "6000")),
        rrf_weight_identifier=float(_env("NZTAX_RRF_WEIGHT_IDENTIFIER", "1.0")),
        retrieval_candidates=int(_env("NZTAX_RETRIEVAL_CANDIDATES", "50")),
        max_sections_per_page=int(_env("NZTAX_MAX_SECTIONS_PER_PAGE", "2")),
        long_query_sections_per_page=int(_env("NZTAX_LONG_QUERY_SECTIONS_PER_PAGE", "1")),
        relevance_floor=float(os.environ["NZTAX_RELEVANCE_FLOOR"]) if os.environ.get("NZTAX_RELEVANCE_FLOOR") else None,
        bm25_k1=float(_env("NZTAX_BM25_K1", "1.5")),
        bm25_b=float(_env("NZTAX_BM25_B", "0.75")),
        bm25_heading_repeat=int(_env("NZTAX_BM25_HEADING_REPEAT", "3")),
        page_vector_weight=float(_env("NZTAX_PAGE_VECTOR_WEIGHT", "0.5")),
        dense_graph_min_chunks=int(_env("NZTAX_DENSE_GRAPH_MIN_CHUNKS", "20000")),
        bm25_coverage_power=float(_env("NZTAX_BM25_COVERAGE_POWER", "2")),
        bm25_coverage_max_words=int(_env("NZTAX_BM25_COVERAGE_MAX_WORDS", "8")),
        long_query_page_fusion=_env("NZTAX_LONG_QUERY_PAGE_FUSION", "1").strip().lower() not in ("0", "false", "no", "off"),
        long_query_page_votes=int(_env("NZTAX_LONG_QUERY_PAGE_VOTES", "2")),
        long_query_bm25_passes=int(_env("NZTAX_LONG_QUERY_BM25_PASSES", "5")),
        long_query_rrf_k=int(_env("NZTAX_LONG_QUERY_RRF_K", "5")),
        long_query_weight_bm25=float(_env("NZTAX_LONG_QUERY_WEIGHT_BM25", "1.0")),
        long_query_weight_dense=float(_env("NZTAX_LONG_QUERY_WEIGHT_DENSE", "1.0")),
        long_query_page_vector_weight=float(_env("NZTAX_LONG_QUERY_PAGE_VECTOR_WEIGHT", "0.5")),
        long_query_bm25_distinct=_env("NZTAX_LONG_QUERY_BM25_DISTINCT", "0").strip().lower() not in ("0", "false", "no", "off"),
        long_query_unit_weight=float(_env("NZTAX_LONG_QUERY_UNIT_WEIGHT", "0.5")),
        long_query_unit_query=_env("NZTAX_LONG_QUERY_UNIT_QUERY", "post").strip().lower(),
        long_query_unit_pool=int(_env("NZTAX_LONG_QUERY_UNIT_POOL", "2")),
        long_query_unit_passes=int(_env("NZTAX_LONG_QUERY_UNIT_PASSES", "1")),
        long_query_topic_weight=float(_env("NZTAX_LONG_QUERY_TOPIC_WEIGHT", "0")),
        long_query_topic_temperature=float(_env("NZTAX_LONG_QUERY_TOPIC_TEMPERATURE", "0.02")),
        long_query_intent_weight=float(_env("NZTAX_LONG_QUERY_INTENT_WEIGHT", "0")),
        query_expansion=_env("NZTAX_QUERY_EXPANSION", "1").strip().lower() not in ("0", "false", "no", "off"),
        embed_batch_size=int(_env("NZTAX_EMBED_BATCH_SIZE", "16")),
        gemini_timeout=float(_env("NZTAX_GEMINI_TIMEOUT", "30")),
        gemini_max_retries=int(_env("NZTAX_GEMINI_MAX_RETRIES", "5")),
        gemini_backoff=float(_env("NZTAX_GEMINI_BACKOFF", "2.0")),
        gate_max_shrink=float(_env("NZTAX_GATE_MAX_SHRINK", "0.10")),
        gate_max_parse_failures=int(_env("NZTAX_GATE_MAX_PARSE_FAILURES", "0")),
        gate_score_tolerance=float(_env("NZTAX_GATE_SCORE_TOLERANCE", "0.01")),
        gcp_project=os.environ.get("NZTAX_GCP_PROJECT") or None,
        gcp_region=_env("NZTAX_GCP_REGION", "australia-southeast1"),
        function_name=_env("NZTAX_FUNCTION_NAME", "nztax-ask"),
        function_max_instances=int(_env("NZTAX_FUNCTION_MAX_INSTANCES", "3")),
        function_concurrency=int(_env("NZTAX_FUNCTION_CONCURRENCY", "8")),
        function_cpu=_env("NZTAX_FUNCTION_CPU", "1"),
        function_memory=_env("NZTAX_FUNCTION_MEMORY", "1Gi"),
        function_timeout=int(_env("NZTAX_FUNCTION_TIMEOUT", "60")),
        function_llm_model=_env("NZTAX_FUNCTION_LLM_MODEL", "gemini/gemini-2.5-flash"),
        function_embedder=_env("NZTAX_FUNCTION_EMBEDDER", "auto"),
        bench_baseline=_env("NZTAX_BENCH_BASELINE", "0c9586f"),
        bench_baseline_index=Path(_env("NZTAX_BENCH_BASELINE_INDEX", "")).resolve() if _env("NZTAX_BENCH_BASELINE_INDEX", "") else None,
        bench_lighthouse_runs=max(1, int(_env("NZTAX_BENCH_LIGHTHOUSE_RUNS", "3"))),
        gemini_secret=_env("NZTAX_GEMINI_SECRET", "gemini-api-key"),
        site_url=os.environ.get("NZTAX_SITE_URL") or None,
        firebase_site=os.environ.get("NZTAX_FIREBASE_SITE") or None,
        llm_max_tokens=int(_env("NZTAX_LLM_MAX_TOKENS", "1200")),
        llm_frame_retries=int(_env("NZTAX_LLM_FRAME_RETRIES", "1")),
        llm_unit_margin=float(_env("NZTAX_LLM_UNIT_MARGIN", "0.3")),
        answer_passages=int(_env("NZTAX_ANSWER_PASSAGES", "5")),
        faq_match_threshold=float(_env("NZTAX_FAQ_MATCH_THRESHOLD", "0.8")),
        query_memo_size=int(_env("NZTAX_QUERY_MEMO_SIZE", "512")),
        frame_bar=float(_env("NZTAX_FRAME_BAR", "0.7")),
        frame_certain_bar=float(_env("NZTAX_FRAME_CERTAIN_BAR", "0.5")),
        frame_kind_bar=float(_env("NZTAX_FRAME_KIND_BAR", "0.5")),
        frame_scope_bar=float(_env("NZTAX_FRAME_SCOPE_BAR", "0.8")),
        frame_scope_firm_bar=float(_env("NZTAX_FRAME_SCOPE_FIRM_BAR", "0.95")),
        frame_scope_in_bar=float(_env("NZTAX_FRAME_SCOPE_IN_BAR", "0.4")),
        ask_trace=_env("NZTAX_ASK_TRACE", "0") == "1",
        units_dir=_path("NZTAX_UNITS_DIR", str(_PACKAGE_DIR / "data" / "units"), home),
        units_serve=_env("NZTAX_UNITS_SERVE", "1") != "0",
        unit_min_score=float(_env("NZTAX_UNIT_MIN_SCORE", "1.0")),
        unit_margin=float(_env("NZTAX_UNIT_MARGIN", "0.1")),
        unit_over_decline=float(_env("NZTAX_UNIT_OVER_DECLINE", "1.1")),
        unit_alone_score=float(_env("NZTAX_UNIT_ALONE_SCORE", "0.8")),
        unit_alone_margin=float(_env("NZTAX_UNIT_ALONE_MARGIN", "0.3")),
        unit_near_score=float(_env("NZTAX_UNIT_NEAR_SCORE", "0.8")),
        unit_near_margin=float(_env("NZTAX_UNIT_NEAR_MARGIN", "0.15")),
        unit_search_margin=float(_env("NZTAX_UNIT_SEARCH_MARGIN", "0.2")),
        unit_rank_margin=float(_env("NZTAX_UNIT_RANK_MARGIN", "2.0")),
        unit_rank_min_score=float(_env("NZTAX_UNIT_RANK_MIN_SCORE", "0.7")),
        unit_rank_veto=_env("NZTAX_UNIT_RANK_VETO", "1") != "0",
        unit_rank_one_sentence=_env("NZTAX_UNIT_RANK_ONE_SENTENCE", "1") != "0",
        asked_unit_min_score=float(_env("NZTAX_ASKED_UNIT_MIN_SCORE", "0.85")),
        asked_unit_post_weight=float(_env("NZTAX_ASKED_UNIT_POST_WEIGHT", "1.0")),
        asked_unit_margin=float(_env("NZTAX_ASKED_UNIT_MARGIN", "0.1")),
        asked_unit_agree_score=float(_env("NZTAX_ASKED_UNIT_AGREE_SCORE", "0.75")),
        asked_unit_agree_post=float(_env("NZTAX_ASKED_UNIT_AGREE_POST", "0.7")),
        unit_retrieval_pages=int(_env("NZTAX_UNIT_RETRIEVAL_PAGES", "1")),
        unit_retrieval_score=float(_env("NZTAX_UNIT_RETRIEVAL_SCORE", "0.35")),
        unit_retrieval_margin=float(_env("NZTAX_UNIT_RETRIEVAL_MARGIN", "0.03")),
        story_gate=_env("NZTAX_STORY_GATE", "off"),
        story_gate_bar=float(_env("NZTAX_STORY_GATE_BAR", "0.8")),
        asked_unit_post_least=float(_env("NZTAX_ASKED_UNIT_POST_LEAST", "0.6")),
        asked_unit_unsure_bar=float(_env("NZTAX_ASKED_UNIT_UNSURE_BAR", "0.5")),
        asked_unit_unsure_agree=_env("NZTAX_ASKED_UNIT_UNSURE_AGREE", "1") != "0",
        asked_unit_over_decline=float(_env("NZTAX_ASKED_UNIT_OVER_DECLINE", "0.95")),
        decline_unit_score=float(_env("NZTAX_DECLINE_UNIT_SCORE", "0.55")),
        decline_unit_margin=float(_env("NZTAX_DECLINE_UNIT_MARGIN", "0.05")),
        asked_situation_agreed_margin=float(_env("NZTAX_ASKED_SITUATION_AGREED_MARGIN", "0.0")),
        unit_topic_lexical_weight=float(_env("NZTAX_UNIT_TOPIC_LEXICAL_WEIGHT", "0.15")),
        unit_topic_margin=float(_env("NZTAX_UNIT_TOPIC_MARGIN", "0.0")),
        belief_unit_least=float(_env("NZTAX_BELIEF_UNIT_LEAST", "0.6")),
        belief_unit_margin=float(_env("NZTAX_BELIEF_UNIT_MARGIN", "0.05")),
        asked_part_bar=float(_env("NZTAX_ASKED_PART_BAR", "0.5")),
        unread_known_share=float(_env("NZTAX_UNREAD_KNOWN_SHARE", "1.0")),
        unknown_words_share=float(_env("NZTAX_UNKNOWN_WORDS_SHARE", "0.5")),
        unread_min_words=int(_env("NZTAX_UNREAD_MIN_WORDS", "2")),
        unread_unit_score=float(_env("NZTAX_UNREAD_UNIT_SCORE", "1.2")),
        unread_unit_margin=float(_env("NZTAX_UNREAD_UNIT_MARGIN", "0.2")),
        lead_yield=float(_env("NZTAX_LEAD_YIELD", "0.5")),
        opening_weights=_env("NZTAX_OPENING_WEIGHTS", "0,1,0,0"),
        opening_doubt_pages=int(_env("NZTAX_OPENING_DOUBT_PAGES", "2")),
        opening_doubt_units=int(_env("NZTAX_OPENING_DOUBT_UNITS", "5")),
        lead_doubt_cosine=float(_env("NZTAX_LEAD_DOUBT_COSINE", "0.55")),
        intent_margin=float(_env("NZTAX_INTENT_MARGIN", "0.04")),
        intent_cover_margin=float(_env("NZTAX_INTENT_COVER_MARGIN", "0.15")),
        intent_min_score=float(_env("NZTAX_INTENT_MIN_SCORE", "0.45")),
        intent_lexical_weight=float(_env("NZTAX_INTENT_LEXICAL_WEIGHT", "0.35")),
        intent_neighbours=int(_env("NZTAX_INTENT_NEIGHBOURS", "3")),
        intent_slot_weight=float(_env("NZTAX_INTENT_SLOT_WEIGHT", "0.1")),
        intent_avoid_weight=float(_env("NZTAX_INTENT_AVOID_WEIGHT", "0.2")),
        per_pay_ceiling=float(_env("NZTAX_PER_PAY_CEILING", "12000")),
        refuse_margin=float(_env("NZTAX_REFUSE_MARGIN", "0.15")),
        intent_sequence_gap=int(_env("NZTAX_INTENT_SEQUENCE_GAP", "3")),
        refuse_min_score_unworded=float(_env("NZTAX_REFUSE_MIN_SCORE_UNWORDED", "0.6")),
        bare_amount_minimum=float(_env("NZTAX_BARE_AMOUNT_MINIMUM", "10000")),
        negation_window_words=int(_env("NZTAX_NEGATION_WINDOW_WORDS", "5")),
        spelling_cutoff=float(_env("NZTAX_SPELLING_CUTOFF", "0.85")),
        spelling_min_length=int(_env("NZTAX_SPELLING_MIN_LENGTH", "5")),
        plausible_pay_per_period=_period_limits(os.environ.get("NZTAX_PLAUSIBLE_PAY")),
    )


PLAUSIBLE_PAY_DEFAULT = {"hourly": 1000, "weekly": 15000, "fortnightly": 30000, "four_weekly": 50000, "monthly": 50000, "annual_minimum": 1000}


def _period_limits(value: str | None) -> dict:
    """'weekly=15000,monthly=50000' -> {'weekly': 15000.0, …} over the defaults."""
    limits = dict(PLAUSIBLE_PAY_DEFAULT)
    for part in (value or "").split(","):
        if "=" in part:
            name, _, number = part.partition("=")
            limits[name.strip()] = float(number)
    return limits
