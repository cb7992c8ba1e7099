"""Learning from the table: examples kept from settled photos re-fit the table's colours, and a
photo of the same table held back from them reads better (issue 34)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from referee.games.cyrus_pyxis.capture import cell_contents
from vision.errors import LowConfidenceError
from vision.examples import keep, load_examples, refit
from vision.pipeline import Observation, observe, read
from vision.render import render, sample_conditions

from .helpers import board, play, scene_of, setup_state

# a box printed in other shades than the board tables say, under its owner's light
TABLE = dataclasses.replace(
    board(),
    side_colours={"greek": (150, 62, 140), "persian": (28, 112, 168)},
    terrain_colours={"plain": (214, 206, 170), "forest": (58, 104, 58), "hill": (160, 116, 78)},
)


def _photo(tmp: Path, state: object, seed: int) -> tuple[Path, dict[str, dict[str, str | None]]]:
    cond = dataclasses.replace(sample_conditions(np.random.default_rng(seed), "moderate", 1280, 960), hands=0)
    shot = render(TABLE, scene_of(state), cond, seed)  # type: ignore[arg-type]
    return shot.save(tmp / f"photo{seed}"), shot.cells


def _bad(obs: Observation | None, truth: dict[str, dict[str, str | None]]) -> int:
    """Cells not read right with confidence (all of them when the photo was refused)."""
    if obs is None:
        return len(truth)
    return sum(1 for n, c in obs.cells.items()
               if n in obs.unreadable or (c.occupant, c.terrain) != (truth[n]["occupant"], truth[n]["terrain"]))


def _read(path: Path, **kwargs: object) -> Observation | None:
    try:
        return observe(path, board(), **kwargs)  # type: ignore[arg-type]
    except LowConfidenceError:
        return None


def test_refit_on_settled_photos_improves_a_held_back_photo_of_the_same_table(tmp_path: Path) -> None:
    folder = tmp_path / "examples"
    positions = [setup_state(), play(setup_state(), "Pyxis F4", "Samos G5", "done")]
    for seed, state in zip((43, 44), positions, strict=True):
        path, _truth = _photo(tmp_path, state, seed)
        keep(folder, read(path, board(), strict=False), board(), cell_contents(state), path.name)  # type: ignore[arg-type]
    held_back = play(setup_state(), "Pyxis F4", "Samos G5", "Praxitèle A6", "done", "Cyrus G9", "done")
    path, truth = _photo(tmp_path, held_back, 42)
    before = _bad(_read(path), truth)
    learned = refit(load_examples(folder, board()), board(), None)
    after = _bad(_read(path, calibration=learned), truth)
    assert before >= 10  # the tables' colours do not fit this box
    assert after < before / 5
    assert set(learned.measured) == {"side:greek", "side:persian", "plain", "forest", "hill"}
