"""The site's Sources page and the rule for which cited addresses readers get a link to.

In: the crawl manifest (what was fetched, when, its status) and sources.yaml (each address with its
`verified:` evidence, see evidence.py), both as read by render.load_inputs. Out: the markdown of
`sources/index.md` (every source, its type, the evidence that its address is real with the
date it was checked, last crawl and last change) and `cite_link`, the markdown a FAQ page uses to
cite a source: a link when the address is verified or a live crawl fetched it, plain text otherwise.
"""

from __future__ import annotations

from .evidence import EvidenceError, Verified, parse_verified
from .render import SOURCE_TYPE_LABELS, front_matter, long_date, md_escape, no_wrap, source_label, table

# Shown when the pages were built from the project's offline copy (a summary of each source in
# other words) rather than from the live pages: readers are told to check the original.
SNAPSHOT_NOTICE = (
    '!!! info "Summaries, not the original wording"\n'
    "    The answers on this site were prepared from summaries of the pages below, which state the facts "
    "each page publishes in other words. Follow the link to read Inland Revenue's own wording before relying on it.\n"
)
UNCONFIRMED = "address not yet confirmed"


def evidence_by_url(sources: list[dict]) -> dict[str, Verified]:
    """sources.yaml entries -> their evidence; a malformed block counts as none (the crawl gate reports it)."""
    found: dict[str, Verified] = {}
    for entry in sources:
        try:
            verified = parse_verified(entry.get("verified"), entry.get("url", "sources.yaml"))
        except EvidenceError:
            verified = None
        if verified is not None:
            found[entry["url"]] = verified
    return found


def crawled_live(manifest: dict, url: str) -> bool:
    """Whether a live crawl (not the bundled snapshot) holds an active copy fetched from this address."""
    if manifest.get("snapshot"):
        return False
    return any(p["url"] == url and p.get("status", "active") == "active" for p in manifest.get("pages", []))


def cite_link(label: str, url: str, evidence: dict[str, Verified], manifest: dict) -> str:
    """A citation as markdown: linked when the address is known to be real, else named without a link."""
    if url in evidence or crawled_live(manifest, url):
        return f"[{md_escape(label)}]({url})"
    return f"{md_escape(label)} ({UNCONFIRMED})"


def _evidence_cell(verified: Verified | None) -> str:
    if verified is None:
        return UNCONFIRMED
    what = verified.label()
    if verified.evidence:
        what = f"[{what}]({verified.evidence})"
    return f"{what}, checked {no_wrap(long_date(verified.checked))}"


def render_sources_page(manifest: dict, sources: list[dict]) -> str:
    pages = sorted(manifest.get("pages", []), key=lambda p: (p.get("source_type", ""), p.get("title", ""), p["url"]))
    evidence = evidence_by_url(sources)
    lines = [front_matter(title="Sources", description="Every Inland Revenue page, guide and piece of legislation the answers "
                                                     "are drawn from, with when each was fetched and checked."), "# Sources\n",
             "Every page and document the answers are drawn from: when it was last fetched and last changed, and "
             "the evidence that its address is the real one (a stored copy of the page, a stored page that links "
             "it, or a public citation of it) with the date that evidence was checked. An address without evidence "
             "is shown without a link until it has been checked.\n"]
    if manifest.get("snapshot"):
        lines.append(SNAPSHOT_NOTICE)
    active = [p for p in pages if p.get("status", "active") == "active"]
    lines.append(f"{len(active)} active sources" + (f", {len(pages) - len(active)} no longer available" if len(pages) != len(active) else "")
                 + f"; {sum(1 for p in pages if p['url'] in evidence)} with evidence on file.\n")
    rows = []
    for p in pages:
        status = "" if p.get("status", "active") == "active" else f" ({md_escape(p.get('status'))})"
        rows.append([cite_link(source_label(p.get("title"), p["url"]), p["url"], evidence, manifest) + status,
                     SOURCE_TYPE_LABELS.get(p.get("source_type"), md_escape(p.get("source_type", ""))),
                     _evidence_cell(evidence.get(p["url"])),
                     no_wrap(long_date(p.get("fetched_at"))), no_wrap(long_date(p.get("last_changed")))])
    lines.append(table(["Source", "Type", "Address verified", "Last fetched", "Last changed"], rows))
    return "\n".join(lines)
