"""`nztax eval frame-readings`: out-of-fold accuracy of the question frame's learned readings.

In: the labelled examples the frame model is trained on (`nztax/data/frame_examples.yaml`) and the
shipped query embedder. Out: a report (`.work/eval/frame_readings.md` and `.json`) with, for each
reading (what a sentence asks, what a question is about, an amount's kind and owner), the share of
examples read right by a model trained without them (5 folds, examples dealt to folds in order), the
scope reading also as in / out of New Zealand personal tax, and the commonest confusions. A measure
of the readings' mechanism, not of real posts: the examples are the project's own.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import yaml

FOLDS = 5


def out_of_fold(x: np.ndarray, labels: list[str], reading: str = "") -> list[str]:
    """Each example's reading by a model trained on the other folds (as long as the engine trains that reading)."""
    from nztax.frame_model import READING_STEPS, STEPS, Softmax

    predicted = [""] * len(labels)
    for fold in range(FOLDS):
        test = [i for i in range(len(labels)) if i % FOLDS == fold]
        train = [i for i in range(len(labels)) if i % FOLDS != fold]
        model = Softmax.fit(x[train], [labels[i] for i in train], READING_STEPS.get(reading, STEPS))
        for i in test:
            predicted[i] = model.predict(x[i])[0]
    return predicted


def measure(embedder) -> dict:
    from nztax import frame_model as fm

    data = yaml.safe_load(fm.examples_text())
    model = fm.FrameModel(embedder, {}, "out-of-fold")
    out = {}
    for name in ("asks", "scope"):
        rows = [(text, label) for label, texts in data[name].items() for text in texts]
        labels = [label for _, label in rows]
        out[name] = (labels, out_of_fold(model.sentence_features([t for t, _ in rows], name), labels, name))
    texts, spans, kinds, owners = [], [], [], []
    for line in data["amounts"]:
        plain, found = fm.labelled_amounts(line)
        for start, end, kind, owner in found:
            texts.append(plain), spans.append((start, end)), kinds.append(kind), owners.append(owner)
    x = model._window_features([fm.amount_window(t, a, b) for t, (a, b) in zip(texts, spans)])
    out["kind"], out["owner"] = (kinds, out_of_fold(x, kinds)), (owners, out_of_fold(x, owners))
    summary = {}
    for name, (labels, predicted) in out.items():
        right = [a == b for a, b in zip(labels, predicted)]
        confusions = Counter((a, b) for a, b in zip(labels, predicted) if a != b).most_common(5)
        summary[name] = {"examples": len(labels), "accuracy": round(sum(right) / len(labels), 3),
                         "confusions": [f"{a} read as {b}: {n}" for (a, b), n in confusions]}
    labels, predicted = out["scope"]
    summary["scope"]["in_or_out_accuracy"] = round(
        sum((a == "nz_tax") == (b == "nz_tax") for a, b in zip(labels, predicted)) / len(labels), 3)
    return summary


def run(args) -> int:
    from nztax.embedders import get_embedder
    from nztax.settings import get_settings

    settings = get_settings()
    summary = measure(get_embedder(settings))
    lines = ["# The frame's learned readings, out of fold", "",
             f"{FOLDS} folds over `frame_examples.yaml`; embedder `{settings.embedder}`.", "",
             "| reading | examples | accuracy | commonest confusions |", "|---|---|---|---|"]
    for name, s in summary.items():
        extra = f" (in / out of scope {s['in_or_out_accuracy']})" if "in_or_out_accuracy" in s else ""
        lines.append(f"| {name} | {s['examples']} | {s['accuracy']}{extra} | {'; '.join(s['confusions'])} |")
    report = "\n".join(lines) + "\n"
    print(report)
    out = Path(getattr(args, "out", None) or settings.work_dir / "eval" / "frame_readings.md")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(report, encoding="utf-8")
    out.with_suffix(".json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    print(f"[eval frame-readings] written {out}", file=sys.stderr)
    return 0
