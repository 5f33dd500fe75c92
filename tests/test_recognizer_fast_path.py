"""Photo -> hand takes no look twice (issue 39).

A player photographs, then waits. The level step reads the photo four ways up; the way it was taken it reads at a
look ``detect`` has already taken, on the same pixels, so that look serves and only the three turned looks are taken.
The photo is shrunk for the base look once: the smaller looks whose sides divide it are made from those pixels (the
same part of the photo averaged, to within rounding), and the level step's looks from them too.
The real detector looks; its calls are counted.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

import recognizer.level
from recognizer import geometry
from recognizer.classify import classify
from recognizer.detect import WIDE_LOOK, WIDEST_LOOK, looks, scaled_look, tile_like
from recognizer.detections import Detections
from recognizer.geometry import DETECT_LONG_SIDE, MEAN, STD, to_input
from recognizer.image import load_photo
from recognizer.level import SURE, TILES_LOOKED_AT, as_taken_look, at_long_side, level, look_side, read_level
from recognizer.models import Model, load_model
from tests.test_recognizer_photos import PHOTOS

SAMPLE = Path(__file__).resolve().parent.parent / "recognizer" / "samples" / "finished-hand.jpg"


@pytest.fixture
def detector_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[int, ...]]]:
    """The input shape of each call of the real detector, in order."""
    calls: list[tuple[int, ...]] = []
    run = Model.run

    def counted(self: Model, x: np.ndarray) -> Any:
        if self.name == "detector":
            calls.append(tuple(x.shape))
        return run(self, x)

    monkeypatch.setattr(Model, "run", counted)
    yield calls


def test_the_photo_as_taken_is_the_look_detect_took(detector_calls: list[tuple[int, ...]]) -> None:
    """The sample hand's tiles are looked at the base look: the level step's look at the photo as taken is ``detect``'s
    own there, box for box and sureness for sureness, and it takes no look to get it."""
    rgb = load_photo(SAMPLE)
    seen = looks(rgb)
    side = look_side(seen.merged(), max(rgb.shape[:2]))
    assert side == DETECT_LONG_SIDE and side in seen.taken
    detector_calls.clear()
    small = at_long_side(rgb, side, seen)
    kept = as_taken_look(rgb, small, side, load_model("detector"), seen)
    assert detector_calls == []
    fresh = as_taken_look(rgb, small, side, load_model("detector"), None)
    assert len(detector_calls) == 1
    assert len(kept) == len(fresh) >= 14
    assert np.array_equal(kept.scores, fresh.scores)
    assert np.allclose(kept.boxes, fresh.boxes, atol=0.01)


def test_the_level_step_takes_three_looks_where_detect_took_the_fourth(detector_calls: list[tuple[int, ...]]) -> None:
    """Handed ``detect``'s looks, the level step looks at the sample hand turned a quarter, over and three quarters
    (three looks, two of them lying), not again as taken; it finds the hand upright either way."""
    rgb = load_photo(SAMPLE)
    seen = looks(rgb)
    dets = seen.merged()
    detector_calls.clear()
    assert level(rgb, dets, seen=seen) is None
    shared = list(detector_calls)
    detector_calls.clear()
    assert level(rgb, dets) is None
    assert len(shared) == 3 and len(detector_calls) == 4
    assert sorted(shared) == sorted(detector_calls[1:])  # the three turned looks, the same size as before


@pytest.mark.parametrize("name", ["leo-058.jpg", "leo-064.jpg"])
def test_a_hand_photographed_from_across_the_table_is_still_turned_over(name: str) -> None:
    """Sharing the look as taken changes no way up: a leo hand is read as taken, and turned over it is turned back."""
    rgb = load_photo(PHOTOS / name)
    seen = looks(rgb)
    assert level(rgb, seen.merged(), seen=seen) is None
    over = np.ascontiguousarray(cv2.rotate(rgb, cv2.ROTATE_180))
    seen = looks(over)
    levelled = level(over, seen.merged(), seen=seen)
    assert levelled is not None and abs(levelled.degrees) == 180.0


@pytest.mark.parametrize("size", [(4032, 3024), (4619, 2598), (600, 194)])
def test_a_smaller_look_made_from_the_base_look_is_the_photos_own_average(size: tuple[int, int]) -> None:
    """A phone's 4:3 photo, the sample's 16:9 and a book page's strip: the wide looks made from the base look's pixels
    are the photo's own area average to within one level in 255, at the same size."""
    rng = np.random.default_rng(7)
    w, h = size
    rgb = cv2.resize(rng.integers(0, 256, (h // 8 + 1, w // 8 + 1, 3), dtype=np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)
    base = scaled_look(rgb, DETECT_LONG_SIDE)
    for side in (WIDE_LOOK, WIDEST_LOOK):
        direct, made = scaled_look(rgb, side), scaled_look(rgb, side, base)
        assert made.shape == direct.shape and max(made.shape[:2]) == side
        assert int(np.abs(made.astype(int) - direct.astype(int)).max()) <= 1
        marked = base.copy()
        marked[:8, :8] = 0
        assert scaled_look(rgb, side, marked)[0, 0].tolist() == [0, 0, 0]  # made from the base look, not the photo again


def test_a_look_the_base_look_cannot_make_is_made_from_the_photo() -> None:
    """Sides that do not divide the base look's (224 of 384), or a photo smaller than the base look (enlarged, not
    averaged), are shrunk from the photo itself."""
    rgb = load_photo(SAMPLE)
    base = scaled_look(rgb, DETECT_LONG_SIDE)
    assert np.array_equal(scaled_look(rgb, 224, base), scaled_look(rgb, 224))
    small = cv2.resize(rgb, (300, 169), interpolation=cv2.INTER_AREA)
    enlarged = scaled_look(small, DETECT_LONG_SIDE)
    assert np.array_equal(scaled_look(small, WIDE_LOOK, enlarged), scaled_look(small, WIDE_LOOK))


def test_detect_keeps_the_base_look_for_the_level_step() -> None:
    """``detect``'s looks hold the photo as shrunk for the base look; the level step's photo as taken is that image."""
    rgb = load_photo(SAMPLE)
    seen = looks(rgb)
    assert seen.image is not None and max(seen.image.shape[:2]) == DETECT_LONG_SIDE
    assert at_long_side(rgb, DETECT_LONG_SIDE, seen) is seen.image


def test_a_tile_the_merged_tiles_and_the_look_as_taken_share_is_looked_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The photo's slant is read from the merged tiles and from the look as taken; most of the sample hand's boxes are
    the same box in both, and the way its edges run is measured once a box."""
    rgb = load_photo(SAMPLE)
    seen = looks(rgb)
    dets = seen.merged()

    def voters(found: Detections) -> set[bytes]:
        sure = found[found.scores >= SURE]
        return {np.asarray(b, np.float64).tobytes() for b in sure[np.argsort(-sure.scores)[:TILES_LOOKED_AT]].boxes}

    merged, as_taken = voters(dets), voters(tile_like(seen.taken[DETECT_LONG_SIDE]))
    assert len(merged & as_taken) >= len(merged) // 2
    measured: list[int] = []
    def counted(grey: np.ndarray, box: np.ndarray) -> tuple[float, float]:
        measured.append(1)
        return geometry.edge_direction(grey, box)

    monkeypatch.setattr(recognizer.level, "edge_direction", counted)
    assert level(rgb, dets, seen=seen) is None
    assert len(measured) == len(merged | as_taken) < len(merged) + len(as_taken)


def test_the_network_input_is_every_byte_scaled_as_before() -> None:
    """Made in place, the network's input holds each byte's (v / 255 - MEAN) / STD, as worked out one step at a time
    in float32, channels first, for a batch of crops read through a turned view as for one photo."""
    rng = np.random.default_rng(3)
    crops = rng.integers(0, 256, (5, 160, 120, 3), dtype=np.uint8)
    crops[0, :16, :16] = np.arange(256, dtype=np.uint8).reshape(16, 16, 1)
    for batch in (crops, crops[:, ::-1, ::-1]):
        one_step_at_a_time = (batch.astype(np.float32) * np.float32(1 / 255) - np.float32(MEAN)) / np.float32(STD)
        x = to_input(batch)
        assert x.dtype == np.float32 and x.flags["C_CONTIGUOUS"] and x.shape == (5, 3, 160, 120)
        assert np.array_equal(x, one_step_at_a_time.transpose(0, 3, 1, 2))


def test_the_reader_reads_each_tiles_tilt_from_the_edges_the_level_step_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sample hand, read as taken: each tile's tilt (how far it lies askew, which decides whether it is also read
    turned upright) is the way its edges run, which the level step measured for its slant; given them, the reader
    measures no box again, and reads every tile as when it measures its own."""
    measured: list[int] = []
    edge_direction = geometry.edge_direction

    def counted(grey: np.ndarray, box: np.ndarray) -> tuple[float, float]:
        measured.append(1)
        return edge_direction(grey, box)

    monkeypatch.setattr(recognizer.level, "edge_direction", counted)
    monkeypatch.setattr(geometry, "edge_direction", counted)
    rgb = load_photo(SAMPLE)
    seen = looks(rgb)
    dets = seen.merged()
    directions: dict[bytes, tuple[float, float]] = {}
    assert read_level(rgb, dets, seen=seen, directions=directions)[2] is None
    assert len(measured) == len(directions) >= len(dets) - 2
    measured.clear()
    shared = classify(rgb, dets, directions=directions)
    assert len(measured) == len(dets) - len(directions)  # only boxes the level step did not look at
    own = classify(rgb, dets)
    assert len(measured) == 2 * len(dets) - len(directions)
    assert np.array_equal(shared.probs, own.probs) and len(shared) >= 14
