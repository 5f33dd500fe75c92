"""Non-maximum suppression keeps exactly the boxes the greedy rule keeps."""

from __future__ import annotations

import numpy as np

from recognizer.detect import NMS_IOU, iou_matrix, nms
from recognizer.detections import Detections


def greedy(boxes: np.ndarray, scores: np.ndarray, iou: float) -> list[int]:
    """The rule written out: most confident first, keep a box unless it overlaps a kept one by more than ``iou``."""
    ious = iou_matrix(boxes, boxes)
    keep: list[int] = []
    for i in np.argsort(-scores):
        if all(ious[i, k] <= iou for k in keep):
            keep.append(int(i))
    return sorted(keep)


def test_nms_keeps_what_the_greedy_rule_keeps() -> None:
    rng = np.random.default_rng(7)
    for n in (0, 1, 2, 10, 60):
        for _ in range(10):
            xy = rng.uniform(0, 100, (n, 2))
            wh = rng.uniform(10, 40, (n, 2))
            boxes = np.concatenate([xy, wh], axis=1)
            scores = rng.uniform(0, 1, n)
            dets = Detections(boxes, scores)
            want = greedy(dets.boxes, dets.scores, NMS_IOU)
            assert np.array_equal(nms(dets).boxes, dets.boxes[want])
