"""``referee bot`` plays Zargo through the game file as players would (PRÉPARATION DU JEU, LA
CONQUÊTE D'UNE VILLE): it sets up in the rulebook's order, seals each garrison with ``seal`` (the
file keeps the secret), reveals it with ``reveal`` when the city is attacked, and with ``--moves``
or ``--until-end`` plays many choices in one process. The full four-people game to month 25 runs
behind ``-m playouts``; the default suite plays its set-up and first month."""

from __future__ import annotations

import json
import re

import pytest

from referee.games import find_game
from referee.journal import GameFile
from referee.sealed import canonical
from tests.cli.conftest import Referee


def _play(referee: Referee, *args: str) -> dict[str, object]:
    result = referee("bot", *args, "--json")
    assert result.code == 0, result.err
    found: dict[str, object] = json.loads(result.out)
    return found


def test_preparation_the_bot_seals_every_garrison_through_the_game_file(referee: Referee) -> None:
    assert referee("new", "zargo", "--players", "4").code == 0
    done = _play(referee, "--moves", "150", "--seed", "3")
    played = [str(p["action"]) for p in done["played"]]  # type: ignore[union-attr]
    assert len(played) == 150 and "start" in played
    seals = [a for a in played[: played.index("start")] if a.startswith("seal ")]
    assert len(seals) == 16  # four cities for each of four peoples, sealed before their face-up counters
    first_face_up = next(i for i, a in enumerate(played) if re.fullmatch(r"[A-Z][A-Za-z]{1,2} \d{4}", a))
    assert played.index(seals[0]) < first_face_up  # the rulebook's order: garrisons before the rest
    with GameFile.open(referee.cwd / "game.referee", find_game) as gf:
        sealed = gf.sealed_now()  # the dice are the file's own: later turns may show and seal again
        assert len(sealed) >= 16
        kept = {s.public.digest: canonical(s.secret).decode() for c, _ in sealed for s in gf.secrets(c.owner)}
        assert set(kept) == {c.digest for c, _ in sealed}  # the file keeps every secret
    shown = {kept[c.digest] for c, was_shown in sealed if was_shown}
    hidden = {kept[c.digest] for c, was_shown in sealed if not was_shown} - shown - {"[]"}
    assert hidden
    shared = (referee("show").out + referee("log").out + referee("export").out).replace(" ", "")
    assert not any(text in shared for text in hidden)  # nobody else sees a garrison still face down


def test_bot_stops_when_the_game_waits_for_a_side_it_does_not_play(referee: Referee) -> None:
    from referee.tables import data_root

    setup = data_root("samples") / "300-solo" / "solo-setup.yaml"
    assert referee("new", "300-solo", "--setup", str(setup)).code == 0
    done = _play(referee, "--until-end")  # PERS.IA's preparation, then the Greeks are to act
    assert done["played"] and "greece is to act" in str(done["stopped"])


@pytest.mark.playouts
def test_calendrier_a_four_people_game_from_new_to_month_25_with_the_bot(referee: Referee) -> None:
    assert referee("new", "zargo", "--players", "4").code == 0
    done = _play(referee, "--until-end", "--seed", "11")
    played = [str(p["action"]) for p in done["played"]]  # type: ignore[union-attr]
    assert "the game is over" in str(done["stopped"]) and str(done["status"]).count("game over")
    assert sum(a.startswith("seal ") for a in played) >= 16
    for i, p in enumerate(done["played"][:-1]):  # type: ignore[index]
        if any(e["code"] == "reveal-awaited" for e in p["record"]["events"]):
            assert played[i + 1].startswith("reveal "), played[i + 1]  # shown through the file when attacked
    with GameFile.open(referee.cwd / "game.referee", find_game) as gf:
        state = gf.state()
        assert state.month == 25 and gf.game.outcome(state) is not None  # type: ignore[attr-defined]
