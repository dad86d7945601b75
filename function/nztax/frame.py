"""The question frame: one typed reading of a post that everything after understanding can read.

In: the cleaned question text, its `Slots` (slots.py: amounts with their periods, conditions, the
tax year from the year grammar) and a `FrameModel` (frame_model.py: the learned readings). Out:
`QuestionFrame` — what is asked and by which sentences, every amount (money and percentages) with
its span, value, period, kind and owner and how sure each reading is, the tax year, the conditions
stated, and what the question is about (its scope).

    frame = read_frame(text, slots, model)
    frame.asks                 # 'why'
    frame.amounts[0].kind      # 'tax_withheld'
    frame.to_json()            # the trace's frame

Number formats (currency, k/m, periods) stay rules in slots.py; what a figure *is* comes from the
model. A reading below the settings' bar is kept but marked unsure, and nothing unsure is calculated.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, replace
from decimal import Decimal
from typing import Callable

from nztax.ages import Age, read_ages
from nztax.amount_owners import named_owners, person_asked_about
from nztax.cue_words import cue
from nztax.example_figures import example_figure_starts
from nztax.payment_frame import kinds_named
from nztax.sentences import asking_sentences, asks_in_words, sentences  # noqa: F401  (sentences: the frame's own readers)
from nztax.slots import Slots
from nztax.text_cleaning import SMALL_NUMBER, small_number_in_words
from nztax.tax_place import CAPITALS_NAME, NEW_ZEALAND_CONDITION, asks_another_places_tax, asks_in_new_zealand, states_a_new_zealand_condition
from nztax.literal_screen import screen_patterns

ASK_KINDS = ("figure", "yes_no", "why", "which", "how", "worth_it", "check")
AMOUNT_KINDS = ("income", "tax_withheld", "bill", "refund", "balance", "price", "rate", "cap", "contribution", "other_figure")
OWNERS = ("me", "partner", "someone_else", "employer", "ird")
# The owner the example grammar (example_figures.py) gives a figure inside a quoted or hypothetical
# example: nobody's income to work on. Not a learned class (nor one LLM mode's schema offers).
EXAMPLE_OWNER = "example"
# Kinds of figure a poster states that the engine can set its own figure beside.
STATED_KINDS = ("tax_withheld", "bill", "refund", "other_figure")
# Roles the number grammar gives amounts that a calculation takes in itself (a cost it deducts, a gift
# it gives a credit for): such an amount is worked on, so it is never a stated figure set beside.
WORKED_ROLES = ("expense", "deduction", "donation")
# Over this many characters a post's scope is read from its asking sentences and its whole story together.
LONG_POST_CHARS = 400
# A post of this many sentences (or over LONG_POST_CHARS) tells a story: its figures need a sure reading.
STORY_SENTENCES = 3
# A percentage by its form: a figure before the sign or the word ("40%", "40 per cent", "40 percent"), or a
# number in words before the word ("forty per cent", "thirty-three percent"). Each is a rate the frame
# reads the owner of, however it is written: a rate told in words is still whose tax the post is about.
PERCENT = re.compile(r"(?<![\w.])(\d{1,2}(?:\.\d+)?)\s?(?:%|percent\b|per cent\b)", re.I)
PERCENT_IN_WORDS = re.compile(rf"\b({SMALL_NUMBER})\s(?:percent|per cent)\b", re.I)
# A clause ends at a stop, a comma or a joining word.
CLAUSE_EDGE = re.compile(r"[.,;:!?()]|\b(?:and|but|or|while|plus)\b", re.I)
TAX_RATE_WORDS = cue("tax_rate_words")
WITHHOLDING_WORDS = cue("withholding_words")
NOT_A_SYSTEM_RATE = cue("rate_not_a_system_rate")
ELECTED_RATE = cue("elected_rate_words")
PAYSLIP = cue("payslip_words")
ONE_PAYMENT = cue("one_payment_words")
# A name right before a tax word says whose tax a rate is ("20% UK tax", "Australian tax"): a format.
NAMED_TAX = re.compile(r"\b[A-Z][\w.]*\s+(?=[Tt]ax)")


@dataclass(frozen=True)
class FrameAmount:
    text: str
    start: int
    end: int
    value: Decimal
    period: str | None          # None for a percentage
    kind: str
    kind_sure: float
    owner: str
    owner_sure: float
    role: str | None = None     # the slot role slots.py gave it (income, deduction, …), for the trace
    # How likely it is of each kind (the learned reading); empty when the reader gives only its likeliest.
    kinds: tuple[tuple[str, float], ...] = ()
    # The person the number grammar's words name beside it ("self", "other", "both"; None: nobody).
    named: str | None = None

    def is_sure(self, bar: float) -> bool:
        return self.kind_sure >= bar and self.owner_sure >= bar

    def taken_as(self, kinds) -> float:
        """How likely the amount is one of these kinds: the learned reading's share on all of them, or,
        from a reader that gives only its likeliest kind (LLM mode), that kind's sureness if it is one."""
        if self.kinds:
            return sum(p for k, p in self.kinds if k in kinds)
        return self.kind_sure if self.kind in kinds else 0.0

    def to_json(self) -> dict:
        out = asdict(self)
        out.pop("kinds")
        out["value"] = str(self.value)
        out["kind_sure"], out["owner_sure"] = round(self.kind_sure, 2), round(self.owner_sure, 2)
        return out


@dataclass(frozen=True)
class QuestionFrame:
    asks: str                   # what the asking sentence(s) ask for (ASK_KINDS)
    asks_sure: float
    asking: tuple[str, ...]     # the sentence(s) that ask, in order
    asks_each: tuple[str, ...]  # the reading of each asking sentence
    amounts: tuple[FrameAmount, ...]
    tax_year: str | None
    year_text: str | None
    conditions: tuple[str, ...]
    scope: str                  # nz_tax, or what the question is about instead
    scope_sure: float
    bar: float = 0.7            # how sure a reading must be to be acted on (settings)
    story: bool = False         # several sentences or a long text: a narrative, not a one-line question
    read_by: str = "offline"    # offline (frame_model.py) or model (llm_reader.py, LLM mode)
    asks_each_sure: tuple[float, ...] = ()  # how sure each asking sentence's reading is (none: all sure)
    # How likely the question is New Zealand personal tax at all (the learned reading; None when a
    # model read the frame), and the likeliest subject other than that (where a decline points).
    scope_in: float | None = None
    scope_other: str | None = None
    # The same reading of the asking sentence(s) alone, when the post has more than them (None otherwise,
    # and when a model read the frame): what is asked, without the story's or the context's words.
    asked_scope_in: float | None = None
    asked_scope_other: str | None = None
    ages: tuple[Age, ...] = ()  # ages the question states (ages.py): a rule for some ages only is checked against them
    rate_given: bool = False    # the question names the tax rate its figure is worked at ("those paying 33% tax")
    # A tax withheld under a name the sources never use (another country's withholding tax).
    foreign_withholding: bool = False
    # A tax rate the poster states as their own that New Zealand's system has in no year of the rules
    # data (`rate_of_another_system`): the post is about another country's tax.
    foreign_rate: bool = False
    # An asking sentence names the tax of a place the post names as where people belong or live, not
    # New Zealand, and nothing places the post in New Zealand's system (tax_place.py).
    foreign_place: bool = False
    # The asking sentences, read on their own, place the question in New Zealand's system (tax_place.py).
    asked_in_new_zealand: bool = False
    # Of a post asking several things, the asking sentences that each place themselves in New Zealand's
    # system (tax_place.py): a question about KiwiSaver beside one about another country's tax.
    asked_in_new_zealand_each: tuple[str, ...] = ()
    # Each asking sentence as read against units and intents: the post's opening joined to one that
    # leans on the story ("Is that right?"; leaning.py); empty when every sentence is read as written.
    asking_read: tuple[str, ...] = ()
    # Whom the asking clause names, by the number grammar (amount_owners): "other" ("how much does she
    # pay?"), "self", or None (a rate asked with nobody named); None too when a model read the frame.
    person_asked: str | None = None

    def read_as(self, sentence: str) -> str:
        """The text an asking sentence is read as (`asking_read`)."""
        return dict(zip(self.asking, self.asking_read)).get(sentence, sentence)

    def asks_surely(self, bar: float) -> tuple[str, ...]:
        """What the asking sentences ask, only those read at least `bar` sure: a calculation answers a
        question only when what it asks is not in doubt."""
        if not self.asks_each_sure:
            return self.asks_each
        return tuple(a for a, sure in zip(self.asks_each, self.asks_each_sure) if sure >= bar)

    def asking_for_units(self, bar: float) -> tuple[str, ...]:
        """The asking sentences an answer unit may answer: those read at least `bar` sure (a sentence
        read unsurely may not ask what its words suggest), and not one asking for a figure or a check
        when the poster gives a money figure of their own: a unit's general lead does not give the
        figure for their situation."""
        sure = self.asks_each_sure or (1.0,) * len(self.asks_each)
        return tuple(s for s, asks, p in zip(self.asking, self.asks_each, sure)
                     if p >= bar and not self.asks_own_figure(asks))

    def asks_own_figure(self, asks: str) -> bool:
        """Whether a sentence asking `asks` asks for a figure or a check of the poster's own money
        (the post gives a money figure of theirs)."""
        return asks in ("figure", "check") and any(a.owner == "me" and a.period is not None for a in self.amounts)

    def reads_yes_or_no(self, sentence: str) -> bool:
        """Whether the frame read this asking sentence at least `bar` sure as asking yes or no."""
        sure = self.asks_each_sure or (1.0,) * len(self.asks_each)
        return any(s == sentence and asks == "yes_no" and p >= self.bar
                   for s, asks, p in zip(self.asking, self.asks_each, sure))

    @property
    def asks_figure(self) -> bool:
        """`asks_figure_surely` at the frame's own bar."""
        return self.asks_figure_surely(self.bar)

    def asks_figure_surely(self, bar: float) -> bool:
        """Whether an asking sentence read at least `bar` sure asks for a figure, or for a check of a
        figure the post states. A reading below the bar is the reader's doubt, not the poster's request:
        a question asking how a rule works, told in other words, can read as asking a figure at 0.4
        where its first wording read as asking how at 0.9, and acting on the doubtful reading asked the
        poster back for an income the rule needs none of (`nztax eval paraphrases`, docs/realposts.md).
        A check with no money figure stated has nothing to check: it asks to have a situation judged,
        which the rule answers. (A frame read without sureness, by a model, counts every reading.)"""
        stated = any(a.period is not None for a in self.amounts)
        sure = self.asks_each_sure or (1.0,) * len(self.asks_each)
        return any((asks == "figure" or asks == "check" and stated) and p >= bar for asks, p in zip(self.asks_each, sure))

    def stated(self) -> list[FrameAmount]:
        """Figures the poster states that are not inputs: tax taken, a bill, a refund, another calculator's figure."""
        return [a for a in self.amounts if a.kind in STATED_KINDS and a.owner in ("me", "ird", "employer") and a.period is not None
                and a.role not in WORKED_ROLES]

    def inputs_of(self, slots_amounts) -> list[FrameAmount]:
        """The frame's reading of the amounts a calculation would use (matched by their place in the text)."""
        starts = {a.start for a in slots_amounts}
        return [a for a in self.amounts if a.start in starts]

    def to_json(self) -> dict:
        return {"asks": self.asks, "asks_sure": round(self.asks_sure, 2), "asking": list(self.asking),
                "asks_each": list(self.asks_each), "asks_each_sure": [round(x, 2) for x in self.asks_each_sure],
                "amounts": [a.to_json() for a in self.amounts],
                "tax_year": self.tax_year, "year_text": self.year_text, "conditions": list(self.conditions),
                "scope": self.scope, "scope_sure": round(self.scope_sure, 2),
                **({} if self.scope_in is None else {"scope_in": round(self.scope_in, 2), "scope_other": self.scope_other}),
                **({} if self.asked_scope_in is None else {"asked_scope_in": round(self.asked_scope_in, 2),
                                                           "asked_scope_other": self.asked_scope_other}),
                "story": self.story,
                "read_by": self.read_by, "ages": [a.to_json() for a in self.ages], "rate_given": self.rate_given,
                **({"foreign_withholding": True} if self.foreign_withholding else {}),
                **({"foreign_rate": True} if self.foreign_rate else {}),
                **({"foreign_place": True} if self.foreign_place else {}),
                **({"asking_read": list(self.asking_read)} if self.asking_read else {})}


def conditions(slots: Slots) -> tuple[str, ...]:
    """The conditions the question states that change an answer."""
    named = {"kiwisaver": slots.kiwisaver, "student_loan": slots.student_loan, "wff": slots.wff,
             "benefit_or_super": slots.benefit_or_super, "nz_super": slots.nz_super, "no_ird_number": slots.no_ird_number,
             "second_job": slots.second_job}
    out = [name for name, on in named.items() if on]
    if slots.tax_code:
        out.append(f"tax_code:{slots.tax_code}")
        if slots.tax_code.upper().startswith("ND"):
            out.append("nd")
    if slots.flat_code:
        out.append(f"flat_code:{slots.flat_code}")
    return tuple(out)


def read_frame(text: str, slots: Slots, model, bar: float = 0.7, knows: Callable[[str], bool] | None = None,
               tax_rates: frozenset[Decimal] | None = None) -> QuestionFrame:
    """The frame of a question; `text` is the cleaned text the slots were read from; `knows`: whether the
    sources use a word (the speller's vocabulary), for the names of taxes they never mention;
    `tax_rates`: the rates New Zealand's system has (RuleBook.tax_rates), for a rate it has not."""
    asking = asking_sentences(text)
    readings = model.asks(asking)
    # A figure or a check asked anywhere is what the post wants worked out; otherwise the last question rules.
    wanted = [r for r in readings if r[0] in ("figure", "check")]
    asks, asks_sure = wanted[-1] if wanted else readings[-1]
    # A post that asks nothing in words has no asking sentence to weigh: its last sentence, which stands
    # in for one, is a piece of the story and says less of what it is about than the whole.
    scope_texts = (" ".join(asking), text) if len(text) > LONG_POST_CHARS and asks_in_words(text) else (text,)
    # What the asking sentences are about on their own, when the post holds more than them: a sentence
    # of context (a tax word, another country named) moves the whole post's reading, not what is asked.
    asked_alone = (model.scope_reading(" ".join(asking))
                   if asks_in_words(text) and " ".join(asking).strip() != text.strip() else None)
    scope, scope_sure, scope_in, scope_other = model.scope_reading(*scope_texts)
    spans = [(a.start, a.end or a.start + len(a.text)) for a in slots.amounts]
    percents = [m for m in percentages(text) if not any(s <= m.start() < e for s, e in spans)]
    all_spans = spans + [(m.start(), m.end()) for m in percents]
    read = model.amount_readings(text, all_spans)
    named = named_owners(text, [s for s, _ in spans])
    amounts = [FrameAmount(a.text, s, e, a.value, a.period, kind, ks, owner, os_, a.role, tuple(shares.items()), who)
               for a, (s, e), ((kind, ks), (owner, os_), shares), who in zip(slots.amounts, spans, read, named)]
    # A percentage is a rate by its form; whose rate it is is read.
    amounts += [FrameAmount(m.group(0), m.start(), m.end(), percent_value(m), None, "rate", 1.0, owner, os_)
                for m, (_, (owner, os_), _) in zip(percents, read[len(spans):])]
    # A figure inside an example (IRD's, an employer's, a calculator's, one set up for someone else)
    # is the example's, whatever its words say of it, unless the asking sentence holds the example.
    quoted = example_figure_starts(text, [a.start for a in amounts])
    amounts = [replace(a, owner=EXAMPLE_OWNER, owner_sure=1.0) if a.start in quoted else a for a in amounts]
    amounts.sort(key=lambda a: a.start)
    stated = conditions(slots)
    return QuestionFrame(asks=asks, asks_sure=asks_sure, asking=tuple(asking), asks_each=tuple(r[0] for r in readings),
                         asks_each_sure=tuple(r[1] for r in readings),
                         amounts=tuple(amounts), tax_year=slots.tax_year, year_text=slots.year_text,
                         conditions=stated, scope=scope, scope_sure=scope_sure, bar=bar,
                         scope_in=scope_in, scope_other=scope_other,
                         asked_scope_in=asked_alone[2] if asked_alone else None,
                         asked_scope_other=asked_alone[3] if asked_alone else None,
                         story=len(text) > LONG_POST_CHARS or len(sentences(text)) >= STORY_SENTENCES, ages=read_ages(text),
                         rate_given=tax_rate_given(text), person_asked=person_asked_about(text),
                         foreign_withholding=knows is not None and withheld_under_unknown_name(text, knows),
                         foreign_rate=tax_rates is not None and rate_of_another_system(text, amounts, stated, tax_rates, bar),
                         foreign_place=knows is not None and asks_another_places_tax(text, asking, stated, knows),
                         asked_in_new_zealand=knows is not None and asks_in_new_zealand(text, asking, knows),
                         asked_in_new_zealand_each=tuple(s for s in asking if len(asking) > 1 and knows is not None
                                                         and asks_in_new_zealand(text, [s], knows)))


def percentages(text: str) -> list[re.Match]:
    """Every percentage of the text, in figures or in words, in the order they stand."""
    return sorted([*PERCENT.finditer(text), *PERCENT_IN_WORDS.finditer(text)], key=lambda m: m.start())


def percent_value(m: re.Match) -> Decimal:
    """The value of a `percentages` match: its figure, or its number in words."""
    return Decimal(m.group(1)) if m.group(1)[0].isdigit() else small_number_in_words(m.group(1))


def _clause(text: str, start: int, end: int, reach: int) -> tuple[str, str]:
    """The clause around text[start:end] (up to `reach` characters either side), before and after it."""
    return CLAUSE_EDGE.split(text[max(0, start - reach):start])[-1], CLAUSE_EDGE.split(text[end:end + reach])[0]


def _in_clause(text: str, start: int, end: int, words: re.Pattern, reach: int) -> bool:
    """Whether `words` occur in the clause around text[start:end] (up to `reach` characters either side)."""
    return any(words.search(side) for side in _clause(text, start, end, reach))


def tax_rate_given(text: str) -> bool:
    """Whether the question names a tax rate itself: a percentage with a tax word in its own clause
    (`tax_rate_words` in data/cue_words.yaml). A figure worked at a rate the poster gives does not
    depend on which band their income reaches, so their income need not be asked for."""
    return any(_in_clause(text, m.start(), m.end(), TAX_RATE_WORDS, 40) for m in PERCENT.finditer(text))


def withheld_under_unknown_name(text: str, knows: Callable[[str], bool]) -> bool:
    """Whether the question names a tax taken at source (a withholding word in its clause,
    `withholding_words` in data/cue_words.yaml) by a name in capitals that the sources never use.
    Every New Zealand tax withheld from pay, interest or dividends is named in the sources (PAYE, RWT,
    ESCT); a withholding tax they never name is another country's, whatever the rest of the post's
    words (which may all be New Zealand's too: interest, income, a notice of assessment). A name
    right before a tax word says whose tax it is, not what the tax is called; a name for one of New
    Zealand's own schemes ("KS", "SL": `kiwisaver_words`, `student_loan_words`) is no foreign tax."""
    return any(not knows(m.group(1).lower()) and not NEW_ZEALAND_CONDITION.fullmatch(m.group(1))
               and not TAX_RATE_WORDS.match(text[m.end():].lstrip())
               and _in_clause(text, m.start(), m.end(), WITHHOLDING_WORDS, 60) for m in CAPITALS_NAME.finditer(text))


def rate_of_another_system(text: str, amounts: list[FrameAmount], stated: tuple[str, ...],
                           tax_rates: frozenset[Decimal], bar: float) -> bool:
    """Whether the post states a tax rate as the poster's own ("I pay 40% tax", "in the 40% bracket":
    a percentage read, at least `bar` sure, as theirs, with a tax word in its clause) that is none of
    New Zealand's rates in any year of the rules data (`tax_rates`, matched at the precision the post
    writes): the poster is taxed by another system. Not when a name before the tax word says whose
    tax it is ("20% UK tax" is a foreign tax a New Zealand resident may be asking about), the rate
    is the poster's own arithmetic (effective, about: `rate_not_a_system_rate`), or the post states a
    condition only New Zealand's system has (a tax code, KiwiSaver, a student loan …)."""
    if states_a_new_zealand_condition(stated):  # (a rate stated beside one of them is not another country's)
        return False
    own = [a for a in amounts if a.period is None and a.value > 0 and a.owner == "me" and a.owner_sure >= bar]
    # A post that also states a New Zealand rate as the poster's is in New Zealand's system: its other
    # rate is another country's tax on some of their income ("took 20% there, I'm on 33% here").
    if any(_known_rate(a.value, tax_rates) for a in own):
        return False
    return any(_in_clause(text, a.start, a.end, TAX_RATE_WORDS, 40)
               and not any(_in_clause(text, a.start, a.end, words, 40) for words in (NOT_A_SYSTEM_RATE, ELECTED_RATE, NAMED_TAX))
               and not _on_one_payment(text, a) for a in own)


def _on_one_payment(text: str, a: FrameAmount) -> bool:
    """Whether the rate is what came off one payment or payslip ("my bonus got taxed at 50%", "25% tax
    on my last payslip"): a share the poster worked out from what they saw, not their system's rate."""
    clause = " ".join(_clause(text, a.start, a.end, 40))
    return bool(PAYSLIP.search(clause) or ONE_PAYMENT.search(clause) or kinds_named(clause, text))


def _known_rate(value: Decimal, tax_rates: frozenset[Decimal]) -> bool:
    """Whether a stated percentage is one of the rates, as written or as a rate rounded to the places
    it is written with ("34.5%" for 34.53%)."""
    places = Decimal(1).scaleb(min(0, value.as_tuple().exponent))
    return value in tax_rates or any(r.quantize(places) == value for r in tax_rates)


@dataclass
class Trace:
    """What the engine read and which decision rows fired: `nztax ask --explain`, the JSON `trace`."""

    frame: dict = field(default_factory=dict)
    proposed: str | None = None      # the action the intent reading proposed
    rows: list[str] = field(default_factory=list)
    action: str | None = None
    notes: list[str] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)  # decide()'s steps that fired for the proposal (decide.py)
    # What may have opened the answer, by kind (`note_opened`): what a tool reads instead of the notes' prose.
    opened: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"frame": self.frame, "proposed": self.proposed, "rows": list(self.rows), "action": self.action,
                "notes": list(self.notes), "steps": list(self.steps), "opened": dict(self.opened)}


OPENING_KINDS = ("unit", "faq", "decline_unit", "said", "history", "history_after", "asked_part", "not_found_left_out")


def note_opened(trace: "Trace | dict | None", kind: str, what: str, note: str, latest: bool = False) -> None:
    """Leaves in a trace (the decision's `Trace`, or the answer's JSON trace after it) a note for people and,
    under `opened[kind]`, what the note names; the first of a kind stays unless `latest`. `nztax eval
    paraphrases` reads `opened` to name what opened an answer."""
    if trace is None:
        return
    if kind not in OPENING_KINDS:
        raise ValueError(f"unknown opening kind {kind!r}")
    notes = trace.notes if isinstance(trace, Trace) else trace.setdefault("notes", [])
    opened = trace.opened if isinstance(trace, Trace) else trace.setdefault("opened", {})
    notes.append(note)
    if latest or kind not in opened:
        opened[kind] = what

screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
