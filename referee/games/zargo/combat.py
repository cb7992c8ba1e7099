"""Zargo combat arithmetic: the combat table, arrows and flames, charges and exact odds.

Pure functions over the tables of ``tables/zargo/tables.yaml`` and the world's hex grid; the
engine decides who fights whom and applies the results. Every table value is a reconstruction,
so every ruling built on these functions discloses it (``RECONSTRUCTION`` in rules.yaml).

* Combat (rulebook "COMBAT — RÈGLES GÉNÉRALES", "LA CONQUÊTE D'UNE VILLE"): attacker total minus
  defender total picks a column (rules.yaml ``combat-by-difference``); below the first column the
  attack is not allowed; one die picks the result.
* Arrows fly along one of the six straight hex directions (reference §5; rules.yaml
  ``arrow-line``) up to their range; flames reach any hex within their radius. Both hit when
  die + modifiers reaches the table's number for the distance.
* A charge (Knights only, "DÉTAIL DES CAPACITÉS — CHEVALIERS"): the whole move in one straight
  direction; +3 when the defender stands straight ahead on that line, +1 when it stands beside
  the last hex at an angle (rules.yaml ``charge-front``).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from referee.games.zargo.data import CombatTable, Result, ShotTable
from referee.geometry import HexGrid
from referee.geometry.hexes import DIRECTIONS
from referee.geometry.search import Cell

__all__ = ["charge_bonus", "combat_odds", "combat_result", "hex_direction", "shot_hits", "shot_odds"]

FRONT_BONUS = 3
FLANK_BONUS = 1


def combat_result(table: CombatTable, attack: int, defence: int, die: int) -> Result | None:
    """Returns the result of a combat for one die (None: the difference is below the table)."""
    column = table.column(attack - defence)
    if column is None:
        return None
    return table.results[str(column)][die - 1]


def combat_odds(table: CombatTable, attack: int, defence: int) -> dict[Result, Fraction]:
    """Returns the exact chance of each result (empty when the attack is not allowed)."""
    odds: dict[Result, Fraction] = {}
    for die in range(1, 7):
        result = combat_result(table, attack, defence, die)
        if result is None:
            return {}
        odds[result] = odds.get(result, Fraction(0)) + Fraction(1, 6)
    return odds


def shot_hits(table: ShotTable, distance: int, die: int, modifier: int = 0) -> bool | None:
    """Returns whether a shot at ``distance`` hits (None when out of range)."""
    need = table.hit_on.get(distance)
    if need is None or distance < 1:
        return None
    return die + modifier >= need


def shot_odds(table: ShotTable, distance: int, modifier: int = 0) -> Fraction | None:
    """Returns the exact chance that a shot hits (None when out of range)."""
    if distance not in table.hit_on:
        return None
    return Fraction(sum(1 for die in range(1, 7) if shot_hits(table, distance, die, modifier)), 6)


def hex_direction(grid: HexGrid, a: Cell, b: Cell) -> int | None:
    """Returns the hex direction (0 = N, clockwise) from ``a`` to ``b`` when they lie on one
    straight hex row, else None."""
    (ax, ay, az), (bx, by, bz) = grid.cube(a), grid.cube(b)
    n = grid.distance(a, b)
    if n == 0:
        return None
    delta = (bx - ax, by - ay, bz - az)
    if any(d % n for d in delta):
        return None
    unit = (delta[0] // n, delta[1] // n, delta[2] // n)
    return DIRECTIONS.index(unit) if unit in DIRECTIONS else None


def charge_bonus(grid: HexGrid, path: list[Cell], target: Cell) -> int:
    """Returns a Knight's charge bonus for an attack after moving along ``path`` (start first).

    No bonus unless every step of the move went the same straight way (and it moved at all);
    then +3 if the target is the next hex on that line, +1 if it is beside the last hex at an
    angle.
    """
    if len(path) < 2:
        return 0
    directions = {hex_direction(grid, x, y) for x, y in itertools.pairwise(path)}
    if len(directions) != 1 or None in directions:
        return 0
    (direction,) = directions
    assert direction is not None
    last = path[-1]
    if target not in grid.neighbours(last) or grid.distance(last, target) != 1:
        return 0
    if grid.step(last, direction) == target:
        return FRONT_BONUS
    back = grid.step(last, direction + 3)
    return 0 if target == back else FLANK_BONUS
