"""Iliad in Italian and French: a duel end to end through the command line (``--lang it`` /
``--lang fr`` on a real game file; docs/it.md's tour runs the same in subprocesses), and the
notation's Italian and French words parsing to the same canonical actions as the English ones."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest

from referee.cli import app
from referee.cli.common import reset_consoles
from referee.errors import UnknownNameError
from referee.games.iliad import actions as act
from referee.i18n import language
from referee.rulings import Ruling
from tests.runner import CliRunner

from .helpers import ENGINE, SAMPLES, faces, play, started

CASES = {
    "it": {
        "new": ["Nuova partita di Iliad",
                "Giorno 1 di 4, ora 1 di 12", "duello in calendario Menelao contro Paride (scrivete risolvi)",
                "Muro non ancora costruito; Achille resta in disparte"],
        "odds": "Menelao attacca Paride",
        "odds_out": ["duello: Menelao (4) contro Paride (4)", "Menelao illeso, Paride ferito"],
        "refused": "il giorno 1, ora 1, si apre con il duello tra Menelao e Paride; scrivete risolvi per combatterlo",
        "refused_cites": "[duel-hour] (Il calendario)",
        "resolve": "risolvi",
        "resolved": ["duello in calendario Menelao (4) contro Paride (4)", "lancio 3 6-3 (10 v 7): Paride ferito",
                     "Menelao illeso, Paride ferito", "giorno 1, ora 1: rispondono i Troiani",
                     "(Combattimento: duello; Il calendario)", "Giorno 1 di 4, ora 1 di 12: mossa dei Troiani",
                     "Feriti: Paride"],
        "wounded": "Paride è ferito e resta fermo fino al mattino dopo [wounded] (Combattimento: duello)",
        "moved": "Asteropeo N20",
        "moved_out": ["Mossi: Asteropeo", "punti) [route]"],
        "other": "fr",
        "log_other": ["duel prévu Menelao (4) contre Paride (4)", "jet 3 6-3 (10 v 7) : Paride blessé",
                      "journée 1, heure 1 : les Troyens répondent"],
    },
    "fr": {
        "new": ["Nouvelle partie d'Iliad",
                "Journée 1 sur 4, heure 1 sur 12", "duel prévu Menelao contre Paride (tapez résoudre)",
                "Mur pas encore bâti ; Achille boude"],
        "odds": "Ménélas attaque Pâris",
        "odds_out": ["duel : Menelao (4) contre Paride (4)", "Menelao indemne, Paride blessé"],
        "refused": "la journée 1, heure 1, s'ouvre sur le duel de Menelao et Paride ; tapez résoudre pour le livrer",
        "refused_cites": "[duel-hour] (Il calendario Le calendrier)",
        "resolve": "résoudre",
        "resolved": ["duel prévu Menelao (4) contre Paride (4)", "jet 3 6-3 (10 v 7) : Paride blessé",
                     "Menelao indemne, Paride blessé", "journée 1, heure 1 : les Troyens répondent",
                     "(Combattimento: duello Combat : duel; Il calendario Le calendrier)",
                     "Journée 1 sur 4, heure 1 sur 12 : coup des Troyens", "Blessés : Paride"],
        "wounded": "Paride est blessé et ne bouge plus jusqu'au lendemain matin [wounded] "
                   "(Combattimento: duello Combat : duel)",
        "moved": "Astéropée N20",
        "moved_out": ["Déplacés : Asteropeo", "points) [route]"],
        "other": "it",
        "log_other": ["duello in calendario Menelao (4) contro Paride (4)", "lancio 3 6-3 (10 v 7): Paride ferito",
                      "giorno 1, ora 1: rispondono i Troiani"],
    },
}


class Result(NamedTuple):
    returncode: int
    output: str


def referee(game: Path, *args: str) -> Result:
    """Runs a command in-process on the game file, as typed (``--lang`` first)."""
    reset_consoles()
    result = CliRunner().invoke(app, [*args, "--file", str(game)])
    return Result(result.exit_code, result.output)


@pytest.mark.parametrize("lang", ["it", "fr"])
def test_a_duel_end_to_end_in_the_players_language(lang: str, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "1000")  # one line per message, as the assertions quote them
    case = CASES[lang]
    game = tmp_path / "troia.referee"
    out = referee(game, "--lang", lang, "new", "iliad", "--setup", str(SAMPLES / "setup.yaml"))
    assert out.returncode == 0, out.output
    for words in case["new"]:
        assert words in out.output, (words, out.output[-800:])

    out = referee(game, "--lang", lang, "odds", str(case["odds"]))
    assert out.returncode == 0, out.output
    for words in case["odds_out"]:
        assert words in out.output, (words, out.output)

    before = game.read_bytes()
    out = referee(game, "--lang", lang, "do", "Diomede H13")  # the hour's duel comes first
    assert out.returncode == 1
    assert str(case["refused"]) in out.output and str(case["refused_cites"]) in out.output, out.output
    assert game.read_bytes() == before

    out = referee(game, "--lang", lang, "do", str(case["resolve"]), "--dice", "4,2,5,5,6,3")
    assert out.returncode == 0, out.output
    for words in case["resolved"]:
        assert words in out.output, (words, out.output)

    before = game.read_bytes()
    out = referee(game, "--lang", lang, "do", "Paride N20")  # wounded: he waits for the morning
    assert out.returncode == 1 and str(case["wounded"]) in out.output, out.output
    assert game.read_bytes() == before

    out = referee(game, "--lang", lang, "do", str(case["moved"]))
    assert out.returncode == 0, out.output
    for words in case["moved_out"]:
        assert words in out.output, (words, out.output)

    # the journal is language-neutral: the same game read in the other language
    out = referee(game, "--lang", str(case["other"]), "log")
    assert out.returncode == 0, out.output
    for words in case["log_other"]:
        assert words in out.output, (words, out.output)
    assert "Asteropeo N20" in out.output  # canonical notation, whatever language typed it


# ---------------------------------------------------------------------------------------------
# The notation in three languages


def _after_duel():  # type: ignore[no-untyped-def]
    return play(started(), "resolve", dice=faces(4, 2, 5, 5, 6, 3))  # the Trojans to move


SAME_ACTIONS = [
    ("Ettore x Menelao", "Ettore attacca Menelao", "Hector attaque Ménélas"),
    ("Asteropeo N20 x Diomede, Menelao", "Asteropeo N20 attacca Diomede e Menelao",
     "Astéropée N20 attaque Diomède et Ménélas"),
    ("Pandaro shoots Menelao", "Pandaro tira Menelao", "Pandare tire Ménélas"),
    ("Pandaro N20 shoots Menelao", "Pandaro N20 scocca Menelao", "Pandare N20 tire Ménélas"),
    ("resolve", "risolvi", "résoudre"),
    ("done", "fine", "fin"),
    ("night greek: Patroclo; trojan: none", "notte greci: Patroclo; troiani: nessuno",
     "nuit grecs: Patrocle; troyens: aucun"),
    ("night camp: Achille E14", "notte campo: Achille E14", "nuit camp: Achille E14"),
]

SAME_OVERRIDES = [
    ("Ettore dead", "Ettore morto", "Hector mort"),
    ("Ettore wounded", "Ettore ferito", "Hector blessé"),
    ("Ettore healed", "Ettore guarito", "Hector soigné"),
    ("wall built", "muro costruito", "mur construit"),
    ("wall down", "muro abbattuto", "mur détruit"),
    ("achilles sulks", "Achille sdegnato", "Achille boude"),
    ("achilles in-play", "Achille in gioco", "Achille en jeu"),
    ("clock 2 5 trojan", "orologio 2 5 troiani", "horloge 2 5 troyens"),
    ("Ettore F7", "Ettore F7", "Hector F7"),
]


@pytest.mark.parametrize("texts", SAME_ACTIONS, ids=lambda t: t[0])
def test_italian_and_french_actions_parse_like_english(texts: tuple[str, str, str]) -> None:
    state = _after_duel()
    english, italian, french = (ENGINE.parse(state, t) for t in texts)
    assert english == italian == french
    assert italian.text() == english.text()  # the journal keeps one (English) notation


@pytest.mark.parametrize("texts", SAME_OVERRIDES, ids=lambda t: t[0])
def test_italian_and_french_overrides_parse_like_english(texts: tuple[str, str, str]) -> None:
    state = _after_duel()
    english, italian, french = (ENGINE.parse_adjust(state, t) for t in texts)
    assert english == italian == french and english.is_adjust()


def test_odds_accept_the_attack_word_of_any_language() -> None:
    state = started()
    english = ENGINE.odds(state, "Menelao x Paride")
    assert ENGINE.odds(state, "Menelao attacca Paride").outcomes == english.outcomes
    assert ENGINE.odds(state, "Ménélas attaque Pâris").outcomes == english.outcomes


def test_every_keyword_has_french_and_italian_words() -> None:
    assert ENGINE.grammar is act.GRAMMAR
    for keyword in act.GRAMMAR.words:
        assert keyword.fr and keyword.it, keyword.key
    with language("it"):
        assert act.GRAMMAR.say("Menelao F7 x Paride") == "Menelao F7 attacca Paride"
        assert act.GRAMMAR.say("Ettore dead") == "Ettore morto"
        examples = [example for example, _summary in ENGINE.help_actions()]
        assert "risolvi" in examples and "Teucro tira Ettore" in examples
    with language("fr"):
        assert act.GRAMMAR.say("Teucro shoots Ettore") == "Teucro tire Ettore"


def test_a_mistyped_word_suggests_the_notation_in_the_players_language() -> None:
    state = _after_duel()
    with language("it"), pytest.raises(UnknownNameError) as info:
        ENGINE.parse(state, "risolv")
    assert "risolvi" in info.value.suggestions
    with language("fr"), pytest.raises(UnknownNameError) as info:
        ENGINE.parse(state, "résoud")
    assert "résoudre" in info.value.suggestions


def test_a_ruling_made_in_italian_is_said_again_in_french_and_english() -> None:
    state = _after_duel()
    with language("it"):
        verdict = ENGINE.judge(state, ENGINE.parse(state, "Paride N20"))
    ruling: Ruling = verdict.violations[0]
    assert ruling.message == "Paride è ferito e resta fermo fino al mattino dopo"
    with language("fr"):
        assert ruling.text() == "Paride est blessé et ne bouge plus jusqu'au lendemain matin"
    assert ruling.text() == "Paride is wounded and stays put until the next morning"


def test_status_and_board_legend_follow_the_language() -> None:
    state = _after_duel()
    with language("it"):
        view = ENGINE.board_view(state)
        assert view.title == "Iliad — giorno 1, ora 1"
        assert view.terrain["river"].label == "fiume" and view.terrain["ship"].label == "nave"
        assert "Feriti: Paride" in view.status
    with language("fr"):
        assert ENGINE.status(state)[0] == "Journée 1 sur 4, heure 1 sur 12 : coup des Troyens"


def test_every_section_has_its_italian_and_french_heading_italian_first() -> None:
    from referee.games.iliad.rules import DUEL, RULES

    for key, section in RULES.index.sections.items():
        assert list(section.printed) == ["it", "fr"], key
        assert section.printed["it"] == key  # sections are keyed by the Italian heading
    with language("it"):
        assert DUEL.label() == "Combattimento: duello"  # shown once, not twice
        assert RULES.summary(DUEL).startswith("Gli eroi di valore maggiore di 1")
    with language("fr"):
        assert DUEL.label() == "Combattimento: duello Combat : duel"
        assert RULES.summary(DUEL).startswith("Les héros de valeur supérieure à 1")
    assert DUEL.label() == "Combattimento: duello Duel"
