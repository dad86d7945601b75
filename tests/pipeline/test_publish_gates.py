"""Publish gates against a deliberately degraded night: each degradation stops it for its reason."""

from __future__ import annotations

import json

import pytest
from pipeline_night import BASELINE_PAGES, Night, junit, page

from nztax_build import gates
from nztax_build.cli import main as nztax


def run(night: Night, baseline_file, settings) -> gates.GateReport:
    return gates.run_gates(night.inputs, baseline_file, settings)


def failed(report: gates.GateReport) -> dict[str, str]:
    return {r.name: r.detail for r in report.results if not r.passed}


def test_clean_night_passes(night, baseline_file, settings):
    report = run(night, baseline_file, settings)
    assert report.passed, report.table()
    assert [r.name for r in report.results] == ["corpus", "parse", "retrieval", "answers", "calculators", "sources"]
    assert report.baseline_used


def test_corpus_dropping_30_percent_of_pages_stops_the_night(night, baseline_file, settings):
    kept = BASELINE_PAGES * 7 // 10  # 28 of 40 pages left
    night.manifest([page(i) for i in range(kept)] + [page(i, status="gone") for i in range(kept, BASELINE_PAGES)])
    report = run(night, baseline_file, settings)
    assert not report.passed
    assert set(failed(report)) == {"corpus"}
    assert "28 active pages vs 40 published" in failed(report)["corpus"]
    assert "-30.0%" in failed(report)["corpus"]


@pytest.mark.parametrize(("active", "passes"), [(36, True), (35, False)])
def test_corpus_shrink_threshold_is_ten_percent(night, baseline_file, settings, active, passes):
    # 10% of 40 published pages is 4: 36 active pages is the least that may publish.
    night.manifest([page(i) for i in range(active)])
    report = run(night, baseline_file, settings)
    assert report.passed is passes


def test_empty_corpus_fails_even_without_a_baseline(night, settings):
    night.manifest([page(i, status="gone") for i in range(5)])
    report = gates.run_gates(night.inputs, None, settings)
    assert failed(report) == {"corpus": "no active pages in the manifest"}


def test_a_page_failing_to_parse_stops_the_night(night, baseline_file, settings):
    bad = "https://www.ird.govt.nz/income-tax/page-7"
    night.parse_report(BASELINE_PAGES, failed=[{"url": bad, "error": "no main content"}])
    report = run(night, baseline_file, settings)
    assert set(failed(report)) == {"parse"}
    assert "1 of 40 pages failed to parse" in failed(report)["parse"]
    assert bad in failed(report)["parse"]


def test_parse_failure_limit_is_a_knob(night, baseline_file, settings):
    from dataclasses import replace

    night.parse_report(BASELINE_PAGES, failed=[{"url": "u1"}, {"url": "u2"}])
    assert not run(night, baseline_file, settings).passed
    assert run(night, baseline_file, replace(settings, gate_max_parse_failures=2)).passed


def test_a_lower_mrr_stops_the_night(night, baseline_file, settings):
    lowered = {
        "hybrid": {"hit@1": 0.80, "hit@5": 0.95, "mrr": 0.80},
        "bm25": {"hit@1": 0.70, "hit@5": 0.90, "mrr": 0.78},
    }
    night.retrieval(lowered)
    report = run(night, baseline_file, settings)
    assert set(failed(report)) == {"retrieval"}
    assert "hybrid.mrr 0.800 < published 0.860" in failed(report)["retrieval"]


def test_a_drop_within_tolerance_passes(night, baseline_file, settings):
    night.retrieval(
        {"hybrid": {"hit@1": 0.80, "hit@5": 0.945, "mrr": 0.855}, "bm25": {"hit@1": 0.7, "hit@5": 0.9, "mrr": 0.78}}
    )
    assert run(night, baseline_file, settings).passed


def test_a_retrieval_mode_missing_tonight_fails(night, baseline_file, settings):
    night.retrieval({"hybrid": {"hit@1": 0.8, "hit@5": 0.95, "mrr": 0.86}})
    assert "bm25.mrr missing" in failed(run(night, baseline_file, settings))["retrieval"]


def test_lower_answer_facts_score_stops_the_night(night, baseline_file, settings):
    night.answers({"behaviour": 1.0, "facts": 0.90, "citations": 0.93})
    report = run(night, baseline_file, settings)
    assert set(failed(report)) == {"answers"}
    assert "facts 0.900 < published 0.970" in failed(report)["answers"]


def test_failing_calculator_tests_stop_the_night(night, baseline_file, settings):
    night.calculators(junit(120, failures=2))
    report = run(night, baseline_file, settings)
    assert set(failed(report)) == {"calculators"}
    assert "120 tests, 2 failed" in failed(report)["calculators"]


def test_calculator_exit_code_input(night, baseline_file, settings):
    inputs = night.inputs
    inputs.calculator_junit = None
    inputs.calculator_exit_code = 1
    assert set(failed(gates.run_gates(inputs, baseline_file, settings))) == {"calculators"}
    inputs.calculator_exit_code = 5  # pytest collected nothing: the tests did not run
    assert "did not run" in failed(gates.run_gates(inputs, baseline_file, settings))["calculators"]
    inputs.calculator_exit_code = 0
    assert gates.run_gates(inputs, baseline_file, settings).passed


def test_missing_eval_result_fails_its_gate_with_the_path(night, baseline_file, settings):
    night.inputs.answers.unlink()
    detail = failed(run(night, baseline_file, settings))["answers"]
    assert detail.endswith("answers.json is missing")


def test_unreadable_inputs_fail_without_raising(night, baseline_file, settings):
    night.write(night.inputs.retrieval, "{not json")
    night.write(night.inputs.calculator_junit, "<testsuites><oops")
    bad = failed(run(night, baseline_file, settings))
    assert "not readable JSON" in bad["retrieval"]
    assert "not a JUnit XML file" in bad["calculators"]


def test_every_degradation_at_once_lists_every_reason(night, baseline_file, settings):
    night.manifest([page(i) for i in range(20)])
    night.parse_report(20, failed=[{"url": "u"}])
    night.retrieval(
        {"hybrid": {"hit@1": 0.5, "hit@5": 0.6, "mrr": 0.55}, "bm25": {"hit@1": 0.7, "hit@5": 0.9, "mrr": 0.78}}
    )
    night.calculators(junit(10, errors=1))
    report = run(night, baseline_file, settings)
    assert set(failed(report)) == {"corpus", "parse", "retrieval", "calculators"}
    assert len(report.reasons) == 4
    md = report.markdown()
    assert "night stopped" in md and "stay live" in md
    for name in ("corpus", "parse", "retrieval", "calculators"):
        assert f"- **{name}**" in md


def test_first_publish_without_baseline_records_scores(night, settings):
    report = gates.run_gates(night.inputs, None, settings)
    assert report.passed
    assert not report.baseline_used
    assert all("no baseline" in r.detail for r in report.results if r.name in ("corpus", "retrieval", "answers"))


def test_written_baseline_round_trips(baseline_file):
    data = json.loads(baseline_file.read_text())
    assert data["format"] == gates.BASELINE_FORMAT
    assert data["corpus"]["active_pages"] == BASELINE_PAGES
    assert data["corpus"]["inactive_pages"] == 1
    assert data["retrieval"]["hybrid"]["mrr"] == 0.86
    assert data["answers"] == {"behaviour": 1.0, "facts": 0.97, "citations": 0.93}
    loaded = gates.read_baseline(baseline_file)
    assert loaded.corpus.active_pages == BASELINE_PAGES


def test_tolerant_readers(tmp_path):
    night = Night(tmp_path)
    night.retrieval(
        {"queries": 50, "modes": {"hybrid": {"hit_at_1": 0.8, "Hits@5": 0.9, "MRR": 0.85, "per_query": [1, 2]}}}
    )
    assert gates.read_retrieval(night.inputs.retrieval) == {"hybrid": {"hit@1": 0.8, "hit@5": 0.9, "mrr": 0.85}}
    night.answers({"scores": {"behavior": {"passed": 9, "total": 10}, "facts": {"score": 0.5}, "citations": 1}})
    assert gates.read_answers(night.inputs.answers) == {"behaviour": 0.9, "facts": 0.5, "citations": 1.0}
    night.write(night.inputs.parse_report, {"pages": [{"url": "a", "status": "ok"}, {"url": "b", "status": "failed"}]})
    parsed = gates.read_parse_report(night.inputs.parse_report)
    assert (parsed.pages, parsed.parsed, parsed.failed, parsed.failed_urls) == (2, 1, 1, ["b"])
    night.write(night.inputs.parse_report, {"pages": 12, "failed": 0, "warnings": ["odd table"]})
    parsed = gates.read_parse_report(night.inputs.parse_report)
    assert (parsed.pages, parsed.parsed, parsed.failed, parsed.warnings) == (12, 12, 0, 1)


# ---------------------------------------------------------------- the CLI


def cli_args(night: Night) -> list[str]:
    i = night.inputs
    return [
        "gates",
        "--manifest", str(i.manifest),
        "--parse-report", str(i.parse_report),
        "--retrieval", str(i.retrieval),
        "--answers", str(i.answers),
        "--calculator-junit", str(i.calculator_junit),
        "--no-figures",  # the synthetic manifest has no real pages to find the rules' figures on
    ]  # fmt: skip


def test_cli_clean_night_exit_0_writes_summary_and_baseline(night, baseline_file, tmp_path, clean_env, capsys):
    summary = tmp_path / "summary.md"
    clean_env.setenv("GITHUB_STEP_SUMMARY", str(summary))
    out = tmp_path / "site" / "_nztax" / "metrics.json"
    code = nztax(cli_args(night) + ["--baseline", str(baseline_file), "--write-baseline", str(out)])
    assert code == 0
    assert "gates PASSED" in capsys.readouterr().err
    assert "Nightly publish gates: passed" in summary.read_text()
    assert json.loads(out.read_text())["corpus"]["active_pages"] == BASELINE_PAGES


def test_cli_stopped_night_exit_1_says_why_and_writes_no_baseline(night, baseline_file, tmp_path, clean_env, capsys):
    night.manifest([page(i) for i in range(28)])
    summary = tmp_path / "summary.md"
    out = tmp_path / "metrics.json"
    code = nztax(
        cli_args(night) + ["--baseline", str(baseline_file), "--write-baseline", str(out), "--summary", str(summary)]
    )
    assert code == 1
    err = capsys.readouterr().err
    assert "corpus       FAIL" in err and "STOPPED" in err
    text = summary.read_text()
    assert "night stopped" in text and "**corpus**: 28 active pages vs 40 published" in text
    assert not out.exists()


def test_cli_json_output(night, baseline_file, clean_env, capsys):
    assert nztax(cli_args(night) + ["--baseline", str(baseline_file), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["passed"] is True and len(payload["gates"]) == 6


def test_cli_bad_baseline_exit_2(night, tmp_path, clean_env, capsys):
    assert nztax(cli_args(night) + ["--baseline", str(tmp_path / "nope.json")]) == 2
    assert "not found" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 99}')
    assert nztax(cli_args(night) + ["--baseline", str(bad)]) == 2
    assert "not a baseline metrics file" in capsys.readouterr().err


def test_cli_shrink_knob_from_environment(night, baseline_file, clean_env):
    night.manifest([page(i) for i in range(28)])
    clean_env.setenv("NZTAX_GATE_MAX_SHRINK", "0.35")
    assert nztax(cli_args(night) + ["--baseline", str(baseline_file)]) == 0


def test_reads_the_parse_stage_state_file(tmp_path, night, baseline_file, settings):
    # The build pipeline records each stage's summary under "summary" in .work/state/<stage>.json.
    state = night.root / ".work" / "state" / "parse.json"
    failed_url = "https://www.ird.govt.nz/income-tax/page-3"
    night.write(
        state,
        {
            "fingerprint": "abc",
            "finished_at": "2026-11-21T14:40:00Z",
            "seconds": 4.2,
            "summary": {"pages": 40, "parsed": 39, "reparsed": 2, "failed": [failed_url], "warnings": 0},
        },
    )
    inputs = night.inputs
    inputs.parse_report = state
    parsed = gates.read_parse_report(state)
    assert (parsed.pages, parsed.parsed, parsed.failed, parsed.failed_urls) == (40, 39, 1, [failed_url])
    assert set(failed(gates.run_gates(inputs, baseline_file, settings))) == {"parse"}


def test_default_parse_report_is_the_state_file_unless_a_report_exists(tmp_path, settings):
    from dataclasses import replace

    local = replace(settings, work_dir=tmp_path / ".work", corpus_dir=tmp_path / "corpus")
    assert gates.default_inputs(local).parse_report == tmp_path / ".work" / "state" / "parse.json"
    (tmp_path / ".work" / "reports").mkdir(parents=True)
    (tmp_path / ".work" / "reports" / "parse.json").write_text("{}")
    assert gates.default_inputs(local).parse_report == tmp_path / ".work" / "reports" / "parse.json"
