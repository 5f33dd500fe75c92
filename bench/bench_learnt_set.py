"""Learning curves of a player's own set: learn from the corrections of k photos, read the others.

    python bench/bench_learnt_set.py                 # set01's six photos and the book's fifteen
    python bench/bench_learnt_set.py --only hk --no-pipeline   # set01 only, at the labelled boxes only
    python bench/bench_learnt_set.py --only harr --wrong        # Harr's two photos: right and wrong corrections
    python bench/bench_learnt_set.py --only harr --no-guard     # the same with sure readings of unseen faces unheld
    python bench/bench_learnt_set.py --only hk --folds ../main/artifacts/folds1 --choices 6   # held out (below)

Reads ``../shared/realdev`` (beside the clone; skipped, saying so, when it is absent). Each learning photo's
labels are written as a corrected recognition (``box`` in the photo's own pixels, ``code``) and learnt exactly as
``pungchow tileset learn NAME PHOTO --corrected FILE`` learns it, into a temporary folder that is removed at the end
(nothing learnt here is kept or shipped). Each other photo is then read:

- at its labelled boxes (``classify`` of those boxes: reading, not finding): the share of labelled tiles read right;
- through the whole pipeline (``recognize --tileset``): the share of labelled tiles with a box (IoU >= 0.5) of the
  right code, and on the book's photos, every tile of which is labelled, tile F1.

hk set01: every choice of k of the six photos to learn from (k = 1, 2, 5), read the others; labels are partial.
Book: the fifteen photos sorted by name, every third one (three folds) as the five learnt, read the other ten.
Each reading is also done with one deliberately wrong example per face added (a crop of the face named as another
face the set has seen), and with the general reader alone (k = 0). The shipped ``pungchow-1922`` set is read
beside, and re-expressed as examples (the tiles of its calibration photo), on every book photo.

With ``--folds DIR`` (``fold0.onnx`` ... ``fold5.onnx``, as ``bench/bench_real.py --folds`` takes them), each photo is
read by the classifier of the fold that never saw it (set ``HK_SETS[K]`` and book photos K, K+6, ... are fold K's;
``bench_real.Models`` loads it): the learnt set's examples are embedded again by that classifier as it loads, exactly as
a set is when the reader changes. The shipped reader trained on every dev photo, so only these figures are held out.
The shipped ``pungchow-1922`` comparison is not run then (each fold would need its own calibration read against it).

Harr's 1922 set (its two photos ship in ``models/tilesets/pungchow-1922/source``; every tile of the second, the
complete set, is labelled in ``tests/fixtures/photos``): tiles of the first photo are learnt as corrected, and the
second is read through the whole pipeline; each line counts its 144 tiles read right, the tiles the general reader
read right that the set now reads wrong ("lost"), and those it read wrong that the set reads right ("gained"); the
one-face lines end with how many of the 38 sets read fewer tiles right than the general reader. The named cases:
9B and 8D corrected (two faces the general reader misreads there), the same with a 6B wrongly corrected to 9B, and
the red dragon alone. With ``--wrong``, also every face of the first photo taught alone, first named rightly, then
wrongly as the general reader's own second choice for that tile (the likeliest slip of a player's finger on the
page's runner-up).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import bench_real  # noqa: E402
from bench_real import HK_SETS, Models, book_folds, each_tile_once  # noqa: E402

import recognizer.examples  # noqa: E402
import recognizer.tileset as tileset_module  # noqa: E402
from recognizer.blas import one_blas_thread  # noqa: E402
from recognizer.classify import classify, crops_of, run_classifier  # noqa: E402
from recognizer.detect import iou_matrix  # noqa: E402
from recognizer.detections import Detections  # noqa: E402
from recognizer.examples import CorrectedTile, Examples, examples_from_photo  # noqa: E402
from recognizer.geometry import size_factors  # noqa: E402
from recognizer.image import load_photo, load_photo_sized  # noqa: E402
from recognizer.labels import CLASSES  # noqa: E402
from recognizer.pipeline import recognize  # noqa: E402
from recognizer.tileset import (  # noqa: E402
    TileSet,
    add_examples,
    builtin_tileset_dir,
    learn_from_corrected,
    load_tileset,
    read_calibration,
    read_layout,
)

REALDEV = ROOT.parent / "shared" / "realdev"
HARR = builtin_tileset_dir() / "pungchow-1922" / "source"
HARR_LABELS = ROOT / "tests" / "fixtures" / "photos" / "illustration_2.expected.json"
IOU = 0.5
DRAGONS = ("RD", "GD", "WD")


@dataclass(frozen=True)
class Photo:
    """A labelled photo: its file, and each labelled tile's box (x, y, w, h, own pixels) and code."""

    path: Path
    boxes: np.ndarray
    codes: tuple[str, ...]
    complete: bool
    fold: int
    """The leave-one-set-out fold whose classifier never saw this photo (``bench_real``)."""

    @property
    def name(self) -> str:
        return self.path.name


def hk_set01() -> list[Photo]:
    """set01's photos, each tile once (``bench_real.each_tile_once``: 19 of set01's 108 labels are a tile's second)."""
    labels = json.loads((REALDEV / "hk-sets" / "photos.json").read_text())
    out = []
    for name, v in sorted(labels.items()):
        if v["set"] != "set01":
            continue
        boxes = np.array([t["box"] for t in v["tiles"]], np.float32)
        first = each_tile_once(boxes)
        out.append(Photo(REALDEV / "hk-sets" / "photos" / name, boxes[first], tuple(v["tiles"][i]["code"] for i in first), False,
                         HK_SETS.index(v["set"])))
    return out


def book() -> list[Photo]:
    fold_of = book_folds()
    out = []
    for f in sorted((REALDEV / "book-1922" / "labels").glob("*.json")):
        d = json.loads(f.read_text())
        rows = d.get("rows") or [r for h in d.get("hands", []) for r in h["rows"]]
        tiles = [(b, c) for r in rows for c, b in zip(r["tiles"], r["boxes"]) if c != "??"]
        boxes = np.array([[b[0], b[1], b[2] - b[0], b[3] - b[1]] for b, _ in tiles], np.float32)
        out.append(Photo(REALDEV / "book-1922" / "photos" / d["image"], boxes, tuple(c for _, c in tiles), True, fold_of[f.stem]))
    return out


def corrected_file(photo: Photo, folder: Path) -> Path:
    """The photo's labels as a corrected recognition, as the player would save it."""
    path = folder / f"{photo.path.stem}.corrected.json"
    path.write_text(json.dumps({"tiles": [{"box": [float(v) for v in b], "code": c} for b, c in zip(photo.boxes, photo.codes)]}))
    return path


def learnt(name: str, photos: tuple[Photo, ...], folder: Path) -> TileSet:
    for p in photos:
        learn_from_corrected(name, p.path, corrected_file(p, folder))
    return load_tileset(name)


def with_wrong_examples(ts: TileSet) -> TileSet:
    """The set with one wrong example per face: its first example of each face, named as the next face it has seen."""
    ex = ts.examples or Examples.empty()
    faces = ex.faces_seen
    if len(faces) < 2:
        return ts
    first = np.array([ex.codes.index(f) for f in faces])
    wrong = Examples.of_arrays(ex.crops[first], [faces[(k + 1) % len(faces)] for k in range(len(faces))], ("wrong",) * len(faces),
                               ex.embeddings[first], ex.turned[first])
    return TileSet.of_examples(ts.name, ex + wrong)


@dataclass
class Tally:
    right_at_boxes: int = 0
    labelled: int = 0
    right_found: int = 0
    predicted: int = 0
    ms_examples: float = 0.0
    photos: int = 0
    misread: Counter[str] = field(default_factory=Counter)
    """At the labelled boxes, each labelled face read as another, as 'labelled->read'."""

    def add(self, other: Tally) -> None:
        for k in vars(self):
            setattr(self, k, getattr(self, k) + getattr(other, k))

    def line(self, complete: bool) -> str:
        out = f"at boxes {self.right_at_boxes / max(self.labelled, 1):.3f}"
        if self.predicted:
            found = self.right_found / max(self.labelled, 1)
            out += f" | pipeline {found:.3f}"
            if complete:
                precision = self.right_found / self.predicted
                out += f" F1 {2 * precision * found / max(precision + found, 1e-9):.3f}"
        return out + f" ({self.labelled} tiles, {self.photos} readings)"


def read(photo: Photo, ts: TileSet | None, pipeline: bool) -> Tally:
    rgb, own = load_photo_sized(photo.path)
    fx, fy = size_factors(own, (rgb.shape[1], rgb.shape[0]))
    boxes = photo.boxes * np.array([fx, fy, fx, fy], np.float32)
    d = classify(rgb, Detections(boxes, np.ones(len(boxes))), ts, drop_not_tiles=False)
    out = Tally(sum(d.code(k) == c for k, c in enumerate(photo.codes)), len(photo.codes), photos=1,
                misread=Counter(f"{c}->{d.code(k)}" for k, c in enumerate(photo.codes) if d.code(k) != c))
    if ts is not None and ts.examples is not None:
        crops = crops_of(rgb, boxes)
        probs, emb = run_classifier(crops)
        with one_blas_thread():  # as recognize reads; CPU time, as the machine may be shared
            t = time.process_time()
            ts.with_examples(crops, probs, emb)
            out.ms_examples = (time.process_time() - t) * 1000
    if pipeline:
        res = recognize(photo.path, ts)
        found = res.boxes_at(*own)
        codes = [res.detections.code(k) for k in range(len(res.detections))]
        ious = iou_matrix(photo.boxes, found) if len(found) else np.zeros((len(photo.boxes), 0))
        used: set[int] = set()
        for i, code in enumerate(photo.codes):
            for j in np.argsort(-ious[i]) if ious.shape[1] else []:
                if ious[i, j] < IOU:
                    break
                if j not in used and codes[j] == code:
                    used.add(int(j))
                    out.right_found += 1
                    break
        out.predicted = len(found) if photo.complete else 1
    return out


def folds(photos: list[Photo], k: int, thirds: bool, most: int | None = None) -> Iterator[tuple[tuple[Photo, ...], list[Photo]]]:
    if thirds and k:
        for f in range(3):
            learn = tuple(photos[f::3][:k])
            yield learn, [p for p in photos if p not in learn]
        return
    for learn in itertools.islice(itertools.combinations(photos, k), most):
        yield learn, [p for p in photos if p not in learn]


def curve(title: str, photos: list[Photo], ks: tuple[int, ...], thirds: bool, pipeline: bool, tmp: Path, models: Models,
          most: int | None = None) -> None:
    """Per k, the photos not learnt read by the general reader, the learnt set, and the set with wrong examples; each
    photo by ``models``' reader for its fold (the set loaded again for it, so embedded by that reader)."""
    print(f"\n{title}", flush=True)
    general: dict[tuple[str, int], Tally] = {}  # the general reader reads a photo alike whichever photos the set learnt
    for k in ks:
        plain, learnt_t, wrong_t = Tally(), Tally(), Tally()
        for n, (learn, rest) in enumerate(folds(photos, k, thirds, most)):
            name = f"bench-{title.split()[0].strip(',')}-{k}-{n}"
            if k:
                learnt(name, learn, tmp)
            for p in sorted(rest, key=lambda p: p.fold):
                models.use(p.fold)
                if (p.name, p.fold) not in general:
                    general[p.name, p.fold] = read(p, None, pipeline)
                plain.add(general[p.name, p.fold])
                if k:
                    ts = load_tileset(name)
                    learnt_t.add(read(p, ts, pipeline))
                    wrong_t.add(read(p, with_wrong_examples(ts), False))
        if not k:
            print(f"  k=0 (general reader)      {plain.line(photos[0].complete)}", flush=True)
            continue
        print(f"  k={k} general reader       {plain.line(photos[0].complete)}")
        ms = learnt_t.ms_examples / learnt_t.photos
        print(f"  k={k} learnt set           {learnt_t.line(photos[0].complete)}  examples add {ms:.1f} ms CPU a photo")
        wrong = sum(learnt_t.misread.values())
        dragons = sum(n for pair, n in learnt_t.misread.items() if pair[:2] in DRAGONS and pair[-2:] in DRAGONS)
        print(f"      misread at the boxes {wrong}, one dragon as another {dragons}: "
              + ", ".join(f"{pair} {n}" for pair, n in learnt_t.misread.most_common(6)))
        print(f"  k={k} + one wrong per face {wrong_t.line(photos[0].complete)}", flush=True)


def shipped_1922(photos: list[Photo], pipeline: bool) -> None:
    """Today's shipped set, and the same calibration photo's tiles as examples, photo by photo."""
    source = builtin_tileset_dir() / "pungchow-1922" / "source"
    shipped = load_tileset("pungchow-1922")
    cal = read_calibration(source / "illustration_1.jpg", read_layout(source / "layout.json"))
    tiles = Examples.of_crops(cal.crops(), list(cal.codes), "calibration:illustration_1.jpg")
    as_examples = TileSet.of_examples("pungchow-1922-examples", tiles)
    print("\nbook photos, the shipped pungchow-1922 set (today) against its calibration photo's tiles as examples")
    for p in photos:
        a, b = read(p, shipped, pipeline), read(p, as_examples, pipeline)
        print(f"  {p.name:<22} shipped {a.line(True)}\n  {'':<22} examples {b.line(True)}")


def load_time(tmp: Path) -> None:
    """Load time of a set of 2,000 examples, as ``recognize --tileset`` loads it from the history file (the first time
    in a process; ``bench_learning_speed.py`` times the rest)."""
    photo = hk_set01()[0]
    learn_from_corrected("bench-load", photo.path, corrected_file(photo, tmp))
    ex = load_tileset("bench-load").examples or Examples.empty()
    while len(ex) < 2000:
        more = ex.without(np.arange(len(ex)) < min(len(ex), 2000 - len(ex)))
        add_examples("bench-load", more)
        ex = ex + more
    times = []
    for _ in range(5):
        tileset_module._READ.clear()  # as a new process reads it
        t = time.perf_counter()
        n = len(load_tileset("bench-load").examples or Examples.empty())
        times.append((time.perf_counter() - t) * 1000)
    print(f"\na set of {n} examples loads in {min(times):.0f} ms (best of 5; median {np.median(times):.0f} ms)")


def harr_second_photo(ts: TileSet | None) -> list[tuple[str, str]]:
    """(right code, code read) of each of the 144 tiles of Harr's complete-set photo ('--': no box found there)."""
    d = recognize(HARR / "illustration_2.jpg", ts).detections
    out = []
    for tile in json.loads(HARR_LABELS.read_text())["tiles"]:
        dist = np.linalg.norm(d.centres - np.array(tile["centre"]), axis=1)
        k = int(dist.argmin())
        out.append((tile["code"], d.code(k) if dist[k] < 10 else "--"))
    return out


def harr(wrong: bool) -> None:
    """Learn tiles of Harr's first photo as corrected (some wrongly), read his second: right, and lost."""
    rgb = load_photo(HARR / "illustration_1.jpg")
    cal = read_calibration(rgb, read_layout(HARR / "layout.json"))
    general = harr_second_photo(None)
    right0 = sum(c == r for c, r in general)

    def taught(corrections: list[tuple[str, str]]) -> tuple[int, list[str], list[str]]:
        """Tiles right, and those lost and gained against the general reader, with ``corrections`` as the set."""
        tiles = [CorrectedTile(tuple(float(v) for v in cal.boxes[cal.codes.index(face)]), named)  # type: ignore[arg-type]
                 for face, named in corrections]
        ts = TileSet.of_examples("harr", examples_from_photo(rgb, tiles, "corrected:illustration_1.jpg"))
        read = harr_second_photo(ts)
        lost = [f"{c}->{r}" for (c, r0), (_, r) in zip(general, read) if r0 == c != r]
        gained = [f"{r0}->{c}" for (c, r0), (_, r) in zip(general, read) if r0 != c == r]
        return sum(c == r for c, r in read), lost, gained

    def line(right: int, lost: list[str], gained: list[str]) -> str:
        return (f"{right} of {len(general)} right; lost {len(lost)}: {' '.join(lost) or '-'}; "
                f"gained {len(gained)}: {' '.join(gained) or '-'}")

    guard = "unheld" if np.isinf(recognizer.examples.SURE_OF_UNSEEN) else \
        f"held at {recognizer.examples.SURE_OF_UNSEEN} (against a code of one example {recognizer.examples.SURE_OF_ONE_EXAMPLE})"
    print(f"\nHarr's second photo, sure readings of unseen faces {guard}; general reader: {right0} of {len(general)} right")
    for title, corrections in (("9B, 8D corrected", [("9B", "9B"), ("8D", "8D")]),
                               ("9B, 8D and a 6B wrongly as 9B", [("9B", "9B"), ("8D", "8D"), ("6B", "9B")]),
                               ("RD corrected", [("RD", "RD")])):
        print(f"  {title:<32} {line(*taught(corrections))}")
    if not wrong:
        return
    probs = run_classifier(crops_of(rgb, cal.boxes))[0]
    for how in ("rightly", "wrongly"):
        total_lost, total_gained, worse, changed = 0, 0, 0, []
        for k, face in enumerate(cal.codes):
            second = next(CLASSES[i] for i in np.argsort(-probs[k]) if CLASSES[i] not in (face, "NT", "XX"))
            right, lost, gained = taught([(face, face if how == "rightly" else second)])
            total_lost, total_gained, worse = total_lost + len(lost), total_gained + len(gained), worse + (right < right0)
            if lost or gained:
                changed.append(f"{face}{'' if how == 'rightly' else ' as ' + second}: {line(right, lost, gained)}")
        print(f"  each of the {len(cal.codes)} faces taught alone, {how}: {total_lost} tiles lost, {total_gained} gained in all; "
              f"{worse} sets read worse than the general reader")
        for c in changed:
            print(f"    {c}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", choices=("hk", "book", "harr"), help="one of the benches")
    ap.add_argument("--wrong", action="store_true", help="harr: also every face taught alone, rightly and wrongly")
    ap.add_argument("--no-guard", action="store_true", help="sure readings of faces the set has not seen are not held")
    ap.add_argument("--no-pipeline", action="store_true", help="read at the labelled boxes only (quicker)")
    ap.add_argument("--choices", type=int, metavar="N", help="set01: at most the first N choices of the k photos learnt (all: 6, 15, 6)")
    ap.add_argument("--folds", type=Path, metavar="DIR", help="fold0..fold5 classifiers: each photo read by the one that never saw it")
    ap.add_argument("--ks", default="0,1,2,5", help="set01: the numbers of photos learnt (default 0,1,2,5)")
    args = ap.parse_args()
    if args.no_guard:
        recognizer.examples.SURE_OF_UNSEEN = recognizer.examples.SURE_OF_ONE_EXAMPLE = np.inf
    if args.only == "harr":
        harr(args.wrong)
        return 0
    if not REALDEV.is_dir():
        print(f"skipped: {REALDEV} is not here (the real dev photos lie beside the clone, in ../shared/realdev)")
        return 0
    if args.folds is not None:  # the fold's own 1922 calibration (bench_real calibrates one per fold) is not read here
        bench_real.calibrated_again = lambda into: None
    models = Models(args.folds)
    print(f"reader: {'held out, the fold that never saw each photo, from ' + str(args.folds) if args.folds else 'shipped'}")
    ks = tuple(int(k) for k in args.ks.split(","))
    with tempfile.TemporaryDirectory(prefix="learnt-sets-") as tmp:
        os.environ["PUNGCHOW_HOME"] = tmp
        work = Path(tmp) / "corrected"
        work.mkdir()
        try:
            if args.only in (None, "hk"):
                curve("set01 (hk-sets), learn k photos, read the others", hk_set01(), ks, False, not args.no_pipeline, work,
                      models, args.choices)
            if args.only in (None, "book"):
                photos = book()
                curve("book-1922, learn 5 photos (3 folds), read the other 10", photos, (0, 5), True, not args.no_pipeline, work,
                      models)
                if args.folds is None:
                    shipped_1922(photos, not args.no_pipeline)
            models.use(0)
            load_time(work)
        finally:
            models.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
