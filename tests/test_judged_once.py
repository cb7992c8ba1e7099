"""A verdict a search already reached is kept by the game file, not judged again, but only for
the very state it was judged in (``capture --apply``)."""

from __future__ import annotations

from pathlib import Path

import yaml

from referee.games import find_game
from referee.journal import GameFile
from referee.tables import data_root, load_table_set


def _cyrus(path: Path) -> GameFile:
    engine = find_game("cyrus-pyxis")
    gf = GameFile.create(path, engine, load_table_set("cyrus-pyxis"), games=find_game)
    setup = yaml.safe_load((data_root("samples") / "cyrus-pyxis" / "setup.yaml").read_text(encoding="utf-8"))
    gf.do_all(engine.setup_actions(gf.state(), setup, "setup.yaml"))
    return gf


def test_a_verdict_judged_in_the_same_state_is_kept(tmp_path: Path) -> None:
    with _cyrus(tmp_path / "g.referee") as gf:
        state = gf.state()
        searched = gf.game.judge(state, gf.game.parse(state, "Pergame L7"))
        marked = searched.model_copy(update={"provisional": ("reached-by-the-search",)})
        gf.do_all(["Pergame L7"], start=gf.game.state_hash(state), judged=[(state, marked)])
        assert gf.entries()[-1].verdict == marked


def test_a_verdict_from_another_state_is_judged_again(tmp_path: Path) -> None:
    with _cyrus(tmp_path / "g.referee") as gf:
        state = gf.state()
        searched = gf.game.judge(state, gf.game.parse(state, "Pergame L7"))
        marked = searched.model_copy(update={"provisional": ("reached-by-the-search",)})
        elsewhere = gf.game.new_state(gf.table_set)
        gf.do_all(["Pergame L7"], judged=[(elsewhere, marked)])
        kept = gf.entries()[-1].verdict
        assert kept is not None and kept.legal and "reached-by-the-search" not in kept.provisional
