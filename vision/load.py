"""Reading a photo safely: size and format from the file header, then a (scaled) decode.

Only PNG and JPEG are accepted, read through :func:`referee.files.read_bytes` (regular files,
bytes counted). Their dimensions are read from the header (PNG ``IHDR``, JPEG ``SOFn``) and
checked against the pixel cap *before* any decoding, so a decompression bomb is refused without
allocating its pixels. Large photos are decoded at 1/2, 1/4 or 1/8 scale (JPEG scales during
decoding, which is also much faster). What libjpeg prints about damaged data becomes our line.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from referee.errors import InputFileError
from referee.files import read_bytes
from referee.picture import native_stderr, opencv
from vision.config import LoadConfig
from vision.errors import VisionError

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
JPEG_SOI = b"\xff\xd8"
_SOF = frozenset({0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF})
_NO_LENGTH = frozenset({0x01, 0xD8, *range(0xD0, 0xD8)})
_DAMAGE = ("Corrupt JPEG data", "Premature end of JPEG", "libpng error")
"""What libjpeg and libpng print when the data they decoded was damaged (a partly grey photo)."""
cv2 = opencv()
_REDUCED = {
    1: cv2.IMREAD_COLOR,
    2: cv2.IMREAD_REDUCED_COLOR_2,
    4: cv2.IMREAD_REDUCED_COLOR_4,
    8: cv2.IMREAD_REDUCED_COLOR_8,
}


@dataclass(frozen=True)
class Photo:
    """A decoded photo: the working image (BGR) and how it relates to the file."""

    image: npt.NDArray[np.uint8]
    """Working image, BGR, shape (h, w, 3); possibly decoded at a reduced scale."""
    source: str
    format: str
    width: int
    """Width of the photo in the file, in pixels."""
    height: int
    reduction: int
    """The file was decoded at 1/reduction scale."""


def image_size(data: bytes) -> tuple[str, int, int]:
    """Returns ``(format, width, height)`` read from a PNG or JPEG header.

    >>> image_size(PNG_SIGNATURE + struct.pack(">I4sII", 13, b"IHDR", 640, 480))
    ('png', 640, 480)

    Raises:
        VisionError: not a PNG or JPEG file, or a damaged header.
    """
    if data.startswith(PNG_SIGNATURE):
        if len(data) < 24 or data[12:16] != b"IHDR":
            raise VisionError("damaged PNG header (no IHDR chunk)")
        width, height = struct.unpack(">II", data[16:24])
        return "png", int(width), int(height)
    if data.startswith(JPEG_SOI):
        return ("jpeg", *_jpeg_size(data))
    raise VisionError("not a photo: only PNG and JPEG files are read")


def _jpeg_size(data: bytes) -> tuple[int, int]:
    pos = 2
    end = len(data)
    while pos + 4 <= end:
        if data[pos] != 0xFF:
            raise VisionError("damaged JPEG header (no segment marker where one should be)")
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker in _NO_LENGTH:
            pos += 2
            continue
        if marker == 0xD9 or marker == 0xDA:
            break  # end of image, or scan data before any frame header
        (length,) = struct.unpack(">H", data[pos + 2 : pos + 4])
        if length < 2:
            raise VisionError("damaged JPEG header (a segment of impossible length)")
        if marker in _SOF:
            if pos + 9 > end:
                break
            height, width = struct.unpack(">HH", data[pos + 5 : pos + 9])
            return int(width), int(height)
        pos += 2 + length
    raise VisionError("damaged JPEG header (no frame size before the image data)")


def read_photo(path: Path, cfg: LoadConfig) -> Photo:
    """Returns a photo file decoded, after checking its size from the header.

    The bytes come through the referee's guarded reader (regular files only, counted while
    read, at most ``cfg.max_bytes``).

    Raises:
        VisionError: unreadable, not a PNG or JPEG, too large or too small, or undecodable.
    """
    label = str(path)
    try:
        data = read_bytes(path, limit=cfg.max_bytes, what="photo")
    except InputFileError as exc:
        problem = exc.problem if exc.problem.startswith("cannot read") else f"cannot read the photo ({exc.problem})"
        raise VisionError(f"{label}: {problem}") from None
    return decode_photo(data, label, cfg)


def decode_photo(data: bytes, label: str, cfg: LoadConfig) -> Photo:
    """Returns photo bytes decoded, after checking format and size from the header.

    Raises:
        VisionError: not a PNG or JPEG, too large or too small, or undecodable.
    """
    try:
        fmt, width, height = image_size(data)
    except VisionError as exc:
        raise VisionError(f"{label}: {exc}") from None
    pixels = width * height
    if pixels > cfg.max_pixels:
        raise VisionError(
            f"{label}: {width}×{height} ({pixels / 1e6:.0f} MP) is above the "
            f"{cfg.max_pixels / 1e6:.0f} MP limit; resize the photo"
        )
    if min(width, height) < cfg.min_side:
        raise VisionError(
            f"{label}: {width}×{height} is too small; the shorter side needs {cfg.min_side} px"
        )
    reduction = 1
    while reduction < 8 and pixels / (reduction * reduction) > cfg.work_pixels:
        reduction *= 2
    buffer = np.frombuffer(data, dtype=np.uint8)
    with native_stderr() as said:
        try:
            image = cv2.imdecode(buffer, _REDUCED[reduction])
        except cv2.error:
            image = None
    damage = [line for line in said if line.startswith(_DAMAGE)]
    if damage and image is not None:
        raise VisionError(f"{label}: the {fmt.upper()} data is damaged ({damage[0].rstrip('.')})")
    if image is None or image.ndim != 3 or image.size == 0:
        raise VisionError(
            f"{label}: the {fmt.upper()} data cannot be decoded (truncated or damaged file)"
        )
    return Photo(
        image=np.ascontiguousarray(image, dtype=np.uint8),
        source=label,
        format=fmt,
        width=width,
        height=height,
        reduction=reduction,
    )
