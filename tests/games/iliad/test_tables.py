"""The Iliad tables: the reconstructed roster, calendar and sample map (La mappa, I pezzi con
cui si gioca, Il calendario), each value with its provenance, and the rules index."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
import yaml

from referee.errors import TableError
from referee.games.iliad.board import Terrain
from referee.games.iliad.roster import GREEK_COUNT, TROJAN_COUNT, Side
from referee.games.iliad.rules import RULES
from referee.games.iliad.tables import INTERPRETATIONS, load_tables
from referee.rulings import RulesIndex
from referee.tables import packaged_table_set

from .helpers import SAMPLES, tables_with

PROVENANCES = {"rulebook", "secondary", "interpretation", "provisional", "reconstruction"}


def test_la_mappa_sample_map_has_every_feature_the_rules_use() -> None:
    board = load_tables(packaged_table_set("iliad")).board
    kinds = {sq.terrain for sq in board.squares}
    assert kinds == set(Terrain)
    assert len(board.ships) >= 5
    assert all(board.squares[c].terrain is Terrain.SHORE for c in board.ships)  # beached on the shore
    assert {sq.name for sq in board.squares if sq.terrain is Terrain.RIVER} == {"Scamander", "Simois"}
    assert len(board.troy) == 9 and len(board.camp) > 28
    walls = [c for c, sq in enumerate(board.squares) if sq.terrain is Terrain.WALL]
    grid = board.grid
    # The wall closes the camp: every camp square's neighbours are camp, wall or sea.
    for c in board.camp:
        for n in grid.neighbours(c, diagonal=True):
            assert n in board.camp or n in walls or board.squares[n].terrain is Terrain.SEA, grid.name(n)
    assert board.provenance == "reconstruction"


def test_i_pezzi_roster_counts_names_values_and_flags() -> None:
    tables = load_tables(packaged_table_set("iliad"))
    roster = tables.roster
    assert len(roster.side(Side.GREEK)) == GREEK_COUNT == 28
    assert len(roster.side(Side.TROJAN)) == TROJAN_COUNT == 23
    assert all(1 <= c.value <= 9 for c in roster.counters)
    assert {c.id for c in roster.counters if c.archer} == {"Teucro", "Merione", "Pandaro", "Eleno", "Pirecme"}
    assert {c.id for c in roster.counters if c.thracian} == {"Reso", "Acamante", "Piroo"}
    assert [c.id for c in roster.counters if c.achilles] == ["Achille"]
    for name in ("Hector", "hector", "HÉCTOR", "Ettore", "ettore"):
        assert tables.counter(name).id == "Ettore"
    assert tables.counter("Ajax fils de Télamon").id == tables.counter("Telamonian Ajax").id == "Aiace Telamonio"
    assert tables.counter("Ulysses").id == tables.counter("Odysseus").id == "Ulisse"
    assert tables.counter("Amphimaque").id == "Antimaco"  # the French text's name in the duel example


def test_every_table_value_carries_a_provenance() -> None:
    ts = packaged_table_set("iliad")
    for name in ("roster.yaml", "calendar.yaml", "map.yaml", "deployment.yaml"):
        text = ts.text(name)
        assert text.lstrip().startswith("# Source:"), name
        data = yaml.safe_load(text)
        provs = _provenances(data)
        assert provs and provs <= PROVENANCES, name
    roster = yaml.safe_load(ts.text("roster.yaml"))
    assert all(row["provenance"] in PROVENANCES for side in ("greek", "trojan") for row in roster[side])
    calendar = yaml.safe_load(ts.text("calendar.yaml"))
    for key in ("advantage", "duels"):
        assert all("provenance" in row for row in calendar[key])
    rows = list(csv.DictReader(io.StringIO("\n".join(
        ln for ln in ts.text("duel.csv").splitlines() if not ln.startswith("#")))))
    assert rows and all(r["provenance"] in PROVENANCES for r in rows)
    assert ts.text("duel.csv").startswith("# Source:") and ts.text("rules.yaml").startswith("# Source:")


def _provenances(node: object) -> set[str]:
    found: set[str] = set()
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "provenance":
                found.add(str(v))
            else:
                found |= _provenances(v)
    elif isinstance(node, list):
        for item in node:
            found |= _provenances(item)
    return found


def test_rules_index_cites_every_section_and_lists_every_interpretation() -> None:
    assert RULES.uncited() == []
    index = RulesIndex.model_validate(yaml.safe_load(packaged_table_set("iliad").text("rules.yaml")))
    ids = [i.id for i in index.interpretations]
    assert sorted(ids) == sorted(INTERPRETATIONS)
    for item in index.interpretations:
        assert item.cites and all(c in index.sections for c in item.cites), item.id
        if item.options:
            assert item.choice in item.options and len(item.options) >= 2
    issue_ambiguities = {"achilles-entry", "battle-tie", "second-wound", "diagonal-movement", "archer-line"}
    assert issue_ambiguities <= {i.id for i in index.interpretations if i.options}


def test_deployment_table_and_sample_setup_agree() -> None:
    deployment = yaml.safe_load(packaged_table_set("iliad").text("deployment.yaml"))
    setup = yaml.safe_load((SAMPLES / "setup.yaml").read_text(encoding="utf-8"))
    assert setup["greek"] == deployment["greek"] and setup["trojan"] == deployment["trojan"]


@pytest.mark.parametrize(
    ("name", "old", "new", "expected"),
    [
        ("map.yaml", '".........r......hh.............."   # J', '".........r......hQ.............."   # J',
         "map.yaml: rows[9] (row J): unknown character 'Q' at column 18"),
        ("map.yaml", '".........r......hh.............."   # J', '".........r......hh............."   # J',
         "rows[9] (row J): 31 squares wide, row A has 32"),
        ("map.yaml", "NSNSNSNSNSNSN#", "SSSSSSSSSSSSS#", "ship squares; the Trojans need at least 5"),
        ("roster.yaml", "short: Ett,", "short: Ach,", "share the short label"),
        ("roster.yaml", "value: 9, provenance", "value: 12, provenance", "value 12 of Ettore is not 1 to 9 or A"),
        ("calendar.yaml", "greek: Menelao, trojan: Paride", "greek: Menelao, trojan: Pandaro",
         "Pandaro is not a hero of the Trojans"),
        ("duel.csv", "2,4,6,wounded,rulebook", "2,5,6,wounded,rulebook", "no band covers a difference of 4"),
        ("rules.yaml", "choice: no-effect\n    options: [no-effect, reroll]",
         "choice: maybe\n    options: [no-effect, reroll]",
         "interpretations.battle-tie.choice: must be one of no-effect, reroll"),
        ("deployment.yaml", "Ettore: S19", "Ettore: J15", "J15 is not a start square of the Trojans"),
    ],
)
def test_malformed_tables_give_one_line_naming_file_and_field(
    tmp_path: Path, name: str, old: str, new: str, expected: str
) -> None:
    def edit(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, 1)

    with pytest.raises(TableError) as info:
        load_tables(tables_with(tmp_path, name, edit))
    message = str(info.value)
    assert expected in message and "\n" not in message and name in message
