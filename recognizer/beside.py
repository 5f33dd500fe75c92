"""Step 4b: what lies beside the hand is kept only where it looks like a tile to a detector taught what does not.

The hand's rows (``hand_rows``) keep keys, cards and print out of the hand, but the boxes they set aside are still
shown, and the detector that shipped had never seen a keyboard or a printed page: drawn beside a hand, 7 photos in 84
showed more than one box on no tile. A second detector, fine-tuned from it on hands drawn beside such things with only
the tiles boxed (det12, ``models/MODEL_CARD.md``), finds none of 21 of those 26 boxes and every drawn tile (0.61 or
surer). It loses tiles of printed pages and close-ups that the shipped detector keeps, so it never decides the hand:
it only looks again at the boxes already set aside, and at the hand's boxes read unsurely.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from recognizer.detect import CLOSE_UP_SHARE, CONFIDENT, SCORE_THRESHOLD, iou_matrix, looks
from recognizer.detections import UNSURE_BELOW, Detections
from recognizer.group import Group
from recognizer.hand_rows import SetAside, group_apart, group_the_hand
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


def beside_the_hand(rgb: np.ndarray, dets: Detections, groups: list[Group], aside: SetAside,
                    model: Model | None = None, close_up: bool = False) -> tuple[Detections, list[Group], SetAside]:
    """``group_the_hand``'s reading with the boxes set aside that the beside detector finds no tile over surely left
    out, and the hand's boxes read unsurely (``in_doubt``) that it finds no tile over at all;
    the note says how many (``SetAside.no_tile``), and where one leaves the hand its rows are found again. The hand's
    other boxes are not looked at again: the beside detector missed a real 9D of Harr's page 47, read at 0.76. Nor are
    those of a close-up (``close_up``, ``detect.Looks.close_up``): the next tiles cut by its frame, which the beside
    detector, never taught a tile filling the frame, cannot judge."""
    if close_up:
        return dets, groups, aside
    set_aside = np.array(aside.tiles, int)
    doubtful = in_doubt(dets, set_aside, max(rgb.shape[:2]))
    looked = np.concatenate([set_aside, doubtful])
    if not len(looked):
        return dets, groups, aside
    scores = beside_scores(rgb, dets.boxes[looked], model)
    gone_aside, gone_hand = set_aside[scores[:len(set_aside)] < BESIDE_SURE], doubtful[scores[len(set_aside):] < SCORE_THRESHOLD]
    gone = len(gone_aside) + len(gone_hand)
    if not gone:
        return dets, groups, aside
    kept = np.setdiff1d(np.arange(len(dets)), np.concatenate([gone_aside, gone_hand]))
    if len(gone_hand):
        grouped, regrouped, again = group_the_hand(dets[kept], rgb.shape[:2])
        return grouped, regrouped, replace(again, table=aside.table + again.table, no_tile=aside.no_tile + gone)
    still = tuple(int(k) for k in np.flatnonzero(np.isin(kept, set_aside)))
    grouped, regrouped = group_apart(dets[kept], still)
    return grouped, regrouped, SetAside(still, aside.why, aside.table, aside.no_tile + gone)


def in_doubt(dets: Detections, set_aside: np.ndarray, long_side: int) -> np.ndarray:
    """The hand's boxes (those not ``set_aside``) read unsurely (under ``UNSURE_BELOW``): a key, a printed word or half
    a domino taken into the hand is read so (a key as a back at 0.44, drawn keyboard scene 3605; a word as 1S at 0.10,
    text 3604; half a domino as a white dragon, dominoes 3409), and the decoder makes it a flower or a season to make
    the hand whole, which no set vouches for. The real tiles of a hand the beside detector finds nothing over, on the
    book, HK and leo photos, are read surely (example_10's 2C at 0.88, set01-6's 3D at 0.91). Not where the hand's tiles
    are as large as a close-up's (``detect.CLOSE_UP_SHARE`` of the photo's ``long_side``): real tiles of set01-2 cut two
    and three to the frame, read unsurely, were dropped."""
    in_hand = np.setdiff1d(np.arange(len(dets)), set_aside)
    if not len(in_hand) or np.median(dets.boxes[in_hand, 2:].min(axis=1)) >= CLOSE_UP_SHARE * long_side:
        return in_hand[:0]  # tiles as large as a close-up's: the beside detector misses such tiles
    out: np.ndarray = in_hand[dets.confidence[in_hand] < UNSURE_BELOW]
    return out
