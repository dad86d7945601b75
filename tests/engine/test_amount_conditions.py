"""A sentence whose condition on an amount the post's own figures lie outside does not open the answer
(amount_conditions.py; issue 36). The conditions and posts are written here for the mechanism, on
several topics (the IETC income band, the donation minimum, the secondary-code bands, the FIF cost
threshold, provisional tax), not taken from any bank question or post. Figures from nz_tax_facts.md."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from nztax.amount_conditions import conditions_set, contradicted, lines, met
from nztax.lead_choice import choose
from nztax.opening_fit import may_open

IETC = "You can get the independent earner tax credit if your income for the year is between $24,000 and $70,000."
DONATION = "To qualify, each donation must be $5 or more."
SB = "Use SB when your combined income from all jobs for the year is up to $15,600."
FIF = "If the total cost of all your FIF interests was $50,000 or less throughout the income year, you are taxed on dividends."
PROVISIONAL = "You pay provisional tax if your residual income tax last year was more than $5,000."


@pytest.mark.parametrize("post, sentence", [
    ("I earn $85,000 a year as a nurse. Is there a tax credit for people like me?", IETC),
    ("My salary is 95k. How are tax credits paid?", IETC),
    ("I donated $3 to the SPCA at the supermarket. How do I get a receipt for it?", DONATION),
    ("My main job pays $48,000 and I just started a weekend job. Which secondary code do I use?", SB),
    ("I'm investing over the 50k FIF threshold in US shares. How is that taxed?", FIF),
])
def test_a_figure_outside_the_condition_contradicts_it(post, sentence):
    assert contradicted(post, sentence)
    assert not may_open(post, sentence, None)


@pytest.mark.parametrize("post, sentence", [
    # Inside the condition.
    ("I earn $45,000 a year as a nurse. Is there a tax credit for people like me?", IETC),
    ("I donated $20 to the SPCA. How do I get a receipt for it?", DONATION),
    ("My total from both jobs is $12,000. Which secondary code do I use?", SB),
    ("I have put 30k into US shares. How is that taxed?", FIF),
    # Another kind of amount than the condition bounds: a balance is no income, a pay no gift.
    ("I have $300,000 in my KiwiSaver. Is there a tax credit for people like me?", IETC),
    ("I earn $85,000 and gave $20 to the Red Cross. How do I get a receipt for it?", DONATION),
    # The post names figures on both sides, or denies its comparison.
    ("I bought 40k of shares, which might go over 50k later. How is that taxed?", FIF),
    ("My cost never exceeded 50k. How is that taxed?", FIF),
    # A kind the number grammar does not name (residual income tax): not known to be the same amount.
    ("My residual income tax last year was $3,200. Do I pay tax during the year?", PROVISIONAL),
])
def test_a_figure_inside_the_condition_or_of_another_kind_does_not(post, sentence):
    assert not contradicted(post, sentence)


@pytest.mark.parametrize("post, sentence", [
    ("I earn $85,000 a year. Can I get the independent earner tax credit?", IETC),
    ("I gave $2 to a charity. Does my donation qualify?", DONATION),
    ("I earn 95k. Am I eligible for the IETC?", IETC),
])
def test_a_post_asking_whether_it_meets_the_condition_is_answered_by_it(post, sentence):
    # The condition says "no" to it: the post's figure outside it does not hold it back.
    assert not contradicted(post, sentence)
    assert contradicted(post.replace("Can I get", "How is").replace("Does my donation qualify", "How is it receipted")
                        .replace("Am I eligible for", "How is"), sentence)


def test_a_sentence_stating_both_sides_speaks_to_either_post():
    both = ("Overseas shares come under the FIF rules when their total cost is more than $50,000: then FDR applies; "
            "with a total cost of $50,000 or less you are taxed on the dividends instead.")
    assert not contradicted("I'm investing over the 50k FIF threshold. How is that taxed?", both)
    assert not contradicted("I'm investing over the 50k FIF threshold. How is that taxed?",
                            "Shares are under the FIF rules when their cost is over $50,000, and outside them if it is $50,000 or less.")


def test_only_a_comparison_in_the_conditions_own_clause_is_a_condition():
    cap = "If you are 18 or over, you get 50 cents for every dollar you contribute, up to $260.72."
    assert not conditions_set(cap)
    assert not contradicted("I earn $60,000 a year. What do I get?", cap)
    # A figure stated as a fact, with no condition word, sets no condition.
    assert not conditions_set("The top rate applies to income over $180,000.")


def test_a_line_named_without_its_figure():
    sentence = "An exemption applies if the total cost of your FIF interests is under a minimum threshold."
    assert lines(sentence, conditions_only=True) == {("threshold", "below")}
    assert contradicted("I want to exceed the FIF threshold this year. Is it worth it?", sentence)
    assert not contradicted("I am well under the FIF threshold. Do I pay tax on dividends?", sentence)
    assert not contradicted("Should I stay under the threshold or go over the threshold?", sentence)


def _hit(text: str) -> SimpleNamespace:
    return SimpleNamespace(text=text, url="https://www.ird.govt.nz/x", parent_id="x", title="t", section="")


@pytest.mark.parametrize("lead, other, inside, outside", [
    (IETC + " The credit is $520 a year at most and is paid through your tax code or at the end of the year.",
     "The credit is $520",
     "I earn $45,000 a year. How does the independent earner tax credit work for me?",
     "I earn $85,000 a year. How does the independent earner tax credit work for me?"),
    (DONATION + " You claim a tax credit of a third of your donations by filing a donation tax credit claim.",
     "You claim a tax credit",
     "I gave $50 to a charity. What are the rules for donations?",
     "I gave $2 to a charity. What are the rules for donations?"),
])
def test_a_lead_opening_on_a_contradicted_condition_gives_way_to_its_next_sentence(lead, other, inside, outside):
    # The same lead and question with the post's figure moved across the line: only the opening moves.
    assert choose(inside, lead, [], "2026-27", False, 0.5).lead == lead
    opened = choose(outside, lead, [], "2026-27", False, 0.5)
    assert opened.lead.startswith(other) and lead.split(". ")[0] in opened.lead  # kept below as context


def test_a_condition_the_posts_figures_meet_is_its_side_of_the_line():
    over = "If the foreign shares you hold cost you more than $50,000 in total to buy, the FIF rules may apply to them."
    assert met("I'm investing over the 50k FIF threshold in US shares. How is that taxed?", over)
    assert not met("I have put 30k into US shares. How is that taxed?", over)
    assert met("I earn $45,000 a year. How is the credit paid?", IETC)
    assert not met("I earn $85,000 a year. How is the credit paid?", IETC)
    assert met("We want to exceed the FIF threshold. Is it worth it?",
               "Once you are over the threshold, the FIF rules apply to your overseas shares.")


@pytest.mark.parametrize("post, held", [
    ("I'm investing over the 50k FIF threshold in US shares. How are they taxed?", True),
    ("I have put 30k into US shares. How are they taxed?", False),
])
def test_a_units_lead_is_read_filled_for_the_year(bank, post, held):
    # The FIF de minimis unit's lead holds its threshold as a placeholder ({fif_threshold}): filled
    # from the rules data for the year asked, its condition is read like any other.
    from nztax.rules import load_rules
    from nztax.unit_choice import lead_contradicted

    unit = bank.get("other-income/what-is-the-fif-de-minimis-threshold")
    assert "{fif_threshold}" in unit.lead
    engine = SimpleNamespace(rules=load_rules())
    assert bool(lead_contradicted(engine, SimpleNamespace(tax_year="2026-27", question=post), unit)) is held


@pytest.mark.parametrize("post", [
    "My US shares cost under $30,000. Do I pay tax on them?",
    "Are my overseas shares taxed if I have less than 50k in them?",
])
def test_a_sentence_also_stating_the_posts_side_is_not_contradicted(post):
    # The second clause is the rule for the post's side of the line, though no condition word leads it.
    both_sides = ("Shares overseas come under the FIF rules when their total cost is more than $50,000: "
                  "their income is then usually 5% of their opening value; with a total cost of $50,000 "
                  "or less all year you are taxed on the dividends instead.")
    one_side = both_sides.split(";")[0] + "."
    assert not contradicted(post, both_sides)
    assert contradicted(post, one_side)


@pytest.mark.parametrize("comparison, figure_meets_it", [
    ("up to", True), ("no more than", True), ("at most", True), ("under", False), ("less than", False),
])
def test_a_figure_on_the_line_of_an_upper_bound(comparison, figure_meets_it):
    # "up to $15,600" takes in $15,600 itself; "under $15,600" does not.
    sentence = f"Use SB when your income from your main job for the year is {comparison} $15,600."
    post = "My main job pays $15,600 a year and I just started a weekend job. Which secondary code do I use?"
    assert bool(contradicted(post, sentence)) is not figure_meets_it


@pytest.mark.parametrize("comparison, figure_meets_it", [
    ("at least", True), ("more than", False), ("over", False),
])
def test_a_figure_on_the_line_of_a_lower_bound(comparison, figure_meets_it):
    sentence = f"You get the independent earner tax credit if your income for the year is {comparison} $24,000."
    post = "I earn $24,000 a year as a nurse. How is the credit paid?"
    assert bool(contradicted(post, sentence)) is not figure_meets_it
