"""Import the leo-mahjong-v5 photos (Roboflow YOLO export, CC BY 4.0) into the common format.

Two things the export got wrong for us are undone here:

* Roboflow stretched every 2560x1440 screenshot to 640x640. We resize back to 16:9; the YOLO
  boxes are normalised, so they map onto the restored image by scaling x by its width and y by
  its height.
* Its train/valid/test split is random over near-duplicate frames of a fixed camera. We split
  by *scene* instead: screenshots taken in one sitting (gaps under ``SESSION_GAP_S``) that show
  the same suit are one scene, and a scene lies wholly in one split.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import cv2

from pungchow_data.coco import IMAGES_DIR, ImageRecord, TileLabel, write_annotations
from pungchow_data.faces import SHARED_DIR
from pungchow_data.manifest import coco_licenses
from scoring.errors import PungChowError

LEO_DIR = SHARED_DIR / "datasets" / "leo-mahjong-v5"
SESSION_GAP_S = 120
STYLE = "leo-riichi"
SOURCE = "leo-mahjong-v5"
LICENSE = "CC-BY-4.0"

#: data.yaml class names in their order, mapped to pungchow codes ('0' is an unknown tile).
LEO_NAMES = ['0', '1_man', '1_pin', '1_sou', '2_man', '2_pin', '2_sou', '3_man', '3_pin', '3_sou', '4_man', '4_pin',
             '4_sou', '5_man', '5_pin', '5_sou', '6_man', '6_pin', '6_sou', '7_man', '7_pin', '7_sou', '8_man', '8_pin',
             '8_sou', '9_man', '9_pin', '9_sou', 'chun', 'haku', 'hatsu', 'nan', 'pe-', 'sya-', 'ton']
_HONOURS = {"chun": "RD", "haku": "WD", "hatsu": "GD", "nan": "SW", "pe-": "NW", "sya-": "WW", "ton": "EW"}
_SUIT = {"man": "C", "pin": "D", "sou": "B"}


def leo_code(name: str) -> str | None:
    """The pungchow code of a leo class name, or None for the unknown class '0'."""
    if name in _HONOURS:
        return _HONOURS[name]
    m = re.fullmatch(r"([1-9])_(man|pin|sou)", name)
    return f"{m.group(1)}{_SUIT[m.group(2)]}" if m else None


@dataclass(frozen=True)
class LeoPhoto:
    """One exported photo: its file, the split Roboflow gave it, its time, its YOLO rows."""

    image: Path
    export_split: str
    taken: datetime
    rows: tuple[tuple[int, float, float, float, float], ...]


_TIME_RE = re.compile(r"Screenshot-(\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2})_png")


def read_export(root: Path = LEO_DIR) -> list[LeoPhoto]:
    """Every labelled photo of the export, in the order they were taken."""
    if not (root / "data.yaml").is_file():
        raise PungChowError(f"{root} is not the leo-mahjong-v5 export (no data.yaml): pass its folder with --source")
    photos = []
    for split in ("train", "valid", "test"):
        for img in sorted((root / split / "images").glob("*.jpg")):
            m = _TIME_RE.search(img.name)
            if not m:
                raise PungChowError(f"unexpected file name {img.name} in {root}: the importer reads Roboflow's Screenshot-... names")
            label = root / split / "labels" / (img.stem + ".txt")
            rows = []
            for line in label.read_text().split("\n") if label.is_file() else []:
                if line.strip():
                    c, x, y, w, h = line.split()
                    rows.append((int(c), float(x), float(y), float(w), float(h)))
            photos.append(LeoPhoto(img, split, datetime.strptime(m.group(1), "%Y-%m-%d-%H-%M-%S"), tuple(rows)))
    return sorted(photos, key=lambda p: (p.taken, p.image.name))


def _content(photo: LeoPhoto) -> str:
    """What a frame shows, by its majority suit: man, pin, sou or honours."""
    kinds: Counter[str] = Counter()
    for c, *_ in photo.rows:
        code = leo_code(LEO_NAMES[c])
        if code:
            kinds["honours" if not code[0].isdigit() else {"C": "man", "D": "pin", "B": "sou"}[code[1]]] += 1
    return kinds.most_common(1)[0][0] if kinds else "none"


def scene_ids(photos: list[LeoPhoto]) -> list[str]:
    """A scene id per photo: sitting (time gaps under SESSION_GAP_S) plus what the frame shows."""
    ids = []
    session_start = None
    last = None
    for p in photos:
        if last is None or (p.taken - last).total_seconds() > SESSION_GAP_S:
            session_start = p.taken
        last = p.taken
        assert session_start is not None
        ids.append(f"leo-{session_start:%Y%m%d-%H%M%S}-{_content(p)}")
    return ids


SPLIT_SHARES = {"train": 0.7, "val": 0.15, "test": 0.15}


def split_scenes(scenes: list[str]) -> dict[str, str]:
    """Assign whole scenes to splits, near the target shares of images, in a fixed order.

    Scenes are visited in order of a hash of their id (stable, not alphabetical) and each goes to
    the split furthest below its share of the images, so val and test both get real scenes.
    """
    sizes = Counter(scenes)
    total = sum(sizes.values())
    have = {name: 0 for name in SPLIT_SHARES}
    out: dict[str, str] = {}
    for scene in sorted(sizes, key=lambda s: hashlib.sha1(s.encode()).hexdigest()):
        name = max(SPLIT_SHARES, key=lambda n: SPLIT_SHARES[n] * total - have[n])
        out[scene] = name
        have[name] += sizes[scene]
    return out


def import_leo(out: Path, root: Path = LEO_DIR, height: int = 640) -> tuple[Path, dict[str, int]]:
    """Write the export as a dataset at ``out``, un-stretched to 16:9 at ``height`` pixels."""
    photos = read_export(root)
    width = round(height * 16 / 9)
    out = Path(out)
    (out / IMAGES_DIR).mkdir(parents=True, exist_ok=True)
    scenes = scene_ids(photos)
    splits = split_scenes(scenes)
    records = []
    dropped = 0
    for k, (photo, scene) in enumerate(zip(photos, scenes), start=1):
        img = cv2.imread(str(photo.image))
        if img is None:
            raise PungChowError(f"cannot read {photo.image}")
        restored = cv2.resize(img, (width, height), interpolation=cv2.INTER_CUBIC)
        name = f"{IMAGES_DIR}/leo-{k:03d}.jpg"
        cv2.imwrite(str(out / name), restored, [cv2.IMWRITE_JPEG_QUALITY, 95])
        tiles = []
        for c, x, y, w, h in photo.rows:
            code = leo_code(LEO_NAMES[c])
            if code is None:
                dropped += 1
                continue
            tiles.append(TileLabel(code=code, bbox=((x - w / 2) * width, (y - h / 2) * height, w * width, h * height), standing=True))
        records.append(
            ImageRecord(
                file_name=name, width=width, height=height, scene=scene, split=splits[scene],
                style=STYLE, source=SOURCE, license=LICENSE, tiles=tiles,
            )
        )
    info = {
        "name": "leo-mahjong-v5",
        "description": "Real photos of one Japanese set standing on an automatic table; un-stretched to 16:9, split by scene",
        "version": 1,
        "seed": None,
        "licence": "CC BY 4.0",
        "attribution": coco_licenses([SOURCE])[0]["attribution"],
        "unknown_boxes_dropped": dropped,
        "original_files": [p.image.relative_to(root).as_posix() for p in photos],
    }
    path = write_annotations(out, records, info, coco_licenses([SOURCE]))
    counts = Counter(r.split for r in records)
    return path, {"images": len(records), "scenes": len(set(scenes)), "dropped_unknown": dropped, **counts}
