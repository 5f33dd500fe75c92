"""The dataset format's reader: COCO-style annotations read into typed records.

The recognizer's evaluation reads datasets with it; the training-data package
(``pungchow_data.coco``) writes datasets in this format and imports these records from here, so
the product never imports the training-data package.

A dataset is a folder ``DIR/`` holding ``DIR/images/*.jpg`` and ``DIR/annotations.json``::

    {"info": {...}, "licenses": [...],
     "categories": [{"id": i + 1, "name": code} for i, code in enumerate(ALL_CODES)],
     "images": [{"id", "file_name", "width", "height", "scene", "split", "style", "source",
                 "license", "hand", "groups": [{"id", "kind", "exposed", "hand_index"}]}],
     "annotations": [{"id", "image_id", "category_id", "code", "bbox", "quad", "face_down",
                      "standing", "group", "area", "iscrowd"}]}

COCO tools read it as plain COCO; the extra keys carry what scoring and evaluation need
(the hand, the meld groups, the scene id to split by, the style to hold out).
Category ids are ``ALL_CODES.index(code) + 1`` because COCO reserves 0.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from recognizer.group import GroupKind
from scoring.errors import PungChowError
from scoring.jsonfile import MAX_ANNOTATION_BYTES, JsonInputError, load_json_file
from scoring.tiles import ALL_CODES

ANNOTATIONS_FILE = "annotations.json"
IMAGES_DIR = "images"
SPLITS = ("train", "val", "test")
#: The group kinds a labelled photo names: the recognizer's, less "other" (a label always knows).
GROUP_KINDS = tuple(k.value for k in GroupKind if k is not GroupKind.OTHER)

Point = tuple[float, float]


class DatasetError(PungChowError):
    """A dataset folder that is missing or does not follow the format."""


def category_id(code: str) -> int:
    """COCO category id of a tile code (1-based, in :data:`ALL_CODES` order)."""
    return ALL_CODES.index(code) + 1


def categories() -> list[dict[str, Any]]:
    """The fixed category list: every dataset carries the same 43 classes in the same order."""
    return [{"id": i + 1, "name": code, "supercategory": "tile"} for i, code in enumerate(ALL_CODES)]


@dataclass(frozen=True)
class GroupLabel:
    """A set of tiles laid together: the concealed row, one meld, the bonus tiles or the winning tile."""

    id: int
    kind: str
    exposed: bool
    hand_index: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "exposed": self.exposed, "hand_index": self.hand_index}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GroupLabel:
        return cls(int(d["id"]), str(d["kind"]), bool(d["exposed"]), int(d.get("hand_index", 0)))


@dataclass
class TileLabel:
    """One tile in one image: where it is, what it shows, and which group it belongs to."""

    code: str
    bbox: tuple[float, float, float, float]
    quad: list[Point] | None = None
    face_down: bool = False
    standing: bool = False
    group: int | None = None
    id: int = 0
    image_id: int = 0

    @property
    def category_id(self) -> int:
        return category_id(self.code)

    @property
    def class_index(self) -> int:
        """0-based class index, the recognizer's output order."""
        return ALL_CODES.index(self.code)

    @property
    def area(self) -> float:
        return float(self.bbox[2] * self.bbox[3])

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "image_id": self.image_id,
            "category_id": self.category_id,
            "code": self.code,
            "bbox": [round(float(v), 2) for v in self.bbox],
            "quad": [[round(float(x), 2), round(float(y), 2)] for x, y in self.quad] if self.quad else None,
            "face_down": self.face_down,
            "standing": self.standing,
            "group": self.group,
            "area": round(self.area, 2),
            "iscrowd": 0,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TileLabel:
        code = d.get("code") or ALL_CODES[int(d["category_id"]) - 1]
        quad = d.get("quad")
        return cls(
            code=code,
            bbox=tuple(float(v) for v in d["bbox"]),  # type: ignore[arg-type]
            quad=[(float(x), float(y)) for x, y in quad] if quad else None,
            face_down=bool(d.get("face_down", code == "XX")),
            standing=bool(d.get("standing", False)),
            group=d.get("group"),
            id=int(d.get("id", 0)),
            image_id=int(d.get("image_id", 0)),
        )


@dataclass
class ImageRecord:
    """One photo (real or rendered) with its tiles, its groups and, when known, the whole hand."""

    file_name: str
    width: int
    height: int
    scene: str
    split: str = "train"
    style: str = ""
    source: str = ""
    license: str = ""
    hand: dict[str, Any] | None = None
    hands: list[dict[str, Any] | None] = field(default_factory=list)
    groups: list[GroupLabel] = field(default_factory=list)
    tiles: list[TileLabel] = field(default_factory=list)
    id: int = 0

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id,
            "file_name": self.file_name,
            "width": self.width,
            "height": self.height,
            "scene": self.scene,
            "split": self.split,
            "style": self.style,
            "source": self.source,
            "license": self.license,
            "hand": self.hand,
            "groups": [g.to_dict() for g in self.groups],
        }
        if self.hands:
            d["hands"] = self.hands
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ImageRecord:
        return cls(
            file_name=d["file_name"],
            width=int(d["width"]),
            height=int(d["height"]),
            scene=str(d.get("scene", d["file_name"])),
            split=str(d.get("split", "train")),
            style=str(d.get("style", "")),
            source=str(d.get("source", "")),
            license=str(d.get("license", "")),
            hand=d.get("hand"),
            hands=list(d.get("hands", [])),
            groups=[GroupLabel.from_dict(g) for g in d.get("groups", [])],
            id=int(d["id"]),
        )


@dataclass
class Dataset:
    """A whole dataset folder in memory: where it lives, its info block and its images."""

    root: Path
    images: list[ImageRecord]
    info: dict[str, Any] = field(default_factory=dict)
    licenses: list[dict[str, Any]] = field(default_factory=list)

    def image_path(self, image: ImageRecord) -> Path:
        return self.root / image.file_name

    def split(self, name: str) -> list[ImageRecord]:
        """Images of one split (``train``, ``val`` or ``test``)."""
        return [im for im in self.images if im.split == name]

    def styles(self) -> list[str]:
        return sorted({im.style for im in self.images})

    def tiles(self) -> Iterator[tuple[ImageRecord, TileLabel]]:
        for im in self.images:
            for t in im.tiles:
                yield im, t

    def class_counts(self) -> dict[str, int]:
        """How many labelled tiles of each code (every code listed, zero included)."""
        counts = {code: 0 for code in ALL_CODES}
        for _, t in self.tiles():
            counts[t.code] += 1
        return counts


def load_dataset(root: str | Path) -> Dataset:
    """Read ``root/annotations.json`` into typed records (tiles attached to their images)."""
    root = Path(root)
    path = root / ANNOTATIONS_FILE
    try:
        present = path.is_file()
    except OSError:  # a name longer than the system allows, or a folder we may not look into
        present = False
    if not present:
        raise DatasetError(f"{root} is not a dataset: {path} is missing (make one with `pungchow data generate`)")
    try:
        data = load_json_file(path, "annotations", max_bytes=MAX_ANNOTATION_BYTES, max_items=None)
    except JsonInputError as exc:
        raise DatasetError(f"{path}: {exc}") from None
    if not isinstance(data, dict):
        raise DatasetError(f"{path} holds a {type(data).__name__}; a dataset's annotations are a COCO object with images, "
                           "annotations and categories")
    for key in ("images", "annotations", "categories", "licenses"):
        if not isinstance(data.get(key, []), list):
            raise DatasetError(f"{path}: {key} is a {type(data[key]).__name__}, not a list; "
                               "re-make the dataset with `pungchow data generate`")
    if not isinstance(data.get("info", {}), dict):
        raise DatasetError(f"{path}: info is not an object; re-make the dataset with `pungchow data generate`")
    try:
        names = [c["name"] for c in sorted(data.get("categories", []), key=lambda c: c["id"])]
        if names and names != list(ALL_CODES):
            raise DatasetError(f"{path} has categories {names[:5]}..., expected the {len(ALL_CODES)} codes of ALL_CODES in order")
        images = [ImageRecord.from_dict(d) for d in data.get("images", [])]
        by_id = {im.id: im for im in images}
        for a in data.get("annotations", []):
            label = TileLabel.from_dict(a)
            if label.image_id not in by_id:
                raise DatasetError(f"{path}: annotation {label.id} points at missing image {label.image_id}")
            by_id[label.image_id].tiles.append(label)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DatasetError(f"{path}: an image, annotation or category is malformed ({type(exc).__name__}: {exc}); "
                           "re-make the dataset with `pungchow data generate`") from None
    return Dataset(root=root, images=images, info=dict(data.get("info", {})), licenses=list(data.get("licenses", [])))
