"""photo -> detect -> level -> classify -> group (what lies beside the hand looked at again) -> hand, timed step by step."""

from __future__ import annotations

import time
from functools import cache, partial
from pathlib import Path
from typing import Any

import numpy as np

from recognizer.beside import beside_the_hand, left_out, no_tile_over
from recognizer.blas import one_blas_thread
from recognizer.classify import classify, cut_by_the_frame
from recognizer.decode import EVERY_BOOKS_SHAPES, whole_without
from recognizer.detect import looks, other_looks
from recognizer.group import in_the_hand
from recognizer.hand import Recognition, read_hand
from recognizer.hand_rows import group_the_hand
from recognizer.image import load_photo, load_photo_sized
from recognizer.level import as_the_faces_match, read_level
from recognizer.marks import winning_mark
from recognizer.numbering import corners, photo_order
from recognizer.tileset import Suggestion, TileSet, load_tileset, suggest_tileset
from scoring.rulesets import get_rule_set
from scoring.tiles import BONUS_CODES


def recognize(photo: str | Path | bytes | np.ndarray, tileset: str | TileSet | None = None, rules: str | None = None,
              *, photo_size: tuple[int, int] | None = None, **context: Any) -> Recognition:
    """Recognise every tile of a photo and build the hand; ``rules`` the book whose hand shapes the photo is read
    for (None: every book's); ``context`` goes to the Hand (won_by, seat_wind, ...). Handed pixels already decoded
    (``image.load_photo_sized``), ``photo_size`` is the photo's own (width, height), so the record's boxes are in it."""
    with one_blas_thread():
        return _recognize(photo, tileset, rules, photo_size, **context)


def _recognize(photo: str | Path | bytes | np.ndarray, tileset: str | TileSet | None, rules: str | None,
               own_size: tuple[int, int] | None, **context: Any) -> Recognition:
    times: dict[str, float] = {}
    t = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal t
        now = time.perf_counter()
        times[name] = round((now - t) * 1000, 1)
        t = now

    ts = load_tileset(tileset) if isinstance(tileset, str) else tileset
    rgb, photo_size = (photo, own_size) if isinstance(photo, np.ndarray) else load_photo_sized(photo)
    lap("load")
    notes: list[str] = []
    size = (rgb.shape[1], rgb.shape[0])
    seen = looks(rgb)  # detect(rgb), its looks kept: the level step reads the photo as taken at one of them
    dets = seen.merged()
    lap("detect")
    taken = rgb, dets
    directions: dict[bytes, tuple[float, float]] = {}  # the way the edges run in each box looked at on the photo as taken
    rgb, dets, levelled = read_level(rgb, dets, seen=seen, directions=directions)  # boxes go back on the photo once grouped
    lap("level")
    if ts is not None and ts.calibrated:  # a set known by its examples alone adds to the general reader, tile by tile
        # read as taken, one match decides: a photo more than half of whose tiles match under the set's bar is refused
        # without matching the rest; turned, the two readings' exact matches are compared
        refuse = partial(ts.match_score, refuse_below=ts.looks_like) if levelled is None else ts.match_score
        rgb, dets, levelled, match = as_the_faces_match(refuse, *taken, (rgb, dets, levelled))
        if match < ts.looks_like:
            notes.append(f"the photo does not look like tile set {ts.name!r} (face match at most {match:.2f}, below "
                         f"{ts.looks_like:.2f}); read without it")
            ts = None
        else:
            dets = ts.fit(rgb, dets, lambda: other_looks(rgb), match)
    lap("tileset")
    dets = classify(rgb, dets, ts, cut=cut_by_the_frame(levelled.to_photo(dets.boxes) if levelled is not None else dets.boxes, size),
                    directions=directions if levelled is None else None)
    lap("classify")
    dets, groups, aside = group_the_hand(dets, rgb.shape[:2])  # keys, dominoes, counters beside the hand: set aside, still shown
    dets, groups, aside = beside_the_hand(rgb, dets, groups, aside, close_up=seen.close_up)  # no tile at all: left out
    numbers = _numbered(dets.boxes, levelled)  # as the overlay numbers the tiles: the notes name them so
    lap("group")
    shapes = get_rule_set(rules).special_shapes if rules else EVERY_BOOKS_SHAPES
    bonus_faces = [c for c in ts.codes if c in BONUS_CODES] if ts is not None else BONUS_CODES
    grouped = dets, groups
    # the beside detector looks again, once, only where the hand is not whole with its boxes or some were set aside
    unseen = None if seen.close_up else cache(partial(no_tile_over, rgb, dets.boxes))
    dets, groups, decoding, extra = whole_without(*grouped, shapes, bonus_faces or BONUS_CODES, numbers, unseen)
    if gone := [k for k in extra if unseen is not None and unseen()[k]]:  # set aside and no tile: left out, as beside it
        dets, groups, aside = left_out(grouped[0], aside, gone)
        numbers = _numbered(dets.boxes, levelled)
        dets, groups, decoding, extra = whole_without(dets, groups, shapes, bonus_faces or BONUS_CODES, numbers)
    notes += aside.note(numbers)
    if extra:
        notes.append(f"{len(extra)} box(es) laid apart from the hand set aside ({', '.join(numbers[k] for k in extra)}): the hand "
                     "is whole without them; count any that is a tile of this hand back in")
    lap("decode")
    built = read_hand(dets, groups, marked=winning_mark(rgb, dets.boxes, in_the_hand(groups, len(dets))), **context)
    problems = notes + (list(decoding.notes) if decoding else []) + [str(p) for p in built.problems] + built.hand.problems()
    if levelled is not None:
        dets = dets.with_(boxes=levelled.to_photo(dets.boxes))
    lap("hand")
    if len(dets) == 0:
        problems = ["no tiles found in the photo: lay the hand face up on a plain table, fill the frame with it, and avoid glare",
                    *problems]
    return Recognition(dets, groups, built.hand, problems, size, times, levelled.degrees if levelled is not None else 0.0, photo_size,
                       decoding, built.trace)


def _numbered(boxes: np.ndarray, levelled: Any) -> list[str]:
    """Each tile's number as the overlay, the page and ``--json`` give it (row by row on the photo as taken, read the way
    it was turned), so the decoder's reasons name tiles as the player sees them."""
    on_photo = levelled.to_photo(boxes) if levelled is not None else boxes
    order = photo_order([corners(b) for b in on_photo], levelled.degrees if levelled is not None else 0.0)
    names = [""] * len(order)
    for number, index in enumerate(order):
        names[index] = f"#{number}"
    return names


def better_tileset(photo: str | Path | bytes | np.ndarray, result: Recognition | None = None, current: str | None = None,
                   sets: dict[str, TileSet] | None = None) -> Suggestion | None:
    """Which calibrated set would read this photo better than ``current`` (None: the usual faces), by the set's
    own face match on the tiles found (``result``'s when it read the photo as taken; else found again and, as
    ``recognize`` does, read level: a set's faces match only tiles standing in their boxes); None when no set
    looks like the photo; among ``sets`` when the caller has read them. The page and ``pungchow photo`` offer it."""
    rgb = photo if isinstance(photo, np.ndarray) else load_photo(photo)
    with one_blas_thread():
        if result is not None and not result.turned:
            return suggest_tileset(rgb, result.detections, current, sets)
        seen = looks(rgb)
        rgb, dets, _ = read_level(rgb, seen.merged(), seen=seen)
        return suggest_tileset(rgb, dets, current, sets)
