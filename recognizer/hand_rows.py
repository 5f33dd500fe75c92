"""Step 2b: the hand is the row or rows of tiles the photo is about; every other box is set aside, still shown.

A laptop's keys, dominoes, stone counters or a printed page beside the tiles are boxed too, and the classifier reads a
light key as a white dragon as readily as a tile. What tells them apart is the table, as a player sees it:

- a hand's tiles are alike in size and lie in one or a few straight rows, a tile's gap apart;
- a set holds four of each playing face and one of each flower and season, so a face read fifty times over is no
  face at all (a keyboard's keys read as white dragons or seasons);
- the classifier's own not-a-tile probability and confidence.

The rows the faces make surest are the hand's (the anchor); rows and lone tiles of the anchor's size join it when
they lie within reach of it, and a row joins only if its faces are, on the whole, faces a set could hold. Everything
else is set aside: kept in the reading, in a group ``in_hand=False`` whose ``aside`` says why, so the page and
``--json`` show it and one tap counts it back in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from recognizer.classify import NT_INDEX, XX_INDEX
from recognizer.detections import Detections
from recognizer.group import Group, GroupKind, clusters, group, no_likelier_face, runs
from recognizer.labels import CLASSES
from scoring.errors import PungChowError
from scoring.melds import Meld
from scoring.tiles import BONUS_CODES, Tile

#: A back where no back can lie is bare table only when the detector is less sure of it than this (``bare_table``): the
#: table between two sets drew 0.34-0.51, every back on the real photos (kong ends) 0.76 and more.
TABLE_UNSURE = 0.6
#: Why a box was set aside, as the page and ``--json`` say it.
NOT_IN_THE_ROWS = "not in the hand's rows"
#: A photo of this many boxes or fewer is a close-up: every box is the hand's.
FEW_BOXES = 4
#: Boxes alike in size: the square root of the area, and the height-to-width ratio, within this factor of the anchor's.
SIZE_FACTOR = 1.4
ASPECT_FACTOR = 1.35
#: A lone tile or pair joins the hand's rows within this many tile heights of them,
JOIN_GAP = 1.5
#: or, when its face is this sure (flowers laid apart, a kong's ends on a printed page), within ``LONE_REACH`` of them:
#: the real photos' lone tiles lie up to 3.6 tile heights from the rows, a domino read as a tile six to eight.
FAR_SURE = 0.5
LONE_REACH = 5.0
#: Lone tiles this many tile heights apart or less make a column.
COLUMN_GAP = 0.5
#: A row (three boxes or more) by the hand's rows joins if its faces are, on average, this plausibly faces of one set
#: (``plausible``): a row of tiles misread unsurely is still a row of tiles; a row of keys read as one face is not.
NEAR_PLAUSIBLE = 0.25
#: A row apart from them (a printed page's groups) needs more, and its faces read at least this surely (``evidence``),
ROW_PLAUSIBLE = 0.4
ROW_EVIDENCE = 0.1
#: and lies within this many tile heights of them, or among at least ``APART_TILES`` boxes of a tile's size, each within
#: ``JOIN_GAP`` of the next: a hand lies in one place on the table, and a row of a laptop's keys ten tile heights below
#: it, alone, is no set; a printed page's other example, rows or a column of tiles five to ten tile heights away
#: (pages 47 and 49), is tiles.
APART_REACH = 4.0
APART_TILES = 6
#: A lone tile or pair joins only if its face, weighed by its confidence too (``evidence``), is at least this.
LONE_EVIDENCE = 0.05
#: A lone box touching, through its neighbours, this many boxes set aside and more than it touches in the rows is one of
#: them (``amid_the_set_aside``).
AMID = 3
#: A face-down back counts this much of its confidence: backs are a kong's ends, or another player's rack.
BACK_WEIGHT = 0.5
ROW = 3
#: The note names this many of the boxes set aside (a keyboard gives a hundred), then counts the rest.
NAMED = 12
#: A box within this many pixels of the photo's edge is cut by it.
AT_THE_EDGE = 2.0


def face_caps() -> np.ndarray:
    """How many of each class a set holds: four of a playing face, one flower or season; backs and not-a-tile without
    bound."""
    caps = np.full(len(CLASSES), 4.0)
    caps[[CLASSES.index(c) for c in BONUS_CODES]] = 1.0
    caps[[XX_INDEX, NT_INDEX]] = np.inf
    return caps


def plausible(dets: Detections) -> np.ndarray:
    """How far each box's face is one a set could hold, whatever the classifier's confidence: its not-a-tile
    probability's complement, shared out where the photo reads a face more often than a set holds it (fifty white
    dragons are a keyboard's keys, not fifty tiles); a back counts ``BACK_WEIGHT`` of it."""
    codes = dets.codes
    counts = np.bincount(codes[codes >= 0], minlength=len(CLASSES)).astype(np.float64)
    census = np.minimum(1.0, face_caps()[codes] / np.maximum(counts[codes], 1.0))
    weight = np.where(codes == XX_INDEX, BACK_WEIGHT, 1.0)
    out: np.ndarray = (1.0 - dets.probs[:, NT_INDEX]) * census * weight
    return out


def evidence(dets: Detections) -> np.ndarray:
    """How surely each box is a tile by its face alone: :func:`plausible`, times the reading's confidence."""
    out: np.ndarray = dets.confidence * plausible(dets)
    return out


def _columns(rows: list[list[int]], alike: np.ndarray, gaps: np.ndarray) -> list[list[int]]:
    """The lone tiles and pairs of the hand's size that lie one by the next (a column of tiles laid sideways down a
    printed page), each column of three or more, as a row is."""
    loose = [k for r in rows if len(r) < ROW for k in r if alike[k]]
    parent = {k: k for k in loose}

    def root(k: int) -> int:
        while parent[k] != k:
            k = parent[k]
        return k

    for i, a in enumerate(loose):
        for b in loose[i + 1:]:
            if gaps[a, b] <= COLUMN_GAP:
                parent[root(b)] = root(a)
    columns: dict[int, list[int]] = {}
    for k in loose:
        columns.setdefault(root(k), []).append(k)
    return [c for c in columns.values() if len(c) >= ROW]


def _gaps(boxes: np.ndarray) -> np.ndarray:
    """The gap between every two boxes (0 where they touch or overlap), in pixels."""
    lo, hi = boxes[:, :2], boxes[:, :2] + boxes[:, 2:]
    apart = np.maximum(lo[:, None] - hi[None], lo[None] - hi[:, None])
    out: np.ndarray = np.maximum(apart, 0.0).max(axis=2)
    return out


def _alike(boxes: np.ndarray, size: float, aspect: float, frame: tuple[int, int] | None) -> np.ndarray:
    """Which boxes are a hand tile's size and shape (a tile laid sideways too); a box the photo's edge cuts (``frame``:
    its height and width) only by the side it shows whole."""
    side = np.sqrt(boxes[:, 2] * boxes[:, 3])
    ratio = boxes[:, 3] / boxes[:, 2]
    near_size = np.abs(np.log(side / size)) <= np.log(SIZE_FACTOR)
    near_shape = np.minimum(np.abs(np.log(ratio / aspect)), np.abs(np.log(ratio * aspect))) <= np.log(ASPECT_FACTOR)
    out: np.ndarray = near_size & near_shape
    if frame is None:
        return out
    height, width = frame
    x0, y0, x1, y1 = boxes[:, 0], boxes[:, 1], boxes[:, 0] + boxes[:, 2], boxes[:, 1] + boxes[:, 3]
    across = (x0 <= AT_THE_EDGE) | (x1 >= width - AT_THE_EDGE)  # its width is cut: judge it by its height
    down = (y0 <= AT_THE_EDGE) | (y1 >= height - AT_THE_EDGE)
    tile_w, tile_h = size / np.sqrt(aspect), size * np.sqrt(aspect)
    tall = (np.abs(np.log(boxes[:, 3] / tile_h)) <= np.log(SIZE_FACTOR)) | (np.abs(np.log(boxes[:, 3] / tile_w)) <= np.log(SIZE_FACTOR))
    wide = (np.abs(np.log(boxes[:, 2] / tile_w)) <= np.log(SIZE_FACTOR)) | (np.abs(np.log(boxes[:, 2] / tile_h)) <= np.log(SIZE_FACTOR))
    cut: np.ndarray = out | (across & ~down & tall) | (down & ~across & wide)
    return cut


#: A row whose faces make a set may hold this many boxes unlike the hand's tiles in size or shape: boxes the detector
#: drew round part of a tile (a 1922 print's exposed chow: two tiles boxed whole, the third square round its face).
ODD_IN_A_SET = 1


def makes_a_set(dets: Detections, row: Sequence[int]) -> bool:
    """Whether the faces read in ``row``, left to right, make a chow, pung or kong (a kong's ends face down too)."""
    if len(row) not in (3, 4):
        return False
    try:
        Meld.of([Tile(dets.code(k)) for k in row], concealed=False)
    except (PungChowError, ValueError):
        return False
    return True


def whole_row(dets: Detections, row: Sequence[int], alike: np.ndarray) -> list[int]:
    """The boxes of ``row`` that may join the hand: those of a tile's size and shape, and all of them when its faces
    make a set with at most ``ODD_IN_A_SET`` box unlike (a row of keys of every width makes no set)."""
    odd = len(row) - int(alike[list(row)].sum())
    if odd <= ODD_IN_A_SET and makes_a_set(dets, row):
        return list(row)
    return [k for k in row if alike[k]]


def _together(near: np.ndarray, alike: np.ndarray) -> np.ndarray:
    """For each box, how many boxes of a tile's size (``alike``) lie in its cluster: the boxes reached from it through
    boxes of a tile's size, each ``near`` the next; 0 for a box not of a tile's size."""
    cluster = clusters(near & alike[:, None] & alike[None, :])
    sizes = np.bincount(cluster[alike], minlength=len(near))
    out: np.ndarray = np.where(alike, sizes[cluster], 0)
    return out


def amid_the_set_aside(gaps: np.ndarray, in_rows: np.ndarray, joining: np.ndarray) -> np.ndarray:
    """Which boxes lie in a cluster of boxes touching one another (``COLUMN_GAP``; ``gaps`` in tile heights) where those
    set aside (neither in the rows nor ``joining``) are ``AMID`` or more and outnumber those in the rows: a laptop's
    first row of keys, boxed in ones and twos below the hand, is part of the keyboard set aside, not lone tiles."""
    cluster = clusters(gaps <= COLUMN_GAP)
    aside = ~in_rows & ~joining
    out = np.zeros(len(gaps), bool)
    for c in np.unique(cluster):
        member = cluster == c
        many = int(aside[member].sum())
        out[member] = many >= AMID and many > int(in_rows[member].sum())
    return out


@dataclass(frozen=True)
class HandRows:
    """Which boxes lie in the hand's rows (``in_rows``, one a box) and the hand's tile size (pixels: the side of a
    square of a tile's area) the rows were judged by."""

    in_rows: np.ndarray
    tile_side: float

    @property
    def aside(self) -> np.ndarray:
        """The boxes set aside, by index."""
        out: np.ndarray = np.flatnonzero(~self.in_rows)
        return out


def hand_rows(dets: Detections, frame: tuple[int, int] | None = None) -> HandRows:
    """Find the hand's rows among the boxes of a read (classified, levelled) photo, ``frame`` (height, width) its
    size."""
    n = len(dets)
    if n <= FEW_BOXES:
        return HandRows(np.ones(n, bool), float(np.sqrt(dets.boxes[:, 2] * dets.boxes[:, 3]).mean()) if n else 0.0)
    could_be = plausible(dets)
    sure = dets.confidence * could_be
    rows = runs(dets)
    face_up = np.where(dets.codes == XX_INDEX, 0.0, sure)
    anchor = max(rows, key=lambda r: (float(face_up[r].sum()), len(r)))
    boxes = dets.boxes.astype(np.float64)
    size = float(np.median(np.sqrt(boxes[anchor, 2] * boxes[anchor, 3])))
    aspect = float(np.median(boxes[anchor, 3] / boxes[anchor, 2]))
    tile_h = size * np.sqrt(aspect)
    alike = _alike(boxes, size, aspect, frame)
    gaps = _gaps(boxes) / tile_h
    in_rows = np.zeros(n, bool)
    in_rows[[k for k in anchor if alike[k]]] = True
    waiting = [whole_row(dets, unit, alike) for unit in [*(r for r in rows if len(r) >= ROW and r is not anchor),
                                                   *_columns(rows, alike, gaps)]]
    waiting = [m for m in waiting if len(m) >= ROW]
    together = _together(gaps <= JOIN_GAP, alike)
    while waiting:  # row by row: one by the rows already in needs only faces a set could hold; one apart, read surely
        reach = gaps[:, in_rows].min(axis=1)
        joining = [m for m in waiting if (float(could_be[m].mean()) >= NEAR_PLAUSIBLE and reach[m].min() <= JOIN_GAP)
                   or (float(could_be[m].mean()) >= ROW_PLAUSIBLE and float(sure[m].mean()) >= ROW_EVIDENCE
                       and (reach[m].min() <= APART_REACH or together[m].max() >= APART_TILES))]
        if not joining:
            break
        for m in joining:
            in_rows[m] = True
            waiting.remove(m)
    reach = gaps[:, in_rows].min(axis=1)
    loose = np.zeros(n, bool)
    for r in rows:
        loose[r] = len(r) < ROW
    # a lone tile or pair joins the rows it lies by, or further off (within reach) when its face is sure; it leads
    # nothing further in, and a row set aside stays aside, key by key, as does a lone box amid what was set aside
    joins = loose & alike & (((sure >= LONE_EVIDENCE) & (reach <= JOIN_GAP)) | ((sure >= FAR_SURE) & (reach <= LONE_REACH)))
    in_rows |= joins & ~amid_the_set_aside(gaps, in_rows, joins)
    smaller = _alike(boxes, size / SIZE_FACTOR, aspect, frame)  # a set laid flat beyond the rows, seen smaller
    for r in rows:
        if len(r) == 2 and smaller[r].all() and float(sure[r].max()) >= FAR_SURE:
            in_rows[r] = True
    return HandRows(in_rows, size)


@dataclass(frozen=True)
class SetAside:
    """The boxes the hand's rows left out (indices into the grouped detections), and why; how many boxes were bare
    table between two sets (``bare_table``), and how many set aside were no tile (``beside.beside_the_hand``), no longer
    in the reading."""

    tiles: tuple[int, ...]
    why: str = NOT_IN_THE_ROWS
    table: int = 0
    no_tile: int = 0

    def note(self, numbers: Sequence[str]) -> list[str]:
        """The reading's notes: the boxes set aside, named as the player sees them numbered, and the table and the
        things that are no tile dropped."""
        notes = [f"{self.table} box(es) between two sets read as a tile's back, in no kong and likelier bare table than any "
                 "face, are not counted: add the tile there if one lies face down"] if self.table else []
        if self.no_tile:
            notes.append(f"{self.no_tile} box(es) beside the hand look like no tile (keys, cards, print) and are left out: "
                         "add any tile of this hand that is missing")
        if not self.tiles:
            return notes
        named = ", ".join(numbers[k] for k in self.tiles[:NAMED])
        named += f" and {len(self.tiles) - NAMED} more" if len(self.tiles) > NAMED else ""
        return [*notes, f"{len(self.tiles)} box(es) set aside: {self.why} ({named}); count any that is a tile of this hand back in"]


def bare_table(dets: Detections, groups: Sequence[Group]) -> np.ndarray:
    """Which boxes of the hand are bare table: read as a back where no back can lie (in no kong, or the one back of a
    "kong" whose other three make a pung: a concealed kong shows both ends face down), the detector unsure of them
    (``TABLE_UNSURE``) and the reader's "not a tile" likelier than any face it names. A brown table's tile-wide gap
    between two sets looks like a tile's back (0.9), and taken for the best face it named instead (a flower at 0.003)
    it became a tile of the hand; beside a pung, it made the pung a kong."""
    table = np.zeros(len(dets), bool)
    for g in groups:
        if not g.in_hand or (g.kind is GroupKind.KONG and sum(dets.codes[k] == XX_INDEX for k in g.members) != 1):
            continue
        for k in g.members:
            table[k] = dets.codes[k] == XX_INDEX and dets.scores[k] < TABLE_UNSURE and no_likelier_face(dets, k)
    return table


def group_the_hand(dets: Detections, frame: tuple[int, int] | None = None) -> tuple[Detections, list[Group], SetAside]:
    """Group the tiles of the hand's rows as :func:`recognizer.group.group` does, and set every other box aside in one
    last group (``in_hand=False``, its ``aside`` saying why); the boxes keep their order, but for bare table read as a
    back (``bare_table``), which leaves the reading. ``frame``: the photo's (height, width), as read."""
    aside = SetAside(tuple(int(k) for k in hand_rows(dets, frame).aside))
    grouped, groups = group_apart(dets, aside.tiles)
    table = bare_table(grouped, groups)
    while table.any():  # grouped again without the table, a row may join the hand with bare table of its own
        kept = np.flatnonzero(~table)  # the rows stay as found: only the table leaves them
        aside = SetAside(tuple(int(k) for k in np.flatnonzero(np.isin(kept, aside.tiles))), aside.why,
                         aside.table + int(table.sum()))
        dets = dets[kept]
        grouped, groups = group_apart(dets, aside.tiles)
        table = bare_table(grouped, groups)
    return grouped, groups, aside


def group_again(dets: Detections, groups: Sequence[Group]) -> tuple[Detections, list[Group]]:
    """Group the tiles again after their faces changed (the hand decoder's step): the boxes set aside stay aside."""
    return group_apart(dets, tuple(k for g in groups if g.aside for k in g.members))


def group_apart(dets: Detections, aside: tuple[int, ...]) -> tuple[Detections, list[Group]]:
    """:func:`recognizer.group.group` on every box but ``aside``, which make one last group, not in the hand."""
    if not aside:
        return group(dets)
    kept = np.setdiff1d(np.arange(len(dets)), aside)
    grouped, found = group(dets[kept])
    groups = [replace(g, members=tuple(int(kept[k]) for k in g.members)) for g in found]
    gid = max((g.id for g in groups), default=0) + 1
    every = Detections(**{name: _put(getattr(dets, name), kept, getattr(grouped, name)) for name in Detections._fields()})
    every = every.with_(group=np.where(np.isin(np.arange(len(dets)), kept), every.group, gid))
    return every, [*groups, Group(gid, GroupKind.OTHER, tuple(sorted(aside)), in_hand=False, aside=NOT_IN_THE_ROWS)]


def _put(whole: np.ndarray, at: np.ndarray, part: np.ndarray) -> np.ndarray:
    """``whole`` with ``part`` at the rows ``at`` (grouping may read a lone back as a face: the kept boxes' new
    readings)."""
    out: np.ndarray = whole.copy()
    out[at] = part
    return out
