"""Cyrus & Pyxis vocabulary and tables: sides, legion types, terrain, phases, the schemas of
``tables/cyrus-pyxis/*`` and the loaded :class:`CyrusTables` (state and positions build on them)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Annotated, Literal, NewType

from pydantic import Field, model_validator

from referee.base import Sourced, StrictModel, TwoSides, fold, lookup
from referee.errors import TableError
from referee.geometry.square import SquareGrid
from referee.i18n import N_, _
from referee.markers import MarkerLayout
from referee.phrases import form
from referee.rulings import Provenance, RulesIndex
from referee.tables import TableSet, by_digest, parse_csv, parse_csv_lines, parse_yaml

LegionId = NewType("LegionId", str)
CellName = NewType("CellName", str)


class Side(TwoSides):
    """The two players."""

    GREEK = "greek"
    PERSIAN = "persian"

    @property
    def retreat_step(self) -> int:
        """VI: column step of a retreat (Greek West, Persian East)."""
        return -1 if self is Side.GREEK else 1

    @property
    def label(self) -> str:
        """Capitalised name for messages ("Greek")."""
        return self.value.capitalize()


class Kind(StrEnum):
    """Legion types (Matériel II.3)."""

    KING = "king"
    INFANTRY = "infantry"
    GUARD = "guard"
    ARCHER = "archer"
    CAVALRY = "cavalry"
    ELEPHANT = "elephant"
    PHALANX = "phalanx"


class Terrain(StrEnum):
    """Cell terrain (Matériel II.2)."""

    PLAIN = "plain"
    FOREST = "forest"
    HILL = "hill"


class Phase(StrEnum):
    """Where the game stands. ``any`` is an umpire position that names no step."""

    SETUP = "setup"
    MOVE = "move"
    SUPPORT = "support"
    COMBAT = "combat"
    OVER = "over"
    ANY = "any"


SETUP_STEPS: tuple[tuple[Side, str, int], ...] = (
    (Side.GREEK, "forest", 14),  # II.1
    (Side.PERSIAN, "forest", 14),  # II.1
    (Side.GREEK, "hill", 6),  # II.2
    (Side.PERSIAN, "hill", 6),  # II.2
    (Side.GREEK, "legions", 20),  # II.3
    (Side.PERSIAN, "legions", 20),  # II.4
)
PLURAL: Mapping[str, str] = {"forest": N_("forests"), "hill": N_("hills"), "legions": N_("legions")}
"""What each set-up step lays, as messages name it (translated when shown)."""
NO_TERRAIN_NUMBERS = frozenset({1, 2, 11, 12})  # II.1, II.2
HOME_NUMBERS: Mapping[Side, frozenset[int]] = {
    Side.GREEK: frozenset({1, 2}),  # II.3
    Side.PERSIAN: frozenset({11, 12}),  # II.4
}




# ---------------------------------------------------------------------------------------------
# Table schemas




class KindRow(StrictModel):
    label: str = Field(description="English name of the type.")
    french: str = Field(description="The type's name in the rulebook.")
    mounted: bool = Field(description="IV.3: counts as mounted for a phalanx (cavalry, elephants).")
    provenance: Provenance


class LegionRow(StrictModel):
    name: str = Field(description="The legion's name as printed (Matériel II.3).")
    short: str = Field(min_length=1, max_length=3, description="Three-letter board label.")
    side: Side
    kind: Kind
    provenance: Provenance


class LegionsFile(StrictModel):
    kinds: dict[Kind, KindRow]
    legions: tuple[LegionRow, ...]

    @model_validator(mode="after")
    def _check(self) -> LegionsFile:
        missing = set(Kind) - set(self.kinds)
        if missing:
            raise ValueError(_("kinds: missing {kinds}").format(kinds=", ".join(sorted(missing))))
        for attr in ("name", "short"):
            seen: set[str] = set()
            for row in self.legions:
                key = fold(getattr(row, attr))
                if key in seen:
                    raise ValueError(_("legions: two legions share the {field} {value!r}").format(
                        field=attr, value=getattr(row, attr)))
                seen.add(key)
        for side in Side:
            kings = [r.name for r in self.legions if r.side is side and r.kind is Kind.KING]
            if len(kings) != 1:
                raise ValueError(_("legions: the {side} side needs exactly one king, has {n}").format(
                    side=_(side.value), n=len(kings)))
        return self


class ValueRow(StrictModel):
    kind: Kind
    versus: Literal["any", "foot", "mounted"]
    plain: int
    hill: int
    forest: int
    provenance: Provenance


class MovementRow(StrictModel):
    kind: Kind
    max_squares: int = Field(ge=1, le=12)
    provenance: Provenance


Result = Literal["defender-eliminated", "defender-retreats", "attacker-retreats", "attacker-eliminated"]


class ResultRow(StrictModel):
    min_difference: int | None = None
    max_difference: int | None = None
    result: Result
    provenance: Provenance

    def covers(self, d: int) -> bool:
        """True when the difference falls in this band."""
        lo_ok = self.min_difference is None or d >= self.min_difference
        hi_ok = self.max_difference is None or d <= self.max_difference
        return lo_ok and hi_ok


Valued = Sourced[Annotated[int, Field(ge=1, le=12)]]


class TerrainRow(StrictModel):
    label: str
    colour: tuple[int, int, int] = Field(description="RGB used to draw the terrain.")
    movement_cost: Valued = Field(description="Squares of allowance spent entering the cell.")


class TerrainFile(StrictModel):
    terrain: dict[Terrain, TerrainRow]

    @model_validator(mode="after")
    def _check(self) -> TerrainFile:
        missing = set(Terrain) - set(self.terrain)
        if missing:
            raise ValueError(_("missing terrain {terrains}").format(terrains=", ".join(sorted(missing))))
        return self


class GridSize(StrictModel):
    rows: int = Field(ge=4, le=26)
    cols: int = Field(ge=4, le=99)
    provenance: Provenance


class Orientation(StrictModel):
    west_edge: str = Field(description="The line along the West edge (a Persian king leaves there).")
    east_edge: str = Field(description="The line along the East edge (a Greek king leaves there).")
    provenance: Provenance


class SideColours(StrictModel):
    greek: tuple[int, int, int] = Field(description="RGB of Greek counters (violet, Matériel II.3).")
    persian: tuple[int, int, int] = Field(description="RGB of Persian counters (blue, Matériel II.3).")
    provenance: Provenance


class BoardFile(StrictModel):
    grid: GridSize
    orientation: Orientation
    side_colours: SideColours
    markers: MarkerLayout | None = Field(default=None, description="Printed corner markers (vision).")


@dataclass(frozen=True)
class Legion:
    """A legion of the roster."""

    name: LegionId
    short: str
    side: Side
    kind: Kind
    mounted: bool


# the stand-in lines a ruling stores in English (Looked.disclose), said again by phrases.say
VALUE_LINES = (form(N_("combat_values.csv: {kind} on {terrain} = {value} ({provenance})")),
               form(N_("combat_values.csv: {kind} vs {versus} on {terrain} = {value} ({provenance})")),
               form(N_("combat_results.csv: {band} → {result} ({provenance})")))
OPPONENTS = (N_("mounted"), N_("foot"))
"""The opponent columns of combat_values.csv, said in the reader's language."""


@dataclass(frozen=True)
class Looked:
    """A table value with its provenance and where it came from (for disclosures)."""

    value: int
    provenance: Provenance
    source: str

    def disclose(self) -> str:
        """Returns the disclosure line for verdicts."""
        return f"{self.source} = {self.value} ({self.provenance})"


@dataclass(frozen=True)
class CyrusTables:
    """Every Cyrus & Pyxis table, validated and indexed."""

    table_set: TableSet
    rules: RulesIndex
    grid: SquareGrid
    board: BoardFile
    legions: tuple[Legion, ...]
    kinds: Mapping[Kind, KindRow]
    values: Mapping[tuple[Kind, str], ValueRow]
    movement: Mapping[Kind, MovementRow]
    results: tuple[ResultRow, ...]
    terrain: Mapping[Terrain, TerrainRow]
    by_name: Mapping[str, Legion] = field(init=False)
    by_id: Mapping[str, Legion] = field(init=False)
    uniform_cost: bool = field(init=False)
    of_side: Mapping[Side, tuple[Legion, ...]] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "of_side", {s: tuple(lg for lg in self.legions if lg.side is s) for s in Side})
        object.__setattr__(self, "by_name", {fold(lg.name): lg for lg in self.legions})
        object.__setattr__(self, "by_id", {lg.name: lg for lg in self.legions})
        object.__setattr__(self, "uniform_cost", all(t.movement_cost.value == 1 for t in self.terrain.values()))

    def legion(self, name: str) -> Legion:
        """Returns a legion by name, accent- and case-insensitively.

        Raises:
            UnknownNameError: no legion has this name; suggests the closest.
        """
        return self.by_id.get(name) or lookup("legion", name, self.by_name, lambda lg: lg.name)

    def value(self, kind: Kind, terrain: Terrain, opponent: Kind) -> Looked:
        """VI.2, IV.3: the combat value of a legion type on a terrain against an opponent type."""
        if (kind, "any") in self.values:
            row = self.values[(kind, "any")]
            versus = ""
        else:
            versus = "mounted" if self.kinds[opponent].mounted else "foot"
            row = self.values[(kind, versus)]
        label = f"combat_values.csv: {kind}{' vs ' + versus if versus else ''} on {terrain}"
        return Looked(getattr(row, terrain.value), row.provenance, label)

    def allowance(self, kind: Kind) -> Looked:
        """V: how many squares a legion type may move."""
        row = self.movement[kind]
        return Looked(row.max_squares, row.provenance, f"movement.csv: {kind}")

    def result(self, difference: int) -> ResultRow:
        """VI.3: the result band for a difference (the schema guarantees exactly one)."""
        for row in self.results:
            if row.covers(difference):
                return row
        raise AssertionError(f"no result band covers {difference}")

    def cost(self, terrain: Terrain) -> int:
        """The allowance spent entering a cell of this terrain."""
        return self.terrain[terrain].movement_cost.value

    def interpretation_choice(self, ident: str) -> str:
        """Returns the reading applied for an interpretation (may be overridden by a user)."""
        return self.rules.interpretation(ident).choice


@by_digest
def load_tables(ts: TableSet) -> CyrusTables:
    """Returns the validated tables of a table set (cached by content hash).

    Raises:
        TableError: a file is missing or malformed (file: field: problem).
    """
    rules = parse_yaml(ts.label("rules.yaml"), ts.text("rules.yaml"), RulesIndex)
    legions_file = parse_yaml(ts.label("legions.yaml"), ts.text("legions.yaml"), LegionsFile)
    board = parse_yaml(ts.label("board.yaml"), ts.text("board.yaml"), BoardFile)
    terrain = parse_yaml(ts.label("terrain.yaml"), ts.text("terrain.yaml"), TerrainFile)
    value_rows = parse_csv_lines(ts.label("combat_values.csv"), ts.text("combat_values.csv"), ValueRow)
    move_rows = parse_csv(ts.label("movement.csv"), ts.text("movement.csv"), MovementRow)
    result_lines = parse_csv_lines(ts.label("combat_results.csv"), ts.text("combat_results.csv"), ResultRow)
    result_rows = [row for _line, row in result_lines]

    values: dict[tuple[Kind, str], ValueRow] = {}
    for n, v in value_rows:
        if (v.kind, v.versus) in values:
            where = _("line {n} ({first})").format(n=n, first=v.kind)
            raise TableError(ts.label("combat_values.csv"), where, _("{kind} vs {versus} is listed twice").format(
                kind=v.kind, versus=v.versus))
        values[(v.kind, v.versus)] = v
    for kind in Kind:
        has_any = (kind, "any") in values
        has_pair = (kind, "foot") in values and (kind, "mounted") in values
        if not has_any and not has_pair:
            problem = _("no value for {kind} (need 'any', or 'foot' and 'mounted')").format(kind=kind)
            raise TableError(ts.label("combat_values.csv"), "kind", problem)
    movement = {m.kind: m for m in move_rows}
    for kind in Kind:
        if kind not in movement:
            raise TableError(ts.label("movement.csv"), "kind", _("no allowance for {kind}").format(kind=kind))
    _check_bands(ts.label("combat_results.csv"), result_lines)
    legions = tuple(
        Legion(LegionId(r.name), r.short, r.side, r.kind, legions_file.kinds[r.kind].mounted)
        for r in legions_file.legions
    )
    rules.require(ts.label("rules.yaml"), _INTERPRETATIONS)
    return CyrusTables(
        table_set=ts, rules=rules, grid=SquareGrid(board.grid.rows, board.grid.cols), board=board,
        legions=legions, kinds=legions_file.kinds, values=values, movement=movement,
        results=tuple(result_rows), terrain=terrain.terrain,
    )


_INTERPRETATIONS = (
    "combat-terrain", "same-line-order", "retreat-off-board", "retreat-into-terrain",
    "retreat-into-pending-combat", "engaged-archer", "arrows-over-enemies", "support-range-steps",
    "support-once-per-turn", "foot-for-phalanx", "king-exit", "victory-stops-play", "umpire-phase",
)


def _check_bands(label: str, lines: list[tuple[int, ResultRow]]) -> None:
    """VI.3: every difference must fall in exactly one band (errors name the file's lines)."""
    rows = [row for _line, row in lines]
    for n, row in lines:
        lo, hi = row.min_difference, row.max_difference
        if lo is not None and hi is not None and lo > hi:
            raise TableError(label, _("line {n}").format(n=n), _(
                "min_difference {lo} is above max_difference {hi}").format(lo=lo, hi=hi))
    for d in range(-30, 31):
        hits = [n for n, row in lines if row.covers(d)]
        if len(hits) != 1:
            if not hits:
                raise TableError(label, "difference", _("no band covers a difference of {d}").format(d=f"{d:+d}"))
            raise TableError(label, "difference", _("lines {rows} all cover a difference of {d}").format(
                rows=", ".join(map(str, hits)), d=f"{d:+d}"))
    if not any(r.min_difference is None for r in rows) or not any(r.max_difference is None for r in rows):
        raise TableError(label, "difference", _("the lowest and highest bands must be open-ended (empty bound)"))
