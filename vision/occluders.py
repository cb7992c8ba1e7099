"""Occluders (issue 13's reader): a hand, a sleeve or a cup over the board, found on evidence
(it reaches in across the sheet around the grid, or lies on the board as one solid blob hiding
the grid lines), then refined pixel by pixel near its edge against the piece colours."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.board import BoardSpec
from vision.colours import (
    BAND_TO,
    CONNECTIVITY,
    COUNTER_SIDE,
    NEUTRAL,
    TOKEN_SIDE,
    PixelModel,
    _assign,
    _cell_share,
    _on_grid,
    _rim_blend,
    chroma,
    class_names,
)
from vision.config import ClassifyConfig
from vision.grid_overlay import LINE_CELLS
from vision.register import DARKEST

FILTER = 3
"""The side (shrunk pixels, about a quarter cell) of :func:`_not_board`'s mean colour and of the
opening that clears the blob of single pixels."""
BLOB_EDGE = 2 * (FILTER // 2 + FILTER // 2) + 1
"""Derived: the side of the square (shrunk pixels) that spans a blob's edge either way: the
radii of the mean and the opening that made the blob (5)."""
RING_NEAR = (1 - COUNTER_SIDE) / 2
"""Derived: a ring of a token's band around a counter lies within this much (cells) of the
counter's pixels: in the band between the smallest counter and its cell's edge (0.2). (The
setting occluder_thin_near, 0.25, until 30 November, w56c.)"""
EDGE_STRIP = (1 - TOKEN_SIDE) / 2
"""Derived: the board's printed border blended with a token lies within this much (cells) of
the grid's outer edge: the gap between the smallest token and its cell's edge (0.075). (The
setting occluder_thin_edge, 0.15, until 30 November, w56c.)"""


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
    with at least a finger's width across the band ``cfg.reach_band`` (cells out from the grid's
    edge), the band's depth times ``cfg.occluder_thin`` in cell², there (or at the photo's edge)
    and inside the grid is an occluder (with ``occluder_thin`` at 0 any blob crossing the band
    is), and every cell it covers is measured. Tokens
    and counters never leave their cell, and the sheet separates the grid from the table.
    """
    step = cfg.occluder_step
    h, w = image.shape[:2]
    small = np.asarray(cv2.resize(image, (w // step, h // step), interpolation=cv2.INTER_AREA), np.uint8)
    seen = cv2.resize(inside.astype(np.uint8), (w // step, h // step), interpolation=cv2.INTER_AREA) > 0
    feats = chroma(small.astype(np.float32), white)
    names = class_names(board)
    means, sds = model.arrays(names)
    best, dist = _assign(feats.reshape(-1, 3)[:, :2], means, sds)
    best = best.reshape(small.shape[:2])
    fits = dist.reshape(small.shape[:2]) < cfg.pixel_sigma
    sides = len(board.sides)
    sp = ppc / step  # samples per cell
    mask = _not_board(small, seen, feats, means[sides], best, fits, sides, sp, cfg)
    n = board.rows * board.cols
    y0 = x0 = pad_px / step
    yy, xx = np.mgrid[0 : small.shape[0], 0 : small.shape[1]] + 0.5
    in_grid = (yy >= y0) & (yy < y0 + board.rows * sp) & (xx >= x0) & (xx < x0 + board.cols * sp)
    kind = np.where(fits, best, len(names))
    base = mask.astype(bool)
    hand = _reaching_in(base, kind, seen, in_grid, yy, xx, (y0, x0), sp, board, len(names), cfg)
    hand |= _lying_on(base & ~hand, kind, in_grid, sides, len(names), sp, cfg)
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
    covered = _on_grid(hand, pad_px, step, (board.rows * ppc, board.cols * ppc))
    return Occluder(_cell_share(covered, board), covered, hand, core, (float(centre[0]), float(centre[1]), spread))


def _not_board(
    small: npt.NDArray[np.uint8],
    seen: npt.NDArray[np.bool_],
    feats: npt.NDArray[np.float32],
    plain: npt.NDArray[np.float64],
    best: npt.NDArray[np.intp],
    fits: npt.NDArray[np.bool_],
    sides: int,
    sp: float,
    cfg: ClassifyConfig,
) -> npt.NDArray[np.uint8]:
    """The shrunk pixels (``sp`` a cell) an occluder may be made of: neither the bare board nor a
    counter's colour, nor neutral like the sheet, nor dark (below ``cfg.min_pixel_light``, as for
    every pixel read), nor on a printed line (lines part what lies on either side; a hand hides
    them)."""
    # the bare board and the sheet (neutral under the white reference) by their mean colour over
    # a quarter cell: a pale hand on a pale board differs from it by less than a pixel's noise.
    # That mean has almost no noise left; what is left is the drift of the light and the print
    # from the reference colour, ``cfg.drift_sd``
    local = cv2.blur(np.ascontiguousarray(feats[..., :2]), (FILTER, FILTER))
    board_like = np.hypot(local[..., 0] - plain[0], local[..., 1] - plain[1]) < cfg.drift_sd
    background = (fits & (best < sides)) | board_like
    neutral = np.hypot(local[..., 0] - NEUTRAL[0], local[..., 1] - NEUTRAL[1]) < cfg.drift_sd
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    # a printed line is LINE_CELLS wide (one shrunk pixel at 12 a cell): the black-hat that finds
    # its dip is the smallest odd square wider than it (3), and the local grey the dip is measured
    # against spans the black-hat's whole reach, its dilation's and its erosion's radii either
    # way (5; the constant LOCAL_GREY, 5, set by hand, until 30 November, w57a)
    line_px = max(1, round(LINE_CELLS * sp))
    hat = line_px + 1 + line_px % 2
    grey_side = 2 * (hat // 2 + hat // 2) + 1
    dip = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, np.ones((hat, hat), np.uint8))
    # a dip is measured against the local grey, floored where there is no usable light
    lines = dip > cfg.line_dip * np.maximum(cv2.blur(gray, (grey_side, grey_side)), DARKEST)
    mask = seen & ~background & ~neutral & ~lines & (feats[..., 2] > cfg.min_pixel_light)
    opened = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones((FILTER, FILTER), np.uint8))
    return np.asarray(opened, np.uint8)


def _reaching_in(
    base: npt.NDArray[np.bool_],
    kind: npt.NDArray[np.intp],
    seen: npt.NDArray[np.bool_],
    in_grid: npt.NDArray[np.bool_],
    yy: npt.NDArray[np.float64],
    xx: npt.NDArray[np.float64],
    origin: tuple[float, float],
    sp: float,
    board: BoardSpec,
    classes: int,
    cfg: ClassifyConfig,
) -> npt.NDArray[np.bool_]:
    """The blobs of ``base`` that reach into the grid from the sheet around it (or from the
    photo's edge), made of the colours the occluder shows where it comes in (a hand: skin, which
    may be a token's colour, and colours that fit no class): only they are followed into the
    grid, so a token of another colour touching the hand is not taken for it. Colours that fit no
    class are followed whenever the band holds that least area of them, whatever their share
    of it (``cfg.reach_colour``)."""
    y0, x0 = origin
    gy1, gx1 = y0 + board.rows * sp, x0 + board.cols * sp

    def grown(by: float) -> npt.NDArray[np.bool_]:
        b = by * sp
        out: npt.NDArray[np.bool_] = (yy >= y0 - b) & (yy < gy1 + b) & (xx >= x0 - b) & (xx < gx1 + b)
        return out

    near = grown(cfg.reach_band[1]) & ~grown(cfg.reach_band[0])
    # the markers' L-shaped guides run out from each corner of the grid along its edge lines:
    # within the band they lie in the square of the band's own reach around the corner
    corner = cfg.reach_band[1]
    for cy in (y0, gy1):
        for cx in (x0, gx1):
            near &= (np.abs(yy - cy) > corner * sp) | (np.abs(xx - cx) > corner * sp)
    # a blob reaching in from the photo's edge may stop short of it by its own blurred edge
    edge = cv2.dilate((~seen).astype(np.uint8), np.ones((BLOB_EDGE, BLOB_EDGE), np.uint8)) > 0
    entry = (near | (edge & in_grid)) & base
    # a hand crosses the band at least a finger wide: the band's depth times the width under which a
    # part of it is not the hand (occluder_thin); the setting reach_area, 0.15 cell², until w57a
    area = (cfg.reach_band[1] - cfg.reach_band[0]) * cfg.occluder_thin * sp * sp
    hand = np.zeros(base.shape, bool)
    shown = np.bincount(kind[entry], minlength=classes + 1)
    if shown.sum() >= area:
        own = shown >= cfg.reach_colour * shown.sum()
        # colours that fit no class, on the sheet, in a mass an occluder's entry needs on its own:
        # no piece and no sheet is made of them, however much of the sheet the colour test keeps
        # (a warm lamp and a white balance off may move the whole sheet past the bare board's
        # drift, where it fits the plain and swamps the band)
        own[classes] |= shown[classes] >= area
        count, labels = cv2.connectedComponents((base & own[kind]).astype(np.uint8), connectivity=CONNECTIVITY)
        outside_hits = np.bincount(labels[(near | (edge & in_grid)) & (labels > 0)], minlength=count)
        inside_hits = np.bincount(labels[in_grid & (labels > 0)], minlength=count)
        keep = (outside_hits >= area) & (inside_hits >= area)
        keep[0] = False
        hand |= keep[labels]
    return hand


def _lying_on(
    base: npt.NDArray[np.bool_],
    kind: npt.NDArray[np.intp],
    in_grid: npt.NDArray[np.bool_],
    sides: int,
    classes: int,
    sp: float,
    cfg: ClassifyConfig,
) -> npt.NDArray[np.bool_]:
    """Returns the blobs of one colour (a terrain's, or none) lying within the grid, larger
    than ``cfg.adapt_max_blob`` cells² (as for the patches left out when the colours adapt: no
    piece is that large) and solid, filling its outline without a hole: a hand or a cup put
    down on the board. Tokens fill at most their cell: several of one colour side by side may join
    where a line between them is faint (the printed lines, dark, are left out of ``base``), but
    their printed art leaves holes in the blob. (Whether the blob covered the grid lines it
    crosses was asked too until 29 November: nothing read on the dev photos and no test
    depended on it. The share of its outline it must fill was a setting too, lying_solid, 0.97,
    until 29 November, night: at 1, nothing read on the dev photos changed and no test failed.)"""
    out = np.zeros(base.shape, bool)
    need = cfg.adapt_max_blob * sp * sp
    for k in [*range(sides, classes), classes]:
        mine = base & (kind == k) & in_grid
        if mine.sum() < need:
            continue
        count, labels = cv2.connectedComponents(mine.astype(np.uint8), connectivity=CONNECTIVITY)
        sizes = np.bincount(labels.ravel(), minlength=count)
        big = sizes >= need
        big[0] = False
        for j in np.nonzero(big)[0]:
            # solid: printed art (a forest's dots, a hill's outline) leaves holes in tokens
            blob = (labels == j).astype(np.uint8)
            outline, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            filled = np.zeros_like(blob)
            cv2.drawContours(filled, outline, -1, 1, -1)
            if sizes[j] >= int(filled.sum()) and not _cell_shaped(blob.astype(bool), in_grid, sp):
                out |= blob.astype(bool)
    return out


def _cell_shaped(blob: npt.NDArray[np.bool_], in_grid: npt.NDArray[np.bool_], sp: float) -> bool:
    """Whether a blob is made of tokens side by side rather than lying across cells as a hand
    does: a token never fills its cell (0.95 cell wide at most), a hand fills the cells under it,
    so fewer than three cells filled whole make tokens. (How many cells it covers
    partly, as a hand's edge does, was counted too until 29 November: nothing read on the dev
    photos and no test depended on it.)"""
    ys, xs = np.nonzero(in_grid)
    if not len(ys):
        return False
    rows = ((np.arange(blob.shape[0]) - ys.min() + 0.5) // sp).astype(int)
    cols = ((np.arange(blob.shape[1]) - xs.min() + 0.5) // sp).astype(int)
    inside = in_grid & blob
    r, c = np.nonzero(inside)
    key = rows[r] * 10_000 + cols[c]
    _, counts = np.unique(key, return_counts=True)
    full = counts >= sp * sp  # a token never fills its cell; a hand does
    return bool(full.sum() < 3)


def refine_occluder(
    image: npt.NDArray[np.uint8],
    found: Occluder,
    pad_px: int,
    ppc: int,
    white: npt.NDArray[np.float64],
    board: BoardSpec,
    model: PixelModel,
    cfg: ClassifyConfig,
) -> Occluder:
    """Returns the occluder with its pixels over the grid area judged at the warp's full
    resolution (``model``: the piece colours, best adapted without the occluder's pixels).

    The blob found on the shrunk warp is wide at its edge (its colour is judged over a quarter
    cell there) and may take in a neighbouring token of a colour near its own; near that edge
    (two shrunk pixels either side: the radii of the mean and the opening that made the blob)
    each pixel, its colour taken over 3 × 3 pixels, is covered when it is nearer the occluder's
    own colour than every piece colour (in units of each one's spread), or lies on the line from
    a piece colour to the occluder's past ``cfg.occluder_alpha`` of the way (the soft edge,
    blurred). A cell only touched by the hand is then read from the rest of it."""
    if found.blob is None or found.core is None:
        return found
    step = cfg.occluder_step
    rows, cols = board.rows, board.cols
    h_grid, w_grid = rows * ppc, cols * ppc
    names = class_names(board)
    means, sds = model.arrays(names)
    centre = np.array(found.colour[:2])
    spread = found.colour[2]
    wide = cv2.dilate(found.blob.astype(np.uint8), np.ones((BLOB_EDGE, BLOB_EDGE), np.uint8)) > 0
    out = np.zeros((h_grid, w_grid), bool)
    gb = _on_grid(wide, pad_px, step, (h_grid, w_grid))
    if not gb.any():
        return found
    ys, xs = np.nonzero(gb)
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    patch = image[pad_px + y0 : pad_px + y1, pad_px + x0 : pad_px + x1]
    f = chroma(cv2.blur(patch, (3, 3)).astype(np.float32), white)[..., :2].reshape(-1, 2)
    own, rivals, gap = _own_colour(f, centre, spread, means, sds, cfg)
    # a piece colour too close to the occluder's to tell one pixel from the other (a hill token
    # beside a hand of nearly its colour) may still differ from it over a small window: the
    # mean colour of many pixels has far less noise than one. Where the window's mean lies
    # nearer that piece colour than the occluder's, the pixel is the piece's, not covered
    close = np.nonzero(~rivals & (gap >= cfg.occluder_local_gap))[0]
    near_cls, d_near = _assign(f, means, sds)
    on_counter = (near_cls < len(board.sides)) & (d_near < cfg.pixel_sigma)
    piece = None
    if len(close) and own.any():
        piece = _window_piece(patch, f, close, on_counter, centre, means, white, ppc, cfg)
    blend = _soft_edge(f, rivals, centre, means, sds, cfg).reshape(y1 - y0, x1 - x0)
    own_px = own.reshape(y1 - y0, x1 - x0)
    # a blend lies at the occluder's soft edge (not around a counter or a token further on)
    reach = 2 * max(1, round(cfg.occluder_fringe * ppc)) + 1
    edge = cv2.dilate(own_px.astype(np.uint8), np.ones((reach, reach), np.uint8)) > 0
    keep = own_px | (blend & edge)
    if cfg.occluder_thin > 0:
        keep &= ~_thin_rings(keep, on_counter.reshape(keep.shape), (y0, x0), (h_grid, w_grid), ppc, board, cfg)
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
    whole = _token_cells(grid, out, share, white, means, sds, centre, board, cfg)
    if whole.any():
        # given back like the pixels above: believed only where the cell's edges show
        strict_mask = out.copy() if strict_mask is None else strict_mask
        out &= ~np.kron(whole.reshape(rows, cols), np.ones((ppc, ppc), bool))
        share = _cell_share(out, board)
    strict = None if strict_mask is None else _cell_share(strict_mask, board)
    return Occluder(share, out, found.blob, found.core, found.colour, strict, strict_mask)


def _own_colour(
    f: npt.NDArray[np.float32],
    centre: npt.NDArray[np.float64],
    spread: float,
    means: npt.NDArray[np.float64],
    sds: npt.NDArray[np.float64],
    cfg: ClassifyConfig,
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
    """Per pixel, whether its colour is the occluder's own (nearer it than every rival class, in
    units of each one's spread); which classes are rivals; each class's gap to the occluder's
    colour in combined spreads. A class the occluder's own colour lies on (a token of skin
    colour, or a class the photo's adaptation pulled onto the hand) cannot tell the two apart:
    it does not compete."""
    gap = np.hypot(means[:, 0] - centre[0], means[:, 1] - centre[1]) / np.hypot(sds, spread)
    rivals = gap > cfg.occluder_rival
    d_own = np.hypot(f[:, 0] - np.float32(centre[0]), f[:, 1] - np.float32(centre[1])) / np.float32(spread)
    if rivals.any():
        _best, d_cls = _assign(f, means[rivals], sds[rivals])
    else:
        d_cls = np.full(len(f), np.inf, np.float32)
    own = (d_own <= d_cls) & (d_own < cfg.pixel_sigma)
    return np.asarray(own, bool), np.asarray(rivals, bool), np.asarray(gap, np.float64)


def _window_piece(
    patch: npt.NDArray[np.uint8],
    f: npt.NDArray[np.float32],
    close: npt.NDArray[np.intp],
    on_counter: npt.NDArray[np.bool_],
    centre: npt.NDArray[np.float64],
    means: npt.NDArray[np.float64],
    white: npt.NDArray[np.float64],
    ppc: int,
    cfg: ClassifyConfig,
) -> npt.NDArray[np.bool_]:
    """A piece colour too close to the occluder's to tell one pixel from the other (a hill token
    beside a hand of nearly its colour) may still differ from it over a small window: the mean
    colour of many pixels has far less noise than one. Returns, per pixel, whether the window's
    mean lies nearer one of those piece colours (``close``) than the occluder's: the piece's.

    The window is as wide as the band a token shows around a counter (``colours.BAND_TO``: the
    smallest token around the smallest counter, 0.125 cell, 7 pixels on the 48-pixel warp), where
    such a piece colour shows beside a counter; it was the setting occluder_window, 0.15 (also 7
    pixels), until 30 November (w57a)."""
    win = max(3, round(BAND_TO * ppc) | 1)
    # the window's mean leaves out a counter's pixels (and dark ink, rims): a hill token's
    # band around a counter, blended with it, would drift toward the occluder's colour
    weight = ~on_counter
    weight &= chroma(patch.astype(np.float32), white)[..., 2].reshape(-1) > cfg.min_pixel_light
    wmap = weight.reshape(patch.shape[:2]).astype(np.float32)
    summed = cv2.blur(patch.astype(np.float32) * wmap[..., None], (win, win))
    mean_bgr = summed / np.maximum(cv2.blur(wmap, (win, win)), 1e-3)[..., None]
    f_win = chroma(mean_bgr.astype(np.float32), white)[..., :2].reshape(-1, 2)
    d_occ = np.hypot(f_win[:, 0] - np.float32(centre[0]), f_win[:, 1] - np.float32(centre[1]))
    piece = np.zeros(len(f), bool)
    for k in close:
        d_k = np.hypot(f_win[:, 0] - np.float32(means[k][0]), f_win[:, 1] - np.float32(means[k][1]))
        piece |= d_k < d_occ
    return piece


def _soft_edge(
    f: npt.NDArray[np.float32],
    rivals: npt.NDArray[np.bool_],
    centre: npt.NDArray[np.float64],
    means: npt.NDArray[np.float64],
    sds: npt.NDArray[np.float64],
    cfg: ClassifyConfig,
) -> npt.NDArray[np.bool_]:
    """The soft edge: a blend of the occluder with what lies under it (the photo's blur, the
    hand's own soft outline) lies on the line from a class's colour to the occluder's; past
    ``cfg.occluder_alpha`` of the way it counts as covered. (Until 30 November the share was
    scaled down where the two colours lay closer than blend_sd, 8, of the class's spreads, a
    pale hand on a pale board; w56c removed it: without it no dev photo, occlusion-set photo or
    game position is read otherwise, no cell newly wrong, and the described scenes pass.)"""
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
        alpha[closer] = a[closer]
    return np.asarray((best_fit < cfg.pixel_sigma) & (alpha >= cfg.occluder_alpha), bool)


def _thin_rings(
    keep: npt.NDArray[np.bool_],
    on_counter: npt.NDArray[np.bool_],
    at: tuple[int, int],
    grid_size: tuple[int, int],
    ppc: int,
    board: BoardSpec,
    cfg: ClassifyConfig,
) -> npt.NDArray[np.bool_]:
    """The occluder's narrow parts that are not it: rings around counters, and strips along the
    grid's outer edge, within ``EDGE_STRIP`` of it (the board's printed border blended with a
    token)."""
    y0, x0 = at
    h_grid, w_grid = grid_size
    narrow = _narrow_parts(keep, ppc, cfg)
    drop = np.zeros(keep.shape, bool)
    if on_counter.any():
        drop |= _ring_counters(narrow, on_counter, (y0, x0), ppc, board.cols, cfg)
    border = EDGE_STRIP * ppc
    yy, xx = np.arange(y0, y0 + keep.shape[0])[:, None], np.arange(x0, x0 + keep.shape[1])[None, :]
    drop |= narrow & ((yy < border) | (yy >= h_grid - border) | (xx < border) | (xx >= w_grid - border))
    return drop


def _narrow_parts(mask: npt.NDArray[np.bool_], ppc: int, cfg: ClassifyConfig) -> npt.NDArray[np.bool_]:
    """Returns the pixels of an occluder's ``mask`` in its parts narrower than
    ``cfg.occluder_thin`` and farther than ``cfg.occluder_fringe`` (its soft edge) from its
    wider parts (outside the mask's patch counts as uncovered: a strip along the grid's edge is
    narrow too).
    A hand is wide, its fingers too; its own soft edge lies beside its wide parts."""
    thin = max(3, round(cfg.occluder_thin * ppc) | 1)
    wide = cv2.morphologyEx(
        mask.astype(np.uint8),
        cv2.MORPH_OPEN,
        np.ones((thin, thin), np.uint8),
        borderType=cv2.BORDER_CONSTANT,
        borderValue=0,
    )
    fringe = 2 * round(cfg.occluder_fringe * ppc) + 1
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
    ``RING_NEAR`` of its pixels (``counter``), in a cell where they cover
    ``cfg.occluder_thin_ring`` of the band around its counter.

    Around a counter, the blur mixes the token's band with the counter's rim, and that mix can
    have a hand's colour: a ring of it, joined to the hand where the two touch, would cover the
    band the counter's terrain is read on. A hand's edge lies along one side of the counter."""
    near = 2 * max(1, round(RING_NEAR * ppc)) + 1
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
    is not the hand. Joined as every blob of the finder is, 4-connected: a patch touching the
    hand only at a corner is apart (8-connected, a choice of its own, until 30 November, w56c:
    4 changes no dev photo's reading nor a cell newly wrong or hidden on the three sets)."""
    count, labels = cv2.connectedComponents(mask.astype(np.uint8), connectivity=CONNECTIVITY)
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
) -> npt.NDArray[np.bool_]:
    """Returns the cells (row by row) the occluder covers as a whole token would (the smallest
    token's area, ``TOKEN_SIDE`` squared) whose covered pixels, taken together, have a token's
    colour rather than the occluder's: a token of nearly a hand's colour, joined to the hand
    where the blur hides the line between them. One pixel cannot tell the two apart; the mean
    of a cell's pixels has far less noise. Only where the two colours lie
    ``cfg.token_cell_gap`` of the token colour's spreads apart (a hand of just that colour
    cannot be told from it at all). "Nearer" is ``cfg.token_cell_ratio`` of the distance to the
    occluder's colour. (A looser ratio where none of the cell's four printed lines was hidden,
    token_cell_ratio_edges, 0.65, with hidden_line, 0.3, and a stricter one, 0.5, elsewhere,
    until 30 November (w56c): one ratio at the looser value changes no dev reading, and the
    trees still ask the plain cell under a hand of the hills' colour the stricter one was for.)"""
    rows, cols = board.rows, board.cols
    ppc = grid.shape[0] // rows
    sides = len(board.sides)
    out = np.zeros(rows * cols, bool)
    # a whole token joined to the occluder puts at least its own area under it (0.8, the
    # setting token_cell_cover, before 29 November)
    for i in np.nonzero(share >= TOKEN_SIDE * TOKEN_SIDE)[0]:
        r, c = divmod(int(i), cols)
        sl = (slice(r * ppc, (r + 1) * ppc), slice(c * ppc, (c + 1) * ppc))
        f = chroma(grid[sl].astype(np.float32), white)
        px = f[mask[sl] & (f[..., 2] > cfg.min_pixel_light)][:, :2]
        if len(px) < cfg.adapt_min_pixels:
            continue
        mu = px.mean(axis=0)
        d_occ = float(np.hypot(*(mu - centre)))
        d_tok = np.hypot(*(means[sides + 1 :] - mu).T)
        k = int(np.argmin(d_tok))
        sd = sds[sides + 1 + k]
        apart = float(np.hypot(*(means[sides + 1 + k] - centre))) >= cfg.token_cell_gap * sd
        out[i] = apart and d_tok[k] < cfg.token_cell_ratio * d_occ
    return out
