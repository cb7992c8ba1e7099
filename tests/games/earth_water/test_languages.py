"""300 solo in French and Italian: notation, PERS.IA announcements, refusals and citations (issue 11).

The words asserted are the ones this game's catalogs (``earth_water.po``) produce; the core and
CLI words belong to another catalog and are not asserted here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.cli import app
from referee.cli.common import reset_consoles
from referee.games.earth_water import actions as act
from referee.games.earth_water.engine import EarthWaterEngine
from referee.games.earth_water.state import units
from referee.games.earth_water.tables import Side
from referee.i18n import language
from tests.runner import CliRunner


@pytest.fixture
def runner() -> CliRunner:
    reset_consoles()
    return CliRunner()


def _play(runner: CliRunner, game: str, lang: str, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["--lang", lang, *args, "--file", game])
    return result.exit_code, result.stdout + result.stderr


# the same opening typed in each language; the die of the operation is typed (2: a march)
OPENINGS = {
    "fr": (["acheter 2 cartes"], ["acheter 2 armées Athenai"], ["acheter 2 armées Sparta"], ["fini"]),
    "it": (["compra 2 carte"], ["compra 2 armate Athenai"], ["compra 2 armate Sparta"], ["fatto"]),
}
WORDS = {  # (preparation, operation title, die step, move step, solo citation, refusal, its citation title)
    "fr": ("Piocher", "Opération de PERS.IA", "Lancer le dé : 2", "Déplacer", "Le perse lance un dé",
           "se joue en phase « préparation de PERS.IA »", "Phase de préparation du joueur perse"),
    "it": ("Pescare", "Operazione di PERS.IA", "Tirare il dado: 2", "Muovere", "Le perse lance un dé",
           "si gioca nella fase «preparazione di PERS.IA»", "Phase de préparation du joueur perse"),
}


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_a_persia_operation_end_to_end_in_the_players_language(tmp_path: Path, runner: CliRunner,
                                                                lang: str) -> None:
    game = str(tmp_path / "solo.referee")
    prepare_word, title, die, move, cited, refusal, refused_title = WORDS[lang]
    assert _play(runner, game, lang, "new", "300-solo")[0] == 0
    code, out = _play(runner, game, lang, "persia", "prepare")
    assert code == 0 and prepare_word in out, out
    for typed in OPENINGS[lang]:
        code, out = _play(runner, game, lang, "do", *typed)
        assert code == 0, (typed, out)
    code, out = _play(runner, game, lang, "persia", "operate", "--dice", "2")
    assert code == 0, out
    assert title in out and die in out and move in out and cited in out, out
    assert "Roll the die" not in out and "Move " not in out  # nothing of the announcement stayed English
    # a refused action: PERS.IA's preparation typed during operations, cited by its printed heading
    before = Path(game).read_bytes()
    persia_prepare = "perse prépare" if lang == "fr" else "persia prepara"
    code, out = _play(runner, game, lang, "do", persia_prepare)
    assert code == 1, out
    assert refusal in out and refused_title in out, out
    assert Path(game).read_bytes() == before
    # the journal stays English; its log reads in the other language
    other = "it" if lang == "fr" else "fr"
    code, out = _play(runner, game, other, "log")
    assert code == 0 and WORDS[other][3] in out, out


def test_notation_in_three_languages_is_one_action(engine: EarthWaterEngine, position) -> None:
    state = position(phase="operations", active="greece", hands={"greece": 2, "persia": 1},
                     cities={"Thebai": {"greek_armies": 3}})
    english = act.parse_action(state, "move 2 Thebai Larissa")
    for typed in ("déplacer 2 Thebai Larissa", "muovi 2 Thebai Larissa", "move 2 armies Thebai to Larissa",
                  "déplacer 2 armées Thèbes vers Larissa", "sposta 2 armate Thebai a Larissa",
                  "move 2 Thebai -> Larissa"):
        assert act.parse_action(state, typed) == english, typed
    assert english.text() == "move 2 Thebai -> Larissa"  # the journal's canonical notation is English
    assert act.parse_action(state, "acheter 2 cartes") == act.Buy(what="cards", count=2)
    assert act.parse_action(state, "compra 1 flotta Athenai") == act.Buy(what="fleet", count=1, city="Athenai")
    assert act.parse_action(state, "naviguer 2 Athenai Eretria transporte 1") == act.NavalMove(
        fleets=2, start="Athenai", goal="Eretria", armies=1)
    assert act.parse_action(state, "brûler le pont") == act.BurnBridge()
    assert act.parse_action(state, "perse opère") == act.Persia(procedure="operate")
    assert act.parse_adjust(state, "ajoute Ephesos perse armées -1") == act.SetUnits(
        city="Ephesos", side=Side.PERSIA, unit="armies", count=-1, relative=True)
    assert act.parse_adjust(state, "pont détruit") == act.SetValue(field="bridge", value=0)
    assert engine.grammar is act.GRAMMAR
    with language("fr"):
        with pytest.raises(Exception, match="vouliez-vous dire") as info:
            act.parse_action(state, "deplaser 2 Thebai Larissa")
        assert "déplacer" in str(info.value)


def test_plurals_and_rulings_in_french_and_italian(engine: EarthWaterEngine, position) -> None:
    with language("fr"):
        assert units(1, "army") == "1 armée" and units(2, "army") == "2 armées"
        assert units(0, "Persian fleet") == "0 flotte perse"  # French: 0 is singular
    with language("it"):
        assert units(1, "army") == "1 armata" and units(2, "Greek army") == "2 armate greche"
    state = position(phase="operations", active="greece", hands={"greece": 2, "persia": 1},
                     cities={"Thebai": {"greek_armies": 1}})
    action = act.parse_action(state, "move 3 Thebai Larissa")
    with language("fr"):
        verdict = engine.judge(state, action)
    ruling = verdict.violations[0]
    assert ruling.code == "not-enough-armies"
    assert ruling.message == "Thebai compte 1 armée grecque, pas 3"
    assert ruling.text() == "Thebai holds 1 Greek army, not 3"  # said again in English from its template
    with language("it"):
        assert ruling.text() == "Thebai ha 1 armata greca, non 3"  # a French ruling read in Italian
        assert ruling.cites[0].label() == "base 6.4 Mouvement terrestre"  # titles in the rulebook's language


def test_the_state_never_depends_on_the_language(engine: EarthWaterEngine, position) -> None:
    # a finished game keeps its reason in English, so its state hash is the same in any language
    ended = {}
    for lang in ("en", "fr", "it"):
        with language(lang):
            state = position(phase="over", winner="persia",
                             cities={"Athenai": {"persian_armies": 2}, "Sparta": {"persian_armies": 1}})
            ended[lang] = (engine.state_hash(state), engine.status(state)[-1])
    assert ended["en"][0] == ended["fr"][0] == ended["it"][0]
    # (another catalog may hold the same "Game over" entry with French typography: spaces folded)
    assert " ".join(ended["fr"][1].replace("\u00a0", " ").split()) == "Partie terminée : la Perse a gagné"
    assert ended["it"][1] == "Partita finita: la Persia ha vinto"
