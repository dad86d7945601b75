"""The gates against a deliberately degraded copy of the bundled corpus, run through the real parse
stage (not hand-written reports): a quarter of the pages gone and two pages whose body came back
empty stop the night for both reasons; the untouched copy passes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pipeline_night import Night

from nztax_build import gates

REPO = Path(__file__).resolve().parents[2]


def parse_corpus(home: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NZTAX_")}
    env.update(NZTAX_HOME=str(home), LITELLM_LOCAL_MODEL_COST_MAP="True")
    proc = subprocess.run([sys.executable, "-m", "nztax_build.cli", "build", "--only", "parse", "--force"],
                          cwd=home, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]


def night_on(home: Path, scores: Night) -> gates.GateInputs:
    inputs = scores.inputs  # retrieval, answer and calculator results of a healthy night
    inputs.manifest = home / "corpus" / "manifest.json"
    inputs.parse_report = home / ".work" / "state" / "parse.json"
    return inputs


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    """The bundled corpus parsed as it is: the published night, and its metrics as the baseline."""
    home = tmp_path_factory.mktemp("published")
    shutil.copytree(REPO / "corpus", home / "corpus", ignore=shutil.ignore_patterns("snapshot_src"))
    parse_corpus(home)
    return home


def test_real_corpus_degraded_stops_the_night(published, tmp_path, settings):
    scores = Night(tmp_path / "scores").clean()
    clean = gates.evaluate(gates.collect(night_on(published, scores)), None, settings)
    assert clean.passed, clean.table()
    baseline = tmp_path / "metrics.json"
    gates.write_baseline(clean, baseline)
    assert gates.run_gates(night_on(published, scores), baseline, settings).passed  # the same night again passes

    home = tmp_path / "tonight"
    shutil.copytree(published / "corpus", home / "corpus")
    manifest_path = home / "corpus" / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    pages = manifest["pages"]
    for p in pages[: len(pages) // 4]:  # a quarter of the sources answered 404 three nights running
        p["status"], p["gone_count"] = "gone", 3
    broken = [p for p in pages[len(pages) // 4:] if p["file"].endswith(".html")][:2]
    for p in broken:  # the site served an empty shell instead of the page
        (home / "corpus" / p["file"]).write_text("<html><body></body></html>", encoding="utf-8")
        p["content_hash"] = "0" * 64
    manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    parse_corpus(home)

    report = gates.run_gates(night_on(home, scores), baseline, settings)
    failed = {r.name: r.detail for r in report.results if not r.passed}
    assert set(failed) == {"corpus", "parse"}, report.table()
    active = len(pages) - len(pages) // 4
    assert f"{active} active pages vs {len(pages)} published" in failed["corpus"]
    assert "2 of" in failed["parse"] and all(p["url"] in failed["parse"] for p in broken)
