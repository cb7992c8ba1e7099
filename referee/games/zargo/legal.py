"""Every legal Zargo action now, and what the counters on one hex may do (``referee legal``).

Built from the checks the judge runs, so the list and the judge cannot disagree: moves come from
the move search (and, where ``FROM TO`` must name its route, the routes themselves), attacks and
shots are each judged before they are listed. Seals and reveals are not listed: their secret and
salt are the owner's (the bot asks the game file for them, :mod:`referee.games.zargo.bot`).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from referee.games.zargo import actions as act
from referee.games.zargo.acting import Found
from referee.games.zargo.combat import check_attack
from referee.games.zargo.movement import appear_reach, check_appear, check_vanish, destinations, moving
from referee.games.zargo.rules import CITIES, COMBAT, FALCONS, MONK_KNIGHTS, SERPENTS, WINGED_FOOT
from referee.games.zargo.sequence import all_assignments, check_city, check_place, check_resolve, turn_untouched
from referee.games.zargo.shots import SHOT_POWERS, check_shot
from referee.games.zargo.state import Phase, ZargoState, cell, manifest_left, unit
from referee.i18n import _, ngettext
from referee.rulings import RuleRef, Ruling

__all__ = ["LegalReport", "hex_actions", "legal_actions", "legal_report"]

POWERS: dict[str, RuleRef] = {"FAU": FALCONS, "FAi": WINGED_FOOT, "SER": SERPENTS, "MCh": MONK_KNIGHTS}
"""Counter types whose abilities a section of their own describes (cited by ``referee legal``)."""


class LegalReport(BaseModel):
    """``referee legal zargo HEX``: what the counters on a hex (or a city's open garrison) may do now."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    hex: str
    counters: tuple[str, ...]
    moves: tuple[str, ...] = Field(default=(), description="Hexes the stack (or lone counter) may end on, FROM TO.")
    routes: tuple[str, ...] = Field(default=(), description="Hexes reached by routes that differ: state one.")
    attacks: tuple[str, ...] = ()
    shots: tuple[str, ...] = ()
    sections: tuple[RuleRef, ...] = ()
    why_not: tuple[Ruling, ...] = ()

    def explain(self) -> list[str]:
        """Returns the report as lines for the terminal."""
        lines = [f"{self.hex}: {' + '.join(self.counters) or '-'}"]
        if self.moves:
            lines.append(ngettext("may move to {n} hex: {hexes}", "may move to {n} hexes: {hexes}",
                                  len(self.moves)).format(n=len(self.moves), hexes=" ".join(self.moves)))
        if self.routes:
            lines.append(_("state the route (they differ: a charge's line): {routes}").format(
                routes=" | ".join(self.routes)))
        if self.attacks:
            lines.append(_("may attack: {hexes}").format(hexes=" ".join(self.attacks)))
        if self.shots:
            lines.append(_("may shoot: {shots}").format(shots=" ".join(self.shots)))
        lines += [f"✗ {r.message} [{r.code}]" for r in self.why_not]
        return lines


def legal_actions(state: ZargoState) -> list[act.ZargoAction]:
    """Returns every action the judge would accept now (seals and reveals aside)."""
    s = state
    if s.phase is Phase.PLAYERS:
        return [*(act.Players(players=n) for n in (2, 3, 4)), *all_assignments(s)]
    if s.phase is Phase.SETUP:
        return _setup_actions(s)
    if s.phase is Phase.RESOLVE:
        return [act.Word(word="carry"), act.Word(word="resolve")] if s.carry else [act.Word(word="resolve")]
    if s.phase is not Phase.MOVE:
        return []  # OVER; REVEAL waits for the owner's reveal (a salt cannot be enumerated)
    if s.proposal is not None:
        return [act.Word(word="accept"), act.Word(word="refuse")]
    me = str(s.active)
    out: list[act.ZargoAction] = []
    if turn_untouched(s):
        out += [act.Alliance(verb="break" if s.allied(me, p) else "ally", people=p) for p in s.peoples if p != me]
    for h, stack in sorted(s.board.items()):
        if unit(s, stack[0]).people == me:
            out += hex_actions(s, h)
    for h, city in sorted(s.cities.items()):
        if city.owner == me and city.garrison:
            out += city_actions(s, h)
    for marker in sorted(s.vanished):
        out += [a for t in appear_reach(s, marker) if not check_appear(s, a := act.Appear(marker=marker, target=t))]
    if not check_resolve(s):
        out.append(act.Word(word="resolve"))
    return out


def _strikes(s: ZargoState, h: str, label: str | None, shooter: str) -> list[act.ZargoAction]:
    """Attacks and shots from a hex (or by a garrison counter ``label`` of the city on ``h``)."""
    out: list[act.ZargoAction] = []
    grid = s.tables.world.grid
    me = str(s.active)
    for n in grid.neighbours(cell(s, h)):
        t = grid.name(n)
        attack = act.Attack(source=h, target=t, label=label)
        if s.people_of(t) not in (None, me) and not check_attack(s, attack):
            out.append(attack)
    u = unit(s, shooter)
    for kind, powers in SHOT_POWERS.items():
        if set(powers) & set(u.powers):
            for n in grid.within(cell(s, h), u.range or 0):
                t = grid.name(n)
                if t in s.board and not s.allied(s.people_of(t) or me, me):
                    shot = act.Shoot(kind=kind, source=h, target=t, label=label)
                    if not check_shot(s, shot):
                        out.append(shot)
    return out


def hex_actions(s: ZargoState, h: str) -> list[act.ZargoAction]:
    """Every legal action of the counters on one own hex: moves, attacks, shots, vanishing."""
    stack = s.board[h]
    out: list[act.ZargoAction] = []
    labels: list[str | None] = [None, *stack] if len(stack) == 2 else [None]
    for label in labels:
        plain, stated = destinations(s, h, label)
        out += [act.Move(source=h, target=t, label=label) for t in plain]
        out += [act.Move(source=h, target=r[-1], label=label, path=tuple(r)) for r in stated]
    out += _strikes(s, h, None, stack[0])
    if not check_vanish(s, vanish := act.Vanish(hex=h)):
        out.append(vanish)
    return out


def city_actions(s: ZargoState, h: str) -> list[act.ZargoAction]:
    """Every sally and shot of an own city's open garrison (rules.yaml ``sally``)."""
    out: list[act.ZargoAction] = []
    for label in sorted(set(s.cities[h].garrison or ())):
        out += _strikes(s, h, label, label)
    return out


def _setup_actions(s: ZargoState) -> list[act.ZargoAction]:
    if s.active is None:
        return [act.Word(word="start")]
    people = s.active
    world = s.tables.world
    grid = world.grid
    own = [grid.name(c) for cont in s.continents[people] for c in world.hexes_of(cont)]
    built = sum(1 for c in s.cities.values() if c.founder == people)
    if built < s.tables.peoples.peoples[people].city_counters:  # type: ignore[index]
        return [c for h in own if not check_city(s, c := act.BuildCity(hex=h))]
    out: list[act.ZargoAction] = []
    for lab in s.tables.labels_of[people]:
        if manifest_left(s, lab) > 0:
            out += [a for h in own if not check_place(s, a := act.Place(label=lab, hex=h))]
    out.append(act.Word(word="ready"))
    return out


def legal_report(state: ZargoState, hex_text: str) -> LegalReport:
    """What the counters on a hex, or an own city's open garrison, may do now."""
    h = act.hex_word(state, hex_text)
    stack = state.board.get(h, ())
    city = state.cities.get(h)
    in_play = state.phase is Phase.MOVE and state.proposal is None
    actions: list[act.ZargoAction] = []
    if stack and in_play and unit(state, stack[0]).people == state.active:
        actions = hex_actions(state, h)
    elif city is not None and city.garrison and in_play and city.owner == state.active:
        actions = city_actions(state, h)
    why: Found = []
    if not stack and city is None:
        why.append(Ruling.violation("no-counter", "no counter stands on {hex}", (COMBAT,), hex=h))
    elif city is not None and city.hidden:
        why.append(Ruling.violation("garrison-hidden", "the garrison of {hex} is face down: its owner reveals it "
                                    "before it acts", (CITIES,), hex=h))
    elif stack and not actions:
        found = moving(state, act.Move(source=h, target=h))
        why += found if isinstance(found, list) else []
    counters = stack or (city.garrison or () if city is not None else ())
    moves = [a for a in actions if isinstance(a, act.Move) and a.label is None]
    return LegalReport(
        hex=h,
        counters=tuple(counters),
        moves=tuple(a.target for a in moves if a.path is None),
        routes=tuple(" ".join(a.path) for a in moves if a.path is not None),
        attacks=tuple(f"{a.label + ' ' if a.label else ''}{a.target}" for a in actions if isinstance(a, act.Attack)),
        shots=tuple(f"{a.kind}:{a.label + ':' if a.label else ''}{a.target}" for a in actions
                    if isinstance(a, act.Shoot)),
        sections=tuple(POWERS[lab] for lab in counters if lab in POWERS),
        why_not=tuple(why),
    )
