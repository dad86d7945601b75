"""A question naming a situation (opening_fit.situations_named: a casual worker, unpaid leave, someone
reaching NZ Super age ...) opens with a unit for that situation, not the general rule: the asking
sentence names it, or, when it only refers back ("Can someone like me join?"), the story does.
The questions are written for these checks (regression checks, not evidence)."""

from __future__ import annotations

import pytest

from nztax.opening_fit import situations_named
from unit_leads import answer_opens_with

CASUAL_JOIN = "joining-and-contributing-to-kiwisaver/can-casual-or-temporary-workers-join-kiwisaver"


@pytest.mark.parametrize("text, named", [
    ("I only get casual shifts from a few employers.", {"casual_or_temporary"}),
    ("Is KiwiSaver due while I'm on leave without pay?", {"unpaid_leave"}),
    ("I want to end my savings suspension early.", {"savings_suspension"}),
    ("I'm a sole trader with no employer.", {"self_employed"}),
    ("I'm here on a two-year work visa.", {"visa_or_residence"}),
    ("I turn 65 in March and will keep working.", {"nz_super_age"}),
    ("We are emigrating to the UK next year.", {"leaving_new_zealand"}),
    ("My 15-year-old has a part-time job.", {"child"}),
    ("Is KiwiSaver taken off pay in lieu of notice?", {"pay_in_lieu_of_notice"}),
    ("What are the KiwiSaver contribution rates?", set()),
    ("I earn $65,000 a year on a salary.", set()),
])
def test_situations_are_read_from_their_words(text, named):
    assert situations_named(text) == named


def test_a_situation_set_aside_is_not_named():
    assert situations_named("Does this apply to income other than casual work?") == frozenset()


def opens_with(engine, bank, unit_id: str, text: str) -> bool:
    return answer_opens_with(engine, bank.get(unit_id), text)


STORY = ["Full-time work has been hard to find, so I pick up {work} from several employers.",
         "I have never been in KiwiSaver but would like to start saving for later.", "Can someone like me join?"]


def test_a_story_naming_the_situation_gets_its_unit(engine, bank):
    assert opens_with(engine, bank, CASUAL_JOIN, " ".join(STORY).format(work="casual shifts"))


def test_family_without_the_situation_the_unit_for_it_is_not_served(engine, bank):
    # (The same story with the situation's words taken out: nothing says casual work, so its unit is
    # no more the answer than any other joining unit.)
    assert not opens_with(engine, bank, CASUAL_JOIN, " ".join(STORY).format(work="some shifts"))


def _topic_opening(question: str) -> str:
    from types import SimpleNamespace

    from nztax import say
    from nztax.decide import Decision
    from nztax.rules import load_rules
    from nztax.slots import Slots

    def hit(text, url):
        return SimpleNamespace(text=text, url=url, parent_id=url, section="", title="IRD", source_type="ird_guidance")

    hits = [hit("KiwiSaver contributions come off your pay each payday at your chosen rate, and your employer's "
                "contributions are paid on top.", "https://www.ird.govt.nz/a"),
            hit("During unpaid leave there is no pay, so no contributions are deducted.", "https://www.ird.govt.nz/b")]
    decision = Decision(action="topic", question=question, asked=question, tax_year="2026-27", tax_year_source="default",
                        slots=Slots())
    return say.topic(decision, load_rules(), hits, "2026-27").answer


def test_a_topic_answer_opens_with_the_sentence_naming_the_situation_asked():
    assert _topic_opening("Do KiwiSaver contributions come off my pay while I'm on unpaid leave?").startswith("During unpaid")
    # Family: asked without the situation, the sentence sharing most of the question opens.
    assert _topic_opening("Do KiwiSaver contributions come off my pay while I'm away?").startswith("KiwiSaver contributions")


def test_the_candidates_for_a_situation_turned_one_way_are_those_turning_it_the_same_way():
    from types import SimpleNamespace

    from nztax.unit_choice import _turned_alike

    questions = ["Can I take a KiwiSaver savings suspension in my first year?", "How do I end a savings suspension early?",
                 "Do I get employer contributions during a savings suspension?"]
    matcher = SimpleNamespace(units=[SimpleNamespace(question=q) for q in questions])
    assert _turned_alike(matcher, [0, 1, 2], "When can I stop my savings suspension?") == [1]
    # (None turning it the same way: those not turning it the other way.)
    assert _turned_alike(matcher, [0, 2], "When can I stop my savings suspension?") == [2]
    assert _turned_alike(matcher, [0, 1, 2], "Do I still get a government contribution on a savings suspension?") == [0, 1, 2]
