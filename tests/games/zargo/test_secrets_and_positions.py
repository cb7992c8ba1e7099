"""Zargo's secrets keep the game alive and never leak; impossible positions are refused (issue 29).

Each example of the hostile run is a regression test: a seal is checked against the box with the
people's other sealed garrisons and face-up counters; a face-up counter laid after seals (the
rulebook's set-up order) too, the refusal naming no garrison's content; a commitment is made only
through ``seal``; a refused reveal never echoes its claim; a lost secret has a logged way out that
shows nothing; a position the rules cannot reach is refused with one line naming file and field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.errors import PositionError
from referee.games import find_game
from referee.journal import GameFile
from referee.tables import data_root
from tests.cli.conftest import Referee
from tests.games.zargo.helpers import GAME, TABLES


def _new(referee: Referee) -> Path:
    assert referee("new", "zargo", "--setup", "setup.yaml").code == 0
    return referee.cwd / "game.referee"


def test_la_conquete_a_seal_counts_the_other_sealed_garrisons_of_its_people(referee: Referee) -> None:
    game = _new(referee)  # the sample places 2 of the Knights' 10 CHV face up: 8 left in the box
    for city in ("0803", "1203"):
        assert referee("seal", f"garrison-{city}", "--as", "chevaliers", input='["CHV","CHV","CHV","CHV"]\n').code == 0
    before = game.read_bytes()
    third = referee("seal", "garrison-0505", "--as", "chevaliers", input='["CHV"]\n')
    assert third.code == 1 and "box-short" in third.out + third.err
    assert "CHV" not in third.out + third.err  # the refusal says the box is short, not what garrisons hold
    assert game.read_bytes() == before
    assert referee("seal", "garrison-0505", "--as", "chevaliers", input='["FCh"]\n').code == 0


def test_preparation_a_face_up_counter_laid_after_the_seals_is_checked_against_them(referee: Referee) -> None:
    # the rulebook's order: cities, then garrisons face down, then the rest face up
    assert referee("new", "zargo").code == 0
    assert referee("do", "players", "4", "chevaliers:1", "dragons:2", "ailes:3", "moines:4").code == 0
    for city in ("0803", "1203", "0505", "1005"):
        assert referee("do", "city", city).code == 0
    assert referee("seal", "garrison-0803", "--as", "chevaliers", input='["SOR","SOR"]\n').code == 0
    assert referee("seal", "garrison-1203", "--as", "chevaliers", input='["SOR"]\n').code == 0
    game = referee.cwd / "game.referee"
    before = game.read_bytes()
    refused = referee("do", "SOR", "0506")  # the box holds 3 sorcerers, all three sealed
    assert refused.code == 1 and "box-short" in refused.out + refused.err
    assert "garrison" not in refused.err.replace("garrisons and", "")  # no garrison named, no content
    assert game.read_bytes() == before
    assert referee("do", "FCh", "0506").code == 0
    refused = referee("adjust", "SOR", "0507", "--reason", "a slip")  # an umpire's override is checked too
    assert refused.code == 1 and "box-short" in refused.out + refused.err


def test_la_conquete_a_commitment_is_made_only_through_seal(referee: Referee) -> None:
    game = _new(referee)
    before = game.read_bytes()
    bare = referee("do", f"seal moines garrison-3612 {'0' * 64}")
    assert bare.code == 1 and "referee seal" in bare.err
    assert game.read_bytes() == before


def test_la_conquete_a_refused_reveal_never_echoes_its_claim(referee: Referee) -> None:
    game = _new(referee)
    assert referee("seal", "garrison-3612", "--as", "moines", input='["FMo","MCh"]\n').code == 0
    assert referee("do", "start").code == 0
    before = game.read_bytes()
    early = referee("reveal", "garrison-3612", "--as", "moines", "--claim", '["FMo","MCh"]')
    assert early.code == 1  # the Monks' turn has not come: no reveal now
    assert "FMo" not in early.out + early.err and "MCh" not in early.out + early.err
    assert game.read_bytes() == before


def test_la_conquete_a_lost_secret_has_a_logged_way_out_that_shows_nothing(referee: Referee) -> None:
    game = _new(referee)
    assert referee("seal", "garrison-3612", "--as", "moines", input='["FMo","MCh"]\n').code == 0
    assert referee("do", "start").code == 0
    for _ in range(2):
        assert referee("do", "resolve").code == 0
    # the Winged lord flies next to the Monks' city and attacks it (as the tour does)
    assert referee("do", "2417", "3613").code == 0 and referee("do", "attack", "3613", "3612").code == 0
    assert "must reveal the garrison of 3612" in referee("do", "resolve").out
    with GameFile.open(game, find_game) as gf:  # the salt is lost: the private table no longer holds it
        gf.conn.execute("DELETE FROM secrets")
        gf.conn.commit()
    lost = referee("reveal", "garrison-3612", "--as", "moines")
    assert lost.code == 1 and "salt" in lost.err
    way_out = referee("adjust", "garrison", "3612", "lost", "--reason", "the Monks' laptop lost its secrets")
    assert way_out.code == 0, way_out.err
    assert "seal the garrison of 3612 again" in referee("status").out
    assert referee("seal", "garrison-3612", "--as", "moines", input='["FMo"]\n').code == 0
    for viewer in ("ailes", "chevaliers"):
        seen = referee("show", "--as", viewer).out + referee("log", "--as", viewer).out
        assert '["FMo"]' not in seen.replace(" ", "")
    assert "lost its secrets" in referee("log", "--json").out  # the override and its reason are journaled
    assert referee("reveal", "garrison-3612", "--as", "moines").code == 0
    assert referee("do", "resolve").code == 0


def _position(**changes: Any) -> object:
    data: dict[str, Any] = {
        "game": "zargo", "phase": "move", "players": 4, "peoples": ["chevaliers", "dragons", "ailes", "moines"],
        "continents": {"chevaliers": ["1"], "dragons": ["2"], "ailes": ["3"], "moines": ["4"]},
        "active": "chevaliers", "board": {"0906": ["CHV"]},
        "cities": {"0505": {"owner": "chevaliers", "founder": "chevaliers"}},
    }
    data.update(changes)
    return GAME.from_position(TABLES, data, "pos.yaml")


@pytest.mark.parametrize(("changes", "field"), [
    ({"cities": {"0501": {"owner": "chevaliers", "founder": "chevaliers"}}}, "cities.0501"),  # in the sea
    ({"cities": {"0404": {"owner": "chevaliers", "founder": "chevaliers"}}}, "cities.0404"),  # on the coast
    ({"alliances": ["moines+moines"]}, "alliances[0]"),
    ({"alliances": ["ailes+chevaliers+dragons"]}, "alliances[0]"),
    ({"players": 0}, "players"),
    ({"players": 3}, "peoples"),
    ({"board": {"9999": ["CHV"]}}, "board.9999"),
    ({"moved": {"9906:CHV": ["0905", "0906"]}}, "moved.9906:CHV"),
    ({"attacks": {"0907": ["9999"]}}, "attacks.0907"),
    ({"continents": {"chevaliers": ["7"]}}, "continents.chevaliers"),
    ({"moved": {"0906:CHV": ["0904", "0906"]}}, "moved.0906:CHV"),  # not a step: the route is judged
])
def test_preparation_an_impossible_position_is_refused_naming_file_and_field(changes: dict[str, Any],
                                                                              field: str) -> None:
    with pytest.raises(PositionError) as info:
        _position(**changes)
    assert str(info.value).startswith(f"pos.yaml: {field}: ")


def test_odds_names_the_position_file_when_it_refuses(referee: Referee) -> None:
    pos = data_root("samples") / "zargo" / "umpire.yaml"
    hidden = referee("odds", "--position", str(pos), "zargo", "attack", "2503")
    assert hidden.code == 1 and str(pos) in hidden.err
    far = referee("odds", "--position", str(pos), "zargo", "attack", "1208", "2503")
    assert far.code == 1 and str(pos) in far.err and "not-adjacent" in far.err
