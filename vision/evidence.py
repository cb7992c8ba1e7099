"""Per-cell evidence (issue 13's reader): what each cell's pixels say, before any decision.

- **counter**: the share of a central disc whose pixels are a side's colour (a counter covers
  the disc whatever its size, offset and turn within the tolerances of the box);
- **terrain**: among the pixels of the cell's inner square that are terrain-coloured, the
  share of each token colour; under a counter, the brightness and colour of the band just
  outside the counter's outline, at full resolution (a token keeps it dark up to its edge;
  the bare board darkens only in the counter's rim and shadow);
- **occluder evidence**: the share of pixels that fit no class (skin, a sleeve, a cup).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.board import BoardSpec
from vision.colours import (
    BAND_TO,
    CONNECTIVITY,
    PixelClass,
    PixelModel,
    _as_cells,
    _as_image,
    _cell_share,
    _counter_boxes,
    _fit,
    _geometry,
    _rim_blend,
    adapt,
    board_pixels,
    chroma,
    class_names,
)
from vision.config import ClassifyConfig
from vision.grid_overlay import LINE_CELLS

INSIDE = 0.5 - LINE_CELLS / 2
"""Derived: half-side (cells) of a cell's inside, its printed grid line left out (a blurred line
spans ``grid_overlay.LINE_CELLS``, half of it on each side): the terrain under a counter and the
band around it are read within it (the settings terrain_outer, 0.47, and edge_outer, 0.46,
before; nothing read on the dev photos changed)."""


@dataclass(frozen=True)
class CellEvidence:
    """Per cell (row by row) shares measured on the photo, for decisions and debugging.

    Computed once and never changed: a later stage (:func:`beyond`, the occluder's reach in
    :mod:`vision.pipeline`) returns a new value (``dataclasses.replace``), and the arrays are
    made read-only, so a stage writing into evidence it was given fails where it writes."""

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
    """(n,): under a counter, the mean brightness of the band just outside its outline
    (from ``cfg.edge_band_from`` to :data:`BAND_TO` cell out, full warp resolution), over the
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

    def __post_init__(self) -> None:
        # an array given writable is copied before it is frozen: the caller's stays its own, and
        # a later write there cannot reach the evidence (arrays are per cell: the copy is small)
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, np.ndarray) and value.flags.writeable:
                frozen = value.copy()
                frozen.flags.writeable = False
                object.__setattr__(self, field.name, frozen)


def _foreign_blobs(
    feats: npt.NDArray[np.float32],
    usable: npt.NDArray[np.bool_],
    model: PixelModel,
    names: list[str],
    board: BoardSpec,
    cfg: ClassifyConfig,
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_], tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_]]]:
    """Returns, per cell sample (n, m, m), whether it lies in a connected patch of one piece
    colour (a counter's or a token's) larger than ``cfg.adapt_max_blob`` cells, and whether in
    such a patch of a counter's colour: counters and tokens are smaller than their cell, so such
    a patch is something else (a hand) of that colour. Last, the samples' fit to ``model``
    (:func:`_fit`) these were found by."""
    n, m = feats.shape[0], feats.shape[1]
    best, fits = _fit(feats, usable, *model.arrays(names), cfg)
    out = np.zeros((n, m, m), bool)
    of_side = np.zeros((n, m, m), bool)
    sides = len(board.sides)
    limit = cfg.adapt_max_blob * m * m
    for k in [*range(sides), *range(sides + 1, len(names))]:  # every piece colour, not the board's
        piece = _as_image(fits & (best == k), board).astype(np.uint8)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(piece, connectivity=CONNECTIVITY)
        big = np.nonzero(stats[1:, cv2.CC_STAT_AREA] > limit)[0] + 1
        if len(big):
            hit = _as_cells(np.isin(labels, big), board)
            out |= hit
            if k < sides:
                of_side |= hit
    return out, of_side, (best, fits)


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
    cover = board_pixels(inside.astype(np.uint8)[:, :, None] * 255, board, step)[..., 0] > 127
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
    model, counter_coloured, fitted = _adapted(feats, usable, seed, names, board, cfg)
    means, sds = model.arrays(names)
    best, fits = fitted if fitted is not None else _fit(feats, usable, means, sds, cfg)
    radius, cheb = _geometry(m)
    disc = radius < cfg.counter_disc
    square = cheb < cfg.terrain_square
    sides = len(board.sides)
    disc_total = np.maximum((usable & disc).sum(axis=(1, 2)), 1)
    side_share = np.stack([((best == k) & fits & disc).sum(axis=(1, 2)) / disc_total for k in range(sides)], axis=1)
    is_side = fits & (best < sides)
    holds = side_share.max(axis=1) >= cfg.counter_share if sides else np.zeros(n, bool)
    covered = _counter_boxes(is_side, holds, 0)
    around = ~covered & (cheb < INSIDE)
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
        cell_area = np.maximum((usable & (cheb < INSIDE))[at].sum(axis=(1, 2)), 1)
        terrain_share[at] = _lean_shares(feats[at][..., :2], ring, cell_area, means, sides, terrains, cfg)
        terrain_pixels[at] = ring.sum(axis=(1, 2)) / cell_area
        plain_px = usable & fits & (best == sides)
        bare_cells = ~holds & (terrain_share[:, 0] >= 1 - cfg.counter_share)
        edge_light[at], edge_lean[at] = _edge_band(
            grid,
            inside,
            white,
            at,
            side_share[at].argmax(axis=1),
            means,
            sds,
            _local_board_light(feats[..., 2], plain_px, bare_cells, at, board, cfg.adapt_min_pixels),
            board,
            cfg,
        )
    other, texture = _off_class(feats, usable, fits, is_side, holds, counter_coloured, square, means, sds, board, cfg)
    return CellEvidence(
        texture=texture,
        side_share=side_share.astype(np.float64),
        terrain_share=terrain_share,
        other_share=other,
        terrain_pixels=terrain_pixels,
        on_counter=holds,
        model=model,
        edge_light=edge_light,
        edge_lean=edge_lean,
    )


def adapted(
    grid: npt.NDArray[np.uint8],
    inside: npt.NDArray[np.bool_],
    white: npt.NDArray[np.float64],
    board: BoardSpec,
    seed: PixelModel,
    cfg: ClassifyConfig,
) -> PixelModel:
    """Returns the classes :func:`evidence` adapts to a grid image (its ``model``), without
    reading the cells: for a pass that needs only the classes (the occluder's pixels judged
    against the piece colours adapted without its blob, :mod:`vision.pipeline`)."""
    feats, usable = _samples(grid, inside, white, board, cfg)
    return _adapted(feats, usable, seed, class_names(board), board, cfg)[0]


def _adapted(
    feats: npt.NDArray[np.float32],
    usable: npt.NDArray[np.bool_],
    seed: PixelModel,
    names: list[str],
    board: BoardSpec,
    cfg: ClassifyConfig,
) -> tuple[PixelModel, npt.NDArray[np.bool_], tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_]] | None]:
    """Returns the classes adapted to the photo, per cell sample whether it lies in a patch
    of a counter's colour larger than any counter (:func:`_foreign_blobs`), and the samples' fit
    to those classes (:func:`_fit`) when it was already made (None: not made)."""
    model = adapt(feats.reshape(-1, 3), usable.reshape(-1), seed, names, cfg)
    # a hand or a sleeve of a piece's colour (a token's, a counter's) is one blob over many
    # cells: it would pull that class to itself (and narrow it there), so its pixels are left out
    # and the classes adapted again
    foreign, counter_coloured, fitted = _foreign_blobs(feats, usable, model, names, board, cfg)
    if foreign.any():
        model = adapt(feats.reshape(-1, 3), (usable & ~foreign).reshape(-1), seed, names, cfg)
    found = _unmatched_sides(feats, usable & ~foreign, model, names, board, cfg)
    if found is not None:
        model = adapt(feats.reshape(-1, 3), (usable & ~foreign).reshape(-1), found, names, cfg)
    return model, counter_coloured, None if foreign.any() or found is not None else fitted


def _unmatched_sides(
    feats: npt.NDArray[np.float32],
    usable: npt.NDArray[np.bool_],
    model: PixelModel,
    names: list[str],
    board: BoardSpec,
    cfg: ClassifyConfig,
) -> PixelModel | None:
    """Returns the classes with a side's colour found again, or None when nothing is to find.

    A side whose class matched fewer than ``cfg.adapt_min_pixels`` of the photo's pixels (its
    counters printed paler, or lit by another lamp, than the calibration's: beyond the class's
    drift) while the central discs of some cells are mostly in no class's colour: those discs'
    pixels, when nearer that side's colour than any other class's, re-seed it (counters lie
    over the cell's centre; a hand or a sleeve of that colour, larger than any counter, is left
    out before, by :func:`_foreign_blobs`)."""
    sides = len(board.sides)
    lonely = [k for k in range(sides) if model.classes[names[k]].pixels < cfg.adapt_min_pixels]
    if not lonely:
        return None
    means, sds = model.arrays(names)
    _best, fits = _fit(feats, usable, means, sds, cfg)
    radius, _cheb = _geometry(feats.shape[1])
    disc = usable & (radius < cfg.counter_disc)[None]
    off = disc & ~fits & (feats[..., 2] > cfg.occluder_light)
    cells = off.sum(axis=(1, 2)) >= cfg.counter_share * np.maximum(disc.sum(axis=(1, 2)), 1)
    px = feats[cells][off[cells]][:, :2].astype(np.float64)
    if len(px) < cfg.adapt_min_pixels:
        return None
    nearest = np.hypot(px[:, None, 0] - means[None, :, 0], px[:, None, 1] - means[None, :, 1]).argmin(axis=1)
    classes = dict(model.classes)
    for k in lonely:
        mine = px[nearest == k]
        if len(mine) >= cfg.adapt_min_pixels:
            centre = np.median(mine, axis=0)
            classes[names[k]] = PixelClass(mean=(float(centre[0]), float(centre[1])), sd=model.classes[names[k]].sd)
    return PixelModel(classes=classes) if classes != dict(model.classes) else None


def _lean_shares(
    x: npt.NDArray[np.float32],
    ring: npt.NDArray[np.bool_],
    cell_area: npt.NDArray[np.intp],
    means: npt.NDArray[np.float64],
    sides: int,
    terrains: int,
    cfg: ClassifyConfig,
) -> npt.NDArray[np.float64]:
    """Under a counter, a token shows as a thin band around it, its colour blended (blur, JPEG)
    with the counter's rim and shadow: per counter cell, the share of the cell whose pixels lean
    from the bare board's colour toward each token's (the bare board: the rest)."""
    base = means[sides]
    lean = np.zeros((len(x), terrains))
    for t in range(1, terrains):
        d = means[sides + t] - base
        norm2 = float(d @ d) or 1e-9
        rel = x - base.astype(np.float32)
        proj = (rel @ d.astype(np.float32)) / np.float32(norm2)
        perp = np.abs(rel[..., 0] * d[1] - rel[..., 1] * d[0]) / math.sqrt(norm2)
        ok = ring & (proj >= cfg.lean_min) & (perp < cfg.lean_perp * math.sqrt(norm2))
        lean[:, t] = ok.sum(axis=(1, 2)) / cell_area
    lean[:, 0] = 1 - lean[:, 1:].sum(axis=1)
    return lean


def _off_class(
    feats: npt.NDArray[np.float32],
    usable: npt.NDArray[np.bool_],
    fits: npt.NDArray[np.bool_],
    is_side: npt.NDArray[np.bool_],
    holds: npt.NDArray[np.bool_],
    counter_coloured: npt.NDArray[np.bool_],
    square: npt.NDArray[np.bool_],
    means: npt.NDArray[np.float64],
    sds: npt.NDArray[np.float64],
    board: BoardSpec,
    cfg: ClassifyConfig,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Per cell, the share of its inner square in colours that fit no class, and its texture.

    Off-class colours count when bright (printed art and rims are dark), away from a counter's
    edge (where its colour blends with the board's), over the inner square; not a counter's
    blended rim past that edge (a blue counter's on a light board is grey); and a patch of a
    counter's colour larger than any counter counts too (a hand of that colour, which the
    classes, adapted to the photo, may have taken for the counters' own). The texture is the
    brightness spread over its mean in the inner square."""
    sides, m = len(board.sides), feats.shape[1]
    free = usable & ~_counter_boxes(is_side, holds, 2) & square
    bright_outlier = free & ~fits & (feats[..., 2] > cfg.occluder_light)
    if holds.any():
        counter = _as_image(is_side & holds[:, None, None], board)
        flat = _as_image(feats[..., :2], board).reshape(-1, 2)
        rim = _rim_blend(flat, counter, means, sds, sides, m, cfg, _as_image(bright_outlier, board))
        bright_outlier &= ~_as_cells(rim, board)
    sq = usable & square
    cnt = np.maximum(sq.sum(axis=(1, 2)), 1)
    other = (bright_outlier | (counter_coloured & sq)).sum(axis=(1, 2)) / cnt
    light = feats[..., 2]
    mean_l = (light * sq).sum(axis=(1, 2)) / cnt
    var_l = ((light - mean_l[:, None, None]) ** 2 * sq).sum(axis=(1, 2)) / cnt
    texture = np.sqrt(var_l) / np.maximum(mean_l, 1e-3)
    return np.asarray(other, np.float64), np.asarray(texture, np.float64)


def _local_board_light(
    light: npt.NDArray[np.float32],
    plain_px: npt.NDArray[np.bool_],
    bare: npt.NDArray[np.bool_],
    at: npt.NDArray[np.intp],
    board: BoardSpec,
    fewest: int,
) -> npt.NDArray[np.float64]:
    """Per cell ``at``, the bare board's brightness nearby: the median, over the cells within two
    of it that show only bare board (``bare``) on at least ``fewest`` pixels, of each one's
    median bare-board pixel (light and shadow change across a photo; the board between tokens is
    darkened by their edges and shadows, so only bare cells count); the photo's bare cells' where
    none is near."""
    rows, cols = board.rows, board.cols
    n = rows * cols
    own = np.full(n, np.nan)
    use = bare & (plain_px.sum(axis=(1, 2)) >= fewest)
    if use.any():
        # the median of each cell's bare pixels (in the pixels' float32)
        own[use] = row_medians(np.where(plain_px[use], light[use], np.nan).reshape(int(use.sum()), -1))
    known = np.isfinite(own)
    if not known.any():
        everywhere = light[plain_px]
        return np.full(len(at), float(np.median(everywhere)) if len(everywhere) else 1.0)
    overall = float(np.median(own[known]))
    # the median of the known cells of every cell's 5 × 5 window at once (NaN past the grid's edge)
    reach = 2
    wide = np.pad(np.where(known, own, np.nan).reshape(rows, cols), reach, constant_values=np.nan)
    near = row_medians(np.lib.stride_tricks.sliding_window_view(wide, (2 * reach + 1,) * 2).reshape(n, -1)[at])
    out = np.where(np.isnan(near), overall, near)
    return np.asarray(np.maximum(out, 1e-3), np.float64)


def row_medians(values: npt.NDArray[np.floating[Any]]) -> npt.NDArray[np.floating[Any]]:
    """Returns, per row of ``values`` (2-D), ``np.median`` of its values that are not NaN (NaN
    where it has none), all rows at once and in their own dtype: the same order statistics, and
    the same mean of the middle two where their count is even (``np.nanmedian`` row by row, without
    its loop)."""
    ordered = np.sort(values, axis=1)  # NaN last
    count = np.count_nonzero(~np.isnan(ordered), axis=1)
    at = np.arange(len(ordered))
    upper, lower = ordered[at, count // 2], ordered[at, np.maximum(count - 1, 0) // 2]
    middle = np.where(count % 2 == 1, upper, (lower + upper) / 2)
    out: npt.NDArray[np.floating[Any]] = np.where(count > 0, middle, np.nan)
    return out


def beyond(
    grid: npt.NDArray[np.uint8],
    inside: npt.NDArray[np.bool_],
    white: npt.NDArray[np.float64],
    board: BoardSpec,
    ev: CellEvidence,
    cells: npt.NDArray[np.bool_],
    cfg: ClassifyConfig,
) -> CellEvidence:
    """Returns ``ev`` with ``cells`` read again on the pixels of ``inside`` only (away from an
    occluder as first found), with the classes of ``ev``: ``lean_beyond`` (under a counter: the
    band's lean toward each token's colour, as :func:`_edge_band`), ``terrain_beyond`` (without
    one: the share of the inner square's pixels left that fit each terrain's colour) and
    ``seen_beyond`` set; ``ev`` itself is left as it was."""
    n, terrains, sides = len(ev.on_counter), len(board.terrains), len(board.sides)
    lean_beyond = np.full((n, terrains), np.nan)
    terrain_beyond = np.full((n, terrains), np.nan)
    means, sds = ev.model.arrays(class_names(board))
    at = np.nonzero(cells & ev.on_counter)[0]
    if len(at):
        light, lean = _edge_band(
            grid, inside, white, at, ev.side_share[at].argmax(axis=1), means, sds, np.ones(len(at)), board, cfg
        )
        lean[~np.isfinite(light)] = np.nan
        lean_beyond[at] = lean
    bare = np.nonzero(cells & ~ev.on_counter)[0]
    if len(bare):
        feats, usable = _samples(grid, inside, white, board, cfg)
        feats = feats[bare]
        _radius, cheb = _geometry(feats.shape[1])
        seen = usable[bare] & (cheb < cfg.terrain_square)
        best, fits = _fit(feats, seen, means, sds, cfg)
        count = np.maximum(seen.sum(axis=(1, 2)), 1)
        shares = np.stack([((best == sides + t) & fits).sum(axis=(1, 2)) / count for t in range(terrains)], axis=1)
        terrain_beyond[bare] = np.where(np.asarray(seen.any(axis=(1, 2)), bool)[:, None], shares, np.nan)
    return replace(
        ev, lean_beyond=lean_beyond, terrain_beyond=terrain_beyond, seen_beyond=_cell_share(inside, board)
    )


def with_reach(
    ev: CellEvidence, share: npt.NDArray[np.float64], strict: npt.NDArray[np.float64] | None
) -> CellEvidence:
    """Returns ``ev`` with the occluder's reach set (``share``: the share of each cell under an
    occluder reaching in; ``strict``: counting the pixels given back too); ``ev`` is left as it
    was."""
    return replace(ev, reached=share, reached_strict=strict)


def counter_extent(
    x: npt.NDArray[np.float32],
    side: npt.NDArray[np.float64],
    base: npt.NDArray[np.float64],
    cfg: ClassifyConfig,
    spread: npt.NDArray[np.float64] | None = None,
    share: float | None = None,
) -> npt.NDArray[np.bool_]:
    """Per counter (``side``: its side's colour, one row each; ``x``: its cell's chromaticities,
    the counter first), which pixels its outline takes: those nearer its colour than the bare
    board's (``base``) whatever their direction, that is within half the way from one to the
    other, and, when its class's spreads are given (``spread``, one a counter), within
    ``cfg.pixel_sigma`` of them (the reader's rule: a pale counter's class, re-centred on a
    photo, can reach over the board around it). ``share`` replaces the half way (a measuring
    script's sweep; the setting edge_outline_reach, 0.5, before w56a)."""
    half = np.hypot(*(side - base).T) / 2
    reach = half if share is None else share * np.hypot(*(side - base).T)
    if spread is not None:
        reach = np.minimum(cfg.pixel_sigma * spread, reach)
    shape = (-1,) + (1,) * (x.ndim - 2)
    centre = side.astype(np.float32).reshape((*shape, 2))
    near: npt.NDArray[np.bool_] = np.hypot(*np.moveaxis(x - centre, -1, 0)) < reach.astype(np.float32).reshape(shape)
    return near


def distance_past_outline(near_side: npt.NDArray[np.bool_]) -> npt.NDArray[np.float32] | None:
    """Returns, per pixel of a cell, its distance (pixels) past the outline of the counter whose
    colour ``near_side`` marks: the convex hull of its largest such patch (its light label,
    inside, does not matter; a turned counter is followed, not boxed); None where none is."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(near_side.astype(np.uint8), connectivity=CONNECTIVITY)
    if count <= 1:
        return None
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    pts = cv2.findNonZero((labels == biggest).astype(np.uint8))  # (x, y), row by row, as argwhere's reversed
    outline = np.zeros(near_side.shape, np.uint8)
    cv2.fillConvexPoly(outline, cv2.convexHull(pts), 1)
    away = np.asarray(cv2.distanceTransform(1 - outline, cv2.DIST_L2, 3), np.float32)
    return away


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
    the lean toward each token's colour of the band outside the
    counter's outline, read on the full-resolution warp (the band of token left around a counter
    is one to three photo pixels wide on a small board: sampling every second pixel, or blurring,
    blends it away); the outline is :func:`distance_past_outline`'s. The band is read only where
    most of it shows (at least half its pixels not under an occluder, and at least
    ``adapt_min_pixels``): a majority rule, not a tuned share (``classify.seen_share``, 0.5, until
    30 November); otherwise its measures stay NaN and the trees see none."""
    ppc = grid.shape[0] // board.rows
    sides = len(board.sides)
    terrains = len(board.terrains)
    c = (np.arange(ppc, dtype=np.float32) + 0.5) / ppc - 0.5
    within = np.maximum(np.abs(c)[:, None], np.abs(c)[None, :]) < INSIDE
    lo, hi = cfg.edge_band_from * ppc, BAND_TO * ppc
    base = means[sides]
    light = np.full(len(at), np.nan)
    lean = np.zeros((len(at), terrains))
    # the cells ``at`` only, each (ppc, ppc): the grid's row and column of each, taken together
    row, col = np.divmod(at, board.cols)
    seen = inside.reshape(board.rows, ppc, board.cols, ppc)[row, :, col]
    feats = chroma(grid.reshape(board.rows, ppc, board.cols, ppc, 3)[row, :, col].astype(np.float32), white)
    to_board = np.hypot(*(means[side_of] - base).T)
    near_side = counter_extent(feats[..., :2], means[side_of], base, cfg, sds[side_of])
    for j in range(len(at)):
        f = feats[j]
        away = distance_past_outline(near_side[j])
        if away is None:
            continue
        ring = (away > lo) & (away <= hi) & within
        band = ring & seen[j]
        if band.sum() < max(cfg.adapt_min_pixels, ring.sum() / 2):
            continue  # mostly hidden (under a hand): the rest of it may be the counter's rim
        lit = band & (away > lo + cfg.edge_light_skip * ppc)  # past the counter's blurred border
        light[j] = float(f[..., 2][lit if lit.sum() >= cfg.adapt_min_pixels else band].mean()) / board_light[j]
        rel = f[..., :2][band] - base.astype(np.float32)
        # pixels tinted by the counter (its rim blurred into the band: leaning from the board's
        # colour toward the counter's, within lean_perp of their lean off that line) say nothing
        # of the token
        toward = (means[side_of[j]] - base).astype(np.float32)
        size = max(float(to_board[j]), 1e-6)
        along = (rel @ toward) / size**2
        off = np.abs(rel[:, 0] * toward[1] - rel[:, 1] * toward[0]) / size**2
        untinted = off >= cfg.lean_perp * along
        for t in range(1, terrains):
            d = (means[sides + t] - base).astype(np.float32)
            det = float(d[0] * toward[1] - d[1] * toward[0])
            if abs(det) >= cfg.edge_unmix * math.sqrt(float(d @ d)) * size:
                # a token blended with the counter's colour (its rim and the blur) lies between
                # the two, not on the line from the board: take the counter's share out (the
                # pixel as board + a × (token − board) + b × (counter − board); a is the lean)
                a = (rel[:, 0] * toward[1] - rel[:, 1] * toward[0]) / np.float32(det)
                lean[j, t] = float(np.clip(a, -1.0, 2.0).mean())
            elif untinted.sum() >= cfg.adapt_min_pixels:
                proj = (rel[untinted] @ d) / max(float(d @ d), 1e-9)
                lean[j, t] = float(np.clip(proj, -1.0, 2.0).mean())
    return light, lean
