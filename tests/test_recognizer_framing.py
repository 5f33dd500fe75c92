"""Framing: a tile read through a box a little off, or cut out of a photo by hand with table and neighbours round it.

Given a box a few pixels off, the classifier may be unsure; read again tighter and looser, the framings that fit the
tile agree. Given a tile image cropped loosely, the tile is somewhere in its middle: it is read at shrinking framings
and the readings averaged, and the image is of a tile even where the loose framings see only "not a tile".
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import recognizer.classify
from recognizer.classify import (
    NT_INDEX,
    READ_AGAIN_BELOW,
    crops_of,
    read_again_where_unsure,
    read_framings,
    run_classifier,
)
from recognizer.geometry import scaled
from recognizer.image import load_photo
from recognizer.labels import CLASSES

PHOTOS = Path(__file__).resolve().parent / "fixtures" / "photos"


def test_a_box_grown_or_shrunk_keeps_its_centre() -> None:
    box = np.array([[10.0, 20.0, 40.0, 60.0]], np.float32)
    for share in (0.55, 0.85, 1.0, 1.08):
        x, y, w, h = scaled(box, share)[0]
        assert np.isclose(w, 40.0 * share) and np.isclose(h, 60.0 * share)
        assert abs(x + w / 2 - 30.0) < 1e-4 and abs(y + h / 2 - 50.0) < 1e-4


def unsure_photo() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A real photo's seven tiles, each boxed as labelled, 1.6 and 2.2 times too large: (photo, boxes, probabilities)."""
    tiles = json.loads((PHOTOS / "expected.json").read_text())["leo-058.jpg"]["tiles"]
    rgb = load_photo(PHOTOS / "leo-058.jpg")
    labelled = np.array([t["bbox"] for t in tiles], np.float32)
    boxes = np.concatenate([labelled, scaled(labelled, 1.6), scaled(labelled, 2.2)])
    return rgb, boxes, run_classifier(crops_of(rgb, boxes))[0]


def test_only_unsure_tiles_are_read_again() -> None:
    rgb, boxes, probs = unsure_photo()
    again = read_again_where_unsure(rgb, boxes, probs)
    sure = probs.max(axis=1) >= READ_AGAIN_BELOW
    changed = (again != probs).any(axis=1)
    assert (~sure).sum() >= 6, "the loose boxes leave the classifier unsure"
    assert not changed[sure].any(), "a tile read surely is left as it was read"
    assert changed[~sure].all()
    assert np.allclose(again.sum(axis=1), 1.0, atol=1e-4)


def test_at_most_a_hands_worth_is_read_again_the_least_sure_first(monkeypatch: pytest.MonkeyPatch) -> None:
    rgb, boxes, probs = unsure_photo()
    monkeypatch.setattr(recognizer.classify, "REREAD_AT_MOST", 5)
    changed = np.flatnonzero((read_again_where_unsure(rgb, boxes, probs) != probs).any(axis=1))
    sureness = probs.max(axis=1)
    assert len(changed) == 5
    assert sureness[changed].max() <= np.sort(sureness)[4] + 1e-6


def framing_readings(codes: list[str]) -> np.ndarray:
    """One row per framing: 0.8 on its code, the rest spread."""
    probs = np.full((len(codes), len(CLASSES)), 0.2 / (len(CLASSES) - 1), np.float32)
    for row, code in zip(probs, codes):
        row[CLASSES.index(code)] = 0.8
    return probs


def test_a_tile_image_is_a_tile_though_its_loose_framings_see_only_table() -> None:
    reading = read_framings(framing_readings(["NT", "NT", "NT", "5C", "5C", "3C"]))
    assert reading.argmax() == CLASSES.index("5C") and reading[NT_INDEX] == 0.0
    assert abs(float(reading.sum()) - 1.0) < 1e-6


def test_a_picture_with_no_tile_at_any_framing_is_not_a_tile() -> None:
    reading = read_framings(framing_readings(["NT", "NT", "NT"]))
    assert reading.argmax() == NT_INDEX
    assert abs(float(reading.sum()) - 1.0) < 1e-6


def test_a_tile_image_reads_as_its_whole_framing_unless_a_tighter_one_is_clearly_surer() -> None:
    """Real face crops read best whole; a loosely cut tile reads best at the framing that fits it, and is surest there."""
    whole_unsure = framing_readings(["5C", "3C"])
    whole_unsure[0] = 0.0
    whole_unsure[0, CLASSES.index("5C")], whole_unsure[0, CLASSES.index("6C")] = 0.5, 0.5
    assert read_framings(whole_unsure).argmax() == CLASSES.index("3C")  # 0.8 against 0.5: surer by more than 0.2
    nearly = framing_readings(["5C", "3C"])
    nearly[1, CLASSES.index("3C")] = 0.95  # 0.95 against 0.8: not surer by enough, the whole framing stands
    assert read_framings(nearly).argmax() == CLASSES.index("5C")
