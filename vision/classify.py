"""Per-cell classification: which side's counter (if any) and which terrain, with a confidence.

Features are lighting-robust: each patch's median colour is divided by the white reference (the
paper around the grid), then described by its chromaticity ``r = R/(R+G+B)``, ``g = G/(R+G+B)``
(unchanged by how much light falls on it) and the log of its brightness (which does change, so
its learned spread is wide). A :class:`ColourModel` holds one Gaussian per class: the centre
patch is one of ``side:<name>`` or ``empty:<terrain>``; the corner patches are ``<terrain>``.
The built-in model is measured on a clean drawing of the board from its tables' colours
(:func:`vision.calibrate.default_model`); calibration measures the user's own set. A patch
far from every class (a hand, a glare) gets a low confidence instead of a wrong answer.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import cv2
import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict, Field, model_validator

from vision import grid_overlay as go
from vision.board import BoardSpec
from vision.config import ClassifyConfig, GridConfig

DETAIL_FLOOR = 0.1
"""Added to the relative detail before its log, so flat patches do not go to minus infinity."""
EMPTY = "empty:"
SIDE = "side:"


class ClassStats(BaseModel):
    """One class: mean feature vector and its covariance (centre: r, g, log brightness, log
    detail; corner: r, g, log brightness)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    mean: tuple[float, ...]
    cov: tuple[tuple[float, ...], ...]
    samples: int = Field(default=0, description="Patches measured.")

    @model_validator(mode="after")
    def _square(self) -> ClassStats:
        n = len(self.mean)
        if n not in (3, 4) or len(self.cov) != n or any(len(row) != n for row in self.cov):
            raise ValueError(f"mean and covariance sizes do not match ({n} features)")
        return self


class ColourModel(BaseModel):
    """The colours of a set: counter sides and empty cells (centre patch), terrain (corners)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    centre: dict[str, ClassStats] = Field(description="'side:<side>' and 'empty:<terrain>' classes.")
    corner: dict[str, ClassStats] = Field(description="'<terrain>' classes (one corner patch each).")


def features(colours: npt.NDArray[np.float64], white: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Returns (n, 3) features (r, g, log brightness) of (n, 3) BGR colours under a white BGR.

    >>> paper = np.array([245.0, 245.0, 245.0])
    >>> features(paper[None, :], paper).round(3).tolist()
    [[0.333, 0.333, 0.0]]
    """
    norm = np.maximum(colours, 1.0) / white[None, :]
    total = norm.sum(axis=1)
    r = norm[:, 2] / total
    g = norm[:, 1] / total
    light = np.log(total / 3)
    return np.stack([r, g, light], axis=1)


def _log_likelihoods(
    x: npt.NDArray[np.float64], classes: Mapping[str, ClassStats]
) -> tuple[list[str], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Returns class names, (n, k) log-likelihoods and (n, k) squared Mahalanobis distances."""
    names = list(classes)
    ll = np.empty((x.shape[0], len(names)))
    d2 = np.empty((x.shape[0], len(names)))
    for j, name in enumerate(names):
        st = classes[name]
        mean = np.array(st.mean)
        cov = np.array(st.cov)
        inv = np.linalg.inv(cov)
        diff = x - mean
        if diff.shape[1] == 4:
            diff[:, 3] = np.minimum(diff[:, 3], 0.0)  # more detail than usual: a sharper photo, fine
        m = np.einsum("ni,ij,nj->n", diff, inv, diff)
        d2[:, j] = m
        ll[:, j] = -0.5 * m - 0.5 * math.log(float(np.linalg.det(cov)))
    return names, ll, d2


def classify_patches(
    x: npt.NDArray[np.float64], classes: Mapping[str, ClassStats], cfg: ClassifyConfig
) -> tuple[list[str], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Returns, per feature row, the most likely class, its confidence in [0, 1] and its distance
    to that class in standard deviations (Mahalanobis).

    The confidence is the class's posterior (equal priors), cut down smoothly beyond
    ``outlier_sigma`` from the class.
    """
    names, ll, d2 = _log_likelihoods(x, classes)
    ll = ll - ll.max(axis=1, keepdims=True)
    post = np.exp(ll)
    post /= post.sum(axis=1, keepdims=True)
    best = post.argmax(axis=1)
    rows = np.arange(len(best))
    dist2 = d2[rows, best]
    conf = post[rows, best] * np.exp(-0.5 * np.clip(dist2 - cfg.outlier_sigma**2, 0, None))
    return [names[i] for i in best], conf, np.sqrt(dist2)


def classify_cells(
    centre: npt.NDArray[np.float64],
    corner: npt.NDArray[np.float64],
    model: ColourModel,
    cfg: ClassifyConfig,
    shape: tuple[int, int],
) -> list[tuple[str | None, str, float]]:
    """Returns per cell (occupant side or None, terrain, confidence) from centre and corner
    features of a ``shape`` = (rows, cols) board.

    An empty centre whose colour says another terrain than the corners halves the confidence
    (one of the two readings is wrong). Distrust spreads from untrusted cells to neighbours that
    are not typical of their class (beyond ``occlusion_sigma``), up to ``occlusion_reach`` cells
    away: hands and other objects cover several cells, and their edges are hard to tell from
    the board.
    """
    c_label, c_conf, c_dist = classify_patches(centre, model.centre, cfg)
    t_label, t_conf, t_dist = _terrain(corner, model, cfg)
    occupants: list[str | None] = []
    conf = np.minimum(c_conf, t_conf)
    for n, label in enumerate(c_label):
        if label.startswith(SIDE):
            occupants.append(label[len(SIDE) :])
        else:
            occupants.append(None)
            if label[len(EMPTY) :] != t_label[n]:
                conf[n] *= 0.5
    atypical = (np.maximum(c_dist, t_dist) > cfg.occlusion_sigma).reshape(shape)
    untrusted = (conf < cfg.min_confidence).reshape(shape)
    for _ in range(cfg.occlusion_reach):  # spread from untrusted cells to atypical neighbours
        grown = untrusted | (_near_untrusted(untrusted) & atypical)
        if (grown == untrusted).all():
            break
        untrusted = grown
    flooded = untrusted.reshape(-1) & (conf >= cfg.min_confidence)
    conf[flooded] *= 0.3
    return [(occupants[n], t_label[n], float(conf[n])) for n in range(len(c_label))]


def _terrain(
    corner: npt.NDArray[np.float64], model: ColourModel, cfg: ClassifyConfig
) -> tuple[list[str], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Terrain from the four corner patches (n, 4, 3): the two most typical corners decide (a
    counter pushed toward one corner spoils that corner only); if they disagree, confidence 0."""
    n = corner.shape[0]
    labels, conf, dist = classify_patches(corner.reshape(-1, 3), model.corner, cfg)
    conf4, dist4 = conf.reshape(n, 4), dist.reshape(n, 4)
    order = np.argsort(dist4, axis=1)
    out_label: list[str] = []
    out_conf = np.empty(n)
    out_dist = np.empty(n)
    for i in range(n):
        first, second = int(order[i, 0]), int(order[i, 1])
        a, b = labels[4 * i + first], labels[4 * i + second]
        out_label.append(a)
        out_dist[i] = dist4[i, second]
        out_conf[i] = min(conf4[i, first], conf4[i, second]) if a == b else 0.0
    return out_label, out_conf, out_dist


def _near_untrusted(untrusted: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Cells with an untrusted cell among their eight neighbours."""
    rows, cols = untrusted.shape
    padded = np.pad(untrusted, 1)
    near = np.zeros_like(untrusted)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr or dc:
                near |= padded[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
    return near


def patch_features(
    pixels: npt.NDArray[np.uint8], white: npt.NDArray[np.float64], darker: bool = False
) -> npt.NDArray[np.float64]:
    """Returns the colour features of patches (..., pixels, 3) from their per-channel median
    colours, shaped (..., 3). With ``darker``, only the darker half of each patch counts, so a
    counter's light label, sharp or blurred, does not pull its colour."""
    px = pixels.astype(np.float32)
    if darker:
        lum = px.sum(axis=-1)
        order = np.argsort(lum, axis=-1)[..., : max(1, px.shape[-2] // 2)]
        px = np.take_along_axis(px, order[..., None], axis=-2)
    medians = np.median(px, axis=-2).astype(np.float64)
    return features(medians.reshape(-1, 3), white).reshape(*medians.shape[:-1], 3)


def cell_features(
    warped: go.Warped, board: BoardSpec, cfg: GridConfig
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Returns the white reference (BGR), the centre features (n, 4) and the corner features
    (n, 4 corners, 3) of every cell of a warped board.

    The centre's colour is that of its darker half (a counter's fill, not its label). Its fourth
    feature is its *detail*: mean |Laplacian| over mean grey, relative to the whole board's, in
    log. Counters (rim, label) and terrain art (dots, outlines) have detail; a hand or a smooth
    object over a cell has little, whatever its colour. Only too little detail counts against a
    class (a sharper photo shows more).
    """
    white = go.white_reference(warped, board, cfg)
    cells = go.cell_stack(warped, board)
    colour = patch_features(go.centre_pixels(cells, cfg), white, darker=True)
    corner = patch_features(go.corner_pixels(cells, cfg), white)
    gray = cv2.cvtColor(warped.grid(board.rows, board.cols), cv2.COLOR_BGR2GRAY).astype(np.float32)
    lap = np.abs(cv2.Laplacian(gray, cv2.CV_32F, ksize=3))
    board_detail = float(lap.mean() / max(1.0, float(gray.mean())))
    ppc = warped.ppc
    size = max(2, round(cfg.centre * ppc))
    a = (ppc - size) // 2
    shape = (board.rows, ppc, board.cols, ppc)
    lap_c = lap.reshape(shape)[:, a : a + size, :, a : a + size].mean(axis=(1, 3)).reshape(-1)
    gray_c = gray.reshape(shape)[:, a : a + size, :, a : a + size].mean(axis=(1, 3)).reshape(-1)
    detail = np.log(DETAIL_FLOOR + lap_c / np.maximum(gray_c, 1.0) / max(board_detail, 1e-3))
    return white, np.column_stack([colour, detail]), corner
