"""The geometry contract: the same tests on square grids and hex maps, then known hex values."""

from __future__ import annotations

import itertools
import random

import pytest

from referee.errors import UnknownNameError
from referee.geometry import HexGrid, SquareGrid, Topology
from referee.geometry.search import flood

BOARDS: dict[str, Topology] = {
    "square 12x12": SquareGrid(12, 12),
    "square 3x17": SquareGrid(3, 17),
    "hex 10x8 even": HexGrid(10, 8),
    "hex 9x7 odd": HexGrid(9, 7, down="odd"),
}


@pytest.fixture(params=list(BOARDS), name="board")
def _board(request: pytest.FixtureRequest) -> Topology:
    return BOARDS[request.param]


def test_names_round_trip(board: Topology) -> None:
    names = [board.name(c) for c in board.cells()]
    assert len(set(names)) == board.size
    for cell in board.cells():
        assert board.parse(board.name(cell)) == cell
        assert board.is_cell_name(board.name(cell))
    assert not board.is_cell_name("nowhere")


def test_unknown_cell_suggests(board: Topology) -> None:
    with pytest.raises(UnknownNameError) as info:
        board.parse(board.name(board.size - 1) + "9")
    assert info.value.hint


def test_neighbours_are_symmetric_and_one_step(board: Topology) -> None:
    for cell in board.cells():
        for n in board.neighbours(cell):
            assert cell in board.neighbours(n)
            assert board.distance(cell, n) == 1


def test_distance_is_the_breadth_first_step_count(board: Topology) -> None:
    adjacency = [board.neighbours(c) for c in board.cells()]
    rng = random.Random(7)
    for start in rng.sample(list(board.cells()), 8):
        steps = flood(adjacency, start, board.size, (), ()).distance
        for cell in board.cells():
            assert board.distance(start, cell) == steps[cell]


def test_lines_are_connected_and_as_long_as_the_distance(board: Topology) -> None:
    rng = random.Random(11)
    for _ in range(300):
        a, b = rng.randrange(board.size), rng.randrange(board.size)
        line = board.line(a, b)
        assert line[0] == a and line[-1] == b
        assert len(set(line)) == len(line)
        if isinstance(board, HexGrid):  # hex lines are exactly distance + 1 hexes, each next to the last
            assert len(line) == board.distance(a, b) + 1
            assert all(y in board.neighbours(x) for x, y in itertools.pairwise(line))


def test_search_respects_closed_cells_and_limits(board: Topology) -> None:
    start = board.parse(board.name(0))
    wall = set(board.neighbours(start))
    found = board.search(start, 5, lambda c: c not in wall, lambda c: True)
    assert set(found.distance) == {start}
    open_ = board.search(start, 2, lambda c: True, lambda c: True)
    assert all(d <= 2 for d in open_.distance.values())
    far = max(open_.distance, key=open_.distance.__getitem__)
    path = open_.path(far)
    assert path[0] == start and path[-1] == far and len(path) == open_.distance[far] + 1


def test_square_names_and_distances() -> None:
    g = SquareGrid(12, 12)
    assert g.name(g.parse("h7")) == "H7"
    assert g.distance(g.parse("A1"), g.parse("C4")) == 5
    assert [g.name(c) for c in g.line(g.parse("A1"), g.parse("D4"))] == ["A1", "B2", "C3", "D4"]


# ---- known hex values ------------------------------------------------------------------------


def names(g: HexGrid, cells: list[int] | tuple[int, ...]) -> list[str]:
    return [g.name(c) for c in cells]


def test_six_neighbours_of_a_lowered_and_a_raised_column() -> None:
    g = HexGrid(10, 8)  # printed even columns sit half a hex lower
    assert names(g, g.neighbours(g.parse("0404"))) == ["0403", "0504", "0505", "0405", "0305", "0304"]
    assert names(g, g.neighbours(g.parse("0505"))) == ["0504", "0604", "0605", "0506", "0405", "0404"]
    odd = HexGrid(10, 8, down="odd")  # the other convention mirrors it
    assert names(odd, odd.neighbours(odd.parse("0505"))) == ["0504", "0605", "0606", "0506", "0406", "0405"]


def test_corner_hexes_have_fewer_neighbours() -> None:
    g = HexGrid(10, 8)
    assert names(g, g.neighbours(g.parse("0101"))) == ["0201", "0102"]
    assert len(g.neighbours(g.parse("1008"))) == 2


def test_a_straight_line_of_eight() -> None:
    g = HexGrid(12, 12)
    line = g.line(g.parse("0201"), g.parse("0208"))
    assert names(g, line) == [f"02{r:02d}" for r in range(1, 9)]
    # south-east seven times from 0101: raised column to lowered keeps the row, lowered to raised adds one
    diagonal = g.line(g.parse("0101"), g.parse("0804"))
    assert g.distance(g.parse("0101"), g.parse("0804")) == 7
    assert names(g, diagonal) == ["0101", "0201", "0302", "0402", "0503", "0603", "0704", "0804"]
    assert all(g.step(x, 2) == y for x, y in itertools.pairwise(diagonal))


def test_rings_have_six_times_radius_hexes_in_open_space() -> None:
    g = HexGrid(20, 20)
    centre = g.parse("1010")
    for r in range(1, 5):
        assert len(g.ring(centre, r)) == 6 * r
    assert len(g.within(centre, 3)) == 37


def test_links_join_the_search_but_not_the_printed_distance() -> None:
    wrap = HexGrid(10, 8, links=(("0104", "1004"), ("0105", "1005")))
    a, b = wrap.parse("0104"), wrap.parse("1004")
    assert b in wrap.neighbours(a) and a in wrap.neighbours(b)
    assert wrap.distance(a, b) == 9
    assert wrap.steps(a, b) == 1
    assert wrap.flood(wrap.parse("0204"), 2).distance[b] == 2
    with pytest.raises(UnknownNameError):
        HexGrid(10, 8, links=(("0104", "1104"),))


def test_hex_centres_interlock() -> None:
    g = HexGrid(4, 3)
    (x0, y0), (x1, y1) = g.centre(g.parse("0101")), g.centre(g.parse("0201"))
    assert x1 - x0 == pytest.approx(1.5) and y1 - y0 == pytest.approx(3**0.5 / 2)
