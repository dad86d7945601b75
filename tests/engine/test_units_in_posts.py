"""An answer unit served a question asked alone is served the same question inside a story of
neutral background (nztax_build.evaluate_units_in_posts builds the posts; `nztax eval units-in-posts`
measures the same over the held-out wordings): sentences that ask nothing, name no tax topic and
state no figure of the poster's own do not change which unit answers."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

import pytest

from nztax.frame import FrameAmount, QuestionFrame
from nztax.unit_choice import _sentences_for_units, only_question
from nztax_build.evaluate_units_in_posts import VARIANTS, in_post, story_pool
from unit_leads import answer_opens_with

POOL = story_pool()
# Unit questions of different topics, each served its own unit when asked alone.
FAMILIES = [
    ("tax-rates/when-does-the-new-zealand-tax-year-start-and-end", "When does the New Zealand tax year start and end?"),
    ("secondary-jobs/which-job-is-my-main-job-for-my-tax-code", "Which job is my main job for my tax code?"),
    ("donations/what-is-the-minimum-donation-i-can-claim-for", "What is the minimum donation I can claim for?"),
    ("ir3-refunds/do-i-need-to-file-a-return-if-i-only-earn-salary", "Do I need to file a return if I only earn salary and wages?"),
    ("other-income/is-the-student-allowance-taxed", "Is the student allowance taxed?"),
]


def test_the_pool_holds_no_question_and_no_figure_but_someone_else_s():
    for part in ("before", "after"):
        assert all("?" not in s and "$" not in s for s in POOL[part]), part
    assert all("$" in s and "?" not in s for s in POOL["someone_else"])


def test_a_post_is_the_same_in_every_run_and_holds_its_wording_once():
    for variant in VARIANTS:
        post = in_post("tax code M meaning", variant, POOL)
        assert post == in_post("tax code M meaning", variant, POOL)
        assert post.count("tax code M meaning?") == 1
    assert in_post("x?", "around", POOL).split("x?")[1].strip() in POOL["after"]


def frame(asking: tuple[str, ...], sure: float, asks: str = "yes_no", own_pay: bool = False) -> QuestionFrame:
    pay = FrameAmount("$1,000", 0, 6, Decimal(1000), "weekly", "income", 0.9, "me", 0.9)
    return QuestionFrame(asks=asks, asks_sure=sure, asking=asking, asks_each=(asks,) * len(asking),
                         amounts=(pay,) if own_pay else (), tax_year=None, year_text=None, conditions=(),
                         scope="nz_tax", scope_sure=0.9, asks_each_sure=(sure,) * len(asking), story=True)


SETTINGS = SimpleNamespace(frame_bar=0.7, asked_unit_unsure_bar=0.5)


def test_a_post_s_only_question_is_matched_however_unsurely_its_kind_is_read():
    post = frame(("Is SB SL the right tax code?",), 0.3)
    assert only_question(post) == post.asking
    assert _sentences_for_units(post, SETTINGS) == (post.asking, ())


def test_not_when_it_asks_the_poster_s_own_figure_or_a_sum_is_worked():
    assert only_question(frame(("How much tax will I pay?",), 0.3, asks="figure", own_pay=True)) == ()
    assert _sentences_for_units(frame(("Is SB SL the right tax code?",), 0.3), SETTINGS, calculates=True) == ((), ())


def test_not_when_two_sentences_ask_or_none_asks_in_words():
    two = frame(("Is SB SL the right tax code?", "Should I change it?"), 0.3)
    assert only_question(two) == ()
    assert _sentences_for_units(two, SETTINGS) == ((), ())
    assert only_question(frame(("I moved jobs in May and my code is SB SL.",), 0.3)) == ()


@pytest.mark.parametrize("unit_id,question", FAMILIES)
def test_family_alone(engine, bank, unit_id, question):
    assert answer_opens_with(engine, bank.get(unit_id), question)


@pytest.mark.parametrize("variant", ["before", "around"])
@pytest.mark.parametrize("unit_id,question", FAMILIES)
def test_family_inside_a_neutral_story(engine, bank, unit_id, question, variant):
    assert answer_opens_with(engine, bank.get(unit_id), in_post(question, variant, POOL))
