"""Every reading of tables/300-solo/rules.yaml is disclosed where it decides (issue 9).

One scenario per interpretation id: a position where the reading changes the outcome (the
comment says how the other reading would rule), and the ruling, action record, PERS.IA step or
resolution it decides, whose provisional list must name it exactly once.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from referee.dice import NoDice, PhysicalDice
from referee.games.earth_water.announce import PersiaReport
from referee.games.earth_water.engine import EarthWaterEngine
from referee.games.earth_water.state import EarthWaterState
from referee.games.earth_water.tables import INTERPRETATIONS
from referee.rulings import RulesIndex
from referee.tables import TableSet, packaged_table_set, parse_yaml

Position = Callable[..., EarthWaterState]
Scenario = Callable[[EarthWaterEngine, Position], tuple[str, ...]]
HOME = {"Abydos": {"persian_armies": 2}, "Ephesos": {"persian_armies": 2}, "Athenai": {"greek_armies": 1},
        "Sparta": {"greek_armies": 1}}


def _prepare(engine: EarthWaterEngine, state: EarthWaterState) -> PersiaReport:
    return engine.persia(state, "prepare", NoDice())[1]


def _operate(engine: EarthWaterEngine, state: EarthWaterState, face: int | None) -> PersiaReport:
    return engine.persia(state, "operate", PhysicalDice([face] if face else []))[1]


def _supply(engine: EarthWaterEngine, state: EarthWaterState) -> PersiaReport:
    return engine.persia(state, "supply", NoDice())[1]


def _step(report: PersiaReport, kind: str) -> tuple[str, ...]:
    """The ids a PERS.IA step of this kind disclosed (the first such step that disclosed any)."""
    for step in report.steps:
        if step.kind == kind and step.interpretations:
            return step.interpretations
    return ()


def _verdict(engine: EarthWaterEngine, state: EarthWaterState, text: str) -> tuple[str, ...]:
    return engine.judge(state, engine.parse(state, text)).provisional


def _played(engine: EarthWaterEngine, state: EarthWaterState, text: str, *faces: int) -> tuple[str, ...]:
    return engine.play(state, engine.parse(state, text), PhysicalDice(list(faces)))[1].provisional


def bridge_needs_army(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # Abydos is Persian but empty: control alone would rebuild the bridge; an army is needed here.
    state = position(score=0, bridge=False, cities={**HOME, "Abydos": {}})
    return _step(_prepare(engine, state), "bridge")


def situations_continue(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # Both Persian Majors invaded: situation A cannot place its 9 armies; D spends the rest.
    state = position(score=-1, cities={"Abydos": {"greek_armies": 1}, "Ephesos": {"greek_armies": 1},
                                       "Athenai": {"greek_armies": 1}})
    return _step(_prepare(engine, state), "unspent")


def persia_purchase_caps(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # A then D draws 3 + 6 = 9 cards: the base limit of 6 per preparation would stop at 6.
    state = position(score=-1, cities={"Abydos": {"greek_armies": 1}, "Ephesos": {"greek_armies": 1},
                                       "Athenai": {"greek_armies": 1}})
    report = _prepare(engine, state)
    draws = [s for s in report.steps if s.kind == "draw"]
    return draws[1].interpretations


def occupied_port_city(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # Ephesos is Persian but holds no army: "occupied" leaves it without a fleet; "controlled" would not.
    state = position(score=1, cities={**HOME, "Abydos": {"persian_armies": 3, "persian_fleets": 2}, "Ephesos": {}})
    return _step(_prepare(engine, state), "fleets")


def fleet_order(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # 4 talents for 7 empty occupied ports: the order picks Abydos, Ephesos, Sparta, Thebai.
    cities = {c: {"persian_armies": 1} for c in ("Abydos", "Ephesos", "Sparta", "Thebai", "Eretria", "Naxos",
                                                 "Pella")}
    state = position(score=1, bridge=False, cities={**cities, "Athenai": {"greek_armies": 1}})
    return _step(_prepare(engine, state), "fleets")


def minor_city(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # Delphi already has 2 Persian armies: as a minor city it gets no third.
    state = position(score=0, cities={**HOME, "Delphi": {"persian_armies": 2}})
    return _step(_prepare(engine, state), "armies")


def activation_reachable(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # Eretria has the most armies but no road: the other reading would activate it and fall back.
    state = position(hands={"persia": 1}, cities={**HOME, "Eretria": {"persian_armies": 6},
                                                  "Ephesos": {"persian_armies": 4}})
    return _step(_operate(engine, state, 2), "move")


def defence_target(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # Greek armies in both Persian Majors: Ephesos is defended before Abydos.
    state = position(hands={"persia": 1}, cities={"Abydos": {"greek_armies": 1}, "Ephesos": {"greek_armies": 1},
                                                  "Pella": {"persian_armies": 6}, "Athenai": {"greek_armies": 1}})
    return _step(_operate(engine, state, None), "move")


def defence_keeps_none(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # Abydos would keep 1 of its 2 armies by sending a third: it must keep 2, so the die is rolled
    # (reading march-only: it sends 1 to Ephesos).
    state = position(hands={"persia": 1}, cities={"Ephesos": {"greek_armies": 1}, "Abydos": {"persian_armies": 2},
                                                  "Athenai": {"greek_armies": 1}})
    return _step(_operate(engine, state, 1), "fallback")


def march_toward_sparta(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # From Pella the first city on the way to Sparta is Larissa (fewer roads from Sparta).
    state = position(hands={"persia": 1}, cities={**HOME, "Pella": {"persian_armies": 4}})
    return _step(_operate(engine, state, 2), "move")


def march_count(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # Abydos and Ephesos have 2 each: half is 1, but both must keep 2, so neither can march and
    # die 3 falls back; reading half without the cut, Ephesos would send 1.
    state = position(hands={"persia": 1}, cities=HOME)
    return _step(_operate(engine, state, 3), "fallback")


def isolated_army(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # Larissa's lone army goes before the two in Pella, though Pella is first on the list.
    state = position(hands={"persia": 1}, cities={**HOME, "Pella": {"greek_armies": 2},
                                                  "Larissa": {"greek_armies": 1}})
    return _step(_operate(engine, state, 4), "destroy-army")


def fallback_discard(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # Die 4 with no Greek army falls back to a fleet: the Greek keeps his cards.
    state = position(hands={"persia": 1, "greece": 2}, cities={
        "Abydos": {"persian_armies": 2}, "Ephesos": {"persian_armies": 2}, "Athenai": {"greek_fleets": 1}})
    return _step(_operate(engine, state, 4), "fallback")


def naval_battle_attacker(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # Persia attacks: Greece, the defender, may later retreat by sea instead of going back.
    state = position(hands={"persia": 1}, cities={**HOME, "Naxos": {"greek_fleets": 2}})
    return _step(_operate(engine, state, 5), "battle")


def minor_fleet_city(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # Every listed port holds Greek units; Naxos, empty of armies, has a Persian fleet.
    cities = {c: {"greek_armies": 1} for c in ("Athenai", "Sparta", "Thebai", "Eretria", "Pella")}
    cities.update({"Abydos": {"greek_fleets": 1}, "Ephesos": {"greek_fleets": 1},
                   "Naxos": {"greek_fleets": 1, "persian_fleets": 1}})
    state = position(hands={"persia": 1}, cities=cities)
    return _step(_operate(engine, state, 6), "place")


def fallback_loop(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # With the printed lists a chain always ends in an action; with edited fallbacks (march -> place
    # -> march) it can come back to a branch tried, and PERS.IA passes.
    packaged = packaged_table_set("300-solo")
    text = packaged.text("persia.yaml").replace("march: {then: destroy-army", "march: {then: place")
    assert text != packaged.text("persia.yaml")
    tables = TableSet.from_texts("300-solo", {**packaged.texts(), "persia.yaml": text}, "test")
    cities = {c: {"greek_armies": 1} for c in ("Athenai", "Sparta", "Thebai", "Eretria", "Naxos", "Pella")}
    cities.update({"Abydos": {"persian_armies": 2, "greek_fleets": 1},
                   "Ephesos": {"persian_armies": 2, "greek_fleets": 1}})
    state = engine.from_position(tables, {"game": "300-solo", "hands": {"persia": 1}, "cities": cities}, "edited")
    report = _operate(engine, state, 2)
    return _step(report, "pass")


def die_pass(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # A 1 still costs PERS.IA its card.
    return _step(_operate(engine, position(hands={"persia": 2}, cities=HOME), 1), "discard")


def _attrition_board(position: Position, **fields: object) -> EarthWaterState:
    # Persia: 3 armies in Thebai and 2 in cut-off Eretria against Thebai's 1 amphora.
    return position(cities={**HOME, "Thebai": {"persian_armies": 3}, "Eretria": {"persian_armies": 2}}, **fields)


def unsupplied_first(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # Eretria has no line: its armies go before Thebai's, though Thebai is earlier on the list.
    return _step(_supply(engine, _attrition_board(position)), "attrition")


def no_points_armies(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # After Eretria, Thebai loses armies it can spare (keeping 1), before any other city on the list.
    return _step(_supply(engine, _attrition_board(position)), "attrition")


def attrition_once(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # Greece owes 2 (8 armies, 6 amphorae): removing both Korinthos armies also loses Korinthos'
    # amphora, so a recount would ask for one more.
    state = position(phase="greek-supply", cities={**HOME, "Athenai": {"greek_armies": 4},
                                                   "Korinthos": {"greek_armies": 2}, "Thebai": {"greek_armies": 1}})
    return _played(engine, state, "remove 2 Korinthos")


def persian_attrition_majors(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # Abydos' 2 armies are neither counted nor removed.
    return _step(_supply(engine, _attrition_board(position)), "attrition")


def sea_supply(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # Eretria has no road: a Persian fleet there supplies it while Ephesos' port is free of Greeks.
    state = position(cities={**HOME, "Abydos": {"persian_armies": 2, "greek_fleets": 1},
                             "Eretria": {"persian_armies": 1, "persian_fleets": 1}})
    return _step(_supply(engine, state), "lines")


def supply_lines(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # Delphi's line runs from Ephesos over the bridge and through empty Larissa.
    state = position(cities={**HOME, "Delphi": {"persian_armies": 1}})
    return _step(_supply(engine, state), "lines")


def attacker_retreat(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # The Greek attackers of Larissa go back to Thebai, where they came from.
    state = position(battle={"city": "Larissa", "attacker": "greece", "origin": "Thebai", "rounds": 1},
                     cities={**HOME, "Larissa": {"greek_armies": 1, "persian_armies": 1}})
    return _verdict(engine, state, "retreat Thebai")


def sea_retreat(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # Greek defenders of Thebai (2 armies, 2 fleets) may sail to Naxos, which they do not border.
    state = position(battle={"city": "Thebai", "attacker": "persia", "origin": "Larissa", "rounds": 1},
                     cities={**HOME, "Thebai": {"greek_armies": 2, "greek_fleets": 2, "persian_armies": 2},
                             "Larissa": {"persian_armies": 2}, "Naxos": {"greek_armies": 1}})
    return _verdict(engine, state, "retreat Naxos")


def bridge_burning(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # Greek armies landing in an empty Abydos may burn the bridge: no battle gave them the city.
    state = position(phase="operations", active="greece", hands={"greece": 1, "persia": 1}, cities={
        "Ephesos": {"persian_armies": 2}, "Athenai": {"greek_armies": 2, "greek_fleets": 1},
        "Sparta": {"greek_armies": 1}})
    return _played(engine, state, "sail 1 Athenai -> Abydos carry 1")


def greek_supply_order(engine: EarthWaterEngine, position: Position) -> tuple[str, ...]:
    # Attrition before lines: Greece owes 1 (6 armies, 5 amphorae) and pays it with Pella's army,
    # which has no line anyway; lines first would take Pella's army and then 1 more.
    state = position(phase="greek-supply", cities={**HOME, "Athenai": {"greek_armies": 4},
                                                   "Pella": {"greek_armies": 1}, "Larissa": {"persian_armies": 1}})
    state, _ = engine.play(state, engine.parse(state, "remove 1 Pella"), NoDice())
    return _played(engine, state, "done")


SCENARIOS: dict[str, Scenario] = {
    "bridge-needs-army": bridge_needs_army, "situations-continue": situations_continue,
    "persia-purchase-caps": persia_purchase_caps, "occupied-port-city": occupied_port_city,
    "fleet-order": fleet_order, "minor-city": minor_city, "activation-reachable": activation_reachable,
    "defence-target": defence_target, "defence-keeps-none": defence_keeps_none,
    "march-toward-sparta": march_toward_sparta, "march-count": march_count, "isolated-army": isolated_army,
    "fallback-discard": fallback_discard, "naval-battle-attacker": naval_battle_attacker,
    "minor-fleet-city": minor_fleet_city, "fallback-loop": fallback_loop, "die-pass": die_pass,
    "unsupplied-first": unsupplied_first, "no-points-armies": no_points_armies, "attrition-once": attrition_once,
    "persian-attrition-majors": persian_attrition_majors, "sea-supply": sea_supply, "supply-lines": supply_lines,
    "attacker-retreat": attacker_retreat, "sea-retreat": sea_retreat, "bridge-burning": bridge_burning,
    "greek-supply-order": greek_supply_order,
}


def _rules() -> RulesIndex:
    tables = packaged_table_set("300-solo")
    return parse_yaml("rules.yaml", tables.text("rules.yaml"), RulesIndex)


def test_every_interpretation_has_a_scenario() -> None:
    ids = [i.id for i in _rules().interpretations]
    assert sorted(ids) == sorted(SCENARIOS) == sorted(INTERPRETATIONS)


@pytest.mark.parametrize("ident", sorted(SCENARIOS))
def test_interpretation_is_disclosed_once_where_it_decides(engine: EarthWaterEngine, position: Position,
                                                           ident: str) -> None:
    disclosed = SCENARIOS[ident](engine, position)
    label = _rules().interpretation(ident).label()
    ids = [d.split(":", 1)[0].removeprefix("interpretation ") for d in disclosed]
    assert ident in ids, (ident, disclosed)
    assert len(ids) == len(set(ids)), disclosed
    assert label in disclosed or ident in disclosed  # a full label on rulings, the id on PERS.IA steps


def test_resolve_discloses_the_retreat_it_did_not_take(engine: EarthWaterEngine, position: Position) -> None:
    state = position(battle={"city": "Larissa", "attacker": "greece", "origin": "Thebai"},
                     cities={**HOME, "Larissa": {"greek_armies": 1, "persian_armies": 1}})
    _, report = engine.resolve_pending(state, PhysicalDice([6, 1]))
    assert report.events[0].code == "no-retreat"
    assert any("attacker-retreat" in p for p in report.provisional)
    assert any(line.startswith("⚠ relies on interpretations attacker-retreat") for line in report.explain())


def test_readings_that_do_not_decide_are_not_disclosed(engine: EarthWaterEngine, position: Position) -> None:
    # Ephesos keeps 4 of 6 in a defence: the two-army rule of marches does not matter.
    state = position(hands={"persia": 1}, cities={"Abydos": {"greek_armies": 1}, "Ephesos": {"persian_armies": 6},
                                                  "Athenai": {"greek_armies": 1}})
    assert not any("defence-keeps-none" in i for i in _operate(engine, state, None).interpretations)
    # Enough talents for every occupied port: the fleet order decides nothing.
    state = position(score=1, cities={**HOME, "Thebai": {"persian_armies": 1}})
    assert "fleet-order" not in _step(_prepare(engine, state), "fleets")
