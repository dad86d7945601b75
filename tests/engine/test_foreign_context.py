"""Another person's foreign tax told in a story is context: a post whose asking sentence names New
Zealand's system is answered, not declined as another country's tax (issue 36).

A metamorphic family: sentences of foreign context (a relative or friend abroad, back home, a previous
job overseas) x asking sentences that name New Zealand's system (an IR3, a tax code, KiwiSaver, PAYE on
a bonus, student loan repayments, a refund from IRD): none declined. The reverse family, the same
stories asking the other country's tax, stays declined."""

from __future__ import annotations

import itertools

import pytest

from nztax.tax_place import asks_in_new_zealand

CONTEXT = ["My brother in the US files his taxes in April.",
           "My sister lives in Australia and lodges her tax return with the ATO every year.",
           "Back home in the UK I used to do a self assessment for HMRC.",
           "A friend of mine in Canada says his taxes are done by the end of April.",
           "My cousin works in Germany and the tax there comes straight off his pay.",
           "In my previous job overseas in Singapore my employer handled all my taxes."]
NEW_ZEALAND_ASKED = ["When do I file my IR3?",
                     "What tax code should I be on for my second job, S or SH?",
                     "How much should I put into KiwiSaver to get the full government contribution?",
                     "How much PAYE will come off my $5,000 bonus?",
                     "How much of my pay goes to student loan repayments?",
                     "When will I get my refund from IRD?"]
ANOTHER_COUNTRY_ASKED = ["How do I file my US return?", "How much tax will I pay in Australia?",
                         "Do I need to lodge a return with the ATO?", "What are the UK income tax rates?"]


def knows(word: str) -> bool:
    return word in {"paye", "sh", "us", "ato", "hmrc"}


@pytest.mark.parametrize("asked,placed", [(a, True) for a in NEW_ZEALAND_ASKED]
                         + [("What are the UK income tax rates?", False), ("How much tax will I pay in Australia?", False)])
def test_asking_sentences_placed_in_new_zealand(asked, placed):
    text = f"My sister lives in Australia and lodges her tax return every year. {asked}"
    assert asks_in_new_zealand(text, [asked], knows) is placed


@pytest.mark.parametrize("context", CONTEXT)
def test_family_foreign_context_does_not_decline_a_new_zealand_question(engine, context):
    for asked in NEW_ZEALAND_ASKED:
        decision, _ = engine.understand(f"{context} {asked}", None, None)
        assert decision.action != "decline", (context, asked, decision.trace.to_json())


@pytest.mark.parametrize("context,asked", list(itertools.product(CONTEXT[:3], ANOTHER_COUNTRY_ASKED)))
def test_reverse_family_another_countrys_tax_asked_stays_declined(engine, context, asked):
    decision, _ = engine.understand(f"{context} {asked}", None, None)
    assert decision.action == "decline", (context, asked, decision.trace.to_json())


SECOND_ASKED = ["And would it be taxed over there as well?", "Do I pay tax on it in Australia too?"]
WITH_A_SECOND = ["Can I take my KiwiSaver savings with me if I retire overseas?",
                 "Will my student loan repayments stop if I move overseas?",
                 "Do I still need to file an IR3 with IRD once I move abroad?"]


@pytest.mark.parametrize("asked,second", list(itertools.product(WITH_A_SECOND, SECOND_ASKED)))
def test_family_a_new_zealand_question_beside_another_countrys_is_answered(engine, asked, second):
    """A post asking a question of New Zealand's system and, besides, whether another country taxes it:
    the question of ours, read alone, is answered; the decline caught only the other one's words."""
    decision, _ = engine.understand(f"{asked} {second}", None, None)
    assert decision.action != "decline", (asked, second, decision.trace.to_json())
