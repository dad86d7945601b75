"""`nztax eval units`: is an answer unit served for a wording of its question it has never seen?

In: the unit bank (`settings.units_dir`), the index (settings.index_dir, or --index), and the
held-out question bank (`tests/golden/question_bank.yaml`). Out: `.work/eval/units.md` and
`.json` (or --out), and `units_frozen.md` beside it.

Held-out paraphrases: one in `HOLD_OUT` of the bank's paraphrases (`also`), chosen by a hash of
the unit id and the text, is removed from the bank the Ask box matches against and asked through
the engine as a new question (the stored paraphrase vectors and the stored engine parts no longer
fit that bank, whose file is part of their key, so they are computed afresh). The held-out paraphrases are split once into a development and a test half
(`splits.split_of`); thresholds are chosen on the development half, and both are reported. Each answer is scored by how it opens: with its own unit's lead (served), with
another unit's lead (wrong unit), or with the engine's own answer (not served). The bank itself
is not changed.

The frozen test part of the question bank is asked too: every answer that opens with a unit's lead
is listed beside the question, and every answer's first paragraph (what outside checks read), for
the hand check `docs/units.md` records (is the opening the answer to the question asked?). The
list is not scored here and nothing is tuned on it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path

import yaml

from nztax.settings import get_settings

# One paraphrase in this many is held out.
HOLD_OUT = 3


def held_out(unit_id: str, text: str) -> bool:
    digest = int(hashlib.sha256(f"{unit_id}\0{text}".encode("utf-8")).hexdigest(), 16)
    return digest % HOLD_OUT == 0


def bank_without(bank, drop) -> dict:
    """The bank as unit-file data, without the paraphrases `drop(unit, text)` names; every unit
    keeps its id (an explicit slug), so the build's withheld list still applies."""
    topics: dict[str, dict] = {}
    for topic in bank.topics:
        topics[topic.slug] = {"title": topic.title, "intro": topic.intro, "questions": []}
    for unit in bank.units:
        entry = {"q": unit.question, "slug": unit.slug, "also": [a for a in unit.also if not drop(unit, a)]}
        if unit.lead:
            entry["lead"] = unit.lead
        if unit.calculation:
            entry["answer"] = "calculation"
        if unit.calculator:
            entry["calculator"] = unit.calculator
        if unit.source is not None:
            entry["source"] = {"url": unit.source.url, "quote": unit.source.quote}
        topics[unit.topic]["questions"].append(entry)
    return {"topics": {slug: t for slug, t in topics.items() if t["questions"]}}


class LeadReader:
    """Which unit an answer opens with: the units' leads filled for the answer's tax year."""

    def __init__(self, bank, rules):
        from nztax.units import fill, opening_for, unit_values

        self.by_year: dict[str, list[tuple[str, str]]] = {}
        for year, year_rules in rules.years.items():
            values = unit_values(year_rules)
            leads = [(fill(u.lead, values), u.id) for u in bank.units if u.lead]
            # Each lead as it opens a yes-or-no question's answer and any other's.
            self.by_year[year] = [(form, uid) for lead, uid in leads if lead
                                  for form in dict.fromkeys((lead, opening_for(lead, "")))]

    def unit_of(self, result: dict) -> str | None:
        answer = result.get("answer") or ""
        return next((uid for lead, uid in self.by_year.get(result.get("tax_year") or "", []) if answer.startswith(lead)),
                    None)


def _cell(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split()).replace("|", "/")
    return flat if len(flat) <= limit else flat[:limit] + "…"


def _engine(settings, index_dir: Path):
    from nztax.engine import Engine

    return Engine.create(settings, index_dir=index_dir)


def run(args) -> int:
    import nztax.rules
    from nztax.rules import default_rules
    from nztax.units import UnitBank

    from nztax_build.evaluate_answers import _index_dir, load_scenarios
    from nztax_build.evaluate_realposts import first_paragraph
    from nztax_build.splits import split_of

    settings = dataclasses.replace(get_settings(), llm_model=None)  # offline: deterministic and free
    golden = Path(getattr(args, "golden", None) or settings.home / "tests" / "golden" / "question_bank.yaml")
    as_of, scenarios = load_scenarios(golden)
    if as_of:  # the day the bank's questions were written for, for both parts
        nztax.rules.CLOCK = lambda: as_of
    index_dir = _index_dir(args, settings)
    bank = UnitBank.load(settings.units_dir)
    reader = LeadReader(bank, default_rules())
    asked = [(u, a) for u in bank.units if u.lead for a in u.also if held_out(u.id, a)]
    started = time.perf_counter()

    with tempfile.TemporaryDirectory(prefix="nztax-units-") as tmp:
        stripped = Path(tmp) / "units.yaml"
        stripped.write_text(yaml.safe_dump(bank_without(bank, lambda u, a: held_out(u.id, a)), sort_keys=False,
                                           allow_unicode=True), encoding="utf-8")
        engine = _engine(dataclasses.replace(settings, units_dir=stripped), index_dir)
        served, wrong, missed = [], [], []
        for number, (unit, text) in enumerate(asked, start=1):
            result = engine.answer(text, mode="offline").to_json()
            got = reader.unit_of(result)
            (served if got == unit.id else wrong if got else missed).append((unit, text, got))
            print(f"[eval units] {number}/{len(asked)} {unit.id}: {got or '-'}", file=sys.stderr)

    engine = _engine(settings, index_dir)
    frozen = [s for s in scenarios if s.split == "test"]
    opened, openings = [], []
    for s in frozen:
        result = engine.answer(s.question, tax_year=s.tax_year, history=s.history, use_faq=False, mode="offline").to_json()
        got = reader.unit_of(result)
        if got:
            opened.append((s.question, bank.get(got).question, got))
        openings.append((s.question, got or result["status"], first_paragraph(result["answer"])))
    seconds = time.perf_counter() - started

    n = len(asked)
    half = {key: split_of(f"{u.id}\0{t}") for key, (u, t) in enumerate(asked)}
    part_of = {(u.id, t): half[k] for k, (u, t) in enumerate(asked)}
    counts = {p: {"n": sum(1 for v in half.values() if v == p)} for p in ("dev", "test")}
    for name, items in (("served", served), ("wrong_unit", wrong), ("not_served", missed)):
        for p in counts:
            counts[p][name] = sum(1 for u, t, _ in items if part_of[(u.id, t)] == p)

    def cell(p: str, name: str) -> str:
        k, total = counts[p][name], counts[p]["n"]
        return f"{k} ({k / total:.3f})" if total else "–"

    lines = ["# Answer units: held-out paraphrases (offline)", "",
             f"{n} of the bank's paraphrases held out (one in {HOLD_OUT}, by hash) from {len(bank.units)} units, "
             f"index `{index_dir}`; {seconds:.1f} s in total.", "",
             f"| outcome | development half ({counts['dev']['n']}) | test half ({counts['test']['n']}) |", "|---|---|---|",
             f"| served its own unit | {cell('dev', 'served')} | {cell('test', 'served')} |",
             f"| served another unit's lead | {cell('dev', 'wrong_unit')} | {cell('test', 'wrong_unit')} |",
             f"| no unit (the engine's own answer) | {cell('dev', 'not_served')} | {cell('test', 'not_served')} |", ""]
    if wrong:
        lines += ["## Served another unit", "", "| paraphrase | its unit | served |", "|---|---|---|"]
        lines += [f"| {t} | {u.id} | {g} |" for u, t, g in wrong] + [""]
    if missed:
        lines += ["## Not served a unit", "", "| paraphrase | its unit |", "|---|---|"]
        lines += [f"| {t} | {u.id} |" for u, t, _ in missed] + [""]
    lines += [f"Frozen test part of `{golden.name}`: {len(opened)} of {len(frozen)} answers open with a unit's lead "
              f"(listed in `units_frozen.md` for the hand check).", ""]
    report = "\n".join(lines)
    print(report)
    out = Path(getattr(args, "out", None) or settings.work_dir / "eval" / "units.md")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(report, encoding="utf-8")
    frozen_lines = ["# Frozen test part: answers that open with a unit's lead (for the hand check)", "",
                    "| question asked | the unit's question | unit |", "|---|---|---|"]
    frozen_lines += [f"| {q} | {uq} | {uid} |" for q, uq, uid in opened]
    frozen_lines += ["", "## Every answer's first paragraph (the unit it opens with, or its status)", "",
                     "| question asked | opens with | first paragraph |", "|---|---|---|"]
    frozen_lines += [f"| {q} | {kind} | {_cell(text)} |" for q, kind, text in openings]
    out.with_name("units_frozen.md").write_text("\n".join(frozen_lines) + "\n", encoding="utf-8")
    summary = {"held_out": n, "served": len(served), "wrong_unit": len(wrong), "not_served": len(missed),
               "parts": counts, "frozen": len(frozen), "frozen_opened_with_unit": len(opened)}
    out.with_suffix(".json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    print(f"[eval units] written {out}, {out.with_suffix('.json')} and {out.with_name('units_frozen.md')}", file=sys.stderr)
    return 0
