"""Meld grouping on laid-out hands with known answers (no model needed)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from recognizer.detections import Detections
from recognizer.group import group
from recognizer.hand import build_hand
from recognizer.labels import CLASSES

W, H = 40.0, 54.0


def layout(rows: list[tuple[float, list[str]]], angle_deg: float = 0.0, origin: tuple[float, float] = (300.0, 200.0)) -> Detections:
    """Tiles laid in rows: each row is (y, "groups" separated by '|'); groups touch, a gap of 0.8 tile between them."""
    boxes, codes = [], []
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    for y, groups in rows:
        x = 0.0
        for g in groups:
            for code in g.split():
                cx, cy = rot @ np.array([x + W / 2, y + H / 2]) + origin
                boxes.append([cx - W / 2, cy - H / 2, W, H])
                codes.append(CLASSES.index(code))
                x += W
            x += 0.8 * W
    return Detections(np.array(boxes), np.ones(len(boxes)), codes=np.array(codes))


def recognise(dets: Detections) -> tuple[str, str | None, list[str]]:
    d, groups = group(dets)
    hand, problems = build_hand(d, groups)
    assert (d.group >= 0).all(), "every tile belongs to a group"
    return str(hand), (str(hand.winning_tile) if hand.winning_tile else None), problems


def test_concealed_row_and_exposed_sets() -> None:
    d = layout([(0, ["1B 2B 3B 4C 5C 6C 7D 7D"]), (80, ["2D 2D 2D", "EW EW EW"])])
    assert recognise(d) == ("1B2B3B4C5C6C7D7D [2D2D2D] [EWEWEW]", None, [])


def test_face_down_ends_make_a_concealed_kong() -> None:
    d = layout([(0, ["1B 2B 3B 4C 5C 6C 7D 7D"]), (80, ["XX 9D 9D XX", "RD RD RD"])])
    text, _, problems = recognise(d)
    assert text == "1B2B3B4C5C6C7D7D (9D9D9D9D) [RDRDRD]"
    assert problems == []


def read_as(d: Detections, readings: dict[int, list[tuple[str, float]]]) -> Detections:
    """The detections with the classifier's top-3 (code, chance) given for some tiles, read as their first."""
    codes, conf, top3, top3_p = d.codes.copy(), d.confidence.copy(), d.top3.copy(), d.top3_p.copy()
    for k, top in readings.items():
        top3[k] = [CLASSES.index(c) for c, _ in top]
        top3_p[k] = [p for _, p in top]
        codes[k], conf[k] = top3[k, 0], top3_p[k, 0]
    return d.with_(codes=codes, confidence=conf, top3=top3, top3_p=top3_p)


def test_a_concealed_kongs_face_up_tiles_read_apart_take_the_face_they_share() -> None:
    """XX 5C 1B XX: the two middles of a concealed kong are one face; 1B is likelier for the pair (0.35 x 0.37
    against 0.36 x 0.27), and each keeps its own low chance of it, so the page asks the player to look."""
    d = layout([(0, ["2B 3B 4B 4C 5C 6C 7D 7D"]), (80, ["XX 9D 9D XX", "RD RD RD"])])
    d = read_as(d, {9: [("5C", 0.36), ("1B", 0.35), ("1D", 0.08)], 10: [("1B", 0.37), ("5C", 0.27), ("1D", 0.1)]})
    text, _, problems = recognise(d)
    assert text == "2B3B4B4C5C6C7D7D (1B1B1B1B) [RDRDRD]"
    assert problems == []
    read, _ = group(d)
    assert [read.code(k) for k in (9, 10)] == ["1B", "1B"]
    assert read.confidence[9] == pytest.approx(0.35) and read.confidence[10] == pytest.approx(0.37)


def test_a_kongs_face_up_tiles_sharing_no_likely_face_stay_as_read() -> None:
    d = layout([(0, ["2B 3B 4B 4C 5C 6C 7D 7D"]), (80, ["XX 9D 9D XX", "RD RD RD"])])
    d = read_as(d, {9: [("5C", 0.6), ("6C", 0.2), ("1D", 0.1)], 10: [("1B", 0.7), ("2B", 0.2), ("3B", 0.05)]})
    read, _ = group(d)
    assert [read.code(k) for k in (9, 10)] == ["5C", "1B"]
    _, _, problems = recognise(d)
    assert problems, "two different faces between face-down ends are not scored as a kong"


def test_a_kongs_face_up_tiles_take_a_playing_face_never_a_flower() -> None:
    """A bird read as a flower painting: 1F is likelier for the pair (0.5 x 0.35 against 0.3 x 0.4), but a set has one
    of each flower, so four never make a kong; the pair takes 1B."""
    d = layout([(0, ["2B 3B 4B 4C 5C 6C 7D 7D"]), (80, ["XX 9D 9D XX", "RD RD RD"])])
    d = read_as(d, {9: [("1F", 0.5), ("1B", 0.3), ("1S", 0.1)], 10: [("1B", 0.4), ("1F", 0.35), ("8C", 0.1)]})
    text, _, problems = recognise(d)
    assert text == "2B3B4B4C5C6C7D7D (1B1B1B1B) [RDRDRD]" and problems == []


def test_the_tiles_between_two_concealed_kongs_are_not_a_kong() -> None:
    """XX 5C 5C XX 2B 3B XX 9D 9D XX: the window XX 2B 3B XX spans one kong's end and the next one's start."""
    d = layout([(0, ["1B 2B 3B 7D 7D"]), (80, ["XX 5C 5C XX 2B 3B XX 9D 9D XX"])])
    d = read_as(d, {9: [("2B", 0.55), ("3B", 0.3), ("1B", 0.1)], 10: [("3B", 0.6), ("2B", 0.3), ("4B", 0.05)]})
    read, _ = group(d)
    assert [read.code(k) for k in (9, 10)] == ["2B", "3B"]


def test_a_kongs_face_up_tiles_both_read_surely_stay_as_read() -> None:
    """Two sure and different readings are not mended by the rule: the hand reports the problem for the player."""
    d = layout([(0, ["2B 3B 4B 4C 5C 6C 7D 7D"]), (80, ["XX 9D 9D XX", "RD RD RD"])])
    d = read_as(d, {9: [("5C", 0.9), ("1B", 0.05), ("1D", 0.02)], 10: [("1B", 0.85), ("5C", 0.1), ("1D", 0.02)]})
    read, _ = group(d)
    assert [read.code(k) for k in (9, 10)] == ["5C", "1B"]


def test_winning_tile_set_apart_and_bonus_tiles() -> None:
    d = layout([(0, ["1B 2B 3B 4C 5C 6C 7D 8D 9D EW", "EW"]), (80, ["2D 2D 2D", "1F 3S"])])
    text, winning, problems = recognise(d)
    assert text == "1B2B3B4C5C6C7D8D9DEWEW [2D2D2D] 1F3S"
    assert winning == "EW"
    assert problems == []


def test_touching_sets_in_one_row_are_split() -> None:
    d = layout([(0, ["1B 2B 3B 4C 5C 6C 7D 7D"]), (80, ["2D 2D 2D 3C 4C 5C"])])
    assert recognise(d)[0] == "1B2B3B4C5C6C7D7D [2D2D2D] [3C4C5C]"


@pytest.mark.parametrize("angle", [-25.0, 15.0, 90.0])
def test_rotated_photo_groups_the_same(angle: float) -> None:
    d = layout([(0, ["1B 2B 3B 4C 5C 6C 7D", "7D"]), (80, ["2D 2D 2D", "1F"])], angle_deg=angle)
    text, winning, _ = recognise(d)
    assert text == "1B2B3B4C5C6C7D7D [2D2D2D] 1F"
    assert winning == "7D"


def test_incomplete_hand_is_reported_not_raised() -> None:
    d = layout([(0, ["1B 2B 3B 4C"])])
    text, _, problems = recognise(d)
    assert text == "1B2B3B4C"
    assert any("14 tiles" in p for p in problems)


def test_detections_validate_and_slice() -> None:
    d = layout([(0, ["1B 2B 3B"])])
    assert len(d[d.codes == CLASSES.index("2B")]) == 1
    with pytest.raises(ValueError):
        Detections(np.zeros((2, 4)), np.ones(2))
    with pytest.raises(ValueError):
        Detections(np.ones((2, 4)), np.ones(3))
