"""La notte tra un giorno e l'altro: back to the start squares, two thirds of the lost points
revived (rounded up, the rulebook's 16 → 12), the wounded healed; Greek start squares inside the
wall once it stands (Il calendario)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.games.iliad.roster import Side
from referee.games.iliad.sequence import allowance, auto_revive
from referee.games.iliad.state import Phase

from .helpers import ENGINE, choose, codes, event_codes, judge, play, position, record, tables_with

NIGHT_1 = {"day": 1, "hour": 12, "phase": "night"}


@pytest.mark.parametrize(("lost", "revived", "two_thirds_up"),
                         [(16, 12, 11), (1, 2, 1), (2, 2, 2), (3, 2, 2), (4, 4, 3), (9, 6, 6), (0, 0, 0)])
def test_la_notte_two_thirds_of_the_points_rounded_up(lost: int, revived: int, two_thirds_up: int,
                                                     tmp_path: Path) -> None:
    # The rulebook's example: 16 points lost, 12 revived (interpretation night-rounding).
    fields = {**NIGHT_1, "counters": {"Ettore": "S19", "Diomede": "D13"}, "points_lost_today": {"greek": lost}}
    assert allowance(position(**fields), Side.GREEK) == revived
    other = position(choose(tmp_path, "night-rounding", "two-thirds-up"), **fields)
    assert allowance(other, Side.GREEK) == two_thirds_up


def test_la_notte_the_revived_are_today_s_fallen_within_the_allowance() -> None:
    state = position(**NIGHT_1, counters={"Ettore": "S19", "Menelao": "D18"},
                     lost_today={"greek": ["Diomede", "Aiace Telamonio"]})
    assert state.points_lost(Side.GREEK) == 16 and allowance(state, Side.GREEK) == 12
    verdict = judge(state, "night greek: Diomede, Aiace Telamonio")
    assert codes(verdict) == ["over-allowance"]
    assert judge(state, "night greek: Diomede").legal
    assert codes(judge(state, "night greek: Patroclo")) == ["not-revivable"]  # dead, but not today
    assert codes(judge(state, "night greek: Ettore")) == ["wrong-side"]
    assert auto_revive(state, Side.GREEK) == ("Diomede",)


def test_la_notte_everyone_goes_back_to_start_and_the_wounded_heal() -> None:
    state = position(**NIGHT_1, counters={"Ettore": "J16", "Glauco": "K16", "Menelao": "J14", "Diomede": "I14"},
                     wounded=["Menelao"], lost_today={"trojan": ["Paride"], "greek": ["Macaone", "Podalirio"]})
    morning, rec = record(state, "night")  # the referee picks for both sides
    start = state.start
    assert morning.where["Ettore"] == start["Ettore"] and morning.where["Menelao"] == start["Menelao"]
    assert morning.wounded == () and morning.lost == {} and morning.lost_points == {}
    assert "Paride" in morning.where and morning.where["Paride"] == start["Paride"]  # 4 lost, 4 back
    assert "Macaone" in morning.where and "Podalirio" in morning.where  # 2 lost, 2 back
    assert (morning.day, morning.hour, morning.side) == (2, 1, Side.GREEK)
    assert {"revived", "back-to-start"} <= set(event_codes(rec))
    assert any("night-rounding: multiple-of-three" in p for p in rec.provisional)
    assert any("calendar.yaml: wall from day 2 hour 1 (reconstruction)" in p for p in rec.provisional)
    assert len(set(morning.where.values())) == len(morning.where)


def test_la_notte_nobody_comes_back_past_the_allowance(tmp_path: Path) -> None:
    fields = {**NIGHT_1, "counters": {"Ettore": "J16", "Diomede": "I14"}, "lost_today": {"trojan": ["Paride"]}}
    state = position(choose(tmp_path, "night-rounding", "two-thirds-up"), **fields)
    assert allowance(state, Side.TROJAN) == 3  # 4 lost: two thirds is 2.67, rounded up to 3
    assert codes(judge(state, "night trojan: Paride")) == ["over-allowance"]
    assert auto_revive(state, Side.TROJAN) == ()
    assert judge(state, "night trojan: none").legal


def test_la_notte_only_at_night() -> None:
    state = position(day=1, hour=5, counters={"Ettore": "S19", "Diomede": "D13"})
    assert codes(judge(state, "night")) == ["not-night"]


def test_la_notte_thracians_lost_on_day_2_do_not_come_back() -> None:
    state = position(day=2, hour=12, phase="night", counters={"Ettore": "S19", "Diomede": "D13"},
                     lost_today={"trojan": ["Reso", "Cebrione"]})
    assert allowance(state, Side.TROJAN) == 4  # Reso's 5 points count in the losses
    assert "not-revivable" in codes(judge(state, "night trojan: Reso"))
    assert auto_revive(state, Side.TROJAN) == ("Cebrione",)
    morning = play(state, "night")
    assert "Cebrione" in morning.where and "Reso" in morning.removed


def test_il_calendario_greeks_start_inside_the_wall_once_it_stands(tmp_path: Path) -> None:
    state = position(**NIGHT_1, counters={"Ettore": "S19", "Diomede": "D13", "Achille": "C12"})
    assert judge(state, "night camp: Diomede E14").legal  # the wall rises at day 2 hour 1
    morning = play(state, "night camp: Diomede E14")
    assert morning.where["Diomede"] == morning.start["Diomede"] == ENGINE.new_state(
        state.tables.table_set).tables.board.grid.parse("E14")
    assert codes(judge(state, "night camp: Diomede H14")) == ["not-in-camp"]
    assert codes(judge(state, "night camp: Diomede D14")) == ["square-taken"]  # Agamennone starts there
    assert codes(judge(state, "night camp: Achille E20")) == ["achilles-sulks"]
    assert codes(judge(state, "night camp: Ettore E20")) == ["wrong-side"]
    later = tables_with(tmp_path, "calendar.yaml",
                        lambda t: t.replace("wall: {day: 2, hour: 1", "wall: {day: 3, hour: 1"))
    early = position(later, **NIGHT_1, counters={"Ettore": "S19", "Diomede": "D13"})
    assert codes(judge(early, "night camp: Diomede E14")) == ["no-wall-yet"]


def test_la_notte_comes_after_the_last_hour_and_the_game_ends_after_day_4() -> None:
    evening = position(day=3, hour=12, side="trojan", counters={"Ettore": "S19", "Diomede": "D13"})
    night = play(evening, "resolve")
    assert night.phase is Phase.NIGHT
    assert codes(judge(night, "Diomede D14")) == ["night"]
    last = position(day=4, hour=12, side="trojan", counters={"Ettore": "S19", "Diomede": "D13"})
    end = play(last, "resolve")
    assert end.phase is Phase.OVER and end.winner is Side.TROJAN
