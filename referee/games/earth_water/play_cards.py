"""The Greek hand and the Greek events of the cards: when a card may be played, and its effect.

The hand is a count (``hands.greece``) of which the player names the cards he draws
(``draw NAME``); a move spends an unnamed card first, or the card it names (``card NAME``).
``event NAME`` plays a card of the hand: its moment (own turn, or a reaction in a battle), its
once-per-game and portrait costs, then its effect, judged with the game's own checks (routes,
reserves, ports). Entry points: :func:`card_violations`, :func:`payment_violation`,
:func:`play_event`, :func:`pay_for_move`.
"""

from __future__ import annotations

from referee.games.earth_water import actions as act
from referee.games.earth_water.cards import Card
from referee.games.earth_water.combat import close_battle, engaged, start_battle
from referee.games.earth_water.movement import (
    check_armies_present,
    check_controlled,
    check_fleet_port,
    check_route,
)
from referee.games.earth_water.rules import BASE_OPERATIONS, BATTLE, CARDS, HANDS, NO_EVENTS, PIECES
from referee.games.earth_water.sequence import check_no_battle, check_phase
from referee.games.earth_water.state import Battle, EarthWaterState
from referee.games.earth_water.tables import CityName, Phase, Side
from referee.i18n import N_, _, ngettext
from referee.rulings import Ruling


def card_of(state: EarthWaterState, number: int) -> Card:
    """Returns a card of the deck."""
    return state.tables.cards.cards[number]


WHY_NEVER = (N_("PERS.IA never makes a naval move"), N_("PERS.IA never plays the Cavalry of Mardonius"),
             N_("PERS.IA never plays a Tribute of Earth and Water"))
"""The reasons cards.yaml gives for cards whose trigger never arises in solo (translated as arguments)."""


def say(state: EarthWaterState, number: int) -> str:
    """Returns a card's Greek name in the active language."""
    return card_of(state, number).greek.say()


def hand_text(state: EarthWaterState) -> str:
    """Returns the Greek hand by name: the named cards, then how many are not named."""
    named = [say(state, c) for c in state.greek_cards]
    unnamed = state.unnamed_greek_cards()
    if unnamed:
        named.append(ngettext("{n} card not named", "{n} cards not named", unnamed).format(n=unnamed))
    return ", ".join(named) if named else _("no card")


def cards_out(before: EarthWaterState, after: EarthWaterState) -> Ruling | None:
    """cards: names the cards that left the Greek hand (spent on a move, discarded, not kept), or
    None when none did."""
    lost = before.hands.greece - after.hands.greece
    if lost <= 0:
        return None
    gone = [say(before, c) for c in before.greek_cards if c not in after.greek_cards]
    unnamed = lost - len(gone)
    if unnamed > 0:
        gone.append(ngettext("{n} card not named", "{n} cards not named", unnamed).format(n=unnamed))
    return Ruling.counted("greek-cards", "{cards} leaves the Greek hand (hand {before} → {after}: {hand})",
                          "{cards} leave the Greek hand (hand {before} → {after}: {hand})", lost, (CARDS,),
                          cards=", ".join(gone), before=before.hands.greece, after=after.hands.greece,
                          hand=hand_text(after))


def in_hand(state: EarthWaterState, number: int) -> Ruling | None:
    """cards: a card is played from the Greek hand (named there, or one of its unnamed cards)."""
    if number in state.greek_cards or state.unnamed_greek_cards() > 0:
        return None
    name = say(state, number)
    if not state.hands.greece:
        return Ruling.violation("no-card", "'{card}' is not in the Greek hand: Greece holds no card", (CARDS,),
                                card=name)
    return Ruling.violation("not-in-hand", "'{card}' is not in the Greek hand (named there: {named})", (CARDS,),
                            card=name, named=", ".join(say(state, c) for c in state.greek_cards))


def draw_violations(state: EarthWaterState, action: act.Draw) -> list[Ruling]:
    """cards: naming a card drawn needs a card not yet named in the hand, and not this one twice."""
    if action.card in state.greek_cards:
        return [Ruling.violation("already-in-hand", "'{card}' is already named in the Greek hand", (CARDS,),
                                 card=say(state, action.card))]
    if state.unnamed_greek_cards() <= 0:
        return [Ruling.violation("no-card-to-name", "every card of the Greek hand is named already ({n}); buy "
                                 "cards first", (CARDS,), n=state.hands.greece)]
    return []


def discard_violations(state: EarthWaterState, action: act.Discard) -> list[Ruling]:
    """base 8.1: Greece discards named cards of its choice in its supply."""
    found = check_phase(state, (Phase.GREEK_SUPPLY,), Side.GREECE, "discard", HANDS)
    if found is not None:
        return [found]
    if action.card not in state.greek_cards:
        return [Ruling.violation("not-in-hand", "'{card}' is not named in the Greek hand", (CARDS,),
                                 card=say(state, action.card))]
    return []


def payment_violation(state: EarthWaterState, action: act.LandMove | act.NavalMove) -> Ruling | None:
    """base 6, cards: a move costs a card: an unnamed one, the card it names, or a Triremes move."""
    if state.free_moves:
        if isinstance(action, act.NavalMove) and not action.armies and action.card is None:
            return None
        return Ruling.violation("triremes", "Triremes: Greece makes its naval moves without armies now ('sail N "
                                "PORT PORT'), or ends them with 'done'", (CARDS,))
    if action.card is not None:
        if action.card in state.greek_cards:
            return None
        return Ruling.violation("not-in-hand", "'{card}' is not named in the Greek hand", (CARDS,),
                                card=action.card_name)
    if state.unnamed_greek_cards() > 0 or len(state.greek_cards) == 1:
        return None
    if not state.hands.greece:
        return None  # the no-card ruling says it
    return Ruling.violation("which-card", "every card of the Greek hand is named: say which pays ('... card NAME')",
                            (CARDS,))


def pay_for_move(state: EarthWaterState, action: act.LandMove | act.NavalMove) -> EarthWaterState:
    """Spends the card of a move (a Triremes move costs none)."""
    if state.free_moves:
        return state.model_copy(update={"free_moves": state.free_moves - 1})
    if action.card is not None:
        return state.model_copy(update=state.greek_hand_after(state.hands.greece - 1, spent=action.card))
    if state.unnamed_greek_cards() > 0:
        return state.model_copy(update={"hands": state.hands.plus(Side.GREECE, -1)})
    return state.model_copy(update=state.greek_hand_after(state.hands.greece - 1, spent=state.greek_cards[0]))


# ---------------------------------------------------------------------------------------------
# Events


def card_violations(state: EarthWaterState, action: act.Event) -> list[Ruling]:
    """cards: every rule a Greek event breaks now: hand, moment, once per game, costs, targets."""
    card = card_of(state, action.card)
    found: list[Ruling | None] = [in_hand(state, action.card)]
    if card.once and action.card in state.played_once:
        found.append(Ruling.violation("once-per-game", "'{card}' is played once per game, and it was",
                                      (CARDS,), card=say(state, action.card)))
    if card.effect.kind == "none":
        found.append(Ruling.violation("no-moment", "'{card}' answers something that never happens against PERS.IA "
                                      "({why}); it can pay for a move", (CARDS, NO_EVENTS),
                                      card=say(state, action.card),
                                      why=card.effect.why or ""))
        return [r for r in found if r is not None]
    if card.when == "turn":
        found += [check_phase(state, (Phase.OPERATIONS,), Side.GREECE, "event", BASE_OPERATIONS),
                  check_no_battle(state)]
        if state.free_moves:
            found.append(payment_violation(state, act.LandMove(count=1, path=())))
    else:
        found.append(_moment(state, card, action))
    if card.portrait and state.greek_reserve()[0] < 1:
        found.append(Ruling.violation("no-reserve", "'{card}' puts a Greek army from reserve on its portrait, and "
                                      "the reserve is empty", (CARDS, PIECES), card=say(state, action.card)))
    found += _effect(state, card, action)
    return [r for r in found if r is not None]


def _moment(state: EarthWaterState, card: Card, action: act.Event) -> Ruling | None:
    """cards: a reaction is played in a battle of its kind, at its moment."""
    b = state.battle
    want = card.battle
    key = (want.kind if want else "land", want.attacker if want else "any", card.moment or "start")
    moment = MOMENTS.get(key, MOMENTS[("land", "any", "start")])
    wrong = b is None or (want is not None and (b.kind != want.kind or want.attacker not in ("any", b.attacker.value)))
    if wrong or (b is not None and card.moment == "start" and b.rounds) or (
            b is not None and card.moment == "after-loss" and not (b.persian_lost and engaged(state, Side.PERSIA))):
        return Ruling.violation("not-now", "'{card}' cannot be played now: it answers {moment}", (CARDS, BATTLE),
                                card=say(state, action.card), moment=moment)
    assert b is not None
    if card.effect.kind == "dice" and b.greek_dice is not None:
        return Ruling.violation("dice-set", "the Greek dice of the battle of {city} are already set by a card "
                                "({n})", (CARDS, BATTLE), city=b.city, n=b.greek_dice)
    return None


MOMENTS = {
    ("land", "any", "start"): N_("a land battle, before its first round"),
    ("land", "persia", "start"): N_("a land battle PERS.IA starts, before its first round"),
    ("naval", "persia", "start"): N_("a naval battle PERS.IA starts, before its first round"),
    ("naval", "any", "after-loss"): N_("a naval battle, right after a round in which Persia lost a fleet and kept "
                                       "others"),
}
"""What a reaction answers, as said in its refusal."""


def _effect(state: EarthWaterState, card: Card, action: act.Event) -> list[Ruling | None]:
    """cards: the choices an effect needs (cities), judged with the game's own checks."""
    e = card.effect
    if e.kind in ("move", "battle-points"):
        if not action.path or action.count is None:
            return [Ruling.violation("needs-move", "'{card}' moves armies: write 'event {card} N CITY CITY'",
                                     (CARDS,), card=say(state, action.card))]
        out: list[Ruling | None] = []
        if e.armies and action.count != e.armies:
            out.append(Ruling.counted("needs-move", "'{card}' moves {n} army, not {count}",
                                      "'{card}' moves {n} armies, not {count}", e.armies, (CARDS,),
                                      card=say(state, action.card), count=action.count))
        out += [check_armies_present(state, Side.GREECE, action.path[0], action.count),
                check_route(state, Side.GREECE, action.path)]
        return out
    if e.kind == "remove":
        side = Side(e.side or "persia")
        candidates = [c for c in _cities(state, e.cities) if _units(state, c, side, e.unit) > 0]
        if not candidates and not action.targets:
            return []
        if len(action.targets) != 1:
            return [Ruling.violation("needs-target", "'{card}' asks for one city: {cities}", (CARDS,),
                                     card=say(state, action.card), cities=", ".join(candidates) or "-")]
        if action.targets[0] not in candidates:
            return [Ruling.violation("bad-target", "'{card}' acts on {cities}, not {city}", (CARDS,),
                                     card=say(state, action.card), cities=", ".join(candidates),
                                     city=action.targets[0])]
        return []
    if e.kind == "place":
        if e.unit == "armies":
            targets = action.targets or tuple(_cities(state, e.cities))[:1]
            if len(targets) != 1 or targets[0] not in _cities(state, e.cities):
                return [Ruling.violation("bad-target", "'{card}' places its army in {cities}", (CARDS,),
                                         card=say(state, action.card), cities=", ".join(_cities(state, e.cities)))]
            reserve = state.greek_reserve()[0] - (1 if card.portrait else 0)
            out = [check_controlled(state, targets[0])]
            if reserve < 1:
                out.append(Ruling.violation("no-reserve", "Greece has no army in reserve", (PIECES,)))
            return out
        fleets = state.greek_reserve()[1]
        if len(action.targets) != fleets:
            return [Ruling.violation("needs-target", "'{card}' places every reserve fleet: name {n} ports Greece "
                                     "controls, one per fleet", (CARDS,), card=say(state, action.card), n=fleets)]
        out = []
        for port in dict.fromkeys(action.targets):
            out += [check_fleet_port(state, port), check_controlled(state, port)]
        return out
    if e.kind == "redraw" and state.deck_left() < 1:
        return [Ruling.violation("deck-empty", "no card is left outside the hands to draw", (CARDS, PIECES))]
    if action.targets and e.kind not in ("place",):
        return [Ruling.violation("no-target", "'{card}' asks for no city", (CARDS,), card=say(state, action.card))]
    return []


def _cities(state: EarthWaterState, cities: tuple[str, ...] | str | None) -> list[CityName]:
    if isinstance(cities, tuple):
        return [CityName(c) for c in cities]
    return list(state.tables.cities)


def _units(state: EarthWaterState, city: CityName, side: Side, unit: str | None) -> int:
    g = state.at(city)
    return g.fleets(side) if unit == "fleets" else g.armies(side)


def play_event(state: EarthWaterState, action: act.Event) -> tuple[EarthWaterState, list[Ruling], bool]:
    """Applies a legal Greek event; returns the state, its events, and whether the Greek turn
    goes on (a reaction, Triremes' moves, Mines of Laurion's preparation, a battle to fight)."""
    card = card_of(state, action.card)
    e = card.effect
    named = state.greek_cards if action.card in state.greek_cards else (*state.greek_cards, action.card)
    state = state.model_copy(update={"greek_cards": named})
    state = state.model_copy(update=state.greek_hand_after(state.hands.greece - 1, spent=action.card))
    if card.once:
        state = state.model_copy(update={"played_once": (*state.played_once, action.card)})
    if card.portrait:
        state = state.model_copy(update={"portraits": state.portraits.model_copy(
            update={"greece": state.portraits.greece + 1})})
    events = [Ruling.event("card", "Greece plays '{card}'", (CARDS,), card=say(state, action.card))]
    goes_on = card.when == "reaction"
    if e.kind == "remove":
        side = Side(e.side or "persia")
        for city in action.targets:
            g = state.at(city)
            g = g.plus(side, fleets=-1) if e.unit == "fleets" else g.plus(side, armies=-1)
            state = state.model_copy(update={"cities": state.with_city(city, g)})
            if e.unit == "fleets":
                events.append(Ruling.event("card-effect", "{card}: one Persian fleet fewer in {city}", (CARDS,),
                                           card=say(state, action.card), city=city))
            else:
                events.append(Ruling.event("card-effect", "{card}: one Persian army fewer in {city}", (CARDS,),
                                           card=say(state, action.card), city=city))
    elif e.kind == "place":
        # an army goes to the named city (else the card's one city); fleets go only where named,
        # one per reserve fleet, so an empty reserve places nothing
        targets = action.targets if e.unit == "fleets" else (action.targets or tuple(_cities(state, e.cities))[:1])
        if not targets:
            events.append(Ruling.event("card-effect", "{card}: Greece has no fleet in reserve; nothing is placed",
                                       (CARDS, PIECES), card=say(state, action.card)))
        for city in targets:
            g = state.at(city)
            g = g.plus(Side.GREECE, fleets=1) if e.unit == "fleets" else g.plus(Side.GREECE, armies=1)
            state = state.model_copy(update={"cities": state.with_city(city, g)})
        if targets:
            events.append(Ruling.event("card-effect", "{card}: placed in {cities}", (CARDS,),
                                       card=say(state, action.card), cities=", ".join(targets)))
    elif e.kind == "dice":
        b = state.battle
        assert b is not None
        state = state.model_copy(update={"battle": b.model_copy(update={"greek_dice": e.dice})})
        events.append(Ruling.counted("card-effect", "{card}: Greece rolls {n} die in the battle of {city}",
                                     "{card}: Greece rolls {n} dice in the battle of {city}", e.dice or 0, (CARDS,),
                                     card=say(state, action.card), city=b.city))
    elif e.kind == "extra-loss":
        b = state.battle
        assert b is not None
        side = Side(e.side or "persia")
        g = state.at(b.city)
        g = g.plus(side, fleets=-1) if b.kind == "naval" else g.plus(side, armies=-1)
        state = state.model_copy(update={"cities": state.with_city(b.city, g),
                                         "battle": b.model_copy(update={"persian_lost": 0})})
        events.append(Ruling.event("card-effect", "{card}: Persia loses one more unit in {city}", (CARDS,),
                                   card=say(state, action.card), city=b.city))
        if engaged(state, Side.PERSIA) == 0:
            state, more = close_battle(state)
            events += more
            goes_on = False
    elif e.kind == "redraw":
        kept = state.hands.greece
        state = state.model_copy(update={"hands": state.hands.plus(Side.GREECE, (e.extra or 0)), "greek_cards": ()})
        events.append(Ruling.counted("card-effect", "{card}: Greece discards its other {n} card and draws {m} "
                                     "(name them with 'draw NAME')", "{card}: Greece discards its other {n} cards "
                                     "and draws {m} (name them with 'draw NAME')", kept, (CARDS,),
                                     card=say(state, action.card), m=kept + (e.extra or 0)))
    elif e.kind == "naval-moves":
        state = state.model_copy(update={"free_moves": e.count if isinstance(e.count, int) else 2})
        goes_on = True
        events.append(Ruling.counted("card-effect", "{card}: Greece makes up to {n} naval move without armies, "
                                     "costing no card ('sail N PORT PORT'; 'done' ends it)", "{card}: Greece makes "
                                     "up to {n} naval moves without armies, costing no card ('sail N PORT PORT'; "
                                     "'done' ends them)", state.free_moves, (CARDS,), card=say(state, action.card)))
    elif e.kind == "extra-preparation":
        state = state.model_copy(update={
            "phase": Phase.GREEK_PREPARATION, "extra_preparation": True, "greek_talents": e.talents or 0,
            "greek_cards_bought": 0, "greek_fleets_bought": 0, "greek_units_bought": False})
        goes_on = True
        events.append(Ruling.counted("card-effect", "{card}: Greece prepares with {n} talent now ('buy ...', then "
                                     "'done' ends its turn)", "{card}: Greece prepares with {n} talents now ('buy "
                                     "...', then 'done' ends its turn)", e.talents or 0, (CARDS,),
                                     card=say(state, action.card)))
    elif e.kind in ("move", "battle-points"):
        assert action.count is not None
        start, goal = action.path[0], action.path[-1]
        cities = {**state.cities, start: state.at(start).plus(Side.GREECE, armies=-action.count),
                  goal: state.at(goal).plus(Side.GREECE, armies=action.count)}
        state = state.model_copy(update={"cities": cities})
        if state.at(goal).persian_armies:
            battle = Battle(city=goal, kind="land", attacker=Side.GREECE, origin=action.path[-2], card=action.card,
                            greek_dice=e.dice)
            state, event = start_battle(state, battle)
            events.append(event)
            goes_on = True
    return state, events, goes_on

