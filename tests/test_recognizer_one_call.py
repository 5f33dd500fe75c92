"""A photo's tiles read in as few classifier calls as they need (issue 39).

A player photographs, then waits. Every tile is read as it stands in one call (a tile lying askew turned upright too);
a tile read surely so keeps that reading, and only the others are read again turned half a turn and at other framings,
exactly as every tile used to be. The real classifier reads; its calls are counted.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import recognizer.classify
from recognizer.classify import (
    SURE_ONE_WAY,
    also_read_upright,
    crops_of,
    face_readings,
    read_again_where_unsure,
    run_classifier,
    tilts_of,
)
from recognizer.detect import detect
from recognizer.geometry import CROP_H, CROP_W, TILT_READ, upright_boxes
from recognizer.image import load_photo
from recognizer.models import Model, load_model
from recognizer.pipeline import recognize
from recognizer.tileset import TileSet, load_tileset
from tests.test_recognizer_framing import unsure_photo

SAMPLE = Path(__file__).resolve().parent.parent / "recognizer" / "samples" / "finished-hand.jpg"


@pytest.fixture
def classifier_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many crops each call of the real classifier reads, in order."""
    calls: list[int] = []
    run = Model.run

    def counted(self: Model, x: np.ndarray) -> Any:
        if self.name == "classifier":
            calls.append(len(x))
        return run(self, x)

    monkeypatch.setattr(Model, "run", counted)
    yield calls


def as_every_tile_was_read(rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """The reading every tile of a photo was given before: both ways up, unsure ones at other framings, askew ones
    turned upright too."""
    probs = read_again_where_unsure(rgb, boxes, run_classifier(crops_of(rgb, boxes))[0])
    return also_read_upright(lambda c: run_classifier(c)[0], rgb, boxes, tilts_of(rgb, boxes), probs, (CROP_H, CROP_W))


def test_the_sample_hand_costs_less_than_two_crops_a_tile(classifier_calls: list[int]) -> None:
    found = recognize(SAMPLE)
    assert len(found.detections) >= 12, "the sample shows a whole hand"
    assert sum(classifier_calls) < 1.5 * len(found.detections), "a tile read surely is read once, not both ways up"
    assert len(classifier_calls) <= 3


def test_tiles_read_surely_are_read_in_one_call(classifier_calls: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    rgb = load_photo(SAMPLE)
    boxes = detect(rgb).boxes
    monkeypatch.setattr(recognizer.classify, "SURE_ONE_WAY", 0.0)
    tilts = tilts_of(rgb, boxes)
    askew_ways = sum(len(upright_boxes(b, float(t))) for b, t in zip(boxes, tilts) if abs(t) >= TILT_READ)
    probs, emb = face_readings(rgb, boxes, reframe=True)
    assert classifier_calls == [len(boxes) + askew_ways]
    assert probs.shape[0] == emb.shape[0] == len(boxes)
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)


def test_an_unsure_tile_is_read_as_every_tile_was(monkeypatch: pytest.MonkeyPatch) -> None:
    rgb, boxes, _ = unsure_photo()  # seven tiles boxed as labelled, 1.6 and 2.2 times too large
    before = as_every_tile_was_read(rgb, boxes)
    monkeypatch.setattr(recognizer.classify, "SURE_ONE_WAY", 1.01)  # no tile is sure enough to be read once
    assert np.allclose(face_readings(rgb, boxes, reframe=True)[0], before, atol=1e-5)


def test_only_a_tile_read_surely_as_it_stands_keeps_its_one_reading(classifier_calls: list[int]) -> None:
    rgb, boxes, _ = unsure_photo()
    before = as_every_tile_was_read(rgb, boxes)
    every_tile_both_ways = sum(classifier_calls)
    classifier_calls.clear()
    probs, _ = face_readings(rgb, boxes, reframe=True)
    changed = ~np.isclose(probs, before, atol=1e-5).all(axis=1)
    assert changed.any() and not changed.all(), "the tiles boxed well read surely, the loose boxes do not"
    assert (probs[changed].max(axis=1) >= SURE_ONE_WAY - 1e-6).all(), "only a sure tile reads otherwise than before"
    assert sum(classifier_calls) < every_tile_both_ways


def test_the_readers_threads_wait_without_spinning() -> None:
    """On two cores shared with other work, a spinning thread takes the core from the work it waits for."""
    for name in ("detector", "classifier"):
        options = load_model(name).session.get_session_options()
        assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"


def test_a_photo_of_another_set_is_refused_on_half_its_tiles_and_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sample hand is not the 1922 set: once more than half its tiles match under the set's bar, the median does."""
    rgb = load_photo(SAMPLE)
    dets = detect(rgb)
    ts = load_tileset("pungchow-1922")
    exact = ts.match_score(rgb, dets)
    assert exact < ts.looks_like, "the sample's tiles do not look like the 1922 set's faces"
    matched: list[int] = []
    aligned_match = TileSet.aligned_match

    def counted(self: TileSet, crops: np.ndarray, coarse: bool = False) -> np.ndarray:
        matched.append(len(crops))
        return aligned_match(self, crops, coarse)

    monkeypatch.setattr(TileSet, "aligned_match", counted)
    bound = ts.match_score(rgb, dets, refuse_below=ts.looks_like)
    assert exact <= bound < ts.looks_like
    assert sum(matched) == min(32, len(dets)) // 2 + 1
    assert ts.match_score(rgb, dets, refuse_below=exact) == pytest.approx(exact, abs=1e-6), "a photo not refused is matched whole"
    found = recognize(SAMPLE, "pungchow-1922")
    assert any("does not look like tile set 'pungchow-1922'" in p for p in found.problems)
