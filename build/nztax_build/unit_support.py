"""Support check: each answer unit's quote must be in the current text of the page it cites.

In: the units (nztax.units.Unit) and the index being built (`chunks.json`: its parent sections,
each with its page URL and text). Out: the units withheld (`Withheld`: the unit and why), written
beside the index as `units_withheld.json` so the Ask box does not serve them either.

Text is compared after folding case, whitespace, typographic quotes and dashes, so a quote survives
re-formatting of its page but not a change of its words. A unit without a source is not checked
here (the bank's own test requires a source of every unit).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from nztax.units import WITHHELD_FILE, Unit, fold  # noqa: F401 (fold re-exported: the check's own folding)

from .store import atomic_write_text


@dataclass(frozen=True)
class Withheld:
    unit: Unit
    reason: str


def page_texts(index_dir: Path) -> dict[str, str]:
    """Page URL -> the folded text of all its sections, from the index's chunk store."""
    try:
        store = json.loads((Path(index_dir) / "chunks.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    pages: dict[str, list[str]] = {}
    for parent in store.get("parents", []):
        pages.setdefault(parent.get("url", ""), []).append(fold(parent.get("text", "")))
    return {url: "\n".join(parts) for url, parts in pages.items()}


def check_support(units: list[Unit], index_dir: Path) -> list[Withheld]:
    """The units whose quote is not (or no longer) on their cited page."""
    pages = page_texts(index_dir)
    withheld = []
    for unit in units:
        if unit.source is None:
            continue
        text = pages.get(unit.source.url)
        if text is None:
            withheld.append(Withheld(unit, f"its page is not in the corpus: {unit.source.url}"))
        elif fold(unit.source.quote) not in text:
            withheld.append(Withheld(unit, f"its quote is gone from {unit.source.url}"))
    return withheld


def write_withheld(index_dir: Path, withheld: list[Withheld]) -> Path:
    target = Path(index_dir) / WITHHELD_FILE
    data = [{"id": w.unit.id, "question": w.unit.question, "page": w.unit.url, "reason": w.reason} for w in withheld]
    atomic_write_text(target, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    return target


def read_withheld(index_dir: Path) -> list[dict]:
    try:
        data = json.loads((Path(index_dir) / WITHHELD_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return data if isinstance(data, list) else []


