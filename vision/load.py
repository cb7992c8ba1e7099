"""Reading a photo safely: size and format from the file header, then a (scaled) decode.

PNG, JPEG and HEIC/HEIF (the default of many phones) are accepted, read through
:func:`referee.files.read_bytes` (regular files, bytes counted). Their dimensions are read from
the header (PNG ``IHDR``, JPEG ``SOFn``, HEIF's ``ispe`` through libheif, which parses the
container without decoding) and checked against the pixel cap *before* any decoding, so a
decompression bomb is refused without allocating its pixels. Large photos are decoded at 1/2,
1/4 or 1/8 scale (JPEG scales during decoding, which is also much faster). A JPEG's EXIF
orientation (a phone held sideways) is applied, at every scale; HEIF images come out turned as
their container says. HEIF decoding uses ``pillow-heif`` (libheif), imported only for those
files. What libjpeg prints about damaged data becomes our line.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np
import numpy.typing as npt

from referee.errors import InputFileError
from referee.files import read_bytes
from referee.i18n import _
from referee.images import native_stderr, opencv
from vision.config import LoadConfig
from vision.errors import VisionError

if TYPE_CHECKING:
    import pillow_heif

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


HEIF_BRANDS = frozenset({b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"hevm", b"hevs", b"mif1", b"msf1"})
"""``ftyp`` brands of HEIF still images (HEVC-coded: what phones write)."""


def is_heif(data: bytes) -> bool:
    r"""Whether bytes start like a HEIF file (an ``ftyp`` box with a HEIF brand).

    >>> is_heif(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic")
    True
    """
    if len(data) < 16 or data[4:8] != b"ftyp":
        return False
    size = int.from_bytes(data[0:4], "big")
    brands = [data[8:12]] + [data[i : i + 4] for i in range(16, min(size, 64, len(data)) - 3, 4)]
    return any(b in HEIF_BRANDS for b in brands)


def image_size(data: bytes) -> tuple[str, int, int]:
    """Returns ``(format, width, height)`` read from a PNG, JPEG or HEIF header.

    >>> image_size(PNG_SIGNATURE + struct.pack(">I4sII", 13, b"IHDR", 640, 480))
    ('png', 640, 480)

    Raises:
        VisionError: not a PNG or JPEG file, or a damaged header.
    """
    if data.startswith(PNG_SIGNATURE):
        if len(data) < 24 or data[12:16] != b"IHDR":
            raise VisionError(_("damaged PNG header (no IHDR chunk)"))
        width, height = struct.unpack(">II", data[16:24])
        return "png", int(width), int(height)
    if data.startswith(JPEG_SOI):
        return ("jpeg", *_jpeg_size(data))
    if is_heif(data):
        return ("heif", *_heif_size(data))
    raise VisionError(_("not a photo: only PNG, JPEG and HEIC/HEIF files are read"))


def _heif_size(data: bytes) -> tuple[int, int]:
    """The primary image's size from a HEIF container (parsed, not decoded)."""
    heif = _open_heif(data)
    width, height = heif.size
    return int(width), int(height)


def _open_heif(data: bytes) -> pillow_heif.HeifFile:
    try:
        import pillow_heif  # lazy: pillow_heif
    except ImportError:
        raise VisionError(
            _("HEIC/HEIF photos need the pillow-heif package (pip install pillow-heif); or export the photo as JPEG")
        ) from None
    try:
        return pillow_heif.open_heif(data, convert_hdr_to_8bit=True)
    except (ValueError, RuntimeError, OSError):
        raise VisionError(_("damaged HEIF file (its container cannot be read)")) from None


def exif_orientation(data: bytes) -> int:
    r"""Returns a JPEG's EXIF orientation (1-8; 1 when absent or unreadable), from its APP1
    segment, reading at most the segments before the image data.

    >>> exif_orientation(JPEG_SOI + b"\xff\xd9")
    1
    """
    pos, end = 2, len(data)
    while pos + 4 <= end and data[pos] == 0xFF:
        marker = data[pos + 1]
        if marker in (0xD9, 0xDA):
            break
        if marker in _NO_LENGTH or marker == 0xFF:
            pos += 1 if marker == 0xFF else 2
            continue
        length = int.from_bytes(data[pos + 2 : pos + 4], "big")
        if length < 2:
            break
        body = data[pos + 4 : pos + 2 + length]
        if marker == 0xE1 and body.startswith(b"Exif\x00\x00"):
            return _tiff_orientation(body[6:])
        pos += 2 + length
    return 1


def _tiff_orientation(tiff: bytes) -> int:
    if len(tiff) < 8 or tiff[:2] not in (b"II", b"MM"):
        return 1
    order: Literal["little", "big"] = "little" if tiff[:2] == b"II" else "big"
    ifd = int.from_bytes(tiff[4:8], order)
    if ifd + 2 > len(tiff):
        return 1
    count = min(int.from_bytes(tiff[ifd : ifd + 2], order), 512)
    for k in range(count):
        entry = ifd + 2 + 12 * k
        if entry + 12 > len(tiff):
            break
        if int.from_bytes(tiff[entry : entry + 2], order) == 0x0112:
            value = int.from_bytes(tiff[entry + 8 : entry + 10], order)
            return value if 1 <= value <= 8 else 1
    return 1


def orient(image: npt.NDArray[np.uint8], orientation: int) -> npt.NDArray[np.uint8]:
    """Returns an image turned upright as its EXIF orientation (1-8) says."""
    if orientation == 2:
        return np.asarray(cv2.flip(image, 1), np.uint8)
    if orientation == 3:
        return np.asarray(cv2.rotate(image, cv2.ROTATE_180), np.uint8)
    if orientation == 4:
        return np.asarray(cv2.flip(image, 0), np.uint8)
    if orientation == 5:
        return np.asarray(cv2.transpose(image), np.uint8)
    if orientation == 6:
        return np.asarray(cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE), np.uint8)
    if orientation == 7:
        return np.asarray(cv2.rotate(cv2.transpose(image), cv2.ROTATE_180), np.uint8)
    if orientation == 8:
        return np.asarray(cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE), np.uint8)
    return image


def _jpeg_size(data: bytes) -> tuple[int, int]:
    pos = 2
    end = len(data)
    while pos + 4 <= end:
        if data[pos] != 0xFF:
            raise VisionError(_("damaged JPEG header (no segment marker where one should be)"))
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
            raise VisionError(_("damaged JPEG header (a segment of impossible length)"))
        if marker in _SOF:
            if pos + 9 > end:
                break
            height, width = struct.unpack(">HH", data[pos + 5 : pos + 9])
            return int(width), int(height)
        pos += 2 + length
    raise VisionError(_("damaged JPEG header (no frame size before the image data)"))


def jpeg_scans(data: bytes, limit: int) -> int:
    r"""Returns how many scans (progressive passes) a JPEG holds, counting no further than
    ``limit + 1``: the segments are walked from the header, each scan's coded data skipped to the
    next marker (a 0xFF that is neither stuffing nor a restart, :func:`markers_after_data`).

    >>> jpeg_scans(JPEG_SOI + b"\xff\xda\x00\x02" + b"\x12\xff\x00\x34" + b"\xff\xd9", 8)
    1
    """
    pos, end, scans = 2, len(data), 0
    after: npt.NDArray[np.intp] | None = None  # found once, at the first scan
    while pos + 4 <= end and scans <= limit:
        if data[pos] != 0xFF:
            break
        marker = data[pos + 1]
        if marker == 0xFF or marker in _NO_LENGTH:
            pos += 1 if marker == 0xFF else 2
            continue
        if marker == 0xD9:
            break
        pos += 2 + int.from_bytes(data[pos + 2 : pos + 4], "big")
        if marker == 0xDA:
            scans += 1
            after = markers_after_data(data) if after is None else after
            k = int(np.searchsorted(after, pos))
            if k == len(after):
                break
            pos = int(after[k])
    return scans


def markers_after_data(data: bytes) -> npt.NDArray[np.intp]:
    r"""Returns, in order, where every marker that may follow coded data starts: each 0xFF (the
    last of a run of them: the others are fill) followed by a byte that is neither 0x00 (a 0xFF
    of the data, stuffed) nor a restart marker (0xD0-0xD7, inside the data). Found for the whole
    file at once (a scan's data is most of it).

    >>> markers_after_data(b"\x12\xff\x00\x34\xff\xd3\xff\xff\xd9").tolist()
    [7]
    """
    raw = np.frombuffer(data, np.uint8)
    at = np.flatnonzero(raw[:-1] == 0xFF)
    then = raw[at + 1]
    out: npt.NDArray[np.intp] = at[(then != 0x00) & (then != 0xFF) & ((then < 0xD0) | (then > 0xD7))]
    return out


def _decode_heif(data: bytes, reduction: int) -> npt.NDArray[np.uint8] | None:
    """Decodes a HEIF file's primary image to BGR (turned upright), shrunk by ``reduction``."""
    heif = _open_heif(data)
    try:
        rgb = np.asarray(heif)
    except (ValueError, RuntimeError, OSError):
        return None
    if rgb.ndim != 3 or rgb.shape[2] not in (3, 4):
        return None
    bgr = cv2.cvtColor(rgb, cv2.COLOR_RGBA2BGR if rgb.shape[2] == 4 else cv2.COLOR_RGB2BGR)
    if reduction > 1:
        h, w = bgr.shape[:2]
        bgr = cv2.resize(bgr, (w // reduction, h // reduction), interpolation=cv2.INTER_AREA)
    out: npt.NDArray[np.uint8] = bgr.astype(np.uint8)
    return out


def _check_work(data: bytes, fmt: str, pixels: int, reduction: int, label: str, cfg: LoadConfig) -> None:
    """Refuses, before any decoding, the files whose decoding alone would take seconds: a PNG or
    HEIF larger than ``max_decoded_pixels`` (they are decoded at full size, whatever the work
    size), or a JPEG of more than ``max_scans`` scans (each scan passes over the whole image).

    Raises:
        VisionError: the file says it needs too much work.
    """
    if fmt != "jpeg" and pixels > cfg.max_decoded_pixels:
        raise VisionError(
            _("{label}: a {format} of {mp} MP is decoded whole, above the {limit} MP limit for that format; "
              "save it as JPEG or resize it").format(label=label, format=fmt.upper(), mp=f"{pixels / 1e6:.0f}",
                                                     limit=f"{cfg.max_decoded_pixels / 1e6:.0f}"))
    if fmt == "jpeg" and jpeg_scans(data, cfg.max_scans) > cfg.max_scans:
        raise VisionError(
            _("{label}: the JPEG holds more than {limit} scans (progressive passes); a camera writes "
              "at most a dozen: save it again as an ordinary JPEG").format(label=label, limit=cfg.max_scans))


def read_photo(path: Path, cfg: LoadConfig) -> Photo:
    """Returns a photo file decoded, after checking its size from the header.

    The bytes come through the referee's guarded reader (regular files only, counted while
    read, at most ``cfg.max_bytes``).

    Raises:
        VisionError: unreadable, not a PNG, JPEG or HEIF, too large or too small, or
            undecodable.
    """
    label = str(path)
    try:
        data = read_bytes(path, limit=cfg.max_bytes, what="photo")
    except InputFileError as exc:
        said = _("cannot read ({reason})").partition("{reason}")[0]  # the reader's own "cannot read (...)"
        problem = exc.problem if exc.problem.startswith(said) else _("cannot read the photo ({problem})").format(
            problem=exc.problem)
        raise VisionError(f"{label}: {problem}") from None
    return decode_photo(data, label, cfg)


def decode_photo(data: bytes, label: str, cfg: LoadConfig) -> Photo:
    """Returns photo bytes decoded, after checking format and size from the header.

    Raises:
        VisionError: not a PNG, JPEG or HEIF, too large or too small, or undecodable.
    """
    try:
        fmt, width, height = image_size(data)
    except VisionError as exc:
        raise VisionError(f"{label}: {exc}") from None
    pixels = width * height
    if pixels > cfg.max_pixels:
        raise VisionError(
            _("{label}: {width}×{height} ({mp} MP) is above the {limit} MP limit; resize the photo").format(
                label=label, width=width, height=height, mp=f"{pixels / 1e6:.0f}", limit=f"{cfg.max_pixels / 1e6:.0f}")
        )
    if min(width, height) < cfg.min_side:
        raise VisionError(_("{label}: {width}×{height} is too small; the shorter side needs {side} px").format(
            label=label, width=width, height=height, side=cfg.min_side))
    reduction = 1
    while reduction < 8 and pixels / (reduction * reduction) > cfg.work_pixels:
        reduction *= 2
    _check_work(data, fmt, pixels, reduction, label, cfg)
    image: npt.NDArray[np.uint8] | None
    if fmt == "heif":
        image = _decode_heif(data, reduction)
    else:
        buffer = np.frombuffer(data, dtype=np.uint8)
        with native_stderr() as said:
            try:
                image = cv2.imdecode(buffer, _REDUCED[reduction] | cv2.IMREAD_IGNORE_ORIENTATION)
            except cv2.error:
                image = None
        damage = [line for line in said if line.startswith(_DAMAGE)]
        if damage and image is not None:
            raise VisionError(_("{label}: the {format} data is damaged ({report})").format(
                label=label, format=fmt.upper(), report=damage[0].rstrip(".")))
        if image is not None and fmt == "jpeg":
            image = orient(image, exif_orientation(data))
    if image is None or image.ndim != 3 or image.size == 0:
        raise VisionError(_("{label}: the {format} data cannot be decoded (truncated or damaged file)").format(
            label=label, format=fmt.upper()))
    return Photo(
        image=np.ascontiguousarray(image, dtype=np.uint8),
        source=label,
        format=fmt,
        width=width,
        height=height,
        reduction=reduction,
    )
