"""What kind of answer a unit gives, and whether it fits what a question asks.

In: a unit (its question, paraphrases and lead), the frame model (frame_model.py, the reader that
reads what a user's question asks) and what the question asks with how sure that reading is. Out:
`UnitKinds.kind(unit)` -> one of frame.ASK_KINDS; `UnitKinds.fits(unit, asks, sure, question)` -> bool;
`UnitKinds.answers_near(unit, asks, sure, bar)` -> bool (the lower unit bar, unit_choice.py).

A unit answering whether ("Must I use the fair dividend rate method?", "Not always: …") is no
answer to a question asking for a figure ("What is the fair dividend rate?"), unless the unit's
opening sentence states a figure itself (then it answers both: "No. The method treats 5% of the
opening value as income"). The reverse (a unit saying what, to a yes-or-no question) is not
refused: such a lead often answers the question without a "Yes".
A unit's kind is read by the same frame model that reads the user's question, over its question and
every paraphrase together (one wording may read unsurely where the others agree); a lead that opens
with an answer word ("Yes", "No", "Not always") is a yes-or-no answer whatever its question reads.
Read on first need and kept per unit: a few sentences when a unit is about to be served.
"""

from __future__ import annotations

import re

from nztax.cue_words import alternatives
from nztax.units import Unit, asks_yes_or_no, placeholders
from nztax.lead_choice import lead_sentences

# A lead opening with one of these answers whether, not what.
ANSWER_WORD = re.compile(r"^(?:Yes|No|Not)\b")
# A question asking what, which, how much or when (not whether): an unsure figure reading of it is
# still a figure question, while a keyword search read as a figure may be any question
# (data/cue_words.yaml, content_question_openers).
CONTENT_QUESTION = re.compile(r"^(?:" + alternatives("content_question_openers") + r")\b", re.I)
# Placeholders that name no figure: the year the answer is for, the code the unit is about.
NOT_FIGURES = frozenset({"year", "code"})
DIGIT = re.compile(r"\d")
# (what the question asks, what the unit answers) that do not fit unless the unit's opening states a
# figure. Not the reverse, a yes-or-no question and a unit saying what: a yes-or-no question whether
# something counts is answered by the unit saying what counts, whose lead answers it.
EXCLUSIVE = {("figure", "yes_no")}
# What a question asks, read as the kind a unit's wordings ask that answers it alike: a check ("Is
# that right?") is answered by a verdict, as a yes-or-no question is.
ASKED_AS = {"check": "yes_no"}


def opening_sentence(lead: str) -> str:
    """The lead's first sentence, a bare "Yes." or "No." kept with the sentence after it."""
    parts = lead_sentences(lead or "")
    return parts[0] if parts else ""


def states_figure(lead: str | None) -> bool:
    """Whether the lead's opening sentence states a figure: a rules placeholder or a number."""
    first = opening_sentence(lead or "")
    return bool(placeholders(first) - NOT_FIGURES) or bool(DIGIT.search(_without_placeholders(first)))


def _without_placeholders(text: str) -> str:
    return re.sub(r"\{[^}]*\}", "", text)


class UnitKinds:
    def __init__(self, frame_model, bar: float):
        """`frame_model`: the reader of what a question asks (`asks_together`); `bar`: how sure a
        reading must be (settings.frame_bar) for a kind to refuse a unit."""
        self.model = frame_model
        self.bar = bar
        self._kinds: dict[str, tuple[str, float]] = {}

    def reading(self, unit: Unit) -> tuple[str, float]:
        if unit.id not in self._kinds:
            if ANSWER_WORD.match((unit.lead or "").strip()):
                self._kinds[unit.id] = ("yes_no", 1.0)
            else:
                self._kinds[unit.id] = self.model.asks_together(list(unit.paraphrases))
        return self._kinds[unit.id]

    def kind(self, unit: Unit) -> str:
        return self.reading(unit)[0]

    def answers_near(self, unit: Unit, asks: str | None, sure: float, bar: float) -> bool:
        """Whether the unit may answer at the lower unit bar (unit_choice.choose) a question read as
        asking `asks`, `sure` sure. A unit whose wordings ask whether (its lead a verdict) near a
        question read at least `bar` sure as asking how, which, why or for a figure is most often
        its neighbour's on the same subject: its "Yes" or "Not if" answers another question. A
        question read less surely (a search of a few words) may still ask whether."""
        if self.kind(unit) != "yes_no":
            return True
        return asks is None or ASKED_AS.get(asks, asks) == "yes_no" or sure < bar

    def fits(self, unit: Unit, asks: str | None, sure: float, question: str = "") -> bool:
        """Whether the unit may answer `question`, read as asking `asks`, `sure` sure. A unit whose
        opening states a figure answers any question. One whose lead answers whether does not answer
        a content question ("What …", "How much …") whose likeliest frame reading is a figure, however
        sure ("What's the fair dividend rate for FIF income?" reads a figure only 0.55 sure); a
        keyword search read as a figure may be answered by "Not always: …", as the unit's own
        wordings say. A unit whose wordings read surely as asking whether does not answer
        a question read surely as asking for a figure."""
        if states_figure(unit.lead):
            return True
        sure_reading = asks if asks is not None and sure >= self.bar else None
        if ANSWER_WORD.match((unit.lead or "").strip()):
            return not (asks == "figure" and CONTENT_QUESTION.match(question.strip()) and not asks_yes_or_no(question))
        if sure_reading != "figure":
            return True  # (no kind excludes it: the unit's own reading is not needed)
        kind, kind_sure = self.reading(unit)
        return not ((sure_reading, kind) in EXCLUSIVE and kind_sure >= self.bar)
