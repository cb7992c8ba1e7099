"""What a cell needs to be read at all. The decision itself (occupant, terrain and confidence per
cell) is the fitted trees' (:mod:`vision.trees`, over the features of :mod:`vision.cell_features`);
the hand-set cascade that made it until 30 November is gone (``docs/decisions/vision-trees-only.md``)."""

from __future__ import annotations

READ_INSIDE = 0.98
"""Share of a cell's area inside the photo for it to be read (and, in a calibration or a kept
example, to count as labelled)."""
