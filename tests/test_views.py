"""Board views: the renderers draw what the game's view says (square and hex), name no terrain or
rule themselves, and tell sides apart without colour."""

from __future__ import annotations

import io
import re
from pathlib import Path

from rich.console import Console

from referee import render
from referee.game import BoardView, CellView, Counter, MarkStyle, TerrainStyle
from referee.games import find_game

ROOT = Path(__file__).resolve().parents[1]


def text_of(view: BoardView, width: int = 120) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None).print(render.board(view))
    return buffer.getvalue()


def tiny(layout: str = "square", down: str = "even") -> BoardView:
    """A 3 x 2 board of made-up terrain: a hidden counter, a stack, a marked cell."""
    cells = []
    for r in range(2):
        for c in range(3):
            name = f"{c}{r}"
            counters: tuple[Counter, ...] = ()
            if (c, r) == (0, 0):
                counters = (Counter("north", "Abc"),)
            if (c, r) == (1, 0):
                counters = (Counter("south", "Xyz", hidden=True),)
            if (c, r) == (2, 1):
                counters = (Counter("north", "Abc"), Counter("south", "Def"))
            low = (c + (down == "odd")) % 2
            centre = (c + 0.5, r + 0.5) if layout == "square" else (1 + 1.5 * c, 3**0.5 * (r + 0.5 + 0.5 * low))
            cells.append(CellView(name=name, terrain="bog" if c == 1 else "flat", at=(c, r), centre=centre,
                                  counters=counters, marks=("fight",) if (c, r) == (2, 1) else ()))
    return BoardView(
        title="tiny", layout=layout,  # type: ignore[arg-type]
        rows=2, cols=3, row_labels=("a", "b"), col_labels=("1", "2", "3"), cells=tuple(cells),
        terrain={"flat": TerrainStyle((220, 220, 200), "_" if layout == "square" else "__", label="flatland"),
                 "bog": TerrainStyle((90, 120, 60), "%" if layout == "square" else "%%", pattern="dots")},
        side_colours={"north": (200, 0, 0), "south": (0, 0, 200)}, side_marks={"north": "n", "south": "s"},
        marks={"fight": MarkStyle("#", (0, 200, 0), "a made-up fight")},
        edges=("up", "right", "down", "left"), down=down,  # type: ignore[arg-type]
    )


def test_renderers_name_no_terrain_and_no_rule() -> None:
    words = ("forest", "hill", "plain", "woods", "sea", "mountain", "combat", "chasm", "bridge", "greek", "persian")
    for module in ("render.py", "picture.py"):
        source = (ROOT / "referee" / module).read_text(encoding="utf-8").lower()
        found = [w for w in words if re.search(rf"\b{w}", source)]
        assert not found, f"{module} names {found}"


def test_square_board_takes_every_name_from_the_view() -> None:
    text = text_of(tiny())
    assert "_nAbc" in text and "%s▒▒▒" in text and "Xyz" not in text  # face down: the side, no label
    assert "nAbc#" in text  # the top of a stack, with the cell's mark
    assert "_ flatland" in text and "% bog" in text and "# a made-up fight" in text
    assert "n north" in text and "s south" in text
    assert "↑ up" in text and "↓ down" in text and "← left" in text and "right →" in text


def test_hex_board_offsets_every_other_column() -> None:
    lines = text_of(tiny("hex")).splitlines()
    row_a = next(i for i, line in enumerate(lines) if line.startswith(" a "))
    assert lines[row_a][3:5] == "__" and lines[row_a][11:13] == "__"  # columns 1 and 3 on the row's line
    assert lines[row_a + 1][7:9] == "%%"  # column 2 half a row lower
    assert "s▒▒▒" in lines[row_a + 1]


def test_cyrus_board_tells_sides_apart_without_colour() -> None:
    engine = find_game("cyrus-pyxis")
    text = text_of(engine.board_view(engine.sample_start()))
    assert ">Pyx" in text and "<Cyr" in text
    assert "> greek" in text and "< persian" in text


def test_square_png_draws_the_marks_and_a_key(tmp_path: Path) -> None:
    import cv2

    from referee.picture import write_png

    view = tiny()
    image = cv2.imread(str(write_png(view, tmp_path / "tiny.png", 64)))
    assert image is not None
    margin, band = int(64 * 0.7), int(64 * 0.45)
    assert image.shape[1] == 2 * (margin + band) + 3 * 64
    assert image.shape[0] > 2 * (margin + band) + 2 * 64  # the key below the board
    x0, y0 = margin + band + 2 * 64, margin + band + 64  # cell (2, 1): the fight's frame just inside its edge
    assert tuple(int(v) for v in image[y0 + 32, x0 + 3]) == (0, 200, 0)
    assert tuple(int(v) for v in image[margin + band + 4, margin + band + 4]) == (200, 220, 220)  # flat, BGR


def test_png_draws_a_face_down_counter_as_a_crossed_back(tmp_path: Path) -> None:
    import cv2

    from referee.picture import write_png

    image = cv2.imread(str(write_png(tiny(), tmp_path / "tiny.png", 64)))
    assert image is not None
    left = int(64 * 0.7) + int(64 * 0.45)
    size = int(64 * 0.74)
    ox = left + 64 + (64 - size) // 2  # the hidden counter of cell (1, 0)
    quarter = ox + size // 4
    assert tuple(int(v) for v in image[left + (64 - size) // 2 + size // 4, quarter]) == (255, 255, 255)  # diagonal
    assert tuple(int(v) for v in image[left + (64 - size) // 2 + size // 4, ox + size // 2]) == (200, 0, 0)  # back


def test_hex_board_with_odd_columns_lowered() -> None:
    lines = text_of(tiny("hex", down="odd")).splitlines()
    heads = [line for line in lines if line.strip().startswith(("1", "2"))]
    assert heads[0].index("2") < heads[1].index("1") + 8 and heads[0].index("2") > heads[1].index("1")
    row_a = next(i for i, line in enumerate(lines) if line.startswith(" a "))
    assert lines[row_a][7:9] == "%%"  # column 2 raised, on the row's line
    assert lines[row_a + 1][3:5] == "__" and lines[row_a + 1][11:13] == "__"  # columns 1 and 3 lower


def test_codes_drawn_on_cells_are_explained_under_the_key() -> None:
    from dataclasses import replace

    text = text_of(replace(tiny(), codes=(("V0", "a city with no garrison"),)))
    assert "V0: a city with no garrison" in text


def test_a_hex_board_wider_than_the_terminal_keeps_its_offsets_in_a_window() -> None:
    # columns 2-3 of the tiny hex map: column 2 (lowered) now starts the window, half a row down
    window = render.board(tiny("hex"), cols=(2, 3))
    buffer = io.StringIO()
    Console(file=buffer, width=200, color_system=None).print(window)
    shown = buffer.getvalue().splitlines()
    row_a = next(i for i, line in enumerate(shown) if line.startswith(" a "))
    assert shown[row_a][7:9] == "__" and shown[row_a + 1][3:5] == "%%"
    assert "columns 2–3 of 3 shown" in buffer.getvalue()
