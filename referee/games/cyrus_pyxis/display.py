"""How a Cyrus & Pyxis state is shown: the board as data (terminal and PNG) and the status lines."""

from __future__ import annotations

from typing import Literal

from referee.game import BoardView, CellView, Counter, MarkStyle, TerrainStyle
from referee.games.cyrus_pyxis.schemas import PLURAL, Kind, Phase, Terrain
from referee.games.cyrus_pyxis.sequence import setup_progress
from referee.games.cyrus_pyxis.state import CyrusState, occupancy
from referee.i18n import _

_MARKS: dict[Terrain, str] = {Terrain.PLAIN: " ", Terrain.FOREST: "♣", Terrain.HILL: "▲"}
"""Terminal marks of the terrain tokens (their colours are in terrain.yaml)."""
_PATTERNS: dict[Terrain, Literal["", "dots", "peak"]] = {
    Terrain.PLAIN: "", Terrain.FOREST: "dots", Terrain.HILL: "peak",
}
"""Drawings over the terrain colour in the picture: trees on a forest, a peak on a hill."""


def board_view(state: CyrusState) -> BoardView:
    """Returns the board as data for the terminal and PNG renderers."""
    s = state
    tables, grid = s.tables, s.tables.grid
    occ = occupancy(s)
    last = s.where.get(s.moved[-1]) if s.moved else None
    cells: list[CellView] = []
    for c in grid.cells():
        here = list(occ.at(c))
        if len(here) > 1 and here[0].side is not s.active:
            here.reverse()  # attacker first
        marks: tuple[str, ...] = ("combat",) if len(here) > 1 else ()
        marks += ("last",) if last == c else ()
        marks += ("king",) if any(lg.kind is Kind.KING for lg in here) else ()  # I: the piece the game turns on
        r, col = divmod(c, grid.cols)
        cells.append(CellView(
            name=grid.name(c), terrain=s.terrain_at(c).value, at=(col, r), centre=grid.centre(c),
            counters=tuple(Counter(side=lg.side.value, label=lg.short) for lg in here[:2]), marks=marks,
        ))
    legend = tuple(
        (lg.short, f"{lg.name} ({tables.kinds[lg.kind].label.lower()})", lg.side.value)
        for lg in tables.legions if lg.name in s.where
    )
    return BoardView(
        title="Cyrus & Pyxis", layout="square", rows=grid.rows, cols=grid.cols,
        row_labels=tuple(grid.name(grid.cell(r, 0))[:-1] for r in range(grid.rows)),
        col_labels=tuple(str(c + 1) for c in range(grid.cols)), cells=tuple(cells),
        terrain={t.value: TerrainStyle(colour=tables.terrain[t].colour, mark=_MARKS[t], pattern=_PATTERNS[t],
                                       label=tables.terrain[t].label.lower()) for t in Terrain},
        side_colours={"greek": tables.board.side_colours.greek, "persian": tables.board.side_colours.persian},
        side_marks={"greek": ">", "persian": "<"},
        marks={"combat": MarkStyle("*", (230, 0, 0), "pending combat"),
               "last": MarkStyle("!", (250, 200, 0), "last move"),
               "king": MarkStyle("♔", (20, 20, 20), "king")},
        legend=legend, status=tuple(status_lines(s)),
        edges=("", "East: Greek king exits", "", "West: Persian king exits"),
    )

def status_lines(state: CyrusState) -> list[str]:
    """Returns short lines on the turn, phase and what the game waits for."""
    s = state
    grid = s.tables.grid
    if s.phase is Phase.SETUP:
        side, what, count, placed = setup_progress(s)
        lines = [f"Set-up: the {side.label} lays {PLURAL[what]} ({placed} of {count} placed)"]
        for other in (side, side.other) if what == "legions" else ():
            waiting = [lg.name for lg in s.tables.of_side[other] if lg.name not in s.where]
            if waiting:
                lines.append(_("To place ({side}): {names}").format(side=other.label, names=", ".join(waiting)))
        return lines
    if s.phase is Phase.OVER:
        return [f"Game over: {s.win_reason}"]
    step = {Phase.MOVE: "movement", Phase.SUPPORT: "support declarations", Phase.COMBAT: "combat",
            Phase.ANY: "umpire position"}[s.phase]
    lines = [f"Turn {s.turn}: {s.active.label} to play ({step})"]
    if s.phase is Phase.SUPPORT and s.declaring:
        lines.append(f"The {s.declaring.label} declares archer supports now (or types done)")
    if s.moved:  # V: the infantry quota and one legion of each other type, so each says its type
        kinds = [s.tables.by_id[n].kind for n in s.moved]
        infantry = kinds.count(Kind.INFANTRY)
        moved = ", ".join(f"{n} ({k})" for n, k in zip(s.moved, kinds, strict=True))
        lines.append(_("Moved: {moved}; infantry {n} of 5").format(moved=moved, n=infantry))
    occ = occupancy(s)
    fights = []
    for c in occ.combats():
        a = occ.side_at(c, s.active)
        d = occ.side_at(c, s.active.other)
        if a and d:
            fights.append(f"{a.name} vs {d.name} on {grid.name(c)}")
    if fights:
        lines.append("Combats: " + "; ".join(fights))
        if s.phase is Phase.COMBAT:
            lines.append(_("The combats wait to be resolved: type resolve"))
    if s.supports:
        lines.append("Supports: " + ", ".join(f"{a} → {lg}" for a, lg in s.supports.items()))
    return lines
