"""A post asking about two things gets a short paragraph for each: the opening answers one asking
sentence, and each other asking sentence a unit answers alone adds that unit's lead after it
(asked_parts.py), with its verdict ("Yes.") for a sentence asking whether; a sentence no unit
answers adds nothing."""

from __future__ import annotations

import pytest

from unit_leads import leads as unit_leads

STAY = "joining-and-contributing-to-kiwisaver/can-i-stay-in-kiwisaver-after-i-turn-65"
TAXED = "joining-and-contributing-to-kiwisaver/are-kiwisaver-withdrawals-taxed"
BACKGROUND = "I have worked for the same company for twenty years and I turn 65 in March."


def leads(bank, unit_id: str, year: str) -> tuple[str, str]:
    """The unit's lead as it opens a yes-or-no answer, and without its "Yes."."""
    unit = bank.get(unit_id)
    assert unit is not None, unit_id
    return unit_leads(unit, year)


def paragraphs(out: dict) -> list[str]:
    return [p for p in out["answer"].split("\n\n") if not p.startswith(">")]


@pytest.mark.parametrize("first, second", [
    ("Can I stay in KiwiSaver after I turn 65?", "Are KiwiSaver withdrawals taxed?"),
    ("Are KiwiSaver withdrawals taxed?", "Can I stay in KiwiSaver after I turn 65?"),
    ("Do I have to close my KiwiSaver at 65?", "Is tax taken off a KiwiSaver withdrawal?"),
])
def test_each_part_a_unit_answers_gets_its_paragraph(engine, bank, first, second):
    out = engine.answer(f"{BACKGROUND} {first} {second}", use_faq=False, mode="offline").to_json()
    said = paragraphs(out)
    for unit_id in (STAY, TAXED):
        lead, bare = leads(bank, unit_id, out["tax_year"])
        assert any(p.startswith(lead) or p.startswith(bare) for p in said), (unit_id, said)
    # Each part cites its unit's source.
    assert all("[[" in p for p in said[:3]), said


def test_a_part_asking_whether_keeps_its_verdict(engine, bank):
    out = engine.answer(f"{BACKGROUND} Are KiwiSaver withdrawals taxed? My question is, can I stay in KiwiSaver after "
                        "I turn 65?", use_faq=False, mode="offline").to_json()
    lead, _ = leads(bank, STAY, out["tax_year"])
    assert lead.startswith("Yes.")
    assert any(p.startswith(lead) for p in paragraphs(out)), paragraphs(out)


def test_a_sentence_no_unit_answers_adds_nothing(engine, bank):
    one = engine.answer(f"{BACKGROUND} Can I stay in KiwiSaver after I turn 65?", use_faq=False, mode="offline").to_json()
    two = engine.answer(f"{BACKGROUND} Can I stay in KiwiSaver after I turn 65? What do you think of my plans?",
                        use_faq=False, mode="offline").to_json()
    lead, bare = leads(bank, STAY, one["tax_year"])
    assert len(paragraphs(two)) == len(paragraphs(one)), paragraphs(two)
    for out in (one, two):
        assert sum(p.startswith((lead, bare)) for p in paragraphs(out)) == 1, paragraphs(out)
