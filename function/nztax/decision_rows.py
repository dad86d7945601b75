"""The decision table's data: its rows and the facts about calculators and subjects they lean on.

In: `data/decisions.yaml`. Out: `table()`, the `Table` (loaded once): the rows in order, each a
`Row` (its conditions, the action it leads to, a decline's subject); the scope classes a decline
points to; which ask kinds each calculator's result answers and which kinds of amount it takes; the
number-grammar roles' kinds. A row naming a condition outside `CONDITIONS` (the facts
decision_table.Facts evaluates) is refused at load.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from nztax.yaml_data import load_yaml

TABLE_FILE = Path(__file__).parent / "data" / "decisions.yaml"
CONDITIONS = ("proposed", "proposed_not", "declined_as", "intent_sure", "scope", "scope_not", "scope_sure", "scope_firm",
              "scope_out_sure", "scope_out_firm", "scope_in_high",
              "inputs_sure", "inputs_certain", "inputs_owned", "inputs_taken", "recoverable", "stated", "asks", "answers_ask", "asks_figure", "story",
              "lead_fits", "rule_worked", "several_figures", "read_by", "asks_income", "rate_given", "decline_unread",
              "incomes_left_out", "foreign_withholding", "foreign_rate", "foreign_place", "asked_in_new_zealand", "pays_employee", "payment_as_income", "payment_tax_asked", "asked_unread",
              "questioned_not_theirs", "asks_employment_obligation", "scope_major", "intent_not",
              "asked_in_nz_tax", "asked_outside_nz_tax")


@dataclass(frozen=True)
class Row:
    id: str
    when: dict
    then: str
    to: str | None = None        # a decline's subject (a scope class) when the row knows it, not the reading


@dataclass(frozen=True)
class Table:
    rows: tuple[Row, ...]
    scopes: dict
    answers: dict                # calculator -> the ask kinds its result answers ("default" for the rest)
    model_scopes: dict           # the subjects LLM mode's frame schema offers the model (the rest are offline-only)
    income_asks: tuple[str, ...] = ()  # the questions back (Decision.missing) that ask for the poster's income
    declined_subjects: dict | None = None  # a proposed decline's topic (intent copy) -> the scope class it is
    taken: dict | None = None    # calculator -> the kinds of amount (frame.AMOUNT_KINDS) it works on ("default")
    role_kinds: dict | None = None  # a number-grammar role (slots.py) other than an income's -> the kind it names

    def answered_by(self, tool: str) -> tuple[str, ...]:
        return tuple(self.answers.get(tool) or self.answers.get("default") or ())

    def takes(self, tool: str, argument: str | None = None) -> tuple[str, ...]:
        """The kinds of amount a calculator works on: all its amount arguments', or one argument's."""
        taken = self.taken or {}
        spec = taken.get(tool) or taken.get("default") or ()
        if isinstance(spec, dict):
            return tuple(spec.get(argument) or ()) if argument else tuple(k for kinds in spec.values() for k in kinds)
        return tuple(spec)


@lru_cache(maxsize=1)
def table() -> Table:
    data = load_yaml(TABLE_FILE.read_text(encoding="utf-8"))
    rows = tuple(Row(r["id"], dict(r.get("when") or {}), r["then"], r.get("to")) for r in data["rows"])
    for row in rows:
        unknown = set(row.when) - set(CONDITIONS)
        if unknown:
            raise ValueError(f"decision row {row.id}: unknown condition(s) {sorted(unknown)}")
    model_scopes = dict(data.get("scopes") or {})
    return Table(rows, {**model_scopes, **(data.get("offline_scopes") or {})}, dict(data.get("calculations_answer") or {}),
                 model_scopes, tuple(data.get("income_asks") or ()), dict(data.get("declined_subjects") or {}),
                 dict(data.get("amounts_taken") or {}), dict(data.get("role_kinds") or {}))
