"""The per-cell model's stages on boards drawn here, top-down (issue 34): colours relative to the
bare board, the field under a hard shadow and a displaced grid, the evidence, the occlusion, the
priors and the posterior."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import colours as col
from vision.calibration import load_calibration
from vision.config import VisionConfig
from vision.decide import CellPrior, decide, mixed_posterior, prior_matrix
from vision.errors import VisionError
from vision.evidence import Evidence, evidence, hypotheses
from vision.grid_overlay import Warped
from vision.normalise import Q, normalise, regions
from vision.occlusion import FOREIGN_AREA, Occlusion, foreign_cover, occlusion

from .helpers import board

PPC, PAD = 48, 72
CFG = VisionConfig().model


def _bgr(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    return rgb[2], rgb[1], rgb[0]


def draw(pieces: dict[str, tuple[str | None, str]], shift: tuple[float, float] = (0.0, 0.0),
         seed: int = 0) -> np.ndarray:
    """A top-down board (48 pixels per cell, 1.5 cells of margin), its lines moved by ``shift``
    cells: bare board, grid lines, tokens 0.9 cell wide, counters 0.66 wide."""
    b = board()
    size = 12 * PPC + 2 * PAD
    img = np.empty((size, size, 3), np.float32)
    img[:] = _bgr(b.terrain_colours["plain"])
    ox, oy = PAD + shift[0] * PPC, PAD + shift[1] * PPC
    names = b.cell_names()
    for name, (occ, terrain) in pieces.items():
        r, c = divmod(names.index(name), 12)
        cx, cy = ox + (c + 0.5) * PPC, oy + (r + 0.5) * PPC
        if terrain != "plain":
            h = 0.45 * PPC
            cv2.rectangle(img, (round(cx - h), round(cy - h)), (round(cx + h), round(cy + h)),
                          _bgr(b.terrain_colours[terrain]), -1)
        if occ is not None:
            h = 0.33 * PPC
            cv2.rectangle(img, (round(cx - h), round(cy - h)), (round(cx + h), round(cy + h)),
                          _bgr(b.side_colours[occ]), -1)
    for k in range(13):
        x, y = round(ox + k * PPC), round(oy + k * PPC)
        cv2.line(img, (x, round(oy)), (x, round(oy + 12 * PPC)), (40, 40, 40), 2)
        cv2.line(img, (round(ox), y), (round(ox + 12 * PPC), y), (40, 40, 40), 2)
    img += np.random.default_rng(seed).normal(0, 2.0, img.shape).astype(np.float32)
    return np.clip(cv2.GaussianBlur(img, (0, 0), 0.8), 0, 255).astype(np.uint8)


def shade(img: np.ndarray, u0: float, angle: float, ratio: tuple[float, float, float]) -> np.ndarray:
    """Darkens (linear light, per channel B G R) the board to the left of a line through board
    point (u0, 6) at ``angle`` degrees, with a sharp edge."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    u, v = (xx + 0.5 - PAD) / PPC, (yy + 0.5 - PAD) / PPC
    a = math.radians(angle)
    inside = (-(u - u0) * math.sin(a) + (v - 6) * math.cos(a)) > 0
    lin = (img.astype(np.float64) / 255) ** 2.2
    lin[inside] *= np.array(ratio)
    return np.clip(lin ** (1 / 2.2) * 255, 0, 255).astype(np.uint8)


def warped(img: np.ndarray) -> Warped:
    return Warped(image=img, inside=np.ones(img.shape[:2], bool), ppc=PPC, pad_px=PAD)


def layout(seed: int = 1) -> dict[str, tuple[str | None, str]]:
    """A third of the cells with a token, a third with a counter, some with both."""
    rng = np.random.default_rng(seed)
    out: dict[str, tuple[str | None, str]] = {}
    for name in board().cell_names():
        terrain = str(rng.choice(["plain", "plain", "forest", "hill"]))
        occ = rng.choice([None, None, "greek", "persian"])
        out[name] = (None if occ is None else str(occ), terrain)
    return out


def read(img: np.ndarray) -> tuple[Evidence, list[tuple[str | None, str]]]:
    model = col.table_model(board(), CFG.table_spread)
    norm = normalise(warped(img), board(), model, CFG.edge_share, CFG.field_sd)
    ev = evidence(norm, board(), model, CFG)
    dec = decide(ev, occlusion(norm, ev, CFG), board().cell_names(), CFG)
    return ev, [dec.hypotheses[int(i)] for i in dec.best]


def test_colours_are_relative_to_the_bare_board() -> None:
    model = col.table_model(board(), 0.05)
    assert model.materials["plain"].mean == (0.0, 0.0, 0.0)
    # light multiplies channels: in log values a shadow adds one vector to every material alike
    plain, hill = np.array([[[160, 214, 226]]], np.uint8), np.array([[[64, 124, 176]]], np.uint8)
    step = col.to_log(hill)[0, 0] - col.to_log(plain)[0, 0]
    assert np.allclose(step, model.materials["hill"].mean, atol=0.02)
    pairs = col.separation(model, board())
    assert pairs[0][2] <= pairs[-1][2] and all(d > 3 for _a, _b, d in pairs)


def test_the_materials_adapt_toward_the_photo_but_the_board_stays() -> None:
    model = col.table_model(board(), 0.05)
    names = col.material_names(board())
    hill = np.array(model.materials["hill"].mean, np.float32)
    pixels = np.concatenate([np.zeros((500, 3), np.float32), np.tile(hill + 0.08, (500, 1))])
    moved = col.adapt(model, names, pixels, weight=50, reach=0.15)
    assert np.allclose(moved.materials["hill"].mean, hill + 0.08 * 500 / 550, atol=1e-3)
    assert moved.materials["plain"].mean == model.materials["plain"].mean
    assert moved.materials["forest"].mean == pytest.approx(model.materials["forest"].mean, abs=1e-6)


def test_a_board_drawn_plainly_is_read_cell_by_cell() -> None:
    pieces = layout()
    _ev, got = read(draw(pieces))
    names = board().cell_names()
    assert [n for i, n in enumerate(names) if got[i] != pieces[n]] == []


def test_a_grid_a_tenth_of_a_cell_off_is_moved_back_onto_its_lines() -> None:
    pieces = layout(2)
    img = draw(pieces, shift=(0.08, -0.06))
    norm = normalise(warped(img), board(), col.table_model(board(), CFG.table_spread), CFG.edge_share, CFG.field_sd)
    assert 0.07 < norm.shift < 0.13
    _ev, got = read(img)
    assert sum(got[i] != pieces[n] for i, n in enumerate(board().cell_names())) == 0


@pytest.mark.parametrize(("angle", "ratio"), [(20.0, (0.25, 0.35, 0.55)), (-35.0, (0.5, 0.3, 0.2))])
def test_a_hard_shadow_is_found_and_the_field_follows_it(angle: float, ratio: tuple[float, float, float]) -> None:
    pieces = layout(3)
    img = shade(draw(pieces), 6.2, angle, ratio)
    model = col.table_model(board(), CFG.table_spread)
    norm = normalise(warped(img), board(), model, CFG.edge_share, CFG.field_sd)
    assert len(norm.edges) == 1
    edge = norm.edges[0]
    assert abs(math.sin(edge.theta - math.radians(angle + 90))) < 0.05  # the edge's normal
    # the field is the bare board's colour on both sides: bare cells read 0 relative to it
    r = norm.cells(norm.log - norm.field)
    bare = [i for i, n in enumerate(board().cell_names()) if pieces[n] == (None, "plain")]
    centre = [np.median(r[i][8:16, 8:16].reshape(-1, 3), axis=0) for i in bare]
    assert np.abs(np.array(centre)).max() < 0.08
    _ev, got = read(img)
    assert [n for i, n in enumerate(board().cell_names()) if got[i] != pieces[n]] == []


def test_shadow_regions_are_the_sides_of_each_edge() -> None:
    from vision.normalise import ShadowEdge

    edges = (ShadowEdge(100.0, 0.0, 0.8, (-0.5, -0.5, -0.5)), ShadowEdge(50.0, math.pi / 2, 0.7, (0.4, 0.4, 0.4)))
    region, near = regions(edges, 200)
    assert region[10, 10] == 0 and region[10, 150] == 1 and region[150, 10] == 2 and region[150, 150] == 3
    assert near[10, 100] and not near[10, 120]


def test_a_large_patch_no_material_explains_is_foreign_and_specks_are_not() -> None:
    unexplained = np.zeros((144, Q, Q), np.float32)
    for i in (50, 51, 62, 63):  # a patch over four cells
        unexplained[i] = 1.0
    for i in range(0, 144, 7):  # a speck in many cells (a counter's label, print)
        unexplained[i, 10:14, 10:14] = 1.0
    ev = Evidence(hypotheses=hypotheses(board()), loglik=np.zeros((144, 9)), seen=np.ones(144),
                  unexplained=unexplained, colours=col.table_model(board(), 0.05))
    cover = foreign_cover(ev, 12, 12)
    assert set(np.nonzero(cover > 0.9)[0]) == {50, 51, 62, 63}
    assert cover[[i for i in range(0, 144, 7) if i not in (50, 51, 62, 63)]].max() == 0
    assert FOREIGN_AREA < 4


def test_a_hidden_cell_falls_back_to_its_prior() -> None:
    scaled = np.array([[0.0, 50.0, 0.0], [0.0, 50.0, 0.0]])
    prior = np.full((2, 3), 1 / 3)
    post = mixed_posterior(scaled, prior, np.array([0.0, 1.0]))
    assert post[0].argmax() == 1 and post[0, 1] > 0.999
    assert np.allclose(post[1], 1 / 3)
    assert np.allclose(post.sum(axis=1), 1)


def test_the_rules_prior_keeps_a_floor_for_what_they_do_not_expect() -> None:
    hyps = hypotheses(board())
    names = ["A1", "A2"]
    priors = {"A1": CellPrior(occupant={None: 1.0}, terrain={"hill": 1.0})}
    prior = prior_matrix(names, hyps, priors, 0.01)
    assert prior[0, hyps.index((None, "hill"))] == pytest.approx(0.99 + 0.01 / 9)
    assert prior[0, hyps.index(("greek", "plain"))] == pytest.approx(0.01 / 9)
    assert np.allclose(prior[1], 1 / 9)  # no prior given: uniform


def test_evidence_overrules_a_prior_that_says_otherwise() -> None:
    pieces = layout(4)
    pieces["C3"] = ("persian", "plain")
    img = draw(pieces)
    model = col.table_model(board(), CFG.table_spread)
    norm = normalise(warped(img), board(), model, CFG.edge_share, CFG.field_sd)
    ev = evidence(norm, board(), model, CFG)
    names = board().cell_names()
    dec = decide(ev, Occlusion(hidden=np.zeros(144), foreign=np.zeros(144)), names, CFG,
                 {"C3": CellPrior(occupant={None: 1.0}, terrain={"plain": 1.0})})
    assert dec.hypotheses[int(dec.best[names.index("C3")])] == ("persian", "plain")


def test_a_calibration_of_an_earlier_colour_model_is_refused_with_advice(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"format": "referee-vision-calibration/2", "board": "cyrus-pyxis"}), encoding="utf-8")
    with pytest.raises(VisionError, match=r"earlier referee \(colour model 2\); run referee vision calibrate again"):
        load_calibration(path, board())


def test_a_calibration_with_a_broken_spread_is_refused(tmp_path: Path) -> None:
    from vision.calibration import Calibration, save_calibration

    model = col.table_model(board(), 0.05)
    bad = model.materials["hill"].model_copy(update={"cov": ((1.0, 2.0, 0.0), (2.0, 1.0, 0.0), (0.0, 0.0, 1.0))})
    cal = Calibration(board="cyrus-pyxis", source="x", template_ppc=80,
                      colours=col.ColourModel(materials={**model.materials, "hill": bad}))
    path = tmp_path / "bad.json"
    save_calibration(cal, path)
    with pytest.raises(VisionError, match="no valid spread"):
        load_calibration(path, board())
