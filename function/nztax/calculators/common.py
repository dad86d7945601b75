"""What every calculator shares: finding the year's rules and taxing income across bands."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from fractions import Fraction

from nztax.calculators.errors import ToolArgumentError
from nztax.rules import PERIODS_PER_YEAR, Band, RulesError, TaxYearRules, current_tax_year, default_rules, exact, tax_year_for

# The largest amount of money a calculator accepts, in NZD. Not a tax figure: a bound on input
# so that absurd numbers (1e300) come back as a named bad argument instead of an arithmetic
# overflow, far above any personal income the calculators are meant for.
MAX_AMOUNT = 10**12

FREQUENCY_ALIASES = {
    "week": "weekly", "weekly": "weekly",
    "fortnight": "fortnightly", "fortnightly": "fortnightly", "two_weekly": "fortnightly",
    "four_weekly": "four_weekly", "four-weekly": "four_weekly", "4-weekly": "four_weekly", "4_weekly": "four_weekly",
    "monthly": "monthly", "month": "monthly",
}


def year_rules(tax_year: str | None, *sections: str) -> TaxYearRules:
    """The rules for `tax_year` (default: the current tax year), checking it has `sections`."""
    year = tax_year or current_tax_year()
    try:
        rules = default_rules().get(year)
        for name in sections:
            rules.section(name)
    except RulesError as exc:
        raise ToolArgumentError("tax_year", str(exc)) from None
    return rules


def rules_for_date(pay_date: dt.date, tax_year: str | None, *sections: str) -> TaxYearRules:
    """The rules of the tax year containing `pay_date`; a contradicting `tax_year` is an error."""
    year = tax_year_for(pay_date)
    if tax_year and tax_year != year:
        raise ToolArgumentError("pay_date", f"pay date {pay_date} is in tax year {year}, not {tax_year}")
    try:
        return year_rules(year, *sections)
    except ToolArgumentError as exc:
        # The year came from the pay date, so the pay date is the argument to fix.
        raise ToolArgumentError("pay_date", f"pay date {pay_date}: {exc.message}") from None


def parse_frequency(value: str) -> str:
    key = value.strip().lower().replace(" ", "_")
    if key not in FREQUENCY_ALIASES:
        raise ToolArgumentError("pay_frequency", f"unknown pay frequency {value!r} (use weekly, fortnightly, four_weekly or monthly)")
    return FREQUENCY_ALIASES[key]


def as_rate(value: float, argument: str) -> Fraction:
    """A rate given as a fraction (0.035) or a percentage (3.5) -> exact fraction."""
    rate = exact(value)
    if rate > 1:
        rate = rate / 100
    if not 0 <= rate <= 1:
        raise ToolArgumentError(argument, f"{argument} must be between 0 and 100 percent")
    return rate


@dataclass(frozen=True)
class BandTax:
    lower: int
    upper: int | None
    rate: Fraction
    amount: Fraction  # income taxed in this band
    tax: Fraction


def tax_on_bands(income: Fraction, bands: list[Band]) -> tuple[Fraction, list[BandTax]]:
    """Progressive tax: each slice of income at its band's rate (exact)."""
    total = Fraction(0)
    slices = []
    for band in bands:
        lower = Fraction(band.lower)
        upper = None if band.upper is None else Fraction(band.upper)
        if income <= lower:
            break
        top = income if upper is None else min(income, upper)
        amount = top - lower
        tax = amount * exact(band.rate)
        total += tax
        slices.append(BandTax(int(band.lower), None if upper is None else int(band.upper), exact(band.rate), amount, tax))
    return total, slices


def marginal_rate(income: Fraction, bands: list[Band]) -> Fraction:
    """The rate on the last dollar of `income` (the first band's rate at zero)."""
    for band in bands:
        if band.upper is None or income <= band.upper:
            return exact(band.rate)
    return exact(bands[-1].rate)


def parse_date(value: str | None, argument: str) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except (TypeError, ValueError):
        raise ToolArgumentError(argument, f"{argument} must be a date like 2026-07-31, not {value!r}") from None
