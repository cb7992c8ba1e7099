"""Scopo del gioco: five Greeks in Troy at once, every Trojan or every Greek eliminated, five
ships held at once by Trojans, and a draw after day 4 going to the Trojans."""

from __future__ import annotations

from referee.games.iliad.roster import Side
from referee.games.iliad.state import Phase

from .helpers import ENGINE, event_codes, faces, play, position, record

H2 = {"day": 1, "hour": 2}


def test_scopo_five_greek_counters_in_troy_at_once() -> None:
    inside = {"Macaone": "S19", "Podalirio": "S20", "Eurialo": "S21", "Peneleo": "T19"}
    four = position(**H2, counters={**inside, "Fenice": "P19", "Ettore": "J25"})
    assert play(four, "resolve").phase is Phase.MOVE
    moved = play(four, "Fenice T20")  # the fifth enters the citadel
    end, rec = record(moved, "resolve")
    assert end.phase is Phase.OVER and end.winner is Side.GREEK and "Troy falls" in (end.win_reason or "")
    assert "victory" in event_codes(rec)
    assert any("troy-ground" in p for p in rec.provisional) and any("victory-timing" in p for p in rec.provisional)
    outcome = ENGINE.outcome(end)
    assert outcome is not None and outcome.winners == ("greek",) and outcome.termination == "troy-falls"
    assert ENGINE.legal_actions(end) == []


def test_scopo_every_trojan_eliminated() -> None:
    state = play(position(**H2, counters={"Macaone": "J15", "Cebrione": "J16", "Diomede": "D13"}),
                 "Macaone x Cebrione")
    end = play(state, "resolve", dice=faces(6, 1))
    assert end.winner is Side.GREEK and "every Trojan" in (end.win_reason or "")


def test_scopo_every_greek_eliminated() -> None:
    state = play(position(**H2, side="trojan", counters={"Macaone": "J15", "Cebrione": "J16", "Ettore": "S19"}),
                 "Cebrione x Macaone")
    end = play(state, "resolve", dice=faces(6, 1))
    assert end.winner is Side.TROJAN and "every Greek" in (end.win_reason or "")


def test_scopo_five_ships_burn() -> None:
    ships = {"Cebrione": "C13", "Mestle": "C15", "Ennomo": "C17", "Pilemene": "C19"}
    state = position(day=2, hour=3, side="trojan", counters={**ships, "Naste": "D21", "Diomede": "F24",
                                                               "Ettore": "S19"})
    assert play(state, "resolve").phase is Phase.MOVE  # four ships are not enough
    end = play(state, "Naste C21", "resolve")
    assert end.winner is Side.TROJAN and "ships burn" in (end.win_reason or "")


def test_scopo_a_draw_after_day_4_goes_to_the_trojans() -> None:
    last = position(day=4, hour=12, side="trojan", counters={"Ettore": "S19", "Diomede": "D13"})
    end = play(last, "resolve")
    assert end.winner is Side.TROJAN and "day 4" in (end.win_reason or "")
