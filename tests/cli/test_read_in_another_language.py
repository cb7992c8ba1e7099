"""A game played in French reads in Italian and in English (issue 31): the journal keeps canonical
actions, rulings as templates, stand-in lines and dice purposes as English forms, so ``why`` and
``log`` say all of them in the language asked when reading, whatever language the game was played in."""

from __future__ import annotations

import pytest

from referee.tables import data_root

from .conftest import Referee

SAMPLES = data_root("samples")


def flat(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())


def test_a_cyrus_combat_played_in_french_is_explained_in_italian_and_english(referee: Referee) -> None:
    setup = SAMPLES / "cyrus-pyxis" / "setup.yaml"
    assert referee("--lang", "fr", "new", "cyrus-pyxis", "--setup", str(setup)).code == 0
    for line in ("Pergame L7", "Telestas L4", "terminé", "Tyr L8", "terminé", "Pergame L8",
                 "Telestas L6", "terminé", "soutien Telestas Pergame", "résoudre"):
        done = referee("--lang", "fr", "do", *line.split())
        assert done.code == 0, (line, done.out, done.err)
    french = flat(referee("--lang", "fr", "why").out)
    assert "lecture combat-terrain : Le terrain de la case partagée" in french, french
    italian = flat(referee("--lang", "it", "why").out)
    assert "risolvi si basa su" in italian and "lettura combat-terrain: Il terreno della casella condivisa" in italian
    assert "(provvisorio)" in italian and "lecture" not in italian and "provisoire" not in italian, italian
    english = flat(referee("--lang", "en", "why").out)
    assert "resolve relies on" in english, english
    assert "interpretation combat-terrain: The terrain of that shared cell" in english
    assert "(provisional)" in english and "lecture" not in english and "provisoire" not in english, english


def test_iliad_dice_lines_played_in_french_read_in_italian_and_english(referee: Referee) -> None:
    assert referee("--lang", "fr", "new", "iliad", "--setup", str(SAMPLES / "iliad" / "setup.yaml")).code == 0
    done = referee("--lang", "fr", "do", "résoudre", "--dice", "4,2,5,5,6,3")
    assert done.code == 0, done.err
    assert "duel Menelao contre Paride, jet 1 : 4+2 (physique)" in flat(done.out), done.out
    italian = flat(referee("--lang", "it", "log").out)
    assert "duello Menelao contro Paride, lancio 1 4+2 fisico" in italian, italian
    assert "jet" not in italian and "physique" not in italian
    english = flat(referee("--lang", "en", "log").out)
    assert "duel Menelao v Paride, throw 1 4+2 physical" in english, english


@pytest.mark.parametrize(("lang", "said", "not_said"), [
    ("it", "muovi 9 Sparta -> Pella: ", "déplacer"),
    ("fr", "déplacer 9 Sparta -> Pella : ", "muovi"),
])
def test_a_refused_action_is_echoed_in_the_language(referee: Referee, lang: str, said: str, not_said: str) -> None:
    assert referee("new", "300-solo").code == 0
    refused = referee("--lang", lang, "do", "move", "9", "Sparta", "->", "Pella")
    assert refused.code == 1
    assert said.strip() in flat(refused.err) and not_said not in refused.err and "move 9" not in refused.err
