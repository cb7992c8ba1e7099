"""OpenCV for the whole project, imported lazily: its loader, its stderr, encoding and writing.

Both the board pictures (:mod:`referee.picture`) and the photo reader (``vision``) stand on
this module, so neither borrows the other's. Importing it costs nothing: ``cv2`` is imported
the first time :func:`opencv` is called.

OpenCV talks on stderr on its own (its log, libjpeg's "Corrupt JPEG data", libpng's warnings)
and raises errors of several lines. :func:`opencv` imports it with its log silenced,
:func:`native_stderr` catches what its C libraries print, and :func:`save_png` encodes in
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
from referee.i18n import _
from referee.writing import write_output

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["IMAGE_FORMATS", "native_stderr", "opencv", "save_png"]

IMAGE_FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}
"""Picture formats written, chosen by the file name's extension."""


def opencv() -> ModuleType:
    """Returns the ``cv2`` module, imported with OpenCV's own log silenced (set before the import)."""
    os.environ.setdefault("OPENCV_LOG_LEVEL", "OFF")
    import cv2  # lazy: cv2

    logging = getattr(getattr(cv2, "utils", None), "logging", None)
    if logging is not None and hasattr(logging, "setLogLevel"):
        logging.setLogLevel(getattr(logging, "LOG_LEVEL_SILENT", 0))
    return cv2


def save_png(image: npt.NDArray[np.uint8], path: Path, what: str, suffix: str = ".png", force: bool = False) -> None:
    """Encodes an image as PNG (or the format ``suffix`` names) in memory and writes it through a
    temporary beside it (:func:`referee.writing.write_output`: an existing file is replaced only
    with ``force``, a game file never; one clean line on any failure).

    Raises:
        RefereeError: the image cannot be encoded or the file cannot be written.
    """
    cv2 = opencv()
    try:
        ok, data = cv2.imencode(suffix, image)
    except cv2.error:
        ok = False
    if not ok:
        raise RefereeError(_("{path}: the {what} cannot be encoded as {format}").format(
            path=path, what=_(what), format=IMAGE_FORMATS.get(suffix, suffix)))
    write_output(path, data.tobytes(), force=force, what=what)


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
