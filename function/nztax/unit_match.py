"""Which answer unit a question reads as, if any: the nearest paraphrases, with a margin.

In: the unit bank (`units.UnitBank`), the ids the build withheld, the query embedder, and per
question its text, its vector (the one retrieval uses) and the engine's reading of it
(`slots.reading`). Out: `UnitMatcher.match(...)` -> `UnitMatch` (the unit, its score and the
runner-up's) or None.

The same machinery as the intent classifier (understand.py): a unit's score is the cosine of its
nearest paraphrase plus `intent_lexical_weight` x the word overlap (Jaccard) of its closest
paraphrase. Only paraphrases that read the same as the question (amounts, tax code, period,
negation, conditions) count, so "What does tax code SH mean?" never gets the S unit and
"tax on $85k" never a unit about $80k (the codes compared are those written in capitals, as
`matching_key` reads them), and a paraphrase naming a tax year counts only for a question naming
none or the same one (`year_named`); the best must score at least `unit_min_score` and lead the
next by `unit_margin`, or lead it by `unit_alone_margin` with at least `unit_alone_score` (a
question the engine would decline: `unit_over_decline` and twice the margin, so "What happens to
my KiwiSaver if I move to Australia?" is answered, not turned away for naming Australia), or,
when the engine's own answer would be a topic's stock lead or a retrieved sentence (`near`,
unit_choice.choose), lead every other unit by `unit_near_margin` with at least `unit_near_score`. A post
of several sentences is also read by its asking sentences (`match_asked`). Units whose answer is a
calculation are left to the engine, which calculates. The paraphrase vectors are stored beside the index at build time (`units.npz`, keyed
by the bank's digest and the embedder id), with a digest of each paraphrase's reading (reading
every paraphrase of 400 units takes seconds), and each unit's lead's vector, which the learned ranking
score reads with its question's (unit_rank.py, weights `unit_rank.json` fitted at build); missing or
stale, they are computed in-process.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from nztax.amount_grammar import CAPITALISED_WORD, PERIODS
from nztax.units import Unit, UnitBank, asked_clauses
from nztax.calculators.paye import PRIMARY_CODES
from nztax.opening_fit import situations_named
from nztax.question_conditions import NEGATION
from nztax.rules import current_tax_year, default_rules
from nztax.slots import read_slots, reading, resolve_tax_year
from nztax.understand import words
from nztax.unit_lexicon import UnitLexicon
from nztax.unit_rank import RankModel

log = logging.getLogger("nztax.unit_match")
VECTORS_FILE = "units.npz"
# Paraphrases looked at for each question, nearest first: the margin is over units among these.
NEAREST_ROWS = 40
# Stored reading digests re-read at load, evenly spread: a change to the reading code since the
# build shows in any of them, and the stored digests are then not used.
KEY_SPOT_CHECKS = 8


@dataclass(frozen=True)
class UnitMatch:
    unit: Unit
    score: float
    runner_up_score: float
    sentence: str | None = None  # the asking sentence the unit was matched on (`match_asked`), if any


@dataclass(frozen=True)
class AskingSentence:
    """One sentence of a post that asks, as the matcher reads it."""

    text: str
    vector: object
    reading: object
    asks: str | None = None  # what the frame reads it as asking (frame.ASK_KINDS), and how sure
    asks_sure: float = 0.0
    read_as: str | None = None  # the text matched in its place (leaning.py: the opening with a sentence leaning on it)


def servable(bank: UnitBank, withheld: dict[str, str] | None = None) -> list[Unit]:
    """The units the Ask box may serve: with a lead of their own, and not withheld by the build."""
    withheld = withheld or {}
    return [u for u in bank.units if u.lead and u.id not in withheld]


def paraphrase_rows(units: list[Unit]) -> list[tuple[int, str]]:
    return [(i, text) for i, unit in enumerate(units) for text in unit.paraphrases]


def embed_rows(rows: list[tuple[int, str]], embedder) -> np.ndarray:
    if not rows:
        return np.zeros((0, 1), dtype=np.float32)
    batch = getattr(embedder, "embed_queries", None)  # a model that embeds a query as a document, in batches
    if batch is not None:
        return np.asarray(batch([text for _, text in rows]), dtype=np.float32)
    return np.stack([embedder.embed_query(text) for _, text in rows]).astype(np.float32)


def save_vectors(directory: Path, bank: UnitBank, embedder, withheld: dict[str, str] | None = None) -> Path:
    """Write the servable units' paraphrase vectors, their readings' digests and the units' lead
    vectors beside an index (build time)."""
    units = servable(bank, withheld)
    rows = paraphrase_rows(units)
    rules = default_rules()
    codes = code_names(rules)
    keys = [key_digest(matching_key(text, reading(read_slots(text, rules)), codes)) for _, text in rows]
    target = Path(directory) / VECTORS_FILE
    np.savez(target, vectors=embed_rows(rows, embedder), keys=np.array(keys, dtype=str), leads=lead_vectors(units, embedder),
             meta=np.array(json.dumps({"bank": bank.digest, "embedder": embedder.id, "rows": len(rows)})))
    return target


def lead_vectors(units: list[Unit], embedder) -> np.ndarray:
    return embed_rows([(i, u.lead) for i, u in enumerate(units)], embedder)


def stored_rows(directory: Path | None, bank: UnitBank, embedder, rows: int) -> tuple:
    """(paraphrase vectors, reading digests, lead vectors) stored beside the index for this bank (the
    vectors for this embedder), each None when missing or stale; the file is read once."""
    if directory is None:
        return None, None, None
    try:
        with np.load(Path(directory) / VECTORS_FILE) as data:
            meta, arrays = json.loads(str(data["meta"])), {name: data[name] for name in data.files}
    except (OSError, KeyError, ValueError):
        return None, None, None
    if meta.get("bank") != bank.digest or meta.get("rows") != rows:
        return None, None, None
    vectors, keys = arrays.get("vectors"), arrays.get("keys")
    fits = embedder is not None and meta.get("embedder") == embedder.id and vectors is not None and len(vectors) == rows
    return ((vectors if fits else None), ([str(k) for k in keys] if keys is not None and len(keys) == rows else None),
            arrays.get("leads") if fits else None)


def stored_vectors(directory: Path | None, bank: UnitBank, embedder, rows: int) -> np.ndarray | None:
    return stored_rows(directory, bank, embedder, rows)[0]


def code_names(rules) -> frozenset[str]:
    """Every tax code the rules data names (main, secondary and flat codes), and SL."""
    names = set(PRIMARY_CODES) | {"SL"}
    for year in rules.years.values():
        sec, flat = getattr(year.data, "secondary_codes", None), getattr(year.data, "flat_codes", None)
        for period in getattr(sec, "periods", None) or []:
            names |= set(period.codes)
        names |= set(getattr(flat, "codes", None) or {})
    return frozenset(names)


def year_named(text: str) -> str | None:
    """The tax year a text names ("2023-24", "the 2025 year"), or None: a unit about one year is not
    another year's answer, while a unit that names no year answers for any."""
    return resolve_tax_year(text, None, current_tax_year())[0]


def matching_key(text: str, question_reading, codes: frozenset[str]):
    """What must agree between a question and a unit's question: the engine's reading (amounts,
    periods, negation, conditions) with, in place of its tax code, the codes each names as written
    in capitals ("SH", "M SL": lower-case "me" and "s" are ordinary words)."""
    plain = dataclasses.replace(question_reading, tax_code=None, student_loan=None)
    return plain, frozenset(w for w in CAPITALISED_WORD.findall(text) if w in codes)


def without_figures(question_reading):
    """A reading with its amounts, periods and KiwiSaver rate left out (negation, conditions and
    codes kept): what a paraphrase stating no figure must agree with."""
    return dataclasses.replace(question_reading, amounts=frozenset(), asked_period=None, kiwisaver_rate=None)


def negated_where_asked(question: str) -> bool:
    """Whether a negation stands in a clause the question asks in (units.asked_clauses), or anywhere
    when no clause is told apart as asked."""
    asked = asked_clauses(question)
    return any(NEGATION.search(clause) for clause in asked) if asked else bool(NEGATION.search(question))


def key_digest(key) -> str:
    """A short digest of a `matching_key`, the same in every process (sets in sorted order)."""
    def plain(value):
        if dataclasses.is_dataclass(value):
            return [plain(getattr(value, f.name)) for f in dataclasses.fields(value)]
        if isinstance(value, (set, frozenset)):
            return sorted((plain(v) for v in value), key=repr)
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        return value if value is None or isinstance(value, (bool, int, float, str)) else str(value)

    return hashlib.blake2b(json.dumps(plain(key)).encode(), digest_size=8).hexdigest()


def word_rows(row_words: list[set[str]]) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """({word: the rows holding it}, each row's word count) for `UnitMatcher._overlap`."""
    rows_with: dict[str, list[int]] = {}
    for row, ws in enumerate(row_words):
        for w in ws:
            rows_with.setdefault(w, []).append(row)
    return ({w: np.array(rows, dtype=np.int64) for w, rows in rows_with.items()},
            np.array([len(ws) for ws in row_words], dtype=np.int64))


@lru_cache(maxsize=None)
def _situations_in(paraphrases: tuple[str, ...]) -> frozenset[str]:
    """The situations a unit's paraphrases name (`UnitMatcher.situations_of`): read once a unit."""
    return situations_named(" | ".join(paraphrases))


class UnitMatcher:
    def __init__(self, units: list[Unit], vectors: np.ndarray | None, settings, read, codes: frozenset[str] = frozenset(),
                 keys: list[str] | None = None, leads: np.ndarray | None = None, rank_model: RankModel | None = None):
        """`read(text)` is the engine's reading of a text (slots.reading of slots.read_slots);
        `codes` the tax codes (`code_names`); `keys` the paraphrases' reading digests stored at build;
        `leads` the units' lead vectors and `rank_model` the fitted weights (unit_rank.py)."""
        self.units = units
        self.codes = codes
        self.settings = settings
        self.by_id = {u.id: u for u in units}
        self.rows = paraphrase_rows(units)
        self.owner = np.array([i for i, _ in self.rows], dtype=np.int64)
        self.vectors = np.asarray(vectors, dtype=np.float32) if vectors is not None and len(vectors) == len(self.rows) else None
        self.row_words = [words(text) for _, text in self.rows]
        # Each paraphrase is read on its own: its author wrote it as the unit's question, whatever
        # period or code words it uses. The build
        # stores every reading's digest; without them a row is read on first need, nearest rows only.
        self._read = read
        self._row_keys: list = [None] * len(self.rows)
        if keys is not None and len(keys) == len(self.rows):
            spots = range(0, len(self.rows), max(1, len(self.rows) // KEY_SPOT_CHECKS))
            if all(self._read_key(row) == keys[row] for row in spots):
                self._row_keys = list(keys)
            else:
                log.warning(json.dumps({"event": "unit_readings_stale", "rows": len(self.rows)}))
        self._row_years: list = [False] * len(self.rows)  # False: not read yet
        # Each unit's question is its first paraphrase row.
        self.question_rows = np.searchsorted(self.owner, np.arange(len(units)))
        self.lead_vectors = np.asarray(leads, dtype=np.float32) if leads is not None and len(leads) == len(units) else None
        self.rank_model = rank_model

    @classmethod
    def build(cls, bank: UnitBank, withheld: dict[str, str], embedder, index_dir: Path | None, settings, read,
              codes: frozenset[str] = frozenset()) -> "UnitMatcher":
        units = servable(bank, withheld)
        rows = paraphrase_rows(units)
        vectors, keys, leads = stored_rows(index_dir, bank, embedder, len(rows))
        if embedder is not None and vectors is None:
            log.warning(json.dumps({"event": "unit_vectors_stale_or_missing", "units": len(units)}))
            vectors = embed_rows(rows, embedder)
        model = RankModel.load(index_dir, getattr(embedder, "id", None))
        if model is not None and leads is None:
            leads = lead_vectors(units, embedder)
        made = cls(units, vectors, settings, read, codes, keys, leads, model)
        if model is not None:
            made.lexicon()  # read for every question of one sentence: built with the parts, and stored with them
        return made

    def _read_key(self, row: int) -> str:
        text = self.rows[row][1]
        return key_digest(matching_key(text, self._read(text), self.codes))

    def row_key(self, row: int) -> str:
        if self._row_keys[row] is None:
            self._row_keys[row] = self._read_key(row)
        return self._row_keys[row]

    def row_year(self, row: int) -> str | None:
        if self._row_years[row] is False:
            self._row_years[row] = year_named(self.rows[row][1])
        return self._row_years[row]

    def scores(self, question: str, vector, question_reading, story_figures: bool = False) -> dict[int, float]:
        """Score of every unit with a near paraphrase (the `NEAREST_ROWS` best) that reads as
        `question_reading`, by its paraphrases that do. `story_figures`: the question is a sentence
        of a post, whose amounts and periods are the poster's story; a paraphrase stating no figure
        then reads as it too (one stating figures must still state the same)."""
        if not self.rows:
            return {}
        asked = words(question)
        combined = np.zeros(len(self.rows), dtype=np.float32)
        if self.vectors is not None and vector is not None:
            combined += self.vectors @ np.asarray(vector, dtype=np.float32)
        # Rounded to float32 before it is added, as each row's share was when added one at a time.
        combined += (self.settings.intent_lexical_weight * self._overlap(asked)).astype(np.float32)
        readings = [question_reading] + ([without_figures(question_reading)] if story_figures else [])
        if question_reading.negated and not negated_where_asked(question):
            # A negation outside the clause asked ("without a receipt - is the rebate still due?") denies
            # only its own clause: the question reads as asking plainly too.
            plain = dataclasses.replace(question_reading, negated=False)
            readings += [plain] + ([without_figures(plain)] if story_figures else [])
        if not question_reading.amounts and question_reading.asked_period is None:
            # A question stating no figure and no period asks the rule whatever period a paraphrase
            # names ("Is there a yearly fee?", "in a year my shares fell"): a period sets apart figures only.
            readings += [dataclasses.replace(r, asked_period=p) for r in readings for p in PERIODS]
        keys = {key_digest(matching_key(question, r, self.codes)) for r in readings}
        year = year_named(question)
        best: dict[int, float] = {}
        for row in np.argsort(-combined)[:NEAREST_ROWS]:
            row = int(row)
            if self.row_key(row) not in keys:
                continue
            if year is not None and self.row_year(row) not in (None, year):
                continue
            owner = int(self.owner[row])
            best[owner] = max(best.get(owner, -1.0), float(combined[row]))
        return best

    @cached_property
    def _word_rows(self) -> tuple[dict[str, np.ndarray], np.ndarray]:
        return word_rows(self.row_words)

    @cached_property
    def _named(self) -> list[frozenset[str]]:
        """The situations each unit's question names (`naming`)."""
        return [situations_named(u.question) for u in self.units]

    def _overlap(self, asked: set[str]) -> np.ndarray:
        """The Jaccard overlap of `asked` with each paraphrase's words (float64), from the rows
        each word occurs in: a loop over every paraphrase cost more than the rest of the match."""
        rows_with, sizes = self._word_rows
        shared = np.zeros(len(sizes), dtype=np.int64)
        for w in asked:
            rows = rows_with.get(w)
            if rows is not None:
                shared[rows] += 1
        union = len(asked) + sizes - shared
        return np.divide(shared, union, out=np.zeros(len(sizes)), where=union > 0)

    def match(self, question: str, vector, question_reading, declined: bool = False, unread: bool = False,
              allowed=None, scores: dict[int, float] | None = None, near=None,
              near_margin: float | None = None) -> UnitMatch | None:
        """The unit the question reads as; `declined`: the engine would turn the question away, so
        only a unit it reads as plainly (`unit_over_decline`) answers it instead; `unread`: nothing
        in the reading understood the question, so only at `unread_unit_score` and `unread_unit_margin`;
        `allowed(unit)`: whether a unit may answer at all (its age condition, applies.py; the kind of
        answer it gives, unit_kind.py), so the margin is over the units that may; `scores`: this
        question's `scores`, when already computed; `near(unit)`: the engine's own answer would be a
        topic's stock lead or a retrieved sentence, so that unit, clear of the next by `near_margin`
        (default `unit_near_margin`) at `unit_near_score`, answers instead (unit_choice.choose: one
        asking what the question asks)."""
        if scores is None:
            scores = self.scores(question, vector, question_reading)
        # (Best first, and `allowed` asked only until the best two that may answer are found.)
        ranked = (kv for kv in sorted(scores.items(), key=lambda kv: -kv[1]) if allowed is None or allowed(self.units[kv[0]]))
        scored = [kv for _, kv in zip(range(2), ranked)]
        if not scored:
            return None
        (best, score), runner = scored[0], (scored[1][1] if len(scored) > 1 else 0.0)
        least = self.settings.unit_over_decline if declined else self.settings.unit_min_score
        margin = self.settings.unit_margin * (2 if declined else 1)
        if unread:
            least, margin = self.settings.unread_unit_score, self.settings.unread_unit_margin
        # A unit no other comes near (only its paraphrases read as the question does) is trusted
        # at a lower score: its wording may differ, but nothing else is a candidate.
        alone = (not declined and not unread and score >= self.settings.unit_alone_score
                 and score - runner >= self.settings.unit_alone_margin)
        # Against the engine's stock lead or retrieved sentence (`near`), a unit clear of the next
        # answers at a lower score: clear of every other unit, of a kind that may answer or not (a
        # near unit of another kind is a sign the question is read two ways).
        if near is not None and not declined and not unread and score >= self.settings.unit_near_score \
                and near(self.units[best]):
            nearest_other = max((v for k, v in scores.items() if k != best), default=0.0)
            clear = self.settings.unit_near_margin if near_margin is None else near_margin
            alone = alone or score - max(runner, nearest_other) >= clear
        if not alone and (score < least or score - runner < margin):
            return None
        return UnitMatch(self.units[best], round(score, 4), round(runner, 4))

    def post_cosines(self, vector) -> dict[int, float]:
        """Each unit's cosine of its nearest paraphrase to a whole post's vector (no reading compared:
        a story's reading carries every figure it tells, which no one-line paraphrase has)."""
        if self.vectors is None or vector is None or not self.rows:
            return {}
        return {i: float(v) for i, v in enumerate(self.unit_cosines(vector))}

    def naming(self, situations: frozenset[str]) -> list[int]:
        """The units whose question names one of `situations` (opening_fit.situations_named): the
        question says which situation a unit is for (a paraphrase may name one in passing: "Are
        KiwiSaver withdrawals taxed?" asked as "… when I take my KiwiSaver out at 65")."""
        return [i for i, named in enumerate(self._named) if named & situations]

    def situations_of(self, unit: Unit) -> frozenset[str]:
        """The situations a unit answers for: those its question or a paraphrase names (its lead may
        name others in passing: "unless on a savings suspension")."""
        return _situations_in(unit.paraphrases)

    def unit_cosines(self, vector) -> np.ndarray:
        """Each unit's cosine of its nearest paraphrase to `vector` (no reading compared)."""
        nearest = np.full(len(self.units), -1.0, dtype=np.float32)
        if len(self.units):  # (a bank with no units has no vectors of the embedder's width)
            np.maximum.at(nearest, self.owner, self.vectors @ np.asarray(vector, dtype=np.float32))
        return nearest

    def match_situation(self, asking: list[AskingSentence], post_vector, candidates: list[int], allowed=None,
                        margin: float | None = None, agreed_margin: float | None = None) -> UnitMatch | None:
        """The unit, among `candidates` (those naming the situation a question names: opening_fit.py),
        its asking sentences and the whole post are nearest: each candidate scores its nearest
        paraphrase's cosine to the nearest asking sentence plus `asked_unit_post_weight` x its cosine
        to the whole post, with no reading compared (the situation already narrowed the units; a
        story's figures are its own). Served when it leads the next candidate by `asked_unit_margin`
        (or `margin`) and the whole post is at least `asked_unit_post_least` near it; `agreed_margin`, when
        given, in place of the margin for a candidate that is both the one its asking sentences are
        nearest and the one the whole post is nearest. `allowed(unit, sentence)`: whether a unit may
        answer that sentence (its kind, unit_kind.py)."""
        if self.vectors is None or post_vector is None or not asking or not candidates:
            return None
        post = self.unit_cosines(post_vector)
        near = [(sentence, self.unit_cosines(sentence.vector)) for sentence in asking if sentence.vector is not None]
        weight = self.settings.asked_unit_post_weight
        best: list[tuple[float, int, str]] = []
        sentence_cosine: dict[int, float] = {}
        for unit in candidates:
            fitting = [(float(cosines[unit]), sentence.text) for sentence, cosines in near
                       if allowed is None or allowed(self.units[unit], sentence)]
            if fitting:
                score, text = max(fitting)
                sentence_cosine[unit] = score
                best.append((score + weight * float(post[unit]), unit, text))
        if not best:
            return None
        best.sort(key=lambda b: -b[0])
        total, unit, text = best[0]
        runner = best[1][0] if len(best) > 1 else 0.0
        margin = self.settings.asked_unit_margin if margin is None else margin
        agreed = (max(sentence_cosine, key=sentence_cosine.get) == unit
                  and max(sentence_cosine, key=lambda u: post[u]) == unit)
        if agreed and agreed_margin is not None:
            margin = agreed_margin
        if total - runner < margin or post[unit] < self.settings.asked_unit_post_least:
            return None
        return UnitMatch(self.units[unit], round(total, 4), round(runner, 4), sentence=text)

    def match_asked(self, asking: list[AskingSentence], post_vector, allowed=None, story: bool = True,
                    agreeing_only: frozenset[str] = frozenset(), declined: bool = False) -> UnitMatch | None:
        """The unit a post's asking sentences read as: a story's words are mostly background, so each
        asking sentence is matched as a question of its own (`scores`, its figures the story's), and
        the whole post weighs in at `asked_unit_post_weight` x its cosine to the unit, which settles a
        short sentence that leans on the story ("What happens to it then?"). Served when the sum leads
        every other unit's by `asked_unit_margin`, the whole post is at least `asked_unit_post_least`
        near the unit (a story about another subject may hold a sentence in a unit's words), and either
        its sentence scores at least `asked_unit_min_score`, or the two readings agree: the unit is the one its sentence is nearest
        and the one the whole post is nearest (at least `asked_unit_agree_post`), and the sentence
        scores at least `asked_unit_agree_score`. `story`: False for a post of two sentences, whose
        first is often the condition that decides the answer: only agreement serves it.
        `allowed(unit, sentence)`: whether a unit may answer that sentence (its kind, unit_kind.py).
        A sentence in `agreeing_only` counts only for the unit it and the whole post are both nearest,
        under the agreement's bars. `declined`: the engine would turn the post away, so its sentence
        must score `asked_unit_over_decline` and lead by twice the margin (agreement alone is not enough)."""
        ranked, post, nearest = self.asked_ranking(asking, post_vector, allowed, agreeing_only)
        if not ranked:
            return None
        post_nearest = max(post.items(), key=lambda kv: kv[1], default=(None, 0.0))
        unit, (total, score, text, agree_bar) = ranked[0]
        runner = ranked[1][1][0] if len(ranked) > 1 else 0.0
        margin = self.settings.asked_unit_margin * (2 if declined else 1)
        if total - runner < margin or (post and post.get(unit, 0.0) < self.settings.asked_unit_post_least):
            return None
        if declined and score < self.settings.asked_unit_over_decline:
            return None
        agree = (unit in nearest and post_nearest[0] == unit and post_nearest[1] >= self.settings.asked_unit_agree_post
                 and score >= agree_bar)
        if not agree and (not story or score < self.settings.asked_unit_min_score):
            return None
        return UnitMatch(self.units[unit], round(total, 4), round(runner, 4), sentence=text)

    def asked_ranking(self, asking: list[AskingSentence], post_vector, allowed=None,
                      agreeing_only: frozenset[str] = frozenset()) -> tuple[list, dict[int, float], set[int]]:
        """A post's units by their asking sentence's score plus `asked_unit_post_weight` x the whole
        post's cosine (`match_asked`, before its bars): [(unit, (sum, the sentence's score, that
        sentence, the score it agrees at))], best first; each unit's post cosine; the unit each
        sentence is nearest."""
        post = self.post_cosines(post_vector)
        weight = self.settings.asked_unit_post_weight
        post_nearest = max(post.items(), key=lambda kv: kv[1], default=(None, 0.0))
        # unit -> (sum, its sentence's score, that sentence, the score that sentence agrees at)
        best: dict[int, tuple[float, float, str, float]] = {}
        plain: set[int] = set()  # the units a sentence read as written scored
        nearest: set[int] = set()  # the unit each sentence is nearest, among those it may have
        # (A sentence read as written first: one read with the post's opening, `read_as`, does not take
        # a unit from it, so the opening answers the sentence that names what the unit answers.)
        for sentence in sorted(asking, key=lambda s: s.read_as is not None):
            scored = {unit: score for unit, score in self.scores(sentence.read_as or sentence.text, sentence.vector,
                                                                 sentence.reading, True).items()
                      if allowed is None or allowed(self.units[unit], sentence)}
            # (Read with the post's opening, a sentence overlaps the whole post: its agreeing with it is
            # no second reading, so it must score what a sentence standing alone must.)
            agree_bar = self.settings.asked_unit_min_score if sentence.read_as else self.settings.asked_unit_agree_score
            if scored and sentence.text in agreeing_only:
                unit = max(scored, key=scored.get)
                agrees = (unit == post_nearest[0] and post_nearest[1] >= self.settings.asked_unit_agree_post
                          and scored[unit] >= agree_bar)
                scored = {unit: scored[unit]} if agrees else {}
            if scored:
                nearest.add(max(scored, key=scored.get))
            for unit, score in scored.items():
                total = score + weight * post.get(unit, 0.0)
                if total > best.get(unit, (float("-inf"),))[0] and not (sentence.read_as and unit in plain):
                    best[unit] = (total, score, sentence.text, agree_bar)
            if sentence.read_as is None:
                plain.update(scored)
        return sorted(best.items(), key=lambda kv: -kv[1][0]), post, nearest

    def lexicon(self):
        """The units' BM25 index (unit_lexicon.py), built on first use, or with the matcher when the
        learned ranking score reads it (the stored parts then hold it)."""
        if self.__dict__.get("_lexicon") is None:

            self._lexicon = UnitLexicon(self.units)
        return self._lexicon

    def match_topic(self, post: str, post_vector, allowed=None) -> UnitMatch | None:
        """The unit a whole story is about, when no sentence of it matched one: its asking sentences may
        name nothing ("Is that right?", "Why?") and lean on the topic the
        story names. Two readings of the whole post must agree on the unit: its cosine to the unit's
        nearest paraphrase (meaning) and the BM25 score of its words against the units' wordings
        (`lexicon`: the rare words that name a topic weigh most). Their sum, the BM25 score scaled by
        the best unit's and weighted `unit_topic_lexical_weight`, must lead the next unit's by
        `unit_topic_margin`, and the post be at least `asked_unit_post_least` near the unit.
        `allowed(unit)`: whether the unit may answer the post (its kind, its subject); one that may
        not is not passed over for the next: the two readings agreed on it. Nor is a unit whose question
        states figures (`states_figures`)."""
        if self.vectors is None or post_vector is None or len(self.units) < 2:
            return None
        cosines = self.unit_cosines(post_vector).astype(np.float64)
        lexical = self.lexicon().scores(post)
        if lexical.max() <= 0:
            return None
        fused = cosines + self.settings.unit_topic_lexical_weight * lexical / lexical.max()
        best, runner = (int(i) for i in np.argsort(-fused)[:2])
        if best != int(np.argmax(cosines)) or best != int(np.argmax(lexical)):
            return None
        if fused[best] - fused[runner] < self.settings.unit_topic_margin or cosines[best] < self.settings.asked_unit_post_least:
            return None
        if allowed is not None and not allowed(self.units[best]):
            return None
        if self.states_figures(self.units[best]):
            return None
        return UnitMatch(self.units[best], round(float(fused[best]), 4), round(float(fused[runner]), 4))

    def states_figures(self, unit: Unit) -> bool:
        """Whether a unit's question states figures of its own ("ESCT on a salary of $70,000"): such a
        unit answers only a question stating the same (`scores` compares the readings), and a whole
        story, read without its figures, cannot say which of its figures the question is about."""
        reading = self._read(unit.question)
        return reading is not None and (bool(reading.amounts) or reading.kiwisaver_rate is not None)
