"""`nztax snapshot`: regenerate the bundled offline corpus from corpus/snapshot_src.

In: corpus/snapshot_src/{pages,pdfs}/**.md. Out: corpus/raw/, corpus/manifest.json and corpus/sources.yaml,
built in a staging directory and swapped in only when every source rendered. A live crawl in corpus/
(manifest with "snapshot": false) is not overwritten unless --force is given.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--src", type=Path, default=None, help="authored sources (default: CORPUS/snapshot_src)")
    parser.add_argument("--out", type=Path, default=None, help="corpus directory to write (default: settings)")
    parser.add_argument("--force", action="store_true", help="replace a live crawl with the snapshot")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")


def _is_live_crawl(corpus_dir: Path) -> bool:
    manifest = corpus_dir / "manifest.json"
    if not manifest.exists():
        return False
    try:
        return json.loads(manifest.read_text(encoding="utf-8")).get("snapshot") is False
    except (OSError, ValueError):
        return False


def run(args: argparse.Namespace) -> int:
    from nztax.settings import get_settings
    from nztax_build.snapshot import SnapshotError, build_snapshot, stderr_progress

    corpus_dir = Path(args.out) if args.out else get_settings().corpus_dir
    src_dir = Path(args.src) if args.src else corpus_dir / "snapshot_src"
    if _is_live_crawl(corpus_dir) and not args.force:
        print(f"nztax snapshot: {corpus_dir} holds a live crawl; rerun with --force to replace it", file=sys.stderr)
        return 2
    staging = corpus_dir / ".snapshot.new"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        report = build_snapshot(src_dir, staging, progress=stderr_progress)
    except SnapshotError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        print(f"nztax snapshot: {exc}", file=sys.stderr)
        return 2
    # Swap in: raw/ as a whole (so pages removed from the sources disappear), then the two files.
    old_raw = corpus_dir / ".raw.old"
    shutil.rmtree(old_raw, ignore_errors=True)
    if (corpus_dir / "raw").exists():
        (corpus_dir / "raw").rename(old_raw)
    (staging / "raw").rename(corpus_dir / "raw")
    for name in ("manifest.json", "sources.yaml"):
        (staging / name).replace(corpus_dir / name)
    shutil.rmtree(old_raw, ignore_errors=True)
    shutil.rmtree(staging, ignore_errors=True)
    counts = {
        "pages": report.pages,
        "pdfs": report.pdfs,
        "legislation_sections": report.legislation_sections,
        "total_bytes": report.total_bytes,
    }
    if args.json:
        print(json.dumps(counts))
    else:
        print(
            f"snapshot: {report.pages} HTML pages, {report.pdfs} PDFs, "
            f"{report.legislation_sections} legislation sections, {report.total_bytes:,} bytes -> {corpus_dir}",
            file=sys.stderr,
        )
    return 0
