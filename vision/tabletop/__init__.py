"""A second renderer of board photos, written apart from the reader and from :mod:`vision.render`.

It exists to measure the reader on photos it was not tuned on. Nothing here is shared with the
first renderer or the reader: the board art, the pieces, the light and the camera are modelled
from scratch, in linear light, as a phone would take them over a table:

- *art* (:mod:`.art`): a printed board with its own grid, border and coordinates, separate terrain
  tokens and counters with thickness, drawn with textures (paper fibre, printed trees and
  contour lines, a wood or cloth table), the pieces' colours moved per box (print batch);
- *light* (:mod:`.light`): a lamp (a point light, falling off with distance, warm or cool)
  beside an ambient light of another colour, so shadows are coloured; short shadows of the
  pieces; a hard-edged shadow of some object (a ruler, a lamp arm) across occupied cells; a
  specular glare of the lamp on the board;
- *hands* (:mod:`.hands`): a hand and forearm of a skin tone drawn from a continuous range, with
  soft edges, rounded shading and a blurred cast shadow on the board;
- *camera* (:mod:`.camera`): a pinhole camera over the table (tilt, turn, height), radial lens
  distortion, vignetting, white balance error, exposure, shot noise, sharpening, JPEG.

Entry points: :func:`sample_conditions` and :func:`render`. The truth (per-cell occupant,
terrain and label, the cells a hand hides, the board → image homography before distortion)
comes with every photo.
"""

from __future__ import annotations

from vision.tabletop.camera import Shot, TabletopConditions, render, sample_conditions

__all__ = ["Shot", "TabletopConditions", "render", "sample_conditions"]
