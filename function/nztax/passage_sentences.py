"""Passage sentences: a retrieved passage as quotable sentences, and the ones that best answer a question.

In: passage text (`units`), or retrieved passages and the question (`best_sentences`, `best_scored`;
`passage_candidates` and `scored_sentences` for a caller that adds candidates of its own). Out: the
passage's prose sentences, each list with the sentence introducing it (`list_items` reads such a
list back into its items); and the sentences scored against the question, best first, each with its
passage. Sentences about another tax year than the one asked are never candidates.

    best_sentences("How are staking rewards taxed?", hits, 2, tax_year="2026-27")   # [(sentence, hit), ...]
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Any

from nztax.cue_words import cue
from nztax.opening_fit import other_subject
from nztax.opening_rank import rescored
from nztax.query_expansion import canonical_terms
from nztax.settings import get_settings
from nztax.understand import words
from nztax.years import names_a_later_year, years_bounded

# A sentence must share at least this share of the question's words to answer it on its own.
MIN_SENTENCE_COVERAGE = 0.2
# Words every tax passage shares with every tax question (as `words` stems them: "taxes" is "taxe").
GENERIC_WORDS = frozenset({"tax", "taxe", "taxed", "taxable", "ird", "inland", "revenue", "income", "pay", "paid", "nz"})
QUESTION_AMOUNT = re.compile(r"\$\s?\d[\d,.]*\s?k?\b|\b\d{1,3}(?:,\d{3})+(?:\.\d+)?\b|\b\d+(?:\.\d+)?\s?k\b", re.I)
# Added to a sentence's score by the rank of its passage (first, second, third …).
RANK_BONUS = (0.2, 0.1, 0.05)
# Added to a sentence holding a figure when the question asks for one ("how long", "threshold").
FIGURE_BONUS = 0.1
FIGURE_MIN_COVERAGE = 0.3


LEGAL_NUMBERING = re.compile(r"^\(\w{1,4}\)\s+")  # "(1) The family tax credit …" from legislation


def _sentences(hit) -> list[str]:
    return [LEGAL_NUMBERING.sub("", s) for s in units(hit.text) if 25 <= len(s) <= 600]


YEAR_RANGE = re.compile(r"\b(20\d{2})\s?[-–/]\s?(\d{2})\b")
# A question asking for a figure or a date (words in data/cue_words.yaml): a sentence stating one scores higher.
ASKS_FOR_A_FIGURE = cue("figure_asking_words")


def _other_year(sentence: str, tax_year: str | None) -> bool:
    """True when the sentence is about tax years and none of them is the one asked about (written as
    "2024-25" or as a period that has ended: "For 1 April 2024 to 31 March 2025 you could claim …")."""
    years = {f"{a}-{b}" for a, b in YEAR_RANGE.findall(sentence)} or years_bounded(sentence)
    return bool(years) and tax_year is not None and tax_year not in years


FIGURE = re.compile(r"\$\d|\d%")  # a dollar amount or a rate in a sentence


def _several_years(sentence: str) -> bool:
    """Figures for several tax years in one sentence ("1.6% in 2024-25, 1.67% in 2025-26"): for a
    question about one earlier year, the others' figures read as its answer."""
    return len(set(YEAR_RANGE.findall(sentence))) > 1 and bool(FIGURE.search(sentence))


def _undated_figure(sentence: str, tax_year: str | None) -> bool:
    """A figure in a sentence that does not say its year: the sources describe today's rules, so for
    an earlier year such a figure may be another year's."""
    return bool(FIGURE.search(sentence)) and (tax_year is None or tax_year not in sentence)


def best_sentences(question: str, hits: list, limit: int, extra_words: set[str] | None = None, tax_year: str | None = None,
                   past_year: bool = False, subject_of: str | None = None) -> list[tuple[str, Any]]:
    """The passage sentences that best answer the question: word overlap weighted by how rare each
    word is among the candidates, a bonus for the better-ranked passages (retrieval already read the
    whole question) and for a figure when one is asked for; sentences about another tax year are
    left out (given a question `subject_of`, so are those about another subject), and at most two per passage."""
    return [(s, hit) for _, s, hit in best_scored(question, hits, limit, extra_words, tax_year, past_year, subject_of)]


def best_scored(question: str, hits: list, limit: int, extra_words: set[str] | None = None, tax_year: str | None = None,
                past_year: bool = False, subject_of: str | None = None) -> list[tuple[float, str, Any]]:
    """best_sentences as (score, sentence, passage)."""
    candidates = [c for c in passage_candidates(hits, tax_year, past_year) if not (subject_of and other_subject(subject_of, *c[:2]))]
    chosen, per_hit = [], Counter()
    for score, coverage, s, hit in scored_sentences(question, candidates, extra_words):
        if coverage < MIN_SENTENCE_COVERAGE or per_hit[hit.parent_id] >= 2 or past_year and names_a_later_year(s, tax_year):
            continue  # (a sentence dated after an earlier year asked states a later year's rule or date)
        chosen.append((score, s, hit))
        per_hit[hit.parent_id] += 1
        if len(chosen) >= limit:
            break
    return chosen


def passage_candidates(hits: list, tax_year: str | None, past_year: bool) -> list[tuple[str, Any, int]]:
    """(sentence, passage, rank) for every sentence of the passages that may be quoted for the year asked."""
    return [(s, hit, rank) for rank, hit in enumerate(hits) for s in _sentences(hit)
            if not _other_year(s, tax_year) and not (past_year and (_undated_figure(s, tax_year) or _several_years(s)))]


def scored_sentences(question: str, candidates: list[tuple[str, Any, int]], extra_words: set[str] | None = None,
                     shared_only: bool = False) -> list[tuple[float, float, str, Any]]:
    """Candidates (sentence, source, rank) scored against the question, best first, as (score,
    coverage, sentence, source); a sentence sharing only the words every tax text has is left out."""
    # (The question's own amounts are not words a passage shares with it: "$40,000 profit" is no "40";
    # a year or a rate still is.)
    plain = QUESTION_AMOUNT.sub(" ", question)
    # IRD's own term for a word the question uses ("bitcoin" -> "crypto-asset") is a word to share too.
    wanted = words(plain) | words(" ".join(canonical_terms(plain))) | (extra_words or set())
    wanted &= set().union(*(words(s) for s, _, _ in candidates)) if shared_only else wanted  # (a story's others: its background)
    if not wanted or not candidates:
        return []
    shared_of = [words(s) & wanted for s, _, _ in candidates]  # (read once: counted here, weighed below)
    frequency = Counter(w for shared in shared_of for w in shared)
    n = len(candidates)
    wants_figure = bool(ASKS_FOR_A_FIGURE.search(question))
    scored = []
    # A word no candidate has counts as if every one had it: it tells the sentences apart no more
    # than a common word does ("bought", "later" beside "crypto-asset"). (Summed in word order: a
    # set's order follows the process's hash seed, and float sums in another order can break a tie
    # between two sentences differently from run to run.)
    total = sum(math.log(1 + n / (frequency[w] or n)) for w in sorted(wanted))

    def covered(shared: set[str]) -> float:
        if not shared - GENERIC_WORDS:
            return 0.0  # ("taxed" alone is no answer to how staking rewards are taxed)
        return sum(math.log(1 + n / frequency[w]) for w in sorted(shared)) / total if total else 0.0

    for i, (s, source, rank) in enumerate(candidates):
        # A list counts by its item that answers best, not by the words of all its items together;
        # that item is put first (a list's items are alike under its intro).
        parts = list_items(s)
        if parts:
            covers = [covered(words(head + item) & wanted) for head, item in parts]
            k = max(range(len(parts)), key=lambda k: (covers[k], -k))
            coverage = covers[k]
            if k:
                items = [item for _, item in parts]
                s = parts[0][0] + "; ".join([items[k]] + items[:k] + items[k + 1:]) + "."
        else:
            coverage = covered(shared_of[i])
        if coverage <= 0.0:
            continue
        figure = FIGURE_BONUS if wants_figure and re.search(r"\d", s) and coverage >= FIGURE_MIN_COVERAGE else 0.0
        scored.append((coverage + figure, RANK_BONUS[rank] if rank < len(RANK_BONUS) else 0.0, coverage, i, s, source))
    # (The page's rank is one feature beside what the sentence says to the question: opening_rank.py.)
    ranked = rescored(question, scored, get_settings().opening_weights, wants_figure)
    return [(score, coverage, s, source) for score, coverage, _, s, source in ranked]


LIST_ITEM_START = re.compile(r"^[A-Z0-9$]")


def list_items(sentence: str) -> list[tuple[str, str]]:
    """A quoted list (`units`: "Intro: item; Item; Item.") as (intro, item) pairs, the intro
    with its ": " and every item without its end; [] for a sentence that is not a list (one whose
    parts after "; " do not each start as an item does, with a capital or a figure)."""
    head, colon, rest = sentence.partition(": ")
    if not colon or "; " in head:
        head, rest = "", sentence
    else:
        head += ": "
    items = rest.rstrip(".").split("; ")
    if len(items) < 2 or not all(LIST_ITEM_START.match(item) for item in items[1:]):
        return []
    return [(head, item) for item in items]


def _plain(line: str) -> str:
    """A markdown line as plain text: no list marker, emphasis, inline code or link syntax."""
    line = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", line)
    line = re.sub(r"(\*\*|__|`)", "", line)
    return re.sub(r"^\s*(?:[-*+]|\d+\.)\s+", "", line).strip()


LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+")


def units(passage_text: str) -> list[str]:
    """A passage as quotable units: prose sentences, and each list with the sentence introducing it.

    Lines of one paragraph are joined first (PDF text is hard-wrapped mid-sentence). A list is
    never quoted item by item: "These count:" + one item of a list would say something the page
    does not ("employer contributions" count when the page lists them under "do not count").
    """
    lines = passage_text.split("\n")
    if lines and " > " in lines[0] and len(lines[0]) < 200:
        lines = lines[1:]  # "Page title > Section" header of a chunk
    blocks: list[tuple[str, list[str]]] = []  # ("prose" | "list", lines)
    for line in lines:
        if not line.strip() or line.lstrip().startswith(("|", "#")):
            blocks.append(("break", []))
            continue
        kind = "list" if LIST_ITEM.match(line) else "prose"
        if blocks and blocks[-1][0] == kind:
            blocks[-1][1].append(line)
        else:
            blocks.append((kind, [line]))
    units: list[str] = []
    pending_intro: str | None = None  # a prose sentence ending in ":" waits for its list
    for kind, block in blocks:
        if kind == "break":
            continue
        if kind == "list":
            items = [_plain(ln).rstrip(".;,") for ln in block if _plain(ln)]
            if items:
                joined = "; ".join(items) + "."
                units.append(f"{pending_intro} {joined}" if pending_intro else joined)
            pending_intro = None
            continue
        if pending_intro:
            units.append(pending_intro)  # an intro whose list never came: keep it as a sentence
            pending_intro = None
        paragraph = " ".join(_plain(ln) for ln in block)
        sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", paragraph) if s.strip()]
        if sentences and sentences[-1].endswith(":"):
            pending_intro = sentences.pop()
        units += sentences
    if pending_intro:
        units.append(pending_intro)
    return [u for u in units if len(u) > 20 and not u.endswith(":")]
