"""A night's pipeline output files for the gate tests, in the documented formats, and ways to degrade them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from nztax_build import gates

BASELINE_PAGES = 40
# The last published night's scores (hand-written, not produced by our code).
PUBLISHED_RETRIEVAL = {
    "hybrid": {"hit@1": 0.80, "hit@5": 0.95, "mrr": 0.86},
    "bm25": {"hit@1": 0.70, "hit@5": 0.90, "mrr": 0.78},
}
PUBLISHED_ANSWERS = {"behaviour": 1.0, "facts": 0.97, "citations": 0.93}


def page(i: int, status: str = "active") -> dict:
    kind = "guide_pdf" if i % 10 == 0 else "ird_guidance"
    return {
        "url": f"https://www.ird.govt.nz/income-tax/page-{i}",
        "file": f"raw/{i:020d}.html",
        "source_type": kind,
        "title": f"Page {i}",
        "content_type": "text/html",
        "content_hash": f"{i:064x}",
        "status": status,
        "gone_count": 0 if status == "active" else 3,
    }


def junit(tests: int, failures: int = 0, errors: int = 0) -> str:
    cases = "".join(f'<testcase classname="calc" name="t{i}"/>' for i in range(tests))
    return (
        '<?xml version="1.0" encoding="utf-8"?><testsuites>'
        f'<testsuite name="pytest" tests="{tests}" failures="{failures}" errors="{errors}" skipped="0">'
        f"{cases}</testsuite></testsuites>"
    )


@dataclass
class Night:
    """One night's pipeline outputs in a temporary directory, written in the documented formats."""

    root: Path

    @property
    def inputs(self) -> gates.GateInputs:
        return gates.GateInputs(
            manifest=self.root / "corpus" / "manifest.json",
            parse_report=self.root / ".work" / "reports" / "parse.json",
            retrieval=self.root / ".work" / "eval" / "retrieval.json",
            answers=self.root / ".work" / "eval" / "answers.json",
            calculator_junit=self.root / ".work" / "reports" / "calculators.xml",
        )

    def write(self, path: Path, data) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")

    def manifest(self, pages: list[dict]) -> None:
        self.write(
            self.inputs.manifest, {"format": 1, "snapshot": False, "updated_at": "2026-11-21T14:30:00Z", "pages": pages}
        )

    def parse_report(self, pages: int, failed: list[dict] | None = None, warnings: int = 0) -> None:
        failed = failed or []
        self.write(
            self.inputs.parse_report,
            {"pages": pages, "parsed": pages - len(failed), "failed": failed, "warnings": warnings},
        )

    def retrieval(self, data: dict) -> None:
        self.write(self.inputs.retrieval, data)

    def answers(self, data: dict) -> None:
        self.write(self.inputs.answers, data)

    def calculators(self, xml: str) -> None:
        self.write(self.inputs.calculator_junit, xml)

    def clean(self, pages: int = BASELINE_PAGES) -> Night:
        """A healthy night: the published night again."""
        self.manifest([page(i) for i in range(pages)] + [page(900, status="gone")])
        self.parse_report(pages)
        self.retrieval(json.loads(json.dumps(PUBLISHED_RETRIEVAL)))
        self.answers(dict(PUBLISHED_ANSWERS))
        self.calculators(junit(120))
        return self
