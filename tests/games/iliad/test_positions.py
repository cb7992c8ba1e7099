"""Position files (umpire mode) and the samples: schema, defaults from the calendar, round trips."""

from __future__ import annotations

import pytest

from referee.cli.common import read_data_file
from referee.dice import CommittedDice
from referee.errors import PositionError
from referee.games.iliad.bot import RandomPolicy
from referee.games.iliad.roster import Side
from referee.games.iliad.state import Phase
from referee.tables import packaged_table_set

from .helpers import ENGINE, SAMPLES, faces, position, started


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.yaml") if p.name != "setup.yaml"))
def test_sample_positions_load(name: str) -> None:
    path = SAMPLES / name
    state = ENGINE.from_position(packaged_table_set("iliad"), read_data_file(path), str(path))
    assert ENGINE.status(state)


def test_duello_rulebook_example_as_a_sample_position() -> None:
    path = SAMPLES / "duel-example.yaml"
    state = ENGINE.from_position(packaged_table_set("iliad"), read_data_file(path), str(path))
    _, result = ENGINE.resolve_pending(state, faces(3, 5, 6, 2, 5, 3))
    assert [t.result for t in result.results[0].throws] == ["nothing", "wounded", "killed"]  # type: ignore[union-attr]
    assert "Antimaco" not in result.position.counters and result.position.side is Side.TROJAN


def test_positions_take_the_calendar_s_defaults() -> None:
    day1 = position(day=1, hour=5, counters={"Ettore": "S19", "Diomede": "D13"})
    assert not day1.wall and day1.achilles_sulks and day1.phase is Phase.MOVE
    day4 = position(day=4, hour=2, counters={"Ettore": "S19", "Diomede": "D13"})
    assert day4.wall and not day4.achilles_sulks and "Reso" in day4.removed
    duel = position(day=4, hour=3, counters={"Enea": "S20", "Achille": "C12"})
    assert duel.phase is Phase.DUEL
    free = position(day=4, hour=3, counters={"Enea": "S20", "Achille": "C12"}, wounded=["Enea"])
    assert free.phase is Phase.MOVE


def test_position_errors_name_the_field() -> None:
    with pytest.raises(PositionError, match=r"test: attacks\[0\]: 'Diomede J15' is not an attack"):
        position(counters={"Diomede": "J14", "Ettore": "J16"}, attacks=["Diomede J15"])
    with pytest.raises(PositionError, match=r"test: counters.Reso: Reso left with the Thracians"):
        position(day=3, counters={"Reso": "S20"})
    with pytest.raises(PositionError, match=r"test: wounded: Ettore is not on the map"):
        position(counters={"Diomede": "J14"}, wounded=["Ettore"])
    with pytest.raises(PositionError, match=r"lost_today.greek: Diomede is not dead"):
        position(counters={"Diomede": "J14", "Ettore": "S19"}, lost_today={"greek": ["Diomede"]})


def test_positions_round_trip_along_a_game() -> None:
    state = started()
    policy = RandomPolicy(ENGINE, __import__("random").Random(3))
    dice = CommittedDice(b"round-trip", "rt")
    for _ in range(150):
        pos = ENGINE.to_position(state)
        back = ENGINE.from_position(packaged_table_set("iliad"), pos.model_dump(mode="json"), "round-trip")
        assert ENGINE.to_position(back) == pos
        if state.phase is Phase.OVER:
            break
        state = ENGINE.apply(state, policy.choose(state), dice).state  # type: ignore[assignment]
