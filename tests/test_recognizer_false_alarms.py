"""Mining the detector's false alarms as not-a-tile crops: what counts as one, with the shipped detector."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from pungchow_data.coco import load_dataset
from recognizer.detect import iou_matrix
from recognizer.train.prepare import false_alarms

SAMPLE = Path(__file__).resolve().parent / "fixtures" / "data" / "synth-sample"


def _scene(name: str) -> tuple[np.ndarray, np.ndarray]:
    ds = load_dataset(str(SAMPLE))
    im = next(i for i in ds.images if i.file_name.endswith(name))
    rgb = cv2.cvtColor(cv2.imread(str(ds.image_path(im))), cv2.COLOR_BGR2RGB)
    return rgb, np.array([t.bbox for t in im.tiles], np.float32)


def test_a_scene_whose_every_tile_is_labelled_has_no_false_alarm() -> None:
    rgb, tiles = _scene("000001.jpg")
    assert len(false_alarms(rgb, tiles)) == 0


def test_a_tile_left_unlabelled_comes_back_as_a_false_alarm() -> None:
    rgb, tiles = _scene("000001.jpg")
    found = false_alarms(rgb, tiles[1:])
    assert len(found) == 1
    assert iou_matrix(found, tiles[:1])[0, 0] > 0.8


def test_a_box_on_the_photos_edge_is_not_taken_for_a_false_alarm() -> None:
    """A tile cut off by the frame is not labelled in a scene; teaching it as not-a-tile would be wrong."""
    rgb, tiles = _scene("000001.jpg")
    x, _, w, _ = tiles[0]
    cut = np.ascontiguousarray(rgb[:, : int(x + w / 2)])  # the frame ends halfway across the first tile
    inside = tiles[tiles[:, 0] + tiles[:, 2] < cut.shape[1]]
    assert len(false_alarms(cut, inside)) == 0
