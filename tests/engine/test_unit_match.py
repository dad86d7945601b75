"""The unit matcher's rule for serving a unit: a clear best by score and margin, or one that no
other unit comes near at a lower score."""

from __future__ import annotations

import dataclasses

import numpy as np

from nztax.rules import default_rules
from nztax.settings import get_settings
from nztax.slots import read_slots, reading
from nztax.unit_match import KEY_SPOT_CHECKS, UnitMatcher, key_digest, matching_key
from nztax.units import Unit


# Every text reads alike here (no amounts, codes or years), so only the scores decide.
PLAIN = reading(read_slots("epsilon", default_rules()))


def matcher(near: float, other: float) -> tuple[UnitMatcher, np.ndarray]:
    """Two units, one paraphrase each, at cosine `near` and `other` from the question's vector (the
    words share nothing with the question, so the score is the cosine alone)."""
    units = [Unit(question="alpha beta", slug="a", topic="t", topic_title="T", lead="A."),
             Unit(question="gamma delta", slug="b", topic="t", topic_title="T", lead="B.")]
    question = np.array([1.0, 0.0, 0.0], dtype=np.float32)

    def at(cos: float) -> np.ndarray:
        return np.array([cos, np.sqrt(1 - cos * cos), 0.0], dtype=np.float32)

    settings = dataclasses.replace(get_settings(), unit_min_score=1.0, unit_margin=0.1,
                                   unit_alone_score=0.8, unit_alone_margin=0.3, unit_near_score=0.8, unit_near_margin=0.15)
    return UnitMatcher(units, np.stack([at(near), at(other)]), settings, read=lambda text: PLAIN), question


def test_a_unit_far_ahead_of_every_other_is_served_below_the_usual_score():
    m, q = matcher(0.85, 0.4)
    found = m.match("epsilon", q, PLAIN)
    assert found is not None and found.unit.slug == "a"


def test_below_the_usual_score_a_near_neighbour_means_no_unit():
    m, q = matcher(0.85, 0.7)
    assert m.match("epsilon", q, PLAIN) is None
    m, q = matcher(0.75, 0.1)  # far ahead, but under the lower score too
    assert m.match("epsilon", q, PLAIN) is None


def test_a_question_turned_away_needs_the_strict_score_even_when_alone():
    m, q = matcher(0.9, 0.1)
    assert m.match("epsilon", q, PLAIN, declined=True) is None


def test_against_the_engines_stock_answer_a_unit_clear_of_the_next_is_served_at_a_smaller_margin():
    m, q = matcher(0.85, 0.65)
    assert m.match("epsilon", q, PLAIN) is None  # against a sum: no unit
    found = m.match("epsilon", q, PLAIN, near=lambda u: True)
    assert found is not None and found.unit.slug == "a"
    m, q = matcher(0.85, 0.75)  # a near neighbour: no unit either way
    assert m.match("epsilon", q, PLAIN, near=lambda u: True) is None
    m, q = matcher(0.75, 0.1)  # under the score
    assert m.match("epsilon", q, PLAIN, near=lambda u: True) is None
    m, q = matcher(0.85, 0.65)
    assert m.match("epsilon", q, PLAIN, near=lambda u: True, declined=True) is None


def test_a_wider_lead_asked_for_against_the_stock_answer_keeps_a_near_neighbour_out():
    """A search typed as a few words (unit_choice.near_margin): the unit must stand further clear."""
    m, q = matcher(0.9, 0.72)  # 0.18 clear: enough at the usual smaller margin, not at 0.2
    assert m.match("epsilon", q, PLAIN, near=lambda u: True).unit.slug == "a"
    assert m.match("epsilon", q, PLAIN, near=lambda u: True, near_margin=0.2) is None
    m, q = matcher(0.9, 0.65)
    assert m.match("epsilon", q, PLAIN, near=lambda u: True, near_margin=0.2).unit.slug == "a"


def test_the_smaller_margin_is_over_every_unit_of_any_kind():
    """A unit that may not answer (another kind of answer) near the best one means the question
    reads two ways: the smaller margin does not serve the best."""
    units = [Unit(question=f"{w} words", slug=w, topic="t", topic_title="T", lead=f"{w}.") for w in ("a", "b", "c")]
    at = lambda cos: np.array([cos, np.sqrt(1 - cos * cos), 0.0], dtype=np.float32)  # noqa: E731
    m, _ = matcher(0.0, 0.0)
    m = UnitMatcher(units, np.stack([at(0.85), at(0.8), at(0.65)]), m.settings, read=lambda text: PLAIN)
    q = np.array([1.0, 0.0, 0.0], dtype=np.float32)
    assert m.match("epsilon", q, PLAIN, near=lambda u: True, allowed=lambda u: u.slug != "b") is None
    # Family: with that unit farther off, the best is served.
    m = UnitMatcher(units, np.stack([at(0.85), at(0.6), at(0.65)]), m.settings, read=lambda text: PLAIN)
    assert m.match("epsilon", q, PLAIN, near=lambda u: True, allowed=lambda u: u.slug != "b").unit.slug == "a"


def _counting_reader():
    """A reader that reads as the engine does and counts the texts it was asked to read."""
    rules, calls = default_rules(), []

    def read(text):
        calls.append(text)
        return reading(read_slots(text, rules))

    return read, calls


def _bank_matcher(keys):
    units = [Unit(question=f"What is the tax on {n} dollars of interest?", slug=f"u{n}", topic="t", topic_title="T",
                  lead="L.") for n in range(40)]
    read, calls = _counting_reader()
    return UnitMatcher(units, None, get_settings(), read=read, keys=keys), calls


def test_stored_reading_digests_spare_reading_each_paraphrase_again():
    fresh, _ = _bank_matcher(None)
    keys = [fresh.row_key(row) for row in range(len(fresh.rows))]
    stored, calls = _bank_matcher(keys)
    assert len(calls) <= KEY_SPOT_CHECKS + 1  # only the spot checks were read
    assert [stored.row_key(row) for row in range(len(stored.rows))] == keys
    assert len(calls) <= KEY_SPOT_CHECKS + 1


def test_stored_reading_digests_from_other_reading_code_are_not_used():
    fresh, _ = _bank_matcher(None)
    keys = [fresh.row_key(row) for row in range(len(fresh.rows))]
    stale = ["0" * 16] * len(keys)  # what a build with another reading of these texts would store
    matcher_, calls = _bank_matcher(stale)
    assert [matcher_.row_key(row) for row in range(len(matcher_.rows))] == keys
    assert len(calls) > KEY_SPOT_CHECKS


def test_a_reading_digest_is_the_same_for_equal_readings_and_differs_for_different_amounts():
    rules, codes = default_rules(), frozenset({"M", "SB"})

    def digest(text):
        return key_digest(matching_key(text, reading(read_slots(text, rules)), codes))

    assert digest("tax on $85,000 a year") == digest("tax on $85,000 a year")
    assert digest("tax on $85,000 a year") != digest("tax on $80,000 a year")
    assert digest("what is code SB") != digest("what is code M")


# -- a post's asking sentences ---------------------------------------------------------------------

def _asked_matcher(post_weight: float = 1.0) -> tuple[UnitMatcher, callable]:
    """Two units; vectors in 3-d, the question's axis first. `at(cos, side)` is a vector at cosine
    `cos` from the question's axis, leaning towards the second or third axis."""
    units = [Unit(question="alpha beta", slug="a", topic="t", topic_title="T", lead="A."),
             Unit(question="gamma delta", slug="b", topic="t", topic_title="T", lead="B.")]

    def at(cos: float, side: int) -> np.ndarray:
        v = np.zeros(3, dtype=np.float32)
        v[0], v[side] = cos, np.sqrt(1 - cos * cos)
        return v

    settings = dataclasses.replace(get_settings(), asked_unit_min_score=0.85, asked_unit_margin=0.1,
                                   asked_unit_post_weight=post_weight)
    return UnitMatcher(units, np.stack([at(0.9, 1), at(0.9, 2)]), settings, read=lambda text: PLAIN), at


def test_an_asking_sentence_is_matched_with_the_post_settling_between_near_units():
    """Both units are as near the asking sentence; the whole post leans to one, which is served for
    that sentence. Without the post's weight neither leads, so neither is served."""
    from nztax.unit_match import AskingSentence

    m, at = _asked_matcher()
    sentence = AskingSentence("epsilon", np.array([1.0, 0.0, 0.0], dtype=np.float32), PLAIN)
    found = m.match_asked([sentence], at(0.5, 2))
    assert found is not None and found.unit.slug == "b" and found.sentence == "epsilon"
    found = m.match_asked([sentence], at(0.5, 1))
    assert found is not None and found.unit.slug == "a"
    m0, _ = _asked_matcher(post_weight=0.0)
    assert m0.match_asked([sentence], at(0.5, 2)) is None


def test_the_post_alone_never_serves_a_unit_its_asking_sentence_is_far_from():
    from nztax.unit_match import AskingSentence

    m, at = _asked_matcher()
    far = AskingSentence("epsilon", np.array([0.0, 1.0, 0.0], dtype=np.float32), PLAIN)
    # The sentence sits far from both units (score under `asked_unit_min_score`) while the post is
    # right on unit b: no unit.
    assert m.match_asked([far], m.vectors[1]) is None


def test_of_several_asking_sentences_the_one_that_reads_as_a_unit_serves_it():
    from nztax.unit_match import AskingSentence

    m, at = _asked_matcher()
    vague = AskingSentence("epsilon", np.array([0.0, 0.0, 1.0], dtype=np.float32), PLAIN)
    clear = AskingSentence("zeta", m.vectors[0], PLAIN)
    for order in ([vague, clear], [clear, vague]):  # wherever the clear one stands
        found = m.match_asked(order, m.vectors[0])
        assert found is not None and found.unit.slug == "a" and found.sentence == "zeta"


def _agree_matcher() -> tuple[UnitMatcher, callable]:
    """Two units in 4-d; `near(cos, side)` is at cosine `cos` from unit `side`'s paraphrase (0 or 1)."""
    units = [Unit(question="alpha beta", slug="a", topic="t", topic_title="T", lead="A."),
             Unit(question="gamma delta", slug="b", topic="t", topic_title="T", lead="B.")]
    vectors = np.eye(4, dtype=np.float32)[:2]

    def near(cos: float, side: int) -> np.ndarray:
        v = np.zeros(4, dtype=np.float32)
        v[side], v[2 + side] = cos, np.sqrt(1 - cos * cos)
        return v

    settings = dataclasses.replace(get_settings(), asked_unit_min_score=0.85, asked_unit_margin=0.1, asked_unit_post_weight=1.0,
                                   asked_unit_agree_score=0.75, asked_unit_agree_post=0.7)
    return UnitMatcher(units, vectors, settings, read=lambda text: PLAIN), near


def test_an_asking_sentence_under_the_bar_is_served_only_when_the_whole_post_is_nearest_the_same_unit():
    from nztax.unit_match import AskingSentence

    m, near = _agree_matcher()
    sentence = AskingSentence("epsilon", near(0.8, 0), PLAIN)  # under asked_unit_min_score, nearest unit a
    found = m.match_asked([sentence], near(0.75, 0))  # the post nearest a too
    assert found is not None and found.unit.slug == "a"
    # The post nearest another unit, or too far from a: the readings do not agree, and 0.8 is under the bar.
    assert m.match_asked([sentence], near(0.75, 1)) is None
    assert m.match_asked([sentence], near(0.6, 0)) is None
    # Under the agreement's own bar, agreement does not serve it either.
    assert m.match_asked([AskingSentence("epsilon", near(0.7, 0), PLAIN)], near(0.9, 0)) is None


def test_a_sentence_read_with_the_post_s_opening_agrees_with_the_post_only_at_the_bar_of_one_alone():
    """Joined to the opening (leaning.py), a sentence overlaps the whole post: its agreeing with the
    whole post's nearest unit is no second reading, so it must score `asked_unit_min_score`."""
    from nztax.unit_match import AskingSentence

    m, near = _agree_matcher()
    read_alone = AskingSentence("epsilon", near(0.8, 0), PLAIN)
    read_with_opening = AskingSentence("epsilon", near(0.8, 0), PLAIN, read_as="omega epsilon")
    assert m.match_asked([read_alone], near(0.75, 0), story=False).unit.slug == "a"
    assert m.match_asked([read_with_opening], near(0.75, 0), story=False) is None
    assert m.match_asked([read_with_opening], near(0.75, 0), story=False, agreeing_only=frozenset({"epsilon"})) is None
    joined_high = AskingSentence("epsilon", near(0.9, 0), PLAIN, read_as="omega epsilon")
    assert m.match_asked([joined_high], near(0.75, 0), story=False).unit.slug == "a"


def test_a_sentence_read_as_written_keeps_the_unit_it_scored_from_one_read_with_the_opening():
    from nztax.unit_match import AskingSentence

    m, near = _agree_matcher()
    named = AskingSentence("epsilon", near(0.9, 0), PLAIN)
    leaning = AskingSentence("zeta", near(0.95, 0), PLAIN, read_as="omega zeta")
    for order in ([named, leaning], [leaning, named]):
        found = m.match_asked(order, near(0.75, 0))
        assert found is not None and found.sentence == "epsilon"


def test_a_post_of_two_sentences_is_served_by_its_asking_sentence_only_when_the_post_agrees():
    from nztax.unit_match import AskingSentence

    m, near = _agree_matcher()
    sentence = AskingSentence("epsilon", near(0.95, 0), PLAIN)
    # The condition sentence pulls the whole post to unit b: a story would be served a (0.95 clears
    # the bar and the sum leads), a post of two sentences is not.
    post = np.array([0.62, 0.75, np.sqrt(1 - 0.62 ** 2 - 0.75 ** 2), 0.0], dtype=np.float32)
    assert m.match_asked([sentence], post) is not None
    assert m.match_asked([sentence], post, story=False) is None
    assert m.match_asked([sentence], near(0.8, 0), story=False).unit.slug == "a"


def test_a_unit_the_whole_post_is_far_from_is_not_served():
    """A story about another subject can hold a sentence in a unit's words."""
    from nztax.unit_match import AskingSentence

    m, near = _agree_matcher()
    sentence = AskingSentence("epsilon", near(0.95, 0), PLAIN)
    assert m.match_asked([sentence], near(0.65, 0)) is not None
    assert m.match_asked([sentence], near(0.55, 0)) is None


def test_a_story_sentence_s_own_figures_do_not_keep_it_from_a_paraphrase_stating_none():
    """A sentence of a post carries the poster's figures; a paraphrase that states no figure still
    reads as it, while one stating another figure does not."""
    rules = default_rules()

    def read(text):
        return reading(read_slots(text, rules))

    units = [Unit(question="Is KiwiSaver deducted from a bonus?", slug="a", topic="t", topic_title="T", lead="A."),
             Unit(question="How much tax on a $80,000 bonus?", slug="b", topic="t", topic_title="T", lead="B.")]
    m = UnitMatcher(units, np.eye(2, dtype=np.float32), get_settings(), read=read)
    text = "My bonus is $85,000 this year: is KiwiSaver deducted from it?"
    vector = np.array([0.9, 0.9], dtype=np.float32) / np.sqrt(1.62)
    assert m.scores(text, vector, read(text)) == {}
    assert set(m.scores(text, vector, read(text), story_figures=True)) == {0}


def test_a_sentence_held_to_agreement_serves_only_the_unit_the_whole_post_is_nearest_too():
    """A sentence read unsurely, or asking a figure of the poster's own (unit_choice.py), counts only
    for the unit it and the whole post are both nearest: the same sentence, clear of the bar, that a
    story leaning elsewhere would be served on its own, is then not."""
    from nztax.unit_match import AskingSentence

    m, near = _agree_matcher()
    sentence = AskingSentence("epsilon", near(0.95, 0), PLAIN)
    leaning_to_b = np.array([0.62, 0.75, np.sqrt(1 - 0.62 ** 2 - 0.75 ** 2), 0.0], dtype=np.float32)
    assert m.match_asked([sentence], leaning_to_b).unit.slug == "a"
    assert m.match_asked([sentence], leaning_to_b, agreeing_only=frozenset({"epsilon"})) is None
    assert m.match_asked([sentence], near(0.8, 0), agreeing_only=frozenset({"epsilon"})).unit.slug == "a"
    # The post nearest unit a, but under the agreement's least cosine: no agreement.
    assert m.match_asked([sentence], near(0.65, 0), agreeing_only=frozenset({"epsilon"})) is None


def test_a_situation_unit_both_readings_are_nearest_needs_no_margin_only_when_asked_so():
    """Two units for one situation, the sentence and the post each a little nearer unit a: under the
    margin it is not served; with `agreed_margin` 0 it is, and never when the post is nearer unit b."""
    from nztax.unit_match import AskingSentence

    m, near = _agree_matcher()
    sentence = [AskingSentence("epsilon", np.array([0.72, 0.68, np.sqrt(1 - 0.72 ** 2 - 0.68 ** 2), 0.0], dtype=np.float32), PLAIN)]
    post_a = np.array([0.71, 0.69, np.sqrt(1 - 0.71 ** 2 - 0.69 ** 2), 0.0], dtype=np.float32)
    assert m.match_situation(sentence, post_a, [0, 1]) is None
    assert m.match_situation(sentence, post_a, [0, 1], agreed_margin=0.0).unit.slug == "a"
    post_b = np.array([0.695, 0.70, np.sqrt(1 - 0.695 ** 2 - 0.70 ** 2), 0.0], dtype=np.float32)
    assert m.match_situation(sentence, post_b, [0, 1], agreed_margin=0.0) is None


def test_a_declined_post_s_asking_sentence_needs_the_strict_score_and_twice_the_margin():
    """A post the engine would decline: its asking sentence serves a unit only at
    `asked_unit_over_decline` (not at the usual bar, nor by agreement alone) and twice the margin."""
    from nztax.unit_match import AskingSentence

    m, near = _agree_matcher()
    m.settings = dataclasses.replace(m.settings, asked_unit_over_decline=0.95)
    post = near(0.75, 0)  # the whole post nearest unit a too: the two readings agree
    usual = AskingSentence("epsilon", near(0.9, 0), PLAIN)  # over the usual bar, under the strict one
    assert m.match_asked([usual], post) is not None
    assert m.match_asked([usual], post, declined=True) is None
    plain = AskingSentence("epsilon", near(0.98, 0), PLAIN)
    found = m.match_asked([plain], post, declined=True)
    assert found is not None and found.unit.slug == "a"
    # Leading the next unit by the margin, but not by twice it: no unit for the declined post.
    m.settings = dataclasses.replace(m.settings, asked_unit_margin=1.0)  # (a leads by 1.73: nothing else is near)
    assert m.match_asked([plain], post) is not None
    assert m.match_asked([plain], post, declined=True) is None


def test_a_negation_outside_the_asked_clause_does_not_keep_a_question_from_a_plain_paraphrase():
    """A negation denies only its own clause: a story clause "without filing a return" before the
    asked "- is it still due?" reads as asking plainly too, while a negation in the asked clause still
    reads as negated (unit_match.negated_where_asked)."""
    rules = default_rules()

    def read(text):
        return reading(read_slots(text, rules))

    units = [Unit(question="Is the donation rebate still due?", slug="a", topic="t", topic_title="T", lead="A.")]
    m = UnitMatcher(units, np.eye(1, dtype=np.float32), get_settings(), read=read)
    vector = np.array([1.0], dtype=np.float32)
    outside = "I gave to a charity without keeping the receipt - is the rebate still due?"
    assert set(m.scores(outside, vector, read(outside))) == {0}
    inside = "I gave to a charity and kept the receipt - is the rebate not due then?"
    assert m.scores(inside, vector, read(inside)) == {}
    unasked = "I gave to a charity without keeping the receipt. The rebate is still due."
    assert m.scores(unasked, vector, read(unasked)) == {}


def test_the_smaller_margin_is_only_for_a_unit_the_caller_lets_answer_there():
    """`near(unit)` decides which unit may answer at the lower bar (unit_choice: one asking what the
    question asks); another unit as clear of the rest still needs the usual bar."""
    m, q = matcher(0.85, 0.65)
    assert m.match("epsilon", q, PLAIN, near=lambda u: u.slug == "a").unit.slug == "a"
    assert m.match("epsilon", q, PLAIN, near=lambda u: u.slug != "a") is None


def _read(text):
    return reading(read_slots(text, default_rules()))


def test_a_question_naming_no_figure_or_period_reads_as_a_paraphrase_naming_a_period():
    """A period sets figures apart: asked with no figure and no period, the rule is asked whatever
    period the unit's wording names. A question naming another period still does not read as it."""
    units = [Unit(question="Is there a yearly charge on my widget loan?", slug="a", topic="t", topic_title="T", lead="A.")]
    question = np.array([1.0, 0.0, 0.0], dtype=np.float32)
    near = np.array([[0.95, np.sqrt(1 - 0.95 ** 2), 0.0]], dtype=np.float32)
    settings = dataclasses.replace(get_settings(), unit_min_score=1.0, unit_margin=0.1, unit_alone_score=0.8,
                                   unit_alone_margin=0.3)
    m = UnitMatcher(units, near, settings, read=_read)
    assert _read(units[0].question).asked_period == "annual"
    plain = "Is there a charge on my widget loan?"
    assert m.scores(plain, question, _read(plain))
    found = m.match(plain, question, _read(plain))
    assert found is not None and found.unit.slug == "a"
    monthly = "Is there a monthly charge on my widget loan?"
    assert _read(monthly).asked_period == "monthly"
    assert m.scores(monthly, question, _read(monthly)) == {}
