"""`nztax eval realposts`: answer real public posts offline, write a grading sheet, score hand grades.

In: `tests/golden/realposts.yaml` (questions real people posted in public, each with the poster's
own words, the address, a reference answer written before the engine's answer was seen, the facts a
right first paragraph states, and the IRD pages that answer it), split once into a development part
and a frozen test part by a hash of each id (`splits.py`); `tests/golden/realposts_grades.yaml`
(grades given by hand, each tied to the answer it graded by a hash of that answer).
Out: `.work/eval/realposts_sheet.yaml` — one entry per post with the reference and the engine's
answer, for a grader who never reads the engine's code — and a report (`.work/eval/realposts.md`
and `.json`) with, per part: the hand grades (correct / partly / wrong without a figure / wrong
figure), the share of in-scope posts correct or partly correct, the share of out-of-scope posts
declined, and how many grades are stale (the answer changed since it was graded). Beside them, the
share of posts whose scope was judged right (declined exactly when out of scope), which needs no
grader: a quick signal for development, not the measure.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from nztax.settings import get_settings
from nztax_build.splits import split_of

GRADES = ("correct", "partly", "wrong", "wrong_figure")
DECLINED = ("out_of_scope", "refused")


@dataclass
class Post:
    id: str
    url: str
    question: str
    in_scope: bool
    expected_status: str
    reference_answer: str
    must_say: list[str] = field(default_factory=list)
    forbidden: list[str] = field(default_factory=list)
    accepted_pages: list[str] = field(default_factory=list)
    tax_year: str | None = None
    asks: str | None = None

    @property
    def split(self) -> str:
        return split_of(self.id)


def load_posts(path: Path) -> list[Post]:
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    posts, seen = [], set()
    for raw in data["posts"]:
        if raw["id"] in seen:
            raise ValueError(f"{path}: duplicate id {raw['id']!r}")
        seen.add(raw["id"])
        posts.append(Post(
            id=raw["id"], url=raw["url"], question=str(raw["question"]).strip(), in_scope=bool(raw["in_scope"]),
            expected_status=raw["expected_status"], reference_answer=str(raw.get("reference_answer") or "").strip(),
            must_say=[str(x) for x in raw.get("must_say") or []], forbidden=[str(x) for x in raw.get("forbidden") or []],
            accepted_pages=list(raw.get("accepted_pages") or []), tax_year=raw.get("tax_year"), asks=raw.get("asks"),
        ))
    return posts


def first_paragraph(answer: str) -> str:
    """What outside checks read: the answer up to its first blank line (headings skipped)."""
    for block in re.split(r"\n\s*\n", answer.strip()):
        if block.strip() and not block.lstrip().startswith("#"):
            return block.strip()
    return ""


def answer_key(result: dict) -> str:
    """Ties a hand grade to the answer it graded: a changed answer needs grading again."""
    text = f"{result['status']}\n{result['answer']}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def scope_right(post: Post, result: dict) -> bool:
    """Declined exactly when the post is out of scope: an automatic signal, no grader needed."""
    return (result["status"] in DECLINED) == (not post.in_scope)


def load_grades(path: Path) -> dict[str, dict]:
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    grades = data.get("grades") or {}
    for pid, g in grades.items():
        if g.get("grade") not in GRADES:
            raise ValueError(f"{path}: {pid} has grade {g.get('grade')!r}; use one of {', '.join(GRADES)}")
    return grades


def summarise(posts: list[Post], results: dict[str, dict], grades: dict[str, dict]) -> dict:
    """Per part: hand-grade counts on current answers, the in-scope and out-of-scope shares, stale grades."""
    parts = {}
    for part in ("dev", "test"):
        items = [p for p in posts if p.split == part]
        current = {p.id: grades[p.id] for p in items
                   if p.id in grades and grades[p.id].get("answer_key") == answer_key(results[p.id])}
        counts = Counter(g["grade"] for g in current.values())
        in_scope = [p for p in items if p.in_scope and p.id in current]
        out_scope = [p for p in items if not p.in_scope]
        good = sum(current[p.id]["grade"] in ("correct", "partly") for p in in_scope)
        declined = sum(results[p.id]["status"] in DECLINED for p in out_scope)
        parts[part] = {
            "posts": len(items), "in_scope": sum(p.in_scope for p in items), "out_of_scope": len(out_scope),
            "graded": len(current), "stale_or_ungraded": len(items) - len(current),
            "grades": {g: counts.get(g, 0) for g in GRADES},
            "in_scope_correct_or_partly": round(good / len(in_scope), 3) if in_scope else None,
            "in_scope_correct": round(sum(current[p.id]["grade"] == "correct" for p in in_scope) / len(in_scope), 3)
            if in_scope else None,
            "out_of_scope_declined": round(declined / len(out_scope), 3) if out_scope else None,
            "scope_right": round(sum(scope_right(p, results[p.id]) for p in items) / max(len(items), 1), 3),
        }
    return parts


def _report(summary: dict, golden: Path, seconds: float, model: str | None = None) -> str:
    lines = [f"# Real public posts ({f'model {model}' if model else 'offline'})", "",
             f"Posts from `{golden.name}`; {seconds:.1f} s in total. Hand grades count only where the answer "
             "is the one that was graded.", "",
             "| part | posts | in / out of scope | graded | correct | partly | wrong | wrong figure | "
             "in-scope correct or partly | out-of-scope declined | scope right (automatic) |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for part, s in summary.items():
        g = s["grades"]
        lines.append(f"| {part} | {s['posts']} | {s['in_scope']} / {s['out_of_scope']} | {s['graded']} | {g['correct']} | "
                     f"{g['partly']} | {g['wrong']} | {g['wrong_figure']} | {s['in_scope_correct_or_partly']} | "
                     f"{s['out_of_scope_declined']} | {s['scope_right']} |")
    return "\n".join(lines) + "\n"


def run(args) -> int:
    from nztax.engine import Engine
    from nztax_build import eval_model

    model = getattr(args, "model", None)
    settings = eval_model.model_settings(get_settings(), model)
    golden = Path(getattr(args, "golden", None) or settings.home / "tests" / "golden" / "realposts.yaml")
    grades_path = golden.with_name(golden.stem + "_grades.yaml")
    posts = load_posts(golden)
    engine = Engine.create(settings, index_dir=getattr(args, "index", None) or settings.index_dir)
    results, sheet = {}, []
    cost = eval_model.Cost()
    started = time.perf_counter()
    for number, post in enumerate(posts, start=1):
        answered = eval_model.answer(engine, post.id, post.question, tax_year=None, use_faq=True,
                                     mode="llm" if model else "offline")
        cost.add(answered)
        result = answered.to_json()
        results[post.id] = result
        sheet.append({"id": post.id, "split": post.split, "url": post.url, "question": post.question,
                      "in_scope": post.in_scope, "expected_status": post.expected_status,
                      "reference_answer": post.reference_answer, "must_say": post.must_say, "forbidden": post.forbidden,
                      "engine": {"answer_key": answer_key(result), "status": result["status"], "mode": result["mode"],
                                 "first_paragraph": first_paragraph(result["answer"]), "answer": result["answer"],
                                 "tools": [t["name"] for t in result["tools"]],
                                 "citations": [c["url"] for c in result["citations"]]}})
        print(f"[eval realposts] {number}/{len(posts)}", file=sys.stderr)
    seconds = time.perf_counter() - started
    summary = summarise(posts, results, load_grades(grades_path))
    report = _report(summary, golden, seconds, model)
    out = Path(getattr(args, "out", None) or settings.work_dir / "eval" / "realposts.md")
    out = eval_model.write_report(out, report, summary, model, cost, (
        "graded", "in_scope_correct_or_partly", "out_of_scope_declined", "scope_right"))
    sheet_path = out.with_name(eval_model.tagged(Path("realposts_sheet.yaml"), model).name)
    sheet_path.write_text(yaml.safe_dump(sheet, sort_keys=False, allow_unicode=True, width=110), encoding="utf-8")
    print(f"[eval realposts] written {out}, {out.with_suffix('.json')} and the grading sheet {sheet_path}", file=sys.stderr)
    return 0
