"""Usage errors said by us in the asked language (issue 31): a missing argument or option, an
unknown option or command, a flag given a value, extra words, a value of the wrong type; exit 2,
one error line and one usage line, in a real process (the three languages of a case in one, each
command through the console script's ``main()`` in turn: tests/inprocess.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.inprocess import Ran, run_batch

from .test_languages_cli import run


def run_each(lines: list[list[str]], cwd: Path) -> list[Ran]:
    """Runs command lines in one fresh process, environment as :func:`run` gives it."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("REFEREE_", "LC_", "LANG"))}
    clean.update(COLUMNS="100", HOME=str(cwd))
    return run_batch([{"args": args} for args in lines], cwd, clean)


CASES = [
    # args, English, French, Italian
    (["do"], "error: the argument ACTION is missing", "erreur : il manque l'argument ACTION",
     "errore: manca l'argomento AZIONE"),
    (["new"], "error: the argument GAME is missing", "erreur : il manque l'argument JEU",
     "errore: manca l'argomento GIOCO"),
    (["show", "--zzz"], "error: no option --zzz", "erreur : pas d'option --zzz",
     "errore: nessuna opzione --zzz"),
    (["show", "--json=1"], "error: the option --json takes no value", "erreur : l'option --json ne prend pas de valeur",
     "errore: l'opzione --json non prende valori"),
    (["show", "--as"], "error: the option --as needs a value", "erreur : l'option --as demande une valeur",
     "errore: l'opzione --as richiede un valore"),
    (["show", "a", "b"], "error: words too many: a b", "erreur : des mots de trop : a b",
     "errore: parole di troppo: a b"),
    (["persia", "operate", "--roll", "x"], "error: --dice / --roll: should be a whole number, not 'x'",
     "erreur : --dice / --roll : doit être un nombre entier, pas 'x'",
     "errore: --dice / --roll: deve essere un numero intero, non 'x'"),
    (["shw"], "error: no command 'shw' (did you mean 'show'?)",
     "erreur : pas de commande 'shw' (vouliez-vous dire 'show' ?)", "errore: nessun comando 'shw' (forse 'show'?)"),
]


@pytest.mark.parametrize(("args", "en", "fr", "it"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_usage_errors_in_three_languages(args: list[str], en: str, fr: str, it: str, tmp_path: Path) -> None:
    languages = (("en", en), ("fr", fr), ("it", it))
    results = run_each([["--lang", lang, *args] for lang, _ in languages], tmp_path)
    for (lang, expected), result in zip(languages, results, strict=True):
        assert result.code == 2, (lang, result.err)
        lines = result.err.splitlines()
        assert lines[0] == expected, (lang, lines)
        assert len(lines) == 2 and lines[1].startswith({"en": "usage: referee", "fr": "utilisation : referee",
                                                        "it": "uso: referee"}[lang]), lines
        assert result.out == ""


def test_the_usage_line_names_arguments_in_the_language(tmp_path: Path) -> None:
    result = run("--lang", "it", "do", cwd=tmp_path)
    assert result.stderr.splitlines()[1] == "uso: referee do [OPZIONI] AZIONE... (aiuto: referee do -h)"
    english = run("do", cwd=tmp_path)
    assert english.stderr.splitlines()[1] == "usage: referee do [OPTIONS] ACTION... (help: referee do -h)"


def test_extra_words_are_shown_neutralised(tmp_path: Path) -> None:
    result = run("show", "a\x1b[31mb", cwd=tmp_path)
    assert result.returncode == 2
    assert "\x1b" not in result.stderr and "a\\x1b[31mb" in result.stderr


def test_help_pages_say_usage_in_the_language(tmp_path: Path) -> None:
    french = run("--lang", "fr", "dice", "--help", cwd=tmp_path)
    assert french.stdout.startswith("Utilisation : referee dice [OPTIONS] COMMANDE [ARGUMENTS]...")
    italian = run("--lang", "it", "do", "--help", cwd=tmp_path)
    assert italian.stdout.startswith("Uso: referee do [OPZIONI]")
