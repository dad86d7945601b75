"""`nztax eval units-in-posts`: is a held-out unit wording still served its unit inside a story?

In: the unit bank, the index and the question bank's as-of day (as `nztax eval units`), and the pool
of neutral narrative sentences `data/story_sentences.yaml`. Out: `.work/eval/units_in_posts.md` and
`.json` (or --out).

Real posts are narratives: background, someone's figures, and the asking sentence somewhere in
them. Each development-half held-out paraphrase (evaluate_units.held_out, splits.split_of) that is
served its own unit when asked alone (as the sentence the posts hold) is asked again inside posts built around it: `before` (one to
four neutral sentences before it), `around` (the same and a closing sentence after it) and
`figure` (neutral sentences and a figure of someone else's, "My partner earns about $60k."). The
sentences are picked by a hash of the wording, so every run asks the same posts. Each post's answer
is scored as `nztax eval units` scores one (its own unit's lead, another unit's, or none), and
every post that loses its unit is listed with where it went instead (status, the frame's asking
sentences and the trace's notes). Nothing here is tuned on the frozen test part: only
development-half wordings are asked.
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

POOL_FILE = Path(__file__).with_name("data") / "story_sentences.yaml"
VARIANTS = ("before", "around", "figure")
MAX_BEFORE = 4


def story_pool(path: Path = POOL_FILE) -> dict[str, list[str]]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _draw(key: str, salt: str, n: int) -> int:
    return int(hashlib.sha256(f"{key}\0{salt}".encode("utf-8")).hexdigest(), 16) % n


def _distinct(pool: list[str], key: str, salt: str, k: int) -> list[str]:
    """k different sentences of `pool`, chosen by the hash of `key` (kept in the pool's order)."""
    ranked = sorted(pool, key=lambda s: hashlib.sha256(f"{key}\0{salt}\0{s}".encode("utf-8")).hexdigest())
    chosen = set(ranked[:k])
    return [s for s in pool if s in chosen]


def asked_as_sentence(text: str) -> str:
    """The wording as a sentence of a post: ending in a full stop or question mark, so the
    sentences around it stay sentences of their own."""
    text = text.strip()
    return text if text[-1:] in ".?!" else f"{text}?"


def in_post(text: str, variant: str, pool: dict[str, list[str]]) -> str:
    """The wording inside a story (`VARIANTS`), the same for the same wording in every run."""
    count = 1 + _draw(text, variant, MAX_BEFORE)
    before = _distinct(pool["before"], text, variant, count)
    if variant == "figure":
        figure = pool["someone_else"][_draw(text, "figure", len(pool["someone_else"]))]
        before = before[:-1] + [figure] if len(before) > 1 else before + [figure]
    after = [pool["after"][_draw(text, "after", len(pool["after"]))]] if variant == "around" else []
    return " ".join(before + [asked_as_sentence(text)] + after)


def _cell(text: str, limit: int = 220) -> str:
    flat = " ".join(str(text).split()).replace("|", "/")
    return flat if len(flat) <= limit else flat[:limit] + "…"


def where_it_went(result: dict) -> str:
    """A post's answer as the report lists it: status, action, the frame's asking sentences, notes."""
    trace = result.get("trace") or {}
    frame = trace.get("frame") or {}
    asking = " / ".join(frame.get("asking") or []) or "-"
    notes = "; ".join(trace.get("notes") or []) or "-"
    return f"{result.get('status')} ({trace.get('action', '-')}); asking: {asking}; notes: {notes}"


def run(args) -> int:
    import nztax.rules
    from nztax.rules import default_rules
    from nztax.units import UnitBank

    from nztax_build.evaluate_answers import _index_dir, load_scenarios
    from nztax_build.evaluate_realposts import first_paragraph
    from nztax_build.evaluate_units import LeadReader, _engine, bank_without, held_out
    from nztax_build.splits import split_of

    settings = dataclasses.replace(get_settings(), llm_model=None)  # offline: deterministic and free
    golden = Path(getattr(args, "golden", None) or settings.home / "tests" / "golden" / "question_bank.yaml")
    as_of, _ = load_scenarios(golden)
    if as_of:
        nztax.rules.CLOCK = lambda: as_of
    index_dir = _index_dir(args, settings)
    bank = UnitBank.load(settings.units_dir)
    reader = LeadReader(bank, default_rules())
    pool = story_pool()
    asked = [(u, a) for u in bank.units if u.lead for a in u.also
             if held_out(u.id, a) and split_of(f"{u.id}\0{a}") == "dev"]
    started = time.perf_counter()
    counts = {v: {"own": 0, "another": 0, "none": 0} for v in VARIANTS}
    lost: list[tuple[str, str, str, str, str, str]] = []
    served_alone = 0
    with tempfile.TemporaryDirectory(prefix="nztax-units-") as tmp:
        stripped = Path(tmp) / "units.yaml"
        stripped.write_text(yaml.safe_dump(bank_without(bank, lambda u, a: held_out(u.id, a)), sort_keys=False,
                                           allow_unicode=True), encoding="utf-8")
        engine = _engine(dataclasses.replace(settings, units_dir=stripped), index_dir)
        for number, (unit, text) in enumerate(asked, start=1):
            # (Alone as it stands in the posts: a wording without an end mark gets the question mark.)
            if reader.unit_of(engine.answer(asked_as_sentence(text), mode="offline").to_json()) != unit.id:
                continue
            served_alone += 1
            for variant in VARIANTS:
                post = in_post(text, variant, pool)
                result = engine.answer(post, mode="offline").to_json(include_trace=True)
                got = reader.unit_of(result)
                outcome = "own" if got == unit.id else "another" if got else "none"
                counts[variant][outcome] += 1
                if outcome != "own":
                    lost.append((variant, post, unit.id, got or "-", where_it_went(result),
                                 first_paragraph(result["answer"])))
            print(f"[eval units-in-posts] {number}/{len(asked)} {unit.id}", file=sys.stderr)
    seconds = time.perf_counter() - started

    def cell(variant: str, outcome: str) -> str:
        k = counts[variant][outcome]
        return f"{k} ({k / served_alone:.3f})" if served_alone else "–"

    lines = ["# Answer units: held-out wordings inside a story (offline)", "",
             f"{len(asked)} development-half held-out paraphrases; {served_alone} served their own unit when asked "
             f"alone, each asked again in {len(VARIANTS)} posts; {seconds:.1f} s in total.", "",
             "| inside a post | " + " | ".join(VARIANTS) + " |", "|---|" + "---|" * len(VARIANTS),
             "| its own unit | " + " | ".join(cell(v, "own") for v in VARIANTS) + " |",
             "| another unit's lead | " + " | ".join(cell(v, "another") for v in VARIANTS) + " |",
             "| no unit | " + " | ".join(cell(v, "none") for v in VARIANTS) + " |", ""]
    if lost:
        lines += ["## Posts that lost their unit", "", "| post | its unit | served | where it went | first paragraph |",
                  "|---|---|---|---|---|"]
        lines += [f"| ({v}) {_cell(p, 400)} | {uid} | {got} | {_cell(went, 400)} | {_cell(fp)} |"
                  for v, p, uid, got, went, fp in lost] + [""]
    report = "\n".join(lines)
    print(report)
    out = Path(getattr(args, "out", None) or settings.work_dir / "eval" / "units_in_posts.md")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(report, encoding="utf-8")
    summary = {"asked": len(asked), "served_alone": served_alone, "in_posts": counts}
    out.with_suffix(".json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    print(f"[eval units-in-posts] written {out} and {out.with_suffix('.json')}", file=sys.stderr)
    return 0
