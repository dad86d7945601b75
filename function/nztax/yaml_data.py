"""Reads the engine's YAML data files: text in, plain Python values out.

libyaml's C loader parses the data files about ten times faster than PyYAML's pure-Python one;
PyYAML falls back to the Python loader where it was built without libyaml (same results, slower).

Faster still is not parsing at all: `nztax build` writes every data file's parsed value beside the
index (`data.pickle`, `save_compiled`), keyed by the sha256 of the file's text. `load_yaml` looks a
text up there first, so a file edited since the build simply misses and is parsed as before; the
values are the ones the same loader produced, so nothing read changes. The file carries the CRC-32
of its own payload, and only plain data types may be unpickled from it: a damaged or foreign file
is ignored (with a log line), never trusted.
"""

from __future__ import annotations

import datetime
import hashlib
import io
import json
import logging
import pickle
import threading
from pathlib import Path

import yaml

from nztax import checked_file
from nztax.settings import get_settings

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
COMPILED_FILE = "data.pickle"
# What the stored values depend on besides the text: the file layout, the loader and its version.
COMPILED_KEY = f"nztax-yaml-1 {LOADER.__name__} {yaml.__version__}"
_SAFE_GLOBALS = {("datetime", "date"), ("datetime", "datetime"), ("datetime", "timedelta"), ("datetime", "timezone"),
                 ("builtins", "set"), ("builtins", "frozenset"), ("builtins", "complex")}

log = logging.getLogger("nztax.yaml_data")

_compiled: dict[str, bytes] | None = None
_compiled_lock = threading.Lock()


def parse_yaml(text: str):
    """The value a YAML document holds (safe types only), parsed now."""
    return yaml.load(text, Loader=LOADER)


def load_yaml(text: str):
    """The value a YAML document holds (safe types only): from the build's compiled copy when it
    holds this exact text, else parsed. Each call returns its own copy (callers may change it)."""
    stored = _compiled_values().get(_text_key(text))
    if stored is not None:
        try:
            return _SafeUnpickler(io.BytesIO(stored)).load()
        except (pickle.UnpicklingError, ValueError, EOFError) as exc:
            log.warning(json.dumps({"event": "compiled_data_ignored", "detail": str(exc)[:200]}))
    return parse_yaml(text)


def _text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class _SafeUnpickler(pickle.Unpickler):
    """Unpickles YAML's safe types only: anything else in the file is refused, not run."""

    def find_class(self, module: str, name: str):
        if (module, name) in _SAFE_GLOBALS:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not a YAML data type")


def _compiled_values() -> dict[str, bytes]:
    global _compiled
    if _compiled is None:
        with _compiled_lock:
            if _compiled is None:

                _compiled = read_compiled(get_settings().index_dir / COMPILED_FILE)
    return _compiled


def read_compiled(path: Path) -> dict[str, bytes]:
    """{sha256 of a YAML text: its pickled value} from `path`; empty when missing, foreign or damaged."""
    try:
        raw = path.read_bytes()
    except OSError:
        return {}
    try:
        payload = checked_file.payload(raw, COMPILED_KEY)
        if payload is None:
            return {}  # written by another loader or layout: parse instead
        values = _SafeUnpickler(io.BytesIO(payload)).load()
        if not isinstance(values, dict) or not all(isinstance(v, bytes) for v in values.values()):
            raise ValueError("not a table of pickled values")
        return values
    except (ValueError, pickle.UnpicklingError, EOFError) as exc:
        log.warning(json.dumps({"event": "compiled_data_ignored", "file": str(path), "detail": str(exc)[:200]}))
        return {}


def save_compiled(directory: Path, files: list[Path]) -> Path:
    """Parse each YAML file in `files` and write their values to `directory/COMPILED_FILE`."""
    values = {}
    for path in files:
        text = path.read_text(encoding="utf-8")
        values[_text_key(text)] = pickle.dumps(parse_yaml(text), protocol=pickle.HIGHEST_PROTOCOL)
    payload = pickle.dumps(values, protocol=pickle.HIGHEST_PROTOCOL)
    target = Path(directory) / COMPILED_FILE
    checked_file.write(target, payload, COMPILED_KEY, files=len(values))
    return target


def yaml_files(source: Path) -> list[Path]:
    """The YAML files a data source holds: a folder's (at any depth), or the source itself when it
    is one file (the unit bank may be given as one file)."""
    source = Path(source)
    return [source] if source.is_file() else sorted(source.rglob("*.yaml"))


def data_files(*directories: Path | None) -> list[Path]:
    """Every YAML file under the package and the given sources (the rules and units may live elsewhere)."""
    roots = [Path(__file__).resolve().parent, *(Path(d) for d in directories if d)]
    seen: dict[Path, None] = {}
    for root in roots:
        for path in yaml_files(root):
            seen.setdefault(path.resolve(), None)
    return list(seen)


def forget_compiled() -> None:
    """Read `data.pickle` again on next use (after a new index is published, and in tests)."""
    global _compiled
    _compiled = None
