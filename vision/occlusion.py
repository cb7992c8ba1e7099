"""Stage 4, *occlusion*: how likely each cell is to be hidden (a hand over it, a glare washing it
out), as a probability.

Three signs, each measured on the photo (pixels washed out by a glare are not read at all, see
:attr:`vision.normalise.Normalised.usable`):

- *something foreign*: the pixels no material of the set explains (:attr:`Evidence.unexplained`)
  are scattered over a board (a counter's label, printed art), while a hand or a sleeve makes one
  large patch of them across cells and printed lines. The pixels mostly unexplained are joined
  across the printed lines (a closing of ``LINE_BRIDGE`` pixels) and every patch of at least
  ``FOREIGN_AREA`` cell² is foreign; a cell's measure is the share of it such patches cover;
- *lines hidden*: the share of its four printed lines not seen (:func:`vision.normalise.lines_seen`),
  cubed (:func:`lines_hidden`): a shadow leaves them, a hand or a glare hides them;
- *glare near*: washed-out pixels in the cell or next to it (:func:`glare_near`): the rest of the
  glare pales the colours around its core.

The probability is a logistic of the three, its four weights fitted on development renders of
both renderers with the rest of the model (``bench/fit_vision_model.py``): a hidden cell's pixels
say nothing, so its posterior falls back to the prior (:mod:`vision.decide`).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.evidence import Evidence
from vision.model_config import ModelConfig
from vision.normalise import Normalised, Q

F64 = npt.NDArray[np.float64]

FOREIGN_AREA = 1.5
"""Smallest patch of unexplained pixels (cell², over the grid) taken as something over the
board: two fingers' size; a token's print or a fleck spans a fraction of a cell and is cut off
from its neighbours' by the board between them (a fingertip over part of one cell is left to
that cell's own evidence)."""
LINE_BRIDGE = 9
"""Closing (pixels at ``Q``) that joins unexplained pixels across a printed line, which is not
read (at most 7 pixels wide)."""


@dataclass(frozen=True)
class Occlusion:
    """Per cell, the probability that it is hidden, and the measures it comes from."""

    hidden: F64
    """(cells,) probability that something over the cell hides it."""
    foreign: F64
    """(cells,) share of the cell under large patches of pixels no material explains."""


def foreign_cover(ev: Evidence, rows: int, cols: int) -> F64:
    """(cells,) share of each cell covered by a patch of mostly unexplained pixels of at least
    ``FOREIGN_AREA`` cell² (joined across the printed lines)."""
    cells = ev.unexplained
    grid = cells.reshape(rows, cols, Q, Q).swapaxes(1, 2).reshape(rows * Q, cols * Q)
    mask = (grid > 0.5).astype(np.uint8)
    joined = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((LINE_BRIDGE, LINE_BRIDGE), np.uint8))
    count, labels, stats, _centres = cv2.connectedComponentsWithStats(joined, connectivity=8)
    big = np.zeros(count, bool)
    big[1:] = stats[1:, cv2.CC_STAT_AREA] >= FOREIGN_AREA * Q * Q
    covered = big[labels]
    share: F64 = covered.reshape(rows, Q, cols, Q).mean(axis=(1, 3)).reshape(-1).astype(np.float64)
    return share


def lines_hidden(norm: Normalised) -> F64:
    """(cells,) the cube of the share of a cell's four printed lines not seen: a hand over a cell
    hides all four, while a token's or a counter's edge beside a line hides part of one, which
    the cube leaves at next to nothing (a quarter hidden counts 0.016, three quarters 0.42)."""
    out: F64 = (1 - norm.lines.mean(axis=1)) ** 3
    return out


def glare_near(norm: Normalised) -> F64:
    """(cells,) the square root of the largest share of washed-out pixels in the cell and its
    eight neighbours: around a glare's washed-out core, the light it adds fades over a cell or
    two, paling every colour there (a square root: a few washed pixels next door already say so)."""
    washed = norm.saturated.reshape(norm.rows, norm.cols)
    pad = np.pad(washed, 1)
    near = np.max([pad[i : i + norm.rows, j : j + norm.cols] for i in range(3) for j in range(3)], axis=0)
    out: F64 = np.sqrt(near).reshape(-1)
    return out


def features(norm: Normalised, ev: Evidence) -> F64:
    """(cells, 3): the foreign cover, the share of the printed lines not seen (cubed) and the
    glare next to the cell, the logistic's inputs."""
    return np.stack([foreign_cover(ev, norm.rows, norm.cols), lines_hidden(norm), glare_near(norm)], axis=1)


def occlusion(norm: Normalised, ev: Evidence, cfg: ModelConfig) -> Occlusion:
    """Returns each cell's probability of being hidden."""
    x = features(norm, ev)
    z = cfg.hidden_bias + cfg.hidden_foreign * x[:, 0] + cfg.hidden_lines * x[:, 1] + cfg.hidden_glare * x[:, 2]
    hidden: F64 = 1 / (1 + np.exp(-z))
    hidden.setflags(write=False)
    return Occlusion(hidden=hidden, foreign=x[:, 0])
