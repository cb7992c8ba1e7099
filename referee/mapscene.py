"""A city map (:class:`~referee.game.MapView` with places) laid out as a :class:`~referee.scene.Scene`.

Places are circles at the positions the game gives (fractions of the map), with their name and
notes under them; a ring of the holder's colour and its mark (readable without colour); the units
standing there as counters, one per side, each with its side's mark; links as lines (dashed for
a kind the game says, e.g. a sea lane); an area (a sea) as a name where its lanes meet. A key
and the status lines go under the map.
"""

from __future__ import annotations

from referee.game import RGB, MapView, PlaceView
from referee.i18n import _
from referee.scene import INK, LINE, PAPER, WHITE, Item, Label, Scene, Shape, circle, line, rect, text_width

WIDTH = 960.0
HEIGHT = 760.0
RADIUS = 26.0
MARKED: RGB = (200, 30, 30)


def map_scene(view: MapView, width: float = WIDTH, height: float = HEIGHT, status: bool = True) -> Scene:
    """Returns the drawing of a city map (an empty map when the game gives no places), with its
    key, and its status lines and notes unless ``status`` is False."""
    pad = 70.0
    where = {p.name: (pad + p.at[0] * (width - 2 * pad), pad + p.at[1] * (height - 2 * pad)) for p in view.places}
    items: list[Item] = []
    for link in view.links:
        if link.a in where and link.b in where:
            items.append(line(where[link.a], where[link.b], link.colour, 4.0, dashed=link.dashed))
    for place in view.places:
        items += _place(view, place, where[place.name])
    y = height
    y = _key(view, items, y, width)
    for text in view.status if status else ():
        items.append(Label((20, y + 14), text, 16, (20, 20, 20), "start"))
        y += 26
    for text in view.notes if status else ():
        items.append(Label((20, y + 14), text, 14, LINE, "start"))
        y += 22
    return Scene(width, y + 12, tuple(items), view.title)


def _place(view: MapView, place: PlaceView, at: tuple[float, float]) -> list[Item]:
    x, y = at
    if place.kind == "area":
        w = text_width(place.name, 20) + 10
        return [rect(x - w / 2, y - 14, w, 28, fill=PAPER), Label(at, place.name, 20, (30, 70, 140), bold=True)]
    items: list[Item] = []
    if place.marked:
        items.append(rect(x - RADIUS - 8, y - RADIUS - 8, 2 * RADIUS + 16, 2 * RADIUS + 16, stroke=MARKED, width=4,
                          ref=place.name))
    ring = view.side_colours.get(place.holder, LINE) if place.holder else LINE
    items.append(circle(at, RADIUS, fill=WHITE, stroke=ring, width=7 if place.holder else 2, ref=place.name))
    if place.holder:
        items.append(Label(at, view.side_marks.get(place.holder, ""), 22, ring, bold=True, ref=place.name))
    lines = [(place.name, 17.0, True), *((note, 13.0, False) for note in place.notes)]
    w = max(text_width(text, size) for text, size, _bold in lines) + 8
    items.append(rect(x - w / 2, y + RADIUS + 3, w, 24 + 17 * len(place.notes), fill=PAPER, ref=place.name))
    for k, (text, size, bold) in enumerate(lines):
        items.append(Label((x, y + RADIUS + 14 + (19 + 17 * (k - 1) if k else 0)), text, size, INK if bold else LINE,
                           bold=bold, ref=place.name))
    n = len(place.counters)
    for i, counter in enumerate(place.counters):
        text = f"{view.side_marks.get(counter.side, '')} {counter.label}".strip()
        w = max(46.0, text_width(text, 15) + 12)
        cx = x + (i - (n - 1) / 2) * (w + 6)
        cy = y - RADIUS - 20
        items.append(rect(cx - w / 2, cy - 13, w, 26, fill=view.side_colours.get(counter.side, (90, 90, 90)),
                          stroke=WHITE, width=2, ref=place.name))
        items.append(Label((cx, cy), text, 15, WHITE, bold=True, ref=place.name))
    return items


def _key(view: MapView, items: list[Item], top: float, width: float) -> float:
    """Draws the key (each side's colour and mark, each kind of link) and returns the y below it."""
    entries: list[tuple[str, RGB, str]] = [(f"{view.side_marks.get(side, '')} {_(side)}".strip(), colour, "side")
                                           for side, colour in view.side_colours.items()]
    entries += [(name, colour, "dashed" if dashed else "line") for name, colour, dashed in view.link_kinds]
    x, y = 20.0, top
    for text, colour, kind in entries:
        need = 40 + text_width(text, 15) + 24
        if x > 20 and x + need > width:
            x, y = 20.0, y + 30
        if kind == "side":
            items.append(rect(x, y + 4, 26, 20, fill=colour))
        else:
            items.append(Shape(((x, y + 14), (x + 30, y + 14)), stroke=colour, width=4, closed=False,
                               dashed=kind == "dashed"))
        items.append(Label((x + 36, y + 14), text, 15, INK, "start"))
        x += need
    return y + 36
