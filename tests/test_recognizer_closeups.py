"""A close-up of a few tiles is read as the whole photo reads them: the photo is looked at the scale its tiles ask for.

The detector finds tiles about 16-48 px on their short side at the look it reads. Cut from the committed sample as a
12 MP phone takes it, four tiles filling the frame are about a quarter of its width each: at the base look 80-90 px,
where the old scale choice (sized from whatever it boxed there: their pips and strokes) found none of them.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from recognizer.detect import iou_matrix
from recognizer.image import load_photo
from recognizer.pipeline import recognize

SAMPLE = Path(__file__).resolve().parent.parent / "recognizer" / "samples" / "finished-hand.jpg"


@pytest.fixture(scope="module")
def phone_photo() -> np.ndarray:
    """The sample hand at a 12 MP phone's size."""
    return cv2.resize(load_photo(SAMPLE), None, fx=4.5, fy=4.5, interpolation=cv2.INTER_CUBIC)


def test_four_tiles_filling_the_frame_read_as_in_the_whole_photo(phone_photo: np.ndarray) -> None:
    whole = recognize(phone_photo).detections
    same_row = np.abs(whole.centres[:, 1][:, None] - whole.centres[:, 1][None]) < 0.3 * np.median(whole.boxes[:, 3])
    row = whole[same_row[same_row.sum(axis=1).argmax()]]  # the longest row
    row = row[np.argsort(row.centres[:, 0])]
    assert len(row) >= 8
    for start in (0, 4):
        tiles = row[start:start + 4]
        x1, x2 = tiles.boxes[:, 0].min(), (tiles.boxes[:, 0] + tiles.boxes[:, 2]).max()
        width = (x2 - x1) / 0.9
        cx, cy = (x1 + x2) / 2, float(np.median(tiles.centres[:, 1]))
        left, top = int(cx - width / 2), int(cy - 0.375 * width)
        frame = np.ascontiguousarray(phone_photo[max(0, top):int(cy + 0.375 * width), max(0, left):int(cx + width / 2)])
        read = recognize(frame).detections
        truth = tiles.boxes - np.array([max(0, left), max(0, top), 0, 0], np.float32)
        assert len(read), "no tile found in the close-up"
        iou = iou_matrix(read.boxes, truth)
        codes = [{read.code(i) for i in range(len(read)) if iou[i, j] >= 0.5} for j in range(len(truth))]
        assert codes == [{tiles.code(j)} for j in range(len(tiles))], (start, codes)
