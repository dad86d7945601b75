"""`nztax eval paraphrases`: a rewrite's opening is compared with its original's on status, the source the
trace names and the first sentence; the rates count what differs; only development posts are rewritten."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from nztax_build.evaluate_paraphrases import (Rewrite, compared, first_sentence, load_rewrites, opening_of, opening_source,
                                              read_differently, summarise)
from nztax.frame import note_opened
from nztax_build.evaluate_realposts import Post, load_posts
from nztax_build.splits import split_of

HOME = Path(__file__).resolve().parents[2]
PASSAGE = "https://www.ird.govt.nz/example"


def _result(answer: str, status: str = "answered", opened=(), tools=(), action="fact", frame=None) -> dict:
    """An answer's JSON whose trace names what opened it through `note_opened`, as the engine's stages do:
    `opened` holds (kind, what) pairs in the order the stages would leave them."""
    trace = {"frame": frame or {"asks": "yes_no", "amounts": []}, "proposed": action, "rows": ["otherwise"],
             "action": action, "notes": []}
    for kind, what in opened:
        note_opened(trace, kind, what, f"{kind}: {what}", latest=kind == "history")
    return {"status": status, "answer": answer, "tools": [{"name": t} for t in tools], "citations": [], "trace": trace}


UNIT = _result("Yes. Bonuses are taxed as extra pays. [[1]](https://x)\n\nMore.", opened=[("unit", "unit pay/bonus")])
PASSAGE_ANSWER = _result(f"Bonuses are extra pays. [[1]]({PASSAGE})", opened=[("said", f"the passage {PASSAGE} (Extra pays)")])
DECLINED = _result("That's outside what I cover.", status="out_of_scope", action="decline")


def test_the_source_is_read_from_the_trace():
    assert opening_source(UNIT) == "unit pay/bonus"
    assert opening_source(PASSAGE_ANSWER) == f"the passage {PASSAGE} (Extra pays)"
    assert opening_source(DECLINED) == "out_of_scope"
    assert opening_source(_result("You take home $1.", tools=["calculate_paye"], action="calculate")) == "calculator calculate_paye"
    # Another asked part's unit, below the opening, is not what opened it.
    assert opening_source(_result("x", opened=[("asked_part", "unit a/b"),
                                               ("said", "the lead of the intent bonus")])) == "the lead of the intent bonus"
    # A note for the post's time set above the answer opens it, whatever answered below; the latest such note.
    history = _result("Before 2019 ...", opened=[("unit", "unit pay/bonus"), ("history", "the history of the rule ks60"),
                                                 ("history", "the history of the rule ks65")])
    assert opening_source(history) == "the history of the rule ks65"
    # The not-found sentence left out: the note on the rule's history appended to it opens, else another part's unit.
    left_out = [("said", "nothing found"), ("asked_part", "unit a/b")]
    assert opening_source(_result("x", opened=left_out + [("not_found_left_out", "what followed")])) == "unit a/b"
    assert opening_source(_result("x", opened=left_out + [("history_after", "the history of the rule fif"),
                                                          ("not_found_left_out", "what followed")])) == \
        "the history of the rule fif"
    assert opening_source(_result("x", opened=[("not_found_left_out", "what followed")])) == "what followed"
    assert opening_source(_result("x", status="out_of_scope", opened=[("decline_unit", "'Is ACC taxed?'")])) == \
        "out_of_scope: 'Is ACC taxed?'"
    # The first of a kind stays: a second passage named later does not replace what opened.
    assert opening_source(_result("x", opened=[("said", "the passage a"), ("said", "the passage b")])) == "the passage a"


def test_an_unknown_opening_kind_is_refused():
    with pytest.raises(ValueError):
        note_opened({}, "passage", "x", "x")


def test_the_first_sentence_ignores_citation_marks_and_spacing():
    assert first_sentence("Yes.  Bonuses are  extra pays. [[1]](https://x) More.") == "Yes."
    assert first_sentence("Bonuses are extra pays [[2]](https://x). More.") == "Bonuses are extra pays."


def test_openings_compared_aspect_by_aspect():
    same = compared(opening_of(UNIT), opening_of(UNIT))
    assert same == {"status": True, "source": True, "first_sentence": True}
    other = compared(opening_of(UNIT), opening_of(PASSAGE_ANSWER))
    assert other == {"status": True, "source": False, "first_sentence": False}
    assert compared(opening_of(UNIT), opening_of(DECLINED))["status"] is False
    # The same unit with its verdict dropped: the source agrees, the first sentence does not.
    no_verdict = _result("Bonuses are taxed as extra pays. [[1]](https://x)", opened=[("unit", "unit pay/bonus")])
    assert compared(opening_of(UNIT), opening_of(no_verdict)) == {"status": True, "source": True, "first_sentence": False}


def test_what_the_frame_read_differently():
    a = _result("x", frame={"asks": "yes_no", "amounts": [{"text": "$5,000", "value": "5000", "kind": "bonus", "owner": "me"}]})
    b = _result("x", frame={"asks": "how_much", "amounts": [{"text": "$5,000", "value": "5000", "kind": "income", "owner": "me"}]},
                action="topic")
    assert read_differently(a, a) == []
    # The same figure written another way is read alike.
    assert read_differently(a, _result("x", frame={"asks": "yes_no", "amounts": [
        {"text": "5k", "value": "5000", "kind": "bonus", "owner": "me"}]})) == []
    assert read_differently(a, b) == ["asks", "amounts", "proposed", "action"]


def test_rates_over_all_rewrites_and_over_well_graded_originals():
    rewrites = [Rewrite("p~1", "p", "w", "q"), Rewrite("p~2", "p", "w", "q"), Rewrite("r~1", "r", "w", "q")]
    openings = {"p": opening_of(UNIT), "p~1": opening_of(UNIT), "p~2": opening_of(PASSAGE_ANSWER),
                "r": opening_of(DECLINED), "r~1": opening_of(UNIT)}
    s = summarise(rewrites, openings, {"p": "correct", "r": None})
    assert s["all"] == {"rewrites": 3, "invariant": round(1 / 3, 3), "status": round(2 / 3, 3), "source": round(1 / 3, 3),
                        "first_sentence": round(1 / 3, 3)}
    assert s["originals correct or partly"]["rewrites"] == 2 and s["originals correct or partly"]["invariant"] == 0.5
    assert s["originals by grade"] == {"correct": 2, "ungraded": 1}


def _post(pid: str) -> Post:
    return Post(id=pid, url="u", question="q", in_scope=True, expected_status="answered", reference_answer="r")


def test_only_development_posts_may_be_rewritten(tmp_path):
    dev = next(f"x-{i}" for i in range(100) if split_of(f"x-{i}") == "dev")
    frozen = next(f"x-{i}" for i in range(100) if split_of(f"x-{i}") == "test")
    posts = {pid: _post(pid) for pid in (dev, frozen)}
    path = tmp_path / "rewrites.yaml"
    path.write_text(yaml.safe_dump({"posts": [{"of": dev, "question": "In other words?"}]}))
    assert [(r.id, r.of) for r in load_rewrites(path, posts)] == [(f"{dev}~1", dev)]
    for of in (frozen, "no-such-post"):
        path.write_text(yaml.safe_dump({"posts": [{"of": of, "question": "In other words?"}]}))
        with pytest.raises(ValueError):
            load_rewrites(path, posts)


@pytest.mark.parametrize("golden", ["realposts_paraphrases.yaml", "realposts_paraphrases_2.yaml",
                                    "realposts_paraphrases_3.yaml"])
def test_the_golden_rewrites_are_of_development_posts(golden):
    posts = {p.id: p for p in load_posts(HOME / "tests" / "golden" / "realposts.yaml")}
    rewrites = load_rewrites(HOME / "tests" / "golden" / golden, posts)
    assert len(rewrites) >= 100 and all(split_of(r.of) == "dev" for r in rewrites)
    assert all(r.question.strip() != posts[r.of].question.strip() for r in rewrites)


def test_the_rewrite_sets_share_no_id():
    posts = {p.id: p for p in load_posts(HOME / "tests" / "golden" / "realposts.yaml")}
    ids = [{r.id for r in load_rewrites(HOME / "tests" / "golden" / name, posts)}
           for name in ("realposts_paraphrases.yaml", "realposts_paraphrases_2.yaml", "realposts_paraphrases_3.yaml")]
    assert sum(len(s) for s in ids) == len(set().union(*ids))
