"""Where the 300 map's cities are drawn (``tables/300-solo/layout.yaml``), and the map as places
and links for the table page and pictures (:class:`~referee.game.PlaceView`).

Positions are an interpretation of the printed map's geography with no effect on any rule.
Game files made before the layout was data carry no ``layout.yaml``: they get the packaged one.
"""

from __future__ import annotations

from pydantic import Field

from referee.base import StrictModel
from referee.errors import TableError
from referee.game import RGB, Counter, LinkView, PlaceView
from referee.games.earth_water.state import EarthWaterState
from referee.games.earth_water.tables import Side, load_tables
from referee.i18n import N_, _
from referee.rulings import Provenance
from referee.tables import TableSet, by_digest, packaged_table_set, parse_yaml

SIDE_COLOURS: dict[str, RGB] = {"greece": (40, 90, 200), "persia": (190, 60, 40)}
SIDE_MARKS = {"greece": "G", "persia": "P"}
ROAD: RGB = (70, 60, 50)
BRIDGE: RGB = (150, 100, 40)
SEA: RGB = (60, 120, 200)
LINKS = (N_("road"), N_("bridge (Abydos–Pella)"), N_("sea lane: any port to any port"))
SEA_NAMES = (N_("Aegean Sea"),)
"""The packaged layout's sea, marked for the catalogs (the name shown is the layout file's)."""


class Spot(StrictModel):
    at: tuple[float, float] = Field(description="Fractions of the map's width and height, 0 to 1.")
    provenance: Provenance


class Sea(Spot):
    name: str = Field(max_length=40, description="The sea's name, where the lanes meet.")


class LayoutFile(StrictModel):
    sea: Sea
    cities: dict[str, Spot]


@by_digest
def load_layout(table_set: TableSet) -> LayoutFile:
    """Returns the drawing positions of a table set (the packaged ones when it has none).

    Raises:
        TableError: the file is malformed, or a city of the map has no position.
    """
    ts = table_set if "layout.yaml" in table_set.files else packaged_table_set("300-solo")
    layout = parse_yaml(ts.label("layout.yaml"), ts.text("layout.yaml"), LayoutFile)
    for spot in (layout.sea, *layout.cities.values()):
        if not all(0 <= v <= 1 for v in spot.at):
            raise TableError(ts.label("layout.yaml"), "at", _("positions are fractions from 0 to 1"))
    missing = [city for city in load_tables(table_set).cities if city not in layout.cities]
    if missing:  # checked here, when the tables are read, not when the map is first drawn
        raise TableError(ts.label("layout.yaml"), f"cities.{missing[0]}", _("this city of the map has no position"))
    return layout


def places(state: EarthWaterState) -> tuple[tuple[PlaceView, ...], tuple[LinkView, ...]]:
    """Returns the cities as places (holder, units, notes) and the roads, bridge and sea lanes."""
    s = state
    layout = load_layout(s.tables.table_set)
    sea = _(layout.sea.name)
    out: list[PlaceView] = [PlaceView(sea, layout.sea.at, kind="area")]
    links: list[LinkView] = []
    for city in s.tables.cities:
        spot = layout.cities[city]  # every city has one: load_layout checks it
        row, g = s.tables.row(city), s.at(city)
        holder = s.controller(city)
        counters = tuple(Counter(side.value, _units(a, f)) for side, a, f in (
            (Side.GREECE, g.greek_armies, g.greek_fleets), (Side.PERSIA, g.persian_armies, g.persian_fleets)) if a or f)
        notes = [_("Greek Major") if row.major is Side.GREECE else _("Persian Major")] if row.major else []
        if row.port:
            notes.append(_("port"))
            links.append(LinkView(city, sea, SEA, _(LINKS[2]), dashed=True))
        out.append(PlaceView(city, spot.at, counters, holder.value if holder else "", tuple(notes),
                             marked=s.battle is not None and s.battle.city == city))
    for road in s.tables.map.roads:
        links.append(LinkView(road.between[0], road.between[1], ROAD, _(LINKS[0])))
    a, b = s.tables.bridge_ends
    links.append(LinkView(a, b, BRIDGE, _(LINKS[1]), dashed=not s.bridge))
    return tuple(out), tuple(links)


def _units(armies: int, fleets: int) -> str:
    """Returns "2A 1F": armies and fleets (the map's notes say what the letters mean)."""
    parts = [f"{armies}A"] if armies else []
    return " ".join([*parts, f"{fleets}F"] if fleets else parts)


def link_kinds() -> tuple[tuple[str, RGB, bool], ...]:
    """Returns the key's kinds of link."""
    return (_(LINKS[0]), ROAD, False), (_(LINKS[1]), BRIDGE, False), (_(LINKS[2]), SEA, True)
