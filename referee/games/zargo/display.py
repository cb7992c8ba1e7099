"""What the referee shows of Zargo's world: the hex map as a :class:`~referee.game.BoardView`.

The styles (terrain colours and marks, the bridges' colour, each people's mark) come from
``tables/zargo/display.yaml`` and the peoples' colours from ``peoples.yaml``; the renderers
draw whatever the view holds, so nothing here or there names a terrain in code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from referee.errors import InputFileError
from referee.game import BoardView, CellView, Counter, LinkView, MarkStyle, TerrainStyle
from referee.games.zargo.data import PeoplesFile
from referee.games.zargo.world import Terrain, World

__all__ = ["DisplayFile", "load_display", "load_peoples", "world_view"]

TERRAIN_KEYS: dict[Terrain, str] = {
    Terrain.SEA: "sea", Terrain.PLAIN: "plain", Terrain.WOODS: "woods", Terrain.MOUNTAINS: "mountains",
    Terrain.CHASM: "chasm",
}
"""The key of each terrain in display.yaml (the map file writes one character)."""

People = Literal["chevaliers", "ailes", "dragons", "moines"]


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TerrainRow(_Strict):
    """How one terrain is drawn."""

    label: str = Field(max_length=40, description="Name in the key.")
    colour: tuple[int, int, int] = Field(description="RGB fill.")
    mark: str = Field(min_length=2, max_length=2, description="Two characters drawn in the terminal.")
    pattern: Literal["", "dots", "peak", "waves", "cross"] = Field(default="", description="Drawn over the fill.")


class LinkRow(_Strict):
    """How the cloud bridges are drawn."""

    label: str = Field(max_length=40)
    colour: tuple[int, int, int]


class WrapRow(_Strict):
    """How the lettered edge hexes are named in the key."""

    label: str = Field(max_length=60)


class DisplayFile(_Strict):
    """Schema of ``tables/zargo/display.yaml``."""

    provenance: Literal["rulebook", "secondary", "interpretation", "provisional"] = "interpretation"
    terrain: dict[str, TerrainRow] = Field(description="sea, plain, woods, mountains and chasm, each once.")
    bridges: LinkRow
    wrap: WrapRow
    peoples: dict[People, str] = Field(description="One character per people, before its counters' labels.")

    def model_post_init(self, context: object) -> None:
        missing = set(TERRAIN_KEYS.values()) - set(self.terrain)
        unknown = set(self.terrain) - set(TERRAIN_KEYS.values())
        if missing or unknown:
            raise ValueError(f"terrain: missing {sorted(missing)}, unknown {sorted(unknown)}")
        if any(len(m) != 1 for m in self.peoples.values()):
            raise ValueError("peoples: each mark is one character")


MARKS = {"combat": MarkStyle("*", (230, 0, 0), "pending combat"), "last": MarkStyle("!", (250, 200, 0), "last move")}
"""The marks a Zargo view may put on a hex."""


def _letters(world: World) -> str:
    letters = sorted(world.wrap)
    return letters[0] if len(letters) == 1 else f"{letters[0]}-{letters[-1]}"


def _load(path: str, model: type[BaseModel], what: str) -> BaseModel:
    from referee.files import load_data

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
        status=(*status, f"{_letters(world)}: {style.wrap.label}") if world.wrap else tuple(status),
        edges=("North", "East", "South", "West"),
        down=grid.down,
    )
