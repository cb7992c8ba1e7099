"""A tiny made-up hidden-information game used to test secrets (not shipped, not in GAME_PACKAGES).

North then South each seal a whole number (1 to 999,999,999); then North then South reveal it; the
higher number wins, equal numbers draw. The state holds only the public commitments and the
revealed numbers, so no view of it can leak a number before its reveal; the owner's number lives
in the game file's private table. It is a real Engine, judged and replayed like any game.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from referee.dice import Dice
from referee.errors import NotationError
from referee.game import Action as BaseAction
from referee.game import Applied, BoardView, Engine, GameInfo, GameState, MapView, Outcome
from referee.games import register_engine
from referee.rulings import RuleRef, Ruling, Verdict
from referee.sealed import (
    Commitment,
    Opening,
    check_reveal,
    parse_reveal,
    parse_seal,
    reveal_text,
    revealed_event,
    seal_text,
    sealed_event,
)
from referee.tables import TableSet

SLUG = "test-hidden"
PLAYERS = ("north", "south")
LABEL = "number"
RULE = RuleRef(game=SLUG, section="1", title="Seal, then reveal")


class HiddenState(GameState):
    sealed: dict[str, Commitment] = Field(default_factory=dict)
    revealed: dict[str, int] = Field(default_factory=dict)


class HiddenPosition(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = SLUG
    sealed: dict[str, str] = Field(default_factory=dict)
    revealed: dict[str, int] = Field(default_factory=dict)


class Seal(BaseAction):
    public: Commitment

    def text(self) -> str:
        return seal_text(self.public)


class Reveal(BaseAction):
    owner: str
    label: str
    salt: str
    secret: JsonValue

    def text(self) -> str:
        return reveal_text(self.owner, self.label, bytes.fromhex(self.salt), self.secret)

    def opening(self) -> Opening:
        return Opening(self.owner, self.label, bytes.fromhex(self.salt), self.secret)


Action = Seal | Reveal


class HiddenEngine(Engine[HiddenState, Action]):
    info = GameInfo(slug=SLUG, package="hidden", title="Hidden numbers", sides=PLAYERS, dice=None,
                    rulebook="test", information="imperfect")
    position_model = HiddenPosition

    def new_state(self, table_set: TableSet) -> HiddenState:
        return HiddenState()

    def setup_actions(self, state: HiddenState, data: object, label: str) -> list[str]:
        return []

    def from_position(self, table_set: TableSet, data: object, label: str) -> HiddenState:
        return HiddenState(revealed=HiddenPosition.model_validate(data).revealed)

    def to_position(self, state: HiddenState) -> HiddenPosition:
        return HiddenPosition(sealed={p: c.digest for p, c in state.sealed.items()}, revealed=dict(state.revealed))

    def outcome(self, state: HiddenState) -> Outcome | None:
        if len(state.revealed) < len(PLAYERS):
            return None
        best = max(state.revealed.values())
        winners = tuple(p for p in PLAYERS if state.revealed[p] == best)
        code = "draw" if len(winners) > 1 else "higher-number"
        return Outcome(termination=code, winners=() if len(winners) > 1 else winners,
                       ruling=Ruling.event(code, f"numbers {state.revealed}", (RULE,)))

    def to_act(self, state: HiddenState) -> str | None:
        for p in PLAYERS:
            if p not in state.sealed:
                return p
        for p in PLAYERS:
            if p not in state.revealed:
                return p
        return None

    def parse(self, state: HiddenState, text: str) -> Action:
        public = parse_seal(text)
        if public is not None:
            return Seal(public=public)
        opening = parse_reveal(text)
        if opening is not None:
            return Reveal(owner=opening.owner, label=opening.label, salt=opening.salt.hex(), secret=opening.secret)
        raise NotationError("actions: seal OWNER number DIGEST, reveal OWNER number SALT VALUE")

    def parse_adjust(self, state: HiddenState, text: str) -> Action:
        raise NotationError("no overrides in this game")

    def judge(self, state: HiddenState, action: Action) -> Verdict:
        owner = action.public.owner if isinstance(action, Seal) else action.owner
        if owner != self.to_act(state):
            return Verdict(action=action.text(), violations=(
                Ruling.violation("not-your-turn", f"{self.to_act(state)} is awaited, not {owner}", (RULE,)),))
        if isinstance(action, Seal):
            if action.public.label != LABEL:
                wrong = Ruling.violation("label", "seal your number", (RULE,))
                return Verdict(action=action.text(), violations=(wrong,))
            return Verdict(action=action.text())
        wrong = check_reveal(state.sealed.get(owner), action.opening(), (RULE,))
        if wrong is None and (not isinstance(action.secret, int) or isinstance(action.secret, bool)
                              or not 1 <= action.secret < 10**9):
            why = "the sealed value is not a whole number from 1 to 999,999,999"
            wrong = Ruling.violation("not-a-number", why, (RULE,))
        return Verdict(action=action.text(), violations=(wrong,) if wrong else ())

    def apply(self, state: HiddenState, action: Action, dice: Dice) -> Applied[HiddenState]:
        if isinstance(action, Seal):
            sealed = {**state.sealed, action.public.owner: action.public}
            return Applied(state.model_copy(update={"sealed": sealed}), (sealed_event(action.public, (RULE,)),))
        assert isinstance(action.secret, int)
        revealed = {**state.revealed, action.owner: action.secret}
        return Applied(state.model_copy(update={"revealed": revealed}), (revealed_event(action.opening(), (RULE,)),))

    def legal_actions(self, state: HiddenState) -> list[Action]:
        return []  # a seal's digest and a reveal's salt cannot be enumerated

    def legal_report(self, state: HiddenState, unit: str) -> BaseModel:
        return self.to_position(state)

    def resolve_pending(self, state: HiddenState, dice: Dice) -> tuple[HiddenState, BaseModel]:
        return state, self.to_position(state)

    def board_view(self, state: HiddenState) -> BoardView | MapView:
        rows = tuple(
            (p, state.sealed[p].fingerprint() if p in state.sealed else "-", str(state.revealed.get(p, "hidden")))
            for p in PLAYERS
        )
        return MapView(title="Hidden numbers", columns=("player", "sealed", "number"), rows=rows)

    def status(self, state: HiddenState) -> list[str]:
        done = self.outcome(state)
        if done is not None:
            return [f"over: {done.termination}, winners {', '.join(done.winners) or 'none'}"]
        return [f"awaiting {self.to_act(state)}"]


HIDDEN = HiddenEngine()


def register() -> HiddenEngine:
    """Makes the hidden game findable by the journal (a test hook, as a shipped game is by slug)."""
    register_engine(SLUG, HIDDEN)
    return HIDDEN


def hidden_tables() -> TableSet:
    """A one-file table set for the hidden game."""
    return TableSet.from_texts(SLUG, {"rules.yaml": "# Source: test\nsections: {}\n"}, "test")
