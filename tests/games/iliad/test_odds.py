"""Exact odds (Combattimento: duello, campo aperto, arcieri): full enumeration with Fractions,
checked against seeded simulations of 10^5 duels and by the rulebook's example."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from referee.games.iliad.combat import DUEL_THROWS, duel_throw, wound
from referee.games.iliad.odds import battle_distribution, duel_distribution, shot_distribution
from referee.games.iliad.tables import IliadTables
from referee.tables import packaged_table_set

from .helpers import ENGINE, position

SIMULATED_DUELS = 100_000
Z = 4.5  # sampling error bound: 4.5 standard deviations (seeded, so the outcome is fixed)


@pytest.fixture(scope="module")
def tables() -> IliadTables:
    return ENGINE.new_state(packaged_table_set("iliad")).tables


def simulate_duel(tables: IliadTables, values: tuple[int, int], wounded: tuple[bool, bool], rng: random.Random,
                  second_wound: str = "no-effect") -> tuple[str, str]:
    """One duel thrown with a seeded generator: the rulebook's procedure, throw by throw."""
    status = ["wounded" if w else "unhurt" for w in wounded]
    for throw in range(1, DUEL_THROWS + 1):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        hurt, band, _ = duel_throw(tables, throw, values, dice, (status[0] == "wounded", status[1] == "wounded"))
        if hurt is not None:
            status[hurt] = "killed" if band == "killed" else wound(status[hurt], second_wound)  # type: ignore[arg-type]
        if "killed" in status:
            break
    return status[0], status[1]


@pytest.mark.parametrize(("values", "wounded"), [((4, 3), (False, False)), ((8, 5), (False, True))])
def test_duello_odds_agree_with_a_seeded_simulation_of_100000_duels(
    tables: IliadTables, values: tuple[int, int], wounded: tuple[bool, bool]
) -> None:
    exact = duel_distribution(tables, values, wounded)
    assert sum(exact.values()) == 1
    rng = random.Random(20240917)
    counts: dict[tuple[str, str], int] = {}
    for _ in range(SIMULATED_DUELS):
        end = simulate_duel(tables, values, wounded, rng)
        counts[end] = counts.get(end, 0) + 1
    assert set(counts) <= set(exact)
    for outcome, p in exact.items():
        freq = counts.get(outcome, 0) / SIMULATED_DUELS
        sigma = math.sqrt(float(p) * (1 - float(p)) / SIMULATED_DUELS)
        assert abs(freq - float(p)) <= Z * sigma + 1e-12, (outcome, freq, float(p))


def test_duello_odds_of_the_rulebook_example(tables: IliadTables) -> None:
    exact = duel_distribution(tables, (4, 3), (False, False))
    # The example's own dice (3-5, 6-2, 5-3) are one of 36^3 equally likely sequences ending with
    # Antimaco killed at the third throw: that outcome must have a positive chance.
    assert exact[("unhurt", "killed")] > 0
    # Symmetry: equal heroes have equal chances.
    even = duel_distribution(tables, (5, 5), (False, False))
    assert even[("killed", "unhurt")] == even[("unhurt", "killed")]
    assert even[("wounded", "unhurt")] == even[("unhurt", "wounded")]


def test_duello_odds_with_a_killing_second_wound(tables: IliadTables) -> None:
    base = duel_distribution(tables, (6, 6), (False, True))
    harsh = duel_distribution(tables, (6, 6), (False, True), "kills")
    assert sum(harsh.values()) == 1
    assert harsh.get(("unhurt", "killed"), Fraction(0)) > base.get(("unhurt", "killed"), Fraction(0))


def test_campo_aperto_odds_by_enumeration() -> None:
    even = battle_distribution((1, 1), (False, False))
    assert even == {"attackers": Fraction(15, 36), "defenders": Fraction(15, 36), "tie": Fraction(6, 36)}
    reroll = battle_distribution((1, 1), (False, False), "reroll")
    assert reroll == {"attackers": Fraction(1, 2), "defenders": Fraction(1, 2)}
    strong = battle_distribution((9, 1), (False, False))
    assert strong["attackers"] == 1  # 9+1 beats 1+6
    halved = battle_distribution((1, 1), (False, True))
    assert halved["attackers"] > even["attackers"] and sum(halved.values()) == 1


def test_arcieri_odds_by_enumeration() -> None:
    assert shot_distribution(False) == {"killed": Fraction(1, 6), "wounded": Fraction(1, 6), "nothing": Fraction(2, 3)}
    assert shot_distribution(True, "kills") == {"killed": Fraction(1, 3), "nothing": Fraction(2, 3)}


def test_odds_report_of_a_position_counts_gods_wall_and_wounds() -> None:
    state = position(day=1, hour=4, counters={"Menelao": "J15", "Paride": "J16", "Macaone": "K12", "Podalirio": "K14",
                                              "Cebrione": "K13", "Teucro": "H13", "Ettore": "M16"},
                     wounded=["Paride"])
    duel = ENGINE.odds(state, "Menelao x Paride")
    assert duel.kind == "duel" and duel.values == (4, 4)
    assert any("wounded" in n for n in duel.notes)
    assert sum(Fraction(o.fraction) for o in duel.outcomes) == 1
    assert all(o.percent.endswith("%") for o in duel.outcomes)
    battle = ENGINE.odds(state, "Macaone, Podalirio x Cebrione")
    assert battle.kind == "battle" and battle.values == (4, 1)  # the gods favour the Greeks at hour 4
    assert sum(o.probability for o in battle.outcomes) == pytest.approx(1)
    shot = ENGINE.odds(state, "Teucro shoots Ettore")
    assert [o.fraction for o in shot.outcomes] == ["1/6", "1/6", "2/3"]
    assert shot.explain()[0] == "shot: Teucro at Ettore"


def _readings(provisional: tuple[str, ...]) -> set[str]:
    return {p.split(":", 1)[0].removeprefix("interpretation ") for p in provisional if p.startswith("interpretation ")}


def test_duello_odds_disclose_the_readings_their_figures_use() -> None:
    # Diomede 8 against Paride 4: throws can tie and can differ by more than the printed 6, so the
    # figures rest on duel-equal-totals and duel-large-difference (and half points once wounded).
    state = position(day=1, hour=2, counters={"Diomede": "J15", "Paride": "J16", "Ettore": "S20"})
    report = ENGINE.odds(state, "Diomede x Paride")
    assert {"duel-equal-totals", "duel-large-difference", "duel-half-points"} <= _readings(report.provisional)


def test_duello_odds_name_no_reading_a_duel_cannot_meet(tables: IliadTables) -> None:
    # 5 against 5, unhurt: no throw can differ by more than 5 points.
    used: set[str] = set()
    duel_distribution(tables, (5, 5), (False, False), readings=used)
    assert "duel-large-difference" not in used and "duel-equal-totals" in used
