"""What a post is about (issue 36's scope): which texts the scope reading reads, and the rows that turn a
story about another subject away to where it belongs."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from nztax.decision_rows import table
from nztax.frame import LONG_POST_CHARS, read_frame
from nztax.sentences import asks_in_words
from nztax.slots import Slots

TOLD = ("I have been a member of a savings scheme for years and have a long-term illness that may stop me working "
        "one day. I looked for a list of the illnesses that would let me take the money out early, as life insurers "
        "have, and found none. People told me it would come down to whoever decides on the day. ")


@pytest.mark.parametrize("text, asks", [
    ("I have an illness. It may stop me working. The decision rests with a committee.", False),
    ("I have an illness. It may stop me working. Can I take my savings out?", True),
    ("I have an illness. Could you let me know if I can take my savings out.", True),   # opens like a question
])
def test_a_post_asks_in_words_only_when_a_sentence_asks(text, asks):
    assert asks_in_words(text) is asks


@pytest.mark.parametrize("word", ["What", "How", "When", "Where", "Why", "Which", "Who"])
@pytest.mark.parametrize("subject, asks", [
    # The question word with its subject right after it opens a clause that tells ("What I found was …").
    ("I", False), ("we", False), ("they", False), ("my employer", False), ("it", False),
    # With the verb first it asks ("What did I …"), in any person.
    ("did I", True), ("do we", True), ("does my employer", True), ("would it", True),
])
def test_family_a_question_word_asks_only_with_the_verb_before_its_subject(word, subject, asks):
    text = f"I have a side job. {word} {subject} earn from it goes in the return"
    assert asks_in_words(text) is asks


class _RecordingModel:
    """A frame model that records the texts the scope reading is given."""

    def __init__(self):
        self.scope_texts: tuple[str, ...] = ()

    def asks(self, sentences):
        return [("how", 0.9) for _ in sentences]

    def scope_reading(self, *texts):
        self.scope_texts = texts
        return "kiwisaver_scheme", 0.9, 0.05, "kiwisaver_scheme"

    def amount_readings(self, text, spans):
        return []


@pytest.mark.parametrize("ending, read", [
    ("The conclusion I came to was that it depends on the day.", 1),   # nothing asked: the whole post alone
    ("What I found was that nobody could say.", 1),                    # the same, told in a clause opening "What I"
    ("Is there a list of the illnesses that qualify?", 2),            # its question beside the whole post
])
def test_a_long_posts_scope_weighs_an_asking_sentence_only_when_one_asks(ending, read):
    post = TOLD * 2 + ending
    assert len(post) > LONG_POST_CHARS
    model = _RecordingModel()
    read_frame(post, Slots(), model)
    assert len(model.scope_texts) == read
    assert model.scope_texts[-1] == post


STORY = ("My manager has proposed making my role redundant, but keeps pushing me to resign instead. They say that if "
         "I resign I get four weeks paid out without being taxed and need not work my notice. It feels like pressure "
         "to me. What should I do?")


def _refused_as_evasion(engine):
    from nztax.understand import default_catalogue

    proposal, _ = engine._propose(STORY, None, None)
    evasion = next(spec for spec in default_catalogue().intents if spec.does == "refuse" and spec.copy == "evasion")
    return replace(proposal, action="refuse", intent=evasion, calls=[], missing=[],
                   classification=replace(proposal.classification, confident=True))


@pytest.mark.parametrize("scope_in, story, turned_away_as", [
    (0.1, True, "decline"),    # surely about another subject: declined to where it belongs, not refused
    (0.5, True, "refuse"),     # not sure it is another subject: the refusal stands
    (0.1, False, "refuse"),    # a one-line request to hide income stays refused
])
def test_a_story_refused_as_evasion_but_surely_about_another_subject_is_declined_there(engine, scope_in, story, turned_away_as):
    proposal = _refused_as_evasion(engine)
    frame = replace(engine.read_frame(proposal), scope="employment_law", scope_sure=0.5, scope_in=scope_in,
                    scope_other="employment_law", story=story, read_by="offline")
    d = engine.settle(proposal, frame, None)
    assert d.action == turned_away_as, d.trace.to_json()
    if turned_away_as == "decline":
        assert d.decline_to == table().scopes["employment_law"]


KNOWN = {"rwt", "paye", "esct"}


@pytest.mark.parametrize("text, foreign", [
    ("The bank's QRX deducted at 20% should have covered the tax on my interest.", True),
    ("The bank's RWT deducted at 20% should have covered the tax on my interest.", False),   # a name the sources use
    ("QRX tax was deducted from my pension before it reached me.", False),   # a name before a tax word: whose tax
    ("The QRX balance is large and my employer wants to pay it out.", False),  # no tax withheld in its clause
    ("They deducted 500 QRX from my pay.", False),                            # beside a figure: a currency or a unit
])
def test_a_tax_withheld_under_a_name_the_sources_never_use_is_read_as_foreign(text, foreign):
    from nztax.frame import withheld_under_unknown_name

    assert withheld_under_unknown_name(text, lambda w: w in KNOWN) is foreign


INTEREST_POST = ("My notice of assessment includes my bank interest as income, taxed at my top rate. The {name} "
                 "deducted at 20% is then shown as a credit. I thought the {name} deducted settled the tax on that "
                 "interest. Am I wrong?")


@pytest.mark.parametrize("name, declined", [("QRXT", True), ("RWT", False)])
def test_family_a_post_naming_another_countrys_withholding_tax_is_declined_there(engine, name, declined):
    assert_declined_to_foreign_tax(engine, INTEREST_POST.format(name=name), declined)


@pytest.mark.parametrize("taken", ["deducted", "withheld", "taken off", "taken out", "that came off", "coming off"])
@pytest.mark.parametrize("name, foreign", [("QRXT", True), ("RWT", False)])
def test_family_a_tax_said_taken_in_any_words_under_a_name_the_sources_never_use_is_foreign(taken, name, foreign):
    from nztax.frame import withheld_under_unknown_name

    text = f"I thought the 20% {name} {taken} my deposit interest settled the tax on it."
    assert withheld_under_unknown_name(text, lambda w: w in {"rwt"}) is foreign


@pytest.mark.parametrize("name", ["KS", "SL"])
def test_a_short_name_for_new_zealands_own_scheme_taken_off_pay_is_no_foreign_tax(name):
    from nztax.frame import withheld_under_unknown_name

    assert not withheld_under_unknown_name(f"Upped my {name} contributions - how much comes out of my pay now?", lambda w: False)


def decided_for(engine, question):
    decision, _ = engine.understand(question, None, None)
    return decision


def assert_declined_to_foreign_tax(engine, question, declined):
    d = decided_for(engine, question)
    assert (d.action == "decline") is declined, d.trace.to_json()
    if declined:
        assert d.decline_to == table().scopes["foreign_tax"]


# The rates New Zealand's system has (as RuleBook.tax_rates gives them, a code's with the ACC levy).
NZ_RATES = frozenset(Decimal(r) for r in ("10.5", "17.5", "30", "33", "39", "45", "28", "34.53", "40.53"))


def _own_rates(text, owner="me", sure=0.95):
    """The percentages of `text` as the frame holds them, each read as `owner`'s."""
    from nztax.frame import FrameAmount, percent_value, percentages

    return [FrameAmount(m.group(0), m.start(), m.end(), percent_value(m), None, "rate", 1.0, owner, sure)
            for m in percentages(text)]


# One rate in each form a post writes it: the sign, the word, the words apart, and the number in words.
RATE_FORMS = {"40": ("40%", "40 percent", "40 per cent", "forty per cent", "forty percent"),
              "33": ("33%", "33 percent", "33 per cent", "thirty-three per cent", "thirty three percent"),
              "25": ("25%", "25 per cent", "twenty-five per cent")}


@pytest.mark.parametrize("value, written", [(v, w) for v, forms in RATE_FORMS.items() for w in forms])
def test_family_a_percentage_is_read_with_its_value_however_it_is_written(value, written):
    from nztax.frame import percent_value, percentages

    found = percentages(f"Last year I paid {written} of it, or so I was told.")
    assert [(m.group(0), percent_value(m)) for m in found] == [(written, Decimal(value))]


@pytest.mark.parametrize("text", ["I had forty people over.", "Per cent is two words.", "It took eight years."])
def test_a_number_in_words_is_a_percentage_only_before_the_word(text):
    from nztax.frame import percentages

    assert percentages(text) == []


@pytest.mark.parametrize("text, conditions, owner, foreign", [
    ("I work full time and pay 40% tax. What can I claim?", (), "me", True),   # a rate no year of ours has
    ("I work full time and pay 39% tax. What can I claim?", (), "me", False),  # New Zealand's top rate
    ("I pay 34.5% tax on my second job.", (), "me", False),                   # SA with the levy, as rounded
    ("I'm in the 20% bracket and got a bonus.", (), "me", True),
    ("I'm in the 20% bracket and got a bonus.", ("student_loan",), "me", False),  # a condition only ours has
    ("My effective tax rate is 22% this year.", (), "me", False),             # the poster's own arithmetic
    ("The agency takes schedular tax at 20% off my pay.", (), "me", False),    # a rate the payee elects
    ("My dividend had 15% US tax taken off.", (), "me", False),               # a name says whose tax it is
    ("They took 20% tax there. I'm on 33% here.", (), "me", False),           # a New Zealand rate of theirs too
    ("Someone said the no-declaration tax rate is 46.5%.", (), "ird", False),  # not the poster's own rate
    ("My bonus got taxed at 50%, why?", (), "me", False),                     # what came off one payment
    ("I paid 25% tax on my last payslip.", (), "me", False),
    ("I paid 25% tax on my pay last week.", (), "me", False),
])
def test_a_tax_rate_of_the_posters_own_that_no_year_has_is_another_systems(text, conditions, owner, foreign):
    from nztax.frame import rate_of_another_system

    assert rate_of_another_system(text, _own_rates(text, owner), conditions, NZ_RATES, 0.7) is foreign


def test_the_rule_book_holds_its_tax_rates_not_credits_or_abatements():
    from nztax.rules import default_rules

    rates = default_rules().tax_rates()
    assert {Decimal("10.5"), Decimal("39"), Decimal("45"), Decimal("28")} <= rates   # income tax, ND, PIR
    assert Decimal("40") not in rates    # FamilyBoost's share of childcare fees is not a tax rate


RATE_POST = ("I work full time and pay {rate} tax. Last year I also did some weekend jobs. "
             "What expenses can I claim on my tax return to reduce the bill?")


@pytest.mark.parametrize("value, foreign", [("40", True), ("33", False), ("25", True)])
def test_family_the_posters_own_rate_in_any_form_says_whose_system_it_is(value, foreign):
    from nztax.frame import rate_of_another_system

    for written in RATE_FORMS[value]:
        text = f"I work full time and pay {written} tax. What can I claim?"
        assert rate_of_another_system(text, _own_rates(text), (), NZ_RATES, 0.7) is foreign, written


@pytest.mark.parametrize("rate, declined", [(w, v != "33") for v in ("40", "33") for w in RATE_FORMS[v]])
def test_family_the_same_post_with_a_rate_new_zealand_has_or_not(engine, rate, declined):
    assert_declined_to_foreign_tax(engine, RATE_POST.format(rate=rate), declined)


@pytest.mark.parametrize("written", ["4%", "4 per cent", "four per cent"])
def test_a_kiwisaver_contribution_rate_in_any_form_keeps_the_post_in(engine, written):
    question = (f"I contribute {written} of my pay to KiwiSaver and pay tax on a salary of $60,000. "
                "How much tax do I pay on my salary?")
    assert decided_for(engine, question).action != "decline"


def _calculation_facts(scope_in: float, inputs_certain: bool):
    """The facts of a story proposed as a sum that answers the figure it asks."""
    from nztax.decision_table import Facts

    return Facts(proposed="calculate", declined_as=None, intent_sure=True, scope="nz_tax" if scope_in >= 0.5 else "acc_cover",
                 scope_sure=False, scope_firm=False, scope_out_sure=1 - scope_in >= 0.8, scope_out_firm=1 - scope_in >= 0.95,
                 scope_in_high=scope_in >= 0.4, inputs_sure=True, inputs_certain=inputs_certain, recoverable=False,
                 stated=False, asks=("check",), answers_ask=True, asks_figure=True, story=True, lead_fits=True,
                 rule_worked=False, several_figures=True, kept=())


@pytest.mark.parametrize("scope_in, inputs_certain, declined", [
    (0.1, False, True),    # surely another subject, and no figure of the asker's can be worked: where to go
    (0.1, True, False),    # the sum asked is worked on the asker's own certain figures
    (0.5, False, False),   # not surely another subject: handed over as before
])
def test_a_story_surely_about_another_subject_whose_sum_cannot_be_worked_is_declined(scope_in, inputs_certain, declined):
    facts = _calculation_facts(scope_in, inputs_certain)
    row = next(r for r in table().rows if facts.holds(r.when))
    assert (row.then == "decline") is declined, row.id


@pytest.mark.parametrize("question", [
    "We let our house to tenants while we spent a year overseas, and the roof needed replacing while they were in. "
    "The new roof cost $24,000. Can we deduct that against the rent, or is it capital?",
    "I've claimed depreciation on the furniture in the flat I rent out. If I sell the flat with the furniture, do I "
    "have to pay any of that depreciation back?",
])
def test_a_new_zealand_rental_propertys_income_tax_is_answered(engine, question):
    assert decided_for(engine, question).action != "decline"


@pytest.mark.parametrize("recovering", ["recouping the money from", "recovering the money from", "clawing the money back from",
                                        "getting the money back from", "taking the overpayment back from"])
@pytest.mark.parametrize("tax_asked, obligation", [("", True), (" and how is the repayment taxed", False)])
def test_family_recovering_money_from_a_party_to_a_job_is_an_employment_obligation(recovering, tax_asked, obligation):
    from nztax.decision_table import asks_employment_obligation

    asking = (f"How do we go about {recovering} the employee{tax_asked}?",)
    assert asks_employment_obligation(asking) is obligation


def test_an_employers_way_to_recover_overpaid_wages_is_declined_to_employment_law(engine):
    d = decided_for(engine, "I'm an employer and overpaid a part-time worker for six months by mistake. We want the "
                            "money back. What is the correct process for recovering it from her wages?")
    assert d.action == "decline" and d.decline_to == table().scopes["employment_law"], d.trace.to_json()


def _one_line_facts(proposed: str, scope: str, sure: bool, declined_as=None, intent=None):
    """The facts of a one-line question the intent reading surely proposes as `proposed`."""
    from nztax.decision_table import Facts

    return Facts(proposed=proposed, declined_as=declined_as, intent_sure=True, scope=scope, scope_sure=sure,
                 scope_firm=False, scope_out_sure=sure and scope != "nz_tax", scope_out_firm=False,
                 scope_in_high=scope == "nz_tax", inputs_sure=True, inputs_certain=True, recoverable=False,
                 stated=False, asks=("how",), answers_ask=True, asks_figure=False, story=False, lead_fits=True,
                 rule_worked=False, several_figures=False, kept=(), intent=intent)


@pytest.mark.parametrize("intent, scope, sure, then", [
    ("refunds_assessment", "foreign_tax", True, "decline"),   # another country's deadline: not New Zealand's date
    ("refunds_assessment", "foreign_tax", False, "keep"),     # not surely another country's: the intent's answer
    ("refunds_assessment", "nz_tax", True, "keep"),
    ("shares_fif", "foreign_tax", True, "keep"),              # New Zealand's rule for shares held abroad
])
def test_a_one_line_question_surely_about_another_countrys_tax_is_not_given_new_zealands_rule(intent, scope, sure, then):
    facts = _one_line_facts("fact", scope, sure, intent=intent)
    row = next(r for r in table().rows if facts.holds(r.when))
    assert (row.then == "decline") is (then == "decline"), row.id


def test_another_countrys_filing_date_is_declined_and_new_zealands_rule_for_shares_there_is_not(engine):
    assert_declined_to_foreign_tax(engine, "When is the tax return due in Australia?", True)
    assert decided_for(engine, "Are my ASX-listed Australian shares caught by the FIF rules?").action != "decline"


def _story_facts(proposed: str, scope_in: float, payment_tax_asked: bool):
    """The facts of a story the scope reading puts with other subjects, whose proposal answers nothing it asks."""
    from nztax.decision_table import Facts

    return Facts(proposed=proposed, declined_as=None, intent_sure=False, scope="other_nz_tax", scope_sure=False,
                 scope_firm=False, scope_out_sure=1 - scope_in >= 0.8, scope_out_firm=1 - scope_in >= 0.95,
                 scope_in_high=scope_in >= 0.4, inputs_sure=True, inputs_certain=False, recoverable=False,
                 stated=False, asks=("yes_no",), answers_ask=False, asks_figure=True, story=True, lead_fits=True,
                 rule_worked=False, several_figures=False, kept=(), asked_unread=True, payment_tax_asked=payment_tax_asked)


@pytest.mark.parametrize("proposed", ["calculate", "clarify", "fact", "topic"])
@pytest.mark.parametrize("scope_in", [0.13, 0.03])
@pytest.mark.parametrize("payment_tax_asked", [True, False])
def test_a_story_asking_the_tax_on_an_employers_payment_is_not_declined_for_its_employers_words(proposed, scope_in, payment_tax_asked):
    facts = _story_facts(proposed, scope_in, payment_tax_asked)
    row = next(r for r in table().rows if facts.holds(r.when))
    assert (row.then == "decline") is (not payment_tax_asked), row.id

