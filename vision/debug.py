"""Pictures of each stage for ``--debug DIR``, through an injected sink (no-op by default).

Stages call ``debug.stage(name, picture)`` only when ``debug.enabled``, so drawing costs nothing
in normal runs. :class:`FolderSink` writes ``01-markers.png``, ``02-warped.png``, ... in order.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from referee.errors import RefereeError
from referee.i18n import N_, _
from referee.images import save_png
from vision.errors import VisionError


class DebugSink(Protocol):
    """Receives one picture per pipeline stage."""

    @property
    def enabled(self) -> bool:
        """Whether stages should draw at all."""
        ...

    def stage(self, name: str, picture: npt.NDArray[np.uint8]) -> None:
        """Takes the picture of a stage (BGR or grey)."""
        ...


class NullSink:
    """The default sink: draws nothing, keeps nothing."""

    enabled = False

    def stage(self, name: str, picture: npt.NDArray[np.uint8]) -> None:
        """Ignores the picture."""


def _pictures(folder: Path) -> list[Path]:
    """Returns the numbered pictures (``01-markers.png``) already in a folder (none if it is not one)."""
    try:
        return [p for p in folder.iterdir() if re.fullmatch(r"[0-9]{2}-.+\.png", p.name)]
    except OSError:
        return []


class FolderSink:
    """Writes each stage's picture as a numbered PNG in a folder (created if needed)."""

    enabled = True

    def __init__(self, folder: Path, force: bool = False) -> None:
        earlier = sorted(p.name for p in _pictures(folder))
        if earlier and not force:  # pictures of an earlier run are replaced only when asked
            raise VisionError(_("{folder} already holds debug pictures ({first}...); add --force to replace them, "
                                "or pick another folder").format(folder=folder, first=earlier[0]))
        self.force = force
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise VisionError(
                _("{folder}: cannot create the debug folder ({reason})").format(
                    folder=folder, reason=exc.strerror or exc
                )
            ) from None
        self.folder = folder
        self.written: list[Path] = []

    def stage(self, name: str, picture: npt.NDArray[np.uint8]) -> None:
        """Writes ``NN-name.png``.

        Raises:
            VisionError: the file cannot be written.
        """
        path = self.folder / f"{len(self.written) + 1:02d}-{name}.png"
        try:
            save_png(picture, path, N_("debug picture"), force=self.force)
        except RefereeError as exc:
            raise VisionError(str(exc)) from None
        self.written.append(path)
