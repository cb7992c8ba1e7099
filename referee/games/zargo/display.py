"""What the referee shows of Zargo's world: the hex map as a :class:`~referee.game.BoardView`,
and the status lines of a game.

The styles (terrain colours and marks, the bridges' colour, each people's mark) come from
``tables/zargo/display.yaml`` and the peoples' colours from ``peoples.yaml``; the renderers
draw whatever the view holds, so nothing here or there names a terrain in code.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ValidationError

from referee.errors import InputFileError
from referee.files import load_data
from referee.game import BoardView, CellView, Counter, LinkView, MarkStyle, TerrainStyle
from referee.games.zargo.sequence import city_counts
from referee.games.zargo.state import MONTHS, Phase, ZargoState
from referee.games.zargo.tables import TERRAIN_KEYS, DisplayFile, PeoplesFile
from referee.games.zargo.world import World
from referee.i18n import N_, _, ngettext

__all__ = ["TERRAIN_KEYS", "DisplayFile", "board_view", "load_display", "load_peoples", "status", "world_view"]

MARKS = {"combat": MarkStyle("*", (230, 0, 0), "pending combat"), "last": MarkStyle("!", (250, 200, 0), "last move")}
"""The marks a Zargo view may put on a hex."""


def _letters(world: World) -> str:
    letters = sorted(world.wrap)
    return letters[0] if len(letters) == 1 else f"{letters[0]}-{letters[-1]}"


def _load(path: str, model: type[BaseModel], what: str) -> BaseModel:

    raw = load_data(path, what=what)
    if not isinstance(raw, dict):
        raise InputFileError(path, "", f"a {what} is a mapping")
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise InputFileError(path, ".".join(str(p) for p in err["loc"]), str(err["msg"])) from None


def load_display(path: str) -> DisplayFile:
    """Returns the drawing styles of a display file (guarded reading).

    Raises:
        InputFileError: unreadable, malformed, or a field the schema refuses (file: field: problem).
    """
    found = _load(path, DisplayFile, "display file")
    assert isinstance(found, DisplayFile)
    return found


def load_peoples(path: str) -> PeoplesFile:
    """Returns the peoples file (their colours are the counters' colours).

    Raises:
        InputFileError: unreadable, malformed, or a field the schema refuses.
    """
    found = _load(path, PeoplesFile, "peoples file")
    assert isinstance(found, PeoplesFile)
    return found


def world_view(
    world: World,
    style: DisplayFile,
    peoples: PeoplesFile,
    stacks: Mapping[str, Sequence[Counter]] | None = None,
    marks: Mapping[str, Sequence[str]] | None = None,
    status: Sequence[str] = (),
) -> BoardView:
    """Returns the world as a hex board: terrain, wrap letters on the edge hexes, cloud bridges as
    links, and the counters of ``stacks`` (hex name -> counters, top first) with ``marks`` (hex name
    -> ``last``/``combat``)."""
    grid = world.grid
    stacks = stacks or {}
    marks = marks or {}
    letters = {cell: letter for letter, pair in world.wrap.items() for cell in pair}
    cells = []
    for c in grid.cells():
        name = grid.name(c)
        cells.append(CellView(
            name=name, terrain=TERRAIN_KEYS[world.terrain[c]], at=grid.cr(c), centre=grid.centre(c),
            counters=tuple(stacks.get(name, ())), marks=tuple(marks.get(name, ())), tag=letters.get(c, ""),
        ))
    terrain = {key: TerrainStyle(colour=row.colour, mark=row.mark, pattern=row.pattern, label=row.label)
               for key, row in style.terrain.items()}
    bridge = style.bridges
    return BoardView(
        title=world.name, layout="hex", rows=grid.rows, cols=grid.cols,
        row_labels=tuple(f"{r + 1:02d}" for r in range(grid.rows)),
        col_labels=tuple(f"{c + 1:02d}" for c in range(grid.cols)),
        cells=tuple(cells), terrain=terrain,
        side_colours={name: p.colour for name, p in sorted(peoples.peoples.items(), key=lambda kv: kv[1].order)},
        side_marks={str(people): mark for people, mark in style.peoples.items()},
        marks=MARKS,
        links=tuple(LinkView(grid.name(a), grid.name(b), bridge.colour, bridge.label) for a, b in world.bridges),
        status=(*status, f"{_letters(world)}: {_(style.wrap.label)}") if world.wrap else tuple(status),
        edges=(_("North"), _("East"), _("South"), _("West")),
        down=grid.down,
    )


def board_view(state: ZargoState, status: Sequence[str]) -> BoardView:
    """Returns what the shared table sees: counters face up, cities with their garrison's size
    once shown (``V?`` while face down), vanished Monks' markers, hexes under attack."""
    t = state.tables
    stacks: dict[str, list[Counter]] = {}
    for h, stack in state.board.items():
        stacks[h] = [Counter(side=t.units[lab].people, label=lab) for lab in stack]
    for h, city in state.cities.items():
        label = "V?" if city.hidden else f"V{len(city.garrison or ())}"
        stacks[h] = [Counter(side=city.owner, label=label, hidden=False)]
    for h, (lab, _m) in state.vanished.items():
        stacks.setdefault(h, []).append(Counter(side=t.units[lab].people, label="MD"))
    marks = {h: ["combat"] for h in state.attacks}
    view = world_view(t.world, t.display, t.peoples, stacks, marks, status)
    shown = {"V?": any(c.hidden for c in state.cities.values()),
             "V0, V1, …": any(not c.hidden for c in state.cities.values()), "MD": bool(state.vanished)}
    return dataclasses.replace(view, codes=tuple((code, meaning) for code, meaning in CODES if shown[code]))


CODES = (
    ("V?", N_("a city whose garrison is still sealed")),
    ("V0, V1, …", N_("a city and the number of counters in its garrison, once shown")),
    ("MD", N_("the marker of a Monk who vanished")),
)
"""The codes drawn on cities and vanished Monks' hexes (code, meaning), explained under the board
when one of them is on it."""


def status(state: ZargoState, winners: tuple[str, ...] | None) -> list[str]:
    """Returns the status lines: the phase, the month and the people to play, cities held,
    alliances, and whose input the game waits for (``winners``: None while the game goes on)."""
    s = state
    if s.phase is Phase.PLAYERS:
        return [_("Zargo's Lords: how many players? (players 2, players 3, players 4)")]
    if s.phase is Phase.SETUP:
        if s.active is None:
            return [_("set-up done; seal garrisons not sealed yet (referee seal garrison-HEX --as PEOPLE), "
                      "then: start")]
        return [_("set-up of the {people}: cities, then garrisons (referee seal), then counters, then ready").format(
            people=_(s.active))]
    counts = city_counts(s)
    cities = ", ".join(f"{_(p)} {counts[p]}" for p in s.peoples)
    if winners is not None:
        names = ", ".join(_(w) for w in winners) or _("nobody")
        return [ngettext("game over: {winners} wins; cities {cities}", "game over: {winners} win; cities {cities}",
                         max(len(winners), 1)).format(winners=names, cities=cities)]
    lines = [_("month {month} of {months}: the {people} play").format(month=s.month, months=MONTHS,
                                                                       people=_(str(s.active))),
             _("cities held: {cities}").format(cities=cities)]
    if s.alliances:
        lines.append(_("alliances: {pairs}").format(pairs=", ".join(s.alliances)))
    if s.proposal:
        lines.append(_("awaiting the {b}: accept or refuse the {a}' alliance").format(a=s.proposal[0], b=s.proposal[1]))
    if s.phase is Phase.REVEAL and s.reveal_wait:
        city = s.cities[s.reveal_wait]
        if city.lost:
            lines.append(_("awaiting the {owner}: seal the garrison of {hex} again (referee seal garrison-{hex} "
                           "--as {owner}), then reveal it").format(owner=city.owner, hex=s.reveal_wait))
        else:
            lines.append(_("awaiting the {owner}: reveal the garrison of {hex} (referee reveal garrison-{hex} "
                           "--as {owner})").format(owner=city.owner, hex=s.reveal_wait))
    if s.carry is not None:
        lines.append(_("the Serpent on {hex} may carry on: carry, or resolve to stop").format(hex=s.carry[0]))
    if s.attacks or s.shots:
        attacks = ngettext("{n} attack", "{n} attacks", len(s.attacks)).format(n=len(s.attacks))
        shots = ngettext("{n} shot", "{n} shots", len(s.shots)).format(n=len(s.shots))
        lines.append(_("declared: {attacks}, {shots}").format(attacks=attacks, shots=shots))
    return lines
