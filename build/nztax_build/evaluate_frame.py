"""`nztax eval frame-readings`: out-of-fold accuracy of the question frame's learned readings.

In: the labelled examples the frame model is trained on (`nztax/data/frame_examples.yaml`) and the
shipped query embedder. Out: a report (`.work/eval/frame_readings.md` and `.json`) with, for each
reading (what a sentence asks, what a question is about, an amount's kind and owner), the share of
examples read right by a model trained without them (5 folds, examples dealt to folds in order, an
amount by its example line), the scope reading also as in / out of New Zealand personal tax, and the
commonest confusions. A measure of the readings' mechanism, not of real posts: the examples are the
project's own.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

FOLDS = 5


def out_of_fold(x: np.ndarray, labels: list[str], reading: str = "", groups: list[int] | None = None) -> list[str]:
    """Each example's reading by a model trained on the other folds (as long as the engine trains that
    reading). An example's fold is its group's (an amount's example line), so no amount of a held-out
    line is trained on."""
    from nztax.frame_model import READING_STEPS, STEPS, Softmax

    groups = list(range(len(labels))) if groups is None else groups
    predicted = [""] * len(labels)
    for fold in range(FOLDS):
        test = [i for i in range(len(labels)) if groups[i] % FOLDS == fold]
        train = [i for i in range(len(labels)) if groups[i] % FOLDS != fold]
        model = Softmax.fit(x[train], [labels[i] for i in train], READING_STEPS.get(reading, STEPS))
        for i in test:
            predicted[i] = model.predict(x[i])[0]
    return predicted


def measure(embedder) -> dict:
    """Per reading: accuracy out of fold on the examples, and the commonest confusions."""
    from nztax import frame_model as fm

    model = fm.FrameModel(embedder, {}, "out-of-fold")
    out = {}
    for name in ("asks", "scope"):
        rows = fm.sentence_examples(name)
        labels = [e.label for e in rows]
        out[name] = (labels, out_of_fold(model.sentence_features([e.text for e in rows], name), labels, name))
    amounts = fm.amount_examples()
    x = model._window_features([fm.amount_window(a.text, a.start, a.end) for a in amounts])
    for name in ("kind", "owner"):
        labels = [getattr(a, name) for a in amounts]
        out[name] = (labels, out_of_fold(x, labels, name, [a.group for a in amounts]))
    summary = {}
    for name, (labels, predicted) in out.items():
        pairs = list(zip(labels, predicted))
        confusions = Counter((a, b) for a, b in pairs if a != b).most_common(5)
        summary[name] = {"examples": len(pairs), "accuracy": round(sum(a == b for a, b in pairs) / len(pairs), 3),
                         "confusions": [f"{a} read as {b}: {n}" for (a, b), n in confusions]}
        if name == "scope":
            summary[name]["in_or_out_accuracy"] = round(sum((a == fm.IN_SCOPE) == (b == fm.IN_SCOPE) for a, b in pairs) / len(pairs), 3)
    return summary


def run(args) -> int:
    from nztax.embedders import get_embedder
    from nztax.settings import get_settings

    settings = get_settings()
    summary = measure(get_embedder(settings))
    lines = ["# The frame's learned readings, out of fold", "",
             f"{FOLDS} folds over `frame_examples.yaml`; embedder `{settings.embedder}`.", "",
             "| reading | examples | accuracy | commonest confusions (examples) |",
             "|---|---|---|---|"]
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
