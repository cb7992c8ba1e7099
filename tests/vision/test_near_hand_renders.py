"""Next to a hand (issue 13), on whole `classic` renders: the photos the benchmark draws from dev
seeds (1001500 onward, never the eval seeds), each read with a rule and without it.

- a token's band around a counter, of nearly the hand's colour, is not the hand (``occluder_thin``),
  while a finger's thin blurred edge over a dark token away from counters still is;
- whole hill tokens joined to a hand of nearly their colour are given back (``token_cell_ratio``).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

from referee.games.cyrus_pyxis.engine import CyrusEngine
from referee.games.cyrus_pyxis.state import CyrusState
from vision.config import VisionConfig
from vision.pipeline import read
from vision.render import Rendered, random_scene, render, sample_conditions

from .helpers import board

MIN = VisionConfig().classify.min_confidence


@cache
def _labels() -> dict[str, list[str]]:
    """The counters' labels the benchmark draws from (the legions of a game's start): the
    scene's random draws depend on how many there are."""
    state = CyrusEngine().sample_start()
    assert isinstance(state, CyrusState)
    out: dict[str, list[str]] = {"greek": [], "persian": []}
    for legion in state.tables.legions:
        out[legion.side.value].append(legion.short)
    return out


def _photo(tmp_path: Path, seed: int) -> tuple[Path, Rendered]:
    """The `classic` render of ``seed`` as the benchmark draws it (scene, then conditions, from
    one generator), at 1080p."""
    rng = np.random.default_rng(seed)
    scene = random_scene(board(), rng, _labels())
    cond = sample_conditions(rng, "moderate", 1920, 1080)
    rendered = render(board(), scene, cond, seed)
    return rendered.save(tmp_path / f"photo_{seed}"), rendered


def _read(path: Path, cells: list[str], **classify: float) -> dict[str, tuple[str | None, str, float]]:
    cfg = VisionConfig()
    cfg = cfg.model_copy(update={"classify": cfg.classify.model_copy(update=classify)})
    obs = read(path, board(), cfg, None, strict=False).observation
    return {c: (obs.cells[c].occupant, obs.cells[c].terrain, obs.cells[c].confidence) for c in cells}


def _truth(rendered: Rendered, cell: str) -> tuple[str | None, str]:
    return rendered.cells[cell]["occupant"], rendered.cells[cell]["terrain"]


@pytest.mark.parametrize(("seed", "cell"), [(1002250, "G6"), (1001523, "K8")])
def test_a_tokens_band_around_a_counter_beside_a_hand_is_not_the_hand(tmp_path: Path, seed: int, cell: str) -> None:
    # a counter beside a hand: thin strips of the band around it (a hill's, or the counter's
    # light rim blended with the board) have the hand's colour and touch the hand
    path, rendered = _photo(tmp_path, seed)
    assert cell not in rendered.occluded
    occupant, terrain, conf = _read(path, [cell])[cell]
    assert (occupant, terrain) == _truth(rendered, cell)
    assert occupant is not None and conf >= MIN
    assert _read(path, [cell], occluder_thin=0.0)[cell][2] < MIN  # the strips taken for the hand


def test_a_fingers_thin_edge_away_from_counters_is_still_the_hand(tmp_path: Path) -> None:
    # dark fingers over a forest token: their blurred edges are thin, and over the forest they
    # look like a hill token; with the thin parts dropped everywhere the cell is misread
    path, rendered = _photo(tmp_path, 1002759)
    assert "E5" in rendered.occluded and _truth(rendered, "E5") == (None, "forest")
    assert _read(path, ["E5"])["E5"][2] < MIN
    _occupant, terrain, conf = _read(path, ["E5"], occluder_thin_near=1.0)["E5"]
    assert conf >= MIN and terrain == "hill"


def test_whole_hill_tokens_joined_to_a_hand_of_nearly_their_colour_are_given_back(tmp_path: Path) -> None:
    # a dark brown hand beside two hill tokens: the blur joins them to it; taken together, each
    # token's pixels lie nearer the hill's colour than 0.6 of their distance to the hand's
    path, rendered = _photo(tmp_path, 1002616)
    cells = ["I11", "K11"]
    assert not set(cells) & set(rendered.occluded)
    got = _read(path, cells)
    for c in cells:
        assert got[c][:2] == _truth(rendered, c) == (None, "hill")
        assert got[c][2] >= MIN
    old = _read(path, cells, token_cell_ratio=0.5)
    assert all(old[c][2] < MIN for c in cells)
