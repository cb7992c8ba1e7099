"""Fits the photo reader's model on development renders of both renderers; writes vision/fitted.json.

Run from the repository root (about 20 minutes on two busy cores the first time, when the photos
are rendered; their registered boards are kept in ``--cache`` for the next runs):

    python bench/fit_vision_model.py [--photos 60] [--write] [--cache bench/out/fit-cache]

Development photos only (``bench/vision_dev.py``): ``real`` and ``classic`` renders of
``vision.render`` from seed 1000100 and ``tabletop`` renders from 5000100 — past the first 100
of each dev range, which ``bench/bench_reliability.py --seeds dev`` measures, so those figures
are read on photos the fit did not see. Never the evaluation seeds (3000000+, 6000000+).
Calibrations: one per colour style or box, learned by ``vision.calibrate.measure_materials`` from
a clean photo of the set-up (seed base + 90000 + k, as the reliability bench does).

What is fitted, in order (each value's meaning is in ``vision/model_config.py``):

1. ``edge_share``: every straight-edge candidate of the ``tabletop`` photos is scored; those
   lying on the renderer's hard shadow (within 2 degrees and 0.3 cell) are true edges; the share
   that best separates true from false candidates (fewest errors; the lowest such share).
2. ``outlier``, ``field_sd``, ``counter_half``, ``counter_soft``, ``token_half``, ``token_soft``,
   ``adapt_weight``, ``adapt_reach``: minimum mean log loss, the three sources weighted equally,
   by Nelder-Mead over the parameters' logarithms (logits for shares).
   The loss is that of every covered cell's true reading (hidden ones too) under the reader's
   posterior ``(1 - hidden) x softmax(temperature x loglik) + hidden x prior``.
3. ``temperature`` (at most 1: a pixel counts at most as one independent observation),
   ``hidden_bias``, ``hidden_foreign``, ``hidden_lines``, ``hidden_glare``: for each trial of the pixel parameters,
   by their own Nelder-Mead on its log-likelihoods (no pixel is read again).
4. ``table_spread``: minimum log loss of the ``classic`` photos read without a calibration, from
   the board tables' colours (golden-section search).

With ``--write`` the values go to ``vision/fitted.json`` with the commit, the seeds and the
final losses; without it they are only printed.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.vision_dev import DevPhoto, calibration_photos, photos, prefetch  # noqa: E402
from vision import normalise as nz  # noqa: E402
from vision import printed_lines, shadows  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.calibrate import LabelledBoard, measure_materials  # noqa: E402
from vision.colours import ColourModel, table_model, to_log  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.decide import mixed_posterior  # noqa: E402
from vision.evidence import from_pixels, hypotheses, pixels  # noqa: E402
from vision.model_config import FITTED_FILE, ModelConfig  # noqa: E402
from vision.occlusion import foreign_cover, glare_near, lines_hidden  # noqa: E402

BASES = {"real": 1_000_000, "classic": 1_000_000, "tabletop": 5_000_000}
"""The development ranges; calibration photos at base + 90000 + k."""
FIT_OFFSET = 100
"""The fit reads photos from base + 100 on (the reliability bench's dev figures use base + 0-99)."""
PIXEL_PARAMS = ("outlier", "field_sd", "counter_half", "counter_soft", "token_half", "token_soft", "adapt_weight",
                "adapt_reach")
SHARES = {"outlier"}
"""Parameters between 0 and 1, searched through their logit (the others through their log)."""


@dataclass
class Sample:
    """One development photo, normalised once: its pixels and what the model needs of its truth."""

    source: str
    pixels: object
    colours: ColourModel
    truth: np.ndarray
    visible: np.ndarray
    hidden: np.ndarray
    features: np.ndarray
    """(cells, 3) the occlusion's measures (foreign cover, lines not seen, glare near)."""


def commit() -> str:
    out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False)
    return out.stdout.strip()


def calibrations(board: BoardSpec, source: str, cache: Path, cfg: VisionConfig) -> dict[int, ColourModel]:
    """Each group's colours, measured on its clean set-up photo."""
    out: dict[int, ColourModel] = {}
    seed = table_model(board, cfg.model.table_spread)
    for group, photo in calibration_photos(board, source, BASES[source], cache).items():
        if isinstance(photo, str):
            raise SystemExit(f"calibration photo {source} {group} refused: {photo}")
        out[group] = measure_materials([LabelledBoard(photo.warped, photo.truth)], board, seed, cfg)
    return out


def samples(board: BoardSpec, source: str, count: int, cache: Path, cfg: VisionConfig,
            cals: dict[int, ColourModel] | None) -> list[Sample]:
    """The source's fit photos, normalised with their group's calibration (or the tables' colours)."""
    hyps = hypotheses(board)
    names = board.cell_names()
    out = []
    m = cfg.model
    for photo in photos(board, source, BASES[source] + FIT_OFFSET, count, cache):
        if isinstance(photo, str):
            continue
        colours = cals[photo.group] if cals is not None else table_model(board, m.table_spread)
        norm = nz.normalise(photo.warped, board, colours, m.edge_share, m.field_sd)
        truth = np.array([hyps.index(photo.truth[n]) for n in names])
        hidden = np.array([n in photo.hidden for n in names])
        features = np.stack([np.zeros(len(names)), lines_hidden(norm), glare_near(norm)], axis=1)
        out.append(Sample(source, pixels(norm), colours, truth, (~hidden) & (norm.covered >= 0.98),
                          hidden & (norm.covered >= 0.98), features))
    return out


def logliks(data: Sequence[Sample], board: BoardSpec, cfg: ModelConfig) -> list[np.ndarray]:
    """Each photo's (cells, hypotheses) log-likelihoods (in two processes). Each photo's
    unexplained shares are kept in its sample's features."""
    global _WORK
    _WORK = (data, board, cfg)
    with Pool(JOBS) as pool:
        done = pool.map(_loglik_of, range(len(data)), chunksize=4)
    out = []
    for s, (ll, foreign) in zip(data, done, strict=True):
        s.features[:, 0] = foreign
        out.append(ll)
    return out


_WORK: tuple[Sequence[Sample], BoardSpec, ModelConfig] | None = None
JOBS = 2


def _loglik_of(i: int) -> tuple[np.ndarray, np.ndarray]:
    assert _WORK is not None
    data, board, cfg = _WORK
    s = data[i]
    ev = from_pixels(s.pixels, board, s.colours, cfg)  # type: ignore[arg-type]
    return np.asarray(ev.loglik), foreign_cover(ev, board.rows, board.cols)


HIDDEN = ("hidden_bias", "hidden_foreign", "hidden_lines", "hidden_glare")
INNER = ("temperature", *HIDDEN)
"""Fitted for each trial of the pixel parameters, on its log-likelihoods (cheap: no pixel is read again)."""


def losses_at(data: Sequence[Sample], lls: Sequence[np.ndarray], temperature: float,
              hidden: np.ndarray | None = None) -> dict[str, float]:
    """Mean negative log probability of the true reading, per source: of the visible cells under
    the posterior softmax(temperature x loglik) (a uniform prior); with the occlusion's weights
    ``hidden``, of every covered cell under ``(1 - hidden) x that + hidden / readings``."""
    out: dict[str, list[float]] = {}
    for s, ll in zip(data, lls, strict=True):
        cells = s.visible if hidden is None else (s.visible | s.hidden)
        h = np.zeros(cells.sum()) if hidden is None else 1 / (1 + np.exp(-(hidden[0] + s.features[cells] @ hidden[1:])))
        prior = np.broadcast_to(np.full(ll.shape[1], 1 / ll.shape[1]), (cells.sum(), ll.shape[1]))
        post = mixed_posterior(temperature * ll[cells], prior, h)
        picked = post[np.arange(len(post)), s.truth[cells]]
        out.setdefault(s.source, []).extend((-np.log(np.maximum(picked, 1e-12))).tolist())
    return {k: float(np.mean(v)) for k, v in out.items()}


def mean_loss(losses: dict[str, float]) -> float:
    """The sources weighted equally."""
    return float(np.mean(list(losses.values())))


def fit_inner(data: Sequence[Sample], lls: Sequence[np.ndarray], start: np.ndarray) -> tuple[np.ndarray, float]:
    """The temperature (through its logit: a pixel counts at most as one independent
    observation) and the occlusion's weights of least loss over every covered cell, from given
    log-likelihoods (Nelder-Mead); ``start``: temperature, then the weights."""
    def loss(x: np.ndarray) -> float:
        return mean_loss(losses_at(data, lls, 1 / (1 + math.exp(-x[0])), x[1:]))

    t = min(max(float(start[0]), 1e-4), 1 - 1e-4)
    x, value = nelder_mead(loss, np.concatenate([[math.log(t / (1 - t))], start[1:]]), 0.5, 200)
    return np.concatenate([[1 / (1 + math.exp(-x[0]))], x[1:]]), value


def log_loss(data: Sequence[Sample], board: BoardSpec, cfg: ModelConfig) -> dict[str, float]:
    """The fitted model's losses: every covered cell's, the occlusion included."""
    hidden = np.array([float(getattr(cfg, k)) for k in HIDDEN])
    return losses_at(data, logliks(data, board, cfg), cfg.temperature, hidden)


def _to(params: dict[str, float]) -> np.ndarray:
    return np.array([math.log(v / (1 - v)) if k in SHARES else math.log(v) for k, v in params.items()])


def _from(x: np.ndarray, keys: Sequence[str]) -> dict[str, float]:
    return {k: float(1 / (1 + math.exp(-v)) if k in SHARES else math.exp(v)) for k, v in zip(keys, x, strict=True)}


def nelder_mead(f: Callable[[np.ndarray], float], x0: np.ndarray, step: float, rounds: int) -> tuple[np.ndarray, float]:
    """Minimises f from x0 (simplex of side ``step``), at most ``rounds`` iterations."""
    n = len(x0)
    simplex = [x0] + [x0 + step * np.eye(n)[i] for i in range(n)]
    values = [f(x) for x in simplex]
    for _ in range(rounds):
        order = np.argsort(values)
        simplex = [simplex[i] for i in order]
        values = [values[i] for i in order]
        centre = np.mean(simplex[:-1], axis=0)
        worst = simplex[-1]
        reflected = centre + (centre - worst)
        fr = f(reflected)
        if fr < values[0]:
            expanded = centre + 2 * (centre - worst)
            fe = f(expanded)
            simplex[-1], values[-1] = (expanded, fe) if fe < fr else (reflected, fr)
        elif fr < values[-2]:
            simplex[-1], values[-1] = reflected, fr
        else:
            contracted = centre + 0.5 * (worst - centre)
            fc = f(contracted)
            if fc < values[-1]:
                simplex[-1], values[-1] = contracted, fc
            else:
                simplex = [simplex[0] + 0.5 * (x - simplex[0]) for x in simplex]
                values = [values[0]] + [f(x) for x in simplex[1:]]
        if max(values) - min(values) < 1e-5:
            break
    best = int(np.argmin(values))
    return simplex[best], values[best]


def fit_model(data: Sequence[Sample], board: BoardSpec, cfg: ModelConfig,
              rounds: int) -> tuple[ModelConfig, dict[str, float]]:
    """Step 2: the pixel model's parameters by Nelder-Mead; for each trial of them, the
    temperature and the occlusion's weights (which read no pixel again) by their own."""
    start = {k: float(getattr(cfg, k)) for k in PIXEL_PARAMS}
    keys = list(start)
    inner = np.array([float(getattr(cfg, k)) for k in INNER])
    found: dict[tuple[float, ...], np.ndarray] = {}

    def objective(x: np.ndarray) -> float:
        nonlocal inner
        values = _from(x, keys)
        if not (0.05 < values["counter_half"] < values["token_half"] <= 0.55):
            return 1e9
        inner, total = fit_inner(data, logliks(data, board, cfg.model_copy(update=values)), inner)
        found[tuple(x)] = inner
        print(f"  {total:.5f} " + " ".join(f"{k}={v:.4g}" for k, v in zip(INNER, inner, strict=True)) + " "
              + " ".join(f"{k}={v:.4g}" for k, v in values.items()), flush=True)
        return total

    if rounds:
        x, _value = nelder_mead(objective, _to(start), 0.3, rounds)
    else:  # keep the pixel parameters (a previous run's, from vision/fitted.json); fit the rest
        x = _to(start)
        objective(x)
    best = found[tuple(x)]
    fitted = cfg.model_copy(update={**_from(x, keys), **dict(zip(INNER, map(float, best), strict=True))})
    return fitted, losses_at(data, logliks(data, board, fitted), fitted.temperature, best[1:])


def golden(f: Callable[[float], float], lo: float, hi: float, steps: int = 20) -> float:
    """Minimises a function of one variable on [lo, hi]."""
    g = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(steps):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
    return (a + b) / 2


def truth_edges(photo: DevPhoto) -> list[tuple[float, float]]:
    """The renderer's hard shadow edges as (rho, theta) in pixels of the normalised board."""
    if photo.shadow is None:
        return []
    u0, v0, angle, strip = photo.shadow
    a = math.radians(angle)
    nx, ny = -math.sin(a), math.cos(a)  # the shadow lies where n . (p - p0) > 0
    x0, y0 = (u0 + nz.MARGIN) * nz.Q - 0.5, (v0 + nz.MARGIN) * nz.Q - 0.5
    edges = [(x0 * nx + y0 * ny, math.atan2(ny, nx))]
    if strip:
        edges.append((edges[0][0] + strip * nz.Q, edges[0][1]))
    return edges


def fit_edges(board: BoardSpec, count: int, cache: Path) -> tuple[float, dict[str, int]]:
    """Step 1: the share separating the tabletop renderer's shadow edges from other candidates."""
    scores: list[tuple[float, bool]] = []
    for photo in photos(board, "tabletop", BASES["tabletop"] + FIT_OFFSET, count, cache):
        if isinstance(photo, str):
            continue
        image, _inside, _shift = printed_lines.resample(photo.warped, board)
        log = to_log(image)
        clean = printed_lines.without_lines(log, board, printed_lines.line_half(log, board))
        truth = truth_edges(photo)
        for e in shadows.shadow_edges(clean, board, 0.0):
            if math.hypot(*e.step) >= shadows.MIN_STEP:
                scores.append((e.share, any(_near(e, rho, theta) for rho, theta in truth)))
    shares = np.array([s for s, _ in scores])
    hits = np.array([h for _, h in scores])
    best, best_err = 0.5, len(scores) + 1
    for t in np.arange(0.2, 0.9, 0.01):
        err = int(((shares >= t) != hits).sum())
        if err < best_err:
            best, best_err = float(t), err
    return round(best, 2), {"candidates": len(scores), "true": int(hits.sum()), "errors": best_err}


def _near(e: shadows.ShadowEdge, rho: float, theta: float) -> bool:
    """Whether a found edge lies on a true one: within 2 degrees, and 0.3 cell at the board's centre."""
    d = abs(math.sin(e.theta - theta))
    if d > math.sin(math.radians(2)):
        return False
    centre = (nz.MARGIN + 6) * nz.Q
    sign = 1.0 if math.cos(e.theta - theta) > 0 else -1.0
    dist_e = centre * (math.cos(e.theta) + math.sin(e.theta)) - e.rho
    dist_t = centre * (math.cos(theta) + math.sin(theta)) - rho
    return abs(dist_e - sign * dist_t) < 0.3 * nz.Q


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=60, help="Photos per source.")
    parser.add_argument("--rounds", type=int, default=40,
                        help="Nelder-Mead iterations over the pixel parameters, starting from vision/fitted.json's "
                        "(0: keep those, fit the temperature, the occlusion, edge_share and table_spread).")
    parser.add_argument("--cache", type=Path, default=ROOT / "bench" / "out" / "fit-cache")
    parser.add_argument("--write", action="store_true", help="Write vision/fitted.json.")
    parser.add_argument("--jobs", type=int, default=2, help="Processes rendering the photos the cache lacks.")
    args = parser.parse_args()
    board = load_board("cyrus-pyxis")
    start = time.time()
    prefetch({s: (b + FIT_OFFSET, args.photos) for s, b in BASES.items()}, args.cache, args.jobs)
    print(f"photos ready in {time.time() - start:.0f} s", flush=True)
    cfg = VisionConfig()
    edge_share, edge_stats = fit_edges(board, args.photos, args.cache)
    print(f"edge_share {edge_share} {edge_stats}", flush=True)
    cfg = cfg.model_copy(update={"model": cfg.model.model_copy(update={"edge_share": edge_share})})
    data: list[Sample] = []
    for source in BASES:
        data += samples(board, source, args.photos, args.cache, cfg, calibrations(board, source, args.cache, cfg))
    print(f"{len(data)} photos read in {time.time() - start:.0f} s", flush=True)
    model, losses = fit_model(data, board, cfg.model, args.rounds)
    print("model:", {k: round(getattr(model, k), 4) for k in (*PIXEL_PARAMS, "temperature", *HIDDEN)}, losses,
          flush=True)
    plain = samples(board, "classic", args.photos, args.cache, cfg.model_copy(update={"model": model}), None)

    def spread_loss(spread: float) -> float:
        cols = table_model(board, spread)
        for s in plain:
            s.colours = cols
        return log_loss(plain, board, model)["classic"]

    spread = golden(spread_loss, 0.02, 0.3, 14)
    values = {**{k: round(float(getattr(model, k)), 5) for k in (*PIXEL_PARAMS, "temperature", *HIDDEN)},
              "edge_share": edge_share, "table_spread": round(spread, 4)}
    report = {"fitted_by": "bench/fit_vision_model.py", "commit": commit(), "rounds": args.rounds,
              "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
              "photos": {s: {"seeds_from": BASES[s] + FIT_OFFSET, "count": args.photos} for s in BASES},
              "log_loss": {k: round(v, 5) for k, v in losses.items()}, "edges": edge_stats, "values": values}
    if not args.rounds and FITTED_FILE.exists():  # the pixel parameters are an earlier run's: say which
        earlier = json.loads(FITTED_FILE.read_text(encoding="utf-8"))
        report["pixel_parameters_from"] = earlier.get("pixel_parameters_from") or {
            k: earlier.get(k) for k in ("date", "commit", "rounds", "photos")}
    print(json.dumps(report, indent=1))
    if args.write:
        FITTED_FILE.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {FITTED_FILE}")
    print(f"done in {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
