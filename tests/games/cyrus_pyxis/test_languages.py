"""Cyrus & Pyxis in French and Italian (issue 11): the notation in three languages, rulings and
their citations, status lines, a game started in French and read in Italian, the tour end to end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import app
from referee.cli.common import reset_consoles
from referee.errors import NotationError, UnknownNameError
from referee.games.cyrus_pyxis import actions as act
from referee.games.cyrus_pyxis.tables import Phase, Side, Terrain
from referee.i18n import language
from referee.tables import data_root, load_table_set
from tests.runner import CliRunner

from .helpers import ENGINE, judge, play, position

SETUP = data_root("samples") / "cyrus-pyxis" / "setup.yaml"
NBSP = " "  # plain spaces before French : ; ? ! (docs/decisions/translated-rulings.md)


def flat(text: str) -> str:
    """Returns text with its lines joined and spaces made plain (tables and rulings wrap)."""
    return " ".join(text.replace(NBSP, " ").split())


# ---- the notation in three languages --------------------------------------------------------


def setup_state():  # type: ignore[no-untyped-def]
    return ENGINE.new_state(load_table_set("cyrus-pyxis"))


@pytest.mark.parametrize(("typed", "canonical"), [
    ("forest C5", "forest C5"), ("forêt C5", "forest C5"), ("Foret c5", "forest C5"), ("foresta C5", "forest C5"),
    ("bosco C5", "forest C5"), ("colline F6", "hill F6"), ("collina F6", "hill F6"),
    ("déployer Pyxis A6", "Pyxis A6"), ("schiera Pyxis A6", "Pyxis A6"), ("Pyxis A6", "Pyxis A6"),
])
def test_setup_words_in_every_language_parse_to_one_canonical_action(typed: str, canonical: str) -> None:
    assert ENGINE.parse(setup_state(), typed).text() == canonical


PLAY = {"greek": {"Pyxis": "A6", "Messène": "B5", "Athéna": "B6"}, "persian": {"Cyrus": "L6", "Darius": "B7"}}


@pytest.mark.parametrize(("typed", "canonical"), [
    ("fin", "done"), ("Fine", "done"), ("terminé", "done"), ("fatto", "done"), ("end", "done"),
    ("résoudre", "resolve"), ("resoudre", "resolve"), ("risolvi", "resolve"),
    ("soutien Messène Athéna", "support Messène Athéna"), ("supporto Messene Athena", "support Messène Athéna"),
    ("déplacer Athéna C6", "Athéna C6"), ("muovi Athéna C6", "Athéna C6"), ("Athéna vers C6", "Athéna C6"),
    ("Pyxis sort", "Pyxis off"), ("Pyxis esce", "Pyxis off"), ("Pyxis exit", "Pyxis off"),
])
def test_play_words_in_every_language(typed: str, canonical: str) -> None:
    state = position(**PLAY)
    assert ENGINE.parse(state, typed).text() == canonical


@pytest.mark.parametrize(("typed", "canonical"), [
    ("terrain C5 forêt", "terrain C5 forest"), ("terreno C5 pianura", "terrain C5 plain"),
    ("terrain C5 plaine", "terrain C5 plain"), ("terrain C5 colline", "terrain C5 hill"),
    ("actif perse", "active persian"), ("attivo persiano", "active persian"), ("actif grec", "active greek"),
    ("attivo greco", "active greek"), ("Athéna retirer", "Athéna off"), ("Athéna rimuovi", "Athéna off"),
])
def test_adjust_words_in_every_language(typed: str, canonical: str) -> None:
    action = ENGINE.parse_adjust(position(**PLAY), typed)
    assert action.text() == canonical
    assert ENGINE.parse_adjust(position(**PLAY), canonical) == action  # the journal's text replays


def test_no_legion_name_is_a_keyword_in_any_language() -> None:
    # "Tyr L8" must stay a move whatever the language: a name shadowed by a keyword could not be played
    tables = setup_state().tables
    assert [lg.name for lg in tables.legions if act.GRAMMAR.keyword(lg.name) is not None] == []
    assert [lg.short for lg in tables.legions if act.GRAMMAR.keyword(lg.short) is not None] == []


def test_the_engine_declares_its_grammar_and_says_actions_in_the_reader_language() -> None:
    assert ENGINE.grammar is act.GRAMMAR
    with language("fr"):
        assert act.GRAMMAR.say("support Messène Athéna") == "soutien Messène Athéna"
        assert act.GRAMMAR.say("Pyxis off") == "Pyxis sort" and act.GRAMMAR.say("done") == "fin"
        assert ("forêt C5", "poser un pion forêt (mise en place)") in ENGINE.help_actions()
    with language("it"):
        assert act.GRAMMAR.say("forest C5") == "foresta C5" and act.GRAMMAR.say("resolve") == "risolvi"
        assert act.GRAMMAR.say("terrain C5 plain") == "terreno C5 pianura"
    assert act.GRAMMAR.say("hill F6") == "hill F6"


def test_parse_errors_speak_the_language_and_suggest_its_words() -> None:
    with language("fr"), pytest.raises(UnknownNameError) as unknown:
        ENGINE.parse(setup_state(), "forêtt C5")
    assert "forêt" in unknown.value.suggestions and "légion ou action" in str(unknown.value)
    with language("it"), pytest.raises(UnknownNameError) as typo:
        ENGINE.parse(position(**PLAY), "fien")
    assert "fine" in typo.value.suggestions
    with language("fr"), pytest.raises(UnknownNameError) as typo:
        ENGINE.parse(position(**PLAY), "soutein Messène Athéna")
    assert "soutien" in typo.value.suggestions
    with language("it"), pytest.raises(NotationError) as wrong:
        ENGINE.parse(position(**PLAY), "supporto Messène")
    assert "scrivete 'supporto ARCHER LEGION'" in str(wrong.value)
    with language("fr"), pytest.raises(UnknownNameError) as side:
        ENGINE.parse_adjust(position(**PLAY), "actif troyen")
    assert "grec" in side.value.suggestions and "perse" in side.value.suggestions


# ---- rulings, citations and status lines ---------------------------------------------------


def test_a_refused_move_in_each_language_with_its_printed_citation_title() -> None:
    state = position(**PLAY)
    said = {}
    for lang in ("en", "fr", "it"):
        with language(lang):
            verdict = judge(state, "Athéna B10")  # 4 squares; the guard moves 3
            ruling = verdict.violations[0]
            said[lang] = (ruling.message, [c.label() for c in ruling.cites])
    assert said["en"] == ("Athéna needs 4 squares from B6 to reach B10; the royal guard allowance is 3 squares",
                          ["V Movement"])
    assert said["fr"][0] == f"Athéna a besoin de 4 cases depuis B6 pour atteindre B10{NBSP}; le type garde royale va " \
                            "à 3 cases au plus"
    assert said["fr"][1] == ["V Les mouvements"]  # the heading the (French) rulebook prints
    assert said["it"][0].startswith("ad Athéna servono 4 caselle da B6") and "guardia reale" in said["it"][0]
    assert said["it"][1] == ["V Les mouvements"]  # no Italian heading is printed: the book's own


def test_a_ruling_made_in_french_is_said_again_in_italian() -> None:
    with language("fr"):
        ruling = judge(position(**PLAY), "Cyrus L5").violations[0]
    assert "appartient au camp perse" in ruling.message and "tour du camp grec" in ruling.message
    with language("it"):
        assert ruling.text() == "Cyrus appartiene al campo persiano; è il turno del campo greco"
    assert ruling.text() == "Cyrus is Persian; it is the Greek turn"


def test_plural_forms_of_the_rulings() -> None:
    state = position(**PLAY)
    with language("fr"):
        one = judge(state, "Pyxis A7").notes[0].message
        two = judge(state, "Pyxis A8").notes[0].message
    assert "(1 case sur 5)" in one and "(2 cases sur 5)" in two
    with language("it"):
        assert "(1 casella su 5)" in judge(state, "Pyxis A7").notes[0].message


def test_status_lines_and_board_legend_in_each_language() -> None:
    state = setup_state()
    with language("fr"):
        status = [flat(line) for line in ENGINE.status(state)]
        assert status == ["Mise en place : le camp grec pose ses forêts (0 sur 14 posées)"]
        view = ENGINE.board_view(state)
        assert view.terrain["forest"].label == "forêt" and view.marks["combat"].label == "combat en attente"
    with language("it"):
        assert ENGINE.status(play(position(**PLAY, phase="move"), "Athéna C6"))[0] == \
            "Turno 1: tocca al campo greco (movimento)"
    assert ENGINE.status(state) == ["Set-up: the Greek lays forests (0 of 14 placed)"]


def test_the_journal_stays_language_neutral() -> None:
    # the victory a French game stores hashes like an English one, so the journal replays in any language
    state = position(greek={"Pyxis": "A12", "Messène": "B5"}, persian={"Cyrus": "L6"})
    states = {}
    for lang in ("fr", "it", "en"):
        with language(lang):
            states[lang] = play(state, "Pyxis sort" if lang == "fr" else "Pyxis off")
    assert states["fr"].phase is Phase.OVER and states["fr"].winner is Side.GREEK
    assert len({ENGINE.state_hash(s) for s in states.values()}) == 1
    assert states["fr"].win_reason == "Pyxis left the board by the East edge: the Greek wins"
    with language("it"):
        assert ENGINE.status(states["fr"]) == ["Partita finita: Pyxis è uscito dal bordo Est: vince il campo greco"]
    assert Terrain.FOREST.value == "forest"


# ---- the command line: a game in French, read in Italian -----------------------------------


def process(cwd: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    """Runs ``python -m referee`` (a real process on a real game file), locale variables cleared."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REFEREE_", "LC_", "LANG"))}
    env.update(COLUMNS="200", HOME=str(cwd))
    result = subprocess.run([sys.executable, "-m", "referee", *args], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == code, (args, result.stdout[-800:], result.stderr[-800:])
    return result


def run(cwd: Path, *args: str, code: int = 0) -> str:
    """Returns what a real ``referee`` process printed (stdout and stderr), lines joined."""
    result = process(cwd, *args, code=code)
    return flat(result.stdout + "\n" + result.stderr)


def test_foret_places_a_forest_in_set_up_and_the_game_continues_in_italian(tmp_path: Path) -> None:
    run(tmp_path, "--lang", "fr", "new", "cyrus-pyxis")
    said = run(tmp_path, "--lang", "fr", "do", "forêt C5")
    assert "Mise en place : le camp grec pose ses forêts (1 sur 14 posées)" in said
    entries = json.loads(process(tmp_path, "log", "--json").stdout)
    assert [e["text"] for e in entries] == ["forest C5"]  # the journal keeps the canonical notation
    refused = run(tmp_path, "--lang", "it", "do", "foresta A1", code=1)
    assert "A1 è sulla linea 1; le linee 1, 2, 11 e 12 non ricevono terreno" in refused
    assert "(II.1 Installation du jeu)" in refused
    run(tmp_path, "--lang", "it", "do", "foresta C6")
    log = run(tmp_path, "--lang", "it", "log")
    assert "foresta C5" in log and "foresta C6" in log and "forest C5" not in log and "forêt" not in log
    assert "foresta A1" not in log  # a refused action leaves the journal alone


# ---- the tour, end to end, in French and in Italian ----------------------------------------


TOURS = {
    "fr": [
        (("do", "déplacer Pergame L7"), 0, ["Pergame : L2 → L3 → L4 → L5 → L6 → L7 (5 cases sur 5)",
                                            "(V Les mouvements)"]),
        (("do", "Centaure B6"), 1, ["Centaure a besoin de 4 cases depuis B2 pour atteindre B6 ; le type éléphant va "
                                    "à 3 cases au plus", "(V Les mouvements)"]),
        (("do", "Telestas vers L4"), 0, ["Telestas : L1 → L2 → L3 → L4 (3 cases sur 3)"]),
        (("do", "fin"), 0, ["le camp grec n'a lancé aucune attaque", "tour 1 : le camp perse se déplace",
                            "(III.1 Description d'un tour)"]),
        (("do", "Tyr L8"), 0, ["Tour 1 : au camp perse de jouer (mouvement)"]),
        (("do", "terminé"), 0, ["tour 2 : le camp grec se déplace"]),
        (("do", "Pergame L8"), 0, ["Pergame attaque Tyr en L8 ; le combat sera résolu après le mouvement",
                                   "Combats : Pergame contre Tyr en L8"]),
        (("do", "Telestas L6"), 0, []),
        (("do", "fin"), 0, ["mouvement terminé avec 1 combat ; on déclare les soutiens des archers, le camp grec "
                            "d'abord",
                            "Le camp grec déclare maintenant les soutiens de ses archers (ou tape fin)"]),
        (("do", "résoudre"), 1, ["Telestas pourrait encore soutenir Pergame : le camp grec déclare d'abord "
                                 "ses soutiens ou tape fin", "(III.2 Description d'un tour; VI.1 Combat)"]),
        (("do", "soutien Telestas Pergame"), 0, ["aucun archer du camp perse ne peut soutenir un combat maintenant",
                                                 "Soutiens : Telestas → Pergame"]),
        (("do", "résoudre"), 0, ["1. L8 (plaine) : Pergame 4 +1 Telestas = 5 contre Tyr 4, différence +1",
                                 "Tyr recule L8 → L9", "IV.2-2 Effet du soutien", "tour 2 : le camp perse se déplace"]),
        (("log",), 0, ["soutien Telestas Pergame", "résoudre", "fin", "Pergame attaque Tyr en L8"]),
    ],
    "it": [
        (("do", "muovi Pergame L7"), 0, ["Pergame: L2 → L3 → L4 → L5 → L6 → L7 (5 caselle su 5)",
                                         "(V Les mouvements)"]),
        (("do", "Centaure B6"), 1, ["a Centaure servono 4 caselle da B2 per raggiungere B6; il tipo elefante si "
                                    "muove al massimo di 3 caselle", "(V Les mouvements)"]),
        (("do", "Telestas verso L4"), 0, ["Telestas: L1 → L2 → L3 → L4 (3 caselle su 3)"]),
        (("do", "fine"), 0, ["il campo greco non ha attaccato", "turno 1: muove il campo persiano"]),
        (("do", "Tyr L8"), 0, ["Turno 1: tocca al campo persiano (movimento)"]),
        (("do", "fatto"), 0, ["turno 2: muove il campo greco"]),
        (("do", "Pergame L8"), 0, ["Pergame attacca Tyr in L8; il combattimento si risolve dopo il movimento",
                                   "Combattimenti: Pergame contro Tyr in L8"]),
        (("do", "Telestas L6"), 0, []),
        (("do", "fine"), 0, ["movimento finito con 1 combattimento; si dichiarano i supporti degli arcieri, prima "
                             "il campo greco"]),
        (("do", "risolvi"), 1, ["Telestas potrebbe ancora sostenere Pergame: prima il campo greco dichiara i "
                                "supporti o scrive fine", "(III.2 Description d'un tour; VI.1 Combat)"]),
        (("do", "supporto Telestas Pergame"), 0, ["nessun arciere del campo persiano può sostenere un "
                                                  "combattimento ora",
                                                  "Supporti: Telestas → Pergame"]),
        (("do", "risolvi"), 0, ["1. L8 (pianura): Pergame 4 +1 Telestas = 5 contro Tyr 4, differenza +1",
                                "Tyr si ritira L8 → L9", "turno 2: muove il campo persiano"]),
        (("log",), 0, ["supporto Telestas Pergame", "risolvi", "fine", "Pergame attacca Tyr in L8"]),
    ],
}


@pytest.mark.parametrize("lang", sorted(TOURS))
def test_the_tour_in_french_and_in_italian(lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REFEREE_FILE", raising=False)
    monkeypatch.delenv("REFEREE_TABLES", raising=False)
    monkeypatch.setenv("COLUMNS", "200")
    runner = CliRunner()

    def referee(*args: str, lang: str = lang) -> tuple[int, str]:
        reset_consoles()
        result = runner.invoke(app, ["--lang", lang, *args], catch_exceptions=False)
        reset_consoles()
        return result.exit_code, flat(result.stdout + "\n" + result.stderr)

    code, _ = referee("new", "cyrus-pyxis", "--setup", str(SETUP))
    assert code == 0
    for args, expected_code, words in TOURS[lang]:
        before = (tmp_path / "game.referee").read_bytes()
        code, out = referee(*args)
        assert code == expected_code, (args, out[-600:])
        if expected_code:
            assert (tmp_path / "game.referee").read_bytes() == before  # a refusal changes nothing
        for word in words:
            assert flat(word) in out, (args, word, out[-900:])
        english = ("squares", "made no attack", "the combat is resolved", "Tyr retreats", "could still support")
        assert not [w for w in english if w in out], (args, [w for w in english if w in out])
    # the same game read in the other language: actions and what they triggered, said again
    other = "it" if lang == "fr" else "fr"
    code, log = referee("log", lang=other)
    assert code == 0
    for word in LOGS[other]:
        assert word in log, (word, log[-900:])


LOGS = {
    "it": ["il campo greco ha posato 14 foreste; ora il campo persiano posa 14 foreste", "supporto Telestas Pergame",
           "risolvi", "Pergame attacca Tyr in L8", "Tyr si ritira L8 → L9", "il campo persiano non ha attaccato"],
    "fr": ["le camp grec a posé 14 forêts ; le camp perse pose ensuite 14 forêts", "soutien Telestas Pergame",
           "résoudre", "Pergame attaque Tyr en L8", "Tyr recule L8 → L9", "le camp perse n'a lancé aucune attaque"],
}
