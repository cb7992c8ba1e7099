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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from referee.i18n import _, ngettext
from vision import adaptive, trees
from vision import grid_overlay as go
from vision.board import BoardSpec
from vision.calibration import Calibration
from vision.config import ClassifyConfig, VisionConfig
from vision.decide import READ_INSIDE
from vision.errors import VisionError
from vision.labels import (
    crop_template,
    default_templates,
    encode_template,
)
from vision.pipeline import Reading, read

if TYPE_CHECKING:
    from vision.debug import DebugSink
    from vision.load import Photo

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

    Each piece class is measured on the pixels the known position gives it: a side's colour on
    the central discs of its counters, the bare board on its empty plain cells, each token's
    colour on its cells' inner squares (pixels of the counters' and the bare board's colours
    left out). The spreads add the photo-to-photo drift. The classes must then read the known
    position back and be well apart from each other.

    Args:
        photo: the photo (file or loaded).
        board: the board geometry.
        known: cell name → (side on it or None, terrain), for every cell.
        cfg: thresholds.
        legions: legion → (side, printed label), to learn label templates.
        legion_at: cell name → legion standing there.
        debug: receives a picture of each stage.

    Raises:
        VisionError: the photo cannot be read, does not show the known position, or shows two
            piece colours too alike to tell apart (the message says what to do).
        BoardNotFoundError: no board in the photo.
    """
    cfg = cfg or VisionConfig()
    cc = cfg.classify
    reading = read(photo, board, cfg, None, None, debug, strict=False)
    names = board.cell_names()
    missing = [n for n in names if n not in known]
    if missing:
        raise VisionError(_("the known position does not cover every cell (missing {cells})").format(
            cells=", ".join(missing[:5])))
    warped = reading.warped
    p, ppc = warped.pad_px, warped.ppc
    grid = warped.grid(board.rows, board.cols)
    inside = warped.inside[p : p + board.rows * ppc, p : p + board.cols * ppc]
    seed = adaptive.table_model(board, cc, tuple(float(v) for v in reading.white))
    model = measure_classes([LabelledBoard(grid, inside, reading.white, dict(known))], board, seed, cc)
    measured = [k for k, v in model.classes.items() if v.pixels > 0]
    again = adaptive.evidence(grid, inside, reading.white, board, model, cc)
    decided = trees.decide(again, board, reading.lines, reading.washed, reading.inside, cc.min_confidence)
    _check_reads_back(decided.cells, reading.inside, known, names, cc)
    _check_apart(model, cc)
    templates = _templates(reading, board, legions, legion_at, cfg) if legions and legion_at else {}
    source = photo.name if isinstance(photo, Path) else photo.source
    return Calibration(
        board=board.slug,
        source=source,
        pixels=model,
        template_ppc=cfg.identity.px_per_cell,
        templates=templates,
        measured=tuple(measured),
    )


def _check_reads_back(results: list[tuple[str | None, str, float]], inside: npt.NDArray[np.float64],
                      known: Mapping[str, tuple[str | None, str]], names: list[str], cc: ClassifyConfig) -> None:
    """Refuses classes that do not read the known position back as a photo's reading is judged:
    no known cell the photo shows read sure (``cc.min_confidence``) and wrong, and no more of
    them unsure and wrong than a photo may leave unreadable (``cc.max_unreadable``).

    Raises:
        VisionError: the photo does not show the known position.
    """
    shown = [n for n in range(len(names)) if inside[n] >= READ_INSIDE]
    misread = [n for n in shown if (results[n][0], results[n][1]) != tuple(known[names[n]])]
    wrong = [names[n] for n in misread]
    if any(results[n][2] >= cc.min_confidence for n in misread) or len(wrong) > cc.max_unreadable * len(shown):
        raise VisionError(
            ngettext(
                "the photo does not show the known position: {n} cell disagrees ({cells})",
                "the photo does not show the known position: {n} cells disagree ({cells})",
                len(wrong),
            ).format(n=len(wrong), cells=", ".join(wrong[:8]) + (" ..." if len(wrong) > 8 else ""))
        )


def _check_apart(model: adaptive.PixelModel, cc: ClassifyConfig) -> None:
    """Refuses two classes closer than ``min_separation`` combined spreads, with advice.

    Raises:
        VisionError: two piece colours too alike.
    """
    close = [pair for pair in adaptive.separation(model) if pair[2] < cc.min_separation]
    if close:
        a, b, d = close[0]
        raise VisionError(
            _(
                "{a} and {b} look too alike in this photo ({d} spreads apart, need {need}); take the "
                "calibration photo again in even, white light (no coloured lamp, no shadow across the "
                "board, no flash glare), or lower classify.min_separation with --config if your pieces "
                "really are that close"
            ).format(a=_pretty(a), b=_pretty(b), d=f"{d:.1f}", need=f"{cc.min_separation:g}")
        )


def _templates(reading: Reading, board: BoardSpec, legions: Mapping[str, tuple[str, str]],
               legion_at: Mapping[str, str], cfg: VisionConfig) -> dict[str, str]:
    """Crops each legion's printed label from the photo, as its template."""
    names = board.cell_names()
    ppc_id = cfg.identity.px_per_cell
    sharp_warp = go.warp_board(reading.image, reading.registration, board, ppc_id, cfg.grid.pad_cells)
    defaults = default_templates(legions, board.side_colours, cfg.identity, ppc_id)
    templates: dict[str, str] = {}
    for cell, legion in legion_at.items():
        if legion not in defaults:
            continue
        row, col = divmod(names.index(cell), board.cols)
        tpl = crop_template(sharp_warp, row, col, reading.white, defaults[legion], cfg.identity)
        templates[legion] = encode_template(tpl)
    return templates


@dataclass(frozen=True)
class LabelledBoard:
    """A top-down board whose cells are known: what calibration and refitting learn from."""

    grid: npt.NDArray[np.uint8]
    """The grid area of the warped board, BGR, (rows ppc, cols ppc, 3)."""
    inside: npt.NDArray[np.bool_]
    """Which of its pixels the photo covered."""
    white: npt.NDArray[np.float64]
    """The white reference (BGR) of its photo."""
    known: dict[str, tuple[str | None, str]]
    """Cell name → (side standing there or None, terrain), for the cells known."""


def measure_classes(
    boards: Sequence[LabelledBoard], board: BoardSpec, seed: adaptive.PixelModel, cc: ClassifyConfig
) -> adaptive.PixelModel:
    """Returns the piece classes measured on the pixels known cells give them, over one photo
    or several: a side's colour on the central discs of its counters, the bare board on its
    empty plain cells, then each token's colour on its cells' inner squares (pixels of the
    counters' and the bare board's colours, as just measured, left out). Classes no cell shows
    keep their seed."""
    plain = board.terrains[0]
    names = board.cell_names()
    groups: dict[str, list[npt.NDArray[np.float32]]] = {}
    token_pixels: list[tuple[str, npt.NDArray[np.float32]]] = []
    for one in boards:
        feats = adaptive.chroma(adaptive.board_pixels(one.grid, board, cc.pixel_step), one.white)
        mask = np.repeat(one.inside.astype(np.uint8)[:, :, None] * 255, 3, axis=2)
        cover = adaptive.board_pixels(mask, board, cc.pixel_step)[..., 0] > 127
        usable = cover & (feats[..., 2] > cc.min_pixel_light)
        m = feats.shape[1]
        c = (np.arange(m, dtype=np.float32) + 0.5) / m - 0.5
        dy, dx = np.meshgrid(c, c, indexing="ij")
        disc = np.hypot(dx, dy) < cc.counter_disc
        square = np.maximum(np.abs(dx), np.abs(dy)) < cc.terrain_square
        for n, name in enumerate(names):
            if name not in one.known:
                continue
            side, terrain = one.known[name]
            if side is not None:
                groups.setdefault(f"{adaptive.SIDE}{side}", []).append(feats[n][usable[n] & disc, :2])
            elif terrain == plain:
                groups.setdefault(plain, []).append(feats[n][usable[n] & square, :2])
            if terrain != plain:
                token_pixels.append((terrain, feats[n][usable[n] & square, :2]))
    model = adaptive.learn({k: np.concatenate(v) for k, v in groups.items()}, seed, cc)
    # tokens: their cells' pixels that are not of a counter's or the bare board's colour (further
    # than classify.pixel_sigma of its spreads from each, where a pixel fits a class no more; 3
    # spreads, an unnamed literal, until 30 November: the same cells read on the three dev sets)
    taken = [k for k in model.classes if k.startswith(adaptive.SIDE) or k == plain]
    tokens: dict[str, list[npt.NDArray[np.float32]]] = {}
    for terrain, x in token_pixels:
        keep = np.ones(len(x), bool)
        for k in taken:
            st = model.classes[k]
            keep &= np.hypot(*(x - np.array(st.mean, np.float32)).T) > cc.pixel_sigma * st.sd
        tokens.setdefault(terrain, []).append(x[keep])
    return adaptive.learn({k: np.concatenate(v) for k, v in tokens.items()}, model, cc)


def _pretty(name: str) -> str:
    """A colour class's name for the user: a side's counters, or a terrain (the plain is the bare
    board)."""
    if name.startswith(adaptive.SIDE):
        return _("the counters of side {side}").format(side=_(name[len(adaptive.SIDE) :]))
    return _("the terrain {terrain}").format(terrain=_(name))
