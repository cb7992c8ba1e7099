"""The game photos of ``bench/bench_priors.py``: each is one whole turn of the side drawn, replayed
the same from its seed, a cache that no longer replays is refused untouched, and the figures the
report adds (truth against the after state, truth left out by the priors, the targets) count
what they say. Rendering and reading are left to the bench itself (seconds per photo)."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from referee.games.cyrus_pyxis.capture import cell_contents
from referee.games.cyrus_pyxis.tables import Phase
from tests.scripts import load

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    return load("bench/bench_priors.py", "bench_priors")


BENCH = _bench()
SEED = 17  # far below the bench's ranges (1200000 and up)


def test_a_game_photo_is_the_whole_turn_of_the_side_drawn() -> None:
    game = BENCH.play(SEED)
    assert game.before.active.value == game.side
    assert game.before.phase is not Phase.OVER
    assert game.after.phase is Phase.OVER or game.after.active.value != game.side
    again = BENCH.play(SEED)
    assert (again.played, again.side) == (game.played, game.side)
    assert BENCH.position(again.before) == BENCH.position(game.before)
    assert cell_contents(again.after) == cell_contents(game.after)


def test_the_turn_drawn_varies_with_the_seed() -> None:
    drawn = {(g.played, g.side) for g in (BENCH.play(SEED + k) for k in range(6))}
    assert len(drawn) > 1
    assert {side for _, side in drawn} == {"greek", "persian"}


def test_a_cache_that_no_longer_replays_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    BENCH.games_of(SEED, 2, tmp_path, "render")
    index = tmp_path / f"games-render-{SEED}-2.json"
    rows = json.loads(index.read_text(encoding="utf-8"))
    assert [r["seed"] for r in rows] == [SEED, SEED + 1]
    BENCH.games_of(SEED, 2, tmp_path, "render")  # replays as kept: accepted
    rows[1]["played"] += 1
    index.write_text(json.dumps(rows), encoding="utf-8")
    kept = index.read_bytes()
    with pytest.raises(SystemExit, match="no longer replay"):
        BENCH.games_of(SEED, 2, tmp_path, "render")
    assert index.read_bytes() == kept


def test_truth_checks_count_cells_off_the_after_state_and_outside_the_priors() -> None:
    game = BENCH.play(SEED)
    after, before = cell_contents(game.after), cell_contents(game.before)
    truth = {n: {"occupant": o, "terrain": t} for n, (o, t) in after.items()}
    photo = (Path("render_0.jpg"), truth, [], 0)
    stays = {n: {before[n]: 1.0} for n in before}  # a prior that forbids every change
    changed_cells = {n for n in after if before[n] != after[n]}
    changed = len(changed_cells)
    assert changed > 0
    got = BENCH.truth_checks([photo], [game], {"render_0": stays})
    assert got == {"truth_differs_from_after_state": 0, "truth_outside_prior": changed,
                   "prior_guess_right": len(after) - changed, "cells": len(after)}
    first = next(iter(truth))
    wrong = dict(truth, **{first: {"occupant": "persian", "terrain": "swamp"}})
    assert BENCH.truth_checks([(photo[0], wrong, [], 0)], [game], {"render_0": stays}) == {
        "truth_differs_from_after_state": 1, "truth_outside_prior": changed + (first not in changed_cells),
        "prior_guess_right": len(after) - changed - (first not in changed_cells), "cells": len(after)}


@pytest.mark.parametrize(("asked", "wrong", "ece", "met"), [
    (2, 0, 0.02, {"no_cell_confidently_wrong": True, "asked_at_most_0.2%": True, "ece_at_most_2%": True}),
    (3, 1, 0.0201, {"no_cell_confidently_wrong": False, "asked_at_most_0.2%": False, "ece_at_most_2%": False}),
])
def test_targets_are_issue_34s_limits(asked: int, wrong: int, ece: float, met: dict[str, bool]) -> None:
    row = {"cells_visible": 1000, "cells_asked": asked, "cells_confidently_wrong": wrong, "ece": ece}
    assert BENCH.targets(row) == {"asked_share": asked / 1000, "met": met}


def test_a_wrong_cell_is_reported_with_its_truth() -> None:
    truth = {"D4": {"occupant": "greek", "terrain": "forest"}}
    row = {"wrong_cells": ["tabletop_3 D4: greek/plain at 0.961"]}
    got = BENCH.with_truth(row, [(Path("/x/tabletop_3.jpg"), truth, [], 3)])
    assert got == ["tabletop_3 D4: greek/plain at 0.961, truth greek/forest"]


def test_changes_count_each_cell_whose_fate_the_priors_changed() -> None:
    truth = {"A1": {"occupant": None, "terrain": "plain"}, "B2": {"occupant": "greek", "terrain": "forest"},
             "C3": {"occupant": "persian", "terrain": "hill"}, "D4": {"occupant": None, "terrain": "hill"}}
    photos = [(Path("tabletop_0.jpg"), truth, [], 0)]
    refused = {"tabletop_1": "BoardNotFoundError"}
    alone = {"tabletop_0 A1": "None/plain/0.81", "tabletop_0 B2": "greek/plain/0.96",
             "tabletop_0 C3": "persian/hill/0.99", "tabletop_0 D4": "None/hill/0.95", **refused}
    ruled = {"tabletop_0 A1": "None/plain/0.97", "tabletop_0 B2": "greek/plain/0.20",
             "tabletop_0 C3": "None/hill/0.93", "tabletop_0 D4": "None/hill/0.99", **refused}
    assert BENCH.changes(alone, ruled, photos, 0.9) == {"asked -> right": 1, "right -> wrong": 1, "wrong -> asked": 1}
    row = {"wrong_cells": ["tabletop_0 C3: None/hill at 0.930"]}
    assert BENCH.with_truth(row, photos, alone) == [
        "tabletop_0 C3: None/hill at 0.930, truth persian/hill, photo alone persian/hill/0.99"]


def test_fates_are_grouped_by_the_prior_and_the_photo_alone() -> None:
    truth = {"A1": {"occupant": "greek", "terrain": "plain"}, "B2": {"occupant": None, "terrain": "forest"},
             "C3": {"occupant": None, "terrain": "plain"}}
    photos = [(Path("tabletop_0.jpg"), truth, [], 0)]
    priors = {"tabletop_0": {"A1": {(None, "plain"): 0.9, ("greek", "plain"): 0.1}, "B2": {(None, "forest"): 1.0},
                             "C3": {(None, "plain"): 0.9, ("persian", "plain"): 0.1}}}
    alone = {"tabletop_0 A1": "None/plain/0.3000", "tabletop_0 B2": "None/plain/0.9500",
             "tabletop_0 C3": "None/plain/0.3000"}
    ruled = {"tabletop_0 A1": "None/plain/0.9660", "tabletop_0 B2": "None/forest/0.9900",
             "tabletop_0 C3": "None/plain/0.8000"}
    assert BENCH.by_prior(alone, ruled, photos, priors, 0.9) == {
        "prior certain, photo alone sure": {"cells": 1, "asked": 0, "right": 1, "wrong": 0},
        "prior spread, photo alone asked": {"cells": 2, "asked": 1, "right": 0, "wrong": 1},
    }


def test_even_weights_keep_what_the_rules_allow_and_nothing_else() -> None:
    prior = {"A1": {(None, "plain"): 0.9, ("greek", "plain"): 0.05, ("persian", "plain"): 0.05},
             "B2": {(None, "forest"): 1.0}}
    assert BENCH.even(prior) == {"A1": {(None, "plain"): 1 / 3, ("greek", "plain"): 1 / 3, ("persian", "plain"): 1 / 3},
                                 "B2": {(None, "forest"): 1.0}}
