"""Reads the engine's YAML data files: text in, plain Python values out.

libyaml's C loader parses the data files about ten times faster than PyYAML's pure-Python one; at
cold start that is most of the time spent before the first answer. PyYAML falls back to the Python
loader where it was built without libyaml (same results, slower).
"""

from __future__ import annotations

import yaml

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(text: str):
    """The value a YAML document holds (safe types only)."""
    return yaml.load(text, Loader=LOADER)
