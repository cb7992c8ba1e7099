"""The core and the command line in French and Italian (issue 11): help, errors, verdicts, logs,
the shell's ``lang`` command, the choice of language; JSON codes stay the same in every language."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import walk
from referee.i18n import language
from tests.conftest import SampleGame

from .conftest import Referee

POSITION = (
    '{"game": "cyrus-pyxis", "greek": {"Pyxis": "A6", "Athéna": "B6", "Messène": "B5"},'
    ' "persian": {"Cyrus": "L6", "Amatonte": "B6"}, "supports": {"Messène": "Athéna"}}'
)
NBSP = " "  # plain spaces before French : ; ? ! (docs/decisions/translated-rulings.md)


def run(*args: str, cwd: Path, stdin: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    """Runs ``python -m referee`` in a subprocess with a clean environment plus ``env``."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("REFEREE_", "LC_", "LANG"))}
    clean.update(COLUMNS="100", HOME=str(cwd), **env)
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=cwd, input=stdin, capture_output=True,
                          text=True, env=clean, timeout=120)


def flat(text: str) -> str:
    """Returns text with its lines joined and spaces made plain (help pages and tables wrap)."""
    return " ".join(text.replace(NBSP, " ").split())


# ---- help of every command and option ----------------------------------------------------------


def test_root_help_in_french(tmp_path: Path) -> None:
    result = run("--lang", "fr", "--help", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    text = flat(result.stdout)
    assert "Un arbitre de table pour les wargames" in text
    assert "Affiche ce message et quitte." in text and "Commandes" in text
    assert "Joue l'action suivante" in text  # a subcommand's short help
    assert "Show this message" not in text and "Play the next action" not in text


def test_command_help_in_italian_and_lang_after_the_command(tmp_path: Path) -> None:
    italian = run("--lang", "it", "do", "--help", cwd=tmp_path)
    assert italian.returncode == 0, italian.stderr
    text = flat(italian.stdout)
    assert "Gioca l'azione successiva" in text and "Opzioni" in text and "obbligatorio" in text
    assert "Mostra il tabellone dopo l'azione." in text
    after = run("do", "--help", "--lang", "fr", cwd=tmp_path)
    assert after.returncode == 0, after.stderr
    assert "Joue l'action suivante" in flat(after.stdout)
    english = run("do", "--help", cwd=tmp_path)
    assert "Play the next action; a rejected action changes nothing and says why" in flat(english.stdout)


def test_every_help_text_has_a_french_and_an_italian_translation() -> None:
    import typer

    from referee.cli import app, command, helps

    english = [text for _path, cmd in walk(typer.main.get_command(app)) for _a, text, _o in helps(cmd)]
    assert len(english) > 100
    for lang in ("fr", "it"):
        with language(lang):
            translated = [text for _path, cmd in walk(command()) for _a, text, _o in helps(cmd)]
        assert len(translated) == len(english)
        same = [e for e, t in zip(english, translated, strict=True) if e == t]
        assert same == [], f"{lang}: untranslated help {same[:3]}"
    assert typer.main.get_command(app).help == english[0]  # the app itself stays English


# ---- choosing the language ---------------------------------------------------------------------


def test_a_wrong_lang_is_a_usage_error_with_suggestions(tmp_path: Path) -> None:
    for args, close in ((["--lang", "fx", "status"], "'fr'"), (["--lang", "xx", "--help"], "'fr'"),
                        (["status", "--lang", "itl"], "did you mean 'it'?")):
        result = run(*args, cwd=tmp_path)
        assert result.returncode == 2, (args, result.stdout)
        assert "did you mean" in result.stderr and close in result.stderr, result.stderr
    assert not (tmp_path / "game.referee").exists()


def test_referee_lang_is_honoured_and_checked(tmp_path: Path) -> None:
    italian = run("status", cwd=tmp_path, REFEREE_LANG="it")
    assert italian.returncode == 1
    assert italian.stderr.startswith("errore: ") and "nessun file di partita qui" in italian.stderr
    french = run("status", cwd=tmp_path, LANG="fr_FR.UTF-8")  # the locale, when REFEREE_LANG is unset
    assert "aucun fichier de partie ici" in french.stderr
    flag_wins = run("--lang", "en", "status", cwd=tmp_path, REFEREE_LANG="it")
    assert "no game file here" in flag_wins.stderr
    wrong = run("status", cwd=tmp_path, REFEREE_LANG="klingon")
    assert wrong.returncode == 2 and "REFEREE_LANG" in wrong.stderr


# ---- what the commands say ---------------------------------------------------------------------


@pytest.fixture
def position(tmp_path: Path) -> Path:
    path = tmp_path / "pos.json"
    path.write_text(POSITION, encoding="utf-8")
    return path


@pytest.mark.parametrize(("lang", "legal", "illegal", "relies"), [
    ("en", "✓ legal: Pyxis C6", "✗ illegal: Pyxis L12", "⚠ reading umpire-phase; 1 stand-in, see --explain"),
    ("fr", f"✓ légal{NBSP}: Pyxis C6", f"✗ illégal{NBSP}: Pyxis L12",
     "⚠ lecture umpire-phase; 1 valeur provisoire, voir --explain"),
    ("it", "✓ legale: Pyxis C6", "✗ illegale: Pyxis L12",
     "⚠ lettura umpire-phase; 1 valore provvisorio, vedi --explain"),
])
def test_verdict_headers(referee: Referee, position: Path, lang: str, legal: str, illegal: str, relies: str) -> None:
    ok = referee("--lang", lang, "judge", "cyrus-pyxis", "--position", str(position), "Pyxis C6")
    assert ok.code == 0 and ok.out.startswith(legal), ok.out
    assert relies in ok.out
    bad = referee("--lang", lang, "judge", "cyrus-pyxis", "--position", str(position), "Pyxis L12")
    assert bad.code == 0 and bad.out.startswith(illegal) and "[too-far]" in bad.out


def test_json_says_its_language_and_keeps_its_codes(referee: Referee, position: Path) -> None:
    outputs = {}
    for lang in ("en", "fr", "it"):
        result = referee("--lang", lang, "judge", "cyrus-pyxis", "--position", str(position), "Pyxis L12", "--json")
        assert result.code == 0
        outputs[lang] = json.loads(result.out)
        assert outputs[lang]["lang"] == lang
    codes = {lang: [v["code"] for v in data["violations"]] for lang, data in outputs.items()}
    assert codes["fr"] == codes["it"] == codes["en"] == ["too-far"]
    assert [c["section"] for c in outputs["fr"]["violations"][0]["cites"]] == ["V"]


@pytest.mark.parametrize(("lang", "error", "words"), [
    ("en", "error: ", "unknown legion 'Athna'; did you mean 'Athéna'?"),
    ("fr", f"erreur{NBSP}: ", f"légion introuvable{NBSP}: 'Athna'{NBSP}; vouliez-vous dire 'Athéna'{NBSP}?"),
    ("it", "errore: ", "legione inesistente: 'Athna'; forse intendevate 'Athéna'?"),
])
def test_unknown_name_with_did_you_mean(referee: Referee, position: Path, lang: str, error: str, words: str) -> None:
    result = referee("--lang", lang, "judge", "cyrus-pyxis", "--position", str(position), "Athna C6")
    assert result.code == 1 and result.out == ""
    assert result.err.startswith(error) and words in result.err, result.err


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "missing.yaml: no such position file"),
    ("fr", "missing.yaml: introuvable (fichier de position)"),
    ("it", "missing.yaml: non trovato (file di posizione)"),
])
def test_unknown_file(referee: Referee, lang: str, words: str) -> None:
    result = referee("--lang", lang, "judge", "cyrus-pyxis", "--position", "missing.yaml", "Pyxis C6")
    assert result.code == 1 and words in result.err.replace(NBSP, " "), result.err


@pytest.mark.parametrize(("lang", "headings", "undone", "nothing"), [
    ("en", ("side", "entry", "details"), "(undone)", "nothing to redo"),
    ("fr", ("camp", "entrée", "détails"), "(annulé)", "rien à rejouer"),
    ("it", ("schieramento", "voce", "dettagli"), "(annullato)", "niente da ripetere"),
])
def test_log_headings_undo_and_refusals(referee: Referee, game: Path, lang: str, headings: tuple[str, str, str],
                                        undone: str, nothing: str) -> None:
    undo = referee("--lang", lang, "undo")
    assert undo.code == 0
    log = referee("--lang", lang, "log")
    assert log.code == 0
    first = log.out.splitlines()[0]
    assert all(h in first for h in headings), first
    assert undone in log.out
    assert referee("--lang", lang, "redo").code == 0
    again = referee("--lang", lang, "redo")
    assert again.code == 1 and nothing in again.err


def test_a_game_played_in_french_keeps_a_neutral_journal(referee: Referee, game: Path) -> None:
    assert referee("--lang", "fr", "undo").code == 0
    assert referee("--lang", "fr", "redo").code == 0
    texts = [e["text"] for e in json.loads(referee("--lang", "it", "log", "--json").out)]
    assert texts[-2].startswith("undo ") and texts[-1] == "redo " + texts[-2].removeprefix("undo ")
    italian = referee("--lang", "it", "log")
    assert "schieramento" in italian.out.splitlines()[0] and "(annullato)" not in italian.out


def test_plural_forms_in_a_sentence(referee: Referee, game: Path) -> None:
    assert referee("export", "out.json").code == 0
    fr = referee("--lang", "fr", "import", "out.json", "--file", "copy.referee")
    assert fr.code == 0 and "entrées de journal" in flat(fr.out), fr.out
    with language("fr"):
        assert "1 jet numérique vérifié" in _render_dice(1)
        assert "2 jets numériques vérifiés" in _render_dice(2)
    with language("it"):
        assert "1 lancio digitale verificato" in _render_dice(1)
        assert "0 lanci digitali verificati" in _render_dice(0)


def _render_dice(ok: int) -> str:
    from rich.console import Console

    from referee import render
    from referee.dice_verify import DiceReport, RollCheck

    checks = tuple(RollCheck(seq=1, index=i + 1, epoch=0, purpose="combat", status="ok", recorded=(3,), derived=(3,))
                   for i in range(ok))
    console = Console(width=200, record=True)
    console.print(render.dice_report(DiceReport(game_id="g", epochs=(), checks=checks, bad_commitments=(),
                                                physical=0)))
    return console.export_text()


# ---- the shell ---------------------------------------------------------------------------------


def test_shell_help_and_lang_command(tmp_path: Path, sample_game: SampleGame) -> None:
    sample_game(tmp_path)
    script = "lang fr\nhelp\nundo\nlang it\nredo\nredo\nlang xx\nlang\nlog --help\nquit\n"
    result = run("play", cwd=tmp_path, stdin=script)
    assert result.returncode == 0, result.stderr
    out = result.stdout.replace(NBSP, " ")
    assert "lang fr|it|en" in out  # the banner says how to switch
    assert "language: fr" in out or "langue : fr" in out
    assert "Verbes" in out and "tapées seules" in out  # help, in French
    assert "↶ annulé :" in out  # undo, in French
    assert "↷ ripetuto:" in out  # redo, in Italian after 'lang it'
    assert "niente da ripetere" in result.stderr  # a refusal in Italian
    assert "lingua: it" in out  # 'lang' alone says the current language
    assert "did you mean" not in out and "forse intendevate" in out  # 'lang xx', said in Italian
    assert "Mostra il registro" in flat(out)  # a command's help page inside the shell, in Italian
    started = run("--lang", "it", "play", cwd=tmp_path, stdin="help\nquit\n")
    assert "Verbi" in started.stdout and "Digitate" in started.stdout


def test_shell_verbs_and_prompt_in_the_players_language(tmp_path: Path, sample_game: SampleGame) -> None:
    sample_game(tmp_path)
    french = run("--lang", "fr", "play", cwd=tmp_path, stdin="aide\nPergame L7\nannuler\njournal --last 1\nquitter\n")
    assert french.returncode == 0, french.stderr
    out = french.stdout.replace(NBSP, " ")
    assert "Tapez aide pour les verbes" in flat(out) and "quitter pour sortir" in flat(out)
    assert "grec> " in out and "greek>" not in out  # the side to play, in French
    assert "voir, état, journal, annuler" in flat(out)  # the verbs listed as typed
    assert "↶ annulé :" in out  # 'annuler' is undo
    assert out.count("grec> ") == 5  # 'quitter' left after the fifth line
    italian = run("--lang", "it", "play", cwd=tmp_path, stdin="mostra\nperché\nesci\nstato\n")
    assert italian.returncode == 0, italian.stderr
    assert "greco> " in italian.stdout and italian.stdout.count("greco> ") == 3  # 'esci' left before 'stato'


def test_shell_takes_an_apostrophe_in_a_name(tmp_path: Path, sample_game: SampleGame) -> None:
    sample_game(tmp_path, "iliad")
    script = "resolve --dice 4,2,5,5,6,3\nAsteropeo N20\nresolve\nAiace d'Oileo J19\nquit\n"
    result = run("--lang", "it", "play", cwd=tmp_path, stdin=script)
    assert result.returncode == 0, result.stderr
    assert "✓ Aiace d'Oileo J19" in result.stdout and "No closing quotation" not in result.stdout + result.stderr
