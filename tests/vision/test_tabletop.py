"""The second renderer (vision.tabletop): reproducible, truthful, and what it promises to draw."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from vision.tabletop import hands, render, sample_conditions

from .helpers import board, scene_of, setup_state


def _shot(seed: int, **changes: object):  # type: ignore[no-untyped-def]
    cond = dataclasses.replace(sample_conditions(np.random.default_rng(seed), 800, 600), **changes)
    return render(board(), scene_of(setup_state()), cond, seed)


def test_the_same_seed_gives_the_same_photo() -> None:
    a, b = _shot(3), _shot(3)
    assert np.array_equal(a.image, b.image)
    assert not np.array_equal(a.image, _shot(4).image)


def test_the_truth_describes_every_cell(tmp_path: Path) -> None:
    shot = _shot(5, hand=None, hand_cell=None)
    assert len(shot.cells) == 144 and shot.occluded == []
    path = shot.save(tmp_path / "photo")
    assert path.suffix == ".jpg" and path.with_suffix(".json").exists()
    state = setup_state()
    greek = sum(1 for c in shot.cells.values() if c["occupant"] == "greek")
    assert greek == sum(1 for lid in state.where if state.tables.by_id[lid].side.value == "greek")


def test_a_hand_hides_the_cells_under_it() -> None:
    hand = hands.Hand(tip=(0, 0), base=(0, 0), width=0, tone=0.5, redness=0.0, lift=0.8, spread=0.5)
    shot = _shot(6, hand=hand, hand_cell=(6.5, 6.5))
    assert "G7" in shot.occluded


def test_a_hard_shadow_darkens_its_side_of_the_edge_only() -> None:
    lit = _shot(7, shadow_edge=None, glare=None, hand=None, hand_cell=None, vignette=0.0, k1=0.0, k2=0.0)
    shaded = _shot(7, shadow_edge=(6.0, 6.0, 90.0), shadow_strip=0.0, penumbra=0.005, glare=None, hand=None,
                   hand_cell=None, vignette=0.0, k1=0.0, k2=0.0)
    ratio = shaded.image.astype(np.float64).sum() / lit.image.astype(np.float64).sum()
    assert ratio < 0.95  # auto exposure brings some back, not all


def test_skin_tones_run_from_light_to_dark() -> None:
    assert hands.skin(0.0, 0.0).mean() > 4 * hands.skin(1.0, 0.0).mean()
    assert hands.skin(0.5, 1.0)[0] > hands.skin(0.5, -1.0)[0]
