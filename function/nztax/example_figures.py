"""Figures inside a quoted or hypothetical example: whose they are not.

In: a question's cleaned text. Out: `example_spans(text)`, the spans of the text that quote an
example (IRD's, an employer's, a calculator's: "for example, if you earn $60,000 …", "the calculator
showed …") or suppose a case for someone else ("say someone earns …"), and
`example_figure_starts(text, starts)`, which of the figures at `starts` lie in one the question does
not ask to have worked out. Each span runs from the words that open the example (`example_quoted`
and `example_supposed` in data/cue_words.yaml) to the end of its sentence.

A figure in an example is nobody's income to work on: the frame gives it the owner `example`
(frame.EXAMPLE_OWNER), and the decision table never calculates on it — unless the sentence that
asks holds the example itself ("if someone earns $70,000, how much tax do they pay?") or, after a
supposed case, asks for a figure without a figure of its own or the asker's own words ("say you earn
$58,000. How much levy is that?"): then the question asks for that example worked out. An example
the poster tells about themselves ("say I earn …", "for example, my partner …") is their own: the
words after the opener are first person.
"""

from __future__ import annotations

import re

from nztax.cue_words import cue
from nztax.sentences import asking_spans, sentence_spans
from nztax.literal_screen import screen_patterns

QUOTED = cue("example_quoted")
SUPPOSED = cue("example_supposed")
# An asking sentence after a supposed case that asks for a figure, naming none, asks for it
# worked out, unless it names a figure of its own or speaks of the asker.
FIGURE_ASKED = cue("example_figure_asked")
OWN_FIGURE = re.compile(r"[$€£]\s?\d|\b\d[\d,.]*\s?k\b", re.I)
# The asker's own words (a contraction, "I'm", "we've", starts with one of them).
ASKER_WORDS = r"(?:i|me|my|we|us|our)\b"
ASKER = re.compile(r"\b" + ASKER_WORDS, re.I)
LOWER_CASE_NEXT = re.compile(r"\s+[a-z]")
# An opener written as a heading: in brackets or before a colon.
HEADING = re.compile(r"^\(|:$")
# The first words after an opener: an example told in the first person is the asker's own.
FIRST_PERSON = re.compile(r"^[\s,:;-]*(?:that\s+|if\s+|,\s*)?" + ASKER_WORDS, re.I)


def example_spans(text: str) -> list[tuple[int, int, bool]]:
    """The spans of the text that set out an example, opener to the end of its sentence, each with
    whether it is quoted from elsewhere (True) or a case the poster supposes (False)."""
    # (A stop with a lower-case word after it, "approx. half", is an abbreviation's, not a sentence's end.)
    ends = [e for _, e in sentence_spans(text) if not LOWER_CASE_NEXT.match(text, e)]
    openers = sorted([(m, True) for m in QUOTED.finditer(text)] + [(m, False) for m in SUPPOSED.finditer(text)],
                     key=lambda o: o[0].start())
    out: list[tuple[int, int, bool]] = []
    for m, quoted in openers:
        if FIRST_PERSON.match(text[m.end():]):
            continue
        # The sentence the example runs to the end of: the first that ends after the opener itself
        # (an abbreviation's stops, "e.g.", end no sentence of their own).
        end = next((e for e in ends if e > m.end() + 1), len(text))
        if HEADING.search(m.group(0)):
            # An example set out under its own heading ("(Example)", "Example:") runs on over the sentences
            # after it, a worked table's rows and sums, until one in the poster's own words.
            end = next((a for a, b in sentence_spans(text) if a >= end and ASKER.search(text[a:b])), len(text))
        if out and m.start() <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end), out[-1][2] or quoted)
        else:
            out.append((m.start(), end, quoted))
    return out


def example_asked(text: str, span: tuple[int, int, bool], asked: list[tuple[int, int]]) -> bool:
    """Whether the question asks for this example worked out: an asking sentence holds it; or, after a
    supposed case (not a quoted one, whose figure questions are about the rule), one asks for a figure,
    naming none of its own and not the asker's ("say you earn $58,000 in wages. How much levy is
    that?"; not "… I earn $71,000. How much tax will I pay?")."""
    start, end, quoted = span

    def asks_it_worked_out(sentence: str) -> bool:
        return bool(FIGURE_ASKED.search(sentence)) and not OWN_FIGURE.search(sentence) and not ASKER.search(sentence)

    return any(a <= start < b or (not quoted and a >= end and asks_it_worked_out(text[a:b])) for a, b in asked)


def example_figure_starts(text: str, starts: list[int]) -> set[int]:
    """Of the figures starting at `starts`, those inside an example the question does not ask to have worked out."""
    asked = asking_spans(text)
    spans = [sp for sp in example_spans(text) if not example_asked(text, sp, asked)]
    return {s for s in starts if any(a <= s < b for a, b, _ in spans) and not any(a <= s < b for a, b in asked)}


screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
