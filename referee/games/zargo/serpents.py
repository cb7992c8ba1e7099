"""The Serpent's carry-on (rulebook "DÉTAIL DES CAPACITÉS — SERPENTS"): a choice, not a rule the
referee applies for the player.

A Serpent that moved in a straight line and beat the enemy straight ahead may go on along the
same line with the points it has left, and charge the next enemy it meets there, alone (rules.yaml
``serpent-line``: over free plain hexes, one die per enemy met). The resolution pauses after such
a win: ``carry`` goes on, ``resolve`` stops there; after each further win the choice comes again.
"""

from __future__ import annotations

from referee.dice import Dice
from referee.games.zargo.acting import Found
from referee.games.zargo.combat import attack_total, combat_result, defence_total, die, offer_carry
from referee.games.zargo.results import RESULT_MEANING, apply_result
from referee.games.zargo.rules import COMBAT, SERPENTS
from referee.games.zargo.state import Phase, Turn, ZargoState, key, unit
from referee.games.zargo.tables import Reads
from referee.games.zargo.world import Terrain
from referee.i18n import N_
from referee.phrases import form
from referee.rulings import Ruling

__all__ = ["carry_on", "check_carry"]


SERPENT_ROLL = form(N_("serpent at {name}"))  # a roll's purpose: its words seed a digital roll

def check_carry(state: ZargoState, reads: Reads) -> Found:
    """SERPENTS: a Serpent may carry on only when the resolution offers it the choice."""
    if state.phase is not Phase.RESOLVE or state.carry is None:
        return [Ruling.violation("no-carry", "no Serpent may carry on now", (SERPENTS,))]
    reads.use("serpent-line")
    return []


def carry_on(state: ZargoState, w: Turn, dice: Dice) -> None:
    """Moves the Serpent on along its line over free plain hexes, fighting the first enemy it
    meets; after a win with points left it may carry on again (``w.update['carry']``)."""
    assert state.carry is not None
    source, direction, left = state.carry
    w.update["carry"] = None
    grid = state.tables.world.grid
    label = state.board[source][0]
    u = unit(state, label)
    here = grid.parse(source)
    table = state.tables.tables.combat
    by = w.reads.choice(state.tables, "combat-by-difference")
    while left > 0:
        nxt = grid.step(here, direction)
        if nxt is None:
            break
        name, here_name = grid.name(nxt), grid.name(here)
        if state.tables.world.terrain[nxt] is not Terrain.PLAIN or name in w.cities:
            break
        enemy = w.board.get(name)
        if enemy is not None:
            foe = unit(state, enemy[0])
            if state.allied(foe.people, u.people) or name in w.paralysed:
                break
            now = w.state().model_copy(update={"moved": {key(here_name, label): (here_name,)}})
            attack, _charged = attack_total(now, [here_name], name, w.reads)
            defence = defence_total(now, name, w.reads)
            if table.column(attack, defence, by) is None:
                w.reads.use("weak-attack")
                break
            face = die(dice, SERPENT_ROLL.format(name=name))
            result = combat_result(table, attack, defence, face, by)
            assert result is not None
            w.events.append(
                Ruling.event(
                    "serpent-charge",
                    "the Serpent charges on at {hex}: {a} against {d}, die {die}: {result} ({meaning})",
                    (SERPENTS, COMBAT), hex=name, a=attack, d=defence, die=face, result=result,
                    meaning=RESULT_MEANING[result],
                )
            )
            apply_result(now, w, result, name, [here_name])
            if result in ("DE", "DR") and here_name in w.board:
                offer_carry(state, w, here_name, direction, left)
            return
        w.board[name] = w.board.pop(here_name)
        w.events.append(Ruling.event("serpent-on", "the Serpent goes on to {hex}", (SERPENTS,), hex=name))
        here = nxt
        left -= 1

