"""`nztax eval units`: the held-out paraphrases leave the bank the matcher reads, and nothing else does."""

from __future__ import annotations

import yaml

from nztax.rules import default_rules
from nztax.settings import get_settings
from nztax.units import UnitBank, fill, unit_values
from nztax_build.evaluate_units import LeadReader, bank_without, held_out


def test_the_stripped_bank_keeps_every_unit_and_drops_only_the_held_out_paraphrases(tmp_path):
    bank = UnitBank.load(get_settings().units_dir)
    target = tmp_path / "units.yaml"
    target.write_text(yaml.safe_dump(bank_without(bank, lambda u, a: held_out(u.id, a)), sort_keys=False,
                                     allow_unicode=True), encoding="utf-8")
    stripped = UnitBank.load(target)
    assert [u.id for u in stripped.units] == [u.id for u in bank.units]
    dropped = 0
    for before, after in zip(bank.units, stripped.units):
        assert (after.question, after.lead, after.source, after.calculation) == \
               (before.question, before.lead, before.source, before.calculation)
        assert after.also == tuple(a for a in before.also if not held_out(before.id, a))
        dropped += len(before.also) - len(after.also)
    # About one in three is held out: enough to measure, and most paraphrases stay.
    total = sum(len(u.also) for u in bank.units)
    assert 0.2 * total < dropped < 0.45 * total


def test_an_answer_is_read_as_the_unit_whose_lead_it_opens_with():
    bank = UnitBank.load(get_settings().units_dir)
    rules = default_rules()
    reader = LeadReader(bank, rules)
    unit = next(u for u in bank.units if u.lead)
    year, lead = next((y, fill(unit.lead, unit_values(r))) for y, r in sorted(rules.years.items())
                      if fill(unit.lead, unit_values(r)))
    assert reader.unit_of({"tax_year": year, "answer": lead + " [[1]](https://x)\n\nMore."}) == unit.id
    assert reader.unit_of({"tax_year": year, "answer": "Something else. " + lead}) is None
