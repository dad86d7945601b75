"""Three shapes of a post about how a rule works, each answered by the rule rather than by a verdict
on another question: a belief the poster asks to be corrected on, whatever else the post asks on top
of it (belief.invites_correction); a question asking which of two (units.asks_alternatives); and a
request to have a rule explained (units.asks_to_explain). No "Yes." or "No." answers the last two.

All wording below is made up for the tests: each family crosses topics with the ways of saying it."""

from __future__ import annotations

import pytest

from nztax import belief, unit_choice, units

BELIEFS = {
    "overseas-shares-and-pie-funds/is-the-fair-dividend-rate-a-5-tax-on-my-overseas-shares":
        "Overseas shares question. My understanding is that once my overseas shares cost more than the threshold, "
        "I pay income tax on 5% of the portfolio's opening value every year.",
    "joining-and-contributing-to-kiwisaver/are-kiwisaver-withdrawals-taxed":
        "KiwiSaver and retirement. My understanding is that KiwiSaver withdrawals are taxed as income when you "
        "take the money out.",
}
INVITATIONS = ["I stand to be corrected.", "Correct me if I'm wrong.", "Please tell me if I'm mistaken here."]
ON_TOP = ["Is it worth keeping it going?", "How do other people plan around this?"]


def served(engine, text: str):
    decision, vector = engine.understand(text, None, None)
    unit, _ = unit_choice.choose(engine, decision, engine.read_frame(decision), vector, False)
    return unit


@pytest.mark.parametrize("invitation", INVITATIONS)
@pytest.mark.parametrize("question", ON_TOP)
def test_a_belief_the_poster_asks_to_be_corrected_on_is_checked_whatever_else_is_asked(invitation, question):
    post = f"{BELIEFS['joining-and-contributing-to-kiwisaver/are-kiwisaver-withdrawals-taxed']} {question} {invitation}"
    assert belief.checked(post, [question], ["how"]) is not None
    # (Without the invitation, a question of its own is no check of the belief.)
    assert belief.checked(post.replace(invitation, ""), [question], ["how"]) is None


@pytest.mark.parametrize("unit_id", sorted(BELIEFS))
@pytest.mark.parametrize("invitation", INVITATIONS[:2])
def test_the_belief_unit_answers_without_its_verdict(engine, unit_id, invitation):
    found = served(engine, f"{BELIEFS[unit_id]} I am 60 now. Is it worth planning around? {invitation}")
    assert found is not None and found.id == unit_id
    assert not found.lead.startswith(("Yes", "No"))


def test_an_invitation_inside_a_question_is_the_question_itself():
    post = "My understanding is that interest on my savings is taxed at 33%. Correct me if I'm wrong?"
    assert not belief.invites_correction(post, ["Correct me if I'm wrong?"])


@pytest.mark.parametrize("question", [
    "Do I pay the tax every year or only when I sell?",
    "Is the bonus taxed at 33% or at my normal rate?",
    "Is my student loan repaid from each pay or at the end of the year?",
    "Does the threshold apply to each share or to all of them?",
    "Is a new fence capital or revenue?",
    "Is the board my son pays income or a gift?",
    "Are these costs a repair or an improvement?",
])
def test_a_question_asking_which_of_two_gets_no_verdict(question):
    assert units.asks_alternatives(question)
    for lead in ("Yes: the rule is this.", "No. The rule is this."):
        assert units.opening_for(lead, question, read_yes_or_no=True) == "The rule is this."


@pytest.mark.parametrize("question", [
    "Is this taxable or not?",
    "Do I pay tax on interest or dividends?",
    "Is KiwiSaver or a PIE fund taxed at my PIR?",
    "Can I claim repairs on my rental?",
    "What is the difference between FDR or CV?",
])
def test_guard_a_yes_or_no_question_keeps_its_verdict(question):
    assert not units.asks_alternatives(question)
    if units.asks_yes_or_no(question):
        assert units.opening_for("Yes: the rule is this.", question).startswith("Yes")


EXPLAINED = ["FIF tax", "secondary tax", "the bright-line test", "provisional tax", "a PIE fund's tax"]
REQUESTS = ["Can someone explain to me in simple terms how {t} works?", "How does {t} work for someone like me?",
            "Could you explain {t}?"]


@pytest.mark.parametrize("topic", EXPLAINED)
@pytest.mark.parametrize("request_", REQUESTS)
def test_a_request_to_explain_a_rule_gets_the_rule_without_a_verdict(topic, request_):
    question = request_.format(t=topic)
    assert units.asks_to_explain(question)
    for lead in ("Yes: the rule is this.", "No. The rule is this."):
        assert units.opening_for(lead, question, read_yes_or_no=True, written_for="Is it a separate tax?") == "The rule is this."


@pytest.mark.parametrize("topic", EXPLAINED)
def test_guard_asking_whether_a_rule_holds_keeps_the_verdict(topic):
    question = f"Does {topic} apply to me?"
    assert not units.asks_to_explain(question)
    assert units.opening_for("Yes: the rule is this.", question).startswith("Yes")


def test_a_request_to_explain_in_a_story_gets_the_explanation_not_a_verdict(engine):
    post = ("I picked up a weekend job on top of my full-time role. "
            "Can someone explain to me in simple terms how secondary tax works? Thanks in advance.")
    answer = engine.answer(post).answer
    assert not answer.startswith(("Yes", "No"))
