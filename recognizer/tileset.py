"""Bring your own set: learn one set's look from one photo of one of each tile laid in rows.

Calibration crops every tile of the photo, makes jittered copies, and stores for each the
classifier's embedding, a grey template of the top-left corner (where old sets print an index
letter) and its grey level (dragons of a black-and-white photo differ by it), plus one grey face
template per code. Recognition with the set gives every box one size and re-centres it on the
best-matching face, then scores each of the set's codes by its nearest prototype plus the face
template's best alignment; face-down and not-a-tile stay with the classifier.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from recognizer.classify import NT_INDEX, XX_INDEX, crops_of, run_classifier
from recognizer.detect import detect, nms
from recognizer.detections import Detections
from recognizer.errors import TileSetError
from recognizer.geometry import CROP_CONTEXT, CROP_H, CROP_W, crop_tile
from recognizer.image import load_photo
from recognizer.labels import CLASSES
from recognizer.models import load_model, models_dir
from scoring.jsonfile import JsonInputError, load_json_file
from scoring.tiles import ALL_CODES

#: Weights of the template similarity and the grey-level difference against the embedding's cosine.
TEMPLATE_WEIGHT = 3.0
CORNER_WEIGHT = 0.5
GREY_WEIGHT = 2.0
TEMPERATURE = 0.05
JITTER_COPIES = 24
#: How far around a detected box the set's faces are searched (box grown this much).
SEARCH_CONTEXT = 1.6
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


def user_tileset_dir() -> Path:
    home = os.environ.get("PUNGCHOW_HOME")
    base = Path(home) if home else Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "pungchow"
    return base / "tilesets"


def builtin_tileset_dir() -> Path:
    return models_dir() / "tilesets"


def _features(crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The top-left corner (where old sets print an index letter) as a zero-mean unit-norm grey template,
    and the grey level of the face centre relative to the photo's typical tile."""
    grey = crops.astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)
    n, h, w = grey.shape
    corner = np.stack([cv2.resize(g[: int(h * 0.35), : int(w * 0.45)], (12, 12), interpolation=cv2.INTER_AREA) for g in grey]).reshape(n, -1)
    level = grey[:, h // 4: 3 * h // 4, w // 4: 3 * w // 4].mean(axis=(1, 2)) / 255.0
    level = level - np.median(level)

    def norm(a: np.ndarray) -> np.ndarray:
        a = a - a.mean(axis=1, keepdims=True)
        return a / np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-6)

    return norm(corner), level


def crops_of_context(rgb: np.ndarray, boxes: np.ndarray, context: float) -> np.ndarray:
    """Crops of the boxes grown by ``context``, at the classifier's scale per box unit."""
    size = (int(round(CROP_H * context / CROP_CONTEXT)), int(round(CROP_W * context / CROP_CONTEXT)))
    return np.stack([crop_tile(rgb, b, context, size) for b in boxes])


def _templates(crops: np.ndarray) -> np.ndarray:
    """The central part of each face in grey, to slide over a query crop a few pixels each way."""
    grey = crops.astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)
    _, h, w = grey.shape
    dy, dx = int(round(h * 0.15)), int(round(w * 0.15))
    return np.ascontiguousarray(grey[:, dy:h - dy, dx:w - dx])


@dataclass(frozen=True)
class TileSet:
    """One calibrated set: prototypes per code."""

    name: str
    codes: tuple[str, ...]
    labels: np.ndarray
    embeddings: np.ndarray
    corners: np.ndarray
    levels: np.ndarray
    templates: np.ndarray

    def scores(self, crops: np.ndarray, emb: np.ndarray) -> np.ndarray:
        """(N, len(codes)) best prototype score of each code."""
        corner, level = _features(crops)
        s = emb @ self.embeddings.T + CORNER_WEIGHT * corner @ self.corners.T
        s -= GREY_WEIGHT * np.abs(level[:, None] - self.levels[None, :])
        out = np.full((len(crops), len(self.codes)), -np.inf, np.float32)
        for k in range(len(self.codes)):
            m = self.labels == k
            if m.any():
                out[:, k] = s[:, m].max(axis=1)
        return out + TEMPLATE_WEIGHT * self.aligned_match(crops)

    def aligned_match(self, crops: np.ndarray) -> np.ndarray:
        """(N, len(codes)) normalised cross-correlation of each code's face, best over small shifts."""
        grey = (crops.astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32))
        out = np.zeros((len(crops), len(self.codes)), np.float32)
        for i, g in enumerate(grey):
            for k, t in enumerate(self.templates):
                out[i, k] = cv2.matchTemplate(g, t, cv2.TM_CCOEFF_NORMED).max()
        return out

    def probabilities(self, crops: np.ndarray, probs: np.ndarray, emb: np.ndarray) -> np.ndarray:
        """Replace the classifier's face probabilities by the set's, keeping face-down and not-a-tile."""
        s = self.scores(crops, emb) / TEMPERATURE
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        keep = probs[:, XX_INDEX] + probs[:, NT_INDEX]
        out = np.zeros_like(probs)
        out[:, XX_INDEX], out[:, NT_INDEX] = probs[:, XX_INDEX], probs[:, NT_INDEX]
        for k, code in enumerate(self.codes):
            out[:, CLASSES.index(code)] = p[:, k] * (1 - keep)
        return out

    def rescale(self, rgb: np.ndarray, dets: Detections, scales: tuple[float, ...] = (0.9, 1.0, 1.1, 1.2)) -> Detections:
        """Grow or shrink every box by the one factor under which the set's faces match best.

        The detector's boxes run tighter or looser than the calibration's; one set, one factor.
        """
        if len(dets) == 0:
            return dets
        sample = dets[np.arange(0, len(dets), max(1, len(dets) // 40))]
        best, best_s = -np.inf, 1.0
        for s in scales:
            b = sample.boxes.copy()
            c = b[:, :2] + b[:, 2:] / 2
            b[:, 2:] *= s
            b[:, :2] = c - b[:, 2:] / 2
            score = float(self.aligned_match(crops_of_context(rgb, b, CROP_CONTEXT)).max(axis=1).mean())
            if score > best:
                best, best_s = score, s
        b = dets.boxes.copy()
        c = b[:, :2] + b[:, 2:] / 2
        b[:, 2:] *= best_s
        b[:, :2] = c - b[:, 2:] / 2
        return dets.with_(boxes=b)

    def recentre(self, rgb: np.ndarray, dets: Detections) -> Detections:
        """Move each box to where the set's faces match best nearby: the detector, trained on other
        sets, finds a tile but may sit off its centre."""
        if len(dets) == 0:
            return dets
        wide = crops_of_context(rgb, dets.boxes, SEARCH_CONTEXT)
        grey = wide.astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)
        _, gh, gw = grey.shape
        th, tw = self.templates.shape[1:]
        boxes = dets.boxes.copy()
        for i, g in enumerate(grey):
            best, where = -2.0, (0, 0)
            for t in self.templates:
                r = cv2.matchTemplate(g, t, cv2.TM_CCOEFF_NORMED)
                _, v, _, loc = cv2.minMaxLoc(r)
                if v > best:
                    best, where = v, loc
            # template centre in the wide crop -> offset from the crop centre, in box units
            dx = (where[0] + tw / 2 - gw / 2) / (gw / SEARCH_CONTEXT)
            dy = (where[1] + th / 2 - gh / 2) / (gh / SEARCH_CONTEXT)
            boxes[i, 0] += dx * boxes[i, 2]
            boxes[i, 1] += dy * boxes[i, 3]
        return nms(dets.with_(boxes=boxes), iou=0.3)

    def save(self, folder: Path, meta: dict) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(folder / "prototypes.npz", labels=self.labels, embeddings=self.embeddings.astype(np.float16),
                            corners=self.corners.astype(np.float16), levels=self.levels.astype(np.float32),
                            templates=self.templates.astype(np.float32))
        (folder / "tileset.json").write_text(json.dumps({"name": self.name, "codes": list(self.codes), **meta}, indent=2) + "\n")


def load_tileset(name: str) -> TileSet:
    """A user's set (``$PUNGCHOW_HOME/tilesets/NAME``) or a built-in one (``models/tilesets/NAME``)."""
    for base in (user_tileset_dir(), builtin_tileset_dir()):
        folder = base / name
        if (folder / "tileset.json").is_file():
            meta = json.loads((folder / "tileset.json").read_text())
            want = load_model("classifier").meta["sha256"]
            if meta.get("classifier_sha256") != want:
                raise TileSetError(f"tile set {name!r} was calibrated with another classifier; run `pungchow tileset add {name} PHOTO --layout LAYOUT.json` again")
            z = np.load(folder / "prototypes.npz")
            return TileSet(name, tuple(meta["codes"]), z["labels"], z["embeddings"].astype(np.float32),
                           z["corners"].astype(np.float32), z["levels"].astype(np.float32), z["templates"].astype(np.float32))
    known = ", ".join(list_tilesets()) or "none"
    raise TileSetError(f"no tile set named {name!r} (known: {known}); add one with `pungchow tileset add {name} PHOTO --layout LAYOUT.json`")


def list_tilesets() -> list[str]:
    names = set()
    for base in (user_tileset_dir(), builtin_tileset_dir()):
        if base.is_dir():
            names |= {p.parent.name for p in base.glob("*/tileset.json")}
    return sorted(names)


def read_layout(path: "str | Path") -> list[list[str]]:
    """The layout file: {"rows": [[code, ...], ...]} (or a bare list of rows), codes row by row."""
    try:
        data = load_json_file(path, "layout")
    except JsonInputError as exc:
        raise TileSetError(f"cannot read layout {path}: {exc}; it must be JSON like {{\"rows\": [[\"1D\", \"2D\"], [\"EW\"]]}}") from None
    rows = data.get("rows") if isinstance(data, dict) else data
    if not isinstance(rows, list) or not rows or not all(isinstance(r, list) and r for r in rows):
        raise TileSetError(f"layout {path} needs \"rows\": a list of non-empty lists of tile codes")
    bad = [c for r in rows for c in r if c not in ALL_CODES or c == "XX"]
    if bad:
        raise TileSetError(f"layout {path} has unknown tile codes {bad}; use codes like 1D, 9C, EW, RD, 1F")
    return [[str(c) for c in r] for r in rows]


def photo_rows(dets: Detections) -> list[list[int]]:
    """Cluster boxes into rows by their vertical centre, each row left to right."""
    if len(dets) == 0:
        return []
    c = dets.centres
    mh = float(np.median(dets.boxes[:, 3]))
    order = np.argsort(c[:, 1])
    rows: list[list[int]] = [[int(order[0])]]
    for k in order[1:]:
        if c[k, 1] - np.mean(c[rows[-1], 1]) > 0.5 * mh:
            rows.append([])
        rows[-1].append(int(k))
    return [sorted(r, key=lambda k: c[k, 0]) for r in rows]


def match_layout(dets: Detections, layout: list[list[str]]) -> list[tuple[int, str]]:
    """Pair boxes with layout codes: photo rows in order, skipping rows whose count fits no layout row (counters, labels)."""
    rows = photo_rows(dets)
    pairs: list[tuple[int, str]] = []
    r = 0
    for want in layout:
        while r < len(rows) and len(rows[r]) != len(want):
            r += 1
        if r == len(rows):
            counts = [len(x) for x in photo_rows(dets)]
            raise TileSetError(
                f"the photo's rows hold {counts} tiles but the layout wants {[len(x) for x in layout]}; "
                "photograph the tiles in the layout's rows, with a clear gap between rows, on a plain background")
        pairs += list(zip(rows[r], want))
        r += 1
    return pairs


def layout_boxes(rgb: np.ndarray, layout: list[list[str]]) -> Detections | None:
    """Boxes from the layout itself: bands of tiles on a plain background, each band cut into its row's count.

    Used when the detector's boxes do not fit the layout (a set drawn unlike any it was trained on):
    the calibration photo is by definition tiles in rows on a plain background, so the rows show
    as bands of non-background pixels; bands much thinner than a tile (counters, captions) are skipped.
    """
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    background = float(np.percentile(grey, 90))
    mask = (cv2.GaussianBlur(grey, (5, 5), 0) < background - 7).astype(np.uint8)
    ink = mask.mean(axis=1)
    bands, start = [], None
    for y, v in enumerate(np.append(ink, 0)):
        if v > 0.15 and start is None:
            start = y
        elif v <= 0.15 and start is not None:
            bands.append((start, y))
            start = None
    if not bands:
        return None
    tallest = max(b - a for a, b in bands)
    bands = [(a, b) for a, b in bands if b - a >= 0.6 * tallest]
    if len(bands) < len(layout):
        return None
    boxes = []
    for (y0, y1), row in zip(bands, layout):
        xs = np.where(mask[y0:y1].mean(axis=0) > 0.3)[0]
        if len(xs) == 0:
            return None
        x0, x1 = float(xs.min()), float(xs.max() + 1)
        w = (x1 - x0) / len(row)
        boxes += [[x0 + k * w, float(y0), w, float(y1 - y0)] for k in range(len(row))]
    return Detections(np.array(boxes), np.ones(len(boxes)))


def calibrate(name: str, photo: "str | Path", layout_path: "str | Path", out_dir: Path | None = None, seed: int = 0) -> tuple[TileSet, Path]:
    """Learn a set from a photo of one of each tile in the layout's rows, and save it."""
    if not _NAME_RE.match(name):
        raise TileSetError(f"tile set name {name!r}: use letters, digits, '.', '_' or '-' (at most 64)")
    layout = read_layout(layout_path)
    rgb = load_photo(photo)
    dets = detect(rgb)
    probs, _ = run_classifier(crops_of(rgb, dets.boxes))
    dets = dets[probs.argmax(1) != NT_INDEX]
    try:
        pairs = match_layout(dets, layout)
    except TileSetError:
        banded = layout_boxes(rgb, layout)
        if banded is None:
            raise
        dets = banded
        pairs = match_layout(dets, layout)
    codes = tuple(dict.fromkeys(code for _, code in pairs))
    rng = np.random.default_rng(seed)
    crops, labels = [], []
    for k, code in pairs:
        box = dets.boxes[k]
        for j in range(JITTER_COPIES):
            if j == 0:
                c = crop_tile(rgb, box)
            else:
                b = box.copy()
                b[2:] *= rng.uniform(0.93, 1.07, 2)
                c = crop_tile(rgb, b, shift=(rng.uniform(-0.06, 0.06), rng.uniform(-0.05, 0.05)))
                c = np.clip(c.astype(np.float32) * rng.uniform(0.9, 1.1) + rng.uniform(-12, 12), 0, 255).astype(np.uint8)
                if rng.random() < 0.3:
                    c = cv2.GaussianBlur(c, (3, 3), 0)
            crops.append(c)
            labels.append(codes.index(code))
    crops_a = np.stack(crops)
    _, emb = run_classifier(crops_a)
    corner, level = _features(crops_a)
    first = np.array([k * JITTER_COPIES for k in range(len(pairs))])
    ts = TileSet(name, codes, np.array(labels, np.int16), emb, corner, level, _templates(crops_a[first]))
    folder = (out_dir or user_tileset_dir()) / name
    ts.save(folder, {"photo": Path(photo).name, "layout": layout, "tiles": len(pairs), "copies_per_tile": JITTER_COPIES,
                     "classifier_sha256": load_model("classifier").meta["sha256"]})
    return ts, folder
