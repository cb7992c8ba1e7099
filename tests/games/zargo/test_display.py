"""The Zargo world drawn as a hex board: in the terminal (terrain marks, wrap letters on the edge
hexes) and as a PNG (its size, every hex's centre in its terrain colour, the cloud bridges)."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pytest
from rich.console import Console

from referee import render
from referee.game import BoardView, Counter
from referee.games.zargo.display import TERRAIN_KEYS, load_display, load_peoples, world_view
from referee.games.zargo.world import World, load_world
from referee.tables import data_root

TABLES = data_root("tables") / "zargo"
CELL_PX = 32


@pytest.fixture(scope="module")
def world() -> World:
    return load_world(str(TABLES / "map.yaml"))


@pytest.fixture(scope="module")
def view(world: World) -> BoardView:
    return world_view(world, load_display(str(TABLES / "display.yaml")), load_peoples(str(TABLES / "peoples.yaml")))


def plain_text(view: BoardView) -> list[str]:
    buffer = io.StringIO()
    Console(file=buffer, width=240, color_system=None).print(render.board(view))
    return buffer.getvalue().splitlines()


def test_terminal_draws_every_hex_with_its_terrain_mark_and_wrap_letters_on_the_edges(world: World,
                                                                                    view: BoardView) -> None:
    lines = plain_text(view)
    style = load_display(str(TABLES / "display.yaml"))
    first = {int(line[:2]): i for i, line in enumerate(lines) if line[:2].isdigit() and line[2] == " "}
    assert sorted(first) == list(range(1, world.grid.rows + 1))
    for cell in world.grid.cells():
        col, row = world.grid.cr(cell)
        lower = col % 2 == 1  # printed even columns sit half a row lower (down: even)
        line = lines[first[row + 1] + lower]
        x = 3 + 4 * col
        mark = style.terrain[TERRAIN_KEYS[world.terrain[cell]]].mark
        assert line[x : x + 2] == mark, (world.grid.name(cell), line[x : x + 8])
        letter = next((k for k, pair in world.wrap.items() if cell in pair), None)
        if letter is not None:
            assert line[x + 2 : x + 6].strip() == letter
    assert "cloud bridges: 1806–2108" in "\n".join(lines)


def test_terminal_tells_peoples_apart_without_colour_and_hides_face_down_counters(world: World) -> None:
    style, peoples = load_display(str(TABLES / "display.yaml")), load_peoples(str(TABLES / "peoples.yaml"))
    stacks = {"0506": [Counter("chevaliers", "CHV"), Counter("chevaliers", "FCh")],
              "0606": [Counter("dragons", "DRA")], "0507": [Counter("moines", "MOI", hidden=True)]}
    text = "\n".join(plain_text(world_view(world, style, peoples, stacks=stacks, marks={"0606": ["combat"]})))
    assert "KCHV2" in text  # a stack of two under the Knights' mark
    assert "DDRA*" in text  # the pending combat's mark
    assert "M▒▒▒" in text and "MOI" not in text


def test_png_has_the_expected_size_terrain_at_every_centre_and_the_bridges(tmp_path: Path, world: World,
                                                                          view: BoardView) -> None:
    import cv2
    import numpy as np

    from referee.picture import write_png

    path = write_png(view, tmp_path / "zargo.png", CELL_PX)
    image = cv2.imread(str(path))
    assert image is not None
    radius = CELL_PX / math.sqrt(3)
    left = int(CELL_PX * 0.7) + int(CELL_PX * 0.45)  # coordinates margin, then the edge labels' band
    board_w = round((1.5 * (world.grid.cols - 1) + 2) * radius)
    board_h = round(math.sqrt(3) * radius * (world.grid.rows + 0.5))
    assert image.shape[1] == 2 * left + board_w
    assert 2 * left + board_h < image.shape[0] < 2 * left + board_h + 6 * CELL_PX  # the key and status below

    def pixel(cell: int) -> tuple[int, int]:
        x, y = world.grid.centre(cell)
        return round(left + x * radius), round(left + y * radius)

    style = load_display(str(TABLES / "display.yaml"))
    bridge_bgr = tuple(reversed(style.bridges.colour))
    segments = [(np.array(pixel(a), float), np.array(pixel(b), float)) for a, b in world.bridges]

    def under_bridge(p: tuple[int, int]) -> bool:
        q = np.array(p, float)
        for a, b in segments:
            t = np.clip(np.dot(q - a, b - a) / np.dot(b - a, b - a), 0, 1)
            if np.linalg.norm(q - (a + t * (b - a))) < CELL_PX / 10 + 3:
                return True
        return False

    covered = 0
    for cell in world.grid.cells():
        x, y = pixel(cell)
        if under_bridge((x, y)):
            covered += 1
            continue
        want = tuple(reversed(style.terrain[TERRAIN_KEYS[world.terrain[cell]]].colour))
        assert tuple(int(v) for v in image[y, x]) == want, world.grid.name(cell)
    assert covered < 4 * len(world.bridges)
    for a, b in segments:  # each bridge is drawn: its middle and both quarter points in the bridge colour
        for t in (0.25, 0.5, 0.75):
            x, y = (a + t * (b - a)).round().astype(int)
            assert tuple(int(v) for v in image[y, x]) == bridge_bgr


def test_a_bad_display_file_is_one_line_naming_the_file_and_field(tmp_path: Path) -> None:
    from referee.errors import InputFileError

    text = (TABLES / "display.yaml").read_text(encoding="utf-8").replace('mark: "~~"', 'mark: "~~~"')
    bad = tmp_path / "display.yaml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(InputFileError) as info:
        load_display(str(bad))
    assert "display.yaml" in str(info.value) and "terrain.sea.mark" in str(info.value)
    assert len(str(info.value).splitlines()) == 1


def test_city_codes_are_explained_under_the_board_only_when_drawn() -> None:
    """A sealed city is drawn V?, a shown one V and its garrison's size: both codes are explained
    under the board, and a board without cities explains neither."""
    from referee.cli.common import load_position

    engine, state, _tables = load_position("zargo", data_root("samples") / "zargo" / "umpire.yaml", None)
    view = engine.board_view(state)
    assert dict(view.codes).keys() == {"V?", "V0, V1, …"}  # 2503 sealed, 0505 shown empty
    assert {c.counters[0].label for c in view.cells if c.name in ("0505", "2503")} == {"V0", "V?"}
    text = "\n".join(plain_text(view))
    assert "V?: a city whose garrison is still sealed" in text
    bare = engine.board_view(state.model_copy(update={"cities": {}}))
    assert bare.codes == () and "V?:" not in "\n".join(plain_text(bare))
