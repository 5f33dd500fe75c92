"""Reading a photo safely: any size, any EXIF orientation, never a crash on a bad file."""

from __future__ import annotations

import io
import re
import struct
import warnings
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, UnidentifiedImageError

from recognizer.errors import BadPhotoError
from scoring.jsonfile import InputFileError, read_input_file

#: Refuse photos above this many pixels (a decompression bomb, or a scan far beyond any phone).
MAX_PIXELS = 100_000_000
#: Refuse non-JPEG images above this many pixels: only a JPEG decodes at a reduced size, a PNG decodes in full.
MAX_FULL_DECODE_PIXELS = 50_000_000
#: Refuse files bigger than this before reading them.
MAX_FILE_BYTES = 100_000_000
#: Decode big JPEGs at a reduced size as long as the long side stays at least this.
WORK_LONG_SIDE = 1000
#: The most a photo's long side may be of its short side: a phone's panorama is about 4:1, and a strip
#: thinner than this shows no hand (shrunk for reading, it would be less than a pixel across).
MAX_ASPECT = 20


def load_photo(source: str | Path | bytes) -> np.ndarray:
    """Photo file or bytes -> RGB uint8 (H, W, 3), upright per EXIF, at most ~WORK_LONG_SIDE.

    Raises BadPhotoError with a reason for empty, truncated, non-image and oversized input.
    """
    return load_photo_sized(source)[0]


def load_photo_sized(source: str | Path | bytes) -> tuple[np.ndarray, tuple[int, int]]:
    """``load_photo``'s pixels and the photo's own (width, height), upright: a big JPEG is read smaller than it is."""
    name = "the photo" if isinstance(source, bytes) else str(source)
    data = source if isinstance(source, bytes) else _read_photo_file(Path(source), name)
    if not data:
        raise BadPhotoError(f"{name} is empty (0 bytes); take or copy the photo again")
    width, height, fmt, orientation = read_header(data, name)
    check_shape(width, height, name)
    if width * height > MAX_PIXELS:
        raise BadPhotoError(
            f"{name} is {width}x{height} ({width * height / 1e6:.0f} MP), more than the {MAX_PIXELS / 1e6:.0f} MP we read; "
            "resize it (a phone photo is 12-48 MP)")
    if fmt != "JPEG" and width * height > MAX_FULL_DECODE_PIXELS:
        raise BadPhotoError(
            f"{name} is a {width}x{height} {fmt or 'image'} ({width * height / 1e6:.0f} MP); only a JPEG is read at a reduced size, "
            f"other formats up to {MAX_FULL_DECODE_PIXELS / 1e6:.0f} MP: save it as JPEG or resize it")
    factor = 1
    if fmt == "JPEG":
        for f in (8, 4, 2):
            if max(width, height) / f >= WORK_LONG_SIDE:
                factor = f
                break
    flag = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}[factor]
    if fmt == "JPEG" and not _whole_jpeg(data):
        raise BadPhotoError(f"{name} is a truncated JPEG (the file ends early); copy the photo again")
    bgr = cv2.imdecode(np.frombuffer(data, np.uint8), flag | cv2.IMREAD_IGNORE_ORIENTATION)
    if bgr is None or bgr.size == 0:
        bgr = _decode_with_pillow(data, name)
    rgb = _upright(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB), orientation)
    h, w = rgb.shape[:2]
    if max(h, w) > 2 * WORK_LONG_SIDE:
        s = WORK_LONG_SIDE / max(h, w)
        rgb = cv2.resize(rgb, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    return rgb, ((height, width) if exif_orientation(orientation) >= 5 else (width, height))


def check_shape(width: int, height: int, name: str = "the photo") -> None:
    """Refuse a picture with no pixels or one far longer than wide, before anything scales it: every
    reader (the photo loader, the levelling, a tile set's photo) shrinks photos, and a 1x20000 strip
    shrunk is less than a pixel across."""
    if min(width, height) < 1:
        raise BadPhotoError(f"{name} is {width}x{height} pixels: it holds no picture; take or copy the photo again")
    if max(width, height) > MAX_ASPECT * min(width, height):
        raise BadPhotoError(
            f"{name} is {width}x{height} pixels, {max(width, height) // min(width, height)} times longer than wide; "
            f"a photo of a hand is at most {MAX_ASPECT}:1: crop it to the hand or take it again")


def shrunk(rgb: np.ndarray, scale: float) -> np.ndarray:
    """``rgb`` scaled by ``scale`` (below 1), every side kept at least one pixel (an array handed in
    directly has not met ``check_shape``)."""
    h, w = rgb.shape[:2]
    if min(round(w * scale), round(h * scale)) >= 1:
        return cv2.resize(rgb, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return cv2.resize(rgb, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)


def _orientation_tag(im: Image.Image) -> object:
    """The raw EXIF orientation, read without decoding pixels: Pillow loads a whole PNG to find
    EXIF stored after its pixels, so only EXIF met in the header is looked at."""
    if im.format != "JPEG" and "exif" not in im.info:
        return 1
    try:
        return im.getexif().get(0x0112, 1)
    except (OSError, ValueError, SyntaxError, struct.error):
        return 1


def read_header(data: bytes, name: str = "the photo") -> tuple[int, int, str | None, object]:
    """(width, height, format, EXIF orientation) from the file's header alone, before any pixel is decoded."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:
                return im.size[0], im.size[1], im.format, _orientation_tag(im)
    except Image.DecompressionBombError:
        raise BadPhotoError(f"{name} claims more than {2 * (Image.MAX_IMAGE_PIXELS or 0) / 1e6:.0f} MP, far more than any photo; "
                            "it may be a decompression bomb, so it was not opened") from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
        raise BadPhotoError(f"{name} is not an image we can read ({type(exc).__name__}); use a JPEG or PNG photo") from None


def _read_photo_file(path: Path, name: str) -> bytes:
    """The bytes of a regular file no bigger than MAX_FILE_BYTES (a phone photo is a few MB)."""
    try:
        return read_input_file(path, name, "a JPEG or PNG photo", MAX_FILE_BYTES)
    except InputFileError as exc:
        raise BadPhotoError(str(exc)) from None


#: A marker inside entropy-coded JPEG data: 0xFF then anything but a stuffed zero, a restart marker or fill.
_JPEG_MARKER = re.compile(rb"\xff[^\x00\xd0-\xd7\xff]")


def _whole_jpeg(data: bytes) -> bool:
    """Whether the JPEG's own segments run to its end marker (EOI).

    Walks the segments rather than looking at the file's last bytes, so a photo with data after
    its end marker (motion photos, maker trailers) is whole, and one cut short is not.
    A structure this walk does not know is left to the decoder.
    """
    pos, n = 2, len(data)
    while pos + 2 <= n:
        if data[pos] != 0xFF:
            return True
        marker = data[pos + 1]
        if marker == 0xD9:
            return True
        if marker == 0xFF or 0xD0 <= marker <= 0xD7 or marker == 0x01:
            pos += 1 if marker == 0xFF else 2
            continue
        if pos + 4 > n:
            return False
        pos += 2 + int.from_bytes(data[pos + 2:pos + 4], "big")
        if marker == 0xDA:
            found = _JPEG_MARKER.search(data, pos)
            if found is None:
                return False
            pos = found.start()
    return False


def _decode_with_pillow(data: bytes, name: str) -> np.ndarray:
    try:
        with Image.open(io.BytesIO(data)) as im:
            im.load()
            return cv2.cvtColor(np.asarray(im.convert("RGB")), cv2.COLOR_RGB2BGR)
    except (OSError, ValueError, SyntaxError) as exc:
        raise BadPhotoError(f"{name} could not be decoded ({exc}); it may be truncated or damaged, copy it again") from None


def _upright(rgb: np.ndarray, orientation: object) -> np.ndarray:
    """Apply the EXIF orientation tag (1-8, however stored) so the photo is as the player saw it."""
    ops = {
        2: lambda a: a[:, ::-1],
        3: lambda a: a[::-1, ::-1],
        4: lambda a: a[::-1],
        5: lambda a: np.rot90(a[:, ::-1], 1),
        6: lambda a: np.rot90(a, -1),
        7: lambda a: np.rot90(a[:, ::-1], -1),
        8: lambda a: np.rot90(a, 1),
    }
    op = ops.get(exif_orientation(orientation))
    return np.ascontiguousarray(op(rgb)) if op else rgb


def exif_orientation(value: object) -> int:
    """The EXIF orientation as 1-8; a tag stored as text ("6"), as a list, or out of range reads as upright (1).

    >>> exif_orientation("6"), exif_orientation(b"x"), exif_orientation((8,)), exif_orientation(99)
    (6, 1, 8, 1)
    """
    if isinstance(value, (tuple, list)) and value:
        value = value[0]
    if isinstance(value, bytes):
        value = value.decode("ascii", "replace")
    try:
        number = int(str(value).strip().rstrip("\x00"))
    except ValueError:
        return 1
    return number if 1 <= number <= 8 else 1
