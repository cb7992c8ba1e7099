"""Board pictures drawn with OpenCV (``referee show --png``); cv2 is imported only here, lazily.

:func:`draw_board` returns a top-down BGR image of a :class:`~referee.game.BoardView`: terrain
fills, grid, coordinates, counters in their side colours with their short labels. The vision
package's synthetic renderer reuses it.

OpenCV talks on stderr on its own (its log, libjpeg's "Corrupt JPEG data", libpng's warnings)
and raises errors of several lines. :func:`opencv` imports it with its log silenced,
:func:`native_stderr` catches what its C libraries print, and :func:`write_png` encodes in
memory and writes with Python, so every failure is one line of ours.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from referee.errors import RefereeError
from referee.files import check_target
from referee.game import BoardView

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

MARGIN_CELLS = 0.7


def _bgr(rgb: tuple[int, int, int] | list[int]) -> tuple[int, int, int]:
    r, g, b = (int(x) for x in rgb[:3])
    return (b, g, r)


def draw_board(view: BoardView, cell_px: int = 64, labels: bool = True, status: bool = True) -> npt.NDArray[np.uint8]:
    """Returns a BGR picture of the board, ``cell_px`` pixels per cell plus a labelled margin."""
    cv2 = opencv()
    import numpy as np

    margin = int(cell_px * MARGIN_CELLS) if labels else 0
    footer = int(cell_px * 0.45) * (len(view.status) + 1) if status and view.status else 0
    h = margin * 2 + view.rows * cell_px + footer
    w = margin * 2 + view.cols * cell_px
    img = np.full((h, w, 3), 245, np.uint8)
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = cell_px / 64
    for r in range(view.rows):
        for c in range(view.cols):
            cell = view.cells[r * view.cols + c]
            x0, y0 = margin + c * cell_px, margin + r * cell_px
            colour = _bgr(view.terrain_colours.get(cell.terrain, (200, 200, 200)))
            cv2.rectangle(img, (x0, y0), (x0 + cell_px, y0 + cell_px), colour, -1)
            if cell.terrain == "forest":
                for dx, dy in ((0.25, 0.3), (0.7, 0.25), (0.45, 0.7)):
                    centre = (x0 + int(dx * cell_px), y0 + int(dy * cell_px))
                    cv2.circle(img, centre, max(2, cell_px // 9), (30, 80, 30), -1)
            elif cell.terrain == "hill":
                pts = np.array([[x0 + cell_px * 0.15, y0 + cell_px * 0.85], [x0 + cell_px * 0.5, y0 + cell_px * 0.2],
                                [x0 + cell_px * 0.85, y0 + cell_px * 0.85]], np.int32)
                cv2.polylines(img, [pts], True, (40, 80, 120), max(1, cell_px // 20))
            counters = [(cell.label, cell.side)]
            if cell.second_label:
                counters.append((cell.second_label, cell.second_side))
            for i, (label, side) in enumerate(counters):
                if not label or side is None:
                    continue
                size = int(cell_px * (0.74 if len(counters) == 1 else 0.5))
                ox = x0 + (cell_px - size) // 2 if len(counters) == 1 else x0 + int(cell_px * (0.06 + 0.42 * i))
                oy = y0 + (cell_px - size) // 2 if len(counters) == 1 else y0 + int(cell_px * (0.06 + 0.38 * i))
                fill = _bgr(view.side_colours.get(side, (90, 90, 90)))
                cv2.rectangle(img, (ox, oy), (ox + size, oy + size), fill, -1)
                cv2.rectangle(img, (ox, oy), (ox + size, oy + size), (255, 255, 255), max(1, cell_px // 32))
                fs = scale * (0.5 if len(counters) == 1 else 0.36)
                (tw, th), _ = cv2.getTextSize(label, font, fs, 1)
                cv2.putText(img, label, (ox + (size - tw) // 2, oy + (size + th) // 2), font, fs,
                            (255, 255, 255), 1, cv2.LINE_AA)
            if cell.mark == "combat":
                cv2.rectangle(img, (x0 + 2, y0 + 2), (x0 + cell_px - 2, y0 + cell_px - 2), (0, 0, 230),
                              max(2, cell_px // 16))
    for i in range(view.rows + 1):
        y = margin + i * cell_px
        cv2.line(img, (margin, y), (margin + view.cols * cell_px, y), (60, 60, 60), 1)
    for j in range(view.cols + 1):
        x = margin + j * cell_px
        cv2.line(img, (x, margin), (x, margin + view.rows * cell_px), (60, 60, 60), 1)
    if labels:
        for j, lab in enumerate(view.col_labels):
            (tw, th), _ = cv2.getTextSize(lab, font, 0.5 * scale, 1)
            x = margin + j * cell_px + (cell_px - tw) // 2
            cv2.putText(img, lab, (x, margin - int(cell_px * 0.2)), font, 0.5 * scale, (40, 40, 40), 1, cv2.LINE_AA)
        for i, lab in enumerate(view.row_labels):
            (tw, th), _ = cv2.getTextSize(lab, font, 0.5 * scale, 1)
            y = margin + i * cell_px + (cell_px + th) // 2
            cv2.putText(img, lab, ((margin - tw) // 2, y), font, 0.5 * scale, (40, 40, 40), 1, cv2.LINE_AA)
    if footer:
        y = margin * 2 + view.rows * cell_px
        for line in view.status:
            ascii_line = line.encode("ascii", "replace").decode().replace("?", "-")
            cv2.putText(img, ascii_line, (margin, y), font, 0.42 * scale, (20, 20, 20), 1, cv2.LINE_AA)
            y += int(cell_px * 0.45)
    return img


def write_png(view: BoardView, path: Path, cell_px: int = 64) -> Path:
    """Draws the board and writes it as PNG.

    Raises:
        RefereeError: the name does not end in .png, or the file cannot be written.
    """
    if path.suffix.lower() != ".png":
        raise RefereeError(f"{path}: the picture is written as PNG (name it .png)")
    save_png(draw_board(view, cell_px), path, "picture")
    return path


def opencv() -> ModuleType:
    """Returns the ``cv2`` module, imported with OpenCV's own log silenced (set before the import)."""
    os.environ.setdefault("OPENCV_LOG_LEVEL", "OFF")
    import cv2

    logging = getattr(getattr(cv2, "utils", None), "logging", None)
    if logging is not None and hasattr(logging, "setLogLevel"):
        logging.setLogLevel(getattr(logging, "LOG_LEVEL_SILENT", 0))
    return cv2


def save_png(image: npt.NDArray[np.uint8], path: Path, what: str) -> None:
    """Encodes an image as PNG in memory and writes it (one clean line on any failure).

    Raises:
        RefereeError: the image cannot be encoded or the file cannot be written.
    """
    cv2 = opencv()
    try:
        ok, data = cv2.imencode(".png", image)
    except cv2.error:
        ok = False
    if not ok:
        raise RefereeError(f"{path}: the {what} cannot be encoded as PNG")
    check_target(path, what)
    try:
        path.write_bytes(data.tobytes())
    except OSError as exc:
        reason = (exc.strerror or type(exc).__name__).lower()
        raise RefereeError(f"{path}: cannot write the {what} ({reason})") from None


@contextlib.contextmanager
def native_stderr() -> Iterator[list[str]]:
    """Catches what C libraries print on file descriptor 2 while the block runs.

    Yields a list that holds, after the block, the lines they printed (libjpeg's "Corrupt JPEG
    data", libpng's warnings), so the caller can turn them into its own line or drop them.
    """
    caught: list[str] = []
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no usable fd 2 (an embedded interpreter): nothing to catch
        yield caught
        return
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield caught
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            text = sink.read(64 * 1024).decode("utf-8", "replace")
            caught += [line.strip() for line in text.splitlines() if line.strip()]
