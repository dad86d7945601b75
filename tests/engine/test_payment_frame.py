"""A payment an employer makes, read as its kind and what is asked about it (payment_frame.py), and the
answer unit that states the rule for it: kinds from data with the wider kind each belongs to, the
deduction asked about, and a post served the unit for the kind its asking sentence (or its opening)
names, never one for a kind it does not ask about or a kind no unit states a rule for."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from nztax.payment_frame import (TAX, TAXED_MORE, PaymentReading, answers, asked_about, asked_payment, holds_taxed_more,
                                 kinds_named, names_asked, narrowest, only_regular, payment_unit, says_taxed_more, wider)
from nztax.units import asks_yes_or_no
from unit_leads import opens_with_lead


def test_a_narrower_kind_belongs_to_the_wider_ones():
    assert {"bonus", "extra pay"} <= wider("retention payment")
    assert "allowance" in wider("relocation payment")
    assert "extra pay" not in wider("relocation payment")


def test_the_narrowest_kind_named_is_the_one_asked_about():
    assert narrowest(kinds_named("a one-off retention bonus")) == {"retention payment"}
    assert narrowest(kinds_named("paying out his TOIL balance")) == {"time in lieu paid out"}


def test_how_a_payment_is_taxed_is_not_a_kind_it_names():
    assert "extra pay" not in kinds_named("Is the relocation allowance taxed as an extra pay?")
    assert "extra pay" in kinds_named("Is a lump sum from my employer taxed?")


@pytest.mark.parametrize("sentence, asked", [
    ("Does KiwiSaver come off it?", {"kiwisaver"}),
    ("Do we tax the bonus with the student loan rate?", {"student loan"}),
    ("Is the ACC levy deducted from it?", {"acc levy"}),
    ("Why does he owe tax at the end of the year?", {"year end"}),
    ("Should this be taxed?", {"tax"}),
    ("Can you advise?", {"tax"}),
])
def test_what_is_asked_about_the_payment(sentence, asked):
    assert asked_about(sentence) == asked


@pytest.mark.parametrize("sentence, names", [
    ("Is this taxable?", True),                              # (the tax itself, referring back)
    ("Does student loan come off it?", True),                # (a deduction)
    ("Will the bonus be paid in March?", True),              # (a kind of payment)
    ("Is it something we can pay without it affecting their parental leave entitlement?", False),
    ("Can you direct me to where to ask?", False),
])
def test_whether_a_sentence_names_what_a_payment_unit_decides(sentence, names):
    assert names_asked(sentence) is names


def test_a_forum_label_before_a_question_does_not_hide_that_it_asks_whether():
    assert asks_yes_or_no("Taxing a bonus. Q: Do we need to deduct student loan from a one-off bonus")
    assert not asks_yes_or_no("Q: How much student loan comes off a bonus")


def test_a_unit_on_a_wider_kind_answers_a_narrower_one_asked_the_same_thing():
    asked = PaymentReading(frozenset({"referral fee"}), frozenset({"tax"}))
    assert answers(PaymentReading(frozenset({"extra pay"}), frozenset({"tax"})), asked) == 0
    assert answers(PaymentReading(frozenset({"referral fee"}), frozenset({"tax"})), asked) == 1
    assert answers(PaymentReading(frozenset({"referral fee"}), frozenset({"kiwisaver"})), asked) is None
    assert answers(PaymentReading(frozenset({"redundancy payment"}), frozenset({"tax"})), asked) is None


def test_every_kind_asked_about_must_be_answered():
    asked = PaymentReading(frozenset({"exit inducement", "compensation for hurt and humiliation"}), frozenset({"tax"}))
    assert answers(PaymentReading(frozenset({"exit inducement"}), frozenset({"tax"})), asked) is None


def test_the_asking_sentence_s_kind_wins_over_the_story_s():
    story = "We paid out her annual leave last week. Now the company wants to pay a referral fee to her colleague."
    asked = asked_payment(["Is the referral fee taxable?"], story, story)
    assert asked.kinds == {"referral fee"}


def test_a_wider_kind_asked_about_refers_to_the_narrower_kinds_of_the_story():
    story = "Her employer paid her three bonuses this year."
    asked = asked_payment(["Could these lump sums leave her with a bill at the end of the year?"], "", story)
    assert asked == PaymentReading(frozenset({"bonus"}), frozenset({"year end"}))


def test_a_post_naming_no_payment_in_its_question_or_opening_reads_none():
    story = "My daughter joined KiwiSaver at 12. She missed out on this bonus from the government."
    assert asked_payment(["Why?"], "My daughter joined KiwiSaver at 12.", story) is None


# -- served through the engine (stories written for this test, in no real post's words) -----------

def opening(engine, text: str) -> str:
    return engine.answer(text, use_faq=False, mode="offline").to_json()["answer"]


def opens_with(engine, bank, text: str, unit_id: str) -> bool:
    return opens_with_lead(opening(engine, text), bank.get(unit_id), "2026-27")


RETENTION = "payments-from-your-employer/how-is-a-retention-payment-taxed"
TOGETHER = "deductions-from-payments-together/do-kiwisaver-and-the-acc-levy-come-off-leave-paid-out-with"


@pytest.mark.parametrize("text", [
    "Our firm is closing a site next year and wants key staff to stay until then. We will pay each of them a "
    "retention incentive of six weeks' pay at the end. How should payroll process it?",
    "Retention incentive. A manager has asked me to pay a retention incentive to a senior engineer next month. "
    "What is the correct way to deal with this in payroll?",
])
def test_a_payroll_story_gets_the_rule_for_the_kind_of_payment_it_names(engine, bank, text):
    assert opens_with(engine, bank, text, RETENTION)


def test_deductions_asked_about_two_kinds_paid_together_get_the_unit_on_both(engine, bank):
    text = ("We are closing our Napier branch and four staff are being made redundant. Their outstanding annual "
            "leave will be paid out in the same pay as the redundancy payment. Does the leave paid out still have "
            "KiwiSaver and ACC levy deducted?")
    assert opens_with(engine, bank, text, TOGETHER)


def test_a_kind_no_unit_states_a_rule_for_gets_no_unit_for_a_neighbouring_kind(engine, bank):
    text = ("A settlement pays a former employee $30,000. Is all of it non-taxable as hurt and humiliation, or "
            "could part of it be an exit inducement?")
    assert not opens_with(engine, bank, text, "payments-from-your-employer/is-an-exit-inducement-payment-taxed")


def test_a_payment_s_figure_is_not_handed_to_the_income_tax_calculator_as_a_year_s_income(engine):
    text = ("Our client settled with a dismissed employee for $30,000. Is it all non-taxable as hurt and "
            "humiliation, or could part of it be an exit inducement we should tax?")
    assert "taxable_income=30000" not in opening(engine, text)


# -- the belief that extra pay is taxed more ---------------------------------------------------------

SECOND_JOB, OVERTIME = "pay from a second job", "overtime"


@pytest.mark.parametrize("sentence", [
    "Is a bonus taxed at a higher rate than my salary?",            # asked
    "Back pay gets taxed more than my wages",                         # said
    "Secondary tax is unfair to part-time workers",                   # complained of
    "Why do we penalise people for doing overtime?",                  # rhetorical
    "Is the leave payout even worth it after tax?",                   # weighed
])
def test_each_way_of_writing_the_belief_reads_it(sentence):
    assert asked_about(sentence) == {TAX, TAXED_MORE}


@pytest.mark.parametrize("sentence", [
    "Is my bonus taxable?",
    "The unfair dismissal settlement included a lump sum from my employer. Is it taxed?",
])
def test_asking_how_a_payment_is_taxed_is_not_the_belief(sentence):
    assert asked_about(sentence) == {TAX}


def test_a_share_of_the_pay_is_a_belief_only_when_the_tax_takes_it():
    assert holds_taxed_more("Honestly, the PAYE grabs nearly a third of it")
    assert holds_taxed_more("Most of it went to IRD")
    assert not holds_taxed_more("I took most of my leave in May")


def test_judging_the_belief_is_not_asking_it():
    assert holds_taxed_more("Will this unfair system ever change?")
    assert not says_taxed_more("Will this unfair system ever change?")
    assert says_taxed_more("Is overtime taxed more?")


def test_ordinary_pay_is_a_kind_only_with_the_belief():
    assert SECOND_JOB not in kinds_named("I started a second job in May")
    assert asked_payment(["Which tax code do I use for my second job?"], "", "Which tax code for my second job?") is None
    asked = asked_payment(["Why do we penalise people for working a second job?"], "", "Why penalise a second job?")
    assert asked.kinds == {SECOND_JOB} and TAXED_MORE in asked.asked
    assert only_regular(asked)


def test_a_payment_named_with_ordinary_pay_is_what_the_belief_is_about():
    asked = asked_payment(["Is the bonus from my second job taxed at a higher rate?"], "", "")
    assert asked.kinds == {"bonus"}


def test_a_belief_set_out_in_the_story_is_what_its_question_is_about():
    story = "My overtime gets taxed at a higher rate than my normal hours. Can someone explain?"
    asked = asked_payment(["Can someone explain?"], story, story)
    assert asked == PaymentReading(frozenset({OVERTIME}), frozenset({TAX, TAXED_MORE}))


def _unit(*wordings):
    return SimpleNamespace(paraphrases=list(wordings), lead="")


def test_a_unit_holding_the_belief_answers_it_before_one_stating_only_how_it_is_taxed():
    how = _unit("How is back pay taxed?")
    why_more = _unit("Why is more tax withheld from an extra pay than I expected?", "back pay tax too high")
    units = [how, why_more]
    assert payment_unit(units, PaymentReading(frozenset({"back pay"}), frozenset({TAX, TAXED_MORE})), {}) == 1
    assert payment_unit(units, PaymentReading(frozenset({"back pay"}), frozenset({TAX})), {}) == 0


# -- the belief served through the engine (posts written for this test) ----------------------------

RULE = re.compile(r"withh|squared? up|square-up|refund|year-end assessment|same rates|ordinary rates", re.I)


def first_paragraph(engine, text: str) -> str:
    return opening(engine, text).split("\n\n")[0]


@pytest.mark.parametrize("text", [
    "Why do we penalise people for working a second job? The tax on it is so much higher than on normal pay.",
    "Is the overtime even worth it after tax? It feels like most of it goes to IRD.",
    "Back pay gets taxed at a higher rate than normal pay. It's so unfair, the government takes a huge chunk.",
    "Why do we penalise people for cashing up leave? They took $1,700 tax off my $4,000 of annual leave paid out.",
    "Is a second job even worth it after tax? It feels like most of it goes to IRD.",
])
def test_the_belief_in_any_form_is_answered_with_the_rule_without_a_verdict(engine, text):
    opening = first_paragraph(engine, text)
    assert RULE.search(opening), opening
    assert not opening.startswith(("No.", "Yes.")), opening


def test_asking_whether_it_is_taxed_more_keeps_the_no(engine):
    assert first_paragraph(engine, "Is overtime taxed at a higher rate than my normal pay?").startswith("No.")


def test_a_unit_not_holding_the_belief_gives_no_verdict_on_it(engine):
    assert not first_paragraph(engine, "Is it true that commission is taxed at a higher rate than salary?").startswith("Yes.")


def test_a_sum_asked_beside_the_complaint_is_still_worked_out(engine):
    out = engine.answer("I earn $300 a week from my second job and $50,000 from my main job. Secondary tax is "
                        "unfair! How much tax will come off the second job each week?", use_faq=False, mode="offline")
    assert out.to_json()["tools"]
