"""The building blocks of the vision settings: a frozen section that refuses unknown keys, and a
(from, to) pair that must run from low to high."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict


def _ordered(pair: tuple[float, float]) -> tuple[float, float]:
    low, high = pair
    if not 0 <= low <= high:
        raise ValueError(f"expected 0 <= first <= second, got ({low}, {high})")
    return pair


Range = Annotated[tuple[float, float], AfterValidator(_ordered)]
"""A (from, to) pair of settings: a reversed one would switch its rule off without a word."""


class Section(BaseModel):
    """A part of the settings: frozen, unknown keys refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")
