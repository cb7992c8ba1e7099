"""Piece colours and their pixels (issue 13's reader): the classes, the per-pixel features, the
adaptation of the classes to each photo, and the cell-layout helpers the other stages share.

Every pixel of the top-down board is described by its chromaticity ``(r, g)`` after dividing by
the white reference (the sheet around the grid: paper, or the board's own colour on a
board-coloured sheet), which light and shadow leave nearly unchanged. A :class:`PixelModel`
holds one colour per *piece class*: each side's counters (``side:<name>``) and each terrain
(the first terrain is the bare board). The classes come from a calibration photo (or from the
tables' colours), then are **re-estimated from the photo itself**: each pixel goes to its
nearest class, each class is re-centred on the median of its pixels, a few rounds (colours of
another print batch, another lamp or another phone move by ±10 levels per channel; the bare
board, the most common class, anchors the rest). Everything is in
:class:`~vision.config.ClassifyConfig`; :mod:`vision.adaptive` is the classifier's face.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict, Field

from vision.board import BoardSpec
from vision.config import ClassifyConfig

SIDE = "side:"


PAPER = (245.0, 245.0, 245.0)
"""The printed sheet's white (BGR) of ``referee.picture``: the default reference colour."""


NEUTRAL = (1 / 3, 1 / 3)
"""The chromaticity of a grey (the sheet, a counter's light border) under the white reference."""

COUNTER_SIDE = 0.6
"""Geometry (the project's art, provisional until a real box is measured): the side of the
smallest counter, in cells (0.6 to 0.75)."""
TOKEN_SIDE = 0.85
"""Geometry (as ``COUNTER_SIDE``): the side of the smallest terrain token, in cells (0.85 to
0.95)."""
BAND_TO = (TOKEN_SIDE - COUNTER_SIDE) / 2
"""Derived: how far out from a counter's outline (cells) the band whose brightness and colour
are read reaches: as far as the smallest token shows around the smallest counter centred on it
(0.125). A token under the counter fills the band up to the token's edge; bare board only
darkens there in the counter's rim and shadow; the counter's light border blends with the
counter and the terrain within it (:func:`_rim_blend`). Where the band starts is
``classify.edge_band_from``. It replaced the settings edge_band's outer end (0.125) and
rim_blend (0.12): nothing read on the dev photos changed."""
CONNECTIVITY = 4
"""How a patch of one colour is joined, pixel to pixel: by its sides (4) rather than also by its
corners (8). One choice for every patch the per-cell reading follows: a piece colour's patches
too large to be a piece, a counter's own patch whose outline the band is read past
(:mod:`vision.evidence`), the occluder finder's blobs (:mod:`vision.occluders`). Set by hand;
until 30 November the occluder's last join (w56c) and the counter's patch (the lead) were
8-connected, each a choice of its own: 4 reads the dev photos, the game positions and the
occlusion set alike (the counter's patch: the same cells asked, wrong and hidden misread, a
few confidences moved in the fourth decimal)."""
MODE_WINDOW = 1.5
"""The reach of a class's colour around its calibrated centre, in ``pixel_sigma`` drift spreads
(0.072 of chromaticity; :func:`class_reach`): a calibration measures a labelled class's mode
and spread on its pixels this near it (:func:`learn`), and a photo moves a class at most this far
from its seed (:func:`adapt`). Set by hand. One reach since w58b: the setting max_drift (0.08 by
hand, reached by 2 of 779 classes on the dev photos) was the move's own; at 0.072 (reached by 8)
no dev cell moved, nothing was newly refused, read, confidently wrong or misread under a hand on
the game positions and the occlusion set, two cells there newly asked."""


class PixelClass(BaseModel):
    """One piece colour: mean chromaticity (r, g) under the white reference, and its spread."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    mean: tuple[float, float]
    sd: float = Field(gt=0, description="Spread of the chromaticity (per axis).")
    pixels: int = Field(default=0, description="Pixels measured (0: from the tables' colours).")


class PixelModel(BaseModel):
    """The piece colours of a set: ``side:<name>`` for counters, terrain names for tokens and
    the bare board."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    classes: dict[str, PixelClass]

    def arrays(self, names: list[str]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Returns the classes' means (k, 2) and spreads (k,) in the order of ``names``."""
        means = np.array([self.classes[k].mean for k in names], np.float64)
        sds = np.array([self.classes[k].sd for k in names], np.float64)
        return means, sds


def chroma(bgr: npt.NDArray[np.float32], white: npt.NDArray[np.float64]) -> npt.NDArray[np.float32]:
    """Returns (..., 3) features of BGR pixels: chromaticity r, g under the white reference, and
    brightness (mean of the white-balanced channels, 1 = as bright as the reference).

    >>> chroma(np.array([[245.0, 245.0, 245.0]], np.float32), np.array([245.0, 245.0, 245.0]))
    array([[0.33333334, 0.33333334, 1.        ]], dtype=float32)
    """
    norm = np.maximum(bgr, 1.0) / white.astype(np.float32)
    # numpy's sum over the channels, in its order (left to right), without its slow reduction
    # over an axis of three
    total = norm[..., 0] + norm[..., 1] + norm[..., 2]
    out = np.empty((*bgr.shape[:-1], 3), np.float32)
    out[..., 0] = norm[..., 2] / total
    out[..., 1] = norm[..., 1] / total
    out[..., 2] = total / 3
    return out


def class_names(board: BoardSpec) -> list[str]:
    """The piece classes of a board: sides first, then terrains (the bare board first)."""
    return [f"{SIDE}{s}" for s in board.sides] + list(board.terrains)


def class_reach(cfg: ClassifyConfig) -> float:
    """Returns how far from its calibrated colour a class's colour may lie (chromaticity):
    :data:`MODE_WINDOW` times ``cfg.pixel_sigma`` drift spreads (``cfg.drift_sd``)."""
    return cfg.pixel_sigma * cfg.drift_sd * MODE_WINDOW


def table_model(board: BoardSpec, cfg: ClassifyConfig, white: tuple[float, ...] = PAPER) -> PixelModel:
    """Returns the classes of the tables' colours seen under a given white (default: the
    printed sheet's white), each with the configured default spread."""
    colours = {f"{SIDE}{k}": v for k, v in board.side_colours.items()} | dict(board.terrain_colours)
    ref = np.array(white, np.float64)
    out: dict[str, PixelClass] = {}
    for name in class_names(board):
        r, g, b = colours[name]
        f = chroma(np.array([[b, g, r]], np.float32), ref)[0]
        out[name] = PixelClass(mean=(float(f[0]), float(f[1])), sd=cfg.default_pixel_sd)
    return PixelModel(classes=out)


def board_pixels(grid: npt.NDArray[np.uint8], board: BoardSpec, step: int) -> npt.NDArray[np.float32]:
    """Returns the grid area's pixels (``grid``: rows × ppc, cols × ppc, channels), lightly
    smoothed and taken every ``step`` pixels, shaped (rows × cols, m, m, channels) with
    ``m = ppc // step``."""
    ppc = grid.shape[0] // board.rows
    smooth = cv2.blur(grid, (3, 3)).reshape(grid.shape)  # a single channel keeps its axis
    m = ppc // step
    off = (ppc - m * step) // 2 + step // 2
    cells = smooth.reshape(board.rows, ppc, board.cols, ppc, grid.shape[2])
    idx = off + step * np.arange(m)
    sub = cells[:, idx][:, :, :, idx]
    return sub.transpose(0, 2, 1, 3, 4).reshape(-1, m, m, grid.shape[2]).astype(np.float32)


def _geometry(m: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Per sample of an m×m cell: distance from the centre, and Chebyshev distance, in cells."""
    c = (np.arange(m, dtype=np.float32) + 0.5) / m - 0.5
    dy, dx = np.meshgrid(c, c, indexing="ij")
    return np.hypot(dx, dy), np.maximum(np.abs(dx), np.abs(dy))


def _assign(
    x: npt.NDArray[np.float32], means: npt.NDArray[np.float64], sds: npt.NDArray[np.float64]
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float32]]:
    """Returns each feature row's nearest class (in units of each class's spread) and that
    distance."""
    r = np.ascontiguousarray(x[:, 0])
    g = np.ascontiguousarray(x[:, 1])
    best = np.zeros(len(r), np.intp)
    low = np.full(len(r), np.inf, np.float32)
    d2, dg, closer = np.empty_like(r), np.empty_like(g), np.empty(len(r), bool)
    for k in range(len(means)):
        # d2 = ((r - mean r)² + (g - mean g)²) / sd², in place
        np.subtract(r, np.float32(means[k][0]), out=d2)
        np.subtract(g, np.float32(means[k][1]), out=dg)
        np.multiply(d2, d2, out=d2)
        np.multiply(dg, dg, out=dg)
        np.add(d2, dg, out=d2)
        np.multiply(d2, np.float32(1.0 / sds[k] ** 2), out=d2)
        np.less(d2, low, out=closer)
        best[closer] = k
        np.minimum(low, d2, out=low)
    return best, np.sqrt(low)


def _fit(
    feats: npt.NDArray[np.float32],
    usable: npt.NDArray[np.bool_],
    means: npt.NDArray[np.float64],
    sds: npt.NDArray[np.float64],
    cfg: ClassifyConfig,
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_]]:
    """Returns each cell sample's nearest class (shaped as ``usable``) and whether it fits that
    class: usable, and within ``cfg.pixel_sigma`` of its spreads."""
    best, dist = _assign(feats.reshape(-1, 3)[:, :2], means, sds)
    fits: npt.NDArray[np.bool_] = (dist < cfg.pixel_sigma).reshape(usable.shape) & usable
    return best.reshape(usable.shape), fits


def adapt(
    feats: npt.NDArray[np.float32],
    usable: npt.NDArray[np.bool_],
    seed: PixelModel,
    names: list[str],
    cfg: ClassifyConfig,
) -> PixelModel:
    """Returns the classes re-centred on the photo's own pixels: ``cfg.adapt_rounds`` rounds of
    nearest-class assignment (within ``cfg.pixel_sigma``) and median re-centring, each class
    moving at most :func:`class_reach` from its seed. The count of rounds is an early stop:
    repeated to a fixed point the re-centring creeps (decision record
    ``vision-colour-adaptation``)."""
    x = feats[usable][:, :2]
    if len(x) > cfg.adapt_max_pixels:  # the statistics need only a sample
        x = x[:: -(-len(x) // cfg.adapt_max_pixels)]
    means, sds = seed.arrays(names)
    start = means.copy()
    reach = class_reach(cfg)
    counts = np.zeros(len(names), int)
    r, g = np.ascontiguousarray(x[:, 0]), np.ascontiguousarray(x[:, 1])  # a median per column
    for _ in range(cfg.adapt_rounds):
        best, dist = _assign(x, means, sds)
        near = dist < cfg.pixel_sigma
        for k in range(len(names)):
            mine = near & (best == k)
            counts[k] = np.count_nonzero(mine)
            if counts[k] >= cfg.adapt_min_pixels:
                target = np.array([np.median(r[mine]), np.median(g[mine])], np.float64)
                shift = target - start[k]
                size = float(np.hypot(*shift))
                if size > reach:
                    shift *= reach / size
                means[k] = start[k] + shift
    # each class's own spread in this photo (robust: the median distance of its pixels), within
    # [min_photo_sd, its seed spread]: a tight class makes a foreign colour stand out
    best, dist = _assign(x, means, sds)
    near = dist < cfg.pixel_sigma
    for k in range(len(names)):
        mine = x[near & (best == k)]
        if len(mine) >= cfg.adapt_min_pixels:
            spread = float(np.median(np.hypot(*(mine - means[k]).T))) / 1.177
            sds[k] = min(sds[k], max(cfg.min_photo_sd, spread))
    return PixelModel(
        classes={
            n: PixelClass(mean=(float(means[k][0]), float(means[k][1])), sd=float(sds[k]), pixels=int(counts[k]))
            for k, n in enumerate(names)
        }
    )


def learn(ev_feats: Mapping[str, npt.NDArray[np.float32]], seed: PixelModel, cfg: ClassifyConfig) -> PixelModel:
    """Returns classes measured from labelled pixel features (class → (k, 2) chromaticities):
    the mode of each (two rounds of median among its pixels within :func:`class_reach` of the
    median), and a spread that adds the photo-to-photo drift (``cfg.drift_sd``) to the measured
    one: never below the drift, the smallest calibrated spread."""
    reach = class_reach(cfg)
    out = dict(seed.classes)
    for name, x in ev_feats.items():
        if name not in out or len(x) < cfg.adapt_min_pixels:
            continue
        centre = np.median(x, axis=0)
        for _ in range(2):
            d = np.hypot(*(x - centre).T)
            near = x[d < reach]
            if len(near) < cfg.adapt_min_pixels:
                break
            centre = np.median(near, axis=0)
        d = np.hypot(*(x - centre).T)
        d = d[d < reach]
        # the median distance of a 2-D Gaussian from its centre is 1.177 σ
        spread = float(np.median(d)) / 1.177 if len(d) else cfg.drift_sd
        sd = math.sqrt(spread**2 + cfg.drift_sd**2)  # never below the drift's own spread
        out[name] = PixelClass(mean=(float(centre[0]), float(centre[1])), sd=sd, pixels=len(x))
    return PixelModel(classes=out)


def separation(model: PixelModel) -> list[tuple[str, str, float]]:
    """Returns every pair of classes with the distance between their means in units of their
    combined spread, closest pairs first."""
    names = list(model.classes)
    pairs: list[tuple[str, str, float]] = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            ca, cb = model.classes[a], model.classes[b]
            d = math.hypot(ca.mean[0] - cb.mean[0], ca.mean[1] - cb.mean[1])
            pairs.append((a, b, d / math.hypot(ca.sd, cb.sd)))
    return sorted(pairs, key=lambda p: p[2])


def _as_image(cells: npt.NDArray[Any], board: BoardSpec) -> npt.NDArray[Any]:
    """Per-cell samples (n, m, m, ...) laid out as the grid's image (rows × m, cols × m, ...)."""
    m = cells.shape[1]
    tiles = cells.reshape(board.rows, board.cols, m, m, *cells.shape[3:]).swapaxes(1, 2)
    return tiles.reshape(board.rows * m, board.cols * m, *cells.shape[3:])


def _as_cells(image: npt.NDArray[Any], board: BoardSpec) -> npt.NDArray[Any]:
    """The grid's image (rows × m, cols × m, ...) cut back into per-cell samples (n, m, m, ...):
    the inverse of :func:`_as_image`."""
    m = image.shape[0] // board.rows
    tiles = image.reshape(board.rows, m, board.cols, m, *image.shape[2:]).swapaxes(1, 2)
    return tiles.reshape(board.rows * board.cols, m, m, *image.shape[2:])


def _cell_share(mask: npt.NDArray[np.bool_], board: BoardSpec) -> npt.NDArray[np.float64]:
    """Returns, per cell (row by row), the share of a grid-area mask that is set."""
    ppc = mask.shape[0] // board.rows
    share: npt.NDArray[np.float64] = (
        mask.reshape(board.rows, ppc, board.cols, ppc).mean(axis=(1, 3)).reshape(-1).astype(np.float64)
    )
    return share


def _on_grid(
    small: npt.NDArray[np.bool_], pad_px: int, step: int, shape: tuple[int, int]
) -> npt.NDArray[np.bool_]:
    """Returns a mask of the warp with its margin, shrunk ``step`` times (``small``), at full
    resolution over the grid area (``shape``; pixels the shrunk warp does not reach are False)."""
    big = np.kron(small.astype(np.uint8), np.ones((step, step), np.uint8)).astype(bool)
    part = big[pad_px : pad_px + shape[0], pad_px : pad_px + shape[1]]
    out = np.zeros(shape, bool)
    out[: part.shape[0], : part.shape[1]] = part
    return out


def _rim_blend(
    f: npt.NDArray[np.float32],
    counter: npt.NDArray[np.bool_],
    means: npt.NDArray[np.float64],
    sds: npt.NDArray[np.float64],
    sides: int,
    ppc: int,
    cfg: ClassifyConfig,
    among: npt.NDArray[np.bool_] | None = None,
) -> npt.NDArray[np.bool_]:
    """Returns the pixels (``f``: chromaticity, rows of an image whose ``counter`` pixels are
    a counter's colour; only those of ``among`` when given) at a counter's rim, within
    :data:`BAND_TO` of it, whose colour is a mix of the counter's, its light border's (neutral)
    and a terrain's: the blur blends the three there, and such a mix beside a hill token can
    have a hand's colour (a blue counter's rim on a light board is grey). Such a pixel is
    neither an occluder's nor a colour fitting no class."""
    shape = counter.shape
    out = np.zeros(len(f), bool)
    if not counter.any():
        return out.reshape(shape)
    width = 2 * max(2, round(BAND_TO * ppc)) + 1
    grown = cv2.dilate(counter.astype(np.uint8), np.ones((width, width), np.uint8)) > 0
    rim = grown & ~counter
    if among is not None:
        rim &= among
    at = np.flatnonzero(rim)
    mixed = np.zeros(len(at), bool)
    neutral = np.array(NEUTRAL)
    for s in range(sides):
        for t in range(sides, len(means)):
            tol = cfg.pixel_sigma * max(sds[s], sds[t])
            mixed |= _near_triangle(f[at], means[s], neutral, means[t], tol)
    out[at] = mixed
    return out.reshape(shape)


def _near_triangle(
    f: npt.NDArray[np.float32],
    a: npt.NDArray[np.float64],
    b: npt.NDArray[np.float64],
    c: npt.NDArray[np.float64],
    tol: float,
) -> npt.NDArray[np.bool_]:
    """Whether each 2-D point of ``f`` lies in the triangle abc or within ``tol`` of its sides."""
    inside = np.ones(len(f), bool)
    near = np.zeros(len(f), bool)
    area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    for p, q in ((a, b), (b, c), (c, a)):
        d = (q - p).astype(np.float32)
        norm = float(np.hypot(*d)) or 1e-9
        rel = f - p.astype(np.float32)
        cross = (d[0] * rel[:, 1] - d[1] * rel[:, 0]) * np.float32(np.sign(area) or 1.0)
        inside &= cross >= 0
        t = np.clip((rel @ d) / np.float32(norm * norm), 0, 1)
        gap = np.hypot(rel[:, 0] - t * d[0], rel[:, 1] - t * d[1])
        near |= gap < tol
    return inside | near


def _counter_boxes(is_side: npt.NDArray[np.bool_], holds: npt.NDArray[np.bool_], grow: int) -> npt.NDArray[np.bool_]:
    """Returns, per cell sample, whether it lies on the cell's counter grown by ``grow``
    samples: the box spanned by the rows and columns with side-coloured samples, in cells that
    hold one (the counter's light label and dark rim are then not taken for terrain)."""
    _n, m, _ = is_side.shape
    out = np.zeros_like(is_side)
    need = max(2, round(m * COUNTER_SIDE / 2))  # half the smallest counter; stray pixels are fewer
    rows = is_side.sum(axis=2) >= need
    cols = is_side.sum(axis=1) >= need
    idx = np.arange(m)
    for i in np.nonzero(holds)[0]:
        r, c = idx[rows[i]], idx[cols[i]]
        if len(r) == 0 or len(c) == 0:
            continue
        out[i, max(0, r[0] - grow) : r[-1] + 1 + grow, max(0, c[0] - grow) : c[-1] + 1 + grow] = True
    return out
