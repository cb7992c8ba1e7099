"""A first screen that fits (issue 35): ``referee new GAME`` in at most 25 lines of at most 100
columns, in every language, for every game; the complete list of readings and stand-ins stays
in ``referee tables``, ``referee why --all`` and ``new --json``."""

from __future__ import annotations

import json
import re

import pytest

from referee.games import GAME_PACKAGES
from referee.tables import data_root
from tests.cli.conftest import Referee

MAX_LINES = 25
MAX_COLUMNS = 100


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
@pytest.mark.parametrize("game", sorted(GAME_PACKAGES))
def test_new_fits_a_first_screen(referee: Referee, game: str, lang: str) -> None:
    result = referee("--lang", lang, "new", game)
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert len(lines) <= MAX_LINES, result.out
    assert max(len(line) for line in lines) <= MAX_COLUMNS, result.out
    assert "game.referee" in result.out
    assert f"referee tables {game}" in result.out  # the one line counting readings and stand-ins
    status = json.loads(referee("--lang", lang, "status", "--json").out)
    first = status[0] if isinstance(status, list) else status["status"][0]
    assert " ".join(first.split()) in " ".join(result.out.split())  # whose turn, as status says it


def test_new_counts_what_tables_and_json_list_in_full(referee: Referee) -> None:
    shown = referee("new", "cyrus-pyxis")
    data = json.loads(referee("new", "cyrus-pyxis", "--force", "--json").out)
    readings = sum(1 for d in data["disclosures"] if d.startswith("interpretation "))
    assert f"{readings} readings and " in shown.out
    listing = referee("tables", "cyrus-pyxis")
    full = referee("why", "--all")
    for item in data["disclosures"]:
        head = item.split(":", 1)[0]
        assert head in listing.out and head in full.out


@pytest.mark.parametrize(("game", "wide"), [("iliad", 32), ("zargo", 36)])
def test_a_wide_board_shows_the_part_in_play_in_100_columns(referee: Referee, game: str, wide: int) -> None:
    setup = data_root("samples") / game / "setup.yaml"
    assert referee("new", game, "--setup", str(setup)).code == 0
    shown = referee("show")
    assert shown.code == 0, shown.err
    lines = shown.out.splitlines()
    assert max(len(line) for line in lines) <= MAX_COLUMNS, shown.out
    note = " ".join(shown.out.split())
    found = re.search(r"columns (\d+)–(\d+) of (\d+) shown", note)
    assert found is not None and int(found.group(3)) == wide, note
    first, last = int(found.group(1)), int(found.group(2))
    assert 1 <= first < last <= wide and last - first + 1 < wide
    assert "referee show --cols" in note
    # the columns asked for, whatever the terminal
    chosen = referee("show", "--cols", f"1-{wide}")
    assert "shown" not in " ".join(chosen.out.split()).split("terrain:")[0]
    assert max(len(line) for line in chosen.out.splitlines()) > MAX_COLUMNS
    assert referee("show", "--cols", "x").code == 2


def test_a_board_that_fits_is_shown_whole(referee: Referee) -> None:
    assert referee("new", "cyrus-pyxis", "--setup", str(data_root("samples") / "cyrus-pyxis" / "setup.yaml")).code == 0
    shown = referee("show")
    assert "shown;" not in shown.out and " 12 " in shown.out.splitlines()[1]


def test_new_says_which_set_up_file_it_played(referee: Referee) -> None:
    shipped = referee("new", "cyrus-pyxis", "--setup", "setup.yaml")  # no such file here: the shipped sample
    assert shipped.code == 0
    flat = " ".join(shipped.out.split())
    assert "Set-up played from the shipped sample" in flat and "samples/cyrus-pyxis/setup.yaml" in flat
    mine = referee.cwd / "mine.yaml"
    mine.write_text((data_root("samples") / "cyrus-pyxis" / "setup.yaml").read_text(encoding="utf-8"),
                    encoding="utf-8")
    own = referee("new", "cyrus-pyxis", "--setup", "mine.yaml", "--force")
    assert "Set-up played from mine.yaml" in own.out
    data = json.loads(referee("new", "cyrus-pyxis", "--setup", "mine.yaml", "--force", "--json").out)
    assert data["setup"] == "mine.yaml"
    before = (referee.cwd / "game.referee").read_bytes()
    missing = referee("new", "cyrus-pyxis", "--setup", "nowhere/mine.yaml", "--force")
    assert missing.code == 1 and "no such set-up file" in missing.err
    assert (referee.cwd / "game.referee").read_bytes() == before
