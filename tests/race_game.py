"""A tiny dice game used to test the journal's roll handling (undo across rolls, verify).

It is a real Engine (not a mock of the journal): ``step`` adds 1, ``roll`` adds a d6 roll,
``double`` adds two dice; the first to 1000 wins.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from referee.dice import Dice
from referee.errors import NotationError, UnknownNameError
from referee.game import Action, Applied, BoardView, Engine, GameInfo, GameState, MapView, Outcome
from referee.games import register_engine
from referee.rulings import RuleRef, Ruling, Verdict
from referee.tables import TableSet

RULE = RuleRef(game="test-race", section="1", title="Race")


class RaceState(GameState):
    score: int = 0


class RacePosition(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = "test-race"
    score: int = 0


class Step(Action):
    kind: str

    def text(self) -> str:
        return self.kind


class Set(Action):
    score: int

    def text(self) -> str:
        return f"score {self.score}"

    def is_adjust(self) -> bool:
        return True


class RaceEngine(Engine):
    info = GameInfo(slug="test-race", package="race", title="Race", sides=("solo",), dice="1d6", rulebook="test")
    position_model = RacePosition

    def new_state(self, table_set: TableSet) -> GameState:
        return RaceState()

    def setup_actions(self, state: GameState, data: object, label: str) -> list[str]:
        return []

    def from_position(self, table_set: TableSet, data: object, label: str) -> GameState:
        return RaceState(score=RacePosition.model_validate(data).score)

    def to_position(self, state: GameState) -> BaseModel:
        assert isinstance(state, RaceState)
        return RacePosition(score=state.score)

    def outcome(self, state: GameState) -> Outcome | None:
        assert isinstance(state, RaceState)
        if state.score >= 1000:
            return Outcome(winner="solo", reason="1000 reached", ruling=Ruling.event("victory", "20", (RULE,)))
        return None

    def to_act(self, state: GameState) -> str | None:
        return None if self.outcome(state) else "solo"

    def parse(self, state: GameState, text: str) -> Action:
        word = text.strip().lower()
        if word not in ("step", "roll", "double"):
            raise UnknownNameError("action", text, ["step", "roll", "double"])
        return Step(kind=word)

    def parse_adjust(self, state: GameState, text: str) -> Action:
        parts = text.split()
        if len(parts) != 2 or parts[0] != "score" or not parts[1].isdigit():
            raise NotationError(f"{text!r}: write 'score N'")
        return Set(score=int(parts[1]))

    def judge(self, state: GameState, action: Action) -> Verdict:
        if self.outcome(state):
            return Verdict(action=action.text(), violations=(Ruling.violation("game-over", "over", (RULE,)),))
        return Verdict(action=action.text())

    def apply(self, state: GameState, action: Action, dice: Dice) -> Applied:
        assert isinstance(state, RaceState)
        if isinstance(action, Set):
            return Applied(state.model_copy(update={"score": action.score}))
        assert isinstance(action, Step)
        if action.kind == "step":
            gain = 1
        else:
            gain = dice.roll(2 if action.kind == "double" else 1, 6, f"race {action.kind}").total
        return Applied(state.model_copy(update={"score": state.score + gain}))

    def legal_actions(self, state: GameState) -> list[Action]:
        return [] if self.outcome(state) else [Step(kind="step"), Step(kind="roll"), Step(kind="double")]

    def legal_report(self, state: GameState, unit: str) -> BaseModel:
        return RacePosition()

    def resolve_pending(self, state: GameState, dice: Dice) -> tuple[GameState, BaseModel]:
        return state, self.to_position(state)

    def board_view(self, state: GameState) -> BoardView | MapView:
        assert isinstance(state, RaceState)
        return MapView(title="Race", columns=("score",), rows=((str(state.score),),))

    def status(self, state: GameState) -> list[str]:
        assert isinstance(state, RaceState)
        return [f"score {state.score}"]


RACE = RaceEngine()


def register() -> RaceEngine:
    """Makes the race game findable by the journal (as a registered game would be)."""
    register_engine("test-race", RACE)
    return RACE


def race_tables() -> TableSet:
    """A one-file table set for the race game."""
    return TableSet.from_texts("test-race", {"rules.yaml": "# Source: test\nsections: {}\n"}, "test")
