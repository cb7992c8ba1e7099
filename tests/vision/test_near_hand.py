"""Next to a hand (issue 13): what is not the hand, and when pixels given back near it are believed.

Unit checks on synthetic pixels and evidence: a counter's blended rim, a patch apart from the
hand, a whole token of nearly the hand's colour. (The cascade's rules on synthetic evidence
beside a hand went with it, 30 November: the fitted trees decide from the evidence these check.)
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import adaptive, colours
from vision.adaptive import chroma, class_names, table_model
from vision.config import ClassifyConfig

from .helpers import board

WHITE = np.array(adaptive.PAPER, np.float64)
CFG = ClassifyConfig()
SUSPECT = 0.1
"""A share of off-class colour that made a cell suspect of an occluder (a third of the cascade's
occluder_share, 0.3, until 30 November): the yardstick of the rim test."""


def _model() -> tuple[np.ndarray, np.ndarray]:
    """The board's piece colours (chromaticity) and spreads, from its tables."""
    return table_model(board(), CFG).arrays(class_names(board()))


def _chroma(bgr: tuple[int, int, int]) -> np.ndarray:
    return chroma(np.array([[bgr]], np.float32), WHITE)[0, 0, :2].astype(np.float64)


def _bgr(name: str) -> tuple[int, int, int]:
    r, g, b = board().terrain_colours[name]
    return (b, g, r)


def test_a_counter_rim_blended_with_a_hill_is_not_the_hand() -> None:
    means, sds = _model()
    sides = len(board().sides)
    r, g, b = board().side_colours["greek"]
    counter = _chroma((b, g, r))
    hill = _chroma(_bgr("hill"))
    # a light border blended with the hill: between the neutral reference and the hill's colour
    rim = (np.array([1 / 3, 1 / 3]) + hill) / 2
    size, ppc = 40, 40
    f = np.tile(_chroma(_bgr("plain")), (size, size, 1)).astype(np.float32)
    f[10:20, 10:20] = counter
    f[6:10, 10:20] = rim  # up to 0.1 cell outside the counter
    f[30:34, 10:20] = rim  # the same colour far from any counter
    best, dist = adaptive._assign(f.reshape(-1, 2), means, sds)
    counter_px = ((best < sides) & (dist < CFG.pixel_sigma)).reshape(size, size)
    out = adaptive._rim_blend(f.reshape(-1, 2), counter_px, means, sds, sides, ppc, CFG)
    assert out[6:10, 10:20].all()
    assert not out[30:34, 10:20].any()
    assert not out[10:20, 10:20].any()  # the counter itself is the counter


def test_only_the_parts_joined_to_the_hand_are_the_hand() -> None:
    mask = np.zeros((40, 40), bool)
    mask[0:20, 0:10] = True  # the hand, over its core
    mask[30:34, 30:34] = True  # a patch of its colour apart from it
    core = np.zeros((12, 12), bool)  # the core on the shrunk warp (step 4, margin 4 px)
    core[1:4, 1:3] = True
    kept = adaptive._joined(mask, core, pad_px=4, step=4)
    assert kept[0:20, 0:10].all()
    assert not kept[30:34, 30:34].any()


def _token_grid(cell_bgr: dict[int, tuple[int, int, int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    spec = board()
    ppc = 10
    grid = np.zeros((spec.rows * ppc, spec.cols * ppc, 3), np.uint8)
    grid[:] = _bgr("plain")
    mask = np.zeros(grid.shape[:2], bool)
    for i, bgr in cell_bgr.items():
        r, c = divmod(i, spec.cols)
        grid[r * ppc : (r + 1) * ppc, c * ppc : (c + 1) * ppc] = bgr
        mask[r * ppc : (r + 1) * ppc, c * ppc : (c + 1) * ppc] = True
    share = mask.reshape(spec.rows, ppc, spec.cols, ppc).mean(axis=(1, 3)).reshape(-1)
    return grid, mask, share


def test_a_whole_hill_token_beside_a_hand_of_nearly_its_colour_is_given_back() -> None:
    means, sds = _model()
    skin = (96, 134, 198)  # BGR, a skin a little redder and paler than the hill
    grid, mask, share = _token_grid({0: _bgr("hill"), 1: skin})
    given = adaptive._token_cells(grid, mask, share, WHITE, means, sds, _chroma(skin), board(), CFG)
    assert given[0]  # the hill token, whose pixels together have the hill's colour
    assert not given[1]  # the hand's own cell
    assert not given[2:].any()


def test_a_hand_of_just_the_hill_colour_is_not_given_back_as_a_hill() -> None:
    means, sds = _model()
    hill = _bgr("hill")
    # the hand's colour, measured over all of it, within one spread of the hill's; over this
    # cell it shows just the hill's colour (nearer the hill's than the hand's own, by chance)
    hand = _chroma((hill[0] + 3, hill[1], hill[2]))
    assert np.hypot(*(hand - means[len(board().sides) + board().terrains.index("hill")])) < sds[-1]
    grid, mask, share = _token_grid({0: hill})
    given = adaptive._token_cells(grid, mask, share, WHITE, means, sds, hand, board(), CFG)
    assert not given.any()


def _blue_counter_grid() -> np.ndarray:
    """A bare board with a Persian counter (its light border drawn) in its first cell, blurred
    as a small photo is."""
    spec = board()
    ppc = 48
    img = np.empty((spec.rows * ppc, spec.cols * ppc, 3), np.float32)
    img[:] = _bgr("plain")
    r, g, b = spec.side_colours["persian"]
    k0, rim = round(0.18 * ppc), 2
    img[k0 : ppc - k0, k0 : ppc - k0] = (255, 255, 255)
    img[k0 + rim : ppc - k0 - rim, k0 + rim : ppc - k0 - rim] = (b, g, r)
    return np.clip(cv2.GaussianBlur(img, (0, 0), 2.5), 0, 255).astype(np.uint8)


def test_a_blue_counters_grey_blended_rim_is_not_an_off_class_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = board()
    seed = table_model(spec, CFG)
    # blue and the light board blend through grey, a colour no class has: without the rim
    # rule the counter would be suspected of an occluder beside it
    grid = _blue_counter_grid()
    inside = np.ones(grid.shape[:2], bool)
    ev = adaptive.evidence(grid, inside, WHITE, spec, seed, CFG)
    assert ev.on_counter[0]
    assert ev.other_share[0] < SUSPECT
    # the rim narrowed to its least (two pixels), as the setting rim_blend at 0 did before
    monkeypatch.setattr(colours, "BAND_TO", 0.0)
    assert adaptive.evidence(grid, inside, WHITE, spec, seed, CFG).other_share[0] > SUSPECT
