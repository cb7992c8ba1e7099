"""The per-cell model's fitted probabilities that a cell's occupant and its bare terrain are
read right.

- **Occupant**: whether the counter reading (a side's counter, or none) is right is a logistic of
  how far the largest side's share of the central disc lies from the counter threshold
  (``counter_share``), and, where a counter is read, how far ahead of the other side's share it
  is. It replaces the rescaled margin of issue 13's reader (``counter_scale``), which asked about
  many counters read right whose disc was only partly in their colour (a lamp's hot spot, a
  shadow's edge, a counter turned over a grid line).
- **Terrain of a cell without a counter**: whether the token (or bare board) reading is right is
  a logistic of how far the largest token's share of the inner square lies from the token
  threshold (``token_share``), where a token is read how far ahead of the second token's it is,
  and the square root of the share of the square that is terrain-coloured at all (few such
  pixels: something covers the square). It replaces ``share_scale`` and ``min_terrain_pixels``.
  Under a counter the terrain is :mod:`vision.cell_model`'s.

A cell's confidence is the product of the two (their errors come from different pixels), then
cut down by the evidence of an occluder or a glare (:mod:`vision.decide`).

Parameters (fitted by ``bench/fit_cell_confidence.py``, dev seeds of both renderers, 40 photos
each, 2026-11-29, on the cells no occluder, glare or off-class colour makes doubtful; the script
prints them and they are copied here). The occupant model saw 10 211 cells, 2 of them read
wrong: the occupant is nearly never wrong once those rules are aside, and the fit says so (its
lowest probability, at the threshold, is 0.9997); the terrain model saw 7 570 cells, 29 wrong
(fitted on the even photos, log loss 0.052 on the odd ones).

- ``COUNTER_WEIGHTS``: bias; weights of the distance from the threshold, of the lead over the
  other side (0 where no counter is read) and of a counter being read;
- ``TERRAIN_WEIGHTS``: bias; weights of the distance from the threshold, of the lead over the
  second token (0 where no token is read), of a token being read and of the root share of
  terrain-coloured pixels.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]

COUNTER_WEIGHTS = (8.26, 0.16, 0.75, 1.18)
"""Fitted: bias; weights of |share − threshold|, of the lead over the other side, of a counter."""
TERRAIN_WEIGHTS = (-2.48, 2.26, 0.4, 0.52, 7.14)
"""Fitted: bias; weights of |share − threshold|, of the lead over the second token, of a token,
and of the root share of terrain-coloured pixels."""


def _logistic(x: Floats, weights: tuple[float, ...]) -> Floats:
    z = np.clip(weights[0] + x @ np.asarray(weights[1:], np.float64), -50.0, 50.0)  # no overflow
    out: Floats = 1.0 / (1.0 + np.exp(-z))
    return out


def _leading(shares: Floats, threshold: float) -> tuple[Floats, Floats, Floats]:
    """Per row: distance of the largest share from ``threshold``, its lead over the second
    where it passes the threshold (else 0), and 1 where it passes (else 0)."""
    n = shares.shape[0]
    ordered = np.sort(shares, axis=1) if shares.shape[1] else np.zeros((n, 1))
    s1 = ordered[:, -1]
    s2 = ordered[:, -2] if ordered.shape[1] > 1 else np.zeros(n)
    has = (s1 >= threshold).astype(np.float64)
    return np.abs(s1 - threshold), has * (s1 - s2), has


def counter_features(side_share: Floats, threshold: float) -> Floats:
    """Returns per cell the occupant model's inputs (see the module)."""
    out: Floats = np.column_stack(_leading(side_share, threshold))
    return out


def terrain_features(token_share: Floats, threshold: float, terrain_pixels: Floats) -> Floats:
    """Returns per cell the bare terrain model's inputs (``token_share``: (n, tokens) each
    token's share of the inner square's terrain pixels; see the module)."""
    root = np.sqrt(np.clip(terrain_pixels, 0.0, 1.0))
    out: Floats = np.column_stack([*_leading(token_share, threshold), root])
    return out


def counter_probability(side_share: Floats, threshold: float,
                        weights: tuple[float, ...] = COUNTER_WEIGHTS) -> Floats:
    """Returns per cell the probability that its occupant reading is right."""
    return _logistic(counter_features(side_share, threshold), weights)


def terrain_probability(token_share: Floats, threshold: float, terrain_pixels: Floats,
                        weights: tuple[float, ...] = TERRAIN_WEIGHTS) -> Floats:
    """Returns per cell without a counter the probability that its terrain reading is right."""
    return _logistic(terrain_features(token_share, threshold, terrain_pixels), weights)
