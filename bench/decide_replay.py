"""Replays the per-cell decision (``vision.decide``) on the cached dev photos, without reading
them again: for the occlusion fit (``bench/fit_occlusion.py``) and the settings sweep
(``bench/sweep_decide.py``).

Each dev photo rendered into the cache by ``bench/bench_reliability.py --seeds dev --cache DIR``
is read once (its evidence, printed edges, share inside the photo and washed share); a decision
is then replayed on them with other settings in milliseconds, and scored as
``bench/bench_reliability.py`` scores a photo read with ``--config`` (photos refused for too many
unreadable cells, cells asked, confidently wrong, ECE, cells under a hand read confidently). The
settings replayed must be ones only the decision reads: the evidence is not measured again. Eval
seeds are never read.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import cached_readings, reliability  # noqa: E402
from vision.board import BoardSpec  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.decide import decide  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.evidence import CellEvidence  # noqa: E402
from vision.pipeline import _readings, _refuse_if_unread, glared  # noqa: E402

Floats = npt.NDArray[np.float64]
Decision = Callable[[CellEvidence, BoardSpec, VisionConfig, Floats, Floats], list[tuple[str | None, str, float]]]
"""A decision on one photo: its evidence, the board, the settings, its printed edges and its washed share."""


@dataclass(frozen=True)
class Photo:
    """What the decision of one dev photo needs, and its truth."""

    kind: str
    index: int
    truth: dict[str, dict[str, str | None]]
    hidden: frozenset[str]
    evidence: CellEvidence
    lines: Floats
    inside: Floats
    washed: Floats
    sharpness: float


def photos(board: BoardSpec, cache: Path, count: int, bases: dict[str, int] | None = None) -> list[Photo]:
    """Every dev photo of both renderers the reader registers, read once with the defaults
    (``bases``: another dev seed range per renderer, see
    :func:`bench.bench_reliability.cached_readings`)."""
    out: list[Photo] = []
    readings = cached_readings(board, cache, count, bases=bases)
    for k, (kind, (_path, truth, hidden, _group), _cal, reading) in enumerate(readings):
        out.append(Photo(kind, k, truth, frozenset(hidden), reading.evidence, reading.lines, reading.inside,
                         reading.washed, reading.observation.registration.sharpness))
    return out


def default_decision(ev: CellEvidence, board: BoardSpec, cfg: VisionConfig,
                     lines: Floats, washed: Floats) -> list[tuple[str | None, str, float]]:
    return decide(ev, board, cfg.classify, lines, glared(washed))


def score(board: BoardSpec, shots: list[Photo], cfg: VisionConfig,
          decision: Decision = default_decision) -> dict[str, dict[str, object]]:
    """Per renderer, the figures of ``bench/bench_reliability.py`` for the decision replayed."""
    out: dict[str, dict[str, object]] = {}
    pairs: dict[str, list[tuple[float, bool]]] = {}
    for shot in shots:
        fig = out.setdefault(shot.kind, {"photos_read": 0, "refused": 0, "cells_asked": 0,
                                         "cells_confidently_wrong": 0, "hidden_misread": 0})
        decided = decision(shot.evidence, board, cfg, shot.lines, shot.washed)
        readings = _readings(decided, shot.inside, shot.washed, board)
        floor = cfg.classify.min_confidence
        unreadable = tuple(n for n, r in readings.items() if r.confidence < floor)
        try:
            _refuse_if_unread(unreadable, shot.evidence, shot.washed, board, shot.sharpness, cfg)
        except VisionError:
            fig["refused"] = int(str(fig["refused"])) + 1
            continue
        fig["photos_read"] = int(str(fig["photos_read"])) + 1
        for name, cell in readings.items():
            held = shot.truth[name]
            right = (cell.occupant, cell.terrain) == (held["occupant"], held["terrain"])
            sure = cell.confidence >= floor
            if name in shot.hidden:
                fig["hidden_misread"] = int(str(fig["hidden_misread"])) + int(sure and not right)
                continue
            pairs.setdefault(shot.kind, []).append((cell.confidence, right))
            fig["cells_asked"] = int(str(fig["cells_asked"])) + int(not sure)
            fig["cells_confidently_wrong"] = int(str(fig["cells_confidently_wrong"])) + int(sure and not right)
    for kind, fig in out.items():
        fig["ece"] = reliability(pairs.get(kind, []))["ece"]
    return out
