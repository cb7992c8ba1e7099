"""vision.load: the size is read from the header and capped before anything is decoded."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.config import LoadConfig
from vision.errors import VisionError
from vision.load import decode_photo, image_size, read_photo


def png_header(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    return b"\x89PNG\r\n\x1a\n" + chunk


def test_png_and_jpeg_sizes_come_from_their_headers() -> None:
    img = np.zeros((37, 53, 3), np.uint8)
    assert image_size(cv2.imencode(".png", img)[1].tobytes()) == ("png", 53, 37)
    assert image_size(cv2.imencode(".jpg", img)[1].tobytes()) == ("jpeg", 53, 37)


def test_jpeg_size_is_found_after_metadata_segments() -> None:
    data = cv2.imencode(".jpg", np.zeros((20, 30, 3), np.uint8))[1].tobytes()
    app1 = b"\xff\xe1" + struct.pack(">H", 2 + 5000) + b"x" * 5000  # a large EXIF-like segment
    assert image_size(data[:2] + app1 + data[2:]) == ("jpeg", 30, 20)


def test_a_huge_image_is_refused_from_its_header_alone(tmp_path: Path) -> None:
    # 100 000 x 100 000 pixels announced in 33 bytes: decoding would need 30 GB
    path = tmp_path / "bomb.png"
    path.write_bytes(png_header(100_000, 100_000) + b"\x00" * 64)
    with pytest.raises(VisionError, match="MP limit"):
        read_photo(path, LoadConfig())


def test_the_pixel_cap_is_a_setting(tmp_path: Path) -> None:
    path = tmp_path / "photo.png"
    cv2.imwrite(str(path), np.zeros((400, 600, 3), np.uint8))
    with pytest.raises(VisionError, match="limit"):
        read_photo(path, LoadConfig(max_pixels=100_000))
    assert read_photo(path, LoadConfig()).image.shape == (400, 600, 3)


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"hello, I am a text file\n",
        b"GIF89a" + b"\x00" * 100,
        b"\x89PNG\r\n\x1a\n" + b"\x00" * 8,
    ],
)
def test_non_images_are_refused_with_one_clear_line(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "notes.jpg"
    path.write_bytes(content)
    with pytest.raises(VisionError) as err:
        read_photo(path, LoadConfig())
    assert "\n" not in str(err.value)
    assert str(path) in str(err.value)


def test_a_truncated_jpeg_is_refused(tmp_path: Path) -> None:
    data = cv2.imencode(".jpg", np.full((600, 800, 3), 128, np.uint8))[1].tobytes()
    with pytest.raises(VisionError):
        decode_photo(data[:200], "cut.jpg", LoadConfig())


def test_too_small_photo_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "tiny.png"
    cv2.imwrite(str(path), np.zeros((100, 150, 3), np.uint8))
    with pytest.raises(VisionError, match="too small"):
        read_photo(path, LoadConfig())


def test_a_missing_file_is_a_vision_error(tmp_path: Path) -> None:
    with pytest.raises(VisionError, match="cannot read"):
        read_photo(tmp_path / "nope.jpg", LoadConfig())


def test_big_photos_are_decoded_at_a_reduced_scale(tmp_path: Path) -> None:
    path = tmp_path / "big.jpg"
    cv2.imwrite(str(path), np.full((3000, 4000, 3), 200, np.uint8))
    photo = read_photo(path, LoadConfig())
    assert (photo.width, photo.height, photo.reduction) == (4000, 3000, 2)
    assert photo.image.shape == (1500, 2000, 3)
