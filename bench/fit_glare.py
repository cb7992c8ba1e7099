"""Fits the glare rule's two numbers (``vision.pipeline.GLARE_SHARE``, ``GLARE_RIGHT``) on dev photos of both renderers.

Run from the repository root, after ``bench/bench_reliability.py --seeds dev --cache DIR`` has
rendered the dev photos into DIR:

    python bench/fit_glare.py --cache DIR [--photos 40] [--width 0.05]

``GLARE_SHARE``: the smallest washed share (the share of a cell's pixels at
``grid_overlay.WASHED`` or more, ``grid_overlay.cell_washed``) at which the cells the reader
would read as bare plain, sure (at ``classify.min_confidence`` or more), without the glare rule
are right less often than that floor says a read cell must be. Cells are binned by washed share
(``--width`` wide bins, the candidate share being a bin's lower edge); the cells counted are
those of the photos the reader reads, wholly inside the photo and not under a hand. The even
photos fit it, the odd photos check it (the share they would fit is printed too, and the one
all photos fit); the printed tables show every bin.

``GLARE_RIGHT``: the share of right readings among the cells the reader caps for a glare (read
as bare plain, at least ``GLARE_SHARE`` washed out, wholly inside the photo and not under a
hand), in every photo read without refusal (a refusal counts only the cells below the floor,
which a probability under it leaves alike). It is printed on the even and the odd photos, the
photos read and refused, and by the washed share of the cell's central disc: the evidence a
glare leaves. Those figures show why the cells stay asked: a disc washed out wholly says nothing
of a counter under it, and a disc not washed out holds colour the reader already read as no
counter, wrongly when a glare's haze pales it. Eval seeds are never read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import cached_readings  # noqa: E402
from bench.fit_cell_confidence import glare_features, readable  # noqa: E402
from vision.board import load_board  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.decide import READ_INSIDE, decide  # noqa: E402
from vision.pipeline import GLARE_SHARE, glared  # noqa: E402

Floats = npt.NDArray[np.float64]
COLUMNS = ("right", "photo", "read", "washed", "sure_bare", "capped", "disc", "tabletop")
"""One row per visible cell (not hidden, wholly inside the photo): whether the cell is bare plain,
the photo's number (its file's), whether the reader reads the photo, the cell's washed share,
whether the reader without the glare rule reads it as bare plain at the floor or above, whether
the reader caps it for a glare (read as bare plain, ``GLARE_SHARE`` washed), its central disc's
washed share, whether the photo is the second renderer's."""


def samples(cache: Path, photos: int) -> Floats:
    """Returns the rows of :data:`COLUMNS` for every dev photo of both renderers."""
    board = load_board("cyrus-pyxis")
    cfg = VisionConfig().classify
    bare = board.terrains[0]
    rows: list[list[float]] = []
    for kind, (path, cells, hidden, _group), cal, reading in cached_readings(board, cache, photos):
        # the same decision with no cell taken for glared, and no cap: the reading the rule acts on
        plain = decide(reading.evidence, board, cfg, reading.lines, None)
        disc = glare_features(reading.warped, board, cfg)[:, 0]
        read_ok = float(readable(path, cal))
        number = float(path.stem.rsplit("_", 1)[1])
        glare = glared(reading.washed)
        for n, (name, cell) in enumerate(reading.observation.cells.items()):
            if name in hidden or reading.inside[n] < READ_INSIDE:
                continue
            held = cells[name]
            occupant, terrain, conf = plain[n]
            sure_bare = occupant is None and terrain == bare and conf >= cfg.min_confidence
            capped = cell.occupant is None and cell.terrain == bare and glare[n]
            right = held["occupant"] is None and held["terrain"] == bare
            rows.append([float(right), number, read_ok, float(reading.washed[n]), float(sure_bare),
                         float(capped), float(disc[n]), float(kind == "tabletop")])
    return np.array(rows, np.float64).reshape(-1, len(COLUMNS))


def bins(right: Floats, washed: Floats, width: float) -> list[tuple[float, int, float]]:
    """Per washed-share bin (lower edge ``k * width``; the last one holds a share of 1): the lower
    edge, the cells in it and the share of them right (nan when none)."""
    out: list[tuple[float, int, float]] = []
    count = round(1 / width)
    for k in range(count):
        lo, hi = k * width, (k + 1) * width if k < count - 1 else np.inf
        inside = (washed >= lo) & (washed < hi)
        out.append((lo, int(inside.sum()), float(right[inside].mean()) if inside.any() else float("nan")))
    return out


def fitted_share(table: list[tuple[float, int, float]], floor: float) -> float | None:
    """The lower edge of the first bin whose cells are right less often than ``floor`` (None when
    no bin is)."""
    return next((lo for lo, cells, share in table if cells and share < floor), None)


def print_bins(label: str, table: list[tuple[float, int, float]], width: float) -> None:
    print(f"  {label}:")
    for lo, cells, share in table:
        if cells:
            print(f"    washed {lo:.2f}-{lo + width:.2f}: {cells:5d} cells, {share:.3f} right")


def fit_share(data: Floats, width: float) -> None:
    """Prints the washed-share bins and the share each half of the photos fits."""
    right, photo, read_ok, washed, sure_bare = data[:, :5].T
    floor = VisionConfig().classify.min_confidence
    kept = (sure_bare == 1) & (read_ok == 1)
    print(f"cells read as bare plain, sure, without the glare rule, in photos read: {int(kept.sum())}")
    fits: dict[str, float | None] = {}
    for label, half in (("even photos (fit)", photo % 2 == 0), ("odd photos (check)", photo % 2 == 1),
                        ("all photos", photo >= 0)):
        table = bins(right[kept & half], washed[kept & half], width)
        print_bins(label, table, width)
        fits[label] = fitted_share(table, floor)
    for label, share in fits.items():
        print(f"  {label}: GLARE_SHARE = " + ("none (no bin below the floor)" if share is None else f"{share:.2f}"))
    wrong = (sure_bare == 1) & (right == 0) & (washed > 0)
    print(f"  sure and wrong with some pixels washed out (photo, washed share, photo read): {int(wrong.sum())}")
    tabletop = data[:, COLUMNS.index("tabletop")]
    picked = zip(photo[wrong], tabletop[wrong], washed[wrong], read_ok[wrong], strict=True)
    for number, second, cell_washed, ok in picked:
        name = f"{'tabletop' if second else 'render'}_{int(number)}"
        print(f"    {name}: {cell_washed:.3f} " + ("read" if ok else "refused"))


def share(label: str, right: Floats) -> None:
    print(f"  {label}: {int(right.sum())} of {len(right)} right" + (f" ({right.mean():.3f})" if len(right) else ""))


def fit_right(data: Floats) -> None:
    """Prints ``GLARE_RIGHT``: the share of right readings among the cells the glare rule caps."""
    capped = data[data[:, COLUMNS.index("capped")] == 1]
    right, photo, read_ok, disc = (capped[:, COLUMNS.index(c)] for c in ("right", "photo", "read", "disc"))
    mean = f"{right.mean():.2f}" if len(right) else "nan"
    print(f"glared cells read as bare plain (GLARE_SHARE = {GLARE_SHARE}): {len(right)}; GLARE_RIGHT = {mean}")
    share("even photos", right[photo % 2 == 0])
    share("odd photos", right[photo % 2 == 1])
    share("photos read", right[read_ok == 1])
    share("photos refused", right[read_ok == 0])
    for lo, hi in ((0.0, 0.3), (0.3, 0.9), (0.9, 0.999), (0.999, 1.01)):
        share(f"disc washed {lo:.3f}-{min(hi, 1):.3f}", right[(disc >= lo) & (disc < hi)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--width", type=float, default=0.05, help="the washed-share bins' width")
    args = parser.parse_args()
    if not 0 < args.width <= 0.5:
        parser.error("--width must be above 0 and at most 0.5")
    data = samples(args.cache, args.photos)
    fit_share(data, args.width)
    fit_right(data)


if __name__ == "__main__":
    main()
