"""III: the steps of a turn — movement, supports (attacker then defender), combat, the other side."""

from __future__ import annotations

from referee.games.cyrus_pyxis.tables import Phase, Side

from .helpers import ENGINE, codes, judge, play, position, sections


def opening() -> dict[str, object]:
    return {
        "phase": "move",
        "greek": {"Athéna": "E5", "Messène": "D6", "Pyxis": "A1"},
        "persian": {"Darius": "E7", "Amrith": "E9", "Cyrus": "L12"},
    }


def test_III_1_no_attack_hands_the_turn_to_the_persian() -> None:
    state = play(position(**opening()), "Pyxis A2", "done")
    assert state.active is Side.PERSIAN and state.phase is Phase.MOVE and state.turn == 1
    state = play(state, "done")
    assert state.active is Side.GREEK and state.turn == 2


def test_III_2_supports_follow_movement_attacker_first_then_defender() -> None:
    state = play(position(**opening()), "Athéna E7")
    assert codes(judge(state, "support Messène Athéna")) == ["wrong-phase"]
    state = play(state, "done")
    assert state.phase is Phase.SUPPORT and state.declaring is Side.GREEK
    assert codes(judge(state, "Athéna E6")) == ["wrong-phase", "already-moved"]
    verdict = judge(state, "resolve")
    assert codes(verdict) == ["supports-pending"] and "III.2" in sections(verdict)
    state = play(state, "support Messène Athéna")
    assert state.declaring is Side.PERSIAN  # no other Greek support possible: the Persian's turn to declare
    state = play(state, "support Amrith Darius")
    assert state.phase is Phase.COMBAT
    assert codes(judge(state, "done")) == ["wrong-phase"]
    state = play(state, "resolve")
    assert state.active is Side.PERSIAN and state.phase is Phase.MOVE and state.supports == {}


def test_III_2_a_side_without_possible_support_is_skipped_and_told() -> None:
    state = position(phase="move", greek={"Athéna": "E5"}, persian={"Darius": "E6"})
    state, record = ENGINE.play(state, ENGINE.parse(state, "Athéna E6"), None)  # type: ignore[arg-type,assignment]
    state, record = ENGINE.play(state, ENGINE.parse(state, "done"), None)  # type: ignore[arg-type,assignment]
    assert state.phase is Phase.COMBAT  # type: ignore[attr-defined]
    assert [e.code for e in record.events].count("support-skipped") == 2


def test_III_3_resolve_during_the_movement_is_refused_not_a_silent_turn_end() -> None:
    # Athéna attacks Darius and no archer can support: resolve typed before done used to end the
    # movement, resolve and hand the turn over unasked; it now says to type done first.
    state = play(position(phase="move", greek={"Athéna": "E5", "Pyxis": "A1"},
                          persian={"Darius": "E6", "Cyrus": "L12"}), "Athéna E6")
    verdict = judge(state, "resolve")
    assert codes(verdict) == ["still-moving"] and {"III.1", "III.3"} <= sections(verdict)
    assert "resolve" not in [a.text() for a in ENGINE.legal_actions(state)]
    state = play(state, "done")
    assert judge(state, "resolve").legal


def test_III_3_done_passes_the_support_step() -> None:
    state = play(position(**opening()), "Athéna E7", "done", "done")
    assert state.declaring is Side.PERSIAN
    state = play(state, "done")
    assert state.phase is Phase.COMBAT


def test_III_4_turn_number_advances_after_the_persian() -> None:
    state = play(position(**opening()), "done", "done", "done", "done")
    assert (state.turn, state.active) == (3, Side.GREEK)


def test_III_5_nothing_is_legal_after_the_end() -> None:
    state = play(position(phase="move", greek={"Pyxis": "C12"}, persian={"Cyrus": "C1"}), "Pyxis off")
    assert state.phase is Phase.OVER and ENGINE.legal_actions(state) == []
    for text in ("Pyxis C11", "done", "resolve"):
        verdict = judge(state, text)
        assert codes(verdict)[0] == "game-over" and "III.5" in sections(verdict)


def test_III_legal_actions_agree_with_judge_in_every_step() -> None:
    states = [position(**opening())]
    states.append(play(states[-1], "Athéna E7"))
    states.append(play(states[-1], "done"))
    states.append(play(states[-1], "support Messène Athéna"))
    for state in states:
        legal = ENGINE.legal_actions(state)
        assert legal
        assert all(ENGINE.judge(state, a).legal for a in legal)


def test_I_outcome_names_how_the_game_ended() -> None:
    escaped = play(position(phase="move", greek={"Pyxis": "C12"}, persian={"Cyrus": "C1"}), "Pyxis off")
    outcome = ENGINE.outcome(escaped)
    assert outcome is not None and outcome.termination == "king-escaped" and outcome.winners == ("greek",)
    killed = position(phase="over", winner="greek", greek={"Pyxis": "C5"}, persian={})
    outcome = ENGINE.outcome(killed)
    assert outcome is not None and outcome.termination == "king-killed" and outcome.winners == ("greek",)
    assert ENGINE.outcome(position(phase="move", greek={"Pyxis": "C5"}, persian={"Cyrus": "C1"})) is None
