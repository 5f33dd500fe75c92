"""Where each labelled tile of the real dev photos is lost, stage by stage, photo by photo.

    python bench/bench_stages.py                          # book dev photos, then with pungchow-1922, then the HK set photos
    python bench/bench_stages.py --photos book --tileset pungchow-1922
    python bench/bench_stages.py --photos hk --json       # one JSON line per photo set as well

Every labelled tile is followed through the steps ``recognizer.pipeline`` takes, and charged to the first one that
loses it (a box with IoU >= 0.5 round it counts as keeping it):

- ``not proposed``: no heat-map peak round it at any look from 192 to 800 px, threshold 0.05, on the photo or (a printed
  page) on the photo with its paper painted as a table (``detect.paper_painted``);
- ``scale``: peaks round it at some look, none at the looks the photo is read at (``detect.looks``);
- ``threshold``: peaks there, all under ``detect.SCORE_THRESHOLD``;
- ``overlap``: above it, but dropped by the overlap step or as not tile-like (``detect.Looks.merged``);
  a tile the merge boxes whole from its two halves (``detect.halves_joined``) is lost at none of these three;
- ``levelling``: boxed, but lost when the photo was turned (``level.read_level``), its box put back on the photo;
- ``set path``: lost when the tile set refitted the boxes (``TileSet.fit``);
- ``not a tile``: the classifier called its box not a tile and it was dropped;
- ``set aside``: boxed and read, but set aside as not in the hand's rows (``hand_rows.group_the_hand``): still shown,
  not counted in the hand (nor, in tile F1, as read); or left out as no tile by the beside detector
  (``beside.beside_the_hand``);
- ``wrong code``: boxed and read, read as another face; ``right`` otherwise.

Book photos (``../shared/realdev/book-1922``) are labelled whole: tile F1 counts every box read, and a tile printed
unreadably (``??``) is neither right nor wrong. The HK set photos are labelled in part (only tiles with a crop), so
only their labelled tiles' boxing and reading are counted. The book's photos are all upright: a turn is a fault.
The photos stay in ``../shared``; without it the bench says so and stops.

The shipped classifier was trained on these photos' tiles. ``--folds DIR`` (``fold0.onnx`` ... ``fold5.onnx``, as
``bench/bench_real.py --folds`` takes them) reads each photo with the leave-one-set-out classifier that never saw it,
the tile set calibrated for it (``bench_real.Models``): nearer what photos nobody here labelled will read.

    python bench/bench_stages.py --photos book --folds artifacts/folds4
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_real import Models, each_tile_once, fold_of

from recognizer.beside import beside_the_hand
from recognizer.classify import NT_INDEX, classify
from recognizer.detect import SCORE_THRESHOLD, decode, detector_input, iou_matrix, looks, other_looks, paper_painted
from recognizer.detections import Detections
from recognizer.hand_rows import group_the_hand
from recognizer.image import load_photo_sized
from recognizer.level import as_the_faces_match, read_level
from recognizer.models import Model, load_model
from recognizer.tileset import TileSet, load_tileset

REALDEV = Path(__file__).resolve().parent.parent.parent / "shared" / "realdev"
STAGES = ("not proposed", "scale", "threshold", "overlap", "levelling", "set path", "not a tile", "set aside", "wrong code",
          "right")
#: The looks a tile may be proposed at, and the heat a peak needs to count as proposed.
ANY_LOOK = (192, 256, 320, 384, 448, 512, 640, 800)
PROPOSED = 0.05
UNREADABLE = "??"


@dataclass(frozen=True)
class Labelled:
    """One labelled photo: its tiles' boxes (x, y, w, h, in the photo's own pixels) and codes; ``whole`` when every
    tile in it is labelled (tile F1 then counts every box)."""

    name: str
    path: Path
    boxes: np.ndarray
    codes: tuple[str, ...]
    whole: bool


@dataclass(frozen=True)
class Followed:
    """Where each of a photo's labelled tiles was lost (an entry of ``STAGES``), the turn it was read at, and its
    tile-F1 counts: tiles read right, boxes read (less those on unreadable tiles), readable tiles."""

    photo: Labelled
    stages: tuple[str, ...]
    degrees: float
    right: int
    read: int
    readable: int


def book_photos(root: Path) -> list[Labelled]:
    """The book's dev photos; a settling layout's four hands are one photo."""
    out = []
    for label in sorted((root / "labels").glob("*.json")):
        doc = json.loads(label.read_text())
        rows = [row for hand in doc.get("hands", [doc]) for row in hand["rows"]]
        xyxy = np.array([b for row in rows for b in row["boxes"]], np.float32).reshape(-1, 4)
        boxes = np.concatenate([xyxy[:, :2], xyxy[:, 2:] - xyxy[:, :2]], axis=1)
        out.append(Labelled(label.stem, root / "photos" / doc["image"], boxes, tuple(c for row in rows for c in row["tiles"]), True))
    return out


def hk_photos(root: Path) -> list[Labelled]:
    """The HK set photos, labelled in part; a tile labelled twice (two crops of one tile) counted once."""
    out = []
    for name, doc in json.loads((root / "photos.json").read_text()).items():
        boxes = np.array([t["box"] for t in doc["tiles"]], np.float32).reshape(-1, 4)
        first = each_tile_once(boxes)
        out.append(Labelled(Path(name).stem, root / "photos" / name, boxes[first], tuple(doc["tiles"][i]["code"] for i in first), False))
    return out


def kept(boxes: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """Which labelled tiles have a box round them (IoU >= 0.5)."""
    if not len(boxes) or not len(truth):
        return np.zeros(len(truth), bool)
    return np.asarray(iou_matrix(np.asarray(boxes, np.float32).reshape(-1, 4), truth).max(axis=0) >= 0.5)


def peaks(rgb: np.ndarray, model: Model, side: int, threshold: float) -> np.ndarray:
    """Every heat-map peak of one look above ``threshold``, before any overlap step, as boxes on the photo."""
    x, scale = detector_input(rgb, side)
    return decode(model.run(x)[0][0], scale, threshold).boxes


def matched(dets: Detections, truth: np.ndarray) -> dict[int, int]:
    """Labelled tile -> the box read as it: surest box first, each to the unused tile it overlaps most (as the tests'
    tile F1 matches)."""
    out: dict[int, int] = {}
    if not len(dets) or not len(truth):
        return out
    iou = iou_matrix(dets.boxes, truth)
    for i in np.argsort(-dets.scores):
        j = int(iou[i].argmax())
        if iou[i, j] >= 0.5 and j not in out:
            out[j] = int(i)
    return out


def follow(photo: Labelled, tileset: TileSet | None, model: Model) -> Followed:
    """Read one photo as ``recognize`` does, noting after each step which labelled tiles are still boxed."""
    rgb, own = load_photo_sized(photo.path)
    truth = photo.boxes * np.array([rgb.shape[1] / own[0], rgb.shape[0] / own[1]] * 2, np.float32)
    n = len(truth)
    lost = np.full(n, "", object)

    def charge(stage: str, still: np.ndarray) -> None:
        lost[(lost == "") & ~still] = stage

    page = paper_painted(rgb)
    views = [rgb] if page is None else [rgb, page]  # a printed page is looked at again with its paper painted as a table
    charge("not proposed", np.any([kept(peaks(v, model, side, PROPOSED), truth) for v in views for side in ANY_LOOK], axis=0))
    read_at = looks(rgb, model)
    found = read_at.merged()
    joined = kept(found.boxes, truth)  # a tile boxed from its two halves has no one peak round it, and is not lost
    charge("scale", joined | np.any([kept(peaks(v, model, side, PROPOSED), truth) for v in views for side in read_at.found], axis=0))
    charge("threshold", joined | np.any([kept(peaks(v, model, side, SCORE_THRESHOLD), truth) for v in views for side in read_at.found],
                                        axis=0))
    charge("overlap", joined)
    image, dets, levelled = read_level(rgb, found, seen=read_at)
    if tileset is not None:
        image, dets, levelled, match = as_the_faces_match(tileset.match_score, rgb, found, (image, dets, levelled))

    def on_photo(d: Detections) -> Detections:
        return d if levelled is None else d.with_(boxes=levelled.to_photo(d.boxes))

    charge("levelling", kept(on_photo(dets).boxes, truth))
    if tileset is not None and match >= tileset.looks_like:
        dets = tileset.fit(image, dets, lambda: other_looks(image), match)
    charge("set path", kept(on_photo(dets).boxes, truth))
    named = classify(image, dets, tileset, drop_not_tiles=False)
    tiles = named[named.codes != NT_INDEX]
    charge("not a tile", kept(on_photo(tiles).boxes, truth))
    grouped, _, aside = beside_the_hand(image, *group_the_hand(tiles, image.shape[:2]), close_up=read_at.close_up)
    tiles = on_photo(grouped[np.setdiff1d(np.arange(len(grouped)), aside.tiles)])
    charge("set aside", kept(tiles.boxes, truth))
    pairs = matched(tiles, truth)
    readable = np.array([c != UNREADABLE for c in photo.codes], bool)
    right = np.array([j in pairs and tiles.code(pairs[j]) == photo.codes[j] for j in range(n)], bool)
    charge("wrong code", right | ~readable)
    lost[lost == ""] = "right"
    on_unreadable = sum(1 for j, i in pairs.items() if not readable[j])
    return Followed(photo, tuple(str(s) for s in lost), levelled.degrees if levelled is not None else 0.0,
                    int(right.sum()), len(tiles) - on_unreadable, int(readable.sum()))


def f1(right: int, read: int, readable: int) -> float:
    p, r = right / max(read, 1), right / max(readable, 1)
    return 2 * p * r / max(p + r, 1e-9)


def report(title: str, followed: list[Followed]) -> dict[str, object]:
    """Print one line per photo and the totals; return the totals."""
    print(f"\n== {title}")
    print(f"{'photo':18} {'tiles':>5} {'boxed':>5} {'right':>5} {'F1':>5} {'turn':>5}  lost at")
    every: Counter[str] = Counter()
    for f in followed:
        count = Counter(f.stages)
        every.update(count)
        boxed = sum(count[s] for s in ("not a tile", "set aside", "wrong code", "right"))
        where = ", ".join(f"{s} {count[s]}" for s in STAGES[:-1] if count[s])
        photo_f1 = f"{f1(f.right, f.read, f.readable):5.3f}" if f.photo.whole else "  -  "
        print(f"{f.photo.name:18} {len(f.stages):5d} {boxed:5d} {count['right']:5d} {photo_f1} {f.degrees:5.0f}  {where}")
    tiles = sum(every.values())
    boxed = sum(every[s] for s in ("not a tile", "set aside", "wrong code", "right"))
    whole = [f for f in followed if f.photo.whole]
    share, right = round(boxed / max(tiles, 1), 3), round(every["right"] / max(tiles, 1), 3)
    tile_f1 = round(f1(sum(f.right for f in whole), sum(f.read for f in whole), sum(f.readable for f in whole)), 3) if whole else None
    turned = [f"{f.photo.name} {f.degrees:.0f}" for f in followed if f.degrees]
    lost = {s: every[s] for s in STAGES[:-1]}
    print(f"tile boxed share (IoU>=0.5) {share:.3f}  read right {right:.3f}  "
          f"tile F1 {tile_f1 if whole else '- (partly labelled)'}  photos turned {len(turned)} {turned}")
    print("lost: " + ", ".join(f"{s} {n}" for s, n in lost.items()))
    totals: dict[str, object] = {"photos": title, "tiles": tiles, "boxed": share, "read_right": right, "tile_f1": tile_f1,
                                 "turned": turned, "lost": lost}
    return totals


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--photos", choices=["book", "hk", "all"], default="all")
    ap.add_argument("--tileset", help="read the book's photos with this tile set only (default: without, then with pungchow-1922)")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="only these photos (names without .jpg)")
    ap.add_argument("--json", action="store_true", help="also print each set's totals as one JSON line")
    ap.add_argument("--folds", type=Path, help="read each photo with the leave-one-set-out classifier that never saw it")
    args = ap.parse_args()
    if not REALDEV.is_dir():
        print(f"skipped: the real dev photos are not here ({REALDEV}); this bench reads them from ../shared/realdev")
        return
    model = load_model("detector")
    runs: list[tuple[str, list[Labelled], str | None]] = []
    if args.photos in ("book", "all"):
        book = book_photos(REALDEV / "book-1922")
        for name in [args.tileset] if args.tileset else [None, "pungchow-1922"]:
            runs.append((f"book-1922 dev, {'tile set ' + name if name else 'no tile set'}", book, name))
    if args.photos in ("hk", "all"):
        runs.append(("hk-sets photos (partly labelled)", hk_photos(REALDEV / "hk-sets"), None))
    models = Models(args.folds)
    try:
        for title, photos, name in runs:
            followed = []
            for p in (p for p in photos if not args.only or p.name in args.only):
                models.use(fold_of(p.name))
                followed.append(follow(p, load_tileset(name) if name else None, model))
            totals = report(title + (f", held out ({args.folds})" if args.folds else ""), followed)
            if args.json:
                print(json.dumps(totals))
    finally:
        models.close()


if __name__ == "__main__":
    main()
