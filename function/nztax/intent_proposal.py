"""Intent proposal: the action the intent reading proposes for a question, before the frame and the
decision table settle it.

In: the engine (its speller, intent classifier, rules, settings and embedders), the question, the
latest turns of history and the tax year asked. Out: (`Decision`, the question's vector, reused by
retrieval). The question is spelt right and read with its history; a question that on its own is one
to turn away is not read as a follow-up; a post whose background is full of figures is read by its
last question; each part of a two-part calculation is read on its own (a later part asking a rule is
read without the figures); the intents the question names by their keywords go to decide() as parts
of its sum.

    decision, vector = propose(engine, "Tax on $100k, and then the ACC levy on top of that?", None, None)
"""

from __future__ import annotations

from typing import Any

from nztax.decide import Decision, decide, final_question, question_parts, question_slots
from nztax.short_query import search_box_question
from nztax.slots import read_slots, without_denied


def propose(engine, question: str, history: list[dict] | None, tax_year: str | None) -> tuple[Decision, Any]:
    """The action the intent reading proposes, and the question's embedding."""
    question = search_box_question(engine.speller.correct(question), engine.rules)
    text, used_history, slots = question_slots(question, history, engine.rules)
    # The question's own vector is the one retrieval uses too (the query with its synonyms).
    asked = without_denied(text)
    vector = engine.embed_question(asked)
    classification = engine.classifier.classify(asked, vector, slots)
    if used_history:
        # A question that stands on its own as something to turn away (an unrelated request after
        # tax questions) is not read as a follow-up.
        alone_slots = read_slots(question, engine.rules)
        alone_vector = engine._embed(question)
        alone = engine.classifier.classify(question, alone_vector, alone_slots)
        if alone.confident and alone.intent.does in ("decline", "refuse"):
            return decide(question, alone, engine.rules, history=None, tax_year=tax_year, slots=alone_slots), alone_vector
    settled = classification.intent.does == "refuse" or classification.confident and classification.intent.does == "decline"
    final = final_question(asked) if slots.amounts and not used_history and not settled else None
    if final is not None:
        # A post whose background is full of figures ("We earn $104,000 and $57,000 … How much will
        # a bank lend us?"): what it asks is in its last question, read on its own.
        final_slots = read_slots(final, engine.rules)
        reading = engine.classifier.classify(final, engine._embed(final), final_slots)
        if reading.confident and reading.intent.final_question_decides:
            return decide(question, reading, engine.rules, history=None, tax_year=tax_year, slots=slots), vector
    also = []
    parts = question_parts(question) if classification.intent.does == "calculate" and not used_history else []
    if len(parts) > 1:
        # Each part of a two-part question read on its own, answered in the order asked: when the
        # whole reads as its second part, the first part's sum leads ("Tax on $100k, and then the
        # ACC levy on top of that?"). Each part is embedded once.
        vectors = [engine._embed(p) for p in parts]
        first, *later = [engine.classifier.classify(p, v, slots) for p, v in zip(parts, vectors)]
        later = [(p, v, c) for p, v, c in zip(parts[1:], vectors[1:], later)]
        whole = classification.intent
        if (first.confident and first.intent.does == "calculate" and first.intent.name != whole.name
                and any(c.confident and c.intent.name == whole.name for _, _, c in later)
                and (whole.name not in first.intent.covers or any(
                    _rule_question(engine, p, v) for p, v, c in later if c.intent.name == whole.name))):
            also.append(whole)
            classification = first
        elif first.confident and first.intent.name == whole.name:
            classification = first  # the first part on its own settles what the whole left in doubt
        readings = [_part_reading(engine, p, v, c, classification.intent) for p, v, c in later]
        also += [c.intent for c in readings if c.confident]
        also = [i for i in dict.fromkeys(also) if i.name != classification.intent.name]
    # Intents the question names by their keywords, scored above the floor: decide() keeps the
    # ones that are parts of its sum.
    named = list(classification.named)
    if slots.names_income_tax:  # "income tax" in its own words names the income tax calculation
        named += [spec.name for spec in engine.classifier.catalogue.intents
                  if spec.does == "calculate" and spec.tool == "calculate_income_tax"]
    components = [engine.classifier.catalogue.get(name) for name in dict.fromkeys(named)
                  if name in classification.leading and classification.scores[name] >= engine.settings.intent_min_score]
    return decide(question, classification, engine.rules, history=history, tax_year=tax_year, slots=slots,
                  also=also, components=components), vector

def _part_reading(engine, part: str, vector, reading, main):
    """A later part of a two-part question, read with the whole question's figures ("…, and then
    the ACC levy on top of that?" is a sum on them). A sum the main answer already shows is read
    without them: "Also, does the ACC levy stop at some point?" asks about the rule."""
    if reading.intent.does == "calculate" and (reading.intent.name == main.name or reading.intent.name in main.covers):
        return _rule_question(engine, part, vector) or reading
    return reading

def _rule_question(engine, part: str, vector):
    """How a part reads without the whole question's figures, when that is confidently a fact."""
    alone = engine.classifier.classify(part, vector, read_slots(part, engine.rules))
    return alone if alone.confident and alone.intent.does == "fact" else None
