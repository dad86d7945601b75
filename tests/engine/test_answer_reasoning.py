"""Reasoning in the topic answer path, on passages and posts written for the test:

- the not-found sentence never stands before a cited rule (nothing_found.only_alone);
- a long story whose words are mostly background is led by its first passage's best sentence, not
  told "I couldn't find anything" (story_lead), but never by a worked example's figures;
- a situation the post names, covered by a passage heading that also covers the general rule, is
  answered by the sentence naming it in its own words (opening_fit.only_by_heading).
"""

from __future__ import annotations


import pytest

from nztax import composer, say
from nztax.contract import AskResult, Citation, cite_mark
from nztax.decide import Decision
from nztax.frame import Trace
from nztax.nothing_found import only_alone
from nztax.rules import load_rules
from passage_hits import Hit
from nztax.sentences import asking_sentences
from nztax.slots import Slots

RULES = load_rules()
YEAR = "2026-27"


def story_topic(story: str, hits: list) -> str:
    trace = Trace(frame={"story": True, "asking": asking_sentences(story)})
    decision = Decision(action="topic", question=story, asked=story, tax_year=YEAR, tax_year_source="default",
                        slots=Slots(), trace=trace)
    return say.topic(decision, RULES, hits, YEAR).answer


# -- the not-found sentence stands only alone ---------------------------------------------------

RULE = "Interest from a term deposit is taxed when it is paid to you, not when the deposit matures."
URL = "https://www.ird.govt.nz/interest"


def _found_nothing(after: str, separator: str) -> AskResult:
    return AskResult(status="answered", answer=composer.NOTHING_FOUND + separator + after, tax_year=YEAR,
                     disclaimer=composer.BASE_DISCLAIMER, citations=[Citation(title="Interest", url=URL)],
                     next_actions=[composer.REPHRASE_ACTION, "Open the income tax calculator"])


@pytest.mark.parametrize("separator", [" ", "\n\n"])
def test_a_cited_rule_after_the_not_found_sentence_leads_instead(separator):
    result = only_alone(_found_nothing(RULE + cite_mark(1, URL), separator))
    assert result.answer.startswith(RULE)
    assert composer.NOTHING_FOUND not in result.answer
    assert result.next_actions == ["Open the income tax calculator"]


def test_the_not_found_sentence_stays_when_nothing_cited_follows():
    note = "I haven't worked a figure out on your amounts."
    result = only_alone(_found_nothing(note, "\n\n"))
    assert result.answer.startswith(composer.NOTHING_FOUND)
    assert composer.REPHRASE_ACTION in result.next_actions


# -- a long story led by its first passage's best sentence --------------------------------------

DEPOSITS = Hit("Interest from a term deposit is taxed when it is credited to your account, even if you reinvest it. "
               "Your bank deducts resident withholding tax (RWT) from the interest at the rate you choose.",
               "https://www.ird.govt.nz/interest", "d", section="Interest from term deposits")
PAYDAY = Hit("Employers must file employment information each payday. The information is due within two working "
             "days of payday.", "https://www.ird.govt.nz/payday", "p")
BACKGROUND = ("My grandmother left me some money last winter and after a long think with my partner about the "
              "wedding, the renovation of the kitchen and the holiday we keep postponing, I put most of it into "
              "a two year term deposit with a local bank. I reinvest the interest each quarter so it keeps "
              "growing, and the bank sends a statement every few months which I mostly file in a drawer. ")
ASKS = ["Am I reading this right?", "Have I got that the right way round?", "Is that how it works?"]


@pytest.mark.parametrize("ask", ASKS)
def test_a_long_story_is_led_by_its_first_passage_not_told_nothing_was_found(ask):
    story = BACKGROUND + "My understanding is that nothing is taxed until the deposit matures and I withdraw it. " + ask
    answer = story_topic(story, [DEPOSITS, PAYDAY])
    assert answer.startswith("Interest from a term deposit is taxed when it is credited"), answer


def test_a_worked_example_does_not_lead_a_long_story():
    # (The same sentences under an example's heading, for a story that gives an example of its own: a
    # passage's example may open an answer asking for one, but not on this footing.)
    example = Hit(DEPOSITS.text, "https://www.ird.govt.nz/interest-example", "e", section="Worked example: a term deposit")
    story = BACKGROUND + "For example, I think nothing is taxed until the deposit matures and I withdraw it. " + ASKS[0]
    assert story_topic(story, [example, PAYDAY]) == composer.NOTHING_FOUND


# -- a situation named only by the heading ------------------------------------------------------

PACKAGE = Hit("The employer's compulsory contribution is paid on top of your salary or wages. If your pay is set as a "
              "total remuneration package, the contribution can come out of that package only when this was agreed "
              "with you in good faith.", "https://www.ird.govt.nz/contributions", "k",
              section="Pay bargaining and total remuneration")
CASUAL = Hit("Your employer deducts KiwiSaver from each pay you receive as an employee. Casual workers on contracts of 28 "
             "days or less are not enrolled automatically but can opt in.", "https://www.ird.govt.nz/casual", "c",
             section="Casual and temporary workers")


@pytest.mark.parametrize("story, hit, own_words", [
    ("My brother's employer says its compulsory contribution is not paid on top of his salary or wages, because "
     "his contract calls his pay a total remuneration figure. Can it do that?", PACKAGE, "If your pay is set as a total"),
    ("My daughter picks fruit for a few weeks each summer as a casual. She has a KiwiSaver account from school. "
     "Does anything get taken off?", CASUAL, "Casual workers on contracts"),
])
def test_the_sentence_naming_the_posts_situation_opens_not_the_general_rule_under_its_heading(story, hit, own_words):
    answer = story_topic(story, [hit, PAYDAY])
    assert answer.startswith(own_words), answer


# -- a term whose defining condition the post denies ---------------------------------------------

BOARDERS = Hit("With up to four boarders you need not declare what they pay if it is under the weekly standard cost. "
               "Rent from tenants who live in a separate part of your property is residential rental income you "
               "declare in full.", "https://www.ird.govt.nz/rooms", "r", section="Renting rooms")
SALE = Hit("The main home exclusion means the bright-line test does not tax the sale of your home. A gain "
           "taxed under the bright-line test is added to your income for the year of the sale.",
           "https://www.ird.govt.nz/bright-line", "b", section="Selling residential land")


@pytest.mark.parametrize("story, hit, denied_rule", [
    ("We have boarders living in the cabin behind our house, and food is not provided to them. They pay rent "
     "each week. Is that under the boarder standard cost, or do we declare it?", BOARDERS, "With up to four boarders"),
    ("Our boarders cook for themselves: we give them no meals at all. Do we declare what they pay as boarder "
     "income?", BOARDERS, "With up to four boarders"),
    ("We are selling a townhouse we bought two years ago. We never lived in it ourselves. Does the main home "
     "exclusion stop the bright-line test applying?", SALE, "The main home exclusion"),
])
def test_a_rule_for_a_term_whose_condition_the_post_denies_neither_opens_nor_is_quoted(story, hit, denied_rule):
    answer = story_topic(story, [hit, PAYDAY])
    assert denied_rule not in answer, answer
    assert answer.startswith(hit.text.split(". ")[1][:20]), answer


@pytest.mark.parametrize("story, hit, rule", [
    ("We cook dinner every night for the two boarders living in our spare rooms. Is what they pay under the "
     "boarder standard cost?", BOARDERS, "With up to four boarders"),
    ("We lived in the townhouse for six years before selling it. Does the main home exclusion stop the bright-line "
     "test applying?", SALE, "The main home exclusion"),
])
def test_the_terms_rule_still_opens_when_the_post_meets_its_condition(story, hit, rule):
    assert story_topic(story, [hit, PAYDAY]).startswith(rule)


def test_the_terms_definition_opens_for_a_post_denying_its_condition():
    # (A sentence naming the term with its condition says what the term is: the denied rule's reason.)
    rooms = Hit("With up to four boarders you need not declare what they pay if it is under the weekly standard cost. "
                "A boarder pays you for a room and meals.", "https://www.ird.govt.nz/rooms", "r", section="Boarders")
    story = ("Two tenants rent the flat under our house and get no meals from us. Does the boarder standard cost mean "
             "we need not declare what they pay?")
    answer = story_topic(story, [rooms, PAYDAY])
    assert answer.startswith("A boarder pays you for a room and meals."), answer
    assert "With up to four boarders" not in answer
