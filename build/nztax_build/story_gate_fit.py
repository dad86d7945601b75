"""Harvest and fit the story gate (function/nztax/story_gate.py).

In: the engine, stories (the development real posts and their rewrites: `tests/golden/realposts.yaml`,
`realposts_paraphrases.yaml`, `realposts_paraphrases_2.yaml`; frozen posts are never read), and the
labels of which units answer each development post (`build/nztax_build/data/story_gate_labels.yaml`;
a rewrite inherits its original's). Out: `harvest(...)` -> per story its candidate units, their feature
rows and the unit today's routes serve; `fit(...)` -> the logistic model's weights; `out_of_fold(...)`.
"""

from __future__ import annotations

import contextlib
import hashlib
from pathlib import Path

import numpy as np
import yaml

from nztax.story_gate import FEATURES
from nztax_build.splits import split_of

GOLDEN = ("realposts.yaml", "realposts_paraphrases.yaml", "realposts_paraphrases_2.yaml")
# L2 penalty on the standardised weights (not the bias): a few hundred stories, twenty features.
L2 = 1.0
ITERATIONS = 50
FOLDS = 5


def original_of(story_id: str) -> str:
    return story_id.split("~", 1)[0]


def stories(golden_dir: Path) -> list[tuple[str, str]]:
    """(id, text) of every development post and every rewrite of one, originals first."""
    out = []
    for name in GOLDEN:
        path = Path(golden_dir) / name
        if not path.exists():
            continue
        for raw in yaml.safe_load(path.read_text(encoding="utf-8"))["posts"]:
            if split_of(original_of(raw["id"])) == "dev":
                out.append((raw["id"], str(raw["question"]).strip()))
    return out


@contextlib.contextmanager
def served_units(engine_module, units_module, record: dict):
    """While inside: `record["served"]` is the unit id whose answer `Engine._unit_answer` returned, else None."""
    compose, unit_answer = units_module.compose, engine_module.Engine._unit_answer

    def composing(unit, *args, **kwargs):
        record["composed"] = unit.id
        return compose(unit, *args, **kwargs)

    def answering(self, *args, **kwargs):
        record["composed"] = None
        result = unit_answer(self, *args, **kwargs)
        if result is not None:
            record["served"] = record["composed"]
        return result

    units_module.compose, engine_module.Engine._unit_answer = composing, answering
    try:
        yield record
    finally:
        units_module.compose, engine_module.Engine._unit_answer = compose, unit_answer


def reading_of(engine, text: str):
    """(decision, frame, vector) as `Engine.answer` settles them for a post with no history."""
    from nztax import decline_units
    from nztax.slots import clean_text

    question = clean_text(text)
    proposal, vector = engine._propose(question, [], None)
    frame = engine.read_frame(proposal)
    decision = decline_units.overrule(engine, engine.settle(proposal, frame, []), frame, vector, "offline")
    return decision, frame, vector


def harvest_one(engine, text: str, answer: bool = True) -> dict:
    """One story's candidates (unit ids), feature rows, and the unit today's engine serves (`answer`:
    the whole answer is composed to learn it; the fit needs only the rows)."""
    from nztax import engine as engine_module, story_gate, units as units_module

    decision, frame, vector = reading_of(engine, text)
    situation = story_gate.situation_unit(engine, decision, frame, vector)
    record: dict = {"served": None}
    result = None
    if answer:
        with served_units(engine_module, units_module, record):
            result = engine.answer(text, use_faq=True, mode="offline")
    served = engine.unit_matcher.by_id.get(record["served"] or "")
    include = engine.unit_matcher.units.index(served) if served is not None else None
    chosen, rows, _ = story_gate.candidates(engine, decision, frame, vector, situation, include)
    return {"candidates": [engine.unit_matcher.units[u].id for u in chosen], "rows": rows.tolist(),
            "served": record["served"], "status": result.status if result is not None else None, "action": decision.action,
            "story": bool(frame is not None and frame.story)}


def fold_of(story_id: str) -> int:
    """The fold of a story: its original's, by hash, so a post and its rewrites are always in one fold."""
    return int(hashlib.sha256(original_of(story_id).encode("utf-8")).hexdigest(), 16) % FOLDS


def design(harvested: dict, labels: dict[str, list[str]]) -> tuple[np.ndarray, np.ndarray, list[tuple[str, str]]]:
    """(rows, 0/1 whether the candidate answers its story, (story id, unit id) per row) over the stories
    whose original is labelled."""
    X, y, keys = [], [], []
    for story, got in sorted(harvested.items()):
        answer = labels.get(original_of(story))
        if answer is None:
            continue
        for unit, row in zip(got["candidates"], got["rows"]):
            X.append(row)
            y.append(1.0 if unit in answer else 0.0)
            keys.append((story, unit))
    return np.asarray(X, dtype=np.float64).reshape(-1, len(FEATURES)), np.asarray(y), keys


def fit(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """(means, scales, weights, bias) of the L2-penalised logistic regression on standardised X, by
    Newton's method (deterministic: no sampling, no random start)."""
    mean, scale = X.mean(0), X.std(0) + 1e-9
    Z = np.column_stack([(X - mean) / scale, np.ones(len(X))])
    w = np.zeros(Z.shape[1])
    penalty = np.full(Z.shape[1], L2)
    penalty[-1] = 0.0
    for _ in range(ITERATIONS):
        p = 1.0 / (1.0 + np.exp(-(Z @ w)))
        gradient = Z.T @ (p - y) + penalty * w
        hessian = (Z * (p * (1 - p))[:, None]).T @ Z + np.diag(penalty) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w = w - step
        if np.abs(step).max() < 1e-8:
            break
    return mean, scale, w[:-1], float(w[-1])


def out_of_fold(harvested: dict, labels: dict[str, list[str]]) -> dict[tuple[str, str], float]:
    """Each labelled (story, candidate)'s probability from the model fitted on the other folds."""
    X, y, keys = design(harvested, labels)
    folds = np.array([fold_of(s) for s, _ in keys])
    out: dict[tuple[str, str], float] = {}
    for f in range(FOLDS):
        train, test = folds != f, folds == f
        if not test.any() or y[train].min() == y[train].max():
            continue
        mean, scale, w, b = fit(X[train], y[train])
        p = 1.0 / (1.0 + np.exp(-(((X[test] - mean) / scale) @ w + b)))
        for key, value in zip((k for k, t in zip(keys, test) if t), p):
            out[key] = float(value)
    return out


def gate_choice(probabilities: dict[str, float], bar: float) -> str | None:
    """The candidate served at `bar`: the likeliest, when at least that likely."""
    if not probabilities:
        return None
    unit = max(sorted(probabilities), key=probabilities.get)
    return unit if probabilities[unit] >= bar else None


BARS = (0.5, 0.6, 0.7, 0.8, 0.9)


def outcomes(harvested: dict, labels: dict[str, list[str]], probabilities: dict[tuple[str, str], float],
             bar: float, stories_of=lambda story: True) -> dict[str, int]:
    """At `bar`, counted over the labelled stories `stories_of` keeps: on those today's routes leave
    without a unit (and that are no decline), the gate serves a unit that answers (own), one that does
    not (other), none; on those today's routes serve, whether that unit answers, and what the gate in
    their place would serve (the same unit, another that answers, one that does not, none)."""
    counts = dict.fromkeys(("unserved", "own", "other", "none", "served", "served_right", "same", "right",
                            "wrong", "nothing"), 0)
    for story, got in harvested.items():
        answer = labels.get(original_of(story))
        if answer is None or not stories_of(story):
            continue
        # (As `story_gate.gate` serves: a candidate of a kind no asking sentence asks for is never chosen.)
        fits = FEATURES.index("fits_kind")
        choice = gate_choice({u: probabilities[(story, u)] if row[fits] > 0 else 0.0
                              for u, row in zip(got["candidates"], got["rows"]) if (story, u) in probabilities}, bar)
        if got["served"] is None:
            if got["action"] in ("decline", "refuse"):
                continue
            counts["unserved"] += 1
            counts["none" if choice is None else "own" if choice in answer else "other"] += 1
        else:
            counts["served"] += 1
            counts["served_right"] += got["served"] in answer
            counts["nothing" if choice is None else "same" if choice == got["served"]
                   else "right" if choice in answer else "wrong"] += 1
    return counts


def table(harvested: dict, labels: dict[str, list[str]], probabilities: dict[tuple[str, str], float]) -> str:
    """Markdown: per story set and bar, the outcomes above."""
    sets = (("originals", lambda s: "~" not in s), ("rewrites 1", lambda s: s.endswith("~1")),
            ("rewrites 2", lambda s: s.endswith("~2")), ("all", lambda s: True))
    lines = ["| stories | bar | unserved: own / another's / none | served (right) | in their place: same / another right / wrong / none |",
             "|---|---|---|---|---|"]
    for name, keep in sets:
        for bar in BARS:
            c = outcomes(harvested, labels, probabilities, bar, keep)
            lines.append(f"| {name} | {bar} | {c['unserved']}: {c['own']} / {c['other']} / {c['none']} | "
                         f"{c['served']} ({c['served_right']}) | {c['same']} / {c['right']} / {c['wrong']} / {c['nothing']} |")
    return "\n".join(lines) + "\n"


LABELS = Path(__file__).resolve().parent / "data" / "story_gate_labels.yaml"


def load_labels(path: Path = LABELS) -> dict[str, list[str]]:
    """Post id -> the unit ids that answer it (empty: none does); development posts only."""
    raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))["labels"]
    return {str(k): sorted(v or []) for k, v in raw.items() if split_of(original_of(str(k))) == "dev"}


def harvest(engine, golden_dir: Path, answer: bool = False) -> dict:
    return {story: harvest_one(engine, text, answer) for story, text in stories(golden_dir)}


def fit_story_gate(settings, index_dir: Path) -> str:
    """Fit the gate on the labelled stories read by the engine over `index_dir`; write `story_gate.json`
    there (no date: the same inputs give the same bytes); a summary."""
    import dataclasses

    from nztax.engine import Engine
    from nztax.story_gate import GATE_FILE
    from nztax_build.unit_rank_fit import write_weights

    engine = Engine.create(dataclasses.replace(settings, story_gate="off"), index_dir=index_dir)
    labels = load_labels()
    harvested = harvest(engine, Path(settings.home) / "tests" / "golden")
    X, y, keys = design(harvested, labels)
    target = Path(index_dir) / GATE_FILE
    if not len(y) or y.min() == y.max():
        target.unlink(missing_ok=True)
        return "story gate not fitted: no labelled story has an answering unit among its candidates"
    stories_used = len({s for s, _ in keys})
    digest = write_weights(target, FEATURES, fit(X, y), engine.embedder.id, {
        "model": f"logistic regression, standardised features, L2 {L2}, Newton", "stories": stories_used,
        "rows": int(len(y)), "positive_rows": int(y.sum()),
        "labels": hashlib.sha256(LABELS.read_bytes()).hexdigest()[:16]})
    return f"story gate fitted on {stories_used} stories ({int(len(y))} rows), weights {digest}"

if __name__ == "__main__":  # python -m nztax_build.story_gate_fit <index dir>
    import sys

    from nztax.settings import get_settings

    print(fit_story_gate(get_settings(), Path(sys.argv[1])))
