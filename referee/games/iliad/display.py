"""What the CLI shows of an Iliad game: the board, the status lines and the umpire reports."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from referee.game import BoardView, CellView, Counter, MarkStyle, TerrainStyle
from referee.games.iliad.combat import CombatResult
from referee.games.iliad.position import IliadPosition
from referee.games.iliad.roster import Side
from referee.games.iliad.state import IliadState, Phase, occupancy
from referee.geometry.search import Cell
from referee.rulings import Ruling


class LegalReport(BaseModel):
    """``referee legal``: where a counter may end its move, whom it attacks there, whom it may shoot."""

    model_config = ConfigDict(frozen=True)

    counter: str
    side: Side
    value: str
    square: str | None
    allowance: int
    cells: tuple[str, ...] = Field(default=(), description="Squares it may end its move on.")
    attacks: dict[str, tuple[str, ...]] = Field(default_factory=dict, description="Square -> enemies attacked there.")
    attack_here: tuple[str, ...] = Field(default=(), description="Enemies it may attack without moving.")
    shots: tuple[str, ...] = Field(default=(), description="Enemies an archer may shoot from where it stands.")
    why_not: tuple[Ruling, ...] = Field(default=(), description="Why it can do nothing now, if so.")
    provisional: tuple[str, ...] = ()

    def explain(self) -> list[str]:
        """Returns the report as lines for the terminal."""
        where = f"on {self.square}" if self.square else "off the map"
        lines = [f"{self.counter} ({self.side.adjective}, value {self.value}, moves {self.allowance}) {where}"]
        if self.cells:
            marked = [f"{c}!" if c in self.attacks else c for c in self.cells]
            lines.append(f"may end on {len(self.cells)} square(s): {' '.join(marked)}   (! = attacks)")
            for cell, targets in self.attacks.items():
                lines.append(f"  {cell}: attacks {', '.join(targets)}")
        if self.attack_here:
            lines.append(f"may attack without moving: {', '.join(self.attack_here)}")
        if self.shots:
            lines.append(f"may shoot: {', '.join(self.shots)}")
        for r in self.why_not:
            lines.append(f"✗ {r.message} [{r.code}] ({'; '.join(str(c) for c in r.cites)})")
        lines += [f"⚠ relies on {p}" for p in self.provisional]
        return lines


class IliadResolution(BaseModel):
    """``referee resolve``: the shots, duels and battles in order, and the resulting position."""

    model_config = ConfigDict(frozen=True)

    results: tuple[CombatResult, ...]
    events: tuple[Ruling, ...]
    winner: Side | None = None
    provisional: tuple[str, ...] = ()
    position: IliadPosition

    def explain(self) -> list[str]:
        """Returns the resolution as lines for the terminal."""
        lines = [f"{i}. {r.summary()}" for i, r in enumerate(self.results, start=1)] or ["no combat to resolve"]
        skip = {"duel", "battle", "arrow-killed", "arrow-wounded", "arrow-nothing"}
        lines += [f"→ {e.message}" for e in self.events if e.code not in skip]
        lines += [f"⚠ relies on {p}" for p in self.provisional]
        return lines



def board_view(s: IliadState) -> BoardView:
    """Returns the board as data: terrain (ships, Troy and the camp drawn apart), counters, combats."""
    board = s.tables.board
    grid = board.grid
    occ = occupancy(s)
    fighting = {a.attacker for a in s.attacks} | {t for a in s.attacks for t in a.targets}
    fighting |= {x.archer for x in s.shots} | {x.target for x in s.shots}
    last = s.moved[-1] if s.moved else None
    cells: list[CellView] = []
    for c in grid.cells():
        who = occ.get(c)
        counter = s.counter(who) if who else None
        counters: tuple[Counter, ...] = ()
        if counter is not None:
            label = counter.short + ("+" if counter.id in s.wounded else "")
            counters = (Counter(side=counter.side.value, label=label),)
        marks: tuple[str, ...] = ("combat",) if who in fighting else ()
        marks += ("last",) if who is not None and who == last else ()
        r, col = divmod(c, grid.cols)
        cells.append(CellView(
            name=grid.name(c), terrain=_display_terrain(s, c), at=(col, r), centre=grid.centre(c),
            counters=counters, marks=marks,
        ))
    styles = {t.value: TerrainStyle(colour=style.colour, mark=_MARKS[t.value], pattern=_PATTERNS.get(t.value, ""),
                                    label=t.value) for t, style in board.styles.items()}
    styles.update({name: TerrainStyle(colour=rgb, mark=_MARKS[name], label=name)
                   for name, rgb in _EXTRA_COLOURS.items()})
    legend = tuple(
        (c.short, f"{c.id} ({c.value_label}){' wounded' if c.id in s.wounded else ''}", c.side.value)
        for c in s.tables.roster.counters if c.id in s.where
    )
    return BoardView(
        title=f"Iliad — day {s.day}, hour {s.hour}", layout="square", rows=grid.rows, cols=grid.cols,
        row_labels=tuple(grid.name(grid.cell(r, 0))[:-1] for r in range(grid.rows)),
        col_labels=tuple(str(c + 1) for c in range(grid.cols)), cells=tuple(cells),
        terrain=styles, side_colours={side.value: rgb for side, rgb in s.tables.colours.items()},
        side_marks=_SIDE_MARKS,
        marks={"combat": MarkStyle("*", (230, 0, 0), "pending combat"),
               "last": MarkStyle("!", (250, 200, 0), "last move")},
        legend=legend, status=tuple(status_lines(s)), edges=("Sea (Greek side)", "", "Troy (Trojan side)", ""),
    )


def status_lines(s: IliadState) -> list[str]:
    """Returns short lines on the day, the hour, the move and what is pending."""
    if s.phase is Phase.SETUP:
        left = {side: sum(1 for c in s.tables.roster.side(side) if c.id not in s.where) for side in Side}
        return [f"Set-up: {left[Side.GREEK]} Greek and {left[Side.TROJAN]} Trojan counters still to place"]
    if s.phase is Phase.OVER:
        return [f"Game over: {s.win_reason}"]
    cal = s.tables.calendar
    head = f"Day {s.day} of {cal.days}, hour {s.hour} of {cal.hours}"
    if s.phase is Phase.NIGHT:
        lost = ", ".join(f"{side.label} lost {s.points_lost(side)}" for side in Side)
        return [f"Night after day {s.day}: {lost} points today; play referee night"]
    if s.phase is Phase.DUEL:
        duel = cal.duel(s.day, s.hour)
        assert duel is not None
        lines = [f"{head}: scheduled duel {duel.greek} v {duel.trojan} (type resolve)"]
    else:
        lines = [f"{head}: {s.side.adjective} move"]
    favoured = s.favoured()
    if favoured is not None:
        lines.append(f"The gods favour the {favoured.label} this hour: their value-1 counters double")
    lines.append(f"Wall {'standing' if s.wall else 'not built'}; Achilles "
                 f"{'sulks' if s.achilles_sulks else 'fights'}")
    if s.wounded:
        lines.append(f"Wounded: {', '.join(s.wounded)}")
    if s.attacks:
        lines.append("Attacks: " + "; ".join(f"{a.attacker} → {', '.join(a.targets)}" for a in s.attacks))
    if s.shots:
        lines.append("Shots: " + "; ".join(f"{x.archer} → {x.target}" for x in s.shots))
    others = [m for m in s.moved if m not in {a.attacker for a in s.attacks} | {x.archer for x in s.shots}]
    if others:
        lines.append(f"Moved: {', '.join(others)}")
    return lines


_MARKS: dict[str, str] = {
    "plain": " ", "sea": "~", "shore": "≈", "river": "≋", "hill": "▲", "mountain": "◆", "wall": "#",
    "ship": "Ψ", "troy": "♜", "camp": "·",
}
_PATTERNS: dict[str, Literal["", "dots", "peak", "waves", "cross"]] = {"hill": "peak", "mountain": "peak"}
_SIDE_MARKS = {"greek": "^", "trojan": "v"}
"""Greeks come from the sea at the top edge, Trojans from Troy at the bottom."""
_EXTRA_COLOURS: dict[str, tuple[int, int, int]] = {"ship": (120, 75, 40), "troy": (170, 165, 150),
                                                   "camp": (210, 190, 140)}


def _display_terrain(s: IliadState, cell: Cell) -> str:
    square = s.tables.board.squares[cell]
    if square.ship:
        return "ship"
    if square.troy:
        return "troy"
    if square.camp and square.terrain.value == "plain":
        return "camp"
    return square.terrain.value
