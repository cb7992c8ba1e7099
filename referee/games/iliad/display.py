"""What the CLI shows of an Iliad game: the board, the status lines and the umpire reports."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from referee.disclosures import relies_on_lines
from referee.game import BoardView, CellView, Counter, MarkStyle, TerrainStyle
from referee.games.iliad.combat import CombatResult
from referee.games.iliad.movement import RESOLVE_WORD
from referee.games.iliad.position import IliadPosition
from referee.games.iliad.roster import Side
from referee.games.iliad.sequence import outcome_ruling
from referee.games.iliad.state import IliadState, Phase, occupancy
from referee.geometry.search import Cell
from referee.i18n import N_, _, ngettext
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
        """Returns the report as lines for the terminal, in the active language."""
        args = {"counter": self.counter, "adjective": _(self.side.adjective), "value": self.value,
                "allowance": self.allowance, "square": self.square}
        lines = [(_("{counter} ({adjective}, value {value}, moves {allowance}) on {square}") if self.square
                  else _("{counter} ({adjective}, value {value}, moves {allowance}) off the map")).format(**args)]
        if self.cells:
            marked = [f"{c}!" if c in self.attacks else c for c in self.cells]
            lines.append(ngettext("may end on {n} square: {squares}   (! = attacks)",
                                  "may end on {n} squares: {squares}   (! = attacks)",
                                  len(self.cells)).format(n=len(self.cells), squares=" ".join(marked)))
            for cell, targets in self.attacks.items():
                lines.append(_("  {square}: attacks {enemies}").format(square=cell, enemies=", ".join(targets)))
        if self.attack_here:
            lines.append(_("may attack without moving: {enemies}").format(enemies=", ".join(self.attack_here)))
        if self.shots:
            lines.append(_("may shoot: {enemies}").format(enemies=", ".join(self.shots)))
        for r in self.why_not:
            lines.append(f"✗ {r.text()} [{r.code}] ({'; '.join(str(c) for c in r.cites)})")
        lines += relies_on_lines(self.provisional)
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
        """Returns the resolution as lines for the terminal, in the active language."""
        lines = [f"{i}. {r.summary()}" for i, r in enumerate(self.results, start=1)] or [_("no combat to resolve")]
        skip = {"duel", "battle", "arrow-killed", "arrow-wounded", "arrow-nothing"}
        lines += [f"→ {e.text()}" for e in self.events if e.code not in skip]
        lines += relies_on_lines(self.provisional)
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
                                    label=_(TERRAIN_WORDS[t.value])) for t, style in board.styles.items()}
    styles.update({name: TerrainStyle(colour=rgb, mark=_MARKS[name], label=_(TERRAIN_WORDS[name]))
                   for name, rgb in _EXTRA_COLOURS.items()})
    legend = tuple(
        (c.short, (_("{counter} ({value}) wounded") if c.id in s.wounded else "{counter} ({value})").format(
            counter=c.id, value=c.value_label), c.side.value)
        for c in s.tables.roster.counters if c.id in s.where
    )
    return BoardView(
        title=_("Iliad — day {day}, hour {hour}").format(day=s.day, hour=s.hour), layout="square", rows=grid.rows,
        cols=grid.cols,
        row_labels=tuple(grid.name(grid.cell(r, 0))[:-1] for r in range(grid.rows)),
        col_labels=tuple(str(c + 1) for c in range(grid.cols)), cells=tuple(cells),
        terrain=styles, side_colours={side.value: rgb for side, rgb in s.tables.colours.items()},
        side_marks=_SIDE_MARKS,
        marks={"combat": MarkStyle("*", (230, 0, 0), _("pending combat")),
               "last": MarkStyle("!", (250, 200, 0), _("last move"))},
        legend=legend, status=tuple(status_lines(s)),
        edges=(_("Sea (Greek side)"), "", _("Troy (Trojan side)"), ""),
    )


def status_lines(s: IliadState) -> list[str]:
    """Returns short lines on the day, the hour, the move and what is pending (active language)."""
    if s.phase is Phase.SETUP:
        left = {side: sum(1 for c in s.tables.roster.side(side) if c.id not in s.where) for side in Side}
        return [_("Set-up: {greek} Greek and {trojan} Trojan counters still to place").format(
            greek=left[Side.GREEK], trojan=left[Side.TROJAN])]
    if s.phase is Phase.OVER:
        return [_("Game over: {reason}").format(reason=outcome_ruling(s).message)]
    cal = s.tables.calendar
    head = _("Day {day} of {days}, hour {hour} of {hours}").format(day=s.day, days=cal.days, hour=s.hour,
                                                                   hours=cal.hours)
    if s.phase is Phase.NIGHT:
        return [_("Night after day {day}: the Greeks lost {greek} points today, the Trojans {trojan}; play referee "
                  "night").format(day=s.day, greek=s.points_lost(Side.GREEK), trojan=s.points_lost(Side.TROJAN))]
    if s.phase is Phase.DUEL:
        duel = cal.duel(s.day, s.hour)
        assert duel is not None
        lines = [_("{head}: scheduled duel {greek} v {trojan} (type {resolve})").format(
            head=head, greek=duel.greek, trojan=duel.trojan, resolve=_(RESOLVE_WORD))]
    else:
        lines = [(_("{head}: Greek move") if s.side is Side.GREEK else _("{head}: Trojan move")).format(head=head)]
    favoured = s.favoured()
    if favoured is not None:
        lines.append(_("The gods favour the {side} this hour: their value-1 counters double").format(
            side=_(favoured.label)))
    wall = _("Wall standing") if s.wall else _("Wall not built")
    achilles = _("Achilles sulks") if s.achilles_sulks else _("Achilles fights")
    lines.append(_("{wall}; {achilles}").format(wall=wall, achilles=achilles))
    if s.wounded:
        lines.append(_("Wounded: {counters}").format(counters=", ".join(s.wounded)))
    if s.attacks:
        lines.append(_("Attacks: {attacks}").format(
            attacks="; ".join(f"{a.attacker} → {', '.join(a.targets)}" for a in s.attacks)))
    if s.shots:
        lines.append(_("Shots: {shots}").format(shots="; ".join(f"{x.archer} → {x.target}" for x in s.shots)))
    others = [m for m in s.moved if m not in {a.attacker for a in s.attacks} | {x.archer for x in s.shots}]
    if others:
        lines.append(_("Moved: {counters}").format(counters=", ".join(others)))
    return lines


_MARKS: dict[str, str] = {
    "plain": " ", "sea": "~", "shore": "≈", "river": "≋", "hill": "▲", "mountain": "◆", "wall": "#",
    "ship": "Ψ", "troy": "♜", "camp": "·",
}
_PATTERNS: dict[str, Literal["", "dots", "peak", "waves", "cross"]] = {"hill": "peak", "mountain": "peak"}
_SIDE_MARKS = {"greek": "^", "trojan": "v"}
"""Greeks come from the sea at the top edge, Trojans from Troy at the bottom."""
TERRAIN_WORDS: dict[str, str] = {
    "plain": N_("plain"), "sea": N_("sea"), "shore": N_("shore"), "river": N_("river"), "hill": N_("hill"),
    "mountain": N_("mountain"), "wall": N_("wall"), "ship": N_("ship"), "troy": N_("Troy"), "camp": N_("camp"),
}
"""The words of the board's legend, translated when the board is drawn."""
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
