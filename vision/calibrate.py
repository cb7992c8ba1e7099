"""Calibration: learning a set's colours and counter labels from a photo of a known position.

``referee vision calibrate PHOTO --position KNOWN.yaml --out CAL.json`` reads the photo with
the default colours only to locate the board, then measures, for every class that the known
position shows (each side's counters, each terrain bare and under counters), the mean and
spread of its features, and crops each legion's label as its template. Classes the position
does not show keep their default. The result is checked on the same photo: if the learned
colours do not read the known position back, the photo or the position is wrong and nothing is
written. Calibration files are JSON (no pickle), size-capped when read.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import cv2
import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from referee.errors import InputFileError
from referee.files import check_target, parse_json, read_text
from vision import classify as cls
from vision.board import BoardSpec
from vision.config import VisionConfig
from vision.errors import VisionError
from vision.labels import (
    Template,
    crop_template,
    decode_template,
    default_templates,
    encode_template,
)

if TYPE_CHECKING:
    from vision.debug import DebugSink
    from vision.load import Photo

FORMAT = "referee-vision-calibration/1"
MAX_FILE_BYTES = 5_000_000
DEFAULT_VIEWS = ((1.0, 0.6, 90), (0.75, 0.9, 80), (0.55, 1.3, 75))
"""The built-in model's views of its drawing: (scale from 48 px per cell, blur σ, JPEG quality)."""
MIN_SAMPLES = 2
"""A class needs this many cells in the known position to be measured (else: default kept)."""
MIN_AGREEMENT = 0.97
"""Share of the known cells the learned colours must read back correctly."""


class Calibration(BaseModel):
    """The colours and counter labels of one physical set under the user's light."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["referee-vision-calibration/1"] = FORMAT
    board: str = Field(description="Game slug whose board this calibrates.")
    source: str = Field(description="The photo it was learned from.")
    colours: cls.ColourModel
    template_ppc: int = Field(description="Pixels per cell of the label templates.")
    templates: dict[str, str] = Field(
        default_factory=dict, description="Legion → label template (base64 PNG)."
    )
    measured: tuple[str, ...] = Field(
        default=(), description="Classes measured (the others are defaults)."
    )

    def label_templates(self, ppc: int) -> dict[str, Template]:
        """Returns legion → template, rescaled to ``ppc`` pixels per cell."""
        out: dict[str, Template] = {}
        for legion, text in self.templates.items():
            tpl = decode_template(text)
            if tpl is None:
                continue
            if ppc != self.template_ppc:
                side = max(4, round(tpl.shape[0] * ppc / self.template_ppc))
                tpl = cv2.resize(tpl, (side, side), interpolation=cv2.INTER_AREA).astype(np.float32)
            out[legion] = tpl
        return out


def calibrate(
    photo: Path | Photo,
    board: BoardSpec,
    known: Mapping[str, tuple[str | None, str]],
    cfg: VisionConfig | None = None,
    legions: Mapping[str, tuple[str, str]] | None = None,
    legion_at: Mapping[str, str] | None = None,
    debug: DebugSink | None = None,
) -> Calibration:
    """Returns the calibration learned from a photo of a known position.

    Args:
        photo: the photo (file or loaded).
        board: the board geometry.
        known: cell name → (side on it or None, terrain), for every cell.
        cfg: thresholds.
        legions: legion → (side, printed label), to learn label templates.
        legion_at: cell name → legion standing there.
        debug: receives a picture of each stage.

    Raises:
        VisionError: the photo cannot be read, or does not show the known position.
        BoardNotFoundError: no board in the photo.
    """
    from vision.pipeline import read

    cfg = cfg or VisionConfig()
    reading = read(photo, board, cfg, None, None, debug, strict=False)
    names = board.cell_names()
    missing = [n for n in names if n not in known]
    if missing:
        raise VisionError(
            f"the known position does not cover every cell (missing {', '.join(missing[:5])})"
        )
    default = default_model(board, cfg)
    usable = [n for n in range(len(names)) if reading.inside[n] >= 0.98]
    centre_groups: dict[str, list[int]] = {}
    corner_groups: dict[str, list[int]] = {}
    for n in usable:
        side, terrain = known[names[n]]
        centre_groups.setdefault(
            f"{cls.SIDE}{side}" if side else f"{cls.EMPTY}{terrain}", []
        ).append(n)
        corner_groups.setdefault(terrain, []).append(n)
    measured: list[str] = []
    centre = dict(default.centre)
    for label, rows in centre_groups.items():
        if label in centre and len(rows) >= MIN_SAMPLES:
            centre[label] = _stats(reading.centre[rows], cfg)
            measured.append(f"centre {label}")
    corner = dict(default.corner)
    for label, rows in corner_groups.items():
        if label in corner and len(rows) >= MIN_SAMPLES:
            corner[label] = _stats(
                _typical_corners(reading.corner[rows], default.corner[label]), cfg
            )
            measured.append(f"corner {label}")
    model = cls.ColourModel(centre=centre, corner=corner)
    results = cls.classify_cells(
        reading.centre, reading.corner, model, cfg.classify, (board.rows, board.cols)
    )
    wrong = [
        names[n]
        for n, (occ, terrain, _) in enumerate(results)
        if (occ, terrain) != tuple(known[names[n]])
    ]
    if len(wrong) > (1 - MIN_AGREEMENT) * len(names):
        raise VisionError(
            f"the photo does not show the known position: {len(wrong)} cells disagree "
            f"({', '.join(wrong[:8])}{' ...' if len(wrong) > 8 else ''})"
        )
    templates: dict[str, str] = {}
    ppc = cfg.identity.px_per_cell
    if legions and legion_at:
        from vision import grid_overlay as go

        sharp_warp = go.warp_board(
            reading.image, reading.registration, board, ppc, cfg.grid.pad_cells
        )
        defaults = default_templates(legions, board.side_colours, cfg.identity, ppc)
        for cell, legion in legion_at.items():
            if legion not in defaults:
                continue
            row, col = divmod(names.index(cell), board.cols)
            tpl = crop_template(sharp_warp, row, col, reading.white, defaults[legion], cfg.identity)
            templates[legion] = encode_template(tpl)
    source = photo.name if isinstance(photo, Path) else photo.source
    return Calibration(
        board=board.slug,
        source=source,
        colours=model,
        template_ppc=ppc,
        templates=templates,
        measured=tuple(measured),
    )


_DEFAULTS: dict[str, cls.ColourModel] = {}


def default_model(board: BoardSpec, cfg: VisionConfig) -> cls.ColourModel:
    """Returns the built-in colour model: measured on a clean top-down drawing of the board (the
    tables' colours drawn as :mod:`vision.render` draws them: every terrain bare and under
    counters of each side, labels varied, slight blur), spreads raised to the configured floors.
    Computed once per board and settings."""
    key = f"{board.slug}:{board.side_colours}:{board.terrain_colours}:{cfg.model_dump_json()}"
    if key not in _DEFAULTS:
        _DEFAULTS[key] = _default_model(board, cfg)
    return _DEFAULTS[key]


def _default_model(board: BoardSpec, cfg: VisionConfig) -> cls.ColourModel:
    from vision import grid_overlay as go
    from vision.render import Conditions, Counter, Scene, top_down

    rng = np.random.default_rng(2024)
    names = board.cell_names()
    terrains, sides = board.terrains, board.sides
    letters = "ABCDEFGHIKLMNOPRSTVXYZ"
    terrain: dict[str, str] = {}
    counters: dict[str, Counter] = {}
    for n, name in enumerate(names):
        terrain[name] = terrains[n % len(terrains)]
        kind = (n // len(terrains)) % (len(sides) + 1)
        if kind < len(sides):
            label = "".join(rng.choice(list(letters), 1)) + "".join(
                rng.choice(list(letters.lower()), 2)
            )
            counters[name] = Counter(sides[kind], label)
    ppc = cfg.grid.px_per_cell
    extent = cfg.grid.pad_cells
    image = top_down(
        board,
        Scene(terrain=terrain, counters=counters, markers=False),
        ppc,
        extent,
        rng,
        Conditions(jitter=0.04, turn_deg=5.0),
    )
    # as phones see it, from ~50 to ~26 px per cell: blur, noise and JPEG (whose colour
    # subsampling bleeds colour across cell edges, which the thin corner patches feel most)
    centres, corners = [], []
    for scale, sigma, quality in DEFAULT_VIEWS:
        small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (0, 0), sigma)
        small = np.clip(small + rng.normal(0, 4.0, small.shape), 0, 255).astype(np.uint8)
        ok, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, quality])
        assert ok
        seen = cv2.resize(
            cv2.imdecode(data, cv2.IMREAD_COLOR),
            (image.shape[1], image.shape[0]),
            interpolation=cv2.INTER_LINEAR,
        )
        pad = round(extent * ppc)
        warped = go.Warped(image=seen, inside=np.ones(seen.shape[:2], bool), ppc=ppc, pad_px=pad)
        _, centre, corner = cls.cell_features(warped, board, cfg.grid)
        centres.append(centre)
        corners.append(corner)
    centre_groups: dict[str, list[int]] = {}
    corner_groups: dict[str, list[int]] = {}
    for n, name in enumerate(names):
        counter = counters.get(name)
        centre_groups.setdefault(
            f"{cls.SIDE}{counter.side}" if counter else f"{cls.EMPTY}{terrain[name]}", []
        ).append(n)
        corner_groups.setdefault(terrain[name], []).append(n)
    return cls.ColourModel(
        centre={
            k: _stats(np.concatenate([c[v] for c in centres]), cfg)
            for k, v in centre_groups.items()
        },
        corner={
            k: _stats(np.concatenate([c[v] for c in corners]).reshape(-1, 3), cfg)
            for k, v in corner_groups.items()
        },
    )


def _typical_corners(x: npt.NDArray[np.float64], near: cls.ClassStats) -> npt.NDArray[np.float64]:
    """Of each cell's four corner features (n, 4, 3), the two closest to a reference class."""
    mean, inv = np.array(near.mean), np.linalg.inv(np.array(near.cov))
    diff = x - mean
    d2 = np.einsum("nki,ij,nkj->nk", diff, inv, diff)
    order = np.argsort(d2, axis=1)[:, :2]
    return np.take_along_axis(x, order[:, :, None], axis=1).reshape(-1, 3)


def _stats(x: npt.NDArray[np.float64], cfg: VisionConfig) -> cls.ClassStats:
    """Mean and covariance of feature rows, after dropping rows far from the median."""
    med = np.median(x, axis=0)
    mad = np.median(np.abs(x - med), axis=0) * 1.4826 + 1e-6
    keep = (np.abs(x - med) <= 4 * mad).all(axis=1)
    y = x[keep] if keep.sum() >= MIN_SAMPLES else x
    mean = y.mean(axis=0)
    cov = np.cov(y.T) if len(y) > 2 else np.zeros((len(mean), len(mean)))
    # dark colours are noisier in chromaticity: the floor grows as 1/sqrt(brightness) below 0.75
    chroma = cfg.classify.min_chroma_sd * math.sqrt(max(1.0, 0.75 / math.exp(float(mean[2]))))
    sds = [chroma, chroma, cfg.classify.min_light_sd, cfg.classify.min_detail_sd][: len(mean)]
    floor = np.array(sds) ** 2
    cov = cov + np.diag(np.maximum(floor - np.diag(cov), 0))
    rows = tuple(tuple(float(v) for v in row) for row in cov)
    return cls.ClassStats(mean=tuple(float(v) for v in mean), cov=rows, samples=len(y))


def save_calibration(calibration: Calibration, path: Path) -> None:
    """Writes a calibration file (JSON).

    Raises:
        VisionError: the file cannot be written.
    """
    try:
        check_target(path, "calibration")
    except InputFileError as exc:
        raise VisionError(str(exc)) from None
    try:
        path.write_text(calibration.model_dump_json(indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        reason = (exc.strerror or type(exc).__name__).lower()
        raise VisionError(f"{path}: cannot write the calibration ({reason})") from None


def load_calibration(path: Path, board: BoardSpec) -> Calibration:
    """Returns a calibration file's contents, checked.

    Raises:
        VisionError: unreadable, too large, not a calibration, or for another board.
    """
    try:
        text = read_text(path, limit=MAX_FILE_BYTES, what="calibration file")
    except InputFileError as exc:
        problem = exc.problem
        if not problem.startswith("cannot read"):
            problem = f"cannot read the calibration ({problem})"
        raise VisionError(f"{path}: {problem}") from None
    try:
        data = parse_json(str(path), text)
    except InputFileError:
        raise VisionError(
            f"{path}: not a calibration file (expected JSON from referee vision calibrate)"
        ) from None
    try:
        cal = Calibration.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        raise VisionError(f"{path}: not a valid calibration: {loc}: {err['msg']}") from None
    if cal.board != board.slug:
        raise VisionError(f"{path}: this calibration is for {cal.board!r}, not {board.slug!r}")
    for name, stats in (*cal.colours.centre.items(), *cal.colours.corner.items()):
        cov = np.array(stats.cov)
        if not np.all(np.isfinite(cov)) or np.linalg.det(cov) <= 0:
            raise VisionError(f"{path}: the colour class {name!r} has an invalid spread")
    return cal
