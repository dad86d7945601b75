"""An asking sentence that names nothing is read for scope with the post's opening (issue 36, leaning.py).

Metamorphic family on the real engine (fixture index, shipped embedder), sentences made up for the
test: a story whose opening is plainly New Zealand personal tax, closed by a request that names no
subject ("Could you please advise?"), is not declined, while the same requests closing a story about
another subject (a bank's rates, an employer's duties) are still declined. Read alone, such a request
is no subject in particular, often advice of another kind; `leaning.asked_scope` reads what is asked
with the post's opening, so what is asked still decides, with what it refers to. On the fixture index
the families hold with the reading off too (these made-up stories are not declined on their asking
sentence alone); `test_the_engine_reads_the_asked_scope_with_the_opening` pins the reading itself."""

from __future__ import annotations

import itertools

import pytest

from nztax import leaning

NAMING_NOTHING = ["Could you please advise?",
                  "Any thoughts?",
                  "What would you suggest?",
                  "Can someone help me out here?"]
NZ_TAX_STORIES = ["Tax code for a second job. I work full time on a salary of $65,000 and I've just started "
                  "weekend shifts at a cafe.",
                  "Filing an IR3 for rent from a boarder. We have had a student boarding with us since March and "
                  "she pays us $250 a week.",
                  "Selling an inherited holiday house.\n\nMy sister and I inherited a bach from our parents four years "
                  "ago and are now selling it. Neither of us has ever lived there."]
OTHER_STORIES = ["Term deposit rates at the big banks. We have $40,000 sitting in a savings account and the "
                 "six-month rates keep changing.",
                 "My employer cut my rostered hours. Since the new manager started I've been getting fewer shifts "
                 "each week and nobody told me why."]


@pytest.mark.parametrize("story,asked", list(itertools.product(NZ_TAX_STORIES, NAMING_NOTHING)))
def test_family_a_request_naming_nothing_is_read_with_a_tax_story(engine, story, asked):
    decision, _ = engine.understand(f"{story} {asked}", None, None)
    assert decision.action not in ("decline", "refuse"), (asked, decision.trace.to_json())


@pytest.mark.parametrize("story,asked", list(itertools.product(OTHER_STORIES, NAMING_NOTHING)))
def test_family_the_same_request_after_another_subject_is_still_declined(engine, story, asked):
    decision, _ = engine.understand(f"{story} {asked}", None, None)
    assert decision.action == "decline", (asked, decision.trace.to_json())


@pytest.mark.parametrize("asked, joined", [("Could you please advise?", True), ("Any thoughts?", True),
                                            ("Is the sale taxed under the bright-line rule?", False)])
def test_the_engine_reads_the_asked_scope_with_the_opening(engine, asked, joined):
    story = NZ_TAX_STORIES[-1]
    decision, _ = engine.understand(f"{story} {asked}", None, None)
    frame = engine.read_frame(decision)
    opening = story.split("\n")[0]
    alone = engine.frame_model.scope_reading(asked)[2]
    expected = max(alone, engine.frame_model.scope_reading(f"{opening} {asked}")[2]) if joined else alone
    assert frame.asked_scope_in == pytest.approx(expected)


class _Frame:
    def __init__(self, asking):
        self.asking, self.asking_read = tuple(asking), tuple(asking)
        self.asked_scope_in, self.asked_scope_other = 0.05, "financial_advice"


def _with(frame, **changed):
    out = _Frame(frame.asking)
    out.__dict__.update(changed)
    return out


@pytest.mark.parametrize("asking, joined", [
    (["Any thoughts?"], True),                                         # names nothing
    (["Any thoughts?", "Can someone help me out here?"], True),        # every one names nothing
    (["Any thoughts?", "Is my bonus taxed at the secondary rate?"], False),  # one names its own subject
])
def test_the_scope_is_read_with_the_opening_only_when_every_asking_sentence_names_nothing(monkeypatch, asking, joined):
    monkeypatch.setattr(leaning, "replace", _with)
    read = []

    def scope_reading(text):
        read.append(text)
        return "nz_tax", 0.9, 0.9, "banking"  # (surer of New Zealand tax than the sentences alone, 0.05)

    opening = "Bonus paid in March."
    post = " ".join([opening, *asking])
    frame = leaning.asked_scope(_Frame(asking), post, lambda s: "taxed" in s, scope_reading)
    assert bool(read) is joined
    assert (frame.asked_scope_in == 0.9) is joined
    if joined:
        assert read[0].startswith(opening) and all(s in read[0] for s in asking)
