"""A polite, resumable crawler that fills the crawl store from sources.yaml.

In: a list of `Source` (sources.yaml), a `CrawlStore`, `CrawlOptions` (from settings).
Out: updated corpus/raw/ bodies and corpus/manifest.json; `CrawlTotals`; one progress line per URL
on stderr and the totals at the end.

Politeness and safety, in the order a URL meets them:
- robots.txt per host, parsed by protego (RFC 9309: longest match wins). robots.txt answering 4xx
  means allow all; 5xx, 429 or unreachable means disallow all. A robots Crawl-delay above ours is used.
- at most one request per `delay` seconds per host (robots fetches and retries included);
  an identifying User-Agent; connect/read timeouts plus a whole-request deadline.
- conditional GET (If-None-Match / If-Modified-Since) whenever a good copy exists, so an unchanged
  page costs a 304 and no body.
- retries (tenacity) on timeouts, dropped connections, truncated bodies, 429 and 5xx, with full-jitter
  exponential backoff; a Retry-After header is honoured (and a Retry-After above the cap gives up).
- a size cap (Content-Length and bytes actually read) and a content-type check before the body is
  read; redirects are followed by hand and only to hosts of the sources being crawled.
- a damaged 200 is a failed fetch too (`damage_reason`): a page that looks like an error page ("Page
  not found" served with 200), or whose main content shrank below `min_content_ratio` of the good
  copy's, keeps the good copy and is reported as "damaged" (`--allow-shrink` accepts a real shrink).
- IRD's own not-found page ("Inland Revenue | Page not found", "Oops! We can't find that page") is an
  error page too: the title is judged part by part, and the main content's opening words are read.
- a crawl killed between writing a body and rewriting the manifest leaves a body the manifest does not
  describe; every crawl first checks each stored body against its entry (size and content hash) and
  re-fetches a page that differs in full (no conditional GET, whatever its cadence), reporting it.
- a failure of any kind leaves the last good copy and its entry untouched; 404/410 counts towards
  `inactive` (after `gone_threshold` crawls in a row), the body is never deleted.
- the manifest is rewritten atomically after every page, so killing the crawl loses nothing saved.
- a cited address that answers 404/410, redirects to another page, or holds a page with another title
  (`source_check`) is recorded in `CrawlTotals.problems`; a moved or retitled page keeps its good copy.
"""

from __future__ import annotations

import email.utils
import random
import re
import sys
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from typing import Callable, TextIO
from urllib.parse import urljoin, urlsplit, urlunsplit

import httpx
import tenacity
from protego import Protego

from .parse import is_pdf, parse_body
from .records import RECRAWL_CADENCES, STATUS_ACTIVE, Document, ParseError, Source
from .source_check import SourceProblem, moved, retitled
from .store import CrawlStore

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
PDF_TYPES = frozenset({"application/pdf", "application/x-pdf", "application/octet-stream"})
RETRY_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
GONE_STATUSES = frozenset({404, 410})
ROBOTS_PARSE_LIMIT = 500 * 1024  # RFC 9309 §2.5: parse at least the first 500 KiB
ROBOTS_CRAWL_DELAY_CAP = 60.0  # a robots Crawl-delay above a minute is not honoured as such (would stall the night)
# A whole request may take this many read timeouts: stops a server that trickles bytes forever.
REQUEST_DEADLINE_TIMEOUTS = 4
# A page titled like this is a server's error page, whatever its HTTP status said.
ERROR_PAGE_TITLE = re.compile(
    r"^\s*(?:page not found|not found|404\b|error\b|an error (?:has )?occurred|something went wrong|"
    r"access denied|forbidden|service (?:temporarily )?unavailable|(?:site|scheduled) maintenance|"
    r"we(?:'|’)re sorry)",
    re.I,
)
# A site's title is often "Site | Page": each part is judged on its own.
TITLE_PARTS = re.compile(r"\s+[|–—:-]\s+")
# The opening words of an error page's main content ("Oops! We can't find that page").
ERROR_PAGE_OPENING = re.compile(r"\b(?:we (?:can(?:'|’)?t|cannot|could ?n(?:'|’)?t) find (?:that|the|this) page|"
                                r"page (?:could ?n(?:'|’)?t|can(?:'|’)?t|cannot) be found|page not found)\b", re.I)
ERROR_PAGE_OPENING_CHARS = 300
# A page fetched slightly less than a cadence ago (the nightly job drifts) is still due.
CADENCE_SLACK = timedelta(hours=2)


@dataclass(frozen=True)
class CrawlOptions:
    delay: float
    timeout: float
    user_agent: str
    max_bytes: int
    retries: int
    backoff: float
    backoff_cap: float
    retry_after_cap: float
    max_redirects: int
    base_url: str | None = None
    respect_cadence: bool = True
    min_content_ratio: float = 0.8  # NZTAX_CRAWL_MIN_CONTENT_RATIO
    allow_shrink: bool = False  # --allow-shrink: a page that really got shorter replaces its copy

    @classmethod
    def from_settings(cls, settings, **overrides) -> "CrawlOptions":
        options = cls(
            delay=settings.crawl_delay,
            timeout=settings.crawl_timeout,
            user_agent=settings.user_agent,
            max_bytes=settings.crawl_max_bytes,
            retries=settings.crawl_retries,
            backoff=settings.crawl_backoff,
            backoff_cap=settings.crawl_backoff_cap,
            retry_after_cap=settings.crawl_retry_after_cap,
            max_redirects=settings.crawl_max_redirects,
            min_content_ratio=settings.crawl_min_content_ratio,
        )
        return replace(options, **overrides)


@dataclass
class CrawlTotals:
    sources: int = 0
    new: int = 0  # 200, first copy
    changed: int = 0  # 200, main content changed
    unchanged: int = 0  # 200, same main content (server sent no validators or ignored them)
    not_modified: int = 0  # 304
    failed: int = 0  # damaged pages included
    damaged: int = 0  # 200 but an error page or a sharp shrink: good copy kept
    blocked: int = 0  # robots.txt
    gone: int = 0  # 404 / 410
    skipped: int = 0  # not due under its recrawl cadence
    mismatched: int = 0  # stored bodies that did not match the manifest at the start (re-fetched)
    page_bytes: int = 0  # page bodies transferred (all attempts, partial bodies included)
    robots_bytes: int = 0
    outcomes: dict[str, str] = field(default_factory=dict)  # url -> outcome
    problems: list[SourceProblem] = field(default_factory=list)  # cited addresses gone, moved or retitled

    @property
    def fetched(self) -> int:
        return self.new + self.changed + self.unchanged

    @property
    def bytes_transferred(self) -> int:
        return self.page_bytes + self.robots_bytes

    def summary(self) -> str:
        return (
            f"crawl: {self.sources} sources: fetched {self.fetched} (new {self.new}, changed {self.changed}, "
            f"unchanged {self.unchanged}), not modified {self.not_modified}, failed {self.failed} (damaged {self.damaged}), "
            f"blocked by robots {self.blocked}, gone {self.gone}, not due {self.skipped}, "
            f"stored bodies not matching the manifest {self.mismatched}; "
            f"bytes transferred {self.bytes_transferred:,} (pages {self.page_bytes:,}, robots.txt {self.robots_bytes:,})"
        )


class FetchFailed(Exception):
    """A fetch that will not succeed by retrying now (or has run out of retries)."""


class TransientError(FetchFailed):
    """A fetch worth retrying; `retry_after` is the server's Retry-After in seconds, if it sent one."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass
class Fetched:
    url: str
    status: int
    headers: httpx.Headers
    body: bytes = b""


def map_url(url: str, base_url: str | None) -> str:
    """Put `url`'s path and query onto `base_url`'s scheme, host and path prefix (a mirror)."""
    if not base_url:
        return url
    base, parts = urlsplit(base_url), urlsplit(url)
    return urlunsplit((base.scheme, base.netloc, base.path.rstrip("/") + (parts.path or "/"), parts.query, ""))


def parse_retry_after(value: str | None, now: Callable[[], datetime]) -> float | None:
    """Retry-After is either delay-seconds or an HTTP-date (RFC 9110 §10.2.3)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - now()).total_seconds())


def _mime(content_type: str | None) -> str:
    return (content_type or "").split(";")[0].strip().lower()


class _Robots:
    """robots.txt decisions for one host: a protego parser, or allow/deny everything."""

    def __init__(self, parser: Protego | None = None, allow_all: bool = False) -> None:
        self.parser, self.allow_all = parser, allow_all

    def can_fetch(self, url: str, agent: str) -> bool:
        if self.parser is None:
            return self.allow_all
        return self.parser.can_fetch(url, agent)

    def crawl_delay(self, agent: str) -> float | None:
        return self.parser.crawl_delay(agent) if self.parser is not None else None


class Crawler:
    def __init__(
        self,
        store: CrawlStore,
        options: CrawlOptions,
        client: httpx.Client | None = None,
        sleep: Callable[[float], None] = time.sleep,
        now: Callable[[], datetime] = lambda: datetime.now(timezone.utc),
        log: TextIO | None = None,
    ) -> None:
        self.store = store
        self.options = options
        self.client = client or httpx.Client(
            timeout=httpx.Timeout(options.timeout),
            headers={"User-Agent": options.user_agent},
            follow_redirects=False,
        )
        self.sleep = sleep
        self.now = now
        self.log = log if log is not None else sys.stderr
        self.agent_token = options.user_agent.split("/")[0].split()[0]  # robots.txt groups match the product token
        self._robots: dict[str, _Robots] = {}
        self._last_request: dict[str, float] = {}
        self._allowed_hosts: set[str] = set()
        self.totals = CrawlTotals()

    # -- public ---------------------------------------------------------------------------------
    def crawl(self, sources: list[Source], retire_unlisted: bool = True) -> CrawlTotals:
        self.totals = CrawlTotals(sources=len(sources))
        self._allowed_hosts = {urlsplit(map_url(s.url, self.options.base_url)).netloc.lower() for s in sources}
        self._mismatched = stored_body_mismatches(self.store, {s.url for s in sources})
        self.totals.mismatched = len(self._mismatched)
        for url, why in sorted(self._mismatched.items()):
            print(f"mismatch     {url}  stored body does not match the manifest ({why}); fetching it again in full",
                  file=self.log, flush=True)
        for number, source in enumerate(sources, start=1):
            outcome, detail = self._crawl_one(source)
            self.totals.outcomes[source.url] = outcome
            print(f"[{number}/{len(sources)}] {outcome:<12} {source.url}{'  ' + detail if detail else ''}", file=self.log, flush=True)
        if retire_unlisted:
            listed = {s.url for s in sources}
            retired = [e.url for e in self.store.entries() if e.url not in listed and e.status == STATUS_ACTIVE]
            for url in retired:
                self.store.mark_inactive(url)
                print(f"inactive     {url}  (no longer in sources)", file=self.log)
            if retired:
                self.store.write_manifest()
        print(self.totals.summary(), file=self.log, flush=True)
        return self.totals

    def close(self) -> None:
        self.client.close()

    # -- one URL --------------------------------------------------------------------------------
    def _crawl_one(self, source: Source) -> tuple[str, str]:
        entry = self.store.entry(source.url)
        has_copy = entry is not None and self.store.raw_path(entry).exists()
        mismatch = self._mismatched.get(source.url)
        if mismatch:  # the body on disk is not the one the manifest describes: nothing to protect or revalidate
            has_copy = False
        if self.options.respect_cadence and has_copy and entry.status == STATUS_ACTIVE and not self._due(entry.fetched_at, source.recrawl):
            self.totals.skipped += 1
            return "not due", f"(fetched {entry.fetched_at}, {source.recrawl})"

        request_url = map_url(source.url, self.options.base_url)
        headers: dict[str, str] = {}
        if has_copy and entry.etag:
            headers["If-None-Match"] = entry.etag
        if has_copy and entry.last_modified:
            headers["If-Modified-Since"] = entry.last_modified
        try:
            fetched = self._get(request_url, headers, source.source_type, robots_check=True)
        except _Blocked as exc:
            self.totals.blocked += 1
            return "blocked", str(exc)
        except FetchFailed as exc:
            self.totals.failed += 1
            if mismatch:
                return "failed", f"{exc}; the stored body still does not match the manifest ({mismatch})"
            return "failed", f"{exc} (kept last good copy)" if has_copy else str(exc)

        when = self.now()
        if fetched.status == 304 and has_copy:
            self.store.mark_not_modified(source.url, when, fetched.headers.get("ETag"), fetched.headers.get("Last-Modified"))
            self.store.write_manifest()
            self.totals.not_modified += 1
            return "not modified", ""
        if fetched.status in GONE_STATUSES:
            gone = self.store.mark_gone(source.url)
            self.totals.gone += 1
            self.totals.problems.append(SourceProblem(source.url, "gone", f"HTTP {fetched.status}"))
            if gone is None:
                return "gone", f"HTTP {fetched.status}"
            self.store.write_manifest()
            return "gone", f"HTTP {fetched.status}, {gone.gone_count} crawl(s) in a row, status {gone.status}"
        if fetched.status != 200:
            self.totals.failed += 1
            return "failed", f"HTTP {fetched.status}"
        elsewhere = moved(request_url, fetched.url)
        if elsewhere:
            return self._problem(source, "moved", elsewhere, has_copy)
        content_type = _mime(fetched.headers.get("Content-Type")) or "text/html"
        try:
            document = parse_body(fetched.body, content_type, source.url, source.source_type, source.title)
        except ParseError as exc:
            self.totals.failed += 1
            return "failed", f"unusable body: {exc}"
        damage = damage_reason(document, self._good_copy(entry, source) if has_copy else None, self.options)
        if damage:
            self.totals.failed += 1
            self.totals.damaged += 1
            return "damaged", f"{damage}" + (" (kept last good copy)" if has_copy else "")
        renamed = retitled(source.title, document.title, source.source_type)
        if renamed:
            return self._problem(source, "retitled", renamed, has_copy)
        saved = self.store.save_page(
            source.url, fetched.body, content_type, source.source_type, source.title, when,
            etag=fetched.headers.get("ETag"), last_modified=fetched.headers.get("Last-Modified"),
            document=document,
        )
        self.store.write_manifest()
        if entry is None:
            self.totals.new += 1
            outcome = "new"
        elif saved.content_hash != entry.content_hash:
            self.totals.changed += 1
            outcome = "changed"
        else:
            self.totals.unchanged += 1
            outcome = "unchanged"
        return outcome, f"{len(fetched.body):,} B"

    def _problem(self, source: Source, kind: str, detail: str, has_copy: bool) -> tuple[str, str]:
        # The body may be a perfectly good page, but not the one cited: keep the copy we cite.
        self.totals.failed += 1
        self.totals.problems.append(SourceProblem(source.url, kind, detail))
        return kind, detail + (" (kept last good copy)" if has_copy else "")

    def _good_copy(self, entry, source: Source) -> Document | None:
        """The stored copy, parsed (None when it no longer parses: then nothing is protected)."""
        try:
            return parse_body(self.store.read_raw(entry), entry.content_type, source.url, source.source_type, source.title)
        except (ParseError, OSError):
            return None

    def _due(self, fetched_at: str, cadence: str) -> bool:
        try:
            last = datetime.fromisoformat(fetched_at.replace("Z", "+00:00"))
        except ValueError:
            return True
        return self.now() - last >= timedelta(days=RECRAWL_CADENCES[cadence]) - CADENCE_SLACK

    # -- HTTP -----------------------------------------------------------------------------------
    def _get(self, url: str, headers: dict[str, str], source_type: str, robots_check: bool) -> Fetched:
        """GET with retries, following redirects only within the allowed hosts."""
        for _hop in range(self.options.max_redirects + 1):
            if robots_check and not self._robots_for(url).can_fetch(url, self.agent_token):
                raise _Blocked(f"disallowed by robots.txt: {url}")
            fetched = self._with_retries(url, headers, source_type, is_robots=not robots_check)
            if fetched.status not in REDIRECT_STATUSES:
                return fetched
            location = fetched.headers.get("Location")
            if not location:
                raise FetchFailed(f"HTTP {fetched.status} without a Location")
            target = urljoin(url, location)
            host = urlsplit(target).netloc.lower()
            if urlsplit(target).scheme not in ("http", "https") or host not in self._allowed_hosts:
                raise FetchFailed(f"redirect to a host outside the allowed list: {target}")
            url = target
        raise FetchFailed(f"more than {self.options.max_redirects} redirects")

    def _with_retries(self, url: str, headers: dict[str, str], source_type: str, is_robots: bool) -> Fetched:
        retrying = tenacity.Retrying(
            stop=tenacity.stop_after_attempt(self.options.retries + 1),
            wait=self._wait,
            retry=tenacity.retry_if_exception_type(TransientError),
            sleep=self.sleep,
            reraise=True,
        )
        return retrying(self._fetch_once, url, headers, source_type, is_robots)

    def _wait(self, retry_state: tenacity.RetryCallState) -> float:
        """Honour Retry-After; otherwise full jitter: uniform(0, min(cap, base * 2^attempt))."""
        error = retry_state.outcome.exception() if retry_state.outcome else None
        if isinstance(error, TransientError) and error.retry_after is not None:
            return error.retry_after
        ceiling = min(self.options.backoff_cap, self.options.backoff * 2 ** (retry_state.attempt_number - 1))
        return random.uniform(0, ceiling)

    def _fetch_once(self, url: str, headers: dict[str, str], source_type: str, is_robots: bool) -> Fetched:
        self._throttle(url)
        started = time.monotonic()
        deadline = self.options.timeout * REQUEST_DEADLINE_TIMEOUTS
        response: httpx.Response | None = None
        try:
            with self.client.stream("GET", url, headers=headers) as response:
                status = response.status_code
                if status in RETRY_STATUSES:
                    retry_after = parse_retry_after(response.headers.get("Retry-After"), self.now)
                    if retry_after is not None and retry_after > self.options.retry_after_cap:
                        raise FetchFailed(f"HTTP {status}, Retry-After {retry_after:.0f}s is over the {self.options.retry_after_cap:.0f}s cap")
                    raise TransientError(f"HTTP {status}", retry_after)
                if status != 200:
                    return Fetched(url, status, response.headers)
                if not is_robots:
                    self._check_content_type(response, source_type)
                declared = response.headers.get("Content-Length")
                if declared and declared.isdigit() and int(declared) > self.options.max_bytes:
                    raise FetchFailed(f"body of {int(declared):,} bytes is over the {self.options.max_bytes:,}-byte cap")
                chunks: list[bytes] = []
                size = 0
                for chunk in response.iter_bytes():
                    size += len(chunk)
                    if size > self.options.max_bytes:
                        raise FetchFailed(f"body over the {self.options.max_bytes:,}-byte cap")
                    if time.monotonic() - started > deadline:
                        raise TransientError(f"response slower than {deadline:.0f}s")
                    chunks.append(chunk)
                body = b"".join(chunks)
                if not is_robots and source_type == "guide_pdf" and not is_pdf(body, ""):
                    raise FetchFailed("expected a PDF, got a body that is not one")
                return Fetched(url, status, response.headers, body)
        except httpx.TimeoutException as exc:
            raise TransientError(f"timed out ({type(exc).__name__})") from None
        except httpx.TransportError as exc:  # connection refused/reset, truncated body, protocol errors
            raise TransientError(f"{type(exc).__name__}: {exc}") from None
        finally:
            if response is not None:
                if is_robots:
                    self.totals.robots_bytes += response.num_bytes_downloaded
                else:
                    self.totals.page_bytes += response.num_bytes_downloaded

    def _check_content_type(self, response: httpx.Response, source_type: str) -> None:
        mime = _mime(response.headers.get("Content-Type"))
        allowed = PDF_TYPES if source_type == "guide_pdf" else HTML_TYPES | {"application/pdf"}
        if mime not in allowed:
            raise FetchFailed(f"unexpected content type {mime or '(none)'!r} for a {source_type} source")

    def _throttle(self, url: str) -> None:
        host = urlsplit(url).netloc.lower()
        delay = self.options.delay
        robots = self._robots.get(host)
        robots_delay = robots.crawl_delay(self.agent_token) if robots is not None else None
        if robots_delay:
            delay = max(delay, min(float(robots_delay), ROBOTS_CRAWL_DELAY_CAP))
        last = self._last_request.get(host)
        if last is not None:
            wait = last + delay - time.monotonic()
            if wait > 0:
                self.sleep(wait)
        self._last_request[host] = time.monotonic()

    def _robots_for(self, url: str) -> _Robots:
        parts = urlsplit(url)
        host = parts.netloc.lower()
        if host in self._robots:
            return self._robots[host]
        robots_url = urlunsplit((parts.scheme, parts.netloc, "/robots.txt", "", ""))
        try:
            fetched = self._get(robots_url, {}, "robots", robots_check=False)
        except FetchFailed as exc:
            # RFC 9309 §2.3.1.4: an unreachable robots.txt (5xx, network) means disallow everything.
            print(f"robots.txt   {robots_url}  unreachable ({exc}): host treated as disallowed", file=self.log)
            robots = _Robots(allow_all=False)
        else:
            if fetched.status == 200:
                text = fetched.body[:ROBOTS_PARSE_LIMIT].decode("utf-8", errors="replace")
                robots = _Robots(Protego.parse(text))
            elif 400 <= fetched.status < 500:
                robots = _Robots(allow_all=True)  # §2.3.1.3: unavailable robots.txt means no restrictions
            else:
                robots = _Robots(allow_all=False)
        self._robots[host] = robots
        return robots


def damage_reason(new: Document, good: Document | None, options: CrawlOptions) -> str | None:
    """Why a 200 response must not replace the good copy, or None when it may.

    An error page keeps its title ("Page not found", "Something went wrong") even when the server
    says 200; a page cut short loses most of its main content. Both are judged on the extracted
    main content, so menus and banners count for nothing.
    """
    if (any(ERROR_PAGE_TITLE.search(part) for part in TITLE_PARTS.split(new.title or ""))
            and (good is None or good.title != new.title)):
        return f"looks like an error page (title {new.title!r})"
    opening = new.main_text()[:ERROR_PAGE_OPENING_CHARS]
    if ERROR_PAGE_OPENING.search(opening) and not (good and ERROR_PAGE_OPENING.search(good.main_text()[:ERROR_PAGE_OPENING_CHARS])):
        return f"looks like an error page (it opens {ERROR_PAGE_OPENING.search(opening).group(0)!r})"
    if good is None or options.allow_shrink:
        return None
    old_size, new_size = len(good.main_text()), len(new.main_text())
    if old_size and new_size < options.min_content_ratio * old_size:
        return (f"main content shrank to {new_size:,} of {old_size:,} characters "
                f"({new_size / old_size:.0%}, below NZTAX_CRAWL_MIN_CONTENT_RATIO {options.min_content_ratio:.0%}); "
                "rerun with --allow-shrink if the page really got shorter")
    return None


def stored_body_mismatches(store: CrawlStore, urls: set[str]) -> dict[str, str]:
    """{url: why} for each stored body among `urls` that its manifest entry does not describe.

    A crawl killed after a body was written but before the manifest was rewritten leaves such a
    body; the build would go on using the old parse without saying so. Size first (cheap), then the
    content hash of the parsed body, the same hash the manifest records.
    """
    mismatched = {}
    for entry in store.entries():
        path = store.raw_path(entry)
        if entry.url not in urls or not path.exists():
            continue
        body = path.read_bytes()
        if len(body) != entry.bytes:
            mismatched[entry.url] = f"{len(body):,} bytes, the manifest says {entry.bytes:,}"
            continue
        try:
            document = parse_body(body, entry.content_type, entry.url, entry.source_type, entry.title)
        except ParseError as exc:
            mismatched[entry.url] = f"it no longer parses: {exc}"
            continue
        if document.compute_hash() != entry.content_hash:
            mismatched[entry.url] = "its content hash differs from the manifest's"
    return mismatched


class _Blocked(FetchFailed):
    """robots.txt disallows the URL."""


__all__ = ["CrawlOptions", "CrawlTotals", "Crawler", "FetchFailed", "TransientError", "damage_reason", "map_url",
           "parse_retry_after", "stored_body_mismatches"]
