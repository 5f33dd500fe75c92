"""A dataset turned by quarter turns, labels and all: a photo taken from another side of the table.

Tiles keep their codes; boxes become the boxes round the turned corners. Used for the rotation
check of the recognizer (held-out scenes turned 90, 180 and 270 degrees read as well as upright).
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from pungchow_data.coco import ANNOTATIONS_FILE, DatasetError, load_dataset
from scoring.argtypes import check_dataset_out, inside, write_atomically
from scoring.jsonfile import MAX_ANNOTATION_BYTES, load_json_file


def turn_point(x: float, y: float, width: int, height: int, turns: int, edges: bool = False) -> tuple[float, float]:
    """Where (x, y) of a ``width`` x ``height`` image lands after ``turns`` quarter turns clockwise.

    Quad corners are pixel-centre coordinates (pixel ``i`` at ``i``); box sides are pixel edges
    (``edges``: pixel ``i`` spans ``i`` to ``i + 1``), so the two turn about centres half a pixel apart.
    """
    last = 0.0 if edges else 1.0
    for _ in range(turns % 4):
        x, y, width, height = height - last - y, x, height, width
    return x, y


def rotate_dataset(src: Path, out: Path, turns: int) -> Path:
    """Write ``out``: every image of ``src`` turned ``turns`` quarter turns clockwise, with its labels.

    The annotations are read and checked as every consumer reads them (``load_dataset``: bounded, typed), and
    each image is read and written only inside its own dataset's folder, whatever its ``file_name`` says.
    """
    if (out / ANNOTATIONS_FILE).exists():
        raise DatasetError(f"{out} already holds a dataset: choose a new folder")
    check_dataset_out(out)
    load_dataset(src)
    data = load_json_file(src / ANNOTATIONS_FILE, "annotations", max_bytes=MAX_ANNOTATION_BYTES, max_items=None)
    sizes = {}
    for im in data["images"]:
        source = inside(src, im["file_name"], "an image")
        target = inside(out, im["file_name"], "an image")
        img = cv2.imread(str(source), cv2.IMREAD_COLOR)
        if img is None:
            raise DatasetError(f"cannot read {source}")
        turned = np.ascontiguousarray(np.rot90(img, -(turns % 4)))
        target.parent.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(target), turned, [cv2.IMWRITE_JPEG_QUALITY, 95]):
            raise DatasetError(f"cannot write {target}: free some space or write the dataset elsewhere")
        sizes[im["id"]] = (im["width"], im["height"])
        im["height"], im["width"] = turned.shape[:2]
    for a in data["annotations"]:
        w, h = sizes[a["image_id"]]
        x, y, bw, bh = a["bbox"]
        corners = np.array([turn_point(px, py, w, h, turns, edges=True) for px, py in ((x, y), (x + bw, y), (x + bw, y + bh), (x, y + bh))])
        lo, hi = corners.min(0), corners.max(0)
        a["bbox"] = [round(float(v), 2) for v in (lo[0], lo[1], hi[0] - lo[0], hi[1] - lo[1])]
        if a.get("quad"):
            a["quad"] = [[round(v, 2) for v in turn_point(px, py, w, h, turns)] for px, py in a["quad"]]
    data.setdefault("info", {})["rotated"] = f"{(turns % 4) * 90} degrees clockwise from {src}"
    out.mkdir(parents=True, exist_ok=True)
    return write_atomically(out / ANNOTATIONS_FILE, json.dumps(data).encode())
