"""At the table (issue 14): disclosures said once, CLI conventions, set-up help, the slips."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.cli.conftest import SETUP, Referee

DECISIVE = ("combat_results.csv", "combat_values.csv")
# turns 1 and 2 of the shipped demo (two combats in turn 2, one with an archer's support)
OPENING = ("Pergame L7", "Telestas L4", "Demis K5", "Samos G5", "done", "Tyr L8", "Erryx K8", "Amrith L10",
           "Roustem J8", "done", "Pergame L8", "Demis K8", "Telestas L6", "done", "support Telestas Pergame",
           "resolve")


def _turn(status: list[str]) -> int | None:
    """Returns the turn number a status says, or None once the game is over."""
    found = re.match(r"Turn (\d+)", status[0])
    return int(found.group(1)) if found else None


def _check_marker(text: str, provisional: list[str]) -> None:
    """The text shows at most one ⚠ line; it names every stand-in from a deciding table and every
    reading by id, and counts the rest, so together the line gives the complete list --json gave."""
    marks = [line for line in text.splitlines() if "⚠" in line]
    assert len(marks) <= 1, text
    if not provisional:
        assert not marks, text
        return
    assert len(marks) == 1, text
    named = [p for p in provisional if p.startswith(DECISIVE)]
    line = " ".join(text.split("⚠", 1)[1].split())  # the line may wrap
    for item in named:
        assert " ".join(item.split()) in line
    readings = [p.split(":", 1)[0].removeprefix("interpretation ") for p in provisional
                if p.startswith("interpretation ") and p not in named]
    listed = re.search(r"readings? ([\w, -]+?)(?:;|, see)", line)
    assert (listed.group(1).split(", ") if listed else []) == readings, (line, provisional)
    counted = re.search(r"(\d+) (?:more|stand-ins?)", line)
    rest = len(provisional) - len(named) - len(readings)
    assert (int(counted.group(1)) if counted else 0) == rest, (line, provisional)


def test_new_counts_every_stand_in_and_tables_lists_them(referee: Referee) -> None:
    result = referee("new", "cyrus-pyxis", "--setup", str(SETUP))
    assert result.code == 0, result.err
    assert "13 readings and 31 stand-ins apply — referee tables cyrus-pyxis" in result.out
    listing = referee("tables", "cyrus-pyxis")
    for expected in ("combat_results.csv: 5 rows (provisional)", "terrain.yaml:",
                     "interpretation combat-terrain:", "interpretation king-exit:"):
        assert expected in listing.out
    assert "interpretation same-line-order:" in listing.out
    assert "combat_values.csv: guard, archer, cavalry, phalanx (provisional)" in listing.out


def test_five_turn_game_one_marker_per_ruling_complete_list_in_json(referee: Referee) -> None:
    """Two files played in step, one in text and one in --json: every text ruling carries at most
    one ⚠ line, consistent with the complete list its --json twin gives."""
    for name in ("text.referee", "json.referee"):
        assert referee("new", "cyrus-pyxis", "--setup", str(SETUP), "--file", name).code == 0
    combats = 0
    step = 0
    turn: int | None = 1
    while turn is not None and turn <= 5:
        args = ["do", OPENING[step]] if step < len(OPENING) else ["bot", "--seed", f"table-{step}"]
        step += 1
        text = referee(*args, "--file", "text.referee")
        data = referee(*args, "--file", "json.referee", "--json")
        assert text.code == data.code == 0, (args, text.err, data.err)
        record = json.loads(data.out)["record"]
        turn = _turn(json.loads(data.out)["status"])
        _check_marker(text.out, record["provisional"])
        if any(e["code"] == "combat-result" for e in record["events"]):
            combats += 1
            assert any(p.startswith("combat_results.csv:") for p in record["provisional"])
            assert "combat_results.csv:" in text.out  # the deciding stand-in is named, not counted
        assert step < 400, "the game does not progress"
    assert combats >= 1
    assert turn in (6, None)
    assert referee("log", "--file", "text.referee").out.count("\n") > 60
    why = referee("why", "--file", "text.referee", "--json")
    assert why.code == 0
    explained = referee("why", "--file", "text.referee")
    for item in json.loads(why.out)["provisional"]:
        assert item.split(" ", 1)[0] in explained.out


def test_explain_lists_every_stand_in(game: Path, referee: Referee) -> None:
    result = referee("do", "Pergame L4", "--explain")
    assert result.code == 0
    assert "relies on terrain.yaml" in result.out
    plain = referee("judge", "Pyxis F3")  # a judge is not journaled: its marker sends to --explain
    assert "1 stand-in, see --explain" in plain.out
    assert "relies on" not in plain.out
    full = referee("why", "--all")
    assert "interpretation combat-terrain:" in full.out


# ---- conventions --------------------------------------------------------------------------------

def test_version_help_and_shell_completion_in_a_real_process() -> None:
    import shlex
    import subprocess
    import sys

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True, text=True, timeout=60)

    assert run("--version").stdout.startswith("referee ")
    assert "Commands" in run("-h").stdout
    # typer finds the shell among the parent processes: run under bash whatever started pytest
    # ("; true" keeps bash from replacing itself with the command)
    script = subprocess.run(["bash", "-c", f"{shlex.quote(sys.executable)} -m referee --show-completion; true"],
                            capture_output=True, text=True, timeout=60)
    assert script.returncode == 0 and "_REFEREE_COMPLETE" in script.stdout and "complete " in script.stdout


def test_play_takes_file_as_an_option_or_an_argument(game: Path, referee: Referee) -> None:
    by_option = referee("play", "--file", str(game), input="status\nquit\n")
    assert by_option.code == 0 and "Turn 1: Greek to play" in by_option.out
    by_argument = referee("play", str(game), input="quit\n")
    assert by_argument.code == 0
    both = referee("play", str(game), "--file", "other.referee", input="quit\n")
    assert both.code == 2


def test_do_json_refused_prints_the_verdict_and_changes_nothing(game: Path, referee: Referee) -> None:
    before = game.read_bytes()
    result = referee("do", "Centaure B6", "--json")
    assert result.code == 1
    data = json.loads(result.out)
    assert data["verdict"]["legal"] is False
    assert [v["code"] for v in data["verdict"]["violations"]] == ["too-far"]
    assert game.read_bytes() == before
    typo = referee("do", "Centor B6", "--json")
    assert typo.code == 1 and "Centaure" in json.loads(typo.out)["error"]  # did you mean, as JSON
    assert game.read_bytes() == before


def test_show_png_is_quiet_and_the_extension_picks_the_format(game: Path, referee: Referee) -> None:
    result = referee("show", "--png", "board.png")
    assert result.code == 0
    assert result.out.strip() == "picture written to board.png"  # no text board
    assert (referee.cwd / "board.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert referee("show", "--png", "board.jpg").code == 0
    assert (referee.cwd / "board.jpg").read_bytes()[:2] == b"\xff\xd8"  # JPEG, as the name says
    refused = referee("show", "--png", "board.gif")
    assert refused.code == 1 and ".png, .jpg or .jpeg" in refused.err
    assert not (referee.cwd / "board.gif").exists()


def test_log_last_and_structured_json(game: Path, referee: Referee) -> None:
    assert referee("do", "Pergame L4").code == 0
    entries = json.loads(referee("log", "--last", "2", "--json").out)
    assert len(entries) == 2
    assert entries[-1]["text"] == "Pergame L4"
    assert entries[-1]["action"] == {"action_type": "Move", "legion": "Pergame", "cell": "L4"}  # an object, typed
    text = referee("log", "--last", "1").out
    assert "Pergame L4" in text and "Parthes" not in text
    assert referee("log", "--last", "0").code == 2


def test_play_shell_completes_verbs_units_and_cells(game: Path) -> None:
    from referee.cli.play import complete, completion_words
    from referee.games import find_game
    from referee.journal import GameFile

    with GameFile.open(game, find_game) as gf:
        words = completion_words(gf.game, gf.state())
    assert complete(words, "athe") == ["Athéna"]  # accents and case ignored
    assert complete(words, "und") == ["undo"]
    assert complete(words, "L1") == ["L1", "L10", "L11", "L12"]
    assert "done" in complete(words, "do") and "support" in complete(words, "sup")


# ---- set-up help --------------------------------------------------------------------------------

def test_legal_before_deployment_says_where_the_legion_may_go(referee: Referee) -> None:
    assert referee("new", "cyrus-pyxis").code == 0
    early = referee("legal", "Pyxis")
    assert early.code == 0
    assert "not yet deployed" in early.out and "eliminated" not in early.out
    assert "once the set-up reaches its legions" in early.out and "[wrong-phase]" in early.out
    data = json.loads(referee("legal", "Pyxis", "--json").out)
    assert data["deploy"] is True
    assert len(data["cells"]) == 24 and {c[1:] for c in data["cells"]} == {"1", "2"}  # II.3: lines 1-2
    persian = json.loads(referee("legal", "Cyrus", "--json").out)
    assert {c[1:] for c in persian["cells"]} == {"11", "12"}


def test_status_lists_the_legions_still_to_place(referee: Referee, tmp_path: Path) -> None:
    import yaml

    setup = yaml.safe_load(SETUP.read_text(encoding="utf-8"))
    greek = dict(list(setup["greek"].items())[:18])  # two Greek legions not yet placed
    partial = tmp_path / "partial.yaml"
    partial.write_text(yaml.safe_dump({**setup, "greek": greek, "persian": {}}, allow_unicode=True), encoding="utf-8")
    assert referee("new", "cyrus-pyxis", "--setup", str(partial)).code == 0
    status = json.loads(referee("status", "--json").out)["status"]
    missing = [n for n in setup["greek"] if n not in greek]
    assert any(line.startswith("To place (Greek): ") and all(n in line for n in missing) for line in status)
    assert any(line.startswith("To place (Persian): Cyrus") for line in status)


def test_export_setup_writes_a_file_new_setup_accepts(game: Path, referee: Referee) -> None:
    before = json.loads(referee("show", "--json").out)["position"]
    assert referee("do", "Pergame L4").code == 0  # a later move is not part of the set-up
    result = referee("export", "--setup", "mine.yaml")
    assert result.code == 0, result.err
    assert referee("new", "cyrus-pyxis", "--setup", "mine.yaml", "--file", "again.referee").code == 0
    again = json.loads(referee("show", "--json", "--file", "again.referee").out)["position"]
    assert again == before
    refused = referee("export", "out.json", "--setup", "x.yaml")
    assert refused.code == 2 and not (referee.cwd / "x.yaml").exists()


# ---- slips --------------------------------------------------------------------------------------

def test_adjust_is_logged_under_the_legions_side(game: Path, referee: Referee) -> None:
    assert referee("do", "done").code == 0  # the Persian is to play
    assert referee("adjust", "Athéna C5", "--reason", "slip").code == 0
    assert referee("adjust", "terrain C6 forest", "--reason", "slip").code == 0
    entries = json.loads(referee("log", "--last", "2", "--json").out)
    assert [e["side"] for e in entries] == ["greek", None]


def test_redo_prints_the_status(game: Path, referee: Referee) -> None:
    assert referee("do", "Pergame L4").code == 0
    assert referee("undo").code == 0
    result = referee("redo")
    assert result.code == 0 and "Turn 1: Greek to play" in result.out


def test_moved_line_names_each_legions_type(game: Path, referee: Referee) -> None:
    assert referee("do", "Pergame L4").code == 0
    status = json.loads(referee("status", "--json").out)["status"]
    assert "Moved: Pergame (cavalry); infantry 0 of 5" in status


def test_combat_status_says_type_resolve(referee: Referee) -> None:
    assert referee("new", "cyrus-pyxis", "--setup", str(SETUP)).code == 0
    for action in OPENING[:-2]:
        assert referee("do", action).code == 0, action
    assert referee("do", "done").code == 0  # no support this time
    status = json.loads(referee("status", "--json").out)["status"]
    assert "The combats wait to be resolved: type resolve" in status


def test_one_amphora_is_singular() -> None:
    from referee.dice import NoDice
    from referee.games import find_game
    from referee.tables import packaged_table_set

    engine = find_game("300-solo")
    state = engine.from_position(packaged_table_set("300-solo"), {
        "game": "300-solo", "phase": "persian-supply", "campaign": 3, "score": 0,
        "hands": {"persia": 2, "greece": 2}, "cities": {
            "Abydos": {"persian_armies": 3}, "Ephesos": {"persian_armies": 3}, "Korinthos": {"persian_armies": 1},
            "Athenai": {"greek_armies": 1}}}, "test")
    _, record = engine.play(state, engine.parse(state, "persia supply"), NoDice())
    said = " ".join(e.text() for e in record.events)
    assert re.search(r"1 army outside Abydos and Ephesos, 1 amphora\b", said), said


# ---- boards -------------------------------------------------------------------------------------

def test_kings_are_marked_and_the_picture_names_every_counter(game: Path, referee: Referee) -> None:
    from dataclasses import replace

    from referee.games import find_game
    from referee.journal import GameFile
    from referee.picture import _key_entries, draw_board

    text = referee("show").out
    assert ">Pyx♔" in text and "<Cyr♔" in text and "♔ king" in text  # no colour needed
    assert "West: Persian king exits" in text and "East: Greek king exits" in text
    with GameFile.open(game, find_game) as gf:
        view = gf.game.board_view(gf.state())
    kings = {c.name for c in view.cells if "king" in c.marks}
    assert kings == {"F1", "G12"}
    keyed = [text for kind, text, _, _ in _key_entries(view)]
    assert "Pyx Pyxis (king)" in keyed and "Amr Amrith (archer)" in keyed and "king" in keyed
    assert draw_board(view).shape[0] > draw_board(replace(view, legend=())).shape[0]


def test_iliad_picture_key_names_every_terrain(referee: Referee) -> None:
    from referee.games import find_game
    from referee.journal import GameFile
    from referee.picture import _key_entries

    assert referee("new", "iliad", "--file", "il.referee").code == 0
    with GameFile.open(referee.cwd / "il.referee", find_game) as gf:
        view = gf.game.board_view(gf.state())
    fills = {text for kind, text, _, _ in _key_entries(view) if kind == "fill"}
    assert {style.label or name for name, style in view.terrain.items()} == fills
    assert {"sea", "river", "mountain", "wall"} <= fills


# ---- start-up -----------------------------------------------------------------------------------

def test_a_command_runs_with_only_its_group_built() -> None:
    from referee.cli import app, app_for

    small = app_for(["--lang", "fr", "judge", "--position", "x.yaml", "Pyxis C6"])
    assert small is not app
    groups = [g.typer_instance for g in small.registered_groups]
    assert len(groups) == 1 and any(c.callback and c.callback.__name__ == "judge"
                                    for c in groups[0].registered_commands)  # type: ignore[union-attr]
    assert app_for(["persia", "operate"]).registered_groups[0].name == "persia"
    for whole in (["--version"], ["-h"], ["no-such-command"], []):
        assert app_for(whole) is app


def test_why_works_in_the_shell(game: Path, referee: Referee) -> None:
    result = referee("play", input="Pergame L4\nwhy\nquit\n")
    assert result.code == 0
    assert "1 stand-in, see 'referee why'" in result.out
    assert "relies on:" in result.out and "terrain.yaml" in result.out
