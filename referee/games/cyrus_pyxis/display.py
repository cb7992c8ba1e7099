"""How a Cyrus & Pyxis state is shown: the board as data (terminal and PNG), the status lines, and
the umpire's reports (``referee legal``, ``referee resolve`` on a position)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from referee.disclosures import relies_on_lines
from referee.game import BoardView, CellView, Counter, MarkStyle, TerrainStyle
from referee.games.cyrus_pyxis import actions as act
from referee.games.cyrus_pyxis.combat import CombatResult
from referee.games.cyrus_pyxis.position import CyrusPosition
from referee.games.cyrus_pyxis.sequence import setup_progress
from referee.games.cyrus_pyxis.state import CyrusState, occupancy, win_text
from referee.games.cyrus_pyxis.tables import PLURAL, Kind, Phase, Side, Terrain
from referee.i18n import N_, _, ngettext
from referee.rulings import Ruling

_MARKS: dict[Terrain, str] = {Terrain.PLAIN: " ", Terrain.FOREST: "♣", Terrain.HILL: "▲"}
"""Terminal marks of the terrain tokens (their colours are in terrain.yaml)."""
_PATTERNS: dict[Terrain, Literal["", "dots", "peak"]] = {
    Terrain.PLAIN: "", Terrain.FOREST: "dots", Terrain.HILL: "peak",
}
"""Drawings over the terrain colour in the picture: trees on a forest, a peak on a hill."""
STEP_WORDS: dict[Phase, str] = {
    Phase.SETUP: N_("set-up"), Phase.MOVE: N_("movement"), Phase.SUPPORT: N_("support declarations"),
    Phase.COMBAT: N_("combat"), Phase.OVER: N_("game end"), Phase.ANY: N_("umpire position"),
}
"""III: the steps of a turn as status lines and rulings name them (translated when shown)."""
_WORDS = (N_("Greek"), N_("Persian"), N_("greek"), N_("persian"), N_("plain"), N_("forest"), N_("hill"),
          N_("Plain"), N_("Forest"), N_("Hill"), N_("king"), N_("infantry"), N_("royal guard"), N_("archer"),
          N_("cavalry"), N_("elephant"), N_("phalanx"))
"""Words of tables/cyrus-pyxis that messages pass as arguments (sides, terrains, legion types)."""


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
        (lg.short, f"{lg.name} ({_(tables.kinds[lg.kind].label.lower())})", lg.side.value)
        for lg in tables.legions if lg.name in s.where
    )
    return BoardView(
        title="Cyrus & Pyxis", layout="square", rows=grid.rows, cols=grid.cols,
        row_labels=tuple(grid.name(grid.cell(r, 0))[:-1] for r in range(grid.rows)),
        col_labels=tuple(str(c + 1) for c in range(grid.cols)), cells=tuple(cells),
        terrain={t.value: TerrainStyle(colour=tables.terrain[t].colour, mark=_MARKS[t], pattern=_PATTERNS[t],
                                       label=_(tables.terrain[t].label.lower())) for t in Terrain},
        side_colours={"greek": tables.board.side_colours.greek, "persian": tables.board.side_colours.persian},
        side_marks={"greek": ">", "persian": "<"},
        marks={"combat": MarkStyle("*", (230, 0, 0), _("pending combat")),
               "last": MarkStyle("!", (250, 200, 0), _("last move")),
               "king": MarkStyle("♔", (20, 20, 20), _("king"))},
        legend=legend, status=tuple(status_lines(s)),
        edges=("", _("East: Greek king exits"), "", _("West: Persian king exits")),
    )

def status_lines(state: CyrusState) -> list[str]:
    """Returns short lines on the turn, phase and what the game waits for."""
    s = state
    grid = s.tables.grid
    if s.phase is Phase.SETUP:
        side, what, count, placed = setup_progress(s)
        lines = [_("Set-up: the {side} lays {what} ({placed} of {count} placed)").format(
            side=_(side.label), what=_(PLURAL[what]), placed=placed, count=count)]
        for other in (side, side.other) if what == "legions" else ():
            waiting = [lg.name for lg in s.tables.of_side[other] if lg.name not in s.where]
            if waiting:
                lines.append(_("To place ({side}): {names}").format(side=_(other.label), names=", ".join(waiting)))
        return lines
    if s.phase is Phase.OVER:
        return [_("Game over: {reason}").format(reason=win_text(s))]
    lines = [_("Turn {turn}: {side} to play ({step})").format(turn=s.turn, side=_(s.active.label),
                                                               step=_(STEP_WORDS[s.phase]))]
    if s.phase is Phase.SUPPORT and s.declaring:
        lines.append(_("The {side} declares archer supports now (or types done)").format(side=_(s.declaring.label)))
    if s.moved:  # V: the infantry quota and one legion of each other type, so each says its type
        kinds = [s.tables.by_id[n].kind for n in s.moved]
        infantry = kinds.count(Kind.INFANTRY)
        moved = ", ".join(f"{n} ({_(k.value)})" for n, k in zip(s.moved, kinds, strict=True))
        lines.append(_("Moved: {moved}; infantry {n} of 5").format(moved=moved, n=infantry))
    occ = occupancy(s)
    fights = []
    for c in occ.combats():
        a = occ.side_at(c, s.active)
        d = occ.side_at(c, s.active.other)
        if a and d:
            fights.append(_("{attacker} vs {defender} on {cell}").format(attacker=a.name, defender=d.name,
                                                                          cell=grid.name(c)))
    if fights:
        lines.append(_("Combats: {list}").format(list="; ".join(fights)))
        if s.phase is Phase.COMBAT:
            lines.append(_("The combats wait to be resolved: type resolve"))
    if s.supports:
        lines.append(_("Supports: {list}").format(list=", ".join(f"{a} → {lg}" for a, lg in s.supports.items())))
    return lines


class LegalReport(BaseModel):
    """``referee legal``: where a legion may end a move, or whom an archer may support."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    legion: str
    side: Side
    cell: str | None
    cells: tuple[str, ...] = Field(default=(), description="Cells it may end on (attacks included; 'off').")
    attacks: tuple[str, ...] = Field(default=(), description="Cells among them where it would attack.")
    supports: tuple[str, ...] | None = Field(default=None, description="For an archer: legions it may support.")
    why_not: tuple[Ruling, ...] = Field(default=(), description="Why it can do nothing now, if so.")
    deploy: bool = Field(default=False, description="In the set-up, not yet placed: cells are where it may be "
                                                    "deployed (why_not says when the set-up is not at its step).")
    provisional: tuple[str, ...] = Field(default=(), description="Stand-ins and readings the answer relies on.")

    def explain(self) -> list[str]:
        """Returns the report as lines for the terminal, in the active language."""
        side = _(self.side.label)
        if self.cell:
            lines = [_("{legion} ({side}) on {cell}").format(legion=self.legion, side=side, cell=self.cell)]
        elif self.deploy:
            lines = [_("{legion} ({side}) not yet deployed").format(legion=self.legion, side=side)]
        else:
            lines = [_("{legion} ({side}) eliminated").format(legion=self.legion, side=side)]
        if self.deploy:
            n = len(self.cells)
            lines.append((ngettext("may be deployed on {n} cell once the set-up reaches its legions: {cells}",
                                   "may be deployed on {n} cells once the set-up reaches its legions: {cells}", n)
                          if self.why_not else
                          ngettext("may be deployed on {n} cell: {cells}", "may be deployed on {n} cells: {cells}", n))
                         .format(n=n, cells=" ".join(self.cells)))
        elif self.cells:
            marked = " ".join(f"{act.GRAMMAR.say(c)}{'!' if c in self.attacks else ''}" for c in self.cells)
            lines.append(ngettext("may end on {n} cell: {cells}   (! = attack)",
                                  "may end on {n} cells: {cells}   (! = attack)", len(self.cells)).format(
                n=len(self.cells), cells=marked))
        if self.supports:
            lines.append(_("may support: {legions}").format(legions=", ".join(self.supports)))
        elif self.supports is not None and not self.cells:
            lines.append(_("may support no legion now"))
        for r in self.why_not:
            lines.append(f"✗ {r.text()} [{r.code}] ({'; '.join(str(c) for c in r.cites)})")
        return lines


class UmpireResolution(BaseModel):
    """``referee resolve``: the combats in order and the resulting position."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    results: tuple[CombatResult, ...]
    events: tuple[Ruling, ...]
    unresolved: tuple[str, ...] = ()
    winner: Side | None = None
    provisional: tuple[str, ...] = ()
    position: CyrusPosition

    def explain(self) -> list[str]:
        """Returns the resolution as lines for the terminal."""
        lines = [e.text() for e in self.events if e.code == "combat-result"] or [_("no combat to resolve")]
        lines += [f"→ {e.text()}" for e in self.events if e.code != "combat-result"]
        lines += relies_on_lines(self.provisional)
        return lines
