"""Tile precision / recall / F1, confusions, hand exact-match and latency on a labelled dataset."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from recognizer.coco import DatasetError, ImageRecord, load_dataset
from recognizer.detect import iou_matrix
from recognizer.group import GroupKind
from recognizer.labels import CLASSES
from scoring.errors import PungChowError
from scoring.hand import Hand
from scoring.tiles import Tile

IOU = 0.5


@dataclass
class Counts:
    """Running counts over images."""

    tp: int = 0
    n_pred: int = 0
    n_gt: int = 0
    det_tp: int = 0
    per_class: Counter[tuple[str, str]] = field(default_factory=Counter)
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)
    hands: int = 0
    hands_right: int = 0
    images: int = 0
    images_right: int = 0
    latency_ms: list[float] = field(default_factory=list)

    def add(self, gt_boxes: np.ndarray, gt_codes: list[str], boxes: np.ndarray, codes: list[str], scores: np.ndarray) -> None:
        self.images += 1
        self.n_pred += len(codes)
        self.n_gt += len(gt_codes)
        for c in gt_codes:
            self.per_class[(c, "gt")] += 1
        for c in codes:
            self.per_class[(c, "pred")] += 1
        matched = set()
        right = 0
        if len(codes) and len(gt_codes):
            ious = iou_matrix(boxes, gt_boxes)
            for i in np.argsort(-scores):
                j = int(ious[i].argmax())
                if ious[i, j] >= IOU and j not in matched:
                    matched.add(j)
                    self.det_tp += 1
                    if codes[i] == gt_codes[j]:
                        right += 1
                        self.per_class[(codes[i], "tp")] += 1
                    else:
                        self.confusions[(gt_codes[j], codes[i])] += 1
        self.tp += right
        if right == len(gt_codes) == len(codes):
            self.images_right += 1

    def summary(self) -> dict[str, Any]:
        p = self.tp / max(self.n_pred, 1)
        r = self.tp / max(self.n_gt, 1)
        f1 = 2 * p * r / max(p + r, 1e-9)
        per_class = {}
        for c in CLASSES:
            g, pr, tp = self.per_class[(c, "gt")], self.per_class[(c, "pred")], self.per_class[(c, "tp")]
            if g or pr:
                cp, cr = tp / max(pr, 1), tp / max(g, 1)
                per_class[c] = {"gt": g, "pred": pr, "f1": round(2 * cp * cr / max(cp + cr, 1e-9), 3)}
        lat = np.array(self.latency_ms) if self.latency_ms else np.zeros(1)
        return {
            "images": self.images, "tiles": self.n_gt, "predicted": self.n_pred,
            "precision": round(p, 4), "recall": round(r, 4), "f1": round(f1, 4),
            "detection_recall": round(self.det_tp / max(self.n_gt, 1), 4),
            "detection_precision": round(self.det_tp / max(self.n_pred, 1), 4),
            "images_all_right": self.images_right,
            "hand_exact": None if not self.hands else round(self.hands_right / self.hands, 4), "hands": self.hands,
            "latency_ms": {"median": round(float(np.median(lat)), 1), "p90": round(float(np.percentile(lat, 90)), 1)},
            "confusions": [{"truth": a, "read_as": b, "count": n} for (a, b), n in self.confusions.most_common(15)],
            "per_class": per_class,
        }


def same_hand(ours: Hand, truth: dict[str, Any], winning_set_apart: bool) -> bool:
    """Same concealed tiles, sets (in any order) and bonus tiles; the winning tile too when the photo sets it apart."""
    try:
        want = Hand.from_dict(truth)
    except PungChowError:
        return False

    def key(h: Hand) -> tuple[tuple[Tile, ...], tuple[str, ...], tuple[Tile, ...]]:
        return (tuple(h.concealed), tuple(sorted(str(m) for m in h.melds)), tuple(h.bonus))

    return key(ours) == key(want) and (not winning_set_apart or ours.winning_tile == want.winning_tile)


def evaluate(dataset: str | Path, split: str | None = None, tileset: str | None = None, limit: int | None = None,
             progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Run the recognizer on every image of ``dataset`` (one split, or all) and tally; the boxes are matched in the
    labels' pixels, whatever size the photo was read at."""
    from recognizer.pipeline import recognize
    from recognizer.tileset import load_tileset

    ds = load_dataset(dataset)
    images: list[ImageRecord] = ds.split(split) if split else list(ds.images)
    if split and not images:
        raise DatasetError(f"{dataset} has no images in split {split!r}; try --split all")
    images = images[:limit] if limit else images
    ts = load_tileset(tileset) if tileset else None
    tally = Counts()
    for n, im in enumerate(images):
        t0 = time.perf_counter()
        res = recognize(ds.image_path(im), ts)
        tally.latency_ms.append((time.perf_counter() - t0) * 1000)
        d = res.detections
        gt_boxes = np.array([t.bbox for t in im.tiles], np.float32).reshape(-1, 4)
        tally.add(gt_boxes, [t.code for t in im.tiles], res.boxes_at(im.width, im.height), [d.code(i) for i in range(len(d))], d.scores)
        if im.hand and not im.hands:
            tally.hands += 1
            tally.hands_right += same_hand(res.hand, im.hand, any(g.kind == GroupKind.WINNING for g in im.groups))
        if progress:
            progress(n + 1, len(images))
    return {"dataset": str(dataset), "split": split or "all", "tileset": tileset, **tally.summary()}


def format_report(s: dict[str, Any]) -> str:
    lines = [
        f"{s['dataset']} [{s['split']}]{' tileset ' + s['tileset'] if s.get('tileset') else ''}: "
        f"{s['images']} images, {s['tiles']} tiles, {s['predicted']} predicted",
        f"tile precision {s['precision']:.4f}  recall {s['recall']:.4f}  F1 {s['f1']:.4f}   "
        f"(boxes alone: precision {s['detection_precision']:.4f} recall {s['detection_recall']:.4f})",
        f"photos with every tile right: {s['images_all_right']}/{s['images']}",
        "hand exact match: "
        + ("n/a (no single-hand labels)" if s["hand_exact"] is None else f"{s['hand_exact']:.4f} of {s['hands']} hands"),
        f"latency per photo: median {s['latency_ms']['median']} ms, p90 {s['latency_ms']['p90']} ms",
    ]
    worst = sorted(((v["f1"], c, v) for c, v in s["per_class"].items()), key=lambda x: x[0])[:8]
    lines.append("weakest classes: " + ", ".join(f"{c} F1 {f:.2f} ({v['gt']} true, {v['pred']} read)" for f, c, v in worst))
    if s["confusions"]:
        lines.append("most confused: " + ", ".join(f"{c['truth']}->{c['read_as']} x{c['count']}" for c in s["confusions"][:10]))
    return "\n".join(lines)
