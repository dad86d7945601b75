"""Understand: which intent of the catalogue a question is, and how sure we are.

In: a question, its embedding (the same vector retrieval uses), the catalogue
(`nztax/data/intents.yaml`) and the catalogue's example vectors. Out: `Classification` — the best
intent, the runner-up, their scores, the margin between them and whether it clears the settings'
confidence bar.

    catalogue = Catalogue.load()
    classifier = IntentClassifier(catalogue, catalogue.example_vectors(embedder))
    classifier.classify(question, embedder.embed_query(question))

An intent's score is the mean cosine of its nearest examples plus lexical evidence (how much of
the question its best example shares, and whether one of its keywords is in the question: a keyword
written in capitals is an acronym, looked for in capitals only) plus slot evidence (what the
question states — an amount per pay, a tax code — that the intent's catalogue entry prefers or
avoids). The example vectors are computed at build time and stored
beside the index (`intents.npz`, keyed by the catalogue's hash and the embedder id); a missing or
stale file is recomputed in-process.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from nztax.cue_words import alternatives
from nztax.settings import Settings, get_settings
from nztax.slots import OTHER_INCOME_ROLES
from nztax.yaml_data import load_yaml

log = logging.getLogger("nztax.understand")

CATALOGUE_PATH = Path(__file__).parent / "data" / "intents.yaml"
VECTORS_FILE = "intents.npz"
# How many of the best readings count as the question's own: an intent it names by keyword is part of
# its sum only if it is among these.
LEADING_READINGS = 5
ACTIONS = ("calculate", "fact", "topic", "clarify", "decline", "refuse")

_STOP = frozenset("a an and are as at be but by can could do does for from get got have how i i'm im if in is it "
                  "its me my of on or so that the their there this to was what whats what's when which who will "
                  "with would you your nz new zealand please thanks much".split())


# Before or after tax right after a figure (in phrase text): words saying what a figure is, not that
# the question is about tax.
FIGURE_QUALIFIER = re.compile(r" (?:before|pre) tax(?= )|(?<=\d)(?P<per> (?:a|per) (?:week|wk|fortnight|month|year))? after tax(?= )")


# A bank's lending ratio, whose "income" is no word of income tax.
LENDING_RATIO = re.compile(r" debt to income(?: ratio)?(?= )")

# A tie to New Zealand said not to be there (never lived here, no IRD number): no word of
# New Zealand's own tax, so it holds no decline back.
DENIED_NZ_TIE = re.compile(r" (?:" + alternatives("denied_nz_tie")
                           + r") (?:an? |any |got an? )?(?:ird(?: number)?|lived (?:in|here)(?: nz| new zealand)?|been (?:to|in) (?:nz|new zealand)|(?:nz |new zealand )?(?:tax )?resident(?: here| in nz| in new zealand)?)(?= )")


def phrase_text(text: str, keep_case: bool = False) -> str:
    """Lower case (unless `keep_case`), punctuation as spaces, one space between words: how keywords are matched."""
    # (A quote mark around pasted text, "'Jobseeker Support …'", is not part of its words.)
    text = str(text) if keep_case else str(text).lower()
    return " ".join(w.strip("'") for w in re.sub(r"[^A-Za-z0-9$%']", " ", text).split() if w.strip("'"))


def mentions(lowered: str, phrases: tuple[str, ...]) -> bool:
    """True when one of `phrases` (phrase text) is in `lowered` (" phrase text ") as whole words."""
    return any(f" {k} " in lowered for k in phrases)


def says_any(question: str, phrases: tuple[str, ...]) -> bool:
    """True when the question uses one of `phrases` (phrase text) as whole words."""
    return mentions(f" {phrase_text(question)} ", phrases)


@lru_cache(maxsize=None)
def _phrase_words(phrase: str) -> list[str]:
    """A catalogue phrase's words (the catalogue is fixed: each is split once, not per question)."""
    return phrase.split()


def follows_in_order(lowered: str, sequences: tuple[tuple[tuple[str, ...], ...], ...], gap: int) -> bool:
    """True when, for one of `sequences`, each step (alternative phrases) occurs in `lowered`
    (" phrase text "), in order, with at most `gap` words between one step and the next. An empty
    step (written "..." in the catalogue) lets the next step come anywhere later."""
    tokens, where = _token_positions(lowered)

    def matches(sequence: tuple[tuple[str, ...], ...]) -> bool:
        ends: list[int] | None = None  # token positions after the last step matched
        anywhere_later = False
        for alternatives in sequence:
            if not alternatives:
                anywhere_later = True
                continue
            found = []
            for phrase in alternatives:
                parts = _phrase_words(phrase)
                for start in where.get(parts[0], ()):
                    if (ends is None or any(0 <= start - end <= (len(tokens) if anywhere_later else gap) for end in ends)) \
                            and tokens[start:start + len(parts)] == parts:
                        found.append(start + len(parts))
            if not found:
                return False
            ends, anywhere_later = found, False
        return True

    # A sequence can match only if its first step has a phrase whose first word is in the text,
    # and so has every later step: looked up by word, most sequences are never tried.
    by_first_word, steps_of = _plan_of(sequences)
    candidates = {number for token in [*where, ""] for number in by_first_word.get(token, ())}
    return any(all(not firsts.isdisjoint(where) for firsts in steps_of[number]) and matches(sequences[number])
               for number in sorted(candidates))


@lru_cache(maxsize=64)
def _token_positions(lowered: str) -> tuple[list[str], dict[str, list[int]]]:
    """The words of `lowered` and each word's positions: a question is tested against every
    intent's sequences, so it is split and indexed once, not once per intent (read only)."""
    tokens = lowered.split()
    where: dict[str, list[int]] = {}
    for position, token in enumerate(tokens):
        where.setdefault(token, []).append(position)
    return tokens, where


# The catalogue's sequences are fixed tuples held for the process's life; looking their plan up
# by value hashed every phrase on every call (34 µs a question for the longest, 2,803 phrases).
_plans: dict[int, tuple] = {}


def _plan_of(sequences: tuple[tuple[tuple[str, ...], ...], ...]):
    """`_sequence_plan(sequences)`, kept by the tuple's identity (the entry holds the tuple, so
    an id is never reused while its plan is kept)."""
    entry = _plans.get(id(sequences))
    if entry is None or entry[0] is not sequences:
        if len(_plans) >= 256:
            _plans.clear()
        entry = _plans[id(sequences)] = (sequences, _sequence_plan(sequences))
    return entry[1]


@lru_cache(maxsize=256)
def _sequence_plan(sequences: tuple[tuple[tuple[str, ...], ...], ...]) -> tuple[dict[str, tuple[int, ...]], list]:
    """({a first step's first word: the sequences it may start}, per sequence the first words of
    its non-empty steps' phrases, a set per step). A sequence of only "..." steps is under ""."""
    by_first_word: dict[str, list[int]] = {}
    steps_of = []
    for number, sequence in enumerate(sequences):
        steps = [frozenset(_phrase_words(phrase)[0] for phrase in step) for step in sequence if step]
        steps_of.append(steps)
        for word in steps[0] if steps else ("",):
            by_first_word.setdefault(word, []).append(number)
    return {w: tuple(n) for w, n in by_first_word.items()}, steps_of


def neighbour_layout(starts: np.ndarray, total: int, top: int) -> tuple[np.ndarray, list[tuple[int, int, int]]]:
    """For the intents with more than `top` examples, a matrix of their example rows padded with
    `total` (a row past the last); and (intent, start, end) of those with `top` or fewer."""
    ends = [*starts[1:], total]
    many = [(int(s), int(e)) for s, e in zip(starts, ends) if e - s > top]
    few = [(i, int(s), int(e)) for i, (s, e) in enumerate(zip(starts, ends)) if e - s <= top]
    width = max((e - s for s, e in many), default=0)
    rows = np.full((len(many), width), total, dtype=np.int64)
    for r, (s, e) in enumerate(many):
        rows[r, :e - s] = np.arange(s, e)
    return rows, few


def words(text: str) -> set[str]:
    """Lower-case word stems for lexical evidence (plural s dropped, stop words out)."""
    out = set()
    for w in re.findall(r"[a-z][a-z'\-]*|\d+[a-z]*", text.lower()):
        w = w.strip("'-")
        if w in _STOP or len(w) < 2:
            continue
        out.add(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w)
    return out


# Slot evidence an intent may prefer or avoid (catalogue `prefers` / `avoids`).
SLOT_FEATURES = {
    # (An income in another currency is still an income for what the question asks.)
    "amount": lambda s: s.income_amount() is not None or any(a.role in (*OTHER_INCOME_ROLES, "foreign") for a in s.amounts),
    "no_amount": lambda s: not s.amounts,
    "annual_amount": lambda s: any(a.period == "annual" for a in s.incomes + [a for a in s.amounts if a.role == "foreign"]),
    "period_amount": lambda s: any(a.period_stated and a.period != "annual" for a in s.incomes),
    "tax_code": lambda s: s.tax_code is not None,
    "student_loan": lambda s: bool(s.student_loan),
    "kiwisaver": lambda s: bool(s.kiwisaver),
    "asked_pay_period": lambda s: s.asked_period not in (None, "annual"),
    "asked_annual": lambda s: s.asked_period == "annual",
    "no_ird_number": lambda s: s.no_ird_number,
    "between_amounts": lambda s: s.between,
    "two_incomes": lambda s: len(s.incomes) > 1,
    "donation": lambda s: any(a.role == "donation" for a in s.amounts),
    "pie_income": lambda s: any(a.role == "pie_income" for a in s.amounts),
    "names_income_tax": lambda s: s.names_income_tax,
    "names_acc_levy": lambda s: s.names_acc_levy,
    "second_job": lambda s: s.second_job,
    "names_take_home": lambda s: s.names_take_home,
    "names_pir": lambda s: s.names_pir,
    "asks_code": lambda s: s.asks_code,
    "names_government_contribution": lambda s: s.names_government_contribution,
    "contribution": lambda s: bool(s.contributions),
}


def slot_features(slots) -> frozenset[str]:
    return frozenset(name for name, test in SLOT_FEATURES.items() if slots is not None and test(slots))


@dataclass(frozen=True)
class IntentSpec:
    """One entry of the catalogue."""

    name: str
    does: str
    examples: tuple[str, ...]
    tool: str | None = None
    needs: tuple[str, ...] = ()
    lead: str | None = None
    topics: tuple[str, ...] = ()
    search: str | None = None
    copy: str | None = None
    keywords: tuple[str, ...] = ()
    # keywords written in capitals: acronyms, named only in capitals ("pie" in running text is no PIE)
    acronyms: frozenset[str] = frozenset()
    # refuse: words that ask to mislead IRD whatever else the question is about
    decisive: tuple[str, ...] = ()
    # refuse: word sequences that settle it too, each a list of alternatives matched in order with at
    # most a few words between: the shape of a request to mislead
    decisive_sequences: tuple[tuple[tuple[str, ...], ...], ...] = ()
    # decline: its decisive words, or its keywords alone, settle it only in a question with none of
    # these (words of New Zealand's own income tax)
    decisive_unless: tuple[str, ...] = ()
    # decline: words naming the other body's own tax so plainly that no words of the person's own tax hold
    # them back (the entity's own rate on what it keeps, beside what it pays the person)
    decisive_always: tuple[str, ...] = ()
    # refuse: nearness alone (no keyword, decisive word or shape) does not settle a question with one
    # of these: an honest question of what must be told
    nearness_unless: tuple[str, ...] = ()
    show: tuple[str, ...] = ()
    family: str | None = None
    asks: str | None = None
    label: str | None = None
    next: tuple[str, ...] = ()
    covers: tuple[str, ...] = ()
    prefers: tuple[str, ...] = ()
    avoids: tuple[str, ...] = ()
    # A sum of their own asked with nothing stated: True where the answer depends on
    # the person's own figures, so such a question is asked back (topics; facts that say so).
    own_sum_asks: bool = False
    # A fact whose rule works a figure out from an amount the question states (a residual income tax):
    # the name of that sum in say.py.
    rule_sum: str | None = None
    # A fact whose one rate follows the person's own figures (ESCT): their own rate asked with no
    # figure is asked back; the table of rates answers a question about the rates themselves.
    own_rate_asks: bool = False
    # decline: its last question alone settles it, whatever figures the background holds (a non-tax subject).
    final_question_decides: bool = False


@dataclass
class Catalogue:
    intents: list[IntentSpec]
    digest: str

    @classmethod
    def load(cls, path: Path | None = None) -> "Catalogue":
        raw_text = Path(path or CATALOGUE_PATH).read_text(encoding="utf-8")
        data = load_yaml(raw_text)
        intents = []
        for raw in data["intents"]:
            for field_name in ("keywords", "decisive", "decisive_unless", "decisive_always", "nearness_unless", "decisive_sequences"):
                odd_word = _first_boolean(raw.get(field_name) or ())
                if odd_word is not None:
                    # YAML reads a bare on, off, yes, no, true or false as a boolean, not as the word.
                    raise ValueError(f"intent {raw['name']}: {field_name} holds {odd_word!r}, not a word (quote it)")
            spec = IntentSpec(
                name=raw["name"], does=raw["does"], examples=tuple(raw.get("examples") or ()),
                tool=raw.get("tool"), needs=tuple(raw.get("needs") or ()), lead=raw.get("lead"),
                topics=tuple(raw.get("topics") or ()), search=raw.get("search"), copy=raw.get("copy"),
                keywords=tuple(phrase_text(k) for k in raw.get("keywords") or ()),
                acronyms=frozenset(phrase_text(k) for k in raw.get("keywords") or () if str(k).isupper()),
                decisive=tuple(phrase_text(k) for k in raw.get("decisive") or ()),
                decisive_unless=tuple(phrase_text(k) for k in raw.get("decisive_unless") or ()),
                decisive_always=tuple(phrase_text(k) for k in raw.get("decisive_always") or ()),
                nearness_unless=tuple(phrase_text(k) for k in raw.get("nearness_unless") or ()),
                decisive_sequences=tuple(tuple(() if step == "..." else tuple(phrase_text(k) for k in step) for step in seq)
                                         for seq in raw.get("decisive_sequences") or ()),
                show=tuple(raw.get("show") or ()), family=raw.get("family"), asks=raw.get("asks"),
                label=raw.get("label"), next=tuple(raw.get("next") or ()),
                covers=tuple(raw.get("covers") or ()), prefers=tuple(raw.get("prefers") or ()),
                avoids=tuple(raw.get("avoids") or ()),
                own_sum_asks=raw.get("own_sum", "ask" if raw["does"] == "topic" else "answer") == "ask",
                rule_sum=raw.get("rule_sum"), own_rate_asks=raw.get("own_rate") == "ask",
                final_question_decides=raw.get("final_question") == "decides",
            )
            unknown = set(spec.prefers + spec.avoids) - set(SLOT_FEATURES)
            if unknown:
                raise ValueError(f"intent {spec.name}: unknown slot features {sorted(unknown)} (known: {', '.join(SLOT_FEATURES)})")
            if spec.does not in ACTIONS:
                raise ValueError(f"intent {spec.name}: does must be one of {', '.join(ACTIONS)}, not {spec.does!r}")
            if spec.does == "calculate" and not spec.tool:
                raise ValueError(f"intent {spec.name}: a calculation names its tool")
            if not spec.examples:
                raise ValueError(f"intent {spec.name}: no examples")
            odd = [ex for ex in spec.examples if not isinstance(ex, str)]
            if odd:
                raise ValueError(f"intent {spec.name}: examples must be text (quote one holding ': '): {odd[0]!r}")
            intents.append(spec)
        names = [i.name for i in intents]
        if len(set(names)) != len(names):
            raise ValueError("intent names must be unique")
        return cls(intents, hashlib.sha256(raw_text.encode("utf-8")).hexdigest()[:16])

    def get(self, name: str) -> IntentSpec:
        return next(i for i in self.intents if i.name == name)

    @cached_property
    def example_rows(self) -> list[tuple[int, str]]:
        """(intent index, example text) for every example, in catalogue order."""
        return [(i, ex) for i, spec in enumerate(self.intents) for ex in spec.examples]

    def embed_examples(self, embedder) -> np.ndarray:
        """Each example embedded as a query is (examples are questions: Gemini's task type matters)."""
        return np.stack([embedder.embed_query(ex) for _, ex in self.example_rows]).astype(np.float32)

    def save_vectors(self, directory: Path, embedder) -> Path:
        """Write the example vectors beside an index (build time)."""
        target = Path(directory) / VECTORS_FILE
        np.savez(target, vectors=self.embed_examples(embedder),
                 meta=np.array(json.dumps({"catalogue": self.digest, "embedder": embedder.id})))
        return target

    def stored_vectors(self, directory: Path, embedder) -> np.ndarray | None:
        """The example vectors stored in `directory`, or None when missing or made for another
        catalogue or embedder."""
        try:
            with np.load(Path(directory) / VECTORS_FILE) as data:
                meta, vectors = json.loads(str(data["meta"])), data["vectors"]
        except (OSError, KeyError, ValueError):
            return None
        fits = meta == {"catalogue": self.digest, "embedder": embedder.id} and len(vectors) == len(self.example_rows)
        return vectors if fits else None

    def vectors_current(self, directory: Path, embedder) -> bool:
        return self.stored_vectors(directory, embedder) is not None

    def example_vectors(self, embedder, directory: Path | None = None) -> np.ndarray:
        """The stored vectors when they fit this catalogue and embedder, else computed now."""
        if directory is not None:
            stored = self.stored_vectors(directory, embedder)
            if stored is not None:
                return stored
            log.warning(json.dumps({"event": "intent_vectors_stale_or_missing", "file": str(Path(directory) / VECTORS_FILE)}))
        return self.embed_examples(embedder)


def _first_boolean(items) -> bool | None:
    """The first item, at any depth of nested lists, that YAML read as a boolean."""
    for item in items:
        found = _first_boolean(item) if isinstance(item, list) else (item if isinstance(item, bool) else None)
        if found is not None:
            return found
    return None


@dataclass
class Classification:
    intent: IntentSpec
    score: float
    runner_up: IntentSpec | None
    runner_up_score: float
    confident: bool
    scores: dict[str, float] = field(default_factory=dict)  # every intent's score, best first
    named: tuple[str, ...] = ()       # intents whose keywords the question uses ("KS", "IETC", "ACC")

    @property
    def leading(self) -> tuple[str, ...]:
        """The few best readings (LEADING_READINGS), whose parts a sum may show."""
        return tuple(self.scores)[:LEADING_READINGS]

    @property
    def margin(self) -> float:
        return self.score - self.runner_up_score


class IntentClassifier:
    """Nearest examples (cosine) plus lexical evidence; one per process."""

    def __init__(self, catalogue: Catalogue, example_vectors: np.ndarray, settings: Settings | None = None):
        self.catalogue = catalogue
        self.settings = settings or get_settings()
        self.vectors = np.asarray(example_vectors, dtype=np.float32)
        self.owner = np.array([i for i, _ in catalogue.example_rows], dtype=np.int64)
        self.example_words = [words(ex) for _, ex in catalogue.example_rows]
        # Example rows are grouped by intent: the start of each intent's rows, for per-intent maxima.
        self.starts = np.searchsorted(self.owner, np.arange(len(catalogue.intents)))
        self.example_sizes = np.array([len(w) for w in self.example_words], dtype=np.float32)
        self.rows_with: dict[str, np.ndarray] = {}
        for row, ws in enumerate(self.example_words):
            for w in ws:
                self.rows_with.setdefault(w, []).append(row)
        self.rows_with = {w: np.array(rows, dtype=np.int64) for w, rows in self.rows_with.items()}
        # Each keyword as matched below: padded to whole words, and (long ones) also inside a word.
        # (An acronym is looked for in capitals, in the question as written.)
        self.keyword_tests = [tuple((f" {k.upper()} " if k in spec.acronyms else f" {k} ", k if len(k) > 6 else None,
                                     k in spec.acronyms) for k in spec.keywords)
                              for spec in catalogue.intents]
        self.prefer_sets = [frozenset(spec.prefers) for spec in catalogue.intents]
        self.avoid_sets = [frozenset(spec.avoids) for spec in catalogue.intents]
        self.always = [(i, spec.decisive_always) for i, spec in enumerate(catalogue.intents) if spec.decisive_always]
        self.decisive = [(i, spec.decisive, spec.decisive_sequences, spec.decisive_unless)
                         for i, spec in enumerate(catalogue.intents) if spec.decisive or spec.decisive_sequences]

    def scores(self, question: str, vector: np.ndarray | None, features: frozenset[str] = frozenset()) -> np.ndarray:
        return self._scores(question, vector, features, settle=False)[0]

    def _scores(self, question: str, vector: np.ndarray | None, features: frozenset[str],
                settle: bool = True) -> tuple[np.ndarray, np.ndarray, int | None, str]:
        """(combined score, keyword hit) per intent, the intent whose decisive words are in the
        question (None unless `settle`: half the cost on a long post), and the question as phrase text."""
        n = len(self.catalogue.intents)
        dense = np.zeros(n, dtype=np.float32)
        if vector is not None and len(self.vectors):
            dense = self._nearest_mean(self.vectors @ np.asarray(vector, dtype=np.float32))
        asked = words(question)
        lowered = f" {phrase_text(question)} "
        lexical = np.zeros(n, dtype=np.float32)
        if asked:
            shared = np.zeros(len(self.example_words), dtype=np.float32)
            for w in asked:
                rows = self.rows_with.get(w)
                if rows is not None:
                    shared[rows] += 1
            jaccard = shared / np.maximum(len(asked) + self.example_sizes - shared, 1)
            lexical = np.maximum.reduceat(jaccard, self.starts).astype(np.float32)
        as_written = f" {phrase_text(question, keep_case=True)} "
        keyword = np.array([1.0 if any(padded in (as_written if exact else lowered) or (inner is not None and inner in lowered)
                                       for padded, inner, exact in tests)
                            else 0.0 for tests in self.keyword_tests], dtype=np.float32)
        w = self.settings.intent_lexical_weight
        prefer = np.array([len(features & p) for p in self.prefer_sets], dtype=np.float32)
        avoid = np.array([len(features & a) for a in self.avoid_sets], dtype=np.float32)
        combined = (dense + w * (0.5 * lexical + 0.5 * keyword) + self.settings.intent_slot_weight * prefer
                    - self.settings.intent_avoid_weight * avoid)
        if not settle:
            return combined, keyword, None, lowered
        gap = self.settings.intent_sequence_gap
        qualified = DENIED_NZ_TIE.sub(" ", LENDING_RATIO.sub(" dti ", FIGURE_QUALIFIER.sub(lambda m: (m.group("per") or "") + " ", lowered)))
        settled = [i for i, phrases, sequences, unless in self.decisive
                   if (mentions(lowered, phrases) or follows_in_order(lowered, sequences, gap)) and not mentions(qualified, unless)]
        settled += [i for i, phrases in self.always if i not in settled and mentions(lowered, phrases)]
        # A request to mislead settles it before another agency's words do.
        decisive = next((i for i in settled if self.catalogue.intents[i].does == "refuse"), settled[0] if settled else None)
        return combined, keyword, decisive, lowered

    def _nearest_mean(self, cos: np.ndarray) -> np.ndarray:
        """Per intent, the mean cosine of its `intent_neighbours` nearest examples (of all, when
        it has fewer), for all intents at once: one intent at a time cost a third of a warm answer."""
        top = self.settings.intent_neighbours
        layout = self.__dict__.get("_neighbour_layout")
        if layout is None or layout[0] != top:
            layout = self._neighbour_layout = (top, *neighbour_layout(self.starts, len(self.vectors), top))
        _, rows, few = layout
        dense = np.zeros(len(self.catalogue.intents), dtype=np.float32)
        if rows.size:
            # Padding points one past the last example, at -inf, which never reaches the top.
            padded = np.append(cos, np.float32(-np.inf))[rows]
            many = np.ones(len(dense), dtype=bool)
            many[[i for i, _, _ in few]] = False
            dense[many] = np.partition(padded, padded.shape[1] - top, axis=1)[:, -top:].mean(axis=1)
        for i, start, end in few:
            dense[i] = float(cos[start:end].mean()) if end > start else 0.0
        return dense

    @staticmethod
    def _kept_in(spec: IntentSpec, lowered: str) -> bool:
        """A decline without decisive words is held back by its words of New Zealand's own tax."""
        return spec.does == "decline" and not spec.decisive and mentions(lowered, spec.decisive_unless)

    def classify(self, question: str, vector: np.ndarray | None, slots=None) -> Classification:
        combined, keyword, decisive, lowered = self._scores(question, vector, slot_features(slots))
        order = np.argsort(-combined)
        intents = self.catalogue.intents
        best = int(order[0])
        if len(order) > 1:
            close = int(order[1])
            if intents[best].name in intents[close].covers and (
                    combined[best] - combined[close] < self.settings.intent_margin
                    or keyword[close] > 0 and combined[best] - combined[close] < self.settings.intent_cover_margin):
                # Its answer shows the other's figure too (take-home shows the student loan); a sum
                # the question names wins by a wider margin.
                best = close
        family, covered = intents[best].family, set(intents[best].covers)
        # The runner-up is the best intent that would give a different answer.
        rest = [int(i) for i in order if int(i) != best and (family is None or intents[int(i)].family != family)
                and intents[int(i)].name not in covered]
        second = rest[0] if rest else None
        score = float(combined[best])
        runner = float(combined[second]) if second is not None else 0.0
        confident = score >= self.settings.intent_min_score and (score - runner) >= self.settings.intent_margin
        if decisive is not None:
            # Asking how to make IRD believe something untrue is refused, whatever it is about; a
            # question only about a visa, a car's registration or a tenancy is not about tax. A
            # request to evade in the refusal's own words stays refused ("paid under the table so
            # Work and Income doesn't cut my benefit").
            if intents[decisive].does == "decline":
                decisive = next((int(i) for i in order if intents[int(i)].does == "refuse" and keyword[int(i)] > 0), decisive)
            best, score, confident = decisive, float(combined[decisive]), True
        elif self._kept_in(intents[best], lowered):
            # Words of New Zealand's own tax (residence, say) keep a question near another
            # country's tax from being turned away: it is looked up instead. (Where a decline has
            # decisive words, these words only stop those from settling it.)
            confident = False
        elif (intents[best].does == "refuse" and keyword[best] > 0 and score >= self.settings.intent_min_score
              or intents[best].does == "decline" and keyword[best] > 0):
            # Safety first: a request to evade tax, in its own words, is refused; a question naming
            # another tax, entity or country in its own words is out of scope.
            confident = True
        elif intents[best].does == "refuse" and (score < self.settings.refuse_min_score_unworded
                                                 or mentions(lowered, intents[best].nearness_unless)
                                                 or mentions(lowered, intents[best].decisive_unless)):
            # Some nearness is no proof of a request to mislead (asking how to declare sits near
            # asking not to), nor beside a mistake owned up to: without its words, look it up.
            confident = False
        elif intents[best].does != "refuse":
            # Safety first: a request to evade tax close behind another reading, in words the refuse
            # intent names (its keywords), is refused; so is another tax or country's tax close behind
            # a calculation (an amount pulls towards a sum), unless the question has the decline's own
            # words of the person's own tax.
            turn_away = ("refuse", "decline") if intents[best].does == "calculate" or not keyword[best] else ("refuse",)
            for i in order[1:]:
                spec = intents[int(i)]
                if (spec.does in turn_away and keyword[int(i)] > 0 and combined[int(i)] >= self.settings.intent_min_score
                        and score - float(combined[int(i)]) <= self.settings.refuse_margin and not self._kept_in(spec, lowered)
                        and not (spec.does == "decline" and mentions(lowered, spec.decisive_unless))):
                    best, score, confident = int(i), float(combined[int(i)]), True
                    break
        return Classification(
            intent=intents[best], score=score, runner_up=intents[second] if second is not None else None,
            runner_up_score=runner, confident=confident,
            scores={intents[i].name: round(float(combined[i]), 4) for i in order},
            named=tuple(intents[i].name for i in np.flatnonzero(keyword)),
        )


_catalogue: Catalogue | None = None


def default_catalogue() -> Catalogue:
    """The intent catalogue (data/intents.yaml), loaded once per process."""
    global _catalogue
    if _catalogue is None:
        _catalogue = Catalogue.load()
    return _catalogue


def adopt_catalogue(catalogue: Catalogue) -> None:
    """Take `catalogue` (the one a stored classifier was built from) as the process's own, unless
    one is loaded already: a stored part and the rest of the engine then read the same intents."""
    global _catalogue
    if _catalogue is None:
        _catalogue = catalogue
