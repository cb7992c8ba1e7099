"""The world of Zargo: a hex map file an owner can transcribe, read into a board the rules can use.

The file is YAML (read through the guarded reader) with the grid as a block of text rows::

    name: Zargo (reconstructed world)
    provenance: provisional
    layout: {cols: 36, rows: 21, down: even}
    continents: {"1": Nord-Ouest, "2": Nord-Est, "3": Sud, "4": Ouest-Est}
    grid: |
      ~~ ~~ .1 w1 m1 ...
    bridges:
      - [0406, 0911]
    wrap:
      A: [0103, 3603]

Each row of ``grid`` is one map row (top row first), ``cols`` cells separated by spaces; a cell is
two characters, the terrain then the continent: ``~`` sea, ``.`` plain, ``w`` woods, ``m``
mountains, ``g`` magic chasm; the continent is a key of ``continents`` (``~`` for sea). The text
does not show the half-hex offset: the ``down`` key says which printed columns sit lower.
``bridges`` are cloud bridges, each a pair of coast hexes joined across the sea. ``wrap`` pairs
the lettered hexes of the left and right edges (rules.yaml ``wrap-letters`` says which
neighbours they join). :func:`check_world` lists every problem, one line each.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from referee.errors import InputFileError, UnknownNameError
from referee.files import load_data
from referee.geometry import HexGrid
from referee.geometry.search import Cell

__all__ = ["MapFile", "Terrain", "World", "check_world", "load_world", "map_problems", "parse_world"]

MAX_SIDE = 99


class Terrain(Enum):
    """What a hex is, as the map file writes it."""

    SEA = "~"
    PLAIN = "."
    WOODS = "w"
    MOUNTAINS = "m"
    CHASM = "g"

    @property
    def land(self) -> bool:
        """Whether the hex is land (everything but sea)."""
        return self is not Terrain.SEA


class Layout(BaseModel):
    """The grid's size and offset."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    cols: int = Field(ge=2, le=MAX_SIDE, description="Columns of hexes, left to right (01..).")
    rows: int = Field(ge=2, le=MAX_SIDE, description="Rows of hexes, top to bottom (01..).")
    down: Literal["even", "odd"] = Field(default="even", description="Printed columns that sit half a hex lower.")


class MapFile(BaseModel):
    """Schema of a Zargo map file (``tables/zargo/map.yaml`` or one given with ``--map``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(max_length=200)
    provenance: Literal["rulebook", "secondary", "interpretation", "provisional"] = "provisional"
    layout: Layout
    continents: dict[str, str] = Field(min_length=1, max_length=9, description="One-character key → name.")
    grid: str = Field(max_length=200_000, description="The rows of two-character cells.")
    bridges: tuple[tuple[str, str], ...] = Field(default=(), max_length=200)
    wrap: dict[str, tuple[str, str]] = Field(default_factory=dict, description="Letter → (left hex, right hex).")
    notes: str = Field(default="", max_length=5_000)


@dataclass(frozen=True)
class World:
    """A map ready for the rules: the hex grid (bridges and wrap links included), terrain and continents."""

    name: str
    provenance: str
    grid: HexGrid
    terrain: tuple[Terrain, ...]
    continent: tuple[str | None, ...]
    continents: Mapping[str, str]
    bridges: tuple[tuple[Cell, Cell], ...]
    wrap: Mapping[str, tuple[Cell, Cell]]

    def coastal(self, cell: Cell) -> bool:
        """Whether a land hex touches the sea on the printed map."""
        return self.terrain[cell].land and any(
            not self.terrain[n].land for n in self.grid.neighbours(cell) if self.grid.distance(cell, n) == 1
        )

    def hexes_of(self, continent: str) -> list[Cell]:
        """Returns the land hexes of one continent."""
        return [c for c in self.grid.cells() if self.continent[c] == continent]


def wrap_links(
    grid: HexGrid, wrap: Mapping[str, tuple[Cell, Cell]], reading: str = "same-and-next"
) -> tuple[tuple[str, str], ...]:
    """Returns the hex pairs the lettered edges join: each letter's left hex to its right twin and,
    with the ``same-and-next`` reading, also to the right hex of the next letter (rules.yaml
    ``wrap-letters``)."""
    letters = sorted(wrap)
    pairs: list[tuple[str, str]] = []
    for i, letter in enumerate(letters):
        left, right = wrap[letter]
        pairs.append((grid.name(left), grid.name(right)))
        if reading == "same-and-next" and i + 1 < len(letters):
            nxt_right = wrap[letters[i + 1]][1]
            if abs(grid.cr(nxt_right)[1] - grid.cr(left)[1]) <= 1:
                pairs.append((grid.name(left), grid.name(nxt_right)))
    return tuple(pairs)


def _problems_in_grid(label: str, data: MapFile) -> tuple[list[str], list[Terrain], list[str | None]]:
    problems: list[str] = []
    terrain: list[Terrain] = []
    continent: list[str | None] = []
    rows = [ln.split() for ln in data.grid.splitlines() if ln.strip()]
    cols = data.layout.cols
    if len(rows) != data.layout.rows:
        problems.append(f"{label}: grid: {len(rows)} rows, the layout says {data.layout.rows}")
    codes = {t.value: t for t in Terrain}
    for r, cells in enumerate(rows[: data.layout.rows], start=1):
        if len(cells) != cols:
            problems.append(f"{label}: grid row {r}: {len(cells)} cells, the layout says {cols}")
        for c, code in enumerate((cells + ["~~"] * cols)[:cols], start=1):
            where = f"{label}: hex {c:02d}{r:02d}"
            kind = codes.get(code[:1])
            if len(code) != 2 or kind is None:
                problems.append(f"{where}: {code!r} is not a cell (terrain ~ . w m g, then a continent)")
                terrain.append(Terrain.SEA)
                continent.append(None)
                continue
            owner = code[1]
            if kind.land:
                if owner not in data.continents:
                    known = ", ".join(data.continents)
                    problems.append(f"{where}: land on no continent ({owner!r} is not one of {known})")
                    continent.append(None)
                else:
                    continent.append(owner)
            else:
                if owner != "~":
                    problems.append(f"{where}: sea marked with continent {owner!r} (write ~~)")
                continent.append(None)
            terrain.append(kind)
    missing = data.layout.rows * cols - len(terrain)
    terrain += [Terrain.SEA] * max(missing, 0)
    continent += [None] * max(missing, 0)
    return problems, terrain, continent


def check_world(label: str, data: MapFile, reading: str = "same-and-next") -> tuple[list[str], World | None]:
    """Returns every problem of a map, one line each, and the world when there are none.

    Checks: the grid's shape and cell codes; every land hex on a declared continent; bridges from
    a coast hex to a coast hex of another landmass, across sea only; wrap letters pairing a hex of
    the left edge with one of the right edge, both land.
    """
    problems, terrain, continent = _problems_in_grid(label, data)
    plane = HexGrid(data.layout.cols, data.layout.rows, down=data.layout.down)

    def hex_of(text: str, field: str) -> Cell | None:
        try:
            return plane.parse(text)
        except UnknownNameError as exc:
            problems.append(f"{label}: {field}: {exc}")
            return None

    def coastal(cell: Cell) -> bool:
        return terrain[cell].land and any(not terrain[n].land for n in plane.neighbours(cell))

    bridges: list[tuple[Cell, Cell]] = []
    for i, (a_text, b_text) in enumerate(data.bridges, start=1):
        field = f"bridges[{i}] {a_text}-{b_text}"
        a, b = hex_of(a_text, field), hex_of(b_text, field)
        if a is None or b is None:
            continue
        for end in (a, b):
            if not terrain[end].land:
                problems.append(f"{label}: {field}: {plane.name(end)} is sea; a bridge runs from coast to coast")
            elif not coastal(end):
                problems.append(f"{label}: {field}: {plane.name(end)} is inland; a bridge runs from coast to coast")
        if a == b or b in plane.neighbours(a):
            problems.append(f"{label}: {field}: the two ends touch; a bridge crosses the sea")
        elif any(terrain[c].land for c in plane.line(a, b)[1:-1]):
            problems.append(f"{label}: {field}: the straight line between the ends crosses land")
        bridges.append((a, b))
    wrap: dict[str, tuple[Cell, Cell]] = {}
    for letter, (l_text, r_text) in sorted(data.wrap.items()):
        field = f"wrap.{letter}"
        if len(letter) != 1 or not letter.isalpha():
            problems.append(f"{label}: {field}: a wrap mark is one letter")
        left, right = hex_of(l_text, field), hex_of(r_text, field)
        if left is None or right is None:
            continue
        if plane.cr(left)[0] != 0:
            problems.append(f"{label}: {field}: {l_text} is not on the left edge (column 01)")
        if plane.cr(right)[0] != plane.cols - 1:
            problems.append(f"{label}: {field}: {r_text} is not on the right edge (column {plane.cols:02d})")
        for end in (left, right):
            if not terrain[end].land:
                problems.append(f"{label}: {field}: {plane.name(end)} is sea; only land carries on across the edge")
        wrap[letter] = (left, right)
    if problems:
        return problems, None
    links = tuple((plane.name(a), plane.name(b)) for a, b in bridges) + wrap_links(plane, wrap, reading)
    grid = HexGrid(data.layout.cols, data.layout.rows, down=data.layout.down, links=links)
    world = World(
        name=data.name,
        provenance=data.provenance,
        grid=grid,
        terrain=tuple(terrain),
        continent=tuple(continent),
        continents=dict(data.continents),
        bridges=tuple(bridges),
        wrap=wrap,
    )
    return [], world


def map_problems(label: str, raw: object, reading: str = "same-and-next") -> tuple[list[str], World | None]:
    """Returns every problem of a map file's data (schema, then map), one line each, and the world
    when there are none (``referee map check`` lists them all)."""
    if not isinstance(raw, dict):
        return [f"{label}: a map file is a mapping (name, layout, continents, grid, ...)"], None
    try:
        data = MapFile.model_validate(raw)
    except ValidationError as exc:
        return [f"{label}: {'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()], None
    return check_world(label, data, reading)


def parse_world(label: str, raw: object, reading: str = "same-and-next") -> World:
    """Returns the world a map file's data describes.

    Raises:
        InputFileError: the first problem of :func:`map_problems`, with the count of the others.
    """
    problems, world = map_problems(label, raw, reading)
    if world is None:
        more = f" (+{len(problems) - 1} more; `referee map check` lists them)" if len(problems) > 1 else ""
        raise InputFileError(label, "", problems[0].removeprefix(f"{label}: ") + more)
    return world


def load_world(path: str, reading: str = "same-and-next") -> World:
    """Returns the world of a map file on disk (guarded reading).

    Raises:
        InputFileError: unreadable, malformed or a map with problems.
    """
    return parse_world(path, load_data(path, what="map file"), reading)
