"""Uploads are checked before anything reads them; drawings of boxes and faces."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from webapp.drawing import draw_detections, tile_face, tile_row
from webapp.photos import PhotoError, read_photo, thumbnail_jpeg
from webapp.review import ReviewTile


def jpeg(width: int = 640, height: int = 480) -> bytes:
    image = np.full((height, width, 3), 180, np.uint8)
    return cv2.imencode(".jpg", image)[1].tobytes()


def test_a_photo_is_read_and_hashed() -> None:
    photo = read_photo(jpeg(), "hand.jpg")
    assert photo.size == (640, 480) and len(photo.sha256) == 64
    thumb = cv2.imdecode(np.frombuffer(thumbnail_jpeg(photo.image), np.uint8), cv2.IMREAD_COLOR)
    assert max(thumb.shape[:2]) == 480


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"%PDF-1.4 not a picture", "not a photo"),
        (jpeg()[:200], "read|truncated|damaged"),
        (jpeg(16, 16), "too small"),
    ],
    ids=["empty", "pdf", "cut-short", "tiny"],
)
def test_bad_uploads_say_what_is_wrong(data: bytes, message: str) -> None:
    with pytest.raises(PhotoError, match=message):
        read_photo(data, "upload")


def test_too_large_an_upload_is_refused_before_decoding() -> None:
    with pytest.raises(PhotoError, match="limit"):
        read_photo(b"\xff\xd8\xff" + b"\0" * 2_000_000, "big.jpg", max_mb=1)


def test_boxes_and_faces_are_drawn() -> None:
    image = np.zeros((1400, 2100, 3), np.uint8)
    tiles = [ReviewTile(0, "5D", box=(200, 400, 260, 480), confidence=0.4), ReviewTile(1, "RD")]
    drawn = draw_detections(image, tiles, chosen=0)
    assert drawn.shape[1] == image.shape[1] and drawn[400:480, 200].any()
    assert drawn.shape[0] > image.shape[0] and drawn[1400:].any(), "a strip under the photo explains the colours"
    assert draw_detections(image, tiles, legend=False).shape == image.shape
    assert drawn[400 - 40 : 400, 200:230].any(), "the box's number is written above it"
    small = draw_detections(np.zeros((200, 300, 3), np.uint8), tiles[:1])
    assert small.shape[0] > 200, "a small photo is enlarged so its labels can be read"
    assert tile_face("XX").size == tile_face("1B").size
    assert tile_row(["1B", "2B"]).size[0] > tile_face("1B").size[0]
