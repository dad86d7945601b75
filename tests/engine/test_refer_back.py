"""A story whose asking sentence refers back to what its opening sentence named ("is this taxable?")
is answered from the passage about that subject, not with "I couldn't find anything" (say.topic).

The passages and stories below are written for the test (a family: three subjects, each asked about
three ways that name it only in the opening sentence)."""

from __future__ import annotations


import pytest

from nztax import composer, say
from nztax.decide import Decision
from nztax.frame import Trace
from nztax.rules import load_rules
from passage_hits import Hit
from nztax.sentences import asking_sentences
from nztax.slots import Slots

RULES = load_rules()


SUBJECTS = {
    "a tool allowance": ("A tool allowance paid to cover an employee's own tools is generally taxable unless it "
                         "reimburses costs the employee actually paid for work."),
    "a meal allowance": ("A meal allowance paid when an employee works overtime is exempt from tax when it is "
                         "paid for a meal on an occasional basis."),
    "a shift allowance": ("A shift allowance is part of an employee's salary or wages and PAYE is deducted from "
                          "it in the pay it is paid with."),
}
FILLER = Hit("Employers must file employment information each payday. The information is due within two working "
             "days of payday.", "https://www.ird.govt.nz/payday", "f")
ASKS = ["Our accountant thinks this ought to go through payroll like ordinary earnings, could you confirm?",
        "Should that be treated the same as normal earnings, or is it separate?",
        "Does it need to go through payroll like the rest, or not?"]


@pytest.mark.parametrize("ask", ASKS)
@pytest.mark.parametrize("subject", list(SUBJECTS))
def test_family_an_asking_sentence_that_refers_back_is_answered_about_its_subject(subject, ask):
    story = (f"We run a small joinery business and pay our staff {subject} every week. It adds up to a fair "
             f"amount over a year and the team rely on it, especially the apprentices who are saving hard for a first "
             f"car. {ask}")
    hits = [FILLER, Hit(SUBJECTS[subject], "https://www.ird.govt.nz/allowances", "a")]
    trace = Trace(frame={"story": True, "asking": asking_sentences(story)})
    decision = Decision(action="topic", question=story, asked=story, tax_year="2026-27", tax_year_source="default",
                        slots=Slots(), trace=trace)
    result = say.topic(decision, RULES, hits, "2026-27")
    assert result.answer != composer.NOTHING_FOUND
    assert result.answer.startswith(SUBJECTS[subject].split(" is ")[0]), result.answer
