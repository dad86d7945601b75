"""Answer units: one specific question, the lead that answers exactly it, and the passage behind it.

In: the unit bank (`settings.units_dir`: one YAML file or a folder of them, `topics -> slug ->
{title, intro, questions}`), the rules data. Out: `UnitBank` (typed `Unit` records) and, for a
unit and a decision, the `AskResult` that opens with the unit's lead (`compose`).

A question entry is either plain text (the engine's own answer is published for it) or a mapping:

    - q: What does tax code M mean?          # the question as people ask it (the FAQ page's title)
      also: [What is the M tax code?]         # paraphrases the Ask box serves the unit for
      lead: "M is the code for ... {first_rate} ..."   # 1-3 sentences; every figure a {placeholder}
      answer: calculation                     # instead of a lead: the calculator's own answer leads
      calculator: calculate_paye              # the calculator the answer hands over to
      source: {url: https://www.ird.govt.nz/..., quote: "words found in that page's text"}
      each: [{code: S}, {code: SH}]           # one unit per item; {code} filled in every field

Placeholders are those of `say.fact_values` plus the per-code ones of `unit_values`; a lead whose
placeholder the year lacks is not served for that year (the engine answers instead). The build
checks each quote against the current text of its page and withholds a unit whose quote is gone
(`nztax_build.unit_support`); the withheld list is written beside the index (`WITHHELD_FILE`).
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import yaml

from nztax.contract import AskResult, Citation, cite_mark
from nztax.cue_words import alternatives, cue
from nztax.leaning import leans_back
from nztax.yaml_data import load_yaml

WITHHELD_FILE = "units_withheld.json"
SLUG_MAX_WORDS = 12
CALCULATION = "calculation"
_FIELD = re.compile(r"\{(\w+)\}")
_PLACEHOLDER = re.compile(r"\{(\w+)[}\[]")  # "{gc_max}" or an indexed "{bands[0]}"
_QUESTION_KEYS = {"q", "also", "lead", "answer", "calculator", "source", "each", "slug", "applies_when"}
# An answer that holds only for some ages (applies.py): each bound a whole number or a rules-data figure.
_AGE_BOUNDS = {"age_min", "age_under"}


# Quote and page text are compared with case, whitespace, typographic quotes and dashes folded
# (`fold`), so a quote survives re-formatting of its page but not a change of its words.
_FOLD = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-",
                       "\u00a0": " "})


def fold(text: str) -> str:
    return " ".join(str(text).translate(_FOLD).replace("**", "").lower().split())


class UnitsError(ValueError):
    """The unit bank is missing or invalid (the message names the file and entry)."""


@dataclass(frozen=True)
class UnitSource:
    url: str
    quote: str


@dataclass(frozen=True)
class UnitTopic:
    slug: str
    title: str
    intro: str


@dataclass(frozen=True)
class Unit:
    question: str
    slug: str
    topic: str
    topic_title: str
    also: tuple[str, ...] = ()
    lead: str | None = None
    calculator: str | None = None
    source: UnitSource | None = None
    calculation: bool = False
    applies_when: tuple[tuple[str, str], ...] = ()  # (bound, whole number or rules figure): the ages it holds for

    @property
    def id(self) -> str:
        return f"{self.topic}/{self.slug}"

    @property
    def url(self) -> str:
        """Site-relative address of the unit's FAQ page."""
        return f"/faq/{self.topic}/{self.slug}/"

    @property
    def paraphrases(self) -> tuple[str, ...]:
        return (self.question, *self.also)


@dataclass
class UnitBank:
    topics: list[UnitTopic]
    units: list[Unit]
    digest: str

    @classmethod
    def load(cls, path: Path) -> "UnitBank":
        path = Path(path)
        if path.is_dir():
            files = sorted(path.glob("*.yaml"))
            if not files:
                raise UnitsError(f"{path}: no unit files (*.yaml)")
        elif path.exists():
            files = [path]
        else:
            raise UnitsError(f"{path}: the unit bank (the FAQ question list) is missing")
        topics, units, seen, digest = [], [], {}, hashlib.sha256()
        for file in files:
            raw_text = file.read_text(encoding="utf-8")
            digest.update(file.name.encode() + b"\0" + raw_text.encode("utf-8"))
            for topic, topic_units in _read_file(file, raw_text):
                topics.append(topic)
                for unit in topic_units:
                    if unit.id in seen:
                        raise UnitsError(f"{file.name}: topics.{topic.slug}: slug {unit.slug!r} repeats question "
                                         f"{seen[unit.id]!r}; give one a `slug:`")
                    seen[unit.id] = unit.question
                    units.append(unit)
        return cls(topics, units, digest.hexdigest()[:16])

    def get(self, unit_id: str) -> Unit | None:
        return next((u for u in self.units if u.id == unit_id), None)


def slugify(text: str) -> str:
    """'How much tax do I pay on $65,000 a year?' -> 'how-much-tax-do-i-pay-on-65000-a-year'."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    ascii_text = re.sub(r"(?<=\d),(?=\d)", "", ascii_text)  # 65,000 -> 65000 (3.5 -> 3-5 below)
    words = re.findall(r"[a-z0-9]+", ascii_text)
    return "-".join(words[:SLUG_MAX_WORDS]) or "question"


def _read_file(file: Path, raw_text: str):
    try:
        raw = load_yaml(raw_text)
    except yaml.YAMLError as exc:
        raise UnitsError(f"{file}: not valid YAML: {exc}") from None
    topics_raw = (raw or {}).get("topics") if isinstance(raw, dict) else None
    if not isinstance(topics_raw, dict) or not topics_raw:
        raise UnitsError(f"{file}: expected a `topics:` mapping of topic slug -> {{title, questions}}")
    for topic_slug, body in topics_raw.items():
        where = f"{file.name}: topics.{topic_slug}"
        if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", str(topic_slug)):
            raise UnitsError(f"{where}: a topic slug is lowercase words joined by hyphens")
        if not isinstance(body, dict) or not body.get("title") or not isinstance(body.get("questions"), list):
            raise UnitsError(f"{where}: needs `title` and a `questions` list")
        topic = UnitTopic(str(topic_slug), str(body["title"]), str(body.get("intro", "")))
        units = []
        for i, item in enumerate(body["questions"]):
            for params in (item.get("each") if isinstance(item, dict) and item.get("each") else [{}]):
                units.append(_unit(item, params, topic, f"{where}.questions[{i}]"))
        yield topic, units


def _with(text, params: dict) -> str | None:
    """`text` with the unit's own parameters ({code}) filled; the rules' placeholders are left."""
    if text is None:
        return None
    return _FIELD.sub(lambda m: str(params[m.group(1)]) if m.group(1) in params else m.group(0), str(text))


def _unit(item, params: dict, topic: UnitTopic, where: str) -> Unit:
    if isinstance(item, str):
        item = {"q": item}
    if not isinstance(item, dict):
        raise UnitsError(f"{where}: a question is text or a mapping with `q`")
    if not isinstance(params, dict):
        raise UnitsError(f"{where}: `each` lists mappings of parameter -> value")
    unknown = set(item) - _QUESTION_KEYS
    if unknown:
        # An unquoted ', ' in a flow mapping silently splits a value into a stray key; refuse it.
        raise UnitsError(f"{where}: unknown field(s) {sorted(map(str, unknown))} (quote a value holding ', ' or ': ')")
    text = _with(item.get("q"), params)
    if not isinstance(text, str) or not text.strip():
        raise UnitsError(f"{where}: a question must be non-empty text")
    text = " ".join(text.split())
    also = item.get("also") or []
    if not isinstance(also, list) or not all(isinstance(a, str) for a in also):
        raise UnitsError(f"{where}: `also` is a list of paraphrases (quote one holding ': ')")
    source = item.get("source")
    if source is not None:
        if not isinstance(source, dict) or not str(source.get("url", "")).startswith("https://") or not source.get("quote"):
            raise UnitsError(f"{where}: `source` needs an https `url` and a `quote` from that page")
        if set(source) - {"url", "quote"}:
            raise UnitsError(f"{where}: `source` has only `url` and `quote`; a stray field "
                             f"{sorted(map(str, set(source) - {'url', 'quote'}))} means an unquoted ', ' cut the quote short")
        source = UnitSource(str(source["url"]), " ".join(_with(source["quote"], params).split()))
    calculation = item.get("answer") == CALCULATION
    lead = _with(item.get("lead"), params)
    if lead is not None and calculation:
        raise UnitsError(f"{where}: a unit has a `lead` or `answer: calculation`, not both")
    slug = (_with(item.get("slug"), params) or slugify(text)).lower()
    applies = item.get("applies_when") or {}
    if not isinstance(applies, dict) or set(applies) - _AGE_BOUNDS:
        raise UnitsError(f"{where}: `applies_when` maps {sorted(_AGE_BOUNDS)} to an age or a rules figure")
    return Unit(applies_when=tuple(sorted((k, str(v)) for k, v in applies.items())),question=text, slug=slug, topic=topic.slug, topic_title=topic.title,
                also=tuple(" ".join(_with(a, params).split()) for a in also),
                lead=" ".join(lead.split()) if lead else None, calculator=item.get("calculator"),
                source=source, calculation=calculation)


def load_withheld(index_dir: Path | None) -> dict[str, str]:
    """Unit id -> why the last build withheld it (its quote gone from its page); {} when none."""
    if index_dir is None:
        return {}
    try:
        data = json.loads((Path(index_dir) / WITHHELD_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(w["id"]): str(w.get("reason", "")) for w in data if isinstance(w, dict) and "id" in w} if isinstance(data, list) else {}


# ---------------------------------------------------------------------------------------------
# Filling and answering


def unit_values(year_rules) -> dict:
    """Every placeholder a lead may use for one tax year: `say.fact_values` plus, per tax code,
    `sec_rate[S]`, `sec_from[S]`, `sec_to[S]` (secondary codes) and `flat_rate[ND]` (flat codes,
    with the ACC levy as payroll takes it), and FamilyBoost's `fb_rate`, `fb_max`, `fb_limit` (a
    quarter's, from the year's latest setting)."""
    from nztax import composer
    from nztax.composer import money, pct, section_or_none
    from nztax.say import fact_values

    values: dict = dict(fact_values(year_rules))
    sec = section_or_none(year_rules, "secondary_codes")
    if sec is not None and getattr(sec, "periods", None):
        codes = sec.periods[-1].codes
        order = sorted(codes, key=lambda c: (codes[c].income_to is None, codes[c].income_to or 0))
        lower = {}
        for before, code in zip([None, *order], order):
            lower[code] = money(codes[before].income_to) if before else money(0)
        band = {c: (f"over {lower[c]} and up to {money(codes[c].income_to)}" if codes[c].income_to is not None
                    else f"over {lower[c]}") for c in codes}
        values.update(sec_band={c: b.replace("over $0 and up to", "up to") for c, b in band.items()},
                      sec_rate={c: pct(codes[c].rate) for c in codes},
                      sec_to={c: money(codes[c].income_to) if codes[c].income_to is not None else "" for c in codes},
                      sec_from=lower)
    values.update(start=_long_date(year_rules.start), end=_long_date(year_rules.end))
    it = section_or_none(year_rules, "income_tax")
    if it is not None:
        values["marginal_for"] = RateFor(it.bands)
    esct = section_or_none(year_rules, "esct")
    if esct is not None:
        values["esct_for"] = RateFor(esct.bands)
    gc = section_or_none(year_rules, "government_contribution")
    if gc is not None and gc.income_cap:
        values["gc_cap"] = money(gc.income_cap)
    fc = section_or_none(year_rules, "flat_codes")
    if fc is not None:
        values["flat_rate"] = {c: composer.with_acc_levy(f.rate, year_rules) for c, f in fc.codes.items()}
    fb = getattr(year_rules.data, "familyboost", None)
    if fb is not None:
        # The year's latest setting (amounts a quarter); a year before the scheme has none.
        p = fb.periods[-1]
        values.update(fb_rate=pct(p.rate), fb_max=money(p.quarterly_max), fb_limit=money(p.income_limit))
    return values


class RateFor(dict):
    """`{marginal_for[60000]}` in a lead: the rate of the band an income (the question's own
    figure) falls in, from the year's bands."""

    def __init__(self, bands):
        super().__init__()
        self.bands = bands

    def __missing__(self, income):
        from nztax.composer import pct

        amount = float(income)
        band = next(b for b in self.bands if b.upper is None or amount <= float(b.upper))
        return pct(band.rate)


def _long_date(day) -> str:
    return f"{day.day} {day:%B %Y}"


def fill(template: str, values: dict) -> str | None:
    """The lead with its placeholders filled, or None when the year lacks one of them."""
    try:
        return template.format(**values)
    except (KeyError, IndexError, AttributeError, ValueError):
        return None


# A question asking yes or no opens with an auxiliary verb (data/cue_words.yaml, yes_no_openers).
_POLAR = re.compile(r"^(?:" + alternatives("yes_no_openers") + r")\b", re.I)
_YES = re.compile(r"^Yes(?:[.,:;]|\s*[-–—])\s*")


# Where a question's own words start after a lead-in (the asker announcing a question, then asking
# it): after a comma, colon, semicolon or dash.
_LEAD_IN = re.compile(r"[,:;]\s+|\s[-–—]\s*")


# A forum's label before a question ("Q: Is it true that …"): its words start after it.
_LABEL = re.compile(r"^Q\d*\s*[:.)]\s*")


def asks_yes_or_no(question: str) -> bool:
    return any(_POLAR.match(_LABEL.sub("", part.strip(" \"'("))) for part in _parts(question))


# A question asking which of two: "or" opening a second choice ("... every year or only when I sell?"),
# or a question of what something is ending on two words joined by "or" ("Is a new fence capital
# or revenue?"); "or not" asks whether, and stays a yes-or-no question.
_OR_CHOICE = re.compile(r"\bor (?:" + alternatives("alternative_question_openers") + r")\b", re.I)
_COPULAR = re.compile(r"^(?:" + alternatives("copular_openers") + r")\b", re.I)
_ENDS_ON_TWO = re.compile(r"\b[\w-]+ or (?!not\b|no\b)(?:an? )?[\w-]+\W*$", re.I)


def asks_alternatives(question: str) -> bool:
    """Whether a yes-or-no question asks which of two ("Do I pay the tax every year or only when I
    sell?", "Is this capital or repair?"): a "Yes." or "No." answers neither choice, the rule that
    tells them apart does."""
    for clause in asked_clauses(question):
        plain = _LABEL.sub("", clause.strip(" \"'("))
        if _POLAR.match(plain) and (_OR_CHOICE.search(plain) or (_COPULAR.match(plain) and _ENDS_ON_TWO.search(plain))):
            return True
    return False


def asks_to_explain(question: str) -> bool:
    """Whether a question asks to have a rule explained (`asks_to_explain` in data/cue_words.yaml: "Could
    you explain how provisional tax works?"): it asks how, whatever verb opens it, and a unit's "Yes." or
    "No." answers its own question, not this one; the rule after it is the explanation."""
    return any(_EXPLAIN.search(clause) for clause in asked_clauses(question))


_EXPLAIN = cue("asks_to_explain")


def asked_clauses(question: str) -> list[str]:
    """The clause each question-marked sentence asks in: its words after the last lead-in ("I gave
    without keeping a receipt - is the rebate still due?": "is the rebate still due?").
    None when no sentence ends in a question mark: then what is asked is not told apart from the rest."""
    asked = []
    for part in _parts(question):
        if part.rstrip().endswith("?"):
            breaks = list(_LEAD_IN.finditer(part))
            asked.append(part[breaks[-1].end():] if breaks else part)
    return asked


def _parts(question: str) -> list[str]:
    return [part for part in re.split(r"(?<=[.?!])\s+", question or "") if part.strip()]


def asks_yes_or_no_after_lead_in(question: str) -> bool:
    """A question mark ends a sentence whose question, after a lead-in, opens with an auxiliary verb."""
    return any(_POLAR.match(part[m.end():].strip(" \"'(-–—•*")) for part in _parts(question) if part.rstrip().endswith("?")
               for m in _LEAD_IN.finditer(part))


def opening_for(lead: str, question: str, read_yes_or_no: bool = False, written_for: str = "", claim: str = "") -> str:
    """The lead as it opens the answer to `question`: "Yes." answers only a yes-or-no question, so
    for any other ("How much tax do I pay on my rental?") the sentence starts after it. "No." stays:
    to "What is the tax-free threshold?" it denies what the question takes for granted. Neither stays
    for a question asking which of two (`asks_alternatives`) or asking to have a rule explained
    (`asks_to_explain`): the rule that follows is the answer.
    `read_yes_or_no`: the frame read the question surely as asking whether; then an auxiliary verb
    after a lead-in will do: its verdict is the answer asked for. (The frame's reading alone is not
    enough: a sentence checking whether an allowance is taxed as an extra pay reads as yes-or-no, and a
    unit on whether it is taxed at all would answer it "Yes".) Neither verdict stays when `question`
    asks the other way round from `written_for`, the unit's own question (whether a payment is
    untaxed, to a unit asking whether it is taxed). `claim`: the post an asking sentence leans on
    ("Is that true?" after "I read the ME code was scrapped."), read for the other way round too."""
    m = _YES.match(lead)
    turned = written_for and (other_way_round(question, written_for) or (claim and other_way_round(claim, written_for)))
    if turned or asks_alternatives(question) or asks_to_explain(question):
        m = _YES.match(lead) or _NO.match(lead)
    elif m is None or asks_yes_or_no(question) or (read_yes_or_no and asks_yes_or_no_after_lead_in(question)):
        return lead
    if m is None:
        return lead
    rest = lead[m.end():]
    return rest[:1].upper() + rest[1:]


_NO = re.compile(r"^No(?:[.,:;]|\s*[-–—])\s*")


# A question asking what, which, how, when or where, not whether (data/cue_words.yaml:
# content_question_openers and asks_not_whether).
_NOT_WHETHER = re.compile(r"^(?:" + alternatives("content_question_openers") + "|" + alternatives("asks_not_whether") + r")\b", re.I)


def without_verdict(lead: str, question: str) -> str:
    """An intent's lead as it opens the answer to `question`: its "Yes." or "No." answers whether
    (crossing a threshold taxes the whole income), so to a question whose every asked sentence asks
    what, how or when instead ("At what income does the 30% rate start?") the sentence after it
    opens; the rule it states still says the same. Kept for a question asking whether or why anywhere,
    and when the rule leans on the verdict: only a verdict standing as a sentence of its own ("No.
    Only the part …") goes; "No, not under the bright-line test …" and "No: the shares cost …" stay."""
    asked, verdict = asked_clauses(question) or _parts(question), opening_verdict(lead)
    rest = lead[len(verdict):]
    if not (verdict.rstrip() in ("Yes.", "No.") and verdict != verdict.rstrip() and rest[:1].isupper()):
        return lead
    if asks_yes_or_no(question) or asks_yes_or_no_after_lead_in(question):
        return lead
    if not asked or not all(_NOT_WHETHER.match(_LABEL.sub("", part.strip(" \"'(-–—•*"))) for part in asked):
        return lead
    return rest


def opening_verdict(lead: str) -> str:
    """The "Yes." or "No." a lead opens with (and the space after it), or ""."""
    m = _YES.match(lead) or _NO.match(lead)
    return m.group(0) if m else ""


# Questions that ask the other way round (data/cue_words.yaml): whether something is untaxed rather
# than taxed, whether it has been done away with rather than is still there, whether it is going to
# change rather than what it is now.
POLAR_CUES = ("asks_untaxed", "asks_ended", "asks_change_ahead")


def other_way_round(question: str, written_for: str) -> bool:
    """Whether one asks if something is untaxed (or done away with) and the other if it is taxed
    (or still there): a verdict to one is the opposite verdict to the other."""
    return any(bool(cue(name).search(question)) != bool(cue(name).search(written_for)) for name in POLAR_CUES)


def compose(unit: Unit, decision, rules, current_year: str, titles: dict[str, str], section_of=None,
            read_yes_or_no: bool = False):
    """The unit's answer for the decision's tax year: its lead (citation [1] after it), the
    calculator it hands over to, then its source passage as evidence, named by page and section
    (`section_of(url, quote)`: the heading of the page's section that holds the quote). None when
    the unit has no lead or its lead needs a figure the year lacks. `read_yes_or_no`: see `opening_for`."""
    from nztax import composer
    from nztax.calculator_links import CALCULATOR_PAGES

    year_rules = rules.years.get(decision.tax_year) or rules.years.get(current_year)
    if unit.lead is None or year_rules is None:
        return None
    lead = fill(unit.lead, unit_values(year_rules))
    if not lead:
        return None
    asked, post = getattr(decision, "asked", "") or "", getattr(decision, "question", "") or ""
    # (An asking sentence leaning on its post asks whether the post's claim holds: the claim says which way.)
    claim = post if post != asked and leans_back(asked) else ""
    body, citations = [opening_for(lead, asked, read_yes_or_no, unit.question, claim)], []
    if unit.source is not None:
        title = titles.get(unit.source.url) or "Inland Revenue"
        body[0] += cite_mark(1, unit.source.url)
        section = section_of(unit.source.url, unit.source.quote) if section_of is not None else None
        citations.append(Citation(title=title, url=unit.source.url, section=section or None))
    page = CALCULATOR_PAGES.get(unit.calculator or "")
    if page is not None:
        body += ["", f"To work it out for your own figures, use the [{page.name} calculator]({page.path})."]
    if unit.source is not None:
        where = f", “{citations[0].section}”" if citations[0].section else ""
        body += ["", f"> {unit.source.quote}", ">", f"> — [1] [{citations[0].title}]({unit.source.url}){where}"]
    used = placeholders(unit.lead)
    sections = [s for s, names in _PLACEHOLDER_SECTIONS.items() if used & names]
    citations += composer.rule_citations(year_rules, sections)
    return AskResult(
        status="answered", answer="\n".join(body), citations=composer.dedupe(citations), tax_year=decision.tax_year or year_rules.year,
        disclaimer=composer.disclaimer_for(decision, current_year, rules=rules),
        next_actions=[f"[Open the {page.name} calculator]({page.path})"] if page is not None else [],
    )


def placeholders(text: str | None) -> set[str]:
    """The names of the `{placeholders}` a lead uses, plain or indexed."""
    return set(_PLACEHOLDER.findall(text or ""))


# Which rules section a placeholder's figure comes from, so the answer cites the rules' own source.
_PLACEHOLDER_SECTIONS = {
    "income_tax": {"first_rate", "first_threshold", "top_rate", "top_threshold", "band_rate", "band_threshold", "marginal_for"},
    "acc_levy": {"acc_rate", "acc_max_earnings", "acc_max_levy"},
    "student_loan": {"sl_rate", "sl_threshold", "sl_weekly"},
    "ietc": {"ietc_max", "ietc_from", "ietc_to", "ietc_abate_from"},
    "kiwisaver": {"ks_rates", "ks_default", "employer_min", "ks_reduction", "employer_min_age", "employer_max_age"},
    "government_contribution": {"gc_match", "gc_max", "gc_contrib", "gc_min_age", "gc_max_age", "gc_cap_text", "gc_cap"},
    "esct": {"esct_first_rate", "esct_top_rate", "esct_for"},
    "donation_credit": {"donation_rate", "donation_min", "donation_years"},
    "pir": {"pir_rates"},
    "rwt": {"rwt_rates", "rwt_nd"},
    "secondary_codes": {"sec_rate", "sec_from", "sec_to", "sec_band"},
    "flat_codes": {"flat_rate", "nd_rate"},
    "provisional_tax": {"pt_threshold", "pt_uplift", "pt_uplift_unfiled", "pt_dates"},
    "foreign_investment_funds": {"fif_threshold", "fdr_rate"},
    "residency": {"res_days", "res_absent", "res_transitional"},
    "year_end": {"untaxed_limit", "return_due", "tax_due"},
    "bright_line": {"bl_years", "bl_from"},
    "working_for_families": {"ftc_eldest", "ftc_other", "wff_abate_from", "wff_abate_rate", "wff_abate_since", "wff_ftc"},
    "familyboost": {"fb_rate", "fb_max", "fb_limit"},
}
