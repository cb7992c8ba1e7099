"""A hand and forearm over the board, in image space: skin tone, soft edges, rounded shading,
and the shadow it casts on the board below (offset away from the lamp and blurred, since the
hand hovers well above the board)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.tabletop.art import Image


@dataclass(frozen=True)
class Hand:
    """One hand reaching in (image pixels)."""

    tip: tuple[float, float]
    """Where the fingertips point."""
    base: tuple[float, float]
    """Where the forearm comes from (at or past the photo's edge)."""
    width: float
    """Width of the palm, in pixels."""
    tone: float
    """Skin tone: 0 (very light) to 1 (very dark)."""
    redness: float
    """Blood under the skin: -1 (sallow) to 1 (ruddy)."""
    lift: float
    """How far the shadow falls from the hand, in palm widths."""
    spread: float
    """How far apart the fingers are, 0 to 1."""


def skin(tone: float, redness: float) -> npt.NDArray[np.float32]:
    """Returns a skin colour, linear RGB: melanin darkens blue and green more than red; redness
    moves green down and red up."""
    light, dark = np.array([0.62, 0.42, 0.33]), np.array([0.10, 0.052, 0.032])
    mix = light * (dark / light) ** tone
    mix = mix * np.array([1 + 0.08 * redness, 1 - 0.1 * redness, 1 - 0.05 * redness])
    out: npt.NDArray[np.float32] = np.clip(mix, 0.005, 1).astype(np.float32)
    return out


def silhouette(shape: tuple[int, int], hand: Hand) -> Image:
    """Returns the hand's coverage (0-1, its edges softened over a few pixels)."""
    canvas = np.zeros(shape, np.uint8)
    tip = np.array(hand.tip, np.float64)
    base = np.array(hand.base, np.float64)
    direction = tip - base
    direction /= float(np.linalg.norm(direction)) or 1.0
    normal = np.array([-direction[1], direction[0]])
    pw = hand.width
    palm = tip - direction * 0.95 * pw
    arm_end = base - direction * pw

    def pt(p: npt.NDArray[np.float64]) -> tuple[int, int]:
        return (round(float(p[0])), round(float(p[1])))

    cv2.line(canvas, pt(arm_end), pt(palm - direction * 0.3 * pw), 255, max(2, round(0.8 * pw)), cv2.LINE_AA)
    angle = math.degrees(math.atan2(direction[1], direction[0]))
    cv2.ellipse(canvas, pt(palm), (max(2, round(0.55 * pw)), max(2, round(0.5 * pw))), angle, 0, 360, 255, -1,
                cv2.LINE_AA)
    lengths = (0.72, 0.85, 0.8, 0.62)
    for j, length in zip((-1.5, -0.5, 0.5, 1.5), lengths, strict=True):
        start = palm + direction * 0.35 * pw + normal * j * 0.22 * pw
        end = start + direction * length * pw + normal * j * (0.05 + 0.15 * hand.spread) * pw
        cv2.line(canvas, pt(start), pt(end), 255, max(2, round(0.19 * pw)), cv2.LINE_AA)
    thumb = palm + normal * 0.5 * pw
    cv2.line(canvas, pt(thumb), pt(thumb + (direction * 0.35 + normal * 0.35) * pw), 255,
             max(2, round(0.2 * pw)), cv2.LINE_AA)
    soft = cv2.GaussianBlur(canvas.astype(np.float32) / 255, (0, 0), max(0.7, 0.025 * pw))
    return soft.astype(np.float32)


def draw(image: Image, lit_share: float, hand: Hand, light_dir: tuple[float, float],
         room_rgb: npt.NDArray[np.float32]) -> Image:
    """Paints a hand over a linear-light image (h, w, 3), with its shadow first; returns its
    coverage. ``lit_share`` is the lamp's share of the light (how dark the shadow gets);
    ``light_dir`` the image direction the light comes from."""
    h, w = image.shape[:2]
    cover = silhouette((h, w), hand)
    shift = -np.array(light_dir) * hand.lift * hand.width
    m = np.array([[1, 0, shift[0]], [0, 1, shift[1]]], np.float32)
    shadow = cv2.GaussianBlur(cv2.warpAffine(cover, m, (w, h)), (0, 0), max(1.0, 0.35 * hand.width))
    image *= (1 - lit_share * 0.85 * shadow * (1 - cover))[:, :, None]
    # rounded: brighter along the middle of each part, darker toward its edges and turned away
    core = cv2.GaussianBlur(cover, (0, 0), max(1.0, 0.12 * hand.width))
    shade = 0.55 + 0.45 * np.clip(core * 1.6, 0, 1)
    colour = skin(hand.tone, hand.redness)
    painted = colour[None, None, :] * shade[:, :, None] * room_rgb[None, None, :]
    image[:] = image * (1 - cover[:, :, None]) + painted * cover[:, :, None]
    return cover
