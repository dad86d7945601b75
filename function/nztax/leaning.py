"""An asking sentence that leans on its story, and the text it is read as.

In: a post's frame (its asking sentences), the post, and whether a sentence reads as a unit on its
own. Out: `with_readings(...)` -> the frame with `asking_read`: each asking sentence as the engine
reads it against answer units and intents, the post's opening sentence (its title or first line)
joined to one that leans on the story, the sentence itself otherwise.

A real post often asks with a sentence that names nothing ("Is that right?", "How does it work?",
"Why?"): read alone it is near no unit and no intent, or near one that happens to share its few
generic words ("Do I pay tax on that?" reads as paying a tax bill), and a passage sentence chosen for
its words answers another question. Such a sentence is marked by its form, not its topic
(`leans_back`): it carries at most `POINTING_WORDS` content words (`understand.words`) and points
back (`points_back` in data/cue_words.yaml: "it", "this", "they" as its subject or its last word), or
at most `FEW_WORDS` and no unit is near it on its own ("Why?", "What is the catch?").
The opening is where a post names its subject (a title) and the sentence says what is asked of it;
the sentence just before the question more often tells the poster's own circumstances (docs/units.md). The joined reading goes through the same bars as any asking sentence, so a
story about something else is still held off by the whole post's distance to a unit.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from nztax.cue_words import cue
from nztax.sentences import sentences
from nztax.understand import words

# At most this many content words and a sentence carries too little to be read on its own; a sentence
# whose subject points back, at most `POINTING_WORDS` (a longer one names what it asks about itself:
# "Would it be better to pay off my student loan early or invest?" only opens with a dummy "it").
FEW_WORDS = 2
POINTING_WORDS = 4


@lru_cache(maxsize=1)
def _points_back():
    return cue("points_back")


def leans_back(sentence: str, reads_alone=None) -> bool:
    """Whether an asking sentence leans on its story: it names little and points back, or it names
    almost nothing and `reads_alone(sentence)` (whether some unit is near it on its own: "Can we get
    FamilyBoost?" names its topic in two words) says no."""
    named = len(words(sentence))
    if named <= POINTING_WORDS and _points_back().search(sentence):
        return True
    return named <= FEW_WORDS and reads_alone is not None and not reads_alone(sentence)


def opening_of(post: str, sentence: str) -> str | None:
    """The post's opening sentence (its title or first line), when it is not the sentence itself."""
    first = (sentences(post) or [""])[0].strip()
    return first if first and first != sentence.strip() else None


def read_as(post: str, sentence: str, reads_alone=None) -> str:
    """The text an asking sentence is read as: the post's opening and the sentence when the sentence
    leans on the story (`leans_back`), else the sentence."""
    opening = opening_of(post, sentence)
    return f"{opening} {sentence}" if opening and leans_back(sentence, reads_alone) else sentence


def with_readings(frame, post: str, reads_alone=None, scope_reading=None):
    """The frame with `asking_read` (each asking sentence as read, `read_as`) when one leans on the story,
    and its asked scope read with the opening when every asking sentence names almost nothing (`asked_scope`)."""
    # (Both readings may ask the units of one sentence up to three times: each is an embedding and a match.)
    reads_alone = lru_cache(maxsize=None)(reads_alone) if reads_alone is not None else None
    read = tuple(read_as(post, s, reads_alone) for s in frame.asking)
    frame = replace(frame, asking_read=read) if read != tuple(frame.asking) else frame
    return asked_scope(frame, post, reads_alone, scope_reading)


def names_almost_nothing(sentence: str, reads_alone=None) -> bool:
    """Whether an asking sentence says nothing of what it asks about: it leans on the story (`leans_back`),
    or it carries at most `POINTING_WORDS` content words and no unit is near it on its own (a bare request
    for advice, a choice between two names). Only what the question is about is read with it; a unit is chosen
    on a sentence that leans back only (a short request may still name its subject to a unit)."""
    return leans_back(sentence, reads_alone) or (
        reads_alone is not None and len(words(sentence)) <= POINTING_WORDS and not reads_alone(sentence))


def asked_scope(frame, post: str, reads_alone=None, scope_reading=None):
    """The frame with its asked scope (`asked_scope_in`, `asked_scope_other`) read on the post's opening
    joined to its asking sentences, when every one of them names almost nothing (`names_almost_nothing`).
    Read alone, such sentences are no subject in particular, often advice of another kind; what is asked
    still decides the post's scope, but with what it refers to. One asking sentence that names its own
    subject keeps the reading of the sentences as written, and so does a joined reading less sure of
    New Zealand tax than the sentences alone."""
    opening = opening_of(post, frame.asking[0]) if frame.asking else None
    if (scope_reading is None or frame.asked_scope_in is None or not opening
            or not all(names_almost_nothing(s, reads_alone) for s in frame.asking)):
        return frame
    _, _, scope_in, other = scope_reading(" ".join((opening, *frame.asking)))
    # Only to keep a request from turning a tax story away: an opening read as another subject (a
    # belief about a scheme stated first) does not make the request that subject's.
    return replace(frame, asked_scope_in=scope_in, asked_scope_other=other) if scope_in > frame.asked_scope_in else frame
