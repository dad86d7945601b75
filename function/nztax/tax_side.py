"""The tax side of a post declined as another subject: what the post says of an employer payment's tax.

In: the engine (its unit matcher), the settled decision, the post's vector and the declined answer.
Out: `add(...)` -> a decline that points to another subject (`decline_to`, not one marked
`no_tax_side` in data/decisions.yaml: another country's tax, a company's) with a paragraph for each
kind of employer payment (payment_frame.py) that a sentence of the post names together with a word
of its tax (`tax_said` in data/cue_words.yaml): the rule of the unit whose own question asks how
that kind is taxed.

A post about an employment dispute or a KiwiSaver decision is declined, but it often states or asks
something about tax on the way ("they'll pay my notice out without tax"): that part is New Zealand
personal income tax, and a wrong belief about it costs the poster money. Only a payment the post
names in the same sentence as its tax is answered, so a decline whose story merely mentions a bonus
or holiday pay stays a decline alone.
"""

from __future__ import annotations

from nztax import asked_parts, payment_frame
from nztax.cue_words import cue
from nztax.sentences import sentences

OPENER = "On the tax side:"


def named_with_tax(question: str) -> list[tuple[str, str]]:
    """(kind, the first sentence naming it with a word of its tax), for each narrowest kind, in the post's order."""
    tax = cue("tax_said")
    found: dict[str, str] = {}
    for sentence in sentences(question):
        if tax.search(sentence):
            for kind in sorted(payment_frame.narrowest(payment_frame.kinds_named(sentence, question))):
                found.setdefault(kind, sentence)
    kinds = payment_frame.narrowest(frozenset(found))
    return [(k, s) for k, s in found.items() if k in kinds]


def parts(engine, question: str, vector) -> list[tuple[object, str]]:
    """(unit, sentence) for each kind named with its tax that a unit states how it is taxed."""
    matcher, out = engine.unit_matcher, []
    cosines = matcher.post_cosines(vector)
    for kind, sentence in named_with_tax(question):
        asked = payment_frame.PaymentReading(frozenset({kind}), frozenset({payment_frame.TAX}))
        found = payment_frame.payment_unit(matcher.units, asked, cosines)
        if found is not None and all(matcher.units[found] is not u for u, _ in out):
            out.append((matcher.units[found], sentence))
    return out


def add(engine, result, decision, vector, current: str):
    """The declined answer with the tax side of each payment the post says something of its tax."""
    to = getattr(decision, "decline_to", None)
    if result.status != "out_of_scope" or vector is None or not to or to.get("no_tax_side"):
        return result  # (a decline to another country's or another taxpayer's tax: the payment's rule is not ours)
    return asked_parts.append(engine, result, decision, current, parts(engine, decision.question, vector),
                              lambda unit, sentence, lead: f"{OPENER} {unit.question} {lead}")
