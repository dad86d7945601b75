"""`nztax eval answers` / `nztax eval bank`: run answer scenarios offline and score them.

In: `tests/golden/scenarios.yaml` (or --golden), the index (settings.index_dir, or --index; when
there is none, the built chunks or the small test fixture are indexed into .work/eval/index).
Out: three scores printed and written to `.work/eval/answers.json` —
  behaviour  share of scenarios with the expected status and the expected calculators called;
  facts      share of expected figures present (and forbidden figures absent) in the answers
             (and, beside it, the share of expected figures in the first paragraph: what outside checks read);
  citations  share of expected URL fragments found among the answers' citations —
plus a markdown table per category and per failing scenario (`.work/eval/answers.md` or --out).

`nztax eval bank` runs the held-out question bank (`tests/golden/question_bank.yaml`, written
outside the project before the engine's answers were seen), split once into a development part and
a frozen test part by a hash of each id (`splits.py`). It reports both parts, per category, and a
wrong-figure count: answers that state a figure the question's `forbidden` list names, or that
calculate when the question should have been clarified, declined or refused. Failing items are
listed for the development part only; the test part is scored, never inspected.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

import yaml

from nztax.settings import get_settings
from nztax_build.evaluate_realposts import first_paragraph
from nztax_build.splits import split_of

FIGURE = re.compile(r"\$?\d{1,3}(?:,\d{3})+(?:\.\d+)?%?|\$?\d+(?:\.\d+)?%?")


@dataclass
class Scenario:
    id: str
    category: str
    question: str
    status: str
    tax_year: str | None = None
    history: list[dict] = field(default_factory=list)
    figures: list[str] = field(default_factory=list)
    forbidden: list[str] = field(default_factory=list)
    citations: list[str] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)
    traps: list[str] = field(default_factory=list)
    split: str = "dev"


def load_scenarios(path: Path) -> tuple[dt.date | None, list[Scenario]]:
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    as_of = data.get("as_of")
    if isinstance(as_of, str):
        as_of = dt.date.fromisoformat(as_of)
    out = []
    held_out = "questions" in data and data.get("part") != "dev"  # the question bank: split by id hash
    for raw in data.get("questions") or data["scenarios"]:
        expect = raw.get("expect", {})
        out.append(Scenario(
            id=raw["id"], category=raw.get("category", "other"), question=raw["question"], status=expect["status"],
            tax_year=raw.get("tax_year"), history=raw.get("history") or [],
            figures=[str(f) for f in expect.get("figures") or []], forbidden=[str(f) for f in expect.get("forbidden") or []],
            citations=list(expect.get("citations") or []), tools=list(expect.get("tools") or []),
            traps=list(raw.get("traps") or []), split=split_of(raw["id"]) if held_out else "dev",
        ))
    return as_of, out


def _figure_key(text: str) -> tuple[str, Decimal] | None:
    kind = "%" if text.endswith("%") else ("$" if text.startswith("$") else "")
    try:
        return kind, Decimal(text.strip("$%").replace(",", "")).normalize()
    except InvalidOperation:
        return None


def figures_in(answer: str) -> set[tuple[str, Decimal]]:
    found = set()
    for m in FIGURE.finditer(answer):
        key = _figure_key(m.group(0))
        if key:
            found.add(key)
            found.add(("", key[1]))  # a figure written without its sign still counts for "any"
    return found


def has_figure(found: set, expected: str, answer: str | None = None) -> bool:
    """A dollar amount or rate, compared by value; anything else (a tax code "SH", a date "7 July")
    as whole words in the answer."""
    key = _figure_key(expected)
    if key is not None:
        return key in found
    if answer is None:
        return False
    return re.search(r"(?<![\w$])" + re.escape(expected) + r"(?![\w%])", answer) is not None


@dataclass
class Outcome:
    scenario: Scenario
    status: str
    behaviour: bool
    facts_hit: int
    facts_total: int
    cites_hit: int
    cites_total: int
    notes: list[str]
    latency_ms: int
    wrong_figure: bool = False
    lead_facts_hit: int = 0  # expected figures in the first paragraph, the part outside checks read


def score(s: Scenario, result: dict) -> Outcome:
    notes = []
    tools_called = {t["name"] for t in result["tools"]}
    behaviour = result["status"] == s.status and all(t in tools_called for t in s.tools)
    if result["status"] != s.status:
        notes.append(f"status {result['status']} (expected {s.status})")
    missing_tools = [t for t in s.tools if t not in tools_called]
    if missing_tools:
        notes.append("tools not called: " + ", ".join(missing_tools))
    found = figures_in(result["answer"])
    lead = first_paragraph(result["answer"])
    lead_found = figures_in(lead)
    hit = lead_hit = 0
    for f in s.figures:
        if has_figure(found, f, result["answer"]):
            hit += 1
            if has_figure(lead_found, f, lead):
                lead_hit += 1
            else:
                notes.append(f"{f} not in the first paragraph")
        else:
            notes.append(f"missing {f}")
    wrong = False
    for f in s.forbidden:
        bad = ("%" in result["answer"]) if f == "%" else has_figure(found, f, result["answer"])
        if bad:
            notes.append(f"forbidden {f} present")
            wrong = True
        else:
            hit += 1
    if s.status != "answered" and result["tools"] and result["status"] == "answered":
        # A figure computed for a question that should have been asked about or turned away.
        notes.append("calculated instead of " + s.status)
        wrong = True
    urls = [c["url"] for c in result["citations"]]
    cites = 0
    for fragment in s.citations:
        if any(fragment in u for u in urls):
            cites += 1
        else:
            notes.append(f"no citation matching {fragment!r}")
    return Outcome(s, result["status"], behaviour, hit, len(s.figures) + len(s.forbidden), cites, len(s.citations),
                   notes, result["latency_ms"], wrong, lead_hit)


def _index_dir(args, settings) -> Path:
    from nztax.index import MANIFEST_FILE

    if getattr(args, "index", None):
        return Path(args.index)
    if (settings.index_dir / MANIFEST_FILE).exists():
        return settings.index_dir
    from nztax_build.indexer import embed_and_index

    chunks = settings.work_dir / "chunks"
    if not (chunks / "children.jsonl").exists():
        chunks = settings.home / "tests" / "fixtures" / "chunks_small"
    target = settings.work_dir / "eval" / "index"
    print(f"[eval answers] no index at {settings.index_dir}; indexing {chunks} into {target}", file=sys.stderr)
    embed_and_index(dataclasses.replace(settings, index_dir=target), force=True, chunks_dir=chunks, index_dir=target)
    return target


def _pct(hit: int, total: int) -> str:
    return f"{hit / total:.3f}" if total else "–"


def _totals(items: list[Outcome]) -> dict:
    b = sum(o.behaviour for o in items)
    fh, ft = sum(o.facts_hit for o in items), sum(o.facts_total for o in items)
    ch, ct = sum(o.cites_hit for o in items), sum(o.cites_total for o in items)
    lh, lt = sum(o.lead_facts_hit for o in items), sum(len(o.scenario.figures) for o in items)
    return {"n": len(items), "behaviour": round(b / len(items), 4) if items else 0.0,
            "facts": round(fh / ft, 4) if ft else 0.0, "citations": round(ch / ct, 4) if ct else 0.0,
            "facts_first_paragraph": round(lh / lt, 4) if lt else 0.0,
            "wrong_figures": sum(o.wrong_figure for o in items)}


def _row(name: str, t: dict) -> str:
    return (f"| {name} | {t['n']} | {t['behaviour']:.3f} | {t['facts']:.3f} | {t['facts_first_paragraph']:.3f} | "
            f"{t['citations']:.3f} | {t['wrong_figures']} |")


def run(args) -> int:
    import nztax.rules
    from nztax.engine import Engine

    from nztax_build import eval_model

    model = getattr(args, "model", None)
    # Offline unless a model is asked for: deterministic and free.
    settings = eval_model.model_settings(get_settings(), model)
    golden = Path(getattr(args, "golden", None) or settings.home / "tests" / "golden" / "scenarios.yaml")
    as_of, scenarios = load_scenarios(golden)
    if as_of:
        nztax.rules.CLOCK = lambda: as_of
    index_dir = _index_dir(args, settings)
    engine = Engine.create(settings, index_dir=index_dir)
    outcomes = []
    cost = eval_model.Cost()
    started = time.perf_counter()
    for number, s in enumerate(scenarios, start=1):
        answered = eval_model.answer(engine, s.id, s.question, tax_year=s.tax_year, history=s.history, use_faq=False,
                                     mode="llm" if model else "offline")
        cost.add(answered)
        result = answered.to_json()
        outcomes.append(score(s, result))
        shown = "ok" if not outcomes[-1].notes else ("; ".join(outcomes[-1].notes) if s.split != "test" else "not ok")
        print(f"[eval answers] {number}/{len(scenarios)} {s.id if s.split != 'test' else '(test)'}: {shown}", file=sys.stderr)
    seconds = time.perf_counter() - started

    splits = sorted({o.scenario.split for o in outcomes})
    overall = _totals(outcomes)
    lines = [f"# Answer evaluation ({f'model {model}' if model else 'offline'})", "",
             f"{len(outcomes)} questions from `{golden.name}`, index `{index_dir}`, as of {as_of}; {seconds:.1f} s in total.",
             "Wrong figures: answers stating a figure the question forbids, or calculating where it should ask or decline.", ""]
    header = ["| part / category | n | behaviour | facts | facts in 1st paragraph | citations | wrong figures |",
              "|---|---|---|---|---|---|---|"]
    lines += header + [_row(f"**{p}**", _totals([o for o in outcomes if o.scenario.split == p])) for p in splits]
    lines += [_row("**all**", overall), ""]
    by_split_cat: dict[str, dict] = {}
    for p in splits:
        part = [o for o in outcomes if o.scenario.split == p]
        by_cat = defaultdict(list)
        for o in part:
            by_cat[o.scenario.category].append(o)
        by_split_cat[p] = {c: _totals(i) for c, i in sorted(by_cat.items())}
        if len(splits) > 1:
            lines += [f"## Part `{p}` by category", ""]
        lines += header + [_row(c, t) for c, t in by_split_cat[p].items()] + [""]
        traps = sorted({t for o in part for t in o.scenario.traps})
        if traps:
            lines += ["| trap | n | behaviour | facts | facts in 1st paragraph | citations | wrong figures |",
                      "|---|---|---|---|---|---|---|"]
            lines += [_row(t, _totals([o for o in part if t in o.scenario.traps])) for t in traps] + [""]
    failing = [o for o in outcomes if o.notes and o.scenario.split != "test"]
    if failing:
        lines += ["## Questions with problems (development part only)", "", "| id | status | notes |", "|---|---|---|"]
        lines += [f"| {o.scenario.id} | {o.status} | {'; '.join(o.notes)} |" for o in failing]
    report = "\n".join(lines) + "\n"
    out = Path(getattr(args, "out", None) or settings.work_dir / "eval" / "answers.md")
    summary = {**{k: overall[k] for k in ("behaviour", "facts", "facts_first_paragraph", "citations", "wrong_figures")}, "scenarios": len(outcomes),
               "parts": {p: _totals([o for o in outcomes if o.scenario.split == p]) for p in splits},
               "by_category": by_split_cat,
               "failures": {o.scenario.id: o.notes for o in failing}}
    out = eval_model.write_report(out, report, summary, model, cost, ("behaviour", "facts", "citations", "wrong_figures"), "parts")
    print(f"[eval answers] written {out} and {out.with_suffix('.json')}", file=sys.stderr)
    return 0
