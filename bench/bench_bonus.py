"""Flowers and seasons of the held-out families, drawn as single tiles: the classifier alone against it plus the bonus reader.

    python bench/bench_bonus.py [--tiles 400] [--width 80] [--families heldout] [--seed 3]
    PUNGCHOW_MODELS=artifacts/cand python bench/bench_bonus.py

Each tile is drawn by the real-set renderer as a camera sees it (side band, slight perspective, neighbours,
either way up) on a crop where it is ``--width`` pixels wide, then read as the pipeline reads a detected box.
This is the close-up half of reading flowers and seasons; ``bench_crops.py`` on a scene dataset is the far half.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from recognizer.classify import crops_of, read_flowers_and_seasons, run_classifier
from recognizer.labels import CLASSES
from scoring.tiles import BONUS_CODES


def main() -> None:
    from pungchow_data.realsets import family_names
    from recognizer.train.realcrops import RealCropSource, close_up

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tiles", type=int, default=400)
    ap.add_argument("--width", type=float, default=80.0, help="tile width in the photo, pixels")
    ap.add_argument("--families", nargs="+", default=["heldout"])
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    if args.tiles < 1 or not 8 <= args.width <= 400:
        ap.error("--tiles must be at least 1 and --width between 8 and 400 pixels")
    rng = np.random.default_rng(args.seed)
    try:
        sets = RealCropSource(family_names(args.families), rng)
    except RuntimeError as exc:
        raise SystemExit(f"{exc}: install the family fonts (the list is in .ci/run)") from None
    truth, first, second = [], [], []
    for _ in range(args.tiles):
        style, faces = sets.next_set()
        code = BONUS_CODES[int(rng.integers(len(BONUS_CODES)))]
        rgb, box = close_up(rng, style, faces, code, args.width)
        p, _ = run_classifier(crops_of(rgb, box))
        truth.append(code)
        first.append(CLASSES[int(p[0].argmax())])
        second.append(CLASSES[int(read_flowers_and_seasons(rgb, box, p)[0].argmax())])
    t, a, b = np.array(truth), np.array(first), np.array(second)
    print(json.dumps({"families": args.families, "tiles": args.tiles, "width": args.width,
                      "classifier": round(float(np.mean(a == t)), 3), "with_bonus_reader": round(float(np.mean(b == t)), 3),
                      "number_right": round(float(np.mean([x[0] == y[0] for x, y in zip(t, b)])), 3),
                      "flower_or_season_right": round(float(np.mean([x[1] == y[1] for x, y in zip(t, b)])), 3)}))


if __name__ == "__main__":
    main()
