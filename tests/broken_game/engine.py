"""Push: North and South take turns pushing a token 1 or 2 steps; the push that brings it to 8
or further wins. Each may seal a number first (it decides nothing: it is there to be kept
secret). Correct when built with no fault; each fault in :data:`FAULTS` breaks one promise of
the contract."""

from __future__ import annotations

import itertools
import random

from pydantic import BaseModel, ConfigDict, Field

from referee.bot import Choice
from referee.dice import Dice
from referee.errors import NotationError
from referee.game import Action, Applied, BoardView, Engine, GameInfo, GameState, MapView, Outcome
from referee.rulings import RuleRef, Ruling, Verdict
from referee.sealed import Commitment, SealRequest, parse_seal
from referee.tables import TableSet

SLUG = "test-broken"
SIDES = ("north", "south")
GOAL = 8
RULE = RuleRef(game=SLUG, section="1", title="Push")
FAULTS = {
    "misread": "``push 2`` reads back as ``push 1``",
    "stuck": "at 4 or 5 nothing is legal, yet the game is not over",
    "over-early": "the game says it is over at 6, yet pushes are still legal",
    "unseeded": "each new game draws a number from a counter, so no two runs agree",
    "leak": "the bot says its sealed number aloud",
    "deaf": "its capture rules' infer_turn takes no answers and no label scores",
}
_games = itertools.count()


class PushState(GameState):
    token: int = 0
    turn: int = 0
    sealed: dict[str, Commitment] = Field(default_factory=dict)
    said: tuple[str, ...] = ()
    draw: int = 0


class PushPosition(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = SLUG
    token: int = 0


class Push(Action):
    steps: int

    def text(self) -> str:
        return f"push {self.steps}"


class Say(Action):
    words: str

    def text(self) -> str:
        return f"say {self.words}"


class SealNumber(Action):
    public: Commitment

    def text(self) -> str:
        from referee.sealed import seal_text

        return seal_text(self.public)


PushAction = Push | Say | SealNumber


class BrokenEngine(Engine[PushState, PushAction]):
    info = GameInfo(slug=SLUG, package="broken_game", title="Push", sides=SIDES, dice="1d6", rulebook="test",
                    information="imperfect")
    position_model = PushPosition

    def __init__(self, faults: tuple[str, ...] = ()) -> None:
        assert set(faults) <= set(FAULTS), faults
        self.faults = frozenset(faults)

    @property
    def capture_rules(self) -> str:
        """Photo capture: the token's track read from a photo (``tests/broken_game/capture.py``)."""
        return "tests.broken_game.capture_deaf" if "deaf" in self.faults else "tests.broken_game.capture"

    def new_state(self, table_set: TableSet) -> PushState:
        return PushState(draw=next(_games) if "unseeded" in self.faults else 0)

    def sample_start(self, name: str = "setup.yaml") -> PushState:
        return self.new_state(push_tables())

    def setup_actions(self, state: PushState, data: object, label: str) -> list[str]:
        return []

    def from_position(self, table_set: TableSet, data: object, label: str) -> PushState:
        return PushState(token=PushPosition.model_validate(data).token)

    def to_position(self, state: PushState) -> PushPosition:
        return PushPosition(token=state.token)

    def outcome(self, state: PushState) -> Outcome | None:
        if state.token >= GOAL or ("over-early" in self.faults and state.token >= 6):
            winner = SIDES[(state.turn - 1) % 2]
            return Outcome(termination="goal", winners=(winner,), ruling=Ruling.event("goal", "goal", (RULE,)))
        return None

    def to_act(self, state: PushState) -> str | None:
        unsealed = [s for s in SIDES if s not in state.sealed]
        return unsealed[0] if unsealed else SIDES[state.turn % 2]

    def parse(self, state: PushState, text: str) -> PushAction:
        public = parse_seal(text)
        if public is not None:
            return SealNumber(public=public)
        words = text.split()
        if words[:1] == ["say"] and len(words) == 2:
            return Say(words=words[1])
        if len(words) == 2 and words[0] == "push" and words[1] in ("1", "2", "3"):
            return Push(steps=1 if "misread" in self.faults else int(words[1]))
        raise NotationError("actions: push 1, push 2, say WORD")

    def parse_adjust(self, state: PushState, text: str) -> PushAction:
        raise NotationError("no overrides in this game")

    def judge(self, state: PushState, action: PushAction) -> Verdict:
        legal = action.text() in {a.text() for a in self.legal_actions(state)}
        if isinstance(action, SealNumber):
            legal = action.public.owner == self.to_act(state) and action.public.owner not in state.sealed
        if isinstance(action, Say):  # free words: never listed, always allowed once both have sealed
            legal = len(state.sealed) == len(SIDES) and self.outcome(state) is None
        if legal:
            return Verdict(action=action.text())
        return Verdict(action=action.text(), violations=(Ruling.violation("not-now", "not now", (RULE,)),))

    def apply(self, state: PushState, action: PushAction, dice: Dice) -> Applied[PushState]:
        if isinstance(action, SealNumber):
            return Applied(state.model_copy(update={"sealed": {**state.sealed, action.public.owner: action.public}}))
        if isinstance(action, Say):
            return Applied(state.model_copy(update={"said": (*state.said, action.words)}))
        return Applied(state.model_copy(update={"token": state.token + action.steps, "turn": state.turn + 1}))

    def legal_actions(self, state: PushState) -> list[PushAction]:
        if self.outcome(state) is not None and "over-early" not in self.faults:
            return []
        if "stuck" in self.faults and state.token in (4, 5):
            return []
        steps = (1, 2, 3) if state.draw % 2 else (1, 2)
        return [Push(steps=n) for n in steps if state.token < GOAL]

    def legal_report(self, state: PushState, unit: str) -> BaseModel:
        return self.to_position(state)

    def resolve_pending(self, state: PushState, dice: Dice) -> tuple[PushState, BaseModel]:
        return state, self.to_position(state)

    def board_view(self, state: PushState) -> BoardView | MapView:
        return MapView(title="Push", columns=("token",), rows=((str(state.token),),))

    def status(self, state: PushState) -> list[str]:
        return [f"token at {state.token}"]

    def bot(self) -> PushBot:
        return PushBot(self)


class PushBot:
    """Seals a number for each side, then pushes at random (saying its number aloud when leaky)."""

    def __init__(self, engine: BrokenEngine) -> None:
        self.engine = engine
        self.numbers: dict[str, int] = {}

    def choose(self, state: GameState, rng: random.Random) -> Choice:
        assert isinstance(state, PushState)
        side = self.engine.to_act(state)
        assert side is not None
        if side not in state.sealed:
            self.numbers[side] = rng.randrange(10**6, 10**9)
            return Choice(action=SealRequest(owner=side, label="number", secret=self.numbers[side]), reason="seal")
        if "leak" in self.engine.faults and side in self.numbers and str(self.numbers[side]) not in state.said:
            return Choice(action=Say(words=str(self.numbers[side])), reason="a slip of the tongue")
        return Choice(action=rng.choice(self.engine.legal_actions(state)), reason="push")


def push_tables() -> TableSet:
    """A one-file table set for the made-up game."""
    return TableSet.from_texts(SLUG, {"rules.yaml": "# Source: test\nsections: {}\n"}, "test")
