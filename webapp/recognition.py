"""The tile reader as the page uses it: photo in, a review of every tile out.

The recognizer's model may be missing from an install; without it the page still scores typed
hands, so reading a photo then says plainly that the model is absent.
"""

from __future__ import annotations

import importlib
import json
import tempfile
import uuid
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from recognizer.geometry import size_factors
from recognizer.group import Group, GroupKind
from recognizer.numbering import corners
from scoring.errors import PungChowError
from scoring.tiles import BONUS_CODES, PLAYING_CODES
from webapp.photos import Photo
from webapp.review import ReadTile, Review, ReviewTile, from_reading

if TYPE_CHECKING:
    from recognizer.hand import Recognition


class ReaderMissing(PungChowError):
    """No tile reader is installed (or its model is not there); type the hand instead."""


@dataclass(frozen=True)
class Reader:
    """The recognizer's pipeline with its ONNX sessions loaded (the page caches one per server)."""

    pipeline: Any
    models: tuple[Any, ...]


def load_reader() -> Reader:
    """Import the recognizer and open its models once; a missing model says how to get one."""
    from recognizer import models, pipeline  # loaded when the first photo is read, not when the page starts

    try:
        loaded = tuple(models.load_model(name) for name in models.SHIPPED)
    except PungChowError as exc:
        raise ReaderMissing(f"the tile reader's model is not available ({exc}): type the hand, or add its tiles one by one") from None
    return Reader(pipeline, loaded)


def read_tiles(reader: Reader, photo: Photo, tileset: str | None = None) -> Review:
    """Read the photo with the recognizer (tuned to a calibrated ``tileset`` if named) into a review to correct."""
    return Review.from_recognition(recognise(reader, photo, tileset))


def recognise(reader: Reader, photo: Photo, tileset: str | None = None) -> Recognition:
    """What the recognizer saw in the photo: its typed ``Recognition``."""
    result: Recognition = reader.pipeline.recognize(photo.image, tileset=tileset or None)
    return result


def tileset_offer(reader: Reader, photo: Photo, tileset: str | None = None) -> str | None:
    """A calibrated set that would read this photo better than ``tileset`` (by the set's own face match), as a
    sentence for the page to offer, or None."""
    try:
        better = reader.pipeline.better_tileset(photo.image, None, tileset or None)
    except PungChowError:
        return None  # an offer must never stop the photo being read
    if better is None:
        return None
    return f"This photo looks like the tile set {better.name} (face match {better.match:.2f}): choose it above to read it."


def review_from_result(result: dict[str, Any], drawn_size: tuple[int, int] | None = None) -> Review:
    """A review from a recognition saved as JSON (``Recognition.to_json()``, as the dispute record and
    ``pungchow recognize --json`` keep it): read back into boxes and groups, then built as
    :meth:`Review.from_recognition` builds it. With ``drawn_size`` (width, height) the boxes are moved from the
    record's ``image`` pixels to those of the picture they will be drawn on (a big photo is read, and drawn, smaller)."""
    scale = _scale_between(result.get("image"), drawn_size)
    tiles = [ReadTile(str(t["code"]), corners([v * k for v, k in zip(t["box"], scale)]), float(t.get("confidence", 0.0)),
                      tuple((str(a["code"]), float(a["p"])) for a in t.get("top3", [])))
             for t in result.get("tiles", [])]
    groups = [Group(int(g.get("id", i)), GroupKind(g.get("kind", GroupKind.OTHER.value)), tuple(int(k) for k in g.get("tiles", [])),
                    bool(g.get("concealed", False)), bool(g.get("in_hand", True)), str(g.get("set_aside", "")))
              for i, g in enumerate(result.get("groups", []))]
    return from_reading(tiles, groups, recognised=result, turned=float(result.get("turned", 0.0)))


def _scale_between(image: object, drawn_size: tuple[int, int] | None) -> tuple[float, float, float, float]:
    """Factors taking a box (x, y, w, h) in a record's ``image`` pixels to a picture of ``drawn_size``; ones when
    either size is not known (``geometry.size_factors``)."""
    width, height = (image.get("width"), image.get("height")) if isinstance(image, dict) else (None, None)
    if drawn_size is None or not isinstance(width, (int, float)) or not isinstance(height, (int, float)):
        return 1.0, 1.0, 1.0, 1.0
    fx, fy = size_factors((width, height), drawn_size)
    return fx, fy, fx, fy


def _tileset_module() -> Any:
    """The recognizer's tile sets, loaded when the page first needs them."""
    return importlib.import_module("recognizer.tileset")


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


def learn_from_review(name: str, image: Any, photo_name: str, review: Review) -> str:
    """Add the tiles the player confirmed or corrected (a person's word: confidence None, with a box on ``image``, the
    photo as read) to the player's set ``name``, creating it if new; the set's one-line summary for the page to show."""
    tiles = [corrected_tile(t) for t in review.tiles if t.box is not None and t.confidence is None and t.code != "XX"]
    if not tiles:
        return f"no checked tiles to learn from yet: check or correct a tile, then add it to {name!r}"
    return str(_tileset_module().learn_tiles(name, image, tiles, Path(photo_name).name or "photo"))


def corrected_tile(tile: ReviewTile) -> Any:
    """A checked tile as the recognizer learns it: its box (x, y, w, h) in the photo as read, and its code."""
    from recognizer.examples import CorrectedTile

    assert tile.box is not None
    x0, y0, x1, y1 = tile.box
    return CorrectedTile((x0, y0, x1 - x0, y1 - y0), tile.code)


#: The set the page starts for a player whose photo was read with no set of theirs; they can rename it on *Tile sets*.
PAGE_SET = "my-set"


@dataclass(frozen=True)
class LearntTile:
    """One tile of the photo that the set learnt: which tile, as what face, and under which source (to take it back)."""

    tile_id: int
    code: str
    source: str


@dataclass(frozen=True)
class Lesson:
    """What one photo has taught the player's set so far; ``stopped`` once the player took it back (the photo then
    teaches nothing more)."""

    tileset: str
    tiles: tuple[LearntTile, ...] = ()
    stopped: bool = False
    holds: str = ""
    """What the set holds after the last step, as the recognizer sums it up ("tile set 'my-set': 2 examples of 2 faces")."""
    whole_hand: bool = False
    """The player confirmed every tile of the hand (they saved it): those tiles stay learnt on the runs that follow."""

    def __str__(self) -> str:
        codes = [t.code for t in self.tiles]
        return f"learnt {len(codes)} face{'s' if len(codes) != 1 else ''} of {self.tileset}: {', '.join(codes)}"


def learning_set(chosen: str | None) -> str:
    """The set a photo's corrections teach: the player's own set chosen for the photo; for a built-in set, the player's
    own copy of it (``NAME-mine``: its calibration and what they teach, so the next photo keeps both); for the usual
    faces, the page's own set. A built-in set is never learnt into."""
    if chosen and chosen in own_tilesets():
        return chosen
    if chosen and chosen in known_tilesets():
        return str(_tileset_module().learnt_copy_of(chosen))
    return PAGE_SET


def _built_in_behind(name: str) -> str | None:
    """The built-in set a new ``NAME-mine`` copies, if ``name`` is such a copy not made yet."""
    if name in own_tilesets():
        return None
    module = _tileset_module()
    return next((b for b in known_tilesets() if b not in own_tilesets() and module.learnt_copy_of(b) == name), None)


def teach(lesson: Lesson, image: Any, photo_name: str, review: Review, every_tile: bool = False) -> Lesson:
    """Bring the set up to date with the review: each tile the player corrected or checked (with ``every_tile``, each
    tile in the hand they confirmed by saving it, not one set aside) joins the set, through the recognizer's
    ``learn_tiles`` as ``pungchow tileset learn`` adds its tiles; a learnt tile corrected again, or put back by *Undo*,
    is forgotten."""
    if lesson.stopped:
        return lesson
    every_tile = every_tile or lesson.whole_hand
    if lesson.tiles and lesson.tileset not in own_tilesets():
        lesson = replace(lesson, tiles=())  # the set was renamed or removed on Tile sets: what it learnt went with it
    checked = {t.id: t for t in review.tiles
               if t.box is not None and t.code != "XX" and (t.confidence is None or (every_tile and t.in_hand))}
    module = _tileset_module()
    stale = {t.source for t in lesson.tiles if t.tile_id not in checked or checked[t.tile_id].code != t.code}
    if stale:
        lesson = replace(lesson, holds=str(module.forget_learnt(lesson.tileset, stale)))
    kept = tuple(t for t in lesson.tiles if t.source not in stale)
    new = [t for i, t in checked.items() if i not in {k.tile_id for k in kept}]
    if not new:
        return replace(lesson, tiles=kept, whole_hand=every_tile)
    tag = f"{Path(photo_name).name or 'photo'} #{uuid.uuid4().hex[:6]}"  # one source a step: it is taken back whole
    holds = module.learn_tiles(lesson.tileset, image, [corrected_tile(t) for t in new], tag,
                               based_on=_built_in_behind(lesson.tileset))
    return replace(lesson, tiles=kept + tuple(LearntTile(t.id, t.code, f"page:{tag}") for t in new), holds=str(holds),
                   whole_hand=every_tile)


def not_learnt(what: str, why: str) -> str:
    """What the page says when a saved hand's tiles could not teach the player's set: the save stands, and why not."""
    return f"Saved. Your tile set did not learn from {what}: {why}"


def take_back(lesson: Lesson) -> Lesson:
    """Forget all the photo taught the set (the player's *Undo*); the photo teaches nothing more."""
    if lesson.tiles and lesson.tileset in own_tilesets():
        _tileset_module().forget_learnt(lesson.tileset, {t.source for t in lesson.tiles})
    return Lesson(lesson.tileset, (), stopped=True)


def tileset_stamp(name: str | None) -> str:
    """When the player's set ``name`` last changed ('' for none, or a built-in set): a photo read with the set before
    it learnt is read again after."""
    try:
        changes = _tileset_module().set_changes(name)
    except (PungChowError, OSError):
        return ""
    return "" if changes is None else str(changes)


def rename_tileset(name: str, new_name: str) -> str:
    """The player's set renamed (never over another set); its summary."""
    return str(_tileset_module().rename_tileset(name, new_name.strip()))


def own_tilesets() -> list[str]:
    """The player's own sets, learnt or calibrated (empty without a reader)."""
    try:
        return list(_tileset_module().own_tilesets())
    except (PungChowError, OSError):
        return []


def learnt_examples(name: str) -> Any:
    """The examples set ``name`` holds (recognizer Examples: crops, codes, sources), numbered as the page shows them."""
    return _tileset_module().learnt_examples(name)


def forget_examples(name: str, which: list[int] | None = None) -> str:
    """Forget examples ``which`` of set ``name`` (None: every one learnt from a photo); the set's summary after."""
    return str(_tileset_module().forget_examples(name, which))


def export_tileset(name: str) -> bytes:
    """Set ``name`` as one zip file for the player to keep."""
    data: bytes = _tileset_module().export_tileset(name)
    return data


def import_tileset(data: bytes, file_name: str) -> str:
    """A set exported from the page made the player's again; its summary."""
    return str(_tileset_module().import_tileset(data, file_name))
