"""The nightly workflow: schema-valid (schemastore's github-workflow schema vendored by the pinned
check-jsonschema, run offline), and structurally what the operating guide promises."""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import datetime, UTC
from pathlib import Path

import pytest
import yaml

from nztax_build.cli import COMMANDS

REPO = Path(__file__).resolve().parents[2]
WORKFLOW = REPO / ".github" / "workflows" / "nightly.yml"


@pytest.fixture(scope="module")
def workflow() -> dict:
    # PyYAML reads the `on:` key as the boolean True (YAML 1.1); normalise it.
    data = yaml.safe_load(WORKFLOW.read_text())
    if True in data:
        data["on"] = data.pop(True)
    return data


@pytest.fixture(scope="module")
def steps(workflow) -> list[dict]:
    (job,) = workflow["jobs"].values()
    return job["steps"]


def check_jsonschema(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_workflow_passes_the_github_workflow_schema():
    result = check_jsonschema(WORKFLOW)
    assert result.returncode == 0, result.stdout + result.stderr


def test_schema_check_rejects_a_broken_workflow(tmp_path):
    broken = WORKFLOW.read_text().replace("cancel-in-progress: false", "cancel-in-progress: maybe-later")
    broken = broken.replace("runs-on: ubuntu-24.04", "runs_on: ubuntu-24.04")
    path = tmp_path / "broken.yml"
    path.write_text(broken)
    assert check_jsonschema(path).returncode != 0


def test_schedule_is_utc_cron_off_the_hour(workflow):
    (entry,) = workflow["on"]["schedule"]
    fields = entry["cron"].split()
    assert len(fields) == 5
    minute, hour = int(fields[0]), int(fields[1])
    assert minute not in (0, 30), "GitHub delays or drops runs queued at the top of the hour"
    assert fields[2:] == ["*", "*", "*"], "nightly"
    # The comment's NZ times: 02:17 in winter (NZST), 03:17 in summer (NZDT).
    zoneinfo = pytest.importorskip("zoneinfo")
    try:
        auckland = zoneinfo.ZoneInfo("Pacific/Auckland")
    except zoneinfo.ZoneInfoNotFoundError:
        pytest.skip("no time zone database")
    winter = datetime(2026, 7, 1, hour, minute, tzinfo=UTC).astimezone(auckland)
    summer = datetime(2027, 1, 15, hour, minute, tzinfo=UTC).astimezone(auckland)
    assert (winter.hour, winter.minute, summer.hour, summer.minute) == (2, 17, 3, 17)
    assert "02:17 NZST" in WORKFLOW.read_text() and "03:17 NZDT" in WORKFLOW.read_text()


def test_manual_dispatch_for_budget_day(workflow):
    inputs = workflow["on"]["workflow_dispatch"]["inputs"]
    assert inputs["full_rebuild"]["type"] == "boolean"
    assert inputs["rebaseline"]["type"] == "boolean"


def test_runs_never_overlap(workflow):
    assert workflow["concurrency"] == {"group": "nightly-publish", "cancel-in-progress": False}


def test_minimal_permissions_and_no_json_keys(workflow, steps):
    assert workflow["permissions"] == {"contents": "read"}
    (job,) = workflow["jobs"].values()
    assert job["permissions"] == {"contents": "read", "id-token": "write"}
    text = WORKFLOW.read_text()
    assert "${{ secrets." not in text, "deploy credentials come from Workload Identity Federation only"
    assert "credentials_json" not in text
    (auth,) = [s for s in steps if str(s.get("uses", "")).startswith("google-github-actions/auth@")]
    assert set(auth["with"]) == {"workload_identity_provider", "service_account"}


def test_pipeline_order_and_stop_rules(steps):
    names = [s.get("id") for s in steps]
    order = ["baseline", "crawl", "build", "eval", "calculators", "gates", "auth", "deploy"]
    assert [n for n in names if n in order] == order
    by_id = {s["id"]: s for s in steps if "id" in s}
    # Eval and calculator results are judged by the gates; the gates and deploy may not be skipped over.
    assert by_id["eval"].get("continue-on-error") is True
    assert by_id["calculators"].get("continue-on-error") is True
    for stop in ("crawl", "build", "gates", "auth", "deploy"):
        assert "continue-on-error" not in by_id[stop] and "if" not in by_id[stop], stop
    assert (
        "--baseline" in by_id["gates"]["run"] and "--write-baseline site/_nztax/metrics.json" in by_id["gates"]["run"]
    )
    assert "--junitxml=.work/reports/calculators.xml" in by_id["calculators"]["run"]
    explain = [s for s in steps if s.get("if") == "${{ failure() }}"]
    assert explain and "GITHUB_STEP_SUMMARY" in explain[-1]["run"] and "stay live" in explain[-1]["run"]


def makefile_targets() -> set[str]:
    text = (REPO / "Makefile").read_text()
    return set(re.findall(r"^([a-z][a-z-]*):", text, flags=re.MULTILINE))


def test_every_make_and_nztax_verb_in_run_steps_exists(steps):
    targets = makefile_targets()
    used_make, used_nztax = set(), set()
    for step in steps:
        script = step.get("run", "")
        used_make.update(re.findall(r"(?:^|[;&|]\s*|\s)make\s+([a-z][a-z-]*)", script))
        used_nztax.update(re.findall(r"nztax\s+([a-z][a-z-]*)", script))
    assert used_make >= {"setup", "crawl", "site", "eval", "deploy"}
    assert used_make <= targets, used_make - targets
    assert used_nztax == {"gates"}
    assert used_nztax <= set(COMMANDS)


def test_tool_versions_are_pinned(steps):
    for step in steps:
        uses = step.get("uses")
        if uses:
            assert re.fullmatch(r"[\w.-]+/[\w./-]+@v\d+(\.\d+)*", uses), uses
    npm = [s["run"] for s in steps if "npm install" in s.get("run", "")]
    assert npm and all(re.search(r"firebase-tools@\d+\.\d+\.\d+", r) for r in npm)


def test_gate_and_deploy_knobs_are_documented():
    import nztax.settings as settings_module

    knobs = [
        "NZTAX_GATE_MAX_SHRINK", "NZTAX_GATE_MAX_PARSE_FAILURES", "NZTAX_GATE_SCORE_TOLERANCE",
        "NZTAX_GCP_PROJECT", "NZTAX_GCP_REGION", "NZTAX_SITE_URL", "NZTAX_FIREBASE_SITE",
        "NZTAX_FUNCTION_LLM_MODEL", "NZTAX_GEMINI_SECRET", "NZTAX_FUNCTION_MAX_INSTANCES",
    ]  # fmt: skip
    guide = (REPO / "docs" / "operations.md").read_text()
    source = Path(settings_module.__file__).read_text()
    for knob in knobs:
        assert f"| {knob}" in guide, f"{knob} missing from the settings table (docs/operations.md)"
        assert f'"{knob}"' in source, f"{knob} is not read by get_settings()"
    for knob in ["NZTAX_FIREBASE_SITE", "NZTAX_FUNCTION_LLM_MODEL", "NZTAX_GEMINI_SECRET"]:
        assert knob in guide, f"{knob} missing from docs/operations.md"
    workflow_vars = set(re.findall(r"vars\.([A-Z_]+)", WORKFLOW.read_text()))
    for var in workflow_vars:
        assert var in guide, f"repository variable {var} is not documented"
