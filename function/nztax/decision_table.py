"""The decision table: the frame and the proposed action in, the action taken and its trace out.

In: a `Decision` (decide.py: the action the intent reading proposes), the question's
`QuestionFrame`, settings, and two ways to decide again (on other slots; with the best in-scope
reading). Out: the `Decision` to answer, with `trace` set (frame + the rows that fired).
The rows are data (`data/decisions.yaml`); this module only evaluates their conditions.

    decision = apply_table(decision, frame, settings, redecide=..., in_scope=...)
    decision.trace.rows        # ['other_figures_set_aside']
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Callable

import yaml

from nztax.frame import FrameAmount, QuestionFrame, Trace
from nztax.slots import INCOME_LIKE_ROLES, Money, Slots

TABLE_FILE = Path(__file__).parent / "data" / "decisions.yaml"
INCOME_OWNERS = ("me", "partner")
CONDITIONS = ("proposed", "proposed_not", "declined_as", "scope", "scope_not", "scope_sure", "inputs_sure",
              "recoverable", "stated", "asks")


@dataclass(frozen=True)
class Row:
    id: str
    when: dict
    then: str


@dataclass(frozen=True)
class Table:
    rows: tuple[Row, ...]
    scopes: dict


@lru_cache(maxsize=1)
def table() -> Table:
    data = yaml.safe_load(TABLE_FILE.read_text(encoding="utf-8"))
    rows = tuple(Row(r["id"], dict(r.get("when") or {}), r["then"]) for r in data["rows"])
    for row in rows:
        unknown = set(row.when) - set(CONDITIONS)
        if unknown:
            raise ValueError(f"decision row {row.id}: unknown condition(s) {sorted(unknown)}")
    return Table(rows, dict(data.get("scopes") or {}))


def input_amounts(slots: Slots) -> list[Money]:
    """The amounts a calculation on these slots would use: the incomes read as they stand."""
    return [a for a in slots.amounts if a.role in INCOME_LIKE_ROLES and not a.questioned]


def _sure_income(a: FrameAmount, bar: float) -> bool:
    return a.kind == "income" and a.owner in INCOME_OWNERS and a.is_sure(bar)


def _surely_not_income(a: FrameAmount, bar: float) -> bool:
    """Read with confidence as a figure that is not the asker's (or partner's) income."""
    return (a.kind != "income" and a.kind_sure >= bar) or (a.owner not in INCOME_OWNERS and a.owner_sure >= bar)


@dataclass(frozen=True)
class Facts:
    """What the rows' conditions are evaluated on."""

    proposed: str
    declined_as: str | None
    scope: str
    scope_sure: bool
    inputs_sure: bool
    recoverable: bool
    stated: bool
    asks: tuple[str, ...]
    kept: tuple[int, ...]        # starts of the input amounts a recalculation keeps

    def holds(self, when: dict) -> bool:
        checks = {
            "proposed": lambda v: self.proposed in v, "proposed_not": lambda v: self.proposed not in v,
            "declined_as": lambda v: self.declined_as in v, "scope": lambda v: self.scope in v,
            "scope_not": lambda v: self.scope not in v, "scope_sure": lambda v: self.scope_sure == bool(v),
            "inputs_sure": lambda v: self.inputs_sure == bool(v), "recoverable": lambda v: self.recoverable == bool(v),
            "stated": lambda v: self.stated == bool(v), "asks": lambda v: any(a in v for a in self.asks),
        }
        return all(checks[name](value) for name, value in when.items())


def facts_of(decision, frame: QuestionFrame, settings) -> Facts:
    bar = settings.frame_bar
    inputs = frame.inputs_of(input_amounts(decision.slots)) if decision.action == "calculate" else []
    inputs_sure = all(_sure_income(a, bar) for a in inputs)
    kept = tuple(a.start for a in inputs if _sure_income(a, bar))
    recoverable = bool(kept) and all(_sure_income(a, bar) or _surely_not_income(a, bar) for a in inputs)
    intent = decision.intent
    return Facts(proposed=decision.action, declined_as=intent.copy if intent is not None and decision.action == "decline" else None,
                 scope=frame.scope, scope_sure=frame.scope_sure >= settings.frame_scope_bar, inputs_sure=inputs_sure,
                 recoverable=recoverable, stated=bool(frame.stated()), asks=frame.asks_each, kept=kept)


def apply_table(decision, frame: QuestionFrame, settings, *, redecide: Callable[[Slots], object],
                in_scope: Callable[[], object | None]):
    """The decision the table's first matching row leads to, with its trace."""
    t = table()
    trace = Trace(frame=frame.to_json(), proposed=decision.action)
    facts = facts_of(decision, frame, settings)
    row = next(r for r in t.rows if facts.holds(r.when))
    trace.rows.append(row.id)
    out = decision
    if row.then == "decline":
        out = replace(decision, action="decline", calls=[], decline_to=t.scopes.get(frame.scope) or t.scopes["not_money"])
    elif row.then == "answer":
        lifted = in_scope()
        if lifted is not None:
            out = lifted
            trace.notes.append(f"decline lifted: answered as {getattr(lifted.intent, 'name', None)}")
    elif row.then == "recalculate":
        amounts = [a for a in decision.slots.amounts if a.role not in INCOME_LIKE_ROLES or a.questioned or a.start in facts.kept]
        out = redecide(replace(decision.slots, amounts=amounts))
        set_aside = [a.text for a in frame.amounts if a.start not in facts.kept and a.role in INCOME_LIKE_ROLES]
        trace.notes.append(f"set aside as not the asker's income: {', '.join(set_aside)}")
        if out.action == "calculate":
            out = replace(out, stated=[a for a in frame.stated()])
        elif out.action != "decline":
            out = replace(out, handed_over=list(decision.calls), action="topic", calls=[])
    elif row.then == "hand_over":
        out = replace(decision, action="topic", calls=[], handed_over=list(decision.calls))
        unsure = [f"{a.text} ({a.kind}?, {a.owner}?)" for a in frame.inputs_of(input_amounts(decision.slots))
                  if not _sure_income(a, settings.frame_bar)]
        trace.notes.append(f"not sure these are the asker's income: {', '.join(unsure)}")
    elif row.then == "check":
        out = replace(decision, stated=list(frame.stated()))
    trace.action = out.action
    out.trace = trace
    return out
