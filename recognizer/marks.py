"""Marks printed beside the tiles: the arrow a rule book draws down at the tile that completed the hand.

Harr's photographs (and a player's annotated picture) show which tile won with a small arrow above it, under a
caption ("Drew to complete hand", "Punged to complete hand"). The winning tile changes the score (the pair or the
only place it filled, a pung made by a discard counted as exposed), so a photo that marks it should not need the
player to tap it. The arrow is read in the photo's grey: a thin upright stroke of ink on light paper, outside every
tile, whose lower end widens into a head (filled or open) just above a tile. Anything else (caption letters, pips,
a bamboo's stalk, a gap between tiles on a table) lacks one of those and marks nothing; two marked tiles mark none.
"""

from __future__ import annotations

import cv2
import numpy as np

from recognizer.geometry import paper_grey, scaled, to_grey

#: Ink is at least this much darker than the paper (the 90th percentile grey of the region round the tiles).
INK = 60
#: A stroke is upright ink at least this share of a tile's height tall (the opening that keeps only such strokes).
STROKE = 0.15
#: An arrow's length, in tile heights: longer than a caption letter, no longer than a tile and a bit.
SHORTEST, LONGEST = 0.2, 1.2
#: The shaft's half-width, in tile widths (and at most this many pixels below that): a pen stroke, not a letter.
SHAFT, SHAFT_PX = 0.05, 1.5
#: The shaft is the arrow's upper part down to this share of its length; the head lies below this share.
SHAFT_PART, HEAD_PART = 0.45, 0.35
#: The head reaches at least this far on both sides of the shaft, in tile widths, and this many times the shaft.
HEAD, HEAD_TO_SHAFT = 0.06, 2.5
#: The arrow's tip is at most this share of the photo's tile height above the box of the tile it points at (a box
#: round only a tile's picture starts lower than the tile).
NEAR = 0.5
#: The arrow points at the tile's middle: its shaft at most this share of the tile's width off the tile's centre.
CENTRED = 0.25
#: A tile's box is trusted to this share of its size about its centre: a box drawn a little tall may cover the tip.
TRUSTED = 0.8
#: Beside the shaft (a third of a tile width either way) at most this share of the pixels is ink: the arrow stands
#: on bare paper, not on a table or a tile's face.
BARE = 0.1


def winning_mark(rgb: np.ndarray, boxes: np.ndarray, in_hand: np.ndarray) -> int | None:
    """The index of the one tile of the hand an arrow points down at, or None.

    ``boxes`` (x, y, w, h) are every tile found, on the photo as levelled (upright); ``in_hand`` says which count.
    """
    hand = np.nonzero(in_hand)[0]
    if len(hand) == 0:
        return None
    tile_w, tile_h = (float(np.median(boxes[hand, k])) for k in (2, 3))
    x0 = int(max(0, boxes[hand, 0].min() - tile_w))
    x1 = int(min(rgb.shape[1], (boxes[hand, 0] + boxes[hand, 2]).max() + tile_w))
    y0 = int(max(0, boxes[hand, 1].min() - LONGEST * tile_h - tile_h * NEAR))
    y1 = int(min(rgb.shape[0], (boxes[hand, 1] + boxes[hand, 3]).max()))
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    paper = paper_grey(rgb[y0:y1, x0:x1])
    if paper is None:  # no page round the tiles: a hand on a table has no printed arrow
        return None
    ink = (to_grey(rgb[y0:y1, x0:x1]) < paper - INK).astype(np.uint8)
    local = boxes - np.array([x0, y0, 0, 0], np.float32)
    _, pieces = cv2.connectedComponents(ink, connectivity=8)
    marked = {k for k in (_pointed_at(pieces, stroke, local, tile_w, tile_h) for stroke in _strokes(ink, local, tile_w, tile_h))
              if k is not None and in_hand[k]}
    return marked.pop() if len(marked) == 1 else None


def _strokes(ink: np.ndarray, boxes: np.ndarray, tile_w: float, tile_h: float) -> list[np.ndarray]:
    """Upright strokes of ink of an arrow's length and a pen's width lying outside every tile: (N, 2) pixel rows, cols."""
    run = max(3, round(STROKE * tile_h))
    upright = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((run, 1), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(upright, connectivity=8)
    on_tiles = np.zeros(ink.shape, bool)
    for x, y, w, h in scaled(boxes, TRUSTED).round().astype(int):
        on_tiles[max(0, y):max(0, y + h), max(0, x):max(0, x + w)] = True
    strokes = []
    for i in range(1, n):
        x, y, w, h, _ = stats[i]
        if SHORTEST * tile_h <= h <= LONGEST * tile_h and w <= 2 * SHAFT * tile_w + 2 and not on_tiles[y:y + h, x:x + w].any():
            strokes.append(np.argwhere(labels[y:y + h, x:x + w] == i) + (y, x))
    return strokes


def _pointed_at(pieces: np.ndarray, stroke: np.ndarray, boxes: np.ndarray, tile_w: float, tile_h: float) -> int | None:
    """The tile just below the stroke's tip when the stroke is an arrow's: thin above, a head both sides below.
    ``pieces`` labels the ink's connected pieces; the arrow is the piece the stroke is part of."""
    centre = float(np.median(stroke[:, 1]))
    top, bottom = int(stroke[:, 0].min()), int(stroke[:, 0].max())
    xs, ys, ws, hs = boxes.T
    # the tile below the tip, or none: the tip lies at or below the stroke's foot, within a head's length of it
    below = np.nonzero((np.abs(xs + ws / 2 - centre) <= CENTRED * ws) & (ys >= bottom - (1 - TRUSTED) * hs))[0]
    if len(below) == 0:
        return None
    k = int(below[np.argmin(ys[below])])
    if ys[k] - bottom > (NEAR + STROKE) * tile_h:
        return None
    reach = round(tile_w / 3)
    left, right = max(0, round(centre) - reach), min(pieces.shape[1], round(centre) + reach + 1)
    window = pieces[top:min(pieces.shape[0], bottom + round(tile_h)), left:right]
    arrow = window == pieces[stroke[0, 0], stroke[0, 1]]
    mid = round(centre) - left
    column = arrow[:, max(0, mid - 2):mid + 3].any(axis=1)
    length = int(np.argmin(column)) if not column.all() else len(column)
    tip = top + length
    if length < SHORTEST * tile_h or not -(1 - TRUSTED) * hs[k] <= ys[k] - tip <= NEAR * tile_h:
        return None
    rows = arrow[:length]
    inked = rows.any(axis=1)
    first = np.where(inked, np.argmax(rows, axis=1), mid)
    last = np.where(inked, rows.shape[1] - 1 - np.argmax(rows[:, ::-1], axis=1), mid)
    spans = np.stack([mid - first, last - mid], axis=1).astype(np.float64)
    upper = max(1, int(SHAFT_PART * length))
    shaft = float(np.median(spans[:upper].max(axis=1)))
    head = float(spans[int(HEAD_PART * length):].min(axis=1).max())
    beside = (window[:upper] > 0) & ~arrow[:upper]
    if shaft > max(SHAFT_PX, SHAFT * tile_w) or head < max(HEAD_TO_SHAFT * max(shaft, 1.0), HEAD * tile_w) or beside.mean() > BARE:
        return None
    return k
