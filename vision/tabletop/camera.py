"""The camera over the table, and the whole photo: conditions, their sampling, the rendering.

A pinhole camera looks down at the board (tilted, turned, from some height); the board plane
(:mod:`.art`, lit by :mod:`.light`) is projected into it, a hand may hover in front
(:mod:`.hands`), the lamp may glare; then the lens (vignetting, radial distortion) and the
sensor (white balance, exposure, shot noise, sharpening, sRGB, JPEG) make the file.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.board import BoardSpec
from vision.tabletop import art, hands, light

EXTENT = 2.5
"""Board plane drawn around the grid, in cells (markers, the board's border, some table)."""
HIDDEN_SHARE = 0.08
"""A cell counts as under a hand when the hand covers more than this share of it."""


@dataclass(frozen=True)
class TabletopConditions:
    """The camera, the light and what else is in one photo."""

    width: int = 1920
    height: int = 1080
    box: int = 0
    """Which box (print batch) the pieces come from: their colours move with it."""
    table: int = 0
    tilt_deg: float = 0.0
    tilt_dir_deg: float = 0.0
    rotation_deg: float = 0.0
    fov_deg: float = 68.0
    fill: float = 0.8
    offset: tuple[float, float] = (0.0, 0.0)
    lamp: tuple[float, float, float] = (6.0, 6.0, 30.0)
    lamp_kelvin: float = 4000.0
    ambient_kelvin: float = 6500.0
    lamp_share: float = 0.5
    """The lamp's share of the light on the board under it (the rest: the room)."""
    shadow_edge: tuple[float, float, float] | None = None
    shadow_strip: float = 0.0
    penumbra: float = 0.02
    glare: tuple[float, float, float, float, float] | None = None
    """(u, v, radius in cells, strength, stretch) of the lamp's reflection, or None."""
    hand: hands.Hand | None = None
    hand_cell: tuple[float, float] | None = None
    """Board point (u, v) the hand reaches for (its tip is placed there)."""
    vignette: float = 0.0
    k1: float = 0.0
    k2: float = 0.0
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    exposure: float = 1.0
    blur: float = 0.0
    shot_noise: float = 0.001
    read_noise: float = 0.00002
    sharpen: float = 0.0
    jpeg: int = 90


@dataclass
class Shot:
    """A rendered photo and its truth."""

    image: npt.NDArray[np.uint8]
    cells: dict[str, dict[str, str | None]]
    homography: npt.NDArray[np.float64]
    """Board (u, v) in cells → image pixels, before the lens distortion."""
    occluded: list[str]
    conditions: TabletopConditions
    extras: dict[str, object] = field(default_factory=dict)

    def save(self, path: Path) -> Path:
        """Writes the photo as JPEG and its truth as ``<stem>.json``; returns the photo's path."""
        path = path.with_suffix(".jpg")
        ok, data = cv2.imencode(".jpg", self.image, [cv2.IMWRITE_JPEG_QUALITY, self.conditions.jpeg])
        assert ok
        path.write_bytes(data.tobytes())
        truth = {"cells": self.cells, "homography": self.homography.tolist(), "occluded": self.occluded,
                 "conditions": asdict(self.conditions), "renderer": "tabletop"}
        path.with_suffix(".json").write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n")
        return path


def sample_conditions(rng: np.random.Generator, width: int = 1920, height: int = 1080, box: int = 0,
                      clean: bool = False, hand: float = 0.3, shadow: float = 0.6,
                      glare: float = 0.3, counters: list[tuple[float, float]] | None = None) -> TabletopConditions:
    """Returns random conditions. ``clean``: a calibration photo (nearly overhead, soft even
    light, no hand, shadow or glare). Otherwise a hand in ``hand`` of them, a hard shadow in
    ``shadow`` (through one of ``counters``, board points of counters, when given), a glare in
    ``glare``."""
    if clean:
        return TabletopConditions(
            width=width, height=height, box=box, table=int(rng.integers(0, 4)),
            tilt_deg=float(rng.uniform(0, 6)), tilt_dir_deg=float(rng.uniform(0, 360)),
            rotation_deg=float(rng.uniform(-5, 5)), fill=float(rng.uniform(0.75, 0.88)),
            lamp=(6.0, 6.0, 60.0), lamp_kelvin=5000.0, ambient_kelvin=5500.0, lamp_share=0.3,
            shot_noise=0.0004, jpeg=92,
        )
    warm = rng.random() < 0.6
    edge = None
    if rng.random() < shadow:
        u, v = counters[int(rng.integers(0, len(counters)))] if counters else tuple(rng.uniform(2, 10, 2))
        edge = (float(u + rng.uniform(-0.3, 0.3)), float(v + rng.uniform(-0.3, 0.3)), float(rng.uniform(0, 360)))
    reach = None
    if rng.random() < hand:
        reach = (float(rng.uniform(0.5, 11.5)), float(rng.uniform(0.5, 11.5)))
    return TabletopConditions(
        width=width, height=height, box=box, table=int(rng.integers(0, 4)),
        tilt_deg=float(rng.uniform(0, 30)), tilt_dir_deg=float(rng.uniform(0, 360)),
        rotation_deg=float(rng.uniform(0, 360)), fov_deg=float(rng.uniform(60, 78)),
        fill=float(rng.uniform(0.45, 0.9)), offset=(float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1))),
        lamp=(float(rng.uniform(-8, 20)), float(rng.uniform(-8, 20)), float(rng.uniform(8, 26))),
        lamp_kelvin=float(rng.uniform(2700, 4200) if warm else rng.uniform(5000, 6500)),
        ambient_kelvin=float(rng.uniform(5500, 9000) if warm else rng.uniform(3000, 4500)),
        lamp_share=float(rng.uniform(0.4, 0.85)),
        shadow_edge=edge, shadow_strip=float(rng.uniform(0.6, 3.0)) if rng.random() < 0.6 else 0.0,
        penumbra=float(rng.uniform(0.005, 0.06)),
        glare=(float(rng.uniform(1, 11)), float(rng.uniform(1, 11)), float(rng.uniform(0.5, 2.0)),
               float(rng.uniform(0.2, 2.5)), float(rng.uniform(1, 3))) if rng.random() < glare else None,
        hand=hands.Hand(tip=(0, 0), base=(0, 0), width=0, tone=float(rng.uniform(0, 1)),
                        redness=float(rng.uniform(-1, 1)), lift=float(rng.uniform(0.3, 1.5)),
                        spread=float(rng.uniform(0, 1))) if reach else None,
        hand_cell=reach,
        vignette=float(rng.uniform(0, 0.35)), k1=float(rng.uniform(-0.12, 0.04)), k2=float(rng.uniform(-0.02, 0.02)),
        white_balance=(float(rng.uniform(0.88, 1.12)), 1.0, float(rng.uniform(0.88, 1.12))),
        exposure=float(2 ** rng.uniform(-0.4, 0.3)), blur=float(rng.uniform(0, 1.2)),
        shot_noise=float(rng.uniform(0.0003, 0.003)), read_noise=float(rng.uniform(1e-6, 2e-5)),
        sharpen=float(rng.uniform(0, 0.8)), jpeg=int(rng.integers(70, 96)),
    )


def camera(board: BoardSpec, cond: TabletopConditions) -> npt.NDArray[np.float64]:
    """Returns the homography board (u, v) → image pixels: a pinhole camera tilted and turned,
    framing the board and its markers to ``fill`` of the shorter side, shifted by ``offset``."""
    w, h = cond.width, cond.height
    f = w / (2 * math.tan(math.radians(cond.fov_deg) / 2))
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]], np.float64)
    t, d = math.radians(cond.tilt_deg), math.radians(cond.tilt_dir_deg)
    tilt, _ = cv2.Rodrigues(np.array([math.cos(d) * t, math.sin(d) * t, 0.0]))
    roll, _ = cv2.Rodrigues(np.array([0.0, 0.0, math.radians(cond.rotation_deg)]))
    rot = roll @ tilt
    reach = 1.6 + max(board.rows, board.cols) / 2
    dist = reach / math.tan(math.radians(cond.fov_deg) / 2) * 1.2
    centre = np.array([[1, 0, -board.cols / 2], [0, 1, -board.rows / 2], [0, 0, 1]], np.float64)
    h0 = k @ np.column_stack([rot[:, 0], rot[:, 1], np.array([0.0, 0.0, dist])]) @ centre
    frame = np.array([[[-1.6, -1.6], [board.cols + 1.6, -1.6], [board.cols + 1.6, board.rows + 1.6],
                       [-1.6, board.rows + 1.6]]], np.float64)
    pts = cv2.perspectiveTransform(frame, h0)[0]
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    span = hi - lo
    scale = min(cond.fill * min(w, h) / max(span), 0.98 * w / span[0], 0.98 * h / span[1])
    free = np.array([w, h]) - span * scale
    shift = np.array([w, h]) / 2 - (lo + hi) / 2 * scale + np.array(cond.offset) * free / 2 * 0.9
    out: npt.NDArray[np.float64] = np.array([[scale, 0, shift[0]], [0, scale, shift[1]], [0, 0, 1]]) @ h0
    return out


def render(board: BoardSpec, layout: art.Layout, cond: TabletopConditions, seed: int) -> Shot:
    """Returns a photo of a layout under given conditions (deterministic per seed)."""
    rng = np.random.default_rng(seed)
    to_image = camera(board, cond)
    cell_px = _cell_px(to_image, board)
    ppc = int(np.clip(round(cell_px * 1.3), 16, 160))
    plane = art.draw(board, layout, ppc, EXTENT, cond.box, rng, cond.table)
    lamp_rgb, room_rgb = _lights(cond)
    lit = light.Lighting(lamp=cond.lamp, lamp_rgb=tuple(lamp_rgb), ambient_rgb=tuple(room_rgb),
                         edge=cond.shadow_edge, strip=cond.shadow_strip, penumbra=cond.penumbra)
    radiance = plane.albedo * light.irradiance(plane, lit)
    from_plane = np.array([[1 / ppc, 0, 0.5 / ppc - EXTENT], [0, 1 / ppc, 0.5 / ppc - EXTENT], [0, 0, 1]])
    size = (cond.width, cond.height)
    projected = cv2.warpPerspective(radiance, to_image @ from_plane, size, flags=cv2.INTER_LINEAR)
    seen = cv2.warpPerspective(np.ones(radiance.shape[:2], np.float32), to_image @ from_plane, size,
                               flags=cv2.INTER_LINEAR)[:, :, None]
    beyond = art.table((cond.height, cond.width), rng, cond.table) * (lamp_rgb * 0.6 + room_rgb)[None, None, :]
    img = np.asarray(projected * seen + beyond * (1 - seen), np.float32)
    if cond.glare is not None:
        u, v, radius, strength, stretch = cond.glare
        at = cv2.perspectiveTransform(np.array([[[u, v]]], np.float64), to_image)[0, 0]
        img += light.glare(img.shape[:2], (float(at[0]), float(at[1])), radius * cell_px, lamp_rgb, strength,
                           stretch, float(rng.uniform(0, 180)))
    cover = np.zeros(img.shape[:2], np.float32)
    if cond.hand is not None and cond.hand_cell is not None:
        cover = _hand(img, board, cond, to_image, cell_px, room_rgb + lamp_rgb * 0.5)
    img = _lens(img, cond)
    image = _sensor(img, cond, rng)
    names = board.cell_names()
    cells = {n: {"occupant": layout.counters[n].side if n in layout.counters else None,
                 "terrain": layout.terrain.get(n, board.terrains[0]),
                 "label": layout.counters[n].label if n in layout.counters else None} for n in names}
    return Shot(image=image, cells=cells, homography=to_image, occluded=_occluded(cover, board, to_image),
                conditions=cond, extras={"cell_px": cell_px})


def _cell_px(to_image: npt.NDArray[np.float64], board: BoardSpec) -> float:
    grid = np.array([[[0, 0], [board.cols, 0], [board.cols, board.rows], [0, board.rows]]], np.float64)
    quad = cv2.perspectiveTransform(grid, to_image)[0].astype(np.float32)
    return float(math.sqrt(cv2.contourArea(quad) / (board.rows * board.cols)))


def _lights(cond: TabletopConditions) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The lamp's and the room's irradiance (linear RGB), summing to about 1 under the lamp."""
    lamp = light.kelvin(cond.lamp_kelvin) * cond.lamp_share
    room = light.kelvin(cond.ambient_kelvin) * (1 - cond.lamp_share)
    return lamp.astype(np.float32), room.astype(np.float32)


def _hand(img: npt.NDArray[np.float32], board: BoardSpec, cond: TabletopConditions,
          to_image: npt.NDArray[np.float64], cell_px: float, room: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Places the hand (its tip over ``hand_cell``, its arm from the nearest photo edge) and paints it."""
    assert cond.hand is not None and cond.hand_cell is not None
    tip = cv2.perspectiveTransform(np.array([[cond.hand_cell]], np.float64), to_image)[0, 0]
    h, w = img.shape[:2]
    edges = [(tip[0], (-50.0, tip[1])), (w - tip[0], (w + 50.0, tip[1])), (tip[1], (tip[0], -50.0)),
             (h - tip[1], (tip[0], h + 50.0))]
    _, base = min(edges, key=lambda e: e[0])
    lamp = cv2.perspectiveTransform(np.array([[cond.lamp[:2]]], np.float64), to_image)[0, 0] - tip
    towards = lamp / (float(np.linalg.norm(lamp)) or 1.0)
    hand = hands.Hand(tip=(float(tip[0]), float(tip[1])), base=base, width=2.0 * cell_px, tone=cond.hand.tone,
                      redness=cond.hand.redness, lift=cond.hand.lift, spread=cond.hand.spread)
    return hands.draw(img, cond.lamp_share, hand, (float(towards[0]), float(towards[1])), room)


def _lens(img: npt.NDArray[np.float32], cond: TabletopConditions) -> npt.NDArray[np.float32]:
    """Vignetting (cos⁴-like falloff) and radial distortion (each output pixel taken from where
    the undistorted image has it)."""
    h, w = img.shape[:2]
    f = w / (2 * math.tan(math.radians(cond.fov_deg) / 2))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    x, y = (xx - w / 2) / f, (yy - h / 2) / f
    r2 = x * x + y * y
    if cond.k1 or cond.k2:
        grow = 1 + cond.k1 * r2 + cond.k2 * r2 * r2
        map_x, map_y = (x * grow * f + w / 2).astype(np.float32), (y * grow * f + h / 2).astype(np.float32)
        img = np.asarray(cv2.remap(img, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT), np.float32)
    if cond.vignette:
        corner = (w / 2 / f) ** 2 + (h / 2 / f) ** 2
        img = img * (1 - cond.vignette * (r2 / corner))[:, :, None] ** 2
    return img.astype(np.float32)


def _sensor(img: npt.NDArray[np.float32], cond: TabletopConditions, rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    """Auto exposure (the bright board near the top of the range) with its error, white balance
    (grey world on the middle of the photo, then its error), blur, shot and read noise,
    sRGB encoding, sharpening; BGR uint8."""
    h, w = img.shape[:2]
    middle = img[h // 4 : 3 * h // 4, w // 4 : 3 * w // 4].reshape(-1, 3)
    grey = middle.mean(axis=0)
    img = img * (grey.mean() / np.maximum(grey, 1e-4))[None, None, :] * np.asarray(cond.white_balance, np.float32)
    level = float(np.percentile(img[h // 4 : 3 * h // 4, w // 4 : 3 * w // 4].mean(axis=2), 90))
    img = img * (0.75 / max(level, 1e-4) * cond.exposure)
    if cond.blur > 0:
        img = np.asarray(cv2.GaussianBlur(img, (0, 0), cond.blur), np.float32)
    sd = np.sqrt(np.clip(img, 0, None) * cond.shot_noise + cond.read_noise).astype(np.float32)
    img = img + rng.standard_normal(img.shape, dtype=np.float32) * sd
    c = np.clip(img, 0, 1)
    srgb = np.where(c <= 0.0031308, c * 12.92, 1.055 * np.power(c, 1 / 2.4) - 0.055).astype(np.float32) * 255
    if cond.sharpen > 0:
        srgb = srgb + cond.sharpen * (srgb - cv2.GaussianBlur(srgb, (0, 0), 1.2))
    rgb = np.clip(np.round(srgb), 0, 255).astype(np.uint8)
    bgr = np.asarray(cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), np.uint8)
    if cond.jpeg:
        ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, cond.jpeg])
        assert ok
        bgr = np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)
    return bgr


def _occluded(cover: npt.NDArray[np.float32], board: BoardSpec, to_image: npt.NDArray[np.float64]) -> list[str]:
    """The cells a hand covers by more than ``HIDDEN_SHARE`` (cover taken at 8 points per cell side)."""
    if not cover.any():
        return []
    k = 8
    us = (np.arange(board.cols * k) + 0.5) / k
    vs = (np.arange(board.rows * k) + 0.5) / k
    uu, vv = np.meshgrid(us, vs)
    pts = cv2.perspectiveTransform(np.stack([uu, vv], -1).reshape(1, -1, 2), to_image)[0]
    xs = np.clip(np.round(pts[:, 0]).astype(int), 0, cover.shape[1] - 1)
    ys = np.clip(np.round(pts[:, 1]).astype(int), 0, cover.shape[0] - 1)
    covered = (cover[ys, xs] > 0.3).reshape(board.rows, k, board.cols, k).mean(axis=(1, 3)).ravel()
    names = board.cell_names()
    return [names[i] for i in range(len(names)) if covered[i] > HIDDEN_SHARE]
