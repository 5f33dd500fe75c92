"""What the recognizer saw becomes a review the player can correct."""

from __future__ import annotations

import pytest

from scoring.tiles import ALL_CODES
from tests.recognitions import misread_recognition
from webapp.recognition import review_from_result
from webapp.review import Review, tiles_to_check, to_hand


def tile(index: int, code: str, confidence: float = 0.98, top3: list[tuple[str, float]] | None = None) -> dict:
    return {"index": index, "box": [10.0 * index, 5.0, 9.0, 12.0], "code": code, "confidence": confidence,
            "top3": [{"code": c, "p": p} for c, p in (top3 or [(code, confidence)])]}


def test_recognition_json_becomes_a_review() -> None:
    codes = ["6C", "7C", "7C", "8C", "8C", "9C", "SW", "SW", "5C", "6C", "7C", "2D", "2D", "2D", "1S", "4B"]
    tiles = [tile(i, c) for i, c in enumerate(codes)]
    tiles[7] = tile(7, "NW", 0.42, [("NW", 0.42), ("SW", 0.40), ("NT", 0.1)])
    result = {
        "tiles": tiles,
        "groups": [
            {"id": 1, "kind": "concealed", "tiles": [0, 1, 2, 3, 4, 5, 6, 7], "concealed": True, "in_hand": True},
            {"id": 2, "kind": "chow", "tiles": [8, 9, 10], "concealed": False, "in_hand": True},
            {"id": 3, "kind": "pung", "tiles": [11, 12], "concealed": False, "in_hand": True},
            {"id": 4, "kind": "winning", "tiles": [13], "concealed": True, "in_hand": True},
            {"id": 5, "kind": "bonus", "tiles": [14], "concealed": False, "in_hand": True},
            {"id": 6, "kind": "other", "tiles": [15], "concealed": False, "in_hand": False},
        ],
    }
    review = review_from_result(result)
    assert len(review.tiles) == 16, "every box found is shown"
    assert [t.code for t in review.tiles if not t.in_hand] == ["4B"], "the tile beside the hand is set aside, not counted"
    assert review.tiles[0].box == (0, 5, 9, 17), "boxes arrive as x, y, w, h"
    assert review.winning_tile == 13 and review.tile(13).group is None
    assert [t.code for t in tiles_to_check(review)] == ["NW"]
    assert review.tile(7).alternatives == (("NW", 0.42), ("SW", 0.40))
    hand, problems = to_hand(review)
    assert str(hand) == "6C7C7C8C8C9CSWNW [5C6C7C] [2D2D2D]* 1S", "the winning 2D set apart completes the pung laid beside it"
    assert not any("pair" in p for p in problems)
    assert review.recognised is result


def test_the_typed_recognition_and_its_json_give_the_same_review() -> None:
    recognition = misread_recognition()
    typed = Review.from_recognition(recognition)
    assert [(t.code, t.group, t.in_hand) for t in typed.tiles][6:8] == [("SW", None, True), ("NW", None, True)]
    assert [g.concealed for g in typed.groups] == [False, False]
    assert [t.code for t in tiles_to_check(typed)] == ["NW", "8C"], "below 0.80, least sure first"
    from_json = review_from_result(recognition.to_json())
    def seen(review: Review) -> list[tuple]:
        return [(t.id, t.code, t.box, t.group, t.in_hand, [c for c, _ in t.alternatives]) for t in review.tiles]

    assert seen(typed) == seen(from_json) and (typed.groups, typed.winning_tile) == (from_json.groups, from_json.winning_tile)
    assert [t.confidence for t in typed.tiles] == pytest.approx([t.confidence for t in from_json.tiles], abs=1e-3)
    assert typed.recognised == recognition.to_json()


def test_the_real_recognizer_s_result_becomes_a_review() -> None:
    from tests.test_webapp_app import real_reader_and_photo

    found = real_reader_and_photo()
    if found is None:
        pytest.skip("the recognizer's model or the sample photos (tests/fixtures/photos) are not installed")
    reader, photo = found
    from recognizer.image import load_photo

    recognition = reader.pipeline.recognize(load_photo(photo))
    review = Review.from_recognition(recognition)
    assert len(review.tiles) == sum(1 for k in range(len(recognition.detections)) if recognition.detections.code(k) in ALL_CODES)
    hand, _ = to_hand(review)
    assert hand is not None and sorted(hand.tiles) == sorted(recognition.hand.tiles)
