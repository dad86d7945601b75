"""Per-year tax rules: load, validate, look up.

In: one YAML file per tax year in `nztax/rules/` (e.g. `2026-27.yaml`). Out: `TaxYearRules`
records, with every rate as an exact `Fraction` and every amount as a `Decimal`, so the
calculators can follow IRD's truncation rules to the cent.

A bad file is refused with `RulesError`, whose message names the file, the field and the
problem ("2026-27.yaml: income_tax.bands[2].from: must equal the previous band's `to` (53500)").
The current tax year comes from a date (1 April boundary), never from a constant.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from nztax.contract import tax_year_starting

TAX_YEAR_PATTERN = re.compile(r"^(\d{4})-(\d{2})$")
PERIODS_PER_YEAR = {"weekly": 52, "fortnightly": 26, "four_weekly": 13, "monthly": 12}
PAY_FREQUENCIES = tuple(PERIODS_PER_YEAR)
SECONDARY_CODES = ("SB", "S", "SH", "ST", "SA")
FLAT_CODES = ("ND", "NSW", "CAE", "EDW")


class RulesError(ValueError):
    """A rules file is missing, unreadable or invalid."""


# --------------------------------------------------------------------------------------------
# Schema. Field names are the YAML keys; `source` is required on every section.

# strict: a YAML `true` is not a number (pydantic would otherwise read it as 1).
Rate = Annotated[float, Field(ge=0, le=1, strict=True)]
Money = Annotated[float, Field(ge=0, strict=True)]
Url = Annotated[str, Field(pattern=r"^https://")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=False, populate_by_name=True, frozen=True)


class Band(_Strict):
    lower: Money = Field(alias="from")
    upper: Money | None = Field(alias="to")
    rate: Rate


def _check_bands(bands: list[Band]) -> list[Band]:
    if not bands:
        raise ValueError("at least one band is required")
    if bands[0].lower != 0:
        raise ValueError("the first band must start at 0")
    for i, band in enumerate(bands):
        last = i == len(bands) - 1
        if last and band.upper is not None:
            raise ValueError("the last band must be open-ended (`to: null`)")
        if not last:
            if band.upper is None:
                raise ValueError(f"band {i} is open-ended but is not the last band")
            if band.upper <= band.lower:
                raise ValueError(f"band {i}: `to` ({band.upper:g}) must be above `from` ({band.lower:g})")
            following = bands[i + 1]
            if following.lower != band.upper:
                raise ValueError(
                    f"band {i + 1}: `from` ({following.lower:g}) must equal the previous band's `to` "
                    f"({band.upper:g}): bands must not overlap or leave gaps"
                )
    return bands


class BandedSection(_Strict):
    source: Url
    bands: list[Band]

    _bands_ok = field_validator("bands")(_check_bands)


class IncomeTaxSection(BandedSection):
    # True for a year whose thresholds changed part-way (2024-25): its bands are IRD's composite
    # (day-weighted) rates for the end-of-year tax, and PAYE follows the pay date instead.
    composite_rates: bool = False


class Dated(_Strict):
    start: dt.date = Field(alias="from")
    end: dt.date = Field(alias="to")

    @model_validator(mode="after")
    def _ordered(self):
        if self.end < self.start:
            raise ValueError(f"`to` ({self.end}) is before `from` ({self.start})")
        return self


class PayePeriod(Dated):
    bands: list[Band]

    _bands_ok = field_validator("bands")(_check_bands)


class IetcPeriod(Dated):
    amount: Money
    income_from: Money
    abatement_from: Money
    abatement_rate: Rate
    income_to: Money

    @model_validator(mode="after")
    def _thresholds(self):
        if not self.income_from <= self.abatement_from <= self.income_to:
            raise ValueError("thresholds must satisfy income_from <= abatement_from <= income_to")
        return self


class SecondaryCode(_Strict):
    rate: Rate
    income_to: Money | None


class SecondaryPeriod(Dated):
    codes: dict[Literal["SB", "S", "SH", "ST", "SA"], SecondaryCode]

    @field_validator("codes")
    @classmethod
    def _all_codes(cls, codes):
        missing = [c for c in SECONDARY_CODES if c not in codes]
        if missing:
            raise ValueError(f"missing secondary codes: {', '.join(missing)}")
        limits = [codes[c].income_to for c in SECONDARY_CODES]
        if limits[-1] is not None or any(v is None for v in limits[:-1]):
            raise ValueError("only SA may be open-ended (`income_to: null`)")
        if limits[:-1] != sorted(limits[:-1]):
            raise ValueError("secondary code income limits must rise from SB to ST")
        return codes


class PeriodSection(_Strict):
    source: Url


class PayeSection(PeriodSection):
    periods: list[PayePeriod]


class IetcSection(PeriodSection):
    periods: list[IetcPeriod]


class SecondarySection(PeriodSection):
    periods: list[SecondaryPeriod]


class FlatCode(_Strict):
    rate: Rate
    meaning: str


class FlatCodes(_Strict):
    source: Url
    codes: dict[Literal["ND", "NSW", "CAE", "EDW"], FlatCode]

    @field_validator("codes")
    @classmethod
    def _all_codes(cls, codes):
        missing = [c for c in FLAT_CODES if c not in codes]
        if missing:
            raise ValueError(f"missing flat-rate codes: {', '.join(missing)}")
        return codes


class AccLevy(_Strict):
    source: Url
    rate: Rate
    max_liable_earnings: Money
    max_levy: Money

    @model_validator(mode="after")
    def _cap_consistent(self):
        # IRD prints the maximum levy rounded its own way; allow a cent either side.
        expected = Decimal(str(self.max_liable_earnings)) * Decimal(str(self.rate))
        if abs(expected - Decimal(str(self.max_levy))) > Decimal("0.01"):
            raise ValueError(
                f"max_levy ({self.max_levy}) does not match rate x max_liable_earnings ({expected:.4f})"
            )
        return self


class PeriodThresholds(_Strict):
    weekly: Money
    fortnightly: Money
    four_weekly: Money
    monthly: Money


class StudentLoan(_Strict):
    source: Url
    secondary_source: Url  # the rule for a secondary code's pay
    rate: Rate
    annual_threshold: Money
    period_thresholds: PeriodThresholds
    # The end-of-year obligation on income other than salary or wages (adjusted net income): only
    # when that income is at least this much and, with salary or wages, over the annual threshold.
    other_income_minimum: Money | None = None
    other_income_source: Url | None = None

    @model_validator(mode="after")
    def _periods_match_annual(self):
        # IRD sets each pay-period threshold as the annual threshold / pays, truncated to the cent
        # (monthly 24,128 / 12 = 2,010.66), so a typo in either shows up here.
        annual = Decimal(str(self.annual_threshold))
        for frequency, pays in PERIODS_PER_YEAR.items():
            given = Decimal(str(getattr(self.period_thresholds, frequency)))
            expected = (annual / pays).quantize(Decimal("0.01"), rounding="ROUND_DOWN")
            if given != expected:
                raise ValueError(
                    f"period_thresholds.{frequency} ({given}) must be annual_threshold / {pays} truncated to the cent ({expected})"
                )
        return self


class KiwiSaver(_Strict):
    source: Url
    employee_rates: list[Rate]
    default_employee_rate: Rate
    employer_minimum_rate: Rate
    temporary_reduction_rate: Rate | None = None
    temporary_reduction_months: tuple[int, int] | None = None  # (shortest, longest) one reduction lasts

    @model_validator(mode="after")
    def _default_listed(self):
        if self.default_employee_rate not in self.employee_rates:
            raise ValueError("default_employee_rate must be one of employee_rates")
        return self


class GovernmentContribution(_Strict):
    source: Url
    kiwisaver_year_start: dt.date
    match_rate: Rate
    maximum: Money
    contributions_for_maximum: Money
    income_cap: Money | None
    min_age: int = Field(ge=0, le=120)
    max_age: int = Field(ge=0, le=120)


class DonationCredit(_Strict):
    source: Url
    rate: Rate
    minimum_donation: Money
    claim_years: int = Field(ge=1)


class PirTier(_Strict):
    rate: Rate
    taxable_income_max: Money
    total_income_max: Money


class Pir(_Strict):
    source: Url
    rates: list[PirTier]
    default_rate: Rate


class Rwt(_Strict):
    source: Url
    interest_rates: list[Rate]
    default_rate: Rate
    non_declaration_rate: Rate


# -- Topics beyond the rate tables: the figures their answers state (notes/topics.md). Optional:
# a year without one answers that topic from its sources alone.


class ProvisionalTax(_Strict):
    source: Url
    residual_income_tax_threshold: Money
    standard_uplift: Rate
    standard_uplift_unfiled: Rate
    instalment_dates: list[str] = Field(min_length=1)


class ForeignInvestmentFunds(_Strict):
    source: Url
    de_minimis_cost: Money
    fair_dividend_rate: Rate


class Residency(_Strict):
    source: Url
    days_present: int = Field(ge=1, le=366)
    days_absent: int = Field(ge=1, le=366)
    transitional_months: int = Field(ge=1)


class YearEnd(_Strict):
    source: Url
    untaxed_income_limit: Money
    return_due: str
    tax_to_pay_due: str
    # An automatically calculated assessment's tax to pay at or under this is written off (not for IR3 filers).
    write_off_limit: Money | None = None
    write_off_source: Url | None = None


class ExtraPay(_Strict):
    """PAYE on an extra pay (bonus, leave paid out, redundancy): the bands its rate is read from
    (2024-25 kept the bands from before 31 July 2024 all year) and whether the last-two-pay-periods
    rule for an extra pay on leaving applies (from 1 April 2025)."""

    source: Url
    leaving_source: Url | None = None
    leaving_two_pays: bool
    bands: list[Band]

    _bands_ok = field_validator("bands")(_check_bands)


class BrightLine(_Strict):
    source: Url
    years: int = Field(ge=1)
    sales_from: str


class WorkingForFamilies(_Strict):
    source: Url
    ftc_eldest_child: Money
    ftc_each_other_child: Money
    abatement_threshold: Money
    abatement_rate: Rate
    familyboost_rate: Rate
    familyboost_weekly_max: Money
    familyboost_income_limit: Money


class TaxYearFile(_Strict):
    """The whole YAML document for one tax year."""

    tax_year: str = Field(pattern=TAX_YEAR_PATTERN.pattern)
    start: dt.date
    end: dt.date
    partial: bool = False
    income_tax: IncomeTaxSection | None = None
    paye: PayeSection | None = None
    ietc: IetcSection | None = None
    secondary_codes: SecondarySection | None = None
    flat_codes: FlatCodes | None = None
    acc_levy: AccLevy
    student_loan: StudentLoan | None = None
    kiwisaver: KiwiSaver | None = None
    esct: BandedSection | None = None
    government_contribution: GovernmentContribution | None = None
    donation_credit: DonationCredit | None = None
    pir: Pir | None = None
    rwt: Rwt | None = None
    provisional_tax: ProvisionalTax | None = None
    foreign_investment_funds: ForeignInvestmentFunds | None = None
    residency: Residency | None = None
    year_end: YearEnd | None = None
    extra_pay: ExtraPay | None = None
    bright_line: BrightLine | None = None
    working_for_families: WorkingForFamilies | None = None

    @model_validator(mode="after")
    def _year_shape(self):
        m = TAX_YEAR_PATTERN.match(self.tax_year)
        first = int(m.group(1))
        if int(m.group(2)) != (first + 1) % 100:
            raise ValueError(f"tax_year {self.tax_year!r}: the second part must be the following year")
        if self.start != dt.date(first, 4, 1) or self.end != dt.date(first + 1, 3, 31):
            raise ValueError(f"start/end must be {first}-04-01 and {first + 1}-03-31")
        if not self.partial:
            missing = [name for name in COMPLETE_YEAR_SECTIONS if getattr(self, name) is None]
            if missing:
                raise ValueError(f"missing required sections: {', '.join(missing)}")
        for name in ("paye", "ietc", "secondary_codes"):
            section = getattr(self, name)
            if section is not None:
                _check_periods_cover(name, section.periods, self.start, self.end)
        return self


COMPLETE_YEAR_SECTIONS = (
    "income_tax", "paye", "ietc", "secondary_codes", "flat_codes", "student_loan",
    "kiwisaver", "esct", "government_contribution", "donation_credit", "pir", "rwt",
)


def _check_periods_cover(name: str, periods: list[Dated], start: dt.date, end: dt.date) -> None:
    if not periods:
        raise ValueError(f"{name}.periods: at least one period is required")
    if periods[0].start != start:
        raise ValueError(f"{name}.periods[0].from must be the first day of the year ({start})")
    if periods[-1].end != end:
        raise ValueError(f"{name}.periods[-1].to must be the last day of the year ({end})")
    for i in range(1, len(periods)):
        if periods[i].start != periods[i - 1].end + dt.timedelta(days=1):
            raise ValueError(f"{name}.periods[{i}].from must be the day after periods[{i - 1}].to")


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


def _figures_of(data: "TaxYearFile") -> frozenset[Decimal]:
    found: set[Decimal] = set()

    def walk(node):
        if isinstance(node, bool):
            return
        if isinstance(node, (int, float)):
            d = Decimal(str(node))
            found.add(d.normalize())
            if 0 < node < 1:
                found.add((d * 100).normalize())
        elif isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(data.model_dump(mode="python"))
    # A flat or secondary code's rate as payroll deducts it, with the ACC earners' levy added
    # (ND: 45% + 1.75% = 46.75%), which IRD's tables print beside the rate.
    code_rates = [c.rate for c in data.flat_codes.codes.values()] if data.flat_codes else []
    if data.secondary_codes:
        code_rates += [c.rate for period in data.secondary_codes.periods for c in period.codes.values()]
    for rate in code_rates:
        combined = rate_with_acc_levy(rate, data.acc_levy)
        found.update({combined.normalize(), (combined * 100).normalize()})
    return frozenset(found)


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
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
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

    def version(self) -> str:
        """A content hash of every rules file: changes whenever any figure changes."""
        import hashlib

        h = hashlib.sha256()
        for year in sorted(self.years):
            h.update(self.years[year].path.read_bytes())
        return h.hexdigest()[:16]


def load_rules(rules_dir: Path | None = None) -> RuleBook:
    """Load every `*.yaml` in the rules directory (default: settings)."""
    if rules_dir is None:
        from nztax.settings import get_settings

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
    from nztax.settings import get_settings

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
