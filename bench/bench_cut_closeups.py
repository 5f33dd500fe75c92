"""Close-ups cut from a real photo: every tile found and read as in the whole photo, however few fill the frame.

    python bench/bench_cut_closeups.py                                # the committed sample, as a 12 MP phone takes it
    python bench/bench_cut_closeups.py PHOTO.jpg --tiles 8 4 3 2 1 --times 1
    python bench/bench_cut_closeups.py --times 1 tests/fixtures/photos/leo-0*.jpg ../shared/realdev/hk-sets/photos/set0[1-9]-1.* \
        ../shared/realdev/hk-sets/photos/set11-1.jpg ../shared/realdev/hk-sets/photos/set01-2.jpg   # real photos, totalled

A player photographs one pung or kong up close as often as a whole hand. The whole photo is read first; its hand row's
tiles are the truth. Then runs of ``--tiles`` neighbouring tiles of that row are cut out, the frame as wide as the run
(they fill ``FILL`` of it; a 4:3 frame, or taller for one tile), and each cut is read alone: a tile counts when a box
round it (IoU >= 0.5) reads the code the whole photo read. Also printed: boxes on nothing (``extra``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from recognizer.detect import iou_matrix
from recognizer.detections import Detections
from recognizer.image import load_photo
from recognizer.pipeline import recognize

SAMPLE = Path(__file__).resolve().parent.parent / "recognizer" / "samples" / "finished-hand.jpg"
#: The share of the frame's width the cut tiles fill.
FILL = 0.9


def hand_row(dets: Detections) -> np.ndarray:
    """The indices of the longest row of tiles (the concealed hand), left to right."""
    c, h = dets.centres, float(np.median(dets.boxes[:, 3]))
    rows: list[list[int]] = []
    for i in np.argsort(c[:, 1]):
        for row in rows:
            if abs(c[row[0], 1] - c[i, 1]) < 0.3 * h:
                row.append(int(i))
                break
        else:
            rows.append([int(i)])
    longest = max(rows, key=len)
    return np.array(sorted(longest, key=lambda i: c[i, 0]))


def cut(rgb: np.ndarray, boxes: np.ndarray, portrait: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The frame round these neighbouring tiles (they fill ``FILL`` of its width; 4:3, or 3:4 held ``portrait``), and
    their boxes in it."""
    x1, y1 = boxes[:, 0].min(), boxes[:, 1].min()
    x2, y2 = (boxes[:, 0] + boxes[:, 2]).max(), (boxes[:, 1] + boxes[:, 3]).max()
    width = (x2 - x1) / FILL
    height = max((4 / 3 if portrait else 0.75) * width, (y2 - y1) / FILL)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    h, w = rgb.shape[:2]
    left, top = int(max(0, cx - width / 2)), int(max(0, cy - height / 2))
    right, bottom = int(min(w, cx + width / 2)), int(min(h, cy + height / 2))
    return np.ascontiguousarray(rgb[top:bottom, left:right]), boxes - np.array([left, top, 0, 0], np.float32)


def read_cut(rgb: np.ndarray, boxes: np.ndarray, codes: list[str]) -> tuple[int, int]:
    """(tiles read as in the whole photo, boxes on no tile) for one cut."""
    d = recognize(rgb).detections
    if not len(d):
        return 0, 0
    iou = iou_matrix(d.boxes, boxes)
    right = sum(1 for j, code in enumerate(codes) if any(iou[i, j] >= 0.5 and d.code(i) == code for i in range(len(d))))
    return right, int((iou.max(axis=1) < 0.5).sum())


def read_photo(photo: Path, tiles: list[int], times: float, portrait: bool = False) -> tuple[int, int]:
    """Print one photo's cuts; (tiles read as in the whole photo, tiles cut)."""
    rgb = load_photo(photo)
    if times != 1:
        rgb = cv2.resize(rgb, None, fx=times, fy=times, interpolation=cv2.INTER_CUBIC)
    whole = recognize(rgb).detections
    row = hand_row(whole)
    print(f"{photo.name} at {rgb.shape[1]}x{rgb.shape[0]}: hand row of {len(row)} tiles, read {''.join(whole.code(i) for i in row)}")
    total, found = 0, 0
    for n in tiles:
        right, extra, cuts = 0, 0, 0
        for start in range(0, len(row) - n + 1, max(1, n)):
            idx = row[start:start + n]
            image, boxes = cut(rgb, whole.boxes[idx], portrait)
            r, e = read_cut(image, boxes, [whole.code(i) for i in idx])
            right, extra, cuts = right + r, extra + e, cuts + 1
        total, found = total + cuts * n, found + right
        print(f"{n} tile(s) filling the frame: {cuts} cuts, {right} of {cuts * n} tiles read as in the whole photo, {extra} extra boxes")
    print(f"all cuts: {found} of {total} ({found / max(total, 1):.3f})")
    return found, total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("photos", nargs="*", type=Path, default=[SAMPLE])
    ap.add_argument("--tiles", type=int, nargs="+", default=[8, 4, 3, 2, 1])
    ap.add_argument("--times", type=float, default=4.5, help="enlarge the photo this much first (4.5: the sample as 12 MP)")
    ap.add_argument("--portrait", action="store_true", help="frames 3:4, the phone held upright (else 4:3)")
    args = ap.parse_args()
    if missing := [str(p) for p in args.photos if not p.is_file()]:
        ap.error(f"no such photo: {', '.join(missing)}")
    read = [read_photo(photo, args.tiles, args.times, args.portrait) for photo in args.photos]
    if len(read) > 1:
        found, total = sum(r[0] for r in read), sum(r[1] for r in read)
        print(f"{len(read)} photos, every cut: {found} of {total} ({found / max(total, 1):.3f})")


if __name__ == "__main__":
    main()
