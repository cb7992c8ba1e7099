"""Position files are judged (issue 9): every declaration goes through the engine's own checks.

Each case is one the referee used to apply without a word: a shot from out of range, two heroes
on one hero, an attacker not beside its target, a counter stopped beside an attacked enemy
without joining, a phase the calendar never reaches. Now the file is refused with one line
naming the field and the rule, or what it implies is derived (an attack on sulking Achilles
brings him in).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from referee.errors import PositionError
from referee.games.iliad.state import Phase
from referee.tables import packaged_table_set

from .helpers import ENGINE, choose, codes, faces, judge, play, position, tables_with

H5 = {"day": 1, "hour": 5}  # the gods favour the Greeks (calendar.yaml)
H2 = {"day": 1, "hour": 2}  # no god, no duel


def refused(**data: Any) -> PositionError:
    with pytest.raises(PositionError) as info:
        position(**data)
    return info.value


# ---- the cases ------------------------------------------------------------------------


def test_a_shot_from_nine_rows_away_is_refused_on_load() -> None:
    err = refused(**H5, counters={"Teucro": "E15", "Ettore": "N15", "Diomede": "J14"},
                  shots=["Teucro shoots Ettore"])
    assert err.field == "shots[0]"
    assert "not within 3 squares" in err.problem and "Combattimento: arcieri" in err.problem
    assert "\n" not in str(err)


def test_judge_reports_the_range_before_already_shot() -> None:
    state = position(**H5, counters={"Teucro": "J14", "Cebrione": "J17", "Ettore": "S15"},
                     shots=["Teucro shoots Cebrione"])
    assert codes(judge(state, "Teucro shoots Ettore")) == ["out-of-range", "already-shot"]
    assert codes(judge(state, "Teucro shoots Cebrione")) == ["already-shot"]


def test_two_heroes_on_one_hero_and_an_attacker_far_away_are_refused() -> None:
    counters = {"Diomede": "J14", "Ulisse": "J16", "Macaone": "E3", "Ettore": "J15"}
    err = refused(**H5, counters=counters, attacks=["Diomede x Ettore", "Ulisse x Ettore", "Macaone x Ettore"])
    assert err.field == "attacks[1]" and "Combattimento: duello" in err.problem
    err = refused(**H5, counters=counters, attacks=["Diomede x Ettore", "Macaone x Ettore"])
    assert err.field == "attacks[1]" and "not in Ettore's zone" in err.problem
    state = position(**H5, counters=counters, attacks=["Diomede x Ettore"])
    assert codes(judge(state, "Macaone x Ettore")) == ["not-in-zone", "duel-one-on-one"]
    assert codes(judge(state, "Ulisse x Ettore")) == ["duel-one-on-one"]


def test_the_cli_refuses_an_impossible_position_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "position.yaml"
    path.write_text(yaml.safe_dump({
        "game": "iliad", **H5, "counters": {"Diomede": "J14", "Ulisse": "J16", "Macaone": "E3", "Ettore": "J15"},
        "attacks": ["Diomede x Ettore", "Ulisse x Ettore", "Macaone x Ettore"]}), encoding="utf-8")
    before = path.read_bytes()
    for verb in (["resolve", "iliad"], ["judge", "iliad", "Diomede x Ettore"]):
        done = subprocess.run([sys.executable, "-m", "referee", *verb, "--position", str(path)],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 1, done.stdout + done.stderr
        lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
        assert len(lines) == 1, lines
        assert "position.yaml: attacks[1]:" in lines[0] and "Combattimento: duello" in lines[0]
    assert path.read_bytes() == before


# ---- zones: stopping beside an attacked enemy joins the attack ---------------------------------


def test_stopping_beside_an_attacked_enemy_joins_its_attack() -> None:
    state = play(position(**H2, counters={"Diomede": "J14", "Macaone": "L16", "Aiace Telamonio": "H16",
                                          "Cebrione": "J16", "Ettore": "S20"}), "Diomede J15")
    assert codes(judge(state, "Aiace Telamonio I16")) == ["one-hero-per-side"]  # a second hero: refused
    verdict = judge(state, "Macaone K16")  # a value-1 counter joins
    assert verdict.legal and any("zone-stop" in p for p in verdict.provisional)
    joined = play(state, "Macaone K16")
    assert [a.targets for a in joined.attacks if a.attacker == "Macaone"] == [("Cebrione",)]


def test_the_zone_of_an_attacked_enemy_may_still_be_crossed(tmp_path: Path) -> None:
    # Orthogonal steps only, and Greek counters on R8 and R9: from Q9, Q7 is 2 steps through Q8,
    # in Cebrione's zone; every other way is longer than Macaone's 6.
    tables = choose(tmp_path, "diagonal-movement", "orthogonal-only")
    state = position(tables, **H2, counters={"Diomede": "N8", "Macaone": "Q9", "Cebrione": "P8", "Fenice": "R8",
                                             "Peneleo": "R9", "Ettore": "S20"})
    assert codes(judge(state, "Macaone Q7")) == ["zone-of-control"]
    attacked = play(state, "Diomede O8")
    verdict = judge(attacked, "Macaone Q7")
    assert verdict.legal, verdict
    assert "Q8" in next(n.message for n in verdict.notes if n.code == "route")


def _readings(tmp: Path, **choices: str) -> Any:
    """The Iliad tables with several interpretations switched (ids with underscores for dashes)."""
    def edit(text: str) -> str:
        data = yaml.safe_load(text)
        for item in data["interpretations"]:
            wanted = choices.get(item["id"].replace("-", "_"))
            if wanted is not None:
                assert wanted in item["options"]
                item["choice"] = wanted
        return "# Source: test override\n" + yaml.safe_dump(data, allow_unicode=True, sort_keys=False)

    return tables_with(tmp, "rules.yaml", edit)


def test_an_enemy_only_shot_at_still_stops_a_move_unless_the_reading_says_engaged(tmp_path: Path) -> None:
    # As above, but Teucro shoots Cebrione instead of Diomede attacking him.
    fields = {**H2, "counters": {"Teucro": "P5", "Macaone": "Q9", "Cebrione": "P8", "Fenice": "R8",
                                 "Peneleo": "R9", "Ettore": "S20"}, "shots": ["Teucro shoots Cebrione"]}
    strict = position(_readings(tmp_path / "a", diagonal_movement="orthogonal-only"), **fields)
    verdict = judge(strict, "Macaone Q7")
    assert codes(verdict) == ["zone-of-control"]
    assert any("arrow-target-zones" in p for p in verdict.provisional)
    loose = position(_readings(tmp_path / "b", diagonal_movement="orthogonal-only", arrow_target_zones="engaged"),
                     **fields)
    assert judge(loose, "Macaone Q7").legal


def test_a_god_doubled_value_one_counter_moves_six_unless_the_reading_says_ten(tmp_path: Path) -> None:
    fields = {"day": 1, "hour": 5, "counters": {"Macaone": "J15", "Ettore": "S20", "Diomede": "J5"}}
    verdict = judge(position(**fields), "Macaone J25")
    assert codes(verdict) == ["too-far"] and any("doubled-movement" in p for p in verdict.provisional)
    assert judge(position(choose(tmp_path, "doubled-movement", "moves-ten"), **fields), "Macaone J25").legal
    assert codes(judge(position(**{**fields, "hour": 2}), "Macaone J25")) == ["too-far"]  # no god this hour


def test_attacking_another_enemy_beside_an_attacked_one_need_not_join() -> None:
    # The third figure: Macaone attacks Mestle from K16, also beside Cebrione whom Diomede attacks.
    state = play(position(**H2, counters={"Diomede": "J14", "Macaone": "M18", "Cebrione": "J16",
                                          "Mestle": "L16", "Ettore": "S20"}), "Diomede J15")
    verdict = judge(state, "Macaone K16")
    assert verdict.legal
    after = play(state, "Macaone K16")
    assert [a.targets for a in after.attacks if a.attacker == "Macaone"] == [("Mestle",)]


def test_a_moved_counter_beside_an_attacked_enemy_without_an_attack_is_refused(tmp_path: Path) -> None:
    fields = {**H2, "counters": {"Diomede": "J15", "Macaone": "K16", "Cebrione": "J16", "Ettore": "S20"},
              "attacks": ["Diomede x Cebrione"], "moved": ["Macaone"]}
    err = refused(**fields)
    assert err.field == "moved[0]" and "zone-stop" in err.problem
    lenient = position(choose(tmp_path, "zone-stop", "stop-beside-attacked"), **fields)
    assert lenient.moved == ("Diomede", "Macaone") and len(lenient.attacks) == 1


def test_a_moved_counter_beside_an_enemy_not_attacked_is_refused() -> None:
    err = refused(**H2, counters={"Diomede": "J15", "Cebrione": "J16", "Ettore": "S20"}, moved=["Diomede"])
    assert err.field == "moved[0]" and "without attacking" in err.problem


# ---- what a moved list may hold -------------------------------------------------------------


@pytest.mark.parametrize(("fields", "field", "words"), [
    ({"counters": {"Diomede": "J15", "Ettore": "S20"}, "moved": ["Ettore"]}, "moved[0]", "Trojan"),
    ({"counters": {"Diomede": "J15", "Ettore": "S20"}, "wounded": ["Diomede"], "moved": ["Diomede"]},
     "moved[0]", "wounded"),
    ({"counters": {"Diomede": "J15", "Ettore": "S20", "Achille": "D12"}, "moved": ["Achille"]}, "moved[0]",
     "sulks"),
    ({"counters": {"Ettore": "S20", "Diomede": "J15"}, "moved": ["Ulisse"]}, "moved[0]", "dead"),
    ({"counters": {"Diomede": "J15", "Ettore": "S20"}, "attacks": ["Diomede x Ettore"]}, "attacks[0]", "zone"),
    ({"counters": {"Diomede": "J15", "Ettore": "J16"}, "attacks": ["Diomede x Ettore", "Diomede x Ettore"]},
     "attacks[1]", "already moved"),
    ({"counters": {"Teucro": "J15", "Ettore": "J16", "Paride": "J18"}, "attacks": ["Teucro x Ettore"],
      "shots": ["Teucro shoots Paride"]}, "shots[0]", "cannot shoot"),
    ({"counters": {"Diomede": "J15", "Ettore": "S20"}, "shots": ["Diomede shoots Ettore"]}, "shots[0]",
     "not an archer"),
])
def test_impossible_declarations_name_the_field(fields: dict[str, Any], field: str, words: str) -> None:
    err = refused(**H2, **fields)
    assert err.field == field and words in err.problem, err


def test_a_moved_counter_walled_in_by_counters_that_did_not_move_is_refused() -> None:
    around = {"Podalirio": "I14", "Eurialo": "I15", "Peneleo": "I16", "Fenice": "J14", "Automedonte": "J16",
              "Agapenore": "K14", "Nestore": "K15", "Stenelo": "K16"}
    fields = {**H2, "counters": {"Macaone": "J15", **around, "Ettore": "S20"}}
    err = refused(**fields, moved=["Macaone"])
    assert err.field == "moved[0]" and "cannot have moved" in err.problem
    # Fenice moved too (after Macaone): Macaone came in through J14.
    state = position(**fields, moved=["Macaone", "Fenice"])
    assert state.moved == ("Macaone", "Fenice") and state.where == position(**fields).where


def test_an_attack_on_sulking_achilles_brings_him_in() -> None:
    state = position(**H2, side="trojan", counters={"Achille": "D12", "Cebrione": "E12", "Diomede": "J15"},
                     attacks=["Cebrione x Achille"])
    assert not state.achilles_sulks


# ---- phase and winner -----------------------------------------------------------------------


@pytest.mark.parametrize(("fields", "field", "words"), [
    ({"day": 1, "hour": 2, "phase": "duel"}, "phase", "no duel"),
    ({"day": 1, "hour": 1, "phase": "duel", "side": "trojan"}, "side", "Greek move"),
    ({"day": 1, "hour": 1, "phase": "duel", "wounded": ["Paride"]}, "phase", "wounded"),
    ({"day": 1, "hour": 5, "phase": "night"}, "phase", "last hour"),
    ({"day": 4, "hour": 12, "phase": "night"}, "phase", "last hour"),
    ({"day": 1, "hour": 5, "phase": "over"}, "winner", "names its winner"),
    ({"day": 1, "hour": 5, "winner": "greek"}, "winner", "no victory condition"),
    ({"day": 1, "hour": 5, "phase": "move", "winner": "trojan"}, "phase", "game is over"),
    ({"day": 1, "hour": 5, "phase": "duel", "attacks": ["Diomede x Ettore"]}, "phase", "no duel"),
    ({"day": 1, "hour": 1, "phase": "duel", "moved": ["Diomede"]}, "moved[0]", "duel"),
])
def test_impossible_phases_are_refused(fields: dict[str, Any], field: str, words: str) -> None:
    counters = {"Menelao": "D14", "Paride": "S19", "Diomede": "J15", "Ettore": "J16"}
    err = refused(counters=counters, **fields)
    assert err.field == field and words in err.problem, err


def test_possible_ends_load() -> None:
    troy = {"Diomede": "S19", "Ulisse": "S20", "Menelao": "S21", "Macaone": "T19", "Podalirio": "T20",
            "Ettore": "J16"}
    assert position(counters=troy, winner="greek").phase is Phase.OVER
    last = position(day=4, hour=12, side="trojan", winner="trojan", counters={"Diomede": "J15", "Ettore": "S20"})
    assert last.winner is not None
    assert position(day=1, hour=12, phase="night", counters={"Diomede": "J15", "Ettore": "S20"}).phase is Phase.NIGHT


# ---- what the umpire position leaves open ----------------------------------------------------


def test_open_declarations_name_attacks_and_shots_still_possible() -> None:
    counters = {"Diomede": "J15", "Ettore": "J16", "Teucro": "H18", "Cebrione": "K18", "Macaone": "C3"}
    state = position(**H2, counters=counters)
    found = {r.code: r.message for r in ENGINE.open_declarations(state)}
    assert set(found) == {"attack-open", "shot-open"}
    assert "Diomede stands beside Ettore" in found["attack-open"]
    assert "Teucro could still shoot" in found["shot-open"] and "Cebrione" in found["shot-open"]
    done = position(**H2, counters=counters, attacks=["Diomede x Ettore"], shots=["Teucro shoots Cebrione"])
    assert ENGINE.open_declarations(done) == ()
    assert ENGINE.open_declarations(position(day=1, hour=1, counters={"Menelao": "D14", "Paride": "S19"})) == ()


def test_an_accepted_position_resolves_what_it_declared() -> None:
    state = position(**H2, counters={"Diomede": "J15", "Ettore": "J16", "Teucro": "H18", "Cebrione": "K18"},
                     attacks=["Diomede x Ettore"], shots=["Teucro shoots Cebrione"])
    _, result = ENGINE.resolve_pending(state, faces(6, 1, 1, 1, 1, 1, 1))
    kinds = [r.kind for r in result.results]
    assert kinds == ["shot", "duel"]
    assert packaged_table_set("iliad")  # the packaged tables were used throughout
