"""A :class:`~referee.scene.Scene` written as SVG text: the board on the table page, inline.

Styles are presentation attributes (``fill=``, ``stroke=``), never ``style=`` attributes, so a
page with a strict Content-Security-Policy (no inline styles) shows it as drawn. A shape or
label that belongs to a cell carries ``data-cell``, the page's tap target.

>>> from referee.scene import Label, Scene
>>> to_svg(Scene(10, 10, (Label((5, 5), "forêt & <mer>", 4),))).splitlines()[2].split(">")[1]
'forêt &amp; &lt;mer&gt;</text'

"""

from __future__ import annotations

from html import escape

from referee.game import RGB
from referee.scene import Label, Scene, Shape

FONT_FAMILY = "'DejaVu Sans', 'Noto Sans', Arial, sans-serif"
"""The font the PNG is drawn with first, then what a device has."""


def to_svg(scene: Scene, label: str = "") -> str:
    """Returns the scene as an ``<svg>`` element scaled to its container (its own pixel size as
    viewBox), ``label`` read by screen readers (default: the scene's title)."""
    name = escape(label or scene.title, quote=True)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(scene.width)} {_n(scene.height)}" '
            f'role="img" aria-label="{name}" font-family="{escape(FONT_FAMILY, quote=True)}">')
    parts = [head, f'<rect width="100%" height="100%" fill="{_rgb(scene.background)}"/>']
    for item in scene.items:
        parts.append(_label(item) if isinstance(item, Label) else _shape(item))
    parts.append("</svg>")
    return "\n".join(parts)


def _n(value: float) -> str:
    """Returns a coordinate with at most one decimal (``12``, ``12.5``)."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _rgb(colour: RGB | None) -> str:
    return "none" if colour is None else f"rgb({colour[0]},{colour[1]},{colour[2]})"


def _ref(ref: str) -> str:
    return f' data-cell="{escape(ref, quote=True)}"' if ref else ""


def _shape(shape: Shape) -> str:
    paint = f'fill="{_rgb(shape.fill if shape.closed else None)}"'
    if shape.stroke is not None:
        paint += f' stroke="{_rgb(shape.stroke)}" stroke-width="{_n(shape.width)}"'
        if shape.dashed:
            paint += f' stroke-dasharray="{_n(shape.width * 3)} {_n(shape.width * 2)}"'
    if not shape.closed:
        paint += ' stroke-linecap="round"'
    if shape.radius > 0:
        (cx, cy), = shape.points
        return f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(shape.radius)}" {paint}{_ref(shape.ref)}/>'
    points = " ".join(f"{_n(x)},{_n(y)}" for x, y in shape.points)
    tag = "polygon" if shape.closed else "polyline"
    return f'<{tag} points="{points}" {paint}{_ref(shape.ref)}/>'


def _label(label: Label) -> str:
    x, y = label.at
    attrs = (f'x="{_n(x)}" y="{_n(y)}" font-size="{_n(label.size)}" fill="{_rgb(label.colour)}" '
             f'text-anchor="{label.anchor}" dominant-baseline="central"')
    if label.bold:
        attrs += ' font-weight="bold"'
    if label.turn:
        attrs += f' transform="rotate({label.turn} {_n(x)} {_n(y)})"'
    return f"<text {attrs}{_ref(label.ref)}>{escape(label.text, quote=False)}</text>"
