"""The building blocks every rules section is made of: strict records, rates, amounts, addresses,
date ranges.

In: nothing (pydantic types). Out: `Strict` (no unknown keys, immutable), `Rate` (0..1), `Money`
(>= 0), `Url` (https), `Dated` (a `from`/`to` range) for `nztax.rules` and `nztax.rules_family`.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

# strict: a YAML `true` is not a number (pydantic would otherwise read it as 1).
Rate = Annotated[float, Field(ge=0, le=1, strict=True)]
Money = Annotated[float, Field(ge=0, strict=True)]
Url = Annotated[str, Field(pattern=r"^https://")]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=False, populate_by_name=True, frozen=True)


class Dated(Strict):
    start: dt.date = Field(alias="from")
    end: dt.date = Field(alias="to")

    @model_validator(mode="after")
    def _ordered(self):
        if self.end < self.start:
            raise ValueError(f"`to` ({self.end}) is before `from` ({self.start})")
        return self
