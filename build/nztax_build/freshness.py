"""The freshness check: does each figure of the rules data still appear on the page that states it?

In: the rule book (every year's `stated:` block: per figure, its page and the words around it there,
the figure's place held by `{}`) and the crawl store (corpus/manifest.json + raw bodies, parsed as the
build parses them). Out: a `FreshnessReport`, one `FigureCheck` per figure of every year:

- `ok`: the words stand on the page with this figure in the `{}` place;
- `different`: the words stand there with another figure (the page now says that figure instead);
- `missing`: the words are no longer on the page;
- `no_page`: the page is not in the corpus (or is no longer active, or fails to parse);
- `unstated`: the rules give no page and words for the figure.

Anything but `ok` fails the check. The nightly gate (`gates.py`, "figures") and `nztax rules check`
run it after each crawl; `suggest_words` proposes the `stated:` words for a figure from the page.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

from nztax.rules import RuleBook, TaxYearRules
from nztax.stated import PLACEHOLDER, figure_paths, section_of

# A figure as a page prints it: "$7,524", "27%", "27.5 per cent", "7 cents", "33⅓%", "$2,010.66".
NUMBER = r"\$?\s?(?P<num>\d[\d,]*(?:\.\d+)?)(?P<third>\s?⅓)?(?P<unit>\s?(?:%|per\s?cent|cents?\b|c\b))?"
_NUMBER_RE = re.compile(NUMBER, re.I)
SNIPPET = 60  # characters of page text shown either side in a report


@dataclass(frozen=True)
class FigureCheck:
    year: str
    path: str           # "working_for_families.abatement_threshold"
    value: float
    page: str
    words: str
    status: str         # ok | different | missing | no_page | unstated
    page_says: str = ""  # what the page says now where the words stand (or why there is nothing)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def line(self) -> str:
        head = f"{self.year} {self.path} = {self.value:g}"
        if self.ok:
            return f"{head}: stated on {self.page}"
        return f"{head}: {self.status} on {self.page or '(no page)'}: {self.page_says}"


@dataclass
class FreshnessReport:
    checks: list[FigureCheck] = field(default_factory=list)

    @property
    def failures(self) -> list[FigureCheck]:
        return [c for c in self.checks if not c.ok]

    @property
    def passed(self) -> bool:
        return bool(self.checks) and not self.failures

    def summary(self) -> str:
        bad = self.failures
        counts = {}
        for c in bad:
            counts[c.status] = counts.get(c.status, 0) + 1
        detail = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
        return f"{len(self.checks) - len(bad)} of {len(self.checks)} figures stated on their pages" + (f" ({detail})" if bad else "")


# ---------------------------------------------------------------- page text


def normalise(text: str) -> str:
    """Page text with markdown marks and table rules removed and whitespace collapsed."""
    text = re.sub(r"[*_`|#>]+", " ", text)
    text = re.sub(r"(?<!\S)-{3,}(?!\S)", " ", text)  # a markdown table's rule row
    text = re.sub(r"^\s*[-+]\s+", " ", text, flags=re.M)
    text = text.replace("\u00a0", " ").replace("\u2013", "-").replace("\u2014", "-")
    return re.sub(r"\s+", " ", text).strip()


def page_texts(corpus_dir: Path, urls: set[str]) -> dict[str, str | None]:
    """The normalised main text of each wanted page in the crawl store; None when it is not there,
    not active or does not parse."""
    from .parse import ParseError, parse_body
    from .store import CrawlStore

    store = CrawlStore(corpus_dir).load()
    out: dict[str, str | None] = {}
    for url in sorted(urls):
        entry = store.entry(url)
        if entry is None or entry.status != "active":
            out[url] = None
            continue
        try:
            body = store.read_raw(entry)
            key = (url, hashlib.sha256(body).hexdigest())
            if key not in _PARSED:
                doc = parse_body(body, entry.content_type, url, entry.source_type, entry.title)
                _PARSED[key] = normalise(doc.main_text())
        except (ParseError, OSError):
            out[url] = None
            continue
        out[url] = _PARSED[key]
    return out


# (url, sha256 of the body) -> its normalised text: a body parses once per process (PDFs are slow).
_PARSED: dict[tuple[str, str], str] = {}


# ---------------------------------------------------------------- matching


def _words_pattern(words: str) -> str:
    return r"\s*".join(re.escape(w) for w in normalise(words).split(" ") if w)


def pattern_for(words: str) -> re.Pattern:
    before, after = words.split(PLACEHOLDER)
    parts = [_words_pattern(before), NUMBER, _words_pattern(after)]
    glue = r"[\s:,=(\-]*"  # "Oldest child: $7,524", "($975)", "rate - 27%"
    return re.compile(glue.join(p for p in parts if p), re.I)


def number_of(match: re.Match) -> Decimal | None:
    try:
        n = Decimal(match.group("num").replace(",", ""))
    except InvalidOperation:
        return None
    return n + Decimal(1) / 3 if match.group("third") else n


def same_figure(printed: Decimal, value: float, per_hundred: bool | None = None) -> bool:
    """A printed number is the figure itself or, for a rate, its percentage or cents (27% = 0.27).
    `per_hundred`: the page printed a % or cents sign (True), no sign (False) or unknown (None)."""
    v = Decimal(str(value))
    tolerance = Decimal("0.000001")
    as_is = abs(printed - v) <= tolerance
    as_rate = 0 < v < 1 and abs(printed - v * 100) <= tolerance
    if per_hundred is True:
        return as_rate
    if per_hundred is False:
        return as_is or as_rate  # a table may head its column "rate (%)" and print the bare number
    return as_is or as_rate


def matches(m: re.Match, value: float) -> bool:
    n = number_of(m)
    return n is not None and same_figure(n, value, bool(m.group("unit")))


def check_figure(year: str, path: str, value: float, page: str, words: str, text: str | None) -> FigureCheck:
    base = dict(year=year, path=path, value=value, page=page, words=words)
    if text is None:
        return FigureCheck(**base, status="no_page", page_says="the page is not in the corpus (or did not parse)")
    found = list(pattern_for(words).finditer(text))
    if any(matches(m, value) for m in found):
        return FigureCheck(**base, status="ok")
    if found:
        says = "; ".join(f"“{_around(text, m)}”" for m in found[:3])
        return FigureCheck(**base, status="different", page_says=f"the words now stand beside another figure: {says}")
    return FigureCheck(**base, status="missing", page_says=f"the words “{words}” are no longer on the page")


def _around(text: str, m: re.Match) -> str:
    start, end = max(0, m.start() - 20), min(len(text), m.end() + 20)
    return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")


# ---------------------------------------------------------------- the check


def figures_to_check(rules: TaxYearRules) -> list[tuple[str, float, str, str]]:
    """(path, value, page, words) for every figure of one year; page/words empty when unstated."""
    data = rules.data
    out = []
    for path, value in figure_paths(data).items():
        stated = data.stated.get(path)
        if value == 0 and stated is None:
            continue  # a band's lower bound of 0 is its shape ("up to $15,600"), not a stated figure
        section = getattr(data, section_of(path))
        page = (stated.page if stated and stated.page else None) or getattr(section, "source", "")
        if stated is not None and stated.derived:
            out.append((path, value, "", f"derived: {stated.derived}"))
            continue
        out.append((path, value, page, stated.words if stated else ""))
    return out


def check_rules(book: RuleBook, corpus_dir: Path) -> FreshnessReport:
    """Check every figure of every year against the pages in the crawl store."""
    wanted = [(year, *f) for year in sorted(book.years) for f in figures_to_check(book.years[year])]
    texts = page_texts(Path(corpus_dir), {page for _, _, _, page, words in wanted if page and words})
    report = FreshnessReport()
    for year, path, value, page, words in wanted:
        if words.startswith("derived: "):
            report.checks.append(FigureCheck(year, path, value, "", words, "ok", "worked out, not printed"))
        elif not words:
            report.checks.append(FigureCheck(year, path, value, page, "", "unstated",
                                             "no page words recorded for it in the rules file's `stated:` block"))
        else:
            report.checks.append(check_figure(year, path, value, page, words, texts.get(page)))
    return report


def suggest_words(value: float, text: str, near: tuple[float, ...] = (), most_words: int = 8) -> str | None:
    """Words for a `stated:` entry, or None when the page does not print the figure: for each place the
    page prints it, the fewest words before it (within its sentence, two real words at least) that
    stand beside no other figure on the page, with `{}` for the figure. Of those, the one whose words
    hold most of the `near` figures (its neighbours in the rules: a band's rate beside its limits)."""
    best: tuple[int, int, str] | None = None
    for m in _NUMBER_RE.finditer(text):
        if not matches(m, value):
            continue
        lead = re.split(r"(?<=[.!?;])\s", text[max(0, m.start() - 300):m.start()])[-1].split()
        for count in range(2, min(most_words, len(lead)) + 1):
            words = lead[-count:]
            if sum(bool(re.fullmatch(r"[A-Za-z][A-Za-z'’-]+", w)) for w in words) < 2:
                continue
            candidate = " ".join(words) + " " + PLACEHOLDER
            hits = list(pattern_for(candidate).finditer(text))
            if hits and all(matches(h, value) for h in hits):
                printed = [number_of(x) for x in _NUMBER_RE.finditer(" ".join(words))]
                score = sum(any(p is not None and same_figure(p, v) for p in printed) for v in near)
                if best is None or (score, -count) > best[:2]:
                    best = (score, -count, candidate)
                break
    return best[2] if best else None
