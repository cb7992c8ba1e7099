"""Zargo umpire overrides (``referee adjust``), named after the paragraphs they keep: counters put
or taken off ("LES PIONS DU JEU", "ESCORTES"), a city given to another people, never a sealed
garrison opened or changed ("PRÉPARATION DU JEU" hides it, "LA CONQUÊTE D'UNE VILLE" reveals it
only under attack)."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee.i18n
from referee.errors import NotationError, UnknownNameError
from tests.cli.conftest import Referee
from tests.games.zargo.helpers import GAME, position


def verdict(state: object, text: str) -> tuple[str, ...]:
    return GAME.judge(state, GAME.parse_adjust(state, text)).codes()  # type: ignore[arg-type]


def adjusted(state: object, text: str) -> object:
    action = GAME.parse_adjust(state, text)  # type: ignore[arg-type]
    assert GAME.judge(state, action).codes() == ()  # type: ignore[arg-type]
    return GAME.apply(state, action, None).state  # type: ignore[arg-type]


def test_les_pions_du_jeu_override_puts_and_takes_off_counters() -> None:
    s = position({"0906": ["CHV"]})
    new = adjusted(s, "FCh 1006")
    assert new.board["1006"] == ("FCh",)  # type: ignore[attr-defined]
    gone = adjusted(new, "1006 off")
    assert "1006" not in gone.board  # type: ignore[attr-defined]
    assert verdict(s, "1006 off") == ("empty-hex",)
    assert verdict(s, "FCh 0101") == ("sea-hex",)


def test_escortes_override_stacks_only_an_escort() -> None:
    s = position({"0906": ["CHV"], "1006": ["FCh"]})
    assert adjusted(s, "FCh 0906").board["0906"] == ("FCh", "CHV")  # type: ignore[attr-defined]
    assert verdict(s, "CHV 1006") == ("hex-taken",)


def test_override_people_given_or_inferred() -> None:
    s = position({})
    assert GAME.parse_adjust(s, "FCh 1006").text() == "FCh 1006"  # the label names its people
    assert GAME.parse_adjust(s, "fantassin 1006 dragons").text() == "FDr 1006"  # a name, its people given
    assert GAME.parse_adjust(s, "fantassin 1006").text() == "FCh 1006"  # ...or the active people's
    with referee.i18n.language("fr"):
        action = GAME.parse_adjust(s, "ville 0505 dragons")
        assert action.text() == "city 0505 dragons"
        assert GAME.parse_adjust(s, "0906 retirer").text() == "0906 off"
    with referee.i18n.language("it"):
        assert GAME.parse_adjust(s, "0906 togli").text() == "0906 off"
    with pytest.raises(UnknownNameError):
        GAME.parse_adjust(s, "city 0505 elves")
    with pytest.raises(NotationError):
        GAME.parse_adjust(s, "")
    with pytest.raises(NotationError):
        GAME.parse_adjust(s, "0906 1006 1106")


def test_la_conquete_d_une_ville_override_gives_a_city_to_another_people() -> None:
    s = position({})
    new = adjusted(s, "city 0505 dragons")
    assert new.cities["0505"].owner == "dragons"  # type: ignore[attr-defined]
    assert verdict(s, "city 0906 dragons") == ("no-city",)


def test_preparation_override_never_touches_a_sealed_garrison(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REFEREE_FILE", raising=False)
    monkeypatch.delenv("REFEREE_TABLES", raising=False)
    ref = Referee(tmp_path)
    assert ref("new", "zargo", "--setup", "setup.yaml").code == 0
    assert ref("seal", "garrison-0215", "--as", "moines", input='["FMo","MCh"]\n').code == 0
    assert ref("do", "start").code == 0
    game = tmp_path / "game.referee"
    before = game.read_bytes()
    for override in (["city", "0215", "dragons"], ["0215", "off"], ["MCh", "0215"]):
        result = ref("adjust", *override, "--reason", "umpire")
        assert result.code == 1, result.out + result.err
        assert "sealed-garrison" in result.out + result.err
        assert "FMo" not in result.out + result.err
        assert game.read_bytes() == before
    result = ref("--lang", "fr", "adjust", "ville", "0215", "dragons", "--reason", "arbitre")
    assert result.code == 1 and "garnison scellée" in result.out + result.err
    assert game.read_bytes() == before
    # an open override goes through and is journaled
    result = ref("adjust", "FCh", "0906", "--reason", "umpire")
    assert result.code == 0, result.err
    assert game.read_bytes() != before
    log = ref("log")
    assert "FCh 0906" in log.out
