"""Hostile images built on demand (the bounded-work tests and ``bench/bench_hostile_images.py``).

Nothing here is committed as a file: each image is made from a seed when asked for.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt


def scan_bomb(width: int, height: int, scans: int, seed: int = 0) -> bytes:
    """Returns a progressive JPEG with ``scans`` extra scans of its luma, each a few bytes (runs of
    end-of-block codes over every block) and each making a decoder pass over the whole image."""
    rng = np.random.default_rng(seed)
    img = cv2.GaussianBlur(rng.integers(0, 256, (height, width, 3), dtype=np.uint8), (0, 0), 3)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 80, cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    assert ok
    data = buf.tobytes()
    eoi = data.rindex(b"\xff\xd9")
    # an AC Huffman table (class 1, id 1) with one symbol, EOB14 (0xE0), coded '0'
    body = bytes([0x11, 1] + [0] * 15 + [0xE0])
    dht = b"\xff\xc4" + (2 + len(body)).to_bytes(2, "big") + body
    blocks = -(-width // 8) * -(-height // 8)
    bits = ""
    while blocks > 0:  # each code: '0' then 14 bits, a run of 16384 + those bits blocks
        run = min(blocks, 32767)
        bits += "0" + format(max(run - 16384, 0), "014b")
        blocks -= max(run, 16384)
    bits += "1" * (-len(bits) % 8)
    coded = bytes(int(bits[i : i + 8], 2) for i in range(0, len(bits), 8)).replace(b"\xff", b"\xff\x00")
    header = bytes([1, 1, 0x01, 1, 63, 0x00])  # one component (luma), table 1, coefficients 1-63
    scan = b"\xff\xda" + (2 + len(header)).to_bytes(2, "big") + header + coded
    return data[:eoi] + dht + scan * scans + data[eoi:]


def noise(width: int, height: int, seed: int = 0) -> npt.NDArray[np.uint8]:
    """Returns random noise, BGR."""
    return np.random.default_rng(seed).integers(0, 256, (height, width, 3), dtype=np.uint8)


def checkerboard(width: int, height: int, side: int) -> npt.NDArray[np.uint8]:
    """Returns a black and white checkerboard of ``side``-pixel squares, BGR (a checked cloth)."""
    yy, xx = np.mgrid[0:height, 0:width]
    grey = (((yy // side) + (xx // side)) % 2 * 255).astype(np.uint8)
    out: npt.NDArray[np.uint8] = cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)
    return out


def rectangles(width: int, height: int, seed: int = 0) -> npt.NDArray[np.uint8]:
    """Returns grey with thousands of small black and white squares scattered over it, BGR."""
    rng = np.random.default_rng(seed)
    img = np.full((height, width, 3), 128, np.uint8)
    for _ in range(width * height // 200):
        x, y, s = int(rng.integers(0, width)), int(rng.integers(0, height)), int(rng.integers(4, 30))
        cv2.rectangle(img, (x, y), (x + s, y + s), (int(rng.integers(0, 2)) * 255,) * 3, -1)
    return img
