"""Per-year tax rules: load, validate, look up.

In: one YAML file per tax year in `nztax/rules/` (e.g. `2026-27.yaml`). Out: `TaxYearRules`
records, with every rate as an exact `Fraction` and every amount as a `Decimal`, so the
calculators can follow IRD's truncation rules to the cent.

A bad file is refused with `RulesError`, whose message names the file, the field and the
problem ("2026-27.yaml: income_tax.bands[2].from: must equal the previous band's `to` (53500)").
The current tax year comes from a date (1 April boundary), never from a constant. The schema of a
file (one pydantic record per section) is `nztax.rules_schema`, its names re-exported here.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import ValidationError

from nztax.contract import tax_year_starting
# The schema lives in rules_schema; its names are re-exported here, where callers import them.
from nztax.rules_schema import (  # noqa: F401
    AccLevy, Band, BandedSection, BrightLine, COMPLETE_YEAR_SECTIONS, DonationCredit, ExtraPay,
    FLAT_CODES, FlatCode, FlatCodes, ForeignInvestmentFunds, GovernmentContribution, IetcPeriod,
    IetcSection, IncomeTaxSection, KiwiSaver, PAY_FREQUENCIES, PERIODS_PER_YEAR, PayePeriod,
    PayeSection, PeriodSection, PeriodThresholds, Pir, PirTier, ProvisionalTax, Residency, Rwt,
    SECONDARY_CODES, SecondaryCode, SecondaryPeriod, SecondarySection, StudentLoan,
    TAX_YEAR_PATTERN, TaxYearFile, YearEnd,
)
from nztax.yaml_data import load_yaml
from nztax.settings import get_settings


class RulesError(ValueError):
    """A rules file is missing, unreadable or invalid."""


# --------------------------------------------------------------------------------------------
# Loaded form used by the calculators.


def exact(value: float | int) -> Fraction:
    """A YAML number as an exact fraction (0.1282 -> 641/5000; 0.3333333333 -> 1/3)."""
    return Fraction(str(value)).limit_denominator(10**6)


def money(value: float | int | str) -> Decimal:
    return Decimal(str(value))


@dataclass(frozen=True)
class TaxYearRules:
    """One tax year's validated rules plus the file it came from."""

    year: str
    path: Path
    data: TaxYearFile

    @property
    def start(self) -> dt.date:
        return self.data.start

    @property
    def end(self) -> dt.date:
        return self.data.end

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1

    def covers(self, day: dt.date) -> bool:
        return self.start <= day <= self.end

    def section(self, name: str):
        """A section, or `RulesError` when this (partial) year has not published it."""
        value = getattr(self.data, name)
        if value is None:
            raise RulesError(f"{self.year}: {name.replace('_', ' ')} figures have not been published for this year")
        return value

    @staticmethod
    def _period_on(periods, day: dt.date):
        for period in periods:
            if period.start <= day <= period.end:
                return period
        raise RulesError(f"no period covers {day}")

    def paye_period(self, day: dt.date) -> PayePeriod:
        return self._period_on(self.section("paye").periods, day)

    def ietc_period(self, day: dt.date) -> IetcPeriod:
        return self._period_on(self.section("ietc").periods, day)

    def secondary_period(self, day: dt.date) -> SecondaryPeriod:
        return self._period_on(self.section("secondary_codes").periods, day)

    def figures(self) -> frozenset[Decimal]:
        """Every number in this year's file (rates also as percentages): what the guard may accept.
        Worked out once per year (the rules are immutable once loaded)."""
        cached = _FIGURES.get(id(self.data))
        if cached is None or cached[0] is not self.data:
            cached = _FIGURES[id(self.data)] = (self.data, _figures_of(self.data))
        return cached[1]


# id(rules data) -> (that data, its figures): the data is kept, so an id is never reused while cached.
_FIGURES: dict[int, tuple[object, frozenset[Decimal]]] = {}


def _numbers(node):
    """Every number in a dumped rules record (not its flags), depth first."""
    if isinstance(node, bool):
        return
    if isinstance(node, (int, float)):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _numbers(v)
    elif isinstance(node, (list, tuple)):
        for v in node:
            yield from _numbers(v)


def _figures_of(data: "TaxYearFile") -> frozenset[Decimal]:
    found: set[Decimal] = set()
    for node in _numbers(data.model_dump(mode="python")):
        d = Decimal(str(node))
        found.add(d.normalize())
        if 0 < node < 1:
            found.add((d * 100).normalize())
    # A flat or secondary code's rate as payroll deducts it, with the ACC earners' levy added
    # (ND: 45% + 1.75% = 46.75%), which IRD's tables print beside the rate.
    for rate in _code_rates(data):
        combined = rate_with_acc_levy(rate, data.acc_levy)
        found.update({combined.normalize(), (combined * 100).normalize()})
    return frozenset(found)


# The sections of a year's file whose rates are taxes, levies or deductions (not a credit's or an
# abatement's share): what a poster can name as the rate they pay.
TAX_RATE_SECTIONS = ("income_tax", "paye", "secondary_codes", "flat_codes", "acc_levy", "student_loan", "kiwisaver",
                     "esct", "donation_credit", "pir", "rwt", "provisional_tax", "foreign_investment_funds", "extra_pay")
# id(a rule book's years) -> (those years, their tax rates), as _FIGURES.
_RATES: dict[int, tuple[object, frozenset[Decimal]]] = {}


def _percentages(section) -> set[Decimal]:
    """Every fraction between 0 and 1 in a section, as a percentage."""
    if section is None:
        return set()
    return {(Decimal(str(n)) * 100).normalize() for n in _numbers(section.model_dump(mode="python"))
            if isinstance(n, float) and 0 < n < 1}


def _code_rates(data: "TaxYearFile") -> list[float]:
    """A year's flat and secondary code rates (payroll deducts each with the ACC earners' levy)."""
    rates = [c.rate for c in data.flat_codes.codes.values()] if data.flat_codes else []
    if data.secondary_codes:
        rates += [c.rate for period in data.secondary_codes.periods for c in period.codes.values()]
    return rates


def rate_with_acc_levy(rate: float, acc_levy: "AccLevy") -> Decimal:
    """A flat or secondary code's rate plus the year's ACC earners' levy rate: what payroll deducts."""
    return Decimal(str(rate)) + Decimal(str(acc_levy.rate))


def _format_error(path: Path, err: ValidationError) -> str:
    lines = []
    for e in err.errors():
        loc = ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in e["loc"]).replace(".[", "[")
        lines.append(f"{path.name}: {loc or '(top level)'}: {e['msg']}")
    return "\n".join(lines)


def load_year_file(path: Path) -> TaxYearRules:
    """Load and validate one file; raise `RulesError` naming the file, field and problem."""
    path = Path(path)
    try:
        raw = load_yaml(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RulesError(f"{path.name}: file not found ({path})") from None
    except yaml.YAMLError as exc:
        raise RulesError(f"{path.name}: not valid YAML: {exc}") from None
    if not isinstance(raw, dict):
        raise RulesError(f"{path.name}: (top level): expected a mapping of sections")
    try:
        data = TaxYearFile.model_validate(raw)
    except ValidationError as exc:
        raise RulesError(_format_error(path, exc)) from None
    if path.stem != data.tax_year:
        raise RulesError(f"{path.name}: tax_year: {data.tax_year!r} does not match the file name")
    return TaxYearRules(year=data.tax_year, path=path, data=data)


@dataclass(frozen=True)
class RuleBook:
    """All loaded years, keyed by "YYYY-YY"."""

    years: dict[str, TaxYearRules]

    def get(self, tax_year: str) -> TaxYearRules:
        if tax_year not in self.years:
            known = ", ".join(sorted(self.years))
            raise RulesError(f"unknown tax year {tax_year!r} (known: {known})")
        return self.years[tax_year]

    def for_date(self, day: dt.date) -> TaxYearRules:
        return self.get(tax_year_for(day))

    def complete_years(self) -> list[str]:
        return sorted(y for y, r in self.years.items() if not r.data.partial)

    def tax_rates(self) -> frozenset[Decimal]:
        """Every rate of a tax, a levy or a deduction from pay or savings that any year's file holds,
        as a percentage (a flat or secondary code's also with the ACC earners' levy added): the rates
        New Zealand's system has. A rate a post states as its own outside these is another system's."""
        cached = _RATES.get(id(self.years))
        if cached is None or cached[0] is not self.years:
            found = {p for r in self.years.values() for name in TAX_RATE_SECTIONS
                     for p in _percentages(getattr(r.data, name, None))}
            found |= {(rate_with_acc_levy(rate, r.data.acc_levy) * 100).normalize()
                      for r in self.years.values() for rate in _code_rates(r.data)}
            cached = _RATES[id(self.years)] = (self.years, frozenset(found))
        return cached[1]

    def version(self) -> str:
        """A content hash of every rules file: changes whenever any figure changes."""
        h = hashlib.sha256()
        for year in sorted(self.years):
            h.update(self.years[year].path.read_bytes())
        return h.hexdigest()[:16]


def load_rules(rules_dir: Path | None = None) -> RuleBook:
    """Load every `*.yaml` in the rules directory (default: settings)."""
    if rules_dir is None:

        rules_dir = get_settings().rules_dir
    files = sorted(Path(rules_dir).glob("*.yaml"))
    if not files:
        raise RulesError(f"no rules files found in {rules_dir}")
    years = {}
    for f in files:
        rules = load_year_file(f)
        years[rules.year] = rules
    return RuleBook(years=years)


@lru_cache(maxsize=4)
def _cached(rules_dir: str) -> RuleBook:
    return load_rules(Path(rules_dir))


def default_rules() -> RuleBook:
    """The rule book for the configured rules directory, loaded once per process."""
    return _cached(str(get_settings().rules_dir))


def tax_year_for(day: dt.date) -> str:
    """The tax year containing `day`: 1 April 2026 – 31 March 2027 is "2026-27"."""
    return tax_year_starting(day.year if day >= dt.date(day.year, 4, 1) else day.year - 1)


def today() -> dt.date:
    """Today's date; tests replace it through `nztax.rules.CLOCK`."""
    return CLOCK()


CLOCK = dt.date.today


def current_tax_year() -> str:
    return tax_year_for(today())
