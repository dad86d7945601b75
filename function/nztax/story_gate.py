"""A learned gate for a story's unit: which of the units the routes consider answers the post.

In: the engine (its unit matcher, retriever, unit kinds), the settled decision, the question's frame and
its vector; the weights the build fitted (`story_gate.json` beside the index, written by
build/nztax_build/story_gate_fit.py). Out: `candidates(...)` -> the units the routes consider for a post
(at most `CANDIDATES`, best first) with one row of `FEATURES` each (shared with the fit);
`GateModel.load(...)`; `gate(...)` -> the unit to serve (or None) and a trace note.

Why: the hand bars of `UnitMatcher.match_asked` and the other story routes were set on development
posts in their own words; reworded, or unseen, a post loses its unit and the retrieved passage that
opens instead rarely answers. The gate reads the same evidence the routes read - the asking
sentences' scores, the whole post's cosines, BM25 over the units' wordings, the page retrieval ranks,
how surely the frame reads the asking - as numbers only: nothing names a unit, a topic or a word, so
what it learns may carry to posts it never saw. It is fitted on real-register stories (the development
posts and two rewrites of each) labelled with the units that answer them (docs/units.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from nztax.unit_rank import RankModel, read_weights

GATE_FILE = "story_gate.json"
# The units looked at for each post, best first (a fused ranking over the routes' readings).
CANDIDATES = 10
# Each route's ranking contributes its first this many units to the fused list.
PER_ROUTE = 6
# Leads are capped: beyond this a unit is as clear as it gets, and a runaway lead should not dominate.
LEAD_CAP = 0.5
# Pages of the corpus retrieval ranks for the whole post (without the units' own page vote).
PAGES = 5
# Reciprocal-rank fusion's constant (the usual 60 flattens ten candidates too much).
FUSION_K = 5
FEATURES = (
    "asked_total", "asked_score", "in_asked", "asked_rank", "asked_lead", "asked_lead_other_page",
    "post_cosine", "post_rank", "post_lead", "bm25", "bm25_rank", "topic_lead",
    "page_rank", "cosine_question", "cosine_lead", "sentence_lead_cosine", "whole_score",
    "fits_kind", "situation", "asking_sure", "asking_count",
)


@dataclass(frozen=True)
class GateModel(RankModel):
    """A standardised logistic model as the learned unit ranking's (unit_rank.py), read as probabilities."""

    def probabilities(self, rows: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-self.logits(rows)))

    @classmethod
    def load(cls, index_dir: Path | None, embedder_id: str | None) -> "GateModel | None":
        """The fitted gate beside the index, or None when missing, unreadable, of other features, or
        fitted on another embedder's vectors."""
        fitted = read_weights(index_dir, GATE_FILE, FEATURES, embedder_id)
        return cls(*fitted) if fitted is not None else None


def _ranks(order: list[int]) -> dict[int, int]:
    return {u: r for r, u in enumerate(order)}


def _lead(values: dict[int, float], unit: int, among=None) -> float:
    """How far `unit` leads the best other unit (of `among`, when given), capped both ways."""
    own = values.get(unit, 0.0)
    other = max((v for u, v in values.items() if u != unit and (among is None or among(u))), default=0.0)
    return float(np.clip(own - other, -LEAD_CAP, LEAD_CAP))


def candidates(engine, decision, frame, vector, situation_unit=None, include=None) -> tuple[list[int], np.ndarray, dict]:
    """The units the routes consider for a post, best first, at most `CANDIDATES`, with one feature row
    each; and the readings' rankings (for listing). Empty when the post has no asking sentence or vector.
    `include`: a unit kept among them in place of the last (the one today's routes serve, for the fit)."""
    from nztax.unit_agree import page_rank
    from nztax.unit_choice import _fits_sentence, asking_sentences
    from nztax.slots import reading, without_denied

    matcher = engine.unit_matcher
    if frame is None or vector is None or matcher.vectors is None or not frame.asking:
        return [], np.zeros((0, len(FEATURES))), {}
    asking = asking_sentences(engine, frame, list(frame.asking))
    fits = _fits_sentence(engine, decision)
    ranked, post, _ = matcher.asked_ranking(asking, vector, fits)
    asked = {u: t for u, (t, *_) in ranked}
    asked_score = {u: s for u, (_, s, *_) in ranked}
    asked_sentence = {u: sent for u, (_, _, sent, _) in ranked}
    asked_order = [u for u, _ in ranked]
    post_order = sorted(post, key=lambda u: (-post[u], u))
    lexical = matcher.lexicon().scores(decision.question)
    top = lexical.max() if len(lexical) else 0.0
    bm25 = lexical / top if top > 0 else np.zeros(len(matcher.units))
    topic = {u: post[u] + engine.settings.unit_topic_lexical_weight * float(bm25[u]) for u in post}
    bm25_order = [int(u) for u in np.argsort(-bm25, kind="stable")]
    topic_order = sorted(topic, key=lambda u: (-topic[u], u))
    whole = matcher.scores(without_denied(decision.question), vector, reading(decision.slots))
    whole_order = sorted(whole, key=lambda u: (-whole[u], u))
    fused: dict[int, float] = {}
    for order in (asked_order, post_order, topic_order, whole_order):
        for r, u in enumerate(order[:PER_ROUTE]):
            fused[u] = fused.get(u, 0.0) + 1.0 / (FUSION_K + r)
    if situation_unit is not None:
        fused[situation_unit] = fused.get(situation_unit, 0.0) + 1.0 / FUSION_K
    chosen = sorted(fused, key=lambda u: (-fused[u], u))[:CANDIDATES]
    if include is not None and include not in chosen:
        chosen = chosen[:CANDIDATES - 1] + [include]
    if not chosen:
        return [], np.zeros((0, len(FEATURES))), {}
    year = decision.tax_year if decision.tax_year in engine.rules.years else None
    pages = page_rank(engine.retriever, decision.question, vector, year, PAGES)
    v = np.asarray(vector, dtype=np.float32)
    vectors = {s.text: np.asarray(s.vector, dtype=np.float32) for s in asking}
    sure = max(frame.asks_each_sure or (1.0,) * len(frame.asks_each), default=0.0)
    ranks = (_ranks(asked_order), _ranks(post_order), _ranks(bm25_order))
    page = lambda u: matcher.units[u].source.url if matcher.units[u].source is not None else None  # noqa: E731
    rows = []
    for u in chosen:
        unit = matcher.units[u]
        lead_vector = matcher.lead_vectors[u] if matcher.lead_vectors is not None else None
        sentence = asked_sentence.get(u)
        rows.append([
            asked.get(u, engine.settings.asked_unit_post_weight * post.get(u, 0.0)),
            asked_score.get(u, 0.0),
            float(u in asked),
            1.0 / (1 + ranks[0][u]) if u in ranks[0] else 0.0,
            _lead(asked, u) if u in asked else -LEAD_CAP,
            _lead(asked, u, lambda o: page(o) != page(u)) if u in asked else -LEAD_CAP,
            post.get(u, 0.0),
            1.0 / (1 + ranks[1].get(u, len(post))),
            _lead(post, u),
            float(bm25[u]),
            1.0 / (1 + ranks[2].get(u, len(bm25))),
            _lead(topic, u),
            1.0 / (1 + pages.index(page(u))) if page(u) in pages else 0.0,
            float(matcher.vectors[matcher.question_rows[u]] @ v),
            float(lead_vector @ v) if lead_vector is not None else 0.0,
            float(lead_vector @ vectors[sentence]) if lead_vector is not None and sentence in vectors else 0.0,
            whole.get(u, 0.0),
            float(any(fits(unit, s) for s in asking)),
            float(u == situation_unit),
            float(sure),
            float(min(len(asking), 5)),
        ])
    return chosen, np.asarray(rows, dtype=np.float64), {"sentence": asked_sentence, "asked": asked}


def situation_unit(engine, decision, frame, vector) -> int | None:
    """The unit a situation the post names reads as (unit_choice._situation_unit, as if nothing else matched)."""
    from nztax.unit_choice import _situation_unit

    if frame is None or decision.action == "decline":
        return None
    found = _situation_unit(engine, decision, frame, vector, None)
    return engine.unit_matcher.units.index(found.unit) if found is not None else None


def gate(engine, decision, frame, vector, bar: float):
    """(the unit the gate serves for a post, or None; a note for the trace): the likeliest candidate
    that fits what an asking sentence asks, when the fitted model gives it at least `bar`."""
    from nztax.unit_match import UnitMatch

    model = engine.story_gate_model
    if model is None:
        return None, "story gate: no fitted weights beside the index"
    chosen, rows, seen = candidates(engine, decision, frame, vector, situation_unit(engine, decision, frame, vector))
    if not chosen:
        return None, ""
    p = np.where(rows[:, FEATURES.index("fits_kind")] > 0, model.probabilities(rows), 0.0)
    best = int(np.argmax(p))
    unit = chosen[best]
    others = sorted(p)[-2] if len(p) > 1 else 0.0
    if p[best] < bar:
        return None, f"story gate: {engine.unit_matcher.units[unit].id} at p {p[best]:.2f}, under {bar}"
    note = f"served: the story gate, p {p[best]:.2f} (the next {others:.2f})"
    return UnitMatch(engine.unit_matcher.units[unit], round(float(p[best]), 4), round(float(others), 4),
                     sentence=seen["sentence"].get(unit)), note
