"""Stored English lines said again in the reader's language (referee.phrases, issue 31)."""

from __future__ import annotations

from referee.games import find_game
from referee.i18n import language
from referee.phrases import MAX_LENGTH, say


def test_a_stand_in_line_made_in_english_reads_in_french_and_italian() -> None:
    find_game("cyrus-pyxis")  # registers the game's forms, as opening a game file does
    line = "combat_values.csv: cavalry on plain = 4 (provisional)"
    with language("fr"):
        assert say(line) == "combat_values.csv : cavalerie en plaine = 4 (provisoire)"
    with language("it"):
        assert say(line) == "combat_values.csv: cavalleria in pianura = 4 (provvisorio)"
    with language("en"):
        assert say(line) == line


def test_a_reading_says_its_label_from_the_rules_catalog() -> None:
    line = "interpretation combat-terrain: The terrain of that shared cell (the defender's cell)."
    with language("it"):
        assert say(line) == "lettura combat-terrain: Il terreno della casella condivisa (quella del difensore)."


def test_a_plural_form_and_a_dice_purpose() -> None:
    find_game("cyrus-pyxis")
    find_game("iliad")
    with language("fr"):
        assert say("terrain.yaml: every terrain costs 2 squares to enter (provisional)") == (
            "terrain.yaml : entrer sur tout terrain coûte 2 cases (provisoire)")
        assert say("duel Menelao v Paride, throw 3") == "duel Menelao contre Paride, jet 3"


def test_an_unknown_line_keeps_its_words_and_a_huge_one_is_left_alone() -> None:
    with language("it"):
        assert say("roster.yaml: Diomede 5 (reconstruction), Aiace 4 (reconstruction)") == (
            "roster.yaml: Diomede 5 (ricostruzione), Aiace 4 (ricostruzione)")
        huge = "x (provisional) " * (MAX_LENGTH // 10)
        assert say(huge) == huge
