"""Pipeline stage "render": the generated pages of the site, written into the mkdocs docs_dir.

In: `<index_dir>/faq.json` (the answered FAQ, from the "faq" stage), the unit bank
(`settings.units_dir`: topics), the rules (`nztax.rules.load_rules`), `corpus/manifest.json` and `corpus/sources.yaml`.
Out, under `site_src/` (all git-ignored):
- `faq/index.md`, `faq/<topic>/index.md`, `faq/<topic>/<slug>/index.md` (render_faq.py): one page per answered
  question with the answer, worked figures from its tool calls, a tax-year badge, citations to the
  official pages, the last-checked date (the cited sources' crawl date) and related questions;
- `calculators/*.md` (forms run by javascripts/calculators.js, plus precomputed tables) and
  `calculators/data/rules.json` and `rules.js` (see `site_data`);
- `tax-years/<year>.md` (rates and thresholds), `tax-years/changes-<year>.md` (what changed from the
  year before, from the rules difference) and `tax-years/index.md`;
- `sources/index.md` (every source, its type, last crawl and last change; the snapshot notice);
- `generated/nav.json`, the navigation the mkdocs hook (`mkdocs_hooks.py`) puts in the config.

Output is deterministic: the same inputs give byte-identical files (no timestamps; dates come from
the manifest). A file is rewritten only when its content changes, and `render_site` returns the
pages it changed or removed, which `nztax rebuild` prints.
"""

from __future__ import annotations

import datetime as dt
import json
import posixpath
import re
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from urllib.parse import urlsplit

import yaml

from .pipeline import BuildContext, Stage, StageError, fingerprint_of
import hashlib

RENDER_VERSION = 1  # bump when page layout changes, so the stage reruns
GENERATED_DIRS = ("faq", "calculators", "tax-years", "sources", "generated")
NAV_JSON = Path("generated") / "nav.json"
RELATED_COUNT = 4
SOURCE_TYPE_LABELS = {
    "ird_guidance": "IRD guidance",
    "guide_pdf": "IRD guide (PDF)",
    "legislation": "Legislation",
    "qwba": "Question we've been asked",
    "interpretation_statement": "Interpretation statement",
    "tib": "Tax Information Bulletin",
}


# -- small helpers ------------------------------------------------------------------------------

def write_if_changed(path: Path, text: str) -> bool:
    """Write `text` unless the file already holds exactly it; return whether it was written."""
    path = Path(path)
    data = text.encode("utf-8")
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return True


def md_escape(text: str) -> str:
    """Text shown literally in markdown (and never as HTML)."""
    text = str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"([\\`*_\[\]|])", r"\\\1", text)


def attr(text: str) -> str:
    return str(text).replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


def money(value, cents: bool | None = None) -> str:
    """$1,234.56; whole amounts without cents unless `cents=True`."""
    if value is None:
        return "—"
    d = Decimal(str(value))
    show_cents = cents if cents is not None else d != d.to_integral_value()
    sign = "-" if d < 0 else ""
    d = abs(d)
    return f"{sign}${d:,.2f}" if show_cents else f"{sign}${d:,.0f}"


def percent(rate) -> str:
    """0.175 -> 17.5%; a third -> 33⅓%."""
    if rate is None:
        return "—"
    exact = Fraction(str(rate)).limit_denominator(10**6)
    if exact == Fraction(1, 3):
        return "33⅓%"
    value = (Decimal(str(rate)) * 100).quantize(Decimal("0.0001")).normalize()
    return f"{value:f}%"


def long_date(iso: str | None) -> str:
    if not iso:
        return "—"
    day = dt.date.fromisoformat(iso[:10])
    return f"{day.day} {day:%B %Y}"


def no_wrap(text: str) -> str:
    """Keep a short value such as a date on one line in a narrow table column (non-breaking spaces)."""
    return text.replace(" ", "\u00a0")


def rel(from_page: str, to_page: str) -> str:
    """A markdown link target from one docs page to another (both docs-relative .md paths)."""
    return posixpath.relpath(to_page, posixpath.dirname(from_page) or ".")


def front_matter(**values) -> str:
    lines = ["---"] + [f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in values.items() if v] + ["---", ""]
    return "\n".join(lines) + "\n"


def table(headers: list[str], rows: list[list[str]], align: list[str] | None = None) -> str:
    align = align or ["---"] * len(headers)
    out = ["| " + " | ".join(headers) + " |", "| " + " | ".join(align) + " |"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(out) + "\n"


def _is_pdf(url: str) -> bool:
    return urlsplit(url).path.lower().endswith(".pdf")


def source_label(title: str | None, url: str) -> str:
    """A link label for a source: its title, never its address cut short. Without a title, the
    site's name (with "(PDF)" for a document)."""
    if title and title.strip():
        return title.strip()
    host = urlsplit(url).hostname or "the source"
    return f"Page on {host.removeprefix('www.')}" + (" (PDF)" if _is_pdf(url) else "")


def rules_source_title(section: str, url: str) -> str:
    """The label for the source of one rules section: the title the answers cite it by
    (nztax.composer.RULE_SECTION_TITLES), marked "(PDF)" for a document."""
    from nztax.composer import CITATION_PUBLISHER, RULE_SECTION_TITLES

    title = RULE_SECTION_TITLES.get(section)
    return f"{CITATION_PUBLISHER}: {title}" + (" (PDF)" if _is_pdf(url) else "") if title else source_label(None, url)


def rules_source_titles(rules) -> dict[str, str]:
    """Every source URL in the rules data -> its label (`rules_source_title`)."""
    from nztax.composer import RULE_SECTION_TITLES

    titles: dict[str, str] = {}
    for year in sorted(rules.years):
        for name in RULE_SECTION_TITLES:
            url = getattr(getattr(rules.years[year].data, name, None), "source", None)
            if url:
                titles.setdefault(url, rules_source_title(name, url))
    return titles


def answer_block(markdown: str) -> str:
    """An answer on a FAQ page: the same HTML the Ask box shows (nztax.answer_html: markdown-it-py
    rendering, nh3 sanitising), as one raw HTML block that mkdocs passes through untouched."""
    from nztax.answer_html import render_answer_html

    return f'<div class="nz-answer">\n{render_answer_html(markdown)}\n</div>\n'


# -- inputs -------------------------------------------------------------------------------------

@dataclass
class SiteInputs:
    site_src: Path
    rules: object  # nztax.rules.RuleBook
    site_year: str
    topics: list  # faq.FaqTopic
    questions: list  # faq.FaqQuestion
    faq: list[dict]
    manifest: dict
    sources: list[dict]
    ask_url: str = ""
    pages: dict[str, str] = field(default_factory=dict)  # docs path -> content

    @property
    def manifest_by_url(self) -> dict[str, dict]:
        return {p["url"]: p for p in self.manifest.get("pages", [])}


def site_year(rules) -> str:
    """The year the site leads with: the current tax year if its figures are complete, else the
    latest complete year before it."""
    from nztax.rules import current_tax_year

    current = current_tax_year()
    complete = rules.complete_years()
    if current in complete:
        return current
    earlier = [y for y in complete if y <= current]
    return (earlier or complete)[-1]


def load_inputs(settings) -> SiteInputs:
    from nztax.rules import load_rules

    from .faq import FAQ_JSON, load_questions

    site_src = Path(settings.site_src)
    rules = load_rules(settings.rules_dir)
    topics, questions = load_questions(Path(settings.units_dir))
    faq_path = Path(settings.index_dir) / FAQ_JSON
    try:
        faq = json.loads(faq_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StageError(f"no answered FAQ at {faq_path}: run `nztax build` (the faq stage writes it)") from None
    manifest_path = Path(settings.corpus_dir) / "manifest.json"
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        manifest = {"pages": []}
    sources_path = Path(settings.corpus_dir) / "sources.yaml"
    sources = (yaml.safe_load(sources_path.read_text(encoding="utf-8")) or {}).get("sources", []) if sources_path.exists() else []
    return SiteInputs(site_src, rules, site_year(rules), topics, questions, faq, manifest, sources, settings.ask_url)


# -- tax-year pages ------------------------------------------------------------------------------

def _source(url: str, section: str) -> str:
    return f"<small>Source: [{md_escape(rules_source_title(section, url))}]({url})</small>\n"


def bands_table(bands) -> str:
    rows = []
    for b in bands:
        upper = money(b.upper) if b.upper is not None else "and over"
        rows.append([f"{money(b.lower)} – {upper}", percent(b.rate)])
    return table(["Income", "Rate"], rows, ["---", "--:"])


def _period_label(p) -> str:
    return f"{long_date(p.start.isoformat())} to {long_date(p.end.isoformat())}"


def year_sections(rules) -> list[tuple[str, str]]:
    """(heading, markdown) for each published section of one year's rules."""
    d = rules.data
    out: list[tuple[str, str]] = []
    if d.income_tax:
        note = ("This year's thresholds changed on 31 July 2024, so the year's tax uses IRD's composite "
                "rates below; PAYE used the old or new bands by pay date.\n\n" if rules.year == "2024-25" else "")
        out.append(("Income tax rates", note + bands_table(d.income_tax.bands) + _source(d.income_tax.source, "income_tax")))
    if d.paye and len(d.paye.periods) > 1:
        text = "".join(f"**Pay dates {_period_label(p)}**\n\n" + bands_table(p.bands) + "\n" for p in d.paye.periods)
        out.append(("PAYE bands by pay date", text + _source(d.paye.source, "paye")))
    if d.secondary_codes:
        text = ""
        for p in d.secondary_codes.periods:
            rows = [[c, f"up to {money(v.income_to)}" if v.income_to is not None else "over the ST limit", percent(v.rate),
                     percent(Decimal(str(v.rate)) + Decimal(str(d.acc_levy.rate)))] for c, v in p.codes.items()]
            heading = f"**{_period_label(p)}**\n\n" if len(d.secondary_codes.periods) > 1 else ""
            text += heading + table(["Code", "Total annual income", "Tax rate", "With ACC levy"], rows, ["---", "---", "--:", "--:"]) + "\n"
        out.append(("Secondary tax codes", text + _source(d.secondary_codes.source, "secondary_codes")))
    if d.flat_codes:
        rows = [[c, md_escape(v.meaning), percent(v.rate)] for c, v in d.flat_codes.codes.items()]
        out.append(("Other flat-rate codes", table(["Code", "Meaning", "Rate before ACC levy"], rows, ["---", "---", "--:"]) + _source(d.flat_codes.source, "flat_codes")))
    acc = d.acc_levy
    out.append(("ACC earners' levy", table(["", ""], [["Rate", percent(acc.rate)], ["Maximum liable earnings", money(acc.max_liable_earnings)],
                                                       ["Maximum levy", money(acc.max_levy, cents=True)]], ["---", "--:"]) + _source(acc.source, "acc_levy")))
    if d.ietc:
        rows = [[_period_label(p), money(p.amount), f"{money(p.income_from)} – {money(p.income_to)}", f"{percent(p.abatement_rate)} over {money(p.abatement_from)}"]
                for p in d.ietc.periods]
        out.append(("Independent earner tax credit", table(["Period", "Credit", "Income range", "Abatement"], rows) + _source(d.ietc.source, "ietc")))
    if d.student_loan:
        sl = d.student_loan
        pt = sl.period_thresholds
        rows = [["Repayment rate", percent(sl.rate)], ["Annual threshold", money(sl.annual_threshold)],
                ["Weekly threshold", money(pt.weekly)], ["Fortnightly threshold", money(pt.fortnightly)],
                ["Four-weekly threshold", money(pt.four_weekly)], ["Monthly threshold", money(pt.monthly)]]
        out.append(("Student loan repayments", table(["", ""], rows, ["---", "--:"]) + _source(sl.source, "student_loan")))
    if d.kiwisaver:
        ks = d.kiwisaver
        rows = [["Employee rates", ", ".join(percent(r) for r in ks.employee_rates)], ["Default employee rate", percent(ks.default_employee_rate)],
                ["Employer minimum", percent(ks.employer_minimum_rate)]]
        if ks.temporary_reduction_rate is not None:
            rows.append(["Temporary rate reduction", percent(ks.temporary_reduction_rate)])
        out.append(("KiwiSaver", table(["", ""], rows, ["---", "--:"]) + _source(ks.source, "kiwisaver")))
    if d.esct:
        out.append(("ESCT on employer contributions", "The rate is set by last year's salary or wages plus employer contributions.\n\n"
                    + bands_table(d.esct.bands) + _source(d.esct.source, "esct")))
    if d.government_contribution:
        gc = d.government_contribution
        rows = [["KiwiSaver year from", long_date(gc.kiwisaver_year_start.isoformat())], ["Rate", f"{percent(gc.match_rate)} of member contributions"],
                ["Maximum", money(gc.maximum, cents=True)], ["Contributions for the maximum", money(gc.contributions_for_maximum, cents=True)],
                ["Income cap", money(gc.income_cap) if gc.income_cap is not None else "none"], ["Ages", f"{gc.min_age} to under {gc.max_age}"]]
        out.append(("KiwiSaver government contribution", table(["", ""], rows, ["---", "--:"]) + _source(gc.source, "government_contribution")))
    if d.donation_credit:
        dc = d.donation_credit
        rows = [["Credit", f"{percent(dc.rate)} of eligible donations"], ["Minimum donation", money(dc.minimum_donation)],
                ["Years to claim", str(dc.claim_years)]]
        out.append(("Donation tax credit", table(["", ""], rows, ["---", "--:"]) + _source(dc.source, "donation_credit")))
    if d.pir and not d.pir.limits_stated:
        finder = d.pir.finder or d.pir.source
        out.append(("Prescribed investor rates (PIR)", f"The rates are {', '.join(percent(t.rate) for t in d.pir.rates)} and "
                    f"{percent(d.pir.default_rate)} (also the default). A lower rate applies when either of the last two tax years "
                    "meets both its income limits; this year's limits are not confirmed on an Inland Revenue page this site "
                    f"holds, so they are not stated here: IRD's [Find my PIR]({finder}) tool works out your rate.\n\n"
                    + _source(d.pir.source, "pir")))
    elif d.pir:
        rows = [[percent(t.rate), f"{money(t.taxable_income_max)} or less", f"{money(t.total_income_max)} or less"] for t in d.pir.rates]
        rows.append([percent(d.pir.default_rate), "otherwise (and the default)", ""])
        out.append(("Prescribed investor rates (PIR)", "A rate applies when either of the last two tax years meets both limits.\n\n"
                    + table(["PIR", "Taxable income", "Taxable + PIE income"], rows, ["--:", "---", "---"]) + _source(d.pir.source, "pir")))
    if d.rwt:
        rows = [["Rates on interest", ", ".join(percent(r) for r in d.rwt.interest_rates)], ["Default (IRD number, no rate chosen)", percent(d.rwt.default_rate)],
                ["No IRD number", percent(d.rwt.non_declaration_rate)]]
        out.append(("Resident withholding tax (RWT)", table(["", ""], rows, ["---", "--:"]) + _source(d.rwt.source, "rwt")))
    from .render_family import family_sections

    return out + family_sections(rules)


def render_year_page(rules) -> str:
    y = rules.year
    described = f"Rates and thresholds for the {y} tax year: " + ", ".join(h for h, _ in year_sections(rules)) + ", each with its Inland Revenue source."
    lines = [front_matter(title=f"Tax year {y}", description=described[:300]), f"# Tax year {y}\n",
             f'<span class="nz-badge">{long_date(rules.start.isoformat())} – {long_date(rules.end.isoformat())}</span>\n']
    if rules.data.partial:
        lines.append('!!! warning "Not all figures are published yet"\n    Only the figures below have been announced for this year. '
                     "The calculators use this year for what is published and refuse the rest.\n")
    for heading, body in year_sections(rules):
        lines.append(f"## {heading}\n\n{body}")
    return "\n".join(lines)


def _flatten(value, prefix: str = "") -> dict[str, object]:
    out: dict[str, object] = {}
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "source":
                continue
            out.update(_flatten(v, f"{prefix}.{k}" if prefix else str(k)))
    elif isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value):
            out[prefix] = value
        else:
            for i, v in enumerate(value):
                out.update(_flatten(v, f"{prefix}[{i}]"))
    else:
        out[prefix] = value
    return out


SECTION_TITLES = {
    "income_tax": "Income tax rates", "paye": "PAYE bands", "ietc": "Independent earner tax credit",
    "secondary_codes": "Secondary tax codes", "flat_codes": "Flat-rate codes", "acc_levy": "ACC earners' levy",
    "student_loan": "Student loan", "kiwisaver": "KiwiSaver", "esct": "ESCT", "government_contribution": "KiwiSaver government contribution",
    "donation_credit": "Donation tax credit", "pir": "Prescribed investor rates", "rwt": "Resident withholding tax",
    "working_for_families": "Working for Families", "in_work_tax_credit": "In-work tax credit",
    "minimum_family_tax_credit": "Minimum family tax credit", "best_start": "Best Start",
}


def _is_rate_key(path: str) -> bool:
    last = path.rsplit(".", 1)[-1]
    return "rate" in last


def _shown(path: str, value) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(_shown(path, v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if _is_rate_key(path):
            return percent(value)
        if path.endswith("age"):
            return str(value)
        if path.endswith(("claim_years", "_hours", "_months")) or "_months[" in path:
            return str(value)
        return money(value)
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return long_date(value)
    return md_escape(value)


def _label(path: str) -> str:
    text = re.sub(r"\[(\d+)\]", lambda m: f" {int(m.group(1)) + 1}", path)
    text = text.replace("periods", "period").replace("bands", "band").replace("codes.", "code ").replace("rates", "tier")
    text = re.sub(r"\.to\b", " up to", text.replace(".from", " from"))  # (".total_income_max" is no ".to")
    text = text.replace("_", " ").replace(".", " › ")
    return text.strip()


def year_changes(old, new) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """Per section (title, [(what, before, after)]) where the year's rules differ from the last year's."""
    old_d = old.data.model_dump(mode="json", by_alias=True)
    new_d = new.data.model_dump(mode="json", by_alias=True)
    out = []
    for name, title in SECTION_TITLES.items():
        a, b = old_d.get(name), new_d.get(name)
        if a == b:
            continue
        if a is None or b is None:
            out.append((title, [("section", "published" if a is not None else "not published", "published" if b is not None else "not yet published")]))
            continue
        fa, fb = _flatten(a), _flatten(b)
        rows = []
        for key in list(dict.fromkeys([*fa, *fb])):
            if key.endswith(("from", "to")) and key.startswith("periods") and re.search(r"periods\[\d+\]\.(from|to)$", key):
                continue  # period dates move with the year; the figures inside are what changed
            if key == "kiwisaver_year_start":
                continue
            va, vb = fa.get(key, None), fb.get(key, None)
            if va != vb:
                # A family amount or PIR limit a year's IRD pages do not state is "not stated", not nil (docs/figures.md).
                unstated = "not stated" if name in ("working_for_families", "best_start", "pir") else "none"
                rows.append((_label(key), _shown(key, va) if va is not None else unstated, _shown(key, vb) if vb is not None else unstated))
        if rows:
            out.append((title, rows))
    return out


def render_changes_page(old, new) -> str:
    lines = [front_matter(title=f"What changed in {new.year}", description=f"The rates and thresholds that differ between the {old.year} and {new.year} tax years."),
             f"# What changed in {new.year}\n",
             f"The figures that differ between the {old.year} and {new.year} tax years, read from the rules data "
             f"([{old.year}]({old.year}.md), [{new.year}]({new.year}.md)).\n"]
    changes = year_changes(old, new)
    if not changes:
        lines.append("No rate or threshold changed.\n")
    for title, rows in changes:
        lines.append(f"## {title}\n\n" + table(["What", old.year, new.year], [[w, a, b] for w, a, b in rows]))
    from .render_family import familyboost_change

    lines.append(familyboost_change(old, new))
    return "\n".join(lines)


def render_tax_years(inputs: SiteInputs) -> None:
    years = sorted(inputs.rules.years)
    index = [front_matter(title="Tax years", description="Each New Zealand tax year's rates and thresholds, and what changed from the year before."), "# Tax years\n",
             "New Zealand's tax year runs from 1 April to 31 March. Each page lists that year's rates and thresholds "
             "with the Inland Revenue page each figure comes from.\n", table(["Tax year", "Dates", "What changed"], [
                 [f"[{y}]({y}.md)" + (" (partial)" if inputs.rules.years[y].data.partial else ""),
                  f"{long_date(inputs.rules.years[y].start.isoformat())} – {long_date(inputs.rules.years[y].end.isoformat())}",
                  f"[from {years[i - 1]}](changes-{y}.md)" if i else ""]
                 for i, y in enumerate(years)])]
    inputs.pages["tax-years/index.md"] = "\n".join(index)
    for i, y in enumerate(years):
        inputs.pages[f"tax-years/{y}.md"] = render_year_page(inputs.rules.years[y])
        if i:
            inputs.pages[f"tax-years/changes-{y}.md"] = render_changes_page(inputs.rules.years[years[i - 1]], inputs.rules.years[y])


# -- sources page --------------------------------------------------------------------------------


def render_sources(inputs: SiteInputs) -> None:
    from .sources_page import render_sources_page

    inputs.pages["sources/index.md"] = render_sources_page(inputs.manifest, inputs.sources)


# -- navigation and orchestration ---------------------------------------------------------------

def build_nav(inputs: SiteInputs, calculator_pages: list[tuple[str, str]]) -> list:
    from .render_faq import faq_page_path

    by_topic: dict[str, list[dict]] = {}
    for entry in inputs.faq:
        by_topic.setdefault(entry["topic"], []).append(entry)
    faq_nav: list = ["faq/index.md"]
    for topic in inputs.topics:
        entries = by_topic.get(topic.slug)
        if entries:
            faq_nav.append({topic.title: [f"faq/{topic.slug}/index.md"] + [{e["question"]: faq_page_path(e["topic"], e["slug"])} for e in entries]})
    years = sorted(inputs.rules.years)
    year_nav: list = ["tax-years/index.md"] + [{y: f"tax-years/{y}.md"} for y in years]
    year_nav += [{f"What changed in {y}": f"tax-years/changes-{y}.md"} for y in years[1:]]
    return [
        {"Home": "index.md"},
        {"Questions": faq_nav},
        {"Calculators": ["calculators/index.md"] + [{title: path} for path, title in calculator_pages]},
        {"Tax years": year_nav},
        {"Sources": "sources/index.md"},
    ]


def render_site(inputs: SiteInputs) -> list[str]:
    """Render every generated page; write the changed ones, remove stale ones; return what changed."""
    from .calculator_pages import render_calculators
    from .render_faq import render_faq
    from .site_data import RULES_JS, RULES_JSON, rules_js_text, rules_json_text

    render_faq(inputs)
    calculator_pages = render_calculators(inputs)
    render_tax_years(inputs)
    render_sources(inputs)
    inputs.pages[NAV_JSON.as_posix()] = json.dumps(build_nav(inputs, calculator_pages), ensure_ascii=False, indent=1) + "\n"
    inputs.pages[RULES_JSON.as_posix()] = rules_json_text(inputs.rules)
    inputs.pages[RULES_JS.as_posix()] = rules_js_text(inputs.rules)

    changed = [path for path, text in sorted(inputs.pages.items()) if write_if_changed(inputs.site_src / path, text)]
    keep = {(inputs.site_src / p).resolve() for p in inputs.pages}
    for top in GENERATED_DIRS:
        root = inputs.site_src / top
        if not root.exists():
            continue
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.resolve() not in keep:
                path.unlink()
                changed.append(path.relative_to(inputs.site_src).as_posix() + " (removed)")
        for d in sorted((p for p in root.rglob("*") if p.is_dir()), key=lambda p: len(p.parts), reverse=True):
            if not any(d.iterdir()):
                d.rmdir()
    return changed


def _render_fingerprint(ctx: BuildContext) -> str:
    from nztax.rules import current_tax_year, load_rules

    from .faq import FAQ_JSON, bank_hash

    s = ctx.settings
    files = [Path(s.index_dir) / FAQ_JSON, Path(s.corpus_dir) / "manifest.json", Path(s.corpus_dir) / "sources.yaml"]
    digests = [(p.name, hash_file(p)) for p in files] + [("units", bank_hash(Path(s.units_dir)))]
    return fingerprint_of(RENDER_VERSION, digests, load_rules(s.rules_dir).version(), current_tax_year(), s.ask_url,
                          *(hash_file(p) for p in _page_writers()))


def _page_writers() -> list[Path]:
    """This module and the modules it hands pages to (render_*.py, calculator_pages.py): a change
    to any of them changes the pages, so the stage reruns."""
    here = Path(__file__)
    return [here, here.with_name("calculator_pages.py"), *sorted(p for p in here.parent.glob("render_*.py"))]


def hash_file(path: Path) -> str | None:

    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def run_render(ctx: BuildContext) -> str:
    inputs = load_inputs(ctx.settings)
    changed = render_site(inputs)
    for path in changed:
        ctx.log(f"[render] wrote {path}")
    faq_pages = sum(1 for p in inputs.pages if p.startswith("faq/") and p.count("/") == 3)
    return f"{len(inputs.pages)} generated files ({faq_pages} FAQ pages), {len(changed)} changed"


RENDER_STAGE = Stage(
    name="render",
    run=run_render,
    fingerprint=_render_fingerprint,
    outputs=lambda ctx: [Path(ctx.settings.site_src) / NAV_JSON, Path(ctx.settings.site_src) / "faq" / "index.md"],
)
