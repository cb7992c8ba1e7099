"""The per-cell model's fitted part: the probability that a token lies under a counter.

Under a counter only a thin band of the cell shows. Whether a token lies there is read from
that band (:mod:`vision.evidence`): its brightness and the share of the cell leaning toward
the likeliest token's colour. The brightness is read **relative to the photo**: over the
photo's usual band over bare board (the median of its bands, each weighted by its probability
of lying over bare board), so that a lamp, a room light or the counters' own shadows, which
darken every band alike, do not make bare board look like a token. A logistic turns the two
into a probability, fitted on the dev photos of both renderers by ``bench/fit_cell_model.py``;
the reading's confidence is that probability (or its complement), not a rescaled margin. The
band's colour lean is not an input: fitted freely its weight comes out negative, which no
physics supports (see ``docs/decisions/vision-cell-model.md``).

Parameters (fitted by ``bench/fit_cell_model.py``, dev seeds of both renderers, 40 photos each,
2026-11-29; the script prints them and they are copied here):

- ``PLAIN_BAND``: the median brightness of a band over bare board (relative to the bare board
  around the cell); it stands in for the bands a photo with few counters lacks;
- ``PRIOR_BANDS``: how many such bands are counted with the photo's own when taking the median
  (structure, not fitted: a photo with one counter, standing on a token, is still read
  against bare board's usual band);
- ``TOKEN_WEIGHTS``: the logistic's bias and weights of relative brightness and root share.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.intp]

PLAIN_BAND = 0.881
"""Fitted: median brightness of a counter's band over bare board, on the dev photos."""
PRIOR_BANDS = 3
"""Structure: bands at ``PLAIN_BAND`` counted with the photo's own in its median."""
TOKEN_WEIGHTS = (7.94, -14.59, 15.97)
"""Fitted: bias, and the weights of relative brightness and root share, of the logistic giving
the probability that a token lies under a counter."""


def band_features(lean: Floats, share: Floats, type_share: float) -> tuple[Ints, Floats, Floats]:
    """Returns, per counter cell, the likeliest token (largest ``lean + type_share × share``),
    the band's lean toward it and the square root of the share of the cell leaning toward it."""
    kind = lean + type_share * share
    best: Ints = kind.argmax(axis=1)
    rows = np.arange(len(best))
    return best, lean[rows, best], np.sqrt(np.maximum(share[rows, best], 0.0))


def relative_light(light: Floats, plain: Floats, plain_band: float = PLAIN_BAND) -> Floats:
    """Returns each band's brightness over the photo's usual band over bare board: the median
    of the measured bands weighted by ``plain`` (each band's probability of lying over bare
    board), with ``PRIOR_BANDS`` more at ``plain_band``; scaled so that it reads ``plain_band``
    (NaN stays NaN)."""
    measured = np.isfinite(light)
    values = np.r_[light[measured], np.full(PRIOR_BANDS, plain_band)]
    weights = np.r_[np.clip(plain[measured], 0.0, 1.0), np.ones(PRIOR_BANDS)]
    order = np.argsort(values)
    cumulative = np.cumsum(weights[order])
    usual = float(values[order][np.searchsorted(cumulative, cumulative[-1] / 2)])
    out: Floats = light / max(usual, 1e-6) * plain_band
    return out


def token_probability(light: Floats, root_share: Floats, weights: tuple[float, float, float] = TOKEN_WEIGHTS,
                      plain_band: float = PLAIN_BAND) -> Floats:
    """Returns the probability that a token lies under each counter: the fitted logistic of the
    band's relative brightness and root share. The photo's usual band over bare board is found in
    rounds: every band first read as measured, then twice against the usual band taken over the
    bands the previous round found likely over bare board."""
    chance = _logistic(light, root_share, weights)
    for _ in range(2):
        chance = _logistic(relative_light(light, 1.0 - chance, plain_band), root_share, weights)
    return chance


def _logistic(rel: Floats, root_share: Floats, weights: tuple[float, float, float]) -> Floats:
    bias, w_light, w_share = weights
    out: Floats = 1.0 / (1.0 + np.exp(-(bias + w_light * rel + w_share * root_share)))
    return np.where(np.isfinite(rel), out, 0.5)
