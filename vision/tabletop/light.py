"""Light on the board plane: a lamp and an ambient light of other colours, the pieces' short
shadows, a hard-edged shadow of some object across the board, and the lamp's specular glare.

Everything is computed in the board frame of :mod:`.art` (pixels of ``ppc`` per cell) and
multiplies the albedo there, except the glare, which the camera adds (it depends on the view).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.tabletop.art import Image, Plane


@dataclass(frozen=True)
class Lighting:
    """The light of one photo (board frame: u, v in cells, z up, in cells)."""

    lamp: tuple[float, float, float]
    """Position of the lamp above the table, in cells."""
    lamp_rgb: tuple[float, float, float]
    """Irradiance of the lamp on the board right under it, linear RGB."""
    ambient_rgb: tuple[float, float, float]
    """Irradiance of the rest of the room (sky, walls), linear RGB: it alone lights the shadows."""
    edge: tuple[float, float, float] | None
    """A hard shadow's edge through the board: (u, v) of a point on it and its angle in degrees;
    the shadow lies to the left of that direction (None: no such shadow)."""
    strip: float
    """Width of the object casting that shadow, in cells (0: a half-plane)."""
    penumbra: float
    """Width of the hard shadow's soft edge, in cells (a small lamp: sharp)."""


def kelvin(temperature: float) -> npt.NDArray[np.float32]:
    """Returns the linear RGB of a light of a colour temperature, normalised to mean 1 (an
    approximation of the black body's colour between 2500 K and 9000 K)."""
    t = temperature / 100
    r = 1.0 if t <= 66 else 1.292936 * (t - 60) ** -0.1332047
    g = 0.390082 * math.log(t) - 0.631841 if t <= 66 else 1.129891 * (t - 60) ** -0.0755148
    b = 1.0 if t >= 66 else (0.0 if t <= 19 else 0.543207 * math.log(t - 10) - 1.196254)
    srgb = np.clip(np.array([r, g, b], np.float64), 0.01, 1.0)
    lin = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    out: npt.NDArray[np.float32] = (lin / lin.mean()).astype(np.float32)
    return out


def irradiance(plane: Plane, light: Lighting) -> Image:
    """Returns the light falling on each pixel of the board plane, linear RGB (h, w, 3)."""
    h, w = plane.height.shape
    ppc, ext = plane.ppc, plane.extent
    us = (np.arange(w, dtype=np.float32) + 0.5) / ppc - ext
    vs = (np.arange(h, dtype=np.float32) + 0.5) / ppc - ext
    uu, vv = np.meshgrid(us, vs)
    lx, ly, lz = light.lamp
    dist2 = (uu - lx) ** 2 + (vv - ly) ** 2 + lz**2
    falloff = (lz**3 / dist2**1.5).astype(np.float32)  # cosine over squared distance, 1 under the lamp
    seen = np.asarray(_piece_shadows(plane, light), np.float32) * _hard_shadow(uu, vv, light, ppc)
    direct = np.asarray(light.lamp_rgb, np.float32)[None, None, :] * (falloff * seen)[:, :, None]
    out: Image = (direct + np.asarray(light.ambient_rgb, np.float32)[None, None, :] * _contact(plane)[:, :, None])
    return out.astype(np.float32)


def _piece_shadows(plane: Plane, light: Lighting) -> Image:
    """Returns how much of the lamp each pixel sees past the pieces (1: all): each piece's shadow
    is its outline moved away from the lamp by its height over the lamp's slope, softened."""
    h, w = plane.height.shape
    centre_u = w / 2 / plane.ppc - plane.extent
    lx, ly, lz = light.lamp
    dx, dy = centre_u - lx, centre_u - ly
    seen = np.ones((h, w), np.float32)
    for lift in (0.03, 0.08, 0.11):  # a token, a counter, a counter on a token
        above = (plane.height > 0.01 + lift - 0.015).astype(np.float32)
        if not above.any():
            continue
        shift = np.array([dx, dy]) / lz * lift * plane.ppc
        m = np.array([[1, 0, shift[0]], [0, 1, shift[1]]], np.float32)
        shade = cv2.warpAffine(above, m, (w, h))
        shade = cv2.GaussianBlur(shade, (0, 0), max(0.6, 0.02 * plane.ppc))
        lower = plane.height < 0.01 + lift - 0.015
        seen = np.where(lower, seen * (1 - 0.9 * shade), seen)
    return seen


def _hard_shadow(uu: npt.NDArray[np.floating], vv: npt.NDArray[np.floating], light: Lighting, ppc: int) -> Image:
    """Returns 1 where the lamp is not hidden by the object, 0 in its shadow (a strip or a
    half-plane with a straight, nearly sharp edge)."""
    if light.edge is None:
        return np.ones_like(uu)
    u0, v0, angle = light.edge
    a = math.radians(angle)
    side = -(uu - u0) * math.sin(a) + (vv - v0) * math.cos(a)  # signed distance, in cells
    soft = max(light.penumbra, 0.5 / ppc)
    inside = 1 / (1 + np.exp(np.clip(-side / soft * 4, -60, 60)))
    if light.strip > 0:
        inside *= 1 / (1 + np.exp(np.clip((side - light.strip) / soft * 4, -60, 60)))
    out: Image = (1 - inside).astype(np.float32)
    return out


def _contact(plane: Plane) -> Image:
    """Returns the ambient light's share reaching each pixel: a little less beside the pieces."""
    raised = (plane.height > 0.02).astype(np.float32)
    near = cv2.GaussianBlur(raised, (0, 0), max(1.0, 0.05 * plane.ppc))
    out: Image = np.where(raised > 0, 1.0, 1 - 0.35 * near).astype(np.float32)
    return out


def glare(shape: tuple[int, int], centre: tuple[float, float], radius: float, rgb: npt.NDArray[np.float32],
          strength: float, stretch: float, angle: float) -> Image:
    """Returns a specular highlight in image space: an elongated bright blob (linear RGB)."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = math.radians(angle)
    du, dv = xx - centre[0], yy - centre[1]
    along = du * math.cos(a) + dv * math.sin(a)
    across = -du * math.sin(a) + dv * math.cos(a)
    r2 = (along / (radius * stretch)) ** 2 + (across / radius) ** 2
    blob = np.exp(-r2 * 2.0) * strength
    out: Image = (blob[:, :, None] * rgb[None, None, :]).astype(np.float32)
    return out
