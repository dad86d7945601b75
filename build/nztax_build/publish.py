"""Atomic publish and rollback of built directories (site/, index/).

In: a freshly built directory (e.g. `site.new/`) and the live path it should replace (`site/`).
Out: the new build at the live path, the build it replaced kept beside it as `<live>.prev/`,
and a small `.nztax-release.json` stamp in each published build.

A build is validated before anything moves, so a failed or invalid build leaves the live one
untouched: first on its own (`validate_site`: every page the sitemap and search index name exists,
every HTML page is whole and every FAQ page holds its answer; `validate_index`: a manifest with an
embedder and counts; `validate_index_answers`: that, and the index loaded in a fresh process answers
a fixed set of questions, calculations included), then against the live build it would
replace (`compare_with_live`): every count the live build has (files, chunks, FAQ answers) must be
present and must not fall by more than `NZTAX_PUBLISH_MAX_SHRINK`, unless `allow_shrink`. The switch is two `os.replace` renames on one filesystem (live -> .prev, new -> live);
`recover()` repairs the only window in which a crash could leave no live directory. `rollback()`
swaps live and .prev, so a second rollback rolls forward again.

Command line (used by the Makefile and the operating guide):
    python -m nztax_build.publish publish site.new site --kind site [--allow-shrink]
    python -m nztax_build.publish rollback site
    python -m nztax_build.publish status site
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, UTC
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

STAMP_FILE = ".nztax-release.json"


class PublishError(RuntimeError):
    """The build cannot be published (missing, invalid) or there is nothing to roll back to."""


@dataclass(frozen=True)
class PublishResult:
    live: Path
    previous: Path | None
    stamp: dict


def prev_path(live: Path) -> Path:
    return live.with_name(live.name + ".prev")


def _swap_path(live: Path) -> Path:
    return live.with_name(live.name + ".swap")


def read_stamp(build: Path) -> dict | None:
    try:
        return json.loads((build / STAMP_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


# ---------------------------------------------------------------- validators


def validate_site(build: Path) -> None:
    """A whole site build: index.html, and every page its sitemap and search index name.

    mkdocs writes pages one by one; a build killed half way has index.html but not the rest.
    """
    index = build / "index.html"
    if not index.is_file() or index.stat().st_size == 0:
        raise PublishError(f"{build}: no index.html, not a built site")
    missing = [page for page in sorted(_listed_pages(build)) if not _page_file(build, page).is_file()]
    if missing:
        raise PublishError(f"{build}: {len(missing)} page(s) listed in its sitemap or search index are missing, "
                           f"e.g. {missing[0]!r}: a half-built site")
    damaged = [(page, why) for page in sorted(build.rglob("*.html")) if (why := _page_problem(build, page))]
    if damaged:
        page, why = damaged[0]
        raise PublishError(f"{build}: {len(damaged)} HTML page(s) damaged, e.g. {page.relative_to(build)}: {why}")


class _PageReader(HTMLParser):
    """Reads one page: whether it closes its html element, and the text of its FAQ answer block."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.closed = False
        self.answer_depth = 0  # >0 inside <div class="nz-answer">
        self.answer_blocks = 0
        self.answer_text = []

    def handle_starttag(self, tag, attrs):
        if self.answer_depth:
            self.answer_depth += tag == "div"
        elif tag == "div" and "nz-answer" in (dict(attrs).get("class") or "").split():
            self.answer_depth, self.answer_blocks = 1, self.answer_blocks + 1

    def handle_endtag(self, tag):
        if tag == "html":
            self.closed = True
        if self.answer_depth and tag == "div":
            self.answer_depth -= 1

    def handle_data(self, data):
        if self.answer_depth:
            self.answer_text.append(data)


def _page_problem(build: Path, page: Path) -> str | None:
    """Why a built HTML page is not fit to publish (cut short; a FAQ page without its answer)."""
    try:
        reader = _PageReader()
        reader.feed(page.read_text(encoding="utf-8"))
        reader.close()
    except (OSError, UnicodeDecodeError) as exc:
        return f"unreadable ({exc})"
    if not reader.closed:
        return "cut short (no closing </html>)"
    parts = page.relative_to(build).parts
    if len(parts) == 4 and parts[0] == "faq" and parts[3] == "index.html":  # faq/<topic>/<question>/
        if not reader.answer_blocks:
            return "a FAQ page without its answer block"
        if not "".join(reader.answer_text).strip():
            return "a FAQ page whose answer is empty"
    return None


def _listed_pages(build: Path) -> set[str]:
    pages: set[str] = set()
    sitemap = build / "sitemap.xml"
    if sitemap.is_file():
        try:
            root = ET.parse(sitemap).getroot()
        except ET.ParseError as exc:
            raise PublishError(f"{sitemap}: not XML ({exc})") from None
        pages |= {urlsplit(loc.text.strip()).path for loc in root.iter() if loc.tag.endswith("loc") and loc.text}
        site_path = urlsplit(pages and min(pages, key=len) or "/").path
        pages = {p[len(site_path):] if p.startswith(site_path) else p.lstrip("/") for p in pages}
    search = build / "search" / "search_index.json"
    if search.is_file():
        try:
            docs = json.loads(search.read_text(encoding="utf-8")).get("docs", [])
        except (OSError, ValueError, AttributeError) as exc:
            raise PublishError(f"{search}: unreadable ({exc})") from None
        pages |= {str(d.get("location", "")).split("#", 1)[0] for d in docs if isinstance(d, dict)}
    return pages


def _page_file(build: Path, page: str) -> Path:
    page = page.lstrip("/")
    if not page or page.endswith("/"):
        return build / page / "index.html"
    return build / page


def artifact_counts(build: Path) -> dict[str, int]:
    """What a build holds, counted: files, plus an index's chunk counts and FAQ answers."""
    counts = {"files": sum(1 for p in build.rglob("*") if p.is_file() and p.name != STAMP_FILE)}
    try:
        manifest = json.loads((build / "manifest.json").read_text(encoding="utf-8"))
        counts.update({f"index {k}": v for k, v in (manifest.get("counts") or {}).items() if isinstance(v, int)})
    except (OSError, ValueError, AttributeError):
        pass
    try:
        counts["FAQ answers"] = len(json.loads((build / "faq.json").read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        pass
    return counts


def compare_with_live(staged: Path, live: Path, max_shrink: float, allow_shrink: bool = False) -> None:
    """Refuse a build that lacks something the live one has, or holds sharply less of it."""
    if not live.is_dir():
        return
    before, after = artifact_counts(live), artifact_counts(staged)
    for name, old in before.items():
        new = after.get(name)
        if new is None:
            raise PublishError(f"{staged}: has no {name} (the live build has {old}); not published")
        if old and not allow_shrink and new < (1 - max_shrink) * old:
            raise PublishError(
                f"{staged}: {name} fell from {old} to {new} ({(old - new) / old:.0%}, more than "
                f"NZTAX_PUBLISH_MAX_SHRINK {max_shrink:.0%}); not published. If the shrink is meant, "
                "publish with --allow-shrink"
            )


def validate_index(build: Path) -> None:
    """An index build has a manifest naming its embedder and non-zero counts."""
    manifest = build / "manifest.json"
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise PublishError(f"{build}: manifest.json unreadable ({exc})") from None
    if not isinstance(data, dict) or not data.get("embedder_id"):
        raise PublishError(f"{build}: manifest.json has no embedder_id")
    counts = data.get("counts")
    if isinstance(counts, dict) and counts and not any(isinstance(v, int) and v > 0 for v in counts.values()):
        raise PublishError(f"{build}: manifest.json counts are all zero")


def validate_index_answers(build: Path) -> None:
    """`validate_index`, then the index must answer the check questions in a fresh process."""
    from .index_check import check_in_fresh_process

    validate_index(build)
    found = check_in_fresh_process(build)
    if found:
        raise PublishError(f"{build}: the index does not answer: " + "; ".join(found[:3]))


VALIDATORS: dict[str, Callable[[Path], None]] = {"site": validate_site, "index": validate_index_answers}


# ---------------------------------------------------------------- operations


def recover(live: Path) -> str | None:
    """Finish or undo a switch interrupted by a crash. Returns what was repaired, if anything."""
    prev, swap = prev_path(live), _swap_path(live)
    if swap.exists():
        if not live.exists():  # rollback stopped after moving live aside
            swap.replace(live)
            return f"restored {live} from {swap.name}"
        if not prev.exists():  # rollback stopped before parking the old live build
            swap.replace(prev)
            return f"moved {swap.name} to {prev.name}"
    if not live.exists() and prev.exists():  # publish stopped between its two renames
        prev.replace(live)
        return f"restored {live} from {prev.name}"
    return None


def publish(
    staged: Path,
    live: Path,
    validate: Callable[[Path], None] | None = None,
    note: str = "",
    max_shrink: float | None = None,
    allow_shrink: bool = False,
) -> PublishResult:
    """Validate `staged`, then make it the live build, keeping the replaced one as `<live>.prev`.

    `max_shrink` (default: the NZTAX_PUBLISH_MAX_SHRINK setting) bounds how much smaller than
    the live build the staged one may be (see `compare_with_live`).
    """
    staged, live = Path(staged), Path(live)
    if not staged.is_dir():
        raise PublishError(f"{staged}: no such build directory")
    if staged.resolve() == live.resolve():
        raise PublishError("the staged and live paths are the same")
    recover(live)
    if validate is not None:
        validate(staged)  # raises PublishError; nothing has moved yet
    if max_shrink is None:
        from nztax.settings import get_settings

        max_shrink = get_settings().publish_max_shrink
    compare_with_live(staged, live, max_shrink, allow_shrink)
    stamp = {
        "published_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
        "note": note,
        "counts": artifact_counts(staged),
    }
    (staged / STAMP_FILE).write_text(json.dumps(stamp, indent=2) + "\n", encoding="utf-8")

    prev = prev_path(live)
    previous = None
    if live.exists():
        if prev.exists():
            shutil.rmtree(prev)
        live.replace(prev)
        previous = prev
    staged.replace(live)
    return PublishResult(live=live, previous=previous, stamp=stamp)


def rollback(live: Path) -> PublishResult:
    """Swap the live build with the previous one (a second call rolls forward)."""
    live = Path(live)
    recover(live)
    prev = prev_path(live)
    if not prev.is_dir():
        raise PublishError(f"no previous build to roll back to ({prev} does not exist)")
    swap = _swap_path(live)
    if live.exists():
        live.replace(swap)
    prev.replace(live)
    if swap.exists():
        swap.replace(prev)
    return PublishResult(live=live, previous=prev if prev.exists() else None, stamp=read_stamp(live) or {})


def status(live: Path) -> dict:
    live = Path(live)
    prev = prev_path(live)
    return {
        "live": str(live) if live.exists() else None,
        "live_stamp": read_stamp(live) if live.exists() else None,
        "previous": str(prev) if prev.exists() else None,
        "previous_stamp": read_stamp(prev) if prev.exists() else None,
    }


# ---------------------------------------------------------------- command line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nztax_build.publish", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="action", required=True)
    p = sub.add_parser("publish", help="validate STAGED and switch it in at LIVE")
    p.add_argument("staged", type=Path)
    p.add_argument("live", type=Path)
    p.add_argument("--kind", choices=sorted(VALIDATORS), help="validate as a site or an index build")
    p.add_argument("--note", default="")
    p.add_argument("--allow-shrink", action="store_true",
                   help="publish even if STAGED holds sharply less than LIVE (NZTAX_PUBLISH_MAX_SHRINK)")
    r = sub.add_parser("rollback", help="swap LIVE with LIVE.prev")
    r.add_argument("live", type=Path)
    s = sub.add_parser("status", help="show the live and previous builds")
    s.add_argument("live", type=Path)
    args = parser.parse_args(argv)
    try:
        if args.action == "publish":
            result = publish(args.staged, args.live, VALIDATORS.get(args.kind), note=args.note,
                             allow_shrink=args.allow_shrink)
            kept = f"; previous kept as {result.previous}" if result.previous else ""
            print(f"published {result.live}{kept}", file=sys.stderr)
        elif args.action == "rollback":
            result = rollback(args.live)
            print(f"rolled back {result.live} (the replaced build is now {prev_path(result.live)})", file=sys.stderr)
        else:
            print(json.dumps(status(args.live), indent=2))
    except (PublishError, OSError) as exc:
        print(f"publish: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
