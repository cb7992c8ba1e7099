"""Per-pixel colour reading that adapts to each photo (issue 13).

Every pixel of the top-down board is described by its chromaticity ``(r, g)`` after dividing by
the white reference (the sheet around the grid: paper, or the board's own colour on a
board-coloured sheet), which light and shadow leave nearly unchanged. A :class:`PixelModel`
holds one colour per *piece class*: each side's counters (``side:<name>``) and each terrain
(the first terrain is the bare board). The classes come from a calibration photo (or from the
tables' colours), then are **re-estimated from the photo itself**: each pixel goes to its
nearest class, each class is re-centred on the median of its pixels, a few rounds (colours of
another print batch, another lamp or another phone move by ±10 levels per channel; the bare
board, the most common class, anchors the rest).

Per cell, then:

- **counter**: the share of a central disc whose pixels are a side's colour (a counter covers
  the disc whatever its size, offset and turn within the tolerances of the box);
- **terrain**: among the pixels of the cell's inner square that are terrain-coloured, the
  share of each token colour; under a counter, the brightness and colour of the band just
  outside the counter's outline, at full resolution (a token keeps it dark up to its edge;
  the bare board darkens only in the counter's rim and shadow);
- **occluder**: the share of pixels that fit no class (skin, a sleeve, a cup) — evidence of
  something over the cell — together with hidden grid lines.

A cell's confidence comes from how far those shares are from their decision thresholds, cut
down by the occluder evidence. Everything is in :class:`~vision.config.ClassifyConfig`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
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


@dataclass
class CellEvidence:
    """Per cell (row by row) shares measured on the photo, for decisions and debugging."""

    side_share: npt.NDArray[np.float64]
    """(n, sides): share of the central disc in each side's colour."""
    terrain_share: npt.NDArray[np.float64]
    """(n, terrains): share of each terrain among the inner square's terrain pixels."""
    other_share: npt.NDArray[np.float64]
    """(n,): share of the cell's pixels that fit no class, or lie in a patch of a counter's
    colour larger than any counter."""
    terrain_pixels: npt.NDArray[np.float64]
    """(n,): share of the region's pixels that are terrain-coloured (under a counter: share of
    the cell left around it)."""
    on_counter: npt.NDArray[np.bool_]
    """(n,): a counter stands there; terrain is read on a band around it (else: on the inner
    square)."""
    texture: npt.NDArray[np.float64]
    """(n,): spread of brightness over the inner square, over its mean (printed art, a counter's
    rim and label: high; a hand, bare board: low)."""
    model: PixelModel
    """The classes after adapting to the photo."""
    reached: npt.NDArray[np.float64] | None = None
    """(n,): share of the cell under an occluder reaching in from outside the grid
    (:func:`occluder`, :func:`refine_occluder`; None: not measured)."""
    edge_light: npt.NDArray[np.float64] | None = None
    """(n,): under a counter, the mean brightness of the band just outside its outline (from
    ``cfg.edge_band[0]`` to ``cfg.edge_band[1]`` cell out, full warp resolution), over the
    bare board's around the cell: a token under the counter keeps it dark up to the token's
    edge; bare board only darkens in the counter's rim and shadow. 1 elsewhere."""
    edge_lean: npt.NDArray[np.float64] | None = None
    """(n, terrains): under a counter, the mean lean of that band's pixels from the bare
    board's colour toward each token's (0: board, 1: token; column 0 unused). 0 elsewhere."""
    reached_strict: npt.NDArray[np.float64] | None = None
    """(n,): as ``reached``, counting too the pixels given back to a piece colour close to the
    occluder's (:attr:`Occluder.strict`; None: none given back)."""
    lean_beyond: npt.NDArray[np.float64] | None = None
    """(n, terrains): as ``edge_lean``, read only on the band's pixels away from the occluder as
    it was before any pixel was given back (:func:`beyond`), in counter cells where some were;
    NaN elsewhere or where too little of the band is left (None: none given back)."""
    terrain_beyond: npt.NDArray[np.float64] | None = None
    """(n, terrains): in cells without a counter where pixels were given back, the share of the
    inner square's pixels away from the occluder as first found (:func:`beyond`) that fit each
    terrain's colour; NaN elsewhere or where none of it is left (None: none given back)."""
    seen_beyond: npt.NDArray[np.float64] | None = None
    """(n,): the share of each cell away from the occluder as first found, with its margin."""


def chroma(bgr: npt.NDArray[np.float32], white: npt.NDArray[np.float64]) -> npt.NDArray[np.float32]:
    """Returns (..., 3) features of BGR pixels: chromaticity r, g under the white reference, and
    brightness (mean of the white-balanced channels, 1 = as bright as the reference).

    >>> chroma(np.array([[245.0, 245.0, 245.0]], np.float32), np.array([245.0, 245.0, 245.0]))
    array([[0.33333334, 0.33333334, 1.        ]], dtype=float32)
    """
    norm = np.maximum(bgr, 1.0) / white.astype(np.float32)
    total = norm.sum(axis=-1)
    out = np.empty((*bgr.shape[:-1], 3), np.float32)
    out[..., 0] = norm[..., 2] / total
    out[..., 1] = norm[..., 1] / total
    out[..., 2] = total / 3
    return out


def class_names(board: BoardSpec) -> list[str]:
    """The piece classes of a board: sides first, then terrains (the bare board first)."""
    return [f"{SIDE}{s}" for s in board.sides] + list(board.terrains)


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
    """Returns the grid area's pixels, lightly smoothed and taken every ``step`` pixels, shaped
    (rows × cols, m, m, 3) with ``m = ppc // step``."""
    ppc = grid.shape[0] // board.rows
    smooth = cv2.blur(grid, (3, 3))
    m = ppc // step
    off = (ppc - m * step) // 2 + step // 2
    cells = smooth.reshape(board.rows, ppc, board.cols, ppc, 3)
    idx = off + step * np.arange(m)
    sub = cells[:, idx][:, :, :, idx]
    return sub.transpose(0, 2, 1, 3, 4).reshape(-1, m, m, 3).astype(np.float32)


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
    for k in range(len(means)):
        dr = r - np.float32(means[k][0])
        dg = g - np.float32(means[k][1])
        d2 = (dr * dr + dg * dg) * np.float32(1.0 / sds[k] ** 2)
        closer = d2 < low
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
    moving at most ``cfg.max_drift`` from its seed."""
    x = feats[usable][:, :2]
    if len(x) > cfg.adapt_max_pixels:  # the statistics need only a sample
        x = x[:: -(-len(x) // cfg.adapt_max_pixels)]
    means, sds = seed.arrays(names)
    start = means.copy()
    counts = np.zeros(len(names), int)
    for _ in range(cfg.adapt_rounds):
        best, dist = _assign(x, means, sds)
        near = dist < cfg.pixel_sigma
        for k in range(len(names)):
            mine = x[near & (best == k)]
            counts[k] = len(mine)
            if len(mine) >= cfg.adapt_min_pixels:
                target = np.median(mine, axis=0).astype(np.float64)
                shift = target - start[k]
                size = float(np.hypot(*shift))
                if size > cfg.max_drift:
                    shift *= cfg.max_drift / size
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


def _foreign_blobs(
    feats: npt.NDArray[np.float32],
    usable: npt.NDArray[np.bool_],
    model: PixelModel,
    names: list[str],
    board: BoardSpec,
    cfg: ClassifyConfig,
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Returns, per cell sample (n, m, m), whether it lies in a connected patch of one piece
    colour (a counter's or a token's) larger than ``cfg.adapt_max_blob`` cells, and whether in
    such a patch of a counter's colour: counters and tokens are smaller than their cell, so such
    a patch is something else (a hand) of that colour."""
    n, m = feats.shape[0], feats.shape[1]
    best, fits = _fit(feats, usable, *model.arrays(names), cfg)
    out = np.zeros((n, m, m), bool)
    of_side = np.zeros((n, m, m), bool)
    sides = len(board.sides)
    limit = cfg.adapt_max_blob * m * m
    for k in [*range(sides), *range(sides + 1, len(names))]:  # every piece colour, not the board's
        piece = _as_image(fits & (best == k), board).astype(np.uint8)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(piece, connectivity=4)
        big = np.nonzero(stats[1:, cv2.CC_STAT_AREA] > limit)[0] + 1
        if len(big):
            hit = _as_cells(np.isin(labels, big), board)
            out |= hit
            if k < sides:
                of_side |= hit
    return out, of_side


def _samples(
    grid: npt.NDArray[np.uint8],
    inside: npt.NDArray[np.bool_],
    white: npt.NDArray[np.float64],
    board: BoardSpec,
    cfg: ClassifyConfig,
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
    """Returns the grid area's pixel samples (:func:`board_pixels`) as features (:func:`chroma`),
    and which of them can be read: inside the photo (``inside``) and not too dark."""
    step = cfg.pixel_step
    cover = board_pixels(np.repeat(inside.astype(np.uint8)[:, :, None] * 255, 3, axis=2), board, step)[..., 0] > 127
    feats = chroma(board_pixels(grid, board, step), white)
    usable: npt.NDArray[np.bool_] = cover & (feats[..., 2] > cfg.min_pixel_light)
    return feats, usable


def evidence(
    grid: npt.NDArray[np.uint8],
    inside: npt.NDArray[np.bool_],
    white: npt.NDArray[np.float64],
    board: BoardSpec,
    seed: PixelModel,
    cfg: ClassifyConfig,
) -> CellEvidence:
    """Returns the per-cell colour shares of a top-down grid image (``grid``: the warped grid
    area; ``inside``: which of its pixels the photo covers), after adapting the classes."""
    feats, usable = _samples(grid, inside, white, board, cfg)
    n, m = feats.shape[0], feats.shape[1]
    names = class_names(board)
    model = adapt(feats.reshape(-1, 3), usable.reshape(-1), seed, names, cfg)
    # a hand or a sleeve of a piece's colour (a token's, a counter's) is one blob over many
    # cells: it would pull that class to itself (and narrow it there), so its pixels are left out
    # and the classes adapted again
    foreign, counter_coloured = _foreign_blobs(feats, usable, model, names, board, cfg)
    if foreign.any():
        model = adapt(feats.reshape(-1, 3), (usable & ~foreign).reshape(-1), seed, names, cfg)
    means, sds = model.arrays(names)
    best, fits = _fit(feats, usable, means, sds, cfg)
    radius, cheb = _geometry(m)
    disc = radius < cfg.counter_disc
    square = cheb < cfg.terrain_square
    sides = len(board.sides)
    disc_total = np.maximum((usable & disc).sum(axis=(1, 2)), 1)
    side_share = np.stack([((best == k) & fits & disc).sum(axis=(1, 2)) / disc_total for k in range(sides)], axis=1)
    is_side = fits & (best < sides)
    holds = side_share.max(axis=1) >= cfg.counter_share if sides else np.zeros(n, bool)
    covered = _counter_boxes(is_side, holds, 0)
    around = ~covered & (cheb < cfg.terrain_outer)
    terrains = len(board.terrains)
    region = np.where(holds[:, None, None], around, square)
    px = fits & (best >= sides) & region
    total = px.sum(axis=(1, 2))
    terrain_share = np.stack(
        [((best == sides + t) & px).sum(axis=(1, 2)) / np.maximum(total, 1) for t in range(terrains)],
        axis=1,
    ).astype(np.float64)
    # under a counter, a token shows as a thin band around it, its colour blended (blur, JPEG)
    # with the counter's rim and shadow: count the pixels that lean from the bare board's colour
    # toward the token's, as a share of the cell
    terrain_pixels = (total / np.maximum((usable & region).sum(axis=(1, 2)), 1)).astype(np.float64)
    edge_light = np.ones(n)
    edge_lean = np.zeros((n, terrains))
    if holds.any():
        at = np.nonzero(holds)[0]
        ring = (around & usable & ~(fits & (best < sides)))[at]
        x = feats[at][..., :2]
        base = means[sides]
        cell_area = np.maximum((usable & (cheb < cfg.terrain_outer))[at].sum(axis=(1, 2)), 1)
        lean = np.zeros((len(at), terrains))
        for t in range(1, terrains):
            d = means[sides + t] - base
            norm2 = float(d @ d) or 1e-9
            rel = x - base.astype(np.float32)
            proj = (rel @ d.astype(np.float32)) / np.float32(norm2)
            perp = np.abs(rel[..., 0] * d[1] - rel[..., 1] * d[0]) / math.sqrt(norm2)
            ok = ring & (proj >= cfg.lean_min) & (proj <= 1.6) & (perp < cfg.lean_perp * math.sqrt(norm2))
            lean[:, t] = ok.sum(axis=(1, 2)) / cell_area
        lean[:, 0] = 1 - lean[:, 1:].sum(axis=1)
        terrain_share[at] = lean
        terrain_pixels[at] = ring.sum(axis=(1, 2)) / cell_area
        plain_px = usable & fits & (best == sides)
        bare_cells = ~holds & (terrain_share[:, 0] >= 1 - cfg.token_share)
        edge_light[at], edge_lean[at] = _edge_band(
            grid,
            inside,
            white,
            at,
            side_share[at].argmax(axis=1),
            means,
            sds,
            _local_board_light(feats[..., 2], plain_px, bare_cells, at, board),
            board,
            cfg,
        )
    # colours that fit no class, bright (printed art and rims are dark), away from the counter's
    # edge (where its colour blends with the board's), over the cell's whole inner square; nor
    # the counter's blended rim past that edge (a blue counter's on a light board is grey)
    free = usable & ~_counter_boxes(is_side, holds, 2) & square
    bright_outlier = free & ~fits & (feats[..., 2] > cfg.occluder_light)
    if holds.any():
        counter = _as_image(is_side & holds[:, None, None], board)
        flat = _as_image(feats[..., :2], board).reshape(-1, 2)
        rim = _rim_blend(flat, counter, means, sds, sides, m, cfg, _as_image(bright_outlier, board))
        bright_outlier &= ~_as_cells(rim, board)
    sq = usable & square
    cnt = np.maximum(sq.sum(axis=(1, 2)), 1)
    # and a patch of a counter's colour larger than any counter: a hand of that colour, which the
    # classes, adapted to the photo, may have taken for the counters' own
    other = (bright_outlier | (counter_coloured & sq)).sum(axis=(1, 2)) / cnt
    light = feats[..., 2]
    mean_l = (light * sq).sum(axis=(1, 2)) / cnt
    var_l = ((light - mean_l[:, None, None]) ** 2 * sq).sum(axis=(1, 2)) / cnt
    texture = np.sqrt(var_l) / np.maximum(mean_l, 1e-3)
    return CellEvidence(
        texture=texture.astype(np.float64),
        side_share=side_share.astype(np.float64),
        terrain_share=terrain_share,
        other_share=other.astype(np.float64),
        terrain_pixels=terrain_pixels,
        on_counter=holds,
        model=model,
        edge_light=edge_light,
        edge_lean=edge_lean,
    )


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


def _local_board_light(
    light: npt.NDArray[np.float32],
    plain_px: npt.NDArray[np.bool_],
    bare: npt.NDArray[np.bool_],
    at: npt.NDArray[np.intp],
    board: BoardSpec,
) -> npt.NDArray[np.float64]:
    """Per cell ``at``, the bare board's brightness nearby: the median, over the cells within two
    of it that show only bare board (``bare``), of each one's median bare-board pixel (light
    and shadow change across a photo; the board between tokens is darkened by their edges and
    shadows, so only bare cells count); the photo's bare cells' where none is near."""
    rows, cols = board.rows, board.cols
    n = rows * cols
    own = np.full(n, np.nan)
    use = bare & (plain_px.sum(axis=(1, 2)) >= 20)
    if use.any():
        vals = np.where(plain_px[use], light[use], np.nan).reshape(int(use.sum()), -1)
        own[use] = np.nanmedian(vals, axis=1)
    known = np.isfinite(own)
    if not known.any():
        everywhere = light[plain_px]
        return np.full(len(at), float(np.median(everywhere)) if len(everywhere) else 1.0)
    overall = float(np.median(own[known]))
    grid = own.reshape(rows, cols)
    out = np.full(len(at), overall)
    for j, i in enumerate(at):
        r, c = divmod(int(i), cols)
        near = grid[max(0, r - 2) : r + 3, max(0, c - 2) : c + 3]
        near = near[np.isfinite(near)]
        if len(near):
            out[j] = float(np.median(near))
    return np.asarray(np.maximum(out, 1e-3), np.float64)


def beyond(
    grid: npt.NDArray[np.uint8],
    inside: npt.NDArray[np.bool_],
    white: npt.NDArray[np.float64],
    board: BoardSpec,
    ev: CellEvidence,
    cells: npt.NDArray[np.bool_],
    cfg: ClassifyConfig,
) -> None:
    """Reads ``cells`` again on the pixels of ``inside`` only (away from an occluder as first
    found), with the classes of ``ev``, and sets ``ev.lean_beyond`` (under a counter: the band's
    lean toward each token's colour, as :func:`_edge_band`), ``ev.terrain_beyond`` (without one:
    the share of the inner square's pixels left that fit each terrain's colour) and
    ``ev.seen_beyond``."""
    n, terrains, sides = len(ev.on_counter), len(board.terrains), len(board.sides)
    ev.lean_beyond = np.full((n, terrains), np.nan)
    ev.terrain_beyond = np.full((n, terrains), np.nan)
    ev.seen_beyond = _cell_share(inside, board)
    means, sds = ev.model.arrays(class_names(board))
    at = np.nonzero(cells & ev.on_counter)[0]
    if len(at):
        light, lean = _edge_band(
            grid, inside, white, at, ev.side_share[at].argmax(axis=1), means, sds, np.ones(len(at)), board, cfg
        )
        lean[~np.isfinite(light)] = np.nan
        ev.lean_beyond[at] = lean
    bare = np.nonzero(cells & ~ev.on_counter)[0]
    if len(bare):
        feats, usable = _samples(grid, inside, white, board, cfg)
        feats = feats[bare]
        _radius, cheb = _geometry(feats.shape[1])
        seen = usable[bare] & (cheb < cfg.terrain_square)
        best, fits = _fit(feats, seen, means, sds, cfg)
        count = np.maximum(seen.sum(axis=(1, 2)), 1)
        shares = np.stack([((best == sides + t) & fits).sum(axis=(1, 2)) / count for t in range(terrains)], axis=1)
        ev.terrain_beyond[bare] = np.where(np.asarray(seen.any(axis=(1, 2)), bool)[:, None], shares, np.nan)


def _edge_band(
    grid: npt.NDArray[np.uint8],
    inside: npt.NDArray[np.bool_],
    white: npt.NDArray[np.float64],
    at: npt.NDArray[np.intp],
    side_of: npt.NDArray[np.intp],
    means: npt.NDArray[np.float64],
    sds: npt.NDArray[np.float64],
    board_light: npt.NDArray[np.float64],
    board: BoardSpec,
    cfg: ClassifyConfig,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Per counter cell ``at`` (its side ``side_of``), the brightness (over ``board_light``) and
    the lean toward each token's colour of the band ``cfg.edge_band`` (cells) outside the
    counter's outline, read on the full-resolution warp (the band of token left around a counter
    is one to three photo pixels wide on a small board: sampling every second pixel, or blurring,
    blends it away). The outline is the convex hull of the counter's largest side-coloured patch
    (its light label, inside, does not matter; a turned counter is followed, not boxed)."""
    ppc = grid.shape[0] // board.rows
    sides = len(board.sides)
    terrains = len(board.terrains)
    c = (np.arange(ppc, dtype=np.float32) + 0.5) / ppc - 0.5
    within = np.maximum(np.abs(c)[:, None], np.abs(c)[None, :]) < cfg.edge_outer
    lo, hi = cfg.edge_band[0] * ppc, cfg.edge_band[1] * ppc
    base = means[sides]
    light = np.full(len(at), np.nan)
    lean = np.zeros((len(at), terrains))
    cells = grid.reshape(board.rows, ppc, board.cols, ppc, 3).transpose(0, 2, 1, 3, 4).reshape(-1, ppc, ppc, 3)
    seen = inside.reshape(board.rows, ppc, board.cols, ppc).transpose(0, 2, 1, 3).reshape(-1, ppc, ppc)
    feats = chroma(cells[at].astype(np.float32), white)
    centre = means[side_of].astype(np.float32)[:, None, None, :]
    # within its class's reach and part of the way to the bare board's colour (cfg.edge_outline_reach):
    # a pale counter's class, re-centred on a photo, can reach over the board around it
    to_board = np.hypot(*(means[side_of] - base).T)
    reach = np.minimum(cfg.pixel_sigma * sds[side_of], cfg.edge_outline_reach * to_board)
    reach = reach.astype(np.float32)[:, None, None]
    near_side = np.hypot(*np.moveaxis(feats[..., :2] - centre, -1, 0)) < reach
    for j in range(len(at)):
        f = feats[j]
        own = near_side[j].astype(np.uint8)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(own, connectivity=8)
        if count <= 1:
            continue
        biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        pts = np.argwhere(labels == biggest)[:, ::-1].astype(np.int32)
        outline = np.zeros((ppc, ppc), np.uint8)
        cv2.fillConvexPoly(outline, cv2.convexHull(pts), 1)
        away = cv2.distanceTransform(1 - outline, cv2.DIST_L2, 3)
        ring = (away > lo) & (away <= hi) & within
        band = ring & seen[at[j]]
        if band.sum() < max(5, cfg.edge_band_seen * ring.sum()):
            continue  # mostly hidden (under a hand): the rest of it may be the counter's rim
        lit = band & (away > lo + cfg.edge_light_skip * ppc)  # past the counter's blurred border
        light[j] = float(f[..., 2][lit if lit.sum() >= 5 else band].mean()) / board_light[j]
        rel = f[..., :2][band] - base.astype(np.float32)
        # pixels tinted by the counter (its rim blurred into the band: on the line from the
        # board's colour to the counter's) say nothing of the token
        toward = (means[side_of[j]] - base).astype(np.float32)
        size = max(float(to_board[j]), 1e-6)
        along = (rel @ toward) / size**2
        off = np.abs(rel[:, 0] * toward[1] - rel[:, 1] * toward[0]) / size**2
        untinted = (along <= cfg.edge_tint) | (off > cfg.lean_perp * along)
        for t in range(1, terrains):
            d = (means[sides + t] - base).astype(np.float32)
            det = float(d[0] * toward[1] - d[1] * toward[0])
            if abs(det) >= cfg.edge_unmix * math.sqrt(float(d @ d)) * size:
                # a token blended with the counter's colour (its rim and the blur) lies between
                # the two, not on the line from the board: take the counter's share out (the
                # pixel as board + a × (token − board) + b × (counter − board); a is the lean)
                a = (rel[:, 0] * toward[1] - rel[:, 1] * toward[0]) / np.float32(det)
                lean[j, t] = float(np.clip(a, -1.0, 2.0).mean())
            elif untinted.sum() >= 5:
                proj = (rel[untinted] @ d) / max(float(d @ d), 1e-9)
                lean[j, t] = float(np.clip(proj, -1.0, 2.0).mean())
    return light, lean


@dataclass
class Occluder:
    """An occluder (a hand, a sleeve) found over the grid by :func:`occluder`."""

    share: npt.NDArray[np.float64]
    """(n,): share of each cell (row by row) under it."""
    mask: npt.NDArray[np.bool_] | None
    """Which pixels of the grid area (``rows × ppc`` by ``cols × ppc``) it covers (None: no
    occluder)."""
    blob: npt.NDArray[np.bool_] | None = None
    """The blob found on the shrunk warp (margin included)."""
    core: npt.NDArray[np.bool_] | None = None
    """Its inside (the blob eroded), whose colour is the occluder's own."""
    colour: tuple[float, float, float] = (0.0, 0.0, 1.0)
    """The occluder's own chromaticity (r, g) and its spread."""
    strict: npt.NDArray[np.float64] | None = None
    """(n,): share of each cell under it before pixels were given back to a piece colour close to
    the occluder's by their window's mean colour (None: none given back)."""
    strict_mask: npt.NDArray[np.bool_] | None = None
    """As ``mask``, before those pixels were given back (None: none given back)."""


def occluder(
    image: npt.NDArray[np.uint8],
    inside: npt.NDArray[np.bool_],
    pad_px: int,
    ppc: int,
    white: npt.NDArray[np.float64],
    board: BoardSpec,
    model: PixelModel,
    cfg: ClassifyConfig,
) -> Occluder:
    """Returns the occluder reaching into the grid
    from outside it: a hand or a sleeve comes from the photo's edge, so it crosses the sheet
    around the grid, where the set has nothing but the sheet, printed coordinates and markers.

    On the warped board with its margin (``image``, ``inside``: which pixels the photo covers),
    shrunk ``cfg.occluder_step`` times, the pixels that are neither the bare board nor a
    counter's colour, nor neutral like the sheet, nor dark (ink, grid lines) form blobs; a blob
    with at least ``cfg.reach_area`` cell² in the band ``cfg.reach_band`` (cells out from the
    grid's edge) (or at the photo's edge) is an occluder, and every cell it covers is measured. Tokens
    and counters never leave their cell, and the sheet separates the grid from the table.
    """
    step = cfg.occluder_step
    h, w = image.shape[:2]
    small = cv2.resize(image, (w // step, h // step), interpolation=cv2.INTER_AREA)
    seen = cv2.resize(inside.astype(np.uint8), (w // step, h // step), interpolation=cv2.INTER_AREA) > 0
    feats = chroma(small.astype(np.float32), white)
    names = class_names(board)
    means, sds = model.arrays(names)
    best, dist = _assign(feats.reshape(-1, 3)[:, :2], means, sds)
    best = best.reshape(small.shape[:2])
    fits = dist.reshape(small.shape[:2]) < cfg.pixel_sigma
    sides = len(board.sides)
    # the bare board and the sheet (neutral under the white reference) by their mean colour over
    # a quarter cell: a pale hand on a pale board differs from it by less than a pixel's noise
    local = cv2.blur(np.ascontiguousarray(feats[..., :2]), (3, 3))
    plain = means[sides]
    board_like = np.hypot(local[..., 0] - plain[0], local[..., 1] - plain[1]) < cfg.neutral_chroma
    background = (fits & (best < sides)) | board_like
    neutral = np.hypot(local[..., 0] - NEUTRAL[0], local[..., 1] - NEUTRAL[1]) < cfg.neutral_chroma
    # printed lines (the grid, a token's edge) part what lies on either side: a hand hides them
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    dip = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, np.ones((3, 3), np.uint8))
    lines = dip > cfg.line_dip * np.maximum(cv2.blur(gray, (5, 5)), 20.0)
    mask = seen & ~background & ~neutral & ~lines & (feats[..., 2] > cfg.occluder_min_light)
    mask = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n = board.rows * board.cols
    sp = ppc / step  # samples per cell
    y0 = x0 = pad_px / step
    gy1, gx1 = y0 + board.rows * sp, x0 + board.cols * sp
    yy, xx = np.mgrid[0 : small.shape[0], 0 : small.shape[1]] + 0.5
    in_grid = (yy >= y0) & (yy < gy1) & (xx >= x0) & (xx < gx1)

    def grown(by: float) -> npt.NDArray[np.bool_]:
        b = by * sp
        out: npt.NDArray[np.bool_] = (yy >= y0 - b) & (yy < gy1 + b) & (xx >= x0 - b) & (xx < gx1 + b)
        return out

    near = grown(cfg.reach_band[1]) & ~grown(cfg.reach_band[0])
    corner = cfg.reach_band[1] + cfg.reach_corner  # the markers' L-shaped guides lie at the corners
    for cy in (y0, gy1):
        for cx in (x0, gx1):
            near &= (np.abs(yy - cy) > corner * sp) | (np.abs(xx - cx) > corner * sp)
    edge = cv2.dilate((~seen).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    entry = (near | (edge & in_grid)) & mask.astype(bool)
    area = cfg.reach_area * sp * sp
    # the occluder's colours are those it shows where it comes in (a hand: skin, which may be a
    # token's colour, and colours that fit no class); only they are followed into the grid, so a
    # token of another colour touching the hand is not taken for it
    kind = np.where(fits, best, len(names))
    base = mask.astype(bool)
    hand = np.zeros(base.shape, bool)
    shown = np.bincount(kind[entry], minlength=len(names) + 1)
    if shown.sum() >= area:
        own = shown >= cfg.reach_colour * shown.sum()
        count, labels = cv2.connectedComponents((base & own[kind]).astype(np.uint8), connectivity=4)
        outside_hits = np.bincount(labels[(near | (edge & in_grid)) & (labels > 0)], minlength=count)
        inside_hits = np.bincount(labels[in_grid & (labels > 0)], minlength=count)
        keep = (outside_hits >= area) & (inside_hits >= area)
        keep[0] = False
        hand |= keep[labels]
    # the shrunk pixels on a grid line (within one of it)
    dy = np.abs((yy - y0 + sp / 2) % sp - sp / 2)
    dx = np.abs((xx - x0 + sp / 2) % sp - sp / 2)
    on_line = (dy < 1.0) | (dx < 1.0)
    hand |= _lying_on(base & ~hand, kind, in_grid, on_line, sides, len(names), sp, cfg)
    if not hand.any():
        return Occluder(np.zeros(n), None)
    core = cv2.erode(hand.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    if core.sum() < cfg.adapt_min_pixels:
        core = hand
    # its colour over the grid (outside, the blob may run on into a table of another colour)
    over = core & in_grid
    skin = feats[over if over.sum() >= cfg.adapt_min_pixels else core][:, :2]
    centre = np.median(skin, axis=0).astype(np.float64)
    spread = float(np.median(np.hypot(*(skin - centre.astype(np.float32)).T))) / 1.177
    spread = max(cfg.min_photo_sd, spread)
    mask = _on_grid(hand, pad_px, step, (board.rows * ppc, board.cols * ppc))
    share = _cell_share(mask, board)
    return Occluder(share, mask, hand, core, (float(centre[0]), float(centre[1]), spread))


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


def _cell_share(mask: npt.NDArray[np.bool_], board: BoardSpec) -> npt.NDArray[np.float64]:
    """Returns, per cell (row by row), the share of a grid-area mask that is set."""
    ppc = mask.shape[0] // board.rows
    share: npt.NDArray[np.float64] = (
        mask.reshape(board.rows, ppc, board.cols, ppc).mean(axis=(1, 3)).reshape(-1).astype(np.float64)
    )
    return share


def _lying_on(
    base: npt.NDArray[np.bool_],
    kind: npt.NDArray[np.intp],
    in_grid: npt.NDArray[np.bool_],
    on_line: npt.NDArray[np.bool_],
    sides: int,
    classes: int,
    sp: float,
    cfg: ClassifyConfig,
) -> npt.NDArray[np.bool_]:
    """Returns the blobs of one colour (a terrain's, or none) lying within the grid, larger
    than ``cfg.lying_area`` cells², solid (``cfg.lying_solid``) and covering the grid lines
    they cross (a hand or a cup put down on the board). Tokens fill at most their cell: several
    of one colour side by side may join where a line between them is faint, but the lines
    themselves mostly stay out of the blob (``on_line``: the shrunk pixels on a grid line), and
    their printed art leaves holes in it; over a hand the lines are hidden."""
    out = np.zeros(base.shape, bool)
    need = cfg.lying_area * sp * sp
    expected = float(on_line[in_grid].mean()) if in_grid.any() else 0.0
    for k in [*range(sides, classes), classes]:
        mine = base & (kind == k) & in_grid
        if mine.sum() < need:
            continue
        count, labels = cv2.connectedComponents(mine.astype(np.uint8), connectivity=4)
        sizes = np.bincount(labels.ravel(), minlength=count)
        lined = np.bincount(labels[on_line], minlength=count)
        big = (sizes >= need) & (lined >= cfg.lying_lines * expected * sizes)
        big[0] = False
        for j in np.nonzero(big)[0]:
            # solid: printed art (a forest's dots, a hill's outline) leaves holes in tokens
            blob = (labels == j).astype(np.uint8)
            outline, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            filled = np.zeros_like(blob)
            cv2.drawContours(filled, outline, -1, 1, -1)
            if sizes[j] >= cfg.lying_solid * max(int(filled.sum()), 1) and not _cell_shaped(
                blob.astype(bool), in_grid, sp, cfg
            ):
                out |= blob.astype(bool)
    return out


def _cell_shaped(
    blob: npt.NDArray[np.bool_], in_grid: npt.NDArray[np.bool_], sp: float, cfg: ClassifyConfig
) -> bool:
    """Whether a blob is made of whole cells (tokens side by side: each cell it touches is
    mostly covered or barely touched, none quite filled) rather than lying across them as a
    hand does (its edge cuts cells anywhere, leaving many of them partly covered, and it fills
    the cells under it)."""
    ys, xs = np.nonzero(in_grid)
    if not len(ys):
        return False
    rows = ((np.arange(blob.shape[0]) - ys.min() + 0.5) // sp).astype(int)
    cols = ((np.arange(blob.shape[1]) - xs.min() + 0.5) // sp).astype(int)
    inside = in_grid & blob
    r, c = np.nonzero(inside)
    key = rows[r] * 10_000 + cols[c]
    _, counts = np.unique(key, return_counts=True)
    cover = counts / (sp * sp)
    touched = cover > 0.1
    partial = touched & (cover < cfg.lying_whole)
    full = cover >= cfg.lying_full  # a token never fills its cell
    return bool(partial.sum() <= cfg.lying_partial * max(int(touched.sum()), 1) and full.sum() < 3)


def refine_occluder(
    image: npt.NDArray[np.uint8],
    found: Occluder,
    pad_px: int,
    ppc: int,
    white: npt.NDArray[np.float64],
    board: BoardSpec,
    model: PixelModel,
    cfg: ClassifyConfig,
    lines: npt.NDArray[np.float64],
) -> Occluder:
    """Returns the occluder with its pixels over the grid area judged at the warp's full
    resolution (``model``: the piece colours, best adapted without the occluder's pixels).

    The blob found on the shrunk warp is wide at its edge (its colour is judged over a quarter
    cell there) and may take in a neighbouring token of a colour near its own; near that edge
    (``cfg.occluder_edge`` shrunk pixels either side) each pixel, its colour taken over 3 × 3
    pixels, is covered when it is nearer the occluder's own colour than every piece colour (in
    units of each one's spread), or lies on the line from a piece colour to the occluder's past
    ``cfg.occluder_alpha`` of the way (the soft edge, blurred). A cell only touched by the hand
    is then read from the rest of it."""
    if found.blob is None or found.core is None:
        return found
    step = cfg.occluder_step
    rows, cols = board.rows, board.cols
    h_grid, w_grid = rows * ppc, cols * ppc
    names = class_names(board)
    means, sds = model.arrays(names)
    centre = np.array(found.colour[:2])
    spread = found.colour[2]
    grow = 2 * cfg.occluder_edge + 1
    wide = cv2.dilate(found.blob.astype(np.uint8), np.ones((grow, grow), np.uint8)) > 0
    out = np.zeros((h_grid, w_grid), bool)
    gb = _on_grid(wide, pad_px, step, (h_grid, w_grid))
    if not gb.any():
        return found
    ys, xs = np.nonzero(gb)
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    patch = image[pad_px + y0 : pad_px + y1, pad_px + x0 : pad_px + x1]
    f = chroma(cv2.blur(patch, (3, 3)).astype(np.float32), white)[..., :2].reshape(-1, 2)
    # a class the occluder's own colour lies on (a token of skin colour, or a class the photo's
    # adaptation pulled onto the hand) cannot tell the two apart: it does not compete
    gap = np.hypot(means[:, 0] - centre[0], means[:, 1] - centre[1]) / np.hypot(sds, spread)
    rivals = gap > cfg.occluder_rival
    d_own = np.hypot(f[:, 0] - np.float32(centre[0]), f[:, 1] - np.float32(centre[1])) / np.float32(spread)
    if rivals.any():
        _best, d_cls = _assign(f, means[rivals], sds[rivals])
    else:
        d_cls = np.full(len(f), np.inf, np.float32)
    own = (d_own <= d_cls) & (d_own < cfg.pixel_sigma)
    # a piece colour too close to the occluder's to tell one pixel from the other (a hill token
    # beside a hand of nearly its colour) may still differ from it over a small window: the
    # mean colour of many pixels has far less noise than one. Where the window's mean lies
    # nearer that piece colour than the occluder's, the pixel is the piece's, not covered
    close = np.nonzero(~rivals & (gap >= cfg.occluder_local_gap))[0]
    near_cls, d_near = _assign(f, means, sds)
    on_counter = (near_cls < len(board.sides)) & (d_near < cfg.pixel_sigma)
    piece: npt.NDArray[np.bool_] | None = None
    if len(close) and own.any():
        win = max(3, round(cfg.occluder_window * ppc) | 1)
        # the window's mean leaves out a counter's pixels (and dark ink, rims): a hill token's
        # band around a counter, blended with it, would drift toward the occluder's colour
        weight = ~on_counter
        weight &= chroma(patch.astype(np.float32), white)[..., 2].reshape(-1) > cfg.occluder_min_light
        wmap = weight.reshape(y1 - y0, x1 - x0).astype(np.float32)
        summed = cv2.blur(patch.astype(np.float32) * wmap[..., None], (win, win))
        mean_bgr = summed / np.maximum(cv2.blur(wmap, (win, win)), 1e-3)[..., None]
        f_win = chroma(mean_bgr.astype(np.float32), white)[..., :2].reshape(-1, 2)
        d_occ = np.hypot(f_win[:, 0] - np.float32(centre[0]), f_win[:, 1] - np.float32(centre[1]))
        piece = np.zeros(len(f), bool)
        for k in close:
            d_k = np.hypot(f_win[:, 0] - np.float32(means[k][0]), f_win[:, 1] - np.float32(means[k][1]))
            piece |= d_k < d_occ
    # the soft edge: a blend of the occluder with what lies under it (the photo's blur, the
    # hand's own soft outline) lies on the line from a class's colour to the occluder's; past
    # cfg.occluder_alpha of the way it counts as covered
    best_fit = np.full(len(f), np.inf, np.float32)
    alpha = np.zeros(len(f), np.float32)
    for k in np.nonzero(rivals)[0]:
        d = (centre - means[k]).astype(np.float32)
        norm = float(np.hypot(*d))
        rel = f - means[k].astype(np.float32)
        a = (rel @ d) / np.float32(norm * norm)
        perp = np.abs(rel[:, 0] * d[1] - rel[:, 1] * d[0]) / np.float32(norm * sds[k])
        closer = (perp < best_fit) & (a > -0.5) & (a < 1.5)
        best_fit[closer] = perp[closer]
        # past the class's own spread too (a pale hand on a pale board: the noise is most of it)
        alpha[closer] = np.minimum(a[closer], a[closer] * np.float32(norm / (cfg.blend_sd * sds[k])))
    blend = ((best_fit < cfg.pixel_sigma) & (alpha >= cfg.occluder_alpha)).reshape(y1 - y0, x1 - x0)
    own_px = own.reshape(y1 - y0, x1 - x0)
    # a blend lies at the occluder's edge (not around a counter or a token further on)
    reach = 2 * max(1, round(cfg.blend_reach * ppc)) + 1
    edge = cv2.dilate(own_px.astype(np.uint8), np.ones((reach, reach), np.uint8)) > 0
    keep = own_px | (blend & edge)
    if cfg.occluder_thin > 0:
        narrow = _narrow_parts(keep, ppc, cfg)
        if on_counter.any():
            keep &= ~_ring_counters(narrow, on_counter.reshape(keep.shape), (y0, x0), ppc, board.cols, cfg)
        if cfg.occluder_thin_edge > 0:
            # along the grid's outer edge: the board's printed border blended with a token
            border = cfg.occluder_thin_edge * ppc
            yy, xx = np.arange(y0, y1)[:, None], np.arange(x0, x1)[None, :]
            keep &= ~(narrow & ((yy < border) | (yy >= h_grid - border) | (xx < border) | (xx >= w_grid - border)))
    out[y0:y1, x0:x1] = gb[y0:y1, x0:x1] & keep
    keep &= _joined(out, found.core, pad_px, step)[y0:y1, x0:x1]
    keep &= ~_rim_blend(f, on_counter.reshape(keep.shape), means, sds, len(board.sides), ppc, cfg)
    strict_mask = None
    if piece is not None:
        out[y0:y1, x0:x1] = gb[y0:y1, x0:x1] & keep
        strict_mask = out.copy()
        keep &= ~piece.reshape(y1 - y0, x1 - x0)
    out[y0:y1, x0:x1] = gb[y0:y1, x0:x1] & keep
    share = _cell_share(out, board)
    grid = image[pad_px : pad_px + h_grid, pad_px : pad_px + w_grid]
    whole = _token_cells(grid, out, share, white, means, sds, centre, board, cfg, lines)
    if whole.any():
        # given back like the pixels above: believed only where the cell's edges show
        strict_mask = out.copy() if strict_mask is None else strict_mask
        out &= ~np.kron(whole.reshape(rows, cols), np.ones((ppc, ppc), bool))
        share = _cell_share(out, board)
    strict = None if strict_mask is None else _cell_share(strict_mask, board)
    return Occluder(share, out, found.blob, found.core, found.colour, strict, strict_mask)


def _narrow_parts(mask: npt.NDArray[np.bool_], ppc: int, cfg: ClassifyConfig) -> npt.NDArray[np.bool_]:
    """Returns the pixels of an occluder's ``mask`` in its parts narrower than
    ``cfg.occluder_thin`` and farther than ``cfg.occluder_thin_fringe`` from its wider parts
    (outside the mask's patch counts as uncovered: a strip along the grid's edge is narrow too).
    A hand is wide, its fingers too; its own soft edge lies beside its wide parts."""
    thin = max(3, round(cfg.occluder_thin * ppc) | 1)
    wide = cv2.morphologyEx(
        mask.astype(np.uint8),
        cv2.MORPH_OPEN,
        np.ones((thin, thin), np.uint8),
        borderType=cv2.BORDER_CONSTANT,
        borderValue=0,
    )
    fringe = 2 * round(cfg.occluder_thin_fringe * ppc) + 1
    body = cv2.dilate(wide, np.ones((fringe, fringe), np.uint8)) > 0
    out: npt.NDArray[np.bool_] = mask & ~body
    return out


def _ring_counters(
    narrow: npt.NDArray[np.bool_],
    counter: npt.NDArray[np.bool_],
    origin: tuple[int, int],
    ppc: int,
    cols: int,
    cfg: ClassifyConfig,
) -> npt.NDArray[np.bool_]:
    """Returns the pixels of an occluder's narrow parts (``narrow``: see :func:`_narrow_parts`;
    a patch of the grid area whose first pixel is ``origin``) that ring a counter: within
    ``cfg.occluder_thin_near`` of its pixels (``counter``), in a cell where they cover
    ``cfg.occluder_thin_ring`` of the band around its counter.

    Around a counter, the blur mixes the token's band with the counter's rim, and that mix can
    have a hand's colour: a ring of it, joined to the hand where the two touch, would cover the
    band the counter's terrain is read on. A hand's edge lies along one side of the counter."""
    near = 2 * max(1, round(cfg.occluder_thin_near * ppc)) + 1
    beside = cv2.dilate(counter.astype(np.uint8), np.ones((near, near), np.uint8)) > 0
    thin_px = narrow & beside
    # the cell of each pixel, and per cell the share of the band around its counter they cover
    ys = (np.arange(narrow.shape[0]) + origin[0]) // ppc
    xs = (np.arange(narrow.shape[1]) + origin[1]) // ppc
    cell = ys[:, None] * cols + xs[None, :]
    size = int(cell.max()) + 1
    band = np.bincount(cell[beside & ~counter], minlength=size)
    ring = np.bincount(cell[thin_px], minlength=size) >= cfg.occluder_thin_ring * np.maximum(band, 1)
    out: npt.NDArray[np.bool_] = thin_px & ring[cell]
    return out


def _joined(
    mask: npt.NDArray[np.bool_], core: npt.NDArray[np.bool_], pad_px: int, step: int
) -> npt.NDArray[np.bool_]:
    """Returns the parts of ``mask`` (grid area, full resolution) joined to the occluder's core
    (``core``: on the warp with its margin, shrunk ``step`` times): a hand is one piece, and a
    patch of its colour left apart from it (a token's band blended with a counter's light rim)
    is not the hand."""
    count, labels = cv2.connectedComponents(mask.astype(np.uint8), connectivity=8)
    if count <= 2:
        return mask
    inner = _on_grid(core, pad_px, step, (mask.shape[0], mask.shape[1]))
    keep = np.zeros(count, bool)
    keep[np.unique(labels[inner & mask])] = True
    keep[0] = False
    out: npt.NDArray[np.bool_] = keep[labels]
    return out


def _token_cells(
    grid: npt.NDArray[np.uint8],
    mask: npt.NDArray[np.bool_],
    share: npt.NDArray[np.float64],
    white: npt.NDArray[np.float64],
    means: npt.NDArray[np.float64],
    sds: npt.NDArray[np.float64],
    centre: npt.NDArray[np.float64],
    board: BoardSpec,
    cfg: ClassifyConfig,
    lines: npt.NDArray[np.float64],
) -> npt.NDArray[np.bool_]:
    """Returns the cells (row by row) the occluder mostly covers whose covered pixels, taken
    together, have a token's colour rather than the occluder's: a token of nearly a hand's
    colour, joined to the hand where the blur hides the line between them. One pixel cannot
    tell the two apart; the mean of a cell's pixels has far less noise. Only where the two
    colours lie ``cfg.token_cell_gap`` of the token colour's spreads apart (a hand of just
    that colour cannot be told from it at all). "Nearer" is ``cfg.token_cell_ratio`` of the
    distance to the occluder's colour, or the looser ``cfg.token_cell_ratio_edges`` in a cell
    whose four printed lines (``lines``) all show: a hand hides the lines it lies across."""
    rows, cols = board.rows, board.cols
    ppc = grid.shape[0] // rows
    sides = len(board.sides)
    out = np.zeros(rows * cols, bool)
    ratio = np.full(rows * cols, cfg.token_cell_ratio)
    typical_line = float(np.median(lines))
    if cfg.token_cell_edges > 0 and typical_line > 0:  # no printed line measured: none shows
        shown = lines.min(axis=1) >= cfg.token_cell_edges * typical_line
        ratio[shown] = max(cfg.token_cell_ratio, cfg.token_cell_ratio_edges)
    for i in np.nonzero(share >= cfg.token_cell_cover)[0]:
        r, c = divmod(int(i), cols)
        sl = (slice(r * ppc, (r + 1) * ppc), slice(c * ppc, (c + 1) * ppc))
        f = chroma(grid[sl].astype(np.float32), white)
        px = f[mask[sl] & (f[..., 2] > cfg.occluder_min_light)][:, :2]
        if len(px) < cfg.adapt_min_pixels:
            continue
        mu = px.mean(axis=0)
        d_occ = float(np.hypot(*(mu - centre)))
        d_tok = np.hypot(*(means[sides + 1 :] - mu).T)
        k = int(np.argmin(d_tok))
        sd = sds[sides + 1 + k]
        apart = float(np.hypot(*(means[sides + 1 + k] - centre))) >= cfg.token_cell_gap * sd
        out[i] = apart and d_tok[k] < ratio[i] * d_occ and d_tok[k] < cfg.token_cell_sd * sd
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
    a counter's colour; only those of ``among`` when given) at a counter's rim whose colour is a
    mix of the counter's, its light border's (neutral) and a terrain's: the blur blends the
    three there, and such a mix beside a hill token can have a hand's colour."""
    shape = counter.shape
    out = np.zeros(len(f), bool)
    if not counter.any():
        return out.reshape(shape)
    width = 2 * max(2, round(cfg.rim_blend * ppc)) + 1
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
    need = max(2, m // 6)  # a counter spans most of a row; stray pixels of its colour do not
    rows = is_side.sum(axis=2) >= need
    cols = is_side.sum(axis=1) >= need
    idx = np.arange(m)
    for i in np.nonzero(holds)[0]:
        r, c = idx[rows[i]], idx[cols[i]]
        if len(r) == 0 or len(c) == 0:
            continue
        out[i, max(0, r[0] - grow) : r[-1] + 1 + grow, max(0, c[0] - grow) : c[-1] + 1 + grow] = True
    return out


def _sure(margin: npt.NDArray[np.float64], scale: float | npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Confidence of a decision whose evidence is ``margin`` past its threshold (0.5 at the
    threshold, 0.9 at ``scale`` past it, toward 1 beyond)."""
    k = math.log(9.0) / np.asarray(scale, np.float64)
    out: npt.NDArray[np.float64] = 1.0 / (1.0 + np.exp(-k * np.abs(margin)))
    return out


def _under_counter(
    light: npt.NDArray[np.float64],
    lean: npt.NDArray[np.float64],
    share: npt.NDArray[np.float64],
    cfg: ClassifyConfig,
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
    """Returns, per counter cell, the most likely token, whether a token lies under the counter,
    and the confidence of that reading, from the band around the counter (``light``: its
    brightness over the bare board's, NaN when not measured; ``lean``: (k, tokens) its colour's
    lean toward each token's) and the share of the cell leaning toward each token (``share``).

    The token is the one with the largest ``lean + cfg.edge_type_share × share``; it lies
    there when ``(cfg.edge_dark − light) + cfg.edge_lean_weight × lean + cfg.edge_share_weight ×
    √share`` of that token is positive (confidence: ``cfg.edge_scale``; which token:
    ``cfg.edge_type_scale``; below 0.5 when that sum is negative: the band's colour leans toward
    no token). A band leaning at least ``cfg.edge_lean_clear`` toward a token, with
    ``cfg.edge_share_clear`` of the cell leaning toward it, is that token whatever its brightness.
    A band that could not be measured leaves the cell unsure.
    """
    k = len(light)
    rows = np.arange(k)
    kind = lean + cfg.edge_type_share * share
    best = kind.argmax(axis=1)
    ordered = np.sort(kind, axis=1)
    gap = ordered[:, -1] - ordered[:, -2] if kind.shape[1] > 1 else np.full(k, np.inf)
    measured = np.isfinite(light)
    score = (
        (cfg.edge_dark - np.where(measured, light, cfg.edge_dark))
        + cfg.edge_lean_weight * lean[rows, best]
        + cfg.edge_share_weight * np.sqrt(np.maximum(share[rows, best], 0.0))
    )
    token = score > 0
    conf = _sure(score, cfg.edge_scale)
    conf = np.where(token, np.minimum(conf, _sure(gap, cfg.edge_type_scale)), conf)
    # a dark band whose colour leans toward no token (a token's dark edge, a shadow) says that
    # a token lies there, not which
    chosen = kind[rows, best]
    conf = np.where(token & (chosen < 0), np.minimum(conf, 1 - _sure(chosen, cfg.edge_type_scale)), conf)
    # a band leaning clearly toward a token, over a good share of the cell, is that token however
    # bright it measures (a counter's light border, blurred over a thin band, brightens it): as
    # sure when its brightness says token only just as when it says bare board
    clear = measured & (lean[rows, best] >= cfg.edge_lean_clear)
    clear &= share[rows, best] >= cfg.edge_share_clear
    token |= clear
    conf = np.where(clear, _sure(gap, cfg.edge_type_scale), conf)
    conf = np.where(measured, conf, 0.5)
    return best, token & measured, conf


def decide(
    ev: CellEvidence,
    board: BoardSpec,
    cfg: ClassifyConfig,
    lines: npt.NDArray[np.float64] | None = None,
) -> list[tuple[str | None, str, float]]:
    """Returns per cell (occupant side or None, terrain, confidence) from the colour shares.

    A counter needs ``cfg.counter_share`` of the central disc in its side's colour; a token
    needs ``cfg.token_share`` of the inner square's terrain pixels in its colour (the largest
    token colour wins; below it, the bare board); under a counter, the band around it decides
    (:func:`_under_counter`).

    Distrust needs evidence of an occluder: more than ``cfg.occluder_share`` of bright pixels
    fitting no class (or of a counter's colour in a patch larger than any counter), or a token
    without its printed detail (``cfg.smooth_texture``) with two of its grid lines hidden
    (``lines``: (n, 4) edge responses, hidden below ``cfg.hidden_line`` of the edges around).
    It spreads up to ``cfg.occlusion_reach`` cells, through cells with evidence of their own
    (some off-class colour, a token without detail).
    A cell under an occluder reaching in is unreadable past
    ``cfg.reach_cover`` of it (``cfg.reach_cover_counter`` with a counter;
    ``cfg.reach_cover_edges`` when its four edges show; ``cfg.reach_cover_filled`` when one
    colour fills it; ``cfg.reach_cover_whole`` when, besides, it is a token showing its printed
    detail), counting the pixels given back to a piece colour (past
    ``cfg.given_cover_counter`` with a counter) only where a hidden edge says a hand may lie
    there, and not where the cell read away from the occluder as first found agrees: under a
    counter, its band leans toward its token by ``cfg.given_lean_beyond``; without one,
    ``cfg.given_seen_beyond`` of the cell shows there, one colour filling its inner square
    (``cfg.pure_token`` of ``cfg.pure_seen``), the terrain the cell is read as.
    """
    n = ev.side_share.shape[0]
    order = np.argsort(-ev.side_share, axis=1)
    rows = np.arange(n)
    s1 = ev.side_share[rows, order[:, 0]]
    s2 = ev.side_share[rows, order[:, 1]] if ev.side_share.shape[1] > 1 else np.zeros(n)
    has = s1 >= cfg.counter_share
    c_conf = _sure(s1 - cfg.counter_share, cfg.counter_scale)
    c_conf = np.where(has, np.minimum(c_conf, _sure(s1 - s2, cfg.counter_scale)), c_conf)
    tokens = ev.terrain_share[:, 1:]
    t_best = tokens.argmax(axis=1) if tokens.shape[1] else np.zeros(n, int)
    t1 = tokens[rows, t_best] if tokens.shape[1] else np.zeros(n)
    t2 = np.sort(tokens, axis=1)[:, -2] if tokens.shape[1] > 1 else np.zeros(n)
    is_token = t1 >= cfg.token_share
    t_conf = _sure(t1 - cfg.token_share, cfg.share_scale)
    t_conf = np.where(is_token, np.minimum(t_conf, _sure(t1 - t2, cfg.share_scale)), t_conf)
    # too few terrain pixels to judge (something covering nearly all the inner square)
    few = np.clip(ev.terrain_pixels / cfg.min_terrain_pixels, 0, 1)
    t_conf = t_conf * (0.5 + 0.5 * few)
    if ev.on_counter.any() and tokens.shape[1] and ev.edge_light is not None and ev.edge_lean is not None:
        # under a counter: the band around it (see _under_counter)
        at = np.nonzero(ev.on_counter)[0]
        edge_best, edge_token, edge_conf = _under_counter(
            ev.edge_light[at], ev.edge_lean[at][:, 1:], tokens[at], cfg
        )
        t_best[at], is_token[at], t_conf[at] = edge_best, edge_token, edge_conf
    conf = np.minimum(c_conf, t_conf)
    # each bare token's texture over the median of the photo's bare tokens of its terrain (NaN
    # where fewer than 3, or none has texture): a token's printed detail shows as the others'
    # do; a hand is smoother
    bare = ~has
    detail = np.full(n, np.nan)
    for t in range(tokens.shape[1]):
        mine = bare & is_token & (t_best == t)
        typical = float(np.median(ev.texture[mine])) if mine.sum() >= 3 else 0.0
        if typical > 0:
            detail[mine] = ev.texture[mine] / typical
    occluded = ev.other_share > cfg.occluder_share
    hidden: npt.NDArray[np.intp] | None = None
    if lines is not None and lines.size:
        # edges whose printed line is much fainter than the edges around are hidden (focus,
        # light and resolution change across a photo: compare within 5 x 5 cells)
        local = _local_median(lines.reshape(board.rows, board.cols, 4), 2).reshape(-1, 1)
        typical_line = np.maximum(local, 0.5 * float(np.median(lines)))
        hidden = ((lines < cfg.hidden_line * typical_line) & (typical_line > 0)).sum(axis=1)
    if ev.reached is not None:
        # a counter's terrain is read on a thin band, which a fingertip can fill
        cover = np.where(ev.on_counter, cfg.reach_cover_counter, cfg.reach_cover)
        over = ev.reached > cover
        # one colour fills the cell: cfg.pure_token of its inner square's terrain pixels, which
        # cover cfg.pure_seen of it (not a sliver left beside a hand), are the bare board's or
        # one token's, no counter. Covered up to cfg.reach_cover_filled, it is read whatever its
        # edges show (a hand over its corner hides two; its soft edge and shadow count as
        # covered, and the rest shows the one colour)
        one_colour = ~ev.on_counter & (ev.terrain_pixels >= cfg.pure_seen)
        one_colour &= ev.terrain_share.max(axis=1) >= cfg.pure_token
        over &= ~(one_colour & (ev.reached <= cfg.reach_cover_filled))
        # one token fills it: "pure" with at most one edge hidden (a hand reaching in hides the
        # edge it crosses; a token's faint side, one), "whole" when it shows its printed detail
        # (cfg.token_detail)
        fills = one_colour & (tokens.max(axis=1) >= cfg.pure_token) if tokens.shape[1] else np.zeros(n, bool)
        low, high = cfg.token_detail
        whole = fills & (detail >= low) & (detail <= high)
        pure = fills & (hidden <= 1) if hidden is not None else np.zeros(n, bool)
        if hidden is not None:
            # a hand reaching well into a cell lies across one of its printed edges: a cell whose
            # four edges all show (or one token filling it), covered less than
            # cfg.reach_cover_edges, has the occluder's soft edge, shadow or a fingertip in a
            # corner beside it (read without those pixels)
            over &= ~(((hidden == 0) | pure) & (ev.reached <= cfg.reach_cover_edges))
            # one token filling it with its printed detail, its four edges showing, is that token
            # up to cfg.reach_cover_whole covered: a hand of nearly its colour joined to it is
            # measured over it, but a hand has no print and hides the lines it lies across
            over &= ~(whole & (hidden == 0) & (ev.reached <= cfg.reach_cover_whole))
        occluded |= over
        if ev.reached_strict is not None:
            # covered only if the pixels given back to a piece colour near the occluder's (by
            # their window's or cell's mean colour) were the occluder's: believed where the
            # cell's four printed edges all show (a hand hides those it lies across), where one
            # is hidden but one token fills the cell (pure, above), or where it fills the cell
            # with its printed detail (whole, above: a token's sides can all be faint);
            # nor under a counter read as standing on a token whose colour its band leans toward
            # only weakly (below cfg.given_lean): its terrain is read on the thin band those
            # pixels lie in, and a hand's shadow darkens it
            given = ev.reached_strict > np.where(ev.on_counter, cfg.given_cover_counter, cfg.reach_cover)
            if hidden is not None:
                weak = ev.on_counter & is_token
                if ev.edge_lean is not None and tokens.shape[1]:
                    weak &= ev.edge_lean[np.arange(n), 1 + t_best] < cfg.given_lean
                given &= ((hidden > 0) & ~pure & ~whole) | weak
            if ev.lean_beyond is not None and tokens.shape[1]:
                # nor where the band away from the occluder, as first found (before those pixels
                # were given back), leans toward that token by cfg.given_lean_beyond: the token
                # shows there too, and the pixels given back beside the hand are its
                lean_there = np.nan_to_num(ev.lean_beyond[np.arange(n), 1 + t_best], nan=-np.inf)
                given &= ~(ev.on_counter & is_token & (lean_there >= cfg.given_lean_beyond))
            if ev.terrain_beyond is not None and ev.seen_beyond is not None:
                # nor, without a counter, where most of the cell shows away from the occluder as
                # first found (a hand hiding a whole counter leaves less of it) and one colour,
                # the terrain it is read as, fills its inner square there
                there = np.nan_to_num(ev.terrain_beyond)
                found = there.sum(axis=1)
                pure_there = (found >= cfg.pure_seen) & (there.max(axis=1) >= cfg.pure_token * found)
                same = there.argmax(axis=1) == np.where(is_token, 1 + t_best, 0)
                away = ~ev.on_counter & (ev.seen_beyond >= cfg.given_seen_beyond) & pure_there & same
                given &= ~away
            occluded |= given
    shape = (board.rows, board.cols)
    suspect = ev.other_share > cfg.occluder_share / 3
    # a token without its printed detail (far smoother than the photo's other tokens of that
    # terrain) is likely a hand or a sleeve of a similar colour
    smooth = detail < cfg.smooth_texture
    suspect |= smooth
    if hidden is not None:
        occluded |= smooth & (hidden >= 2)
    else:
        occluded |= smooth
    untrusted = occluded.reshape(shape)
    near_ok = suspect.reshape(shape)
    for _ in range(cfg.occlusion_reach):
        grown = untrusted | (_near(untrusted) & near_ok)
        if (grown == untrusted).all():
            break
        untrusted = grown
    conf = np.where(untrusted.reshape(-1), np.minimum(conf, 0.3), conf)
    terrains = board.terrains
    sides = board.sides
    out: list[tuple[str | None, str, float]] = []
    for i in range(n):
        occ = sides[int(order[i, 0])] if has[i] else None
        ter = terrains[1 + int(t_best[i])] if is_token[i] else terrains[0]
        out.append((occ, ter, float(conf[i])))
    return out


def _local_median(values: npt.NDArray[np.float64], reach: int) -> npt.NDArray[np.float64]:
    """Per cell of a (rows, cols, k) array, the median of the values within ``reach`` cells."""
    rows, cols = values.shape[:2]
    out = np.empty((rows, cols))
    for r in range(rows):
        for c in range(cols):
            win = values[max(0, r - reach) : r + reach + 1, max(0, c - reach) : c + reach + 1]
            out[r, c] = float(np.median(win))
    return out


def _near(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    rows, cols = mask.shape
    padded = np.pad(mask, 1)
    near = np.zeros_like(mask)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr or dc:
                near |= padded[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
    return near


def learn(ev_feats: Mapping[str, npt.NDArray[np.float32]], seed: PixelModel, cfg: ClassifyConfig) -> PixelModel:
    """Returns classes measured from labelled pixel features (class → (k, 2) chromaticities):
    the mode of each (two rounds of median within ``cfg.pixel_sigma`` of the seed spread), and
    a spread that adds the photo-to-photo drift (``cfg.drift_sd``) to the measured one."""
    out = dict(seed.classes)
    for name, x in ev_feats.items():
        if name not in out or len(x) < cfg.adapt_min_pixels:
            continue
        centre = np.median(x, axis=0)
        for _ in range(2):
            d = np.hypot(*(x - centre).T)
            near = x[d < cfg.pixel_sigma * cfg.min_pixel_sd * 1.5]
            if len(near) < cfg.adapt_min_pixels:
                break
            centre = np.median(near, axis=0)
        d = np.hypot(*(x - centre).T)
        d = d[d < cfg.pixel_sigma * cfg.min_pixel_sd * 1.5]
        # the median distance of a 2-D Gaussian from its centre is 1.177 σ
        spread = float(np.median(d)) / 1.177 if len(d) else cfg.min_pixel_sd
        sd = max(cfg.min_pixel_sd, math.sqrt(spread**2 + cfg.drift_sd**2))
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
