"""What the recognizer saw becomes a review the player can correct."""

from __future__ import annotations

from webapp.recognition import review_from_result
from webapp.review import to_hand, tiles_to_check


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
    assert str(hand) == "6C7C7C8C8C9C2DSWNW [5C6C7C] [2D2D] 1S"
    assert any("pair" in p for p in problems)
    assert review.recognised is result
