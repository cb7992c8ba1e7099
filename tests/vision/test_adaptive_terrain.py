"""Issue 13, terrain reading: class adaptation beside a hand of a token's colour, and the band around a counter."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import adaptive
from vision.config import ClassifyConfig, VisionConfig
from vision.pipeline import read
from vision.render import random_scene

from .helpers import board, shoot

LABELS = {side: [f"{side[:1].upper()}{n:02d}" for n in range(20)] for side in ("greek", "persian")}

WHITE = np.array([245.0, 245.0, 245.0])
PPC = 48


def _chroma(rgb: tuple[int, int, int]) -> np.ndarray:
    return adaptive.chroma(np.array([[rgb[::-1]]], np.float32), WHITE)[0, 0, :2]


def _scene() -> tuple[np.ndarray, list[tuple[int, int]]]:
    """A top-down grid: bare board, hill tokens (0.83 cell) in the lower rows printed in another
    batch (their colour far from the tables'), and a skin-coloured hand over 5 x 6 cells."""
    rng = np.random.default_rng(3)
    img = np.empty((12 * PPC, 12 * PPC, 3), np.float32)
    img[:] = (160, 214, 226)  # BGR of the bare board
    tokens = [(r, c) for r in range(5, 12) for c in range(12) if (r * 7 + c * 3) % 5 == 0]
    for r, c in tokens:
        img[r * PPC + 4 : (r + 1) * PPC - 4, c * PPC + 4 : (c + 1) * PPC - 4] = (50, 124, 200)
    img[0 : 5 * PPC - 10, 6 * PPC + 10 : 12 * PPC] = (80, 132, 180)
    img += rng.normal(0, 3, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8), tokens


def _hills_read(cfg: ClassifyConfig) -> tuple[int, adaptive.PixelClass]:
    grid, tokens = _scene()
    seed = adaptive.table_model(board(), cfg)
    ev = adaptive.evidence(grid, np.ones(grid.shape[:2], bool), WHITE, board(), seed, cfg)
    # a hill token's inner square in the hill class (the decision reads these shares)
    hill = board().terrains.index("hill")
    right = sum(1 for r, c in tokens if ev.terrain_share[r * 12 + c, hill] >= cfg.counter_share)
    return right, ev.model.classes["hill"]


def test_a_hand_of_a_tokens_colour_does_not_pull_its_class() -> None:
    cfg = ClassifyConfig()
    seed = np.array(adaptive.table_model(board(), cfg).classes["hill"].mean)
    hill, skin = _chroma((200, 124, 50)), _chroma((180, 132, 80))
    # the premise: the skin lies nearer the tables' hill than this batch's hills do
    assert np.hypot(*(skin - seed)) < 0.5 * np.hypot(*(hill - seed))
    _, tokens = _scene()
    right, cls = _hills_read(cfg)
    assert right == len(tokens)
    assert np.hypot(*(np.array(cls.mean) - hill)) < 0.01
    # without leaving the hand out, the class follows the hand and narrows there: hills unread
    right, cls = _hills_read(cfg.model_copy(update={"adapt_max_blob": 1e9}))
    assert right == 0
    assert np.hypot(*(np.array(cls.mean) - skin)) < 0.01


def _counter_cells(blur: float) -> tuple[np.ndarray, list[int]]:
    """A bare board (the tables' colours) with a persian counter 0.7 cell wide on a hill token
    0.88 cell wide (cell F6) and one on bare board (cell F9), blurred so the counter's colour
    bleeds into the band around it."""
    b = board()
    plain, hill = b.terrain_colours["plain"], b.terrain_colours["hill"]
    blue = b.side_colours["persian"]
    img = np.empty((12 * PPC, 12 * PPC, 3), np.float32)
    img[:] = plain[::-1]
    cells = [5 * 12 + 5, 5 * 12 + 8]
    for i, token in zip(cells, (True, False), strict=True):
        r, c = divmod(i, 12)
        y, x = r * PPC, c * PPC
        if token:
            t0 = round(0.06 * PPC)
            img[y + t0 : y + PPC - t0, x + t0 : x + PPC - t0] = hill[::-1]
        k0 = round(0.15 * PPC)
        img[y + k0 : y + PPC - k0, x + k0 : x + PPC - k0] = blue[::-1]
    img = cv2.GaussianBlur(img, (0, 0), blur)
    return np.clip(img, 0, 255).astype(np.uint8), cells


def _band_lean(cfg: ClassifyConfig, blur: float) -> np.ndarray:
    b = board()
    grid, cells = _counter_cells(blur)
    seed = adaptive.table_model(b, cfg, tuple(WHITE))
    names = adaptive.class_names(b)
    means = np.array([seed.classes[n].mean for n in names])
    sds = np.array([seed.classes[n].sd for n in names])
    persian = list(b.sides).index("persian")
    light = adaptive.chroma(np.array([[b.terrain_colours["plain"][::-1]]], np.float32), WHITE)[0, 0, 2]
    _light, lean = adaptive._edge_band(
        grid,
        np.ones(grid.shape[:2], bool),
        WHITE,
        np.array(cells),
        np.array([persian, persian]),
        means,
        sds,
        np.full(2, float(light)),
        b,
        cfg,
    )
    return lean


def test_a_token_blended_with_the_counters_colour_still_leans_toward_it() -> None:
    cfg = ClassifyConfig()
    hill = list(board().terrains).index("hill")
    lean = _band_lean(cfg, 2.5)
    # the band around the counter on the hill leans well toward the hill, the one on bare board
    # toward no token
    assert lean[0, hill] > 0.35
    assert np.abs(lean[1, 1:]).max() < 0.15
    # without taking the counter's colour out, the blended band hides the hill
    old = _band_lean(cfg.model_copy(update={"edge_unmix": 2.0}), 2.5)
    assert old[0, hill] < 0.0 < lean[0, hill] - 0.35


@pytest.mark.parametrize("seed", [418, 689])
def test_the_band_is_read_past_a_counters_light_border(tmp_path: Path, seed: int) -> None:
    # on the classic renders a counter's light border, blurred, brightens the inner edge of the
    # band around it: read past it, a token's band is darker and bare board's is not
    b = board()
    scene = random_scene(b, np.random.default_rng(seed), LABELS)
    path, rendered = shoot(tmp_path, scene, seed, "moderate", (1920, 1080), hands=0)
    names = b.cell_names()

    def gap(skip: float) -> float:
        cfg = VisionConfig()
        cfg = cfg.model_copy(update={"classify": cfg.classify.model_copy(update={"edge_light_skip": skip})})
        light = read(path, b, cfg, None, strict=False).evidence.edge_light
        assert light is not None
        held = {n: t["terrain"] for n, t in rendered.cells.items() if t["occupant"]}
        token = [light[names.index(n)] for n, t in held.items() if t != "plain"]
        bare = [light[names.index(n)] for n, t in held.items() if t == "plain"]
        return float(np.median(bare) - np.median(token))

    assert gap(ClassifyConfig().edge_light_skip) > gap(0.0) + 0.03
