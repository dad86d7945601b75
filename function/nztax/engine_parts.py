"""The engine's parts built from fixed data, stored beside the index at build time.

In: an engine whose parts are built (`Engine.build_parts`), or an engine to give stored parts to.
Out: `save(engine, index_dir)` writes `parts.pickle`; `restore(engine, index_dir)` gives the engine
the stored intent classifier, speller, unit matcher, citation sections, known-words vocabulary,
decline units and the index's identifier postings, or returns False.

Why: the parts are pure functions of the index, the data files and the code that builds them, yet
building them (reading every catalogue example and answer unit into words, the sources' word list,
the sections' numbers) took about a fifth of a second of every cold start. Unpickling takes a
few milliseconds.

Staleness: the file's key is the sha256 of everything the parts are made from: the index files
they read, every data file, the files of the rules and unit sources the engine is configured with
(named apart from the package's, so an engine on another unit bank never gets this bank's matcher),
the package's own source, the settings they copy by value, the pickle
protocol and the numpy version (not the Python version: the payload is plain data). A part stored from anything else is refused and built as before
(with a log line), so an edited data file or module never meets an old part. Each input's sha256
is recorded in the header with its size and modification time, and an input whose stamp is
unchanged is not read again (`input_digests`). The payload's own
CRC-32 is in its header (`checked_file`): a damaged file is refused the same way.

What the parts share with the engine (its settings, its rules, the query embedder) is not stored:
the pickler names them (`persistent_id`) and the loader hands back the engine's own objects, so
a restored part is the part the engine would have built. Only classes of this package, numpy's
arrays and plain Python values may be unpickled; anything else in the file is refused, not run.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import pickle
import sys
import types
from pathlib import Path

from nztax import checked_file
from nztax.yaml_data import yaml_files

PARTS_FILE = "parts.pickle"
# The index files the parts read (chunks: the speller's and the sections' words; the stored vectors).
INDEX_INPUTS = ("manifest.json", "chunks.json", "intents.npz", "units.npz", "units_withheld.json", "frame_model.npz",
                "unit_rank.json")
# Settings a part copies by value when it is built (the rest it reads from the engine's own settings).
COPIED_SETTINGS = ("spelling_cutoff", "spelling_min_length")
# The known-words vocabulary reads every unit's paraphrases into words: about 40 ms of a start.
# The decline units embed their wordings with the query model: about 50 ms of a first answer.
PARTS = ("_classifier", "_speller", "_unit_matcher", "_sections", "_vocabulary", "_decline_units")
INDEX_PART = "index.identifiers"  # the index's identifier postings (index.py: LoadedIndex.identifier_rows)
_ALLOWED_MODULES = ("nztax.", "numpy")
_ALLOWED_GLOBALS = {("builtins", n) for n in ("set", "frozenset", "list", "dict", "tuple", "complex", "slice", "bytearray",
                                               "getattr", "object")} | {
    ("collections", "defaultdict"), ("collections", "OrderedDict"), ("copyreg", "_reconstructor"),
    ("decimal", "Decimal"), ("re", "_compile"), ("functools", "partial"), ("datetime", "date"),
    ("pathlib", "PosixPath"), ("pathlib", "PurePosixPath")}

log = logging.getLogger("nztax.engine_parts")


def parts_key(settings, index_dir: Path, known: dict | None = None) -> str:
    """What the stored parts were made from (see the module's docstring). Files are named by
    their place in the package (the index's by name), so a copy elsewhere (the deploy's stage)
    has the same key. `known`: `input_digests` recorded when the parts were stored."""
    import numpy as np

    # Not the Python version: the payload is plain data and the deployed runtime's Python may differ.
    digest = hashlib.sha256(f"nztax-parts-2 pickle {pickle.HIGHEST_PROTOCOL} numpy {np.__version__}".encode())
    digest.update(json.dumps({name: getattr(settings, name) for name in COPIED_SETTINGS}, default=str).encode())
    for name, (_, _, sha) in input_digests(settings, index_dir, known).items():
        digest.update(f"{name}:{sha}\n".encode())
    return digest.hexdigest()


def input_digests(settings, index_dir: Path, known: dict | None = None) -> dict[str, list]:
    """{input's name: [size, mtime_ns, sha256 of its bytes]} for every input of the parts.

    An input whose size and modification time are those `known` records keeps the recorded
    sha256 without being read (as make and git trust a file's stamp): reading and hashing every
    input (6 MB of index files, the package's sources) took about 10 ms of each start. Any write
    changes the modification time, so an edited or replaced input is read and hashed again; a copy
    with new times (a deploy's stage) is hashed again too, and has the same key if it is the same.
    """
    package = Path(__file__).resolve().parent
    inputs = [(f"index:{name}", Path(index_dir) / name) for name in INDEX_INPUTS]
    inputs += [(f"source:{path.relative_to(package).as_posix()}", path) for path in sorted(package.rglob("*.py"))]
    inputs += _data_inputs(settings, package)
    known = known or {}
    found = {}
    for name, path in inputs:
        try:
            stat = path.stat()
        except OSError:
            found[name] = [-1, -1, "<missing>"]
            continue
        stamp = [stat.st_size, stat.st_mtime_ns]
        recorded = known.get(name)
        if isinstance(recorded, list) and len(recorded) == 3 and recorded[:2] == stamp:
            found[name] = recorded
            continue
        try:
            found[name] = [*stamp, hashlib.sha256(path.read_bytes()).hexdigest()]
        except OSError:
            found[name] = [-1, -1, "<missing>"]
    return found


def _data_inputs(settings, package: Path) -> list[tuple[str, Path]]:
    """The package's data files by their place in it, then the files of the rules and units sources
    the engine is configured with, by their place in that source. The sources are named apart even
    where they are the package's own folders: an engine given another unit bank (`nztax eval units`
    strips paraphrases into a file of its own) must not meet the matcher built from this one."""
    inputs = [(f"data:{path.relative_to(package).as_posix()}", path) for path in yaml_files(package)]
    for role, source in (("rules", settings.rules_dir), ("units", settings.units_dir)):
        if source is None:
            continue
        root = Path(source).resolve()
        files = yaml_files(root)
        if not files:  # a missing source is an input too: its reappearing must change the key
            inputs.append((f"{role}:", root))
        inputs += [(f"{role}:{path.relative_to(root).as_posix() if path != root else path.name}", path)
                   for path in files]
    return inputs


def _recorded_inputs(header: bytes) -> dict | None:
    inputs = json.loads(header).get("inputs")
    return inputs if isinstance(inputs, dict) else None


def _shared(engine) -> dict[int, str]:
    return {id(engine.settings): "settings", id(engine.rules): "rules"}


class _Pickler(pickle.Pickler):
    def __init__(self, file, engine):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._names = _shared(engine)
        self._embedder = engine.retriever.embedder

    def persistent_id(self, obj):
        name = self._names.get(id(obj))
        if name is not None:
            return name
        if obj is self._embedder:
            return "embedder"
        if isinstance(obj, types.MethodType) and obj.__self__ is self._embedder:
            return f"embedder.{obj.__func__.__name__}"
        return None


class _EmbedderMethod:
    """The query embedder's method `name`, looked up when first called: restoring the parts does
    not wait for the model, which loads on its own thread meanwhile."""

    def __init__(self, engine, name: str):
        self.engine, self.name = engine, name

    def __call__(self, *args, **kwargs):
        return getattr(self.engine.embedder, self.name)(*args, **kwargs)


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, engine):
        super().__init__(file)
        self._engine = engine

    def persistent_load(self, pid):
        if pid == "settings":
            return self._engine.settings
        if pid == "rules":
            return self._engine.rules
        if isinstance(pid, str) and pid.startswith("embedder."):
            return _EmbedderMethod(self._engine, pid.split(".", 1)[1])
        raise pickle.UnpicklingError(f"unknown shared object {pid!r}")

    def find_class(self, module: str, name: str):
        if module.startswith(_ALLOWED_MODULES) or (module, name) in _ALLOWED_GLOBALS:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not an engine part's type")


def save(engine, index_dir: Path) -> Path:
    """Write the engine's built parts to `index_dir/PARTS_FILE` (build time)."""
    engine.build_parts()
    buffer = io.BytesIO()
    parts = {name: getattr(engine, name) for name in PARTS}
    parts[INDEX_PART] = engine.retriever.index.identifier_rows()
    _Pickler(buffer, engine).dump(parts)
    target = Path(index_dir) / PARTS_FILE
    inputs = input_digests(engine.settings, index_dir)
    checked_file.write(target, buffer.getvalue(), parts_key(engine.settings, index_dir, inputs), parts=len(PARTS),
                       inputs=inputs)
    return target


def is_current(settings, index_dir: Path) -> bool:
    """Whether `index_dir` holds parts stored for its present inputs (read from the header only)."""
    try:
        with open(Path(index_dir) / PARTS_FILE, "rb") as file:
            header = file.readline()
        return json.loads(header).get("key") == parts_key(settings, index_dir, _recorded_inputs(header))
    except (OSError, ValueError):
        return False


def restore(engine, index_dir: Path) -> bool:
    """Give `engine` the parts stored beside its index; False (and nothing changed) when there are
    none, or they were made from other inputs, or the file is damaged."""
    path = Path(index_dir) / PARTS_FILE
    try:
        raw = path.read_bytes()
    except OSError:
        return False
    try:
        known = _recorded_inputs(raw.partition(b"\n")[0])
        payload = checked_file.payload(raw, parts_key(engine.settings, index_dir, known))
        if payload is None:
            log.warning(json.dumps({"event": "engine_parts_stale", "file": str(path)}))
            return False
        parts = _Unpickler(io.BytesIO(payload), engine).load()
        if not isinstance(parts, dict) or set(parts) != {*PARTS, INDEX_PART}:
            raise ValueError("not the engine's parts")
    except (ValueError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError) as exc:
        log.warning(json.dumps({"event": "engine_parts_ignored", "file": str(path), "detail": str(exc)[:200]}))
        return False
    engine.retriever.index.identifiers = parts.pop(INDEX_PART)
    for name, part in parts.items():
        setattr(engine, name, part)
    return True


if __name__ == "__main__":  # python -m nztax.engine_parts <index dir>: build and store the parts unless current
    from nztax.engine import Engine
    from nztax.settings import get_settings

    directory = Path(sys.argv[1])
    if Path(get_settings().index_dir).resolve() != directory.resolve():
        raise SystemExit(f"NZTAX_INDEX_DIR is {get_settings().index_dir}, not {directory}")
    if is_current(get_settings(), directory):
        print(f"engine parts in {directory / PARTS_FILE} are current")
    else:
        built = Engine.create()
        built.restore_parts = False  # build them from the data, whatever is stored
        print(f"engine parts written to {save(built, directory)}")
