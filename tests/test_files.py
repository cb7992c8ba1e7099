"""The guarded reader: every refusal is one InputFileError line, nothing hangs or recurses."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from referee.errors import InputFileError
from referee.files import MAX_DEPTH, load_data, parse_json, parse_yaml, read_bytes, read_text
from referee.tables import TableError, csv_rows


def refusal(call, *args, **kwargs) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(InputFileError) as info:
        call(*args, **kwargs)
    text = str(info.value)
    assert "\n" not in text
    return text


def test_regular_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text("a: [1, 2]\n", encoding="utf-8")
    assert load_data(path) == {"a": [1, 2]}


def test_fifo_is_refused_without_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    assert "pipe" in refusal(read_bytes, fifo, what="position file")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_devices_are_refused(device: str) -> None:
    assert "device" in refusal(read_bytes, device)


def test_folder_and_missing_file(tmp_path: Path) -> None:
    assert "folder" in refusal(read_bytes, tmp_path)
    assert "no such" in refusal(read_bytes, tmp_path / "nope.yaml")


def test_bytes_are_counted_not_trusted(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"x" * 2000)
    assert "too large" in refusal(read_bytes, path, limit=1000)
    assert len(read_bytes(path, limit=2000)) == 2000


def test_binary_and_non_utf8_text(tmp_path: Path) -> None:
    path = tmp_path / "bin.yaml"
    path.write_bytes(b"a: \xff\xfe\n")
    assert "UTF-8" in refusal(read_text, path)
    path.write_bytes(b"a: b\x00c\n")
    assert "NUL" in refusal(read_text, path)


def test_deep_yaml_is_refused_before_building() -> None:
    assert "nest" in refusal(parse_yaml, "deep.yaml", "[" * 100_000)
    assert "nested" in refusal(parse_yaml, "deep.yaml", "a:\n" + "".join(" " * i + "b:\n" for i in range(1, 60)))
    assert parse_yaml("ok.yaml", "[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None


def test_yaml_alias_bomb_is_refused() -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(20)
    )
    assert "aliases" in refusal(parse_yaml, "bomb.yaml", bomb)


def test_huge_integers_and_scalars() -> None:
    assert "digits" in refusal(parse_yaml, "n.yaml", "n: " + "9" * 5000)
    assert "longer than" in refusal(parse_yaml, "s.yaml", "s: " + "x" * 200_000)
    assert "too long" in refusal(parse_json, "n.json", '{"n": ' + "9" * 5000 + "}")


def test_yaml_errors_are_one_line() -> None:
    assert "line 2" in refusal(parse_yaml, "c.yaml", "a: 1\nb: \x07\n")
    assert "line" in refusal(parse_yaml, "u.yaml", "a: {b: 1\n")


def test_deep_json_is_refused() -> None:
    assert "nested" in refusal(parse_json, "deep.json", "[" * 100_000 + "]" * 100_000)
    assert parse_json("s.json", '{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}') == {"a": "[" * 41}
    assert "NaN" in refusal(parse_json, "nan.json", "[NaN]")


def test_csv_field_over_the_csv_limit_is_one_line() -> None:
    with pytest.raises(TableError) as info:
        csv_rows("t.csv", "a,b\n" + "x" * 200_000 + ",y\n")
    assert "\n" not in str(info.value) and "t.csv: line 2" in str(info.value)  # the line an editor shows


# ---- a key written twice (issue 29) ---------------------------------------------------------------


@pytest.mark.parametrize(("text", "line", "key"), [
    ('board:\n  "0906": [CHV]\n  "0906": [FCh]\n', "line 3", "'0906'"),  # a hex written twice
    ('board:\n  "0906": [CHV]\n  "0906 ": [FCh]\n', "line 3", "'0906 '"),  # ... once with a trailing space
    ("month: 3\nactive: dragons\nmonth: 4\n", "line 3", "'month'"),
    ("units:\n  CHV: 2\n  SOR: 1\n  CHV: 3\n", "line 4", "'CHV'"),
    ("greek:\n  Athéna: G1\n  Pyxis: F1\n  Athéna: H1\n", "line 4", "'Athéna'"),
    ("terrain: {C5: forest}\nlegions: {}\nterrain: {C5: hill}\n", "line 3", "'terrain'"),
    ("a: 1\n<<: {a: 2}\n", "line 1", "'a'"),  # a merge that would override a key drops one as well
    ("- {x: 1, y: 2, x: 3}\n", "line 1", "'x'"),
])
def test_a_yaml_key_written_twice_is_refused_with_its_line(text: str, line: str, key: str) -> None:
    said = refusal(parse_yaml, "p.yaml", text)
    assert said.startswith(f"p.yaml: {line}: ") and key in said, said


def test_yaml_keys_that_only_look_alike_are_kept() -> None:
    assert parse_yaml("ok.yaml", "a: 1\nA: 2\nb: [1, 1]\nc: {a: 1}\n") == {"a": 1, "A": 2, "b": [1, 1], "c": {"a": 1}}
    assert parse_yaml("ok.yaml", '1: a\n"1": b\n') == {1: "a", "1": "b"}  # a number and a text differ


@pytest.mark.parametrize(("text", "line", "key"), [
    ('{"board": {\n  "0906": ["CHV"],\n  "0906": ["FCh"]\n}}', "line 3", "'0906'"),
    ('{"board": {\n  "0906": ["CHV"],\n  "0906 ": ["FCh"]\n}}', "line 3", "'0906 '"),
    ('{"month": 3,\n "a": {"month": 1},\n "month": 4}', "line 3", "'month'"),
    ('{"k\\u0041": 1,\n "kA": 2}', "line 2", "'kA'"),  # the same key escaped differently
    ('[{"a": 1}, {"b": "\\"", "b": 2}]', "line 1", "'b'"),
])
def test_a_json_key_written_twice_is_refused_with_its_line(text: str, line: str, key: str) -> None:
    said = refusal(parse_json, "p.json", text)
    assert said.startswith(f"p.json: {line}: ") and key in said, said


def test_json_keys_in_different_objects_are_kept() -> None:
    assert parse_json("ok.json", '[{"a": 1}, {"a": 2}, {"b": {"a": 3}, "a": 4}]') == [
        {"a": 1}, {"a": 2}, {"b": {"a": 3}, "a": 4}]


def test_stored_json_with_a_key_written_twice_is_refused() -> None:
    from referee.files import loads_capped

    with pytest.raises(ValueError, match="written twice"):
        loads_capped('{"faces": [1], "faces": [6]}')
    assert loads_capped('{"faces": [1]}') == {"faces": [1]}


def test_a_csv_column_written_twice_is_refused() -> None:
    with pytest.raises(TableError) as info:
        csv_rows("t.csv", "terrain,value,terrain\nplain,1,forest\n")
    assert "'terrain'" in str(info.value) and "header" in str(info.value)


def test_a_position_file_with_a_hex_written_twice_is_refused_by_the_game(tmp_path: Path) -> None:
    """Through the game's own loader: the Zargo umpire sample, its first hex written a second time."""
    from referee.cli.common import load_position
    from referee.tables import data_root

    text = (data_root("samples") / "zargo" / "umpire.yaml").read_text(encoding="utf-8")
    assert '  "0906": [CHV]\n' in text
    for twin in ('  "0906": [FCh]\n', '  "0906 ": [FCh]\n'):
        path = tmp_path / "p.yaml"
        path.write_text(text.replace('  "0906": [CHV]\n', '  "0906": [CHV]\n' + twin), encoding="utf-8")
        with pytest.raises(InputFileError) as info:
            load_position("zargo", path, None)
        assert "'0906" in str(info.value) and "line " in str(info.value)
