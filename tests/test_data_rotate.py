"""A turned dataset keeps each tile's pixels under its (turned) quad, and never overwrites a dataset."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from pungchow_data.coco import DatasetError
from pungchow_data.rotate import rotate_dataset, turn_point

SAMPLE = Path(__file__).resolve().parent / "fixtures" / "data" / "synth-sample"


def _face(img: np.ndarray, quad: list[list[float]]) -> np.ndarray:
    m = cv2.getPerspectiveTransform(np.float32(quad), np.float32([[0, 0], [24, 0], [24, 32], [0, 32]]))
    return cv2.warpPerspective(img, m, (24, 32)).astype(np.float32)


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_turned_quads_hold_the_same_faces(tmp_path: Path, turns: int) -> None:
    rotate_dataset(SAMPLE, tmp_path / "r", turns)
    before = json.loads((SAMPLE / "annotations.json").read_text())
    after = json.loads((tmp_path / "r" / "annotations.json").read_text())
    im0, im1 = before["images"][0], after["images"][0]
    a = cv2.imread(str(SAMPLE / im0["file_name"]))
    b = cv2.imread(str(tmp_path / "r" / im1["file_name"]))
    assert b.shape[:2] == ((im0["height"], im0["width"]) if turns == 2 else (im0["width"], im0["height"]))
    diffs = []
    for t0, t1 in zip(before["annotations"], after["annotations"]):
        if t0["image_id"] != im0["id"] or not t0["quad"]:
            continue
        diffs.append(np.abs(_face(a, t0["quad"]) - _face(b, t1["quad"])).mean())
        x, y, w, h = t1["bbox"]
        assert x >= -0.5 and y >= -0.5 and x + w <= b.shape[1] + 0.5 and y + h <= b.shape[0] + 0.5
    assert diffs and float(np.median(diffs)) < 3.0  # JPEG re-encoding; half a pixel off gives 7 to 13


def test_four_quarter_turns_come_back() -> None:
    assert turn_point(*turn_point(3.0, 5.0, 100, 60, 3), 60, 100, 1) == (3.0, 5.0)
    assert turn_point(*turn_point(3.0, 5.0, 100, 60, 1, edges=True), 60, 100, 3, edges=True) == (3.0, 5.0)
    assert turn_point(0.0, 0.0, 100, 60, 1, edges=True) == (60.0, 0.0)


def test_never_overwrites(tmp_path: Path) -> None:
    rotate_dataset(SAMPLE, tmp_path / "r", 1)
    with pytest.raises(DatasetError, match="already holds"):
        rotate_dataset(SAMPLE, tmp_path / "r", 2)
