"""Combattimento: arrows, duels and open battles, resolved with injected dice.

Order (Come si gioca, Combattimento: arcieri): every shot of the move first, then each combat
formed by the move's attacks. A *duel* (two heroes, one on one) is three throws: each hero adds
a die to his value (a wounded hero's die halved) and the difference is read on that throw's row
of ``duel.csv``; the lower total is wounded or killed. An *open battle* is one die per side plus
the side's values (value-1 counters doubled in god-favoured hours and by the wall); the higher
total eliminates every enemy counter of the battle. A shot kills on 6 and wounds on 5. Wounded
counters are then carried behind their lines. Entry point: :func:`resolve_move`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict

from referee.dice import Dice
from referee.games.iliad.board import Terrain
from referee.games.iliad.movement import combat_groups
from referee.games.iliad.roster import Counter, CounterId, Result, Side
from referee.games.iliad.rules import ARCHERY, BATTLE, CALENDAR, DUEL, TERRAIN
from referee.games.iliad.sequence import advantage_disclosure
from referee.games.iliad.state import IliadState
from referee.games.iliad.tables import IliadTables
from referee.geometry.search import Cell
from referee.i18n import N_
from referee.phrases import form
from referee.rulings import Arg, RuleRef, Ruling

SHOT_KILLS = 6  # Combattimento: arcieri
SHOT_WOUNDS = 5  # Combattimento: arcieri
DUEL_THROWS = 3  # Combattimento: duello
MAX_REROLLS = 50  # interpretation battle-tie (reroll): a bound that is never reached in practice

GOD_ADVANTAGE = N_("god advantage")  # Il calendario: why a value-1 counter doubles
INSIDE_WALL = N_("inside the wall")  # Movimento: regole particolari: the other reason
WINNER_WORDS = (N_("attackers"), N_("defenders"))  # who wins an open battle, as its message says
Status = Literal["unhurt", "wounded", "killed"]
Role = Literal["attacker", "defender"]


# what each roll decides (the words seed a digital roll: never change them; said again by phrases.say)
ARROW_ROLL = form(N_("arrow {archer} → {target}"))
DUEL_ROLL = form(N_("duel {attacker} v {defender}, throw {throw}"))
BATTLE_ROLL = form(N_("battle {attackers} v {defenders}"))

def half(points2: int) -> float:
    """Returns a total kept in half points as a number (9 → 4.5)."""
    return points2 / 2


# ---------------------------------------------------------------------------------------------
# The arithmetic of one throw, one battle, one shot (shared by resolution and the exact odds)


def duel_throw(
    tables: IliadTables, throw: int, values: tuple[int, int], faces: tuple[int, int], wounded: tuple[bool, bool]
) -> tuple[int | None, Result, int]:
    """Combattimento: duello: one throw of a duel.

    Returns (index of the hero hurt, 0 or 1, or None; the band's result; difference in half points).
    Totals are kept in half points so a halved die stays exact; a half point counts in the higher
    band (interpretation duel-half-points).
    """
    t0 = 2 * values[0] + (faces[0] if wounded[0] else 2 * faces[0])
    t1 = 2 * values[1] + (faces[1] if wounded[1] else 2 * faces[1])
    diff2 = abs(t0 - t1)
    band = tables.duel_result(throw, (diff2 + 1) // 2).result
    if band == "nothing" or diff2 == 0:
        return None, "nothing", diff2
    return (0 if t0 < t1 else 1), band, diff2


def wound(status: Status, second_wound: str) -> Status:
    """The status after a wound (interpretation second-wound)."""
    if status == "wounded" and second_wound == "kills":
        return "killed"
    return "wounded"


def shot_result(face: int) -> Result:
    """Combattimento: arcieri: 6 kills, 5 wounds, lower misses."""
    if face >= SHOT_KILLS:
        return "killed"
    if face >= SHOT_WOUNDS:
        return "wounded"
    return "nothing"


def battle_value(state: IliadState, counter: Counter, cell: Cell, role: Role) -> tuple[int, list[str]]:
    """Combattimento: campo aperto, Il calendario, Movimento: regole particolari: a counter's
    value in open battle and the reasons it doubled (god advantage, the wall)."""
    if counter.value != 1:
        return counter.value, []
    reasons: list[str] = []
    if state.favoured() is counter.side:
        reasons.append(GOD_ADVANTAGE)
    if state.wall:
        square = state.tables.board.squares[cell]
        inside = square.camp or square.terrain is Terrain.WALL
        if state.tables.choice("wall-doubling") == "anyone-inside" or role == "defender":
            doubled = inside
        else:
            doubled = counter.side is Side.TROJAN and square.camp
        if doubled:
            reasons.append(INSIDE_WALL)
    if not reasons:
        return 1, []
    factor = 2 ** len(reasons) if state.tables.choice("doubling-stack") == "stack" else 2
    return factor, reasons


# ---------------------------------------------------------------------------------------------
# Results


class ShotResult(BaseModel):
    """An arrow: who shot whom, the die, what happened."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["shot"] = "shot"
    archer: str
    target: str
    face: int
    result: Result

    def ruling(self, cites: tuple[RuleRef, ...] = ()) -> Ruling:
        """The event of this arrow (its message said again in any language)."""
        args: dict[str, Arg] = {"archer": self.archer, "target": self.target, "face": self.face}
        code = f"arrow-{self.result}"
        if self.result == "killed":
            return Ruling.event(code, "{archer} shoots {target}: {face} kills", cites, **args)
        if self.result == "wounded":
            return Ruling.event(code, "{archer} shoots {target}: {face} wounds", cites, **args)
        return Ruling.event(code, "{archer} shoots {target}: {face} misses", cites, **args)

    def summary(self) -> str:
        """One line for the log, in the active language."""
        return self.ruling().message


class ThrowResult(BaseModel):
    """One throw of a duel."""

    model_config = ConfigDict(frozen=True)

    throw: int
    faces: tuple[int, int]
    totals: tuple[float, float]
    difference: float
    result: Result
    hurt: str | None


class DuelResult(BaseModel):
    """A duel: the two heroes, each throw, how each ended."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["duel"] = "duel"
    attacker: str
    defender: str
    values: tuple[int, int]
    scheduled: bool = False
    throws: tuple[ThrowResult, ...]
    outcome: tuple[Status, Status]

    def ruling(self, cites: tuple[RuleRef, ...] = ()) -> Ruling:
        """The event of this duel: every throw's faces, totals and result are arguments, so the
        whole message is said again in any language."""
        args: dict[str, Arg] = {"attacker": self.attacker, "a": self.values[0], "defender": self.defender,
                                "d": self.values[1], "a_end": self.outcome[0], "d_end": self.outcome[1]}
        for i, t in enumerate(self.throws, start=1):
            args[f"f{i}"] = f"{t.faces[0]}-{t.faces[1]}"
            args[f"t{i}"] = f"{_num(t.totals[0])} v {_num(t.totals[1])}"
            args[f"h{i}"] = f"{t.hurt} " if t.hurt else ""
            args[f"s{i}"] = t.result if t.hurt else "nothing"
        n = len(self.throws)
        if self.scheduled and n == 1:
            return Ruling.event("duel", "scheduled duel {attacker} ({a}) v {defender} ({d}): throw 1 {f1} ({t1}): "
                                "{h1}{s1} → {attacker} {a_end}, {defender} {d_end}", cites, **args)
        if self.scheduled and n == 2:
            return Ruling.event("duel", "scheduled duel {attacker} ({a}) v {defender} ({d}): throw 1 {f1} ({t1}): "
                                "{h1}{s1}; throw 2 {f2} ({t2}): {h2}{s2} → {attacker} {a_end}, {defender} {d_end}",
                                cites, **args)
        if self.scheduled:
            return Ruling.event("duel", "scheduled duel {attacker} ({a}) v {defender} ({d}): throw 1 {f1} ({t1}): "
                                "{h1}{s1}; throw 2 {f2} ({t2}): {h2}{s2}; throw 3 {f3} ({t3}): {h3}{s3} → "
                                "{attacker} {a_end}, {defender} {d_end}", cites, **args)
        if n == 1:
            return Ruling.event("duel", "duel {attacker} ({a}) v {defender} ({d}): throw 1 {f1} ({t1}): {h1}{s1} → "
                                "{attacker} {a_end}, {defender} {d_end}", cites, **args)
        if n == 2:
            return Ruling.event("duel", "duel {attacker} ({a}) v {defender} ({d}): throw 1 {f1} ({t1}): {h1}{s1}; "
                                "throw 2 {f2} ({t2}): {h2}{s2} → {attacker} {a_end}, {defender} {d_end}",
                                cites, **args)
        return Ruling.event("duel", "duel {attacker} ({a}) v {defender} ({d}): throw 1 {f1} ({t1}): {h1}{s1}; "
                            "throw 2 {f2} ({t2}): {h2}{s2}; throw 3 {f3} ({t3}): {h3}{s3} → {attacker} {a_end}, "
                            "{defender} {d_end}", cites, **args)

    def summary(self) -> str:
        """One line for the log, in the active language."""
        return self.ruling().message


class BattleResult(BaseModel):
    """An open battle: both sides, their values and dice, who was eliminated."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["battle"] = "battle"
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    values: tuple[int, int]
    doubled: tuple[str, ...] = ()
    faces: tuple[tuple[int, int], ...]
    totals: tuple[float, float]
    winner: Literal["attackers", "defenders"] | None
    eliminated: tuple[str, ...]

    def ruling(self, cites: tuple[RuleRef, ...] = ()) -> Ruling:
        """The event of this battle (its message said again in any language)."""
        args: dict[str, Arg] = {
            "attackers": ", ".join(self.attackers), "a": self.values[0], "defenders": ", ".join(self.defenders),
            "d": self.values[1], "dice": ", ".join(f"{a}-{d}" for a, d in self.faces),
            "ta": _num(self.totals[0]), "td": _num(self.totals[1]),
        }
        if self.winner is None:
            return Ruling.event("battle", "battle {attackers} ({a}) v {defenders} ({d}): dice {dice}, totals {ta} v "
                                "{td} → tie, nobody falls", cites, **args)
        return Ruling.counted(
            "battle", "battle {attackers} ({a}) v {defenders} ({d}): dice {dice}, totals {ta} v {td} → the {winner} "
            "win; {eliminated} eliminated", "battle {attackers} ({a}) v {defenders} ({d}): dice {dice}, totals {ta} v "
            "{td} → the {winner} win; {eliminated} eliminated", len(self.eliminated), cites, winner=self.winner,
            eliminated=", ".join(self.eliminated), **args)

    def summary(self) -> str:
        """One line for the log, in the active language."""
        return self.ruling().message


CombatResult = ShotResult | DuelResult | BattleResult


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else str(x)



# ---------------------------------------------------------------------------------------------
# Resolution


@dataclass
class Board:
    """The mutable scratch copy of a state used while combats are resolved."""

    state: IliadState
    where: dict[CounterId, Cell] = field(init=False)
    wounded: list[CounterId] = field(init=False)
    dead: list[CounterId] = field(init=False)
    lost: dict[Side, list[CounterId]] = field(init=False)
    points: dict[Side, int] = field(init=False)
    newly_wounded: list[CounterId] = field(default_factory=list)
    events: list[Ruling] = field(default_factory=list)
    provisional: list[str] = field(default_factory=list)
    results: list[CombatResult] = field(default_factory=list)

    def __post_init__(self) -> None:
        s = self.state
        self.where = dict(s.where)
        self.wounded = list(s.wounded)
        self.dead = list(s.dead)
        self.lost = {side: list(s.lost.get(side, ())) for side in Side}
        self.points = {side: s.points_lost(side) for side in Side}

    def disclose(self, *items: str) -> None:
        for item in items:
            if item not in self.provisional:
                self.provisional.append(item)

    def interpretation(self, ident: str) -> str:
        label = self.state.tables.interpretation(ident)
        self.disclose(label)
        return self.state.tables.choice(ident)

    def kill(self, ident: CounterId) -> None:
        counter = self.state.counter(ident)
        self.where.pop(ident, None)
        if ident in self.wounded:
            self.wounded.remove(ident)
        self.dead.append(ident)
        self.lost[counter.side].append(ident)
        self.points[counter.side] += counter.value

    def hurt(self, ident: CounterId) -> Status:
        """Wounds a counter (or kills it, second-wound kills); returns its new status."""
        status: Status = "wounded" if ident in self.wounded else "unhurt"
        status = wound(status, self.interpretation("second-wound")) if status == "wounded" else "wounded"
        if status == "killed":
            self.kill(ident)
        elif ident not in self.wounded:
            self.wounded.append(ident)
            self.newly_wounded.append(ident)
        return status

    def finish(self) -> IliadState:
        lost = {side: tuple(v) for side, v in self.lost.items() if v}
        points = {side: v for side, v in self.points.items() if v}
        return self.state.model_copy(update={
            "where": self.where, "wounded": tuple(self.wounded), "dead": tuple(self.dead),
            "lost": lost, "lost_points": points,
        })


def resolve_move(state: IliadState, dice: Dice) -> Board:
    """Come si gioca (III): resolves the move's shots, then its duels and battles, then carries
    the wounded behind their lines; returns the scratch board holding the results."""
    board = Board(state)
    for shot in state.shots:
        _shoot(board, shot.archer, shot.target, dice)
    if state.shots and board.newly_wounded and board.interpretation("arrow-wound") == "carried-at-once":
        carry_wounded(board)
    for attackers, defenders in combat_groups(state.attacks):
        a = [x for x in attackers if x in board.where]
        d = [x for x in defenders if x in board.where]
        if not a or not d:
            gone = ", ".join(x for x in (*attackers, *defenders) if x not in board.where)
            board.events.append(Ruling.event(
                "combat-cancelled", "{attackers} against {defenders} does not take place: {gone} fell or was "
                "carried away before it", (ARCHERY,), attackers=", ".join(attackers), defenders=", ".join(defenders),
                gone=gone))
            continue
        if len(a) == 1 and len(d) == 1 and state.counter(a[0]).hero and state.counter(d[0]).hero:
            fight_duel(board, a[0], d[0], dice)
        else:
            fight_battle(board, a, d, dice)
    carry_wounded(board)
    return board


def _shoot(board: Board, archer: CounterId, target: CounterId, dice: Dice) -> None:
    if archer not in board.where or target not in board.where:
        board.events.append(Ruling.event("shot-cancelled", "{archer}'s shot at {target} is void: one of them is no "
                                         "longer on the map", (ARCHERY,), archer=archer, target=target))
        return
    face = dice.roll(1, 6, ARROW_ROLL.format(archer=archer, target=target)).faces[0]
    result = shot_result(face)
    if result == "killed":
        board.kill(target)
    elif result == "wounded":
        board.disclose(board.state.tables.interpretation("arrow-wound"))
        status = board.hurt(target)
        if status == "killed":
            result = "killed"
    board.results.append(ShotResult(archer=archer, target=target, face=face, result=result))
    board.disclose(board.state.tables.interpretation("archer-line"))
    shot = board.results[-1]
    assert isinstance(shot, ShotResult)
    board.events.append(shot.ruling((ARCHERY,)))


def fight_duel(board: Board, attacker: CounterId, defender: CounterId, dice: Dice, scheduled: bool = False) -> None:
    """Combattimento: duello: three throws; wounds halve later dice; the dead leave the map."""
    state = board.state
    tables = state.tables
    heroes = (attacker, defender)
    values = (state.counter(attacker).value, state.counter(defender).value)
    status: list[Status] = ["wounded" if h in board.wounded else "unhurt" for h in heroes]
    throws: list[ThrowResult] = []
    for throw in range(1, DUEL_THROWS + 1):
        faces = dice.roll(2, 6, DUEL_ROLL.format(attacker=attacker, defender=defender, throw=throw)).faces
        hurt, band, diff2 = duel_throw(tables, throw, values, (faces[0], faces[1]),
                                       (status[0] == "wounded", status[1] == "wounded"))
        totals = tuple(v + (f / 2 if s == "wounded" else f) for v, f, s in zip(values, faces, status, strict=True))
        if hurt is not None:
            status[hurt] = "killed" if band == "killed" else board.hurt(heroes[hurt])
            if band == "killed":
                board.kill(heroes[hurt])
        if diff2 % 2:
            board.disclose(tables.interpretation("duel-half-points"))
        if diff2 == 0:
            board.disclose(tables.interpretation("duel-equal-totals"))
        elif (diff2 + 1) // 2 > 6:
            board.disclose(tables.interpretation("duel-large-difference"))
        throws.append(ThrowResult(throw=throw, faces=(faces[0], faces[1]), totals=(totals[0], totals[1]),
                                  difference=diff2 / 2, result=band if hurt is not None else "nothing",
                                  hurt=heroes[hurt] if hurt is not None else None))
        if "killed" in status:
            break
    result = DuelResult(attacker=attacker, defender=defender, values=values, scheduled=scheduled,
                        throws=tuple(throws), outcome=(status[0], status[1]))
    board.results.append(result)
    board.disclose(*roster_disclosure(state, heroes))
    cites = (DUEL, CALENDAR) if scheduled else (DUEL,)
    board.events.append(result.ruling(cites))


def fight_battle(board: Board, attackers: list[CounterId], defenders: list[CounterId], dice: Dice) -> None:
    """Combattimento: campo aperto: one die a side plus the side's values; the higher total
    eliminates every enemy counter of the battle (ties: interpretation battle-tie)."""
    state = board.state
    involved = (*attackers, *defenders)
    rule = (board.interpretation("wounded-in-battle") if any(x in board.wounded for x in involved)
            else state.tables.choice("wounded-in-battle"))
    a_sum, a_doubled, a_halved = _side_total(board, attackers, "attacker", rule)
    d_sum, d_doubled, d_halved = _side_total(board, defenders, "defender", rule)
    sums, doubled, halved = (a_sum, d_sum), a_doubled + d_doubled, (a_halved, d_halved)
    faces_list: list[tuple[int, int]] = []
    totals2 = (0, 0)
    for _reroll in range(MAX_REROLLS):
        purpose = BATTLE_ROLL.format(attackers=", ".join(attackers), defenders=", ".join(defenders))
        faces = dice.roll(2, 6, purpose).faces
        faces_list.append((faces[0], faces[1]))
        totals2 = (2 * sums[0] + (faces[0] if halved[0] else 2 * faces[0]),
                   2 * sums[1] + (faces[1] if halved[1] else 2 * faces[1]))
        if totals2[0] != totals2[1] or board.interpretation("battle-tie") != "reroll":
            break
    winner: Literal["attackers", "defenders"] | None = None
    eliminated: list[CounterId] = []
    if totals2[0] > totals2[1]:
        winner, eliminated = "attackers", list(defenders)
    elif totals2[1] > totals2[0]:
        winner, eliminated = "defenders", list(attackers)
    else:
        board.disclose(state.tables.interpretation("battle-tie"))
    for ident in eliminated:
        board.kill(ident)
    result = BattleResult(attackers=tuple(attackers), defenders=tuple(defenders), values=(sums[0], sums[1]),
                          doubled=tuple(doubled), faces=tuple(faces_list),
                          totals=(half(totals2[0]), half(totals2[1])), winner=winner, eliminated=tuple(eliminated))
    board.results.append(result)
    if doubled:
        if any(GOD_ADVANTAGE in d for d in doubled):
            board.disclose(advantage_disclosure(state))
        if any(INSIDE_WALL in d for d in doubled):
            board.disclose(state.tables.interpretation("wall-doubling"))
    if any(d.count(",") for d in doubled):
        board.disclose(state.tables.interpretation("doubling-stack"))
    board.disclose(state.tables.interpretation("battle-sides"), *roster_disclosure(state, (*attackers, *defenders)))
    if any(state.counter(x).archer for x in (*attackers, *defenders)):
        board.disclose(state.tables.interpretation("archer-value"))
    cites = (BATTLE, CALENDAR, TERRAIN) if doubled else (BATTLE,)
    board.events.append(result.ruling(cites))


def _side_total(board: Board, group: list[CounterId], role: Role, rule: str) -> tuple[int, list[str], bool]:
    """One side of an open battle: its summed values, what doubled, whether its die is halved."""
    state = board.state
    total = 0
    doubled: list[str] = []
    for ident in group:
        value, reasons = battle_value(state, state.counter(ident), board.where[ident], role)
        total += value
        if reasons:
            doubled.append(f"{ident} ×{value} ({', '.join(reasons)})")
    hurt = [x in board.wounded for x in group]
    return total, doubled, (all(hurt) if rule == "all-wounded" else any(hurt))


def roster_disclosure(state: IliadState, idents: tuple[CounterId, ...] | list[CounterId]) -> list[str]:
    """One disclosure line for the values of counters that are not from the rulebook."""
    shaky = [state.counter(i) for i in idents if state.counter(i).provenance != "rulebook"]
    if not shaky:
        return []
    return ["roster.yaml: " + ", ".join(f"{c.id} {c.value_label} ({c.provenance})" for c in shaky)]


def home_squares(state: IliadState, side: Side) -> list[Cell]:
    """Combattimento: duello (interpretation wounded-placement): behind a side's lines."""
    board = state.tables.board
    squares = set(board.starts(side))
    if side is Side.GREEK and state.wall:
        squares |= board.camp
    return sorted(squares)


def carry_wounded(board: Board) -> None:
    """Combattimento: duello: the newly wounded go behind their own lines (own start square if
    free, else the nearest free square there; interpretation wounded-placement)."""
    state = board.state
    grid = state.tables.board.grid
    for ident in board.newly_wounded:
        here = board.where.get(ident)
        if here is None:
            continue
        side = state.counter(ident).side
        homes = home_squares(state, side)
        if here in homes:
            continue
        taken = set(board.where.values())
        own = state.start.get(ident)
        free = [c for c in homes if c not in taken]
        if not free:
            continue
        anchor = own if own is not None else here
        dest = own if own in free else min(free, key=lambda c: (grid.chebyshev(anchor, c), c))
        board.where[ident] = dest
        board.disclose(state.tables.interpretation("wounded-placement"))
        board.events.append(Ruling.event("wounded-carried", "{counter} is carried from {start} to {end} behind the "
                                         "{side}' lines", (DUEL,), counter=ident, start=grid.name(here),
                                         end=grid.name(dest), side=side.label))
    board.newly_wounded.clear()
