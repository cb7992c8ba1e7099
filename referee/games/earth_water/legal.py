"""The legal-action generator and ``referee legal`` reports, built on the judging checks.

Candidates come from the movement helpers (routes, ports, reserves) and each one is kept only
when :func:`~referee.games.earth_water.verdicts.violations` finds nothing, so generation and
judging agree by construction.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from referee.games.earth_water import actions as act
from referee.games.earth_water.actions import GRAMMAR
from referee.games.earth_water.combat import retreat_options
from referee.games.earth_water.movement import reachable, route
from referee.games.earth_water.sequence import greek_attrition_due
from referee.games.earth_water.state import EarthWaterState, units
from referee.games.earth_water.tables import CityName, Phase, Side
from referee.games.earth_water.verdicts import violations
from referee.i18n import _
from referee.rulings import Ruling

P = Phase


def legal_actions(state: EarthWaterState) -> list[act.EarthWaterAction]:
    """Returns every legal action now (one ``event`` stands for any card event)."""
    if state.phase is P.OVER:
        return []
    out: list[act.EarthWaterAction] = []
    if state.may_burn:
        out.append(act.BurnBridge())
    if state.battle is not None:
        out += [act.Fight(), act.Fight(to_end=True)]
        out += [act.Retreat(city=c) for c in retreat_options(state)]
        out += _cards(state)
        return [a for a in out if not violations(state, a)]
    phase = state.phase
    if phase in (P.PERSIAN_PREPARATION, P.PERSIAN_SUPPLY) or (phase is P.OPERATIONS and state.active is Side.PERSIA):
        procedure = {P.PERSIAN_PREPARATION: "prepare", P.PERSIAN_SUPPLY: "supply"}.get(phase, "operate")
        out.append(act.Persia(procedure=procedure))
        return out
    if phase is P.GREEK_PREPARATION:
        out += _purchases(state)
    elif phase in (P.OPERATIONS, P.ANY):
        out += _operations(state)
        if phase is P.ANY:
            out.append(act.Persia(procedure="operate"))
    elif phase is P.GREEK_SUPPLY:
        out += _supply(state)
    return [a for a in out if not violations(state, a)]


def _purchases(state: EarthWaterState) -> list[act.EarthWaterAction]:
    out: list[act.EarthWaterAction] = [act.Done()]
    talents = state.greek_talents
    out += [act.Buy(what="cards", count=n) for n in range(1, talents + 1)]
    for city in state.tables.cities:
        if state.controls(Side.GREECE, city):
            out += [act.Buy(what="army", count=n, city=city) for n in range(1, talents + 1)]
            if state.tables.row(city).port:
                out += [act.Buy(what="fleet", count=n, city=city) for n in (1, 2) if n <= talents]
    return out


def _operations(state: EarthWaterState) -> list[act.EarthWaterAction]:
    out: list[act.EarthWaterAction] = [act.Pass(), act.Done()]
    if state.hands.greece == 0 and not state.free_moves:
        return out
    out += _cards(state)
    carry = state.tables.base.naval_carry.value
    for city, g in state.cities.items():
        if g.greek_armies and not g.persian_armies:
            came_from = reachable(state, Side.GREECE, city)
            for goal in came_from:
                path = route(came_from, city, goal)
                out += [act.LandMove(count=n, path=path) for n in range(1, g.greek_armies + 1)]
        if g.greek_fleets and state.tables.row(city).port:
            for goal in state.tables.ports():
                if goal == city:
                    continue
                for fleets in range(1, g.greek_fleets + 1):
                    top = min(fleets, carry, g.greek_armies)
                    out += [act.NavalMove(fleets=fleets, start=city, goal=goal, armies=a) for a in range(top + 1)]
    return out


def _cards(state: EarthWaterState) -> list[act.EarthWaterAction]:
    """Draws of unnamed cards, and the events of the cards the hand may hold, with their choices."""
    deck = state.tables.cards.cards
    out: list[act.EarthWaterAction] = []
    unnamed = state.unnamed_greek_cards() > 0
    if unnamed:
        out += [act.Draw(card=n, name=c.greek.en) for n, c in deck.items() if n not in state.greek_cards]
    playable = [n for n in deck if n in state.greek_cards or unnamed]
    ports = [p for p in state.tables.ports() if state.controls(Side.GREECE, p)]
    for n in playable:
        card = deck[n]
        e, name = card.effect, card.greek.en
        if e.kind == "remove":
            out += [act.Event(card=n, name=name, targets=(c,)) for c in state.tables.cities]
            out.append(act.Event(card=n, name=name))
        elif e.kind == "place" and e.unit == "fleets":
            fleets = state.greek_reserve()[1]
            out += [act.Event(card=n, name=name, targets=(p,) * fleets) for p in ports]
        elif e.kind in ("move", "battle-points"):
            for city, g in state.cities.items():
                if g.greek_armies and not g.persian_armies:
                    came_from = reachable(state, Side.GREECE, city)
                    counts = [e.armies] if e.armies else range(1, g.greek_armies + 1)
                    out += [act.Event(card=n, name=name, count=k, path=route(came_from, city, goal))
                            for goal in came_from for k in counts]
        else:
            out.append(act.Event(card=n, name=name))
    return out


def _supply(state: EarthWaterState) -> list[act.EarthWaterAction]:
    out: list[act.EarthWaterAction] = [act.Done()]
    out += [act.Discard(card=n, name=state.tables.cards.cards[n].greek.en) for n in state.greek_cards]
    # Only a keep that discards something (judge refuses one that keeps the whole hand).
    top = min(state.tables.base.greek_hand_kept.value, state.hands.greece - 1)
    out += [act.Keep(count=n) for n in range(top + 1)]
    due = greek_attrition_due(state)
    for city, g in state.cities.items():
        out += [act.Remove(count=n, city=city) for n in range(1, min(g.greek_armies, due) + 1)]
    return out


class CityReport(BaseModel):
    """``referee legal 300-solo --position F CITY``: what the Greek units of a city may do now."""

    model_config = ConfigDict(frozen=True)

    city: str
    control: str | None
    greek_armies: int
    greek_fleets: int
    persian_armies: int
    persian_fleets: int
    land: dict[str, tuple[str, ...]] = Field(default_factory=dict, description="Destination -> road route.")
    battles: tuple[str, ...] = Field(default=(), description="Destinations where a land battle follows.")
    sail_to: tuple[str, ...] = Field(default=(), description="Ports the Greek fleets may sail to.")
    naval_battles: tuple[str, ...] = ()
    may_raise: tuple[str, ...] = Field(default=(), description="In preparation: 'army', 'fleet'.")
    why_not: tuple[Ruling, ...] = ()

    def explain(self) -> list[str]:
        """Returns the report as lines for the terminal."""
        lines = [_("{city}: Greek {ga}, {gf}; Persian {pa}, {pf}; control: {control}").format(
            city=self.city, ga=units(self.greek_armies, "army"), gf=units(self.greek_fleets, "fleet"),
            pa=units(self.persian_armies, "army"), pf=units(self.persian_fleets, "fleet"),
            control=_(self.control.capitalize()) if self.control else _("none"))]
        if self.land:
            lines.append(_("by road: {cities}   (! = battle)").format(
                cities=", ".join(f"{d}{'!' if d in self.battles else ''}" for d in self.land)))
        if self.sail_to:
            lines.append(_("by sea: {cities}").format(
                cities=", ".join(f"{d}{'!' if d in self.naval_battles else ''}" for d in self.sail_to)))
        if self.may_raise:
            lines.append(_("may raise: {units}").format(units=", ".join(GRAMMAR.word(u) for u in self.may_raise)))
        lines += [f"✗ {r.text()} [{r.code}] ({'; '.join(str(c) for c in r.cites)})" for r in self.why_not]
        if len(lines) == 1:
            lines.append(_("nothing to do here now"))
        return lines


def city_report(state: EarthWaterState, city: CityName) -> CityReport:
    """Returns what the Greek units of a city may do now."""
    g = state.at(city)
    holder = state.controller(city)
    land: dict[str, tuple[str, ...]] = {}
    battles: list[str] = []
    sail: list[str] = []
    naval: list[str] = []
    why: list[Ruling] = []
    if g.greek_armies:
        came_from = reachable(state, Side.GREECE, city)
        for goal in came_from:
            probe = act.LandMove(count=1, path=route(came_from, city, goal))
            found = violations(state, probe)
            if found:
                why = found
                break
            land[goal] = probe.path
            if state.at(goal).persian_armies:
                battles.append(goal)
    if g.greek_fleets:
        for port in state.tables.ports():
            naval_probe = act.NavalMove(fleets=1, start=city, goal=port)
            if port != city and not violations(state, naval_probe):
                sail.append(port)
                if state.at(port).persian_fleets:
                    naval.append(port)
    raise_: list[str] = []
    for what in ("army", "fleet"):
        buy = act.Buy(what=what, count=1, city=city)
        if state.phase in (P.GREEK_PREPARATION,) and not violations(state, buy):
            raise_.append(what)
    return CityReport(
        city=city, control=holder.value if holder else None, greek_armies=g.greek_armies,
        greek_fleets=g.greek_fleets, persian_armies=g.persian_armies, persian_fleets=g.persian_fleets,
        land=land, battles=tuple(battles), sail_to=tuple(sail), naval_battles=tuple(naval),
        may_raise=tuple(raise_), why_not=tuple(dict.fromkeys(why)),
    )
