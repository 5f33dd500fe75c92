"""A blank white dragon or a tile back: one set has one face colour, and the photo's other faces show it.

Given a photo where the classifier reads a tile as blank or as a back but is unsure, the tile whose bare
paper is the colour of the photo's surely-read faces is the white dragon, and one far from it is a back.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from recognizer.classify import FACES_NEEDED, WD_INDEX, XX_INDEX, blank_or_back, classify, paper_colour
from recognizer.detections import Detections
from recognizer.labels import CLASSES

PHOTOS = Path(__file__).resolve().parent / "fixtures" / "photos"
IVORY, GREEN, PINK = (236, 230, 212), (40, 120, 70), (236, 200, 200)


def table_of_tiles(papers: list[tuple[int, int, int]], inked: list[bool]) -> tuple[np.ndarray, np.ndarray]:
    """A felt table with one 40x56 tile per paper colour, a black stroke across each inked one; (photo, boxes)."""
    rgb = np.full((120, 60 * len(papers) + 20, 3), (30, 90, 110), np.uint8)
    boxes = []
    for k, (paper, ink) in enumerate(zip(papers, inked)):
        x = 20 + 60 * k
        cv2.rectangle(rgb, (x, 30), (x + 39, 85), paper, -1)
        if ink:
            cv2.line(rgb, (x + 8, 50), (x + 31, 66), (20, 20, 20), 3)
        boxes.append((x, 30, 40, 56))
    return rgb, np.array(boxes, np.float32)


def readings(codes: list[str], sure: float = 0.9) -> np.ndarray:
    """Probabilities reading each tile as its code with ``sure``, the rest shared; "WD?" and "XX?" are unsure
    readings: 0.6 for the named code, 0.3 for the other."""
    probs = np.full((len(codes), len(CLASSES)), 0.0, np.float32)
    for row, code in zip(probs, codes):
        if code.endswith("?"):
            row[:] = 0.1 / (len(CLASSES) - 2)
            first = CLASSES.index(code[:2])
            row[first], row[XX_INDEX if first == WD_INDEX else WD_INDEX] = 0.6, 0.3
        else:
            row[:] = (1 - sure) / (len(CLASSES) - 1)
            row[CLASSES.index(code)] = sure
    return probs


def test_a_blank_face_read_as_a_back_is_the_white_dragon() -> None:
    """Four ivory faces read surely; an ivory tile with nothing on it, read as a back, is the white dragon."""
    rgb, boxes = table_of_tiles([IVORY] * 5, [True] * 4 + [False])
    probs = readings(["1D", "2D", "3D", "EW", "XX?"])
    out = blank_or_back(rgb, boxes, probs)
    assert CLASSES[int(out[4].argmax())] == "WD"
    assert out[4, WD_INDEX] == probs[4, XX_INDEX] and out[4, XX_INDEX] == probs[4, WD_INDEX]  # the two trade places
    assert np.array_equal(out[:4], probs[:4])


def test_a_green_back_read_as_blank_is_a_back() -> None:
    rgb, boxes = table_of_tiles([IVORY] * 4 + [GREEN], [True] * 4 + [False])
    out = blank_or_back(rgb, boxes, readings(["1D", "2D", "3D", "EW", "WD?"]))
    assert CLASSES[int(out[4].argmax())] == "XX"


def test_without_enough_sure_faces_or_with_a_colour_between_nothing_changes() -> None:
    rgb, boxes = table_of_tiles([IVORY] * 2 + [GREEN] * 2, [True, True, True, False])
    few = readings(["1D", "2D", "3D", "WD?"], sure=0.5)  # 1D, 2D unsure faces too: none sure to say the faces' colour
    few[:2] = readings(["1D", "2D"])
    assert FACES_NEEDED > 2
    assert np.array_equal(blank_or_back(rgb, boxes, few), few)
    rgb, boxes = table_of_tiles([IVORY] * 4 + [PINK], [True] * 4 + [False])  # neither the faces' colour nor far from it
    between = readings(["1D", "2D", "3D", "EW", "XX?"])
    assert np.array_equal(blank_or_back(rgb, boxes, between), between)


def test_in_a_close_up_whose_other_tiles_are_sure_faces_one_face_shows_their_colour() -> None:
    """Two tiles filling the frame (leo-059's north wind beside its white dragon): the one sure face is all the photo
    has, and enough."""
    rgb, boxes = table_of_tiles([IVORY, IVORY], [True, False])
    blank = blank_or_back(rgb, boxes, readings(["NW", "XX?"]))
    assert CLASSES[int(blank[1].argmax())] == "WD"
    rgb, boxes = table_of_tiles([IVORY, GREEN], [True, False])
    back = blank_or_back(rgb, boxes, readings(["NW", "WD?"]))
    assert CLASSES[int(back[1].argmax())] == "XX"


def test_a_tile_photographed_alone_and_torn_between_blank_and_back_is_the_blank_face() -> None:
    """Nobody photographs a tile's back to ask what it is; a back the classifier all but rules out as blank stays a
    back, and a tile read blank stays blank."""
    rgb, boxes = table_of_tiles([IVORY], [False])
    torn = blank_or_back(rgb, boxes, readings(["XX?"]), alone=True)
    assert CLASSES[int(torn[0].argmax())] == "WD"
    sure = readings(["XX"], sure=0.97)
    assert sure[0, WD_INDEX] < 0.05
    assert np.array_equal(blank_or_back(rgb, boxes, sure, alone=True), sure)
    blank = readings(["WD?"])
    assert np.array_equal(blank_or_back(rgb, boxes, blank, alone=True), blank)


def test_faces_whose_middle_lies_off_the_photo_do_not_count() -> None:
    """Three sure faces, two of them boxes off the photo's edge: one colour is too few to go on."""
    rgb, boxes = table_of_tiles([IVORY] * 3 + [IVORY], [True] * 3 + [False])
    boxes[1] = (-200, 30, 40, 56)
    boxes[2] = (rgb.shape[1] + 100, 30, 40, 56)
    probs = readings(["1D", "2D", "3D", "XX?"])
    assert np.array_equal(blank_or_back(rgb, boxes, probs), probs)


def test_ink_does_not_colour_the_paper() -> None:
    rgb, boxes = table_of_tiles([IVORY, IVORY], [True, False])
    inked, bare = paper_colour(rgb, boxes[0]), paper_colour(rgb, boxes[1])
    assert np.abs(inked - bare).max() <= 1.0


def test_leos_blank_white_dragons_are_read_as_faces() -> None:
    """Two real photos of a riichi set's honours standing in a row: the blank white dragon among them is WD."""
    expected = json.loads((PHOTOS / "expected.json").read_text())
    for name in ("leo-058.jpg", "leo-064.jpg"):
        rgb = cv2.cvtColor(cv2.imread(str(PHOTOS / name)), cv2.COLOR_BGR2RGB)
        tiles = expected[name]["tiles"]
        dets = classify(rgb, Detections(np.array([t["bbox"] for t in tiles], np.float32), np.ones(len(tiles))), drop_not_tiles=False)
        white = [t["code"] for t in tiles].index("WD")
        assert dets.code(white) == "WD", name
