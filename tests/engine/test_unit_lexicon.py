"""The units' BM25 index (unit_lexicon.py) and the whole-story choice it serves
(`UnitMatcher.match_topic`): a word few units use weighs more than one most use, and a story gets a
unit only when its meaning and its topic words agree on it."""

from __future__ import annotations

import dataclasses

import numpy as np

from nztax.settings import get_settings
from nztax.unit_lexicon import UnitLexicon
from nztax.unit_match import UnitMatcher
from nztax.units import Unit


def unit(slug: str, question: str, *also: str) -> Unit:
    return Unit(question=question, slug=slug, topic="t", topic_title="T", also=also, lead=f"{slug}.")


UNITS = [unit("pie", "Is a PIE fund taxed at my PIR?", "PIE fund tax rate"),
         unit("rwt", "What RWT rate is taken from my interest?", "interest tax rate"),
         unit("code", "Which tax code do I use?", "my tax code"),
         unit("rate", "What is my tax rate?", "tax rate on my pay")]


def test_a_word_few_units_use_outweighs_one_most_use():
    scores = UnitLexicon(UNITS).scores("pie tax")
    assert scores[0] > scores[3]  # "pie" is in one unit's wordings, "tax" in all
    alone = UnitLexicon(UNITS).scores("tax")
    assert max(alone) < scores[0]


def test_the_order_and_repetition_of_a_text_s_words_do_not_change_its_scores():
    lexicon = UnitLexicon(UNITS)
    assert np.allclose(lexicon.scores("my PIE fund and its rate"), lexicon.scores("Rate? Its fund, my PIE. PIE PIE."))


def test_a_text_sharing_no_word_scores_nothing():
    assert not UnitLexicon(UNITS).scores("neighbour dog barks").any()


def matcher(cosines: list[float]) -> tuple[UnitMatcher, np.ndarray]:
    """The units above, one vector per paraphrase, each at the given cosine from the post's vector."""
    post = np.eye(8, dtype=np.float32)[0]
    rows = []
    for i, u in enumerate(UNITS):
        for _ in u.paraphrases:
            other = np.eye(8, dtype=np.float32)[i + 1]
            rows.append(cosines[i] * post + np.sqrt(1 - cosines[i] ** 2) * other)
    settings = dataclasses.replace(get_settings(), unit_topic_lexical_weight=0.15, unit_topic_margin=0.0,
                                   asked_unit_post_least=0.6)
    return UnitMatcher(UNITS, np.stack(rows), settings, read=lambda text: None), post


STORY = "I put my savings into a PIE fund last year. My brother said something else. Is that right?"


def test_a_story_whose_meaning_and_topic_words_agree_gets_that_unit():
    m, post = matcher([0.72, 0.65, 0.5, 0.6])
    found = m.match_topic(STORY, post)
    assert found is not None and found.unit.slug == "pie"


def test_no_unit_when_the_nearest_in_meaning_is_not_the_nearest_in_words():
    m, post = matcher([0.66, 0.72, 0.5, 0.6])
    assert m.match_topic(STORY, post) is None


def test_no_unit_when_the_story_is_far_from_it_or_it_may_not_answer():
    m, post = matcher([0.55, 0.4, 0.3, 0.3])
    assert m.match_topic(STORY, post) is None  # under asked_unit_post_least
    m, post = matcher([0.72, 0.65, 0.5, 0.6])
    assert m.match_topic(STORY, post, allowed=lambda u: u.slug != "pie") is None  # not the next in its place


def test_no_unit_when_no_word_of_the_story_names_one():
    m, post = matcher([0.72, 0.65, 0.5, 0.6])
    assert m.match_topic("My neighbour's dog barks. Is that right?", post) is None


def test_no_unit_whose_question_states_a_figure_of_its_own():
    """A story names figures of its own (a salary, a threshold, someone else's pay): a unit worked on
    one stated figure would answer for a figure the story may not be asking about."""
    from functools import partial

    from nztax.engine import _reading_of  # the reading the engine gives the matcher
    from nztax.rules import load_rules

    figured = [unit("pie", "Is a PIE fund taxed at my PIR on $70,000?", "PIE fund tax rate on a $70,000 salary"), *UNITS[1:]]
    post = np.eye(8, dtype=np.float32)[0]
    rows = [0.72 * post + np.sqrt(1 - 0.72 ** 2) * np.eye(8, dtype=np.float32)[1]] * 2
    rows += [c * post + np.sqrt(1 - c ** 2) * np.eye(8, dtype=np.float32)[i + 2] for i, c in enumerate([0.65, 0.5, 0.6])
             for _ in range(2)]
    settings = dataclasses.replace(get_settings(), unit_topic_lexical_weight=0.15, unit_topic_margin=0.0,
                                   asked_unit_post_least=0.6)
    read = partial(_reading_of, load_rules())
    m = UnitMatcher(figured, np.stack(rows), settings, read=read)
    assert m.states_figures(figured[0]) and not m.states_figures(figured[1])
    assert m.match_topic(STORY, post) is None
    plain = UnitMatcher(UNITS, np.stack(rows), settings, read=read)
    found = plain.match_topic(STORY, post)
    assert found is not None and found.unit.slug == "pie"
