"""The schema of a per-year rules file: pydantic records, one per YAML section.

In: the parsed YAML of one tax year (`nztax/rules/2026-27.yaml`). Out: a validated `TaxYearFile`, or a
pydantic `ValidationError` naming the field and the problem (`nztax.rules` turns it into `RulesError`).
Field names are the YAML keys; `source` is required on every section.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Literal

from pydantic import Field, field_validator, model_validator

from nztax.rules_family import (BestStart, FamilyBoost, InWorkTaxCredit, MinimumFamilyTaxCredit,
                                 WorkingForFamilies)
from nztax.rules_types import Dated, Money, Rate, Strict as _Strict, Url
from nztax.stated import StatedFigure, figure_paths

TAX_YEAR_PATTERN = re.compile(r"^(\d{4})-(\d{2})$")
PERIODS_PER_YEAR = {"weekly": 52, "fortnightly": 26, "four_weekly": 13, "monthly": 12}
PAY_FREQUENCIES = tuple(PERIODS_PER_YEAR)
SECONDARY_CODES = ("SB", "S", "SH", "ST", "SA")
FLAT_CODES = ("ND", "NSW", "CAE", "EDW")


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
    # Compulsory employer contributions are for members this old or older and younger than the max
    # (NZ Super age), as stated on `ages_source`.
    employer_min_age: int | None = Field(default=None, ge=0, le=120)
    employer_max_age: int | None = Field(default=None, ge=0, le=120)
    ages_source: Url | None = None
    # A member younger than this joins through a scheme provider only, not through their employer.
    employer_join_min_age: int | None = Field(default=None, ge=0, le=120)

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
    # Both limits, or neither: a year whose limits no Inland Revenue page we hold confirms states none,
    # so its answers give the rule and IRD's finder instead of another year's figures.
    taxable_income_max: Money | None = None
    total_income_max: Money | None = None

    @model_validator(mode="after")
    def _both_limits_or_neither(self) -> "PirTier":
        if (self.taxable_income_max is None) != (self.total_income_max is None):
            raise ValueError("a PIR tier states both income limits or neither")
        return self


class Pir(_Strict):
    source: Url
    rates: list[PirTier]
    default_rate: Rate
    finder: Url | None = None  # IRD's "Find my PIR" questionnaire, for a year whose limits are not stated

    @property
    def limits_stated(self) -> bool:
        """Whether the year's rules state every lower rate's income limits."""
        return all(t.taxable_income_max is not None for t in self.rates)


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
    transitional_years: int = Field(ge=1)
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
    in_work_tax_credit: InWorkTaxCredit | None = None
    minimum_family_tax_credit: MinimumFamilyTaxCredit | None = None
    best_start: BestStart | None = None
    familyboost: FamilyBoost | None = None
    # "section.path" -> the page that states that figure and the words around it there (freshness.py).
    stated: dict[str, StatedFigure] = Field(default_factory=dict)

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
        if self.stated:
            unknown = sorted(set(self.stated) - set(figure_paths(self)))
            if unknown:
                raise ValueError(f"stated: no figure at {', '.join(unknown)}")
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
