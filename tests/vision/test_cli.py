"""``referee capture`` and ``referee vision markers|calibrate`` as a user types them."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import pytest
import yaml

from referee.cli import app
from referee.cli.common import reset_consoles
from referee.games.cyrus_pyxis.state import CyrusState
from tests.runner import CliRunner

from .helpers import ENGINE, SETUP, play, scene_of, setup_state, shoot

TURN = ("Pyxis F4", "Samos G5", "Praxitèle A6", "done")


@dataclass
class Result:
    code: int
    out: str
    err: str


def referee(*args: str) -> Result:
    reset_consoles()
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    reset_consoles()
    return Result(result.exit_code, result.stdout, result.stderr)


def write_position(path: Path, state: CyrusState) -> Path:
    data = ENGINE.to_position(state).model_dump(mode="json")
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("photos")
    before = setup_state()
    after = play(before, *TURN)
    cheat = play(before, "Pyxis F4", "done")
    cheat = cheat.model_copy(
        update={"where": {**cheat.where, "Samos": before.tables.grid.parse("G8")}}
    )
    # the size is not what these tests are about (the CLI's workflow on photos read right): the
    # pipeline tests' 1280 x 960 reads every cell of these as well as 2400 x 1800 did, in less time
    big = {"size": (1280, 960), "hands": 0, "fill": 0.9}
    out = {
        "before": shoot(tmp, scene_of(before), 71, "moderate", name="before", **big)[0],
        "after": shoot(tmp, scene_of(after), 72, "moderate", name="after", **big)[0],
        "cheat": shoot(tmp, scene_of(cheat), 73, "moderate", name="cheat", **big)[0],
        "blurred": shoot(
            tmp, scene_of(after), 74, "heavy-blur", (1280, 960), name="blurred", hands=0
        )[0],
        "before.yaml": write_position(tmp / "before.yaml", before),
        # a hand over C12, a Persian legion's cell no Greek turn from the set-up can change
        "hand": shoot(tmp, scene_of(after), 72, "moderate", name="hand",
                      **{**big, "hands": 1, "hand_at": (11.5, 2.5)})[0],
    }
    return out


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REFEREE_FILE", raising=False)
    monkeypatch.delenv("REFEREE_TABLES", raising=False)
    monkeypatch.setenv("COLUMNS", "100")
    yield tmp_path


@pytest.fixture
def game(here: Path) -> Path:
    assert referee("new", "cyrus-pyxis", "--setup", str(SETUP)).code == 0
    return here / "game.referee"


def test_markers_sheet_is_written(here: Path) -> None:
    result = referee("vision", "markers", "--out", "markers.png")
    assert result.code == 0, result.err
    sheet = cv2.imread(str(here / "markers.png"))
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), cv2.aruco.DetectorParameters()
    )
    _, ids, _ = detector.detectMarkers(cv2.cvtColor(sheet, cv2.COLOR_BGR2GRAY))
    assert sorted(ids.ravel().tolist()) == [0, 1, 2, 3]


def test_markers_sheet_must_be_png(here: Path) -> None:
    result = referee("vision", "markers", "--out", "markers.jpg")
    assert result.code == 1
    assert "PNG" in result.err and len(result.err.strip().splitlines()) == 1


def test_capture_reads_every_cell(here: Path, photos: dict[str, Path]) -> None:
    result = referee("capture", str(photos["before"]), "--game", "cyrus-pyxis", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert len(data["cells"]) == 144 and data["seconds"] > 0
    assert data["cells"]["F1"] == {
        "occupant": "greek",
        "terrain": "plain",
        "confidence": pytest.approx(1, abs=0.1),
    }


def test_capture_explains_every_code_it_draws(here: Path, photos: dict[str, Path]) -> None:
    """The board read from a photo marks a counter by its side (gG, pP): the key says what it means."""
    result = referee("capture", str(photos["before"]), "--game", "cyrus-pyxis")
    assert result.code == 0, result.err
    assert "gG" in result.out and "pP" in result.out
    assert "gG, pP: a counter of that side" in " ".join(result.out.split())


def test_capture_against_a_position_finds_the_moves(here: Path, photos: dict[str, Path]) -> None:
    result = referee(
        "capture", str(photos["after"]), "--position", str(photos["before.yaml"]), "--json"
    )
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["status"] == "explained"
    assert sorted(data["moves"]) == sorted(TURN[:-1])
    assert data["questions"] == []
    assert data["position"]["greek"]["Pyxis"] == "F4" and data["position"]["active"] == "persian"


def test_capture_weighs_what_the_rules_allow_where_a_hand_hides_the_board(
    here: Path, photos: dict[str, Path]
) -> None:
    result = referee("capture", str(photos["hand"]), "--position", str(photos["before.yaml"]), "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["status"] == "explained"
    assert sorted(data["moves"]) == sorted(TURN[:-1])
    assert "C12" in data["from_rules"]  # under the hand: read from what the rules allow
    shown = referee("capture", str(photos["hand"]), "--position", str(photos["before.yaml"]))
    assert shown.code == 0, shown.err
    assert "not from the photo alone" in shown.out and "C12" in shown.out


def test_capture_learn_keeps_the_settled_cells_and_refit_uses_them(here: Path, photos: dict[str, Path]) -> None:
    kept = here / "examples"
    result = referee("capture", str(photos["after"]), "--position", str(photos["before.yaml"]), "--json",
                     "--learn", str(kept))
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["status"] == "explained" and data["learned"]
    example = json.loads(Path(data["learned"]).read_text(encoding="utf-8"))
    assert example["cells"]["F4"][0] == "greek" and example["cells"]["G5"][0] == "greek"  # as the turn settled
    assert len(example["cells"]) == 144 and Path(data["learned"]).with_suffix(".png").exists()
    assert not list(kept.glob("*.part"))
    refit = referee("vision", "refit", "--examples", str(kept), "--out", "table.json", "--json")
    assert refit.code == 0, refit.err
    assert json.loads(refit.out)["examples"] == 1 and (here / "table.json").exists()
    empty = referee("vision", "refit", "--examples", str(here / "nothing"), "--out", "none.json")
    assert empty.code == 1 and "no example" in empty.err and not (here / "none.json").exists()


def test_capture_in_a_game_file_changes_nothing_without_apply(
    game: Path, photos: dict[str, Path]
) -> None:
    before = game.read_bytes()
    result = referee("capture", str(photos["after"]))
    assert result.code == 0, result.err
    assert "Samos G5" in result.out
    assert game.read_bytes() == before


def test_capture_apply_plays_the_turn(game: Path, photos: dict[str, Path]) -> None:
    result = referee("capture", str(photos["after"]), "--apply", "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["applied"] is True
    shown = json.loads(referee("show", "--json").out)
    assert shown["position"]["greek"]["Samos"] == "G5"
    assert shown["position"]["active"] == "persian"


def test_capture_apply_refuses_a_photo_no_legal_turn_explains(
    game: Path, photos: dict[str, Path]
) -> None:
    before = game.read_bytes()
    result = referee("capture", str(photos["cheat"]), "--apply", "--json")
    assert result.code == 1
    data = json.loads(result.out)
    assert data["status"] == "unexplained" and data["applied"] is False
    assert {"G2", "G8"} <= {d["cell"] for d in data["disagreements"]}
    assert "nothing was played" in result.err
    assert game.read_bytes() == before


@pytest.mark.parametrize("kind", ["text", "bomb", "blurred", "missing"])
def test_bad_photos_get_one_line_and_exit_1(game: Path, photos: dict[str, Path], kind: str) -> None:
    path = game.parent / f"{kind}.png"
    if kind == "text":
        path.write_text("not a photo\n")
    elif kind == "bomb":
        path.write_bytes(
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
            + (90_000).to_bytes(4, "big") * 2
            + b"\x08\x02\x00\x00\x00"
        )
    elif kind == "blurred":
        path = photos["blurred"]
    before = game.read_bytes()
    result = referee("capture", str(path), "--apply")
    assert result.code == 1
    lines = [ln for ln in result.err.splitlines() if ln.strip()]
    assert (
        lines[0].startswith("error:") and len([ln for ln in lines if ln.startswith("error:")]) == 1
    )
    assert game.read_bytes() == before


def test_calibrate_then_capture_with_it(here: Path, photos: dict[str, Path]) -> None:
    result = referee(
        "vision",
        "calibrate",
        str(photos["before"]),
        "--position",
        str(photos["before.yaml"]),
        "--out",
        "cal.json",
    )
    assert result.code == 0, result.err
    assert (here / "cal.json").stat().st_size > 1000
    result = referee(
        "capture",
        str(photos["after"]),
        "--position",
        str(photos["before.yaml"]),
        "--calibration",
        "cal.json",
        "--json",
    )
    assert result.code == 0, result.err
    assert json.loads(result.out)["status"] == "explained"


def test_answers_need_cell_equals_legion(here: Path, photos: dict[str, Path]) -> None:
    result = referee(
        "capture", str(photos["after"]), "--position", str(photos["before.yaml"]), "--answer", "D7"
    )
    assert result.code == 2


def test_debug_pictures_are_written(here: Path, photos: dict[str, Path]) -> None:
    result = referee(
        "capture", str(photos["before"]), "--game", "cyrus-pyxis", "--debug", "dbg", "--json"
    )
    assert result.code == 0, result.err
    assert sorted(p.name for p in (here / "dbg").iterdir()) == [
        "01-markers.png",
        "02-warped.png",
        "03-grid.png",
        "04-labels.png",
    ]


def test_the_rest_of_the_cli_never_imports_cv2() -> None:
    code = "import sys, referee.cli; from referee.cli import vision; print('cv2' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "False"
