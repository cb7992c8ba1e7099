"""vision.markers: the printable sheet carries the layout's four markers, and the renderer's
tabs put each marker where board.yaml says."""

from __future__ import annotations

import cv2
import numpy as np

from vision.markers import corner_names, dictionary, grid_corner, marker_sheet, tab_box

from .helpers import board


def test_the_sheet_shows_markers_0_to_3_detectably() -> None:
    b = board()
    sheet = marker_sheet(b.markers, b.rows, b.cols, cell_mm=40, dpi=150)
    detector = cv2.aruco.ArucoDetector(dictionary(b.markers), cv2.aruco.DetectorParameters())
    _, ids, _ = detector.detectMarkers(cv2.cvtColor(sheet, cv2.COLOR_BGR2GRAY))
    assert ids is not None and sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
    a4 = (round(297 / 25.4 * 150), round(210 / 25.4 * 150))
    assert sheet.shape[:2] == a4


def test_marker_size_on_paper_follows_the_cell_size() -> None:
    b = board()
    sheet = marker_sheet(b.markers, b.rows, b.cols, cell_mm=25.4, dpi=100)  # one cell = 100 px
    detector = cv2.aruco.ArucoDetector(dictionary(b.markers), cv2.aruco.DetectorParameters())
    corners, _, _ = detector.detectMarkers(cv2.cvtColor(sheet, cv2.COLOR_BGR2GRAY))
    sides = [np.linalg.norm(q[0][1] - q[0][0]) for q in corners]
    assert all(97 <= s <= 101 for s in sides)  # one cell wide (corner convention: ±1 px)


def test_each_tab_reaches_its_grid_corner() -> None:
    b = board()
    names = corner_names(b.rows, b.cols)
    where = {
        p.id: names[grid_corner(p, b.markers.size, b.rows, b.cols)] for p in b.markers.placements
    }
    assert where == {0: "A1", 1: "A12", 2: "L12", 3: "L1"}
    u0, v0, u1, v1 = tab_box(b.markers.placements[0], b.markers.size, b.rows, b.cols)
    assert (u1, v1) == (0.0, 0.0) and u0 < -1.25 and v0 < -1.25
