"""Does each cited address still hold the page we cite? The crawl's check and the report the gate reads.

In: for one source, its listed address and title (sources.yaml) and what the live site answered (the
final address after redirects, the page's own title). Out: a `SourceProblem` when the address has
gone (404/410), now redirects to another page, or holds a page with another title; and, for the whole
crawl, `<work>/reports/sources.json`, which the `sources` publish gate reads (gates.py).

Any of the three means a citation on the site would send a reader somewhere else than the page it
names, so the night stops and the last good site stays live until sources.yaml (and the snapshot
page) follow the move. A title is compared only for web guidance and Tax Technical items: legislation
pages and PDFs carry generated titles that never match the label we cite them by.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

REPORT_FORMAT = 1
KINDS = ("gone", "moved", "retitled")
TITLED_TYPES = frozenset({"ird_guidance", "qwba", "interpretation_statement", "tib"})


@dataclass(frozen=True)
class SourceProblem:
    url: str
    kind: str  # one of KINDS
    detail: str


def _page_key(url: str) -> tuple[str, str]:
    """Host without "www." and the decoded path without a trailing slash: what makes two addresses one page."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower().removeprefix("www.")
    path = unquote(parts.path).rstrip("/") or "/"
    return host, path.lower() + (f"?{parts.query}" if parts.query else "")


def moved(requested: str, final: str) -> str | None:
    """Why a response reached through redirects is another page, or None when it is the same page.

    Redirects that only add https, "www." or a trailing slash keep the page; any other path is a move.
    """
    if _page_key(requested) == _page_key(final):
        return None
    return f"redirects to {final}"


def _words(title: str) -> str:
    text = unicodedata.normalize("NFKC", title or "").casefold()
    text = text.replace("’", "'").replace("‘", "'")
    return " ".join(re.findall(r"[\w']+", text))


def retitled(listed: str, found: str, source_type: str) -> str | None:
    """Why the page's title is not the one we cite it by, or None (case, spacing and punctuation aside)."""
    if source_type not in TITLED_TYPES or not (found or "").strip():
        return None
    if _words(listed) == _words(found):
        return None
    return f"title is now {found!r} (cited as {listed!r})"


def write_report(path: Path, problems: list[SourceProblem], checked: int, crawled_at: str) -> None:
    """The crawl's findings, written atomically; `checked` counts the sources actually fetched tonight."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"format": REPORT_FORMAT, "crawled_at": crawled_at, "checked": checked,
            "problems": [asdict(p) for p in sorted(problems, key=lambda p: p.url)]}
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)


def read_report(path: Path) -> tuple[int, list[SourceProblem]]:
    """(sources checked, problems). Raises ValueError for a file that is not a report; OSError when unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON ({exc.msg})") from None
    if not isinstance(data, dict) or not isinstance(data.get("problems"), list):
        raise ValueError(f"{path}: expected an object with a 'problems' list")
    problems = []
    for item in data["problems"]:
        if not isinstance(item, dict) or item.get("kind") not in KINDS or not item.get("url"):
            raise ValueError(f"{path}: a problem needs a url and a kind of {', '.join(KINDS)}")
        problems.append(SourceProblem(str(item["url"]), item["kind"], str(item.get("detail", ""))))
    return int(data.get("checked") or 0), problems
