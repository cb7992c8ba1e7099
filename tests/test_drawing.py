"""Board drawings: one scene for the page (SVG) and the picture (PNG), accented words drawn as
written with the shipped font, and no OpenCV on the way."""

from __future__ import annotations

import math
import unicodedata
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from referee.game import BoardView
from referee.games import find_game
from referee.i18n import language
from referee.picture import view_scene, write_png
from referee.raster import SUPERSAMPLE, font, rasterise
from referee.scene import Label, Scene
from referee.svg import to_svg


def _fold(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def _word_box(label: Label, word: str) -> tuple[int, int, int, int]:
    """Returns the pixel box of ``word`` inside a label as the rasteriser lays it out."""
    face = font(round(label.size * SUPERSAMPLE), label.bold)
    start = label.text.index(word)
    before = face.getlength(label.text[:start]) / SUPERSAMPLE
    width = face.getlength(word) / SUPERSAMPLE
    total = face.getlength(label.text) / SUPERSAMPLE
    left = label.at[0] - {"start": 0.0, "middle": total / 2, "end": total}[label.anchor] + before
    return (int(left) - 1, int(label.at[1] - label.size * 0.75), int(left + width) + 2,
            int(label.at[1] + label.size * 0.6))


def _closer_to_accented(picture: Image.Image, scene: Scene, word: str) -> None:
    """Crops the word from the picture and compares it with the font's own rendering of the label
    with the word as written and with its accents dropped (same place, same background)."""
    label = next(i for i in scene.items if isinstance(i, Label) and word in i.text)
    box = _word_box(label, word)
    crop = np.asarray(picture.crop(box).convert("L"), float)
    background = picture.getpixel((box[0], box[1]))
    assert isinstance(background, tuple)

    def alone(text: str) -> np.ndarray:
        solo = Scene(scene.width, scene.height, (Label(label.at, text, label.size, label.colour, label.anchor,
                                                       label.bold),), background=background[:3])
        return np.asarray(rasterise(solo).crop(box).convert("L"), float)

    written = np.abs(crop - alone(label.text)).mean()
    folded = np.abs(crop - alone(label.text.replace(word, _fold(word)))).mean()
    assert _fold(word) != word
    assert written < folded, f"{word!r}: {written:.2f} against {folded:.2f} without accents"


def _iliad_with_the_gods() -> BoardView:
    engine = find_game("iliad")
    state = engine.sample_start()
    calendar = state.tables.calendar
    day, hour = next(when for when in calendar.advantage if calendar.duel(*when) is None)
    phase = type(state.phase)("move")
    view = engine.board_view(state.model_copy(update={"day": day, "hour": hour, "phase": phase}))
    assert isinstance(view, BoardView)
    return view


@pytest.mark.parametrize(("slug", "lang", "words"), [
    ("cyrus-pyxis", "fr", ("Athéna", "Messène", "forêt", "Ont bougé")),
    ("iliad", "it", ("gli dèi",)),
    ("zargo", "fr", ("Ailés",)),
])
def test_accented_words_are_drawn_as_written(tmp_path: Path, slug: str, lang: str, words: tuple[str, ...]) -> None:
    engine = find_game(slug)
    with language(lang):
        if slug == "iliad":
            view = _iliad_with_the_gods()
        else:
            state = engine.sample_start()
            if slug == "cyrus-pyxis":
                state, _record = engine.play(state, engine.parse(state, "Pergame L7"), None)  # type: ignore[arg-type]
            view = engine.board_view(state)
        scene = view_scene(view)
        path = write_png(view, tmp_path / f"{slug}.png")
    picture = Image.open(path).convert("RGB")
    assert picture.size == (math.ceil(scene.width), math.ceil(scene.height))
    for word in words:
        _closer_to_accented(picture, scene, word)


def test_svg_and_png_are_one_scene_and_cells_are_tap_targets() -> None:
    engine = find_game("cyrus-pyxis")
    view = engine.board_view(engine.sample_start())
    assert isinstance(view, BoardView)
    scene = view_scene(view)
    svg = to_svg(scene)
    labels = [i for i in scene.items if isinstance(i, Label)]
    assert svg.count("<text") == len(labels)
    assert 'data-cell="F1"' in svg and "style=" not in svg  # presentation attributes only (CSP)
    assert ">Pyx</text>" not in svg and "&gt;Pyx</text>" in svg  # the side's mark, escaped
    assert rasterise(scene).size == (math.ceil(scene.width), math.ceil(scene.height))


def test_the_300_map_is_drawn_with_its_cities_roads_bridge_and_sea_lanes(tmp_path: Path) -> None:
    engine = find_game("300-solo")
    view = engine.board_view(engine.sample_start("solo-setup.yaml"))
    svg = to_svg(view_scene(view))
    for city in ("Athenai", "Sparta", "Abydos", "Pella", "Naxos", "Aegean Sea"):
        assert f">{city}</text>" in svg
    assert svg.count("stroke-dasharray") >= 8  # one lane per port
    assert write_png(view, tmp_path / "300.png").stat().st_size > 20_000


def test_a_picture_larger_than_the_cap_is_refused_before_painting() -> None:
    from referee.errors import RefereeError

    with pytest.raises(RefereeError, match="pixels"):
        rasterise(Scene(10_000, 10_000, ()))
