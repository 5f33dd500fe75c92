"""Which way up each photo is read: the 1922 book's dev prints as printed, the leo hands as taken and turned over.

    python bench/bench_way_up.py                 # book prints and every leo hand (about a minute)
    python bench/bench_way_up.py --every 3       # every third leo hand

A quick check beside ``bench_real.py --only book`` (which reads every tile, minutes): per photo, the turn
``level.level`` gives it, and the detector's evidence ``level.turned_over`` weighs, its sureness of the photo as taken,
a quarter anticlockwise, turned over and a quarter clockwise, with the gain turned over (``level.over_gain``).
An upright print or hand should be read as taken; a hand turned over should be turned back (180, or near it where a
slant is read). Reads ``../shared/realdev/book-1922`` and ``data/rec-leo`` (each skipped with a message when absent).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_real import REALDEV

from recognizer.detect import detect, looks
from recognizer.image import load_photo
from recognizer.level import at_long_side, level, look_side, sureness, turned
from recognizer.models import load_model

LEO = Path(__file__).resolve().parent.parent / "data" / "rec-leo"


def read_way_up(rgb: np.ndarray) -> tuple[float, list[float]]:
    """(the turn ``level`` reads the photo at, the detector's sureness of it at the four quarter turns)."""
    model = load_model("detector")
    seen = looks(rgb, model)
    dets = seen.merged()
    levelled = level(rgb, dets, model, seen)
    side = look_side(dets, max(rgb.shape[:2]))
    small = at_long_side(rgb, side, seen)
    sure = [sureness(detect(turned(small, float(t))[0] if t else small, model, long_side=side)) for t in (0, 90, 180, -90)]
    return (levelled.degrees if levelled is not None else 0.0), sure


def report(name: str, want: float, rgb: np.ndarray) -> bool:
    """Print one photo's line; whether it is read the right way up (within 45 degrees of ``want``)."""
    got, sure = read_way_up(rgb)
    gain = (sure[2] + sure[3]) - (sure[0] + sure[1])
    off = abs((got - want + 180.0) % 360.0 - 180.0)
    print(f"  {name:22s} read at {got:7.1f} (want {want:5.0f})  sure {' '.join(f'{s:.3f}' for s in sure)}  "
          f"turned over gains {gain:+.3f}{'' if off <= 45.0 else '  WRONG'}")
    return off <= 45.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--every", type=int, default=1, help="read every Nth leo hand")
    args = ap.parse_args()
    book = sorted((REALDEV / "book-1922" / "photos").glob("*.jpg"))
    if book:
        right = [report(p.stem, 0.0, load_photo(p)) for p in book]
        print(f"book prints read as printed: {sum(right)} of {len(right)}")
    else:
        print(f"skipped the book: {REALDEV / 'book-1922'} is missing")
    if (LEO / "annotations.json").is_file():
        names = [im["file_name"] for im in json.loads((LEO / "annotations.json").read_text())["images"]][::args.every]
        upright, over = [], []
        for name in names:
            rgb = load_photo(LEO / name)
            upright.append(report(Path(name).stem, 0.0, rgb))
            over.append(report(Path(name).stem + " turned over", 180.0, np.ascontiguousarray(cv2.rotate(rgb, cv2.ROTATE_180))))
        print(f"leo hands read as taken: {sum(upright)} of {len(upright)}; turned over, turned back: {sum(over)} of {len(over)}")
    else:
        print(f"skipped the leo hands: {LEO} is missing (link the main checkout's data/)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
