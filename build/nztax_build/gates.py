"""Publish gates: decide whether tonight's build may replace the published one.

In: the files the pipeline writes (corpus/manifest.json, the parse report, the retrieval and
answer eval results, the calculator test result) and, optionally, the metrics of the last
published build (a "baseline" file this module also writes).
Out: a `GateReport` — one `GateResult` per gate, a pass/fail verdict, a plain-text table and a
markdown summary (for $GITHUB_STEP_SUMMARY).

Gates (thresholds are settings knobs, see `nztax.settings`):
- corpus: the manifest has active pages, and not `gate_max_shrink` fewer than the baseline;
- parse: no more than `gate_max_parse_failures` pages failed to parse;
- retrieval / answers: no score below the baseline's by more than `gate_score_tolerance`;
- calculators: the calculator tests ran and none failed;
- sources: tonight's crawl found no cited address gone (404/410), redirecting to another page or
  holding a page with another title (`source_check`; not checked when no crawl report is given).
- figures: every figure of the rules data still stands on the page that states it (`freshness.py`).

Input readers are tolerant (other stages own those formats; docs/operations.md documents what is
read). A missing or unreadable input fails its gate with a reason; it never raises.
"""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from dataclasses import asdict, dataclass, field
from datetime import datetime, UTC
from pathlib import Path
from typing import Any

BASELINE_FORMAT = 1

# Per-query lists and counts sit beside the summary scores in eval files; only these
# top-level keys hold per-mode retrieval scores when a wrapper object is used.
_WRAPPER_KEYS = ("modes", "summary", "scores", "metrics", "results")
_ANSWER_SCORES = ("behaviour", "facts", "citations")


class GateInputError(ValueError):
    """An input file exists but cannot be understood (bad JSON, wrong shape)."""


# ---------------------------------------------------------------- metrics records


@dataclass
class CorpusMetrics:
    active_pages: int
    inactive_pages: int
    by_source_type: dict[str, int] = field(default_factory=dict)


@dataclass
class ParseMetrics:
    pages: int
    parsed: int
    failed: int
    warnings: int
    failed_urls: list[str] = field(default_factory=list)


@dataclass
class CalculatorMetrics:
    ran: bool
    tests: int
    failures: int
    errors: int
    source: str  # "junit:<path>" or "exit-code"

    @property
    def passed(self) -> bool:
        return self.ran and self.failures == 0 and self.errors == 0 and self.tests > 0


@dataclass
class SourcesMetrics:
    checked: int
    problems: list[str] = field(default_factory=list)  # "<kind> <url>: <detail>"


@dataclass
class FiguresMetrics:
    checked: int
    failed: int
    failures: list[str] = field(default_factory=list)  # one line each: figure, page, what the page says now


@dataclass
class NightMetrics:
    """Everything the gates compare; the published build's copy is the next night's baseline."""

    corpus: CorpusMetrics | None = None
    parse: ParseMetrics | None = None
    retrieval: dict[str, dict[str, float]] = field(default_factory=dict)
    answers: dict[str, float] = field(default_factory=dict)
    calculators: CalculatorMetrics | None = None
    sources: SourcesMetrics | None = None
    figures: FiguresMetrics | None = None
    problems: dict[str, str] = field(default_factory=dict)  # input name -> why it could not be read

    def to_baseline(self) -> dict[str, Any]:
        data = {
            "format": BASELINE_FORMAT,
            "recorded_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "corpus": asdict(self.corpus) if self.corpus else None,
            "parse": asdict(self.parse) if self.parse else None,
            "retrieval": self.retrieval,
            "answers": self.answers,
            "calculators": asdict(self.calculators) if self.calculators else None,
            "figures": asdict(self.figures) if self.figures else None,
        }
        return data


@dataclass
class Baseline:
    corpus: CorpusMetrics | None
    retrieval: dict[str, dict[str, float]]
    answers: dict[str, float]
    recorded_at: str | None = None


# ---------------------------------------------------------------- readers


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise GateInputError(f"{path}: not readable JSON ({exc})") from None


def _number(value: Any) -> float | None:
    """A finite score from a number, or from {"score"|"rate"|"mean"|"value": x} or {"passed", "total"}."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, dict):
        for key in ("score", "rate", "mean", "value"):
            if key in value:
                return _number(value[key])
        if "passed" in value and "total" in value:
            total = _number(value["total"])
            passed = _number(value["passed"])
            if total and passed is not None:
                return passed / total
    return None


def _count(value: Any) -> int:
    """A count given either as an integer or as the list of the things counted."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return int(value)
    if isinstance(value, (list, tuple, dict)):
        return len(value)
    return 0


def read_manifest(path: Path) -> CorpusMetrics:
    data = _load_json(path)
    pages = data.get("pages") if isinstance(data, dict) else None
    if not isinstance(pages, list):
        raise GateInputError(f"{path}: no 'pages' list")
    active = inactive = 0
    by_type: dict[str, int] = {}
    for page in pages:
        if not isinstance(page, dict):
            continue
        # A page without a status predates status tracking: it is live.
        if page.get("status", "active") == "active":
            active += 1
            kind = str(page.get("source_type") or "unknown")
            by_type[kind] = by_type.get(kind, 0) + 1
        else:
            inactive += 1
    return CorpusMetrics(active_pages=active, inactive_pages=inactive, by_source_type=dict(sorted(by_type.items())))


def read_parse_report(path: Path) -> ParseMetrics:
    """Read {"pages", "parsed", "failed", "warnings"}; each a count or a list (see docs/operations.md)."""
    data = _load_json(path)
    if not isinstance(data, dict):
        raise GateInputError(f"{path}: expected a JSON object")
    data = data.get("summary", data) if isinstance(data.get("summary"), dict) else data
    failed_raw = data.get("failed", data.get("failures", 0))
    failed_urls = []
    if isinstance(failed_raw, list):
        for item in failed_raw:
            if isinstance(item, dict) and item.get("url"):
                failed_urls.append(str(item["url"]))
            elif isinstance(item, str):
                failed_urls.append(item)
    pages_raw = data.get("pages", 0)
    # A per-page list [{url, status}] is also accepted: derive the counts from it.
    if isinstance(pages_raw, list) and "failed" not in data and "failures" not in data:
        per_page = [p for p in pages_raw if isinstance(p, dict)]
        bad = [p for p in per_page if str(p.get("status", "ok")).lower() in ("failed", "error")]
        failed_raw = len(bad)
        failed_urls = [str(p.get("url", "?")) for p in bad]
    pages = _count(pages_raw)
    failed = _count(failed_raw)
    parsed = _count(data["parsed"]) if "parsed" in data else max(pages - failed, 0)
    return ParseMetrics(
        pages=pages,
        parsed=parsed,
        failed=failed,
        warnings=_count(data.get("warnings", 0)),
        failed_urls=failed_urls,
    )


def _metric_name(key: str) -> str:
    name = key.strip().lower().replace("_at_", "@").replace("hits@", "hit@")
    return "hit@" + name[len("hit_") :] if name.startswith("hit_") and name[4:].isdigit() else name


def _scores_object(path: Path, expected: str) -> dict:
    """The JSON object of scores in `path`, out of the first wrapper (`_WRAPPER_KEYS`) holding one."""
    data = _load_json(path)
    if not isinstance(data, dict):
        raise GateInputError(f"{path}: expected {expected}")
    return next((data[key] for key in _WRAPPER_KEYS if isinstance(data.get(key), dict)), data)


def read_retrieval(path: Path) -> dict[str, dict[str, float]]:
    """{"hybrid": {"hit@1", "hit@5", "mrr"}, "bm25": {...}, ...} -> mode -> metric -> score."""
    data = _scores_object(path, "a JSON object of modes")
    modes: dict[str, dict[str, float]] = {}
    for mode, metrics in data.items():
        if not isinstance(metrics, dict):
            continue
        scores = {_metric_name(k): v for k, v in ((k, _number(v)) for k, v in metrics.items()) if v is not None}
        if scores:
            modes[str(mode)] = dict(sorted(scores.items()))
    if not modes:
        raise GateInputError(f"{path}: no retrieval scores found")
    return modes


def read_answers(path: Path) -> dict[str, float]:
    """{"behaviour", "facts", "citations"} scores (numbers or {"score"}/{"passed","total"} objects)."""
    data = _scores_object(path, "a JSON object")
    scores: dict[str, float] = {}
    for key, value in data.items():
        name = "behaviour" if key.lower() == "behavior" else key.lower()
        if name in _ANSWER_SCORES:
            number = _number(value)
            if number is not None:
                scores[name] = number
    if not scores:
        raise GateInputError(f"{path}: none of {', '.join(_ANSWER_SCORES)} found")
    return scores


def read_junit(path: Path) -> CalculatorMetrics:
    try:
        root = ET.parse(path).getroot()
    except FileNotFoundError:
        raise
    except (ET.ParseError, OSError) as exc:
        raise GateInputError(f"{path}: not a JUnit XML file ({exc})") from None
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    if not suites and root.tag != "testsuites":
        raise GateInputError(f"{path}: no <testsuite> element")

    def total(attr: str) -> int:
        return sum(int(s.get(attr, 0) or 0) for s in suites)

    return CalculatorMetrics(
        ran=True,
        tests=total("tests"),
        failures=total("failures"),
        errors=total("errors"),
        source=f"junit:{path}",
    )


def read_sources_report(path: Path) -> SourcesMetrics:
    from .source_check import read_report

    try:
        checked, problems = read_report(path)
    except ValueError as exc:
        raise GateInputError(str(exc)) from None
    return SourcesMetrics(checked, [f"{p.kind} {p.url}: {p.detail}" for p in problems])


def calculator_from_exit_code(code: int) -> CalculatorMetrics:
    # pytest exit codes: 0 all passed, 1 some failed, 5 nothing collected, others = could not run.
    if code == 0:
        return CalculatorMetrics(ran=True, tests=1, failures=0, errors=0, source="exit-code 0")
    if code == 1:
        return CalculatorMetrics(ran=True, tests=1, failures=1, errors=0, source="exit-code 1")
    return CalculatorMetrics(ran=code != 5, tests=0, failures=0, errors=1, source=f"exit-code {code}")


def read_baseline(path: Path) -> Baseline:
    data = _load_json(path)
    if not isinstance(data, dict) or data.get("format") != BASELINE_FORMAT:
        raise GateInputError(f"{path}: not a baseline metrics file (format {BASELINE_FORMAT})")
    corpus = data.get("corpus")
    retrieval = data.get("retrieval") or {}
    answers = data.get("answers") or {}
    try:
        return Baseline(
            corpus=CorpusMetrics(**corpus) if isinstance(corpus, dict) else None,
            retrieval={m: {k: float(v) for k, v in s.items()} for m, s in retrieval.items()},
            answers={k: float(v) for k, v in answers.items()},
            recorded_at=data.get("recorded_at"),
        )
    except (TypeError, ValueError, AttributeError) as exc:
        raise GateInputError(f"{path}: malformed baseline ({exc})") from None


@dataclass
class GateInputs:
    manifest: Path
    parse_report: Path | None
    retrieval: Path
    answers: Path
    calculator_junit: Path | None = None
    calculator_exit_code: int | None = None
    sources_report: Path | None = None  # written by `nztax crawl`; None: the sources gate is not checked
    rules_dir: Path | None = None  # the figures gate runs when given (against the manifest's corpus)


def default_inputs(settings) -> GateInputs:
    """Where the pipeline writes its files (see docs/operations.md)."""
    work = Path(settings.work_dir)
    parse_candidates = [work / "reports" / "parse.json", work / "state" / "parse.json"]
    # The build pipeline's own state file is the usual source; a separate report wins if present.
    parse_report = next((p for p in parse_candidates if p.exists()), parse_candidates[1])
    return GateInputs(
        manifest=Path(settings.corpus_dir) / "manifest.json",
        parse_report=parse_report,
        retrieval=work / "eval" / "retrieval.json",
        answers=work / "eval" / "answers.json",
        calculator_junit=work / "reports" / "calculators.xml",
        # Only a night that crawled has one; a build from the bundled snapshot checks no live address.
        sources_report=sources if (sources := work / "reports" / "sources.json").exists() else None,
        rules_dir=Path(settings.rules_dir),
    )


def collect(inputs: GateInputs) -> NightMetrics:
    """Read every input; a missing or bad one is recorded in `problems`, never raised."""
    night = NightMetrics()

    def attempt(name: str, path: Path | None, reader):
        if path is None:
            night.problems[name] = "no file given"
            return None
        try:
            return reader(path)
        except FileNotFoundError:
            night.problems[name] = f"{path} is missing"
        except GateInputError as exc:
            night.problems[name] = str(exc)
        return None

    night.corpus = attempt("corpus", inputs.manifest, read_manifest)
    night.parse = attempt("parse", inputs.parse_report, read_parse_report)
    night.retrieval = attempt("retrieval", inputs.retrieval, read_retrieval) or {}
    night.answers = attempt("answers", inputs.answers, read_answers) or {}
    if inputs.calculator_exit_code is not None:
        night.calculators = calculator_from_exit_code(inputs.calculator_exit_code)
    else:
        night.calculators = attempt("calculators", inputs.calculator_junit, read_junit)
    if inputs.sources_report is not None:
        night.sources = attempt("sources", inputs.sources_report, read_sources_report)
    if inputs.rules_dir is not None:
        night.figures = attempt("figures", inputs.rules_dir, lambda d: read_figures(d, inputs.manifest.parent))
    return night


def read_figures(rules_dir: Path, corpus_dir: Path) -> FiguresMetrics:
    """The freshness check of the rules' figures against the crawled pages."""
    from nztax.rules import RulesError, load_rules

    from .freshness import check_rules

    try:
        report = check_rules(load_rules(rules_dir), corpus_dir)
    except RulesError as exc:
        raise GateInputError(str(exc)) from None
    return FiguresMetrics(len(report.checks), len(report.failures), [c.line() for c in report.failures])


# ---------------------------------------------------------------- gates


@dataclass
class GateResult:
    name: str
    passed: bool
    detail: str


@dataclass
class GateReport:
    results: list[GateResult]
    metrics: NightMetrics
    baseline_used: bool

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.results)

    @property
    def reasons(self) -> list[str]:
        return [f"{r.name}: {r.detail}" for r in self.results if not r.passed]

    def table(self) -> str:
        width = max(len(r.name) for r in self.results)
        lines = [f"{'gate'.ljust(width)}  result  detail", f"{'-' * width}  ------  ------"]
        for r in self.results:
            lines.append(f"{r.name.ljust(width)}  {'pass' if r.passed else 'FAIL'}    {r.detail}")
        verdict = "PASSED: publish" if self.passed else "STOPPED: the last published build stays live"
        lines.append("")
        lines.append(f"gates {verdict}")
        return "\n".join(lines)

    def markdown(self) -> str:
        head = (
            "## Nightly publish gates: passed"
            if self.passed
            else "## Nightly publish gates: night stopped\n\n"
            "The last published site and function stay live. Reasons:\n\n"
            + "\n".join(f"- **{r.name}**: {_md(r.detail)}" for r in self.results if not r.passed)
        )
        if not self.baseline_used:
            head += "\n\n_No baseline: scores were recorded, not compared._"
        rows = "\n".join(
            f"| {r.name} | {'✅ pass' if r.passed else '❌ fail'} | {_md(r.detail)} |" for r in self.results
        )
        return f"{head}\n\n| gate | result | detail |\n|---|---|---|\n{rows}\n"


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _score_gate(
    name: str,
    current: dict[str, float],
    baseline: dict[str, float] | None,
    tolerance: float,
    problem: str | None,
) -> GateResult:
    if problem:
        return GateResult(name, False, problem)
    if not current:
        return GateResult(name, False, "no scores")
    shown = ", ".join(f"{k}={v:.3f}" for k, v in current.items())
    if baseline is None:
        return GateResult(name, True, f"{shown} (no baseline)")
    drops = []
    for metric, old in baseline.items():
        new = current.get(metric)
        if new is None:
            drops.append(f"{metric} missing (was {old:.3f})")
        elif new < old - tolerance:
            drops.append(f"{metric} {new:.3f} < published {old:.3f}")
    if drops:
        return GateResult(name, False, "; ".join(drops) + f" (tolerance {tolerance:g})")
    return GateResult(name, True, f"{shown} (published values held within {tolerance:g})")


def evaluate(night: NightMetrics, baseline: Baseline | None, settings) -> GateReport:
    max_shrink = float(settings.gate_max_shrink)
    max_failures = int(settings.gate_max_parse_failures)
    tolerance = float(settings.gate_score_tolerance)
    results: list[GateResult] = []

    # Corpus: an IRD outage or a crawler bug shows up as pages vanishing.
    corpus = night.corpus
    if corpus is None:
        results.append(GateResult("corpus", False, night.problems.get("corpus", "no manifest")))
    elif corpus.active_pages == 0:
        results.append(GateResult("corpus", False, "no active pages in the manifest"))
    elif baseline is None or baseline.corpus is None or baseline.corpus.active_pages == 0:
        results.append(
            GateResult("corpus", True, f"{corpus.active_pages} active, {corpus.inactive_pages} inactive (no baseline)")
        )
    else:
        before = baseline.corpus.active_pages
        floor = math.ceil(before * (1 - max_shrink))
        shrink = (before - corpus.active_pages) / before
        detail = f"{corpus.active_pages} active pages vs {before} published ({-shrink:+.1%}; limit -{max_shrink:.0%})"
        results.append(GateResult("corpus", corpus.active_pages >= floor, detail))

    # Parse: every page the crawler kept must turn into a document.
    parse = night.parse
    if parse is None:
        results.append(GateResult("parse", False, night.problems.get("parse", "no parse report")))
    else:
        detail = (
            f"{parse.failed} of {parse.pages} pages failed to parse (limit {max_failures}), {parse.warnings} warnings"
        )
        if parse.failed_urls:
            detail += "; failed: " + ", ".join(parse.failed_urls[:5]) + (" …" if len(parse.failed_urls) > 5 else "")
        ok = parse.failed <= max_failures and parse.pages > 0
        if parse.pages == 0:
            detail = "the parse report counts no pages"
        results.append(GateResult("parse", ok, detail))

    # Retrieval: compare each mode the published build was measured on.
    problem = night.problems.get("retrieval")
    if baseline is None or not baseline.retrieval:
        results.append(_score_gate("retrieval", _flatten(night.retrieval), None, tolerance, problem))
    else:
        results.append(
            _score_gate("retrieval", _flatten(night.retrieval), _flatten(baseline.retrieval), tolerance, problem)
        )

    results.append(
        _score_gate(
            "answers",
            night.answers,
            baseline.answers if baseline and baseline.answers else None,
            tolerance,
            night.problems.get("answers"),
        )
    )

    calc = night.calculators
    if calc is None:
        results.append(GateResult("calculators", False, night.problems.get("calculators", "no test result")))
    elif not calc.ran or calc.tests == 0:
        results.append(GateResult("calculators", False, f"calculator tests did not run ({calc.source})"))
    else:
        detail = f"{calc.tests} tests, {calc.failures} failed, {calc.errors} errors ({calc.source})"
        results.append(GateResult("calculators", calc.passed, detail))

    # Sources: a citation must still lead to the page it names.
    if night.sources is not None:
        found = night.sources.problems
        detail = f"{night.sources.checked} sources fetched, {len(found)} gone, moved or retitled"
        if found:
            detail += ": " + "; ".join(found[:5]) + (" …" if len(found) > 5 else "")
        results.append(GateResult("sources", not found, detail))
    elif "sources" in night.problems:
        results.append(GateResult("sources", False, night.problems["sources"]))
    else:
        results.append(GateResult("sources", True, "not checked (no crawl report)"))
    # Figures: a page that no longer states a figure of the rules data, or states another beside the
    # same words, means the rules (or the page) changed: a person must look before anything publishes.
    if night.figures is not None or "figures" in night.problems:
        figs = night.figures
        if figs is None:
            results.append(GateResult("figures", False, night.problems["figures"]))
        else:
            detail = f"{figs.checked - figs.failed} of {figs.checked} figures stated on their pages"
            if figs.failures:
                detail += "; " + "; ".join(figs.failures[:5]) + (" …" if len(figs.failures) > 5 else "")
            results.append(GateResult("figures", figs.failed == 0 and figs.checked > 0, detail))

    return GateReport(results=results, metrics=night, baseline_used=baseline is not None)


def _flatten(modes: dict[str, dict[str, float]]) -> dict[str, float]:
    return {f"{mode}.{metric}": value for mode, scores in modes.items() for metric, value in scores.items()}


def run_gates(inputs: GateInputs, baseline_path: Path | None, settings) -> GateReport:
    """Read inputs and the baseline, evaluate. Raises GateInputError only for a bad baseline file."""
    baseline = read_baseline(baseline_path) if baseline_path is not None else None
    return evaluate(collect(inputs), baseline, settings)


def write_baseline(report: GateReport, path: Path) -> None:
    """Write tonight's metrics (the next night's baseline) atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(report.metrics.to_baseline(), indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)
