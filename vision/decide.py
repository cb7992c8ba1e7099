"""What a cell needs to be read at all. The decision itself (occupant, terrain and confidence per
cell) is the fitted trees' (:mod:`vision.trees`, over the features of :mod:`vision.cell_features`);
the hand-set cascade that made it until 30 November is gone (``docs/decisions/vision-trees-only.md``)."""

from __future__ import annotations

from vision.grid_overlay import LINE_CELLS

READ_INSIDE = 1 - LINE_CELLS / 2
"""Derived: share of a cell's area inside the photo for it to be read (and, in a calibration or a
kept example, to count as labelled): what the photo's edge cuts off may reach no further in than
the outer half of the cell's printed line (``grid_overlay.LINE_CELLS``), where nothing is read
(the evidence reads within ``evidence.INSIDE``): 0.958. Set by hand at 0.98 until 30 November."""
