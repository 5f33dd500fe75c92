"""The winning tile shown by an arrow: Harr prints a small arrow over the tile that completed each example hand.

Drawn here: a row of light tiles on white paper, each with a few dark strokes on its face, and captions and arrows as
a printed page has them. The arrow's tile is the winning tile; caption letters, a stroke with no head, an arrow
between two tiles and a second arrow mark none. Then Harr's own Example 3 photo (skipped without ../shared): he drew
the red dragon that completed the pair, and the hand scores 52, not the 50 it scores with no winning tile.
"""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from pungchow_data.faces import SHARED_DIR
from recognizer.hand import ARROW
from recognizer.marks import winning_mark
from recognizer.pipeline import recognize
from scoring.rulesets import score_hand
from tests.test_webapp_app import app
from webapp import review as rv

__all__ = ["app"]  # the page fixture, shared with the page's own tests

BOOK = SHARED_DIR / "realdev" / "book-1922"
PAPER, FACE, INK = 250, 228, 30


def page(tile_h: int, count: int = 8, gap: float = 0.3) -> tuple[np.ndarray, np.ndarray]:
    """A printed row of ``count`` tiles ``tile_h`` pixels tall, two tile heights below the page's top edge."""
    tile_w = round(0.72 * tile_h)
    step = round(tile_w * (1 + gap))
    img = np.full((3 * tile_h + 20, step * count + tile_w, 3), PAPER, np.uint8)
    boxes = np.array([[tile_w // 2 + k * step, 2 * tile_h, tile_w, tile_h] for k in range(count)], np.float32)
    for x, y, w, h in boxes.astype(int):
        cv2.rectangle(img, (x, y), (x + w, y + h), (FACE,) * 3, -1)
        cv2.rectangle(img, (x, y), (x + w, y + h), (200,) * 3, 1)
        for k in range(3):  # the face's own strokes: a bamboo's stalks, upright and dark
            cv2.line(img, (x + w * (k + 1) // 4, y + h // 5), (x + w * (k + 1) // 4, y + 4 * h // 5), (INK,) * 3, max(1, w // 14))
    return img, boxes


def arrow(img: np.ndarray, x: float, top: float, tip: float, *, head: bool = True, filled: bool = True) -> None:
    """A printer's arrow from ``top`` down to ``tip`` at column ``x``: a hairline shaft and a head, filled or open."""
    length = tip - top
    cv2.line(img, (round(x), round(top)), (round(x), round(tip)), (INK,) * 3, 1)
    if not head:
        return
    barb = 0.35 * length
    wing = [(round(x - 0.4 * barb), round(tip - barb)), (round(x), round(tip)), (round(x + 0.4 * barb), round(tip - barb))]
    if filled:
        cv2.fillPoly(img, [np.array(wing + [(round(x), round(tip - 0.7 * barb))], np.int32)], (INK,) * 3)
    else:
        cv2.polylines(img, [np.array(wing, np.int32)], False, (INK,) * 3, 1)


def every_tile(boxes: np.ndarray) -> np.ndarray:
    return np.ones(len(boxes), bool)


@pytest.mark.parametrize("tile_h", [50, 70, 110])
@pytest.mark.parametrize("filled", [True, False])
def test_an_arrow_over_a_tile_marks_it_as_the_winning_tile(tile_h: int, filled: bool) -> None:
    img, boxes = page(tile_h)
    x, y, w, h = boxes[5]
    arrow(img, x + w / 2, y - 0.7 * h, y - 0.1 * h, filled=filled)
    assert winning_mark(img, boxes, every_tile(boxes)) == 5


def test_a_box_drawn_a_little_tall_over_the_arrow_s_tip_still_has_its_arrow() -> None:
    img, boxes = page(70)
    x, y, w, h = boxes[2]
    arrow(img, x + w / 2, y - 0.7 * h, y - 0.05 * h)
    taller = boxes + np.array([0, -0.15 * h, 0, 0.15 * h], np.float32)  # a set's one size for every box, a bit tall
    assert winning_mark(img, taller, every_tile(boxes)) == 2


def test_a_page_with_no_arrow_marks_nothing_and_caption_letters_are_not_arrows() -> None:
    img, boxes = page(60)
    assert winning_mark(img, boxes, every_tile(boxes)) is None
    cv2.putText(img, "Drew loose tile to complete hand", (10, 70), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (INK,) * 3, 2)
    cv2.putText(img, "l l | T Y", (int(boxes[3, 0]), int(boxes[3, 1]) - 8), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (INK,) * 3, 2)
    assert winning_mark(img, boxes, every_tile(boxes)) is None


def test_a_stroke_with_no_head_marks_nothing() -> None:
    img, boxes = page(60)
    x, y, w, h = boxes[2]
    arrow(img, x + w / 2, y - 0.7 * h, y - 0.1 * h, head=False)
    assert winning_mark(img, boxes, every_tile(boxes)) is None


def test_an_arrow_between_two_tiles_marks_neither() -> None:
    img, boxes = page(60)
    x, y, w, h = boxes[2]
    arrow(img, x + w + 0.15 * w, y - 0.7 * h, y - 0.1 * h)
    assert winning_mark(img, boxes, every_tile(boxes)) is None


def test_two_arrows_mark_no_tile_and_an_arrow_far_above_marks_none() -> None:
    img, boxes = page(60)
    for k in (1, 6):
        x, y, w, h = boxes[k]
        arrow(img, x + w / 2, y - 0.7 * h, y - 0.1 * h)
    assert winning_mark(img, boxes, every_tile(boxes)) is None
    img, boxes = page(60)
    x, y, w, h = boxes[4]
    arrow(img, x + w / 2, y - 1.5 * h, y - 0.8 * h)
    assert winning_mark(img, boxes, every_tile(boxes)) is None


def test_an_arrow_over_a_tile_set_aside_marks_nothing_in_the_hand() -> None:
    img, boxes = page(60)
    x, y, w, h = boxes[0]
    arrow(img, x + w / 2, y - 0.7 * h, y - 0.1 * h)
    counted = every_tile(boxes)
    counted[0] = False
    assert winning_mark(img, boxes, counted) is None


def test_an_arrow_on_a_tile_face_is_the_tile_s_own_picture() -> None:
    img, boxes = page(90)
    x, y, w, h = boxes[3]
    arrow(img, x + w / 2, y + 0.15 * h, y + 0.6 * h)
    assert winning_mark(img, boxes, every_tile(boxes)) is None


def test_harr_example_3_the_drawn_red_dragon_fills_the_pair_and_scores_52() -> None:
    label = BOOK / "labels" / "example_3.json"
    if not label.is_file():
        pytest.skip("the 1922 book photos are not in ../shared/realdev/book-1922 beside the repository (or PUNGCHOW_SHARED_DIR)")
    doc = json.loads(label.read_text())
    result = recognize(BOOK / "photos" / doc["image"], "pungchow-1922", "harr-1922")
    assert result.trace is not None and result.trace.winning_tile is not None
    assert result.detections.code(result.trace.winning_tile) == "RD"
    assert result.trace.winning_shown == ARROW
    review = rv.set_circumstances(rv.Review.from_recognition(result), won_by="wall", seat_wind="E", prevailing_wind="E")
    assert review.winning_from_reader == ARROW and review.tile(review.winning_tile or 0).code == "RD"
    hand, problems = rv.to_hand(review)
    assert hand is not None and not problems
    assert score_hand(hand, "harr-1922").total == 52
    untapped = rv.set_winning_tile(review, None)
    assert score_hand(rv.to_hand(untapped)[0], "harr-1922").total == 50  # type: ignore[arg-type]


def test_harr_example_10_read_from_the_photo_scores_496_with_no_tile_corrected() -> None:
    """Example 10: the 二万 pair, drawn from the loose tiles as the caption's arrow shows, beside four kongs (the 1B
    kong concealed). Its light tiles on white paper are boxed (``detect.paper_painted``), the arrow gives the winning
    tile, and told only how it was won, the page scores the photographed hand: 496."""
    label = BOOK / "labels" / "example_10.json"
    if not label.is_file():
        pytest.skip("the 1922 book photos are not in ../shared/realdev/book-1922 beside the repository (or PUNGCHOW_SHARED_DIR)")
    result = recognize(BOOK / "photos" / "example_10.jpg", "pungchow-1922", "harr-1922")
    review = rv.set_circumstances(rv.Review.from_recognition(result), won_by="loose-tile", seat_wind="E", prevailing_wind="E")
    hand, problems = rv.to_hand(review)
    assert hand is not None and not problems, problems
    assert review.winning_from_reader == ARROW
    assert score_hand(hand, "harr-1922").total == 496


def test_the_page_says_the_arrow_showed_the_winning_tile(app: AppTest) -> None:
    """Harr's example 3 uploaded to the page: the winning tile is marked, and the page says an arrow showed it."""
    photo = BOOK / "photos" / "example_3.jpg"
    if not photo.is_file():
        pytest.skip("the 1922 book photos are not in ../shared/realdev/book-1922 beside the repository (or PUNGCHOW_SHARED_DIR)")
    app.file_uploader(key="w_upload").set_value((photo.name, photo.read_bytes(), "image/jpeg")).run()
    assert not app.exception
    review = app.session_state["review"]
    assert review.winning_tile is not None and review.tile(review.winning_tile).code == "RD"
    said = [c.value for c in app.caption if "for the winning tile" in c.value]
    assert said and f"#{review.winning_tile} RD, {ARROW}, for the winning tile" in said[0], said
