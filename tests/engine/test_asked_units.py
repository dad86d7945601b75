"""A post of several sentences is served the answer unit its asking sentence reads as (unit_match.py
`match_asked`), wherever that sentence stands, whatever else the story says, and in other words;
and never a unit when the post is declined or asks for a figure of the poster's own."""

from __future__ import annotations

import pytest

from nztax.frame import FrameAmount, QuestionFrame
from unit_leads import answer_opens_with, ask, leads

UNIT = "joining-and-contributing-to-kiwisaver/is-kiwisaver-deducted-while-i-m-on-unpaid-leave"
BACKGROUND = ["I have been with the same employer for four years.", "Next month I start three months off to travel."]
ASKED = "Is KiwiSaver deducted while I'm on unpaid leave?"


def opens_with(engine, bank, text: str) -> bool:
    return answer_opens_with(engine, bank.get(UNIT), text)


def test_the_asking_sentence_of_a_story_is_served_its_unit(engine, bank):
    assert opens_with(engine, bank, " ".join(BACKGROUND + [ASKED]))


def test_family_move_the_asking_sentence_to_the_front(engine, bank):
    assert opens_with(engine, bank, " ".join([ASKED] + BACKGROUND))


@pytest.mark.parametrize("other", ["My partner earns $61,000 a year.", "We pay $540 a week in rent."])
def test_family_add_a_story_sentence_with_another_figure(engine, bank, other):
    assert opens_with(engine, bank, " ".join(BACKGROUND + [other, ASKED]))


@pytest.mark.parametrize("asked", ["Does my employer still have to pay KiwiSaver while I'm on leave without pay?",
                                   "Are KiwiSaver contributions still deducted during unpaid leave?"])
def test_family_reword_the_asking_sentence(engine, bank, asked):
    assert opens_with(engine, bank, " ".join(BACKGROUND + [asked]))


@pytest.mark.parametrize("asked", ["With $8,000 already in my KiwiSaver, is KiwiSaver deducted while I'm on unpaid leave?",
                                   "Is KiwiSaver deducted while I'm on unpaid leave for 3 months?"])
def test_family_the_asking_sentence_carries_a_figure_of_the_story(engine, bank, asked):
    assert opens_with(engine, bank, " ".join(BACKGROUND + [asked]))


def test_a_sentence_s_own_amount_and_period_keep_it_from_no_unit_stating_none(engine):
    """Matched as a sentence of a story, a sentence naming an amount a week still reads as the
    unit's paraphrases, which state no figure; matched as a question of its own it does not."""
    from nztax.slots import read_slots, reading

    matcher = engine.unit_matcher
    text = "On $1,350 a week, is KiwiSaver deducted while I'm on unpaid leave?"
    vector, read = engine.retriever.embed_query(text), reading(read_slots(text, engine.rules))
    ids = lambda scored: {matcher.units[i].id for i in scored}  # noqa: E731
    assert UNIT not in ids(matcher.scores(text, vector, read))
    assert UNIT in ids(matcher.scores(text, vector, read, story_figures=True))


def test_a_story_asking_about_something_else_is_not_served_that_unit(engine, bank):
    assert not opens_with(engine, bank, " ".join(BACKGROUND + ["Can I claim my flights as a work expense?"]))


def frame(asks: str, owner: str, sure: float = 0.9, asking: tuple[str, ...] = ("Q?",)) -> QuestionFrame:
    amount = FrameAmount("$5,000", 10, 16, 5000, "year", "income", 0.9, owner, 0.9)
    return QuestionFrame(asks=asks, asks_sure=sure, asking=asking, asks_each=(asks,) * len(asking), amounts=(amount,),
                         tax_year=None, year_text=None, conditions=(), scope="nz_tax", scope_sure=0.9,
                         asks_each_sure=(sure,) * len(asking))


def test_a_question_for_the_posters_own_figure_is_not_a_units():
    """A unit's general lead does not give the figure for the poster's own amount; the same
    sentence asking whether or why may be a unit's."""
    assert frame("figure", "me").asking_for_units(0.7) == ()
    assert frame("check", "me").asking_for_units(0.7) == ()
    assert frame("yes_no", "me").asking_for_units(0.7) == ("Q?",)
    assert frame("figure", "someone_else").asking_for_units(0.7) == ("Q?",)


def test_an_asking_sentence_read_unsurely_is_not_matched_to_a_unit():
    assert frame("yes_no", "me", sure=0.5).asking_for_units(0.7) == ()


SHARES_GAIN = "overseas-shares-and-pie-funds/do-i-pay-tax-on-the-gain-when-i-sell-shares-i"


@pytest.mark.parametrize("post", [
    "We have owned our family home since 2022. Is the gain taxed when we sell?",
    "My partner and I bought a section in 2021. We built on it and moved in. Now we want to move towns. Is the gain taxed when we sell?",
])
def test_a_post_about_a_house_is_never_served_the_unit_on_shares(engine, post):
    """Its asking sentence is in the shares unit's words, but the post names land and the unit
    shares: another subject of the same group (opening_fit.py)."""
    bank_units = engine.units_by_id
    unit = bank_units[SHARES_GAIN]
    out = ask(engine, post)
    assert not out["answer"].startswith(leads(unit, out["tax_year"])[1][:60])


def test_sentences_read_unsurely_or_asking_the_posters_figure_are_held_to_agreement():
    """unit_choice._sentences_for_units: a sentence read sure and asking whether answers alone; one read
    between the unsure bar and the frame's bar, or asking a figure of the poster's own money, only
    where it and the whole post agree; one read under the unsure bar not at all. A post's only
    question answers alone however unsurely read (`only_question`), unless it asks the poster's figure."""
    from nztax.settings import get_settings
    from nztax.unit_choice import _sentences_for_units

    settings = get_settings()
    bar, unsure = settings.frame_bar, settings.asked_unit_unsure_bar
    assert _sentences_for_units(frame("yes_no", "me", sure=bar), settings) == (("Q?",), ())
    two = ("Q?", "R?")
    assert _sentences_for_units(frame("yes_no", "me", sure=(bar + unsure) / 2, asking=two), settings) == ((), two)
    assert _sentences_for_units(frame("yes_no", "me", sure=(bar + unsure) / 2), settings) == (("Q?",), ())
    assert _sentences_for_units(frame("figure", "me"), settings) == ((), ("Q?",))
    # The engine works the stated figures out: those sentences are the calculation's, not a unit's.
    assert _sentences_for_units(frame("figure", "me"), settings, calculates=True) == ((), ())
    assert _sentences_for_units(frame("how", "me", sure=(bar + unsure) / 2), settings, calculates=True) == ((), ())
    assert _sentences_for_units(frame("yes_no", "me", sure=unsure - 0.05, asking=two), settings) == ((), ())
    assert _sentences_for_units(frame("yes_no", "me", sure=unsure - 0.05), settings) == (("Q?",), ())


def test_a_story_asked_back_only_for_figures_may_be_served_a_unit():
    """unit_choice.asks_back_only_for_figures: a story asked back for the figures of a sum of its own
    (none given) may get the unit stating the rule that sum follows; a one-line question, or one asked
    back for an income, keeps the ask-back."""
    from types import SimpleNamespace

    from nztax.unit_choice import asks_back_only_for_figures

    story = SimpleNamespace(story=True)
    assert asks_back_only_for_figures(SimpleNamespace(action="clarify", missing=["details"]), story)
    assert not asks_back_only_for_figures(SimpleNamespace(action="clarify", missing=["details"]), SimpleNamespace(story=False))
    assert not asks_back_only_for_figures(SimpleNamespace(action="clarify", missing=["income"]), story)
    assert not asks_back_only_for_figures(SimpleNamespace(action="topic", missing=[]), story)


DIVIDEND_UNIT = "assessments-and-dividends/how-do-imputation-credits-and-rwt-on-a-dividend-count-in-my"
DIVIDEND_STORY = "Dividend statement question. 500 shares, 8c a share = $40, less RWT. It also shows an imputation credit."


def _opens_with_unit(engine, text: str, unit_id: str) -> tuple[str, bool]:
    unit = engine.units_by_id[unit_id]
    out = ask(engine, text)
    return out["status"], out["answer"].startswith(leads(unit, out["tax_year"])[1][:60])


def test_a_post_declined_for_an_aside_is_answered_by_the_unit_its_asking_sentence_reads_as(engine):
    """The intent reading declines the post for its aside (buying an index fund); the scope reading
    is sure it is a person's tax, and its asking sentence reads plainly as a unit: that unit answers."""
    post = DIVIDEND_STORY + " How are the imputation credit and withholding tax worked out? PS is there anyway to buy an NZX index?"
    assert _opens_with_unit(engine, post, DIVIDEND_UNIT) == ("answered", True)


@pytest.mark.parametrize("post", [
    # Only the aside is asked: nothing in scope to answer.
    DIVIDEND_STORY + " PS is there anyway to buy an NZX index?",
    # The scope reading backs the decline's subject (a company's tax) as its likeliest other.
    "I run a small company with a March balance date. How is the company's income tax worked out, and when is it due?",
])
def test_a_declined_post_stays_declined_without_an_in_scope_asking_sentence_or_against_the_scope_reading(engine, post):
    out = engine.answer(post, use_faq=False, mode="offline")
    assert out.status == "out_of_scope"


def test_sentences_that_ask_in_words_read_under_the_unsure_bar_are_held_to_agreement():
    """unit_choice.asking_unsurely: a sentence read under the unsure bar still asks when its words do (a
    question mark, a question's opening); it is read for the agreement of two readings only. Not a sentence
    that only tells, not one already read for a unit, not when the engine works out the figures, not when off."""
    import dataclasses

    from nztax.settings import get_settings
    from nztax.unit_choice import asking_unsurely

    settings = get_settings()
    low = settings.asked_unit_unsure_bar - 0.2
    two = ("Is it taxed?", "Or is it exempt?")
    assert asking_unsurely(frame("yes_no", "me", sure=low, asking=two), settings) == two
    assert asking_unsurely(frame("yes_no", "me", sure=low, asking=("It is taxed.", "It is exempt."),), settings) == ()
    assert asking_unsurely(frame("yes_no", "me", sure=settings.frame_bar, asking=two), settings) == ()
    assert asking_unsurely(frame("yes_no", "me", sure=low, asking=two), settings, calculates=True) == ()
    off = dataclasses.replace(settings, asked_unit_unsure_agree=False)
    assert asking_unsurely(frame("yes_no", "me", sure=low, asking=two), off) == ()


ALSO_ASKED = "Or does it simply stop until I am back?"
GREETING = "Hi all, hoping someone here can help."
UNSURE_FAMILY = {
    "as told": BACKGROUND + [ASKED, ALSO_ASKED],
    "asked first": [ASKED, ALSO_ASKED] + BACKGROUND,
    "after a greeting": [GREETING] + BACKGROUND + [ASKED, ALSO_ASKED],
    "split in two": BACKGROUND + ["Is KiwiSaver deducted?", "I mean while I'm on unpaid leave?", ALSO_ASKED],
}


def _read_unsurely(engine, monkeypatch):
    """Every asking sentence read under the unsure bar: what is asked in words, in wording the kind
    reading has not seen."""
    import dataclasses

    read = type(engine).read_frame
    low = engine.settings.asked_unit_unsure_bar - 0.2

    def unsure(self, decision):
        got = read(self, decision)
        return dataclasses.replace(got, asks_each_sure=(low,) * len(got.asking), asks_sure=low)

    monkeypatch.setattr(type(engine), "read_frame", unsure)


def _asked(engine, text: str):
    """The unit the post's asking sentences read as (unit_choice.asked_unit), its id or None."""
    from nztax.unit_choice import asked_unit
    from nztax_build.story_gate_fit import reading_of

    decision, frame, vector = reading_of(engine, text)
    found, _ = asked_unit(engine, decision, frame, vector, declined=False)
    return found.unit.id if found is not None else None


@pytest.mark.parametrize("told", sorted(UNSURE_FAMILY))
def test_family_a_story_asking_in_words_read_unsurely_keeps_its_unit(engine, monkeypatch, told):
    """A story whose asking sentences the frame reads unsurely keeps the unit its asking sentence and the
    whole post agree on, however the story is told (the question first, after a greeting, split in two)."""
    _read_unsurely(engine, monkeypatch)
    assert _asked(engine, " ".join(UNSURE_FAMILY[told])) == UNIT


@pytest.mark.parametrize("told", sorted(UNSURE_FAMILY))
def test_without_the_unsure_sentences_the_same_story_gets_no_unit_from_them(engine, monkeypatch, told):
    """The family above rests on `asked_unit_unsure_agree`: off, sentences read unsurely are not read."""
    import dataclasses

    _read_unsurely(engine, monkeypatch)
    monkeypatch.setattr(engine, "settings", dataclasses.replace(engine.settings, asked_unit_unsure_agree=False))
    assert _asked(engine, " ".join(UNSURE_FAMILY[told])) is None


def test_a_story_asking_in_words_about_something_else_read_unsurely_gets_no_unit(engine, monkeypatch):
    """Agreement is the guard: a story about unpaid leave whose unsure question asks about another rule
    is not given the story's unit, nor the question's when the story is not near it."""
    _read_unsurely(engine, monkeypatch)
    assert _asked(engine, " ".join(BACKGROUND + ["Can I claim my flights as a work expense?", ALSO_ASKED])) is None
