"""Stage 2, *normalise*: the top-down board as log colours, and the colour its bare board has at
every point (the *field*), so that each cell can be read relative to it.

Light multiplies a pixel's channels; in log values (:mod:`vision.colours`) a shadow, a lamp's
fall-off, vignetting or a white-balance error add the same vector to every material at a point.
The field is that vector for the bare board: where the board is bare, it is the pixels' own
colour; under a token or a counter, it is what the bare board around it shows *under the same
light*. Its steps:

1. **The printed grid lines** (:mod:`vision.printed_lines`): the board is resampled at ``Q``
   pixels per cell so its lines lie where the grid says, the lines are painted over, and what is
   seen of each is measured.
2. **Hard-edged shadows** (:mod:`vision.shadows`): straight edges across which every material
   steps alike split the board into regions.
3. **The bare board's colour** (:func:`board_field`): a smooth field plus one offset per region.
   A rough field first (:func:`_cell_levels`: each cell's brightest pixels, the bare board being
   the lightest material; cells whose hue strays from their region's left out; the median over
   each cell and its neighbours), then three times: the pixels nearer the bare board than any
   other material give the smooth field (normalised convolution, filled from wider blurs where a
   token leaves no board near) and each region's offset. Cells whose printed lines are hidden (a
   hand) give nothing.

Pixels washed out to white (a glare) are not read.

Everything is read-only once made (:class:`Normalised`); the next stage,
:mod:`vision.evidence`, reads each cell relative to ``field``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.board import BoardSpec
from vision.colours import ColourModel, to_log
from vision.grid_overlay import Warped
from vision.printed_lines import (
    MARGIN,
    Q,
    cell_geometry,
    cells_image,
    cut_cells,
    inside_grid,
    line_half,
    lines_seen,
    on_lines,
    resample,
    without_lines,
)
from vision.shadows import ShadowEdge, regions, shadow_edges

__all__ = ["MARGIN", "Normalised", "Q", "ShadowEdge", "cell_geometry", "cut_cells", "normalise", "regions"]

F32 = npt.NDArray[np.float32]
BOOL = npt.NDArray[np.bool_]

SATURATED = 250
"""A pixel whose three channels (0-255) all reach this is washed out to white (JPEG rounding keeps
a clipped channel a few levels below 255; a light board clips one channel, not all three)."""
CELL_HUE = 0.12
"""A cell's rough board level whose hue (log colour less its mean) strays more than this (log
units, per channel) from its region's commonest is not the board's (the tokens' and counters'
differ from the board's by 0.3 and more; a lamp's fall-off moves a board's hue by a few
hundredths)."""
FIELD_STEP = 2
"""The field is estimated on the board shrunk this many times (12 pixels per cell): it is smooth
within a shadow region, and its finest blur is half a cell."""
COVERED_LINES = 0.25
"""A cell of whose four printed lines less than this share is seen is taken as covered (a hand
or a sleeve): its pixels do not count for the bare board's field, so something of the board's
colour lying over cells is not taken for the board in another light."""


@dataclass(frozen=True)
class Normalised:
    """The board as the next stages read it; every array is read-only."""

    log: F32
    """(n, n, 3) log colours of the grid and ``MARGIN`` around it, ``Q`` pixels per cell, grid
    lines where the grid says (after :func:`resample`)."""
    field: F32
    """(n, n, 3) the bare board's log colour at each pixel."""
    usable: BOOL
    """(n, n) pixels to read: inside the photo, off the printed lines and shadow edges, and not
    washed out to white (a glare: their colour is lost; whatever lies under it, they say nothing)."""
    lines: npt.NDArray[np.float64]
    """(cells, 4) the share of each cell's top, bottom, left and right printed line seen
    (:func:`lines_seen`)."""
    edges: tuple[ShadowEdge, ...]
    covered: npt.NDArray[np.float64]
    """(cells,) share of each cell inside the photo."""
    saturated: npt.NDArray[np.float64]
    """(cells,) share of each cell's pixels washed out to white, every channel at the top of the
    photo's range (a glare: their colours are lost)."""
    shift: float
    """The largest displacement :func:`resample` applied inside the grid, in cells."""
    rows: int
    cols: int

    def cells(self, image: npt.NDArray[np.generic]) -> npt.NDArray[np.generic]:
        """Returns an (n, n, ...) image of this board cut into cells: (cells, Q, Q, ...)."""
        return cut_cells(image, self.rows, self.cols)


def normalise(warped: Warped, board: BoardSpec, colours: ColourModel, edge_share: float, field_sd: float) -> Normalised:
    """Returns the normalised board of a warped photo.

    Args:
        warped: the top-down board (:func:`vision.grid_overlay.warp_board`).
        board: its geometry.
        colours: the set's materials (to tell bare board from pieces).
        edge_share: a straight edge is a shadow's when at least this share of its samples agree.
        field_sd: spread of the field's own error (log units), added to the board's.
    """
    image, inside, shift = resample(warped, board)
    log = to_log(image)
    half = line_half(log, board)
    clean = without_lines(log, board, half)
    lines = lines_seen(log, board, half)
    edges = shadow_edges(clean, board, edge_share)
    region, near_edge = regions(edges, log.shape[0])
    washed = (image >= SATURATED).all(axis=2)
    covered = cells_image(lines.mean(axis=1) < COVERED_LINES, board, log.shape[0])
    field = board_field(clean, board, colours, region, near_edge | on_lines(board, log.shape[0], half) | covered,
                        field_sd)
    usable = inside & ~on_lines(board, log.shape[0], half) & ~near_edge & ~washed
    glare = cut_cells(washed & inside, board.rows, board.cols).mean(axis=(1, 2))
    share = cut_cells(inside, board.rows, board.cols).mean(axis=(1, 2)).astype(np.float64)
    for a in (log, field, usable, lines, share, glare):
        a.setflags(write=False)
    return Normalised(log=log, field=field, usable=usable, lines=lines, edges=edges, covered=share, shift=shift,
                      saturated=glare.astype(np.float64), rows=board.rows, cols=board.cols)


# ---------------------------------------------------------------------------------------------
# 3. the bare board's colour


def board_field(clean: F32, board: BoardSpec, colours: ColourModel, region: npt.NDArray[np.int32], skip: BOOL,
                field_sd: float, rounds: int = 3) -> F32:
    """Returns the bare board's log colour at every pixel (see the module's step 3): a smooth
    field plus one constant offset per shadow region (a shadow divides the light by one ratio),
    on the board shrunk ``FIELD_STEP`` times. The bare board is first the pixels nearer it than
    any other material relative to a rough field (:func:`_cell_levels`, in each region), and
    the offsets those of :func:`_region_levels`; then each round the board's pixels give the
    smooth field (their colours less their region's offset) and each region's offset (their
    median difference from it), and the bare board is found again relative to them."""
    n = clean.shape[0]
    half: F32 = np.asarray(cv2.resize(clean, None, fx=1 / FIELD_STEP, fy=1 / FIELD_STEP,
                                      interpolation=cv2.INTER_AREA), np.float32)
    sub = slice(FIELD_STEP // 2, None, FIELD_STEP)
    reg_half = region[sub, sub][: half.shape[0], : half.shape[1]]
    # a pixel of the smaller board is usable when most of the pixels it stands for are
    keep = cv2.resize((~skip).astype(np.float32), half.shape[1::-1], interpolation=cv2.INTER_AREA) > 0.5
    grid = keep & inside_grid(board, n)[sub, sub][: half.shape[0], : half.shape[1]]
    # the printed border around the grid counts once its colour says it is the board's (a white
    # sheet is not)
    offline = grid | ~inside_grid(board, n)[sub, sub][: half.shape[0], : half.shape[1]]
    ids = [int(k) for k in np.unique(region)]
    offsets = _region_levels(half, reg_half, grid, ids)
    names = list(colours.materials)
    means, covs = colours.stacked(names)
    whiten = [np.linalg.inv(np.linalg.cholesky(c + np.eye(3) * field_sd**2)).astype(np.float32) for c in covs]
    means32 = means.astype(np.float32)
    rough = np.zeros_like(half)
    for k in ids:
        mine = reg_half == k
        rough[mine] = _cell_levels(half, grid & mine, board)[mine]
    board_px = _nearest_board(half - rough, means32, whiten) & offline
    flat = half - _offset_map(offsets, reg_half)
    smooth = flat
    for _ in range(rounds):
        smooth = _fill(flat, board_px)
        r = half - smooth - _offset_map(offsets, reg_half)
        board_px = _nearest_board(r, means32, whiten) & offline
        if len(ids) > 1:
            for k in ids:  # each region's own offset, where it shows enough bare board
                mine = board_px & (reg_half == k)
                if mine.sum() > (Q / FIELD_STEP) ** 2 / 2:
                    offsets[k] = np.median((half - smooth)[mine], axis=0).astype(np.float32)
        flat = half - _offset_map(offsets, reg_half)
    big: F32 = cv2.resize(smooth, (n, n), interpolation=cv2.INTER_LINEAR) + _offset_map(offsets, region)
    return big


def _nearest_board(r: F32, means: F32, whiten: list[F32]) -> BOOL:
    """Pixels (colours ``r`` relative to the field) within 4 spreads of the bare board and nearer
    it than any other material (Mahalanobis distances; the board is the first material)."""
    board = (((r - means[0]) @ whiten[0].T) ** 2).sum(axis=-1)
    near = board < 16
    x = r[near]
    best = board[near]
    for k in range(1, len(means)):
        best = np.minimum(best, (((x - means[k]) @ whiten[k].T) ** 2).sum(axis=-1))
    out = np.zeros(near.shape, bool)
    out[near] = best >= board[near]
    return out


def _region_levels(half: F32, region: npt.NDArray[np.int32], usable: BOOL,
                   ids: list[int]) -> dict[int, npt.NDArray[np.float32]]:
    """Each shadow region's first offset from the largest region: the difference of the median
    colours of their pixels between the 60th and 95th percentile of brightness (the bare board is
    the lightest material and most of a board is bare; the brightest few are a glare or a
    counter's label). A shadow's depth changes along its edge (a lamp's fall-off, a glare), so
    its level is read over the region, not on the edge."""
    levels: dict[int, npt.NDArray[np.float32]] = {}
    bright = half.mean(axis=2)
    for k in ids:
        mine = (region == k) & usable
        if mine.sum() < 4:
            continue
        low, high = np.quantile(bright[mine], [0.6, 0.95])
        levels[k] = np.median(half[mine & (bright >= low) & (bright <= high)], axis=0).astype(np.float32)
    if not levels:
        return {k: np.zeros(3, np.float32) for k in ids}
    main = max(levels, key=lambda k: int(((region == k) & usable).sum()))
    return {k: (levels[k] - levels[main]) if k in levels else np.zeros(3, np.float32) for k in ids}


def _offset_map(offsets: dict[int, npt.NDArray[np.float32]], region: npt.NDArray[np.int32]) -> F32:
    """(h, w, 3) each pixel's region offset."""
    if len(offsets) == 1:
        return np.broadcast_to(next(iter(offsets.values())), (*region.shape, 3)).astype(np.float32)
    keys = sorted(offsets)
    table = np.stack([offsets[k] for k in keys]).astype(np.float32)
    out: F32 = table[np.searchsorted(keys, region)]
    return out


def _blur(img: F32, sigma: float) -> F32:
    """Gaussian blur; wide ones on a smaller copy (a wide blur keeps no detail to lose)."""
    k = int(sigma // 3)
    if k < 2:
        out: F32 = np.asarray(cv2.GaussianBlur(img, (0, 0), sigma), np.float32)
        return out
    h, w = img.shape[:2]
    small = cv2.resize(img, (max(1, w // k), max(1, h // k)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / k)
    big: F32 = np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)
    return big


def _cell_levels(half: F32, usable: BOOL, board: BoardSpec) -> F32:
    """A rough field: in each cell, the median colour of its usable pixels at least as bright as
    their 70th percentile (the bare board is the set's lightest material; a token leaves a margin
    of it), then the median of each cell's and its eight neighbours' (a cluster of tokens takes
    its neighbours'), bilinear between cell centres."""
    side = Q // FIELD_STEP
    off = round(MARGIN * side)
    cells = half[off : off + board.rows * side, off : off + board.cols * side]
    use = usable[off : off + board.rows * side, off : off + board.cols * side]
    px = cells.reshape(board.rows, side, board.cols, side, 3).swapaxes(1, 2).reshape(board.rows, board.cols, -1, 3)
    ok = use.reshape(board.rows, side, board.cols, side).swapaxes(1, 2).reshape(board.rows, board.cols, -1)
    enough = ok.sum(axis=-1) >= side * side // 8
    level = np.full((board.rows, board.cols, 3), np.nan, np.float32)
    bright = np.where(ok, px.mean(axis=-1), -np.inf)
    order = np.argsort(-bright, axis=-1)  # brightest first
    counts = ok.sum(axis=-1)
    for r, c in zip(*np.nonzero(enough), strict=True):
        top = order[r, c, : max(1, int(0.3 * counts[r, c]))]
        level[r, c] = np.median(px[r, c, top], axis=0)
    if np.isnan(level).all():
        fallback = np.median(half[usable], axis=0) if usable.any() else np.zeros(3)
        return np.broadcast_to(fallback, half.shape).astype(np.float32)
    # a cell a token or counter fills shows their colour, not the board's: light changes a
    # level's brightness across a region, much less its hue, so cells whose hue strays from the
    # region's commonest are left out (a cluster of tokens is then not taken for the board)
    hue = level - level.mean(axis=-1, keepdims=True)
    common = np.nanmedian(hue.reshape(-1, 3), axis=0)
    level[np.abs(hue - common).max(axis=-1) > CELL_HUE] = np.nan
    pad = np.pad(level, ((1, 1), (1, 1), (0, 0)), constant_values=np.nan)
    stack = np.stack([pad[i : i + board.rows, j : j + board.cols] for i in range(3) for j in range(3)])
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        smooth = np.nanmedian(stack, axis=0)
        smooth = np.where(np.isnan(smooth), np.nanmedian(level.reshape(-1, 3), axis=0), smooth).astype(np.float32)
    grid = cv2.resize(smooth, (board.cols * side, board.rows * side), interpolation=cv2.INTER_LINEAR)
    out: F32 = np.asarray(cv2.copyMakeBorder(grid, off, half.shape[0] - off - grid.shape[0], off,
                                             half.shape[1] - off - grid.shape[1], cv2.BORDER_REPLICATE), np.float32)
    return out


def _fill(half: F32, board_px: BOOL) -> F32:
    """Normalised convolution of the board pixels (half a cell; where too few are near, one cell,
    then three)."""
    w = board_px.astype(np.float32)
    est = np.zeros_like(half)
    trust = np.zeros(w.shape, np.float32)
    for sigma in (0.5 * Q / FIELD_STEP, Q / FIELD_STEP, 3 * Q / FIELD_STEP):
        den = _blur(w, sigma)
        value = _blur(half * w[..., None], sigma) / np.maximum(den, 1e-6)[..., None]
        est = (trust[..., None] * est + (1 - trust[..., None]) * value).astype(np.float32)  # finer kept where trusted
        trust = np.maximum(trust, np.clip(den / 0.15, 0, 1))
    out: F32 = est.astype(np.float32)
    return out
