"""No English left in French or Italian (issue 31): for each game, a new game, an accepted and a
refused action, a resolved combat, ``why``, ``odds``, ``log``, ``status`` and a usage error (and
for Cyrus & Pyxis the demo) are run in a real process (one per walk, each command through the
console script's ``main()`` in turn: tests/inprocess.py), and their output, once bracketed codes,
files, commands, names and numbers are taken out, holds none of the common English words of
``tests/data/english_words.txt``."""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
import yaml

from referee.i18n import language
from referee.tables import data_root
from tests.inprocess import Ran, run_batch

SAMPLES = data_root("samples")
TABLES = data_root("tables")
WORDS = Path(__file__).resolve().parents[1] / "data" / "english_words.txt"


@dataclass(frozen=True)
class Step:
    """One command line: ``args`` (``{a:...}``: canonical notation said in the language; ``{samples}``
    the samples folder), what it feeds the process, and the exit code expected."""

    args: tuple[str, ...]
    stdin: str | None = None
    code: int = 0


def step(*args: str, stdin: str | None = None, code: int = 0) -> Step:
    return Step(args, stdin, code)


SCENARIOS: dict[str, tuple[str, tuple[Step, ...]]] = {
    "cyrus-pyxis": ("cyrus_pyxis", (
        step("new", "cyrus-pyxis", "--setup", "{samples}/cyrus-pyxis/setup.yaml"),
        step("do", "{a:Pergame L7}"),
        step("do", "{a:Centaure B6}", code=1),
        step("play", stdin="{a:Telestas L4}\n{a:done}\n{a:Tyr L8}\n{a:done}\n{a:Pergame L8}\n{a:Telestas L6}\n"
                           "{a:done}\n{a:support Telestas Pergame}\n"),
        step("do", "{a:resolve}"),
        step("why"), step("log"), step("status"), step("odds", "{a:Pergame L9}", code=1),
        step("do", code=2), step("show", "--bogus", code=2), step("demo"),
    )),
    "iliad": ("iliad", (
        step("new", "iliad", "--setup", "{samples}/iliad/setup.yaml"),
        step("odds", "{a:Menelao x Paride}"),
        step("do", "{a:Diomede H13}", code=1),
        step("do", "{a:resolve}", "--dice", "4,2,5,5,6,3"),
        step("play", stdin="{a:Paride N20}\n{a:Asteropeo N20}\n{a:resolve}\n{a:Aiace d'Oileo J19}\n{a:Macaone I19}\n"
                           "{a:resolve}\n"),
        step("do", "{a:Teucro shoots Pandaro}", code=1),
        step("odds", "{a:Asteropeo x Macaone}"),
        step("do", "{a:Asteropeo I20}"),
        step("do", "{a:resolve}", "--dice", "3,5"),
        step("why"), step("log"), step("status"), step("legal", "Asteropeo"),
        step("do", code=2), step("odds", "--bogus", code=2),
    )),
    "300-solo": ("earth_water", (
        step("new", "300-solo"),
        step("persia", "prepare"),
        step("play", stdin="{a:buy 2 cards}\n{a:buy 2 armies Athenai}\n{a:buy 1 army Sparta}\n"
                           "{a:buy 1 fleet Athenai}\n{a:done}\n"),
        step("persia", "operate", "--roll", "2"),
        step("do", "{a:move 2 Athenai -> Thebai}"),
        step("persia", "operate", "--roll", "3"),
        step("do", "{a:move 2 Thebai -> Larissa}"),
        step("odds", "Larissa", code=1),
        step("do", "{a:fight}", "--dice", "6,5,4,2,1"),
        step("do", "{a:move 9 Sparta -> Pella}", code=1),
        step("why"), step("log"), step("status"),
        step("do", code=2), step("persia", "operate", "--roll", "x", code=2),
    )),
    "zargo": ("zargo", (
        step("new", "zargo", "--players", "4", "--setup", "{samples}/zargo/setup.yaml"),
        step("do", "{a:start}"),
        step("legal", "0506"),
        step("do", "{a:0506 0507}"),
        step("do", "{a:FCh 0609 0409}", code=1),
        step("do", "{a:resolve}"),
        step("play", stdin="{a:resolve}\n{a:2417 3613}\n{a:resolve}\n"),
        step("odds", "zargo", "{a:attack}", "0906", code=1),
        step("odds", "--position", "{samples}/zargo/umpire.yaml", "zargo", "{a:attack}", "0906", "0907"),
        step("why"), step("log"), step("status"), step("show"),
        step("do", code=2), step("odds", "--bogus", code=2),
    )),
}


@cache
def english() -> frozenset[str]:
    lines = WORDS.read_text(encoding="utf-8").splitlines()
    return frozenset(w.strip().lower() for w in lines if w.strip() and not w.startswith("#"))


@cache
def names(slug: str) -> frozenset[str]:
    """Returns the words of a game's proper names (units, places, peoples, counter labels) and
    codes (interpretation ids and options), which the check leaves out."""
    found: set[str] = set()

    def take(value: object) -> None:
        if isinstance(value, str):
            found.update(w.lower() for w in WORD.findall(value))

    folder = TABLES / slug
    rules = yaml.safe_load((folder / "rules.yaml").read_text(encoding="utf-8"))
    for item in rules.get("interpretations") or ():
        take(item["id"])
        for option in item.get("options") or ():
            if CODE.fullmatch(option):
                take(option)
    for path in folder.glob("*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for node in _walk(data):
            if isinstance(node, dict):
                for key in ("name", "short", "it", "fr", "label_fr", "label_it", "aliases"):
                    value = node.get(key)
                    for item in value if isinstance(value, list) else [value]:
                        take(item)
    return frozenset(found)


def _walk(node: object) -> Iterator[object]:
    yield node
    if isinstance(node, dict):
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


WORD = re.compile(r"[^\W\d_]+")
CODE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")
STRIP = (
    re.compile(r"[\w./-]+\.(?:csv|yaml|referee|png|svg|json)\b"),  # a file: combat_values.csv, game.referee
    re.compile(r"\b" + CODE.pattern + r"\b"),  # a code: a result (defender-retreats), an option id
    re.compile(r"\[[^\]\n]*\]"),  # [too-far], [duel]: ruling codes
    re.compile(r"\breferee(?:\s+(?:--?[\w-]+|[a-z][\w-]*))*"),  # a command to type: referee why, referee show --png
    re.compile(r"--?[a-z][\w-]*"),  # an option
    re.compile(r"\b[A-Z][A-Z0-9]+\b"),  # FILE, GAME, CHV, FCh's upper-case cousins: metavariables and labels
    re.compile(r"\b(?:interpretation|lecture|lettura)\s+" + CODE.pattern),  # a reading named by its id
    re.compile(r"\(id [0-9a-f]+\)|\b(?=[0-9a-f]*\d)[0-9a-f]{8,}\b"),  # a game id, a hash: 0d956be58585 holds "be"
)


def english_in(text: str, slug: str) -> list[str]:
    """Returns each line of ``text`` holding English words, with the words found."""
    found: list[str] = []
    words, skip = english(), names(slug)
    rest_text = text
    for pattern in STRIP:  # over the whole text: a command may wrap onto the next line
        rest_text = pattern.sub(lambda m: "\n" * m.group(0).count("\n") or " ", rest_text)
    for line, rest in zip(text.splitlines(), rest_text.splitlines(), strict=True):
        hits = [w for w in WORD.findall(rest) if w.lower() in words and w.lower() not in skip]
        if hits:
            found.append(f"{hits}: {line.strip()}")
    return found


def _say(package: str, lang: str, text: str) -> str:
    grammar = importlib.import_module(f"referee.games.{package}.actions").GRAMMAR
    with language(lang):
        return " ".join(grammar.say(t) for t in text.split(" "))


def _fill(package: str, lang: str, text: str) -> str:
    text = text.replace("{samples}", str(SAMPLES))
    return re.sub(r"\{a:([^}]*)\}", lambda m: _say(package, lang, m.group(1)), text)


def run_walk(steps: list[dict[str, object]], cwd: Path) -> list[Ran]:
    """Runs a walk's command lines in one fresh process, without the machine's language settings."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("REFEREE_", "LC_", "LANG"))}
    clean.update(COLUMNS="100", HOME=str(cwd))
    return run_batch(steps, cwd, clean)


@pytest.mark.parametrize("lang", ["fr", "it"])
@pytest.mark.parametrize("slug", list(SCENARIOS))
def test_a_game_holds_no_english(slug: str, lang: str, tmp_path: Path) -> None:
    package, steps = SCENARIOS[slug]
    lines = [{"args": ["--lang", lang, *(_fill(package, lang, a) for a in s.args)],
              "stdin": _fill(package, lang, s.stdin) if s.stdin is not None else None} for s in steps]
    problems: list[str] = []
    for s, line, done in zip(steps, lines, run_walk(lines, tmp_path), strict=True):
        args, out = line["args"], done.out + done.err
        assert done.code == s.code, (args, out[-2000:])
        problems += [f"referee {' '.join(args[2:])}: {p}" for p in english_in(out, slug)]
    assert problems == [], "\n".join(problems)


def test_the_word_list_is_long_and_catches_english() -> None:
    assert len(english()) >= 150
    assert english_in("✗ Centaure B6: Centaure needs 4 squares [too-far] (V Les mouvements)", "cyrus-pyxis")
    assert english_in("Usage: referee do [OPTIONS] ACTION...", "cyrus-pyxis") == []  # click's Usage is no word
    assert english_in("Error: Missing argument 'action'.", "cyrus-pyxis")
    clean = "✗ Centaure B6 : il faut 4 cases à Centaure [too-far] (V Les mouvements) ; voir 'referee why'"
    assert english_in(clean, "cyrus-pyxis") == []
    assert english_in("mois 1 sur 25 : les Chevaliers jouent ; 0506 0507 ; lecture engaged-archer", "zargo") == []


def test_a_game_id_is_no_english_though_its_hex_spells_a_word() -> None:
    assert english_in("Nouvelle partie de Iliad dans game.referee (id 8695be41d07c)", "iliad") == []
    assert english_in("Nouvelle partie de Iliad dans game.referee, to be 8695be41", "iliad")  # words still count
