"""A :class:`~referee.scene.Scene` painted with Pillow and a real font: ``show --png`` pictures.

The font is DejaVu Sans, shipped in ``referee/fonts/`` (cut down to Latin with every French and
Italian accent; its licence beside it), so "Athéna", "forêt" and "« Ont bougé »" are drawn as
written. Everything is painted at twice the size and the picture scaled down, which smooths
edges. No OpenCV: a picture costs Pillow's import only.
"""

from __future__ import annotations

import io
import itertools
import math
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from referee.errors import RefereeError
from referee.i18n import _
from referee.scene import Label, Scene, Shape
from referee.writing import check_output, write_output

if TYPE_CHECKING:
    from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).parent / "fonts"
SUPERSAMPLE = 2
FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}
"""Picture formats, chosen by the file name's extension."""
MAX_PIXELS = 40_000_000
"""Largest picture painted (a 36 x 21 hex world at 64 pixels a hex is about 4 million)."""


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Returns the shipped font at a size in pixels."""
    from PIL import ImageFont  # lazy: PIL

    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), max(1, size))


def rasterise(scene: Scene) -> Image.Image:
    """Returns the scene painted as an RGB picture of its own size in pixels.

    Raises:
        RefereeError: the scene is larger than :data:`MAX_PIXELS`.
    """
    from PIL import Image, ImageDraw  # lazy: PIL

    width, height = max(1, math.ceil(scene.width)), max(1, math.ceil(scene.height))
    if width * height > MAX_PIXELS:
        raise RefereeError(_("the picture would be {w} x {h} pixels, more than {limit:,}").format(
            w=width, h=height, limit=MAX_PIXELS))
    k = SUPERSAMPLE
    big = Image.new("RGB", (width * k, height * k), scene.background)
    draw = ImageDraw.Draw(big)
    for item in scene.items:  # in order: a stacked counter hides the label of the one under it
        if isinstance(item, Shape):
            _shape(draw, item, k)
        else:
            _label(big, draw, item, k)
    return big.resize((width, height), Image.Resampling.BOX)  # exact colours inside shapes


def _shape(draw: ImageDraw.ImageDraw, shape: Shape, k: int) -> None:
    points = [(x * k, y * k) for x, y in shape.points]
    width = max(1, round(shape.width * k))
    fill = shape.fill if shape.closed else None
    if shape.radius > 0:
        (cx, cy), = points
        r = shape.radius * k
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=shape.stroke,
                     width=width if shape.stroke else 0)
        return
    if shape.closed:
        draw.polygon(points, fill=fill, outline=None)
        if shape.stroke is not None:
            _polyline(draw, [*points, points[0]], shape.stroke, width, shape.dashed)
        return
    if shape.stroke is not None:
        _polyline(draw, points, shape.stroke, width, shape.dashed)


def _polyline(draw: ImageDraw.ImageDraw, points: list[tuple[float, float]], colour: tuple[int, int, int],
              width: int, dashed: bool) -> None:
    if not dashed:
        draw.line(points, fill=colour, width=width, joint="curve")
        return
    on, off = width * 3, width * 2
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        length = math.hypot(x1 - x0, y1 - y0)
        t = 0.0
        while t < length:
            end = min(length, t + on)
            draw.line([(x0 + (x1 - x0) * t / length, y0 + (y1 - y0) * t / length),
                       (x0 + (x1 - x0) * end / length, y0 + (y1 - y0) * end / length)], fill=colour, width=width)
            t = end + off


_ANCHORS = {"start": "lm", "middle": "mm", "end": "rm"}


def _label(image: Image.Image, draw: ImageDraw.ImageDraw, label: Label, k: int) -> None:
    face = font(round(label.size * k), label.bold)
    x, y = label.at[0] * k, label.at[1] * k
    if not label.turn:
        draw.text((x, y), label.text, font=face, fill=label.colour, anchor=_ANCHORS[label.anchor])
        return
    from PIL import Image, ImageDraw  # lazy: PIL

    *_corner, right, bottom = face.getbbox(label.text, anchor="lt")
    strip = Image.new("RGBA", (round(right) + 2, round(bottom) + 2), (0, 0, 0, 0))
    ImageDraw.Draw(strip).text((1, 1), label.text, font=face, fill=(*label.colour, 255), anchor="lt")
    turned = strip.rotate(-label.turn, expand=True)  # Pillow turns counter-clockwise, SVG clockwise
    image.paste(turned, (round(x - turned.width / 2), round(y - turned.height / 2)), turned)


def encode(scene: Scene, suffix: str = ".png") -> bytes:
    """Returns the scene painted and encoded as PNG, or JPEG for ``.jpg``/``.jpeg``."""
    buffer = io.BytesIO()
    image = rasterise(scene)
    if FORMATS[suffix] == "JPEG":
        image.save(buffer, "JPEG", quality=90)
    else:
        image.save(buffer, "PNG", optimize=False, compress_level=6)
    return buffer.getvalue()


def write_picture(scene: Scene, path: Path, what: str, force: bool = False) -> Path:
    """Paints a scene and writes it in the format its extension names (PNG, or JPEG for .jpg),
    through a temporary beside it (:func:`referee.writing.write_output`: an existing file is
    replaced only with ``force``, a game file never).

    Raises:
        RefereeError: another extension (the accepted ones listed), or the file cannot be written.
    """
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise RefereeError(_("{path}: cannot tell the picture format from {suffix}; name it .png, .jpg or .jpeg")
                           .format(path=path, suffix=repr(suffix or "no extension")))
    check_output(path, force=force, what=what)  # before painting: a refusal costs nothing
    write_output(path, encode(scene, suffix), force=force, what=what)
    return path
