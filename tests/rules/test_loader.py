"""The rules loader accepts the shipped files and refuses each kind of bad file with a message
naming the file, the field and the problem."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from nztax.rules import RulesError, load_rules, load_year_file, tax_year_for

RULES_DIR = Path(__file__).resolve().parents[2] / "function" / "nztax" / "rules"
GOOD = (RULES_DIR / "2026-27.yaml").read_text()


def test_shipped_rules_load_and_cover_four_full_years():
    book = load_rules(RULES_DIR)
    assert book.complete_years() == ["2023-24", "2024-25", "2025-26", "2026-27"]
    assert book.get("2027-28").data.partial


def test_every_section_names_its_source():
    for path in RULES_DIR.glob("*.yaml"):
        data = load_year_file(path).data.model_dump()
        for name, section in data.items():
            if isinstance(section, dict) and name != "stated":  # stated: where each figure is printed
                assert section["source"].startswith("https://"), (path.name, name)


def test_split_year_has_two_paye_schedules_switching_31_july_2024():
    rules = load_rules(RULES_DIR).get("2024-25")
    assert rules.paye_period(dt.date(2024, 7, 30)).bands[0].upper == 14000
    assert rules.paye_period(dt.date(2024, 7, 31)).bands[0].upper == 15600


@pytest.mark.parametrize(
    "day, year",
    [(dt.date(2026, 3, 31), "2025-26"), (dt.date(2026, 4, 1), "2026-27"), (dt.date(2027, 1, 15), "2026-27")],
)
def test_tax_year_boundary_is_1_april(day, year):
    assert tax_year_for(day) == year


def _write(tmp_path: Path, text: str, name: str = "2026-27.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


BAD_FILES = [
    # (what is wrong, edit, words the message must contain)
    ("wrong type", lambda s: s.replace("rate: 0.0175", "rate: lots"), ["acc_levy.rate", "number"]),
    ("rate above 1", lambda s: s.replace("rate: 0.0175", "rate: 1.75"), ["acc_levy.rate", "less than or equal to 1"]),
    ("negative amount", lambda s: s.replace("max_liable_earnings: 156641", "max_liable_earnings: -5"), ["acc_levy.max_liable_earnings", "greater than or equal to 0"]),
    ("band gap", lambda s: s.replace("{from: 53500, to: 78100, rate: 0.30}", "{from: 54000, to: 78100, rate: 0.30}", 1), ["income_tax.bands", "gaps"]),
    ("bands out of order", lambda s: s.replace("{from: 15600, to: 53500, rate: 0.175}", "{from: 15600, to: 10000, rate: 0.175}", 1), ["income_tax.bands", "above"]),
    ("first band not at zero", lambda s: s.replace("{from: 0, to: 15600, rate: 0.105}", "{from: 100, to: 15600, rate: 0.105}", 1), ["income_tax.bands", "start at 0"]),
    ("last band closed", lambda s: s.replace("{from: 180000, to: null, rate: 0.39}", "{from: 180000, to: 999999, rate: 0.39}", 1), ["income_tax.bands", "open-ended"]),
    ("missing field", lambda s: s.replace("  max_levy: 2741.22\n", ""), ["acc_levy.max_levy", "Field required"]),
    ("missing source", lambda s: s.replace("student_loan:\n  source: https://www.ird.govt.nz/student-loans/living-in-new-zealand-with-a-student-loan/repaying-my-student-loan-when-i-earn-salary-or-wages\n", "student_loan:\n"), ["student_loan.source", "Field required"]),
    ("source not a URL", lambda s: s.replace("source: https://www.ird.govt.nz/income-tax/income-tax-for-individuals/acc-clients-and-carers/acc-earners-levy-rates", "source: somewhere"), ["acc_levy.source", "pattern"]),
    ("missing section", lambda s: re.sub(r"\nesct:\n(  .*\n)+", "\n", s), ["esct", "missing required sections"]),
    ("unknown field", lambda s: s.replace("  rate: 0.12\n", "  rate: 0.12\n  rat: 0.13\n"), ["student_loan.rat", "Extra inputs"]),
    ("period gap", lambda s: s.replace("- {from: 2026-04-01, to: 2027-03-31, amount: 520", "- {from: 2026-05-01, to: 2027-03-31, amount: 520"), ["ietc.periods", "first day of the year"]),
    ("max levy inconsistent", lambda s: s.replace("max_levy: 2741.22", "max_levy: 2000.00"), ["acc_levy", "does not match"]),
    ("wrong year dates", lambda s: s.replace("start: 2026-04-01", "start: 2026-01-01"), ["2026-04-01"]),
    ("missing secondary code", lambda s: s.replace("        SA: {rate: 0.39, income_to: null}\n", ""), ["secondary_codes", "SA"]),
    ("boolean for a number", lambda s: s.replace("rate: 0.0175", "rate: true"), ["acc_levy.rate", "valid number"]),
    ("overlapping bands", lambda s: s.replace("{from: 53500, to: 78100, rate: 0.30}", "{from: 50000, to: 78100, rate: 0.30}", 1), ["income_tax.bands", "overlap"]),
    ("period threshold disagrees with annual", lambda s: s.replace("monthly: 2010.66", "monthly: 2010.67"), ["student_loan", "period_thresholds.monthly", "2010.66"]),
    ("bad tax_year", lambda s: s.replace('tax_year: "2026-27"', 'tax_year: "2026/27"'), ["tax_year", "pattern"]),
    ("rate negative in a band", lambda s: s.replace("{from: 0, to: 18720, rate: 0.105}", "{from: 0, to: 18720, rate: -0.105}"), ["esct.bands[0].rate", "greater than or equal to 0"]),
    ("PIR tier with one income limit", lambda s: s.replace("    - {rate: 0.105}\n", "    - {rate: 0.105, taxable_income_max: 15600}\n"), ["pir.rates[0]", "both income limits or neither"]),
]


@pytest.mark.parametrize("what, edit, words", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_bad_file_is_refused_with_file_field_and_problem(tmp_path, what, edit, words):
    bad = edit(GOOD)
    assert bad != GOOD, f"the edit for {what!r} did not change the file"
    with pytest.raises(RulesError) as err:
        load_year_file(_write(tmp_path, bad))
    message = str(err.value)
    assert "2026-27.yaml" in message
    for word in words:
        assert word in message, f"{what}: {word!r} not in {message!r}"


def test_invalid_yaml_is_refused(tmp_path):
    with pytest.raises(RulesError, match=r"2026-27.yaml: not valid YAML"):
        load_year_file(_write(tmp_path, GOOD + "\n  - : [\n"))


def test_file_name_must_match_year(tmp_path):
    with pytest.raises(RulesError, match=r"2025-26.yaml: tax_year: '2026-27' does not match"):
        load_year_file(_write(tmp_path, GOOD, "2025-26.yaml"))


def test_empty_directory_is_refused(tmp_path):
    with pytest.raises(RulesError, match="no rules files"):
        load_rules(tmp_path)


def test_top_level_not_a_mapping_is_refused(tmp_path):
    with pytest.raises(RulesError, match=r"2026-27.yaml: \(top level\): expected a mapping"):
        load_year_file(_write(tmp_path, "- just\n- a list\n"))
