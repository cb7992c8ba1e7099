"""The colours of a set, relative to its bare board: what each material looks like once the
photo's light is taken out.

Every pixel is described by the logarithms of its three channels, ``log((v + 2) / 257)`` of the
photo's own (sRGB) values: light and shadow multiply a pixel's channels, which in this space
*adds* the same vector to every material under that light. So once the colour the bare board has
at a point (its *field*, :mod:`vision.normalise`) is subtracted, what is left depends only on
the material lying there: 0 for the bare board, a fixed vector for each terrain token and each
side's counters. A :class:`ColourModel` holds that vector (mean) and its spread (covariance) per
material, measured on a photo of a known position (:mod:`vision.calibrate`) or, without one,
taken from the board tables' colours; each photo then adapts it (:func:`adapt`).

Materials: the board's terrains (the first is the bare board, whose mean is 0 by definition)
and ``side:<name>`` for each side's counters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict, Field

from vision.board import BoardSpec

SIDE = "side:"

Vec3 = tuple[float, float, float]
Mat3 = tuple[Vec3, Vec3, Vec3]
F32 = npt.NDArray[np.float32]

LOG_LUT: F32 = np.log((np.arange(256, dtype=np.float64) + 2.0) / 257.0).astype(np.float32)
"""Log value of each 8-bit channel value (the +2 keeps the darkest values out of the noise)."""

def to_log(bgr: npt.NDArray[np.uint8]) -> F32:
    """Returns the log image of 8-bit BGR pixels (same shape, float32).

    >>> float(to_log(np.array([[255, 255, 255]], np.uint8))[0, 0])
    0.0
    """
    out: F32 = LOG_LUT[bgr]
    return out


class Material(BaseModel):
    """One material's colour relative to the bare board: mean and covariance of the log values."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    mean: Vec3 = Field(description="Mean log colour minus the bare board's (B, G, R).")
    cov: Mat3 = Field(description="Covariance of those values (3 x 3, symmetric).")
    pixels: int = Field(default=0, ge=0, description="Pixels measured (0: from the tables' colours).")

    def arrays(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Returns (mean (3,), covariance (3, 3)) as arrays."""
        return np.array(self.mean, np.float64), np.array(self.cov, np.float64)


class ColourModel(BaseModel):
    """The materials of a set (terrains and ``side:<name>``), relative to its bare board."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    materials: dict[str, Material]

    def stacked(self, names: Sequence[str]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Returns the means (k, 3) and covariances (k, 3, 3) of ``names``, in order."""
        means = np.array([self.materials[n].mean for n in names], np.float64)
        covs = np.array([self.materials[n].cov for n in names], np.float64)
        return means, covs


def material_names(board: BoardSpec) -> list[str]:
    """The materials of a board: its terrains (the bare board first), then each side's counters."""
    return list(board.terrains) + [f"{SIDE}{s}" for s in board.sides]


def make_material(mean: npt.ArrayLike, cov: npt.ArrayLike, pixels: int = 0) -> Material:
    """Returns a :class:`Material` from arrays (the covariance made symmetric)."""
    m = np.asarray(mean, np.float64).reshape(3)
    c = np.asarray(cov, np.float64).reshape(3, 3)
    c = (c + c.T) / 2
    rows: Mat3 = ((float(c[0, 0]), float(c[0, 1]), float(c[0, 2])), (float(c[1, 0]), float(c[1, 1]), float(c[1, 2])),
                  (float(c[2, 0]), float(c[2, 1]), float(c[2, 2])))
    return Material(mean=(float(m[0]), float(m[1]), float(m[2])), cov=rows, pixels=pixels)


def table_model(board: BoardSpec, spread: float) -> ColourModel:
    """Returns the materials of the board tables' colours (RGB), each ``spread`` wide (log units,
    per channel)."""
    colours = dict(board.terrain_colours) | {f"{SIDE}{k}": v for k, v in board.side_colours.items()}
    base = _log_rgb(colours[board.terrains[0]])
    cov = np.eye(3) * spread**2
    return ColourModel(materials={n: make_material(_log_rgb(colours[n]) - base, cov) for n in material_names(board)})


def _log_rgb(rgb: tuple[int, int, int]) -> npt.NDArray[np.float64]:
    """The log values (B, G, R) of an RGB colour."""
    r, g, b = rgb
    return np.array([LOG_LUT[b], LOG_LUT[g], LOG_LUT[r]], np.float64)


def robust_gaussian(
    x: npt.NDArray[np.floating], keep: float = 0.9
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Returns the mean and covariance of the central ``keep`` of 3-D samples (by Mahalanobis
    distance, three rounds), the covariance scaled back to the whole distribution's (a Gaussian
    trimmed to its inner 90 % has 0.80 of its variance along each axis in 3-D)."""
    data = np.asarray(x, np.float64)
    mean = np.median(data, axis=0)
    cov = np.cov((data - mean).T) + np.eye(3) * 1e-6
    for _ in range(3):
        d = data - mean
        dist = np.einsum("ni,ij,nj->n", d, np.linalg.inv(cov), d)
        inner = data[dist <= np.quantile(dist, keep)]
        mean = inner.mean(axis=0)
        cov = np.cov((inner - mean).T) / _TRIMMED_VARIANCE + np.eye(3) * 1e-6
    return mean, cov


_TRIMMED_VARIANCE = 0.80


def measure(samples: Mapping[str, npt.NDArray[np.float32]], seed: ColourModel, min_pixels: int = 30) -> ColourModel:
    """Returns the materials measured on labelled samples (material → (k, 3) log colours minus
    the board field); materials with fewer than ``min_pixels`` samples keep the seed's."""
    out = dict(seed.materials)
    for name, x in samples.items():
        if name in out and len(x) >= min_pixels:
            mean, cov = robust_gaussian(x)
            out[name] = make_material(mean, cov, len(x))
    return ColourModel(materials=out)


CHI2_3_99 = 11.34
"""99th percentile of the chi-square distribution with 3 degrees of freedom: a pixel farther
than this (squared Mahalanobis distance) from a material is not counted as its sample."""


def adapt(model: ColourModel, names: Sequence[str], x: npt.NDArray[np.float32], weight: float, reach: float,
          rounds: int = 3) -> ColourModel:
    """Returns the materials' means moved toward the photo's own: ``rounds`` times, each pixel of
    ``x`` ((k, 3) log colours minus the field) goes to the material most likely to have drawn it
    under that material's covariance widened by ``reach`` (how far another print batch, lamp or
    phone may move a colour; log units per channel), within the 99th percentile; each material's
    mean becomes (``weight`` × its model mean + the sum of its pixels) / (``weight`` + their
    count). The bare board (``names[0]``, the field's own colour) and the covariances stay."""
    means, covs = model.stacked(names)
    whiten, logdet = [], []
    for cov in covs:
        chol = np.linalg.cholesky(cov + np.eye(3) * reach**2)
        whiten.append(np.linalg.inv(chol).astype(np.float32))
        logdet.append(2 * float(np.log(np.diag(chol)).sum()))
    current = means.copy()
    for _ in range(rounds):
        dist = np.stack([(((x - current[k].astype(np.float32)) @ w.T) ** 2).sum(axis=1)
                         for k, w in enumerate(whiten)])
        nearest = (dist + np.array(logdet, np.float32)[:, None]).argmin(axis=0)
        for k in range(1, len(names)):
            mine = x[(nearest == k) & (dist[k] < CHI2_3_99)]
            current[k] = (weight * means[k] + mine.sum(axis=0)) / (weight + len(mine))
    out = dict(model.materials)
    for k, name in enumerate(names[1:], start=1):
        mat = out[name]
        out[name] = make_material(current[k], mat.cov, mat.pixels)
    return ColourModel(materials=out)


def separation(model: ColourModel, board: BoardSpec) -> list[tuple[str, str, float]]:
    """Returns every pair of materials with the distance between their means in units of their
    combined spread (Mahalanobis under the sum of the two covariances), closest pairs first."""
    names = material_names(board)
    pairs: list[tuple[str, str, float]] = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            ma, ca = model.materials[a].arrays()
            mb, cb = model.materials[b].arrays()
            d = ma - mb
            pairs.append((a, b, float(np.sqrt(d @ np.linalg.solve(ca + cb, d)))))
    return sorted(pairs, key=lambda p: p[2])
