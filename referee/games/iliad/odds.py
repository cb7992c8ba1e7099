"""Exact odds of a duel, an open battle or a shot, by full enumeration of the dice (Fractions).

A duel is enumerated throw by throw over the 36 pairs of faces, carrying the heroes' statuses
(unhurt, wounded, killed) from one throw to the next; a battle over the 36 pairs of one throw (a
tie that is rolled again is conditioned away); a shot over the six faces. The arithmetic of a
throw is the one the referee resolves with (:mod:`referee.games.iliad.combat`). Entry point:
:func:`odds`.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict

from referee.disclosures import relies_on_lines
from referee.errors import IllegalActionError, NotationError
from referee.games.iliad import actions as act
from referee.games.iliad.combat import (
    DUEL_THROWS,
    GOD_ADVANTAGE,
    INSIDE_WALL,
    Role,
    Status,
    battle_value,
    duel_throw,
    roster_disclosure,
    shot_result,
    wound,
)
from referee.games.iliad.movement import composition_problem
from referee.games.iliad.roster import CounterId, Result
from referee.games.iliad.rules import ARCHERY, ZONES
from referee.games.iliad.sequence import advantage_disclosure
from referee.games.iliad.state import Attack, IliadState
from referee.games.iliad.tables import IliadTables
from referee.i18n import _, ngettext
from referee.rulings import Ruling, Verdict

FACES = range(1, 7)
DUEL_TABLE_TOP = 6  # Combattimento: duello: the printed bands stop at a difference of 6
DUEL_READINGS = ("second-wound", "duel-half-points", "duel-equal-totals", "duel-large-difference")
"""The readings a duel's odds may depend on, in the order they are disclosed."""


def duel_distribution(
    tables: IliadTables, values: tuple[int, int], wounded: tuple[bool, bool], second_wound: str = "no-effect",
    *, readings: set[str] | None = None,
) -> dict[tuple[Status, Status], Fraction]:
    """Combattimento: duello: the exact chance of every way a duel ends (attacker, defender).

    ``readings``, when given, receives the id of every interpretation some throw of the duel
    depends on (duel-half-points, duel-equal-totals, duel-large-difference, second-wound).
    """
    touched = readings if readings is not None else set()
    start: tuple[Status, Status] = ("wounded" if wounded[0] else "unhurt", "wounded" if wounded[1] else "unhurt")
    dist: dict[tuple[Status, Status], Fraction] = {start: Fraction(1)}
    for throw in range(1, DUEL_THROWS + 1):
        nxt: dict[tuple[Status, Status], Fraction] = defaultdict(Fraction)
        for statuses, p in dist.items():
            if "killed" in statuses:
                nxt[statuses] += p
                continue
            counts: dict[tuple[Status, Status], int] = defaultdict(int)
            hurt_flags = (statuses[0] == "wounded", statuses[1] == "wounded")
            for f0 in FACES:
                for f1 in FACES:
                    hurt, band, diff2 = duel_throw(tables, throw, values, (f0, f1), hurt_flags)
                    touched.update(_throw_readings(diff2))
                    if hurt is None:
                        counts[statuses] += 1
                        continue
                    after = list(statuses)
                    if band != "killed" and statuses[hurt] == "wounded":
                        touched.add("second-wound")
                    after[hurt] = "killed" if band == "killed" else wound(statuses[hurt], second_wound)
                    counts[(after[0], after[1])] += 1
            for key, n in counts.items():
                nxt[key] += p * Fraction(n, 36)
        dist = dict(nxt)
    return dist


def _throw_readings(diff2: int) -> tuple[str, ...]:
    """The duel readings a throw with this difference (in half points) depends on."""
    if diff2 == 0:
        return ("duel-equal-totals",)
    found = ("duel-half-points",) if diff2 % 2 else ()
    return (*found, "duel-large-difference") if (diff2 + 1) // 2 > DUEL_TABLE_TOP else found


def battle_distribution(
    totals: tuple[int, int], halved: tuple[bool, bool], tie: str = "no-effect"
) -> dict[str, Fraction]:
    """Combattimento: campo aperto: the chance that the attackers win, the defenders win, or a tie."""
    counts = {"attackers": 0, "defenders": 0, "tie": 0}
    for fa in FACES:
        for fd in FACES:
            a = 2 * totals[0] + (fa if halved[0] else 2 * fa)
            d = 2 * totals[1] + (fd if halved[1] else 2 * fd)
            counts["attackers" if a > d else "defenders" if d > a else "tie"] += 1
    if tie == "reroll":
        decided = counts["attackers"] + counts["defenders"]
        return {k: Fraction(counts[k], decided) for k in ("attackers", "defenders")}
    return {k: Fraction(n, 36) for k, n in counts.items()}


def shot_distribution(target_wounded: bool, second_wound: str = "no-effect") -> dict[Result, Fraction]:
    """Combattimento: arcieri: the chance an arrow kills, wounds or misses (a second wound kills
    under interpretation second-wound ``kills``)."""
    out: dict[Result, Fraction] = defaultdict(Fraction)
    for face in FACES:
        result = shot_result(face)
        if result == "wounded" and target_wounded and second_wound == "kills":
            result = "killed"
        out[result] += Fraction(1, 6)
    return dict(out)


class OddsLine(BaseModel):
    """One outcome with its exact probability."""

    model_config = ConfigDict(frozen=True)

    outcome: str
    fraction: str
    probability: float
    percent: str


class OddsReport(BaseModel):
    """``referee odds``: every outcome of one duel, battle or shot, exactly."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["duel", "battle", "shot"]
    attack: str
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    values: tuple[int, int]
    notes: tuple[str, ...] = ()
    outcomes: tuple[OddsLine, ...]
    provisional: tuple[str, ...] = ()

    def explain(self) -> list[str]:
        """Returns the report as lines for the terminal (the outcomes and notes are written in
        the language active when the odds were worked out)."""
        args = {"attackers": ", ".join(self.attackers), "a": self.values[0], "defenders": ", ".join(self.defenders),
                "d": self.values[1]}
        if self.kind == "shot":
            head = _("shot: {archer} at {target}").format(archer=self.attackers[0], target=self.defenders[0])
        elif self.kind == "duel":
            head = _("duel: {attackers} ({a}) against {defenders} ({d})").format(**args)
        else:
            head = _("battle: {attackers} ({a}) against {defenders} ({d})").format(**args)
        lines = [head, *self.notes]
        width = max(len(o.outcome) for o in self.outcomes)
        lines += [f"  {o.outcome:<{width}}  {o.percent:>7}  ({o.fraction})" for o in self.outcomes]
        lines += relies_on_lines(self.provisional)
        return lines


def _line(label: str, p: Fraction) -> OddsLine:
    return OddsLine(outcome=label, fraction=f"{p.numerator}/{p.denominator}", probability=float(p),
                    percent=f"{float(p) * 100:.2f}%")


def odds(state: IliadState, text: str) -> OddsReport:
    """Returns the exact odds of the duel, battle or shot a text describes, in this position.

    The text is ``A x D`` (several on either side separated by commas; ``A F7 x D`` counts A as
    standing on F7) or ``ARCHER shoots D``. Values count god advantage, the wall and wounds as
    the position stands; adjacency is not required (odds are for planning).

    Raises:
        NotationError: the text is not an attack.
        UnknownNameError: an unknown counter or square.
        IllegalActionError: the combat cannot happen (e.g. heroes on both sides of a battle).
    """
    tokens = act.words_of(text)
    if any(act.is_shot(t) for t in tokens):
        split = next(i for i, t in enumerate(tokens) if act.is_shot(t))
        archer = state.counter(CounterId(act.hero(state, tokens[:split])))
        target = state.counter(CounterId(act.hero(state, tokens[split + 1:])))
        if not archer.archer:
            raise IllegalActionError(Verdict(action=text, violations=(Ruling.violation(
                "not-an-archer", "{counter} is not an archer (no A on the counter)", (ARCHERY,), counter=archer.id),)))
        choice = state.tables.choice("second-wound")
        dist = shot_distribution(target.id in state.wounded, choice)
        wounded = (_("{counter} wounded again (no further effect)") if target.id in state.wounded
                   else _("{counter} wounded"))
        labels = {"killed": _("{counter} killed").format(counter=target.id),
                  "wounded": wounded.format(counter=target.id), "nothing": _("missed")}
        lines = tuple(_line(labels[k], dist[k]) for k in ("killed", "wounded", "nothing") if k in dist)
        return OddsReport(kind="shot", attack=text, attackers=(archer.id,), defenders=(target.id,), values=(1, 1),
                          outcomes=lines, provisional=(state.tables.interpretation("second-wound"),))
    at = next((i for i, t in enumerate(tokens) if act.is_attack(t)), None)
    if at is None or at == 0:
        raise NotationError(_("{text}: write 'HERO {x} ENEMY' (several separated by commas) or 'ARCHER {shoots} "
                              "ENEMY'").format(text=repr(text), x=act.GRAMMAR.word("x"),
                                               shoots=act.GRAMMAR.word("shoots")))
    left = tokens[:at]
    cells: dict[CounterId, int] = {}
    if len(left) > 1 and act.CELL_TEXT.match(left[-1]):
        grid = state.tables.board.grid
        attackers = act.names_of(state, left[:-1])
        if len(attackers) != 1:
            raise NotationError(_("{text}: a square may follow a single attacker only").format(text=repr(text)))
        cells[CounterId(attackers[0])] = grid.parse(act.square(state, left[-1]))
    else:
        attackers = act.names_of(state, left)
    defenders = act.names_of(state, tokens[at + 1:])
    return _combat_odds(state, text, [CounterId(a) for a in attackers], [CounterId(d) for d in defenders], cells)


def _combat_odds(
    state: IliadState, text: str, attackers: list[CounterId], defenders: list[CounterId], cells: dict[CounterId, int]
) -> OddsReport:
    tables = state.tables
    violations: list[Ruling] = []
    sides = {state.counter(a).side for a in attackers}
    if len(sides) != 1 or any(state.counter(d).side in sides for d in defenders):
        violations.append(Ruling.violation("not-an-enemy", "attackers must all be on one side and defenders on the "
                                           "other", (ZONES,)))
    for ident in (*attackers, *defenders):
        if ident not in state.where and ident not in cells:
            violations.append(Ruling.violation("counter-dead", "{counter} is not on the map", (ZONES,),
                                               counter=ident))
    if not violations:
        attacks = [Attack(attacker=a, targets=tuple(defenders)) for a in attackers]
        problem = composition_problem(state, attacks[:-1], attacks[-1])
        if problem:
            violations.append(problem)
    if violations:
        raise IllegalActionError(Verdict(action=text, violations=tuple(violations)))
    where = {**state.where, **cells}
    provisional = roster_disclosure(state, (*attackers, *defenders))
    a0, d0 = state.counter(attackers[0]), state.counter(defenders[0])
    if len(attackers) == 1 and len(defenders) == 1 and a0.hero and d0.hero:
        second = tables.choice("second-wound")
        wounded = (a0.id in state.wounded, d0.id in state.wounded)
        used: set[str] = set()
        dist = duel_distribution(tables, (a0.value, d0.value), wounded, second, readings=used)
        notes = tuple(_("{counter} is wounded: his dice are halved").format(counter=h)
                      for h, w in zip((a0.id, d0.id), wounded, strict=True) if w)
        order: list[Status] = ["unhurt", "wounded", "killed"]
        lines = tuple(
            _line(f"{a0.id} {_(sa)}, {d0.id} {_(sd)}", dist[(sa, sd)])
            for sa in order for sd in order if (sa, sd) in dist
        )
        provisional += [tables.interpretation(i) for i in DUEL_READINGS if i in used]
        return OddsReport(kind="duel", attack=text, attackers=(a0.id,), defenders=(d0.id,),
                          values=(a0.value, d0.value), notes=notes, outcomes=lines, provisional=tuple(provisional))
    sums = [0, 0]
    notes_list: list[str] = []
    doubled: list[str] = []
    halved = [False, False]
    rule = tables.choice("wounded-in-battle")
    for i, group, role in ((0, attackers, "attacker"), (1, defenders, "defender")):
        side_role: Role = "attacker" if role == "attacker" else "defender"
        for ident in group:
            value, reasons = battle_value(state, state.counter(ident), where[ident], side_role)
            sums[i] += value
            if reasons:
                notes_list.append(_("{counter} counts {value} ({reasons})").format(
                    counter=ident, value=value, reasons=", ".join(_(r) for r in reasons)))
                doubled += reasons
        hurt = [x in state.wounded for x in group]
        halved[i] = all(hurt) if rule == "all-wounded" else any(hurt)
        if halved[i]:
            notes_list.append(_("the attackers' die is halved (wounded)") if role == "attacker"
                              else _("the defenders' die is halved (wounded)"))
    tie = tables.choice("battle-tie")
    dist2 = battle_distribution((sums[0], sums[1]), (halved[0], halved[1]), tie)
    labels = {"attackers": ngettext("{counters} eliminated", "{counters} eliminated", len(defenders)).format(
                  counters=", ".join(defenders)),
              "defenders": ngettext("{counters} eliminated", "{counters} eliminated", len(attackers)).format(
                  counters=", ".join(attackers)),
              "tie": _("tie: nobody falls")}
    lines = tuple(_line(labels[k], dist2[k]) for k in ("attackers", "defenders", "tie") if k in dist2)
    provisional += [tables.interpretation("battle-tie"), tables.interpretation("battle-sides")]
    if GOD_ADVANTAGE in doubled:
        provisional.append(advantage_disclosure(state))
    if INSIDE_WALL in doubled:
        provisional.append(tables.interpretation("wall-doubling"))
    return OddsReport(kind="battle", attack=text, attackers=tuple(attackers), defenders=tuple(defenders),
                      values=(sums[0], sums[1]), notes=tuple(notes_list), outcomes=lines,
                      provisional=tuple(dict.fromkeys(provisional)))
