"""The colour classifier of issue 13, as its callers use it: one name for the four stages.

:mod:`vision.colours` (the piece classes, per-pixel features, adaptation to the photo),
:mod:`vision.evidence` (what each cell's pixels say), :mod:`vision.occluders` (a hand or a cup
over the board) and :mod:`vision.decide` (what a cell needs to be read; the decision itself is
:mod:`vision.trees`'). This module only hands their names on.
"""

from __future__ import annotations

from vision.colours import (
    PAPER,
    SIDE,
    PixelClass,
    PixelModel,
    _assign,
    _rim_blend,
    adapt,
    board_pixels,
    chroma,
    class_names,
    learn,
    separation,
    table_model,
)
from vision.decide import READ_INSIDE
from vision.evidence import CellEvidence, _edge_band, adapted, beyond, evidence, with_reach
from vision.occluders import Occluder, _joined, _token_cells, occluder, refine_occluder

__all__ = [
    "PAPER",
    "READ_INSIDE",
    "SIDE",
    "CellEvidence",
    "Occluder",
    "PixelClass",
    "PixelModel",
    "_assign",
    "_edge_band",
    "_joined",
    "_rim_blend",
    "_token_cells",
    "adapt",
    "adapted",
    "beyond",
    "board_pixels",
    "chroma",
    "class_names",
    "evidence",
    "learn",
    "occluder",
    "refine_occluder",
    "separation",
    "table_model",
    "with_reach",
]
