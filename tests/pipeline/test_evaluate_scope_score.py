"""`nztax eval scope-score`: the combined score is fitted without the texts it scores, deterministically."""

import numpy as np

from nztax_build.evaluate_scope_score import FOLDS, auc, features, fit, fold_of, out_of_fold, probability


def _record(i: int, out: bool, part: str = "bank") -> dict:
    side = -1.0 if out else 1.0
    return {"set": part, "id": f"{part}-{i}", "group": f"{part}-{i}", "out": out, "story": bool(i % 2),
            "scope_in": 0.5 + side * 0.4, "asked_scope_in": None, "w_in": 0.5 + side * 0.2, "w_out": 0.5,
            "w_does": "decline" if out else "fact", "w_conf": True, "a_in": 0.5 + side * 0.1, "a_out": 0.5,
            "a_unread": False, "du_asked": -side * 0.05, "du_asked_score": 0.5, "du_whole": -side * 0.05,
            "du_whole_score": 0.5, "declined": out, "rows": []}


def test_fit_separates_and_is_deterministic():
    rng = np.random.default_rng(0)
    x = np.vstack([rng.normal(2, 0.5, (30, 3)), rng.normal(-2, 0.5, (30, 3))])
    y = np.array([1.0] * 30 + [0.0] * 30)
    w = np.ones(60)
    beta = fit(x, y, w)
    assert np.array_equal(beta, fit(x, y, w))
    p = probability(beta, x)
    assert (p[:30] > 0.5).all() and (p[30:] < 0.5).all()


def test_a_rewrite_is_scored_by_a_model_that_never_saw_its_original():
    # An original whose label contradicts every other text's readings: had its fold seen it, its rewrite
    # (the same readings) would lean its way; held out with its original, it is scored like the rest.
    records = [_record(i, i % 2 == 0) for i in range(200)]
    odd = {**_record(0, False), "set": "post", "id": "p-odd", "group": "p-odd", "out": True}
    rewrite = {**odd, "set": "rewrite", "id": "p-odd~1"}
    scores = out_of_fold(records + [odd, rewrite], rich=False, post_weight=1000.0)
    assert fold_of("p-odd") == fold_of(rewrite["group"])
    assert scores["p-odd~1"] < 0.5 and scores["p-odd"] < 0.5


def test_rich_features_extend_the_plain_ones():
    r = _record(1, True)
    assert features(r, rich=True)[:len(features(r))] == features(r)
    # (No asking-sentence reading of its own: the whole post's stands in.)
    assert features(r)[0] == features(r)[1]


def test_auc_counts_ties_as_half():
    assert auc([0.9, 0.8, 0.1], [True, True, False]) == 1.0
    assert auc([0.5, 0.5], [True, False]) == 0.5
    assert FOLDS > 1


def test_each_single_reading_is_named_once_per_plain_feature():
    from nztax_build.evaluate_scope_score import SINGLE

    assert len(SINGLE) == len(features(_record(1, True)))
