"""LA CONQUÊTE D'UNE VILLE: cities fight back. A garrison shown in its owner's turn shoots at the
besiegers and sallies against part of them from inside, then is sealed again; an assault follows
the rulebook's steps, and ``odds`` says what ``resolve`` will do, step by step."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from referee.dice import PhysicalDice
from referee.games.zargo.state import Phase
from referee.i18n import language
from referee.sealed import Seal, canonical
from tests.games.zargo.helpers import CITIES, GAME, codes, events, play, position


def _city(garrison: list[str] | None, owner: str = "dragons", **more: Any) -> dict[str, Any]:
    entry = {"owner": owner, "founder": "chevaliers", "garrison": garrison, **more}
    return {**CITIES, "0806": entry}


def _sealed(garrison: list[str]) -> tuple[Seal, dict[str, Any]]:
    made = Seal.make("dragons", "garrison-0806", garrison, salt=bytes(16))  # type: ignore[arg-type]
    return made, _city(None, commitment=made.public.digest)


def _reveal(made: Seal) -> str:
    return f"reveal dragons garrison-0806 {made.salt.hex()} {canonical(made.secret).decode()}"


def test_la_conquete_a_garrison_shows_itself_in_its_owner_s_turn_to_act() -> None:
    made, cities = _sealed(["DRA", "FDr"])
    s = position({"0807": ["FCh"]}, active="dragons", cities=cities)
    assert "garrison-hidden" in codes(s, "flame DRA 0806 0807")  # face down: it cannot act yet
    shown = play(s, _reveal(made))
    assert shown.cities["0806"].garrison == ("DRA", "FDr") and shown.phase is Phase.MOVE
    assert codes(shown, "flame DRA 0806 0807") == ()
    chevaliers = position({"0807": ["FCh"]}, cities=cities)
    assert "no-reveal" in codes(chevaliers, _reveal(made))  # not the Dragons' turn


def test_la_conquete_shots_act_from_the_city_against_the_besiegers() -> None:
    s = position({"0807": ["FCh"], "0809": ["FCh"]}, active="dragons", cities=_city(["DRA", "FDr"]))
    assert codes(s, "flame 0806 0807") == ()  # only the Dragon can burn: no need to name it
    assert "not-a-besieger" in codes(s, "flame 0806 0809")  # rules.yaml city-shot-targets
    assert "no-power" in codes(s, "arrow 0806 0807")
    assert "city-immune" in codes(position({"0807": ["DRA"]}, active="dragons", cities=_city([], owner="chevaliers")),
                                  "flame 0807 0806")  # but no shot touches a city
    burnt, found = events(play(s, "flame DRA 0806 0807"), "resolve", 6)
    assert "flames" in found and "0807" not in burnt.board
    assert burnt.cities["0806"].garrison == ("DRA", "FDr")  # the shooter stays inside


def test_la_conquete_the_besieged_sally_against_part_of_the_besiegers() -> None:
    s = position({"0807": ["FCh"], "0907": ["FCh"]}, active="dragons", cities=_city(["FDr", "FDr", "DRA"]))
    assert "name-the-counter" in codes(s, "attack 0806 0807")  # several could: the player names one
    s = play(s, "attack FDr 0806 0807")
    s = play(s, "attack FDr 0806 0807")  # the second foot soldier joins the same combat
    assert "acted-twice" in codes(s, "attack FDr 0806 0907")  # each counter once a turn
    assert codes(s, "attack DRA 0806 0907") == ()  # another besieger, separately
    assert s.attacks["0807"] == ("0806:FDr", "0806:FDr")
    after, found = events(s, "resolve", 6)  # 2 + 2 against 3, die 6: DE
    assert "combat" in found and "0807" not in after.board and after.cities["0806"].garrison == ("FDr", "FDr", "DRA")


def test_la_conquete_a_garrison_that_sallied_is_sealed_again() -> None:
    s = position({"0807": ["FCh"]}, active="dragons", cities=_city(["FDr"], commitment="ab" * 32))
    again = Seal.make("dragons", "garrison-0806", ["FDr"])
    assert codes(s, f"seal dragons garrison-0806 {again.public.digest}") == ()
    assert GAME.secret_problem(s, "dragons", "garrison-0806", ["DRA"]) is not None  # only what it showed
    hidden = play(s, f"seal dragons garrison-0806 {again.public.digest}")
    assert hidden.cities["0806"].hidden
    chevaliers = position({"0807": ["FCh"]}, cities=_city(["FDr"], commitment="ab" * 32))
    assert "wrong-phase" in codes(chevaliers, f"seal dragons garrison-0806 {again.public.digest}")


def test_la_conquete_an_assault_follows_the_steps_odds_and_resolve_agree() -> None:
    cases: list[tuple[dict[str, list[str]], list[str], str]] = [
        ({"0807": ["FCh"]}, [], "empty-city"),  # no garrison: it falls with no roll
        ({"0807": ["CHV"]}, ["FDr", "FDr"], "besiegers-too-few"),  # one besieger against two
        ({"0807": ["FCh"], "0907": ["FCh"]}, ["DRA", "DRA"], "besiegers-too-weak"),  # 6 against 12
    ]
    for board, garrison, code in cases:
        attackers = list(board)
        s = position(board, cities=_city(garrison), attacks={"0806": attackers})
        odds = GAME.odds(s, "attack 0806")
        assert odds.chances == {code: "1"}, (code, odds.chances)  # certain, and no die
        _after, found = events(s, "resolve")  # resolves with no die typed
        assert code in found
    s = position({"0807": ["CHV"]}, cities=_city(["FDr"]), attacks={"0806": ["0807"]})
    odds = GAME.odds(s, "attack 0806")
    assert sum(Fraction(v) for v in odds.chances.values()) == 1
    for face in range(1, 7):
        after, record = GAME.play(s, GAME.parse(s, "resolve"), PhysicalDice([face]))
        result = str(next(dict(e.args)["result"] for e in record.events if e.code == "assault"))
        assert result in odds.chances
        taken = after.cities["0806"].owner == "chevaliers"
        assert taken == (result in ("DE", "DR"))  # rules.yaml garrison-retreat: eliminated


def test_la_conquete_one_besieger_too_few_is_said_in_the_singular_in_every_language() -> None:
    s = position({"0807": ["CHV"]}, cities=_city(["FDr", "FDr"]), attacks={"0806": ["0807"]})
    _after, record = GAME.play(s, GAME.parse(s, "resolve"), PhysicalDice([]))
    ruling = next(e for e in record.events if e.code == "besiegers-too-few")
    assert ruling.text().endswith("has 2 counters, more than the 1 besieger: it is eliminated")
    with language("fr"):
        assert ruling.text().endswith("compte 2 pions, plus que 1 assiégeant : il est éliminé")
    with language("it"):
        assert ruling.text().endswith("conta 2 pedine, più di 1 assediante: è eliminato")


def test_odds_explain_each_result_code() -> None:
    s = position({"0907": ["CHV"], "0908": ["FDr"]})
    odds = GAME.odds(s, "attack 0907 0908")
    assert {c.code for c in odds.outcomes} <= {"AE", "AR", "-", "EX", "DR", "DE"}
    assert all(c.meaning for c in odds.outcomes)
    lines = odds.explain()
    assert any("DE (the defender is eliminated)" in line for line in lines)
