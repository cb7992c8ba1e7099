"""Zargo's Lords combat: who may attack whom, the totals, and the combat of a field counter
(rulebook "COMBAT — RÈGLES GÉNÉRALES", "DÉTAIL DES CAPACITÉS — CHEVALIERS", "ESCORTES").

An attacker stands next to its target (in its zone of influence) and declares; several attacks
on one target add up into one combat; an escort fights for its stack. A garrison counter may
attack a besieger next to its city from inside (a sally, rules.yaml ``sally``). The totals are
the printed combat factors, plus a sorcerer's help (rules.yaml ``sorcerer-bonus``) and a
Knight's charge: the whole move in one straight hex row gives +3 from the front and +1 from the
side (``charge-front`` says which hexes are the front). The combat table is read by the
difference or the odds of the totals (``combat-by-difference``); below its first column there
is no combat (``weak-attack``). A Serpent that beat the enemy straight ahead on its line may
carry on (:mod:`~referee.games.zargo.serpents`).
"""

from __future__ import annotations

import itertools

from referee.dice import Dice
from referee.games.zargo import actions as act
from referee.games.zargo.acting import Found, active_stack, engaged, garrison_actor
from referee.games.zargo.paths import hex_direction
from referee.games.zargo.results import RESULT_MEANING, apply_result
from referee.games.zargo.rules import COMBAT, KNIGHTS, RECONSTRUCTION, SERPENTS, TERRAIN, TURN
from referee.games.zargo.state import Turn, ZargoState, adjacent, cell, key, split_key, unit
from referee.games.zargo.tables import UNRECORDED, CombatTable, Reads, Result
from referee.geometry import HexGrid
from referee.geometry.search import Cell
from referee.i18n import N_
from referee.phrases import form
from referee.rulings import Ruling

__all__ = [
    "FLANK_BONUS", "FRONT_BONUS", "attack_total", "attackable", "bonus", "charge_bonus", "check_attack",
    "combat_result", "die", "field_combat", "offer_carry",
]

FRONT_BONUS = 3  # DÉTAIL DES CAPACITÉS — CHEVALIERS: +3 from the front
FLANK_BONUS = 1  # ... +1 from the side
RECONSTRUCTION_NOTE = "provisional: combat, arrow, flame and vision tables (tables.yaml)"


COMBAT_ROLL = form(N_("combat at {target}"))  # a roll's purpose: its words seed a digital roll

def die(dice: Dice, purpose: str) -> int:
    """Rolls one six-sided die."""
    return dice.roll(1, 6, purpose).faces[0]


def combat_result(table: CombatTable, attack: int, defence: int, face: int, by: str) -> Result | None:
    """Returns the result of a combat for one die (None: below the table, no combat)."""
    column = table.column(attack, defence, by)
    if column is None:
        return None
    return table.results[str(column)][face - 1]


def charge_bonus(grid: HexGrid, path: list[Cell], target: Cell, reading: str) -> int:
    """Returns a Knight's charge bonus for an attack after moving along ``path`` (start first).

    No bonus unless every step went the same straight way; then +3 from the front and +1 from
    the side: the front is the next hex on the line (``of-the-charge-line``), or it and the two
    hexes beside it ahead (``forward-arc``); the hex straight behind gives nothing."""
    if len(path) < 2:
        return 0
    directions = {hex_direction(grid, x, y) for x, y in itertools.pairwise(path)}
    if len(directions) != 1 or None in directions:
        return 0
    (direction,) = directions
    assert direction is not None
    last = path[-1]
    if target not in grid.neighbours(last) or grid.distance(last, target) != 1:
        return 0
    front = {grid.step(last, direction)}
    if reading == "forward-arc":
        front |= {grid.step(last, direction + 1), grid.step(last, direction - 1)}
    if target in front:
        return FRONT_BONUS
    return 0 if target == grid.step(last, direction + 3) else FLANK_BONUS


def bonus(state: ZargoState, hex_name: str, people: str, reads: Reads) -> int:
    """rules.yaml ``sorcerer-bonus``: +1 to a counter next to a friendly sorcerer (not
    illusionists); the reading is disclosed wherever a sorcerer stands next to a fighter."""
    grid = state.tables.world.grid
    for n in grid.neighbours(cell(state, hex_name)):
        stack = state.board.get(grid.name(n))
        if stack and len(stack) == 1:
            u = unit(state, stack[0])
            if u.people == people and "sorcerer-bonus" in u.powers:
                return 1 if reads.choice(state.tables, "sorcerer-bonus") == "plus-one-adjacent" else 0
    return 0


# ---- declaring ----------------------------------------------------------------------------------


def attackable(state: ZargoState, people: str, target: str, reads: Reads) -> Ruling | None:
    """COMBAT, TERRAIN: whether an enemy stands on ``target`` that may be attacked."""
    owner = state.people_of(target)
    if owner is None:
        return Ruling.violation("no-target", "nothing to attack on {hex}", (COMBAT,), hex=target)
    if state.allied(owner, people):
        return Ruling.violation(
            "friendly-target", "{hex} holds the {owner}, own or allied", (COMBAT, TURN), hex=target, owner=owner
        )
    if target in state.paralysed:
        reads.use("paralysis-count")
        return Ruling.violation(
            "paralysed-target", "{hex} is held in a magic chasm and cannot be attacked", (TERRAIN,), hex=target
        )
    return None


def check_attack(state: ZargoState, a: act.Attack, reads: Reads = UNRECORDED) -> Found:
    """COMBAT: the attacker stands next to its target (its zone) and declares; the escort fights.
    LA CONQUÊTE D'UNE VILLE: a garrison counter attacks a besieger next to its city (a sally)."""
    out: Found = []
    if a.label is not None or (a.source in state.cities and a.source not in state.board):
        actor = garrison_actor(state, a.source, a.label, lambda u: u.combat > 0, reads)
        if isinstance(actor, list):
            return actor
        out += engaged(state, a.source, reads, actor)
    else:
        stack = active_stack(state, a.source)
        if not isinstance(stack, tuple):
            return stack
        out += engaged(state, a.source, reads)
    if not adjacent(state, a.source, a.target, reads):
        out.append(
            Ruling.violation(
                "not-adjacent", "{target} is not next to {source}; move next to it first", (COMBAT,),
                target=a.target, source=a.source,
            )
        )
    wrong = attackable(state, str(state.active), a.target, reads)
    if wrong is not None:
        out.append(wrong)
    return out


def attacker_id(state: ZargoState, a: act.Attack) -> str:
    """The attacker as the state records it: its hex, or ``city:label`` for a sally."""
    if a.label is not None or (a.source in state.cities and a.source not in state.board):
        label = a.label
        if label is None:
            actor = garrison_actor(state, a.source, None, lambda u: u.combat > 0, UNRECORDED)
            assert isinstance(actor, str)
            label = actor
        return key(a.source, label)
    return a.source


def acted_keys(state: ZargoState, ident: str) -> tuple[str, ...]:
    """The ``hex:label`` of every counter an attacker's declaration engages."""
    hex_name, label = split_key(ident)
    if label is not None:
        return (key(hex_name, label),)
    return tuple(key(hex_name, lab) for lab in state.board[hex_name])


# ---- totals ---------------------------------------------------------------------------------------


def attack_total(state: ZargoState, attackers: list[str], target: str, reads: Reads) -> tuple[int, bool]:
    """Returns the attackers' total and whether a Knight's charge counted in it (CHEVALIERS;
    Monk knights gain nothing: their counters have no charge power)."""
    total = 0
    charged = False
    grid = state.tables.world.grid
    for ident in attackers:
        hex_name, label = split_key(ident)
        lab = label if label is not None else state.board[hex_name][0]
        u = unit(state, lab)
        total += u.combat + bonus(state, hex_name, u.people, reads)
        path = state.moved.get(key(hex_name, lab)) if label is None else None
        if "charge" in u.powers and path and len(state.board[hex_name]) == 1:
            reading = reads.choice(state.tables, "charge-front")
            gain = charge_bonus(grid, [cell(state, p) for p in path], cell(state, target), reading)
            total += gain
            charged = charged or gain > 0
    return total, charged


def defence_total(state: ZargoState, target: str, reads: Reads) -> int:
    """Returns the defender's total: its fighter's factor and a sorcerer's help."""
    fighter = unit(state, state.board[target][0])
    return fighter.combat + bonus(state, target, fighter.people, reads)


# ---- resolving ---------------------------------------------------------------------------------------


def field_combat(state: ZargoState, w: Turn, dice: Dice, target: str, attackers: list[str]) -> str | None:
    """COMBAT — RÈGLES GÉNÉRALES: one combat against a counter on the board; returns the Serpent
    that may carry on past it (its hex), if any."""
    stack = state.board.get(target)
    if not stack or state.allied(unit(state, stack[0]).people, str(state.active)):
        return None  # the defender was burnt or driven off by a shot
    table = state.tables.tables.combat
    attack, charged = attack_total(state, attackers, target, w.reads)
    defence = defence_total(state, target, w.reads)
    by = w.reads.choice(state.tables, "combat-by-difference")
    w.notes.append(RECONSTRUCTION_NOTE)
    if table.column(attack, defence, by) is None:
        w.reads.use("weak-attack")
        w.events.append(
            Ruling.event(
                "attack-too-weak", "attack on {hex}: {a} against {d} is below the table's first column; no combat",
                (COMBAT, RECONSTRUCTION), hex=target, a=attack, d=defence,
            )
        )
        return None
    face = die(dice, COMBAT_ROLL.format(target=target))
    result = combat_result(table, attack, defence, face, by)
    assert result is not None
    w.events.append(
        Ruling.event(
            "combat", "combat at {hex}: {a} against {d}, die {die}: {result} ({meaning})",
            (COMBAT, KNIGHTS) if charged else (COMBAT,), hex=target, a=attack, d=defence, die=face,
            result=result, meaning=RESULT_MEANING[result],
        )
    )
    apply_result(state, w, result, target, attackers)
    if result in ("DE", "DR") and len(attackers) == 1 and split_key(attackers[0])[1] is None:
        return serpent_may_carry(state, w, attackers[0], target)
    return None


def serpent_may_carry(state: ZargoState, w: Turn, source: str, target: str) -> str | None:
    """SERPENTS: returns the Serpent's hex when it moved straight, beat the enemy straight ahead
    and has points left (it may then carry on along its line)."""
    stack = w.board.get(source)
    if stack is None or len(stack) != 1 or "line-charge" not in unit(state, stack[0]).powers:
        return None
    path = [cell(state, h) for h in state.moved.get(key(source, stack[0]), ())]
    grid = state.tables.world.grid
    directions = {hex_direction(grid, x, y) for x, y in itertools.pairwise(path)}
    if len(path) < 2 or len(directions) != 1 or None in directions:
        return None
    (direction,) = directions
    assert direction is not None
    if grid.step(cell(state, source), direction) != cell(state, target):
        return None
    left = unit(state, stack[0]).move - (len(path) - 1)
    if left <= 0:
        return None
    offer_carry(state, w, source, direction, left)
    return source


def offer_carry(state: ZargoState, w: Turn, source: str, direction: int, left: int) -> None:
    """SERPENTS (rules.yaml ``serpent-line``): the resolution pauses for the Serpent's choice."""
    w.reads.use("serpent-line")
    w.update["carry"] = (source, direction, left)
    w.events.append(
        Ruling.counted(
            "serpent-may-carry-on", "the Serpent on {hex} may carry on along its line ({n} point left): "
            "carry, or resolve to stop", "the Serpent on {hex} may carry on along its line ({n} points left): "
            "carry, or resolve to stop", left, (SERPENTS,), hex=source,
        )
    )
