"""function/requirements.txt is exactly the pinned query-time set of pyproject.toml."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_requirements_match_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    expected = set(project["dependencies"]) | set(project["optional-dependencies"]["llm"]) | set(
        project["optional-dependencies"]["gemini"])
    lines = [ln.strip() for ln in (ROOT / "function" / "requirements.txt").read_text().splitlines()]
    listed = {ln for ln in lines if ln and not ln.startswith("#")}
    assert listed == expected
    assert all("==" in ln for ln in listed)
