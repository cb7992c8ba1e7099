"""base 7, 3.C: land and naval battles, one round at a time, and Greek retreats.

A round: each side rolls one die per unit engaged (three at most) and keeps its best; a Persian
die counts at most 4, or 5 in Abydos and Ephesos; the lower side loses a unit, both on a tie.
After any round the Greek may retreat (PERS.IA never does, 3.C). Dice are drawn from the
injected :class:`~referee.dice.Dice`, Greek dice first, then Persian. A naval battle won by
Greek fleets carrying armies lands them, which may start a land battle. Entry points:
:func:`fight_round`, :func:`fight_to_end`, :func:`retreat_options`, :func:`retreat`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from referee.dice import Dice
from referee.errors import DiceError
from referee.games.earth_water.rules import BATTLE, BRIDGE_BURNING, CARDS, NAVAL_MOVE, NO_RETREAT
from referee.games.earth_water.state import Battle, EarthWaterState, Garrison, interp, units
from referee.games.earth_water.tables import CityName, Side
from referee.i18n import N_, _
from referee.phrases import form
from referee.rulings import Ruling


class RoundResult(BaseModel):
    """One battle round: the dice, the best (capped) faces, and the losses; it explains itself."""

    model_config = ConfigDict(frozen=True)

    city: str
    kind: str
    round: int
    greek_faces: tuple[int, ...]
    persian_faces: tuple[int, ...]
    greek_best: int
    persian_best: int
    persian_cap: int
    greek_loss: int
    persian_loss: int
    source: str

    def text(self) -> str:
        """Returns the round as one line."""
        naval = self.kind == "naval"
        raw = max(self.persian_faces, default=0)
        capped = _(" counted {best} (cap {cap})").format(best=self.persian_best, cap=self.persian_cap) \
            if raw > self.persian_best else ""
        losers = []
        if self.greek_loss:
            losers.append(_("Greece loses 1 fleet") if naval else _("Greece loses 1 army"))
        if self.persian_loss:
            losers.append(_("Persia loses 1 fleet") if naval else _("Persia loses 1 army"))
        head = (_("Naval battle of {city}, round {round}") if naval else _("Land battle of {city}, round {round}"))
        source = _("digital dice") if self.source == "digital" else _("physical dice")
        return _("{head}: Greece rolls {greek} (best {greek_best}), Persia rolls {persian} (best {raw}{capped}) "
                 "→ {losses} ({source})").format(
            head=head.format(city=self.city, round=self.round), greek=_faces(self.greek_faces),
            greek_best=self.greek_best, persian=_faces(self.persian_faces), raw=raw, capped=capped,
            losses=_(" and ").join(losers), source=source)


def _faces(faces: tuple[int, ...]) -> str:
    return ",".join(str(f) for f in faces)


def persian_cap(state: EarthWaterState, city: CityName) -> int:
    """base 7: the highest value a Persian die counts for in this city."""
    base = state.tables.base
    home = base.persian_die_cap_at_home
    return home.value if city in home.cities else base.persian_die_cap.value


def engaged(state: EarthWaterState, side: Side) -> int:
    """Returns a side's units in the pending battle (armies on land, fleets at sea)."""
    battle = state.battle
    assert battle is not None
    g = state.at(battle.city)
    return g.armies(side) if battle.kind == "land" else g.fleets(side)


def start_battle(state: EarthWaterState, battle: Battle) -> tuple[EarthWaterState, Ruling]:
    """base 7: records a pending battle and returns the event announcing it."""
    new = state.model_copy(update={"battle": battle})
    g = new.at(battle.city)
    unit = "fleet" if battle.kind == "naval" else "army"
    gr, pe = (g.greek_armies, g.persian_armies) if battle.kind == "land" else (g.greek_fleets, g.persian_fleets)
    args = {"city": battle.city, "greek": units(gr, "Greek " + unit), "persian": units(pe, "Persian " + unit),
            "side": battle.attacker.label}
    if battle.kind == "naval":
        return new, Ruling.event("battle", "naval battle in {city}: {greek} against {persian}, {side} attacking; "
                                 "fight it with 'fight' (one round), 'resolve' (to the end) or, after a round, "
                                 "'retreat CITY'", (BATTLE,), **args)
    return new, Ruling.event("battle", "land battle in {city}: {greek} against {persian}, {side} attacking; "
                             "fight it with 'fight' (one round), 'resolve' (to the end) or, after a round, "
                             "'retreat CITY'", (BATTLE,), **args)


ROUND_ROLL = form(N_("battle of {city} round {n}: {side}"))
"""A battle round's roll for one side (its words seed a digital roll: never change them)."""


def fight_round(state: EarthWaterState, dice: Dice) -> tuple[EarthWaterState, RoundResult, list[Ruling]]:
    """base 7: fights one round of the pending battle; closes it when a side is wiped out."""
    battle = state.battle
    assert battle is not None
    n = battle.rounds + 1
    limit = state.tables.base.battle_dice.value
    greek_dice = battle.greek_dice or min(engaged(state, Side.GREECE), limit)  # a card replaces the count
    persian_dice = min(engaged(state, Side.PERSIA), limit)
    try:
        greek_roll = dice.roll(greek_dice, 6, ROUND_ROLL.format(city=battle.city, n=n, side="Greece"))
        persian_roll = dice.roll(persian_dice, 6, ROUND_ROLL.format(city=battle.city, n=n, side="Persia"))
    except DiceError as exc:  # say how many dice each side rolls, Greek first (issue 15)
        raise DiceError(_("round {n} of the battle of {city} rolls {total} dice: {greek} Greek, then {persian} "
                          "Persian ({why})").format(n=n, city=battle.city, total=greek_dice + persian_dice,
                                                    greek=greek_dice, persian=persian_dice, why=exc)) from None
    cap = persian_cap(state, battle.city)
    g_best = max(greek_roll.faces, default=0)
    p_best = min(max(persian_roll.faces, default=0), cap)
    g_loss = 1 if g_best <= p_best else 0
    p_loss = 1 if p_best <= g_best else 0
    result = RoundResult(
        city=battle.city, kind=battle.kind, round=n, greek_faces=greek_roll.faces,
        persian_faces=persian_roll.faces, greek_best=g_best, persian_best=p_best, persian_cap=cap,
        greek_loss=g_loss, persian_loss=p_loss,
        source="physical" if "physical" in (greek_roll.source, persian_roll.source) else "digital",
    )
    g = state.at(battle.city)
    carried = battle.carried
    if battle.kind == "land":
        g = g.plus(Side.GREECE, armies=-g_loss).plus(Side.PERSIA, armies=-p_loss)
    else:
        if g_loss and carried >= g.greek_fleets:
            carried -= 1  # base 6.5: a sunk fleet's army is lost with it (empty fleets are lost first)
        g = g.plus(Side.GREECE, fleets=-g_loss).plus(Side.PERSIA, fleets=-p_loss)
    new = state.model_copy(update={"cities": state.with_city(battle.city, g),
                                   "battle": battle.model_copy(update={"rounds": n, "carried": carried,
                                                                       "persian_lost": p_loss})})
    events = [Ruling.event("battle-round", result.text(), (BATTLE,))]
    if engaged(new, Side.GREECE) == 0 or engaged(new, Side.PERSIA) == 0:
        new, more = close_battle(new)
        events += more
    return new, result, events


def one_side_gone(state: EarthWaterState) -> bool:
    """True when a pending battle has no unit left on one side (an override removed them)."""
    return state.battle is not None and (engaged(state, Side.GREECE) == 0 or engaged(state, Side.PERSIA) == 0)


def fight_to_end(state: EarthWaterState, dice: Dice) -> tuple[EarthWaterState, list[RoundResult], list[Ruling]]:
    """base 7: fights rounds until the battle (and any landing battle it leads to) is over."""
    rounds: list[RoundResult] = []
    events: list[Ruling] = []
    while state.battle is not None:
        if one_side_gone(state):  # nothing to roll for: the battle ends as it stands
            state, more = close_battle(state)
            events += more
            continue
        state, result, more = fight_round(state, dice)
        rounds.append(result)
        events += more
    return state, rounds, events


def close_battle(state: EarthWaterState) -> tuple[EarthWaterState, list[Ruling]]:
    """base 7, 6.5: ends a battle whose side is wiped out; lands carried armies after a naval win."""
    battle = state.battle
    assert battle is not None
    g = state.at(battle.city)
    events: list[Ruling] = []
    winner = _winner(state)
    unit = "fleets" if battle.kind == "naval" else "armies"
    if winner is None and unit == "fleets":
        events.append(Ruling.event("battle-over", "both sides lose their last fleets in {city}", (BATTLE,),
                                   city=battle.city))
    elif winner is None:
        events.append(Ruling.event("battle-over", "both sides lose their last armies in {city}", (BATTLE,),
                                   city=battle.city))
    else:
        left = g.fleets(winner) if battle.kind == "naval" else g.armies(winner)
        kept = units(left, "fleet" if battle.kind == "naval" else "army")
        events.append(Ruling.event("battle-over", "{side} wins the battle of {city} with {kept} left", (BATTLE,),
                                   side=winner.label, city=battle.city, kept=kept))
    new = state.model_copy(update={"battle": None})
    new, points = card_points(new, battle)
    events += points
    if battle.kind == "naval" and battle.attacker is Side.GREECE and battle.carried:
        if winner is Side.GREECE:
            return land_armies(new, battle.city, battle.carried, battle.origin, events)
        events.append(Ruling.counted("armies-lost", "the {n} Greek army aboard is lost",
                                     "the {n} Greek armies aboard are lost", battle.carried, (NAVAL_MOVE,)))
    if battle.kind == "land" and battle.attacker is Side.GREECE and winner is Side.GREECE:
        new, more = offer_burning(new, battle.city)
        events += more
    return new, events


def land_armies(state: EarthWaterState, city: CityName, armies: int, origin: CityName | None,
                events: list[Ruling]) -> tuple[EarthWaterState, list[Ruling]]:
    """base 6.5: carried armies land; Persian armies in the city mean a land battle."""
    g = state.at(city)
    new = state.model_copy(update={"cities": state.with_city(city, g.plus(Side.GREECE, armies=armies))})
    if g.persian_armies:
        battle = Battle(city=city, kind="land", attacker=Side.GREECE, origin=origin, by_sea=True,
                        fleets=g.greek_fleets)
        new, event = start_battle(new, battle)
        return new, [*events, event]
    events.append(Ruling.counted("landing", "{n} Greek army lands in {city}", "{n} Greek armies land in {city}",
                                 armies, (NAVAL_MOVE,), city=city))
    new, more = offer_burning(new, city)
    return new, events + more


def offer_burning(state: EarthWaterState, city: CityName) -> tuple[EarthWaterState, list[Ruling]]:
    """base 7 bridge: Greek armies taking Abydos may burn the bridge (interpretation bridge-burning)."""
    if not state.bridge or city not in state.tables.bridge_ends or not state.controls(Side.GREECE, city):
        return state, []
    if state.tables.row(city).major is not Side.PERSIA:
        return state, []
    return state.model_copy(update={"may_burn": True}), [Ruling.event(
        "may-burn", "Greece holds {city}: it may burn the bridge now ('burn bridge'), before the next action",
        (BRIDGE_BURNING,), city=city)]


def _winner(state: EarthWaterState) -> Side | None:
    greek, persian = engaged(state, Side.GREECE), engaged(state, Side.PERSIA)
    if greek and not persian:
        return Side.GREECE
    if persian and not greek:
        return Side.PERSIA
    return None


# ---------------------------------------------------------------------------------------------
# Retreats (Greek only: 3.C)


def retreat_options(state: EarthWaterState) -> dict[CityName, str]:
    """base 7: where the Greek units may retreat now, each with 'road' or 'sea'.

    Interpretation attacker-retreat: an attacker goes back where it came from (by sea after a
    landing or a naval attack). Interpretation sea-retreat: a defender retreats by road to an
    adjacent city Greece controls, or by sea when its fleets there are at least as many as its
    armies, to a port city Greece controls with no Persian fleet.
    """
    battle = state.battle
    if battle is None or battle.rounds == 0:
        return {}
    if battle.attacker is Side.GREECE:
        if battle.origin is None:
            return {}
        sea = battle.by_sea or battle.kind == "naval"
        return {battle.origin: "sea" if sea else "road"}
    out: dict[CityName, str] = {}
    tables = state.tables
    g = state.at(battle.city)
    if battle.kind == "land":
        for city in tables.adjacent(battle.city, state.bridge):
            if state.controls(Side.GREECE, city):
                out[city] = "road"
        if not (g.greek_fleets >= g.greek_armies > 0):
            return out
    for port in tables.ports():
        if port != battle.city and port not in out and state.controls(Side.GREECE, port) \
                and state.at(port).persian_fleets == 0:
            out[port] = "sea"
    return out


def check_retreat(state: EarthWaterState, to: CityName) -> Ruling | None:
    """base 7, 3.C: a retreat follows a round, and goes where the rules allow."""
    battle = state.battle
    if battle is None:
        return Ruling.violation("no-battle", "no battle is being fought", (BATTLE,))
    if battle.rounds == 0:
        return Ruling.violation("no-round-yet", "retreat comes after a round; fight the battle of {city} first",
                                (BATTLE,), city=battle.city)
    if battle.attacker is Side.GREECE and battle.origin is None:
        return Ruling.violation("no-origin", "the position does not say which city the Greek attackers of {city} "
                                "came from (battle.origin), and they retreat only there", (BATTLE,), city=battle.city)
    options = retreat_options(state)
    if to in options:
        return None
    if not options:
        return Ruling.violation("bad-retreat", "the Greek units in {city} may not retreat (they fight to the end), "
                                "not to {to}", (BATTLE, NO_RETREAT), city=battle.city, to=to)
    return Ruling.violation("bad-retreat", "the Greek units in {city} may retreat to {where}, not {to}",
                            (BATTLE, NO_RETREAT), city=battle.city, where=", ".join(options), to=to)


def retreat(state: EarthWaterState, to: CityName) -> tuple[EarthWaterState, list[Ruling], tuple[str, ...]]:
    """base 7: moves the Greek units of the battle to ``to`` and ends the battle."""
    battle = state.battle
    assert battle is not None
    how = retreat_options(state)[to]
    here, there = state.at(battle.city), state.at(to)
    armies = fleets = 0
    if battle.kind == "land":
        armies = here.greek_armies
        if how == "sea":
            fleets = min(battle.fleets, here.greek_fleets) if battle.attacker is Side.GREECE else here.greek_fleets
    else:
        fleets = here.greek_fleets
        if battle.attacker is Side.GREECE:
            armies = battle.carried
    land_armies_here = armies if battle.kind == "land" else 0
    cities = {
        **state.cities,
        battle.city: here.plus(Side.GREECE, armies=-land_armies_here, fleets=-fleets),
        to: Garrison(**{**there.model_dump(), "greek_armies": there.greek_armies + armies,
                        "greek_fleets": there.greek_fleets + fleets}),
    }
    new = state.model_copy(update={"cities": cities, "battle": None})
    new, points = card_points(new, battle)
    parts = _(" and ").join(units(n, unit) for n, unit in ((armies, "army"), (fleets, "fleet")) if n)
    used = (interp(state, "attacker-retreat" if battle.attacker is Side.GREECE else "sea-retreat"),)
    if how == "sea":
        said = Ruling.event("retreat", "Greece retreats {units} from {city} to {to} by sea", (BATTLE, NO_RETREAT),
                            units=parts, city=battle.city, to=to)
    else:
        said = Ruling.event("retreat", "Greece retreats {units} from {city} to {to} by road", (BATTLE, NO_RETREAT),
                            units=parts, city=battle.city, to=to)
    return new, [said, *points], used


def card_points(state: EarthWaterState, battle: Battle) -> tuple[EarthWaterState, list[Ruling]]:
    """cards (Evangelion): the battle a card's move started moves the score when it ends: a point
    for Greece when no Persian army is left there, a point for Persia when Greece does not hold the city."""
    if battle.card is None or state.tables.cards.cards[battle.card].effect.kind != "battle-points":
        return state, []
    name = state.tables.cards.cards[battle.card].greek.say()
    track = state.tables.base.score_track.value
    score, events = state.score, []
    if state.at(battle.city).persian_armies == 0:
        score -= 1
        events.append(Ruling.event("card-points", "{card}: a point for Greece (no Persian army left in {city})",
                                   (CARDS,), card=name, city=battle.city))
    if not state.controls(Side.GREECE, battle.city):
        score += 1
        events.append(Ruling.event("card-points", "{card}: a point for Persia (Greece does not hold {city})",
                                   (CARDS,), card=name, city=battle.city))
    return state.model_copy(update={"score": max(-track, min(track, score))}), events
