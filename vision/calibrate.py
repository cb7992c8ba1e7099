"""Calibration: learning a set's colours and counter labels from a photo of a known position.

``referee vision calibrate PHOTO --position KNOWN.yaml --out CAL.json`` reads the photo with
the default colours only to locate the board and its bare board's field, then measures each
material the known position shows, relative to that field (:mod:`vision.colours`): each side's
counters on their cells' centres, the bare board on its empty plain cells, each token on its
cells' inner squares. Materials the position does not show keep their default. The result is
checked on the same photo: if the learned colours do not read the known position back, the
photo or the position is wrong and nothing is written; two materials too alike to tell apart are
refused with advice. Calibration files are JSON (no pickle), size-capped when read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from referee.i18n import _, ngettext
from vision import grid_overlay as go
from vision.board import BoardSpec
from vision.calibration import Calibration, default_colours
from vision.colours import SIDE, ColourModel, measure, separation
from vision.config import VisionConfig
from vision.decide import decide
from vision.errors import VisionError
from vision.evidence import evidence
from vision.labels import (
    crop_template,
    default_templates,
    encode_template,
)
from vision.normalise import cell_geometry, normalise
from vision.occlusion import occlusion
from vision.pipeline import Reading, read

if TYPE_CHECKING:
    from vision.debug import DebugSink
    from vision.load import Photo

MIN_AGREEMENT = 0.97
"""Share of the known cells the learned colours must read back correctly."""


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
    reading = read(photo, board, cfg, None, None, debug, strict=False)
    names = board.cell_names()
    missing = [n for n in names if n not in known]
    if missing:
        raise VisionError(_("the known position does not cover every cell (missing {cells})").format(
            cells=", ".join(missing[:5])))
    labelled = LabelledBoard(reading.warped, dict(known))
    model = measure_materials([labelled], board, default_colours(board, cfg), cfg)
    measured = [k for k, v in model.materials.items() if v.pixels > 0]
    _check_reads_back(read_back(labelled, board, model, cfg), known, names)
    _check_apart(model, board, cfg)
    templates = _templates(reading, board, legions, legion_at, cfg) if legions and legion_at else {}
    source = photo.name if isinstance(photo, Path) else photo.source
    return Calibration(
        board=board.slug,
        source=source,
        colours=model,
        template_ppc=cfg.identity.px_per_cell,
        templates=templates,
        measured=tuple(measured),
    )


def read_back(labelled: LabelledBoard, board: BoardSpec, colours: ColourModel,
              cfg: VisionConfig) -> dict[str, tuple[str | None, str] | None]:
    """Returns what each cell of a labelled board reads as with some colours (None: a cell
    partly outside the photo)."""
    m = cfg.model
    norm = normalise(labelled.warped, board, colours, m.edge_share, m.field_sd)
    ev = evidence(norm, board, colours, m)
    names = board.cell_names()
    dec = decide(ev, occlusion(norm, ev, m), names, m)
    return {n: (dec.hypotheses[int(dec.best[i])] if norm.covered[i] >= 0.98 else None) for i, n in enumerate(names)}


def _check_reads_back(results: Mapping[str, tuple[str | None, str] | None],
                      known: Mapping[str, tuple[str | None, str]], names: list[str]) -> None:
    """Refuses classes that do not read the known position back (``MIN_AGREEMENT`` of the cells).

    Raises:
        VisionError: the photo does not show the known position.
    """
    wrong = [n for n in names if results[n] is not None and results[n] != tuple(known[n])]
    if len(wrong) > (1 - MIN_AGREEMENT) * len(names):
        raise VisionError(
            ngettext(
                "the photo does not show the known position: {n} cell disagrees ({cells})",
                "the photo does not show the known position: {n} cells disagree ({cells})",
                len(wrong),
            ).format(n=len(wrong), cells=", ".join(wrong[:8]) + (" ..." if len(wrong) > 8 else ""))
        )


def _check_apart(model: ColourModel, board: BoardSpec, cfg: VisionConfig) -> None:
    """Refuses two materials closer than ``model.min_separation`` combined spreads, with advice.

    Raises:
        VisionError: two piece colours too alike.
    """
    need = cfg.model.min_separation
    close = [pair for pair in separation(model, board) if pair[2] < need]
    if close:
        a, b, d = close[0]
        raise VisionError(
            _(
                "{a} and {b} look too alike in this photo ({d} spreads apart, need {need}); take the "
                "calibration photo again in even, white light (no coloured lamp, no shadow across the "
                "board, no flash glare), or lower model.min_separation with --config if your pieces "
                "really are that close"
            ).format(a=_pretty(a), b=_pretty(b), d=f"{d:.1f}", need=f"{need:g}")
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

    warped: go.Warped
    """The warped board (its grid, and the margin around it when the photo gave one)."""
    known: dict[str, tuple[str | None, str]]
    """Cell name → (side standing there or None, terrain), for the cells known."""


COUNTER_CORE = 0.2
"""A counter's colour is measured within this distance (cells, Chebyshev) of its cell's centre:
the smallest counter drawn (0.58 cell) 0.08 off centre still covers it."""
TOKEN_CORE = 0.3
"""A token's colour is measured within this distance of its cell's centre (the smallest token,
0.82 cell, 0.07 off centre, covers it)."""
BOARD_CORE = 0.4
"""The bare board is measured within this distance of an empty plain cell's centre."""


def measure_materials(boards: Sequence[LabelledBoard], board: BoardSpec, seed: ColourModel,
                      cfg: VisionConfig) -> ColourModel:
    """Returns the materials measured on the pixels known cells give them, over one photo or
    several, each relative to its photo's bare-board field (found with ``seed``'s colours):
    a side's colour on its counters' centres, the bare board on empty plain cells, each token on
    its cells' inner squares. Materials no cell shows keep their seed."""
    plain = board.terrains[0]
    names = board.cell_names()
    cheb, _ = cell_geometry()
    groups: dict[str, list[npt.NDArray[np.float32]]] = {}
    for one in boards:
        norm = normalise(one.warped, board, seed, cfg.model.edge_share, cfg.model.field_sd)
        r = norm.cells((norm.log - norm.field).astype(np.float32))
        usable = norm.cells(norm.usable)
        for n, name in enumerate(names):
            if name not in one.known:
                continue
            side, terrain = one.known[name]
            if side is not None:
                key, core = f"{SIDE}{side}", COUNTER_CORE
            elif terrain == plain:
                key, core = plain, BOARD_CORE
            else:
                key, core = terrain, TOKEN_CORE
            groups.setdefault(key, []).append(r[n][usable[n] & (cheb < core)])
    return measure({k: np.concatenate(v) for k, v in groups.items()}, seed)


def _pretty(name: str) -> str:
    """A colour class's name for the user: a side's counters, or a terrain (the plain is the bare
    board)."""
    if name.startswith(SIDE):
        return _("the counters of side {side}").format(side=_(name[len(SIDE) :]))
    return _("the terrain {terrain}").format(terrain=_(name))
