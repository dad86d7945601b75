"""Files written beside the index at build time and read at start-up: a one-line JSON header
(what wrote it, the CRC-32 of the payload, a count) followed by the payload bytes.

`write(path, payload, key, **fields)` replaces the file atomically (the fields: counts, and what
else its reader needs from the header); `payload(raw, key)` returns the
payload, None when another writer's key is in the header, and raises ValueError when the payload
is not the one the header describes (a damaged file).

The check is against damage (a file cut short, a flipped byte), not against someone who can write
the index: they could write a consistent header as easily. CRC-32 detects every error burst up to
32 bits and all but one in 2^32 of the rest, and costs about 1 ms for the 6 MB of engine parts a
start reads, against 10 ms for sha256 (on the start's critical path)."""
from __future__ import annotations

import json
import zlib
from pathlib import Path


def write(path: Path, payload: bytes, key: str, **fields: object) -> None:
    header = json.dumps({"key": key, "crc32": zlib.crc32(payload), **fields})
    tmp = Path(path).with_suffix(".tmp")
    tmp.write_bytes(header.encode("utf-8") + b"\n" + payload)
    tmp.replace(path)  # a reader never sees half a file (the live index is refreshed in place)


def payload(raw: bytes, key: str) -> bytes | None:
    header, _, body = raw.partition(b"\n")
    meta = json.loads(header)
    if meta.get("key") != key:
        return None
    if zlib.crc32(body) != meta.get("crc32"):
        raise ValueError("payload CRC-32 differs from its header")
    return body
