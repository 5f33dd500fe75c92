"""Photos from the table: checked before anything reads them, hashed and shrunk for the record.

A phone photo is a few megabytes; anything that is not an image, is cut short, or is far too big
is refused with a message the player can act on, and the page carries on.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import cv2
import numpy as np

from recognizer.image import load_photo, read_header
from scoring.errors import PungChowError

#: Largest upload the page reads, in megabytes (``server.maxUploadSize`` in ``.streamlit/config.toml`` matches).
MAX_UPLOAD_MB = 20
#: What the server accepts: more than any photo uploader takes (each says and keeps ``MAX_UPLOAD_MB``, and the page's
#: reader refuses more with its own message), so the server never cuts an upload short first.
SERVER_UPLOAD_MB = 5 * MAX_UPLOAD_MB
#: Largest side in pixels: beyond this a photo is almost surely not of a hand at a table.
MAX_SIDE = 12000
#: Photos are shrunk to this long side for reading and drawing: more pixels show no more tiles.
WORK_SIDE = 3200
#: Longest side of the thumbnail kept in the history.
THUMBNAIL_SIDE = 480

_SIGNATURES = (b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n", b"RIFF", b"BM", b"GIF8", b"II*\x00", b"MM\x00*")


class PhotoError(PungChowError):
    """The upload cannot be read as a photo of a hand."""


@dataclass(frozen=True)
class Photo:
    """A decoded photo (RGB, upright) and what identifies it in the dispute record."""

    name: str
    data: bytes
    image: np.ndarray
    sha256: str

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return int(self.image.shape[1]), int(self.image.shape[0])


def photo_key(data: bytes) -> str:
    """The photo's identity in the dispute record: sha256 of the bytes as uploaded."""
    return hashlib.sha256(data).hexdigest()


def read_photo(data: bytes, name: str = "photo", *, max_mb: float = MAX_UPLOAD_MB) -> Photo:
    """Decode an upload, or raise PhotoError saying what is wrong with it."""
    if not data:
        raise PhotoError(f"{name} is empty: take the photo again or pick another file")
    if len(data) > max_mb * 1024 * 1024:
        raise PhotoError(
            f"{name} is {len(data) / 1024 / 1024:.1f} MB; the limit is {max_mb:g} MB: "
            "send a smaller photo (a phone's normal setting is fine)"
        )
    if not any(data.startswith(sig) for sig in _SIGNATURES):
        raise PhotoError(f"{name} is not a photo: upload a JPEG or PNG picture of the hand")
    width, height = _header_size(data)
    if max(height, width) > MAX_SIDE:
        raise PhotoError(f"{name} is {width}x{height} pixels; the limit is {MAX_SIDE} on the longer side: shrink it")
    if 0 < min(height, width) < 32:
        raise PhotoError(f"{name} is only {width}x{height} pixels: too small to show any tile")
    image = _decode(data, name)
    return Photo(name=name, data=data, image=image, sha256=photo_key(data))


def _header_size(data: bytes) -> tuple[int, int]:
    """(width, height) as the file's header gives them, read before any pixel is decoded; (0, 0) when
    the header cannot be read (the decoder then says what is wrong)."""
    try:
        width, height, _, _ = read_header(data)
    except PungChowError:
        return 0, 0
    return width, height


def _decode(data: bytes, name: str) -> np.ndarray:
    """RGB pixels, upright as the player held the phone, read by the recognizer's own loader so the
    boxes it returns fit the picture the page draws them on."""
    try:
        return load_photo(data)
    except PungChowError as exc:
        raise PhotoError(str(exc).replace("the photo", name, 1)) from None


def thumbnail_jpeg(image: np.ndarray, side: int = THUMBNAIL_SIDE) -> bytes:
    """A small JPEG of the photo: enough to settle a dispute, small enough to keep every hand."""
    height, width = image.shape[:2]
    scale = min(1.0, side / max(height, width))
    small = cv2.resize(image, (max(1, round(width * scale)), max(1, round(height * scale))), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(small, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 80])
    if not ok:
        raise PhotoError("could not shrink the photo for the history")
    return buf.tobytes()


def kept_picture(data: bytes) -> bool:
    """The history's copy of a photo still decodes as a picture (a damaged file's bytes are never drawn as a broken image)."""
    decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    return decoded is not None and decoded.size > 0
