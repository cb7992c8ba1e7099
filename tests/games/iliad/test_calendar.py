"""Il calendario and Come si gioca: the hours, their events at their hours, the order of moves.

The reconstructed calendar (tables/iliad/calendar.yaml): duels at day 1 hours 1 and 12 and day 4
hours 3 and 10; the wall from day 2 hour 1; Achilles from day 4 hour 1; the Thracians gone from
day 3 hour 1; god advantage (e.g. Greeks day 1 hours 3-6, Trojans hours 7-9).
"""

from __future__ import annotations

from pathlib import Path

from referee.games.iliad.combat import DuelResult
from referee.games.iliad.roster import Side
from referee.games.iliad.state import Phase

from .helpers import choose, codes, event_codes, faces, judge, play, position, record, started


def test_come_si_gioca_greeks_move_then_trojans_reply_every_hour() -> None:
    state = position(day=1, hour=2, counters={"Macaone": "J14", "Ettore": "S20"})
    assert (state.side, state.phase) == (Side.GREEK, Phase.MOVE)
    assert codes(judge(state, "Ettore R17")) == ["not-your-move"]
    trojan = play(state, "Macaone J16", "resolve")
    assert (trojan.day, trojan.hour, trojan.side) == (1, 2, Side.TROJAN)
    assert codes(judge(trojan, "Macaone J18")) == ["not-your-move"]
    nxt, rec = record(trojan, "resolve")
    assert (nxt.day, nxt.hour, nxt.side) == (1, 3, Side.GREEK)
    assert "next-hour" in event_codes(rec)


def test_il_calendario_scheduled_duel_opens_its_hour() -> None:
    state = started()  # day 1 hour 1: Menelao against Paride
    assert state.phase is Phase.DUEL
    assert codes(judge(state, "Diomede H13")) == ["duel-hour"]
    # Menelao 4+6 against Paride 4+1: difference 5, killed on the first throw.
    new, rec = record(state, "resolve", faces(6, 1))
    duel = DuelResult.model_validate(rec.details[0])
    assert duel.scheduled and duel.outcome == ("unhurt", "killed")
    assert "Paride" in new.dead and new.where["Menelao"] == state.where["Menelao"]  # the survivor stays home
    assert (new.side, new.phase, new.hour) == (Side.TROJAN, Phase.MOVE, 1)  # interpretation duel-hour: greek-move


def test_il_calendario_scheduled_duel_can_take_the_whole_hour(tmp_path: Path) -> None:
    state = position(choose(tmp_path, "duel-hour", "whole-hour"), day=1, hour=1,
                     counters={"Menelao": "D18", "Paride": "U20"})
    assert state.phase is Phase.DUEL
    new = play(state, "resolve", dice=faces(3, 3, 3, 3, 3, 3))
    assert (new.hour, new.side) == (2, Side.GREEK)


def test_il_calendario_duel_skipped_when_a_hero_is_dead_or_wounded() -> None:
    wounded = position(day=1, hour=12, side="trojan", counters={"Aiace Telamonio": "D12", "Ettore": "S19"},
                       wounded=["Ettore"])
    nxt, rec = record(wounded, "resolve")  # the Trojan move of hour 11... here hour 12 ends the day
    assert nxt.phase is Phase.NIGHT
    before = position(day=1, hour=11, side="trojan", counters={"Aiace Telamonio": "D12", "Ettore": "S19"},
                      wounded=["Ettore"])
    nxt, rec = record(before, "resolve")
    assert (nxt.hour, nxt.phase) == (12, Phase.MOVE)  # a free move
    assert "duel-skipped" in event_codes(rec)
    dead = position(day=1, hour=11, side="trojan", counters={"Ettore": "S19", "Diomede": "D13"})
    nxt, rec = record(dead, "resolve")
    assert nxt.phase is Phase.MOVE and "duel-skipped" in event_codes(rec)
    alive = position(day=1, hour=11, side="trojan", counters={"Aiace Telamonio": "D12", "Ettore": "S19"})
    assert play(alive, "resolve").phase is Phase.DUEL


def test_il_calendario_god_advantage_is_announced_at_its_hours() -> None:
    def status_at(day: int, hour: int) -> list[str]:
        from .helpers import ENGINE

        return ENGINE.status(position(day=day, hour=hour, counters={"Diomede": "D13", "Ettore": "S19"}))

    assert any("favour the Greeks" in line for line in status_at(1, 3))
    assert any("favour the Trojans" in line for line in status_at(1, 7))
    assert any("favour the Trojans" in line for line in status_at(2, 12))
    assert not any("favour" in line for line in status_at(2, 5))


def test_il_calendario_the_wall_is_built_at_its_hour() -> None:
    evening = position(day=1, hour=12, side="trojan", counters={"Diomede": "D13", "Ettore": "S19"})
    assert not evening.wall
    night = play(evening, "resolve")
    assert night.phase is Phase.NIGHT and not night.wall
    morning, rec = record(night, "night")
    assert (morning.day, morning.hour) == (2, 1) and morning.wall
    assert "wall-built" in event_codes(rec)


def test_il_calendario_achilles_sulks_until_the_first_move_of_day_4() -> None:
    state = position(day=3, hour=12, side="trojan", counters={"Achille": "C12", "Diomede": "D13", "Ettore": "S19"})
    assert state.achilles_sulks
    greek = position(day=3, hour=5, counters={"Achille": "C12", "Diomede": "D13", "Ettore": "S19"})
    assert codes(judge(greek, "Achille E14")) == ["achilles-sulks"]
    morning, rec = record(play(state, "resolve"), "night")
    assert (morning.day, morning.hour) == (4, 1) and not morning.achilles_sulks
    assert "achilles-enters" in event_codes(rec)
    assert judge(morning, "Achille E14").legal


def test_il_calendario_an_attack_brings_achilles_in_at_once() -> None:
    state = position(day=2, hour=4, side="trojan", counters={"Achille": "F15", "Diomede": "D13", "Ettore": "F16"})
    assert state.achilles_sulks
    verdict = judge(state, "Ettore x Achille")
    assert verdict.legal and any("achilles-zone" in p for p in verdict.provisional)
    new, rec = record(state, "Ettore x Achille")
    assert not new.achilles_sulks and "achilles-attacked" in event_codes(rec)
    archer = position(day=2, hour=4, side="trojan", counters={"Achille": "F15", "Diomede": "D13", "Pandaro": "F18"})
    assert not play(archer, "Pandaro shoots Achille").achilles_sulks


def test_il_calendario_greeks_lose_if_only_sulking_achilles_is_left(tmp_path: Path) -> None:
    fields = {"day": 2, "hour": 4, "counters": {"Achille": "C12", "Macaone": "J15", "Cebrione": "J16",
                                                "Ettore": "S19"}}
    state = play(position(**fields), "Macaone x Cebrione")
    end, rec = record(state, "resolve", faces(1, 6))  # Macaone falls: only Achilles is left, sulking
    assert end.phase is Phase.OVER and end.winner is Side.TROJAN and "sulks" in (end.win_reason or "")
    assert any("achilles-entry: greeks-lose" in p for p in rec.provisional)
    other = play(position(choose(tmp_path, "achilles-entry", "achilles-enters"), **fields), "Macaone x Cebrione")
    goes_on, rec = record(other, "resolve", faces(1, 6))
    assert goes_on.phase is Phase.MOVE and not goes_on.achilles_sulks
    assert "achilles-enters" in event_codes(rec)


def test_il_calendario_the_thracians_leave_from_day_3() -> None:
    counters = {"Reso": "S20", "Acamante": "S21", "Ettore": "S19", "Diomede": "D13"}
    day2 = position(day=2, hour=12, side="trojan", counters=counters, lost_today={"trojan": ["Piroo"]},
                    points_lost_today={"trojan": 1})
    night = play(day2, "resolve")
    assert "Reso" in night.where
    morning, rec = record(night, "night")
    assert "thracians-leave" in event_codes(rec)
    assert {"Reso", "Acamante", "Piroo"} <= set(morning.removed)
    assert not {"Reso", "Acamante"} & set(morning.where) and "Piroo" not in morning.dead
    later = position(day=3, hour=2, counters={"Ettore": "S19", "Diomede": "D13"})
    assert {"Reso", "Acamante", "Piroo"} <= set(later.removed)
    assert codes(judge(later, "Diomede x Reso")) == ["target-gone"]
