"""Figures inside a quoted or hypothetical example: whose they are not.

In: a question's cleaned text. Out: `example_spans(text)`, the (start, end) spans of the text that
quote or set up an example — IRD's, an employer's, a calculator's, or one the poster imagines for
someone else ("for example, if you earn $60,000 …", "say someone earns …", "the calculator showed
…") — and `in_example(spans, start)`. Each span runs from the words that open the example
(`example_openers` in data/cue_words.yaml) to the end of its sentence.

A figure in an example is nobody's income to work on: the frame gives it the owner `example`
(frame.EXAMPLE_OWNER), and the decision table never calculates on it — unless the sentence that
asks holds the example itself ("if someone earns $70,000, how much tax do they pay?") or asks
after it about its person ("… What do they pay?"): then the question asks for that example worked out. An example the poster tells about themselves ("say I
earn …", "for example, my partner …") is their own: the words after the opener are first person.
"""

from __future__ import annotations

import re

from nztax.cue_words import cue
from nztax.sentences import asking_spans, sentence_spans

OPENERS = cue("example_openers")
# The first words after an opener: an example told in the first person is the asker's own.
# An asking sentence that speaks of a third person speaks of the example's ("… do they pay?").
BACK_TO_THE_EXAMPLE = re.compile(r"\b(?:they|them|their|he|she|his|her|that person|this person)\b", re.I)
FIRST_PERSON = re.compile(r"^[\s,:;-]*(?:that\s+|if\s+|,\s*)?(?:i|i'm|i've|i'd|we|we're|we've|my|our|me|us)\b", re.I)


def example_spans(text: str) -> list[tuple[int, int]]:
    """The spans of the text that set out an example, opener to the end of its sentence."""
    ends = [e for _, e in sentence_spans(text)]
    out: list[tuple[int, int]] = []
    for m in OPENERS.finditer(text):
        if FIRST_PERSON.match(text[m.end():]):
            continue
        # The sentence the example runs to the end of: the first that ends after the opener itself
        # (an abbreviation's stops, "e.g.", end no sentence of their own).
        end = next((e for e in ends if e > m.end() + 1), len(text))
        if out and m.start() <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((m.start(), end))
    return out


def example_asked(text: str, span: tuple[int, int], asked: list[tuple[int, int]]) -> bool:
    """Whether the question asks for this example worked out: an asking sentence holds it, or one
    after it asks about its person ("say someone earns $120,000. What rate is their top dollar taxed at?")."""
    return any(a <= span[0] < b or (a >= span[1] and BACK_TO_THE_EXAMPLE.search(text[a:b])) for a, b in asked)


def example_figure_starts(text: str, starts: list[int]) -> set[int]:
    """Of the figures starting at `starts`, those inside an example the question does not ask to have worked out."""
    asked = asking_spans(text)
    spans = [sp for sp in example_spans(text) if not example_asked(text, sp, asked)]
    return {s for s in starts if any(a <= s < b for a, b in spans) and not any(a <= s < b for a, b in asked)}
