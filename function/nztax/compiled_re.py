"""Regular expressions compiled at build time, so a cold start does not compile them again.

In: `regex.pickle` beside the index, written by `nztax build` (`record`, in a fresh process that
goes through a cold start: the function's imports, the engine's load and its warm-up answers).
Out: `install()`, which makes `re` take each pattern it holds from there instead of compiling it.

Why: the reading modules compile a few hundred patterns at import, and Python's compiler (parser
and code generator, both pure Python) spends a quarter of a second on them at every cold start.
What `re` hands to its C engine (`_sre.compile`: the pattern's code, group count and names) is
stored per (pattern, flags) and handed over as it is, so the patterns are the same objects `re`
would have built (tests/engine/test_compiled_re.py compares every one). The stored code belongs
to one exact Python build: the file records the version and `_sre`'s magic number, and any other
interpreter, or a damaged file (CRC-32 of the payload in its header), leaves `re` as it is.
"""

from __future__ import annotations

import io
import json
import logging
import pickle
import re
import sys
from pathlib import Path

from nztax import checked_file

try:  # CPython's regular expression internals (3.11+)
    import _sre
    from re import _compiler, _parser
except ImportError:  # pragma: no cover - another interpreter: nothing is installed
    _sre = _compiler = _parser = None

COMPILED_FILE = "regex.pickle"
log = logging.getLogger("nztax.compiled_re")

_original_compile = _compiler.compile if _compiler else None
_installed: dict | None = None


def interpreter_key() -> str:
    """What the stored code depends on: this exact interpreter and its regex engine."""
    magic = getattr(_sre, "MAGIC", None)
    return f"nztax-re-1 {sys.implementation.name} {sys.version} {magic} {getattr(_sre, 'CODESIZE', None)}"


def _engine_arguments(pattern, flags: int) -> tuple:
    """The arguments `re` passes to `_sre.compile` for (pattern, flags), as re/_compiler.py makes them."""
    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    groupindex = dict(parsed.state.groupdict)
    indexgroup = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    # Plain ints: the code holds named opcode constants, which pickle would store by name.
    return (int(flags | parsed.state.flags), [int(c) for c in code], int(parsed.state.groups - 1),
            {str(k): int(v) for k, v in groupindex.items()}, tuple(indexgroup))


def _compile_from_table(table: dict):
    def compile(p, flags=0):
        entry = table.get((type(p), p, flags)) if not flags & re.DEBUG else None
        if entry is None:
            return _original_compile(p, flags)
        return _sre.compile(p, *entry)

    return compile


def install(index_dir: Path) -> int:
    """Let `re` take the patterns in `index_dir/regex.pickle` from there; returns how many it holds."""
    global _installed
    if _compiler is None or _installed is not None:
        return len(_installed or ())
    table = read(Path(index_dir) / COMPILED_FILE)
    if table:
        _installed = table
        _compiler.compile = _compile_from_table(table)
    return len(table)


def uninstall() -> None:
    global _installed
    if _compiler is not None:
        _compiler.compile = _original_compile
    _installed = None


def read(path: Path) -> dict:
    """{(type, pattern, flags): `_sre.compile` arguments}; empty when missing, foreign or damaged."""
    try:
        raw = path.read_bytes()
    except OSError:
        return {}
    try:
        payload = checked_file.payload(raw, interpreter_key())
        if payload is None:
            return {}  # another Python: its regex code may differ, so compile as usual
        table = _TableUnpickler(io.BytesIO(payload)).load()
        if not isinstance(table, dict):
            raise ValueError("not a table of patterns")
        return table
    except (ValueError, pickle.UnpicklingError, EOFError) as exc:
        log.warning(json.dumps({"event": "compiled_regex_ignored", "file": str(path), "detail": str(exc)[:200]}))
        return {}


class _TableUnpickler(pickle.Unpickler):
    """Only the types a table entry is made of (`str`, `bytes` as pattern types): nothing runs."""

    def find_class(self, module: str, name: str):
        if module == "builtins" and name in ("str", "bytes"):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a pattern table")


def write(path: Path, patterns: set[tuple]) -> int:
    """Compile each (type, pattern, flags) and write the table to `path`; returns its size."""
    table = {}
    for kind, pattern, flags in patterns:
        try:
            table[(kind, pattern, int(flags))] = _engine_arguments(pattern, int(flags))
        except (re.error, TypeError, ValueError, OverflowError):
            continue  # `re` raises for it at run time too; nothing to store
    payload = pickle.dumps(table, protocol=pickle.HIGHEST_PROTOCOL)
    checked_file.write(path, payload, interpreter_key(), patterns=len(table))
    return len(table)


def record(index_dir: Path, target: Path | None = None) -> int:
    """Go through a cold start of the function against `index_dir` (and one answer per intent),
    noting every pattern `re` compiles, and write them to `target` (default
    `index_dir/regex.pickle`). Run in a fresh process, so nothing is compiled yet."""
    seen: set[tuple] = set()

    def noting(p, flags=0):
        if isinstance(p, (str, bytes)) and not flags & re.DEBUG:
            seen.add((type(p), p, flags))
        return _original_compile(p, flags)

    _compiler.compile = noting
    try:
        from nztax.api import AskService
        from nztax.settings import get_settings

        settings = get_settings()
        if Path(settings.index_dir).resolve() != Path(index_dir).resolve():
            raise ValueError(f"NZTAX_INDEX_DIR is {settings.index_dir}, not {index_dir}")
        engine = AskService(settings=settings)._load_engine()
        AskService.warm_up(engine)
        # Patterns an answer path compiles on first use (with the data it reads then) would be
        # compiled by the first question that takes it: one example of each intent in the
        # catalogue takes every kind of answer through its paths here.
        from nztax.understand import default_catalogue

        for intent in default_catalogue().intents:
            if intent.examples:
                try:
                    engine.answer(intent.examples[0], mode="offline")
                except Exception as exc:  # noqa: BLE001 - a failing answer only records fewer patterns
                    log.warning(json.dumps({"event": "compiled_regex_example_failed", "intent": intent.name,
                                            "detail": f"{type(exc).__name__}: {exc}"[:200]}))
        from nztax.answer_html import render_answer_html

        render_answer_html("**a** [b](https://example.org)\n\n| c |\n|---|\n| d |")
        import functions_framework  # noqa: F401 - the server's own imports compile patterns too
        import flask  # noqa: F401
    finally:
        _compiler.compile = _original_compile
    target = Path(target or Path(index_dir) / COMPILED_FILE)
    count = write(target, seen)
    print(f"{count} patterns written to {target}")
    return count


if __name__ == "__main__":  # python -m nztax.compiled_re <index dir> [<table file>]
    record(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else None)
