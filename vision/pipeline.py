"""``observe``: photo → registered board → per-cell reading, read top-down like the algorithm.

    load (size capped from the header) → register (markers, outline) → warp → relight (hard
    shadows, :mod:`vision.shade`) → cell patches → classify (occupant side, terrain,
    confidence) → counter labels (optional) → Observation

Each stage gets only its part of :class:`~vision.config.VisionConfig`. The observation is
neutral data: per cell a label and a confidence; turning it into moves is the rules' job.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import cv2
import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict, Field

from referee.i18n import N_, _, ngettext
from vision import adaptive, outline, prior, trees
from vision import grid_overlay as go
from vision.board import BoardSpec
from vision.calibration import Calibration, default_model
from vision.config import ClassifyConfig, VisionConfig
from vision.debug import DebugSink, NullSink
from vision.errors import BoardNotFoundError, LowConfidenceError
from vision.labels import Template, default_templates, label_scores
from vision.load import Photo, read_photo
from vision.register import Registration, register
from vision.shade import relight


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
    from_rules: tuple[str, ...] = Field(
        default=(),
        description="Cells whose label, or whether they are read at all, the rules' priors "
        "decided rather than the photo.",
    )

    def read_cells(self) -> dict[str, CellReading]:
        """Returns the cells read with confidence: the unreadable ones left out (what the rules
        are given; whether a cell is too doubtful is decided here, once)."""
        unsure = set(self.unreadable)
        return {name: cell for name, cell in self.cells.items() if name not in unsure}


@dataclass
class Reading:
    """Everything ``observe`` computed, for calibration and debugging (not serialised)."""

    observation: Observation
    registration: Registration
    warped: go.Warped
    white: npt.NDArray[np.float64]
    evidence: adaptive.CellEvidence
    lines: npt.NDArray[np.float64]
    """Per cell, how clearly each of its four printed edges shows (grid_overlay.edge_evidence)."""
    image: npt.NDArray[np.uint8]
    """The working image the registration refers to."""
    inside: npt.NDArray[np.float64]
    """Per cell, the share of its area inside the photo."""
    washed: npt.NDArray[np.float64]
    """Per cell, the share of its pixels a glare washes out (in the photo, or once a hard shadow
    is lit away: the glare rule's input)."""
    doubted: bool
    """Whether the fitted trees doubt the photo as a whole (:data:`vision.trees.REFUSE_AT`), which
    refuses it (:func:`refusal`) when read strictly."""


def observe(
    photo: Path | Photo,
    board: BoardSpec,
    cfg: VisionConfig | None = None,
    calibration: Calibration | None = None,
    labels: Mapping[str, tuple[str, str]] | None = None,
    debug: DebugSink | None = None,
    strict: bool = True,
    priors: prior.Priors | None = None,
) -> Observation:
    """Returns what a photo shows on every cell of a board.

    Args:
        photo: the photo file (PNG or JPEG), or one already loaded.
        board: the board geometry and colours.
        cfg: thresholds (defaults if None).
        calibration: the colours (and counter labels) of the user's set; the board tables'
            colours if None.
        labels: legion → (side, printed label): also score each counter against the legions of
            its side (``Observation.identity``).
        debug: receives a picture of each stage.
        strict: refuse the photo (LowConfidenceError) when too many cells are unreadable (on
            the photo's own confidences, whatever the priors say).
        priors: cell → (side or None, terrain) → probability from the rules alone, for the
            photo taken after one turn (:mod:`vision.prior`); None reads the photo alone.

    Raises:
        PriorsError: priors that do not fit the board (a ValueError), before the photo is read.
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
    priors: prior.Priors | None = None,
) -> Reading:
    """Does the work of :func:`observe` and returns the intermediate results too: load →
    register → warp → cells (colours, evidence, occluders) → decisions → refusal → priors →
    labels.

    Raises:
        PriorsError, VisionError, BoardNotFoundError, LowConfidenceError: as :func:`observe`.
    """
    start = time.perf_counter()
    if priors is not None:
        prior.check(priors, board)  # before any work: a caller's mistake, not the photo's
    cfg = cfg or VisionConfig()
    debug = debug or NullSink()
    loaded = photo if isinstance(photo, Photo) else read_photo(photo, cfg.load)
    reg = _register(loaded, board, cfg, debug)
    warped = go.warp_board(loaded.image, reg, board, cfg.grid.px_per_cell, cfg.grid.pad_cells)
    if debug.enabled:
        debug.stage("warped", warped.image)
        debug.stage("grid", go.draw_grid(warped, board))
    sharp = go.sharpness(warped, board)  # reported with the reading
    washed = go.cell_washed(warped, board)
    relit = relight(warped, board).warped  # hard-edged shadows lit away (vision.shade)
    if relit is not warped:
        # a glare inside a shadow may wash a cell out only once the shadow is lit away
        washed = np.maximum(washed, go.cell_washed(relit, board))
    warped = relit
    white = go.white_reference(warped, board)
    seed = calibration.pixels if calibration is not None else default_model(board, cfg)
    lines = go.edge_evidence(warped, board)
    evidence = _evidence(warped, board, white, seed, cfg)
    inside = go.cell_inside(warped, board)
    readings, likelihoods, doubted = _decide(evidence, board, lines, washed, inside, cfg)
    unreadable = _unread(readings, cfg)
    if debug.enabled:
        debug.stage("labels", _draw_labels(warped, board, readings, cfg))
    if strict:
        _refuse_if_unread(unreadable, evidence, washed, board, cfg, white, doubted)
    from_rules: tuple[str, ...] = ()
    if priors is not None:
        readings, from_rules = _with_priors(readings, priors, board, cfg, likelihoods)
        unreadable = _unread(readings, cfg)
        if debug.enabled:
            debug.stage("priors", _draw_labels(warped, board, readings, cfg))
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
        from_rules=from_rules,
    )
    return Reading(observation, reg, warped, white, evidence, lines, loaded.image, inside, washed, doubted)


def _register(loaded: Photo, board: BoardSpec, cfg: VisionConfig, debug: DebugSink) -> Registration:
    """Finds the board (markers, outline), refits it on the grid lines, and refuses a board that
    only the grid lines could have confirmed when they do not.

    Raises:
        BoardNotFoundError: an outline or two markers the grid lines do not confirm.
    """
    found = register(loaded.image, board, cfg.registration, debug)
    reg = go.refine(loaded.image, found, board, cfg.grid)
    if found.method == "outline" and (reg is found or not outline.marks_confirm(loaded.image, reg.to_board, board,
                                                                             cfg.registration)):
        # a bright quadrilateral on a cluttered table is not a board until its grid lines show,
        # and its printed coordinates where the refitted grid puts them
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


def _evidence(
    warped: go.Warped,
    board: BoardSpec,
    white: npt.NDArray[np.float64],
    seed: adaptive.PixelModel,
    cfg: VisionConfig,
) -> adaptive.CellEvidence:
    """Returns every cell's evidence, read again without an occluder's pixels when one is found."""
    p, ppc = warped.pad_px, warped.ppc
    grid = warped.grid(board.rows, board.cols)
    grid_inside = warped.inside[p : p + board.rows * ppc, p : p + board.cols * ppc]
    evidence = adaptive.evidence(grid, grid_inside, white, board, seed, cfg.classify)
    occluder = adaptive.occluder(warped.image, warped.inside, p, ppc, white, board, evidence.model, cfg.classify)
    if occluder.mask is not None:
        # read again without the occluder's pixels: first its blob, so the piece colours adapt
        # without it (skin may have a token's colour, and a hand is large), then its pixels
        # judged one by one against those colours, so a cell it only touches is read from the
        # rest of it
        grow = 2 * round(cfg.classify.occluder_margin * ppc) + 1
        kernel = np.ones((grow, grow), np.uint8)
        without = adaptive.adapted(  # the classes only: the cells are read again below
            grid,
            grid_inside & ~(cv2.dilate(occluder.mask.astype(np.uint8), kernel) > 0),
            white,
            board,
            seed,
            cfg.classify,
        )
        occluder = adaptive.refine_occluder(warped.image, occluder, p, ppc, white, board, without, cfg.classify)
        hidden = cv2.dilate(np.asarray(occluder.mask, np.uint8), kernel) > 0
        evidence = adaptive.evidence(grid, grid_inside & ~hidden, white, board, seed, cfg.classify)
        if occluder.strict is not None and occluder.strict_mask is not None:
            # the cells with pixels given back, read away from the hand as first found: those
            # pixels are believed where the cell agrees there
            first = cv2.dilate(occluder.strict_mask.astype(np.uint8), kernel) > 0
            evidence = adaptive.beyond(
                grid, grid_inside & ~first, white, board, evidence, occluder.strict > occluder.share, cfg.classify
            )
    return adaptive.with_reach(evidence, occluder.share, occluder.strict)


def glared(washed: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
    """Returns per cell whether a glare hides what lies there: most of its pixels are washed out
    to white (``washed``: each cell's share of them, :attr:`Reading.washed`, in the photo or once
    a hard shadow is lit away). A refusal for too many unreadable cells names the glare as its
    reason when more of them are glared than under a hand.

    No number: the washed pixels outnumber the others (until 30 November a share set by hand,
    ``GLARE_SHARE``, 0.2, which also capped a bare plain cell's confidence under the cascade; the
    fitted trees read the washed share themselves). Measured (w58c, ``docs/vision.md``, "The
    refusal's numbers and the shade stage's last ones"): no refusal's kind nor reason changed on
    the dev photos, the game positions, the occlusion set, the refuse set and ``tests/vision``."""
    out: npt.NDArray[np.bool_] = washed > 1 - washed
    return out


def _decide(
    evidence: adaptive.CellEvidence,
    board: BoardSpec,
    lines: npt.NDArray[np.float64],
    washed: npt.NDArray[np.float64],
    inside: npt.NDArray[np.float64],
    cfg: VisionConfig,
) -> tuple[dict[str, CellReading], dict[str, dict[prior.Content, float]], bool]:
    """Returns every cell's reading by the fitted trees (:mod:`vision.trees`), each cell's
    likelihood of every content (what the rules' priors weigh) and whether the trees doubt the
    photo as a whole (:data:`vision.trees.REFUSE_AT`)."""
    # the refusal's logistic was fitted on the cells below the default ask floor: its summary is
    # read there whatever floor the settings ask at, and settings that let every cell be
    # unreadable (max_unreadable 1) turn it off as they turn off the count
    fitted = trees.decide(evidence, board, lines, washed, inside, _FITTED_FLOOR)
    likelihoods = {
        name: dict(zip(fitted.contents, map(float, row), strict=True))
        for name, row in zip(board.cell_names(), fitted.likelihood, strict=True)
    }
    readings = _readings(fitted.cells, inside, board)
    return readings, likelihoods, fitted.doubt > trees.REFUSE_AT and cfg.classify.max_unreadable < 1


_FITTED_FLOOR = ClassifyConfig().min_confidence
"""The default ask floor, at which ``bench/fit_trees_photo.py`` fitted the trees' refusal."""


def _readings(
    results: list[tuple[str | None, str, float]],
    inside: npt.NDArray[np.float64],
    board: BoardSpec,
) -> dict[str, CellReading]:
    """Returns each cell's reading (no confidence where part of the cell is outside the photo;
    the fitted trees read a glare's washed share themselves)."""
    readings: dict[str, CellReading] = {}
    for n, (name, (occupant, terrain, conf)) in enumerate(zip(board.cell_names(), results, strict=True)):
        if inside[n] < adaptive.READ_INSIDE:
            conf = 0.0  # part of the cell is outside the photo
        readings[name] = CellReading(occupant=occupant, terrain=terrain, confidence=round(conf, 4))
    return readings


def _unread(readings: Mapping[str, CellReading], cfg: VisionConfig) -> tuple[str, ...]:
    """The cells read below the ask floor (``classify.min_confidence``), in board order."""
    return tuple(n for n, r in readings.items() if r.confidence < cfg.classify.min_confidence)


def _with_priors(
    readings: Mapping[str, CellReading],
    priors: prior.Priors,
    board: BoardSpec,
    cfg: VisionConfig,
    likelihoods: Mapping[str, Mapping[prior.Content, float]],
) -> tuple[dict[str, CellReading], tuple[str, ...]]:
    """Returns the readings with the rules' priors weighed in (:mod:`vision.prior`, with the
    photo's likelihood of every content, the fitted trees' spread), and the cells whose label or
    whose being read at all changed because of them."""
    floor = cfg.classify.min_confidence
    # a cell the trees leave unsure is weighed against the contents the rules allow, not their
    # odds (docs/decisions/vision-trees-path.md)
    photo = {n: (r.occupant, r.terrain, r.confidence) for n, r in readings.items()}
    out: dict[str, CellReading] = {}
    changed: list[str] = []
    for name, (occupant, terrain, conf) in prior.combine(photo, priors, board, likelihoods, floor).items():
        was, now = readings[name], CellReading(occupant=occupant, terrain=terrain, confidence=round(conf, 4))
        if (now.occupant, now.terrain) != (was.occupant, was.terrain) or (
            (now.confidence >= floor) != (was.confidence >= floor)
        ):
            changed.append(name)
        out[name] = now
    return out, tuple(changed)


Cause = Literal["not-board", "hand", "glare", "overexposed", "unknown"]
"""What a refusal of a photo whose cells were read blames (:class:`Refusal`)."""


@dataclass(frozen=True)
class Refusal:
    """Why a photo whose cells were read is refused (:func:`refusal`)."""

    unreadable: tuple[str, ...]
    """The cells read below the ask floor."""
    cause: Cause
    """What the refusal blames: most cells show neither the board nor its pieces, a hand (or
    something over the board), a glare, the whole photo's exposure (its cells washed out where the
    board's own paper is), or nothing known (the photo itself)."""
    count: int
    """How many cells the cause names (of the board's, for ``not-board``; of the unreadable ones
    otherwise; 0 for ``unknown``)."""
    total: int
    """The board's cells."""

    def error(self) -> BoardNotFoundError | LowConfidenceError:
        """The error the reader raises, its message in the reader's language."""
        n = self.count
        if self.cause == "not-board":
            return BoardNotFoundError(
                _(
                    "the board is not visible: {n} of its {total} cells show neither the board nor "
                    "its pieces; frame the whole board, uncovered"
                ).format(n=n, total=self.total)
            )
        if self.cause == "overexposed":
            why = ngettext(
                "the photo is overexposed: {n} of them are washed out to white, as is the board's "
                "paper; dim the light or lower the exposure",
                "the photo is overexposed: {n} of them are washed out to white, as is the board's "
                "paper; dim the light or lower the exposure",
                n,
            ).format(n=n)
        elif self.cause == "glare":
            why = ngettext(
                "a glare washes out {n} of them; move the lamp or tilt the board",
                "a glare washes out {n} of them; move the lamp or tilt the board",
                n,
            ).format(n=n)
        elif self.cause == "hand":
            why = ngettext(
                "a hand or something over the board hides {n} of them",
                "a hand or something over the board hides {n} of them",
                n,
            ).format(n=n)
        else:
            why = N_("the board is hidden, badly lit or not the expected set")
        return LowConfidenceError(self.unreadable, why)


def refusal(
    unreadable: tuple[str, ...],
    reached: npt.NDArray[np.float64] | None,
    washed: npt.NDArray[np.float64],
    names: list[str],
    max_unreadable: float,
    doubted: bool = False,
    white: npt.NDArray[np.float64] | None = None,
) -> Refusal | None:
    """Returns why a photo whose cells were read is refused, or None if it is not.

    A photo with more than ``max_unreadable`` (``classify.max_unreadable``) of its cells
    unreadable (``unreadable``: read below the ask floor), or one the fitted trees doubt as a whole
    (``doubted``: :data:`vision.trees.REFUSE_AT`), is refused. The cause said is the known one
    where most of the unreadable cells have it (a hand reaching in: ``reached``, each cell's
    share an occluder covers; a glare: ``washed``, each cell's share washed out), else the photo
    itself is bad. A pure function of what the reading measured: ``bench/refusal_reasons.py``
    measures the causes it names against what a renderer drew.

    A cell washed out (:func:`glared`) is the light's, even where the occluder finder reaches it:
    a clipped white patch has no colour to tell skin by, and the finder takes a glare's white
    patch for a hand. Where the board's own paper is washed out too (``white``: the paper's
    colour, :func:`grid_overlay.white_reference`, clipped at ``grid_overlay.WASHED`` in every
    channel; None: not known), the washed cells are the photo's exposure's, not a glare's: the
    cause is then the exposure.
    """
    reached = reached if reached is not None else np.zeros(len(names))
    glare = glared(washed)
    shone_on = {names[n] for n in range(len(names)) if glare[n]}
    held = {names[n] for n in range(len(names)) if reached[n] > 0} - shone_on
    others = [n for n in unreadable if n not in held and n not in shone_on]
    limit = max_unreadable * len(names)
    if len(unreadable) <= limit and not doubted:
        return None
    blind = len(unreadable) - len(shone_on.intersection(unreadable))
    if blind > len(names) - blind:
        # most of the "board" shows neither the board nor its pieces (no number: those cells
        # outnumber the others; classify.max_not_board, 0.5, until w58c): whatever was taken for
        # it (a cluttered table, a board under a cloth) is not a board to read
        return Refusal(unreadable, "not-board", blind, len(names))
    if len(others) <= limit and set(unreadable) & (held | shone_on):
        hid = len([n for n in unreadable if n in held])
        shone = len([n for n in unreadable if n in shone_on])
        if shone > hid:
            overexposed = white is not None and bool((white >= go.WASHED).all())
            return Refusal(unreadable, "overexposed" if overexposed else "glare", shone, len(names))
        return Refusal(unreadable, "hand", hid, len(names))
    return Refusal(unreadable, "unknown", 0, len(names))


def _refuse_if_unread(
    unreadable: tuple[str, ...],
    evidence: adaptive.CellEvidence,
    washed: npt.NDArray[np.float64],
    board: BoardSpec,
    cfg: VisionConfig,
    white: npt.NDArray[np.float64],
    doubted: bool = False,
) -> None:
    """Refuses a photo with too many unreadable cells, or one the fitted trees doubt as a whole,
    saying why (:func:`refusal`; ``white``: the paper's colour, :func:`grid_overlay.white_reference`).

    Raises:
        BoardNotFoundError: most cells show neither the board nor its pieces.
        LowConfidenceError: too many cells unreadable.
    """
    why = refusal(unreadable, evidence.reached, washed, board.cell_names(), cfg.classify.max_unreadable, doubted, white)
    if why is not None:
        raise why.error()


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
        low = r.confidence < cfg.classify.min_confidence
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
