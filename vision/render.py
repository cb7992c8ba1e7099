"""Synthetic overhead photos with ground truth, for tests and the benchmark.

A scene (terrain per cell, counters with their side and label) is drawn top-down — the board by
:func:`referee.picture.draw_board`, counters slightly off-centre and turned as hands leave them,
the printed corner tabs of :mod:`vision.markers` on a table — then seen through a pinhole camera
(tilt up to 35°, any rotation, scale and offset) and degraded: lighting gradient and vignette, a
cast shadow, occluding hands with their shadows, a colour cast, blur, noise, JPEG. The truth
(per-cell occupant, terrain and label, the board→image homography, the cells a hand hides, the
markers in view) comes with every image.

Counters follow the rulebook's colours (Matériel II.3: Persians blue, Greeks violet) through the
board table's ``side_colours``.
"""

from __future__ import annotations

import math
from typing import Literal

import cv2
import numpy as np
import numpy.typing as npt

from referee.game import BoardView, CellView, TerrainStyle
from referee.picture import MARGIN_CELLS, draw_board
from vision.board import BoardSpec
from vision.markers import draw_tab
from vision.render_scene import (
    COUNTER_SIZE,
    SKIN,
    STYLES,
    TABLES,
    Conditions,
    Counter,
    Level,
    Profile,
    Rendered,
    Scene,
    placed,
    random_scene,
    sample_conditions,
    sample_real_conditions,
    styled_colours,
)

__all__ = [
    "COUNTER_SIZE",
    "SKIN",
    "STYLES",
    "TABLES",
    "Conditions",
    "Counter",
    "Level",
    "Profile",
    "Rendered",
    "Scene",
    "counter_sprite",
    "random_scene",
    "render",
    "sample_conditions",
    "sample_real_conditions",
]

# ---------------------------------------------------------------------------------------------
# Drawing


def counter_sprite(counter: Counter, colour_rgb: tuple[int, int, int], px_per_cell: float) -> npt.NDArray[np.uint8]:
    """Returns a counter drawn upright, BGR, ``COUNTER_SIZE`` cells wide (as referee.picture does:
    the side's colour, a white rim, the label in white)."""
    size = max(4, round(px_per_cell * COUNTER_SIZE))
    r, g, b = colour_rgb
    sprite = np.empty((size, size, 3), np.uint8)
    sprite[:] = (b, g, r)
    rim = max(1, round(px_per_cell / 32))
    cv2.rectangle(sprite, (0, 0), (size - 1, size - 1), (255, 255, 255), rim)
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = px_per_cell / 64 * 0.5
    thick = max(1, round(px_per_cell / 64))
    (tw, th), _ = cv2.getTextSize(counter.label, font, scale, thick)
    cv2.putText(
        sprite,
        counter.label,
        ((size - tw) // 2, (size + th) // 2),
        font,
        scale,
        (255, 255, 255),
        thick,
        cv2.LINE_AA,
    )
    return sprite


PATTERNS: dict[str, Literal["", "dots", "peak", "waves", "cross"]] = {"forest": "dots", "hill": "peak"}
"""What the printed terrain tokens show over their colour (trees, a peak)."""


def terrain_styles(colours: dict[str, tuple[int, int, int]]) -> dict[str, TerrainStyle]:
    """Returns the drawing style of each terrain of a photographed board."""
    return {name: TerrainStyle(colour=rgb, pattern=PATTERNS.get(name, "")) for name, rgb in colours.items()}


def _at(index: int, cols: int) -> tuple[int, int]:
    row, col = divmod(index, cols)
    return col, row


def top_down(
    board: BoardSpec,
    scene: Scene,
    px_per_cell: int,
    extent: float,
    rng: np.random.Generator,
    cond: Conditions,
) -> npt.NDArray[np.uint8]:
    """Returns the scene seen from straight above: board point (u, v) at pixel
    ``((u + extent) * px_per_cell, (v + extent) * px_per_cell)``."""
    names = board.cell_names()
    side_px = round((board.cols + 2 * extent) * px_per_cell)
    table = np.array(TABLES[cond.table % len(TABLES)][::-1], np.float32)
    grain = cv2.resize(rng.normal(0, 9, (24, 24)).astype(np.float32), (side_px, side_px))
    canvas = np.clip(table[None, None, :] + grain[:, :, None], 0, 255).astype(np.uint8)
    view = BoardView(
        title="",
        layout="square",
        rows=board.rows,
        cols=board.cols,
        row_labels=tuple(_row_label(n) for n in names[:: board.cols]),
        col_labels=tuple(str(c + 1) for c in range(board.cols)),
        cells=tuple(
            CellView(name=n, terrain=scene.terrain.get(n, board.terrains[0]), at=_at(i, board.cols))
            for i, n in enumerate(names)
        ),
        terrain=terrain_styles(board.terrain_colours),
        side_colours=board.side_colours,
    )
    art = draw_board(view, px_per_cell, labels=True, status=False, legend=False)
    margin = int(px_per_cell * MARGIN_CELLS)
    top = round(extent * px_per_cell) - margin
    canvas[top : top + art.shape[0], top : top + art.shape[1]] = art
    origin = (-extent, -extent)
    if scene.markers:
        for placement in board.markers.placements:
            if placement.id not in cond.missing_markers:
                draw_tab(canvas, board.markers, placement, board.rows, board.cols, px_per_cell, origin)
    for name, counter in scene.counters.items():
        r, c = divmod(names.index(name), board.cols)
        sprite = counter_sprite(counter, board.side_colours[counter.side], px_per_cell)
        du, dv, turn = placed(counter, cond, rng)
        centre = ((c + 0.5 + du + extent) * px_per_cell, (r + 0.5 + dv + extent) * px_per_cell)
        _paste_turned(canvas, sprite, centre, turn)
    return np.asarray(canvas, np.uint8)



def top_down_real(
    board: BoardSpec,
    scene: Scene,
    px_per_cell: int,
    extent: float,
    rng: np.random.Generator,
    cond: Conditions,
) -> npt.NDArray[np.uint8]:
    """As :func:`top_down`, with the pieces of a real box: a board-coloured sheet (no white
    paper), terrain tokens 0.85-0.95 cell wide, off centre, turned up to 4°, with a darker edge
    and a drop shadow; counters 0.6-0.75 cell wide with a dark rim and a light label, up to
    ``cond.jitter`` cell off centre, turned up to ``cond.turn_deg``, with a shadow. Colours are
    the style's, moved by ``cond.colour_jitter``."""
    names = board.cell_names()
    sides, terrains = styled_colours(board, cond, rng)
    plain = terrains[board.terrains[0]]
    side_px = round((board.cols + 2 * extent) * px_per_cell)
    table = np.array(TABLES[cond.table % len(TABLES)][::-1], np.float32)
    grain = cv2.resize(rng.normal(0, 9, (24, 24)).astype(np.float32), (side_px, side_px))
    canvas = np.clip(table[None, None, :] + grain[:, :, None], 0, 255).astype(np.uint8)
    view = BoardView(
        title="",
        layout="square",
        rows=board.rows,
        cols=board.cols,
        row_labels=tuple(_row_label(n) for n in names[:: board.cols]),
        col_labels=tuple(str(c + 1) for c in range(board.cols)),
        cells=tuple(CellView(name=n, terrain=board.terrains[0], at=_at(i, board.cols)) for i, n in enumerate(names)),
        terrain=terrain_styles(terrains),
        side_colours=sides,
    )
    art = draw_board(view, px_per_cell, labels=True, status=False, legend=False).astype(np.float32)
    margin = int(px_per_cell * MARGIN_CELLS)
    sheet = np.ones(art.shape[:2], bool)
    sheet[margin : margin + board.rows * px_per_cell, margin : margin + board.cols * px_per_cell] = False
    ink = np.clip((245.0 - art[sheet].mean(axis=1)) / 205.0, 0, 1)[:, None]
    paper = np.array(plain[::-1], np.float32)[None, :]
    art[sheet] = paper * (1 - ink) + 40.0 * ink
    top = round(extent * px_per_cell) - margin
    canvas[top : top + art.shape[0], top : top + art.shape[1]] = art.astype(np.uint8)
    origin = (-extent, -extent)
    if scene.markers:
        for placement in board.markers.placements:
            if placement.id not in cond.missing_markers:
                draw_tab(canvas, board.markers, placement, board.rows, board.cols, px_per_cell, origin)
    for n, name in enumerate(names):
        kind = scene.terrain.get(name, board.terrains[0])
        if kind == board.terrains[0]:
            continue
        r, c = divmod(n, board.cols)
        share = float(rng.uniform(0.85, 0.95))
        sprite = token_sprite(kind, terrains[kind], share * px_per_cell)
        room = (1 - share) / 2 * 0.9
        du, dv = rng.uniform(-room, room, 2)
        centre = ((c + 0.5 + du + extent) * px_per_cell, (r + 0.5 + dv + extent) * px_per_cell)
        _paste_turned(canvas, sprite, centre, float(rng.uniform(-4, 4)))
    for name, counter in scene.counters.items():
        r, c = divmod(names.index(name), board.cols)
        share = float(rng.uniform(0.6, 0.75))
        sprite = real_counter_sprite(counter, sides[counter.side], px_per_cell, share)
        du, dv, turn = placed(counter, cond, rng)
        centre = ((c + 0.5 + du + extent) * px_per_cell, (r + 0.5 + dv + extent) * px_per_cell)
        _paste_turned(canvas, sprite, centre, turn)
    return np.asarray(canvas, np.uint8)



def token_sprite(terrain: str, colour_rgb: tuple[int, int, int], side_px: float) -> npt.NDArray[np.uint8]:
    """Returns a terrain token, BGR: its colour, a darker edge, the art ``referee.picture``
    draws for that terrain."""
    s = max(4, round(side_px))
    r, g, b = colour_rgb
    sprite = np.empty((s, s, 3), np.uint8)
    sprite[:] = (b, g, r)
    edge = max(1, round(s * 0.05))
    dark = tuple(int(v * 0.72) for v in (b, g, r))
    cv2.rectangle(sprite, (0, 0), (s - 1, s - 1), dark, edge)
    if terrain == "forest":
        for dx, dy in ((0.25, 0.3), (0.7, 0.25), (0.45, 0.7)):
            cv2.circle(sprite, (int(dx * s), int(dy * s)), max(2, s // 9), (30, 80, 30), -1)
    elif terrain == "hill":
        pts = np.array([[0.15 * s, 0.85 * s], [0.5 * s, 0.2 * s], [0.85 * s, 0.85 * s]], np.int32)
        cv2.polylines(sprite, [pts], True, (40, 80, 120), max(1, s // 20))
    return sprite


def real_counter_sprite(
    counter: Counter, colour_rgb: tuple[int, int, int], px_per_cell: float, share: float
) -> npt.NDArray[np.uint8]:
    """Returns a counter ``share`` of a cell wide, BGR: its side's colour, a dark rim, the label
    in light ink (the same font size as :func:`counter_sprite`)."""
    size = max(4, round(px_per_cell * share))
    r, g, b = colour_rgb
    sprite = np.empty((size, size, 3), np.uint8)
    sprite[:] = (b, g, r)
    rim = max(1, round(size * 0.06))
    cv2.rectangle(sprite, (0, 0), (size - 1, size - 1), (int(b * 0.4), int(g * 0.4), int(r * 0.4)), rim)
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = px_per_cell / 64 * 0.5
    thick = max(1, round(px_per_cell / 64))
    (tw, th), _ = cv2.getTextSize(counter.label, font, scale, thick)
    cv2.putText(
        sprite,
        counter.label,
        ((size - tw) // 2, (size + th) // 2),
        font,
        scale,
        (226, 236, 240),
        thick,
        cv2.LINE_AA,
    )
    return sprite


def _row_label(name: str) -> str:
    return "".join(ch for ch in name if ch.isalpha())


def _paste_turned(
    canvas: npt.NDArray[np.uint8],
    sprite: npt.NDArray[np.uint8],
    centre: tuple[float, float],
    angle: float,
) -> None:
    """Pastes a sprite turned by ``angle`` degrees around ``centre``, with a soft drop shadow."""
    s = sprite.shape[0]
    pad = s // 2 + 3
    box = s + 2 * pad
    x0, y0 = round(centre[0]) - box // 2, round(centre[1]) - box // 2
    if x0 < 0 or y0 < 0 or x0 + box > canvas.shape[1] or y0 + box > canvas.shape[0]:
        return
    m = cv2.getRotationMatrix2D((s / 2 - 0.5, s / 2 - 0.5), angle, 1.0)
    m[:, 2] += (centre[0] - x0 - s / 2 + 0.5, centre[1] - y0 - s / 2 + 0.5)
    warped = cv2.warpAffine(sprite, m, (box, box), flags=cv2.INTER_LINEAR)
    mask = cv2.warpAffine(np.full((s, s), 255, np.uint8), m, (box, box), flags=cv2.INTER_LINEAR)
    region = canvas[y0 : y0 + box, x0 : x0 + box].astype(np.float32)
    shift = max(1, s // 24)
    shade = np.roll(np.roll(mask, shift, axis=0), shift, axis=1).astype(np.float32) / 255
    shade = np.asarray(cv2.GaussianBlur(shade, (0, 0), max(1.0, s / 30)), np.float32)
    region *= 1 - 0.35 * shade[:, :, None]
    alpha = mask.astype(np.float32)[:, :, None] / 255
    region = np.asarray(region * (1 - alpha) + warped.astype(np.float32) * alpha, np.float32)
    canvas[y0 : y0 + box, x0 : x0 + box] = np.clip(region, 0, 255).astype(np.uint8)


def camera(board: BoardSpec, cond: Conditions, extent: float) -> npt.NDArray[np.float64]:
    """Returns the homography board (u, v) → image pixels of a pinhole camera tilted by
    ``tilt_deg`` toward ``tilt_dir_deg``, turned by ``rotation_deg``, framing the board and its
    tabs to ``fill`` of the shorter image side, shifted by ``offset`` within the free space."""
    w, h = cond.width, cond.height
    f = w / (2 * math.tan(math.radians(62) / 2))
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]], np.float64)
    t, d = math.radians(cond.tilt_deg), math.radians(cond.tilt_dir_deg)
    axis = np.array([math.cos(d), math.sin(d), 0.0]) * t
    r_tilt, _ = cv2.Rodrigues(axis)
    r_roll, _ = cv2.Rodrigues(np.array([0.0, 0.0, math.radians(cond.rotation_deg)]))
    rot = r_roll @ r_tilt
    half = board.cols / 2 + extent
    dist = half / math.tan(math.radians(31)) / 0.8
    centre = np.array([[1, 0, -board.cols / 2], [0, 1, -board.rows / 2], [0, 0, 1]], np.float64)
    h0 = k @ np.column_stack([rot[:, 0], rot[:, 1], np.array([0.0, 0.0, dist])]) @ centre
    reach = np.array(
        [
            [-extent, -extent],
            [board.cols + extent, -extent],
            [board.cols + extent, board.rows + extent],
            [-extent, board.rows + extent],
        ],
        np.float64,
    )
    pts = cv2.perspectiveTransform(reach[None], h0)[0]
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    span = hi - lo
    scale = cond.fill * min(w, h) / max(span)
    scale = min(scale, 0.98 * w / span[0], 0.98 * h / span[1])
    free = np.array([w, h]) - span * scale
    shift = np.array([w, h]) / 2 - (lo + hi) / 2 * scale + np.array(cond.offset) * free / 2 * 0.9
    fit = np.array([[scale, 0, shift[0]], [0, scale, shift[1]], [0, 0, 1]], np.float64)
    return np.asarray(fit @ h0, np.float64)


def render(board: BoardSpec, scene: Scene, cond: Conditions, seed: int) -> Rendered:
    """Returns a synthetic photo of a scene under given conditions (deterministic per seed)."""
    rng = np.random.default_rng(seed)
    extent = 2.0
    h_img = camera(board, cond, extent)
    cell_px = _cell_px(h_img, board)
    tex_ppc = int(np.clip(round(cell_px * 1.15), 24, 220))
    draw = top_down_real if cond.profile == "real" else top_down
    canvas = draw(board, scene, tex_ppc, extent, rng, cond)
    # pixel k covers [k - 0.5, k + 0.5): u = (x + 0.5) / ppc - extent puts drawn edges on cell lines
    to_board = np.array(
        [
            [1 / tex_ppc, 0, 0.5 / tex_ppc - extent],
            [0, 1 / tex_ppc, 0.5 / tex_ppc - extent],
            [0, 0, 1],
        ],
        np.float64,
    )
    h_canvas = h_img @ to_board
    img = cv2.warpPerspective(
        canvas,
        h_canvas,
        (cond.width, cond.height),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    ).astype(np.float32)
    hand_mask = np.zeros((cond.height, cond.width), np.float32)
    for k in range(cond.hands):
        _draw_hand(img, hand_mask, board, h_img, cell_px, rng, cond if k == 0 else None)
    if cond.shadow > 0:
        img *= _shadow(cond, rng)[:, :, None]
    img *= _light(cond)[:, :, None] * cond.exposure
    img *= np.array(cond.cast[::-1], np.float32)[None, None, :]
    if cond.blur > 0:
        img = np.asarray(cv2.GaussianBlur(img, (0, 0), cond.blur), np.float32)
    if cond.noise > 0:
        img += rng.standard_normal(img.shape, dtype=np.float32) * np.float32(cond.noise)
    image = np.clip(img, 0, 255).astype(np.uint8)
    if cond.jpeg:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, cond.jpeg])
        assert ok
        image = np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)
    names = board.cell_names()
    cells = {
        n: {
            "occupant": scene.counters[n].side if n in scene.counters else None,
            "terrain": scene.terrain.get(n, board.terrains[0]),
            "label": scene.counters[n].label if n in scene.counters else None,
        }
        for n in names
    }
    occluded = _occluded(hand_mask, board, h_img) if cond.hands else []
    visible = _markers_visible(board, h_img, hand_mask, cond) if scene.markers else []
    return Rendered(
        image=image,
        cells=cells,
        homography=h_img,
        occluded=occluded,
        markers_visible=visible,
        conditions=cond,
    )


def _cell_px(h_img: npt.NDArray[np.float64], board: BoardSpec) -> float:
    pts = np.array([[[0, 0], [board.cols, 0], [board.cols, board.rows], [0, board.rows]]], np.float64)
    quad = cv2.perspectiveTransform(pts, h_img)[0]
    return float(math.sqrt(cv2.contourArea(quad.astype(np.float32)) / (board.rows * board.cols)))


def _smooth_field(cond: Conditions, fn_small: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    return np.asarray(cv2.resize(fn_small, (cond.width, cond.height), interpolation=cv2.INTER_LINEAR), np.float32)


def _light(cond: Conditions) -> npt.NDArray[np.float32]:
    """A linear lighting ramp and a vignette (smooth: computed at 1/8 scale, then enlarged)."""
    w, h = max(8, cond.width // 8), max(8, cond.height // 8)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    d = math.radians(cond.light_dir_deg)
    ramp = ((xs - w / 2) * math.cos(d) + (ys - h / 2) * math.sin(d)) / math.hypot(w, h) + 0.5
    lo, hi = cond.light
    field_ = lo + (hi - lo) * np.clip(ramp, 0, 1)
    if cond.vignette:
        rad = ((xs - w / 2) ** 2 + (ys - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
        field_ *= 1 - cond.vignette * rad
    return _smooth_field(cond, field_.astype(np.float32))


def _shadow(cond: Conditions, rng: np.random.Generator) -> npt.NDArray[np.float32]:
    """A soft-edged shadow band (a lamp, a person leaning over) darkening part of the photo."""
    w, h = max(8, cond.width // 8), max(8, cond.height // 8)
    mask = np.zeros((h, w), np.float32)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    ang = rng.uniform(0, math.pi)
    length, width = math.hypot(w, h), rng.uniform(0.15, 0.35) * min(w, h)  # drawn either way
    if cond.shadow_band is not None:
        fx, fy, deg, share = cond.shadow_band
        cx, cy, ang, width = fx * w, fy * h, math.radians(deg), share * min(w, h)
    dx, dy = math.cos(ang), math.sin(ang)
    nx, ny = -dy * width / 2, dx * width / 2
    quad = np.array(
        [
            [cx - dx * length + nx, cy - dy * length + ny],
            [cx + dx * length + nx, cy + dy * length + ny],
            [cx + dx * length - nx, cy + dy * length - ny],
            [cx - dx * length - nx, cy - dy * length - ny],
        ],
        np.int32,
    )
    cv2.fillConvexPoly(mask, quad, 1.0)
    mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), 0.04 * min(w, h)), np.float32)
    return _smooth_field(cond, (1 - cond.shadow * mask).astype(np.float32))


def _draw_hand(
    img: npt.NDArray[np.float32], hand_mask: npt.NDArray[np.float32], board: BoardSpec,
    h_img: npt.NDArray[np.float64], cell_px: float, rng: np.random.Generator, placed: Conditions | None = None,
) -> None:
    """Paints a hand and forearm reaching in from the nearest photo edge over a random cell
    (drawn at a quarter of the photo's scale, then enlarged: its edges are soft anyway).
    ``placed``: conditions whose ``hand_at``, ``hand_from``, ``hand_skin`` and ``hand_fingers``
    state the hand (the first one), each None to draw it."""
    at, across, tone, fingers = (None, None, None, None) if placed is None else (
        placed.hand_at, placed.hand_from, placed.hand_skin, placed.hand_fingers)
    h, w = hand_mask.shape
    k = 4 if min(w, h) > 1200 else 1
    sw, sh, cp = w // k, h // k, cell_px / k
    u, v = rng.uniform(0.5, board.cols - 0.5), rng.uniform(0.5, board.rows - 0.5)  # drawn either way
    if at is not None:
        u, v = at
    tip = cv2.perspectiveTransform(np.array([[[u, v]]], np.float64), h_img)[0, 0] / k
    edges = [
        (tip[0], (0.0, tip[1])),
        (sw - tip[0], (float(sw), tip[1])),
        (tip[1], (tip[0], 0.0)),
        (sh - tip[1], (tip[0], float(sh))),
    ]
    _, base = min(edges, key=lambda e: e[0])
    base_pt = np.array(base) + rng.normal(0, 0.15 * min(sw, sh), 2)
    if across is not None:  # from the photo's edge, through that point: beyond it by a diagonal
        over = cv2.perspectiveTransform(np.array([[across]], np.float64), h_img)[0, 0] / k
        base_pt = tip + (over - tip) * (1 + float(np.hypot(sw, sh)) / max(float(np.linalg.norm(over - tip)), 1.0))
    direction = tip - base_pt
    direction /= float(np.linalg.norm(direction)) or 1.0
    normal = np.array([-direction[1], direction[0]])
    palm = tip - direction * 1.3 * cp
    shape = np.zeros((sh, sw), np.uint8)
    cv2.line(
        shape,
        tuple(int(x) for x in base_pt - direction * cp * 3),
        tuple(int(x) for x in palm),
        255,
        max(2, int(2.2 * cp)),
    )
    angle = math.degrees(math.atan2(direction[1], direction[0]))
    cv2.ellipse(shape, (int(palm[0]), int(palm[1])), (int(1.3 * cp), int(1.05 * cp)), angle, 0, 360, 255, -1)
    reaches = rng.uniform(0.8, 1.4, 4)  # drawn either way
    if fingers is not None:
        reaches = np.array(fingers, np.float64)
    for j, reach in zip((-1.5, -0.5, 0.5, 1.5), reaches, strict=True):
        start = palm + direction * 0.8 * cp + normal * j * 0.42 * cp
        end = start + direction * reach * cp + normal * j * 0.1 * cp
        cv2.line(
            shape,
            tuple(int(x) for x in start),
            tuple(int(x) for x in end),
            255,
            max(2, int(0.36 * cp)),
        )
    soft = cv2.GaussianBlur(shape.astype(np.float32) / 255, (0, 0), max(1.0, 0.08 * cp))
    offset = (normal * 0.3 + direction * 0.2) * cp
    m = np.array([[1, 0, offset[0]], [0, 1, offset[1]]], np.float32)
    shadow = cv2.warpAffine(cv2.GaussianBlur(soft, (0, 0), 0.4 * cp), m, (sw, sh))
    shading = 0.75 + 0.3 * cv2.GaussianBlur(soft, (0, 0), 0.5 * cp)
    ys, xs = np.nonzero((soft > 1e-3) | (shadow > 1e-3))
    if len(xs) == 0:
        return
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    soft, shadow, shading = (np.asarray(a[y0:y1, x0:x1], np.float32) for a in (soft, shadow, shading))
    box = (slice(y0 * k, min(h, y1 * k)), slice(x0 * k, min(w, x1 * k)))
    size = (box[1].stop - box[1].start, box[0].stop - box[0].start)
    if k > 1:
        soft, shadow, shading = (np.asarray(cv2.resize(a, size, interpolation=cv2.INTER_LINEAR), np.float32)
                                 for a in (soft, shadow, shading))
    roi = img[box]
    roi *= (1 - 0.45 * shadow * (1 - soft))[:, :, None]
    drawn = int(rng.integers(0, len(SKIN)))  # drawn either way
    r, g, b = SKIN[drawn if tone is None else tone]
    skin = np.array([b, g, r], np.float32)[None, None, :] * shading[:, :, None]
    roi[:] = roi * (1 - soft[:, :, None]) + skin * soft[:, :, None]
    np.maximum(hand_mask[box], soft, out=hand_mask[box])


def _cell_ids(board: BoardSpec, h_img: npt.NDArray[np.float64], size: tuple[int, int]) -> npt.NDArray[np.int32]:
    """Returns, per image pixel, 1 + the index of the board cell seen there (0: none)."""
    ppc = 8
    ids = (np.arange(board.rows * board.cols, dtype=np.int32) + 1).reshape(board.rows, board.cols)
    tex = np.kron(ids, np.ones((ppc, ppc), np.int32)).astype(np.float32)
    scale = np.array([[1 / ppc, 0, 0], [0, 1 / ppc, 0], [0, 0, 1]], np.float64)
    out = cv2.warpPerspective(tex, h_img @ scale, size, flags=cv2.INTER_NEAREST, borderValue=0)
    return out.astype(np.int32)


def _occluded(hand_mask: npt.NDArray[np.float32], board: BoardSpec, h_img: npt.NDArray[np.float64]) -> list[str]:
    """Cells a hand covers by more than 8 % of their area (measured at a quarter scale)."""
    h, w = hand_mask.shape
    k = 4 if min(w, h) > 1200 else 1
    small = cv2.resize(hand_mask, (w // k, h // k), interpolation=cv2.INTER_AREA) if k > 1 else hand_mask
    scale = np.array([[1 / k, 0, 0], [0, 1 / k, 0], [0, 0, 1]], np.float64)
    ids = _cell_ids(board, scale @ h_img, (small.shape[1], small.shape[0]))
    n = board.rows * board.cols + 1
    total = np.bincount(ids.ravel(), minlength=n).astype(np.float64)
    covered = np.bincount(ids.ravel(), weights=(small > 0.3).ravel().astype(np.float64), minlength=n)
    names = board.cell_names()
    return [names[i - 1] for i in range(1, n) if total[i] > 0 and covered[i] / total[i] > 0.08]


def _markers_visible(
    board: BoardSpec,
    h_img: npt.NDArray[np.float64],
    hand_mask: npt.NDArray[np.float32],
    cond: Conditions,
) -> list[int]:
    out: list[int] = []
    h, w = hand_mask.shape
    for p in board.markers.placements:
        if p.id in cond.missing_markers:
            continue
        pts = cv2.perspectiveTransform(np.array([board.markers.corners(p.id)], np.float64), h_img)[0]
        if not all(0 <= x < w and 0 <= y < h for x, y in pts):
            continue
        x0, y0 = np.floor(pts.min(axis=0)).astype(int)
        x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + 1
        poly = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(poly, (pts - [x0, y0]).astype(np.int32), 1)
        covered = float((hand_mask[y0:y1, x0:x1][poly > 0] > 0.3).mean()) if poly.any() else 1.0
        if covered < 0.02:
            out.append(p.id)
    return out
