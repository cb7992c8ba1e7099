"""Stage 3, *evidence*: how well each reading of each cell explains its pixels.

A cell's reading is a *hypothesis* ``(occupant, terrain)``: no counter or one side's counter,
over one terrain (the bare board is the first). Under a hypothesis each pixel of the cell, read
relative to the board's field (:mod:`vision.normalise`), is drawn from a mixture:

- the counter's material with probability ``sigmoid((counter_half - d) / counter_soft)`` (``d``:
  the pixel's Chebyshev distance from the cell centre), when there is a counter;
- else the token's material with probability ``sigmoid((token_half - d) / token_soft)``, when the
  terrain is not the bare board;
- else the bare board;

each material a Gaussian of the set's colour model (:mod:`vision.colours`) widened by the field's
own error (``field_sd``), and the whole mixed with an *outlier* density (``outlier`` of the
pixels: a counter's label, printed art, a fingertip) uniform over the log values. A cell's
log-likelihood of a hypothesis is the sum over its usable pixels; the posterior
(:mod:`vision.decide`) weighs it by ``temperature``.

Before that, the materials adapt to the photo (:func:`vision.colours.adapt`): each material's
mean moves toward the mean of the photo's pixels most likely drawn from it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from vision.board import BoardSpec
from vision.colours import ColourModel, adapt, material_names
from vision.model_config import ModelConfig
from vision.normalise import Normalised, Q, cell_geometry

F64 = npt.NDArray[np.float64]
F32 = npt.NDArray[np.float32]

LOG_UNIFORM = -3 * math.log(-math.log(2 / 257))
"""Log density of the outlier: uniform over the range of log values of 8-bit pixels (0 down to
log(2/257) per channel)."""

Hypothesis = tuple[str | None, str]

ADAPT_STEP = 4
"""Every this many usable pixels is taken to adapt the materials to the photo (statistics only)."""


@dataclass(frozen=True)
class Evidence:
    """Per cell, the log-likelihood of each hypothesis, and what the pixels showed."""

    hypotheses: tuple[Hypothesis, ...]
    """(occupant or None, terrain) in a fixed order: occupants (None first) × terrains."""
    loglik: F64
    """(cells, hypotheses) sum of the usable pixels' log-likelihoods."""
    seen: F64
    """(cells,) share of the cell's pixels that were usable."""
    unexplained: F32
    """(cells, Q, Q) each usable pixel's share explained by the outlier under its cell's most
    likely hypothesis: what no material of the set explains (0 for pixels not read, and within
    four softnesses of the counter's edge where that hypothesis has one: a counter's rim and
    label are unexplained by design)."""
    colours: ColourModel
    """The materials as adapted to this photo."""


def hypotheses(board: BoardSpec) -> tuple[Hypothesis, ...]:
    """Every reading of a cell: no counter or a side's, over each terrain."""
    return tuple((occ, t) for occ in (None, *board.sides) for t in board.terrains)


@dataclass(frozen=True)
class _Pixels:
    """The usable pixels of every cell, flattened."""

    r: F32
    """(p, 3) log colour minus the field."""
    cell: npt.NDArray[np.intp]
    """(p,) which cell each belongs to."""
    d: F32
    """(p,) Chebyshev distance from its cell's centre, in cells."""
    dx: F32
    """(p,) offset from its cell's centre across, in cells."""
    dy: F32
    """(p,) offset from its cell's centre down, in cells."""
    where: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.intp]]
    """(cell, row, column) of each, in the cut cells."""
    cells: int


def pixels(norm: Normalised) -> _Pixels:
    """The usable pixels of every cell of a normalised board, relative to the field."""
    return _pixels(norm)


def _pixels(norm: Normalised) -> _Pixels:
    diff = (norm.log - norm.field).astype(np.float32)
    r = norm.cells(diff)
    usable = norm.cells(norm.usable)
    cheb, _ = cell_geometry()
    n = r.shape[0]
    index = np.nonzero(usable)
    offset = ((np.arange(Q, dtype=np.float32) + 0.5) / Q - 0.5).astype(np.float32)
    return _Pixels(r=r[index].astype(np.float32), cell=index[0], d=np.broadcast_to(cheb, usable.shape)[index],
                   dx=offset[index[2]], dy=offset[index[1]], where=(index[0], index[1], index[2]), cells=n)


def evidence(norm: Normalised, board: BoardSpec, colours: ColourModel, cfg: ModelConfig) -> Evidence:
    """Returns every cell's log-likelihood of every hypothesis, the materials first adapted to the photo."""
    return from_pixels(_pixels(norm), board, colours, cfg)


def from_pixels(px: _Pixels, board: BoardSpec, colours: ColourModel, cfg: ModelConfig) -> Evidence:
    """:func:`evidence` of pixels already taken from a normalised board (the fitting script
    evaluates the model on the same pixels many times)."""
    hyps = hypotheses(board)
    counts = np.bincount(px.cell, minlength=px.cells)
    adapted = adapt(colours, material_names(board), px.r[::ADAPT_STEP], cfg.adapt_weight, cfg.adapt_reach)
    final = _Mixtures(px, board, adapted, cfg)
    loglik = final.loglik()
    best = loglik.argmax(axis=1)
    rows = np.arange(len(px.cell))
    unexplained = np.zeros((px.cells, Q, Q), np.float32)
    # a counter's rim and label are unexplained by design (its print); only the rest counts
    has_counter = np.array([occ is not None for occ, _t in hyps])[best][px.cell]
    rim = cfg.counter_half + 4 * cfg.counter_soft
    outside = ~has_counter | (px.d > rim)
    unexplained[px.where] = np.where(outside, final.outlier / final.like[best[px.cell], rows], 0)
    for a in (loglik, unexplained):
        a.setflags(write=False)
    return Evidence(hypotheses=hyps, loglik=loglik, seen=(counts / (Q * Q)).astype(np.float64),
                    unexplained=unexplained, colours=adapted)


class _Mixtures:
    """Each pixel's likelihood under every hypothesis (scaled by ``exp(-top)``, its largest
    material density), for one colour model."""

    def __init__(self, px: _Pixels, board: BoardSpec, colours: ColourModel, cfg: ModelConfig) -> None:
        self.px, self.cfg = px, cfg
        self.terrains = len(board.terrains)
        self.names = material_names(board)
        dens = _densities(px, self.names, colours, cfg)
        self.top = np.maximum(dens.max(axis=0), np.float32(LOG_UNIFORM))
        self.e = np.exp(dens - self.top)
        _wc, self.wt = _weights(px, cfg)
        self.wc = _counter_weights(px, self.e, self.terrains, cfg)
        self.outlier = cfg.outlier * np.exp(LOG_UNIFORM - self.top)
        base = np.empty((self.terrains, len(px.r)), np.float32)
        base[0] = self.e[0]
        base[1:] = (1 - self.wt) * self.e[0] + self.wt * self.e[1 : self.terrains]
        sides = self.e[self.terrains :]
        with_counter = (1 - self.wc)[:, None, :] * base[None, :, :] + (self.wc * sides)[:, None, :]
        mix = np.concatenate([base[None], with_counter]).reshape(-1, len(px.r))
        self.like = (1 - cfg.outlier) * mix + self.outlier

    def loglik(self) -> F64:
        """(cells, hypotheses) summed log-likelihoods (hypotheses as :func:`hypotheses` orders them)."""
        logs = np.log(self.like) + self.top
        out = np.stack([np.bincount(self.px.cell, weights=row, minlength=self.px.cells) for row in logs], axis=1)
        return out.astype(np.float64)


def _densities(px: _Pixels, names: list[str], colours: ColourModel, cfg: ModelConfig) -> F32:
    """(materials, p) log density of each pixel under each material's Gaussian (widened by field_sd)."""
    means, covs = colours.stacked(names)
    out = np.empty((len(names), len(px.r)), np.float32)
    for k in range(len(names)):
        cov = covs[k] + np.eye(3) * cfg.field_sd**2
        chol = np.linalg.cholesky(cov)
        white = np.linalg.inv(chol).astype(np.float32)  # z = white @ d has unit covariance
        z = (px.r - means[k].astype(np.float32)) @ white.T
        logdet = 2 * float(np.log(np.diag(chol)).sum())
        out[k] = -0.5 * (z * z).sum(axis=1) - 0.5 * logdet - 1.5 * math.log(2 * math.pi)
    return out


def _counter_weights(px: _Pixels, e: F32, terrains: int, cfg: ModelConfig) -> F32:
    """(sides, p) prior probability of each side's counter material at each pixel, where that
    side's counter would lie in the pixel's cell: the square holding the cell's pixels most
    likely of that side's colour (centred on their mean, its half-side √3 times their spread,
    as for a square filled evenly), out to ``2 × counter_soft`` past it (its printed rim); where
    fewer than a tenth of the cell's pixels are of that colour, centred, ``counter_half`` wide.
    Counters lie off centre and come in sizes: the band around one is where its terrain shows."""
    n = px.cells
    others = e[:terrains].max(axis=0)
    out = np.empty((len(e) - terrains, len(px.r)), np.float32)
    for k in range(len(e) - terrains):
        side = e[terrains + k]
        mine = (side >= others) & (side >= np.delete(e[terrains:], k, axis=0).max(axis=0, initial=0))
        w = mine.astype(np.float64)
        count = np.bincount(px.cell, weights=w, minlength=n)
        enough = count >= 0.1 * Q * Q
        safe = np.maximum(count, 1)
        cx = np.bincount(px.cell, weights=w * px.dx, minlength=n) / safe
        cy = np.bincount(px.cell, weights=w * px.dy, minlength=n) / safe
        vx = np.bincount(px.cell, weights=w * px.dx**2, minlength=n) / safe - cx**2
        vy = np.bincount(px.cell, weights=w * px.dy**2, minlength=n) / safe - cy**2
        half = np.sqrt(3 * np.maximum(np.maximum(vx, vy), 0))
        half = np.where(enough, np.clip(half, 0.1, 0.45), cfg.counter_half)
        cx, cy = np.where(enough, cx, 0), np.where(enough, cy, 0)
        d = np.maximum(np.abs(px.dx - cx[px.cell]), np.abs(px.dy - cy[px.cell]))
        out[k] = 1 / (1 + np.exp((d - half[px.cell]) / cfg.counter_soft - 2))
    return out


def _weights(px: _Pixels, cfg: ModelConfig) -> tuple[F32, F32]:
    """(p,) prior probability of the counter's and of the token's material at each pixel."""
    counter = 1 / (1 + np.exp((px.d - cfg.counter_half) / cfg.counter_soft))
    token = 1 / (1 + np.exp((px.d - cfg.token_half) / cfg.token_soft))
    return counter.astype(np.float32), token.astype(np.float32)
