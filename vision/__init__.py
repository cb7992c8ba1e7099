"""Reading a board from an overhead photo: photo → registered top-down board → per-cell labels.

The stages, each a module with pure functions given only its part of the
configuration: :mod:`vision.load` (size, scans and pixels capped before decoding) →
:mod:`vision.register` (printed ArUco corner markers; the board-outline fallback in
:mod:`vision.outline`) → :mod:`vision.grid_overlay` (warp to a top-down board, cell pixels) →
:mod:`vision.shade` (hard shadows lit away, glare found) → :mod:`vision.adaptive` (piece colours
adapted to the photo, :mod:`vision.colours`; per-cell evidence, :mod:`vision.evidence`;
occluders, :mod:`vision.occluders`) → :mod:`vision.trees` (occupant side, terrain and a
probability per cell, from fitted trees over :mod:`vision.cell_features`; counter labels for
identity, :mod:`vision.labels`) →
:mod:`vision.pipeline` (``observe``, the orchestrator). :mod:`vision.calibrate` learns a set's
colours from a photo of a known position, :mod:`vision.examples` re-fits them from the photos a
table settled; :mod:`vision.render` and :mod:`vision.tabletop` (written apart from the reader)
draw synthetic photos with ground truth; :mod:`vision.markers` draws the printable corner tabs.
The package imports ``cv2`` and ``numpy`` and, from the referee, only its core (grid geometry,
table loading, the OpenCV loader of :mod:`referee.images`, the marker layout of
:mod:`referee.markers`, errors, and the board picture the first renderer reuses); it never
imports a game.
"""

import os

# OpenCV's own log would reach stderr beside our one-line errors; silence it before any cv2 import.
os.environ.setdefault("OPENCV_LOG_LEVEL", "OFF")
