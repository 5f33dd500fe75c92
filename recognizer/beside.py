"""Step 4b: what lies beside the hand is kept only where it looks like a tile to a detector taught what does not.

The hand's rows (``hand_rows``) keep keys, cards and print out of the hand, but the boxes they set aside are still
shown, and the detector that shipped had never seen a keyboard or a printed page: drawn beside a hand, 7 photos in 84
showed more than one box on no tile. A second detector, fine-tuned from it on hands drawn beside such things with only
the tiles boxed (det12, ``models/MODEL_CARD.md``), finds none of 21 of those 26 boxes and every drawn tile (0.61 or
surer). It loses tiles of printed pages and close-ups that the shipped detector keeps, so it never decides the hand:
it only looks again at the boxes already set aside.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from recognizer.detect import CONFIDENT, iou_matrix, looks
from recognizer.detections import Detections
from recognizer.group import Group
from recognizer.hand_rows import SetAside, group_apart
from recognizer.models import Model, load_model

#: A box set aside stays where the beside detector finds a tile over it (IoU at least ``SAME_BOX``) at least this
#: surely, the detector's own sure bar (``detect.CONFIDENT``). The drawn scenes' strays it finds at all it finds at
#: 0.33-0.43, every drawn tile at 0.61 or more. The 1922 dev prints, read without a set, set aside 9 boxes, four of them
#: under 0.5 (0, 0.39, 0.46, 0.47), and ``bench/bench_stages.py`` loses no labelled tile more at 0.5 than at 0.3; the
#: leo photos set aside 7, one under 0.5 (0.33, on no tile). At its threshold (0.3) it kept three strays on a printed
#: page and two by a game of dominoes.
BESIDE_SURE = CONFIDENT
SAME_BOX = 0.3


def beside_scores(rgb: np.ndarray, boxes: np.ndarray, model: Model | None = None) -> np.ndarray:
    """How surely the beside detector finds a tile over each box (0 where it finds none), looking at the photo as the
    shipped detector does (``detect.looks``), the close-up detector left out."""
    if not len(boxes):
        return np.zeros(0, np.float32)
    found = looks(rgb, model or load_model("beside_detector"), close_ups=False).merged()
    if not len(found):
        return np.zeros(len(boxes), np.float32)
    over = iou_matrix(boxes, found.boxes) >= SAME_BOX
    out: np.ndarray = np.where(over, found.scores[None, :], 0.0).max(axis=1).astype(np.float32)
    return out


def no_tile_over(rgb: np.ndarray, boxes: np.ndarray, model: Model | None = None) -> np.ndarray:
    """Which boxes the beside detector finds no tile over, surely (``BESIDE_SURE``)."""
    out: np.ndarray = beside_scores(rgb, boxes, model) < BESIDE_SURE
    return out


def beside_the_hand(rgb: np.ndarray, dets: Detections, groups: list[Group], aside: SetAside,
                    model: Model | None = None, close_up: bool = False) -> tuple[Detections, list[Group], SetAside]:
    """``group_the_hand``'s reading with the boxes set aside that the beside detector finds no tile over left out (the
    note says how many, ``SetAside.no_tile``). The hand's own boxes are not looked at again here: that would drop a
    domino counted in a hand as a flower (read at 0.63), but also a real 9D of Harr's page 47 (read at 0.76); the
    decoder asks of them only where the hand is not whole with them (``decode.whole_without``). Nor are those of a
    close-up (``close_up``, ``detect.Looks.close_up``): the next tiles cut by its frame, which the beside detector,
    never taught a tile filling the frame, cannot judge."""
    if not aside.tiles or close_up:
        return dets, groups, aside
    set_aside = np.array(aside.tiles)
    gone = set_aside[no_tile_over(rgb, dets.boxes[set_aside], model)]
    if not len(gone):
        return dets, groups, aside
    return left_out(dets, aside, [int(k) for k in gone])


def left_out(dets: Detections, aside: SetAside, gone: Sequence[int]) -> tuple[Detections, list[Group], SetAside]:
    """The reading without the boxes ``gone``, no tile, regrouped with the rest of those set aside still aside; the
    note counts them (``SetAside.no_tile``)."""
    kept = np.setdiff1d(np.arange(len(dets)), gone)
    still = tuple(int(k) for k in np.flatnonzero(np.isin(kept, aside.tiles)))
    grouped, regrouped = group_apart(dets[kept], still)
    return grouped, regrouped, SetAside(still, aside.why, aside.table, aside.no_tile + len(gone))
