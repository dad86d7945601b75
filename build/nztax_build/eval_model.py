"""Evaluations through a language model: `nztax eval bank|realposts|all --model MODEL` (`make eval MODEL=…`).

In: a litellm model string (its key in the environment) or `scripted:<frames.yaml>` (frames filed by
question id, docs/llm.md), and the settings. Out: settings for LLM mode, the file-name tag that keeps a
model's sheets and scores beside the offline ones (`realposts.md` → `realposts.<tag>.md`), one answer
per question with its id made known to a scripted model, and a table of the model's scores beside the
offline run's when that run's JSON is there.

    settings = model_settings(get_settings(), "gemini/gemini-2.5-flash")   # SystemExit when the key is missing
    result = answer(engine, "post-17", question, mode="llm")
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

# Answer evaluations a model can change (the retrieval ones read no model).
MODEL_TARGETS = ("bank", "realposts")


def tag(model: str | None) -> str:
    """A file-name tag for a model: 'gemini/gemini-2.5-flash' -> 'gemini-2.5-flash', 'scripted:x.yaml' -> 'scripted'."""
    if not model:
        return ""
    if model.startswith("scripted:"):
        return "scripted"
    return re.sub(r"[^A-Za-z0-9._-]+", "-", model.split("/")[-1]).strip("-") or "model"


def tagged(path: Path, model: str | None) -> Path:
    return path.with_name(f"{path.stem}.{tag(model)}{path.suffix}") if model else path


def model_settings(settings, model: str | None):
    """Settings that answer through `model` (offline when None); SystemExit with the reason when it cannot."""
    if not model:
        return dataclasses.replace(settings, llm_model=None)
    if model.startswith("scripted:"):
        frames = Path(model[len("scripted:"):])
        if not frames.is_file():
            raise SystemExit(f"nztax eval --model {model}: no frames file at {frames}")
        from nztax.llm_reader import check_frames

        problems = check_frames(frames)
        if problems:
            raise SystemExit(f"nztax eval --model {model}: frames that do not fit the schema:\n  " + "\n  ".join(problems[:20]))
        return dataclasses.replace(settings, llm_model=model)
    from nztax.llm import _litellm

    missing = _litellm().validate_environment(model=model).get("missing_keys") or []
    if missing:
        raise SystemExit(f"nztax eval --model {model}: set {', '.join(missing)} first (the model's key)")
    return dataclasses.replace(settings, llm_model=model)


def answer(engine, question_id: str, question: str, **kwargs):
    """The engine's `AskResult`, with the question's id known to a scripted model."""
    from nztax.llm_reader import scripted_question

    with scripted_question(question_id):
        return engine.answer(question, **kwargs)


def beside_offline(model_parts: dict, offline_path: Path, model: str, keys: tuple[str, ...], within: str | None = None) -> str:
    """Markdown: each part's scores, offline beside the model's (a note when no offline run is recorded).
    `within` names the key of the offline JSON that holds the parts (None: the parts are the top level)."""
    if not offline_path.exists():
        return f"\n(No offline run at `{offline_path}` to set beside: run the same target without --model.)\n"
    offline = json.loads(offline_path.read_text(encoding="utf-8"))
    offline = offline.get(within, {}) if within else offline
    lines = ["", f"## Beside the offline run (`{offline_path.name}`)", "",
             "| part | " + " | ".join(f"{k}: offline → {tag(model)}" for k in keys) + " |",
             "|---|" + "---|" * len(keys)]
    for part in sorted(set(offline) & set(model_parts)):
        o, m = offline[part], model_parts[part]
        if isinstance(o, dict) and isinstance(m, dict):
            lines.append(f"| {part} | " + " | ".join(f"{o.get(k)} → {m.get(k)}" for k in keys) + " |")
    return "\n".join(lines) + "\n"


class Cost:
    """What the model cost over a run: calls, tokens, seconds, and how often the offline answer stood in."""

    def __init__(self):
        self.answers = self.calls = self.prompt = self.completion = 0
        self.seconds = self.cost = 0.0
        self.fallbacks: dict[str, int] = {}

    def add(self, result) -> None:
        self.answers += 1
        u = result.usage or {}
        self.calls += int(u.get("calls", 0))
        self.prompt += int(u.get("prompt_tokens", 0))
        self.completion += int(u.get("completion_tokens", 0))
        self.seconds += float(u.get("seconds", 0.0))
        self.cost += float(u.get("cost_usd", 0.0))
        if result.fallback_reason:
            self.fallbacks[result.fallback_reason] = self.fallbacks.get(result.fallback_reason, 0) + 1

    def to_json(self) -> dict:
        n = max(self.answers, 1)
        return {"answers": self.answers, "calls_per_answer": round(self.calls / n, 2),
                "prompt_tokens_per_answer": round(self.prompt / n), "completion_tokens_per_answer": round(self.completion / n),
                "model_seconds_per_answer": round(self.seconds / n, 3), "cost_usd": round(self.cost, 4),
                "offline_fallbacks": dict(sorted(self.fallbacks.items()))}

    def markdown(self, model: str) -> str:
        c = self.to_json()
        return (f"\nModel `{model}`: {c['answers']} answers, {c['calls_per_answer']} calls, {c['prompt_tokens_per_answer']} prompt "
                f"and {c['completion_tokens_per_answer']} completion tokens and {c['model_seconds_per_answer']} s of model time "
                f"an answer, ${c['cost_usd']} in all; the offline answer stood in {sum(self.fallbacks.values())} times "
                f"{c['offline_fallbacks'] or ''}.\n")


def write_report(out: Path, report: str, summary: dict, model: str | None, cost, keys: tuple[str, ...],
                 within: str | None = None) -> Path:
    """Print an evaluation's report and write it (`out`, markdown) with its summary beside it (JSON).
    With a model the report adds its cost and its `keys` beside the offline run's (`within`: as in
    `beside_offline`), and both files carry the model's tag. Returns the markdown file's path."""
    if model:
        parts = summary[within] if within else summary
        report += cost.markdown(model) + beside_offline(parts, out.with_suffix(".json"), model, keys, within)
        summary = {**summary, "model": model, "cost": cost.to_json()}
    print(report)
    out = tagged(out, model)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(report, encoding="utf-8")
    out.with_suffix(".json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return out
