"""A unit's kind of answer must fit what the question asks (unit_kind.py): a yes-or-no unit is no
answer to a question asking for a figure (or anything but whether) unless its opening states a
figure; and
when the best unit does not fit, the next that fits is served, or none."""

from __future__ import annotations

import dataclasses

import numpy as np

from nztax.rules import default_rules
from nztax.settings import get_settings
from nztax.slots import read_slots, reading
from nztax.unit_kind import UnitKinds, states_figure
from nztax.unit_match import UnitMatcher
from nztax.units import Unit

PLAIN = reading(read_slots("epsilon", default_rules()))


class Reader:
    """A frame model stand-in reading every wording of a unit by a table keyed on its question."""

    def __init__(self, kinds: dict[str, tuple[str, float]]):
        self.kinds, self.calls = kinds, 0

    def asks_together(self, sentences):
        self.calls += 1
        return self.kinds[sentences[0]]


def unit(question: str, lead: str, slug: str = "u") -> Unit:
    return Unit(question=question, slug=slug, topic="t", topic_title="T", lead=lead)


WHETHER = unit("must I use method alpha", "Not always: alpha or beta can be used, depending on the holding.", "whether")
WHETHER_WITH_FIGURE = unit("is alpha a tax", "No. Alpha treats {fdr_rate} of the opening value as income.", "whether-figure")
WHAT = unit("what is alpha", "Alpha is a way of working out income from a holding.", "what")
HOW_MUCH = unit("how much is alpha", "Alpha is {fdr_rate} of the opening value.", "how-much")


def kinds() -> UnitKinds:
    return UnitKinds(Reader({"must I use method alpha": ("how", 0.4), "is alpha a tax": ("yes_no", 0.9),
                             "what is alpha": ("figure", 0.9), "how much is alpha": ("figure", 0.95)}), bar=0.7)


def test_a_lead_opening_with_an_answer_word_is_a_yes_or_no_answer_whatever_its_question_reads():
    k = kinds()
    assert k.kind(WHETHER) == "yes_no" and k.kind(WHAT) == "figure"


def test_the_opening_sentence_states_a_figure_by_placeholder_or_number_not_by_the_year():
    assert states_figure("No. Alpha treats {fdr_rate} of the value as income. More.")
    assert states_figure("It changed on 31 July 2024.")
    assert not states_figure("In {year} the rule is as it was. It is {fdr_rate} now.")
    assert not states_figure(WHETHER.lead)


def test_a_figure_question_is_not_served_a_yes_or_no_unit_without_a_figure():
    k = kinds()
    assert not k.fits(WHETHER, "figure", 0.9, "What is alpha?")
    assert k.fits(WHETHER_WITH_FIGURE, "figure", 0.9)   # its opening states the figure
    assert k.fits(HOW_MUCH, "figure", 0.9) and k.fits(WHETHER, "yes_no", 0.9, "Must I use alpha?")


def test_a_yes_or_no_question_may_be_served_a_unit_saying_what():
    # (Its lead often answers without a "Yes": "Does my partner's income count?" - "Your income and
    # your partner's, added together".)
    assert kinds().fits(WHAT, "yes_no", 0.9, "Is alpha a way of working out income?")


def test_a_figure_question_is_not_served_a_unit_whose_wordings_read_surely_as_whether():
    whether_by_reading = unit("should I pick alpha", "Alpha suits a holding bought to keep.", "pick")
    k = UnitKinds(Reader({"should I pick alpha": ("yes_no", 0.9)}), bar=0.7)
    assert not k.fits(whether_by_reading, "figure", 0.9, "What is alpha?")
    assert k.fits(whether_by_reading, "how", 0.9, "How does alpha work?")


def test_a_whether_unit_is_refused_where_the_likeliest_reading_is_a_figure_unless_grammar_asks_whether():
    k = kinds()
    assert not k.fits(WHETHER, "figure", 0.5, "What's alpha for my holding?")       # unsure, still a figure
    assert k.fits(WHETHER, "figure", 0.5, "Must I use method alpha for my holding?")  # an auxiliary opens it
    assert k.fits(WHETHER, "how", 0.9, "what methods can I use for alpha")
    assert k.fits(WHETHER, "figure", 0.5, "alpha method holding")                     # a search, unsure
    assert k.fits(WHETHER, "figure", 0.9, "alpha method holding")                     # a search, even sure
    assert k.fits(WHETHER, "yes_no", 0.9, "alpha for me or not")


def test_an_unsure_reading_refuses_nothing():
    unsure = UnitKinds(Reader({"should I pick alpha": ("yes_no", 0.5)}), bar=0.7)
    assert unsure.fits(unit("should I pick alpha", "Alpha suits a holding.", "pick"), "figure", 0.9, "What is alpha?")
    assert kinds().fits(WHAT, "figure", 0.5, "alpha?")


def test_a_units_kind_is_read_once():
    k = kinds()
    for _ in range(3):
        k.fits(WHAT, "figure", 0.9)
    assert k.model.calls == 1


def _matcher(units: list[Unit], cosines: list[float]) -> tuple[UnitMatcher, np.ndarray]:
    question = np.array([1.0, 0.0, 0.0], dtype=np.float32)
    rows = [np.array([c, np.sqrt(1 - c * c), 0.0], dtype=np.float32) for c in cosines]
    settings = dataclasses.replace(get_settings(), unit_min_score=1.0, unit_margin=0.1,
                                   unit_alone_score=0.8, unit_alone_margin=0.3, intent_lexical_weight=0.0)
    return UnitMatcher(units, np.stack(rows), settings, read=lambda text: PLAIN), question


def test_when_the_best_unit_does_not_fit_the_next_that_fits_is_served():
    k = kinds()
    m, q = _matcher([WHETHER, HOW_MUCH], [0.95, 0.9])
    assert m.match("epsilon", q, PLAIN) is None  # too close to call between the two
    found = m.match("epsilon", q, PLAIN, allowed=lambda u: k.fits(u, "figure", 0.9, "What is alpha?"))
    assert found is not None and found.unit is HOW_MUCH


def test_when_no_unit_fits_none_is_served():
    k = kinds()
    m, q = _matcher([WHETHER, WHAT], [1.0, 0.2])
    assert m.match("epsilon", q, PLAIN) is not None
    assert m.match("epsilon", q, PLAIN, allowed=lambda u: k.fits(u, "figure", 0.9, "What is alpha?")) is None


def test_scores_computed_once_are_decided_alike():
    m, q = _matcher([WHETHER, HOW_MUCH], [1.0, 0.2])
    scores = m.scores("epsilon", q, PLAIN)
    assert m.match("epsilon", q, PLAIN, scores=scores) == m.match("epsilon", q, PLAIN)
    assert m.by_id[HOW_MUCH.id] is HOW_MUCH


def test_the_lower_unit_bar_is_not_for_a_verdict_to_a_question_asking_something_else():
    """unit_choice.choose: against the engine's stock answer a unit whose wordings ask whether does
    not answer at the lower bar a question read surely as asking how, which or for a figure; a check
    ("Is that right?") is answered by a verdict, and a reading under the bar settles nothing."""
    k = kinds()
    assert k.answers_near(WHETHER, "yes_no", 0.9, 0.5) and k.answers_near(WHETHER, "check", 0.9, 0.5)
    assert not k.answers_near(WHETHER, "how", 0.9, 0.5)  # how to tell, answered "Not always": a neighbour's
    assert not k.answers_near(WHETHER, "which", 0.6, 0.5)
    assert k.answers_near(WHETHER, "how", 0.4, 0.5)  # read too unsurely to refuse it
    assert k.answers_near(WHAT, "how", 0.9, 0.5) and k.answers_near(WHAT, "yes_no", 0.9, 0.5)
