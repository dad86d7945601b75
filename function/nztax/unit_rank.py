"""The learned ranking score of answer units: which unit a one-sentence question reads as.

In: the unit matcher (its paraphrase vectors, its units' question rows and lead vectors, its BM25
lexicon), a question with its vector and its current scores (`UnitMatcher.scores`), and the weights
the build fitted (`unit_rank.json` beside the index, written by build/nztax_build/unit_rank_fit.py).
Out: `RankModel.load(index_dir, embedder_id)` -> the model or None; `features` (one row per
candidate unit, shared with the fit); `rerank(...)` -> the unit to serve (or None) and a trace note.

Why: the current score (the nearest paraphrase plus word overlap) ranks a held-out wording's own
unit first for 183 of 337 development-half wordings; a logistic model over four features (the
current score, the cosine to the unit's own question, to its lead, and BM25 over the units'
wordings), standardised and fitted on the bank's held-in wordings only, ranks it first for 206 of 338
out of sample (docs/units.md). The candidates are the
`CANDIDATES` best units by the current score; the learned first is served when it leads the next by
`unit_rank_margin` in logit and its current score is at least `unit_rank_min_score`, and a unit the
current bars serve is not served when the learned first is another (`unit_rank_veto`). Without
weights (an index built before them) the current score alone decides, as before.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

RANK_FILE = "unit_rank.json"
# What the model reads, in this order (the weights file names them; a file naming others is refused).
FEATURES = ("current_score", "cosine_question", "cosine_lead", "bm25")
# The units looked at for each question, best by the current score first.
CANDIDATES = 10


@dataclass(frozen=True)
class RankModel:
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    embedder: str

    def logits(self, rows: np.ndarray) -> np.ndarray:
        return ((rows - np.asarray(self.mean)) / np.asarray(self.scale)) @ np.asarray(self.weights) + self.bias

    @classmethod
    def load(cls, index_dir: Path | None, embedder_id: str | None) -> "RankModel | None":
        """The fitted model beside the index, or None when missing, unreadable, of other features, or
        fitted on another embedder's vectors (its cosines would mean something else)."""
        fitted = read_weights(index_dir, RANK_FILE, FEATURES, embedder_id)
        return cls(*fitted) if fitted is not None else None


def read_weights(index_dir: Path | None, name: str, features: tuple[str, ...], embedder_id: str | None):
    """(mean, scale, weights, bias, embedder) of a standardised logistic model stored as `name` beside
    the index, or None when missing, unreadable, of other features, or fitted on another embedder's
    vectors (its cosines would mean something else). The story gate's weights are read the same way."""
    if index_dir is None or embedder_id is None:
        return None
    try:
        data = json.loads((Path(index_dir) / name).read_text(encoding="utf-8"))
        if tuple(data["features"]) != features or data["embedder"] != embedder_id:
            return None
        return (tuple(data["mean"]), tuple(data["scale"]), tuple(data["weights"]), float(data["bias"]),
                data["embedder"])
    except (OSError, KeyError, TypeError, ValueError):
        return None


def candidates(scores: dict[int, float], allowed=None, matcher=None) -> list[tuple[int, float]]:
    """The `CANDIDATES` best units by the current score, less those `allowed(unit)` refuses."""
    best = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:CANDIDATES]
    return [kv for kv in best if allowed is None or allowed(matcher.units[kv[0]])]


def features(matcher, question: str, vector, ranked: list[tuple[int, float]]) -> np.ndarray:
    """One row of `FEATURES` per candidate unit: its current score, the question's cosine to the
    unit's own question and to its lead, and its BM25 score scaled by the best unit's."""
    v = np.asarray(vector, dtype=np.float32)
    bm25 = matcher.lexicon().scores(question)
    top = bm25.max() if len(bm25) else 0.0
    bm25 = bm25 / top if top > 0 else np.zeros(len(matcher.units))
    units = [unit for unit, _ in ranked]
    return np.column_stack([
        [score for _, score in ranked],
        matcher.vectors[matcher.question_rows[units]] @ v,
        matcher.lead_vectors[units] @ v,
        bm25[units],
    ]).astype(np.float64)


def learned_order(matcher, model: RankModel, question: str, vector, scores: dict[int, float],
                  allowed=None) -> list[tuple[int, float]]:
    """The candidate units with their logits, best first."""
    ranked = candidates(scores, allowed, matcher)
    if not ranked:
        return []
    logits = model.logits(features(matcher, question, vector, ranked))
    return sorted(zip((unit for unit, _ in ranked), (float(x) for x in logits)), key=lambda kv: (-kv[1], kv[0]))


def ready(matcher) -> bool:
    return (matcher.rank_model is not None and matcher.vectors is not None
            and matcher.lead_vectors is not None and len(matcher.lead_vectors) == len(matcher.units))


def rerank(matcher, question: str, vector, scores: dict[int, float], allowed, found, settings):
    """(the unit match to serve or None, a note for the trace or None): the learned first when it
    clears the bars, else `found` (the current bars' choice) unless the learned first is another."""
    from nztax.unit_match import UnitMatch

    if not ready(matcher):
        return found, "learned unit ranking: no fitted weights or lead vectors beside the index; current score only"
    if vector is None:
        return found, None
    order = learned_order(matcher, matcher.rank_model, question, vector, scores, allowed)
    if not order:
        return found, None
    (top, logit), second = order[0], (order[1][1] if len(order) > 1 else float("-inf"))
    margin = logit - second
    if margin >= settings.unit_rank_margin and scores[top] >= settings.unit_rank_min_score:
        runner = max((s for u, s in scores.items() if u != top), default=0.0)
        note = f"unit {matcher.units[top].id} chosen by the learned ranking score (leads the next by {margin:.2f} in logit)"
        return UnitMatch(matcher.units[top], round(scores[top], 4), round(runner, 4)), note
    if found is not None and settings.unit_rank_veto and found.unit.id != matcher.units[top].id:
        return None, (f"unit {found.unit.id} not served: the learned ranking score puts {matcher.units[top].id} "
                      f"first (by {margin:.2f} in logit, under the bar)")
    return found, None
