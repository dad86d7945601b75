"""Where each figure of the rules data is stated: the page and the words around it there.

In: a year's validated rules (`TaxYearFile`). Out: `StatedFigure` (the record a rules file's
`stated:` block holds per figure) and `figure_paths`, every number of the file by its path
("working_for_families.abatement_threshold", "income_tax.bands[1].to"), which the freshness check
(`nztax_build.freshness`) looks for on the page that states it.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from pydantic import Field, field_validator, model_validator

from nztax.rules_types import Strict, Url

PLACEHOLDER = "{}"


class StatedFigure(Strict):
    """`words` is the text around the figure on its page with the figure itself as `{}`
    ("abatement is 27% of family income over {}"); `page` defaults to the section's `source`.
    A figure no page prints, worked out from figures that are (a maximum levy IRD has not printed
    yet), says how instead in `derived` and is checked by its section's own validator."""

    words: Annotated[str, Field(min_length=3)] | None = None
    page: Url | None = None
    derived: Annotated[str, Field(min_length=3)] | None = None

    @model_validator(mode="after")
    def _words_or_derived(self):
        if (self.words is None) == (self.derived is None):
            raise ValueError("give either `words` (where a page states it) or `derived` (how it is worked out)")
        return self

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, value):
        # `path: "words {} here"` is short for `path: {words: "words {} here"}`.
        return {"words": value} if isinstance(value, str) else value

    @field_validator("words")
    @classmethod
    def _one_placeholder(cls, words: str | None) -> str | None:
        if words is None:
            return words
        if words.count(PLACEHOLDER) != 1:
            raise ValueError("must hold the figure's place as exactly one `{}`")
        if not words.replace(PLACEHOLDER, "").strip():
            raise ValueError("needs words beside the `{}`, not the figure alone")
        return words


def figure_paths(data) -> dict[str, float]:
    """Every number in a year's rules, keyed by its path in the YAML (aliases: `from`, `to`)."""
    found: dict[str, float] = {}

    def walk(node, path: str) -> None:
        if isinstance(node, bool) or isinstance(node, (str, dt.date)) or node is None:
            return
        if isinstance(node, (int, float)):
            found[path] = node
        elif isinstance(node, dict):
            for key, value in node.items():
                walk(value, f"{path}.{key}" if path else str(key))
        elif isinstance(node, (list, tuple)):
            for i, value in enumerate(node):
                walk(value, f"{path}[{i}]")

    dumped = data.model_dump(mode="python", by_alias=True)
    dumped.pop("stated", None)
    for key in ("tax_year", "start", "end", "partial"):
        dumped.pop(key, None)
    walk(dumped, "")
    return found


def section_of(path: str) -> str:
    """The top-level section a figure path sits in ("paye.periods[0]..." -> "paye")."""
    return path.split(".", 1)[0].split("[", 1)[0]
