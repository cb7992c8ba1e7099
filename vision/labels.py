"""Telling counters of one side apart by their printed label.

The photo's colours say which side a counter belongs to, not which legion it is. Each counter
carries a label, printed light on its side's colour; comparing the light ink in a window around
the cell centre with each candidate's template (normalised cross-correlation over small shifts)
scores how well each legion fits. Default templates are drawn the way the project's renderer
draws counters; calibration replaces them with crops of the user's own counters.

The scores are evidence, not decisions: the rules engine keeps every legion whose score is
close to the best one and asks when the labels cannot separate the legal explanations.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import TypeVar

import cv2
import numpy as np
import numpy.typing as npt

from vision.config import IdentityConfig
from vision.grid_overlay import Warped
from vision.render import Counter, counter_sprite

Template = npt.NDArray[np.float32]
ArrayT = TypeVar("ArrayT", bound=np.generic)
INK_LEVELS = 200
"""A calibration file stores a template as an 8-bit PNG of its ink times this (the paper's white,
ink 1, at 200), so it holds ink up to 255/200 = 1.275 of the paper's white: a format number."""


def ink(bgr: npt.NDArray[np.uint8], white: npt.NDArray[np.float64]) -> npt.NDArray[np.float32]:
    """Returns the light-ink map of a BGR picture: the smallest white-balanced channel, so light
    labels on saturated counters stand out (0 dark or saturated, about 1 white), capped where a
    calibration file's template stops (255 / ``INK_LEVELS``), so a glare on a label counts no
    more in a photo than in a saved template."""
    b, g, r = cv2.split(bgr)
    chans = [
        np.asarray(c, np.float32) * np.float32(1.0 / float(w)) for c, w in zip((b, g, r), white, strict=True)
    ]
    out = np.minimum(np.minimum(chans[0], chans[1]), chans[2])
    return np.asarray(np.minimum(out, 255 / INK_LEVELS), np.float32)


def _window(cfg: IdentityConfig, ppc: int) -> tuple[int, int]:
    return max(1, round(cfg.window[0] * ppc)), max(1, round(cfg.window[1] * ppc))  # never empty


_TEMPLATES: dict[str, dict[str, list[Template]]] = {}


def default_templates(
    labels: Mapping[str, tuple[str, str]],
    colours: Mapping[str, tuple[int, int, int]],
    cfg: IdentityConfig,
    ppc: int,
) -> dict[str, list[Template]]:
    """Returns legion → templates (one, as drawn) drawn like the renderer's counters.

    Args:
        labels: legion name → (side, printed label).
        colours: side → RGB colour of its counters.
        cfg: identity settings.
        ppc: pixels per cell of the warped board the templates will be matched in.
    """
    key = f"{sorted(labels.items())}{sorted(colours.items())}{cfg.model_dump_json()}{ppc}"
    if key in _TEMPLATES:
        return dict(_TEMPLATES[key])
    ww, wh = _window(cfg, ppc)
    out: dict[str, list[Template]] = {}
    for legion, (side, text) in labels.items():
        sprite = counter_sprite(Counter(side, text), colours[side], ppc)
        s = sprite.shape[0]
        canvas = np.zeros((ppc, ppc, 3), np.uint8)
        canvas[:] = sprite[s // 2, 1].tolist()
        a = (ppc - s) // 2
        canvas[a : a + s, a : a + s] = sprite
        ink_map = ink(canvas, np.array([255.0, 255.0, 255.0]))
        x, y = (ppc - ww) // 2, (ppc - wh) // 2
        crop = np.ascontiguousarray(ink_map[y : y + wh, x : x + ww])
        out[legion] = [crop]
    _TEMPLATES[key] = out
    return dict(out)


def cell_region(
    picture: npt.NDArray[ArrayT], warped: Warped, row: int, col: int, cfg: IdentityConfig
) -> npt.NDArray[ArrayT]:
    """Returns a warp-sized picture's label window (plus the search margin) around a cell's
    centre."""
    ppc, p = warped.ppc, warped.pad_px
    ww, wh = _window(cfg, ppc)
    reach = round(cfg.search * ppc)
    cx, cy = p + col * ppc + ppc // 2, p + row * ppc + ppc // 2
    x0, y0 = cx - ww // 2 - reach, cy - wh // 2 - reach
    return picture[max(0, y0) : y0 + wh + 2 * reach, max(0, x0) : x0 + ww + 2 * reach]


def strokes(ink_map: npt.NDArray[np.float32], ppc: int) -> npt.NDArray[np.float32]:
    """Returns the ink map minus its blurred self (σ = 1/20 cell): the letters' strokes without
    the counter's overall shading, which every label shares."""
    blurred = cv2.GaussianBlur(ink_map, (0, 0), max(1.0, ppc / 20))
    return np.asarray(ink_map - blurred, np.float32)


def score(region: npt.NDArray[np.float32], templates: list[Template]) -> float:
    """Returns the best normalised cross-correlation of a legion's templates over a region
    (both as :func:`strokes`)."""
    best = -1.0
    for template in templates:
        if region.shape[0] < template.shape[0] or region.shape[1] < template.shape[1]:
            continue
        value = float(cv2.matchTemplate(region, template, cv2.TM_CCOEFF_NORMED).max())
        if np.isfinite(value) and value > best:
            best = value
    return best


def label_scores(
    warped: Warped,
    white: npt.NDArray[np.float64],
    cells: Mapping[str, tuple[int, int, str]],
    labels: Mapping[str, tuple[str, str]],
    templates: Mapping[str, list[Template]],
    cfg: IdentityConfig,
) -> dict[str, dict[str, float]]:
    """Returns cell name → {legion: score} for the counters seen, against the legions of the
    side seen on each cell.

    Args:
        warped: the top-down board (at the identity scale).
        white: the white reference (BGR).
        cells: cell name → (row, column, side seen) for each cell showing a counter.
        labels: legion → (side, printed label).
        templates: legion → templates (default or calibrated).
        cfg: identity settings.
    """
    out: dict[str, dict[str, float]] = {}
    ppc = warped.ppc
    filtered = {k: [strokes(t, ppc) for t in v] for k, v in templates.items()}
    for name, (row, col, side) in cells.items():
        region = strokes(ink(cell_region(warped.image, warped, row, col, cfg), white), ppc)
        out[name] = {
            legion: round(score(region, filtered[legion]), 4)
            for legion, (s, _) in labels.items()
            if s == side and legion in templates
        }
    return out


def crop_template(
    warped: Warped,
    row: int,
    col: int,
    white: npt.NDArray[np.float64],
    near: list[Template],
    cfg: IdentityConfig,
) -> Template:
    """Returns the template of a counter in a calibration photo: the window where a reference
    template (the default one) fits best, so the crop is centred on the label."""
    region = ink(cell_region(warped.image, warped, row, col, cfg), white)
    ref = near[0]
    h, w = ref.shape
    if region.shape[0] < h or region.shape[1] < w:
        return ref
    result = cv2.matchTemplate(region, ref, cv2.TM_CCOEFF_NORMED)
    _, _, _, (x, y) = cv2.minMaxLoc(result)
    return np.ascontiguousarray(region[y : y + h, x : x + w])


def encode_template(template: Template) -> str:
    """Returns a template as base64 PNG text (ink scaled by ``INK_LEVELS``), for calibration files."""
    ok, data = cv2.imencode(".png", np.clip(template * INK_LEVELS, 0, 255).astype(np.uint8))
    assert ok
    return base64.b64encode(data.tobytes()).decode("ascii")


def decode_template(text: str) -> Template | None:
    """Returns a template from :func:`encode_template` text, or None if it is not one."""
    try:
        data = base64.b64decode(text.encode("ascii"), validate=True)
    except ValueError:
        return None
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
    if img is None or img.ndim != 2 or min(img.shape) < 4 or max(img.shape) > 512:
        return None
    return (img.astype(np.float32) / INK_LEVELS).astype(np.float32)
