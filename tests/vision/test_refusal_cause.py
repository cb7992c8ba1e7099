"""The cause a refused photo names (a hand, a glare, the photo's exposure), which tells the
players what to fix (issue 34; ``bench/refusal_reasons.py`` measures it against what the
renderers drew; ``docs/vision.md``, "What a refusal blames").

A washed-out cell is the light's even where the occluder finder reaches it (the finder takes a
glare's white patch for a hand), and where the board's own paper is washed out too the photo is
overexposed rather than glared.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from vision import tabletop
from vision.calibration import Calibration
from vision.config import VisionConfig
from vision.errors import LowConfidenceError
from vision.grid_overlay import WASHED
from vision.pipeline import observe, read, refusal

from .helpers import board
from .test_lamp_and_shade import LAMP_AND_SHADE, _scene, box_calibration

NAMES = board().cell_names()
MAX = VisionConfig().classify.max_unreadable
CLIPPED = np.full(3, 255.0)
"""A paper white clipped in every channel."""


def _shares(cells: list[str], value: float = 1.0) -> np.ndarray:
    out = np.zeros(len(NAMES))
    out[[NAMES.index(c) for c in cells]] = value
    return out


def test_a_white_patch_the_occluder_finder_reaches_is_named_a_glare() -> None:
    patch, halo = NAMES[:20], NAMES[20:35]  # washed out and reached; reached only
    unsure = tuple(patch + halo + NAMES[35:45])
    why = refusal(unsure, _shares(patch + halo, 0.5), _shares(patch, 0.9), NAMES, MAX)
    assert why is not None and (why.cause, why.count) == ("glare", 20)
    assert "glare" in str(why.error())


def test_a_hand_is_named_where_its_cells_outnumber_the_washed_ones_even_when_the_paper_clips() -> None:
    hand, washed = NAMES[:30], NAMES[30:40]
    why = refusal(tuple(hand + washed), _shares(hand, 0.6), _shares(washed, 0.8), NAMES, MAX, white=CLIPPED)
    assert why is not None and (why.cause, why.count) == ("hand", 30)


def test_washed_cells_on_clipped_paper_are_the_exposure_not_a_glare() -> None:
    washed = NAMES[:40]
    unsure = tuple(washed)
    assert refusal(unsure, None, _shares(washed), NAMES, MAX).cause == "glare"  # type: ignore[union-attr]
    one_channel_short = np.array([248.0, 255.0, 255.0])  # a strong lamp, the paper not clipped in red
    assert refusal(unsure, None, _shares(washed), NAMES, MAX, white=one_channel_short).cause == "glare"  # type: ignore[union-attr]
    why = refusal(unsure, None, _shares(washed), NAMES, MAX, white=CLIPPED)
    assert why is not None and (why.cause, why.count) == ("overexposed", 40)
    assert "overexposed" in str(why.error())


def test_few_unsure_cells_refuse_nothing_unless_the_trees_doubt_the_photo() -> None:
    few = tuple(NAMES[:5])
    assert refusal(few, None, np.zeros(len(NAMES)), NAMES, MAX) is None
    assert refusal(few, None, np.zeros(len(NAMES)), NAMES, MAX, doubted=True).cause == "unknown"  # type: ignore[union-attr]


@pytest.fixture(scope="module")
def _calibration(tmp_path_factory: pytest.TempPathFactory) -> Calibration:
    return box_calibration(tmp_path_factory.mktemp("calibration"))


def test_an_overexposed_photo_is_blamed_on_its_exposure(tmp_path: Path, _calibration: Calibration) -> None:
    # a lamp with most of the light and an exposure more than twice what the board needs: the
    # board's paper clips with the plain cells; no glare and no hand are drawn
    conditions = dataclasses.replace(LAMP_AND_SHADE, shadow_edge=None, lamp_share=0.8, exposure=2.2)
    shot = tabletop.render(board(), _scene(), conditions, 101)
    photo = shot.save(tmp_path / "overexposed")
    reading = read(photo, board(), calibration=_calibration, strict=False)
    assert (reading.white >= WASHED).all(), "the paper no longer clips: the test no longer tests the rule"
    washed_unsure = [n for n in reading.observation.unreadable if reading.washed[NAMES.index(n)] > 0.5]
    assert washed_unsure, "no washed-out cell left unsure: the test no longer tests the rule"
    # whatever refuses it (here the count, its share set just under this photo's unsure cells),
    # the cause named is the exposure, with the washed-out cells it leaves unsure
    share = (len(reading.observation.unreadable) - 0.5) / len(NAMES)
    strict = VisionConfig.model_validate({"classify": {"max_unreadable": share}})
    with pytest.raises(LowConfidenceError, match=f"overexposed: {len(washed_unsure)} of them"):
        observe(photo, board(), strict, calibration=_calibration, strict=True)
