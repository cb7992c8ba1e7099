"""Learning from the table: cells whose contents the players settled, kept as labelled examples,
and the per-table colour model refitted from them (``referee vision refit``).

Opt-in and local. ``referee capture PHOTO --learn DIR`` keeps, when the turn read is settled
(exactly one legal explanation, after any answers), the photo's top-down board and what every
cell holds after that turn, in ``DIR``: two files per photo,

- ``<stamp>.png``: the grid area of the warped board (the photo's own pixels, nothing else);
- ``<stamp>.json``: ``{"format", "board", "source", "white", "cells": {"A1": [side or null,
  terrain], ...}}`` (cells partly outside the photo left out).

Nothing leaves the folder; deleting it forgets everything. ``referee vision refit --examples
DIR --out CAL.json [--calibration OLD.json]`` measures every colour class again on all the
examples (:func:`vision.calibrate.measure_classes`, the calibration's own procedure, over many
photos), starting from the old calibration (or the tables' colours), and writes a new
calibration that keeps the old one's counter labels.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from referee.errors import InputFileError, RefereeError
from referee.files import read_bytes, read_text
from referee.i18n import _
from referee.images import opencv
from referee.writing import write_output
from vision import adaptive
from vision.board import BoardSpec
from vision.calibrate import LabelledBoard, measure_classes
from vision.calibration import Calibration
from vision.config import VisionConfig
from vision.decide import READ_INSIDE
from vision.errors import VisionError
from vision.pipeline import Reading

FORMAT: Literal["referee-vision-example/1"] = "referee-vision-example/1"
MAX_EXAMPLES = 500
"""At most this many examples are read from a folder (the newest)."""
MAX_IMAGE_BYTES = 20_000_000
MAX_JSON_BYTES = 200_000


class Example(BaseModel):
    """One kept photo's labels (its pixels are the PNG beside it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["referee-vision-example/1"] = FORMAT
    board: str = Field(description="Game slug of the board.")
    source: str = Field(description="The photo's file name.")
    white: tuple[float, float, float] = Field(description="The photo's white reference (BGR).")
    cells: dict[str, tuple[str | None, str]] = Field(description="Cell → (side or None, terrain), as settled.")


def keep(folder: Path, reading: Reading, board: BoardSpec, known: Mapping[str, tuple[str | None, str]],
         source: str) -> Path:
    """Writes one example into ``folder`` (created if needed); returns its JSON's path. Each file
    is written beside its final name and renamed into place, so a killed run leaves no half file.

    Raises:
        VisionError: the folder or a file cannot be written.
    """
    names = board.cell_names()
    cells = {n: known[n] for i, n in enumerate(names) if n in known and reading.inside[i] >= READ_INSIDE}
    example = Example(board=board.slug, source=Path(source).name, white=tuple(float(v) for v in reading.white[:3]),
                      cells=cells)
    warped = reading.warped
    grid = warped.grid(board.rows, board.cols)
    ok, png = opencv().imencode(".png", grid)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + f"-{os.getpid()}-{time.monotonic_ns() % 10**6:06d}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _write(folder / f"{stamp}.png", png.tobytes() if ok else b"")
        target = folder / f"{stamp}.json"
        _write(target, (example.model_dump_json(indent=1) + "\n").encode("utf-8"))
    except OSError as exc:
        raise VisionError(_("{folder}: cannot keep the example ({reason})").format(
            folder=folder, reason=(exc.strerror or type(exc).__name__).lower())) from None
    return target


def _write(path: Path, data: bytes) -> None:
    """Writes a new file through a temporary beside it (:func:`referee.writing.write_output`)."""
    try:
        write_output(path, data)
    except RefereeError as exc:
        raise VisionError(str(exc)) from None


def load_examples(folder: Path, board: BoardSpec) -> list[LabelledBoard]:
    """Returns the examples kept in a folder for this board (newest ``MAX_EXAMPLES``), skipping
    none silently: a damaged one is refused with its file name.

    Raises:
        VisionError: the folder holds no example, or one cannot be read.
    """
    cv2 = opencv()
    files = sorted(folder.glob("*.json"))[-MAX_EXAMPLES:] if folder.is_dir() else []
    out: list[LabelledBoard] = []
    ppc_rows = board.rows
    for path in files:
        try:
            example = Example.model_validate(json.loads(read_text(path, limit=MAX_JSON_BYTES, what="example")))
            data = read_bytes(path.with_suffix(".png"), limit=MAX_IMAGE_BYTES, what="example")
        except (InputFileError, ValidationError, ValueError) as exc:
            raise VisionError(_("{path}: not a usable example ({problem})").format(
                path=path, problem=str(exc).splitlines()[0])) from None
        if example.board != board.slug:
            continue
        grid = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        if grid is None or grid.shape[0] % ppc_rows or grid.shape[1] * board.rows != grid.shape[0] * board.cols:
            raise VisionError(_("{path}: not a usable example ({problem})").format(
                path=path.with_suffix(".png"), problem=_("its picture is not a board's grid")))
        inside = np.ones(grid.shape[:2], bool)
        out.append(LabelledBoard(grid, inside, np.array(example.white, np.float64), dict(example.cells)))
    if not out:
        raise VisionError(_("{folder}: no example of this board to learn from (keep some with referee capture "
                            "--learn)").format(folder=folder))
    return out


def refit(examples: list[LabelledBoard], board: BoardSpec, start: Calibration | None,
          cfg: VisionConfig | None = None) -> Calibration:
    """Returns a calibration whose colour classes are measured again on the examples, starting
    from ``start`` (or the tables' colours); its counter labels are ``start``'s."""
    cc = (cfg or VisionConfig()).classify
    seed = start.pixels if start is not None else adaptive.table_model(board, cc)
    model = measure_classes(examples, board, seed, cc)
    measured = tuple(k for k, v in model.classes.items() if v.pixels > 0)
    return Calibration(board=board.slug, source=f"refit from {len(examples)} examples", pixels=model,
                       template_ppc=start.template_ppc if start is not None else cfg_ppc(cfg),
                       templates=dict(start.templates) if start is not None else {}, measured=measured)


def cfg_ppc(cfg: VisionConfig | None) -> int:
    """The label templates' pixels per cell (none kept without a calibration to start from)."""
    return (cfg or VisionConfig()).identity.px_per_cell
