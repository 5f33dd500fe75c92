"""Turn COCO-style dataset folders into compact training caches (one pass over the photos)."""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from pungchow_data.coco import load_dataset
from recognizer.geometry import DETECT_LONG_SIDE, crop_tile
from recognizer.labels import CLASSES, NOT_A_TILE

#: Cached crops span the box grown by this much, so training can jitter inside them.
CACHE_CONTEXT = 1.5
CACHE_SIZE = (80, 60)
#: A detector box overlapping every labelled tile less than this is a false alarm (a tile's own box overlaps it ~0.8).
FALSE_ALARM_IOU = 0.3
#: Pixels from the photo's edge within which a box may be a cut-off tile.
EDGE = 3


def box_in_crop(size: tuple[int, int] = CACHE_SIZE) -> tuple[float, float, float, float]:
    """The labelled box (x, y, w, h) inside a crop of ``size`` cut at ``CACHE_CONTEXT``, in the crop's pixels."""
    ch, cw = size
    bw, bh = cw / CACHE_CONTEXT, ch / CACHE_CONTEXT
    return (cw - bw) / 2, (ch - bh) / 2, bw, bh


def _not_a_tile_boxes(rng: random.Random, boxes: np.ndarray, width: int, height: int, n: int) -> list[np.ndarray]:
    """Background patches and half-tile offsets: what a detector false alarm looks like."""
    out: list[np.ndarray] = []
    if len(boxes) == 0:
        return out
    med_w, med_h = np.median(boxes[:, 2]), np.median(boxes[:, 3])
    for _ in range(n * 20):
        if len(out) >= n:
            break
        if rng.random() < 0.4:
            b = boxes[rng.randrange(len(boxes))].copy()
            b[0] += b[2] * rng.choice([-1, 1]) * rng.uniform(0.45, 0.6)
            b[1] += b[3] * rng.uniform(-0.15, 0.15)
            out.append(b)
            continue
        w = med_w * rng.uniform(0.6, 1.5)
        h = med_h * rng.uniform(0.6, 1.5)
        x, y = rng.uniform(0, width - w), rng.uniform(0, height - h)
        b = np.array([x, y, w, h])
        x1, y1 = np.maximum(x, boxes[:, 0]), np.maximum(y, boxes[:, 1])
        x2, y2 = np.minimum(x + w, boxes[:, 0] + boxes[:, 2]), np.minimum(y + h, boxes[:, 1] + boxes[:, 3])
        inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
        if (inter / (w * h)).max() < 0.25:
            out.append(b)
    return out


def false_alarms(rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """The shipped detector's boxes that overlap no labelled tile (IoU below ``FALSE_ALARM_IOU``) and stay clear of
    the photo's edge: scoring sticks, coins, cards, papers and walls seen edge on, as the pipeline would meet them.

    A box on the edge is left out: it may be a tile cut off by the frame, which a scene does not label.
    """
    from recognizer.detect import detect, iou_matrix

    dets = detect(rgb)
    if not len(dets):
        return np.zeros((0, 4), np.float32)
    b = dets.boxes
    overlap = iou_matrix(b, boxes).max(axis=1) if len(boxes) else np.zeros(len(b))
    h, w = rgb.shape[:2]
    inside = (b[:, 0] > EDGE) & (b[:, 1] > EDGE) & (b[:, 0] + b[:, 2] < w - EDGE) & (b[:, 1] + b[:, 3] < h - EDGE)
    alarms: np.ndarray = b[(overlap < FALSE_ALARM_IOU) & inside]
    return alarms


def distractor_items(scenes: int, det_long_side: int) -> Iterator[dict[str, Any]]:
    """Detector images of drawn hands beside a keyboard, cards, dominoes, print, a patterned cloth or stone counters
    (``pungchow_data.distractors``, seeds ``TRAINING_SEEDS`` on; the distractor bench draws others): only the hand's
    tiles are boxes, so whatever the detector fires on beside them is taught as background."""
    from pungchow_data.distractors import KINDS, TRAINING_SEEDS, draw_scene

    for i in range(scenes):
        kind = KINDS[i % len(KINDS)]
        drawn = draw_scene(kind, TRAINING_SEEDS + i)
        yield detector_item(drawn.image, drawn.boxes, f"distractor-{kind}", kind, det_long_side)


#: How many times each book photo joins the detector's images: 15 prints among some 1 200 scenes are otherwise seen
#: a handful of times a run.
BOOK_REPEAT = 20


def book_rows(label: dict[str, Any]) -> list[dict[str, Any]]:
    """A book photo's rows of tiles: one hand's, or every hand's of a settling layout."""
    hands = label.get("hands")
    return [row for hand in (hands if isinstance(hands, list) else [label]) for row in hand["rows"]]


def book_items(realdev: Path, held_out: Collection[str] = (), det_long_side: int = DETECT_LONG_SIDE,
               repeat: int = BOOK_REPEAT) -> Iterator[dict[str, Any]]:
    """Detector images of the dev 1922 book photos (``realdev``: ``../shared/realdev``; public domain), every labelled
    tile a box ('??' ones too: they are tiles), captions and arrows beside them background; each ``repeat`` times,
    but those named in ``held_out`` (a photo's name without its suffix), kept out to be measured on."""
    for label in sorted((realdev / "book-1922" / "labels").glob("*.json")):
        if label.stem in held_out:
            continue
        doc = json.loads(label.read_text())
        bgr = cv2.imread(str(realdev / "book-1922" / "photos" / doc["image"]), cv2.IMREAD_COLOR)
        if bgr is None:
            raise FileNotFoundError(f"book photo {doc['image']} named by {label} is missing or unreadable")
        xyxy = np.array([b for row in book_rows(doc) for b in row["boxes"]], np.float32).reshape(-1, 4)
        boxes = np.concatenate([xyxy[:, :2], xyxy[:, 2:] - xyxy[:, :2]], axis=1)
        item = detector_item(bgr, boxes, "book-1922", "book", det_long_side)
        for _ in range(repeat):
            yield item


def detector_item(bgr: np.ndarray, boxes: np.ndarray, source: str, style: str | None, det_long_side: int) -> dict[str, Any]:
    """One photo as the detector's cache keeps it: JPEG bytes at ``det_long_side`` (never enlarged above the first
    look's) and its boxes scaled alike; ``long_side`` recorded when it is not the first look's."""
    h, w = bgr.shape[:2]
    s = det_long_side / max(h, w)
    if det_long_side > DETECT_LONG_SIDE:
        s = min(s, 1.0)
    small = cv2.resize(bgr, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    _, jpg = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 92])
    item: dict[str, Any] = {"jpg": jpg.tobytes(), "boxes": boxes * s, "source": source, "style": style}
    if det_long_side != DETECT_LONG_SIDE:
        item["long_side"] = max(small.shape[:2])
    return item


def prepare(dataset_dirs: list[str], out: str, splits: tuple[str, ...], seed: int = 0, mine: tuple[str, ...] = (),
            det_long_side: int = DETECT_LONG_SIDE, distractor_scenes: int = 0, book: Path | None = None,
            book_held_out: Collection[str] = ()) -> None:
    """Write OUT/{split}.pkl: detector images (JPEG bytes with a ``det_long_side`` long side + boxes) and classifier crops.

    A ``det_long_side`` above the detector's first look keeps the pixels its second look sees (up to
    ``detect.MAX_LONG_SIDE``; a smaller photo is kept as it is, not enlarged), so a detector can be trained on small
    tiles at the scale it reads them. At the first look's own long side every photo is scaled to it, as before.

    For the datasets in ``mine`` the detector's false alarms (``false_alarms``) are cut as not-a-tile crops too:
    they teach the classifier the clutter the detector takes for tiles. Only datasets whose every tile is
    labelled belong there (leo photos show unlabelled tiles beside the hand).

    ``distractor_scenes`` drawn hands beside things that are not tiles join the training split's detector images
    (``distractor_items``), and so do the dev book photos in ``book`` (``book_items``), less ``book_held_out``.
    """
    rng = random.Random(seed)
    for split in splits:
        det: list[dict[str, Any]] = []
        crops: list[np.ndarray] = []
        labels: list[int] = []
        sources: list[str] = []
        for d in dataset_dirs:
            ds = load_dataset(d)
            for im in ds.split(split):
                bgr = cv2.imread(str(ds.image_path(im)), cv2.IMREAD_COLOR)
                if bgr is None:
                    continue
                rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
                h, w = rgb.shape[:2]
                boxes = np.array([t.bbox for t in im.tiles], dtype=np.float32).reshape(-1, 4)
                codes = [CLASSES.index(t.code) for t in im.tiles]
                det.append(detector_item(bgr, boxes, im.source or d, im.style, det_long_side))
                for b, c in zip(boxes, codes):
                    crops.append(crop_tile(rgb, b, CACHE_CONTEXT, CACHE_SIZE))
                    labels.append(c)
                    sources.append(im.source or d)
                negatives = _not_a_tile_boxes(rng, boxes, w, h, max(1, len(boxes) // 6))
                if d in mine:
                    negatives += list(false_alarms(rgb, boxes))
                for b in negatives:
                    crops.append(crop_tile(rgb, b, CACHE_CONTEXT, CACHE_SIZE))
                    labels.append(CLASSES.index(NOT_A_TILE))
                    sources.append(im.source or d)
        if split == "train":
            det += distractor_items(distractor_scenes, det_long_side)
            if book is not None:
                det += book_items(book, book_held_out, det_long_side)
        Path(out).mkdir(parents=True, exist_ok=True)
        with open(Path(out) / f"{split}.pkl", "wb") as f:
            pickle.dump({"det": det, "crops": np.stack(crops) if crops else np.zeros((0, *CACHE_SIZE, 3), np.uint8),
                         "labels": np.array(labels, np.int64), "sources": sources}, f, protocol=4)
        print(f"{split}: {len(det)} images, {len(crops)} crops", flush=True)
