"""Exact odds of a Zargo attack or shot (``referee odds``), counted through the resolution itself.

Nothing here computes a result: every die face (and every face of every further die the
resolution asks for, as when flames roll separately) is fed to the same functions that resolve a
turn, and the outcomes are gathered with their exact chances. So an empty city falls with no
roll, too few besiegers die with no roll, a defender with no way back dies on a retreat result:
``odds`` says what ``resolve`` will do, step by step, and explains each result code.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from pydantic import BaseModel, ConfigDict

from referee.dice import Roll
from referee.errors import IllegalActionError, NotationError
from referee.games.zargo import actions as act
from referee.games.zargo.cities import assault
from referee.games.zargo.combat import (
    RECONSTRUCTION_NOTE,
    attack_total,
    attacker_id,
    check_attack,
    defence_total,
    field_combat,
)
from referee.games.zargo.results import RESULT_MEANING
from referee.games.zargo.shots import check_shot, resolve_shots, shooter_of
from referee.games.zargo.state import Shot, Turn, ZargoState, split_key, unit
from referee.games.zargo.tables import Reads
from referee.i18n import N_, _, ngettext
from referee.rulings import Ruling, Verdict

__all__ = ["Chance", "Odds", "odds"]

SHOT_MEANING = {"hit": N_("the target's fighter is eliminated"), "missed": N_("no effect"), "none": N_("no effect")}
"""What a shot's outcome means (combat results: :data:`~referee.games.zargo.results.RESULT_MEANING`)."""
ROLL_CODES = frozenset({"combat", "assault", "arrow", "flames", "vision", "serpent-charge"})
"""Events that report a roll (their text names the faces, so outcomes leave them out)."""


class Chance(BaseModel):
    """One outcome: its code (a table result, ``hit``/``missed``, or what happens with no roll),
    what the code means, what follows on the board, and its exact chance."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    code: str
    meaning: str
    then: tuple[str, ...] = ()
    chance: str


class Odds(BaseModel):
    """``referee odds zargo``: the exact chances of a combat or a shot (every die face counted)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    action: str
    attack: int | None = None
    defence: int | None = None
    chances: dict[str, str]
    outcomes: tuple[Chance, ...] = ()
    provisional: tuple[str, ...] = ()

    def explain(self) -> list[str]:
        """Returns the odds as lines."""
        head = self.action
        if self.attack is not None:
            head += _(": {a} against {d}").format(a=self.attack, d=self.defence)
        lines = [head]
        for c in self.outcomes:
            then = f" → {'; '.join(c.then)}" if c.then else ""
            lines.append(f"  {c.code} ({c.meaning}): {c.chance}{then}")
        return lines


class _MoreDice(Exception):
    """The resolution asked for a die beyond the faces fixed so far (private to :func:`_enumerate`)."""


class _Faces:
    """Dice that give fixed faces, then ask for more."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = faces
        self.used = 0

    def roll(self, count: int, sides: int, purpose: str) -> Roll:
        if self.used + count > len(self.faces):
            raise _MoreDice
        faces = tuple(self.faces[self.used : self.used + count])
        self.used += count
        return Roll(purpose=purpose, sides=sides, faces=faces, source="physical")


def _enumerate(run: Callable[[_Faces], Turn]) -> tuple[dict[tuple[str, str, tuple[str, ...]], Fraction], Reads]:
    """Runs a resolution for every sequence of faces it asks for; returns each outcome's chance."""
    found: dict[tuple[str, str, tuple[str, ...]], Fraction] = {}
    reads = Reads()
    pending: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while pending:
        faces, weight = pending.pop()
        try:
            w = run(_Faces(faces))
        except _MoreDice:
            pending += [([*faces, f], weight / 6) for f in range(6, 0, -1)]
            continue
        reads.use(*w.reads.ids)
        key = _outcome(w.events)
        found[key] = found.get(key, Fraction(0)) + weight
    return found, reads


def _outcome(events: list[Ruling]) -> tuple[str, str, tuple[str, ...]]:
    code, meaning = "", ""
    then: list[str] = []
    for e in events:
        args = dict(e.args)
        if e.code in ROLL_CODES:
            result = str(args.get("result", ""))
            code = code or result
            meaning = meaning or (str(args["meaning"]) if "meaning" in args else "")
        else:
            if not code:
                code, meaning = e.code, e.text()
            else:
                then.append(e.text())
    return code, _(meaning) if meaning else meaning, tuple(then)


def odds(state: ZargoState, text: str) -> Odds:
    """Returns the exact odds of the attack or shot a text names (``attack A B``, ``flame A
    B``...), or of every attack already declared on a target (``attack TARGET``).

    Raises:
        NotationError: not an attack or a shot, a hidden garrison, nothing on the target.
        IllegalActionError: the attack or shot is not legal now.
        UnknownNameError: an unknown hex or counter type.
    """
    words = text.split()
    if len(words) == 2 and act.GRAMMAR.is_(words[0], "attack"):
        target = act.hex_word(state, words[1])
        declared = list(state.attacks.get(target, ()))
        if not declared:
            raise NotationError(_("no attack is declared on {hex}").format(hex=target))
        return _attack_odds(state, f"attack {target}", target, declared)
    action = act.parse_action(state, text)
    if isinstance(action, act.Attack):
        already = state.attacks.get(action.target, ())
        if action.source not in {split_key(i)[0] for i in already}:
            _judged(state, action, check_attack(state, action))
        ident = attacker_id(state, action)
        attackers = list(dict.fromkeys([*already, ident]))
        return _attack_odds(state, action.text(), action.target, attackers)
    if isinstance(action, act.Shoot):
        if not any(s.source == action.source and s.target == action.target for s in state.shots):
            _judged(state, action, check_shot(state, action))
        return _shot_odds(state, action)
    raise NotationError(_("odds: give an attack (attack FROM TO) or a shot (arrow/flame/vision FROM TO)"))


def _judged(state: ZargoState, action: act.ZargoAction, found: list[Ruling]) -> None:
    """The odds of an attack or shot the rules refuse are not given: the refusal is.

    Raises:
        IllegalActionError: the action is not legal now (its verdict).
    """
    if found:
        raise IllegalActionError(Verdict(action=action.text(), violations=tuple(found)))


def _attack_odds(state: ZargoState, title: str, target: str, attackers: list[str]) -> Odds:
    city = state.cities.get(target)
    on_city = city is not None and target not in state.board
    if on_city and city is not None and city.hidden:
        raise NotationError(_("the garrison of {hex} is hidden: no odds before its reveal").format(hex=target))
    if not on_city and target not in state.board:
        raise NotationError(_("no counter on {hex}").format(hex=target))
    now = state.model_copy(update={"attacks": {target: tuple(attackers)}, "shots": ()})
    reads = Reads()
    attack, _charged = attack_total(now, attackers, target, reads)
    if on_city and city is not None:
        defence = sum(unit(state, g).combat for g in city.garrison or ())
    else:
        defence = defence_total(now, target, reads)

    def run(dice: _Faces) -> Turn:
        w = Turn(now)
        if on_city:
            assault(now, w, dice, target, attackers)
        else:
            field_combat(now, w, dice, target, attackers)
        return w

    return _report(now, title, run, reads, attack, defence)


def _shot_odds(state: ZargoState, a: act.Shoot) -> Odds:
    found = shooter_of(state, a, Reads())
    label = found[0] if isinstance(found, tuple) else None
    from_city = isinstance(found, tuple) and found[1]
    shot = Shot(kind=a.kind, source=a.source, target=a.target, label=label if from_city else None)
    group = [s for s in state.shots if a.kind == "flame" and s.kind == "flame" and s.target == a.target]
    if a.target not in state.board:
        raise NotationError(_("no counter on {hex}").format(hex=a.target))
    now = state.model_copy(update={"shots": (*group, shot), "attacks": {}})

    def run(dice: _Faces) -> Turn:
        w = Turn(now)
        resolve_shots(now, w, dice)
        return w

    return _report(now, a.text(), run, Reads(), None, None)


def _meaning(code: str) -> str:
    if code in RESULT_MEANING:
        return _(RESULT_MEANING[code])
    if code in SHOT_MEANING:
        return _(SHOT_MEANING[code])
    if code.startswith("R") and code[1:].isdigit():
        n = int(code[1:])
        return ngettext("the target retreats {n} hex", "the target retreats {n} hexes", n).format(n=n)
    return ""


def _report(state: ZargoState, title: str, run: Callable[[_Faces], Turn], reads: Reads, attack: int | None,
            defence: int | None) -> Odds:
    found, used = _enumerate(run)
    reads.use(*used.ids)
    outcomes = tuple(
        Chance(code=code, meaning=meaning or _meaning(code), then=then, chance=str(p))
        for (code, meaning, then), p in sorted(found.items(), key=lambda kv: (-kv[1], kv[0]))
    )
    chances: dict[str, Fraction] = {}
    for c in outcomes:
        chances[c.code] = chances.get(c.code, Fraction(0)) + Fraction(c.chance)
    return Odds(
        action=title, attack=attack, defence=defence, chances={k: str(v) for k, v in chances.items()},
        outcomes=outcomes, provisional=(*reads.labels(state.tables), RECONSTRUCTION_NOTE),
    )
