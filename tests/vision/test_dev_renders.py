"""Photos once taken from the benchmark's dev seeds (1000000 onward, never the eval seeds), each
a cell the reader's hand-set cascade once read wrong with one of its rules switched off (issue
13). Most are now scenes written out in ``tests/vision/described.py`` (the cells around the one
read, the camera and light, a hand placed where it was); six seeds whose behaviour no
description showed still render, each test saying why.

The cascade and its rules are gone (w53b: the fitted trees of :mod:`vision.trees` decide every
cell); each scene now holds the behaviour the rule guarded, not the rule:

- beside a hand, a cell the hand does not cover is read right and sure: a token's band around
  a counter, a hill token's border along the grid's edge, a cell one colour fills with a hand
  over its corner, a counter cell a hand reaches a little past a tenth of, a counter's band
  showing its token away from a hand of nearly the hill's colour, a plain cell showing the
  board away from a hand, whole hill tokens joined to a hand of their colour, pale counters
  whose class reaches the board;
- under a hand, a cell is asked about (or, where said, read right): a finger's thin edge over a
  forest token, a hand of nearly the hill's colour over a plain cell or over a counter's band, a
  hand of a counter's colour, a cell half or mostly under a hand;
- away from hands, a band leaning clearly to the hill is a hill, however bright.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

from referee.games.cyrus_pyxis.capture import cell_contents, legion_cells, legion_labels
from vision.calibrate import calibrate
from vision.calibration import Calibration
from vision.config import VisionConfig
from vision.pipeline import CellReading, read
from vision.render import Rendered, random_scene, render, sample_conditions, sample_real_conditions

from .described import shoot_described
from .helpers import board, scene_of, setup_state

MIN = VisionConfig().classify.min_confidence
SIZE = (1920, 1080)


@cache
def _labels() -> dict[str, list[str]]:
    """The counters' labels the benchmark draws from (the legions of the sample start): the
    scene's random draws depend on how many there are."""
    out: dict[str, list[str]] = {"greek": [], "persian": []}
    for legion in setup_state().tables.legions:
        out[legion.side.value].append(legion.short)
    return out


_PHOTOS: dict[tuple[int | str, int | None], tuple[Path, Rendered]] = {}
_CALIBRATIONS: dict[tuple[int, int], Calibration] = {}
"""Renders and calibrations already made in this process: several tests read the same photo (other
cells, other settings) or calibrate the same style; the files stay in the first test's folder,
which pytest keeps for the session, and tests only read them."""


def _photo(tmp_path: Path, seed: int | str, style: int | None = None) -> tuple[Path, Rendered]:
    """The scene described under that name (:data:`described.SCENES`), or the render of dev
    ``seed`` as the benchmark draws it (scene, then conditions, from one generator): ``classic``
    when ``style`` is None, else ``real`` in that colour style."""
    if (seed, style) not in _PHOTOS:
        _PHOTOS[seed, style] = (shoot_described(tmp_path, seed) if isinstance(seed, str)
                                else _render(tmp_path, seed, style))
    return _PHOTOS[seed, style]


def _render(tmp_path: Path, seed: int, style: int | None) -> tuple[Path, Rendered]:
    rng = np.random.default_rng(seed)
    scene = random_scene(board(), rng, _labels())
    cond = sample_conditions(rng, "moderate", *SIZE) if style is None else sample_real_conditions(rng, *SIZE, style)
    rendered = render(board(), scene, cond, seed)
    return rendered.save(tmp_path / f"photo_{seed}"), rendered


def _calibration(tmp_path: Path, base: int, style: int) -> Calibration:
    """The benchmark's calibration of a colour style for the seeds from ``base``: a separate
    clean photo of the sample set-up."""
    if (base, style) not in _CALIBRATIONS:
        _CALIBRATIONS[base, style] = _calibrate(tmp_path, base, style)
    return _CALIBRATIONS[base, style]


def _calibrate(tmp_path: Path, base: int, style: int) -> Calibration:
    seed = base + 90_000 + style
    rng = np.random.default_rng(seed)
    cond = sample_real_conditions(rng, *SIZE, style, clean=True)
    setup = setup_state()
    path = render(board(), scene_of(setup), cond, seed).save(tmp_path / f"cal_{style}")
    return calibrate(path, board(), cell_contents(setup), legions=legion_labels(setup), legion_at=legion_cells(setup))


_READS: dict[tuple[Path, int, tuple[tuple[str, float], ...]], dict[str, CellReading]] = {}
"""Reads already made in this process, by photo, calibration and settings changed (a read is
deterministic): tests of other cells of a photo, or of a cell with an occluder setting off after
another test read it with the defaults, read it once."""


def _read(
    path: Path, cell: str, calibration: Calibration | None = None, **classify: float
) -> tuple[str | None, str, float]:
    key = (path, id(calibration), tuple(sorted(classify.items())))
    if key not in _READS:
        cfg = VisionConfig()
        cfg = cfg.model_copy(update={"classify": cfg.classify.model_copy(update=classify)})
        _READS[key] = read(path, board(), cfg, calibration, strict=False).observation.cells
    got = _READS[key][cell]
    return got.occupant, got.terrain, got.confidence


def _truth(rendered: Rendered, cell: str) -> tuple[str | None, str]:
    return rendered.cells[cell]["occupant"], rendered.cells[cell]["terrain"]


def _asked(path: Path, cell: str, calibration: Calibration | None = None) -> bool:
    """Whether ``cell`` is asked about (read below the ask floor)."""
    return _read(path, cell, calibration)[2] < MIN


@pytest.mark.parametrize(
    ("seed", "cell"),
    [
        ("hill_band_around_a_counter_beside_a_finger", "K8"),  # the band touches a finger
        ("hill_band_around_a_counter_beside_a_hand_in_a_shadow", "G6"),
        # in the grid's corner: the ring runs along two of its edges
        ("counter_on_a_hill_in_the_corner_beside_a_hand", "A12"),
    ],
)
def test_a_tokens_band_around_a_counter_beside_a_hand_is_not_the_hand(
    tmp_path: Path, seed: str, cell: str
) -> None:
    path, rendered = _photo(tmp_path, seed)
    assert cell not in rendered.occluded
    occupant, terrain, conf = _read(path, cell)
    assert (occupant, terrain) == _truth(rendered, cell)
    assert occupant is not None and conf >= MIN


@pytest.mark.parametrize(
    ("seed", "base", "cell", "off"),
    [
        ("real_hand_along_a_persian_counter_first_style", 1000000, "G5",
         {"occluder_thin_ring": 0.0, "occluder_fringe": 0.0}),
        ("real_hand_along_a_persian_counter_third_style", 1003000, "C6", {"occluder_thin_ring": 0.0}),
        ("real_hand_along_a_persian_counter_second_style", 1000000, "J3", {"occluder_fringe": 0.0}),
    ],
)
def test_a_hands_edge_along_one_side_of_a_counter_is_still_the_hand(
    tmp_path: Path, seed: str, base: int, cell: str, off: dict[str, float]
) -> None:
    # a real-profile hand of nearly the hill's colour over one side of a Persian counter's cell
    # on the plain: its soft edge there is a thin strip of its colour too, beside its wide
    # part and along one side of the counter only; taken off the hand, that strip of skin
    # reads as a hill's band
    path, rendered = _photo(tmp_path, seed)
    cal = _calibration(tmp_path, base, rendered.conditions.style)
    assert cell in rendered.occluded and _truth(rendered, cell) == ("persian", "plain")
    occupant, terrain, conf = _read(path, cell, cal)
    assert conf < MIN or (occupant, terrain) == ("persian", "plain")
    # without those rules the strip of skin once read as a hill's band with confidence
    occupant, terrain, conf = _read(path, cell, cal, **off)
    assert conf < MIN or (occupant, terrain) == ("persian", "plain")


@pytest.mark.parametrize(
    ("seed", "cell"), [("hill_on_the_top_edge_beside_a_hand", "A11"), ("hill_in_the_corner_beside_a_hand", "L1")]
)
def test_a_hill_tokens_border_along_the_grids_edge_beside_a_hand_is_not_the_hand(
    tmp_path: Path, seed: str, cell: str
) -> None:
    path, rendered = _photo(tmp_path, seed)
    assert cell not in rendered.occluded and _truth(rendered, cell) == (None, "hill")
    assert _read(path, cell) == (None, "hill", pytest.approx(1.0, abs=1 - MIN))


def test_a_fingers_thin_edge_away_from_counters_is_still_the_hand(tmp_path: Path) -> None:
    # dark fingers over a forest token: their blurred edges are thin, and over the forest they
    # look like a hill token; with the thin parts dropped farther from counters the cell is
    # misread
    path, rendered = _photo(tmp_path, "forest_under_dark_fingers")
    assert "E5" in rendered.occluded and _truth(rendered, "E5") == (None, "forest")
    # once read as a hill; the fitted trees read it right (0.96) or ask
    occupant, terrain, conf = _read(path, "E5")
    assert conf < MIN or (occupant, terrain) == (None, "forest")


def test_whole_hill_tokens_beside_a_hand_of_nearly_their_colour_are_given_back_where_their_edges_show(
    tmp_path: Path,
) -> None:
    # a dark brown hand beside two hill tokens: the blur joins them to it. Taken together, each
    # token's pixels lie nearer the hill's colour than 0.65 of their distance to the hand's
    # (not 0.5), and the four lines around each cell show
    path, rendered = _photo(tmp_path, "hill_tokens_beside_a_dark_brown_hand")
    for cell in ("I11", "K11"):
        assert cell not in rendered.occluded and _truth(rendered, cell) == (None, "hill")
        assert _read(path, cell) == (None, "hill", pytest.approx(1.0, abs=1 - MIN))


def test_a_hand_of_nearly_the_hills_colour_hiding_a_cells_lines_is_not_given_back(tmp_path: Path) -> None:
    # a real-profile hand over a plain cell: its pixels lie nearer the hill's colour than 0.65
    # of their distance to the hand's own median, but the cell's lines are hidden under it
    path, rendered = _photo(tmp_path, "plain_under_a_real_hand_of_the_hills_colour")
    cal = _calibration(tmp_path, 1000000, rendered.conditions.style)
    assert "J4" in rendered.occluded and _truth(rendered, "J4") == (None, "plain")
    assert _asked(path, "J4", cal)  # once read as a hill


@pytest.mark.parametrize(
    ("seed", "cell"),
    [
        # as bright as the board: read as bare board, unsure
        ("counter_on_a_hill_in_the_corner_as_bright_as_the_board", "A12"),
        ("counter_on_a_hill_in_a_shadow_beside_a_hand", "G9"),
        # a little darker: read as a token, but only just, unsure
        ("counter_on_a_hill_in_the_far_corner_a_little_darker", "L12"),
        ("counter_on_a_hill_in_the_first_corner", "A1"),
    ],
)
def test_a_band_leaning_clearly_to_the_hill_is_a_hill_however_bright(tmp_path: Path, seed: str, cell: str) -> None:
    path, rendered = _photo(tmp_path, seed)
    occupant, terrain, conf = _read(path, cell)
    assert (occupant, terrain) == _truth(rendered, cell) and terrain == "hill" and occupant is not None
    assert conf >= MIN


def test_a_band_leaning_clearly_over_less_of_the_cell_is_a_hill(tmp_path: Path) -> None:
    # leaning 0.49 toward the hill, with 0.198 of the cell leaning too
    path, rendered = _photo(tmp_path, "counter_on_a_hill_leaning_over_less_of_its_cell")
    assert _truth(rendered, "C10") == ("persian", "hill")
    # the fitted trees ask it (0.81): never read on the plain with confidence
    occupant, terrain, conf = _read(path, "C10")
    assert conf < MIN or (occupant, terrain) == ("persian", "hill")


@pytest.mark.parametrize(
    ("seed", "cell"), [("forest_with_a_hand_over_its_corner", "F2"), ("plain_with_a_hand_over_its_corner", "E11")]
)
def test_a_cell_one_colour_fills_is_read_a_little_past_the_cover_limit(tmp_path: Path, seed: str, cell: str) -> None:
    # a hand over the cell's corner: its soft edge and shadow are measured as 16-17 % of the
    # cell, and the rest of it is all forest (all bare board)
    path, rendered = _photo(tmp_path, seed)
    assert cell not in rendered.occluded
    occupant, terrain, conf = _read(path, cell)
    assert (occupant, terrain) == _truth(rendered, cell) and occupant is None and conf >= MIN


def test_a_plain_cell_under_a_hand_of_the_hills_colour_is_not_read_as_filled(tmp_path: Path) -> None:
    # 27 % covered once the pixels nearest the hill's colour are given back: the rest looks like
    # a hill filling the cell
    path, rendered = _photo(tmp_path, "plain_under_a_dark_hand")
    assert "J6" in rendered.occluded and _truth(rendered, "J6") == (None, "plain")
    assert _asked(path, "J6")  # once read as a hill filling the cell


@pytest.mark.parametrize(
    ("seed", "cell"),
    [("counter_on_a_hill_with_a_hand_at_its_corner", "C4"), ("counter_on_the_plain_with_a_hand_at_its_corner", "I3")],
)
def test_a_counter_cell_is_read_up_to_the_cover_limit(tmp_path: Path, seed: str, cell: str) -> None:
    # covered by a little more than a tenth: read, and unsure with a limit of a tenth
    path, rendered = _photo(tmp_path, seed)
    assert cell not in rendered.occluded
    occupant, terrain, conf = _read(path, cell)
    assert (occupant, terrain) == _truth(rendered, cell) and occupant is not None and conf >= MIN


@pytest.mark.parametrize(
    ("seed", "base", "cell"),
    [(1004167, 1004000, "G11"), (1000802, 1000000, "K8")],
)
def test_given_back_pixels_over_a_counters_band_count_past_a_tenth(
    tmp_path: Path, seed: int | str, base: int, cell: str
) -> None:
    """A real-profile hand of nearly the hill's colour over a Persian counter on the plain: its
    pixels given back to the hill's colour are 11-12 % of the cell, on the band read under the
    counter.

    Still seeded: described with the seed's fingers, shadow band, colours, counters' places and
    hill tokens, 1004167 showed it in one or two of eight draws and not once written out, and
    1000802 in none even with every piece of its board; the share sits within a point or two of
    the limit, and what is still drawn (the real tokens' size and offset, the noise) moves it."""
    path, rendered = _photo(tmp_path, seed, style=None if isinstance(seed, str) else (seed - base) % 3)
    cal = _calibration(tmp_path, base, rendered.conditions.style)
    assert cell in rendered.occluded and _truth(rendered, cell) == ("persian", "plain")
    assert _asked(path, cell, cal)  # once read on a hill


@pytest.mark.parametrize(
    ("seed", "cell"), [("counter_on_a_hill_beside_a_brown_hand", "A6"), ("counter_on_a_hill_beside_a_tan_hand", "H4")]
)
def test_a_counters_band_showing_its_token_away_from_the_hand_is_read(tmp_path: Path, seed: str, cell: str) -> None:
    # a hand of nearly the hill's colour beside a counter on a hill: the band's pixels next to it
    # are given back to the hill, and the rest of the band, away from the hand, is hill too
    path, rendered = _photo(tmp_path, seed)
    assert cell not in rendered.occluded and _truth(rendered, cell)[1] == "hill"
    occupant, terrain, conf = _read(path, cell)
    assert (occupant, terrain) == _truth(rendered, cell) and conf >= MIN


def test_a_band_leaning_a_little_to_the_hill_away_from_the_hand_is_not_enough(tmp_path: Path) -> None:
    # a real-profile Greek counter on the plain under a hand of nearly the hill's colour: its band
    # leans 0.22 toward the hill away from the hand (0.28 with the pixels beside it); the hill
    # bands beside a hand that it reads lean 0.46 and 0.65 there
    path, rendered = _photo(tmp_path, "greek_counter_under_a_real_hand_of_the_hills_colour")
    cal = _calibration(tmp_path, 1004000, 2)
    assert "E11" in rendered.occluded and _truth(rendered, "E11") == ("greek", "plain")
    # the band once read as a hill with confidence; the fitted trees read it right
    occupant, terrain, conf = _read(path, "E11", cal)
    assert conf < MIN or (occupant, terrain) == ("greek", "plain")


@pytest.mark.parametrize("cell", ["B8", "C9"])
def test_a_plain_cell_showing_the_board_away_from_the_hand_is_read(
    tmp_path: Path, cell: str
) -> None:
    """Still seeded: described with its hand and the hill and forest tokens of its board, no draw
    of eight showed it; with every piece of the board, one draw did for B8 and none for C9. With
    every piece and the hand moved (a quarter of a cell at a time, 12 places, six draws each),
    C9 showed it in at most five draws of six and B8 in two, and that place lost it once the
    camera's numbers were written to four decimals instead of six: the cover the rule turns on
    sits at its limit there."""
    # a hand of nearly the board's colour beside two plain cells: the pixels given back to the
    # board next to it are a fifth of each cell, and 0.7 of the cell, away from it, is bare board
    path, rendered = _photo(tmp_path, 1006869)
    assert cell not in rendered.occluded and _truth(rendered, cell) == (None, "plain")
    assert _read(path, cell) == (None, "plain", pytest.approx(1.0, abs=1 - MIN))


def test_a_cell_half_under_a_hand_is_not_read_from_the_rest(tmp_path: Path) -> None:
    # a real-profile Persian counter on the plain, hidden by the hand: 0.53 of the cell shows
    # away from it, all bare board
    path, rendered = _photo(tmp_path, "persian_counter_hidden_under_a_real_hand")
    cal = _calibration(tmp_path, 1005000, 1)
    assert "G2" in rendered.occluded and _truth(rendered, "G2") == ("persian", "plain")
    assert _asked(path, "G2", cal)  # once read as bare plain from the half showing


@pytest.mark.parametrize(
    ("seed", "cells"),
    [("pale_counters_in_the_second_style", ("C5", "A11")), ("pale_counters_tilted_in_the_second_style", ("A4", "D2"))],
)
def test_a_pale_counters_band_is_read_where_its_class_reaches_the_board(
    tmp_path: Path, seed: str, cells: tuple[str, ...]
) -> None:
    # colour style 1, calibrated on 1096001: the Greek class, re-centred on the photo, lies far
    # enough from the bare board that its reach takes in the board around the counter
    path, rendered = _photo(tmp_path, seed)
    cal = _calibration(tmp_path, 1006000, 1)
    for cell in cells:
        assert cell not in rendered.occluded
        occupant, terrain, conf = _read(path, cell, cal)
        assert (occupant, terrain) == _truth(rendered, cell) and occupant == "greek" and conf >= MIN


def test_a_hand_of_a_counters_colour_is_not_a_line_of_counters(tmp_path: Path) -> None:
    """Still seeded: no draw of eight showed it, even described with every piece of its board,
    the hand's fingers and the photo's colours stated; the real tokens' and counters' sizes are
    still drawn, and so is whether any pixel of the hand falls off every class."""
    # a hand over 18 cells, of nearly the Greek counters' colour (style 1), with no pixel off
    # every class: taken into the Greek class, its cells read as Greek counters
    path, rendered = _photo(tmp_path, 1006319, style=1)
    cal = _calibration(tmp_path, 1006000, 1)
    for cell in ("H9", "I10"):
        assert cell in rendered.occluded and _truth(rendered, cell)[0] is None
        assert _asked(path, cell, cal)  # once read as Greek counters


@pytest.mark.parametrize("cell", ["A3", "C3"])
def test_a_whole_hill_token_joined_to_a_hand_of_its_colour_is_read(tmp_path: Path, cell: str) -> None:
    """Still seeded: described with its hand, shadow band and hill tokens, one draw of eight showed
    it for both cells with the seed's numbers exact, none once written to four decimals. With
    every piece of the board and the hand moved by 0.2 cell (nine places, four draws each), no
    place showed it in more than two draws of four for either cell."""
    # a hand of nearly the hills' colour beside two hill tokens: a third of each cell is measured
    # under it, but the token's triangle shows as the photo's other hills' do, and so do its lines
    path, rendered = _photo(tmp_path, 1006352)
    assert cell not in rendered.occluded and _truth(rendered, cell) == (None, "hill")
    assert _read(path, cell) == (None, "hill", pytest.approx(1.0, abs=1 - MIN))


def test_a_plain_cell_mostly_under_a_hand_of_the_hills_colour_is_not_read_as_a_whole_hill(tmp_path: Path) -> None:
    """Still seeded: no draw of eight showed it, even described with every piece of its board,
    the counters' places, the fingers and the shadow band stated: what is left drawn is the noise
    and the board's grain. With every piece and the hand moved back out of the cell by up to half
    a cell (ten places, four draws each), none did: C6 stays unsure with the looser limit too, but
    for two draws half a cell back, where it is read as a hill with confidence whatever the limit
    (a hidden cell misread, left to the reader's own work)."""
    path, rendered = _photo(tmp_path, 1005730)
    assert "C6" in rendered.occluded and _truth(rendered, "C6") == (None, "plain")
    assert _asked(path, "C6")  # once read as a whole hill
