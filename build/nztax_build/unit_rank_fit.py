"""Fit the learned unit-ranking score (nztax/unit_rank.py) and write its weights beside the index.

In: the unit bank (`settings.units_dir`), the index directory (its stored paraphrase and lead
vectors, `units.npz`, and the units the build withheld) and the query embedder. Out:
`unit_rank.json` beside the index: the feature names, their means and scales, the weights, the
bias, and how they were made (the model, the unit bank's digest, the embedder, how many wordings
and candidate rows), with no date: the same inputs give byte-identical weights.

What it is fitted on: the bank's held-in wordings only (every paraphrase `nztax eval units` does not
hold out; evaluate_units.held_out), never a held-out one nor a real post, so that evaluation's
development half measures wordings the fit has not seen. The held-in wordings are dealt into
`FOLDS` folds by hash; each fold's wordings are matched against the bank without the held-out
wordings and without that fold, as a new question is. Each wording's
`CANDIDATES` best units by the current score are rows, its own unit the positive one. The model is a
logistic regression on standardised features with an L2 penalty of `L2`, by full-batch gradient
descent from zero (`STEPS` steps at rate `RATE`): numpy only and deterministic. The wordings' vectors
are their rows in `units.npz` (the full bank embeds every wording), so nothing is embedded here
except, once, the leads of an index stored before they were.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import numpy as np

from nztax.unit_rank import CANDIDATES, FEATURES, RANK_FILE, candidates, features

L2 = 1.0
STEPS = 3000
RATE = 0.1
# The held-in wordings are matched in this many folds, each against the bank without it: more folds
# leave each a bank nearer the one a held-out wording meets (two in three wordings) at one more
# matcher each (milliseconds; the wordings are scored once whatever the count).
FOLDS = 4
DECIMALS = 6  # the weights as written: far below any bar, and no last-bit noise of a sum's order


def fold_of(unit_id: str, text: str) -> int:
    return int(hashlib.sha256(f"fold\0{unit_id}\0{text}".encode("utf-8")).hexdigest(), 16) % FOLDS


def training_rows(bank, withheld, vectors, keys, leads, settings, read, codes):
    """(feature rows, labels, wordings used): every held-in wording, scored against the bank without
    the held-out wordings and without its own fold."""
    from nztax.unit_match import UnitMatcher, paraphrase_rows, servable
    from nztax_build.evaluate_units import held_out

    units = servable(bank, withheld)
    rows = paraphrase_rows(units)
    hidden = [text in units[i].also and text != units[i].question and held_out(units[i].id, text) for i, text in rows]
    # (A unit's question is never held out nor trained on: it is the row the `cosine_question` feature reads.)
    fold = [None if h or text == units[i].question else fold_of(units[i].id, text) for (i, text), h in zip(rows, hidden)]
    X, y, used = [], [], 0
    for k in range(FOLDS):
        out = [h or f == k for h, f in zip(hidden, fold)]
        dropped = {row for row, o in zip(rows, out) if o}
        kept_units = [dataclasses.replace(u, also=tuple(a for a in u.also if (n, a) not in dropped))
                      for n, u in enumerate(units)]
        keep = np.array([not o for o in out], dtype=bool)
        kept_keys = [key for key, o in zip(keys, out) if not o] if keys is not None else None
        matcher = UnitMatcher(kept_units, vectors[keep], settings, read, codes, kept_keys, leads=leads)
        for row, ((owner, text), f) in enumerate(zip(rows, fold)):
            if f != k:
                continue
            ranked = candidates(matcher.scores(text, vectors[row], read(text)))
            if not ranked:
                continue
            X.append(features(matcher, text, vectors[row], ranked))
            y += [1.0 if unit == owner else 0.0 for unit, _ in ranked]
            used += 1
    return (np.vstack(X) if X else np.zeros((0, len(FEATURES)))), np.array(y), used


def fit(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """(means, scales, weights, bias) of the L2-penalised logistic regression on standardised X."""
    mean, scale = X.mean(0), X.std(0) + 1e-9
    Z = (X - mean) / scale
    w, b = np.zeros(Z.shape[1]), 0.0
    for _ in range(STEPS):
        p = 1.0 / (1.0 + np.exp(-(Z @ w + b)))
        g = p - y
        w = w - RATE * (Z.T @ g / len(y) + L2 * w / len(y))
        b = b - RATE * float(g.mean())
    return mean, scale, w, b


def fit_unit_rank(settings, index_dir: Path, embedder=None) -> str:
    """Fit the weights on the units and vectors beside `index_dir` and write them there; a summary."""
    from nztax.engine import _reading_of
    from nztax.rules import default_rules
    from nztax.unit_match import code_names, paraphrase_rows, save_vectors, servable, stored_rows
    from nztax.units import UnitBank, load_withheld

    if embedder is None:
        from nztax.embedders import get_embedder

        embedder = get_embedder(settings)
    index_dir = Path(index_dir)
    bank = UnitBank.load(settings.units_dir)
    withheld = load_withheld(index_dir)
    units = servable(bank, withheld)
    n = len(paraphrase_rows(units))
    vectors, keys, leads = stored_rows(index_dir, bank, embedder, n)
    if vectors is None or leads is None or len(leads) != len(units):
        save_vectors(index_dir, bank, embedder, withheld)  # an index stored before the leads were
        vectors, keys, leads = stored_rows(index_dir, bank, embedder, n)
    rules = default_rules()
    read = lambda text: _reading_of(rules, text)  # noqa: E731
    X, y, used = training_rows(bank, withheld, vectors, keys, leads, settings, read, code_names(rules))
    target = index_dir / RANK_FILE
    if not used or y.min() == y.max():  # nothing to learn from (a bank of a few units): the current score
        target.unlink(missing_ok=True)
        return "unit ranking not fitted: no held-in wording has its own unit among the candidates"
    digest = write_weights(target, FEATURES, fit(X, y), embedder.id, {
        "model": f"logistic regression, standardised features, L2 {L2}, {STEPS} steps at {RATE}",
        "wordings": f"the held-in unit wordings (not held out by nztax eval units), in {FOLDS} folds",
        "unit_bank": bank.digest, "wordings_used": used, "candidates_each": CANDIDATES,
        "rows": int(len(y)), "positive_rows": int(y.sum())})
    return f"unit ranking fitted on {used} wordings ({int(len(y))} rows), weights {digest}"


def write_weights(target: Path, features: tuple[str, ...], fitted, embedder_id: str, made_from: dict) -> str:
    """Write a standardised logistic model's (mean, scale, weights, bias) as JSON at `target`, rounded and
    without a date, so the same inputs give the same bytes (the story gate's are written the same way);
    the first 12 hex digits of the text's SHA-256."""
    mean, scale, w, b = fitted
    made = {
        "features": list(features),
        "mean": [round(float(v), DECIMALS) for v in mean],
        "scale": [round(float(v), DECIMALS) for v in scale],
        "weights": [round(float(v), DECIMALS) for v in w],
        "bias": round(float(b), DECIMALS),
        "embedder": embedder_id,
        "made_from": made_from,
    }
    text = json.dumps(made, indent=1, sort_keys=True) + "\n"
    target.write_text(text, encoding="utf-8")
    return hashlib.sha256(text.encode()).hexdigest()[:12]
