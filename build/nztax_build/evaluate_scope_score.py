"""`nztax eval scope-score`: would one calibrated score over the scope readings decide scope better than the table?

In: the development real posts (`realposts.yaml`, their `in_scope`), their first rewrites
(`realposts_paraphrases.yaml`, labelled as their originals) and the question banks' development questions
(every out-of-scope one and a quarter of the rest by id hash; refusals and follow-ups left out), read by
the built engine. Out: a report (`.work/eval/scope_score.md` and `.json`).

Each text's readings (the ones the decision table's scope rows read one at a time, each at its own bar):
the scope reading of the whole post and of its asking sentences alone (as log-odds), the intent reading's
best answering score less its best declining one (whole post; asking sentences alone), whether its best
intent is a decline, and the nearest decline wording's lead over the nearest answer unit (asking
sentences; whole post); the `rich` set adds the story flag and its products, the asking sentences
matching no intent, the two cosines themselves and a refusal. A logistic model over them is fitted on
the bank questions and the development posts (the posts weighted 1, 3 or 10), none of which any reading
is trained on, in 5 folds by post (a rewrite in its original's fold): every score reported is out of
fold. It is set against the table's own decision (after the decline units; before a unit over a decline)
alone, as a row declining what the table answers (OR) and as a second reading a decline needs (AND).
A measure, not a mechanism: docs/understanding.md, "Tried and not kept".
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import yaml

FOLDS = 5
STEPS = 3000
RATE = 1.0
PENALTY = 1.0           # L2 on the weights (not the bias), per unit of example weight
POST_WEIGHTS = (1.0, 3.0, 10.0)
BARS = (0.5, 0.6, 0.7, 0.8, 0.9)
BANK_IN_SCOPE_SHARE = 4  # one in-scope bank question in this many (every out-of-scope one)
TURNED_AWAY = ("decline", "refuse")
# The plain features by name, and the sign that makes each lean out of scope when higher.
SINGLE = (("whole post's scope", -1), ("asking sentences' scope", -1), ("intent reading, whole", -1),
          ("intent reading, asking sentences", -1), ("best intent a decline", 1), ("decline wording's lead, asking", 1),
          ("decline wording's lead, whole", 1))


def _logit(p: float | None) -> float:
    p = min(max(0.5 if p is None else p, 1e-3), 1 - 1e-3)
    return float(np.log(p / (1 - p)))


def features(r: dict, rich: bool = False) -> list[float]:
    """A text's readings as numbers (module docstring)."""
    whole, asked = _logit(r["scope_in"]), _logit(r["asked_scope_in"] if r["asked_scope_in"] is not None else r["scope_in"])
    out = [whole, asked, r["w_in"] - r["w_out"], r["a_in"] - r["a_out"], float(r["w_does"] == "decline"),
           r["du_asked"], r["du_whole"]]
    if rich:
        story = float(r["story"])
        out += [story, story * whole, story * asked, float(r["w_conf"]), float(r["a_unread"]), r["du_asked_score"],
                r["du_whole_score"], story * r["du_whole"], float(r["w_does"] == "refuse")]
    return out


def fit(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted logistic regression by full-batch gradient descent from zero: deterministic. Last entry: the bias."""
    xb = np.hstack([x, np.ones((len(x), 1))])
    beta = np.zeros(xb.shape[1])
    total = w.sum()
    for _ in range(STEPS):
        p = 1.0 / (1.0 + np.exp(-xb @ beta))
        grad = xb.T @ ((p - y) * w) / total + PENALTY * np.r_[beta[:-1], 0.0] / total
        beta -= RATE * grad
    return beta


def probability(beta: np.ndarray, x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-(np.hstack([x, np.ones((len(x), 1))]) @ beta)))


def fold_of(group: str) -> int:
    return int(hashlib.sha256(group.encode("utf-8")).hexdigest(), 16) % FOLDS


def out_of_fold(records: list[dict], rich: bool, post_weight: float) -> dict[str, float]:
    """Each record's score by a model fitted without its fold (rewrites are never fitted on)."""
    raw = np.array([features(r, rich) for r in records], dtype=float)
    x = (raw - raw.mean(axis=0)) / (raw.std(axis=0) + 1e-9)
    scores: dict[str, float] = {}
    for fold in range(FOLDS):
        train = [i for i, r in enumerate(records) if r["set"] != "rewrite" and fold_of(r["group"]) != fold]
        y = np.array([float(records[i]["out"]) for i in train])
        w = np.array([post_weight if records[i]["set"] == "post" else 1.0 for i in train])
        beta = fit(x[train], y, w)
        held = [i for i, r in enumerate(records) if fold_of(r["group"]) == fold]
        for i, p in zip(held, probability(beta, x[held])):
            scores[records[i]["id"]] = float(p)
    return scores


def auc(scores: list[float], labels: list[bool]) -> float:
    pos = [s for s, l in zip(scores, labels) if l]
    neg = [s for s, l in zip(scores, labels) if not l]
    if not pos or not neg:
        return float("nan")
    return sum((p > n) + 0.5 * (p == n) for p in pos for n in neg) / (len(pos) * len(neg))


def items(home: Path):
    """The labelled texts: (set, id, group, text, out of scope)."""
    from nztax_build.splits import split_of

    golden = home / "tests" / "golden"
    posts = {p["id"]: p for p in yaml.safe_load((golden / "realposts.yaml").read_text(encoding="utf-8"))["posts"]
             if split_of(p["id"]) == "dev"}
    for p in posts.values():
        yield "post", p["id"], p["id"], p["question"], not p["in_scope"]
    for r in yaml.safe_load((golden / "realposts_paraphrases.yaml").read_text(encoding="utf-8"))["posts"]:
        if r["of"] in posts:
            yield "rewrite", r["id"], r["of"], r["question"], not posts[r["of"]]["in_scope"]
    for path in sorted(golden.glob("question_bank*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        held_out = data.get("part") != "dev"
        for q in data["questions"]:
            status = q["expect"]["status"]
            if (held_out and split_of(q["id"]) != "dev") or status == "refused" or q.get("history"):
                continue
            if status != "out_of_scope" and int(hashlib.sha256(q["id"].encode("utf-8")).hexdigest(), 16) % BANK_IN_SCOPE_SHARE:
                continue
            yield "bank", q["id"], q["id"], q["question"], status == "out_of_scope"


def _in_out(classification, catalogue) -> tuple[float, float]:
    """The best answering intent's score and the best declining one's."""
    scores = classification.scores.items()
    return (max((s for n, s in scores if catalogue.get(n).does not in TURNED_AWAY), default=0.0),
            max((s for n, s in scores if catalogue.get(n).does == "decline"), default=0.0))


def readings(engine, text: str) -> dict:
    """The scope readings of one text, and the action the table and the decline units take."""
    from nztax import decline_units
    from nztax.slots import read_slots

    proposal, vector = engine._propose(text, [], None)
    frame = engine.read_frame(proposal)
    final = decline_units.overrule(engine, engine.settle(proposal, frame, []), frame, vector, "offline")
    catalogue = engine.classifier.catalogue
    c = proposal.classification
    asking = " ".join(frame.asking)
    alone = (engine.classifier.classify(asking, engine._embed(asking), read_slots(asking, engine.rules))
             if asking.strip() != proposal.asked.strip() else c)
    units, cosines = decline_units.of(engine), engine.unit_matcher.unit_cosines
    asked = [r for r in (units.reading(s, engine.retriever.embed_query(s), cosines) for s in map(frame.read_as, frame.asking))
             if r is not None]
    whole = units.reading(proposal.question, vector, cosines)
    (w_in, w_out), (a_in, a_out) = _in_out(c, catalogue), _in_out(alone, catalogue)
    return {"story": frame.story, "scope_in": frame.scope_in, "asked_scope_in": frame.asked_scope_in,
            "w_in": w_in, "w_out": w_out, "w_does": c.intent.does, "w_conf": bool(c.confident),
            "a_in": a_in, "a_out": a_out, "a_unread": alone.score < engine.settings.intent_min_score,
            "du_asked": max((r.score - r.unit_score for r in asked), default=0.0),
            "du_asked_score": max((r.score for r in asked), default=0.0),
            "du_whole": whole.score - whole.unit_score if whole else 0.0, "du_whole_score": whole.score if whole else 0.0,
            "declined": final.action == "decline", "rows": list(final.trace.rows) if final.trace else []}


def summarise(records: list[dict]) -> dict:
    """Per model (feature set × post weight) and per set: the table's declines, and the score's alone, OR, AND."""
    out: dict = {"models": {}, "single": {}}
    for part in ("post", "rewrite"):
        rs = [r for r in records if r["set"] == part]
        # (Each reading alone, signed so that a higher value leans out of scope.)
        out["single"][part] = {name: round(auc([sign * features(r)[i] for r in rs], [r["out"] for r in rs]), 3)
                               for i, (name, sign) in enumerate(SINGLE)}
        out["single"][part]["the table's declines"] = round(auc([float(r["declined"]) for r in rs], [r["out"] for r in rs]), 3)
    for rich in (False, True):
        for weight in POST_WEIGHTS:
            scores = out_of_fold(records, rich, weight)
            model: dict = {}
            for part in ("post", "rewrite", "bank"):
                rs = [r for r in records if r["set"] == part]
                outs, ins = [r for r in rs if r["out"]], [r for r in rs if not r["out"]]

                def count(group, rule):
                    return sum(1 for r in group if rule(r))

                model[part] = {"out": len(outs), "in": len(ins), "table": [count(outs, _declined), count(ins, _declined)],
                               "auc": round(auc([scores[r["id"]] for r in rs], [r["out"] for r in rs]), 3),
                               "bars": {bar: {"alone": [count(g, lambda r: scores[r["id"]] >= bar) for g in (outs, ins)],
                                              "or": [count(g, lambda r: _declined(r) or scores[r["id"]] >= bar) for g in (outs, ins)],
                                              "and": [count(g, lambda r: _declined(r) and scores[r["id"]] >= 1 - bar)
                                                      for g in (outs, ins)]}
                                        for bar in BARS}}
            out["models"][f"{'rich' if rich else 'plain'}, posts x{weight:g}"] = model
    return out


def _declined(r: dict) -> bool:
    return r["declined"]


def report(summary: dict) -> str:
    lines = ["# One calibrated scope score against the decision table (out of fold)", "",
             "Counts are out-of-scope declined / in-scope declined. `or`: the table's decline, or the score at the bar; "
             "`and`: the table's decline kept only with the score at 1 − bar.", ""]
    lines += ["Each reading alone, and the table (AUC, out of scope higher):", ""]
    lines += [f"- {part}: " + "; ".join(f"{name} {value}" for name, value in single.items()) for part, single in summary["single"].items()]
    lines.append("")
    for name, model in summary["models"].items():
        lines += [f"## {name}", "", "| set | table | AUC | " + " | ".join(f"≥ {b}: alone / or / and" for b in BARS) + " |",
                  "|---|---|---|" + "---|" * len(BARS)]
        for part, m in model.items():
            cells = [" / ".join("{}-{}".format(*m["bars"][b][k]) for k in ("alone", "or", "and")) for b in BARS]
            lines.append(f"| {part} ({m['out']} out, {m['in']} in) | {m['table'][0]}-{m['table'][1]} | {m['auc']} | "
                         + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def run(args) -> int:
    from nztax.engine import Engine
    from nztax.settings import get_settings

    settings = get_settings()
    engine = Engine.load()
    engine.build_parts()
    records = []
    for n, (part, item_id, group, text, out) in enumerate(items(settings.home), 1):
        records.append({"set": part, "id": item_id, "group": group, "out": out, **readings(engine, text)})
        if n % 200 == 0:
            print(f"[eval scope-score] {n} read", file=sys.stderr, flush=True)
    summary = summarise(records)
    text = report(summary)
    print(text)
    path = Path(getattr(args, "out", None) or settings.work_dir / "eval" / "scope_score.md")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.with_suffix(".json").write_text(json.dumps({"summary": summary, "records": records}, indent=1), encoding="utf-8")
    print(f"[eval scope-score] written {path}", file=sys.stderr)
    return 0
