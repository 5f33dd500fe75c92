"""The real-photo bench: real HK crops, real HK set photos and the 1922 book photos, per set and per tile group.

    python bench/bench_real.py                       # the shipped models
    python bench/bench_real.py --folds artifacts/real-folds   # leave-one-set-out: fold K's classifier reads set K
    python bench/bench_real.py --only crops --framings 1.0    # one part, the tile-image framings chosen here

Reads ``../shared/realdev/`` (never copied into the repository) and skips with a message when it is absent.

- crops: each HK face crop read as ``pungchow classify`` reads a tile image; top-1 and top-3 per set and per group;
  for flowers and seasons also whether the number (1-4) is right, flower or season aside.
- photos: each HK set photo through the whole reader (``recognize``): the share of labelled tiles that get a box
  (IoU >= 0.5) with the right code; the labels are partial, so other boxes are neither right nor wrong.
- book: each dev book photo through the whole reader, without a tile set and with ``pungchow-1922``: labelled tiles
  boxed, boxed with the right code, and tile F1 (every tile is labelled; '??' tiles count as neither).

With ``--folds DIR`` (``fold0.onnx`` ... ``fold5.onnx`` and their sidecars, made by ``training/fit_real_gpu.sh`` and
``python -m recognizer.train.export_real``), set ``realtiles.HK_SETS[K]`` and book photos of fold K are read by the
classifier that never saw them: the dev figures reported for issue 40 (the shipped reader saw every dev photo).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_crops import GROUPS

from recognizer import classify as classify_module
from recognizer.detect import iou_matrix
from recognizer.detections import UNSURE_BELOW
from recognizer.labels import CLASSES
from recognizer.models import load_model, models_dir
from scoring.tiles import BONUS_CODES

SHARED = Path(os.environ.get("PUNGCHOW_SHARED_DIR", Path(__file__).resolve().parents[2] / "shared"))
REALDEV = SHARED / "realdev"
HK_SETS = ("set01", "set03", "set05", "set07", "set09", "set11")


def group_of(code: str) -> str:
    return next(g for g, codes in GROUPS.items() if code in codes)


#: Two labels whose boxes overlap this much are one tile labelled twice (two crops were cut from it).
SAME_TILE = 0.7


def each_tile_once(boxes: np.ndarray) -> list[int]:
    """The labels to keep of an HK photo's: ``photos.json`` labels some tiles twice, and a second label could never be
    matched to the box the first already took."""
    same = iou_matrix(boxes, boxes) > SAME_TILE
    return [i for i in range(len(boxes)) if not same[i, :i].any()]


def book_folds() -> dict[str, int]:
    names = sorted(p.stem for p in (REALDEV / "book-1922" / "labels").glob("*.json"))
    return {n: i % len(HK_SETS) for i, n in enumerate(names)}


def fold_of(name: str) -> int:
    """The fold whose classifier never saw dev photo ``name``: a book label's stem, or an HK photo's name (its set's
    name first, ``set05-1.jpg``)."""
    book = book_folds()
    return book[name] if name in book else HK_SETS.index(name.split("-")[0])


class Models:
    """Which models read what: the shipped ones, or per fold the classifier that never saw it."""

    def __init__(self, folds: Path | None) -> None:
        self.folds = folds
        self.dirs: dict[int, Path] = {}
        self.tmp = Path(tempfile.mkdtemp(prefix="bench-real-"))
        self.shipped = models_dir()

    def use(self, fold: int) -> None:
        """Point the reader at fold ``fold``'s models (or the shipped ones)."""
        target = self.shipped
        if self.folds is not None:
            if fold not in self.dirs:
                d = self.tmp / f"fold{fold}"
                d.mkdir()
                for f in self.shipped.iterdir():
                    if f.is_file() and not f.name.startswith("classifier."):
                        shutil.copy(f, d / f.name)
                for ext in ("onnx", "json"):
                    shutil.copy(self.folds / f"fold{fold}.{ext}", d / f"classifier.{ext}")
                self.dirs[fold] = d
                os.environ["PUNGCHOW_MODELS"] = str(d)
                load_model.cache_clear()
                calibrated_again(d / "tilesets")
            target = self.dirs[fold]
        os.environ["PUNGCHOW_MODELS"] = str(target)
        load_model.cache_clear()

    def close(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)


def calibrated_again(into: Path) -> None:
    """The built-in 1922 set calibrated for the fold's classifier, as the shipped one was for the shipped classifier."""
    from recognizer.tileset import calibrate

    source = Path(__file__).resolve().parent.parent / "models" / "tilesets" / "pungchow-1922" / "source"
    into.mkdir(parents=True, exist_ok=True)
    calibrate("pungchow-1922", source / "illustration_1.jpg", source / "layout.json", into)
    shutil.copytree(source, into / "pungchow-1922" / "source", dirs_exist_ok=True)


def read_rgb(path: Path) -> np.ndarray:
    return cv2.cvtColor(cv2.imread(str(path), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def bench_crops(models: Models) -> dict[str, float]:
    with open(REALDEV / "hk-sets" / "crops.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    per_set: dict[str, list[bool]] = defaultdict(list)
    per_group: dict[str, list[bool]] = defaultdict(list)
    top3: list[bool] = []
    number: list[bool] = []
    bonus_missed_flagged: list[bool] = []
    for fold, name in enumerate(HK_SETS):
        models.use(fold)
        for row in (r for r in rows if r["set"] == name):
            dets = classify_module.classify_tile_image(read_rgb(REALDEV / "hk-sets" / "crops" / row["file"]))
            codes = [CLASSES[int(i)] for i in dets.top3[0]]
            right = codes[0] == row["code"]
            per_set[name].append(right)
            per_group[group_of(row["code"])].append(right)
            top3.append(row["code"] in codes)
            if row["code"] in BONUS_CODES:
                number.append(codes[0][0] == row["code"][0] and codes[0] in BONUS_CODES)
                if not right:
                    bonus_missed_flagged.append(float(dets.confidence[0]) < UNSURE_BELOW)
    every = [r for v in per_set.values() for r in v]
    print(f"HK crops: top-1 {np.mean(every):.3f}, top-3 {np.mean(top3):.3f} of {len(every)}")
    print("  per set:   " + ", ".join(f"{k} {np.mean(v):.3f} ({len(v)})" for k, v in per_set.items()))
    print("  per group: " + ", ".join(f"{k} {np.mean(v):.3f} ({len(v)})" for k, v in per_group.items()))
    print(f"  flowers+seasons: {sum(per_group['flowers+seasons'])}/{len(per_group['flowers+seasons'])} right, "
          f"number right {sum(number)}/{len(number)}; of those missed, {sum(bonus_missed_flagged)}/{len(bonus_missed_flagged)} "
          f"read under {UNSURE_BELOW:.2f} (the page asks the player to check them)")
    return {"hk_crops_top1": float(np.mean(every)), "hk_crops_bonus": float(np.mean(per_group["flowers+seasons"]))}


def matched(boxes: np.ndarray, codes: list[str], truth: np.ndarray, truth_codes: list[str]) -> tuple[list[bool], list[bool], int]:
    """Per labelled tile: boxed (IoU >= 0.5), boxed with its code; and how many boxes match no labelled tile."""
    if not len(boxes) or not len(truth):
        return [False] * len(truth), [False] * len(truth), len(boxes)
    iou = iou_matrix(truth.astype(np.float32), boxes.astype(np.float32))
    boxed, right = [], []
    used: set[int] = set()
    for i in np.argsort(-iou.max(axis=1)):
        j = int(np.argmax(iou[i]))
        ok = iou[i, j] >= 0.5 and j not in used
        if ok:
            used.add(j)
        boxed.append(bool(ok))
        right.append(bool(ok and codes[j] == truth_codes[i]))
    spare = int(sum(1 for j in range(len(boxes)) if j not in used and iou[:, j].max() < 0.5))
    return boxed, right, spare


def bench_photos(models: Models) -> dict[str, float]:
    from recognizer.pipeline import recognize

    photos = json.loads((REALDEV / "hk-sets" / "photos.json").read_text())
    per_set: dict[str, list[bool]] = defaultdict(list)
    boxed_all: list[bool] = []
    for name, photo in sorted(photos.items()):
        models.use(HK_SETS.index(photo["set"]))
        path = REALDEV / "hk-sets" / "photos" / name
        rgb = read_rgb(path)
        result = recognize(path)
        boxes = result.boxes_at(rgb.shape[1], rgb.shape[0])
        codes = [CLASSES[int(c)] for c in result.detections.codes]
        truth, seen = [], []
        for t in photo["tiles"]:
            x, y, w, h = t["box"]
            if any(abs(x - a) < w / 3 and abs(y - b) < h / 3 for a, b, _ in seen):
                continue
            seen.append((x, y, t["code"]))
            truth.append(t["box"])
        boxed, right, _ = matched(boxes, codes, np.array(truth, np.float32), [c for *_, c in seen])
        per_set[photo["set"]] += right
        boxed_all += boxed
        print(f"  {name}: {sum(right)}/{len(right)} read right, {sum(boxed)} boxed")
    every = [r for v in per_set.values() for r in v]
    print(f"HK photos: labelled tiles read right {np.mean(every):.3f} of {len(every)}, boxed {np.mean(boxed_all):.3f}")
    print("  per set: " + ", ".join(f"{k} {np.mean(v):.3f} ({len(v)})" for k, v in per_set.items()))
    return {"hk_photos": float(np.mean(every))}


def bench_book(models: Models, tileset: str | None) -> dict[str, float]:
    from recognizer.pipeline import recognize

    right_all, boxed_all, spare_all = [], [], 0
    per_group: dict[str, list[bool]] = defaultdict(list)
    for name, fold in sorted(book_folds().items()):
        models.use(fold)
        label = json.loads((REALDEV / "book-1922" / "labels" / f"{name}.json").read_text())
        path = REALDEV / "book-1922" / "photos" / label["image"]
        rgb = read_rgb(path)
        result = recognize(path, tileset=tileset)
        boxes = result.boxes_at(rgb.shape[1], rgb.shape[0])
        codes = [CLASSES[int(c)] for c in result.detections.codes]
        rows = [row for hand in label.get("hands", [label]) for row in hand["rows"]]
        truth = [(x1, y1, x2 - x1, y2 - y1) for row in rows for x1, y1, x2, y2 in row["boxes"]]
        truth_codes = [c for row in rows for c in row["tiles"]]
        boxed, right, spare = matched(boxes, codes, np.array(truth, np.float32), truth_codes)
        keep = [c != "??" for c in truth_codes]
        right_all += [r for r, k in zip(right, keep) if k]
        boxed_all += [b for b, k in zip(boxed, keep) if k]
        spare_all += spare
        for r, c, k in zip(right, truth_codes, keep):
            if k:
                per_group[group_of(c)].append(r)
        print(f"  {name}: {sum(r for r, k in zip(right, keep) if k)}/{sum(keep)} read right, "
              f"{sum(b for b, k in zip(boxed, keep) if k)} boxed, {spare} other boxes, turned {result.turned:.0f}")
    n = len(right_all)
    tp = sum(right_all)
    precision = tp / max(tp + (sum(boxed_all) - tp) + spare_all, 1)
    recall = tp / max(n, 1)
    f1 = 2 * precision * recall / max(precision + recall, 1e-9)
    label = tileset or "no tile set"
    print(f"book ({label}): labelled tiles read right {recall:.3f} of {n}, boxed {np.mean(boxed_all):.3f}, tile F1 {f1:.3f}")
    print("  per group: " + ", ".join(f"{k} {np.mean(v):.3f} ({len(v)})" for k, v in per_group.items()))
    return {f"book_{label}": recall}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--folds", type=Path, help="folder of fold0..fold5 classifiers (leave-one-set-out)")
    p.add_argument("--only", choices=["crops", "photos", "book"], action="append")
    p.add_argument("--framings", type=float, nargs="+", help="tile-image framings (shares of the image) to read crops at")
    p.add_argument("--tileset", default="pungchow-1922", help="the tile set for the book's second run ('' for none)")
    a = p.parse_args(argv)
    if not REALDEV.is_dir():
        print(f"skipped: {REALDEV} is missing (the real dev photos live in ../shared beside the repository)")
        return 0
    if a.framings:
        classify_module.TILE_IMAGE_FRAMINGS = tuple(a.framings)
    models = Models(a.folds)
    parts = a.only or ["crops", "photos", "book"]
    print(f"models: {'leave-one-set-out folds in ' + str(a.folds) if a.folds else 'shipped (' + str(models.shipped) + ')'}")
    try:
        if "crops" in parts:
            bench_crops(models)
        if "photos" in parts:
            bench_photos(models)
        if "book" in parts:
            bench_book(models, None)
            if a.tileset:
                bench_book(models, a.tileset)
    finally:
        models.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
