"""The map of Iliad: a square grid read from rows of characters with a legend (``map.yaml``).

Each character of a row is one square; the legend says what it is: its terrain (plain, sea,
land-and-sea, river, hill, mountain, wall), whether it lies inside the Greek camp, holds a ship,
belongs to Troy's citadel, or is a start square of a side. The file is meant to be edited by
hand to match a printed board; every problem is reported as ``map.yaml: field: problem``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

from pydantic import Field, model_validator

from referee.base import StrictModel
from referee.errors import TableError
from referee.games.iliad.roster import Side
from referee.geometry.search import Cell
from referee.geometry.square import SquareGrid, row_label
from referee.i18n import N_, _, ngettext
from referee.rulings import Provenance

TERRAIN_LABELS = (N_("plain"), N_("sea"), N_("land-and-sea"), N_("river"), N_("hill"), N_("mountain"), N_("wall"))
"""The sample map's terrain labels, lower-cased, as messages name them (translated)."""

MAX_ROWS = 52  # two-letter row names run to AZ
MAX_COLS = 99


class Terrain(StrEnum):
    """La mappa / Movimento: regole particolari: the ground of a square."""

    PLAIN = "plain"
    SEA = "sea"
    SHORE = "shore"
    RIVER = "river"
    HILL = "hill"
    MOUNTAIN = "mountain"
    WALL = "wall"




class TerrainStyle(StrictModel):
    label: str
    colour: tuple[int, int, int] = Field(description="RGB used to draw the terrain.")


class LegendEntry(StrictModel):
    terrain: Terrain
    camp: bool = Field(default=False, description="Inside the Greek wall.")
    ship: bool = Field(default=False, description="A beached Greek ship (Scopo del gioco).")
    troy: bool = Field(default=False, description="A square of Troy's citadel.")
    start: Side | None = Field(default=None, description="A start square of this side (Preparazione del gioco).")
    name: str | None = Field(default=None, description="Name shown for the square, e.g. Scamander.")
    meaning: str = ""

    @model_validator(mode="after")
    def _check(self) -> LegendEntry:
        if self.terrain in (Terrain.SEA, Terrain.RIVER, Terrain.WALL) and (self.ship or self.troy or self.start):
            raise ValueError(_("a {terrain} square cannot hold a ship, Troy or a start square").format(
                terrain=_(self.terrain.value)))
        return self


class MapFile(StrictModel):
    provenance: Provenance
    terrain: dict[Terrain, TerrainStyle]
    legend: dict[str, LegendEntry]
    rows: tuple[str, ...] = Field(min_length=4)

    @model_validator(mode="after")
    def _check(self) -> MapFile:
        missing = set(Terrain) - set(self.terrain)
        if missing:
            raise ValueError(_("terrain: missing {names}").format(names=", ".join(sorted(missing))))
        for char in self.legend:
            if len(char) != 1 or char.isspace():
                raise ValueError(_("legend: {char} must be one visible character").format(char=repr(char)))
        return self


@dataclass(frozen=True)
class Square:
    """What the legend says about one square."""

    terrain: Terrain
    camp: bool
    ship: bool
    troy: bool
    start: Side | None
    name: str | None
    char: str


@dataclass(frozen=True)
class IliadMap:
    """The board: grid, squares, and the neighbour lists movement uses."""

    grid: SquareGrid
    squares: tuple[Square, ...]
    styles: Mapping[Terrain, TerrainStyle]
    provenance: Provenance

    @cached_property
    def ships(self) -> frozenset[Cell]:
        """Scopo del gioco: the ship squares."""
        return frozenset(c for c, sq in enumerate(self.squares) if sq.ship)

    @cached_property
    def troy(self) -> frozenset[Cell]:
        """Scopo del gioco: the citadel's squares."""
        return frozenset(c for c, sq in enumerate(self.squares) if sq.troy)

    @cached_property
    def camp(self) -> frozenset[Cell]:
        """Il calendario: the squares inside the Greek wall."""
        return frozenset(c for c, sq in enumerate(self.squares) if sq.camp)

    def starts(self, side: Side) -> tuple[Cell, ...]:
        """Preparazione del gioco: a side's start squares, top-left first."""
        return self._starts[side]

    @cached_property
    def _starts(self) -> dict[Side, tuple[Cell, ...]]:
        return {side: tuple(c for c, sq in enumerate(self.squares) if sq.start is side) for side in Side}

    @cached_property
    def land(self) -> bytes:
        """1 for every square that is not open sea."""
        return bytes(sq.terrain is not Terrain.SEA for sq in self.squares)

    @cached_property
    def mountains(self) -> bytes:
        """1 for every mountain square."""
        return bytes(sq.terrain is Terrain.MOUNTAIN for sq in self.squares)

    @cached_property
    def walls(self) -> bytes:
        """1 for every wall square."""
        return bytes(sq.terrain is Terrain.WALL for sq in self.squares)

    def stoppers(self, wall: bool) -> bytes:
        """1 for every square that ends a move entering it: rivers, and the wall once built."""
        return self._stoppers[wall]

    @cached_property
    def _stoppers(self) -> dict[bool, bytes]:
        rivers = [sq.terrain is Terrain.RIVER for sq in self.squares]
        walls = [sq.terrain is Terrain.WALL for sq in self.squares]
        return {False: bytes(rivers), True: bytes(r or w for r, w in zip(rivers, walls, strict=True))}

    @cached_property
    def sea(self) -> frozenset[Cell]:
        """The open-sea squares."""
        return frozenset(c for c, sq in enumerate(self.squares) if sq.terrain is Terrain.SEA)

    @cached_property
    def mountain_reach(self) -> tuple[int, ...]:
        """For every square, the king-step distance to the nearest mountain square (a move
        shorter than that never meets one, so its squares all cost 1)."""
        far = self.grid.rows + self.grid.cols
        mountains = [c for c, sq in enumerate(self.squares) if sq.terrain is Terrain.MOUNTAIN]
        if not mountains:
            return (far,) * self.grid.size
        found = self.grid.flood(mountains[0], far, frozenset(), frozenset(), diagonal=True).distance
        best = dict(found)
        for m in mountains[1:]:
            for c, d in self.grid.flood(m, far, frozenset(), frozenset(), diagonal=True).distance.items():
                if d < best[c]:
                    best[c] = d
        return tuple(best[c] for c in self.grid.cells())


    def name(self, cell: Cell) -> str:
        """A square's printed name (``H7``)."""
        return self.grid.name(cell)

    def describe(self, cell: Cell) -> str:
        """'river (Scamander)' for messages."""
        sq = self.squares[cell]
        label = _(self.styles[sq.terrain].label.lower())
        return f"{label} ({sq.name})" if sq.name else label


def parse_map(label: str, file: MapFile) -> IliadMap:
    """Returns the map of a validated file, checking the rows against the legend.

    Raises:
        TableError: rows of different lengths, an unknown character, too few ships or no Troy.
    """
    if len(file.rows) > MAX_ROWS:
        raise TableError(label, "rows", _("{n} rows; at most {most}").format(n=len(file.rows), most=MAX_ROWS))
    width = len(file.rows[0])
    if width < 4 or width > MAX_COLS:
        raise TableError(label, "rows[0]", ngettext("{n} square wide; between 4 and {most}",
                                                    "{n} squares wide; between 4 and {most}", width).format(
            n=width, most=MAX_COLS))
    squares: list[Square] = []
    known = "".join(sorted(file.legend))
    for r, row in enumerate(file.rows):
        if len(row) != width:
            raise TableError(label, f"rows[{r}] (row {row_label(r)})", ngettext(
                "{n} square wide, row A has {width}", "{n} squares wide, row A has {width}", len(row)).format(
                n=len(row), width=width))
        for c, char in enumerate(row):
            entry = file.legend.get(char)
            if entry is None:
                raise TableError(
                    label, f"rows[{r}] (row {row_label(r)})",
                    _("unknown character {char} at column {column}; the legend has {known}").format(
                        char=repr(char), column=c + 1, known=repr(known)),
                )
            squares.append(Square(entry.terrain, entry.camp, entry.ship, entry.troy, entry.start, entry.name, char))
    board = IliadMap(SquareGrid(len(file.rows), width), tuple(squares), file.terrain, file.provenance)
    if len(board.ships) < 5:
        raise TableError(label, "rows", ngettext("{n} ship square; the Trojans need at least 5 to win",
                                                 "{n} ship squares; the Trojans need at least 5 to win",
                                                 len(board.ships)).format(n=len(board.ships)))
    if len(board.troy) < 5:
        raise TableError(label, "rows", ngettext("{n} citadel square; the Greeks need at least 5 to win",
                                                 "{n} citadel squares; the Greeks need at least 5 to win",
                                                 len(board.troy)).format(n=len(board.troy)))
    return board

