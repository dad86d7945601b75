"""The unit matcher's rule for serving a unit: a clear best by score and margin, or one that no
other unit comes near at a lower score."""

from __future__ import annotations

import dataclasses

import numpy as np

from nztax.rules import default_rules
from nztax.settings import get_settings
from nztax.slots import read_slots, reading
from nztax.unit_match import UnitMatcher
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
                                   unit_alone_score=0.8, unit_alone_margin=0.3)
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
