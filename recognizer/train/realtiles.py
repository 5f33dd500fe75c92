"""The reader's training crops, real and rendered, in one pack (training extra only).

Real tiles are what the reader lacked: renders alone stop near 0.70 on sets never seen. The pack holds

- the dev half of ``../shared/realdev/``: the six HK sets' tight face crops and their tiles cut from the set photos
  (MIT-licensed repository whose author gathered the pictures from shopping and image-search sites), and the 1922
  book photos' tiles and not-a-tile patches (captions, arrows, paper; public domain);
- the leo photos' train and val scenes (CC BY 4.0; the test scenes stay out, they are a measure);
- renders: every face of many sets of the training families and classic styles, with not-a-tile crops;
- distractors: drawn hands beside keyboards, cards, dominoes, print, patterned cloth and stone counters
  (``pungchow_data.distractors``, at seeds the distractor bench never draws): whatever the detector boxes off the
  hand's tiles is not a tile, and a few of the hand's own tiles are read as their faces beside them.

Each crop spans its labelled box grown ``PACK_CONTEXT`` times (a tight crop is the box alone and is framed on a
table at training time), stored as JPEG. Every real crop carries its fold (0-5): a model trained without fold k reads
HK set ``HK_SETS[k]`` and the book photos ``k, k+6, ...`` (sorted) as unseen, which is how dev figures are reported.
The images are read from ``../shared`` and never copied into the repository; only the pack (kept out of git) holds them.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from recognizer.geometry import crop_turned
from recognizer.labels import CLASSES, NOT_A_TILE
from recognizer.train.prepare import book_rows

#: Stored crops span the labelled box grown this much (H, W pixels below), so training can frame them loosely or tightly.
PACK_CONTEXT = 1.5
PACK_SIZE = (192, 144)
#: JPEG quality of real crops, and of renders (many more of them, and already clean: a coarser copy keeps the pack
#: small enough to carry to a training machine).
JPEG_QUALITY, RENDER_JPEG_QUALITY = 88, 72
HK_SETS = ("set01", "set03", "set05", "set07", "set09", "set11")
FOLDS = len(HK_SETS)
#: Where each crop came from (the pack's ``kind``): renders, tight HK face crops, HK set photos, 1922 book photos, leo.
RENDER, HK_CROP, HK_PHOTO, BOOK, LEO, DISTRACTOR = range(6)
KIND_NAMES = ("render", "hk-crop", "hk-photo", "book", "leo", "distractor")
#: Render families and styles trained on (the held-out families real-wenkai, real-cwtex and styles western, blue-ink stay out).
RENDER_STYLES = ("real-kai", "real-ming", "real-hei", "real-western", "real-song", "real-hand", "real-mainland",
                 "hk-serif", "hk-sans", "bone-bamboo", "hk-classic", "modern", "fluffy", "fluffy-dark")
#: Not-a-tile patches cut from a book photo, per labelled tile: the captions, arrows and bare paper the reader must refuse.
BOOK_NT_PER_TILE = 0.6
NT = CLASSES.index(NOT_A_TILE)


@dataclass(frozen=True)
class Crop:
    """One training crop: the image (``PACK_SIZE``, or the bare face for a tight crop), its class, source and fold."""

    image: np.ndarray
    label: int
    kind: int
    fold: int


def realdev_dir(shared: Path) -> Path:
    return shared / "realdev"


def hk_fold(set_name: str) -> int:
    return HK_SETS.index(set_name)


def _read_rgb(path: Path) -> np.ndarray:
    bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if bgr is None:
        raise FileNotFoundError(f"cannot read {path}")
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


def _cut(rgb: np.ndarray, cx: float, cy: float, w: float, h: float, degrees: float = 0.0) -> np.ndarray:
    return crop_turned(rgb, (cx, cy, w, h, degrees), PACK_CONTEXT, PACK_SIZE)


def _upright(x: float, y: float, w: float, h: float) -> tuple[float, float, float, float, float]:
    """A labelled box as a turned box standing up: a tile lying sideways is turned a quarter, as the reader turns it."""
    cx, cy = x + w / 2, y + h / 2
    return (cx, cy, h, w, 90.0) if w > 1.2 * h else (cx, cy, w, h, 0.0)


def hk_crops(root: Path) -> Iterator[Crop]:
    """The tight face crops of the six HK sets (each the tile's face alone, upright)."""
    with open(root / "hk-sets" / "crops.csv", newline="") as f:
        for row in csv.DictReader(f):
            rgb = _read_rgb(root / "hk-sets" / "crops" / row["file"])
            yield Crop(cv2.resize(rgb, PACK_SIZE[::-1], interpolation=cv2.INTER_AREA), CLASSES.index(row["code"]), HK_CROP,
                       hk_fold(row["set"]))


def hk_photo_tiles(root: Path) -> Iterator[Crop]:
    """The labelled tiles of the HK set photos, cut with the photo around them, turned to stand up (one per tile: a
    label repeated on the same tile is taken once)."""
    photos = json.loads((root / "hk-sets" / "photos.json").read_text())
    for name, photo in sorted(photos.items()):
        rgb = _read_rgb(root / "hk-sets" / "photos" / name)
        taken: list[tuple[float, float]] = []
        for tile in photo["tiles"]:
            x, y, w, h = (float(v) for v in tile["box"])
            cx, cy = x + w / 2, y + h / 2
            if any(abs(cx - a) < w / 3 and abs(cy - b) < h / 3 for a, b in taken):
                continue
            taken.append((cx, cy))
            yield Crop(_cut(rgb, cx, cy, w, h, float(tile.get("turned", 0))), CLASSES.index(tile["code"]), HK_PHOTO,
                       hk_fold(photo["set"]))


def book_folds(root: Path) -> dict[str, int]:
    """Each dev book photo's fold: sorted by name, dealt round the six folds."""
    names = sorted(p.stem for p in (root / "book-1922" / "labels").glob("*.json"))
    return {n: i % FOLDS for i, n in enumerate(names)}


def book_tiles(root: Path, rng: np.random.Generator) -> Iterator[Crop]:
    """Every readable labelled tile of the dev book photos, and not-a-tile patches of the same pages that overlap no
    tile (unreadable '??' tiles included as tiles to keep clear of)."""
    for name, fold in sorted(book_folds(root).items()):
        label = json.loads((root / "book-1922" / "labels" / f"{name}.json").read_text())
        rgb = _read_rgb(root / "book-1922" / "photos" / label["image"])
        boxes: list[tuple[float, float, float, float]] = []
        for row in book_rows(label):
            for code, (x1, y1, x2, y2) in zip(row["tiles"], row["boxes"]):
                boxes.append((x1, y1, x2 - x1, y2 - y1))
                if code in CLASSES:
                    yield Crop(_cut(rgb, *_upright(x1, y1, x2 - x1, y2 - y1)), CLASSES.index(code), BOOK, fold)
        for box in not_a_tile_boxes(rng, np.array(boxes, np.float32), rgb.shape[1], rgb.shape[0],
                                    round(BOOK_NT_PER_TILE * len(boxes))):
            yield Crop(_cut(rgb, *_upright(*box)), NT, BOOK, fold)


def not_a_tile_boxes(rng: np.random.Generator, boxes: np.ndarray, width: int, height: int, n: int) -> list[tuple[float, ...]]:
    """Tile-sized boxes that overlap no tile by more than a tenth of themselves, or half a tile off a real one (a
    detector's box between two tiles)."""
    out: list[tuple[float, ...]] = []
    if not len(boxes):
        return out
    med_w, med_h = float(np.median(boxes[:, 2])), float(np.median(boxes[:, 3]))
    for _ in range(n * 30):
        if len(out) >= n:
            break
        if rng.random() < 0.2:
            x, y, w, h = (float(v) for v in boxes[int(rng.integers(len(boxes)))])
            x += w * float(rng.choice([-1, 1])) * rng.uniform(0.45, 0.6)
            out.append((x, y, w, h))
            continue
        s = rng.uniform(0.3, 1.6)
        w, h = med_w * s * rng.uniform(0.8, 1.25), med_h * s * rng.uniform(0.8, 1.25)
        if w >= width or h >= height:
            continue
        x, y = rng.uniform(0, width - w), rng.uniform(0, height - h)
        x1, y1 = np.maximum(x, boxes[:, 0]), np.maximum(y, boxes[:, 1])
        x2, y2 = np.minimum(x + w, boxes[:, 0] + boxes[:, 2]), np.minimum(y + h, boxes[:, 1] + boxes[:, 3])
        inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
        if (inter / (w * h)).max() < 0.1:
            out.append((x, y, w, h))
    return out


def leo_tiles(rng: np.random.Generator, work: Path) -> Iterator[Crop]:
    """The leo photos' train and val tiles (the test scenes are a measure and stay out), with not-a-tile patches."""
    from pungchow_data.leo import import_leo
    from recognizer.coco import load_dataset

    if not (work / "annotations.json").is_file():
        import_leo(work)
    data = load_dataset(work)
    for image in data.images:
        if image.split == "test":
            continue
        rgb = _read_rgb(data.image_path(image))
        boxes = np.array([t.bbox for t in image.tiles], np.float32).reshape(-1, 4)
        for t in image.tiles:
            yield Crop(_cut(rgb, *_upright(*t.bbox)), CLASSES.index(t.code), LEO, -1)
        for box in not_a_tile_boxes(rng, boxes, rgb.shape[1], rgb.shape[0], max(1, len(boxes) // 5)):
            yield Crop(_cut(rgb, *_upright(*box)), NT, LEO, -1)


#: The flowers and seasons (``rendered`` draws them alone for ``--bonus-sets``).
BONUS_CLASSES = tuple(k for k, code in enumerate(CLASSES) if code[1:] in ("F", "S"))


def rendered(rng: np.random.Generator, sets: int, nt_per_set: int = 6, classes: tuple[int, ...] | None = None,
             families_only: bool = False) -> Iterator[Crop]:
    """Every face (or ``classes`` alone) of ``sets`` drawn sets (a new set of a training family or style each time;
    with ``families_only``, of a family), on tables, either way up, with neighbours, and not-a-tile crops beside them.

    Drawn alone, the flowers and seasons of more sets: a few corner marks and a painting are all that tell them apart,
    and the families draw them in many layouts (numbers by kind, pots, names alone), each of which the reader must
    meet in more than the handful of sets that every face is drawn for."""
    from pungchow_data.faces import FAMILY_STYLES, STYLES, render_faces, style_available
    from recognizer.train.realcrops import another_set, not_a_tile, tile_crop

    known = FAMILY_STYLES if families_only else {**STYLES, **FAMILY_STYLES}
    styles = [known[n] for n in RENDER_STYLES if n in known and style_available(known[n])]
    if not styles and sets:
        raise RuntimeError("no render family has its fonts on this machine (see datasets/MANIFEST.md)")
    for i in range(sets):
        style = another_set(styles[i % len(styles)], rng)
        faces = render_faces.__wrapped__(style)
        for k in range(len(CLASSES) - 1) if classes is None else classes:
            yield Crop(tile_crop(rng, style, faces, CLASSES[k], PACK_SIZE), k, RENDER, -1)
        for _ in range(nt_per_set):
            yield Crop(not_a_tile(rng, (style, faces), PACK_SIZE), NT, RENDER, -1)


#: Per distractor scene: at most this many of the detector's boxes off the hand's tiles, tile-sized patches of the
#: distractor's band, and the hand's own tiles (so that a table of cloth or a keyboard beside a tile is no sign of
#: "not a tile").
DISTRACTOR_BOXES, DISTRACTOR_PATCHES, DISTRACTOR_TILES = 10, 3, 3
#: A detector's box is off the hand's tiles when it overlaps every drawn tile by less than this.
OFF_THE_TILES_IOU = 0.3


def distractor_crops(rng: np.random.Generator, scenes: int, first: int = 0) -> Iterator[Crop]:
    """Not-a-tile crops of things on a table beside a hand, as the shipped detector boxes them, and a few of the
    hand's tiles: ``scenes`` drawn photos from the ``first``-th on (a pack built on keeps its own and adds others),
    one kind of distractor each in turn."""
    from pungchow_data.distractors import KINDS, TRAINING_SEEDS, draw_scene
    from recognizer.detect import detect, iou_matrix

    kinds = [k for k in KINDS if k != "none"]
    for i in range(first, first + scenes):
        drawn = draw_scene(kinds[i % len(kinds)], TRAINING_SEEDS + i)
        rgb = cv2.cvtColor(drawn.image, cv2.COLOR_BGR2RGB)
        found = detect(rgb).boxes
        off = found[iou_matrix(drawn.boxes, found).max(0) < OFF_THE_TILES_IOU] if len(found) else found
        for box in off[rng.permutation(len(off))[:DISTRACTOR_BOXES]]:
            yield Crop(_cut(rgb, *_upright(*(float(v) for v in box))), NT, DISTRACTOR, -1)
        x, y, w, h = drawn.band
        med_w, med_h = (float(v) for v in np.median(drawn.boxes[:, 2:], axis=0))
        for _ in range(DISTRACTOR_PATCHES if w > med_w and h > med_h else 0):
            s = rng.uniform(0.7, 1.4)
            pw, ph = min(w - 1, med_w * s), min(h - 1, med_h * s)
            px, py = rng.uniform(x, x + w - pw), rng.uniform(y, y + h - ph)
            yield Crop(_cut(rgb, *_upright(px, py, pw, ph)), NT, DISTRACTOR, -1)
        for k in rng.permutation(len(drawn.codes))[:DISTRACTOR_TILES]:
            if drawn.codes[k] in CLASSES:
                yield Crop(_cut(rgb, *_upright(*(float(v) for v in drawn.boxes[k]))), CLASSES.index(drawn.codes[k]), DISTRACTOR, -1)


#: Crops ``rendered`` makes of each set: every face and six not-a-tile crops.
RENDERS_PER_SET = len(CLASSES) - 1 + 6


def extended(pack: Path, render_sets: int) -> Iterator[Crop]:
    """The crops of a pack already built (without ``--bonus-sets``), to build on: the renders and real crops take long
    to make again. Only its first ``render_sets`` sets' renders are kept (room for new crops in what a training
    machine can be sent)."""
    d = np.load(pack)
    offsets = d["offsets"]
    classes = [str(c) for c in d["classes"]]
    if classes != list(CLASSES):
        raise ValueError(f"{pack} was built for other classes; build it again")
    renders = np.cumsum(d["kind"] == RENDER)
    if renders[-1] % RENDERS_PER_SET:
        raise ValueError(f"{pack}'s renders are not whole sets of {RENDERS_PER_SET}; build it again")
    for i in range(len(offsets) - 1):
        if d["kind"][i] == RENDER and renders[i] > render_sets * RENDERS_PER_SET:
            continue
        bgr = cv2.imdecode(d["jpeg"][offsets[i]:offsets[i + 1]], cv2.IMREAD_COLOR)
        if bgr is None:
            raise ValueError(f"crop {i} of {pack} is not a JPEG image; build the pack again")
        yield Crop(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB), int(d["label"][i]), int(d["kind"][i]), int(d["fold"][i]))


def write_pack(crops: list[Crop], out: Path) -> dict[str, int]:
    """Save crops as one ``.npz`` (JPEG bytes end to end, offsets, label, kind, fold); how many of each kind."""
    blobs = []
    for c in crops:
        quality = RENDER_JPEG_QUALITY if c.kind in (RENDER, DISTRACTOR) else JPEG_QUALITY
        ok, enc = cv2.imencode(".jpg", cv2.cvtColor(c.image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
        assert ok
        blobs.append(enc.reshape(-1))
    offsets = np.cumsum([0] + [len(b) for b in blobs]).astype(np.int64)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, jpeg=np.concatenate(blobs), offsets=offsets, label=np.array([c.label for c in crops], np.int16),
             kind=np.array([c.kind for c in crops], np.int8), fold=np.array([c.fold for c in crops], np.int8),
             classes=np.array(CLASSES))
    return {KIND_NAMES[k]: sum(c.kind == k for c in crops) for k in range(len(KIND_NAMES))}


def main(argv: list[str] | None = None) -> int:
    import argparse

    from pungchow_data.faces import SHARED_DIR

    p = argparse.ArgumentParser(description="Build the reader's training pack from ../shared/realdev, leo and renders.")
    p.add_argument("out", type=Path, help="the .npz to write (keep it out of git: it holds the shared photos' pixels)")
    p.add_argument("--shared", type=Path, default=SHARED_DIR)
    p.add_argument("--render-sets", type=int, default=90)
    p.add_argument("--bonus-sets", type=int, default=0, help="this many more drawn sets' flowers and seasons alone")
    p.add_argument("--leo-work", type=Path, default=Path("data/rec-leo"))
    p.add_argument("--distractor-scenes", type=int, default=0,
                   help="this many drawn hands beside keys, cards, dominoes, print, cloth or counters (not-a-tile crops)")
    p.add_argument("--distractor-first", type=int, default=0,
                   help="the first drawn scene to cut (a pack built on with --extend already holds the scenes before it)")
    p.add_argument("--extend", type=Path,
                   help="start from this pack's crops (its first --render-sets sets' renders) instead of building them again")
    p.add_argument("--seed", type=int, default=40)
    a = p.parse_args(argv)
    root = realdev_dir(a.shared)
    if not root.is_dir():
        print(f"{root} is missing: the real dev photos live in ../shared beside the repository; nothing written")
        return 2
    if a.out.exists():
        print(f"{a.out} exists; remove it or name another file")
        return 2
    if a.distractor_first < 0 or a.distractor_scenes < 0:
        print("--distractor-scenes and --distractor-first count drawn scenes: 0 or more")
        return 2
    rng = np.random.default_rng(a.seed)
    if a.extend is not None and not a.extend.is_file():
        print(f"{a.extend} is not a pack: name one made by this command; nothing written")
        return 2
    if a.extend is not None:
        try:
            crops = list(extended(a.extend, a.render_sets))
        except (ValueError, OSError, KeyError) as exc:
            print(f"{a.extend} cannot be built on ({exc}); nothing written")
            return 2
    else:
        crops = [*hk_crops(root), *hk_photo_tiles(root), *book_tiles(root, rng), *leo_tiles(rng, a.leo_work),
                 *rendered(rng, a.render_sets)]
    crops += [*rendered(np.random.default_rng([a.seed, 1]), a.bonus_sets, nt_per_set=0, classes=BONUS_CLASSES, families_only=True),
              *distractor_crops(np.random.default_rng([a.seed, 2]), a.distractor_scenes, a.distractor_first)]
    counts = write_pack(crops, a.out)
    print(f"{a.out}: {len(crops)} crops, {a.out.stat().st_size / 1e6:.1f} MB; " + ", ".join(f"{k} {n}" for k, n in counts.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
