"""Files written beside the index at build time and read at start-up: a one-line JSON header
(what wrote it, the sha256 of the payload, a count) followed by the payload bytes.

`write(path, payload, key, **counts)` replaces the file atomically; `payload(raw, key)` returns the
payload, None when another writer's key is in the header, and raises ValueError when the payload
is not the one the header describes (a damaged file)."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path


def write(path: Path, payload: bytes, key: str, **counts: int) -> None:
    header = json.dumps({"key": key, "sha256": hashlib.sha256(payload).hexdigest(), **counts})
    tmp = Path(path).with_suffix(".tmp")
    tmp.write_bytes(header.encode("utf-8") + b"\n" + payload)
    tmp.replace(path)  # a reader never sees half a file (the live index is refreshed in place)


def payload(raw: bytes, key: str) -> bytes | None:
    header, _, body = raw.partition(b"\n")
    meta = json.loads(header)
    if meta.get("key") != key:
        return None
    if hashlib.sha256(body).hexdigest() != meta.get("sha256"):
        raise ValueError("payload sha256 differs from its header")
    return body
