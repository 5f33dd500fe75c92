"""The tile reader as the page uses it: photo in, a review of every tile out.

The recognizer is an optional part of the install (its model may be missing); without it the
page still scores typed hands, so every entry point here says plainly when it is absent.
"""

from __future__ import annotations

import importlib
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoring.errors import PungChowError
from scoring.tiles import BONUS_CODES, PLAYING_CODES
from webapp.photos import Photo
from webapp.review import Review, from_detections


class ReaderMissing(PungChowError):
    """No tile reader is installed (or its model is not there); type the hand instead."""


@dataclass(frozen=True)
class Reader:
    """The recognizer's pipeline with its ONNX sessions loaded (the page caches one per server)."""

    pipeline: Any
    models: tuple[Any, ...]


def load_reader() -> Reader:
    """Import the recognizer and open its models once; a missing model says how to get one."""
    try:
        pipeline = importlib.import_module("recognizer.pipeline")
        models = importlib.import_module("recognizer.models")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("recognizer"):
            raise ReaderMissing("the tile reader is not installed: type the hand, or add its tiles one by one") from None
        raise
    try:
        loaded = tuple(models.load_model(name) for name in ("detector", "classifier"))
    except PungChowError as exc:
        raise ReaderMissing(f"the tile reader's model is not available ({exc}): type the hand, or add its tiles one by one") from None
    return Reader(pipeline, loaded)


def read_tiles(reader: Reader, photo: Photo, tileset: str | None = None) -> Review:
    """Read the photo with the recognizer (tuned to a calibrated ``tileset`` if named) into a review to correct."""
    return review_from_result(recognise(reader, photo, tileset))


def recognise(reader: Reader, photo: Photo, tileset: str | None = None) -> dict[str, Any]:
    """What the recognizer saw in the photo, as its JSON (``Recognition.to_json()``)."""
    return dict(reader.pipeline.recognize(photo.image, tileset=tileset or None).to_json())


def tileset_offer(reader: Reader, photo: Photo, tileset: str | None = None) -> str | None:
    """A calibrated set that would read this photo better than ``tileset`` (by the set's own face match), as a
    sentence for the page to offer, or None."""
    finder = getattr(reader.pipeline, "better_tileset", None)
    try:
        better = finder(photo.image, None, tileset or None) if finder else None
    except PungChowError:
        return None  # an offer must never stop the photo being read
    return None if better is None else f"This photo looks like the tile set {better.name} (face match {better.match:.2f}): choose it above to read it."


#: Recognizer group kinds whose tiles stay in hand; every other kind is a declared set.
IN_HAND_KINDS = ("concealed", "winning", "bonus", "other")


def review_from_result(result: dict[str, Any]) -> Review:
    """A review from the recognizer's JSON (``Recognition.to_json()``).

    Every box is kept, so the player sees all the reader found: tiles of groups the reader took
    for no part of the hand (another player's rack, a caption's letters) are set aside, one tap
    from being counted. A group of kind ``winning`` marks the winning tile (kept only when the
    reader was sure of it); an ``other`` group is left in hand for the player to sort, as the
    recognizer's own hand builder does.
    """
    detections: list[dict[str, Any]] = []
    in_hand: set[int] = set()
    sets: list[list[int]] = []
    concealed_sets: list[int] = []
    winning: int | None = None
    for g in result.get("groups", []):
        if not g.get("in_hand", True):
            continue
        members = [int(i) for i in g.get("tiles", [])]
        in_hand.update(members)
        if g.get("kind") in IN_HAND_KINDS:
            if g.get("kind") == "winning" and members:
                winning = members[0]
            continue
        if g.get("concealed"):
            concealed_sets.append(len(sets))
        sets.append(members)
    for tile in result.get("tiles", []):
        index = int(tile.get("index", len(detections)))
        x, y, w, h = (float(v) for v in tile["box"])
        detections.append({
            "code": tile["code"],
            "box": (x, y, x + w, y + h),
            "confidence": float(tile.get("confidence", 0.0)),
            "alternatives": [(a["code"], float(a["p"])) for a in tile.get("top3", [])],
            "in_hand": index in in_hand or not result.get("groups"),
        })
    return from_detections(detections, sets, concealed_sets, winning_index=winning, recognised=result)


def _tileset_module() -> Any:
    try:
        return importlib.import_module("recognizer.tileset")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("recognizer"):
            raise ReaderMissing("calibrating a tile set needs the tile reader, which is not installed") from None
        raise


def known_tilesets() -> list[str]:
    """The tile sets the reader has been calibrated for (empty without a reader)."""
    try:
        return list(_tileset_module().list_tilesets())
    except (PungChowError, OSError):
        return []


def default_layout(bonus: bool = True) -> list[list[str]]:
    """One of each face, a suit to a row: bamboo, characters, dots, winds and dragons, then flowers and seasons."""
    rows = [list(PLAYING_CODES[i : i + 9]) for i in range(0, 27, 9)] + [list(PLAYING_CODES[27:])]
    return rows + [list(BONUS_CODES)] if bonus else rows


def read_tileset_photo(photo: Photo, layout: list[list[str]] | None = None) -> Any:
    """Find the laid-out faces of a calibration photo and pair them with the layout (a recognizer Calibration),
    for the player to check each code's crop before the set is learnt."""
    return _tileset_module().read_calibration(photo.image, layout or default_layout(), Path(photo.name).name or "photo")


def save_tileset(name: str, calibration: Any, fixes: dict[int, str] | None = None) -> str:
    """Learn the set from a checked calibration, with the player's ``fixes`` (tile index -> code), and save it.

    Returns the folder the set was saved in; a name already taken is refused, never overwritten.
    """
    if not name.strip():
        raise PungChowError("name the tile set first, e.g. grandma-bone")
    module = _tileset_module()
    fixes = fixes or {}
    calibration = calibration.with_codes([fixes.get(i, code) for i, code in enumerate(calibration.codes)])
    ts = module.learn(module.check_name(name.strip()), calibration)
    return str(module.save_tileset(ts, calibration))


def add_tileset(name: str, photo: Photo, layout: list[list[str]] | None = None) -> str:
    """Calibrate the reader to a new set from one photo of its faces laid out in ``layout``'s rows.

    Returns the folder the set was saved in.
    """
    if not name.strip():
        raise PungChowError("name the tile set first, e.g. grandma-bone")
    module = _tileset_module()
    with tempfile.TemporaryDirectory(prefix="pungchow-tileset-") as tmp:
        photo_path = Path(tmp) / (Path(photo.name).name or "photo.jpg")
        photo_path.write_bytes(photo.data)
        layout_path = Path(tmp) / "layout.json"
        layout_path.write_text(json.dumps({"rows": layout or default_layout()}))
        try:
            _, folder = module.calibrate(name.strip(), photo_path, layout_path)
        except PungChowError:
            raise
        except (OSError, ValueError) as exc:
            raise PungChowError(f"could not calibrate from this photo ({exc}): photograph the faces in rows on a plain table") from None
    return str(folder)
