"""The answer engine shared by the FAQ build, `nztax ask` and POST /ask.

In: a question, an optional tax year and the latest turns of history. Out: `AskResult`.

    engine = Engine.load()                      # rules + retriever + FAQ answers, once per process
    engine.answer("How much tax on $85k?").to_json()

Steps: (1) understand (understand.py: the intent, by nearest catalogue examples; slots.py: amounts,
periods, codes, years, conditions): decide.py proposes an action (on intent_proposal.py's reading), the
question frame (frame.py) and the decision table settle it; (2) LLM mode (a model is configured; llm_answer.py): the model reads the
question into the same frame, the table settles the proposal on it, the engine computes and the model
writes around the engine's figures; only a refusal, and an answer unit matched far ahead of any other,
come before the model; (3) offline mode, and whenever the model fails: the FAQ fast path when the
stored question reads the same, an answer unit (unit_match.py), decline, refuse and clarify as fixed
copy, else say.py writes the answer first, then the working, then the sources; (4) the figure guard
checks every dollar amount and percentage in the answer.
"""

from __future__ import annotations

import importlib
import json
import logging
import threading
import time
from dataclasses import dataclass, replace
from functools import partial
from types import SimpleNamespace
from typing import Any

import numpy as np

from nztax import (answer_evidence, applies, asked_parts, calculator_links, composer, decline_units, engine_parts, guard,
                   leaning, llm_answer, nothing_found, opening_doubt, rule_history, say, story_gate, tax_side, unit_choice, units)
from nztax.embedders import get_embedder
from nztax.opening_rank import answering_with
from nztax.frame_notes import frame_notes, rule_without_year_figures
from nztax.contract import AskResult
from nztax.decide import Decision, after_retrieval, decide
from nztax.faq_index import FaqIndex
from nztax.index import IndexMissingError
from nztax.known_words import Vocabulary, as_unread, unknown_words
from nztax.rules import RuleBook, current_tax_year, default_rules, today
from nztax.settings import Settings, get_settings
from nztax.slots import clean_text, read_slots, reading, without_denied
from nztax.spelling import Speller
from nztax.tools import call_tool
from nztax.understand import IntentClassifier, adopt_catalogue, default_catalogue
from nztax.citation_sections import CitationSections
from nztax.decision_table import apply_table
from nztax.frame import note_opened, read_frame
from nztax.frame_model import FrameModel
from nztax.intent_proposal import propose
from nztax.retrieval import Retriever
from nztax.unit_choice import asks_back_only_for_figures, on_subject
from nztax.unit_kind import UnitKinds
from nztax.unit_match import UnitMatcher, code_names

log = logging.getLogger("nztax.engine")
# Modules the answer path imports inside functions (each avoids an import cycle or keeps a light
# import light); `build_parts` imports them, so a worker's first answer does not (about 50 ms).
LAZY_ANSWER_MODULES = ("nztax.follow_up", "nztax.lead_choice", "nztax.say_family")


def _reading_of(rules: RuleBook, text: str):
    """The engine's reading of a text (a named function, so a part holding it can be stored)."""
    return reading(read_slots(text, rules))


class UnknownTaxYear(ValueError):
    """A tax year the rules data does not have."""


@dataclass(frozen=True)
class _Quote:
    """A unit's quoted passage, as evidence for the figure guard."""

    text: str


class MissingIndex:
    """Stands in for the retriever while no index is published: every search raises its error."""

    def __init__(self, error: Exception):
        self.error = error

    def search(self, *args, **kwargs):
        raise self.error


class Engine:
    def __init__(self, rules: RuleBook, retriever, faq: FaqIndex | None = None, settings: Settings | None = None):
        self.rules = rules
        self.retriever = retriever
        self.settings = settings or get_settings()
        self.faq = faq if faq is not None else FaqIndex([], self.settings.faq_match_threshold)
        self.titles = composer.source_titles(rules)
        self._sections = None
        self._classifier: IntentClassifier | None = None
        self._frame_model = None
        self._speller: Speller | None = None
        self._fallback_embedder = None
        self._unit_matcher = None
        self._story_gate_model = None
        self._vocabulary = None
        self._unit_kinds = None
        self._page_titles: dict[str, str] | None = None
        self._parts_tried = False
        if isinstance(retriever, Retriever):
            retriever.units_source = self._units_for_search
            retriever.intents_source = lambda: self.classifier  # its intent reading votes in a post's search

    # -- loading -------------------------------------------------------------------------------

    _shared: "Engine | None" = None
    _lock = threading.Lock()

    @classmethod
    def load(cls, settings: Settings | None = None) -> "Engine":
        """The process-wide engine; raises IndexMissingError / IndexMismatchError / RulesError.

        A failure is not cached, so an instance recovers once the index is in place.
        """
        if cls._shared is None:
            with cls._lock:
                if cls._shared is None:
                    engine = cls.create(settings)
                    if isinstance(engine.retriever, MissingIndex):
                        return engine  # calculations only, and not kept: the index may arrive
                    cls._shared = engine
        return cls._shared

    @classmethod
    def create(cls, settings: Settings | None = None, index_dir=None) -> "Engine":
        settings = settings or get_settings()
        index_dir = index_dir or settings.index_dir
        rules = default_rules()
        try:
            retriever = Retriever.load(index_dir, settings=settings)
        except IndexMissingError as exc:
            # Calculations need only the rules: answer them while the index is missing, and let
            # any question that needs a passage fail with the index's own error (503).
            return cls(rules, MissingIndex(exc), None, settings)
        faq = FaqIndex.load(index_dir, settings.faq_match_threshold, rules)
        return cls(rules, retriever, faq, settings)

    @classmethod
    def reset(cls) -> None:
        cls._shared = None

    # -- understanding ------------------------------------------------------------------------

    def _once(self, name: str, build):
        """The engine's part `name`, built by `build()` on first use (once, whichever thread asks
        first), unless the parts stored beside the index for these inputs hold it (engine_parts.py)."""
        if getattr(self, name) is None:
            with self._lock:
                if not self._parts_tried:
                    self._restore_parts()
                if getattr(self, name) is None:
                    setattr(self, name, build())
        return getattr(self, name)

    restore_parts = True  # False: build every part from the data, whatever is stored (the build does)

    def _restore_parts(self) -> None:
        self._parts_tried = True
        if self.restore_parts and not isinstance(self.retriever, MissingIndex):
            if engine_parts.restore(self, self.retriever.index.directory):
                adopt_catalogue(self._classifier.catalogue)

    @property
    def classifier(self) -> IntentClassifier:
        """The intent classifier, built on first use with the query embedder (one per engine)."""
        def build() -> IntentClassifier:
            catalogue = default_catalogue()
            embedder = self.embedder
            index_dir = None if isinstance(self.retriever, MissingIndex) else self.retriever.index.directory
            vectors = catalogue.example_vectors(embedder, index_dir) if embedder is not None else np.zeros((0, 1))
            return IntentClassifier(catalogue, vectors, self.settings)

        return self._once("_classifier", build)

    @property
    def embedder(self):
        if isinstance(self.retriever, MissingIndex):
            if self._fallback_embedder is None:
                try:
                    self._fallback_embedder = get_embedder(self.settings)
                except Exception as exc:  # no model: understand by words alone
                    log.warning(json.dumps({"event": "embedder_unavailable", "detail": str(exc)[:200]}))
                    self._fallback_embedder = False
            return self._fallback_embedder or None
        return self.retriever.embedder

    def _embed(self, text: str):
        """The text's vector from the query embedder, or None when there is none."""
        embedder = self.embedder
        return embedder.embed_query(text) if embedder is not None else None

    @property
    def speller(self) -> Speller:
        """Puts misspelt words right: built on first use from the catalogue and the sources' words."""
        def build() -> Speller:
            asking = [t for i in default_catalogue().intents for t in (*i.examples, *i.keywords)]
            sources = [] if isinstance(self.retriever, MissingIndex) else [
                f"{c.get('title', '')} {c.get('text', '')}" for c in self.retriever.index.children]
            # Words the embedder's vocabulary holds are English words, not misspellings ("customers").
            return Speller.from_texts(asking, sources, self.settings.spelling_cutoff, self.settings.spelling_min_length,
                                      getattr(self.embedder, "is_word", None))

        return self._once("_speller", build)

    @property
    def frame_model(self):
        """The frame's learned readings: stored beside the index, or trained now from the examples."""
        def build():
            index_dir = None if isinstance(self.retriever, MissingIndex) else self.retriever.index.directory
            return FrameModel.load_or_train(index_dir, self.embedder)

        return self._once("_frame_model", build)

    def read_frame(self, decision: Decision):
        """The question frame of the text the decision was made on (its own turn, for a follow-up)."""
        slots = read_slots(decision.asked, self.rules) if decision.used_history else decision.slots
        frame = read_frame(decision.asked, slots, self.frame_model, self.settings.frame_bar, self.speller.knows, self.rules.tax_rates())
        # (A short asking sentence that leans on the story is read with the post's opening: leaning.py.)
        reads_alone = None if isinstance(self.retriever, MissingIndex) else self._reads_alone
        # (So is what the asking sentences are about, when every one of them names almost nothing.)
        return leaning.with_readings(frame, decision.asked, reads_alone, self.frame_model.scope_reading)

    def _reads_alone(self, sentence: str) -> bool:
        """Whether a post's sentence, on its own, is near an answer unit (`asked_unit_agree_score`)."""
        scores = self.unit_matcher.scores(sentence, self.retriever.embed_query(without_denied(sentence)),
                                          _reading_of(self.rules, sentence), True)
        return max(scores.values(), default=0.0) >= self.settings.asked_unit_agree_score

    def understand(self, question: str, history: list[dict] | None, tax_year: str | None) -> tuple[Decision, Any]:
        """The decision for a question, and its embedding (reused by retrieval): the intent reading
        proposes an action, the question's frame and the decision table (data/decisions.yaml) settle it."""
        proposal, vector = self._propose(question, history, tax_year)
        return self.settle(proposal, self.read_frame(proposal), history), vector

    def settle(self, decision: Decision, frame, history: list[dict] | None) -> Decision:
        """The proposal settled by the decision table on a frame (the offline reading's, or the model's)."""
        tax_year = decision.tax_year if decision.tax_year_source == "request" else None

        def redecide(slots):
            return decide(decision.asked, decision.classification, self.rules, history=history, tax_year=tax_year, slots=slots)

        def in_scope():
            c = decision.classification
            if c is None:
                return None
            catalogue = self.classifier.catalogue
            answering = [catalogue.get(n) for n in c.scores if catalogue.get(n).does not in ("decline", "refuse")]
            if not answering:
                return None
            # The runner-up is the next reading that answers too: a lifted decline is not turned away
            # again for having a decline nearest after it.
            runner = answering[1] if len(answering) > 1 else None
            lifted = replace(c, intent=answering[0], runner_up=runner,
                             runner_up_score=c.scores.get(runner.name, 0.0) if runner else 0.0, confident=False)
            return decide(decision.asked, lifted, self.rules, history=history, tax_year=tax_year, slots=decision.slots)

        def asked_alone(as_written: bool = False, only: str | None = None):  # how the post's asking sentence(s) read on their own
            # (one leaning on the story is read with its opening, unless asked as written; `only`: that one alone)
            asking = " ".join(s if as_written else frame.read_as(s) for s in ((only,) if only else frame.asking))
            return self.classifier.classify(asking, self._embed(asking), read_slots(asking, self.rules))

        return apply_table(decision, frame, self.settings, redecide=redecide, in_scope=in_scope, asked_alone=asked_alone)

    def _propose(self, question: str, history: list[dict] | None, tax_year: str | None) -> tuple[Decision, Any]:
        """The action the intent reading proposes, and the question's embedding (intent_proposal.py)."""
        return propose(self, question, history, tax_year)

    def embed_question(self, text: str):
        """A question's vector as retrieval embeds it (with its synonyms); without an index, the query embedder's."""
        return self._embed(text) if isinstance(self.retriever, MissingIndex) else self.retriever.embed_query(text)

    # -- answering -----------------------------------------------------------------------------

    def answer(self, question: str, tax_year: str | None = None, history: list[dict] | None = None, *,
               use_faq: bool = True, mode: str | None = None, unit: units.Unit | None = None) -> AskResult:
        """`unit`: the answer unit to serve (the FAQ build names each page's own); by default the
        unit the question reads as, if any (unit_match.py)."""
        started = time.perf_counter()
        question = clean_text(question)
        if tax_year is not None and tax_year not in self.rules.years:
            known = ", ".join(sorted(self.rules.years))
            raise UnknownTaxYear(f"unknown tax year {tax_year!r} (known: {known})")
        history = [h for h in (history or []) if isinstance(h, dict)]
        mode = mode or ("llm" if self.settings.llm_model else "offline")
        if mode not in ("llm", "offline"):
            raise ValueError("mode must be 'llm' or 'offline'")
        current = current_tax_year()
        proposal, vector = self._propose(question, history, tax_year)
        frame = self.read_frame(proposal)
        # (A question nearer another body's subject than any answer unit is declined there: decline_units.py.)
        decision = decline_units.overrule(self, self.settle(proposal, frame, history), frame, vector, mode)
        if not history and unknown_words(decision, self.vocabulary, self.settings.unknown_words_share):
            decision = as_unread(decision)  # (letters, a keyboard mash, words no page or unit uses)
        result = outcome = None
        serve_units = self.settings.units_serve  # (0: no unit, nor a stored FAQ answer (a unit's), answers)
        if mode == "llm" and self.settings.llm_model:
            # The model reads and writes; the offline reading only refuses, and answers when the model
            # fails. A unit the build names, or one the question matches far ahead of any other, answers first.
            if unit is None and not history and serve_units:
                unit = self._clear_unit(decision, vector, frame)
            if unit is None:
                outcome = llm_answer.answer(self, proposal, decision, history, current, vector, question)
                if outcome.result is not None:
                    result, decision = outcome.result, outcome.decision
                    result = frame_notes(calculator_links.attach(result), decision)
        settled_by_frame = decision.trace is not None and decision.trace.rows and decision.trace.action != decision.trace.proposed
        if result is None and use_faq and serve_units and not history and not settled_by_frame and not decision.stated:
            entry = self.faq.match(question, decision.tax_year, reading(decision.slots))
            if entry is not None:
                try:
                    result = AskResult.from_json({**entry.result, "source": "faq"})
                    note_opened(decision.trace, "faq", f"faq {entry.slug}", f"the stored answer of the FAQ page {entry.slug}")
                except ValueError as exc:  # a malformed stored answer: answer afresh instead
                    log.warning(json.dumps({"event": "faq_entry_invalid", "slug": entry.slug, "detail": str(exc)[:200]}))
        # Otherwise a unit the question reads as answers it (a request to refuse never gets one); the
        # build names each page's own unit. (A stored FAQ answer is itself its unit's answer.)
        # (With a model, it writes unless it failed; the build still names its units. A sum is the calculator's.)
        if (result is None and serve_units and not history and decision.action not in ("refuse", "calculate")
                and (decision.known_year or rule_without_year_figures(decision))
                and (unit is not None or mode == "offline" or outcome is not None)):
            result = self._unit_answer(decision, vector, current, unit, frame)
        if result is None and serve_units and mode == "offline" and decision.action in ("fact", "clarify", "calculate") and decision.intent:
            # A rule whose figure holds only for some ages, or not in a situation the asker is in (applies.py).
            age_unit = applies.instead(decision.intent.lead, frame.ages, self.rules.years.get(decision.tax_year), self.units_by_id, (),
                                       applies.situations_in(frame.asking, question), decision.intent.tool, " ".join(frame.asking))
            result = self._unit_answer(decision, vector, current, age_unit, frame) if age_unit is not None else None
        if result is None:
            result = frame_notes(calculator_links.attach(self.answer_decision(decision, current, vector)), decision)
        if serve_units and mode == "offline" and not history and frame.story and result.status == "answered":
            # A post asking about several things: a short paragraph for each other part a unit answers.
            result = asked_parts.add(self, result, decision, frame, vector, current)
        if serve_units and mode == "offline" and not history and result.status == "out_of_scope":
            result = tax_side.add(self, result, decision, vector, current)  # (the tax a declined post speaks of)
        if outcome is not None and outcome.result is None:
            result.fallback_reason, result.usage = outcome.reason, outcome.usage
            result.guard_removed = outcome.guard_removed or result.guard_removed
        if decision.trace is not None:
            result.trace = decision.trace.to_json()
        # A post set before a rule changed is told the rule of its time (rule_history.py).
        result = nothing_found.only_alone(rule_history.attach(result, question, today(), self.rules.years))
        result.citations = self.citation_sections().fill(result.citations, result.tax_year)
        result.latency_ms = int(round((time.perf_counter() - started) * 1000))
        return result

    def citation_sections(self):
        """Names the heading of a cited page an answer's figures come from (citation_sections.py)."""
        def build():
            index = getattr(self.retriever, "index", None)
            return CitationSections(getattr(index, "parents", None) or {}, self.rules)

        return self._once("_sections", build)

    def build_parts(self) -> None:
        """Build now every part otherwise built on first use (the intent classifier, the speller, the
        frame's model, the citation sections, the unit matcher, the known-words vocabulary, the index's
        identifier postings, search's page ranking by the units, the decline units), so no question's CPU
        budget pays for them. Those stored beside the index at build time for these very inputs are read
        from there instead (engine_parts.py); the frame's model and the decline units, which need the
        query model, come last, so the rest is ready while the query model is still loading."""
        self.classifier, self.speller, self.citation_sections(), self.unit_matcher, self.vocabulary
        if not isinstance(self.retriever, MissingIndex):
            self.retriever.index.identifier_rows()
            # A first keyword search sets up what every search then reuses (the tokenizer's
            # stemmer, the progress-bar lock bm25s takes even with no bar shown).
            self.retriever.search("tax", mode="bm25")
            self.retriever.unit_pages  # a long post's page ranking by the units (from the matcher above)
        for module in LAZY_ANSWER_MODULES:  # while the query model is still loading, not in the first answer
            importlib.import_module(module)
        self.frame_model, decline_units.of(self)

    # -- answer units ------------------------------------------------------------------------

    @property
    def unit_matcher(self):
        """The unit matcher, built on first use: the bank less the units the build withheld."""
        def build():
            index_dir = None if isinstance(self.retriever, MissingIndex) else self.retriever.index.directory
            bank = units.UnitBank.load(self.settings.units_dir)
            return UnitMatcher.build(bank, units.load_withheld(index_dir), self.embedder, index_dir, self.settings,
                                     partial(_reading_of, self.rules), code_names(self.rules))

        return self._once("_unit_matcher", build)

    @property
    def story_gate_model(self):
        """The story gate's fitted weights beside the index (story_gate.py), or None; read on first use."""
        def build():
            index_dir = None if isinstance(self.retriever, MissingIndex) else self.retriever.index.directory
            return story_gate.GateModel.load(index_dir, getattr(self.embedder, "id", None)) or False

        return self._once("_story_gate_model", build) or None

    def _units_for_search(self):
        """The unit matcher's units and paraphrase vectors, for search's page ranking by units."""
        return self.unit_matcher.units, self.unit_matcher.vectors

    @property
    def vocabulary(self):
        """The words the sources, the catalogue and the units the matcher serves use (known_words.py),
        built on first use from parts already built (no second reading of the unit files)."""
        # (Its parts are built first, outside the lock `_once` holds: it is not re-entrant.)
        knows, served = self.speller.knows, self.unit_matcher.units
        return self._once("_vocabulary", lambda: Vocabulary(knows, [t for u in served for t in u.paraphrases]))

    @property
    def units_by_id(self) -> dict:
        return self.unit_matcher.by_id

    @property
    def unit_kinds(self):
        """The kind of answer each unit gives (unit_kind.py), read on first need."""
        model = self.frame_model  # (built outside the lock `_once` holds: it is not re-entrant)
        return self._once("_unit_kinds", lambda: UnitKinds(model, self.settings.frame_bar))

    def _clear_unit(self, decision: Decision, vector, frame=None) -> units.Unit | None:
        """LLM mode: the unit the question matches far ahead of any other (`llm_unit_margin`), served
        ahead of the model; a closer call is the model's to read. Never over a refusal or a question
        the offline reading would ask back about or calculate, and only a unit whose kind of answer
        fits what is asked (unit_kind.py) and opens on the subject the question names (opening_fit.py)."""
        if (isinstance(self.retriever, MissingIndex) or not decision.known_year
                or decision.action in ("refuse", "calculate", "clarify")):
            return None

        found = self.unit_matcher.match(without_denied(decision.question), vector, reading(decision.slots),
                                        declined=decision.action == "decline", allowed=None if frame is None else (
                                            lambda u: self.unit_kinds.fits(u, frame.asks, frame.asks_sure, decision.question)))
        if (found is None or found.score - found.runner_up_score < self.settings.llm_unit_margin
                or not on_subject(found.unit, decision.question)):
            return None
        return found.unit

    def unit_titles(self) -> dict[str, str]:
        """Source URL -> the title a unit's source is cited by: as a retrieved passage's citation is
        ("Inland Revenue: <page title>"); a rules source keeps the title the calculators cite it by."""
        if self._page_titles is None:
            self._page_titles = {} if isinstance(self.retriever, MissingIndex) else {
                c["url"]: composer.passage_citation(SimpleNamespace(title=c.get("title") or "", url=c["url"], section=None,
                                                                    source_type=c.get("source_type") or "")).title
                for c in self.retriever.index.children if c.get("url")}
        return {**self._page_titles, **self.titles}

    def _unit_answer(self, decision: Decision, vector, current: str, unit: units.Unit | None, frame=None) -> AskResult | None:
        """The answer unit's answer, when the question reads as a unit (or the build names one), or a
        post's asking sentence does."""
        if unit is None and isinstance(self.retriever, MissingIndex):
            # Without an index there is no record of which units the build withheld (and no stored
            # paraphrase vectors): no unit is known to be supported, so the index's own error stands.
            return None
        # Nothing in the reading understood it ("clarify: the question"): a unit may answer only when
        # the corpus and the units know its words (known_words.py), at a stricter score.
        unread = decision.action == "clarify" and decision.missing == ["question"] and self.vocabulary.coverage(
            decision.question).passes(self.settings.unread_known_share, self.settings.unread_min_words)

        if unit is None and decision.action == "clarify" and not unread and not asks_back_only_for_figures(decision, frame):
            # The question needs something only the asker can say (their income, which of two tax
            # years): asking it back answers them; a unit's general lead would not.
            return None
        if unit is None:
            unit, decision = unit_choice.choose(self, decision, frame, vector, unread)
        if unit is None or (not decision.known_year and units.placeholders(unit.lead)):
            return None  # (a story of a year the rules data lacks: only a lead naming none of its figures)
        # A sentence the frame read surely as asking whether is answered with the unit's verdict.
        yes_no = frame is not None and frame.reads_yes_or_no(decision.asked)
        result = units.compose(unit, decision, self.rules, current, self.unit_titles(),
                               self.citation_sections().section_quoting, read_yes_or_no=yes_no)
        if result is None:
            return None
        quoted = [_Quote(unit.source.quote)] if unit.source is not None else []
        result = self._guarded(result, decision, passages=quoted)
        # (Which unit answered: `nztax ask --explain` says why this lead.)
        note_opened(decision.trace, "unit", f"unit {unit.id}", f"answered by the unit {unit.id}")
        return result if decision.known_year else frame_notes(result, decision)

    # -- offline -------------------------------------------------------------------------------

    def answer_decision(self, decision: Decision, current: str, vector=None) -> AskResult:
        """The offline answer to a settled decision: decline and refuse are fixed copy; the rest say.py."""
        if decision.action == "decline":
            return composer.decline(decision, current)
        if decision.action == "refuse":
            return composer.refuse(decision)
        return self._answer_offline(decision, current, vector)

    def _answer_offline(self, decision: Decision, current: str, vector=None) -> AskResult:
        if decision.action == "clarify":
            return composer.clarify(decision, self.rules, current)
        if not decision.known_year:
            if decision.action == "calculate" or not rule_without_year_figures(decision):
                return composer.unknown_year(decision, self.rules)
            decision = replace(decision, action="topic", calls=[])  # the rule, without another year's figures
        if decision.action == "calculate" and decision.calls:
            results = [(name, args, call_tool(name, args)) for name, args in decision.calls]
            result = say.calculation(decision, results, self.rules, self.titles, current)
            return self._guarded(result, decision, passages=[])
        query = decision.question
        if decision.intent is not None and decision.intent.search and decision.action == "fact":
            query = f"{decision.question} {decision.intent.search}"
        # The hint words help BM25; the question's own vector is reused for the dense search.
        hits = self.search(query, decision.tax_year, query_vector=vector)
        decision = after_retrieval(decision, bool(hits))
        if decision.action == "decline":
            return composer.decline(decision, current)
        if decision.action == "refuse":
            return composer.refuse(decision)
        asked_alone: list = []  # passages for the question's own words, if the lead's choice asks for them

        def question_hits() -> list:
            asked_alone[:] = self.search(decision.question, decision.tax_year, query_vector=vector)
            return asked_alone

        # (Candidate openings are compared with what is asked by the query embedder: opening_rank.py.)
        with answering_with(self.embedder):
            if decision.action == "fact":
                tool_results = [(name, args, call_tool(name, args)) for name, args in decision.calls]
                result = say.fact(decision, self.rules, hits, current, tool_results, self.titles,
                                   lead_yield=self.settings.lead_yield, question_hits=question_hits,
                                   lead_doubt=lambda url, lead: opening_doubt.lead_doubted(
                                       url, hits, lambda: self._pages_near(decision, vector),
                                       self.settings.opening_doubt_pages, lambda: self._asked_cosine(decision, vector, lead),
                                       self.settings.lead_doubt_cosine, decision.trace))
            else:
                result = opening_doubt.hedged(say.topic(decision, self.rules, hits, current), hits,
                                              lambda: self._pages_near(decision, vector),
                                              self.settings.opening_doubt_pages, decision.trace)
        cited = {(c.url, c.section or "") for c in result.citations}
        used = [h for h in hits + asked_alone if (h.url, h.section or "") in cited]
        return self._guarded(result, decision, passages=used)

    def _pages_near(self, decision: Decision, vector) -> frozenset[str]:
        """The pages the answer units nearest the question, and nearest its asking sentences, cite
        (opening_doubt.py: a reading of the question by the bank of questions people ask)."""
        question, asked = self._question_and_asked(decision, vector)
        vectors = [question] + ([asked] if asked is not None else [])
        return opening_doubt.nearest_pages(self.unit_matcher, vectors, self.settings.opening_doubt_units)

    def _asked_cosine(self, decision: Decision, vector, text: str) -> float:
        """The cosine of what is asked (a story's asking sentences, else the question) to `text`."""
        question, asked = self._question_and_asked(decision, vector)
        return float(np.dot(asked if asked is not None else question, self.retriever.embed_query(text)))

    def _question_and_asked(self, decision: Decision, vector):
        """The question's vector and its asking sentences' (joined; None when it has none)."""
        asking = " ".join(say.asking_of(decision))
        question = vector if vector is not None else self.retriever.embed_query(decision.question)
        return question, (self.retriever.embed_query(asking) if asking else None)

    def search(self, query: str, tax_year: str | None, k: int | None = None, source_type: str | None = None,
               query_vector=None) -> list:
        year = tax_year if tax_year in self.rules.years else None
        return self.retriever.search(query, k=k or self.settings.answer_passages, mode="hybrid",
                                     source_types=[source_type] if source_type else None, tax_year=year,
                                     query_vector=query_vector)

    # -- guard ---------------------------------------------------------------------------------

    def _guarded(self, result: AskResult, intent: Decision, passages: list) -> AskResult:
        checked = guard.check(result.answer, answer_evidence.gather(result, intent, passages, self.rules))
        if checked.flagged:
            log.warning(json.dumps({"event": "guard_removed", "figures": checked.removed, "mode": result.mode}))
            result.answer = checked.answer
            result.guard_removed = checked.removed
        return result
