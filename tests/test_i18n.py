"""The players' language: choosing it, compiled catalogs, plurals, and complete catalogs."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import referee.i18n
from referee.errors import UnknownNameError
from referee.i18n import _, current, language, ngettext
from referee.languages import choose, parse_language
from referee.tables import load_table_set
from tests.scripts import load

ROOT = Path(__file__).resolve().parents[1]


def test_choice_order_flag_env_locale_english() -> None:
    env = {"REFEREE_LANG": "it", "LC_ALL": "fr_FR.UTF-8", "LANG": "en_GB.UTF-8"}
    assert choose("fr", env) == "fr"
    assert choose(None, env) == "it"
    assert choose(None, {"LC_ALL": "fr_FR.UTF-8", "LANG": "it_IT"}) == "fr"
    assert choose(None, {"LC_MESSAGES": "it_CH.UTF-8"}) == "it"
    assert choose(None, {"LANG": "de_DE.UTF-8"}) == "en"  # a language we do not speak: English
    assert choose(None, {"LC_ALL": "C", "LANG": "fr_FR"}) == "en"  # the first set variable decides
    assert choose(None, {}) == "en"


def test_unknown_language_suggests() -> None:
    assert parse_language("Français") == "fr" and parse_language("it_IT.UTF-8") == "it"
    with pytest.raises(UnknownNameError) as info:
        parse_language("frenc")
    assert "fr" in info.value.suggestions


def test_messages_follow_the_active_language() -> None:
    message = "the sea is crossed only over a cloud bridge"
    assert _(message) == message
    with language("fr"):
        assert current() == "fr"
        assert _(message).startswith("la mer ne se traverse")
        with language("it"):
            assert _(message).startswith("il mare si attraversa")
        assert current() == "fr"
    assert current() == "en"


def test_plural_forms_per_language() -> None:
    one = "{what} cannot reach {hex} with {n} movement point (woods cost 2)"
    many = "{what} cannot reach {hex} with {n} movement points (woods cost 2)"
    with language("fr"):
        assert "0 point de mouvement" in ngettext(one, many, 0).format(what="x", hex="x", n=0)  # French: 0 is singular
        assert "2 points de mouvement" in ngettext(one, many, 2).format(what="x", hex="x", n=2)
    with language("it"):
        assert "0 punti" in ngettext(one, many, 0).format(what="x", hex="x", n=0)  # Italian: 0 is plural
        assert "1 punto" in ngettext(one, many, 1).format(what="x", hex="x", n=1)


def test_a_ruling_reason_in_each_language() -> None:
    from referee.games import find_game

    engine = find_game("zargo")
    state = engine.from_position(load_table_set("zargo"), {
        "game": "zargo", "players": 4, "peoples": ["chevaliers", "dragons", "ailes", "moines"],
        "active": "chevaliers", "board": {"0506": ["CHV"]},
        "cities": {"0505": {"owner": "chevaliers", "founder": "chevaliers"}}}, "test")
    reasons = {}
    for lang in ("en", "fr", "it"):
        with language(lang):
            verdict = engine.judge(state, engine.parse(state, "0506 0501"))  # 0501 is sea
            reasons[lang] = verdict.violations[0].message
    assert "cloud bridge" in reasons["en"]
    assert "pont de nuages" in reasons["fr"]
    assert "ponte di nuvole" in reasons["it"]


def _tool() -> ModuleType:
    return load("tools/i18n.py", "i18n_tool")


AREAS = ("referee", "cyrus_pyxis", "iliad", "earth_water", "zargo", "serve")


@cache
def _templates() -> dict[str, Any]:
    """Every area's messages, extracted from the code once (each area's test reads its own)."""
    templates: dict[str, Any] = _tool().templates()
    return templates


@pytest.mark.parametrize("area", AREAS)
def test_catalogs_are_complete_not_fuzzy_and_placeholders_match(area: str) -> None:
    tool = _tool()
    templates = _templates()
    assert set(templates) <= set(AREAS), "a new catalog area: add it to AREAS"
    assert len(templates[area]) >= 1
    assert tool.problems({area: templates[area]}) == []


def test_extraction_warns_about_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """Babel skips a message it cannot extract (an f-string with substitutions among a marked
    call's arguments) with a warning on stderr: extraction is silent when every message is kept."""
    _tool().templates()
    assert "warning" not in capsys.readouterr().err


def test_one_message_has_one_translation_across_areas() -> None:
    assert _tool().disagreements() == []


def test_every_language_merges_all_area_catalogs() -> None:
    # a zargo message and a core message both translate through the one merged catalog
    referee.i18n.translations.cache_clear()
    with language("fr"):
        assert _("the sea is crossed only over a cloud bridge").startswith("la mer ne se traverse")


def test_rulings_say_again_in_another_language() -> None:
    from referee.rulings import Ruling

    empty = "the city on {hex} has no garrison: it falls with no roll"
    with language("fr"):
        made = Ruling.event("empty-city", empty, hex="C5")
    assert made.message.startswith("la ville en C5 n'a pas de garnison")
    with language("it"):
        assert made.text().startswith("la città su C5 non ha guarnigione")
    assert made.text() == "the city on C5 has no garrison: it falls with no roll"
    # a ruling without a template serializes exactly as before (journal chains stay valid)
    plain = Ruling.event("x", "plain words")
    assert set(plain.model_dump()) == {"code", "message", "cites"}


def test_module_examples() -> None:
    assert doctest.testmod(referee.i18n).failed == 0


COUNTED = [  # (English singular, plural, what French and Italian say for 1 and for 2)
    ("{n} ship square; the Trojans need at least 5 to win", "{n} ship squares; the Trojans need at least 5 to win",
     ("1 case de navires", "2 cases de navires"), ("1 casella di navi", "2 caselle di navi")),
    ("the {people} have built their {n} city", "the {people} have built their {n} cities",
     ("1 ville,", "2 villes,"), ("1 città", "2 città")),
    ("'{card}' moves {n} army, not {count}", "'{card}' moves {n} armies, not {count}",
     ("1 armée,", "2 armées,"), ("1 armata,", "2 armate,")),
    ("({n} more character)", "({n} more characters)",
     ("(1 caractère", "(2 caractères"), ("(1 carattere", "(2 caratteri")),
]


@pytest.mark.parametrize(("one", "many", "fr", "it"), COUNTED)
def test_counted_words_agree_with_their_number(one: str, many: str, fr: tuple[str, str], it: tuple[str, str]) -> None:
    """A count next to a counted noun goes through ngettext in every area (iliad, zargo, 300 solo,
    the core): one reads in the singular, two in the plural, in French and in Italian."""
    args = {"people": "x", "card": "x", "count": 3}
    for lang, (single, plural) in (("fr", fr), ("it", it)):
        with language(lang):
            assert single in ngettext(one, many, 1).format(n=1, **args)
            assert plural in ngettext(one, many, 2).format(n=2, **args)



@pytest.mark.parametrize("game", ["iliad", "zargo", "earth_water"])
@pytest.mark.parametrize("lang", ["fr", "it"])
def test_templates_stored_by_earlier_versions_still_read_in_every_language(game: str, lang: str) -> None:
    earlier = importlib.import_module(f"referee.games.{game}.earlier_messages").EARLIER
    assert earlier
    with language(lang):
        for template in earlier:
            assert _(template) != template, (lang, template)
