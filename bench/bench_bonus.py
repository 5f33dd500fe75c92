"""Flowers and seasons of the held-out families, drawn as single tiles: the classifier alone against it plus the bonus reader.

    python bench/bench_bonus.py [--tiles 400] [--width 80] [--families heldout] [--seed 3] [--marked-otherwise]
    PUNGCHOW_MODELS=artifacts/cand python bench/bench_bonus.py

Each tile is drawn by the real-set renderer as a camera sees it (side band, slight perspective, neighbours,
either way up) on a crop where it is ``--width`` pixels wide, then read as the pipeline reads a detected box.
This is the close-up half of reading flowers and seasons; ``bench_crops.py`` on a scene dataset is the far half.
``by_marks`` splits the reading by how each set marks its flowers and seasons: the held-out families' sets all use
the corners; ``--marked-otherwise`` draws the families' sets with one of the other ways the training families' sets
use (a classic style keeps its own).
"""

from __future__ import annotations

import json

import numpy as np
from closeups import close_up_sets

from recognizer.classify import crops_of, read_flowers_and_seasons, run_classifier
from recognizer.labels import CLASSES
from scoring.tiles import BONUS_CODES


def main() -> None:
    from pungchow_data.realsets import FAMILIES, design
    from recognizer.train.realcrops import close_up

    args, sets, rng = close_up_sets(__doc__, tiles=400, seed=3)
    truth, first, second, marks = [], [], [], []
    for _ in range(args.tiles):
        style, faces = sets.next_set()
        marks.append(design(FAMILIES[style.family], style.variant).bonus_marks if style.family else "classic style")
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
                      "flower_or_season_right": round(float(np.mean([x[1] == y[1] for x, y in zip(t, b)])), 3),
                      "by_marks": {m: {"n": int(np.sum(k)), "with_bonus_reader": round(float(np.mean(b[k] == t[k])), 3)}
                                   for m in sorted(set(marks)) for k in [np.array(marks) == m]}}))


if __name__ == "__main__":
    main()
