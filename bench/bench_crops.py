"""Classifier alone on labelled tiles: top-1 / top-3 by tile group, and the commonest confusions.

    python bench/bench_crops.py data/real-heldout [--split test] [--turn 0|90|180|270] [--limit N]
    PUNGCHOW_MODELS=artifacts/cand python bench/bench_crops.py data/real-heldout
    python bench/bench_crops.py data/rec-leo --split test --tile-images   # each tile cut out and read as `pungchow classify` reads it
    python bench/bench_crops.py data/real-heldout --tile-images --margin 0.25   # cut out loosely (0: tight)

Each labelled box is framed exactly as the pipeline frames a detected one (``recognizer.classify``),
so this measures reading, not finding; it is the measure of "real crops read uncalibrated".
``--turn`` turns each photo first (the labels with it), to see how a tile lying another way is read.
``by_tilt`` splits the reading by how far a tile lies askew of its upright box (from its labelled quad).
``--tile-images`` cuts each labelled tile out with a margin of a tenth of its long side (``--margin``), as a person
crops a photo of one tile, and reads it as ``pungchow classify`` does (``classify_tile_image``: the box found
again in the cut-out, no other tiles to compare with).
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from pungchow_data.rotate import turn_point
from recognizer.classify import (
    TILE_IMAGE_MIN_SIDE,
    classify_tile_image,
    crops_of,
    run_classifier,
)
from recognizer.coco import DatasetError, load_dataset
from recognizer.labels import CLASSES
from scoring.tiles import BONUS_CODES

GROUPS = {
    "characters": tuple(f"{n}C" for n in range(1, 10)),
    "dots": tuple(f"{n}D" for n in range(1, 10)),
    "bamboo": tuple(f"{n}B" for n in range(1, 10)),
    "winds": ("EW", "SW", "WW", "NW"),
    "dragons": ("RD", "GD", "WD"),
    "flowers+seasons": BONUS_CODES,
    "white dragon": ("WD",),
    "face down": ("XX",),
}


def turned(rgb: np.ndarray, boxes: np.ndarray, degrees: int) -> tuple[np.ndarray, np.ndarray]:
    """The photo turned clockwise by a multiple of 90 degrees, with its (x, y, w, h) boxes (as ``pungchow data rotate`` turns them)."""
    turns = degrees // 90
    h, w = rgb.shape[:2]
    out = []
    for x, y, bw, bh in boxes:
        corners = np.array([turn_point(px, py, w, h, turns, edges=True) for px, py in ((x, y), (x + bw, y + bh))])
        lo, hi = corners.min(0), corners.max(0)
        out.append([lo[0], lo[1], hi[0] - lo[0], hi[1] - lo[1]])
    return np.ascontiguousarray(np.rot90(rgb, -turns)), np.array(out, np.float32).reshape(-1, 4)


#: How far a labelled tile lies askew of its upright box (degrees, from its quad), in these bands (``by_tilt``).
TILT_BANDS = ((0, 5), (5, 15), (15, 25), (25, 35), (35, 45))


def askew(quad: list[tuple[float, float]] | None) -> float:
    """Degrees (0-45) a labelled face's top edge lies off the photo's rows, a quarter turn counting as none; NaN without a quad."""
    if not quad:
        return math.nan
    (x0, y0), (x1, y1) = quad[0], quad[1]
    return abs((math.degrees(math.atan2(y1 - y0, x1 - x0)) + 45) % 90 - 45)


def labelled_photos(root: Path, split: str | None, turn: int,
                    limit: int | None) -> Iterator[tuple[np.ndarray, np.ndarray, list[str], list[float]]]:
    """(photo, boxes, codes, how far each lies askew) of the labelled tiles with a known code, for each readable photo of
    the split, turned by ``turn`` (a quarter turn leaves a tile as far askew)."""
    ds = load_dataset(root)
    for im in (ds.images if split is None else ds.split(split))[:limit]:
        tiles = [t for t in im.tiles if t.code in CLASSES]
        bgr = cv2.imread(str(ds.image_path(im)), cv2.IMREAD_COLOR) if tiles else None
        if bgr is not None:
            rgb, boxes = turned(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB), np.array([t.bbox for t in tiles], np.float32), turn)
            yield rgb, boxes, [t.code for t in tiles], [askew(t.quad) for t in tiles]


def read_dataset(root: Path, split: str | None, turn: int, limit: int | None) -> tuple[list[str], np.ndarray, list[float]]:
    """(labelled codes, probabilities, how far each lies askew) over every labelled tile of the split."""
    codes: list[str] = []
    probs: list[np.ndarray] = []
    tilts: list[float] = []
    for rgb, boxes, labels, askews in labelled_photos(root, split, turn, limit):
        p, _ = run_classifier(crops_of(rgb, boxes))
        probs.append(p)
        codes += labels
        tilts += askews
    return codes, np.concatenate(probs) if probs else np.zeros((0, len(CLASSES))), tilts


#: A person cropping a photo of one tile leaves about this much of its long side round it.
TILE_IMAGE_MARGIN = 0.1


def read_tile_images(root: Path, split: str | None, turn: int, limit: int | None,
                     margin: float = TILE_IMAGE_MARGIN) -> tuple[list[str], np.ndarray, list[float]]:
    """(labelled codes, top-3 probabilities, how far each lies askew) with each labelled tile cut out and read as a
    tile image of its own."""
    codes: list[str] = []
    probs: list[np.ndarray] = []
    tilts: list[float] = []
    for rgb, boxes, labels, askews in labelled_photos(root, split, turn, limit):
        for code, (x, y, w, h), tilt in zip(labels, boxes, askews):
            m = margin * max(w, h)
            cut = rgb[max(int(y - m), 0):int(y + h + m) + 1, max(int(x - m), 0):int(x + w + m) + 1]
            if min(cut.shape[:2]) < TILE_IMAGE_MIN_SIDE:
                continue
            d = classify_tile_image(np.ascontiguousarray(cut))
            row = np.zeros(len(CLASSES))
            row[d.top3[0]] = d.top3_p[0]
            probs.append(row)
            codes.append(code)
            tilts.append(tilt)
    return codes, np.stack(probs) if probs else np.zeros((0, len(CLASSES))), tilts


def report(codes: list[str], probs: np.ndarray, tilts: list[float] | None = None) -> dict:
    truth = np.array([CLASSES.index(c) for c in codes])
    top3 = np.argsort(-probs, axis=1)[:, :3]
    hit1 = top3[:, 0] == truth
    hit3 = (top3 == truth[:, None]).any(axis=1)
    out: dict = {"tiles": len(codes), "top1": round(float(hit1.mean()), 4), "top3": round(float(hit3.mean()), 4), "groups": {}}
    for name, members in GROUPS.items():
        m = np.isin(np.array(codes), members)
        if m.any():
            out["groups"][name] = {"n": int(m.sum()), "top1": round(float(hit1[m].mean()), 3), "top3": round(float(hit3[m].mean()), 3)}
    if tilts is not None:  # how a tile lying askew of its box reads (one per code; a label without a quad, NaN, in no band)
        askew_by = np.array(tilts, np.float64)
        bonus = np.isin(np.array(codes), BONUS_CODES)
        out["by_tilt"] = {}
        for low, high in TILT_BANDS:
            m = (askew_by >= low) & (askew_by < high) if high < 45 else (askew_by >= low)
            if m.any():
                fs = round(float(hit1[m & bonus].mean()), 3) if (m & bonus).any() else None
                out["by_tilt"][f"{low}-{high}"] = {"n": int(m.sum()), "top1": round(float(hit1[m].mean()), 3), "flowers+seasons": fs}
    wrong = Counter(f"{codes[i]}->{CLASSES[top3[i, 0]]}" for i in np.flatnonzero(~hit1))
    out["confusions"] = dict(wrong.most_common(12))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dataset")
    ap.add_argument("--split", default=None, help="only this split (default: every image)")
    ap.add_argument("--turn", type=int, default=0, choices=(0, 90, 180, 270))
    ap.add_argument("--limit", type=int, default=None, help="only the first N photos")
    ap.add_argument("--tile-images", action="store_true", help="each tile cut out and read alone, as `pungchow classify` reads it")
    ap.add_argument("--margin", type=float, default=TILE_IMAGE_MARGIN,
                    help="with --tile-images: the photo left round each tile, as a share of its long side (0: cut tight)")
    args = ap.parse_args()
    if args.margin != TILE_IMAGE_MARGIN and not args.tile_images:
        ap.error("--margin is the photo left round each tile cut out: it needs --tile-images")
    if not 0.0 <= args.margin <= 1.0:
        ap.error("--margin is a share of the tile's long side between 0 and 1")
    try:
        if args.tile_images:
            codes, probs, tilts = read_tile_images(Path(args.dataset), args.split, args.turn, args.limit, args.margin)
        else:
            codes, probs, tilts = read_dataset(Path(args.dataset), args.split, args.turn, args.limit)
    except DatasetError as exc:
        ap.error(str(exc))
    print(json.dumps({"dataset": args.dataset, "split": args.split, "turn": args.turn, "tile_images": args.tile_images,
                      **({"margin": args.margin} if args.tile_images else {}),
                      **report(codes, probs, tilts)}))


if __name__ == "__main__":
    main()
