"""`nztax eval paraphrases`: does the engine read a real post the same way when it is told in other words?

In: `tests/golden/realposts_paraphrases.yaml` (`posts: [{id, of, writer, question}]`: each a helper's
rewrite of a development post of `realposts.yaml`: the same person, facts, figures and question in
other words and another order; CheckList's invariance test), the original posts and their hand
grades (`realposts_grades.yaml`, a grade counting only for the answer it graded). A rewrite of a
frozen post is refused: it would carry a frozen post's text into view.
Out: each rewrite and its original answered offline and compared on what opens the answer: the
status (answered, declined, asked back ...), the source of the opening as the trace names it (an
answer unit, a stored FAQ answer, a decline unit, a calculator, an intent's lead, a retrieved
passage) and the first sentence; a report (`.work/eval/paraphrases.md` and `.json`) with the
invariance rates, overall and for originals graded correct or partly, and every rewrite whose opening
differs with the original's grade, both first paragraphs, the reference answer and what the frame read
differently; the sheet beside it (`paraphrases_sheet.yaml`) for judging the rewrites' answers.

The rewrites are helper-written, not posted by anyone: a robustness check of the reading, not
evidence of how the engine answers real people.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

import yaml

from nztax.contract import CITE_MARK
from nztax.sentences import sentences
from nztax.settings import get_settings
from nztax_build.evaluate_realposts import Post, answer_key, first_paragraph, load_grades, load_posts
from nztax_build.splits import split_of

ASPECTS = ("status", "source", "first_sentence")
GOOD = ("correct", "partly")
# The answer's citation mark as the contract writes it, with the space before it.
CITE_MARK_AND_SPACE = re.compile(r"\s*" + CITE_MARK.pattern)
# What the frame read, compared between a rewrite and its original to say what was read differently.
FRAME_ASPECTS = ("asks", "scope", "tax_year", "story", "conditions", "amounts", "ages")


@dataclass(frozen=True)
class Rewrite:
    id: str
    of: str
    writer: str
    question: str


@dataclass(frozen=True)
class Opening:
    """What opens one answer: its status, the source the trace names, and its first sentence."""
    status: str
    source: str
    first_sentence: str
    first_paragraph: str


def load_rewrites(path: Path, posts: dict[str, Post]) -> list[Rewrite]:
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    out, seen = [], set()
    for raw in data.get("posts") or []:
        of = str(raw["of"])
        if of not in posts:
            raise ValueError(f"{path}: {raw.get('id')!r} rewrites {of!r}, which is not a real post")
        if split_of(of) != "dev":
            raise ValueError(f"{path}: {of!r} is a frozen post; only development posts may be rewritten")
        rid = str(raw.get("id") or f"{of}~{sum(r.of == of for r in out) + 1}")
        if rid in seen:
            raise ValueError(f"{path}: duplicate id {rid!r}")
        seen.add(rid)
        out.append(Rewrite(id=rid, of=of, writer=str(raw.get("writer") or ""), question=str(raw["question"]).strip()))
    return out


def opening_source(result: dict) -> str:
    """The source of the opening, as the trace's `opened` names it (frame.note_opened); a declined or
    asked-back answer's is its status (and the decline unit, when one declined it), a calculation's its
    calculators."""
    trace = result.get("trace") or {}
    opened = trace.get("opened") or {}
    status = result["status"]
    if status == "answered" and "history" in opened:  # (a note for the post's time, set above whatever answered)
        return opened["history"]
    if status == "answered" and "not_found_left_out" in opened:
        # The not-found sentence left out: what later stages added opens (a note on the rule's history
        # appended to it, else another asked part's unit).
        return opened.get("history_after") or opened.get("asked_part") or opened["not_found_left_out"]
    if status != "answered":
        return f"{status}: {opened['decline_unit']}" if "decline_unit" in opened else status
    for kind in ("unit", "faq"):
        if kind in opened:
            return opened[kind]
    if result.get("tools") and trace.get("action") == "calculate":
        return "calculator " + ", ".join(sorted({t["name"] for t in result["tools"]}))
    if "said" in opened:
        return opened["said"]
    return f"{trace.get('action') or 'answer'} (no opening named)"


def first_sentence(paragraph: str) -> str:
    """The paragraph's first sentence, without citation marks or spacing differences."""
    text = " ".join(CITE_MARK_AND_SPACE.sub("", paragraph).split())
    return (sentences(text) or [text])[0]


def opening_of(result: dict) -> Opening:
    paragraph = first_paragraph(result["answer"])
    return Opening(status=result["status"], source=opening_source(result), first_sentence=first_sentence(paragraph),
                   first_paragraph=paragraph)


def compared(original: Opening, rewrite: Opening) -> dict[str, bool]:
    """Which aspects of the opening are the same: status, source, first sentence."""
    return {aspect: getattr(original, aspect) == getattr(rewrite, aspect) for aspect in ASPECTS}


def read_differently(original: dict, rewrite: dict) -> list[str]:
    """The aspects of the question frame (and of the decision) the two answers' traces read differently."""
    a, b = (r.get("trace") or {} for r in (original, rewrite))
    fa, fb = a.get("frame") or {}, b.get("frame") or {}
    out = []
    for aspect in FRAME_ASPECTS:
        va, vb = fa.get(aspect), fb.get(aspect)
        if aspect == "amounts":  # (the figures are the same, often written otherwise: what each was read as)
            va, vb = ([(x.get("value"), x.get("period"), x.get("kind"), x.get("owner")) for x in v or []] for v in (va, vb))
        if va != vb:
            out.append(aspect)
    for key in ("proposed", "action"):
        if a.get(key) != b.get(key):
            out.append(key)
    if a.get("rows") != b.get("rows"):
        out.append("rows")
    return out


def _read(result: dict, aspects: list[str]) -> dict:
    """The trace's readings of the aspects read differently, and its notes (for the sheet)."""
    trace = result.get("trace") or {}
    frame = trace.get("frame") or {}
    out = {a: frame[a] if a in frame else trace.get(a) for a in aspects}
    return {**out, "asking": frame.get("asking"), "notes": trace.get("notes") or []}


def summarise(rewrites: list[Rewrite], openings: dict[str, Opening], grade_of: dict[str, str | None]) -> dict:
    """Invariance rates: every aspect the same, and each aspect alone, over all rewrites and over the rewrites
    of originals graded correct or partly (`grade_of`: the original's current grade, None if ungraded)."""
    def rates(items: list[Rewrite]) -> dict:
        n = len(items)
        same = [compared(openings[r.of], openings[r.id]) for r in items]
        out = {"rewrites": n, "invariant": round(sum(all(s.values()) for s in same) / n, 3) if n else None}
        out.update({aspect: round(sum(s[aspect] for s in same) / n, 3) if n else None for aspect in ASPECTS})
        return out

    graded_good = [r for r in rewrites if grade_of.get(r.of) in GOOD]
    by_grade = Counter(grade_of.get(r.of) or "ungraded" for r in rewrites)
    return {"all": rates(rewrites), "originals correct or partly": rates(graded_good),
            "originals by grade": dict(sorted(by_grade.items()))}


def graded(items: list[tuple[bool, str | None]]) -> dict:
    """Hand grades as the real-post report counts them, from (in scope, grade or None if ungraded) pairs:
    in scope correct or partly, out of scope declined (graded correct or partly), wrong figures."""
    def share(good: int, n: int) -> str:
        return f"{good}/{n}"

    inside = [g for in_scope, g in items if in_scope and g]
    outside = [g for in_scope, g in items if not in_scope and g]
    return {"in scope correct or partly": share(sum(g in GOOD for g in inside), len(inside)),
            "in scope correct": sum(g == "correct" for g in inside),
            "out of scope declined": share(sum(g in GOOD for g in outside), len(outside)),
            "wrong figures": sum(g == "wrong_figure" for g in inside + outside),
            "ungraded": sum(g is None for _, g in items)}


def _quote(text: str) -> str:
    return "\n".join("> " + line if line.strip() else ">" for line in text.strip().splitlines()) or "> (empty)"


def report(summary: dict, differing: list[dict], golden: Path, seconds: float) -> str:
    lines = ["# Real posts reworded (offline)", "",
             f"Rewrites from `{golden.name}` (helper-written: a robustness check, not evidence); {seconds:.1f} s in total.", "",
             "| rewrites of | rewrites | invariant (all three) | same status | same source | same first sentence |",
             "|---|---|---|---|---|---|"]
    for name in ("all", "originals correct or partly"):
        s = summary[name]
        lines.append(f"| {name} | {s['rewrites']} | {s['invariant']} | {s['status']} | {s['source']} | {s['first_sentence']} |")
    lines += ["", "Originals' grades: " + ", ".join(f"{g} {n}" for g, n in summary["originals by grade"].items()), "",
              "Graded by hand (a grade counts only for the answer it graded):", "",
              "| answers to | in scope correct or partly | of them correct | out of scope declined | wrong figures | ungraded |",
              "|---|---|---|---|---|---|"]
    for name in ("originals", "rewrites"):
        g = summary["graded"][name]
        lines.append(f"| {name} | {g['in scope correct or partly']} | {g['in scope correct']} | {g['out of scope declined']} "
                     f"| {g['wrong figures']} | {g['ungraded']} |")
    lines += ["",
              f"## Rewrites whose opening differs ({len(differing)})", ""]
    for d in differing:
        lines += [f"### {d['id']} (of {d['of']}, graded {d['grade'] or 'ungraded'})", "",
                  f"Differs in: {', '.join(d['differs'])}; read differently: {', '.join(d['read_differently']) or 'nothing in the frame'}.", "",
                  f"- original: {d['original']['status']}, {d['original']['source']}",
                  f"- rewrite: {d['rewrite']['status']}, {d['rewrite']['source']}", "",
                  "Original's first paragraph:", "", _quote(d["original"]["first_paragraph"]), "",
                  "Rewrite's first paragraph:", "", _quote(d["rewrite"]["first_paragraph"]), "",
                  "Reference:", "", _quote(d["reference"]), ""]
    return "\n".join(lines) + "\n"


def run(args) -> int:
    from nztax.engine import Engine

    settings = get_settings()
    golden = Path(getattr(args, "golden", None) or settings.home / "tests" / "golden" / "realposts_paraphrases.yaml")
    posts_path = golden.with_name("realposts.yaml")
    posts = {p.id: p for p in load_posts(posts_path)}
    rewrites = load_rewrites(golden, posts)
    grades = load_grades(posts_path.with_name("realposts_grades.yaml"))
    engine = Engine.create(settings, index_dir=getattr(args, "index", None) or settings.index_dir)
    originals = sorted({r.of for r in rewrites})
    texts = [(pid, posts[pid].question) for pid in originals] + [(r.id, r.question) for r in rewrites]
    results: dict[str, dict] = {}
    started = time.perf_counter()
    for number, (qid, text) in enumerate(texts, start=1):
        results[qid] = engine.answer(text, tax_year=None, use_faq=True, mode="offline").to_json(include_trace=True)
        print(f"[eval paraphrases] {number}/{len(texts)}", file=sys.stderr)
    seconds = time.perf_counter() - started
    openings = {qid: opening_of(r) for qid, r in results.items()}
    grade_of = {pid: (grades[pid]["grade"] if pid in grades and grades[pid].get("answer_key") == answer_key(results[pid])
                      else None) for pid in originals}
    summary = summarise(rewrites, openings, grade_of)
    rewrite_grades = load_grades(golden.with_name("realposts_paraphrases_grades.yaml"))
    rewrite_grade = {r.id: (rewrite_grades[r.id]["grade"] if r.id in rewrite_grades
                            and rewrite_grades[r.id].get("answer_key") == answer_key(results[r.id]) else None) for r in rewrites}
    summary["graded"] = {"originals": graded([(posts[r.of].in_scope, grade_of[r.of]) for r in rewrites]),
                         "rewrites": graded([(posts[r.of].in_scope, rewrite_grade[r.id]) for r in rewrites])}
    sheet, differing = [], []
    for r in rewrites:
        same = compared(openings[r.of], openings[r.id])
        entry = {"id": r.id, "of": r.of, "writer": r.writer, "grade": grade_of[r.of], "rewrite_grade": rewrite_grade[r.id],
                 "differs": [a for a in ASPECTS if not same[a]],
                 "read_differently": read_differently(results[r.of], results[r.id]),
                 "reference": posts[r.of].reference_answer, "question": r.question,
                 "original": {**asdict(openings[r.of]), "answer_key": answer_key(results[r.of])},
                 "rewrite": {**asdict(openings[r.id]), "answer_key": answer_key(results[r.id]), "answer": results[r.id]["answer"]}}
        entry["traces"] = {"original": _read(results[r.of], entry["read_differently"]),
                           "rewrite": _read(results[r.id], entry["read_differently"])}
        sheet.append(entry)
        if entry["differs"]:
            differing.append(entry)
    out = Path(getattr(args, "out", None) or settings.work_dir / "eval" / "paraphrases.md")
    out.parent.mkdir(parents=True, exist_ok=True)
    text = report(summary, differing, golden, seconds)
    out.write_text(text, encoding="utf-8")
    out.with_suffix(".json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    # (Every answer with its trace, originals and rewrites, for reading what the frame made of each.)
    out.with_name("paraphrases_answers.json").write_text(json.dumps(results, ensure_ascii=False), encoding="utf-8")
    sheet_path = out.with_name("paraphrases_sheet.yaml")
    sheet_path.write_text(yaml.safe_dump(sheet, sort_keys=False, allow_unicode=True, width=110), encoding="utf-8")
    print(text.split("\n## ")[0])
    print(f"[eval paraphrases] written {out}, {out.with_suffix('.json')} and {sheet_path}", file=sys.stderr)
    return 0
