"""The real-post set: well formed, none of it held back for the outside check, its pages in the
corpus, and hand grades that count only for the answer they graded."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
import yaml

from nztax_build.evaluate_realposts import answer_key, first_paragraph, load_posts, summarise

HOME = Path(__file__).resolve().parents[2]
GOLDEN = HOME / "tests" / "golden" / "realposts.yaml"
RESERVED = HOME.parent / "shared" / "notes" / "reserved-questions.txt"


def _keys(url: str, question: str) -> set[str]:
    """The three keys the reserved list is written in (its header says how)."""
    address = re.sub(r"^[a-z]+://", "", url.lower()).split("#")[0]
    address = re.sub(r"^www\.", "", address).rstrip("/")
    keys = {f"url:{address}"}
    thread = re.search(r"/(?:comments|posts)/([a-z0-9]+)", url.lower())
    if thread:
        keys.add(f"reddit:{thread.group(1)}")
    words = re.findall(r"[a-z0-9]+", question.lower())[:12]
    keys.add("text:" + " ".join(words))
    return {hashlib.sha256(k.encode("utf-8")).hexdigest() for k in keys}


@pytest.fixture(scope="module")
def posts():
    return load_posts(GOLDEN)


def test_the_set_is_large_and_has_both_parts(posts):
    parts = {p.split for p in posts}
    assert len(posts) >= 100 and parts == {"dev", "test"}
    assert sum(not p.in_scope for p in posts) >= 10


def test_no_post_is_one_held_back_for_the_outside_check(posts):
    reserved = {line.strip() for line in RESERVED.read_text().splitlines() if line and not line.startswith("#")}
    assert reserved, "the reserved list is empty or unreadable"
    clashes = [p.id for p in posts if _keys(p.url, p.question) & reserved]
    assert clashes == []


def test_every_in_scope_post_has_a_reference_and_facts(posts):
    for p in posts:
        assert p.reference_answer, p.id
        if p.in_scope and p.expected_status == "answered":
            assert p.must_say, p.id
        assert p.expected_status in ("answered", "needs_clarification", "out_of_scope", "refused"), p.id


def test_accepted_pages_are_corpus_sources(posts):
    sources = yaml.safe_load((HOME / "corpus" / "sources.yaml").read_text(encoding="utf-8"))
    urls = {s["url"].rstrip("/") for s in sources["sources"]}
    missing = sorted({(p.id, u) for p in posts for u in p.accepted_pages if u.rstrip("/") not in urls})
    assert missing == []


def _result(answer: str, status: str = "answered") -> dict:
    return {"status": status, "answer": answer, "tools": [], "citations": []}


def test_a_grade_counts_only_for_the_answer_it_graded():
    from nztax_build.evaluate_realposts import Post

    post = Post(id="x-1", url="u", question="q", in_scope=True, expected_status="answered", reference_answer="r")
    graded = _result("You pay $1,000.")
    grades = {"x-1": {"grade": "correct", "answer_key": answer_key(graded)}}
    part = post.split
    assert summarise([post], {"x-1": graded}, grades)[part]["grades"]["correct"] == 1
    changed = summarise([post], {"x-1": _result("You pay $2,000.")}, grades)[part]
    assert changed["grades"]["correct"] == 0 and changed["stale_or_ungraded"] == 1


def test_out_of_scope_posts_count_as_declined_only_when_declined():
    from nztax_build.evaluate_realposts import Post

    post = Post(id="y-2", url="u", question="q", in_scope=False, expected_status="out_of_scope", reference_answer="r")
    part = post.split
    assert summarise([post], {"y-2": _result("no", "out_of_scope")}, {})[part]["out_of_scope_declined"] == 1.0
    assert summarise([post], {"y-2": _result("Tax is $5.")}, {})[part]["out_of_scope_declined"] == 0.0


def test_first_paragraph_skips_headings_and_stops_at_a_blank_line():
    assert first_paragraph("## Title\n\nFirst line\nstill first.\n\nSecond.") == "First line\nstill first."
