"""The review state: every correction a player makes, as pure edits with a record."""

from __future__ import annotations

import pytest

from scoring.api import WinMethod
from scoring.errors import InvalidHandError, PungChowError
from webapp import review as rv

HAND = "7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]"


def recognised() -> rv.Review:
    """Fourteen tiles as a reader might see them: one doubtful tile, one set declared."""
    codes = ["6C", "7C", "7C", "8C", "8C", "9C", "SW", "SW", "5C", "6C", "7C", "2D", "2D", "2D"]
    detections = [
        {"code": c, "box": (10 * i, 0, 10 * i + 9, 12), "confidence": 0.97, "alternatives": [(c, 0.97), ("1B", 0.01)]}
        for i, c in enumerate(codes)
    ]
    detections[6] = {"code": "NW", "box": (60, 0, 69, 12), "confidence": 0.41, "alternatives": [("NW", 0.41), ("SW", 0.38), ("WW", 0.1)]}
    review = rv.from_detections(detections, groups=[[11, 12, 13], [8, 9, 10]], winning_index=12)
    return rv.set_circumstances(review, won_by="discard")


def test_typed_hand_round_trips_to_the_scorer() -> None:
    review = rv.from_notation(HAND, winning="2D", won_by="discard")
    hand, problems = rv.to_hand(review)
    assert problems == []
    assert str(hand) == "6C7C7C8C8C9CSWSW [2D2D2D] [5C6C7C]"
    assert hand.winning_tile is not None and hand.winning_tile.code == "2D"
    assert hand.won_by is WinMethod.DISCARD


def test_doubtful_tiles_come_first_with_their_alternatives() -> None:
    review = recognised()
    assert [t.code for t in rv.tiles_to_check(review)] == ["NW"]
    assert rv.tiles_in_review_order(review)[0].code == "NW"
    choices = rv.replacement_choices(review, 6)
    assert choices[:2] == ["SW", "WW"] and "NW" not in choices and len(choices) == 42


def test_replacing_a_tile_fixes_the_hand_and_is_recorded() -> None:
    review = recognised()
    assert rv.to_hand(review)[1] == [], "a misread tile still makes fourteen; only scoring will stumble"
    fixed = rv.replace_tile(review, 6, "SW")
    hand, problems = rv.to_hand(fixed)
    assert problems == []
    assert "SWSW" in str(hand)
    assert fixed.tile(6).confidence is None and fixed.tile(6).source == "corrected"
    assert fixed.corrections[-1].to_dict() == {"action": "replace", "tile": 6, "was": "NW", "now": "SW"}
    assert review.tile(6).code == "NW", "edits never change the review they were given"


def test_add_delete_and_move_tiles() -> None:
    review = rv.from_notation(HAND, winning="2D", won_by="discard")
    added = rv.add_tile(review, "RD")
    assert len(added.tiles) == len(review.tiles) + 1
    assert any("15" in p for p in rv.to_hand(added)[1])
    removed = rv.delete_tile(added, added.tiles[-1].id)
    assert rv.to_hand(removed)[1] == []
    pung = removed.groups[0].id
    moved = rv.move_tile(removed, removed.tiles_in(pung)[0].id, None)
    assert len(moved.groups) == 2
    assert any("pair" in p or "2D2D" in p for p in rv.to_hand(moved)[1])
    assert [c.action for c in moved.corrections] == ["add", "delete", "move"]


def test_moving_the_last_tile_out_drops_the_set() -> None:
    review = rv.from_notation("1B1B1B [2D2D2D]", winner=False)
    gid = review.groups[0].id
    for tile in review.tiles_in(gid):
        review = rv.move_tile(review, tile.id, None)
    assert review.groups == ()


def test_concealed_kong_from_face_down_ends() -> None:
    review = rv.from_detections(
        [{"code": c, "confidence": 0.9} for c in ["XX", "1D", "1D", "XX"]]
        + [{"code": c, "confidence": 0.99} for c in "1B 2B 3B 4B 5B 6B 7B 8B 9B EW EW".split()],
        groups=[[0, 1, 2, 3]],
    )
    with pytest.raises(PungChowError):
        rv.mark_concealed_kong(rv.add_tile(review, "5C", group=0), 0)
    kong = rv.set_circumstances(rv.mark_concealed_kong(review, 0), won_by="wall")
    hand, problems = rv.to_hand(kong)
    assert problems == []
    assert str(hand).endswith("(1D1D1D1D)")
    exposed = rv.set_concealed(kong, 0, False)
    assert "[1D1D1D1D]" in str(rv.to_hand(exposed)[0])


def test_new_set_and_break_up() -> None:
    review = rv.from_notation("2D2D2D 7C8C9C6C7C8CSWSW [5C6C7C]", winning="2D")
    ids = [t.id for t in review.tiles if t.code == "2D"]
    declared = rv.new_group(review, ids)
    assert "[2D2D2D]" in str(rv.to_hand(declared)[0])
    back = rv.dissolve_group(declared, declared.tiles[ids[0]].group)
    assert str(rv.to_hand(back)[0]) == str(rv.to_hand(review)[0])


def test_winning_tile_and_circumstances() -> None:
    review = rv.from_notation(HAND)
    tile = next(t for t in review.tiles if t.code == "SW")
    review = rv.set_winning_tile(review, tile.id)
    review = rv.set_circumstances(review, won_by="wall", seat_wind="S", prevailing_wind="W", flags=["delayed-call"])
    hand = rv.scoreable_hand(review)
    assert (hand.winning_tile.code, hand.won_by, hand.seat_wind, hand.prevailing_wind) == ("SW", WinMethod.WALL, "S", "W")
    assert rv.set_circumstances(review, seat_wind="S") is review, "an unchanged choice is not a correction"
    with pytest.raises(PungChowError):
        rv.set_circumstances(review, flags=["lucky-socks"])


def test_problems_are_named_not_raised_until_scoring() -> None:
    review = rv.from_notation("1B1B", winner=True)
    hand, problems = rv.to_hand(review)
    assert hand is not None and problems
    with pytest.raises(InvalidHandError):
        rv.scoreable_hand(review)


def test_a_missing_tile_is_a_clear_error() -> None:
    with pytest.raises(PungChowError, match="#99"):
        rv.replace_tile(rv.from_notation(HAND), 99, "1B")


def test_not_a_tile_detections_and_guesses_are_dropped() -> None:
    review = rv.from_detections(
        [{"code": "NT", "confidence": 0.9}, {"code": "5D", "confidence": 0.6, "alternatives": [("5D", 0.6), ("NT", 0.3), ("6D", 0.1)]}]
    )
    assert [t.code for t in review.tiles] == ["5D"]
    assert review.tiles[0].alternatives == (("5D", 0.6), ("6D", 0.1))


def test_a_photo_never_guesses_how_the_hand_was_won() -> None:
    review = rv.from_detections([{"code": c, "confidence": 0.99} for c in "1B 2B 3B 4B 5B 6B 7B 8B 9B EW EW EW RD RD".split()])
    assert review.won_by is None
    assert any("how the hand was won" in p for p in rv.to_hand(review)[1])


def test_tiles_are_numbered_in_photo_order_row_by_row() -> None:
    boxes = [(300, 10, 340, 60), (10, 12, 50, 62), (20, 100, 60, 150), (160, 8, 200, 58), (5, 102, 45, 152)]
    review = rv.from_detections([{"code": c, "box": b, "confidence": 0.9} for c, b in zip(["EW", "SW", "WW", "NW", "RD"], boxes)])
    assert [t.code for t in rv.tiles_in_photo_order(review)] == ["SW", "NW", "EW", "RD", "WW"]


def test_a_photo_the_reader_turned_is_numbered_along_its_turned_rows() -> None:
    """Taken with the phone on its side, the hand's row runs up the photo; the reader turned the photo a quarter
    anticlockwise to read it, so the row is numbered from the photo's bottom up, and the column further right
    (the upper row once turned) first."""
    boxes = [(10, 200, 60, 240), (10, 100, 60, 140), (10, 150, 60, 190), (90, 120, 140, 160), (90, 170, 140, 210)]
    detections = [{"code": c, "box": b, "confidence": 0.9} for c, b in zip(["3B", "1B", "2B", "EW", "SW"], boxes)]
    turned = rv.from_detections(detections, turned=90.0)
    assert [t.code for t in rv.tiles_in_photo_order(turned)] == ["EW", "SW", "1B", "2B", "3B"]
    assert [t.code for t in rv.tiles_in_photo_order(rv.from_detections(detections))] == ["1B", "EW", "2B", "SW", "3B"]


def test_a_slanted_row_is_one_row() -> None:
    """A row of tiles climbing 30 degrees across the photo, read level by turning the photo 30 degrees clockwise:
    one row, left to right, though each tile sits higher in the photo than the one before."""
    boxes = [(100 + 52 * k, 300 - 30 * k, 140 + 52 * k, 350 - 30 * k) for k in range(5)]
    detections = [{"code": c, "box": b, "confidence": 0.9} for c, b in zip(["1D", "2D", "3D", "4D", "5D"], boxes)]
    assert [t.code for t in rv.tiles_in_photo_order(rv.from_detections(detections, turned=-30.0))] == ["1D", "2D", "3D", "4D", "5D"]
    assert [t.code for t in rv.tiles_in_photo_order(rv.from_detections(detections))] != ["1D", "2D", "3D", "4D", "5D"]


def test_a_box_set_aside_is_one_tap_from_the_hand() -> None:
    review = rv.from_detections([{"code": "5D", "confidence": 0.9, "in_hand": False}, {"code": "6D", "confidence": 0.9}])
    assert [t.code for t in review.hand_tiles] == ["6D"]
    counted = rv.set_in_hand(review, 0, True)
    assert [t.code for t in counted.hand_tiles] == ["5D", "6D"]
    assert rv.correction_text(counted.corrections[-1]) == "#0 5D counted in this hand"
    with pytest.raises(PungChowError, match="not in this hand"):
        rv.set_winning_tile(review, 0)


def test_the_reader_marks_the_winning_tile_only_when_sure() -> None:
    detections = [{"code": "5D", "confidence": 0.95}, {"code": "6D", "confidence": 0.3}]
    assert rv.from_detections(detections, winning_index=0).winning_from_reader
    assert rv.from_detections(detections, winning_index=1).winning_tile is None


def test_corrections_read_as_sentences() -> None:
    fixed = rv.replace_tile(recognised(), 6, "SW")
    assert rv.correction_text(fixed.corrections[-1]) == "#6 was read as NW, it is SW"
    assert rv.correction_text(rv.Correction("circumstances", {"won_by": "wall"})) == "won by: wall"


def test_the_wrong_group_taken_for_the_hand_is_swapped_in_one_step() -> None:
    caption = [{"code": c, "confidence": 0.5} for c in ("EW", "NW")]
    row = [{"code": c, "confidence": 0.9, "in_hand": False} for c in ("1B", "2B", "3B")]
    swapped = rv.swap_aside(rv.from_detections(caption + row))
    assert [t.code for t in swapped.hand_tiles] == ["1B", "2B", "3B"]
    assert rv.correction_text(swapped.corrections[-1]) == "counted #2, #3, #4 in this hand and set aside #0, #1"
