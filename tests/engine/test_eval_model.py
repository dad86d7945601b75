"""`nztax eval realposts|bank --model scripted:<frames.yaml>`: the engine decides and writes from frames
filed by question id, and the reports sit beside the offline ones."""

from __future__ import annotations

import argparse
import json

import pytest
import yaml

from fake_openai import frame
from nztax_build import eval_model

# Posts made up for this test, in the real-post file's format.
POSTS = {"posts": [
    {"id": "made-up-1", "url": "https://example.org/1", "in_scope": True, "expected_status": "answered",
     "question": "I earn $85,000 and my payslip shows $9,200 of PAYE so far. How much tax will I pay?",
     "reference_answer": "Income tax on $85,000 is $17,927.50 for the year.", "must_say": ["$17,927.50"]},
    {"id": "made-up-2", "url": "https://example.org/2", "in_scope": False, "expected_status": "out_of_scope",
     "question": "Should I fix my mortgage for one year or two?", "reference_answer": "Not tax."},
]}
FRAMES = {"version": 1, "frames": {
    "made-up-1": json.loads(frame("figure", [("$85,000", 85000, "annual", "income", "me"),
                                             ("$9,200", 9200, None, "tax_withheld", "me")])["content"]),
    "made-up-2": json.loads(frame("which", scope="mortgage")["content"]),
}}


def test_realposts_through_a_scripted_model(engine_settings, tmp_path, capsys):
    from nztax_build import evaluate_realposts

    golden, frames = tmp_path / "posts.yaml", tmp_path / "frames.yaml"
    golden.write_text(yaml.safe_dump(POSTS))
    frames.write_text(yaml.safe_dump(FRAMES))
    out = tmp_path / "realposts.md"
    out.with_suffix(".json").write_text(json.dumps({"dev": {"scope_right": 0.5}, "test": {"scope_right": 0.5}}))
    args = argparse.Namespace(golden=str(golden), out=str(out), index=str(engine_settings.index_dir), model=f"scripted:{frames}")
    assert evaluate_realposts.run(args) == 0
    sheet = yaml.safe_load((tmp_path / "realposts_sheet.scripted.yaml").read_text())
    by_id = {e["id"]: e["engine"] for e in sheet}
    assert "$17,927.50" in by_id["made-up-1"]["answer"] and by_id["made-up-1"]["mode"] == "llm"
    assert by_id["made-up-2"]["status"] == "out_of_scope"
    summary = json.loads((tmp_path / "realposts.scripted.json").read_text())
    assert summary["model"].startswith("scripted:") and summary["cost"]["offline_fallbacks"] == {}
    assert "offline → scripted" in (tmp_path / "realposts.scripted.md").read_text()


def test_a_frames_file_that_does_not_fit_is_refused_with_its_problems(engine_settings, tmp_path):
    frames = tmp_path / "frames.yaml"
    frames.write_text(yaml.safe_dump({"frames": {"p-1": {"asks": "figure"}, "p-2": FRAMES["frames"]["made-up-2"]}}))
    with pytest.raises(SystemExit, match="p-1"):
        eval_model.model_settings(engine_settings, f"scripted:{frames}")


def test_a_model_without_its_key_is_refused(engine_settings, monkeypatch):
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    with pytest.raises(SystemExit, match="GEMINI_API_KEY"):
        eval_model.model_settings(engine_settings, "gemini/gemini-2.5-flash")
