"""The first renderer's scenes and conditions (:mod:`vision.render` draws them): what lies on the
board, the camera and degradations of one photo, their random sampling for the ``classic`` and
``real`` profiles, and the photo with its truth."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

import cv2
import numpy as np
import numpy.typing as npt

from vision.board import BoardSpec

Level = Literal["clean", "moderate", "heavy-blur"]
Profile = Literal["classic", "real"]
COUNTER_SIZE = 0.74
"""Side of a counter, in cells (as ``referee.picture`` draws them)."""
SKIN = ((224, 172, 140), (198, 134, 96), (160, 106, 72), (110, 70, 48), (236, 196, 170))
"""RGB skin tones of the occluding hands."""
TABLES = ((120, 84, 52), (60, 60, 64), (150, 120, 90), (35, 70, 45), (190, 185, 175))
"""RGB colours of the table under the board."""
STYLES: tuple[dict[str, tuple[int, int, int]], ...] = (
    {},
    {
        "plain": (236, 224, 182),
        "forest": (62, 112, 44),
        "hill": (160, 112, 72),
        "greek": (142, 62, 150),
        "persian": (44, 100, 184),
    },
    {
        "plain": (214, 208, 170),
        "forest": (40, 104, 70),
        "hill": (188, 138, 78),
        "greek": (112, 40, 150),
        "persian": (30, 74, 170),
    },
)
"""Colour styles of the ``real`` profile (other print batches of one box), by colour name; the
first is the tables' own colours. Names missing from a style keep the tables' colour."""


@dataclass(frozen=True)
class Counter:
    """A counter on a cell: its side and printed label."""

    side: str
    label: str
    place: tuple[float, float, float] | None = None
    """Its offset from the cell's centre (u, v, in cells) and its turn in degrees (None: drawn
    within the conditions' ``jitter`` and ``turn_deg``)."""


@dataclass(frozen=True)
class Scene:
    """What lies on the board: terrain per cell (missing: bare board) and counters."""

    terrain: dict[str, str]
    counters: dict[str, Counter]
    markers: bool = True


@dataclass(frozen=True)
class Conditions:
    """Camera and degradations of one photo."""

    width: int = 1280
    height: int = 960
    tilt_deg: float = 0.0
    tilt_dir_deg: float = 0.0
    rotation_deg: float = 0.0
    fill: float = 0.8
    offset: tuple[float, float] = (0.0, 0.0)
    light: tuple[float, float] = (1.0, 1.0)
    light_dir_deg: float = 0.0
    vignette: float = 0.0
    shadow: float = 0.0
    cast: tuple[float, float, float] = (1.0, 1.0, 1.0)
    blur: float = 0.0
    noise: float = 0.0
    jpeg: int = 0
    hands: int = 0
    hand_at: tuple[float, float] | None = None
    """Where the first hand's fingertips point, board (u, v) in cells (None: a random cell of
    the grid); it may lie off the grid, over a marker's tab. It reaches in from the nearest
    photo edge, as a drawn hand does ..."""
    hand_from: tuple[float, float] | None = None
    """... or, when given, from the photo's edge across this board point (u, v), in cells: its
    forearm lies over it (a marker's tab, say)."""
    hand_skin: int | None = None
    """The first hand's skin tone, an index into :data:`SKIN` (None: drawn)."""
    hand_fingers: tuple[float, float, float, float] | None = None
    """The first hand's four finger lengths, in cells (None: each drawn from 0.8 to 1.4)."""
    shadow_band: tuple[float, float, float, float] | None = None
    """The shadow band's centre (shares of the photo's width and height), its angle in degrees
    and its width as a share of the photo's shorter side (None: drawn; ``shadow`` is how dark)."""
    colours: tuple[tuple[str, tuple[int, int, int]], ...] = ()
    """``real`` profile: piece colours (a side's or terrain's name, RGB) used as they are, before
    ``colour_jitter`` would move them (the jitter is still drawn, not applied)."""
    missing_markers: tuple[int, ...] = ()
    jitter: float = 0.04
    turn_deg: float = 5.0
    exposure: float = 1.0
    table: int = 0
    profile: Profile = "classic"
    """``classic``: the project's first renderer (earlier seeds render as before). ``real``: the
    pieces of a real box (see :func:`top_down_real`)."""
    style: int = 0
    """Colour style (print batch) of the ``real`` profile: an index into :data:`STYLES`."""
    colour_jitter: float = 0.0
    """``real`` profile: each piece colour moves by up to this many levels per channel."""


@dataclass
class Rendered:
    """A synthetic photo and its ground truth."""

    image: npt.NDArray[np.uint8]
    cells: dict[str, dict[str, str | None]]
    homography: npt.NDArray[np.float64]
    """Board (u, v) in cells → image pixels."""
    occluded: list[str]
    markers_visible: list[int]
    conditions: Conditions
    extras: dict[str, object] = field(default_factory=dict)

    def truth(self) -> dict[str, object]:
        """Returns the ground truth as JSON-ready data."""
        return {
            "cells": self.cells,
            "homography": self.homography.tolist(),
            "occluded": self.occluded,
            "markers_visible": self.markers_visible,
            "conditions": asdict(self.conditions),
            **self.extras,
        }

    def save(self, path: Path) -> Path:
        """Writes the image (JPEG when the conditions say so, else PNG) and ``<stem>.json``."""
        if self.conditions.jpeg:
            path = path.with_suffix(".jpg")
            ok, data = cv2.imencode(".jpg", self.image, [cv2.IMWRITE_JPEG_QUALITY, self.conditions.jpeg])
        else:
            path = path.with_suffix(".png")
            ok, data = cv2.imencode(".png", self.image)
        assert ok
        path.write_bytes(data.tobytes())
        path.with_suffix(".json").write_text(json.dumps(self.truth(), indent=1, ensure_ascii=False) + "\n")
        return path


def placed(counter: Counter, cond: Conditions, rng: np.random.Generator) -> tuple[float, float, float]:
    """A counter's offset from its cell's centre and its turn: drawn, then the stated ones if any."""
    du, dv = rng.uniform(-cond.jitter, cond.jitter, 2)
    turn = float(rng.uniform(-cond.turn_deg, cond.turn_deg))
    return (float(du), float(dv), turn) if counter.place is None else counter.place


def styled_colours(
    board: BoardSpec, cond: Conditions, rng: np.random.Generator
) -> tuple[dict[str, tuple[int, int, int]], dict[str, tuple[int, int, int]]]:
    """Returns the side and terrain colours (RGB) of one ``real`` photo: the style's, each moved
    by up to ``colour_jitter`` levels per channel."""
    style = STYLES[cond.style % len(STYLES)]

    stated = dict(cond.colours)

    def pick(name: str, rgb: tuple[int, int, int]) -> tuple[int, int, int]:
        base = np.array(style.get(name, rgb), np.float64)
        if cond.colour_jitter:
            base += rng.uniform(-cond.colour_jitter, cond.colour_jitter, 3)  # drawn either way
        if name in stated:
            base = np.array(stated[name], np.float64)
        r, g, b = (int(x) for x in np.clip(np.round(base), 0, 255))
        return (r, g, b)

    sides = {k: pick(k, v) for k, v in board.side_colours.items()}
    terrains = {k: pick(k, v) for k, v in board.terrain_colours.items()}
    return sides, terrains


# ---------------------------------------------------------------------------------------------
# Conditions


def sample_conditions(rng: np.random.Generator, level: Level, width: int = 1280, height: int = 960) -> Conditions:
    """Returns random conditions of a degradation level.

    ``clean``: nearly top-down, even light. ``moderate`` (the targets' set): tilt ≤ 30°, any
    rotation, blur σ ≤ 1.5 px, noise σ ≤ 8, light ×0.7–1.1 with shadows, JPEG 70–95, a hand in
    a quarter of the photos. ``heavy-blur``: as moderate but blur σ 5–9 px.
    """
    if level == "clean":
        return Conditions(
            width=width,
            height=height,
            tilt_deg=float(rng.uniform(0, 8)),
            tilt_dir_deg=float(rng.uniform(0, 360)),
            rotation_deg=float(rng.uniform(-6, 6)),
            fill=float(rng.uniform(0.75, 0.9)),
            noise=1.0,
            jitter=0.02,
            turn_deg=2.0,
        )
    lo = float(rng.uniform(0.7, 0.95))
    blur = float(rng.uniform(5, 9)) if level == "heavy-blur" else float(rng.uniform(0, 1.5))
    return Conditions(
        width=width,
        height=height,
        tilt_deg=float(rng.uniform(0, 30)),
        tilt_dir_deg=float(rng.uniform(0, 360)),
        rotation_deg=float(rng.uniform(0, 360)),
        fill=float(rng.uniform(0.6, 0.92)),
        offset=(float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1))),
        light=(lo, float(rng.uniform(max(lo, 0.95), 1.1))),
        light_dir_deg=float(rng.uniform(0, 360)),
        vignette=float(rng.uniform(0, 0.25)),
        shadow=float(rng.uniform(0.2, 0.45)) if rng.random() < 0.5 else 0.0,
        cast=(float(rng.uniform(0.92, 1.08)), 1.0, float(rng.uniform(0.92, 1.08))),
        blur=blur,
        noise=float(rng.uniform(0, 8)),
        jpeg=int(rng.integers(70, 96)),
        hands=1 if rng.random() < 0.25 else 0,
        jitter=0.05,
        turn_deg=6.0,
        exposure=float(rng.uniform(0.9, 1.05)),
        table=int(rng.integers(0, len(TABLES))),
    )


def sample_real_conditions(
    rng: np.random.Generator,
    width: int = 1920,
    height: int = 1080,
    style: int = 0,
    clean: bool = False,
    hands: float = 0.25,
) -> Conditions:
    """Returns random conditions of the ``real`` profile (issue 13: what real photos of a real
    box show).

    ``clean`` (a calibration photo): nearly top-down, even light, the style's nominal colours.
    Otherwise: piece colours moved by up to ±10 levels per channel, tilt ≤ 30°, any rotation,
    a board cell of about 23-60 px at 1080p, lighting from ×0.6-0.9 to ×1.0-1.2 across the
    photo, a shadow patch 20-45 % darker in half of them, colour temperature ±10 % per channel,
    blur σ ≤ 1.5 px, noise σ ≤ 8, JPEG 70-95, a hand in ``hands`` of them.
    """
    if clean:
        return Conditions(
            width=width,
            height=height,
            tilt_deg=float(rng.uniform(0, 8)),
            tilt_dir_deg=float(rng.uniform(0, 360)),
            rotation_deg=float(rng.uniform(-6, 6)),
            fill=float(rng.uniform(0.75, 0.9)),
            noise=1.0,
            jpeg=92,
            table=int(rng.integers(0, len(TABLES))),
            profile="real",
            style=style,
        )
    lo = float(rng.uniform(0.6, 0.9))
    return Conditions(
        width=width,
        height=height,
        tilt_deg=float(rng.uniform(0, 30)),
        tilt_dir_deg=float(rng.uniform(0, 360)),
        rotation_deg=float(rng.uniform(0, 360)),
        fill=float(rng.uniform(0.42, 0.9)),
        offset=(float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1))),
        light=(lo, float(rng.uniform(1.0, 1.2))),
        light_dir_deg=float(rng.uniform(0, 360)),
        vignette=float(rng.uniform(0, 0.2)),
        shadow=float(rng.uniform(0.2, 0.45)) if rng.random() < 0.5 else 0.0,
        cast=(
            float(rng.uniform(0.9, 1.1)),
            float(rng.uniform(0.9, 1.1)),
            float(rng.uniform(0.9, 1.1)),
        ),
        blur=float(rng.uniform(0, 1.5)),
        noise=float(rng.uniform(0, 8)),
        jpeg=int(rng.integers(70, 96)),
        hands=1 if rng.random() < hands else 0,
        jitter=0.08,
        turn_deg=10.0,
        exposure=float(rng.uniform(0.85, 1.0)),
        table=int(rng.integers(0, len(TABLES))),
        profile="real",
        style=style,
        colour_jitter=10.0,
    )


def random_scene(
    board: BoardSpec, rng: np.random.Generator, labels: dict[str, list[str]], occupied: float = 0.3
) -> Scene:
    """Returns a random scene: terrain tokens on about a quarter of the cells, counters on about
    ``occupied`` of them, labels drawn from ``labels[side]`` (each used at most once)."""
    terrains = board.terrains
    names = board.cell_names()
    terrain = {n: str(rng.choice(terrains[1:])) for n in names if rng.random() < 0.28}
    pools = {side: list(rng.permutation(labels[side])) for side in board.sides}
    counters: dict[str, Counter] = {}
    for n in rng.permutation(names):
        if rng.random() < occupied:
            side = str(rng.choice(board.sides))
            if pools[side]:
                counters[str(n)] = Counter(side, str(pools[side].pop()))
    return Scene(terrain=terrain, counters=counters)
