"""Tables: data root, overrides (partial), one-line errors, export, display with provenance."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.errors import TableError
from referee.games import find_game
from referee.tables import (
    data_root,
    describe_table_set,
    export_table_set,
    load_table_set,
    packaged_table_set,
)


def test_data_root_finds_tables_and_samples() -> None:
    assert (data_root("tables") / "cyrus-pyxis" / "rules.yaml").is_file()
    assert (data_root("samples") / "cyrus-pyxis" / "setup.yaml").is_file()


def test_every_table_file_opens_with_a_source_line() -> None:
    for folder in data_root("tables").iterdir():
        for path in folder.rglob("*"):
            if path.suffix in (".yaml", ".csv"):
                head = path.read_text(encoding="utf-8").lstrip().splitlines()[0]
                assert head.lower().startswith("# source:"), path


def test_partial_override_replaces_only_its_files(tmp_path: Path) -> None:
    base = packaged_table_set("cyrus-pyxis")
    game_dir = tmp_path / "cyrus-pyxis"
    game_dir.mkdir()
    changed = base.text("combat_values.csv").replace("cavalry,any,4,2,1,provisional", "cavalry,any,6,2,1,rulebook")
    (game_dir / "combat_values.csv").write_text(changed, encoding="utf-8")
    merged = load_table_set("cyrus-pyxis", tmp_path)
    assert merged.overridden() == ["combat_values.csv"]
    assert merged.text("combat_values.csv") == changed
    assert merged.text("movement.csv") == base.text("movement.csv")
    assert merged.digest != base.digest
    tables = find_game("cyrus-pyxis").new_state(merged).tables  # type: ignore[attr-defined]
    assert tables.values[("cavalry", "any")].plain == 6


def test_env_override_is_used_when_no_option(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cyrus-pyxis").mkdir()
    text = packaged_table_set("cyrus-pyxis").text("movement.csv").replace("king,5,rulebook", "king,4,rulebook")
    (tmp_path / "cyrus-pyxis" / "movement.csv").write_text(text, encoding="utf-8")
    monkeypatch.setenv("REFEREE_TABLES", str(tmp_path))
    assert load_table_set("cyrus-pyxis").overridden() == ["movement.csv"]


def test_override_folder_problems_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(TableError, match="does not exist"):
        load_table_set("cyrus-pyxis", tmp_path / "missing")
    with pytest.raises(TableError, match="no cyrus-pyxis/ folder"):
        load_table_set("cyrus-pyxis", tmp_path)
    (tmp_path / "cyrus-pyxis").mkdir()
    (tmp_path / "cyrus-pyxis" / "extra.csv").write_text("a\n1\n")
    with pytest.raises(TableError, match="not a table of cyrus-pyxis"):
        load_table_set("cyrus-pyxis", tmp_path)


def _broken(tmp_path: Path, name: str, old: str, new: str) -> TableError:
    (tmp_path / "cyrus-pyxis").mkdir(exist_ok=True)
    text = packaged_table_set("cyrus-pyxis").text(name)
    assert old in text
    (tmp_path / "cyrus-pyxis" / name).write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(TableError) as info:
        find_game("cyrus-pyxis").new_state(load_table_set("cyrus-pyxis", tmp_path))
    return info.value


def _line_of(name: str, text: str) -> int:
    """The line of a packaged table file holding ``text``, as an editor numbers it."""
    lines = packaged_table_set("cyrus-pyxis").text(name).splitlines()
    return next(n for n, line in enumerate(lines, start=1) if text in line)


def test_malformed_csv_value_names_file_line_and_field(tmp_path: Path) -> None:
    err = _broken(tmp_path, "combat_values.csv", "cavalry,any,4,2,1", "cavalry,any,four,2,1")
    assert err.file.endswith("combat_values.csv")
    # the line an editor shows (comments and header counted), not the data row's rank
    assert err.field.startswith(f"line {_line_of('combat_values.csv', 'cavalry,any,4,2,1')} (cavalry)")
    assert "plain" in err.field
    assert "\n" not in str(err)


def test_csv_cross_checks_name_the_editor_line(tmp_path: Path) -> None:
    # a band whose bounds are crossed: the error names the line of combat_results.csv to fix
    rows = packaged_table_set("cyrus-pyxis").text("combat_results.csv").splitlines()
    band = next(line for line in rows if line.startswith("1,2,"))
    err = _broken(tmp_path, "combat_results.csv", band, "2,1," + band.split(",", 2)[2])
    assert err.field == f"line {_line_of('combat_results.csv', band)}"


def test_result_table_gap_is_refused(tmp_path: Path) -> None:
    err = _broken(tmp_path, "combat_results.csv", "0,0,attacker-retreats", "1,1,attacker-retreats")
    assert "difference" in err.field or "difference" in err.problem


def test_malformed_yaml_names_the_line(tmp_path: Path) -> None:
    err = _broken(tmp_path, "legions.yaml", "kinds:", "kinds: [")
    assert err.file.endswith("legions.yaml") and "YAML" in err.problem


def test_unknown_field_in_yaml_is_refused(tmp_path: Path) -> None:
    err = _broken(tmp_path, "terrain.yaml", "    label: Forest", "    label: Forest\n    speed: 3")
    assert "speed" in err.field


def test_export_writes_every_file(tmp_path: Path) -> None:
    written = export_table_set(packaged_table_set("cyrus-pyxis"), tmp_path)
    assert {p.name for p in written} == set(packaged_table_set("cyrus-pyxis").files)
    assert load_table_set("cyrus-pyxis", tmp_path).digest == packaged_table_set("cyrus-pyxis").digest


def test_describe_shows_provenance() -> None:
    views = {v.name: v for v in describe_table_set(packaged_table_set("cyrus-pyxis"))}
    values = views["combat_values.csv"]
    assert "provenance" in values.columns
    assert any(row[-1] == "provisional" for row in values.rows)
    assert any("movement_cost" in row[0] and row[2] == "provisional" for row in views["terrain.yaml"].rows)
