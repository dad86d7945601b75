"""The family payments' sections of a year's rules: Working for Families and FamilyBoost.

In: the YAML sections `working_for_families` (family tax credit and the abatement),
`in_work_tax_credit`, `minimum_family_tax_credit`, `best_start` and `familyboost`. Out: validated
records for `nztax.rules.TaxYearFile`. Figures that change inside a tax year (the in-work tax credit
on 31 July 2024, FamilyBoost from the July-September 2025 quarter) are dated periods; FamilyBoost is
assessed per quarter, so its amounts are quarterly and its periods start on a quarter's first day.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from pydantic import Field, model_validator

from nztax.rules_types import Dated, Money, Rate, Strict, Url

QUARTER_STARTS = ((1, 1), (4, 1), (7, 1), (10, 1))


class WorkingForFamilies(Strict):
    """The family tax credit a year for the eldest and each other child, and the abatement of all
    Working for Families credits (FTC first, then the in-work tax credit). The amounts are optional:
    a year whose amounts no stored IRD page states carries only the abatement."""

    source: Url
    abatement_threshold: Money
    abatement_rate: Rate
    abatement_from: dt.date | None = None  # when these abatement settings began, where that was inside the years shown
    ftc_eldest_child: Money | None = None
    ftc_each_other_child: Money | None = None

    @model_validator(mode="after")
    def _both_amounts(self):
        if (self.ftc_eldest_child is None) != (self.ftc_each_other_child is None):
            raise ValueError("give both ftc_eldest_child and ftc_each_other_child, or neither")
        return self


class InWorkPeriod(Dated):
    up_to_three_children: Money    # a year, for one to three children
    each_child_after_third: Money  # a year, added for the fourth and each later child


class InWorkTaxCredit(Strict):
    source: Url
    periods: list[InWorkPeriod] = Field(min_length=1)


class MinimumFamilyTaxCredit(Strict):
    """The hours a week of salary or wages a family must work to get the MFTC."""

    source: Url
    sole_parent_hours: int = Field(ge=1, le=168)
    couple_hours: int = Field(ge=1, le=168)


class BestStart(Strict):
    """The amounts are optional, like the family tax credit's (set by Order in Council)."""

    source: Url
    yearly_amount: Money | None = None
    weekly_amount: Money | None = None
    abatement_threshold: Money
    abatement_rate: Rate
    # Babies born on or after this date are income-tested from birth, not only after their first year.
    income_tested_from_birth_for_births_from: dt.date | None = None


class FamilyBoostPeriod(Dated):
    """One setting of FamilyBoost, for the quarters from `from` to `to` (all amounts per quarter)."""

    rate: Rate                  # share of the ECE fees paid back
    quarterly_max: Money        # most a quarter's claim pays
    abatement_threshold: Money  # household income a quarter over which the maximum is reduced
    abatement_rate: Rate        # reduction per dollar over the threshold
    income_limit: Money         # household income a quarter at which nothing is paid
    since: dt.date | None = None  # when these settings began, where that was before this year's `from`

    @model_validator(mode="after")
    def _quarters(self):
        if (self.start.month, self.start.day) not in QUARTER_STARTS:
            raise ValueError(f"`from` ({self.start}) must be the first day of a quarter")
        # The stated limit is where the reduced maximum reaches nil (IRD rounds it to the dollar).
        nil_at = Decimal(str(self.abatement_threshold)) + Decimal(str(self.quarterly_max)) / Decimal(str(self.abatement_rate))
        if abs(nil_at - Decimal(str(self.income_limit))) > 1:
            raise ValueError(
                f"income_limit ({self.income_limit:g}) must be where the maximum abates to nil ({nil_at:.2f})"
            )
        return self


class FamilyBoost(Strict):
    source: Url
    periods: list[FamilyBoostPeriod] = Field(min_length=1)

    @model_validator(mode="after")
    def _consecutive(self):
        for i in range(1, len(self.periods)):
            if self.periods[i].start != self.periods[i - 1].end + dt.timedelta(days=1):
                raise ValueError(f"periods[{i}].from must be the day after periods[{i - 1}].to")
        return self

    def on(self, day: dt.date) -> FamilyBoostPeriod | None:
        return next((p for p in self.periods if p.start <= day <= p.end), None)
