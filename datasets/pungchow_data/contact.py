"""Contact sheet: a grid of dataset images with their labels drawn on, to check data by eye.

Boxes are coloured by group (so melds read as sets), the tile code is written on each box,
face-down tiles are marked, and each cell's caption gives the style, split and the hand.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from pungchow_data.coco import Dataset, ImageRecord, load_dataset
from scoring.argtypes import write_image
from scoring.errors import PungChowError

_PALETTE = [(60, 60, 255), (60, 200, 60), (255, 140, 40), (0, 200, 255), (255, 60, 255), (255, 255, 60), (160, 80, 255), (80, 160, 160)]


def draw_labels(image: np.ndarray, record: ImageRecord) -> np.ndarray:
    """The image with every tile's box, quad, code and group drawn on it."""
    out: np.ndarray = image.copy()
    scale = max(0.35, min(out.shape[:2]) / 1400)
    for t in record.tiles:
        colour = _PALETTE[(t.group or 0) % len(_PALETTE)]
        x, y, w, h = t.bbox
        cv2.rectangle(out, (int(x), int(y)), (int(x + w), int(y + h)), colour, 1)
        if t.quad:
            cv2.polylines(out, [np.round(np.array(t.quad)).astype(np.int32)], True, (255, 255, 255), 1, cv2.LINE_AA)
        text = t.code + ("v" if t.face_down else "") + ("^" if t.standing else "")
        at = (int(x) + 1, int(y) + int(12 * scale / 0.35 * 0.9))
        cv2.putText(out, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(out, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA)
    return out


def _caption(record: ImageRecord) -> list[str]:
    lines = [f"{Path(record.file_name).name} {record.style} {record.split} {len(record.tiles)} tiles"]
    if record.hand:
        h = record.hand
        melds = " ".join(("(" if m["concealed"] else "[") + "".join(m["tiles"]) + (")" if m["concealed"] else "]") for m in h["melds"])
        lines.append(f"{''.join(h['concealed'])} {melds} {''.join(h['bonus'])} win {h['winning_tile']}")
    return lines


def contact_sheet(dataset: Dataset, out: Path, count: int = 16, columns: int = 4, cell_width: int = 480, seed: int = 0) -> Path:
    """Write a PNG of ``count`` images (spread over the dataset, fixed by ``seed``) with labels drawn."""
    if not dataset.images:
        raise PungChowError(f"{dataset.root} has no images to put on a contact sheet")
    rng = np.random.default_rng(seed)
    cell_height = cell_width * 3 // 4
    chosen = sorted(rng.choice(len(dataset.images), size=min(count, len(dataset.images)), replace=False))
    cells = []
    for i in chosen:
        record = dataset.images[int(i)]
        img = cv2.imread(str(dataset.image_path(record)))
        if img is None:
            raise PungChowError(f"cannot read {dataset.image_path(record)}")
        drawn = draw_labels(img, record)
        f = min(cell_width / drawn.shape[1], cell_height / drawn.shape[0])
        resized = cv2.resize(drawn, (int(drawn.shape[1] * f), int(drawn.shape[0] * f)), interpolation=cv2.INTER_AREA)
        cell = np.full((cell_height + 40, cell_width, 3), 30, np.uint8)
        cell[: resized.shape[0], : resized.shape[1]] = resized
        for k, line in enumerate(_caption(record)):
            cv2.putText(cell, line[:90], (4, cell_height + 14 + 16 * k), cv2.FONT_HERSHEY_SIMPLEX, 0.38, (230, 230, 230), 1, cv2.LINE_AA)
        cells.append(cell)
    rows = math.ceil(len(cells) / columns)
    sheet = np.full((rows * (cell_height + 40), columns * cell_width, 3), 30, np.uint8)
    for k, cell in enumerate(cells):
        r, c = divmod(k, columns)
        sheet[r * (cell_height + 40) : (r + 1) * (cell_height + 40), c * cell_width : (c + 1) * cell_width] = cell
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    return write_image(out, sheet)


def contact_sheet_of(dataset_dir: Path, out: Path, count: int = 16, seed: int = 0) -> Path:
    return contact_sheet(load_dataset(dataset_dir), out, count=count, seed=seed)
