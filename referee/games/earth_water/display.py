"""How a 300 solo state is shown: the city table (a map that is not a grid) and the status lines."""

from __future__ import annotations

from referee.game import MapView
from referee.games.earth_water.sequence import PHASE_NAMES
from referee.games.earth_water.state import EarthWaterState, Phase, Side, many


def board_view(state: EarthWaterState) -> MapView:
    """Returns the board as data for the terminal and PNG renderers."""
    s = state
    rows: list[tuple[str, ...]] = []
    for city in s.tables.cities:
        row, g = s.tables.row(city), s.at(city)
        holder = s.controller(city)
        major = f"{row.major.label} Major" if row.major else ""
        rows.append((
            city + (" ⚔" if s.battle is not None and s.battle.city == city else ""), major,
            "port" if row.port else "", str(row.amphorae),
            _pair(g.greek_armies, g.greek_fleets), _pair(g.persian_armies, g.persian_fleets),
            holder.label if holder else "",
        ))
    notes = ("armies/fleets per side; ⚔ pending battle", f"bridge {'built' if s.bridge else 'destroyed'}")
    return MapView(title="300: Earth & Water — solo", columns=(
        "City", "Major", "Port", "Amph.", "Greek A/F", "Persian A/F", "Control"),
        rows=tuple(rows), status=tuple(status_lines(s)), notes=notes)

def status_lines(state: EarthWaterState) -> list[str]:
    """Returns short lines on the turn, phase and what the game waits for."""
    s = state
    score = f"{abs(s.score)} {'Persian' if s.score > 0 else 'Greek'} side" if s.score else "0"
    lines = [f"Campaign {s.campaign}, {PHASE_NAMES[s.phase]}; score {score}; hands Persia {s.hands.persia}, "
             f"Greece {s.hands.greece}"]
    if s.phase is Phase.OVER:
        return [*lines, f"Game over: {s.end_reason}"]
    reserve = s.greek_reserve()
    lines.append(f"Greek reserve {many(reserve[0], 'army')}, {many(reserve[1], 'fleet')}; portraits: "
                 f"Persia {s.portraits.persia}, Greece {s.portraits.greece}")
    if s.battle is not None:
        lines.append(f"Battle in {s.battle.city} ({s.battle.kind}, round {s.battle.rounds + 1} next): "
                     "fight | resolve | retreat CITY")
    elif s.may_burn:
        lines.append("Greece may burn the bridge now: burn bridge")
    waiting = {
        Phase.PERSIAN_PREPARATION: "Next: referee persia prepare",
        Phase.GREEK_PREPARATION: f"Greece prepares: {many(s.greek_talents, 'talent')} left (buy ..., done)",
        Phase.PERSIAN_SUPPLY: "Next: referee persia supply",
        Phase.GREEK_SUPPLY: f"Greece supplies: remove {s.attrition_due} for attrition, keep N, done",
    }
    if s.phase is Phase.OPERATIONS and s.battle is None:
        lines.append("Next: referee persia operate" if s.active is Side.PERSIA
                     else "Greece operates: move | sail | event | pass")
    elif s.phase in waiting:
        lines.append(waiting[s.phase])
    return lines


def _pair(armies: int, fleets: int) -> str:
    if not armies and not fleets:
        return ""
    return f"{armies}/{fleets}"
