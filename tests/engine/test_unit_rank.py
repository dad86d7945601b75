"""The learned unit-ranking score (unit_rank.py, fitted by build/nztax_build/unit_rank_fit.py): the
fit is deterministic, a rewording near a unit's own question and lead gets that unit, an index
without weights keeps the current score, and a post of several sentences keeps today's route."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from nztax.settings import get_settings
from nztax.unit_match import UnitMatch, UnitMatcher
from nztax.unit_rank import FEATURES, RANK_FILE, RankModel, features, rerank
from nztax_build.unit_rank_fit import fit

from test_asked_parts import BACKGROUND, STAY
from test_unit_lexicon import unit


UNITS = [unit("pie", "Is a PIE fund taxed at my PIR?", "PIE fund tax rate"),
         unit("rwt", "What RWT rate is taken from my interest?", "interest tax rate")]
# Meaning and topic words count, the current score hardly (the signs the committed fit finds).
MODEL = RankModel(mean=(0.0,) * 4, scale=(0.1,) * 4, weights=(0.0, 1.2, 0.6, 1.0), bias=0.0, embedder="e")
SETTINGS = dataclasses.replace(get_settings(), unit_rank_margin=2.0, unit_rank_min_score=0.7, unit_rank_veto=True)


def matcher(model=MODEL) -> tuple[UnitMatcher, np.ndarray]:
    """Two units; the question's vector is the PIE unit's question and lead, far from the other's
    (each paraphrase row of the PIE unit but its question is further off)."""
    axes = np.eye(4, dtype=np.float32)
    question = axes[0]
    rows = np.stack([axes[0], axes[2], axes[1], axes[1]])  # pie: its question, "PIE fund tax rate"; rwt: both
    leads = np.stack([axes[0], axes[3]])
    return UnitMatcher(UNITS, rows, SETTINGS, read=lambda text: None, leads=leads, rank_model=model), question


def test_the_fit_is_deterministic_and_weighs_the_feature_that_tells_the_own_unit():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(200, 4))
    y = (X[:, 1] > 0.3).astype(float)
    first, second = fit(X, y), fit(X.copy(), y.copy())
    assert all(np.array_equal(a, b) for a, b in zip(first[:3], second[:3])) and first[3] == second[3]
    weights = first[2]
    assert weights[1] > 1.0 and max(abs(weights[[0, 2, 3]])) < 0.5 * weights[1]


def test_a_rewording_of_a_unit_s_question_gets_that_unit_though_its_current_score_is_close():
    m, question = matcher()
    scores = {0: 0.90, 1: 0.88}  # the current bars (a margin of 0.1) serve neither
    found, note = rerank(m, "pie fund taxed at my PIR?", question, scores, None, None, SETTINGS)
    assert found is not None and found.unit.slug == "pie"
    assert "chosen by the learned ranking score" in note


def test_under_the_learned_margin_a_unit_the_current_bars_serve_is_vetoed_when_the_learned_first_differs():
    m, question = matcher()
    scores = {0: 0.90, 1: 0.88}
    current = UnitMatch(UNITS[1], 0.88, 0.5)
    wide = dataclasses.replace(SETTINGS, unit_rank_margin=1e9)
    found, note = rerank(m, "pie fund taxed at my PIR?", question, scores, None, current, wide)
    assert found is None and "not served" in note
    kept, _ = rerank(m, "pie fund taxed at my PIR?", question, scores, None, current,
                     dataclasses.replace(wide, unit_rank_veto=False))
    assert kept is current


def test_without_weights_the_current_score_decides_and_the_trace_says_so(tmp_path):
    m, question = matcher(model=None)
    current = UnitMatch(UNITS[1], 1.2, 0.5)
    found, note = rerank(m, "pie fund taxed at my PIR?", question, {0: 0.9, 1: 1.2}, None, current, SETTINGS)
    assert found is current and "current score only" in note
    assert RankModel.load(tmp_path, "e") is None  # no file beside the index


def test_weights_of_another_embedder_or_other_features_are_refused(tmp_path):
    made = {"features": list(FEATURES), "mean": [0] * 4, "scale": [1] * 4, "weights": [1] * 4, "bias": 0,
            "embedder": "e"}
    (tmp_path / RANK_FILE).write_text(json.dumps(made))
    assert RankModel.load(tmp_path, "e") is not None
    assert RankModel.load(tmp_path, "another") is None
    (tmp_path / RANK_FILE).write_text(json.dumps(dict(made, features=["current_score"])))
    assert RankModel.load(tmp_path, "e") is None


@pytest.fixture
def ranked_engine(engine, monkeypatch):
    """The engine with a model that ranks by the current score alone, far apart: whatever the current
    bars would serve a one-sentence question, the learned route chooses (and says so)."""
    m = engine.unit_matcher
    assert m.lead_vectors is not None
    monkeypatch.setattr(m, "rank_model", RankModel((0.0,) * 4, (1.0,) * 4, (1000.0, 0.0, 0.0, 0.0), 0.0, "e"))
    return engine


def test_a_one_sentence_question_goes_the_learned_route_and_a_post_of_several_does_not(ranked_engine):
    one = ranked_engine.answer("Can I stay in KiwiSaver after I turn 65?", use_faq=False, mode="offline")
    assert any("chosen by the learned ranking score" in n for n in one.trace["notes"]), one.trace["notes"]
    assert f"answered by the unit {STAY}" in one.trace["notes"]
    post = ranked_engine.answer(f"{BACKGROUND} Can I stay in KiwiSaver after I turn 65?", use_faq=False, mode="offline")
    assert not any("learned ranking" in n for n in post.trace["notes"]), post.trace["notes"]


def test_the_fit_reads_held_in_wordings_only_each_matched_against_a_bank_without_it(monkeypatch):
    """`nztax eval units` asks the held-out wordings as new questions: the fit must never see one, and
    each wording it learns from must be scored as new, against a bank that does not hold it."""
    from types import SimpleNamespace

    from nztax.engine import _reading_of
    from nztax.rules import default_rules
    from nztax.unit_match import paraphrase_rows
    from nztax_build import unit_rank_fit
    from nztax_build.evaluate_units import held_out

    topics = ("PIE fund", "RWT on interest", "tax code", "student loan", "KiwiSaver", "donation credit")
    bank = SimpleNamespace(units=[unit(f"u{n}", f"How does {t} work?", *(f"{t} question {k}" for k in range(9)))
                                  for n, t in enumerate(topics)])
    rows = paraphrase_rows(bank.units)
    rng = np.random.default_rng(3)
    centres = rng.normal(size=(len(topics), 16))
    vectors = np.stack([centres[i] + 0.3 * rng.normal(size=16) for i, _ in rows]).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    seen: list[str] = []

    def spy(matcher, question, vector, ranked):
        assert question not in {text for _, text in matcher.rows}, question  # scored as a new question
        seen.append(question)
        return features(matcher, question, vector, ranked)

    monkeypatch.setattr(unit_rank_fit, "features", spy)
    rules = default_rules()
    X, y, used = unit_rank_fit.training_rows(bank, {}, vectors, None, vectors[:len(bank.units)], get_settings(),
                                             lambda text: _reading_of(rules, text), frozenset())
    out = {text for u in bank.units for text in u.also if held_out(u.id, text)}
    held_in = {text for u in bank.units for text in u.also} - out
    assert out and used == len(seen) > 0 and len(X) == len(y)
    assert not set(seen) & out and set(seen) <= held_in
