"""A calibration as stored: one set's colours and counter labels, and its file (JSON, size-capped,
no pickle). Reading photos (:mod:`vision.pipeline`) and learning a calibration
(:mod:`vision.calibrate`) both use it; it depends on neither."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Literal

import cv2
import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from referee.errors import InputFileError, RefereeError
from referee.files import parse_json, read_text
from referee.i18n import _
from referee.writing import write_output
from vision import adaptive
from vision.board import BoardSpec
from vision.config import VisionConfig
from vision.errors import VisionError
from vision.labels import Template, decode_template

__all__ = ["FORMAT", "MAX_FILE_BYTES", "Calibration", "default_model", "load_calibration", "save_calibration"]

FORMAT: Literal["referee-vision-calibration/2"] = "referee-vision-calibration/2"
MAX_FILE_BYTES = 5_000_000


class Calibration(BaseModel):
    """The colours and counter labels of one physical set under the user's light."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["referee-vision-calibration/2"] = FORMAT
    board: str = Field(description="Game slug whose board this calibrates.")
    source: str = Field(description="The photo it was learned from.")
    pixels: adaptive.PixelModel = Field(description="The piece colours (vision.adaptive).")
    template_ppc: int = Field(description="Pixels per cell of the label templates.")
    templates: dict[str, str] = Field(default_factory=dict, description="Legion → label template (base64 PNG).")
    measured: tuple[str, ...] = Field(default=(), description="Classes measured (the others are defaults).")

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


def default_model(board: BoardSpec, cfg: VisionConfig) -> adaptive.PixelModel:
    """Returns the built-in piece classes: the tables' colours under the printed sheet's white,
    each with ``classify.default_pixel_sd`` (the photo then adapts them)."""
    return adaptive.table_model(board, cfg.classify)


def save_calibration(calibration: Calibration, path: Path, force: bool = False) -> None:
    """Writes a calibration file (JSON) through a temporary beside it (an existing file is replaced
    only with ``force``, a game file never).

    Raises:
        VisionError: the file cannot be written.
    """
    try:
        write_output(path, (calibration.model_dump_json(indent=1) + "\n").encode("utf-8"), force=force,
                     what="calibration file")
    except RefereeError as exc:
        raise VisionError(str(exc)) from None


def load_calibration(path: Path, board: BoardSpec) -> Calibration:
    """Returns a calibration file's contents, checked.

    Raises:
        VisionError: unreadable, too large, not a calibration, or for another board.
    """
    try:
        text = read_text(path, limit=MAX_FILE_BYTES, what="calibration file")
    except InputFileError as exc:
        problem = exc.problem
        if not problem.startswith(_("cannot read ({reason})").partition("{reason}")[0]):
            problem = _("cannot read the calibration ({problem})").format(problem=problem)
        raise VisionError(f"{path}: {problem}") from None
    try:
        data = parse_json(str(path), text)
    except InputFileError:
        raise VisionError(
            _("{path}: not a calibration file (expected JSON from referee vision calibrate)").format(path=path)
        ) from None
    if isinstance(data, dict) and data.get("format") == "referee-vision-calibration/1":
        raise VisionError(
            _("{path}: made by an earlier referee (colour model 1); run referee vision calibrate "
              "again on your calibration photo").format(path=path)
        )
    try:
        cal = Calibration.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        raise VisionError(_("{path}: not a valid calibration: {where}: {problem}").format(
            path=path, where=loc, problem=err["msg"])) from None
    if cal.board != board.slug:
        raise VisionError(_("{path}: this calibration is for {board}, not {game}").format(
            path=path, board=repr(cal.board), game=repr(board.slug)))
    for name, stats in cal.pixels.classes.items():
        if not all(math.isfinite(v) for v in (*stats.mean, stats.sd)):
            raise VisionError(_("{path}: the colour class {name} is not a number").format(path=path, name=repr(name)))
    expected = set(adaptive.class_names(board))
    if set(cal.pixels.classes) != expected:
        raise VisionError(_("{path}: the colour classes do not match the board's ({names})").format(
            path=path, names=", ".join(sorted(expected))))
    return cal
