"""Parts of the per-cell evidence (``vision.evidence``, ``vision.colours``,
``vision.grid_overlay``) computed a faster way give what they gave before, to the bit (w58a: the
reader made faster, every reading identical): the bare board's light near each counter cell
(every cell at once), which samples the photo covers (one channel sampled, not the mask copied
into three), the nearest class (in place) and the washed-out pixels (the least channel)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from vision.colours import _assign, board_pixels, chroma
from vision.evidence import _local_board_light
from vision.grid_overlay import WASHED, Warped, cell_washed


@dataclass
class _Grid:
    rows: int
    cols: int


def _light_one_by_one(light: np.ndarray, plain_px: np.ndarray, bare: np.ndarray, at: np.ndarray, board: _Grid,
                      fewest: int) -> np.ndarray:
    n = board.rows * board.cols
    own = np.full(n, np.nan)
    use = bare & (plain_px.sum(axis=(1, 2)) >= fewest)
    if use.any():
        own[use] = np.nanmedian(np.where(plain_px[use], light[use], np.nan).reshape(int(use.sum()), -1), axis=1)
    known = np.isfinite(own)
    if not known.any():
        everywhere = light[plain_px]
        return np.full(len(at), float(np.median(everywhere)) if len(everywhere) else 1.0)
    grid = own.reshape(board.rows, board.cols)
    out = np.full(len(at), float(np.median(own[known])))
    for j, i in enumerate(at):
        r, c = divmod(int(i), board.cols)
        near = grid[max(0, r - 2) : r + 3, max(0, c - 2) : c + 3]
        near = near[np.isfinite(near)]
        if len(near):
            out[j] = float(np.median(near))
    return np.maximum(out, 1e-3)


@pytest.mark.parametrize("seed", range(60))
def test_the_board_light_near_each_counter_is_the_median_of_its_window(seed: int) -> None:
    rng = np.random.default_rng(seed)
    rows, cols = (int(v) for v in rng.integers(1, 14, 2))
    n, m = rows * cols, 6
    light = (rng.random((n, m, m)) * float(rng.choice([1e-3, 1.0, 100.0]))).astype(np.float32)
    if seed % 4 == 0:
        light = np.round(light, 1)  # ties
    plain = rng.random((n, m, m)) < rng.random()
    bare = rng.random(n) < rng.random()
    at = np.sort(rng.choice(n, size=int(rng.integers(0, n + 1)), replace=False))
    fewest = int(rng.integers(1, 20))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a row of only NaN, as the reader's own
        got = _local_board_light(light, plain, bare, at, _Grid(rows, cols), fewest)  # type: ignore[arg-type]
        want = _light_one_by_one(light, plain, bare, at, _Grid(rows, cols), fewest)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("step", [1, 2, 3, 4])
def test_a_masks_samples_are_its_three_channel_copys(step: int) -> None:
    rng = np.random.default_rng(step)
    board = _Grid(12, 12)
    for share in (0.01, 0.5, 0.99):
        inside = cv2.dilate((rng.random((576, 576)) < share).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
        one = board_pixels(inside.astype(np.uint8)[:, :, None] * 255, board, step)  # type: ignore[arg-type]
        three = board_pixels(np.repeat(inside.astype(np.uint8)[:, :, None] * 255, 3, axis=2), board, step)  # type: ignore[arg-type]
        np.testing.assert_array_equal(one[..., 0], three[..., 0])


def test_the_nearest_class_in_place_is_the_nearest_class() -> None:
    rng = np.random.default_rng(58)
    x = rng.random((5000, 2)).astype(np.float32)
    means, sds = rng.random((5, 2)), rng.random(5) * 0.1 + 0.01
    best, dist = _assign(x, means, sds)
    d2 = np.stack([((x[:, 0] - np.float32(m[0])) * (x[:, 0] - np.float32(m[0]))
                    + (x[:, 1] - np.float32(m[1])) * (x[:, 1] - np.float32(m[1]))) * np.float32(1.0 / s**2)
                   for m, s in zip(means, sds, strict=True)])
    np.testing.assert_array_equal(best, d2.argmin(axis=0))  # the first of equals, as the loop keeps it
    np.testing.assert_array_equal(dist, np.sqrt(d2.min(axis=0)))


def test_a_washed_pixel_is_one_whose_three_channels_all_reach_the_level() -> None:
    rng = np.random.default_rng(58)
    board, ppc, pad = _Grid(12, 12), 48, 72
    image = rng.integers(240, 256, (12 * ppc + 2 * pad, 12 * ppc + 2 * pad, 3), dtype=np.uint8)
    warped = Warped(image=image, inside=np.ones(image.shape[:2], bool), ppc=ppc, pad_px=pad)
    grid = image[pad:-pad, pad:-pad]
    want = (grid >= WASHED).all(axis=2).reshape(12, ppc, 12, ppc).mean(axis=(1, 3)).reshape(-1)
    np.testing.assert_array_equal(cell_washed(warped, board), want)  # type: ignore[arg-type]


@pytest.mark.parametrize("shape", [(5000, 3), (37, 48, 48, 3), (144, 24, 24, 3)])
def test_the_chromaticity_sums_the_channels_as_numpy_sums_them(shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(len(shape))
    bgr = (rng.random(shape) * 300).astype(np.float32)
    white = np.array([240.0, 236.0, 251.0])
    norm = np.maximum(bgr, 1.0) / white.astype(np.float32)
    total = norm.sum(axis=-1)
    got = chroma(bgr, white)
    np.testing.assert_array_equal(got[..., 2], total / 3)
    np.testing.assert_array_equal(got[..., 0], norm[..., 2] / total)
