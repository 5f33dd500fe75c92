"""Every face of the held-out families drawn close up, read uncalibrated: top-1 / top-3 by tile group.

    python bench/bench_closeup.py [--tiles 840] [--width 80] [--families heldout] [--seed 5]
    PUNGCHOW_MODELS=artifacts/cand python bench/bench_closeup.py

A player's photo of one tile, or a crop of a few, reaches the pipeline as a close-up: this draws each tile of a
set nobody trained on (side band, slight perspective, neighbours, either way up) ``--width`` pixels wide and reads
it as a detected box is read, with the bonus reader. It is the nearest measure we have to "real crops of sets we
never saw"; ``bench_crops.py`` on a scene dataset is the far, small-tile half. Faces are drawn in turn, so each of
the 43 (42 faces and face down) appears equally often.
"""

from __future__ import annotations

import argparse
import json

import numpy as np
from bench_crops import report

from recognizer.classify import crops_of, read_flowers_and_seasons, run_classifier
from recognizer.labels import CLASSES, NOT_A_TILE


def main() -> None:
    from pungchow_data.realsets import family_names
    from recognizer.train.realcrops import RealCropSource, close_up

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tiles", type=int, default=860)
    ap.add_argument("--width", type=float, default=80.0, help="tile width in the photo, pixels")
    ap.add_argument("--families", nargs="+", default=["heldout"])
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    if args.tiles < 1 or not 8 <= args.width <= 400:
        ap.error("--tiles must be at least 1 and --width between 8 and 400 pixels")
    rng = np.random.default_rng(args.seed)
    try:
        sets = RealCropSource(family_names(args.families), rng)
    except RuntimeError as exc:
        raise SystemExit(f"{exc}: install the family fonts (the list is in .ci/run)") from None
    faces = [c for c in CLASSES if c != NOT_A_TILE]
    codes: list[str] = []
    probs: list[np.ndarray] = []
    for k in range(args.tiles):
        style, drawn = sets.next_set()
        code = faces[k % len(faces)]
        rgb, box = close_up(rng, style, drawn, code, args.width)
        p, _ = run_classifier(crops_of(rgb, box))
        probs.append(read_flowers_and_seasons(rgb, box, p))
        codes.append(code)
    print(json.dumps({"families": args.families, "width": args.width, **report(codes, np.concatenate(probs))}))


if __name__ == "__main__":
    main()
