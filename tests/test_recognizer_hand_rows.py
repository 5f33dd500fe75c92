"""Only the hand's tiles are counted in the hand: keys, dominoes and counters beside it are set aside, still shown.

A player photographs a finished hand on a laptop, or beside a game of dominoes; the reader boxes the keys too and
reads a light key as a white dragon. The hand is the row or rows of tiles the photo is about: every other box is set
aside (a group not in the hand, saying why), so the page and ``--json`` still show it and one tap counts it back in.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from pungchow_data.distractors import draw_scene
from pungchow_data.faces import missing_fonts
from recognizer.detections import Detections
from recognizer.group import GroupKind
from recognizer.hand_rows import NOT_IN_THE_ROWS, group_again, group_the_hand, hand_rows
from recognizer.labels import CLASSES
from recognizer.pipeline import recognize

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from bench_cut_closeups import SAMPLE, cut, hand_row
from bench_distractors import judge

TILE_W, TILE_H = 40.0, 54.0
#: The drawn scenes' tiles are drawn with the renderer's fonts.
NEEDS_FONTS = pytest.mark.skipif(missing_fonts() is not None, reason=f"the drawn hand needs the renderer's fonts: {missing_fonts()}")


def read_as(boxes: list[tuple[float, float, float, float]], codes: list[str], sure: float = 0.9) -> Detections:
    """Boxes the classifier read as ``codes``, each at ``sure``."""
    n = len(boxes)
    idx = np.array([CLASSES.index(c) for c in codes], np.int64)
    probs = np.full((n, len(CLASSES)), (1 - sure) / (len(CLASSES) - 1), np.float32)
    probs[np.arange(n), idx] = sure
    top3 = np.argsort(-probs, axis=1)[:, :3]
    return Detections(np.array(boxes, np.float32), np.full(n, 0.9, np.float32), idx, probs[np.arange(n), idx], top3,
                      np.take_along_axis(probs, top3, 1), probs=probs)


def a_row(codes: list[str], x: float, y: float, w: float = TILE_W, h: float = TILE_H) -> list[tuple[float, float, float, float]]:
    return [(x + k * (w + 1), y, w, h) for k in range(len(codes))]


HAND = ["1B", "9B", "1C", "9C", "1D", "9D", "EW", "SW", "WW", "NW", "RD", "GD", "WD", "WD"]


def test_a_keyboard_of_white_dragons_below_the_thirteen_orphans_is_set_aside() -> None:
    keys = [(20 + c * 46, 200 + r * 46, 40, 40) for r in range(4) for c in range(14)]
    dets = read_as(a_row(HAND, 20, 60) + keys, HAND + ["WD"] * len(keys), sure=0.7)
    rows = hand_rows(dets, (600, 800))
    assert rows.in_rows[: len(HAND)].all()
    assert not rows.in_rows[len(HAND):].any()


def test_a_keyboards_first_row_boxed_in_twos_just_below_the_hand_is_set_aside_with_the_keyboard() -> None:
    """Drawn keyboard scene 3403: the keys nearest the hand are boxed two at a time, as wide as a tile laid sideways,
    too far apart to make a row, each within reach of the hand and read as a tile (1C). They touch the rest of the
    keyboard, set aside, so they are keys, not lone tiles; a flower laid apart by the hand still joins it."""
    first = [(20 + 140 * k, 150, 70, 40) for k in range(4)]
    keys = [(20 + c * 46, 196 + r * 46, 40, 40) for r in range(3) for c in range(14)]
    flower = (640, 60, TILE_W, TILE_H)
    dets = read_as(a_row(HAND, 20, 60) + [flower] + first + keys, HAND + ["1F"] + ["1C"] * len(first) + ["WD"] * len(keys), sure=0.6)
    rows = hand_rows(dets, (400, 800))
    assert rows.in_rows[: len(HAND) + 1].all()
    assert not rows.in_rows[len(HAND) + 1:].any()


def test_a_lone_tile_touching_two_counters_set_aside_still_joins_the_hand() -> None:
    """A flower laid apart by the hand, two stone counters against it: two boxes set aside are no keyboard."""
    flower = (640, 60, TILE_W, TILE_H)
    counters = [(682, 62, 22, 22), (682, 86, 22, 22)]
    dets = read_as(a_row(HAND, 20, 60) + [flower] + counters, HAND + ["1F", "1D", "WD"], sure=0.6)
    assert list(hand_rows(dets, (400, 800)).aside) == [len(HAND) + 1, len(HAND) + 2]


def test_a_flower_laid_apart_and_a_set_in_a_second_row_stay_in_the_hand() -> None:
    concealed = ["2B", "3B", "4B", "5C", "5C", "5C", "7D", "8D", "9D", "EW", "EW"]
    dets = read_as(a_row(concealed, 20, 60) + a_row(["RD"] * 3, 20, 150) + [(600, 160, TILE_W, TILE_H)],
                   concealed + ["RD"] * 3 + ["1F"])
    assert hand_rows(dets, (600, 800)).in_rows.all()


def test_an_exposed_chow_with_one_tile_boxed_in_part_stays_in_the_hand() -> None:
    """Harr's Example 1 read with no set: under the hand, the exposed chow 5C 6C 7C, its 6C boxed square round its
    face. Its faces make a set, so the whole row joins; the same boxes reading no set are two tiles and a stray, set
    aside for the player to count back in."""
    hand = ["7C", "8C", "9C", "6C", "7C", "8C", "SW", "SW", "2D", "2D", "2D"]
    tall = 58.0  # the print's tiles, 1.45 times as tall as wide; the part-boxed 6C is square
    chow = [(20, 140, TILE_W, tall), (61, 150, TILE_W, TILE_W), (102, 140, TILE_W, tall)]
    dets = read_as(a_row(hand, 20, 60, h=tall) + chow, hand + ["5C", "6C", "7C"])
    assert hand_rows(dets, (400, 800)).in_rows.all()
    dets = read_as(a_row(hand, 20, 60, h=tall) + chow, hand + ["5C", "1D", "WD"])
    assert list(hand_rows(dets, (400, 800)).aside) == [len(hand), len(hand) + 1, len(hand) + 2]


def test_counters_half_a_tile_across_are_set_aside_however_they_are_read() -> None:
    counters = [(100 + 60 * k, 300, 22, 22) for k in range(5)]
    dets = read_as(a_row(HAND, 20, 60) + counters, HAND + ["1D", "WD", "1D", "2D", "WD"])
    assert list(hand_rows(dets, (600, 800)).aside) == list(range(len(HAND), len(HAND) + 5))


def test_a_close_up_of_a_pung_keeps_every_tile() -> None:
    dets = read_as([(10, 10, 300, 400), (320, 10, 300, 400), (630, 10, 150, 200)], ["7D", "7D", "7D"])
    assert hand_rows(dets, (420, 800)).in_rows.all()


def test_a_tile_the_photos_edge_cuts_is_judged_by_the_side_it_shows() -> None:
    dets = read_as(a_row(HAND[:8], 0, 60)[1:] + [(0, 60, 15, TILE_H)], HAND[1:8] + ["1B"])
    assert hand_rows(dets, (300, 400)).in_rows.all()


def test_the_set_aside_boxes_are_one_group_not_in_the_hand_and_stay_aside_when_regrouped() -> None:
    keys = [(20 + c * 46, 200 + r * 46, 40, 40) for r in range(3) for c in range(10)]
    dets = read_as(a_row(HAND, 20, 60) + keys, HAND + ["WD"] * len(keys), sure=0.7)
    grouped, groups, aside = group_the_hand(dets, (600, 800))
    assert len(grouped) == len(dets)  # nothing dropped: the player sees every box
    apart = [g for g in groups if g.aside]
    assert len(apart) == 1 and not apart[0].in_hand and apart[0].kind is GroupKind.OTHER
    assert apart[0].aside == NOT_IN_THE_ROWS and set(apart[0].members) == set(aside.tiles) == set(range(len(HAND), len(dets)))
    assert "set aside: not in the hand's rows" in aside.note([f"#{k}" for k in range(len(dets))])[0]
    _, again = group_again(grouped, groups)
    assert [set(g.members) for g in again if g.aside] == [set(aside.tiles)]
    assert not any(k in g.members for g in again if g.in_hand for k in aside.tiles)


@NEEDS_FONTS
@pytest.mark.parametrize("seed", [3400, 3403])  # 3403: the keyboard's first row, just below the hand, boxed in ones and twos
def test_a_drawn_hand_beside_a_laptop_keyboard_counts_no_key_in_the_hand(seed: int, tmp_path: Path) -> None:
    """The reader is taught that keys are no tiles (run real-lite0-r4): of a keyboard's hundred-odd keys, which the
    detector boxes, at most a few are kept; none is counted in the hand, and any kept is set aside and named."""
    import cv2

    drawn = draw_scene("keyboard", seed)
    photo = tmp_path / "keyboard.jpg"
    cv2.imwrite(str(photo), drawn.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    res = recognize(photo)
    got = judge(drawn, res)
    assert got.stray <= 5, f"{got.stray} keys kept as tiles"  # the reader before kept 123 a photo
    assert got.stray_in_hand <= 1, f"{got.stray_in_hand} keys counted in the hand"
    assert got.boxed_in_hand >= 0.9 * got.tiles
    record = res.to_json()
    if got.stray > got.stray_in_hand:
        assert any(g.get("set_aside") == NOT_IN_THE_ROWS and not g["in_hand"] for g in record["groups"])
        assert any("set aside: not in the hand's rows" in p for p in record["problems"])


def test_the_page_names_the_boxes_set_aside_and_one_tap_counts_one_back_in() -> None:
    """Thirty light squares read as white dragons below the thirteen orphans: the page shows each, set aside with the
    reason, from the reading and from its saved record, and one tap counts one back into the hand."""
    from recognizer.hand import Recognition, read_hand
    from webapp.recognition import review_from_result
    from webapp.review import Review, set_in_hand

    keys = [(20 + c * 46, 200 + r * 46, 40, 40) for r in range(3) for c in range(10)]
    dets, groups, aside = group_the_hand(read_as(a_row(HAND, 20, 60) + keys, HAND + ["WD"] * len(keys), sure=0.7), (600, 800))
    built = read_hand(dets, groups)
    res = Recognition(dets, groups, built.hand, aside.note([f"#{k}" for k in range(len(dets))]), (800, 600), {}, trace=built.trace)
    for review in (Review.from_recognition(res), review_from_result(res.to_json())):  # read now, and from the saved record
        apart = [t for t in review.tiles if not t.in_hand]
        assert len(apart) == len(keys) and all(t.aside == NOT_IN_THE_ROWS for t in apart)
        assert apart[0].label.endswith("set aside: not in the hand's rows")
        back = set_in_hand(review, apart[0].id, True)
        assert back.tile(apart[0].id).in_hand and back.tile(apart[0].id).aside == ""
        assert len(back.hand_tiles) == len(review.hand_tiles) + 1


def a_gap_read_as_a_back(row: Detections, at: int, *, detector: float, face: float, back: float = 0.9) -> Detections:
    """``row`` with box ``at`` read as a tile's back (``back``), "not a tile" 0.03 and its best face (3F) at ``face``, the
    detector ``detector`` sure of it: a tile-wide patch of brown table between two sets, as drawn scene 3402 shows."""
    probs = row.probs.copy()  # type: ignore[union-attr]
    probs[at] = 0.0
    probs[at, CLASSES.index("XX")], probs[at, CLASSES.index("NT")], probs[at, CLASSES.index("3F")] = back, 0.03, face
    top3 = np.argsort(-probs, axis=1)[:, :3]
    codes, scores = row.codes.copy(), row.scores.copy()
    codes[at], scores[at] = CLASSES.index("XX"), detector
    return row.with_(codes=codes, scores=scores, confidence=probs[np.arange(len(row)), codes], top3=top3,
                     top3_p=np.take_along_axis(probs, top3, 1), probs=probs)


LAID = ["5C", "5C", "5C", "7D", "8D", "9D", "XX", "3D", "4D", "5D", "2B", "2B", "2B", "6B", "6B"]
GAP = LAID.index("XX")


def test_a_patch_of_table_between_two_sets_read_as_a_back_is_not_a_tile_of_the_hand() -> None:
    """Fourteen tiles in a row and, between the 7D 8D 9D chow and the 3D 4D 5D chow, a gap the width of a tile that the
    detector is unsure of (0.4) and the reader takes for a back (0.9), no face likelier than "not a tile": it leaves
    the reading, and the note says so. Before, it was read as its best face, a flower at 0.003, counted in the hand."""
    row = read_as(a_row(LAID, 20, 60), LAID)
    grouped, groups, aside = group_the_hand(a_gap_read_as_a_back(row, GAP, detector=0.4, face=0.003), (400, 800))
    assert len(grouped) == len(LAID) - 1 and "XX" not in [CLASSES[int(c)] for c in grouped.codes]
    assert sum(len(g.members) for g in groups if g.in_hand) == 14
    assert aside.table == 1 and "not counted" in aside.note([f"#{k}" for k in range(len(grouped))])[0]


@pytest.mark.parametrize(("detector", "face", "back", "read"), [(0.8, 0.003, 0.9, "XX"), (0.4, 0.05, 0.9, "XX"), (0.4, 0.3, 0.6, "3F")])
def test_a_back_the_detector_is_sure_of_or_with_a_likelier_face_stays_a_tile(detector: float, face: float, back: float,
                                                                            read: str) -> None:
    """The same box, but the detector sure of it (a tile lying face down, which the player must turn), or its best
    face likelier than "not a tile": it stays in the reading. Read surely as a back (0.9), it stays a back for the
    player to turn (a close-up of a kong's end read its yellow back at 0.90 as a season at 0.005); read unsurely (0.6),
    it is read as its best face (a blank white dragon reads as a back as readily)."""
    row = read_as(a_row(LAID, 20, 60), LAID)
    grouped, _, aside = group_the_hand(a_gap_read_as_a_back(row, GAP, detector=detector, face=face, back=back), (400, 800))
    assert len(grouped) == len(LAID) and aside.table == 0
    assert CLASSES[int(grouped.codes[GAP])] == read


CONCEALED = ["5B", "5B", "5D", "6D", "7D"]
EXPOSED_WITH_A_GAP = ["8D", "8D", "8D", "XX", "7D", "8D", "9D"]


def a_hand_laid_in_two_rows(exposed: list[str]) -> Detections:
    """The concealed tiles in one row, the exposed sets below, a tile's gap between them as laid (drawn scene 3402)."""
    boxes = a_row(CONCEALED, 20, 60) + [(20 + k * 47, 150, TILE_W, TILE_H) for k in range(len(exposed))]
    return read_as(boxes, CONCEALED + exposed)


def test_a_patch_of_table_beside_a_pung_does_not_make_it_a_kong() -> None:
    """The gap between an exposed pung and chow, read as a back the detector is unsure of: beside the pung it looks like
    a kong's one face-down end (drawn text scene 3402 read 8D 8D 8D 8D). A concealed kong shows both ends face down, so
    one unsure back by three alike is bare table, and the pung stays a pung."""
    gap = len(CONCEALED) + EXPOSED_WITH_A_GAP.index("XX")
    grouped, groups, aside = group_the_hand(a_gap_read_as_a_back(a_hand_laid_in_two_rows(EXPOSED_WITH_A_GAP), gap,
                                                                 detector=0.4, face=0.003), (400, 800))
    assert aside.table == 1 and "XX" not in [CLASSES[int(c)] for c in grouped.codes]
    assert [g.kind for g in groups if g.in_hand] == [GroupKind.CONCEALED, GroupKind.PUNG, GroupKind.CHOW]


def test_a_concealed_kong_with_both_ends_face_down_keeps_its_backs_however_unsure() -> None:
    exposed = ["XX", "8D", "8D", "XX", "7D", "8D", "9D"]
    row = a_hand_laid_in_two_rows(exposed)
    for end in (0, 3):
        row = a_gap_read_as_a_back(row, len(CONCEALED) + end, detector=0.4, face=0.003)
    grouped, groups, aside = group_the_hand(row, (400, 800))
    assert aside.table == 0 and len(grouped) == len(CONCEALED) + len(exposed)
    assert [g.kind for g in groups if g.in_hand] == [GroupKind.CONCEALED, GroupKind.KONG, GroupKind.CHOW]


@pytest.mark.parametrize(("below", "joins"), [(3.0, True), (10.0, False)])
def test_a_row_apart_joins_the_hand_only_within_reach_of_it(below: float, joins: bool) -> None:
    """Drawn keyboard scene 3401: three keys at the photo's foot, ten tile heights below the hand, read as a pung of
    green dragons surely enough to join as a printed page's group apart does. A hand lies in one place on the table:
    the same row three tile heights below it (a page's group across a caption) joins; ten below, it is set aside."""
    dets = read_as(a_row(HAND, 20, 60) + a_row(["GD"] * 3, 300, 60 + (1 + below) * TILE_H), HAND + ["GD"] * 3, sure=0.6)
    rows = hand_rows(dets, (1200, 800))
    assert rows.in_rows[: len(HAND)].all()
    assert bool(rows.in_rows[len(HAND):].all()) is joins and bool(rows.in_rows[len(HAND):].any()) is joins


@NEEDS_FONTS
def test_bare_table_found_once_the_rows_are_grouped_again_leaves_the_reading_too(tmp_path: Path) -> None:
    """Drawn keyboard scene 3402: two gaps between sets are read as backs. The first grouping set one row apart, and
    only its other gap was taken for table; grouped again the row joined the hand with its gap, which the hand decoder
    then read as a flower (2F at 0.003). Each grouping is searched for table until none is left: the hand is right."""
    import cv2

    drawn = draw_scene("keyboard", 3402)
    photo = tmp_path / "keyboard.jpg"
    cv2.imwrite(str(photo), drawn.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    got = judge(drawn, recognize(photo))
    assert got.stray_in_hand == 0 and got.hand_right


def test_two_rows_apart_beside_each_other_join_as_a_printed_pages_other_example() -> None:
    """Pages 47 and 49 print a second example's rows five to ten tile heights from the first: rows of tiles beside one
    another are the page's tiles, however far from the hand's first rows; one row alone that far is not."""
    far = 60 + 11 * TILE_H
    dets = read_as(a_row(HAND, 20, 60) + a_row(["GD"] * 3, 300, far) + a_row(["8C"] * 3, 300, far + TILE_H + 20),
                   HAND + ["GD"] * 3 + ["8C"] * 3, sure=0.6)
    assert hand_rows(dets, (1200, 800)).in_rows.all()


@pytest.mark.parametrize(("below", "joins"), [(3.0, True), (8.0, False)])
def test_a_lone_tile_read_surely_joins_the_hand_only_within_reach_of_it(below: float, joins: bool) -> None:
    """Drawn dominoes scene 3406: one domino of a row of them, eight tile heights from the hand, read as a 5 of dots
    surely enough (0.63) to join as a flower laid apart does, and taken for the winning tile. The real photos' lone
    tiles lie at most 3.6 tile heights from the rows: three below, it joins; eight below, it is set aside."""
    dets = read_as(a_row(HAND, 20, 60) + [(300, 60 + (1 + below) * TILE_H, TILE_W, TILE_H)], [*HAND, "1F"], sure=0.7)
    assert bool(hand_rows(dets, (1200, 800)).in_rows[-1]) is joins


def test_a_close_up_of_a_kongs_face_down_end_and_two_of_its_faces_reads_the_back_as_a_back() -> None:
    """The committed sample as a 12 MP phone takes it, cut so that its concealed kong's first face-down end and the two
    1 bamboo beside it fill the frame: the back is read at 0.90, a season at 0.005. A lone back in a row was taken for
    its best face, and the close-up read 4S 1B 1B; read surely, it stays a back, and the player is asked to turn it."""
    import cv2

    from recognizer.image import load_photo

    rgb = cv2.resize(load_photo(SAMPLE), None, fx=4.5, fy=4.5, interpolation=cv2.INTER_CUBIC)
    whole = recognize(rgb).detections
    row = hand_row(whole)
    image, _ = cut(rgb, whole.boxes[row[:3]])
    got = recognize(image)
    assert [whole.code(int(k)) for k in row[:3]] == ["XX", "1B", "1B"]
    assert sorted(got.detections.code(k) for k in range(len(got.detections))) == ["1B", "1B", "XX"]
    assert any("face-down" in p for p in got.problems)
