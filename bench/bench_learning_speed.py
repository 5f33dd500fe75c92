"""What learning costs: a correction learnt, a big set loaded, and a photo read with a learnt set against without.

    python bench/bench_learning_speed.py            # Harr's photos; sets in a temporary history file, removed after
    python bench/bench_learning_speed.py --repeats 9

Every figure is CPU time (one BLAS thread), a median over ``--repeats`` runs in this one process, the two sides of
each comparison alternated, so a machine shared with other work slows both alike:

- a correction learnt (two tiles: cropped, embedded, added to the set) into a new set, and into sets of 500 and 2,000
  examples: the set's rows are added to, nothing rewritten, so it costs the same whatever the set holds;
- a set of 2,000 examples loaded as ``recognize --tileset`` loads it: the first time in a process (read from the
  history file: codes, embeddings and faces; the crops stay in the file), and again (kept while the set is unchanged);
- what a learnt set of 200, 500 and 2,000 examples adds to a photo's reading (``TileSet.with_examples``, the set
  already loaded, as the page and a second photo have it), beside the photo's reading at its boxes without a set.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from recognizer import tileset
from recognizer.blas import one_blas_thread
from recognizer.classify import classify, crops_of, run_classifier
from recognizer.detect import detect
from recognizer.examples import CorrectedTile, Examples
from recognizer.image import load_photo
from recognizer.tileset import add_examples, builtin_tileset_dir, learn_tiles, load_tileset

SOURCE = builtin_tileset_dir() / "pungchow-1922" / "source"
HAND_PHOTO = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "photos" / "leo-058.jpg"


def ms(run: Callable[[], object]) -> float:
    """CPU milliseconds of ``run`` (this process's, one BLAS thread): on a machine shared with other work, wall time
    measures the others as much as this."""
    t = time.process_time()
    run()
    return (time.process_time() - t) * 1000


def grown(name: str, size: int, seed: Examples) -> None:
    """Set ``name`` made to hold ``size`` examples (copies of ``seed``'s, added in steps as corrections add them)."""
    have = 0
    while have < size:
        want = min(size - have, 400)
        batch = seed
        while len(batch) < want:
            batch = batch + seed
        add_examples(name, batch.without(np.arange(len(batch)) < want))
        have += want


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="learning-speed-") as tmp, one_blas_thread():
        os.environ["PUNGCHOW_HOME"] = tmp
        os.environ.pop("PUNGCHOW_DB", None)
        rgb = load_photo(SOURCE / "illustration_1.jpg")
        dets = detect(rgb)
        boxes = dets.boxes[:40]
        seed = Examples.of_crops(crops_of(rgb, boxes), ["1B"] * len(boxes), "corrected:seed")
        two = [CorrectedTile(tuple(float(v) for v in b), "9B") for b in boxes[:2]]  # type: ignore[misc]
        for name, size in (("s500", 500), ("s2000", 2000)):
            grown(name, size, seed)
        learn: dict[str, list[float]] = {"a new set": [], "a set of 500": [], "a set of 2,000": []}
        for r in range(args.repeats):
            learn["a new set"].append(ms(lambda: learn_tiles(f"new-{r}", rgb, two, "p.jpg")))  # noqa: B023
            learn["a set of 500"].append(ms(lambda: learn_tiles("s500", rgb, two, "p.jpg")))
            learn["a set of 2,000"].append(ms(lambda: learn_tiles("s2000", rgb, two, "p.jpg")))
        for what, times in learn.items():
            print(f"a correction of two tiles learnt into {what:<15} {np.median(times):6.1f} ms (median of {len(times)})")

        first, again = [], []
        for _ in range(args.repeats):
            tileset._READ.clear()  # as a new process (the command line's `recognize --tileset`) first reads it
            first.append(ms(lambda: load_tileset("s2000")))
            again.append(ms(lambda: load_tileset("s2000")))
        n = len(load_tileset("s2000").examples or Examples.empty())
        print(f"a set of {n:,} examples loads in {np.median(first):6.1f} ms from the history file, "
              f"{np.median(again):5.1f} ms again while unchanged (medians of {len(first)})")

        grown("s200", 200, seed)
        for photo in (HAND_PHOTO, SOURCE / "illustration_2.jpg"):
            image = load_photo(photo)
            found = detect(image)
            crops = crops_of(image, found.boxes)
            probs, emb = run_classifier(crops)
            alone = np.median([ms(lambda: classify(image, found, None)) for _ in range(args.repeats)])  # noqa: B023
            for name in ("s200", "s500", "s2000"):
                ts = load_tileset(name)
                size = len(ts.examples or Examples.empty())
                ts.with_examples(crops, probs, emb)  # the set's index made once, as the first photo read with it makes it
                added = np.median([ms(lambda: ts.with_examples(crops, probs, emb)) for _ in range(args.repeats)])  # noqa: B023
                print(f"{photo.name} ({len(found)} tiles, read alone in {alone:.0f} ms): a set of {size:,} examples adds "
                      f"{added:5.1f} ms to its reading (median of {args.repeats})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
