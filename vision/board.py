"""The physical board as vision sees it: grid size, printed markers, colours, from the tables.

The geometry lives in the game's ``tables/<slug>/board.yaml`` (grid size, ``side_colours``,
``markers``) and its colours in ``terrain.yaml`` (``terrain.<name>.colour``); the game's own
schema validates those files. This module reads only the fields vision needs (other keys are
ignored here), so any square-grid game with the same fields can be read.

Coordinates: board points are ``(u, v)`` in cell units, ``u`` along the columns (the numbers),
``v`` along the rows (the letters); the playing grid spans ``(0, 0)``–``(cols, rows)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from referee.errors import TableError
from referee.geometry.square import SquareGrid
from referee.markers import MarkerLayout
from referee.tables import load_table_set, load_yaml_text, validation_error

RGB = tuple[int, int, int]
MARGIN_BAND = (0.15, 0.55)
"""The band of the printed margin just outside the grid, in cells from the grid's edge, where the
paper and the printed coordinates show: sampled for the paper's white (the white reference) and
for the coordinates' ink (the outline's orientation) (provisional, set by hand)."""
PAPER_PERCENTILE = 75
"""The paper's white in a band of the margin is this percentile of its grey or of each channel:
above the printed coordinates' ink and the band's shadows, below a glare (provisional, set by
hand)."""


@dataclass(frozen=True)
class BoardSpec:
    """A square board: its grid, corner markers and the colours of sides and terrain (RGB)."""

    slug: str
    rows: int
    cols: int
    markers: MarkerLayout
    side_colours: dict[str, RGB]
    terrain_colours: dict[str, RGB]

    @property
    def grid(self) -> SquareGrid:
        """The cell geometry (names like ``H7``)."""
        return SquareGrid(self.rows, self.cols)

    @property
    def sides(self) -> tuple[str, ...]:
        """The side names, in table order."""
        return tuple(self.side_colours)

    @property
    def terrains(self) -> tuple[str, ...]:
        """The terrain names, in table order (the first is the bare board)."""
        return tuple(self.terrain_colours)

    def cell_names(self) -> list[str]:
        """Returns every cell name, row by row (A1, A2, ... L12)."""
        grid = self.grid
        return [grid.name(c) for c in grid.cells()]


def load_board(slug: str, tables: Path | None = None) -> BoardSpec:
    """Returns the board geometry and colours of a game, from its (possibly overridden) tables.

    Reads ``rows``/``cols`` (at the top level or under ``grid:``), ``side_colours`` (entries
    that are RGB triples) and ``markers`` from ``board.yaml``, and ``terrain.<name>.colour``
    from ``terrain.yaml``.

    Raises:
        TableError: the tables lack a board size, side colours, markers or terrain colours.
    """
    table_set = load_table_set(slug, tables)
    label = table_set.label("board.yaml")
    data = load_yaml_text(label, table_set.text("board.yaml"))
    if not isinstance(data, dict):
        raise TableError(label, "", "expected a mapping at the top level")
    size = data.get("grid", data)
    rows, cols = (size.get("rows"), size.get("cols")) if isinstance(size, dict) else (None, None)
    if (
        not isinstance(rows, int)
        or not isinstance(cols, int)
        or not (2 <= rows <= 26 and 2 <= cols <= 99)
    ):
        raise TableError(label, "grid", "needs integer rows (2-26) and cols (2-99)")
    sides = _colours(data.get("side_colours"))
    if len(sides) < 2:
        raise TableError(label, "side_colours", "needs an RGB colour for each side")
    if "markers" not in data:
        raise TableError(
            label, "markers", "no printed marker layout; photos of this board cannot be read"
        )
    try:
        markers = MarkerLayout.model_validate(data["markers"])
    except ValidationError as exc:
        raise validation_error(f"{label}: markers", exc) from None
    tlabel = table_set.label("terrain.yaml")
    tdata = load_yaml_text(tlabel, table_set.text("terrain.yaml"))
    rows_ = tdata.get("terrain") if isinstance(tdata, dict) else None
    terrain = _colours(
        {k: v.get("colour") for k, v in rows_.items() if isinstance(v, dict)}
        if isinstance(rows_, dict)
        else None
    )
    if not terrain:
        raise TableError(tlabel, "terrain", "needs a colour for each terrain")
    return BoardSpec(
        slug=slug,
        rows=rows,
        cols=cols,
        markers=markers,
        side_colours=sides,
        terrain_colours=terrain,
    )


def _colours(node: object) -> dict[str, RGB]:
    """Returns the entries of a mapping that are RGB triples (others, like provenance, skipped)."""
    out: dict[str, RGB] = {}
    if not isinstance(node, dict):
        return out
    for key, value in node.items():
        if (
            isinstance(value, list | tuple)
            and len(value) == 3
            and all(isinstance(x, int) and 0 <= x <= 255 for x in value)
        ):
            out[str(key)] = (int(value[0]), int(value[1]), int(value[2]))
    return out
