"""Schemas of the Zargo's Lords tables: the peoples and their counters, and the four tables.

Every number the rulebook copy lacks is a reconstruction (``provisional`` in the files'
``provenance`` keys); these models only say what shape the data must have and check the few
facts that are certain (reference/zargo.md §5), so an owner's edit cannot break them unnoticed.
"""

from __future__ import annotations

import itertools
from typing import Literal

from pydantic import Field, model_validator

from referee.base import StrictModel

__all__ = ["CombatTable", "CounterType", "People", "PeoplesFile", "ShotTable", "TablesFile", "VisionTable"]

Kind = Literal["lord", "infantry", "archer", "sorcerer", "flyer", "flamer", "serpent", "knight", "illusionist"]
Result = Literal["AE", "AR", "-", "EX", "DR", "DE"]
RESULT_ORDER: tuple[Result, ...] = ("AE", "AR", "-", "EX", "DR", "DE")
"""Combat results from worst to best for the attacker."""




class CounterType(StrictModel):
    """One counter type of a people: names, label, manifest count and factors."""

    fr: str = Field(max_length=60)
    it: str = Field(max_length=60)
    en: str = Field(max_length=60)
    short: str = Field(min_length=2, max_length=3, description="Label drawn on the board.")
    kind: Kind
    count: int = Field(ge=1, le=99, description="Counters in the box (rulebook manifest).")
    move: int = Field(ge=1, le=20, description="Movement factor, hexes per turn (reconstruction).")
    combat: int = Field(ge=0, le=20, description="Combat factor (reconstruction).")
    powers: tuple[str, ...] = ()
    range: int | None = Field(default=None, ge=1, le=12, description="Reach of arrows, flames or visions.")
    lord: bool | None = Field(default=None, description="True for a people's lord when its kind is not 'lord'.")

    @property
    def is_lord(self) -> bool:
        """Whether this is the people's lord."""
        return self.kind == "lord" or bool(self.lord)


class Markers(StrictModel):
    """Markers a people uses (the Monks' vanished-monk markers)."""

    fr: str
    it: str
    en: str
    count: int = Field(ge=1, le=99)


class People(StrictModel):
    """One people: turn order, names, colour, city counters and counter types."""

    order: int = Field(ge=1, le=4, description="Place in the turn order (rulebook).")
    names: dict[Literal["fr", "it", "en"], str]
    colour: tuple[int, int, int]
    city_counters: int = Field(ge=1, le=9)
    counters: dict[str, CounterType] = Field(min_length=1, max_length=8)
    markers: Markers | None = None

    def manifest(self) -> int:
        """Returns the counters of this people in the box: types, cities and markers."""
        markers = self.markers.count if self.markers else 0
        return sum(c.count for c in self.counters.values()) + self.city_counters + markers


class PeoplesFile(StrictModel):
    """Schema of ``tables/zargo/peoples.yaml``."""

    peoples: dict[Literal["chevaliers", "ailes", "dragons", "moines"], People]
    provenance: dict[str, Literal["rulebook", "secondary", "interpretation", "provisional"]]

    @model_validator(mode="after")
    def _orders_are_distinct(self) -> PeoplesFile:
        orders = sorted(p.order for p in self.peoples.values())
        if orders != list(range(1, len(orders) + 1)):
            raise ValueError(f"peoples: turn orders must be 1..{len(orders)} once each, got {orders}")
        return self


class ShotTable(StrictModel):
    """Arrows or flames: a hit when die + modifiers reaches the number for the distance."""

    max_range: int = Field(ge=1, le=12)
    hit_on: dict[int, int]
    extra_flame_modifier: int | None = Field(default=None, ge=0, le=6)

    @model_validator(mode="after")
    def _every_distance(self) -> ShotTable:
        if sorted(self.hit_on) != list(range(1, self.max_range + 1)):
            raise ValueError(f"hit_on: give a number for every distance 1..{self.max_range}")
        if any(self.hit_on[d] > self.hit_on[d + 1] for d in range(1, self.max_range)):
            raise ValueError("hit_on: a farther target cannot be easier to hit")
        return self


class VisionTable(StrictModel):
    """Visions: a result by die + modifiers, ``none`` or a retreat ``R<n>``."""

    max_range: int = Field(ge=1, le=12)
    results: dict[int, str]
    distance_modifier: int = Field(le=0)

    @model_validator(mode="after")
    def _results(self) -> VisionTable:
        if sorted(self.results) != [1, 2, 3, 4, 5, 6]:
            raise ValueError("results: give a result for each die face 1..6")
        for face, result in self.results.items():
            if result != "none" and not (result.startswith("R") and result[1:].isdigit()):
                raise ValueError(f"results.{face}: 'none' or a retreat such as R2, not {result!r}")
        if all(r == "none" for r in self.results.values()):
            raise ValueError("results: visions must be able to force a retreat")
        return self


class CombatTable(StrictModel):
    """Combat, read by the difference of the factors (or their odds) and one die."""

    by: Literal["difference", "odds"]
    minimum_difference: int
    columns: tuple[int, ...] = Field(min_length=1)
    results: dict[str, tuple[Result, Result, Result, Result, Result, Result]]
    retreat_hexes: int = Field(ge=1, le=6)

    @model_validator(mode="after")
    def _columns(self) -> CombatTable:
        if list(self.columns) != sorted(set(self.columns)):
            raise ValueError("columns: lowest bounds in increasing order, once each")
        if self.columns[0] != self.minimum_difference:
            raise ValueError("columns: the first column starts at minimum_difference")
        if sorted(self.results, key=int) != [str(c) for c in self.columns]:
            raise ValueError("results: one row per column")
        for col in self.columns:
            row = self.results[str(col)]
            if any(RESULT_ORDER.index(a) > RESULT_ORDER.index(b) for a, b in itertools.pairwise(row)):
                raise ValueError(f"results.{col}: a higher die cannot give the attacker a worse result")
        return self

    def column(self, difference: int) -> int | None:
        """Returns the column a difference falls in (None below the minimum: not allowed)."""
        found = None
        for col in self.columns:
            if difference >= col:
                found = col
        return found


class TablesFile(StrictModel):
    """Schema of ``tables/zargo/tables.yaml``."""

    provenance: Literal["rulebook", "secondary", "interpretation", "provisional"]
    arrows: ShotTable
    flames: ShotTable
    visions: VisionTable
    combat: CombatTable
