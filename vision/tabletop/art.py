"""The table, the printed board and the pieces, seen from straight above, as linear albedo.

Board frame: board point (u, v), in cells, is at pixel ``((u + extent) * ppc, (v + extent) * ppc)``
of the arrays drawn here. Albedos are linear RGB in [0, 1] (the tables' sRGB colours decoded);
heights are in cells above the table (the board 0.01, tokens 0.02 more, counters 0.05 more).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np
import numpy.typing as npt

from vision.board import BoardSpec

Image = npt.NDArray[np.float32]
RGB = tuple[float, float, float]
BOARD_MARGIN = 0.6
"""Printed border around the grid, in cells (this renderer's own board art)."""
TOKEN_SIDE = (0.82, 0.96)
"""Side of a terrain token, in cells (smallest, largest)."""
COUNTER_SIDE = (0.58, 0.78)
"""Side of a counter, in cells (smallest, largest)."""


class Piece(Protocol):
    """A counter as a scene describes it: its side and printed label."""

    @property
    def side(self) -> str: ...

    @property
    def label(self) -> str: ...


class Layout(Protocol):
    """What lies on the board: terrain per cell (missing: bare board) and counters per cell."""

    @property
    def terrain(self) -> Mapping[str, str]: ...

    @property
    def counters(self) -> Mapping[str, Piece]: ...


@dataclass(frozen=True)
class Plane:
    """The board plane drawn from above: albedo, height, and which pixels hold a piece."""

    albedo: Image
    """(h, w, 3) linear RGB."""
    height: Image
    """(h, w) in cells."""
    ppc: int
    extent: float


def linear(rgb: tuple[int, int, int] | RGB) -> npt.NDArray[np.float32]:
    """Returns an sRGB colour (0-255) as linear RGB in [0, 1]."""
    c = np.asarray(rgb, np.float32) / 255
    out: npt.NDArray[np.float32] = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4).astype(np.float32)
    return out


def box_colours(board: BoardSpec, box: int) -> dict[str, npt.NDArray[np.float32]]:
    """Returns each side's and terrain's linear colour for one box (print batch): the tables'
    colours with hue, saturation and value moved by the batch (the same box, the same colours)."""
    rng = np.random.default_rng(7_000_000 + box)
    out: dict[str, npt.NDArray[np.float32]] = {}
    for name, rgb in {**board.terrain_colours, **board.side_colours}.items():
        hsv = cv2.cvtColor(np.array([[list(rgb)]], np.uint8), cv2.COLOR_RGB2HSV_FULL).astype(np.float32)[0, 0]
        hsv[0] = (hsv[0] + rng.uniform(-6, 6)) % 256
        hsv[1] = np.clip(hsv[1] * rng.uniform(0.85, 1.12), 0, 255)
        hsv[2] = np.clip(hsv[2] * rng.uniform(0.9, 1.06), 0, 255)
        moved = cv2.cvtColor(np.array([[np.round(hsv)]], np.uint8), cv2.COLOR_HSV2RGB_FULL)[0, 0]
        out[name] = linear((int(moved[0]), int(moved[1]), int(moved[2])))
    return out


def fibre(shape: tuple[int, int], rng: np.random.Generator, scale: float, amount: float) -> Image:
    """Returns a multiplicative texture around 1: smooth blotches plus fine grain."""
    h, w = shape
    coarse = cv2.resize(rng.normal(0, 1, (max(2, int(h / scale)), max(2, int(w / scale)))).astype(np.float32), (w, h))
    fine = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 0.7)
    out: Image = (1 + amount * (0.6 * coarse + 0.4 * fine)).astype(np.float32)
    return out


def table(shape: tuple[int, int], rng: np.random.Generator, kind: int) -> Image:
    """Returns a table top: wood (rings bent by noise), a woven cloth, or a speckled laminate."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    base = linear(((150, 104, 66), (70, 74, 92), (205, 200, 188), (46, 70, 52))[kind % 4])
    if kind % 4 == 0:
        warp = cv2.resize(rng.normal(0, 1, (8, 8)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        rings = np.sin((yy / h * 40 + warp * 3.0) * math.pi) * 0.5 + 0.5
        grain = 0.75 + 0.25 * rings[:, :, None]
    elif kind % 4 == 1:
        weave = (np.sin(xx * 1.9) * np.sin(yy * 1.9)) * 0.5 + 0.5
        grain = 0.85 + 0.15 * weave[:, :, None]
    else:
        grain = np.ones((h, w, 1), np.float32)
    out: Image = (base[None, None, :] * grain * fibre(shape, rng, 40, 0.12)[:, :, None]).astype(np.float32)
    return out


def draw(board: BoardSpec, layout: Layout, ppc: int, extent: float, box: int, rng: np.random.Generator,
         table_kind: int) -> Plane:
    """Returns the board plane: table, board, markers, tokens and counters."""
    side_px = round((max(board.rows, board.cols) + 2 * extent) * ppc)
    shape = (side_px, side_px)
    colours = box_colours(board, box)
    albedo = table(shape, rng, table_kind)
    height = np.zeros(shape, np.float32)
    plain = colours[board.terrains[0]]

    def px(u: float) -> float:
        return (u + extent) * ppc

    b0, b1 = round(px(-BOARD_MARGIN)), round(px(board.cols + BOARD_MARGIN))
    c1 = round(px(board.rows + BOARD_MARGIN))
    paper = fibre((c1 - b0, b1 - b0), rng, 12, 0.035)
    albedo[b0:c1, b0:b1] = plain[None, None, :] * paper[:, :, None]
    height[b0:c1, b0:b1] = 0.01
    _grid(albedo, board, ppc, px)
    _markers(albedo, board, ppc, px)
    names = board.cell_names()
    for n, name in enumerate(names):
        terrain = layout.terrain.get(name, board.terrains[0])
        if terrain == board.terrains[0]:
            continue
        row, col = divmod(n, board.cols)
        side = rng.uniform(*TOKEN_SIDE)
        room = (1 - side) / 2 * 0.8
        centre = (px(col + 0.5 + rng.uniform(-room, room)), px(row + 0.5 + rng.uniform(-room, room)))
        _token(albedo, height, terrain, colours[terrain], centre, side * ppc, float(rng.uniform(-5, 5)), rng)
    for name, piece in layout.counters.items():
        row, col = divmod(names.index(name), board.cols)
        side = rng.uniform(*COUNTER_SIDE)
        room = (1 - side) / 2 * 0.7
        centre = (px(col + 0.5 + rng.uniform(-room, room)), px(row + 0.5 + rng.uniform(-room, room)))
        _counter(albedo, height, piece.label, colours[piece.side], centre, side * ppc, float(rng.uniform(-12, 12)))
    return Plane(albedo=albedo, height=height, ppc=ppc, extent=extent)


def _grid(albedo: Image, board: BoardSpec, ppc: int, px: object) -> None:
    """Grid lines, a thicker outer border and the coordinates (letters down, numbers across)."""
    assert callable(px)
    ink = linear((52, 46, 40))
    canvas = np.zeros(albedo.shape[:2], np.uint8)
    thin, thick = max(1, round(ppc / 30)), max(2, round(ppc / 14))
    for r in range(board.rows + 1):
        y = round(px(r))
        cv2.line(canvas, (round(px(0)), y), (round(px(board.cols)), y), 255, thick if r in (0, board.rows) else thin)
    for c in range(board.cols + 1):
        x = round(px(c))
        cv2.line(canvas, (x, round(px(0))), (x, round(px(board.rows))), 255, thick if c in (0, board.cols) else thin)
    scale = ppc / 70
    for c in range(board.cols):
        cv2.putText(canvas, str(c + 1), (round(px(c + 0.38)), round(px(-0.15))), cv2.FONT_HERSHEY_DUPLEX, scale, 255,
                    max(1, ppc // 40), cv2.LINE_AA)
    for r in range(board.rows):
        cv2.putText(canvas, chr(ord("A") + r), (round(px(-0.45)), round(px(r + 0.62))), cv2.FONT_HERSHEY_DUPLEX,
                    scale, 255, max(1, ppc // 40), cv2.LINE_AA)
    alpha = canvas.astype(np.float32)[:, :, None] / 255 * 0.9
    albedo[:] = albedo * (1 - alpha) + ink[None, None, :] * alpha


def _markers(albedo: Image, board: BoardSpec, ppc: int, px: object) -> None:
    """The corner tabs: white card, the ArUco marker, a thin L toward the grid corner."""
    assert callable(px)
    layout = board.markers
    ident = getattr(cv2.aruco, layout.dictionary)
    dictionary = cv2.aruco.getPredefinedDictionary(ident)
    white, black = linear((238, 238, 232)), linear((24, 24, 26))
    for p in layout.placements:
        size = round(layout.size * ppc)
        x0, y0 = round(px(p.u)), round(px(p.v))
        q = round(0.18 * ppc)
        albedo[y0 - q : y0 + size + q, x0 - q : x0 + size + q] = white
        code = cv2.aruco.generateImageMarker(dictionary, p.id, size).astype(np.float32) / 255
        albedo[y0 : y0 + size, x0 : x0 + size] = black + (white - black) * code[:, :, None]


def _token(albedo: Image, height: Image, terrain: str, colour: npt.NDArray[np.float32],
           centre: tuple[float, float], side: float, angle: float, rng: np.random.Generator) -> None:
    """A terrain token: its colour with printed art (trees, or contour lines) and a paper grain."""
    s = max(8, round(side))
    tile = np.empty((s, s, 3), np.float32)
    tile[:] = colour
    tile *= fibre((s, s), rng, 6, 0.05)[:, :, None]
    dark = colour * 0.55
    if terrain == "forest":
        for _ in range(5):
            cx, cy, r = rng.uniform(0.2, 0.8) * s, rng.uniform(0.2, 0.8) * s, rng.uniform(0.07, 0.12) * s
            cv2.circle(tile, (round(cx), round(cy)), max(2, round(r)), dark.tolist(), -1, cv2.LINE_AA)
    else:
        for k in (0.18, 0.3, 0.42):
            cv2.ellipse(tile, (s // 2, round(s * 0.55)), (round(k * s), round(k * s * 0.7)), 0, 0, 360,
                        dark.tolist(), max(1, s // 30), cv2.LINE_AA)
    _paste(albedo, height, tile, centre, angle, 0.03)


def _counter(albedo: Image, height: Image, label: str, colour: npt.NDArray[np.float32],
             centre: tuple[float, float], side: float, angle: float) -> None:
    """A counter: its side's colour, a thin light frame, its label in light ink."""
    s = max(8, round(side))
    tile = np.empty((s, s, 3), np.float32)
    tile[:] = colour
    light = np.full(3, 0.78, np.float32)
    edge = max(1, round(s * 0.05))
    cv2.rectangle(tile, (edge, edge), (s - 1 - edge, s - 1 - edge), light.tolist(), max(1, s // 28))
    font_scale = s / 95
    (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_DUPLEX, font_scale, 1)
    ink = np.zeros((s, s), np.uint8)
    cv2.putText(ink, label, ((s - tw) // 2, (s + th) // 2), cv2.FONT_HERSHEY_DUPLEX, font_scale, 255,
                max(1, s // 40), cv2.LINE_AA)
    alpha = ink.astype(np.float32)[:, :, None] / 255
    tile[:] = tile * (1 - alpha) + light[None, None, :] * alpha
    _paste(albedo, height, tile, centre, angle, 0.08)


def _paste(albedo: Image, height: Image, tile: Image, centre: tuple[float, float], angle: float, lift: float) -> None:
    """Lays a square tile turned by ``angle`` around ``centre``, raising the height under it."""
    s = tile.shape[0]
    box = int(s * 1.5) + 4
    x0, y0 = round(centre[0]) - box // 2, round(centre[1]) - box // 2
    if x0 < 0 or y0 < 0 or x0 + box > albedo.shape[1] or y0 + box > albedo.shape[0]:
        return
    m = cv2.getRotationMatrix2D((s / 2, s / 2), angle, 1.0)
    m[:, 2] += (centre[0] - x0 - s / 2, centre[1] - y0 - s / 2)
    warped = cv2.warpAffine(tile, m, (box, box), flags=cv2.INTER_LINEAR)
    mask = cv2.warpAffine(np.ones((s, s), np.float32), m, (box, box), flags=cv2.INTER_LINEAR)[:, :, None]
    region = albedo[y0 : y0 + box, x0 : x0 + box]
    region[:] = region * (1 - mask) + warped * mask
    h = height[y0 : y0 + box, x0 : x0 + box]
    h[:] = np.where(mask[:, :, 0] > 0.5, h + lift, h)
