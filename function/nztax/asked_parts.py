"""The other parts a post asks: a short paragraph for each asking sentence the first paragraph does
not answer, from the answer unit that sentence alone is served.

In: the engine (its unit matcher, the kinds of answer units give, the rules), the settled decision,
the post's frame and vector, and the answer composed for it. Out: `add(...)` -> the answer with a
paragraph per other asked part after its first paragraph, each citing its unit's source.

A post of two or more asking sentences ("What happens to my KiwiSaver at 65? Can I move it to a
trust?") is answered by one opening: a unit matched on one sentence, or the engine's answer to the
whole post. Each other sentence read at least `settings.asked_part_bar` sure is matched as a question
of its own (`UnitMatcher.match_asked` on it alone, under the opening sentence's bars: its score, or
the unit nearest both it and the whole post; its lead over the next unit; the whole post near the
unit), on the post's subject, with the unit's kind fitting what it asks, that reading held as if
sure (a part read as asking a figure never gets a yes-or-no unit). A part whose unit is the
opening's, or whose lead the answer already holds, adds nothing. A sentence no unit answers is left
to the opening (a retrieved sentence chosen for one sentence of a story is too often the story's
neighbour). The verdict of a unit opening "Yes." is kept for a sentence that asks whether
(units.opening_for).
"""

from __future__ import annotations

from dataclasses import replace

from nztax import answer_evidence, guard, opening_fit, units
from nztax.composer import dedupe
from nztax.contract import CITE_MARK, Citation, cite_mark
from nztax.frame import note_opened
from nztax.unit_choice import asking_sentences, on_subject

# At most this many parts are added: the answer stays short.
MAX_PARTS = 2


def matched_parts(engine, decision, frame, vector) -> list[tuple[units.Unit, str]]:
    """(unit, the asking sentence it answers) for each asked part a unit answers, in the post's order."""
    if frame is None or len(frame.asking) < 2:
        return []
    matcher, kinds = engine.unit_matcher, engine.unit_kinds
    seen, out = set(), []

    def allowed(unit, s) -> bool:
        return kinds.fits(unit, s.asks, s.asks_sure, s.text) and not opening_fit.other_subject(decision.question, unit.question, None)

    for sentence in frame.asking_for_units(engine.settings.asked_part_bar):
        if sentence == decision.asked:
            continue
        asked = asking_sentences(engine, frame, [sentence])[0]
        # (Held to its reading as if sure: a yes-or-no unit never answers a part read as asking a figure.)
        asked = replace(asked, asks_sure=max(asked.asks_sure, kinds.bar))
        found = matcher.match_asked([asked], vector, story=True, allowed=allowed)
        if found is None or found.unit.id in seen or not on_subject(found.unit, sentence):
            continue
        seen.add(found.unit.id)
        out.append((found.unit, sentence))
    return out


def add(engine, result, decision, frame, vector, current: str):
    """The answer with a paragraph for each other asked part a unit answers (see the module docstring)."""
    if result.status != "answered":
        return result
    parts = matched_parts(engine, decision, frame, vector)
    return append(engine, result, decision, current, parts,
                  lambda unit, sentence, lead: units.opening_for(lead, sentence, frame.reads_yes_or_no(sentence)))


def append(engine, result, decision, current: str, parts, told):
    """The answer with a paragraph after its first for each (unit, sentence) in `parts` (at most
    `MAX_PARTS`), `told(unit, sentence, lead)` saying the unit's filled lead; a paragraph the answer
    already says, or whose figures its sources do not hold, is left out."""
    from nztax.engine import MissingIndex, _Quote as Quote  # (the engine imports this module)

    if not parts or not result.answer or isinstance(engine.retriever, MissingIndex):
        return result  # (without an index no unit is known to be supported: see Engine._unit_answer)
    year_rules = engine.rules.years.get(result.tax_year) or engine.rules.years.get(current)
    if year_rules is None:
        return result
    values = units.unit_values(year_rules)
    # Every figure a part states comes from the rules data (its unit's placeholders) or its quote.
    evidence = answer_evidence.gather(result, decision, [Quote(u.source.quote) for u, _ in parts if u.source], engine.rules)
    numbers = {url: int(n) for n, url in CITE_MARK.findall(result.answer)}
    paragraphs, citations = [], []
    for unit, sentence in parts:
        if len(paragraphs) == MAX_PARTS:
            break
        lead = units.fill(unit.lead or "", values)
        if not lead or unit.source is None or units.fold(units.opening_for(lead, ""))[:80] in units.fold(result.answer):
            continue  # (the answer already says it: the opening's own unit)
        text = told(unit, sentence, lead)
        if guard.check(text, evidence).flagged:
            continue
        number = numbers.setdefault(unit.source.url, max(numbers.values(), default=0) + 1)
        paragraphs.append(text + cite_mark(number, unit.source.url))
        note_opened(decision.trace, "asked_part", f"unit {unit.id}", f"another asked part answered by the unit {unit.id}")
        citations.append(Citation(title=engine.unit_titles().get(unit.source.url) or "Inland Revenue", url=unit.source.url,
                                  section=engine.citation_sections().section_quoting(unit.source.url, unit.source.quote) or None))
    if not paragraphs:
        return result
    head, sep, rest = result.answer.partition("\n\n")
    result.answer = "\n\n".join([head, *paragraphs] + ([rest] if sep else []))
    result.citations = dedupe(result.citations + citations)
    return result

