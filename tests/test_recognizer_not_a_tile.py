"""A box is dropped as "not a tile" only when the reader is sure of it; unsure, it is shown as its likeliest face."""

from __future__ import annotations

import numpy as np

from recognizer.classify import NOT_A_TILE_SURE, NT_INDEX, not_a_tile_only_when_sure, with_probabilities
from recognizer.detections import Detections
from recognizer.labels import CLASSES


def chances(*rows: dict[str, float]) -> np.ndarray:
    out = np.full((len(rows), len(CLASSES)), 0.001, np.float32)
    for i, row in enumerate(rows):
        for code, p in row.items():
            out[i, CLASSES.index(code)] = p
    return out


def test_a_key_the_reader_is_sure_of_is_dropped_and_a_faint_printed_tile_is_kept_unsure() -> None:
    """A laptop key read "not a tile" at 0.85 goes; a faint printed four of bamboo read "not a tile" at 0.42 and 4B at
    0.35 stays, read 4B at its own 0.35, so the page asks the player to check it."""
    probs = chances({"NT": 0.85, "WD": 0.1}, {"NT": 0.42, "4B": 0.35, "1B": 0.1})
    kept = not_a_tile_only_when_sure(probs)
    assert kept.argmax(axis=1).tolist() == [NT_INDEX, CLASSES.index("4B")]
    assert np.isclose(kept[1, CLASSES.index("4B")], 0.35)
    boxes = np.array([[0, 0, 40, 56], [50, 0, 40, 56]], np.float32)
    read = with_probabilities(Detections(boxes, np.ones(2, np.float32)), kept)
    assert [read.code(k) for k in range(2)] == ["NT", "4B"] and read.confidence[1] < 0.5


def test_the_bar_is_the_reader_s_own_middle() -> None:
    """At the bar itself a box is not a tile; just under it, it is its likeliest face."""
    at, under = chances({"NT": NOT_A_TILE_SURE, "2C": 0.3}), chances({"NT": NOT_A_TILE_SURE - 0.01, "2C": 0.3})
    assert not_a_tile_only_when_sure(at).argmax() == NT_INDEX
    assert CLASSES[int(not_a_tile_only_when_sure(under).argmax())] == "2C"


def test_an_unsure_box_whose_likeliest_face_is_a_blank_or_a_back_is_not_a_tile() -> None:
    """A turned photo's corner or a bare patch of paper read "not a tile" at 0.45 and a blank white dragon or a back
    next: it half looks like one, and it stays not a tile."""
    probs = chances({"NT": 0.45, "WD": 0.4}, {"NT": 0.45, "XX": 0.4}, {"NT": 0.45, "7D": 0.4})
    assert [CLASSES[int(c)] for c in not_a_tile_only_when_sure(probs).argmax(axis=1)] == ["NT", "NT", "7D"]
