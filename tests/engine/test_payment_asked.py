"""What a post asks about a payment its employer makes chooses the opening, not the payment's name
(payment_frame.py, unit_choice._payment_unit, say.topic): the same question asked of different
payments, alone or at the end of a story. Asked how it is taxed, the unit stating that payment's tax
opens; asked something else of it (an entitlement, the employment agreement), never that rule; asked
about the year's result (a refund), the unit on the year-end square-up; asked the tax of a kind of
payment no unit or passage names, an opening naming other payments says it has not found the point.
Every story here is written for this test, in no real post's words."""

from __future__ import annotations

import pytest

from nztax import composer
from nztax.payment_frame import (TAX, YEAR_END, PaymentReading, asked_about, asks_of_its_own, kinds_named, kinds_unsaid,
                                 narrowest, states_rule)
from nztax.sentences import sentences
from unit_leads import opens_with_lead

# The payment, as a story names it, and the kind the data reads it as.
PAYMENTS = [
    ("a retention incentive of six weeks' pay", "retention payment"),
    ("her annual leave cashed up", "leave paid out"),
    ("a sign-on bonus", "sign-on bonus"),
    ("back pay for last year's pay rise", "back pay"),
]
STORY = ("I look after payroll for a small engineering firm. We have about forty staff across two sites. "
         "One of our technicians is about to go on parental leave. Next month we are due to pay her {payment}.")
SHORT = "Next month we are due to pay one of our staff {payment}."

# Asked something else of the payment, in words of its own: its tax rule answers none of these.
ELSEWHERE = [
    "Will paying it in that period change the parental leave payments she is entitled to?",
    "Does it have to be written into her employment agreement before we can pay it?",
]
# Asked how it is taxed.
TAXED = ["How should payroll tax it?", "Is it taxable?"]
# Asked the year's result.
REFUNDED = ["Could some of the PAYE on it come back to her as a refund after the year ends?"]


def answer(engine, text: str) -> str:
    return engine.answer(text, use_faq=False, mode="offline").to_json()["answer"]


def first_paragraph(engine, text: str) -> str:
    return answer(engine, text).split("\n\n")[0]


def rule_units(bank, kind: str, asked: str) -> list:
    """The units whose question or a paraphrase states what is asked (`asked`) about the kind."""
    reading = PaymentReading(frozenset({kind}), frozenset({asked}))
    return [u for u in bank.units if states_rule(u, reading, belief=False)]


def opens_with_any(text: str, units) -> bool:
    return any(opens_with_lead(text, u, "2026-27") for u in units)


@pytest.mark.parametrize("story", [SHORT, STORY], ids=["alone", "end of a story"])
@pytest.mark.parametrize("payment, kind", PAYMENTS)
def test_asked_how_it_is_taxed_the_unit_on_its_tax_opens(engine, bank, story, payment, kind):
    units = rule_units(bank, kind, TAX)
    assert units, kind
    for question in TAXED:
        text = f"{story.format(payment=payment)} {question}"
        assert opens_with_any(answer(engine, text), units), text


@pytest.mark.parametrize("story", [SHORT, STORY], ids=["alone", "end of a story"])
@pytest.mark.parametrize("payment, kind", PAYMENTS)
def test_asked_something_else_of_it_its_tax_rule_does_not_open(engine, bank, story, payment, kind):
    units = rule_units(bank, kind, TAX)
    for question in ELSEWHERE:
        text = f"{story.format(payment=payment)} {question}"
        assert not opens_with_any(answer(engine, text), units), text


@pytest.mark.parametrize("payment, kind", PAYMENTS)
def test_asked_the_year_s_result_the_unit_on_the_square_up_opens(engine, bank, payment, kind):
    units = rule_units(bank, kind, YEAR_END)
    assert units, kind
    for question in REFUNDED:
        text = f"{STORY.format(payment=payment)} {question}"
        assert opens_with_any(answer(engine, text), units), text


# A kind no unit and no passage names: compensation for hurt and humiliation, asked beside an exit
# inducement (which both name), at the start or at the end of a story. (Not read: a sentence naming
# one of them and referring back to the other, "Is that part free of PAYE, or an exit inducement?".)
SETTLEMENT = [
    "Is a payment labelled as compensation for hurt and humiliation free of PAYE, or is it taxed as an exit "
    "inducement? It is part of a settlement with an employee we dismissed.",
    "We are a small retailer and let a staff member go after a dispute. Mediation ended in a signed agreement "
    "that pays her $20,000. Can we leave tax off all of it as hurt and humiliation, or is some of it a taxable "
    "exit inducement?",
]


@pytest.mark.parametrize("text", SETTLEMENT)
def test_asked_the_tax_of_a_kind_nothing_names_the_opening_says_it_is_not_found(engine, text):
    first = first_paragraph(engine, text)
    assert (first.startswith(composer.NOT_SAID_DIRECTLY) or first.startswith(composer.NOTHING_FOUND)
            or "humiliation" in first.lower()), first


# -- the readings the engine's choice rests on ---------------------------------------------------------

@pytest.mark.parametrize("payment, kind", PAYMENTS)
def test_each_payment_is_read_as_its_kind(payment, kind):
    assert narrowest(kinds_named(STORY.format(payment=payment))) == {kind}


@pytest.mark.parametrize("question", ELSEWHERE)
def test_a_question_in_words_of_its_own_asks_something_else(question):
    assert asks_of_its_own(question)


@pytest.mark.parametrize("question", ["Can you help?", "Is that right?", "What should we do?", *TAXED])
def test_a_question_leaning_on_the_story_or_naming_the_tax_does_not(question):
    assert not asks_of_its_own(question)


@pytest.mark.parametrize("question", [*REFUNDED, "Will he get a refund of the tax on his redundancy?",
                                      "Is the tax on it refunded at the end of the year?"])
def test_a_refund_is_the_year_s_result(question):
    assert asked_about(question) == {YEAR_END}


def test_an_opening_naming_the_kind_or_a_wider_one_says_it():
    asking = ["Is the retention bonus taxable?"]
    assert not kinds_unsaid(asking, "A one-off payment from an employer is an extra pay.", asking[0])
    assert kinds_unsaid(asking, "Allowances that reimburse a cost are not taxed.", asking[0]) == {"retention payment"}
    # (A sentence asking something else of the payment is not held to name it.)
    assert not kinds_unsaid(["Does the retention bonus go in the employment agreement?"], "Agreements are ...", "")


def test_a_web_address_does_not_end_a_sentence():
    text = "I compared it with what example.co.nz says. Is that right?"
    assert sentences(text) == ["I compared it with what example.co.nz says.", "Is that right?"]


# What is asked, when the asking sentences lean on the story: the opening says it, as it says the
# payment. A bill named in the opening asks the year's result; the same post without it asks the tax.
BILL_OPENING = ("Staff member owes tax after several bonuses. IRD has sent one of our staff a tax bill for last year "
                "after we paid her {payment} and two other bonuses.")
PLAIN_OPENING = ("Staff member's bonuses. We paid one of our staff {payment} and two other bonuses last year.")


@pytest.mark.parametrize("leaning", ["Could you please confirm?", "Can you help?", "Is that right?"])
def test_a_question_leaning_on_the_story_asks_what_its_opening_asks(leaning):
    from nztax.payment_frame import asked_in_post

    for payment, _ in PAYMENTS[:1] + PAYMENTS[2:3]:
        billed = f"{BILL_OPENING.format(payment=payment)} Every deduction followed her tax code. {leaning}"
        plain = f"{PLAIN_OPENING.format(payment=payment)} Every deduction followed her tax code. {leaning}"
        assert asked_in_post([leaning], billed).asked == {YEAR_END}, billed
        assert asked_in_post([leaning], plain).asked == {TAX}, plain
    # Asking sentences that name what they ask keep it, whatever the opening says.
    asked = "How should payroll tax the next one?"
    assert asked_in_post([asked], f"{BILL_OPENING.format(payment='a sign-on bonus')} {asked}").asked == {TAX}
