"""The game protocol every game package implements, and the value types around it.

A game package exports one :class:`Engine` subclass instance, ``GAME``, declaring its nature as
data (:class:`GameInfo`). The fixed verbs (the same in every game, docs/architecture.md):

- ``parse(state, text)`` — action text to an :class:`Action` (syntax and names, not rules);
- ``judge(state, action)`` — a :class:`~referee.rulings.Verdict` listing every violation;
- ``apply(state, action, dice)`` — unchecked and fast, returns an :class:`Applied`;
- ``play(state, action, dice)`` — judge, raise if illegal, apply, return an :class:`ActionRecord`;
- ``legal_actions(state)`` — built on the same checks as ``judge``.

States are frozen pydantic models; ``apply`` returns a new one. Umpire mode goes through
``from_position``/``to_position`` (the position-file schema, ``position_model``).
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeAlias, TypeVar

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError

from referee.dice import Dice, NoDice, Roll
from referee.errors import IllegalActionError, PositionError, RefereeError
from referee.files import read_text
from referee.i18n import _, ngettext
from referee.notation import Grammar
from referee.rulings import Ruling, Verdict
from referee.tables import TableSet, data_root, load_table_set, load_yaml_text

RGB = tuple[int, int, int]
FileModel = TypeVar("FileModel", bound=BaseModel)


def validate_file(model: type[FileModel], data: object, label: str) -> FileModel:
    """Returns a position or set-up file validated against its schema.

    Raises:
        PositionError: not a mapping, or a value the schema rejects (file: field: problem).
    """
    if not isinstance(data, dict):
        raise PositionError(label, "", _("expected a mapping at the top level"))
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        more = exc.error_count() - 1
        raise PositionError(label, loc, err["msg"] + (" " + _more(more) if more else "")) from None


def _more(n: int) -> str:
    return ngettext("(+{n} more)", "(+{n} more)", n).format(n=n)


def setup_error(label: str, data: object, text: str, exc: RefereeError, earlier: int = 0) -> PositionError:
    """Returns the one-line error of a set-up placement that was refused: file, field, problem.

    The field is the place in the file that holds the placement (``greek.Pyxis``,
    ``terrain.greek.forest[3]``) when it can be found, else the placement's own text; ``earlier``
    is how many times the same text was played before (a duplicate names its second entry).
    """
    if isinstance(exc, IllegalActionError) and exc.verdict.violations:
        first = exc.verdict.violations[0]
        cites = "; ".join(str(c) for c in first.cites)
        problem = f"{first.text()} [{first.code}]" + (f" ({cites})" if cites else "")
        more = len(exc.verdict.violations) - 1
        problem += " " + _more(more) if more else ""
    else:
        problem = str(exc)
    error = PositionError(label, _field_of(data, text, earlier) or _("placement {text}").format(text=repr(text)),
                          problem)
    error.hint = exc.hint
    return error


def _field_of(data: object, text: str, earlier: int) -> str | None:
    """Returns the path of the entry of a set-up file a placement text came from, if one matches."""
    words = text.split()
    found: list[str] = []
    stack: list[tuple[str, object]] = [("", data)]
    while stack and len(words) >= 2:
        path, node = stack.pop(0)
        if not isinstance(node, dict):
            continue
        for key, value in node.items():
            sub = f"{path}.{key}" if path else str(key)
            if text == f"{key} {value}":
                found.append(sub)
            elif isinstance(value, list) and str(key) == words[0]:
                found += [f"{sub}[{i}]" for i, v in enumerate(value) if str(v) == words[-1]]
            stack.append((sub, value))
    return found[min(earlier, len(found) - 1)] if found else None


class GameInfo(BaseModel):
    """What a game is: its names, title, sides, players, information and dice (as OpenSpiel's
    GameType declares them)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    slug: str = Field(description="CLI id: cyrus-pyxis, iliad, zargo, 300-solo.")
    package: str = Field(description="Python package under referee.games.")
    title: str
    sides: tuple[str, ...] = Field(description="Sides or peoples a player can hold.")
    dice: str | None = Field(description="Dice the game uses, e.g. '1d6', or None.")
    rulebook: str = Field(description="Edition of the rulebook the sections refer to.")
    players: tuple[int, int] = Field(default=(2, 2), description="Fewest and most players at the table.")
    information: Literal["perfect", "imperfect"] = Field(
        default="perfect", description="imperfect: some facts are hidden from some players (secrets)."
    )
    bot_sides: tuple[str, ...] = Field(default=(), description="Sides the referee itself plays (a solo bot).")
    decisive: tuple[str, ...] = Field(
        default=(), description="Table files whose values decide outcomes (a combat result table): a ruling "
        "names a stand-in from them in full instead of counting it.")

    @property
    def chance(self) -> bool:
        """Whether dice decide anything."""
        return self.dice is not None


class GameState(BaseModel):
    """Base of every game's state: frozen; ``apply`` returns a new one."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True, defer_build=True)


class Action(BaseModel):
    """Base of every game's actions (the intent; its random results go in the record)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    def text(self) -> str:
        """Returns the canonical notation that parses back to this action."""
        raise NotImplementedError

    def is_adjust(self) -> bool:
        """Returns True for umpire overrides (``referee adjust``)."""
        return False


class Outcome(BaseModel):
    """The end of a game: a termination code, the winners (none for a draw), and the ruling.

    ``termination`` is a stable kebab-case code (``king-killed``, ``troy-falls``,
    ``final-scoring``...) that code may test; the ruling's message is for people.
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    termination: str
    winners: tuple[str, ...]
    ruling: Ruling

    @property
    def draw(self) -> bool:
        """True when nobody won."""
        return not self.winners


class ActionRecord(BaseModel):
    """An action plus what happened: its rolls, the events it triggered, structured details."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    action: str
    kind: Literal["action", "adjust"] = "action"
    side: str | None = None
    rolls: tuple[Roll, ...] = ()
    events: tuple[Ruling, ...] = ()
    provisional: tuple[str, ...] = ()
    details: tuple[JsonValue, ...] = Field(default=(), description="Game-specific results.")


S = TypeVar("S", bound="GameState")
"""A game's state type (``Engine[S, A]``)."""
A = TypeVar("A", bound="Action")
"""A game's action type: the union of its action models."""


@dataclass(frozen=True)
class Applied(Generic[S]):
    """What ``apply`` returns: the new state, the events, game-specific details."""

    state: S
    events: tuple[Ruling, ...] = ()
    provisional: tuple[str, ...] = ()
    details: tuple[JsonValue, ...] = ()


@dataclass(frozen=True)
class Counter:
    """One counter as drawn: its side, its short label, and whether it lies face down (a hidden
    counter is drawn as a marker of its side with no label)."""

    side: str
    label: str = ""
    hidden: bool = False


@dataclass(frozen=True)
class CellView:
    """One cell as drawn: where it is, its terrain, its stack of counters (top first), its marks."""

    name: str
    terrain: str
    at: tuple[int, int] = (0, 0)
    """Column and row on the printed board, zero-based."""
    centre: tuple[float, float] = (0.0, 0.0)
    """Where the cell's centre is drawn, in the layout's units (cells on a square board, the hex's
    outer radius on a hex map): what the board's geometry ``centre(cell)`` returns."""
    counters: tuple[Counter, ...] = ()
    marks: tuple[str, ...] = ()
    """Keys of :attr:`BoardView.marks` shown on this cell (the last move, a pending combat...)."""
    tag: str = ""
    """A short text printed on the cell itself (a wrap letter), shown when no counter covers it."""


@dataclass(frozen=True)
class TerrainStyle:
    """How one terrain is drawn, from the game's tables: colour, terminal mark, picture pattern."""

    colour: RGB
    mark: str = " "
    """Characters drawn in the terminal: one on a square board, two on a hex map."""
    pattern: Literal["", "dots", "peak", "waves", "cross"] = ""
    """A drawing over the colour in the picture (dots for trees, a peak for heights...)."""
    label: str = ""
    """Name in the legend (the terrain's key when empty)."""


@dataclass(frozen=True)
class MarkStyle:
    """A mark a game puts on cells (the last move, a pending combat): how it is drawn and named."""

    symbol: str
    """One character drawn beside the cell's counter in the terminal."""
    colour: RGB
    """Colour of the frame drawn round the cell in the picture."""
    label: str
    """What the legend calls it."""


@dataclass(frozen=True)
class LinkView:
    """A line joining two cells that are not side by side (a bridge across a sea), or two places
    of a city map (a road, a sea lane)."""

    a: str
    b: str
    colour: RGB
    label: str
    dashed: bool = False
    """Drawn dashed (a sea lane, a bridge that is down), so kinds of link differ without colour."""


@dataclass(frozen=True)
class BoardView:
    """A board as data, square or hex, drawn by the terminal renderer and the PNG writer alike.

    Everything game-specific (terrain names and colours, what a mark means, the legend) comes
    from the game that builds the view; the renderers know only the layout.
    """

    title: str
    layout: Literal["square", "hex"]
    rows: int
    cols: int
    row_labels: tuple[str, ...]
    col_labels: tuple[str, ...]
    cells: tuple[CellView, ...]
    terrain: Mapping[str, TerrainStyle]
    side_colours: Mapping[str, RGB]
    side_marks: Mapping[str, str] = field(default_factory=dict)
    """One character per side drawn before its counters' labels, so sides differ without colour."""
    marks: Mapping[str, MarkStyle] = field(default_factory=dict)
    links: tuple[LinkView, ...] = ()
    legend: tuple[tuple[str, str, str], ...] = ()
    """Counters listed under their side: (label, name, side)."""
    codes: tuple[tuple[str, str], ...] = ()
    """Codes drawn on cells that name no counter, explained under the board: (code, meaning; the
    meaning an English source string the renderer translates)."""
    status: tuple[str, ...] = ()
    edges: tuple[str, str, str, str] = ("", "", "", "")
    """Labels of the top, right, bottom and left edges (e.g. "East")."""
    down: Literal["even", "odd"] = "even"
    """On a hex map, which printed columns sit half a hex lower."""

    def cell_at(self) -> dict[tuple[int, int], CellView]:
        """Returns the cells by (column, row)."""
        return {c.at: c for c in self.cells}


@dataclass(frozen=True)
class PlaceView:
    """A place of a city map as drawn: where it is, who holds it, what stands there."""

    name: str
    at: tuple[float, float]
    """Where it is drawn, as fractions of the map's width and height (0 to 1)."""
    counters: tuple[Counter, ...] = ()
    """What stands there, one counter per side (its label says how many of what)."""
    holder: str = ""
    """The side that holds it (drawn as a ring of its colour and its mark), or empty."""
    notes: tuple[str, ...] = ()
    """Short words under its name (a Major city, a port)."""
    kind: Literal["city", "area"] = "city"
    """An area (a sea) is drawn as a name only, where lanes meet."""
    marked: bool = False
    """Something is pending here (a battle): drawn with a frame."""


@dataclass(frozen=True)
class MapView:
    """A board that is not a grid (a city map): a table with one row per place (the terminal),
    and where the game gives them, its places and links to draw (the picture, the table page)."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    status: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    places: tuple[PlaceView, ...] = ()
    links: tuple[LinkView, ...] = ()
    side_colours: Mapping[str, RGB] = field(default_factory=dict)
    side_marks: Mapping[str, str] = field(default_factory=dict)
    link_kinds: tuple[tuple[str, RGB, bool], ...] = ()
    """Kinds of link named in the key: (name, colour, dashed)."""


class _Recorder:
    """Wraps dice to collect every roll an action draws."""

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.rolls: list[Roll] = []

    def roll(self, count: int, sides: int, purpose: str) -> Roll:
        result = self.dice.roll(count, sides, purpose)
        self.rolls.append(result)
        return result


def canonical(value: object) -> object:
    """Returns plain data with sets sorted and keys ordered, for stable hashing."""
    if isinstance(value, BaseModel):
        return canonical(value.model_dump(mode="python"))
    if isinstance(value, Mapping):
        return {str(k): canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, set | frozenset):
        return sorted((canonical(v) for v in value), key=lambda v: json.dumps(v, default=str))
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    return value


class Engine(ABC, Generic[S, A]):
    """One game's rules engine, typed by its state and action types (``Engine[CyrusState, CyrusAction]``),
    so a game's methods take its own types and never downcast."""

    info: GameInfo
    position_model: type[BaseModel]
    grammar: Grammar | None = None
    """The game's notation as data (keywords in three languages, one form per action), if declared."""

    # ---- state ------------------------------------------------------------------------------

    @abstractmethod
    def new_state(self, table_set: TableSet) -> S:
        """Returns the state at the very start of a game (before set-up)."""

    @abstractmethod
    def setup_actions(self, state: S, data: object, label: str) -> list[str]:
        """Returns the action texts that play the set-up described by a ``--setup`` file.

        Raises:
            PositionError: the file does not describe a set-up.
        """

    @abstractmethod
    def from_position(self, table_set: TableSet, data: object, label: str) -> S:
        """Returns the state a position file describes.

        Raises:
            PositionError: malformed or impossible position (names the file and field).
            UnknownNameError: an unknown unit or place, with suggestions.
        """

    @abstractmethod
    def to_position(self, state: S) -> BaseModel:
        """Returns the position-file model of a state."""

    def state_hash(self, state: S) -> str:
        """Returns a stable SHA-256 of everything the state holds."""
        blob = json.dumps(canonical(state), sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """Returns how the game ended, or None while it goes on."""

    @abstractmethod
    def to_act(self, state: S) -> str | None:
        """Returns whose input the game waits for (a side; not always the side whose turn it is:
        a defender declaring supports, or a player revealing a secret, is awaited too)."""

    def start_from_setup(self, table_set: TableSet, data: object, label: str) -> S:
        """Returns the state after a set-up file, each placement judged and played in rule order.

        Raises:
            PositionError: the file does not describe a set-up, or a placement is refused (names
                the file, the placement and the problem).
        """
        return self._play_setup(table_set, data, label)[1]

    def players_actions(self, players: int) -> list[str]:
        """Returns the actions that start a game for ``players`` people (``referee new --players``).

        A game with a fixed number of players needs none; a game for a range of players (Zargo's
        Lords) overrides this with the action that says how many play.

        Raises:
            RefereeError: the game is not played by that many.
        """
        low, high = self.info.players
        if not low <= players <= high:
            span = str(low) if low == high else f"{low}–{high}"
            raise RefereeError(_("{title} is played by {span} players, not {n}").format(
                title=self.info.title, span=span, n=players))
        return []

    def checked_setup(self, table_set: TableSet, data: object, label: str) -> list[str]:
        """Returns the action texts of a set-up file after playing them all on a fresh state.

        Nothing is written: a bad set-up is refused before any game file is touched.

        Raises:
            PositionError: as :meth:`start_from_setup`.
        """
        return self._play_setup(table_set, data, label)[0]

    def _play_setup(self, table_set: TableSet, data: object, label: str) -> tuple[list[str], S]:
        state = self.new_state(table_set)
        texts = self.setup_actions(state, data, label)
        for i, text in enumerate(texts):
            try:
                state, _record = self.play(state, self.parse(state, text), NoDice())
            except RefereeError as exc:
                raise setup_error(label, data, text, exc, texts[:i].count(text)) from None
        return texts, state

    def sample_start(self, name: str = "setup.yaml") -> S:
        """Returns the state after a set-up shipped in ``samples/<slug>/`` (tests, benches, demos)."""
        path = data_root("samples") / self.info.slug / name
        data = load_yaml_text(str(path), read_text(path, what="set-up file"))
        return self.start_from_setup(load_table_set(self.info.slug), data, str(path))

    # ---- actions ----------------------------------------------------------------------------

    @abstractmethod
    def parse(self, state: S, text: str) -> A:
        """Returns the action a text names.

        Raises:
            NotationError: the text is not an action of this game.
            UnknownNameError: a unit or cell is unknown (with suggestions).
        """

    @abstractmethod
    def parse_adjust(self, state: S, text: str) -> A:
        """Returns the umpire override a text names (``referee adjust``).

        Raises:
            NotationError: not an override this game supports.
            UnknownNameError: a unit or cell is unknown.
        """

    @abstractmethod
    def judge(self, state: S, action: A) -> Verdict:
        """Returns whether the action is legal now, with every violation."""

    @abstractmethod
    def apply(self, state: S, action: A, dice: Dice) -> Applied[S]:
        """Returns the result of an action without checking it (fast; for legal actions)."""

    @abstractmethod
    def legal_actions(self, state: S) -> list[A]:
        """Returns every legal action now (empty when the game is over)."""

    def play(self, state: S, action: A, dice: Dice) -> tuple[S, ActionRecord]:
        """Judges, then applies a legal action and returns the new state and its record.

        Raises:
            IllegalActionError: the action breaks a rule; carries the verdict.
        """
        verdict = self.judge(state, action)
        if not verdict.legal:
            raise IllegalActionError(verdict)
        return self.commit(state, action, dice, verdict)

    def acting_side(self, state: S, action: A) -> str | None:
        """Returns the side an action is journaled under: the side to act (a game whose umpire
        overrides move one side's unit names that side instead)."""
        return self.to_act(state)

    def commit(
        self, state: S, action: A, dice: Dice, verdict: Verdict
    ) -> tuple[S, ActionRecord]:
        """Applies an action already judged legal and returns the new state and its record."""
        recorder = _Recorder(dice)
        side = self.acting_side(state, action)
        applied = self.apply(state, action, recorder)
        provisional = tuple(dict.fromkeys(verdict.provisional + applied.provisional))
        record = ActionRecord(
            action=action.text(),
            kind="adjust" if action.is_adjust() else "action",
            side=side,
            rolls=tuple(recorder.rolls),
            events=verdict.notes + applied.events,
            provisional=provisional,
            details=applied.details,
        )
        return applied.state, record

    # ---- umpire -----------------------------------------------------------------------------

    @abstractmethod
    def legal_report(self, state: S, unit: str) -> BaseModel:
        """Returns what a unit may do now (``referee legal``).

        Raises:
            UnknownNameError: no such unit.
        """

    @abstractmethod
    def resolve_pending(self, state: S, dice: Dice) -> tuple[S, BaseModel]:
        """Resolves what is pending in an umpire position; returns the state and the results."""

    def open_declarations(self, state: S) -> tuple[Ruling, ...]:
        """Returns what an umpire position leaves open that resolving it would need (declarations
        a player could still make, e.g. archer supports). ``referee resolve`` notes each one;
        ``--strict`` refuses. Default: nothing is ever open."""
        return ()

    # ---- display ----------------------------------------------------------------------------

    def view(self, state: S, viewer: str | None) -> S:
        """Returns the state as ``viewer`` may see it (``None``: the shared table, face up only).

        Every command that shows a state (show, status, legal, the position written by
        ``--json``) draws this, never the state itself; for a game file, through
        :func:`referee.viewing.seen_by`, which adds the viewer's own sealed secrets. A game whose
        state holds a hidden fact returns a copy with that fact masked for everyone but its owner. Default: the state
        unchanged, which is right for perfect-information games and for games whose state holds
        secrets only as public commitments (the secret itself lives in the game file's private
        table, :mod:`referee.sealed`).
        """
        return state

    def viewers(self) -> tuple[str, ...]:
        """Returns who may be named by ``--as``: the game's sides."""
        return self.info.sides

    @abstractmethod
    def board_view(self, state: S) -> BoardView | MapView:
        """Returns the board as data: a grid (terminal and PNG) or a table of places."""

    @abstractmethod
    def status(self, state: S) -> list[str]:
        """Returns short lines on the turn, phase and what the game waits for."""

    def help_actions(self) -> Sequence[tuple[str, str]]:
        """Returns (notation, meaning) pairs shown by ``help`` in the shell."""
        return ()


AnyEngine: TypeAlias = Engine[Any, Any]
"""An engine of any game, as the command line, the journal and the registry hold one."""
