"""Square-grid geometry: names, parsing, neighbours, searches, rays."""

from __future__ import annotations

import pytest

from referee.errors import UnknownNameError
from referee.geometry.square import SquareGrid, row_label
from referee.markers import MarkerLayout, MarkerPlacement


def test_names_round_trip_every_cell() -> None:
    g = SquareGrid(12, 12)
    assert [g.parse(g.name(c)) for c in g.cells()] == list(g.cells())
    assert g.name(0) == "A1" and g.name(143) == "L12"


def test_parse_accepts_case_and_dash() -> None:
    g = SquareGrid(12, 12)
    assert g.parse("h7") == g.parse("H-7") == g.parse(" H7 ") == g.cell(7, 6)


@pytest.mark.parametrize("bad", ["M7", "A13", "A0", "7H", "", "zz"])
def test_parse_rejects_off_board_with_suggestions(bad: str) -> None:
    g = SquareGrid(12, 12)
    with pytest.raises(UnknownNameError) as info:
        g.parse(bad)
    assert info.value.kind == "cell"
    assert info.value.hint == "cells run from A1 to L12"


def test_parse_suggests_close_cells() -> None:
    with pytest.raises(UnknownNameError) as info:
        SquareGrid(12, 12).parse("L13")
    assert "L1" in info.value.suggestions or "L12" in info.value.suggestions


def test_row_labels_continue_past_z() -> None:
    assert [row_label(r) for r in (0, 25, 26, 27)] == ["A", "Z", "AA", "AB"]
    g = SquareGrid(30, 4)
    assert g.name(g.cell(27, 3)) == "AB4" and g.parse("ab4") == g.cell(27, 3)


def test_neighbours_orthogonal_and_diagonal() -> None:
    g = SquareGrid(12, 12)
    corner, middle = g.parse("A1"), g.parse("F6")
    assert len(g.neighbours(corner)) == 2 and len(g.neighbours(corner, diagonal=True)) == 3
    assert len(g.neighbours(middle)) == 4 and len(g.neighbours(middle, diagonal=True)) == 8


def test_distances() -> None:
    g = SquareGrid(12, 12)
    a, b = g.parse("B2"), g.parse("E6")
    assert g.manhattan(a, b) == 7 and g.chebyshev(a, b) == 4


def test_search_stops_and_crossings() -> None:
    g = SquareGrid(5, 5)
    start = g.parse("C1")
    wall = {g.parse("C2")}
    found = g.search(start, 2, lambda c: True, lambda c: c not in wall)
    assert g.parse("C2") in found.distance  # entered...
    assert g.parse("C3") not in found.distance  # ...but not crossed
    assert found.path(g.parse("B2")) == [start, g.parse("B1"), g.parse("B2")] or found.distance[g.parse("B2")] == 2


def test_flood_matches_search() -> None:
    g = SquareGrid(12, 12)
    closed = frozenset({g.parse("D4"), g.parse("E5")})
    stops = frozenset({g.parse("C4"), g.parse("F6")})
    start = g.parse("D5")
    a = g.search(start, 5, lambda c: c not in closed, lambda c: c not in stops)
    b = g.flood(start, 5, closed, stops)
    assert a.distance == b.distance


def test_weighted_search_counts_costs() -> None:
    g = SquareGrid(3, 3)
    costly = g.parse("B2")
    found = g.search(g.parse("B1"), 2, lambda c: True, lambda c: True, cost=lambda c: 2 if c == costly else 1)
    assert found.distance[costly] == 2
    assert g.parse("B3") not in found.distance  # 3 through B2, 4 around it


def test_ray_goes_straight_until_the_edge() -> None:
    g = SquareGrid(12, 12)
    assert [g.name(c) for c in g.ray(g.parse("H3"), 0, -1)] == ["H2", "H1"]
    assert [g.name(c) for c in g.ray(g.parse("A1"), 1, 1, length=2)] == ["B2", "C3"]


def test_marker_corners_are_clockwise_from_smallest_uv() -> None:
    layout = MarkerLayout(placements=(MarkerPlacement(id=2, u=12.25, v=12.25),))
    assert layout.corners(2) == [(12.25, 12.25), (13.25, 12.25), (13.25, 13.25), (12.25, 13.25)]
    with pytest.raises(KeyError):
        layout.corners(7)
