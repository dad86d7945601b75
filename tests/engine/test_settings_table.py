"""Every environment variable the settings module reads has a row in the settings table of
docs/operations.md, with the default the code uses: that table is where a newcomer looks a setting up."""

import re
from pathlib import Path

import nztax.settings as settings_module

SOURCE = Path(settings_module.__file__).read_text(encoding="utf-8")
GUIDE = Path(__file__).resolve().parents[2] / "docs" / "operations.md"
READ = dict(re.findall(r'_(?:env|path)\("(NZTAX_[A-Z0-9_]+)",\s*"([^"]*)"', SOURCE))
ROWS = [line.split("|") for line in GUIDE.read_text(encoding="utf-8").splitlines() if line.startswith("| NZTAX_")]


def _documented() -> dict[str, str]:
    """name -> default, a row naming two settings ("A / B | 1 / 2") split into both."""
    out = {}
    for row in ROWS:
        names = [n.strip() for n in row[1].split("/")]
        defaults = [d.strip() for d in row[2].split(" / ")] if len(names) > 1 else [row[2].strip()]
        out.update(zip(names, defaults if len(defaults) == len(names) else defaults * len(names)))
    return out


def test_every_setting_read_has_a_row():
    documented = _documented()
    assert READ, "no settings found: the reader's pattern no longer matches the module"
    assert sorted(set(READ) - set(documented)) == []


def test_a_documented_numeric_default_is_the_one_the_code_uses():
    documented = _documented()
    wrong = []
    for name, default in READ.items():
        row = documented.get(name, "")
        try:
            if float(row) != float(default):
                wrong.append((name, row, default))
        except ValueError:
            continue  # (text defaults: paths, URLs, model names are described, not always quoted)
    assert wrong == []
