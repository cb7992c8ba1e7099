"""MOUVEMENTS — RÈGLES GÉNÉRALES and PARTICULIÈRES: a route is part of a move when it matters.

A move may state its route (the start, then every hex entered), judged step by step with the
reason at the first bad step; ``FROM TO`` never picks, silently, a route that changes an outcome
(a Knight's charge line): it asks, and the legal lists give both routes. Each refusal names the
rule that blocks; each ruling discloses the readings it relied on, there and only there."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from referee.dice import PhysicalDice
from tests.cli.conftest import Referee
from tests.games.zargo.helpers import GAME, codes, play, position


def _read(state, text):  # type: ignore[no-untyped-def]
    verdict = GAME.judge(state, GAME.parse(state, text))
    ids = set(re.findall(r"interpretation ([a-z0-9-]+):", " ".join(verdict.provisional)))
    return verdict, ids


def test_mouvements_a_stated_route_is_judged_step_by_step() -> None:
    s = position({"0904": ["FCh"], "0907": ["FDr"]})
    assert codes(s, "0904 0905 0906") == ()
    verdict, _ids = _read(s, "0904 0905 0906 1006")  # 0906 is next to the enemy: the move ends there
    (wrong,) = verdict.violations
    assert wrong.code == "zone" and "step 3" in wrong.message
    assert codes(s, "0904 0906") != ("not-a-step",)  # two hexes apart: FROM TO, a route is found
    assert codes(s, "0904 0905 0907 0908") == ("not-a-step",)  # 0905 to 0907 is no step
    far, _ids = _read(position({"0904": ["FCh"]}), "0904 0905 0904 0905 0904 0905")  # five steps, four points
    assert far.codes() == ("too-far",) and "step 5" in far.violations[0].message
    hidden = GAME.parse(s, "FCh 0904 0905")
    assert hidden.path is None and hidden.target == "0905"  # a label, then FROM TO


def test_mouvements_each_blocked_move_names_the_rule_that_blocks() -> None:
    assert codes(position({"1806": ["FCh"]}), "1806 1906") == ("open-sea",)
    assert codes(position({"1806": ["FCh"]}), "1806 1907 1908") == ("open-sea",)
    assert codes(position({"0904": ["FCh"]}), "0904 1005") == ("mountain-foot",)  # not from its foot
    assert codes(position({"0905": ["FCh"]}), "0905 1005 1006") == ("mountain-foot",)  # climbed: no further
    assert codes(position({"0607": ["FCh"]}), "0607 0708 0709") == ("chasm",)  # the chasm stops it
    assert codes(position({"0905": ["FCh"], "0908": ["FDr"]}), "0905 0909") in (("zone",), ("enemy-in-path",))
    assert codes(position({"0905": ["FCh"], "0907": ["FDr"]}), "0905 0906 0907 0908") == ("zone",)


def test_detail_des_capacites_chevaliers_a_charge_s_line_is_stated_not_guessed() -> None:
    s = position({"0904": ["CHV"], "0907": ["FDr"]})
    verdict, ids = _read(s, "0904 0906")
    assert verdict.codes() == ("state-the-path",) and "route-default" in ids
    routes = {a.text() for a in GAME.legal_actions(s) if a.text().startswith("0904 ") and a.text().endswith(" 0906")}
    assert "0904 0905 0906" in routes and len(routes) == 2 and "0904 0906" not in routes
    report = GAME.legal_report(s, "0904")
    assert "0904 0905 0906" in report.routes and "0906" not in report.moves
    assert codes(s, "0904 1004") == ()  # no enemy there: the route cannot matter, FROM TO is enough


def test_combat_a_ruling_discloses_the_readings_that_decide_it() -> None:
    coastal = position({}, phase="setup", ready=[], cities={})
    verdict, ids = _read(coastal, "city 0404")  # on the coast: the chasm reading plays no part
    assert verdict.codes() == ("coastal-city",) and "city-terrain" not in ids
    held = position({"0708": ["FCh"]}, paralysed={"0708": 2})
    verdict, ids = _read(held, "0708 0707")
    assert verdict.codes() == ("paralysed",) and "paralysis-count" in ids
    verdict, ids = _read(position({"1806": ["FCh"]}), "1806 2108 2208")
    assert verdict.legal and "bridge-chain" in ids  # the route crosses a bridge
    verdict, ids = _read(position({"0904": ["FCh"]}), "0904 0905")
    assert verdict.legal and not ids & {"bridge-chain", "city-terrain", "paralysis-count", "sorcerer-bonus"}
    s = play(position({"0906": ["SOR"], "0907": ["CHV"], "0908": ["FDr"]}), "attack 0907 0908")
    _after, record = GAME.play(s, GAME.parse(s, "resolve"), PhysicalDice([6]))
    assert any("sorcerer-bonus" in p for p in record.provisional)  # the sorcerer's help decided the total


def test_judge_on_a_position_file_accepts_a_stated_route(referee: Referee, tmp_path: Path) -> None:
    data = {
        "game": "zargo", "players": 4, "peoples": ["chevaliers", "dragons", "ailes", "moines"],
        "continents": {"chevaliers": ["1"], "dragons": ["2"], "ailes": ["3"], "moines": ["4"]},
        "active": "chevaliers", "board": {"0904": ["CHV"], "0907": ["FDr"]},
        "cities": {"0505": {"owner": "chevaliers", "founder": "chevaliers"}},
    }
    pos = tmp_path / "charge.yaml"
    pos.write_text(yaml.safe_dump(data), encoding="utf-8")
    straight = referee("judge", "--position", str(pos), "0904", "0905", "0906", "--json")
    assert straight.code == 0 and '"legal":true' in straight.out.replace(" ", "")
    asked = referee("judge", "--position", str(pos), "0904", "0906")
    assert "state-the-path" in asked.out
    listed = referee("legal", "--position", str(pos), "0904")
    assert "0904 0905 0906" in listed.out
