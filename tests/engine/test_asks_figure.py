"""A figure or a check counts as asked only when the frame reads it at its bar: an unsure reading of one
sentence (another wording of a question asking how a rule works) does not ask the poster back for income."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("sure, asks_figure", [(0.4, False), (0.69, False), (0.7, True), (0.95, True)])
def test_a_figure_is_asked_only_when_read_at_the_frames_bar(sure, asks_figure):
    from nztax.frame import QuestionFrame

    frame = QuestionFrame(asks="how", asks_sure=0.9, asking=("What about it?", "And this?"), asks_each=("how", "figure"),
                          asks_each_sure=(0.9, sure), amounts=(), tax_year=None, year_text=None, conditions=(),
                          scope="nz_tax", scope_sure=0.9)
    assert frame.asks_figure is asks_figure
    assert replace_check(frame, sure).asks_figure is asks_figure  # (a check of a figure alike)


def replace_check(frame, sure):
    # (A check asks about a figure the post states: one is given here.)
    from dataclasses import replace
    from decimal import Decimal

    from nztax.frame import FrameAmount

    stated = FrameAmount(text="$1,200", start=0, end=6, value=Decimal("1200"), period="year", kind="tax_withheld",
                         kind_sure=0.9, owner="me", owner_sure=0.9)
    return replace(frame, asks_each=("how", "check"), asks_each_sure=(0.9, sure), amounts=(stated,))


def test_a_check_with_no_figure_stated_is_not_a_figure_asked():
    from dataclasses import replace

    from nztax.frame import QuestionFrame

    frame = QuestionFrame(asks="check", asks_sure=0.9, asking=("Is that right?",), asks_each=("check",),
                          asks_each_sure=(0.95,), amounts=(), tax_year=None, year_text=None, conditions=(),
                          scope="nz_tax", scope_sure=0.9)
    assert not frame.asks_figure
    assert replace_check(replace(frame, asks_each_sure=(0.95,)), 0.95).asks_figure


@pytest.mark.parametrize("sure, asked_back", [(0.4, False), (0.9, True)])
def test_a_story_asking_how_a_rule_works_is_asked_back_only_for_a_sure_figure(engine, sure, asked_back):
    # The same story proposed as an ask-back for income: its asking sentence read as a figure unsurely
    # (another wording of a how-question) gets the rule; read surely, the income is asked back.
    from dataclasses import replace

    text = ("I have a full-time job with PAYE. Lately I've started doing some paid design work on the side "
            "for a few clients. If I earn income outside that job, what does that mean for my tax?")
    proposal, _ = engine._propose(text, None, None)
    proposal = replace(proposal, action="clarify", missing=["income"], calls=[])
    frame = engine.read_frame(proposal)
    frame = replace(frame, story=True, asks="figure", asks_each=("figure",) * len(frame.asking),
                    asks_each_sure=(sure,) * len(frame.asking))
    decision = engine.settle(proposal, frame, None)
    assert (decision.action == "clarify") is asked_back, decision.trace.to_json()
