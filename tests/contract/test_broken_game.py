"""Each contract check catches the fault it is meant for, on a deliberately broken made-up game
(``tests/broken_game``), and passes the same game built without that fault."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.games import register_engine
from tests.broken_game import GAME
from tests.broken_game.engine import FAULTS, SLUG, BrokenEngine, push_tables
from tests.contract import checks, goldens
from tests.contract.walks import walk

SEEDS = range(4)


def _walks(engine: BrokenEngine) -> list[checks.Step]:
    return [step for seed in SEEDS for step in walk(engine, seed, 30)]


def test_the_faults_are_the_ones_the_checks_catch() -> None:
    assert set(FAULTS) == {"misread", "stuck", "over-early", "unseeded", "leak", "deaf"}


def test_package_shape_catches_a_package_without_the_kit() -> None:
    folder = Path(__file__).parents[1] / "broken_game"
    with pytest.raises(AssertionError, match="lacks the kit's modules"):
        checks.check_package_shape(GAME, folder, "tests.broken_game")


def test_round_trip_catches_an_action_that_reads_back_as_another() -> None:
    assert checks.check_parse_round_trip(BrokenEngine(), _walks(BrokenEngine())) > 10
    with pytest.raises(AssertionError, match="parses back to"):
        checks.check_parse_round_trip(BrokenEngine(("misread",)), _walks(BrokenEngine(("misread",))))


@pytest.mark.parametrize(("fault", "says"), [("stuck", "it is stuck"), ("over-early", "the game is over yet")])
def test_game_over_iff_no_legal_action_is_checked_both_ways(fault: str, says: str) -> None:
    assert checks.check_over_iff_no_legal(BrokenEngine(), _walks(BrokenEngine())) > 10
    broken = BrokenEngine((fault,))
    with pytest.raises(AssertionError, match=says):
        checks.check_over_iff_no_legal(broken, _walks(broken))


@pytest.mark.parametrize("make", [goldens.seeded_playthrough, goldens.perft])
def test_goldens_catch_a_game_left_to_chance(make: object, tmp_path: Path) -> None:
    assert callable(make)
    name = f"{SLUG}.json"
    (tmp_path / name).write_text(make(BrokenEngine()), encoding="utf-8")
    checks.check_golden(tmp_path, name, lambda: make(BrokenEngine()))
    broken = BrokenEngine(("unseeded",))
    (tmp_path / name).unlink()
    with pytest.raises(AssertionError, match="no golden"):
        checks.check_golden(tmp_path, name, lambda: make(broken))
    (tmp_path / name).write_text(make(broken), encoding="utf-8")
    with pytest.raises(AssertionError, match="changed"):
        checks.check_golden(tmp_path, name, lambda: make(broken))


def test_secrets_check_catches_a_secret_said_aloud(tmp_path: Path) -> None:
    for faults, name in (((), "sound"), (("leak",), "leaky")):
        engine = BrokenEngine(faults)
        register_engine(SLUG, engine)  # the game file finds its game by slug
        with checks.bot_game(engine, tmp_path / f"{name}.referee", 1, 12, push_tables()) as gf:
            if not faults:
                assert checks.check_no_secret_leaks(gf) == 2
                continue
            with pytest.raises(AssertionError, match="is shown north's number"):
                checks.check_no_secret_leaks(gf)


def test_capture_check_catches_rules_the_command_line_cannot_call() -> None:
    assert checks.check_capture_rules(BrokenEngine(), _walks(BrokenEngine())) > 10
    broken = BrokenEngine(("deaf",))
    with pytest.raises(AssertionError, match=r"infer_turn.* cannot be called as the protocol calls it"):
        checks.check_capture_rules(broken, _walks(broken))


def test_capture_check_names_the_functions_a_capture_module_lacks() -> None:
    class Unreadable(BrokenEngine):
        capture_rules = "tests.broken_game.engine"  # a module, but no capture rules in it

    with pytest.raises(AssertionError, match="lacks the capture rules' legion_labels, infer_turn"):
        checks.check_capture_rules(Unreadable(), [])
