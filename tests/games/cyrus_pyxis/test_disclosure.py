"""Every reading of tables/cyrus-pyxis/rules.yaml is disclosed where it decides (issue 9).

One scenario per interpretation id: a position where the reading changes the ruling (the
comment says how the other reading would rule), and the verdict or resolution it decides, whose
provisional list must name it exactly once. Then the readings stay silent where they decide
nothing: once, where it matters, not as noise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from referee.dice import NoDice
from referee.games.cyrus_pyxis.tables import _INTERPRETATIONS
from referee.rulings import RulesIndex
from referee.tables import packaged_table_set, parse_yaml

from .helpers import ENGINE, codes, judge, position

Scenario = Callable[[], tuple[str, ...]]


def _resolved(**data: Any) -> tuple[str, ...]:
    _, result = ENGINE.resolve_pending(position(**data), NoDice())
    return result.provisional


def combat_terrain() -> tuple[str, ...]:
    # Tyr attacks onto a hill: the hill value (2) is used; its own plain cell would give 4.
    return _resolved(active="persian", terrain={"hill": ["E6"]}, greek={"Samos": "E6"}, persian={"Tyr": "E6"})


def same_line_order() -> tuple[str, ...]:
    # A9 and D9 share line 9: letter order resolves A9 first.
    return _resolved(greek={"Samos": "C3", "Myron": "D9", "Héra": "A9"},
                     persian={"Darius": "C3", "Suze": "D9", "Roustem": "A9"})


def retreat_off_board() -> tuple[str, ...]:
    # Samos must retreat West from B1, off the board: eliminated (no rule says so).
    return _resolved(active="persian", greek={"Samos": "B1"}, persian={"Amatonte": "B1"})


def retreat_into_terrain() -> tuple[str, ...]:
    # Samos retreats West into the forest on B4 (another reading would stop it there).
    return _resolved(active="persian", terrain={"forest": ["B4"]}, greek={"Samos": "B5"}, persian={"Amatonte": "B5"})


def retreat_into_pending_combat() -> tuple[str, ...]:
    # B5 first (eastmost); Apollon (2 v 2) retreats West into B4, where Samos and Suze still fight.
    return _resolved(greek={"Apollon": "B5", "Samos": "B4"}, persian={"Darius": "B5", "Suze": "B4"})


def engaged_archer() -> tuple[str, ...]:
    # Messène attacks on B5: barred under any-combat, free under attacked-only.
    state = position(greek={"Apollon": "B6", "Messène": "B5"}, persian={"Darius": "B6", "Suze": "B5"})
    return judge(state, "support Messène Apollon").provisional


def arrows_over_enemies() -> tuple[str, ...]:
    # The only line of fire within 2 squares flies over Suze on B5.
    state = position(greek={"Apollon": "B6", "Messène": "B4"}, persian={"Darius": "B6", "Suze": "B5"})
    return judge(state, "support Messène Apollon").provisional


def support_range_steps() -> tuple[str, ...]:
    # D4 to B6 is 4 orthogonal steps (out of range) but 2 counting diagonals.
    state = position(greek={"Apollon": "B6", "Messène": "D4"}, persian={"Darius": "B6"})
    verdict = judge(state, "support Messène Apollon")
    assert codes(verdict) == ["out-of-range"]
    return verdict.provisional


def support_once_per_turn() -> tuple[str, ...]:
    # A Persian support in the Persian half of turn 1: a whole-turn reading would count the Greek half too.
    state = position(active="persian", phase="support", greek={"Samos": "H6"}, persian={"Darius": "H6", "Amrith": "H8"})
    return judge(state, "support Amrith Darius").provisional


def foot_for_phalanx() -> tuple[str, ...]:
    # Théron against a royal guard uses its value against foot.
    return _resolved(greek={"Théron": "E6"}, persian={"Amatonte": "E6"})


def king_exit() -> tuple[str, ...]:
    # Pyxis leaves by the East edge (line 12): A11 to A12 then one square beyond, 2 of its 5.
    state = position(greek={"Pyxis": "A11"})
    verdict = judge(state, "Pyxis off")
    assert verdict.legal
    return verdict.provisional


def victory_stops_play() -> tuple[str, ...]:
    # Cyrus dies on E9; the combat on B5 is never resolved.
    return _resolved(greek={"Centaure": "E9", "Samos": "B5"}, persian={"Cyrus": "E9", "Darius": "B5"})


def umpire_phase() -> tuple[str, ...]:
    # No step written: the support is judged as in the support step (and a move as in the movement step).
    state = position(greek={"Apollon": "B6", "Messène": "B4", "Samos": "E1"}, persian={"Darius": "B6"})
    assert "interpretation umpire-phase" in " ".join(judge(state, "Samos E2").provisional)
    assert "umpire-phase" not in " ".join(judge(position(phase="move", greek={"Samos": "E1"}), "Samos E2").provisional)
    return judge(state, "support Messène Apollon").provisional


SCENARIOS: dict[str, Scenario] = {
    "combat-terrain": combat_terrain, "same-line-order": same_line_order, "retreat-off-board": retreat_off_board,
    "retreat-into-terrain": retreat_into_terrain, "retreat-into-pending-combat": retreat_into_pending_combat,
    "engaged-archer": engaged_archer, "arrows-over-enemies": arrows_over_enemies,
    "support-range-steps": support_range_steps, "support-once-per-turn": support_once_per_turn,
    "foot-for-phalanx": foot_for_phalanx, "king-exit": king_exit, "victory-stops-play": victory_stops_play,
    "umpire-phase": umpire_phase,
}


def _rules() -> RulesIndex:
    tables = packaged_table_set("cyrus-pyxis")
    return parse_yaml("rules.yaml", tables.text("rules.yaml"), RulesIndex)


def _ids(disclosed: tuple[str, ...]) -> list[str]:
    return [d.split(":", 1)[0].removeprefix("interpretation ") for d in disclosed if d.startswith("interpretation ")]


def test_every_interpretation_has_a_scenario() -> None:
    ids = [i.id for i in _rules().interpretations]
    assert sorted(ids) == sorted(SCENARIOS) == sorted(_INTERPRETATIONS)


@pytest.mark.parametrize("ident", sorted(SCENARIOS))
def test_interpretation_is_disclosed_once_where_it_decides(ident: str) -> None:
    disclosed = SCENARIOS[ident]()
    ids = _ids(disclosed)
    assert ident in ids, (ident, disclosed)
    assert len(ids) == len(set(ids)), disclosed
    assert _rules().interpretation(ident).label() in disclosed


def _verdict_ids(text: str, **data: Any) -> list[str]:
    state = position(**data)
    return _ids(judge(state, text).provisional)


def test_readings_that_decide_nothing_stay_silent() -> None:
    # A clear straight line, no enemy under it, in the Greek half: no support reading decides.
    quiet = _verdict_ids("support Messène Apollon", phase="support", greek={"Apollon": "B6", "Messène": "B4"},
                         persian={"Darius": "B6"})
    assert quiet == []
    # An attacked archer is barred under both readings of engaged-archer.
    attacked = _verdict_ids("support Messène Samos", active="persian", greek={"Messène": "E4", "Samos": "E5"},
                            persian={"Darius": "E5", "Suze": "E4"})
    assert "engaged-archer" not in attacked
    # Far beyond range whatever the counting: support-range-steps decides nothing.
    far = _verdict_ids("support Messène Apollon", greek={"Apollon": "B6", "Messène": "H1"}, persian={"Darius": "B6"})
    assert "support-range-steps" not in far
    # A refused support (not an archer) does not disclose the range readings.
    guard = _verdict_ids("support Athéna Apollon", phase="support", greek={"Apollon": "B6", "Athéna": "B4"},
                         persian={"Darius": "B6", "Suze": "B5"})
    assert guard == []
    # Without a step written, a refused support does not name umpire-phase either.
    assert _verdict_ids("support Athéna Apollon", greek={"Apollon": "B6", "Athéna": "B4"},
                        persian={"Darius": "B6"}) == []


def test_umpire_resolve_discloses_what_its_declared_supports_relied_on() -> None:
    # The support (judged on load) flies over Suze; the resolution is the first ruling that uses it.
    provisional = _resolved(phase="combat", greek={"Apollon": "B6", "Messène": "B4"},
                            persian={"Darius": "B6", "Suze": "B5"}, supports={"Messène": "Apollon"})
    assert "arrows-over-enemies" in _ids(provisional)
    assert len(_ids(provisional)) == len(set(_ids(provisional)))


def test_umpire_resolve_of_a_position_without_a_step_names_the_reading_its_supports_used() -> None:
    data: dict[str, Any] = {"greek": {"Apollon": "B6", "Messène": "B4"}, "persian": {"Darius": "B6"},
                            "supports": {"Messène": "Apollon"}}
    assert "umpire-phase" in _ids(_resolved(**data))
    assert "umpire-phase" not in _ids(_resolved(**data, phase="combat"))
    assert "umpire-phase" not in _ids(_resolved(**{**data, "supports": {}}, phase="combat"))
