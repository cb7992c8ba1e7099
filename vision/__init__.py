"""Reading a board from an overhead photo: photo → registered top-down board → per-cell labels.

The stages (HOUSE_STYLE §9), each a module with pure functions given only its part of the
configuration: :mod:`vision.load` (size capped before decoding) → :mod:`vision.register`
(printed ArUco corner markers, board-outline fallback) → :mod:`vision.grid_overlay` (warp to a
top-down board, cell pixels) → :mod:`vision.adaptive` (piece colours adapted to the photo;
occupant side and terrain per cell, with
a confidence; counter labels for identity) → :mod:`vision.pipeline` (``observe``, the
orchestrator). :mod:`vision.calibrate` learns a set's colours from a photo of a known position;
:mod:`vision.render` draws synthetic photos with ground truth; :mod:`vision.markers` draws the
printable corner tabs. The package imports ``cv2`` and ``numpy`` and, from the referee, only its
grid geometry, table loading, picture drawing and errors; it never imports a game.
"""

import os

# OpenCV's own log would reach stderr beside our one-line errors; silence it before any cv2 import.
os.environ.setdefault("OPENCV_LOG_LEVEL", "OFF")
