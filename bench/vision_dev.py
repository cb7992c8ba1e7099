"""Development photos of the photo reader, registered and warped once and kept on disk.

Used by ``bench/fit_vision_model.py`` (fitting the model) and its checks. Three sources:

- ``real``: the project's renderer (``vision.render``), ``real`` profile, colour styles in turn;
- ``classic``: the same renderer's ``classic`` profile (``moderate`` conditions), which the tests
  and the sample photos use;
- ``tabletop``: the second renderer (``vision.tabletop``), written apart from the reader, boxes in
  turn, a hard shadow through a counter's cell in 60 % of photos.

Each photo is rendered at 1920 x 1080 from its seed exactly as ``bench/bench_reliability.py``
renders it, registered and warped by the reader's own first stages, and stored as
``<source>_<seed>.npz`` (the warped board, which of its pixels the photo covered, the truth per
cell, the cells a hand hides, the hard shadow's line for ``tabletop``). A calibration photo (a
clean photo of the sample set-up, per style or box, at seed ``base + 90000 + k``) is stored the
same way. Nothing here reads the evaluation seeds: callers pass dev bases only.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_vision import cyrus_labels, scene_of, setup_state  # noqa: E402
from vision import tabletop  # noqa: E402
from vision.board import BoardSpec  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.debug import NullSink  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.grid_overlay import Warped, warp_board  # noqa: E402
from vision.load import read_photo  # noqa: E402
from vision.pipeline import register_photo  # noqa: E402
from vision.render import STYLES, random_scene, render, sample_conditions, sample_real_conditions  # noqa: E402

GROUPS = {"real": len(STYLES), "classic": 1, "tabletop": 4}
"""Calibration groups per source: colour styles, one classic set, tabletop boxes."""


@dataclass(frozen=True)
class DevPhoto:
    """One registered development photo and its truth."""

    source: str
    seed: int
    group: int
    warped: Warped
    truth: dict[str, tuple[str | None, str]]
    hidden: frozenset[str]
    shadow: tuple[float, float, float, float] | None
    """The tabletop renderer's hard shadow: a board point (u, v) on its edge, the edge's angle
    (degrees; the shadow lies to its left) and the strip's width in cells (0: a half-plane)."""


def _shot(board: BoardSpec, source: str, seed: int, k: int, calibration: bool) -> tuple[object, int]:
    """Renders one photo; returns the renderer's shot and its calibration group."""
    rng = np.random.default_rng(seed)
    group = k % GROUPS[source]
    if calibration:
        scene = scene_of(setup_state())
        if source == "real":
            return render(board, scene, sample_real_conditions(rng, 1920, 1080, group, clean=True), seed), group
        if source == "classic":
            return render(board, scene, sample_conditions(rng, "clean", 1920, 1080), seed), group
        return tabletop.render(board, scene, tabletop.sample_conditions(rng, 1920, 1080, box=group, clean=True),
                               seed), group
    scene = random_scene(board, rng, cyrus_labels(setup_state()))
    if source == "real":
        return render(board, scene, sample_real_conditions(rng, 1920, 1080, group), seed), group
    if source == "classic":
        return render(board, scene, sample_conditions(rng, "moderate", 1920, 1080), seed), group
    names = board.cell_names()
    at = [(names.index(n) % board.cols + 0.5, names.index(n) // board.cols + 0.5) for n in scene.counters]
    cond = tabletop.sample_conditions(rng, 1920, 1080, box=group, counters=at)
    return tabletop.render(board, scene, cond, seed), group


def load(board: BoardSpec, source: str, seed: int, k: int, cache: Path, calibration: bool = False) -> DevPhoto | str:
    """Returns a development photo (rendered, registered and warped once, then read from
    ``cache``), or the reason the reader refused it."""
    name = f"{source}_{'cal_' if calibration else ''}{seed}"
    path = cache / f"{name}.npz"
    if not path.exists() and not (cache / f"{name}.refused").exists():
        _store(board, source, seed, k, calibration, cache, name)
    if (cache / f"{name}.refused").exists():
        return (cache / f"{name}.refused").read_text(encoding="utf-8")
    data = np.load(path, allow_pickle=False)
    names = board.cell_names()
    occ = [None if o == "" else str(o) for o in data["occupant"]]
    truth = {n: (occ[i], str(data["terrain"][i])) for i, n in enumerate(names)}
    shadow = tuple(float(x) for x in data["shadow"]) if data["shadow"].size else None
    return DevPhoto(source, seed, int(data["group"]), Warped(data["image"], data["inside"], int(data["ppc"]),
                                                              int(data["pad"])),
                    truth, frozenset(names[i] for i in np.nonzero(data["hidden"])[0]), shadow)  # type: ignore[arg-type]


def _store(board: BoardSpec, source: str, seed: int, k: int, calibration: bool, cache: Path, name: str) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    shot, group = _shot(board, source, seed, k, calibration)
    photo = shot.save(cache / f"{name}-photo")  # type: ignore[attr-defined]
    cfg = VisionConfig()
    try:
        loaded = read_photo(photo, cfg.load)
        reg = register_photo(loaded, board, cfg, NullSink())
        warped = warp_board(loaded.image, reg, board, cfg.grid.px_per_cell, cfg.grid.pad_cells)
    except VisionError as exc:
        (cache / f"{name}.refused").write_text(f"{type(exc).__name__}: {exc}", encoding="utf-8")
        return
    finally:
        photo.unlink(missing_ok=True)
        photo.with_suffix(".json").unlink(missing_ok=True)
    names = board.cell_names()
    cells = shot.cells  # type: ignore[attr-defined]
    conditions = getattr(shot, "conditions", None)
    edge = getattr(conditions, "shadow_edge", None) if source == "tabletop" else None
    if edge is not None:
        edge = (*edge, float(getattr(conditions, "shadow_strip", 0.0)))
    np.savez_compressed(
        cache / f"{name}.npz", image=warped.image, inside=warped.inside, ppc=warped.ppc, pad=warped.pad_px,
        occupant=np.array([cells[n]["occupant"] or "" for n in names]),
        terrain=np.array([cells[n]["terrain"] for n in names]),
        hidden=np.array([n in shot.occluded for n in names]), group=group,  # type: ignore[attr-defined]
        shadow=np.array(edge if edge is not None else [], np.float64),
    )


def photos(board: BoardSpec, source: str, base: int, count: int, cache: Path) -> Iterator[DevPhoto | str]:
    """The development photos ``base`` ... ``base + count - 1`` of a source."""
    for k in range(count):
        yield load(board, source, base + k, k, cache)


def calibration_photos(board: BoardSpec, source: str, base: int, cache: Path) -> dict[int, DevPhoto | str]:
    """The calibration photo of each group (seed ``base + 90000 + group``)."""
    return {k: load(board, source, base + 90_000 + k, k, cache, calibration=True) for k in range(GROUPS[source])}


def _prefetch_one(job: tuple[str, int, int, str, bool]) -> None:
    from vision.board import load_board

    source, seed, k, cache, calibration = job
    load(load_board("cyrus-pyxis"), source, seed, k, Path(cache), calibration)


def prefetch(sources: dict[str, tuple[int, int]], cache: Path, jobs: int) -> None:
    """Renders and registers, in ``jobs`` processes, the photos (source → (first seed, count))
    and each source's calibration photos that ``cache`` lacks."""
    from multiprocessing import Pool

    work = []
    for source, (first, count) in sources.items():
        base = first - first % 100_000  # the range's calibration photos sit at its base + 90000
        work += [(source, base + 90_000 + k, k, str(cache), True) for k in range(GROUPS[source])]
        work += [(source, first + k, k, str(cache), False) for k in range(count)]
    with Pool(jobs) as pool:
        pool.map(_prefetch_one, work, chunksize=1)
