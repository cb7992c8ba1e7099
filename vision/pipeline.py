"""``observe``: photo → registered board → per-cell reading, read top-down like the algorithm.

    load (size capped from the header) → register (markers, outline) → warp → normalise (the
    bare board's colour at every point, :mod:`vision.normalise`) → evidence (each reading's
    likelihood, :mod:`vision.evidence`) → occlusion (:mod:`vision.occlusion`) → decide (a
    calibrated probability per cell, :mod:`vision.decide`) → counter labels (optional) →
    Observation

Each stage is a pure function of the previous one's (read-only) result and gets only its part of
:class:`~vision.config.VisionConfig`. The observation is neutral data: per cell a reading and
the probability that it is right; turning it into moves is the rules' job.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict, Field

from referee.i18n import N_, _, ngettext
from vision import grid_overlay as go
from vision.board import BoardSpec
from vision.calibration import Calibration, default_colours
from vision.config import VisionConfig
from vision.debug import DebugSink, NullSink
from vision.decide import CellPrior, Decision, decide
from vision.errors import BoardNotFoundError, LowConfidenceError, VisionError
from vision.evidence import Evidence, evidence
from vision.labels import Template, default_templates, label_scores
from vision.load import Photo, read_photo
from vision.normalise import Normalised, normalise
from vision.occlusion import Occlusion, occlusion
from vision.register import Registration, register


class CellReading(BaseModel):
    """What one cell shows: the side of its counter (or None), its terrain, a confidence."""

    model_config = ConfigDict(frozen=True)

    occupant: str | None
    terrain: str
    confidence: float = Field(ge=0, le=1)


class RegistrationInfo(BaseModel):
    """How the board was found."""

    model_config = ConfigDict(frozen=True)

    method: str = Field(description="'markers' or 'outline'.")
    markers: tuple[int, ...] = Field(description="Marker ids used.")
    error_cells: float = Field(description="Mean reprojection error of the marker corners, in cells.")
    cell_px: float = Field(description="Board cell size in the decoded photo, in pixels.")
    sharpness: float


class Observation(BaseModel):
    """``referee capture --json`` without a position: the board as the photo shows it."""

    model_config = ConfigDict(frozen=True)

    cells: dict[str, CellReading]
    seconds: float = Field(description="Time to read the photo, load included.")
    unreadable: tuple[str, ...] = Field(default=(), description="Cells below the confidence floor.")
    registration: RegistrationInfo
    calibration: str = Field(description="'default' or the calibration file's source photo.")
    identity: dict[str, dict[str, float]] | None = Field(
        default=None, description="Cell → {legion: label score}, when labels were asked for."
    )

    def read_cells(self) -> dict[str, CellReading]:
        """Returns the cells read with confidence: the unreadable ones left out (what the rules
        are given; whether a cell is too doubtful is decided here, once)."""
        unsure = set(self.unreadable)
        return {name: cell for name, cell in self.cells.items() if name not in unsure}


@dataclass(frozen=True)
class Reading:
    """Everything ``observe`` computed, stage by stage, for calibration and debugging (not
    serialised); each stage's result is read-only and made from the previous one's alone."""

    observation: Observation
    registration: Registration
    warped: go.Warped
    white: npt.NDArray[np.float64]
    """The sheet's colour around the grid (BGR): the counter labels are read against it."""
    normalised: Normalised
    evidence: Evidence
    occlusion: Occlusion
    decision: Decision
    image: npt.NDArray[np.uint8]
    """The working image the registration refers to."""


def observe(
    photo: Path | Photo,
    board: BoardSpec,
    cfg: VisionConfig | None = None,
    calibration: Calibration | None = None,
    labels: Mapping[str, tuple[str, str]] | None = None,
    debug: DebugSink | None = None,
    strict: bool = True,
    priors: Mapping[str, CellPrior] | None = None,
) -> Observation:
    """Returns what a photo shows on every cell of a board.

    Args:
        photo: the photo file (PNG, JPEG or HEIC), or one already loaded.
        board: the board geometry and colours.
        cfg: settings (defaults if None).
        calibration: the colours (and counter labels) of the user's set; the board tables'
            colours if None.
        labels: legion → (side, printed label): also score each counter against the legions of
            its side (``Observation.identity``).
        debug: receives a picture of each stage.
        strict: refuse the photo (LowConfidenceError) when too many cells are unreadable.
        priors: cell name → what the rules expect there (the game's capture rules give them:
            the last known position and what legal moves can change); uniform if None.

    Raises:
        VisionError: unreadable, too large, too dark, too blurred, or the board too small.
        BoardNotFoundError: no board in the photo.
        LowConfidenceError: too many cells could not be read with confidence.
    """
    return read(photo, board, cfg, calibration, labels, debug, strict, priors).observation


def read(
    photo: Path | Photo,
    board: BoardSpec,
    cfg: VisionConfig | None = None,
    calibration: Calibration | None = None,
    labels: Mapping[str, tuple[str, str]] | None = None,
    debug: DebugSink | None = None,
    strict: bool = True,
    priors: Mapping[str, CellPrior] | None = None,
) -> Reading:
    """Does the work of :func:`observe` and returns every stage's result: load → register →
    warp → normalise → evidence → occlusion → decide → refusal → labels.

    Raises:
        VisionError, BoardNotFoundError, LowConfidenceError: as :func:`observe`.
    """
    start = time.perf_counter()
    cfg = cfg or VisionConfig()
    debug = debug or NullSink()
    loaded = photo if isinstance(photo, Photo) else read_photo(photo, cfg.load)
    reg = register_photo(loaded, board, cfg, debug)
    warped = go.warp_board(loaded.image, reg, board, cfg.grid.px_per_cell, cfg.grid.pad_cells)
    if debug.enabled:
        debug.stage("warped", warped.image)
        debug.stage("grid", go.draw_grid(warped, board))
    sharp = _sharpness(warped, board, cfg)
    colours = calibration.colours if calibration is not None else default_colours(board, cfg)
    m = cfg.model
    norm = normalise(warped, board, colours, m.edge_share, m.field_sd)
    ev = evidence(norm, board, colours, m)
    occ = occlusion(norm, ev, m)
    names = board.cell_names()
    dec = decide(ev, occ, names, m, priors)
    readings = _readings(dec, norm, names)
    unreadable = tuple(n for n, r in readings.items() if r.confidence < m.ask_below)
    if debug.enabled:
        debug.stage("labels", _draw_labels(warped, board, readings, cfg))
    if strict:
        _refuse_if_unread(unreadable, occ, board, sharp, cfg)
    white = go.white_reference(warped, board, cfg.grid)
    identity = None
    if labels:
        identity = _identity(loaded, reg, board, white, readings, labels, calibration, cfg)
    info = RegistrationInfo(
        method=reg.method,
        markers=reg.markers,
        error_cells=round(reg.error, 4),
        cell_px=round(reg.cell_px * loaded.reduction, 1),
        sharpness=round(sharp, 4),
    )
    observation = Observation(
        cells=readings,
        seconds=round(time.perf_counter() - start, 4),
        unreadable=unreadable,
        registration=info,
        calibration=calibration.source if calibration is not None else "default",
        identity=identity,
    )
    return Reading(observation, reg, warped, white, norm, ev, occ, dec, loaded.image)


def register_photo(loaded: Photo, board: BoardSpec, cfg: VisionConfig, debug: DebugSink) -> Registration:
    """Finds the board (markers, outline), refits it on the grid lines, and refuses a board that
    only the grid lines could have confirmed when they do not.

    Raises:
        BoardNotFoundError: an outline or two markers the grid lines do not confirm.
    """
    found = register(loaded.image, board, cfg.registration, debug)
    reg = go.refine(loaded.image, found, board, cfg.grid)
    if found.method == "outline" and reg is found:
        # a bright quadrilateral on a cluttered table is not a board until its grid lines show
        raise BoardNotFoundError(
            _("no corner markers, and the grid lines do not confirm the outline found as a "
              "board; frame the whole board with its four markers")
        )
    if found.method == "two-markers" and reg is found:
        raise BoardNotFoundError(
            _("only markers {a} and {b} could be placed and the grid "
              "lines do not confirm the board; frame the whole board with its four markers").format(
                a=found.markers[0], b=found.markers[1])
        )
    return reg


def _sharpness(warped: go.Warped, board: BoardSpec, cfg: VisionConfig) -> float:
    """Returns the warped board's sharpness, refusing it below ``grid.min_sharpness``.

    Raises:
        VisionError: too blurred.
    """
    sharp = go.sharpness(warped, board)
    if sharp < cfg.grid.min_sharpness:
        raise VisionError(
            _(
                "the photo is too blurred to read the board (sharpness {sharpness}, need {need}); "
                "hold still and focus on the board"
            ).format(sharpness=f"{sharp:.3f}", need=f"{cfg.grid.min_sharpness:.3f}")
        )
    return sharp


def _readings(dec: Decision, norm: Normalised, names: list[str]) -> dict[str, CellReading]:
    """Returns each cell's reading (no confidence where part of the cell is outside the photo)."""
    readings: dict[str, CellReading] = {}
    for n, name in enumerate(names):
        occupant, terrain = dec.hypotheses[int(dec.best[n])]
        conf = float(dec.confidence[n]) if norm.covered[n] >= 0.98 else 0.0
        readings[name] = CellReading(occupant=occupant, terrain=terrain, confidence=round(conf, 4))
    return readings


def _refuse_if_unread(
    unreadable: tuple[str, ...], occ: Occlusion, board: BoardSpec, sharp: float, cfg: VisionConfig
) -> None:
    """Refuses a photo with too many unreadable cells, saying why.

    Cells probably hidden (a hand, a glare) are unreadable for a known reason: they refuse the
    photo only when they are many; other unreadable cells say the photo itself is bad.

    Raises:
        BoardNotFoundError: most cells show neither the board nor its pieces.
        LowConfidenceError: too many cells unreadable.
    """
    m = cfg.model
    names = board.cell_names()
    held = {names[n] for n in range(len(names)) if occ.hidden[n] >= 0.5}
    others = [n for n in unreadable if n not in held]
    limit = m.max_unreadable * len(names)
    too_many = len(unreadable) > max(m.max_hidden, m.max_unreadable) * len(names)
    if not (too_many or len(others) > limit):
        return
    if sharp < cfg.grid.soft_sharpness:
        why = "the photo looks blurred"
    elif len(unreadable) > m.max_not_board * len(names):
        # most of the "board" shows neither the board nor its pieces: whatever was taken for
        # it (a cluttered table, a board under a cloth) is not a board to read
        raise BoardNotFoundError(
            _(
                "the board is not visible: {n} of its {total} cells show neither the board nor "
                "its pieces; frame the whole board, uncovered"
            ).format(n=len(unreadable), total=len(names))
        )
    elif len(others) <= limit:
        hid = len(unreadable) - len(others)
        why = ngettext(
            "a hand or something over the board hides {n} of them",
            "a hand or something over the board hides {n} of them",
            hid,
        ).format(n=hid)
    else:
        why = N_("the board is hidden, badly lit or not the expected set")
    raise LowConfidenceError(unreadable, why)


def _identity(
    loaded: Photo,
    reg: Registration,
    board: BoardSpec,
    white: npt.NDArray[np.float64],
    readings: Mapping[str, CellReading],
    labels: Mapping[str, tuple[str, str]],
    calibration: Calibration | None,
    cfg: VisionConfig,
) -> dict[str, dict[str, float]]:
    """Returns, per cell holding a counter, each legion of its side's label score."""
    sharp_warp = go.warp_board(loaded.image, reg, board, cfg.identity.px_per_cell, cfg.grid.pad_cells, coverage=False)
    templates = _templates(labels, board, calibration, cfg)
    seen = {
        name: (n // board.cols, n % board.cols, r.occupant)
        for n, (name, r) in enumerate(readings.items())
        if r.occupant is not None
    }
    return label_scores(sharp_warp, white, seen, labels, templates, cfg.identity)


def _templates(
    labels: Mapping[str, tuple[str, str]],
    board: BoardSpec,
    calibration: Calibration | None,
    cfg: VisionConfig,
) -> dict[str, list[Template]]:
    ppc = cfg.identity.px_per_cell
    templates = default_templates(labels, board.side_colours, cfg.identity, ppc)
    if calibration is not None:
        templates.update({k: [v] for k, v in calibration.label_templates(ppc).items()})
    return templates


def _draw_labels(
    warped: go.Warped, board: BoardSpec, readings: Mapping[str, CellReading], cfg: VisionConfig
) -> npt.NDArray[np.uint8]:
    out = go.draw_grid(warped, board)
    ppc, p = warped.ppc, warped.pad_px
    colours = {side: tuple(int(x) for x in rgb[::-1]) for side, rgb in board.side_colours.items()}
    for n, (_name, r) in enumerate(readings.items()):
        row, col = divmod(n, board.cols)
        x, y = p + col * ppc, p + row * ppc
        text = (r.occupant or "-")[:1].upper() + r.terrain[:1]
        low = r.confidence < cfg.model.ask_below
        colour = (0, 0, 255) if low else colours.get(r.occupant or "", (30, 30, 30))
        cv2.putText(
            out,
            text,
            (x + 3, y + ppc - 5),
            cv2.FONT_HERSHEY_SIMPLEX,
            ppc / 80,
            (255, 255, 255),
            3,
            cv2.LINE_AA,
        )
        cv2.putText(
            out,
            text,
            (x + 3, y + ppc - 5),
            cv2.FONT_HERSHEY_SIMPLEX,
            ppc / 80,
            colour,
            1,
            cv2.LINE_AA,
        )
        if low:
            cv2.rectangle(out, (x + 2, y + 2), (x + ppc - 2, y + ppc - 2), (0, 0, 255), 2)
    return out
