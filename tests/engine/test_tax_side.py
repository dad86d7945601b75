"""A post declined as another subject (an employment dispute) that says something of how a payment
from the employer is taxed gets that payment's tax rule after the decline (tax_side.py); the same post
naming the payment without its tax gets the decline alone."""

from __future__ import annotations

import pytest

from nztax.tax_side import OPENER, named_with_tax

STORY = ("My manager keeps pushing me to resign instead of going through a redundancy process, and I think "
         "they are trying to avoid their obligations. {pay} I feel cornered. What are my rights here and "
         "who can I complain to about the way they are treating me?")


@pytest.mark.parametrize("sentence, kinds", [
    ("They say if I go quietly I get my three weeks paid out and it won't be taxed.", ["pay in lieu of notice"]),
    ("HR said the bonus would come through tax-free next month.", ["bonus"]),
    ("Apparently the redundancy payment has no PAYE on it.", ["redundancy payment"]),
    ("They say if I go quietly I get my three weeks paid out.", []),       # no word of its tax
    ("I think I am paying too much tax.", []),                              # no payment named
])
def test_a_payment_is_named_with_its_tax_only_in_one_sentence(sentence, kinds):
    assert [k for k, _ in named_with_tax(f"I work in retail. {sentence} What should I do?")] == kinds


def test_a_sentence_about_leave_paid_out_is_not_notice():
    assert [k for k, _ in named_with_tax("They paid out my annual leave, which was taxed heavily.")] == ["leave paid out"]


def test_the_declined_story_gets_the_tax_of_the_payment_it_speaks_of(engine):
    taxed = engine.answer(STORY.format(pay="They said I'd get my four weeks paid out without being taxed if I resign."),
                          use_faq=False, mode="offline").to_json()
    plain = engine.answer(STORY.format(pay="They said I'd get my four weeks paid out if I resign."),
                          use_faq=False, mode="offline").to_json()
    if taxed["status"] != "out_of_scope" or plain["status"] != "out_of_scope":
        pytest.skip("the fixture engine's scope reading does not decline this story")
    assert OPENER not in plain["answer"]
    side = [p for p in taxed["answer"].split("\n\n") if p.startswith(OPENER)]
    assert side and "PAYE" in side[0] and "[[" in side[0], taxed["answer"]


def test_a_decline_to_another_countrys_tax_gets_no_new_zealand_payment_rule():
    from types import SimpleNamespace

    from nztax.decision_rows import table
    from nztax.tax_side import add

    class Looked(Exception):
        """The units were looked in for the payment's rule."""

    class Engine:
        @property
        def unit_matcher(self):
            raise Looked

    declined = SimpleNamespace(status="out_of_scope", answer="That's outside what I cover.")
    for subject, looks in (("foreign_tax", False), ("other_nz_tax", False), ("employment_law", True)):
        decision = SimpleNamespace(decline_to=table().scopes[subject],
                                   question="My employer says my bonus will be taxed at 45% there. Is that right?")
        if looks:
            with pytest.raises(Looked):
                add(Engine(), declined, decision, vector=[0.0], current="2026-27")
        else:
            assert add(Engine(), declined, decision, vector=[0.0], current="2026-27") is declined
