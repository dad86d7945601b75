"""Exact money arithmetic with IRD's rounding rules.

In: amounts as numbers (floats are read through their shortest decimal form, so 500.99 is exactly
500.99) and rates as exact `Fraction`s from the rules data. Out: `Decimal` cents.
IRD's payroll specification truncates (drops cents, or drops fractions of a cent) at fixed steps;
annual end-of-year figures round to the nearest cent. Each helper names which one it does.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

CENT = Decimal("0.01")


def exact_amount(value: float | int | str | Decimal) -> Fraction:
    """A money amount as an exact fraction (via its decimal text, never its binary float)."""
    return Fraction(Decimal(str(value)))


def whole_dollars(amount: Fraction) -> int:
    """Drop the cents (IRD: 'annualise ... drop the cents'; 'whole-dollar gross')."""
    return math.floor(amount)


def truncate_cents(amount: Fraction) -> Decimal:
    """Drop fractions of a cent, towards zero (IRD's 'truncate to the cent')."""
    cents = math.trunc(amount * 100)
    return Decimal(cents) / 100


def round_cents(amount: Fraction) -> Decimal:
    """Nearest cent, halves away from zero (end-of-year figures)."""
    scaled = amount * 100
    cents = math.floor(abs(scaled) + Fraction(1, 2))
    return Decimal(cents if scaled >= 0 else -cents) / 100


def as_number(value: Decimal) -> float:
    """A Decimal of cents as a JSON number with cents (589.72)."""
    return float(value.quantize(CENT))


def rate_number(rate: Fraction, places: int = 6) -> float:
    """A rate as a JSON number (0.175), without float noise."""
    return float(round(Decimal(rate.numerator) / Decimal(rate.denominator), places))
