"""Writing datasets in the one format every source uses and every consumer reads (COCO style).

The format, and the typed records read back from it, are defined in :mod:`recognizer.coco` (the
product's evaluation reads it without this training-data package); this module writes it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from recognizer.coco import (  # the reader and its records live with the recognizer, which reads datasets at run time
    ANNOTATIONS_FILE,
    GROUP_KINDS,
    IMAGES_DIR,
    SPLITS,
    Dataset,
    DatasetError,
    GroupLabel,
    ImageRecord,
    Point,
    TileLabel,
    categories,
    category_id,
    load_dataset,
)

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "ANNOTATIONS_FILE", "GROUP_KINDS", "IMAGES_DIR", "SPLITS", "Dataset", "DatasetError", "GroupLabel", "ImageRecord", "Point",
    "TileLabel", "bbox_of", "categories", "category_id", "load_dataset", "tile_crop", "to_coco", "write_annotations",
    "write_dataset",
]


def to_coco(images: Iterable[ImageRecord], info: dict[str, Any], licenses: list[dict[str, Any]]) -> dict[str, Any]:
    """The COCO dictionary, numbering images and annotations from 1 in the order given."""
    out_images: list[dict[str, Any]] = []
    out_anns: list[dict[str, Any]] = []
    ann_id = 1
    for image_id, im in enumerate(images, start=1):
        im.id = image_id
        out_images.append(im.to_dict())
        for t in im.tiles:
            t.id, t.image_id = ann_id, image_id
            out_anns.append(t.to_dict())
            ann_id += 1
    return {"info": info, "licenses": licenses, "categories": categories(), "images": out_images, "annotations": out_anns}


def write_annotations(root: str | Path, images: Iterable[ImageRecord], info: dict[str, Any], licenses: list[dict[str, Any]]) -> Path:
    """Write ``root/annotations.json`` (images must already be saved under ``root``)."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    path = root / ANNOTATIONS_FILE
    path.write_text(json.dumps(to_coco(images, info, licenses), indent=None, separators=(",", ":")))
    return path


def write_dataset(dataset: Dataset) -> Path:
    """Write a loaded (possibly edited) dataset's annotations back to its folder."""
    return write_annotations(dataset.root, dataset.images, dataset.info, dataset.licenses)


def tile_crop(image: np.ndarray, tile: TileLabel, size: tuple[int, int] = (48, 64)) -> np.ndarray:
    """The tile's face warped upright to ``size`` (width, height) from its quad, or its box when there is none.

    For a classifier stage: a crop from the quad is the face alone, the right way up, whatever the photo's angle.
    """
    import cv2
    import numpy as np

    w, h = size
    if tile.quad:
        src = np.asarray(tile.quad, np.float32)
    else:
        x, y, bw, bh = tile.bbox
        src = np.asarray([[x, y], [x + bw, y], [x + bw, y + bh], [x, y + bh]], np.float32)
    dst = np.asarray([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    return cv2.warpPerspective(image, cv2.getPerspectiveTransform(src, dst), (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def bbox_of(points: Iterable[Point]) -> tuple[float, float, float, float]:
    """The COCO box ``(x, y, w, h)`` around some points."""
    pts = list(points)
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
