"""Every face of the held-out families drawn close up, read uncalibrated: top-1 / top-3 by tile group.

    python bench/bench_closeup.py [--tiles 840] [--width 80] [--families heldout] [--seed 5] [--faces 1B ...]
                                  [--marked-otherwise] [--formal-five]
    PUNGCHOW_MODELS=artifacts/cand python bench/bench_closeup.py

A player's photo of one tile, or a crop of a few, reaches the pipeline as a close-up: this draws each tile of a
set nobody trained on (side band, slight perspective, neighbours, either way up) ``--width`` pixels wide and reads
it as a detected box is read, with the bonus reader. It is the nearest measure we have to "real crops of sets we
never saw"; ``bench_crops.py`` on a scene dataset is the far, small-tile half. Faces are drawn in turn, so each of
the 43 (42 faces and face down) appears equally often; ``--faces`` draws only those (``--faces 1B``: the held-out
families' birds on 1 bamboo, the crane among them, which no training family draws).
"""

from __future__ import annotations

import json

import numpy as np
from bench_crops import report
from closeups import close_up_sets

from recognizer.classify import crops_of, run_classifier
from recognizer.labels import CLASSES, NOT_A_TILE


def main() -> None:
    from recognizer.train.realcrops import close_up

    args, sets, rng = close_up_sets(__doc__, tiles=860, seed=5, faces=True)
    faces = args.faces or [c for c in CLASSES if c != NOT_A_TILE]
    codes: list[str] = []
    probs: list[np.ndarray] = []
    for k in range(args.tiles):
        style, drawn = sets.next_set()
        code = faces[k % len(faces)]
        rgb, box = close_up(rng, style, drawn, code, args.width)
        p, _ = run_classifier(crops_of(rgb, box))
        probs.append(p)
        codes.append(code)
    print(json.dumps({"families": args.families, "width": args.width, **report(codes, np.concatenate(probs))}))


if __name__ == "__main__":
    main()
