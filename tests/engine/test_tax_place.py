"""Whose tax system a post asks about (tax_place.py, row `tax_of_another_place_asked`): a post asking the
tax of a place it names as where people belong or live, with nothing of New Zealand's system, is
declined to that place's tax; the same story told by someone New Zealand taxes is answered. The places
are made up, so nothing here can pass by a list of countries."""

from __future__ import annotations

import pytest

from nztax.decision_rows import table
from nztax.sentences import asking_sentences
from nztax.tax_place import asks_another_places_tax, placed_in_new_zealand

KNOWN = {"paye", "rwt", "fif", "ird"}


def _asks(text, conditions=()):
    return asks_another_places_tax(text, asking_sentences(text), conditions, lambda w: w in KNOWN)


@pytest.mark.parametrize("text, conditions, foreign", [
    ("I'm a Freedonian citizen. Will I still owe Freedonian taxes after I retire?", (), True),
    ("Residents of Ruritania pay a wealth levy. Is Ruritania tax due on my savings too?", (), True),
    ("My understanding is that Q.R. citizens file every year. Would Q.R. taxes apply to me after I leave?", (), True),
    ("Moving back to Freedonia next year. How much Freedonia income tax will I pay on my salary there?", (), True),
    ("Moving back to Carpathy next year. How much Carpathian tax will I pay on my salary there?", (), True),
    ("We are Freedonian expats living in Ruritania. Do we still owe Freedonian taxes on our salaries?", (), True),
    ("We are Freedonian expats living in Wellington. How does IRD tax our Freedonian dividends?", (), False),
    ("I'm a Freedonian national and moved here in March. Can I claim the Freedonian tax paid on my rent?", (), False),
    # The same, placed in New Zealand's system one way or another: answered.
    ("Moving to Freedonia next year. Will I still pay tax here on my rental?", (), False),
    ("Moving to Freedonia next year. Will I pay Freedonia tax or New Zealand tax on my rental?", (), False),
    ("I'm a Freedonian citizen living here. Will I still owe Freedonian taxes after I retire?", (), False),
    ("I'm a Freedonian citizen in New Zealand. Will I still owe Freedonian taxes after I retire?", (), False),
    ("I'm a Freedonian citizen. Will I still owe Freedonian taxes after I retire, or only IRD?", (), False),
    ("I'm a Freedonian citizen. Will I still owe Freedonian taxes on top of PAYE?", (), False),
    ("I'm a Freedonian citizen. Will I still owe Freedonian taxes after I retire?", ("kiwisaver",), False),
    # A place named, but not as where people belong or live, or its tax not what is asked.
    ("Will I owe Freedonian tax on my pension?", (), False),
    ("I'm a Freedonian citizen. How is my pension taxed?", (), False),
    ("I paid Freedonian tax last year. I'm a Freedonian citizen. What can I claim for my work costs?", (), False),
])
def test_the_tax_of_a_place_the_post_lives_in_with_nothing_of_new_zealand_is_anothers(text, conditions, foreign):
    assert _asks(text, conditions) is foreign


STORY = ("I'm a Freedonian citizen and own a small flat that I rent out. {tie}The tenants pay the rent into my bank "
         "account every month. Will I have to pay Freedonian tax on the rent, and at what rate?")


@pytest.mark.parametrize("tie, declined", [
    ("", True),                                       # another place's tax, asked in its own terms
    ("I moved to New Zealand in March. ", False),     # the same story from someone New Zealand taxes
    ("I have lived here for six years. ", False),
    ("I also have a KiwiSaver account. ", False),
])
def test_family_the_same_story_asked_of_another_places_tax_or_by_a_new_zealand_resident(engine, tie, declined):
    d, _ = engine.understand(STORY.format(tie=tie), None, None)
    assert (d.action == "decline" and d.decline_to == table().scopes["foreign_tax"]) is declined, d.trace.to_json()



@pytest.mark.parametrize("text, placed", [
    # "Here" presenting what follows names no place ...
    ("Here's what happened: I was paid late. Can it go on last year's return?", False),
    ("I was paid late. Here is my situation. Is the back pay taxed?", False),
    # ... "here" as a place still places the post in New Zealand.
    ("I've lived here ten years. Is the back pay taxed?", True),
    ("Here's the thing: is back pay taxed here?", True),
])
def test_here_presenting_what_follows_is_not_new_zealand(text, placed):
    assert placed_in_new_zealand(text, (), lambda w: w in KNOWN, "") is placed


@pytest.mark.parametrize("question", [
    "I earn $80,000 salary. How much will my 2025 taxes be?",
    "I'm on $65,000 a year. What will my 2024 taxes come to?",
    "How much are my taxes for 2025 if I earn $52,000?",
])
def test_a_new_zealand_question_naming_its_taxes_by_a_year_is_not_declined(engine, question):
    # A year beside "taxes" names no country: New Zealand posters write "my 2025 taxes" too.
    d, _ = engine.understand(question, None, None)
    assert d.action != "decline", d.trace.to_json()
