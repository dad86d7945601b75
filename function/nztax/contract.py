"""The /ask contract: the result types every part shares (API, FAQ build, renderer, engine).

In: nothing. Out: `AskResult` (whose `to_json()` is exactly the POST /ask JSON), `Citation`,
`ToolCall`, `Status`, and the shared vocabulary: `SOURCE_TYPES`, `TAX_YEAR_PATTERN`, `tax_year_starting`,
and the numbered citation mark an answer's text carries (`cite_mark` writes it, `CITE_MARK` reads it).
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field

Status = Literal["answered", "needs_clarification", "out_of_scope", "refused"]
MAX_NEXT_ACTIONS = 3
# The kinds of source the corpus holds (sources.yaml, the index, search filters).
SOURCE_TYPES = ("ird_guidance", "guide_pdf", "legislation", "qwba", "interpretation_statement", "tib")
# A tax year as the API, the CLI and the rules files write it: "2026-27".
TAX_YEAR_PATTERN = r"^\d{4}-\d{2}$"
# A numbered citation mark in an answer's text: its number and the cited page's address.
CITE_MARK = re.compile(r"\[\[(\d+)\]\]\(([^)\s]+)\)")


def cite_mark(number: int, url: str) -> str:
    """A numbered citation link placed after the sentence it supports: " [[2]](url)"."""
    return f" [[{number}]]({url})"


def tax_year_starting(year: int) -> str:
    """The tax year that starts on 1 April of `year`, as it is written: 2026 is "2026-27"."""
    return f"{year}-{(year + 1) % 100:02d}"


class Citation(BaseModel):
    title: str
    url: str
    section: str | None = None

    def to_json(self) -> dict:
        out = {"title": self.title, "url": self.url}
        if self.section:
            out["section"] = self.section
        return out


class ToolCall(BaseModel):
    name: str
    arguments: dict
    result: dict


class AskResult(BaseModel):
    status: Status
    answer: str
    citations: list[Citation] = Field(default_factory=list)
    tools: list[ToolCall] = Field(default_factory=list)
    tax_year: str
    disclaimer: str
    next_actions: list[str] = Field(default_factory=list, max_length=MAX_NEXT_ACTIONS)
    source: Literal["faq", "engine"] = "engine"
    mode: Literal["llm", "offline"] = "offline"
    latency_ms: int = 0
    # Internal: figures the guard removed, LLM usage; logged, not part of the contract.
    guard_removed: list[str] = Field(default_factory=list, exclude=True)
    usage: dict = Field(default_factory=dict, exclude=True)
    fallback_reason: str | None = Field(default=None, exclude=True)
    # The frame and the decision rows that fired (frame.Trace): shown by `nztax ask --explain`, and in
    # POST /ask only when NZTAX_ASK_TRACE is on.
    trace: dict | None = Field(default=None, exclude=True)

    def to_json(self, include_trace: bool = False) -> dict:
        out = {
            "status": self.status,
            "answer": self.answer,
            "citations": [c.to_json() for c in self.citations],
            "tools": [t.model_dump() for t in self.tools],
            "tax_year": self.tax_year,
            "disclaimer": self.disclaimer,
            "next_actions": list(self.next_actions[:MAX_NEXT_ACTIONS]),
            "source": self.source,
            "mode": self.mode,
            "latency_ms": int(self.latency_ms),
        }
        if include_trace and self.trace is not None:
            out["trace"] = self.trace
        return out

    @classmethod
    def from_json(cls, data: dict) -> "AskResult":
        return cls.model_validate(data)
