"""The bonus reader: the eight flowers and seasons told apart by their corner number and name.

Given a tile the classifier thinks may be a flower or a season, the reader looks again at twice the
pixels and names which; every other tile keeps the classifier's reading untouched.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from recognizer.classify import BONUS_INDEX, BONUS_READ_MASS, crops_of, read_both_ways_up, read_flowers_and_seasons, run_classifier
from recognizer.detections import UNSURE_BELOW
from recognizer.geometry import BONUS_H, BONUS_W, crop_tile
from recognizer.labels import BONUS_LABELS, CLASSES
from recognizer.models import load_model
from scoring.tiles import BONUS_CODES

PHOTOS = Path(__file__).resolve().parent / "fixtures" / "photos"


def test_the_reader_is_shipped_with_its_labels() -> None:
    assert load_model("bonus").meta["labels"] == [*BONUS_CODES, "other"] == list(BONUS_LABELS)
    assert [CLASSES[i] for i in BONUS_INDEX] == list(BONUS_CODES)


def test_tiles_nobody_would_take_for_a_flower_keep_the_classifiers_reading() -> None:
    """A real photo of a hand: rows below the gate are untouched, and every row still sums to one."""
    import json

    expected = json.loads((PHOTOS / "expected.json").read_text())
    rgb = cv2.cvtColor(cv2.imread(str(PHOTOS / "leo-058.jpg")), cv2.COLOR_BGR2RGB)
    boxes = np.array([t["bbox"] for t in expected["leo-058.jpg"]["tiles"]], np.float32)
    first, _ = run_classifier(crops_of(rgb, boxes))
    again = read_flowers_and_seasons(rgb, boxes, first)
    below = first[:, BONUS_INDEX].sum(axis=1) < BONUS_READ_MASS
    assert below.any()
    assert np.array_equal(again[below], first[below])
    assert np.allclose(again.sum(axis=1), 1.0, atol=1e-4)
    kept = ~below
    others = np.setdiff1d(np.arange(len(CLASSES)), BONUS_INDEX)
    for row_first, row_again in zip(first[kept], again[kept]):  # the proportions among the other codes stand
        ratio = row_again[others] / (row_first[others] + 1e-6)
        assert ratio.max() - ratio.min() < 1e-2 * max(1.0, float(ratio.max()))


HELD_OUT = ("real-wenkai", "real-cwtex")


def _drawn_tiles(rng: np.random.Generator, per_family: int) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """Flowers and seasons of sets of the held-out families, each a tile 80 px wide in a photo of its own."""
    from recognizer.train.realcrops import RealCropSource, close_up

    sets = RealCropSource(list(HELD_OUT), rng)
    out = []
    for i in range(per_family * len(HELD_OUT)):
        style, faces = sets.next_set()
        code = BONUS_CODES[i % len(BONUS_CODES)]
        out.append((code, *close_up(rng, style, faces, code, 80)))
    return out


def test_flowers_and_seasons_of_sets_never_trained_on_are_read() -> None:
    """Sets of the two held-out families, close up: the reader names most of the eight, the classifier alone far fewer."""
    from pungchow_data.faces import FAMILY_STYLES, style_available

    if not all(style_available(FAMILY_STYLES[n]) for n in HELD_OUT):
        pytest.skip("fonts of the held-out families missing: apt-get install fonts-lxgw-wenkai fonts-cwtex-kai")
    tiles = _drawn_tiles(np.random.default_rng(2026), 24)
    alone = together = 0
    for code, rgb, box in tiles:
        p, _ = run_classifier(crops_of(rgb, box))
        alone += CLASSES[int(p[0].argmax())] == code
        together += CLASSES[int(read_flowers_and_seasons(rgb, box, p)[0].argmax())] == code
    assert together >= 0.8 * len(tiles), (alone, together)
    assert together > alone


def test_after_a_tile_set_the_reader_only_says_which_flower_or_season() -> None:
    """A set's prototypes have named the tiles: how likely each is a flower or season at all, and every other code, stay."""
    import json

    expected = json.loads((PHOTOS / "expected.json").read_text())
    rgb = cv2.cvtColor(cv2.imread(str(PHOTOS / "leo-064.jpg")), cv2.COLOR_BGR2RGB)
    boxes = np.array([t["bbox"] for t in expected["leo-064.jpg"]["tiles"]], np.float32)
    first, _ = run_classifier(crops_of(rgb, boxes))
    first[:, BONUS_INDEX] += 0.5  # as if a set had called every tile half a flower or season
    first /= first.sum(axis=1, keepdims=True)
    again = read_flowers_and_seasons(rgb, boxes, first, which_only=True)
    others = np.setdiff1d(np.arange(len(CLASSES)), BONUS_INDEX)
    assert np.array_equal(again[:, others], first[:, others])
    assert np.allclose(again[:, BONUS_INDEX].sum(axis=1), first[:, BONUS_INDEX].sum(axis=1), atol=1e-6)
    assert not np.allclose(again[:, BONUS_INDEX], first[:, BONUS_INDEX])


def test_after_a_tile_set_a_reader_that_sees_no_flower_or_season_leaves_the_sets_choice() -> None:
    """Honours the reader calls "other" though a set called them half a flower: which of the eight stays the set's."""
    import json

    expected = json.loads((PHOTOS / "expected.json").read_text())
    rgb = cv2.cvtColor(cv2.imread(str(PHOTOS / "leo-064.jpg")), cv2.COLOR_BGR2RGB)
    boxes = np.array([t["bbox"] for t in expected["leo-064.jpg"]["tiles"]], np.float32)
    first, _ = run_classifier(crops_of(rgb, boxes))
    first[:, BONUS_INDEX] += np.linspace(0.2, 0.02, len(BONUS_INDEX))  # the set leans to 1F, then 2F, ...
    first /= first.sum(axis=1, keepdims=True)
    read, _ = read_both_ways_up(load_model("bonus"), np.stack([crop_tile(rgb, b, size=(BONUS_H, BONUS_W)) for b in boxes]))
    sure_other = read[:, -1] > 0.9
    assert sure_other.sum() >= 3
    again = read_flowers_and_seasons(rgb, boxes, first, which_only=True)
    assert (again[sure_other][:, BONUS_INDEX].argmax(axis=1) == 0).all()


def _readings(rows: list[dict[str, float]]) -> np.ndarray:
    """Probabilities over CLASSES from a few named chances per tile, the rest spread thin."""
    probs = np.full((len(rows), len(CLASSES)), 1e-3)
    for row, chances in zip(probs, rows):
        for code, p in chances.items():
            row[CLASSES.index(code)] = p
    out: np.ndarray = probs / probs.sum(axis=1, keepdims=True)
    return out


def test_a_flower_or_season_is_not_read_on_two_tiles() -> None:
    """A set has one 4 of seasons: of two tiles read as it, the one for which it is likelier overall keeps it
    (0.5 x 0.6 for this pair against 0.3 x 0.7 the other way) and the other takes its next reading; a
    third tile, and a tile that is no flower at all, keep theirs. The tile moved shows how unsure its new reading is."""
    from recognizer.classify import one_of_each_flower_and_season

    probs = _readings([{"4S": 0.6, "2S": 0.3}, {"4S": 0.5, "1S": 0.1, "GD": 0.3}, {"3F": 0.9}, {"5B": 0.95, "4S": 0.04}])
    out = one_of_each_flower_and_season(probs)
    read = [CLASSES[int(i)] for i in out.argmax(axis=1)]
    assert read == ["2S", "4S", "3F", "5B"]
    assert out[0, CLASSES.index("4S")] == 0.0 and out[0, CLASSES.index("2S")] == probs[0, CLASSES.index("2S")] < UNSURE_BELOW
    others = ~np.isin(np.arange(len(CLASSES)), BONUS_INDEX)
    assert np.array_equal(out[1:, others], probs[1:, others])
    assert np.array_equal(out[3], probs[3]) and (out.sum(axis=1) <= 1.0 + 1e-9).all()


def test_tiles_each_read_as_a_different_flower_or_season_are_left_as_read() -> None:
    from recognizer.classify import one_of_each_flower_and_season

    probs = _readings([{"4S": 0.6, "2S": 0.3}, {"2S": 0.5, "4S": 0.4}, {"1F": 0.9}])
    assert np.array_equal(one_of_each_flower_and_season(probs), probs)


def test_more_flowers_and_seasons_than_a_set_has_are_left_as_read() -> None:
    """Nine tiles read as flowers or seasons cannot be one set's: the player sorts them out, nothing is forced."""
    from recognizer.classify import one_of_each_flower_and_season

    probs = _readings([{code: 0.8} for code in BONUS_CODES] + [{"1F": 0.7}])
    assert np.array_equal(one_of_each_flower_and_season(probs), probs)


def test_a_tile_moved_off_its_flower_is_still_a_tile() -> None:
    """Its next reading may be "not a tile"; it was read as a flower, so it stays on the page for the player to check."""
    from recognizer.classify import one_of_each_flower_and_season

    out = one_of_each_flower_and_season(_readings([{"4S": 0.9}, {"4S": 0.5, "NT": 0.35, "1S": 0.1}]))
    assert [CLASSES[int(i)] for i in out.argmax(axis=1)] == ["4S", "1S"]
