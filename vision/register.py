"""Finding the board in a photo: a homography from image pixels to board cells.

First choice: the printed ArUco corner markers (any 3 or 4 of them; 4 preferred), detected with
``cv2.aruco.ArucoDetector`` on a shrunk copy (a marker missed there is looked for again where
the others put it, in a sharpened, enlarged crop), refined to sub-pixel accuracy on the working
image, and fitted by least squares over all their corners. Fallback: the board's outline (the
largest bright quadrilateral), oriented by its printed coordinates (their marks in the top and
left margins). Refusals name their reason: too dark, too blurry, too small, or no board.

Frames: ``img_pts`` are pixels of the working image (x right, y down); ``board_pts`` are (u, v)
in cells (u along the numbers, v along the letters; the grid spans (0, 0)–(cols, rows)).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from referee.i18n import _
from referee.markers import MarkerLayout
from vision import outline
from vision.board import BoardSpec
from vision.config import RegisterConfig
from vision.debug import DebugSink
from vision.errors import BoardNotFoundError, VisionError
from vision.markers import MIN_MARKER_PX, TAB_MARGIN, dictionary, smallest_cell_px

Homography = npt.NDArray[np.float64]
MODULE_PX = 8
"""Pixels per marker module at which the sharpened search reads a marker's bits (the detector's
``perspectiveRemovePixelPerCell``): its crop is enlarged so a marker spans this many pixels per
module, and its threshold windows grow by one module at a time up to the marker's side
(provisional, set by hand)."""
PLACE_TOLERANCE = 0.06
"""How precisely a registration places a point of the board, in cells: the largest mean error of
the marker corners' fit, the grid refit's outlier distance and its largest drift from the
markers (``vision.grid_overlay.refine``), and how far from its expected place a cell's printed
edge is looked for (``vision.grid_overlay.edge_evidence``) (provisional, set by hand)."""
REACH = 1.5
"""How far a registration from two or three markers (or the outline) may misplace a point of the
board, in cells: a missing marker is looked for this far around where the others put it (twice
as far from two markers, which extrapolate worst), the grid refit may move a grid corner this
far (``vision.grid_overlay.refine``), and an outline must put the markers seen within this of
their places (set by hand on the described scenes of small blurred markers,
``tests/vision/test_register_real.py``)."""
DARKEST = 20.0
"""A grey level (0-255) below which there is no usable light: a photo whose mean grey is below it
is refused as too dark, and a white reference, the grey around a cell's edge and the local grey
a printed line's dip is measured against in the occluder search (``vision.occluders``) are
floored at it before dividing by it (a black patch is not paper) (provisional, set by hand; on
the project renderer's dim ladder of ``bench/registration_set.py`` every photo of mean grey 21
or more was read without a cell confidently wrong and one of mean 12 was not, so the refusal
keeps a margin above it, and the per-cell floors would move with it; the second renderer exposes
automatically, its dim photos stay above mean grey 33). It is the one darkness refusal: a
refusal on the photo's 99th-percentile grey (``registration.dark_p99``, 80) refused dim photos
that ladder reads right (99th percentile 49-68) and small boards on a dark table, never one the
mean lets through that is read wrong."""


@dataclass(frozen=True)
class Registration:
    """Where the board is: the image→board homography and how it was found."""

    to_board: Homography
    """3×3, working-image pixels → board (u, v) in cells."""
    method: str
    """``markers`` (3 or 4), ``two-markers`` (the grid lines must confirm it), ``outline``."""
    markers: tuple[int, ...]
    error: float
    """Mean reprojection error of the points fitted, in cells (0 for the outline)."""
    cell_px: float
    """Mean side of a board cell in the working image, in pixels."""
    anchors: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None = None
    """The marker corners fitted: (img_pts, board_pts), each (n, 2); None for the outline."""

    @property
    def to_image(self) -> Homography:
        """Board (u, v) → working-image pixels."""
        inv: Homography = np.asarray(np.linalg.inv(self.to_board), np.float64)
        return inv


def register(image: npt.NDArray[np.uint8], board: BoardSpec, cfg: RegisterConfig, debug: DebugSink) -> Registration:
    """Returns the board's registration in a BGR photo.

    Raises:
        VisionError: the photo is too dark or too blurred (``edge_blur``), or the board too
            small in it.
        BoardNotFoundError: neither markers nor an outline locate the board.
    """
    gray = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
    mean = float(gray.mean())
    if mean < DARKEST:
        raise VisionError(
            _(
                "the photo is too dark to read (mean grey {mean} of 255, at least {least}); add "
                "light or use the flash"
            ).format(mean=f"{mean:.0f}", least=f"{DARKEST:.0f}")
        )
    blur = edge_blur(gray, cfg.max_blur_px)
    if blur > cfg.max_blur_px:
        raise VisionError(
            _("the photo is too blurred to read the board (its sharpest edges are blurred over "
              "{px} px, at most {limit}); hold still and focus on the board").format(
                px=f"{blur:.1f}", limit=f"{cfg.max_blur_px:.1f}")
        )
    found = find_markers(gray, board, cfg)
    if debug.enabled:
        debug.stage("markers", _draw_markers(image, found))
    reg = _from_markers(found, board)
    if reg is None and len(found) >= 2:
        # two markers (or three that disagree: the two largest, the most precise) give a
        # provisional registration the grid lines must confirm
        pair = sorted(found, key=lambda i: -_side(found[i]))[:2]
        reg = _from_two_markers({i: found[i] for i in pair}, board)
    if reg is None:
        reg = _from_outline(gray, board, cfg)
        if reg is not None and found and not _agrees(reg, found, board):
            reg = None  # the quadrilateral found is not the board the markers frame
    if reg is None:
        seen = ", ".join(str(i) for i in sorted(found)) or _("none")
        raise BoardNotFoundError(
            _("fewer than {n} corner markers in view (found: {seen}) and no board "
              "outline; frame the whole board with its four markers").format(n=fewest_markers(board.markers), seen=seen)
        )
    if reg.cell_px < smallest_cell_px(board.markers):
        raise VisionError(
            _("the board is too small in the photo ({px} px per cell, need "
              "{need}); move closer or use a larger photo").format(px=f"{reg.cell_px:.0f}",
                                                                   need=f"{smallest_cell_px(board.markers):.0f}")
        )
    return reg


def edge_blur(gray: npt.NDArray[np.uint8], limit: float) -> float:
    """Returns the blur of the photo's sharpest edges: the Gaussian σ, in photo pixels, that
    spreads them (about 1 for a crisp photo: the measure's own floor).

    A step edge blurred by σ and smoothed again by s has its steepest gradient in proportion to
    1/√(σ² + s²), whatever its contrast; so the ratio R of the gradients at s = 1 and s = c (on
    a copy shrunk by a whole factor to at most 1000 px) gives σ² = (c² − R²)/(R² − 1), taken at
    the median over the strongest ``_EDGE_SHARE`` of edges. The coarse scale c is ``limit``, the
    largest blur the caller accepts (``registration.max_blur_px``, 3 px): R tends to 1, and σ
    can no longer be told apart, once σ is well past c, while a wider c merges more neighbouring
    edges; so c is as small as it can be while still measuring σ up to the limit. Noise hardly
    matters (smoothed at s ≥ 1, and the strongest edges of a board photo are far above it).
    Renders: σ ≤ 1.5 px reads under 2; σ 5-9 px over 4.
    """
    h, w = gray.shape
    step = -(-max(h, w) // 1000)  # a whole factor: the fast path of INTER_AREA
    small = cv2.resize(gray, (w // step, h // step), interpolation=cv2.INTER_AREA) if step > 1 else gray

    def gradient(sigma: float) -> npt.NDArray[np.int16]:
        # |∂x| + |∂y| by Sobel's 3 × 3 on the uint8 copy: whole numbers, at most 2 × 4 × 255
        smooth = cv2.GaussianBlur(small, (0, 0), sigma)
        gx = cv2.Sobel(smooth, cv2.CV_16S, 1, 0, ksize=3)
        gy = cv2.Sobel(smooth, cv2.CV_16S, 0, 1, ksize=3)
        out: npt.NDArray[np.int16] = np.abs(gx) + np.abs(gy)
        return out

    fine, coarse = gradient(_S_FINE), gradient(limit)
    # the peak moves a little when smoothed
    coarse = np.asarray(cv2.dilate(coarse, np.ones((3, 3), np.uint8)), np.int16)
    flat = fine.ravel()
    k = max(1, round(flat.size * _EDGE_SHARE))
    strongest = fine >= np.partition(flat, flat.size - k)[flat.size - k]
    peak, around = fine[strongest].astype(np.float32), coarse[strongest].astype(np.float32)
    ratio = float(np.median(peak / np.maximum(around, 1e-3)))
    r2 = ratio * ratio
    if r2 <= 1.0 + 1e-6:
        return float("inf")
    sigma2 = (limit**2 - r2 * _S_FINE**2) / (r2 - 1)
    return float(np.sqrt(max(sigma2, 0.0)) * step)


_S_FINE = 1.0
"""The fine scale of :func:`edge_blur`, in its copy's pixels. Fitted by ``bench/fit_edge_blur.py`` (64 photos of
known blur): least median |log(estimate / σ)|, σ ≥ 1.5 px; 0.7 ties (0.075 vs 0.076), 1.4 is worse."""
_EDGE_SHARE = 0.003
"""The share of :func:`edge_blur`'s copy taken as its sharpest edges (about 1,700 pixels of a
1000 × 562 copy). Fitted as ``_S_FINE``: of 0.001, 0.003 and 0.01, 0.003 at every fine scale."""


def find_markers(
    gray: npt.NDArray[np.uint8], board: BoardSpec, cfg: RegisterConfig
) -> dict[int, npt.NDArray[np.float32]]:
    """Returns marker id → its four corners (TL, TR, BR, BL) in working-image pixels, for the
    markers of the board's layout (one per id: the largest if an id shows twice)."""
    h, w = gray.shape
    scale = min(1.0, cfg.detect_max_side / max(h, w))
    small = (np.asarray(cv2.resize(gray, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA), np.uint8)
             if scale < 1 else gray)
    detector = cv2.aruco.ArucoDetector(dictionary(board.markers), cv2.aruco.DetectorParameters())
    wanted = {p.id for p in board.markers.placements}
    if _candidates(small) > cfg.max_candidates:
        # the detector's time grows faster than its candidates: refuse before the search, not after
        raise BoardNotFoundError(
            _("the photo shows too much fine pattern to look for the corner markers (noise, or a "
              "checked cloth); frame the board with its four markers, in focus")
        )
    best = _detect(detector, small, scale, wanted, None)  # counted just above
    if len(best) < len(wanted) and scale < 1:  # small or skewed markers: look again at full size
        # the default detector's candidates here are at least 0.03 of the photo's side around,
        # so each was 10 px wide or more on the shrunk copy, and counted there
        for mid, pts in _detect(detector, gray, 1.0, wanted, None).items():
            best.setdefault(mid, pts)
    if cfg.search_missing and len(best) < 2:
        # too few to say where the others are: the sharpened search over the whole photo
        _search_whole(gray, best, board, cfg)
    if cfg.search_missing and 2 <= len(best) < len(wanted):
        _search_missing(gray, best, board, cfg)
    if len(best) < len(wanted):
        bled = _detect_bled(detector, gray, wanted - set(best), cfg.max_candidates)
        best.update(bled)
        if bled and cfg.search_missing and 2 <= len(best) < len(wanted):
            _search_missing(gray, best, board, cfg)  # the markers it added place the others
    if cfg.refine_corners:
        fine = _fine_detector(board)
        for mid, quad in list(best.items()):
            best[mid] = _refine_marker(gray, fine, mid, quad, board.markers)
    return best


def _detect(
    detector: cv2.aruco.ArucoDetector,
    image: npt.NDArray[np.uint8],
    scale: float,
    wanted: set[int],
    max_candidates: int | None,
) -> dict[int, npt.NDArray[np.float32]]:
    """Marker id → corners in working-image pixels (an id seen twice: the larger one); nothing
    when the image holds more than ``max_candidates`` marker-sized dark blobs (the search would
    take seconds: each candidate is compared with the others; None: already counted)."""
    if max_candidates is not None and _candidates(image) > max_candidates:
        return {}
    corners, ids, _ = detector.detectMarkers(image)
    best: dict[int, npt.NDArray[np.float32]] = {}
    if ids is None:
        return best
    for quad, ident in zip(corners, ids.ravel(), strict=True):
        mid = int(ident)
        if mid not in wanted:
            continue
        pts = (quad.reshape(4, 2) / scale).astype(np.float32)
        if mid not in best or cv2.arcLength(pts, True) > cv2.arcLength(best[mid], True):
            best[mid] = pts
    return best


def _detect_bled(
    detector: cv2.aruco.ArucoDetector, gray: npt.NDArray[np.uint8], wanted: set[int], max_candidates: int
) -> dict[int, npt.NDArray[np.float32]]:
    """Marker id → corners, found on a copy whose dark parts are thickened by one pixel.

    A bright light bleeds the white quiet zone and white modules into a small marker's black
    border (a module of 3-5 px loses a pixel or more on each side: a lens blurs light, not grey
    levels), which then no longer closes a square and the detector passes over it. A grey
    erosion of one pixel, the least that closes it, lets the same detector read it (no looser
    bit reading: a marker decodes exactly or not at all). The erosion puts back about what the
    light took from the border's outer edge, so the corners are taken as found (shrinking the
    quad back, or a sub-pixel corner search on the photo, made the markers' fit worse on the
    second renderer's dev photos); the markers' fit must still pass ``PLACE_TOLERANCE``.
    """
    thick = np.asarray(cv2.erode(gray, np.ones((3, 3), np.uint8)), np.uint8)
    return _detect(detector, thick, 1.0, wanted, max_candidates)  # counted again: eroded specks join


_DETECTOR = cv2.aruco.DetectorParameters()
_DETECTOR_WINDOW = _DETECTOR.adaptiveThreshWinSizeMin + _DETECTOR.adaptiveThreshWinSizeStep
"""The detector's second adaptive-threshold window (its windows run from the minimum by steps)."""


def _candidates(image: npt.NDArray[np.uint8]) -> int:
    """Returns how many dark blobs at least ``MIN_MARKER_PX`` wide and tall an adaptive threshold
    finds (4-connected, as the marker detector's own contour search separates them): about half
    the candidates the detector would check (it also takes the light ones). The threshold is the
    detector's own middle window and constant (13 px and 7 grey levels with OpenCV's defaults)."""
    binary = cv2.adaptiveThreshold(image, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV,
                                   _DETECTOR_WINDOW, _DETECTOR.adaptiveThreshConstant)
    _n, _labels, stats, _centres = cv2.connectedComponentsWithStats(binary, connectivity=4)
    big = (stats[1:, cv2.CC_STAT_WIDTH] >= MIN_MARKER_PX) & (stats[1:, cv2.CC_STAT_HEIGHT] >= MIN_MARKER_PX)
    return int(big.sum())


def _marker_points(
    found: dict[int, npt.NDArray[np.float32]], ids: Sequence[int], board: BoardSpec
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Returns the image corners of the markers ``ids`` and their board corners, in pairs."""
    img_pts = np.concatenate([found[i] for i in ids]).astype(np.float64)
    board_pts = np.array([pt for i in ids for pt in board.markers.corners(i)], np.float64)
    return img_pts, board_pts


def _sharpen(gray: npt.NDArray[np.uint8], sigma: float) -> npt.NDArray[np.uint8]:
    """Returns a grey image sharpened by an unsharp mask of Gaussian ``sigma``."""
    grey = gray.astype(np.float32)
    soft = cv2.GaussianBlur(grey, (0, 0), sigma)
    return np.asarray(np.clip(2 * grey - soft, 0, 255), np.uint8)


def _search_missing(
    gray: npt.NDArray[np.uint8],
    best: dict[int, npt.NDArray[np.float32]],
    board: BoardSpec,
    cfg: RegisterConfig,
) -> None:
    """Looks for each missing marker where the markers found put it (adds it to ``best``).

    A small marker blurred at a few pixels per module loses its isolated bits (marker 0 of the
    4×4 dictionary has a lone white module) and the whole-photo search rejects it. Here only a
    crop around the predicted place is searched (:func:`search_crop`); a marker it finds is
    taken if it is square within one of its modules (:func:`out_of_square`, :func:`module_cells`);
    the marker fit that follows must still agree with the others (``PLACE_TOLERANCE``).
    """
    layout = board.markers
    for _round in range(2):  # a third marker found predicts the fourth better
        missing = sorted({p.id for p in layout.placements} - set(best))
        if not missing or len(best) < 2:
            return
        ids = sorted(best)
        img_pts, board_pts = _marker_points(best, ids, board)
        found_h, _ = cv2.findHomography(board_pts, img_pts, 0)
        if found_h is None:
            return
        to_image = np.asarray(found_h, np.float64)
        margin = REACH * (2 if len(ids) == 2 else 1)
        added = False
        for mid in missing:
            quad = search_crop(gray, to_image, board, mid, margin, cfg)
            corners = np.array(layout.corners(mid), np.float64)
            if quad is not None and out_of_square(quad, corners, to_image) <= module_cells(layout):
                best[mid] = quad
                added = True
        if not added:
            return


def search_crop(
    gray: npt.NDArray[np.uint8],
    to_image: Homography,
    board: BoardSpec,
    mid: int,
    margin: float,
    cfg: RegisterConfig,
) -> npt.NDArray[np.float32] | None:
    """Returns marker ``mid`` found in a crop ``margin`` cells around where ``to_image`` (board →
    image) puts it, about the predicted size, or None: the crop sharpened (unsharp mask),
    enlarged so the marker spans about ``MODULE_PX`` pixels per module, decoded with finer bit
    sampling and the dictionary's full one-bit error correction. Its squareness is not checked."""
    layout = board.markers
    h, w = gray.shape
    marker_px = MODULE_PX * _modules(layout)
    corners = np.array(layout.corners(mid), np.float64)
    lo, hi = corners.min(axis=0) - margin, corners.max(axis=0) + margin
    box = np.array([[lo, [hi[0], lo[1]], hi, [lo[0], hi[1]]]], np.float64)
    expect = cv2.perspectiveTransform(corners[None], to_image)[0]
    around = cv2.perspectiveTransform(box, to_image)[0]
    if not (np.isfinite(expect).all() and np.isfinite(around).all()):
        return None
    side = _side(expect.astype(np.float32))
    x0, y0 = np.floor(np.clip(around.min(axis=0), 0, [w, h])).astype(int)
    x1, y1 = np.ceil(np.clip(around.max(axis=0), 0, [w, h])).astype(int)
    if side < 4 or x1 - x0 < side or y1 - y0 < side:
        return None  # off the photo
    # enlarged at most as much as the smallest decodable marker needs
    f = float(np.clip(marker_px / side, 1.0, marker_px / MIN_MARKER_PX))
    if max(x1 - x0, y1 - y0) * f > cfg.detect_max_side:
        # a prediction so uncertain that its crop, enlarged, would exceed the copy the whole
        # photo is searched on (a cap on work)
        return None
    sharp = _sharpen(gray[y0:y1, x0:x1], cfg.search_sharpen_sigma)
    big = (np.asarray(cv2.resize(sharp, None, fx=f, fy=f, interpolation=cv2.INTER_CUBIC), np.uint8)
           if f > 1 else sharp)
    detector = cv2.aruco.ArucoDetector(dictionary(layout), _search_parameters(big, marker_px))
    for quad in _detect(detector, big, f, {mid}, cfg.max_candidates).values():
        quad = quad + np.array([x0, y0], np.float32)
        if 0.5 < _side(quad) / side < 2.0:
            return quad
    return None


def out_of_square(
    quad: npt.NDArray[np.float32], corners: npt.NDArray[np.float64], to_image: Homography
) -> float:
    """Returns how far a marker found is from the square the layout gives it, in cells: its
    corners taken onto the board by a predicted homography, the largest corner distance left
    after the best similarity (shift, turn, scale) onto the layout's square. The prediction
    may be a cell off, but hardly changes the shape of one marker; a hand's edge taken for the
    marker's border does."""
    on_board = cv2.perspectiveTransform(quad[None].astype(np.float64), np.linalg.inv(to_image))[0]
    fit, _ = cv2.estimateAffinePartial2D(on_board, corners, method=cv2.LMEDS)
    if fit is None:
        return float("inf")
    moved = on_board @ fit[:, :2].T + fit[:, 2]
    return float(np.linalg.norm(moved - corners, axis=1).max())


def _search_whole(
    gray: npt.NDArray[np.uint8],
    best: dict[int, npt.NDArray[np.float32]],
    board: BoardSpec,
    cfg: RegisterConfig,
) -> None:
    """Looks for the markers over the whole photo as :func:`_search_missing` does in a crop
    (sharpened, finer bit reading, one-bit correction), when fewer than two were found. Each
    marker it adds must be square where all the others put it (two others at least)."""
    layout = board.markers
    sharp = _sharpen(gray, cfg.search_sharpen_sigma)
    detector = cv2.aruco.ArucoDetector(dictionary(layout),
                                       _search_parameters(sharp, MODULE_PX * _modules(layout)))
    found = _detect(detector, sharp, 1.0, {p.id for p in layout.placements} - set(best), cfg.max_candidates)
    merged = {**found, **best}
    for mid in found:
        others = [i for i in merged if i != mid]
        if len(others) < 2:
            continue
        img_pts, board_pts = _marker_points(merged, others, board)
        to_image, _ = cv2.findHomography(board_pts, img_pts, 0)
        corners = np.array(layout.corners(mid), np.float64)
        if to_image is None:
            continue
        if out_of_square(merged[mid], corners, np.asarray(to_image, np.float64)) > module_cells(layout):
            continue
        best[mid] = merged[mid]


def _modules(layout: MarkerLayout) -> int:
    """Modules across one marker: its bits and the black border around them."""
    params = cv2.aruco.DetectorParameters()
    return int(dictionary(layout).markerSize) + 2 * int(params.markerBorderBits)


def module_cells(layout: MarkerLayout) -> float:
    """Returns the side of one printed marker module, in cells (the layout's marker side over its
    modules: 1/6 cell for the project's 4×4 markers a cell wide). A marker found by a search is
    taken only if it is square within one module (:func:`out_of_square`): a hand's edge read as
    its border bends it further; a marker detected again at full size must lie within one module
    of where it was first found."""
    return float(layout.size) / _modules(layout)


def _search_parameters(image: npt.NDArray[np.uint8], marker_px: int) -> cv2.aruco.DetectorParameters:
    """The sharpened search's settings for one image where a marker spans about ``marker_px``:
    bits read at ``MODULE_PX`` per module, full correction, threshold windows from the smallest
    by one module up to the marker's side, and no candidate smaller than a decodable marker
    (tiny ones made noise cost seconds)."""
    params = cv2.aruco.DetectorParameters()
    params.errorCorrectionRate = 1.0  # the dictionary's own correction capacity (one bit for 4×4_50)
    params.perspectiveRemovePixelPerCell = MODULE_PX
    params.perspectiveRemoveIgnoredMarginPerCell = 0.3  # read each module's centre, not its blurred edge
    smallest = params.adaptiveThreshWinSizeMin  # OpenCV's own, 3 px
    params.adaptiveThreshWinSizeStep = MODULE_PX
    params.adaptiveThreshWinSizeMax = smallest + (marker_px - smallest) // MODULE_PX * MODULE_PX
    # kept (provisional, set by hand): with OpenCV's 0.03 the crop search no longer finds the
    # marker bent by a hand's edge that tests/vision/test_register_real.py describes
    params.polygonalApproxAccuracyRate = 0.05
    params.minMarkerPerimeterRate = 4 * MIN_MARKER_PX / max(image.shape[:2])
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return params


def _fine_detector(board: BoardSpec) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(dictionary(board.markers), params)


def _refine_marker(
    gray: npt.NDArray[np.uint8],
    fine: cv2.aruco.ArucoDetector,
    mid: int,
    quad: npt.NDArray[np.float32],
    layout: MarkerLayout,
) -> npt.NDArray[np.float32]:
    """Detects one marker again at full resolution in a crop around it, with sub-pixel corner
    refinement; keeps the coarse corners if it is not found there, or not within one of its
    modules of them (another marker, or a blob). The crop reaches the marker's printed quiet
    zone and that one module further out (the coarse corners' own allowance): the white the
    detector closes the marker's border against, wherever within the allowance it lies."""
    side, modules = _side(quad), _modules(layout)
    around = (TAB_MARGIN / layout.size + 1 / modules) * side
    x0, y0 = np.floor(quad.min(axis=0) - around).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0) + around).astype(int)
    h, w = gray.shape
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    corners, ids, _ = fine.detectMarkers(np.ascontiguousarray(gray[y0:y1, x0:x1]))
    if ids is None:
        return quad
    for found, ident in zip(corners, ids.ravel(), strict=True):
        pts = found.reshape(4, 2).astype(np.float32) + np.array([x0, y0], np.float32)
        if int(ident) == mid and float(np.abs(pts - quad).max()) < side / modules:
            return pts
    return quad


def _side(quad: npt.NDArray[np.float32]) -> float:
    return float(cv2.arcLength(quad, True) / 4)


def _from_markers(found: dict[int, npt.NDArray[np.float32]], board: BoardSpec) -> Registration | None:
    fewest = fewest_markers(board.markers)
    if len(found) < fewest:
        return None
    best: Registration | None = None
    ids = sorted(found)
    # every marker, else every marker but one (one that disagrees: a hand on it, a wrong read)
    subsets = [tuple(ids)] + (list(itertools.combinations(ids, len(ids) - 1)) if len(ids) > fewest else [])
    for subset in subsets:
        img_pts, board_pts = _marker_points(found, subset, board)
        found_h, _ = cv2.findHomography(img_pts, board_pts, 0)
        if found_h is None:
            continue
        to_board = np.asarray(found_h, np.float64)
        back = cv2.perspectiveTransform(img_pts[None], to_board)[0]
        error = float(np.linalg.norm(back - board_pts, axis=1).mean())
        if error <= PLACE_TOLERANCE:
            reg = Registration(to_board, "markers", subset, error, _cell_px(to_board, board), (img_pts, board_pts))
            if (
                best is None
                or len(subset) > len(best.markers)
                or (len(subset) == len(best.markers) and error < best.error)
            ):
                best = reg
        if best is not None and len(best.markers) == len(ids):
            break  # every marker agrees: no need to drop one
    return best


def fewest_markers(layout: MarkerLayout) -> int:
    """Returns how many markers a marker registration needs: all the layout's but one (three of
    the project's four). One marker may be hidden, off the photo or read wrong, and the fit
    drops one that disagrees with the others; with fewer, two markers only place the board
    provisionally (:func:`_from_two_markers`), for the grid lines to confirm."""
    return len(layout.placements) - 1


def _from_two_markers(found: dict[int, npt.NDArray[np.float32]], board: BoardSpec) -> Registration | None:
    """A provisional registration from two markers: it must be confirmed by the grid lines
    (``grid_overlay.refine``), or the photo is refused (None: their corners fit no homography)."""
    ids = tuple(sorted(found))
    img_pts, board_pts = _marker_points(found, ids, board)
    found_h, _ = cv2.findHomography(img_pts, board_pts, 0)
    if found_h is None:
        return None
    to_board = np.asarray(found_h, np.float64)
    back = cv2.perspectiveTransform(img_pts[None], to_board)[0]
    error = float(np.linalg.norm(back - board_pts, axis=1).mean())
    return Registration(to_board, "two-markers", ids, error, _cell_px(to_board, board), (img_pts, board_pts))


def _agrees(reg: Registration, found: dict[int, npt.NDArray[np.float32]], board: BoardSpec) -> bool:
    """Whether a registration puts the markers seen where the layout says, within ``REACH`` (an
    outline is rough, and the grid refit may still move it that far)."""
    img_pts, board_pts = _marker_points(found, list(found), board)
    back = cv2.perspectiveTransform(img_pts[None], reg.to_board)[0]
    return float(np.linalg.norm(back - board_pts, axis=1).mean()) <= REACH


def _cell_px(to_board: Homography, board: BoardSpec) -> float:
    grid = np.array([[[0, 0], [board.cols, 0], [board.cols, board.rows], [0, board.rows]]], np.float64)
    quad = cv2.perspectiveTransform(grid, np.linalg.inv(to_board))[0].astype(np.float32)
    return float(np.sqrt(abs(cv2.contourArea(quad)) / (board.rows * board.cols)))


# ---------------------------------------------------------------------------------------------
# Outline fallback (vision.outline finds and orients the quadrilateral)


def _from_outline(gray: npt.NDArray[np.uint8], board: BoardSpec, cfg: RegisterConfig) -> Registration | None:
    to_board = outline.board_homography(gray, board, cfg)
    if to_board is None:
        return None
    return Registration(to_board, "outline", (), 0.0, _cell_px(to_board, board))


def _draw_markers(image: npt.NDArray[np.uint8], found: dict[int, npt.NDArray[np.float32]]) -> npt.NDArray[np.uint8]:
    out = image.copy()
    for mid, quad in found.items():
        pts = quad.astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], True, (0, 220, 0), max(2, out.shape[1] // 400))
        cv2.circle(out, tuple(int(x) for x in quad[0]), max(4, out.shape[1] // 200), (0, 0, 255), -1)
        cv2.putText(
            out,
            str(mid),
            tuple(int(x) for x in quad.mean(axis=0)),
            cv2.FONT_HERSHEY_SIMPLEX,
            max(0.8, out.shape[1] / 1000),
            (0, 0, 255),
            2,
            cv2.LINE_AA,
        )
    return out
