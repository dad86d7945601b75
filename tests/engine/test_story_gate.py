"""The learned story gate (story_gate.py, fitted by build/nztax_build/story_gate_fit.py): the fit is
deterministic and weighs the feature that tells an answering unit; a post and its rewrites share a fold;
the out-of-fold counts tell a unit that answers from one that does not; a weights file of other features
or another embedder is refused; and with the gate off no story route asks it."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from nztax import story_gate
from nztax.story_gate import FEATURES, GATE_FILE, GateModel
from nztax_build import story_gate_fit as fit_module


def _rows(rng, n: int, signal: int) -> tuple[np.ndarray, np.ndarray]:
    X = rng.normal(size=(n, len(FEATURES)))
    return X, (X[:, signal] > 0.5).astype(float)


def test_the_fit_is_deterministic_and_weighs_the_feature_that_tells_an_answering_unit():
    rng = np.random.default_rng(11)
    signal = FEATURES.index("topic_lead")
    X, y = _rows(rng, 400, signal)
    first, second = fit_module.fit(X, y), fit_module.fit(X.copy(), y.copy())
    assert all(np.array_equal(a, b) for a, b in zip(first[:3], second[:3])) and first[3] == second[3]
    weights = first[2]
    others = np.delete(np.abs(weights), signal)
    assert weights[signal] > 1.0 and others.max() < 0.5 * weights[signal]


@pytest.mark.parametrize("post", ["rd-001", "h3-005", "ot-054", "gz-017"])
def test_a_post_and_its_rewrites_share_a_fold(post):
    assert fit_module.fold_of(post) == fit_module.fold_of(f"{post}~1") == fit_module.fold_of(f"{post}~2")
    assert fit_module.original_of(f"{post}~2") == post


def _harvested(served=None, action="topic", fits=(1.0, 1.0)):
    rows = [[0.0] * len(FEATURES) for _ in fits]
    for row, fit in zip(rows, fits):
        row[FEATURES.index("fits_kind")] = fit
    return {"candidates": ["a/right", "b/other"], "rows": rows, "served": served, "action": action, "story": True}


@pytest.mark.parametrize("likelier,counted", [("a/right", "own"), ("b/other", "other")])
def test_out_of_fold_counts_tell_an_answering_unit_from_another(likelier, counted):
    harvested = {"p-1": _harvested(), "p-1~1": _harvested(served="a/right")}
    labels = {"p-1": ["a/right"]}
    probabilities = {("p-1", u): (0.9 if u == likelier else 0.2) for u in ("a/right", "b/other")}
    probabilities.update({("p-1~1", u): (0.9 if u == likelier else 0.2) for u in ("a/right", "b/other")})
    at = fit_module.outcomes(harvested, labels, probabilities, 0.8)
    assert at["unserved"] == 1 and at[counted] == 1 and at["served_right"] == 1
    assert at["same" if likelier == "a/right" else "wrong"] == 1
    under = fit_module.outcomes(harvested, labels, probabilities, 0.95)
    assert under["none"] == 1 and under["nothing"] == 1


def test_a_candidate_of_a_kind_no_asking_sentence_asks_for_is_never_counted_as_served():
    harvested = {"p-3": _harvested(fits=(1.0, 0.0))}
    probabilities = {("p-3", "a/right"): 0.6, ("p-3", "b/other"): 0.99}
    assert fit_module.outcomes(harvested, {"p-3": ["a/right"]}, probabilities, 0.5)["own"] == 1


def test_a_declined_story_is_not_counted_among_those_the_routes_leave():
    harvested = {"p-2": _harvested(action="decline")}
    at = fit_module.outcomes(harvested, {"p-2": []}, {("p-2", "a/right"): 0.9}, 0.5)
    assert at["unserved"] == 0


def _write(tmp_path, **change):
    data = {"features": list(FEATURES), "mean": [0.0] * len(FEATURES), "scale": [1.0] * len(FEATURES),
            "weights": [0.1] * len(FEATURES), "bias": -1.0, "embedder": "e", **change}
    (tmp_path / GATE_FILE).write_text(json.dumps(data), encoding="utf-8")


def test_weights_of_other_features_or_another_embedder_are_refused(tmp_path):
    _write(tmp_path)
    model = GateModel.load(tmp_path, "e")
    assert model is not None and model.probabilities(np.zeros((1, len(FEATURES))))[0] == pytest.approx(1 / (1 + np.e))
    assert GateModel.load(tmp_path, "another") is None
    _write(tmp_path, features=list(FEATURES[:-1]))
    assert GateModel.load(tmp_path, "e") is None


STORY = ("I moved into a flat last year and my partner and I now rent the spare room to a student who also "
         "eats with us. We split the power and internet. A friend said we might need to declare something. "
         "Do we need to tell IRD about the money she pays us?")


@pytest.mark.parametrize("mode", ["off", "extra", "replace"])
def test_the_gate_is_asked_only_when_its_setting_turns_it_on(monkeypatch, mode, engine_settings):
    from nztax.engine import Engine

    asked = []

    def gate(engine, decision, frame, vector, bar):
        asked.append(bar)
        return None, ""

    monkeypatch.setattr(story_gate, "gate", gate)
    engine = Engine.create(dataclasses.replace(engine_settings, story_gate=mode, story_gate_bar=0.7))
    engine.answer(STORY)
    assert (asked != []) == (mode != "off")
    assert all(bar == 0.7 for bar in asked)
