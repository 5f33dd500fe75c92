"""Step 1: find every tile (face up or face down) as a box with a confidence."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from recognizer.detections import Detections
from recognizer.geometry import DETECT_LONG_SIDE, FLAT, STRIDE, paper_grey, reaches_the_frame, to_grey, to_input
from recognizer.models import Model, load_model

SCORE_THRESHOLD = 0.3
NMS_IOU = 0.45
#: When the tiles found at the base scale are narrower than this (detector pixels, shorter side),
#: the photo is looked at again, larger: small tiles are found and fitted better at about this size.
SMALL_TILE = 24
#: The largest long side the second look uses. A whole table in one photo has tiles a sixth of a close-up's; at 640
#: they stayed under 17 px and were missed more (a hand six times further away: 10 of 14 found, at 800 all 14; the
#: held-out scenes: detection recall 0.958, at 800 0.968). A phone photo is loaded at 1000 px or more on its long side
#: (``image.WORK_LONG_SIDE``), so there this looks at pixels the photo has.
MAX_LONG_SIDE = 800
#: The wide look: the photo at this long side, where a tile that fills a close-up is tile-sized and caption letters,
#: arrows and pips are too small to be boxed. What it finds tells tiles from print at the base look.
WIDE_LOOK = 192
#: and this one, where it shows nothing of the tiles' size: one or two tiles filling the frame are too large even for
#: the wide look. It is always taken (it costs a sixteenth of the base look): where it boxes tiles that bear what the
#: base and wide looks boxed, those were pips (``bearing``).
WIDEST_LOOK = 96
#: Where none of these shows the tiles' size, a box the smallest look (``SMALLEST_LOOK``) is sure of shows it when its
#: short side would be this many pixels at the base look, a quarter of the photo's long side: one tile filling the frame
#: (a levelled photo's clump of three 75 px tiles, 68 px there, is not).
LONE_TILE = 96
#: A box the wide look finds is evidence of a tile's size when its short side would be this many pixels at the base
#: look (a far photo's tiles are a few pixels at the wide look, where it boxes clumps of them),
WIDE_SMALLEST = 24
#: and a box over this many is a tile too large for the base look to find (0.07 of such tiles found at 64-80 px).
LARGE_TILE = 48
#: The tile sizes (short side, detector pixels) the photo is read at: two looks, merged. The detector learnt tiles
#: 0.6-1.6 times the base look's; on the 1922 book's prints it boxes more of them small (read at 16 px alone 0.93 of
#: the dev tiles, at 32 px 0.94, both merged 0.97), and none over about 64 px (a close-up of a few tiles, read at the
#: base look). 16 and 24 read the 1922 set's complete photo (illustration 2) as the old second look did.
LOOK_TILES = (16, 24)
#: Where two looks box one tile, the larger look's box is kept unless the detector is surer of the other by this much.
LARGER_LOOK_FIRST = 0.15
#: and a box sized as the photo's tiles (``size_likeness`` 1) is counted this much surer than one of no likeness.
TILE_SIZED_FIRST = 0.4
#: A box whose long side is at least this many times its short side (and at most ``MAX_ASPECT``) is shaped as a tile
#: (a tile's is 1.3-1.45 and the detector's boxes round tiles keep it: median 1.28-1.43 on every book, set and leo
#: photo); a letter, a pip or a tile's one character boxed alone is about square.
TILE_SHAPED = 1.2
#: A box only one look finds is a tile's half, a letter or a pip when its ``size_likeness`` to the tiles is under this.
HALF_A_TILE = 0.5
#: Two such halves side by side are one tile when together their ``size_likeness`` is at least this,
JOINED_TILE = 0.65
#: and the gap between them at most this share of the tiles' short side.
HALVES_GAP = 0.2
#: The detector boxes a print's two characters looser than a tile's halves, each up to this ``size_likeness``
#: (example_5's 一 above 万, 0.53 and 0.56; page 49's sideways tiles, 0.4-0.62); two such boxes are one tile only
#: where together they are nearly one (``NEARLY_A_TILE``), each squarer than a tile (under ``HALF_SHAPED``:
#: a tile's own box is 1.3-1.45, a character's 1.0-1.25) and together no longer than ``JOINED_LONGEST``: two tiles
#: side by side, or two flat ones seen low (illustration 11's, 0.5 each and 0.77 together, 1.68 long), are not.
LOOSE_HALF = 2 / 3
NEARLY_A_TILE = 0.8
HALF_SHAPED = 1.3
JOINED_LONGEST = 1.6
#: A look already taken serves for a size when its tiles are within this share of it.
NEAR_ENOUGH = (0.85, 1.35)
#: The smallest look: a close-up of one tile, its short side half the photo's long side, is 32 px there.
SMALLEST_LOOK = 64
#: The close-up looks (``close_up_tiles``): the photo at these long sides, framed (``framed``), read by the close-up
#: detector. One tile filling the frame is about 30 px wide at 48, four are about 22 px at 96.
CLOSE_UP_LOOKS = (48, 96)
#: One tile filling the frame edge to edge, boxed squat or unsurely at the smaller close-up look (framed a little
#: tight), is boxed tile-shaped and surely at this long side (``close_up_tiles``).
TIGHT_CLOSE_UP_LOOK = 40
#: How sure the close-up detector must be of a large tile (``close_up_tiles``).
CLOSE_UP_SURE = 0.4
#: A large tile that two close-up looks box alike, overlapping this much, is one however unsure of it the detector is:
#: set05-1's north wind alone in a frame 92 px wide, boxed at 0.35 at the 48 px look and 0.34 at the tight one (IoU
#: 0.75), its index letter 'N' boxed surely as a tile at the base look; set01-2's east wind beside its red dragon,
#: framed upright, 0.39 and 0.33 (IoU 0.67), its strokes lying off the sure dragon said the cut was no close-up.
ALIKE_IOU = 0.5
#: Large tiles the close-up detector is this sure of, half of them or more (their median), are the photo's whatever the
#: base looks box beside them (``close_up_rather``): real close-ups' tiles 0.82-0.92, and 0.69-0.85 upright, where a
#: bookshelf's spines were boxed behind them; the large boxes of things beside a hand that make the rule needed,
#: 0.54-0.59.
CLOSE_UP_CERTAIN = 0.8
#: A close-up's tiles are at least this share of the photo's long side wide: four tiles filling a 4:3 frame's width are
#: about 0.22; filling a 3:4 frame's, 0.165, and the base looks read them (`bench_cut_closeups.py --portrait`).
CLOSE_UP_SHARE = 0.18
#: and shaped as a tile, long side over short at least this (a tile seen from low is squatter than ``TILE_SHAPED``).
CLOSE_UP_SHAPED = 1.1
#: A box within this share of the photo's side from its edge is cut by the frame.
FRAME_EDGE = 0.02
#: A close-up's large tile on which lie this many tile-shaped boxes of the base looks is a clump of tiles,
CLUMP = 3
#: where together they cover this share of it or more: the 1922 prints' clumps of kongs are 0.60-0.85 covered by their
#: tiles; a real 9 of dots filling the frame, whose pips the base looks box as tiles three and four at a time, 0.10-0.12.
CLUMP_COVER = 0.3
#: A large box holding this many of the base look's sure tile-shaped boxes is no tile however little they cover: a tile
#: bears at most nine pips or sticks (the real close-ups' large tiles held 0-7 such boxes); a drawn hand turned on its
#: side, boxed whole as one tile (0.40-0.47), held 13 and more.
MORE_THAN_PIPS = 10
#: The tile sizes (short side, pixels) a close-up is read at, framed: the middle of those the close-up detector learnt.
CLOSE_UP_TILES = (24, 36)
#: The scales a tile set chooses among, by how well its own faces match the boxes found at each.
TILESET_LONG_SIDES = (512, 640)
#: A box the detector is at least this sure of counts when the photo's tile size is measured.
CONFIDENT = 0.5
#: Long side over short side above which a box is a counter stick or a line of text, not a tile.
MAX_ASPECT = 2.4
#: A box whose short or long side is under this share of the confident tiles' is a word, a letter or a pip.
MIN_SIDE_SHARE = 0.6
#: A box with more than this share of its area inside a larger box is a mark on that tile.
INSIDE_SHARE = 0.7
#: An unsure box (under ``CONFIDENT``) with at least this share of its area under each of two surer boxes lies astride
#: them: the seam or gap between two tiles, not a tile (leo photos: 5 such boxes, no tile; a drawn hand's gap between
#: its groups, read as a tile back).
ASTRIDE_SHARE = 0.1


def scaled_look(rgb: np.ndarray, long_side: int, larger: np.ndarray | None = None) -> np.ndarray:
    """The photo scaled so its long side is ``long_side``, as the detector looks at it (before padding). Given
    ``larger``, the photo already shrunk for a look at least as large, whose sides are the same whole multiple of
    these: each pixel the average of that many of its pixels, the same part of the photo averaged as from the photo
    itself (to within rounding: one level in 255), from far fewer pixels, and none at all for the look it is."""
    h, w = rgb.shape[:2]
    s = long_side / max(h, w)
    nh, nw = max(1, round(h * s)), max(1, round(w * s))
    if larger is not None and max(larger.shape[:2]) < max(h, w) and larger.shape[0] % nh == 0 and larger.shape[1] % nw == 0 \
            and larger.shape[0] // nh == larger.shape[1] // nw:
        return larger if larger.shape[:2] == (nh, nw) else cv2.resize(larger, (nw, nh), interpolation=cv2.INTER_AREA)
    return cv2.resize(rgb, (nw, nh), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)


#: A close-up look lays the photo in a canvas this share of its long side wider on every side (``framed``).
FRAME_MARGIN = 0.25


def framed(look: np.ndarray, size: tuple[int, int] | None = None, at: tuple[int, int] | None = None) -> tuple[np.ndarray, tuple[int, int]]:
    """``look`` laid in a canvas ``size`` (height, width; by default ``FRAME_MARGIN`` of its long side wider on every
    side, in multiples of 32) filled with the median colour of its border, at ``at`` (its top left; by default
    centred), and where it lies.

    A tile filling the frame has no edge the detector can see: the frame is its edge. Laid in a canvas of its own
    border's colour it shows an outline round it, as a tile on a table does (the close-up detector is taught on such
    canvases, ``recognizer.train.train.close_up_sample``)."""
    h, w = look.shape[:2]
    margin = int(np.ceil(FRAME_MARGIN * max(h, w)))
    ch, cw = size or (-(-(h + 2 * margin) // 32) * 32, -(-(w + 2 * margin) // 32) * 32)
    edge = np.concatenate([look[0], look[-1], look[:, 0], look[:, -1]])
    canvas = np.empty((ch, cw, 3), np.uint8)
    canvas[:] = np.median(edge, axis=0).astype(np.uint8)
    ox, oy = at if at is not None else ((cw - w) // 2, (ch - h) // 2)
    canvas[oy:oy + h, ox:ox + w] = look
    return canvas, (ox, oy)


def detector_input(rgb: np.ndarray, long_side: int = DETECT_LONG_SIDE, larger: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """Scale so the long side is ``long_side`` (from ``larger`` where it serves: ``scaled_look``), pad right/bottom
    to multiples of 32."""
    s = long_side / max(rgb.shape[:2])
    small = scaled_look(rgb, long_side, larger)
    nh, nw = small.shape[:2]
    ph, pw = -(-nh // 32) * 32, -(-nw // 32) * 32
    canvas = cv2.copyMakeBorder(small, 0, ph - nh, 0, pw - nw, cv2.BORDER_REPLICATE)
    return to_input(canvas[None]), s


def decode(maps: np.ndarray, scale: float, threshold: float = SCORE_THRESHOLD) -> Detections:
    """Heatmap peaks (3x3 local maxima above threshold) -> boxes in photo pixels."""
    heat = 1.0 / (1.0 + np.exp(-maps[0]))
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= threshold)
    ys, xs = np.nonzero(peaks)
    if len(ys) == 0:
        return Detections(np.zeros((0, 4)), np.zeros(0))
    lw, lh, dx, dy = maps[1:, ys, xs]
    w, h = np.exp(lw) * STRIDE, np.exp(lh) * STRIDE
    cx, cy = (xs + dx) * STRIDE, (ys + dy) * STRIDE
    boxes = np.stack([cx - w / 2, cy - h / 2, w, h], 1) / scale
    return Detections(boxes, heat[ys, xs])


def overlap_areas(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pairwise areas in common of (N, 4) and (M, 4) x, y, w, h boxes."""
    ax2, ay2 = a[:, 0] + a[:, 2], a[:, 1] + a[:, 3]
    bx2, by2 = b[:, 0] + b[:, 2], b[:, 1] + b[:, 3]
    iw = np.clip(np.minimum(ax2[:, None], bx2[None]) - np.maximum(a[:, None, 0], b[None, :, 0]), 0, None)
    ih = np.clip(np.minimum(ay2[:, None], by2[None]) - np.maximum(a[:, None, 1], b[None, :, 1]), 0, None)
    inter: np.ndarray = iw * ih
    return inter


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pairwise IoU of (N, 4) and (M, 4) x, y, w, h boxes."""
    inter = overlap_areas(a, b)
    union = (a[:, 2] * a[:, 3])[:, None] + (b[:, 2] * b[:, 3])[None] - inter
    iou: np.ndarray = inter / np.maximum(union, 1e-9)
    return iou


def nms(dets: Detections, iou: float = NMS_IOU, rank: np.ndarray | None = None) -> Detections:
    """Drop a box that overlaps a more confident one (or one ranked higher by ``rank``) by more than ``iou``."""
    order = np.argsort(-(dets.scores if rank is None else rank), kind="stable")
    overlaps = iou_matrix(dets.boxes, dets.boxes) > iou
    dropped = np.zeros(len(dets), bool)
    for i in order:
        if not dropped[i]:
            dropped |= overlaps[i]
            dropped[i] = False
    return dets[np.nonzero(~dropped)[0]]


def detect(rgb: np.ndarray, model: Model | None = None, threshold: float = SCORE_THRESHOLD, long_side: int | None = None) -> Detections:
    """Every tile in an RGB photo, boxes in the photo's pixels, printed text and pips left out.

    With no ``long_side``, the photo is read at the looks its tiles' size asks for (``looks``), merged.
    """
    model = model or load_model("detector")
    if long_side is not None:
        return tile_like(detect_at(rgb, model, threshold, long_side))
    return looks(rgb, model, threshold).merged()


@dataclass(frozen=True)
class Looks:
    """The looks a photo is read at (long side -> the tiles found there) and the boxes that showed its tile size."""

    found: dict[int, Detections]
    tiles: Detections | None
    #: every look taken on the way (long side -> its tiles, before merging): ``level`` reads the photo as taken at one
    taken: dict[int, Detections] = field(default_factory=dict)
    #: the photo scaled for the base look (``scaled_look``), which the smaller looks and the level step's are made from
    image: np.ndarray | None = None
    #: a printed page's looks again, its bare paper painted as a table (``paper_painted``): light tiles on white paper
    painted: dict[int, Detections] = field(default_factory=dict)
    #: whether the photo is a close-up, read by the close-up detector alone (``close_up_looks``)
    close_up: bool = False

    def merged(self) -> Detections:
        """Every look's tiles, boxes unlike the photo's tiles dropped. A tile found at two looks keeps the box the
        detector is surer of, the larger look's counted ``LARGER_LOOK_FIRST`` surer: there it sees the tile in more
        pixels and places it closer (the 1922 set's 中 and 發 were read one for the other in boxes placed at the
        smaller look), and the box sized like the photo's tiles counted up to ``TILE_SIZED_FIRST`` surer: on the
        1922 prints the larger look often boxes only a tile's face or one of its two characters, a box half the
        tile's, where the smaller look boxes it whole. A box one look alone finds, under half a tile's size
        (``HALF_A_TILE``), is a caption letter, a pip or such a half, and is dropped, unless it stands in a row of
        tiles as one of them (``in_line_grown``); two halves that make one tile are joined (``halves_joined``)."""
        sides = sorted(self.found)
        every = Detections(np.concatenate([self.found[s].boxes for s in sides]), np.concatenate([self.found[s].scores for s in sides]))
        larger = np.concatenate([np.full(len(self.found[s]), k, np.float32) for k, s in enumerate(sides)])
        rank = every.scores + LARGER_LOOK_FIRST * larger
        if self.tiles is None:
            return not_astride(tile_like(nms(every, rank=rank)))
        rank = rank + TILE_SIZED_FIRST * size_likeness(every.boxes, self.tiles.boxes)
        kept = nms(every, rank=rank)
        whole = np.ones(len(kept), bool)
        if len(sides) > 1:
            seen = np.sum([iou_matrix(kept.boxes, self.found[s].boxes).max(axis=1) > NMS_IOU for s in sides if len(self.found[s])], axis=0)
            whole = (seen >= 2) | (size_likeness(kept.boxes, self.tiles.boxes) >= HALF_A_TILE)
        kept, whole = halves_joined(kept, self.tiles, whole)
        kept = not_astride(tile_like(in_line_grown(kept, whole), self.tiles))
        return self.on_paper(kept) if self.painted else kept

    def on_paper(self, kept: Detections) -> Detections:
        """``kept`` and the tiles the detector finds only with the page's paper painted as a table: sure of them,
        sized and shaped as the photo's tiles (a caption's letters and digits are about square), where no box lies,
        in a row with the tiles (``in_a_row_with``: a caption's letters lie above or below the row). Trained on
        tables, the detector never proposes a light tile on white paper (Harr's 二万 pair beside four kongs, example
        10)."""
        more = Looks(self.painted, self.tiles).merged()
        if not len(more) or self.tiles is None:
            return kept
        covered = overlap_areas(more.boxes, kept.boxes).max(axis=1) / np.prod(more.boxes[:, 2:], axis=1) if len(kept) else 0.0
        short, long = more.boxes[:, 2:].min(axis=1), more.boxes[:, 2:].max(axis=1)
        likely = (covered < PAPER_COVERED) & (more.scores >= CONFIDENT) & (size_likeness(more.boxes, self.tiles.boxes) >= PAPER_LIKENESS) \
            & (long >= TILE_SHAPED * short)
        # a row of them grows from the tiles found: the second of a pair lies beside the first
        new = grown(np.zeros(len(more), bool),
                    lambda new: likely & in_a_row_with(more.boxes, np.concatenate([kept.boxes, more.boxes[new]])))
        if not new.any():
            return kept
        return Detections(np.concatenate([kept.boxes, more.boxes[new]]), np.concatenate([kept.scores, more.scores[new]]))


#: A part-boxed tile stands in a row: its box at least this share of its neighbour's height, its centre within the
#: neighbour's height, and at most ``IN_LINE_GAP`` of the neighbour's width from it.
IN_LINE_HEIGHT = 0.5
IN_LINE_GAP = 0.6


def in_line_grown(dets: Detections, whole: np.ndarray) -> Detections:
    """The boxes ``whole`` marks, and each other box that stands in line with one of them as a tile of its row does,
    grown to that neighbour's height and width round its own centre; the rest (caption letters, pips, a tile's half
    beside its whole box) dropped. A 1922 print's faint 1C, boxed round its lower two thirds at one look only, is the
    row's first tile, not a letter: a letter is under half a tile's height, or lies above or below the row."""
    if whole.all() or not whole.any():
        return dets[np.flatnonzero(whole)]
    boxes = dets.boxes.copy()
    rows = boxes[whole]
    keep = whole.copy()
    for k in np.flatnonzero(~whole):
        x, y, w, h = boxes[k]
        cy = y + h / 2
        gap = np.maximum(rows[:, 0] - (x + w), x - (rows[:, 0] + rows[:, 2]))
        beside = (h >= IN_LINE_HEIGHT * rows[:, 3]) & (cy >= rows[:, 1]) & (cy <= rows[:, 1] + rows[:, 3]) \
            & (gap >= 0) & (gap <= IN_LINE_GAP * rows[:, 2])
        if not beside.any():
            continue
        row = rows[np.flatnonzero(beside)[np.argmin(gap[beside])]]
        grown = np.array([x + w / 2 - row[2] / 2, row[1], row[2], row[3]], np.float32)
        if iou_matrix(grown[None], rows).max() < 0.3:
            boxes[k], keep[k] = grown, True
    return dets.with_(boxes=boxes)[np.flatnonzero(keep)]


def size_likeness(boxes: np.ndarray, tiles: np.ndarray) -> np.ndarray:
    """How like the photo's tiles (``tiles``, the boxes that showed their size) each box is in size: the product of
    its short and long sides' ratios to theirs (the smaller over the larger), 1 for the same size whichever way it
    lies, 0.5 for a tile's half."""
    ref = np.median(np.sort(tiles[:, 2:], axis=1), axis=0)
    own = np.sort(boxes[:, 2:], axis=1)
    ratio = own / ref
    like: np.ndarray = np.minimum(ratio, 1 / ratio).prod(axis=1)
    return like


#: The colour bare paper is painted for the detector: a table's (the detector was taught tiles on tables).
TABLE_PAINT = (60, 100, 70)
#: A tile found only on the painted page is added where at most this share of it lies under a box found already, and
#: it is sized like the photo's tiles at least this much (``size_likeness``).
PAPER_COVERED, PAPER_LIKENESS = 0.2, 0.7


#: In a row with a tile: centres level within this share of its height, heights alike within ``ROW_HEIGHTS``, and at
#: most ``ROW_GAP`` of its widths apart.
ROW_LEVEL, ROW_HEIGHTS, ROW_GAP = 0.25, (0.75, 1.33), 2.0


def in_a_row_with(boxes: np.ndarray, tiles: np.ndarray) -> np.ndarray:
    """Which boxes lie in a row with one of ``tiles``: a tile laid beside it, not a caption above or below the row."""
    if not len(tiles):
        return np.zeros(len(boxes), bool)
    cy, tcy = boxes[:, 1] + boxes[:, 3] / 2, tiles[:, 1] + tiles[:, 3] / 2
    level = np.abs(cy[:, None] - tcy[None]) <= ROW_LEVEL * tiles[None, :, 3]
    heights = boxes[:, 3:4] / tiles[None, :, 3]
    alike = (heights >= ROW_HEIGHTS[0]) & (heights <= ROW_HEIGHTS[1])
    gap = np.maximum(tiles[None, :, 0] - (boxes[:, :1] + boxes[:, 2:3]), boxes[:, :1] - (tiles[None, :, 0] + tiles[None, :, 2]))
    near = gap <= ROW_GAP * tiles[None, :, 2]
    out: np.ndarray = (level & alike & near).any(axis=1)
    return out


def grown(start: np.ndarray, beside: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """``start`` (a mask of boxes) and every box ``beside`` says lies by the boxes kept so far, taken again until none
    is added: a row grows along itself from the tiles it starts from."""
    keep: np.ndarray = start.copy()
    while (more := ~keep & beside(keep)).any():
        keep |= more
    return keep


def paper_painted(rgb: np.ndarray) -> np.ndarray | None:
    """A printed page with its bare paper (as light as the page's, joined to its edge) painted as a table, or None
    where the photo is no page (``geometry.paper_grey``). A tile's face, greyer than the paper and ringed by its edge,
    keeps its own colours."""
    paper = paper_grey(rgb)
    if paper is None:
        return None
    bare = (to_grey(rgb) >= paper - FLAT).astype(np.uint8)
    _, parts = cv2.connectedComponents(bare, connectivity=4)
    edge = np.unique(np.concatenate([parts[0], parts[-1], parts[:, 0], parts[:, -1]]))
    painted: np.ndarray = rgb.copy()
    painted[np.isin(parts, edge[edge > 0])] = TABLE_PAINT
    return painted


def looks(rgb: np.ndarray, model: Model | None = None, threshold: float = SCORE_THRESHOLD, close_up_model: Model | None = None,
          close_ups: bool = True) -> Looks:
    """The looks ``detect`` reads the photo at: where its tiles are about ``LOOK_TILES`` pixels.

    The base look and the wide look together show the tiles' size (``tile_size``), never caption letters or pips;
    each look is then taken at the long side that makes the tiles that size, a look already taken serving when near
    enough. Tiles in a far photo of a whole table are looked at larger, a close-up of a few tiles smaller. Where the
    close-up detector (``close_up_model``, else the shipped one) boxes large tiles (``close_up_tiles``) that no whole
    tile of the base looks lies beside (``close_up_rather``), the photo is a close-up, read by it alone at framed
    looks (``close_up_looks``); ``close_ups=False`` reads every photo with ``model`` alone (the beside detector).
    """
    model = model or load_model("detector")
    long_side = max(rgb.shape[:2])
    base_image = scaled_look(rgb, DETECT_LONG_SIDE)
    taken = {DETECT_LONG_SIDE: detect_at(rgb, model, threshold, DETECT_LONG_SIDE, base_image),
             WIDE_LOOK: detect_at(rgb, model, threshold, WIDE_LOOK, base_image)}
    base = taken[DETECT_LONG_SIDE]
    tiles = tile_size(base, taken[WIDE_LOOK], long_side)
    taken[WIDEST_LOOK] = detect_at(rgb, model, threshold, WIDEST_LOOK, base_image)
    tiles = tile_size(base, taken[WIDEST_LOOK], long_side) if tiles is None else bearing(tiles, taken[WIDEST_LOOK], long_side)
    if tiles is None:  # a face-down tile alone in the frame: the detector is sure of it only at the smallest look
        taken[SMALLEST_LOOK] = detect_at(rgb, model, threshold, SMALLEST_LOOK, base_image)
        tiles = tile_size(base, taken[SMALLEST_LOOK], long_side, smallest=LONE_TILE)
    sure = base[base.scores >= CONFIDENT]
    if tiles is None and len(sure):
        tiles = sure  # the wide looks box nothing sure, or only clumps of a far photo's tiles
    if close_ups:
        close_up_model = close_up_model or load_model("closeup_detector")
        close = close_up_tiles(rgb, close_up_model, threshold, base_image)
        shown = base if tiles is None else tiles  # nothing sure at the base looks: what they found at all
        if close is not None:
            close = clumps_dropped(close, shown, sure)
        if close is not None and close_up_rather(shown, close, rgb.shape[:2]):
            return close_up_looks(rgb, close, close_up_model, threshold, taken, base_image)
    if tiles is None:
        return Looks({DETECT_LONG_SIDE: taken[DETECT_LONG_SIDE]}, None, taken, base_image)
    tiles = tile_shaped(tiles)
    tile = float(np.median(tiles.boxes[:, 2:].min(axis=1))) / max(rgb.shape[:2])  # per pixel of long side
    found: dict[int, Detections] = {}
    for size in LOOK_TILES:
        near = [side for side in taken if NEAR_ENOUGH[0] * size <= tile * side <= NEAR_ENOUGH[1] * size]
        side = near[0] if near else int(min(MAX_LONG_SIDE, max(SMALLEST_LOOK, size / max(tile, 1e-6))) // 32 * 32)
        if side not in taken:
            taken[side] = detect_at(rgb, model, threshold, side, base_image)
        found[side] = taken[side]
    page = paper_painted(rgb)
    painted = {side: detect_at(page, model, threshold, side) for side in found} if page is not None else {}
    return Looks(found, tiles, taken, base_image, painted)


def other_looks(rgb: np.ndarray, model: Model | None = None) -> list[Detections]:
    """The detector's looks at the larger scales a tile set chooses among (``TILESET_LONG_SIDES``)."""
    model = model or load_model("detector")
    return [tile_like(detect_at(rgb, model, SCORE_THRESHOLD, side)) for side in TILESET_LONG_SIDES]


def tile_size(base: Detections, wide: Detections, long_side: int, smallest: float = WIDE_SMALLEST) -> Detections | None:
    """The boxes that show the photo's tile size (``long_side``: the photo's) as a wide look sees it, or None when
    it shows nothing sure of a tile's size.

    A tile is boxed at both the base and the wide look, a caption letter or a pip only at the base look: the base
    look's sure boxes the wide look finds too show the size. The wide look's sure boxes too large for the base look
    (``LARGE_TILE``) show it when none agree and the base look's sure boxes lie mostly inside them: a close-up, whose
    tiles the base look misses and whose pips (two or more) it boxes; not where the detector is surer of what they hold
    than of them: those are tiles, the large boxes clumps of them (leo-024 turned over: tiles 0.66-0.90 sure at the
    base look inside 0.50-0.59 boxes of two tiles each at the widest). A box the wide look finds smaller than ``WIDE_SMALLEST`` is
    no evidence (``smallest``, base-look pixels): a far photo's tiles are a few pixels there, and it boxes clumps of them."""
    sure = base[base.scores >= CONFIDENT]
    wide_short = wide.boxes[:, 2:].min(axis=1) * DETECT_LONG_SIDE / long_side
    wide_sure = wide[(wide.scores >= CONFIDENT) & (wide_short >= smallest)]
    if len(sure) and len(wide_sure):
        both = sure[iou_matrix(sure.boxes, wide_sure.boxes).max(axis=1) >= 0.5]
        far = far_hand(sure, both) if len(both) else None
        if far is not None:
            return far
        if len(both) >= min(2, len(sure)):
            return both
    large = wide[(wide.scores >= CONFIDENT) & (wide_short > max(LARGE_TILE, smallest))]
    inside = within(sure.centres, large.boxes) if len(large) else np.zeros(len(sure), bool)
    surer = not len(sure) or not inside.any() or float(np.median(large.scores)) > float(np.median(sure.scores[inside]))
    if len(large) and surer and (not len(sure) or (inside.mean() >= 0.5 and inside.sum() >= 2)):
        return large
    return None


#: A far hand beside larger things: the base look's sure boxes the wide look misses show the tiles' size where a hand's
#: worth of them (``FAR_HAND_TILES``; a close-up of a kong shows six of the next row's tiles), and ``FAR_HAND_MORE`` times
#: as many as the boxes both looks found, are tile-shaped, of one size (``FAR_HAND_ONE_SIZE``), in rows
#: (``in_a_row_with``), beside those boxes, not on them, and ``FAR_HAND_SMALLER`` times smaller than they are.
FAR_HAND_TILES = 8
FAR_HAND_MORE = 2
FAR_HAND_ONE_SIZE = 1.4
FAR_HAND_SMALLER = 1.25


def far_hand(sure: Detections, both: Detections) -> Detections | None:
    """The boxes of a hand far from the camera (``sure``: the base look's sure boxes), or None. Beside it lie larger
    things both looks box (``both``): playing cards twice a tile's size were taken for the tiles' size, and the hand's
    fifteen tiles, boxed at the base look alone (the wide look sees them in twos), were dropped as too small."""
    rest = sure[iou_matrix(sure.boxes, both.boxes).max(axis=1) < 0.5]
    rest = rest[~within(rest.centres, both.boxes)]  # a close-up's pips and sticks lie on its tiles, a far hand beside them
    rest = rest[shaped_as_tiles(rest.boxes)]
    if len(rest) < max(FAR_HAND_TILES, FAR_HAND_MORE * len(both)):
        return None
    short = rest.boxes[:, 2:].min(axis=1)
    rest = rest[np.abs(np.log(short / np.median(short))) <= np.log(FAR_HAND_ONE_SIZE)]
    in_rows = np.array([in_a_row_with(rest.boxes[k:k + 1], np.delete(rest.boxes, k, axis=0))[0] for k in range(len(rest))], bool)
    tiles = rest[in_rows] if len(rest) else rest
    if len(tiles) < max(FAR_HAND_TILES, FAR_HAND_MORE * len(both)):
        return None
    smaller = float(np.median(both.boxes[:, 2:].min(axis=1))) >= FAR_HAND_SMALLER * float(np.median(tiles.boxes[:, 2:].min(axis=1)))
    return tiles if smaller else None


#: Boxes that showed the tile size lying outside every box ``bearing`` takes for a tile bearing them as pips: this many
#: or more are tiles of their own, and the large boxes clumps of them. Cut from real photos, a close-up of one or two
#: tiles left at most 4 outside (pips of a neighbour cut by the frame); drawn beside a hand, a keyboard's keys and the
#: hand's tiles left 5-19 outside 96 px clumps of keys, and the hand was read at a sixth of its tiles' size.
LEFT_UNBORNE = 5


def bearing(tiles: Detections, wider: Detections, long_side: int) -> Detections:
    """``tiles``, the boxes that showed a photo's tile size, or where a wider look's sure boxes too large for the base
    look each hold two or more of them (each at most half as long as the box's short side), and fewer than
    ``LEFT_UNBORNE`` of them lie outside all such boxes, those boxes: the tiles bearing them as pips
    (``long_side``: the photo's). A 7 of dots close up shows seven round pips a quarter of its width, and the base and
    wide looks both box them (0.8-0.9 sure), as the tiles' size; the 96 px look boxes the tiles (0.96). Where no such
    box holds two, those holding one each do, two or more in all: a 2 of dots close up shows two large circles, one of
    each taken for the tiles' size (set01-6's four tiles cut to the frame, two of them 2 of dots, were read at the
    circles' size: four 1 of dots, none of the four)."""
    short = wider.boxes[:, 2:].min(axis=1)
    large = wider[(wider.scores >= CONFIDENT) & (short * DETECT_LONG_SIDE / long_side > LARGE_TILE)]
    if not len(large):
        return tiles
    b = large.boxes
    held = inside_which(tiles.centres, b) & (tiles.boxes[:, 2:].max(axis=1)[:, None] <= b[:, 2:].min(axis=1)[None] / 2)
    bears = held.sum(axis=0) >= 2
    left = int((~held[:, bears].any(axis=1)).sum())
    if not bears.any() and held.any(axis=1).sum() >= 2:  # one pip each
        bears = held.any(axis=0)
        left = int((~held.any(axis=1)).sum())
    return large[bears] if bears.any() and left < LEFT_UNBORNE else tiles


def halves_joined(dets: Detections, tiles: Detections, whole: np.ndarray) -> tuple[Detections, np.ndarray]:
    """Two boxes side by side or one above the other, each at most half a tile (``HALF_A_TILE``), that together are
    sized as one (``JOINED_TILE``) and nearer it than either: one tile, boxed whole. The detector boxes the two
    characters of a 1922 print's tile (a numeral and 万) apart when it sees them large, often looser than half a
    tile: two boxes up to ``LOOSE_HALF`` each, squarer than a tile, that together are nearly one (``NEARLY_A_TILE``)
    and no longer, are joined too. A gap between the two of more than ``HALVES_GAP`` of a tile's short side, or an
    overlap of more than a third of either, is two things. ``whole`` marks the boxes that are tiles rather than
    letters or pips (two looks found them, or they are half a tile or more): a tile joined from two halves is one where
    both halves are, or either is and together they are nearly a tile (``NEARLY_A_TILE``), so a half only one look
    boxes is kept with its other half (example 5's 万 under 九)."""
    like_all = size_likeness(dets.boxes, tiles.boxes) if len(dets) else np.zeros(0)
    parts = np.flatnonzero(like_all < LOOSE_HALF)  # a box as large as two thirds of a tile is no one's half
    if len(parts) < 2:
        return dets, whole
    b, like = dets.boxes[parts], like_all[parts]
    short = float(np.median(np.sort(tiles.boxes[:, 2:], axis=1)[:, 0]))
    x1, y1 = np.minimum(b[:, None, 0], b[None, :, 0]), np.minimum(b[:, None, 1], b[None, :, 1])
    x2 = np.maximum(b[:, None, 0] + b[:, None, 2], b[None, :, 0] + b[None, :, 2])
    y2 = np.maximum(b[:, None, 1] + b[:, None, 3], b[None, :, 1] + b[None, :, 3])
    union = np.stack([x1, y1, x2 - x1, y2 - y1], -1)
    ulike = size_likeness(union.reshape(-1, 4), tiles.boxes).reshape(len(b), len(b))
    ox = np.minimum(b[:, None, 0] + b[:, None, 2], b[None, :, 0] + b[None, :, 2]) - np.maximum(b[:, None, 0], b[None, :, 0])
    oy = np.minimum(b[:, None, 1] + b[:, None, 3], b[None, :, 1] + b[None, :, 3]) - np.maximum(b[:, None, 1], b[None, :, 1])
    minw, minh = np.minimum(b[:, None, 2], b[None, :, 2]), np.minimum(b[:, None, 3], b[None, :, 3])
    beside = (oy >= 0.6 * minh) & (ox >= -HALVES_GAP * short)
    above = (ox >= 0.6 * minw) & (oy >= -HALVES_GAP * short)
    apart = (beside & (ox <= minw / 3)) | (above & (oy <= minh / 3))
    near = (beside & (ox <= minw / 2)) | (above & (oy <= minh / 2))
    halves = (like[:, None] < HALF_A_TILE) & (like[None, :] < HALF_A_TILE) & (ulike >= JOINED_TILE) & apart
    squarer = aspect(b) < HALF_SHAPED
    loose = (ulike >= NEARLY_A_TILE) & squarer[:, None] & squarer[None, :] & near \
        & (aspect(union.reshape(-1, 4)).reshape(len(b), len(b)) <= JOINED_LONGEST)
    ok = (halves | loose) & (ulike > like[:, None]) & (ulike > like[None, :])
    np.fill_diagonal(ok, False)
    used = np.zeros(len(b), bool)
    boxes, scores, whole = dets.boxes.copy(), dets.scores.copy(), whole.copy()
    drop = []
    for flat in np.argsort(-np.where(ok, ulike, -1), axis=None):
        i, j = divmod(int(flat), len(b))
        if not ok[i, j]:
            break
        if used[i] or used[j]:
            continue
        used[i] = used[j] = True
        a, z = parts[i], parts[j]
        carried = whole[a] or whole[z] if ulike[i, j] >= NEARLY_A_TILE else whole[a] and whole[z]
        boxes[a], scores[a], whole[a] = union[i, j], max(scores[a], scores[z]), carried
        drop.append(z)
    keep = np.setdiff1d(np.arange(len(dets)), drop)
    return dets.with_(boxes=boxes, scores=scores)[keep], whole[keep]


def tile_shaped(tiles: Detections) -> Detections:
    """Of the boxes that showed a photo's tile size, those shaped as tiles (``TILE_SHAPED``, no sliver of a
    neighbour cut by the frame), where two or more are
    (all, if fewer): on the 1922 pages most of those boxes were square, a tile's one character or a caption letter
    boxed at both looks (their long side 1.1 times their short, the tiles' 1.3), and sized the tiles a fifth small
    and square, so that a tile's half was as like them as the tile."""
    short, long = tiles.boxes[:, 2:].min(axis=1), tiles.boxes[:, 2:].max(axis=1)
    shaped = tiles[(long >= TILE_SHAPED * short) & (long <= MAX_ASPECT * short)]
    return shaped if len(shaped) >= min(2, len(tiles)) else tiles


def aspect(boxes: np.ndarray) -> np.ndarray:
    """Each box's long side over its short side, whichever way it lies."""
    sides = np.sort(boxes[:, 2:], axis=1)
    ratio: np.ndarray = sides[:, 1] / np.maximum(sides[:, 0], 1e-9)
    return ratio


def shaped_as_tiles(boxes: np.ndarray) -> np.ndarray:
    """Which boxes are shaped as tiles: ``aspect`` from ``TILE_SHAPED`` to ``MAX_ASPECT``."""
    ratio = aspect(boxes)
    shaped: np.ndarray = (ratio >= TILE_SHAPED) & (ratio <= MAX_ASPECT)
    return shaped


def within(points: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Which points (x, y) lie inside any of the boxes."""
    return np.asarray(inside_which(points, boxes).any(axis=1))


def inside_which(points: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """(points, boxes): whether each point (x, y) lies inside each box."""
    x, y = points[:, :1], points[:, 1:]
    return np.asarray((x >= boxes[:, 0]) & (x <= boxes[:, 0] + boxes[:, 2]) & (y >= boxes[:, 1]) & (y <= boxes[:, 1] + boxes[:, 3]))


def sideways(boxes: np.ndarray) -> np.ndarray:
    """Tiles lying on their long side: wider than tall (the classifier's crop turns these a quarter)."""
    return boxes[:, 2] > 1.2 * boxes[:, 3]


def tile_like(dets: Detections, tiles: Detections | None = None) -> Detections:
    """Drop boxes that cannot be tiles: too long and thin (counters, lines of text), far shorter on either
    side than the photo's tiles (``tiles``, else the confident boxes: caption words, letters, pips; a tile's
    short side is the same whichever way it lies), or lying inside another tile's box."""
    if len(dets) < 2:
        return dets
    b = dets.boxes
    short, long = b[:, 2:].min(axis=1), b[:, 2:].max(axis=1)
    keep = long / short <= MAX_ASPECT
    if tiles is None:
        sure = keep & (dets.scores >= CONFIDENT)
        sizes = np.stack([short[sure], long[sure]], 1)
    else:
        sizes = np.sort(tiles.boxes[:, 2:], axis=1)
    if len(sizes) >= 3 or (tiles is not None and len(sizes)):
        keep &= (short >= MIN_SIDE_SHARE * float(np.median(sizes[:, 0]))) & (long >= MIN_SIDE_SHARE * float(np.median(sizes[:, 1])))
    area = b[:, 2] * b[:, 3]
    inside = overlap_areas(b, b) / area[:, None] > INSIDE_SHARE
    bigger = area[None, :] > 1.5 * area[:, None]
    keep &= ~(inside & bigger & keep[None, :]).any(axis=1)
    return dets[keep]


def not_astride(dets: Detections) -> Detections:
    """The boxes, less those the detector is unsure of that lie astride two surer ones (``ASTRIDE_SHARE``)."""
    if len(dets) < 3:
        return dets
    b = dets.boxes
    under = overlap_areas(b, b) / (b[:, 2] * b[:, 3])[:, None]
    surer = dets.scores[None, :] > dets.scores[:, None]
    astride = (dets.scores < CONFIDENT) & (((under >= ASTRIDE_SHARE) & surer).sum(axis=1) >= 2)
    return dets[np.flatnonzero(~astride)]


def detect_at(rgb: np.ndarray, model: Model, threshold: float, long_side: int, larger: np.ndarray | None = None) -> Detections:
    """One look at the photo scaled to ``long_side`` (from ``larger`` where it serves: ``scaled_look``)."""
    x, scale = detector_input(rgb, long_side, larger)
    maps = model.run(x)[0][0]
    dets = decode(maps, scale, threshold)
    h, w = rgb.shape[:2]
    if len(dets):
        b = dets.boxes.copy()
        x1, y1 = np.clip(b[:, 0], 0, w - 1), np.clip(b[:, 1], 0, h - 1)
        x2, y2 = np.clip(b[:, 0] + b[:, 2], 1, w), np.clip(b[:, 1] + b[:, 3], 1, h)
        dets = dets.with_(boxes=np.stack([x1, y1, np.maximum(x2 - x1, 1), np.maximum(y2 - y1, 1)], 1))
    return nms(dets)


def detect_framed(rgb: np.ndarray, model: Model, threshold: float, long_side: int, larger: np.ndarray | None = None) -> Detections:
    """One close-up look: the photo scaled to ``long_side`` and laid in a canvas of its border's colour (``framed``),
    read by ``model``; boxes in the photo's pixels, clipped to it, those centred off it dropped."""
    small = scaled_look(rgb, long_side, larger)
    canvas, (ox, oy) = framed(small)
    dets = decode(model.run(to_input(canvas[None]))[0][0], 1.0, threshold)
    if not len(dets):
        return dets
    h, w = small.shape[:2]
    b = dets.boxes - np.array([ox, oy, 0, 0], np.float32)
    cx, cy = b[:, 0] + b[:, 2] / 2, b[:, 1] + b[:, 3] / 2
    on = (cx >= 0) & (cx < w) & (cy >= 0) & (cy < h)
    x1, y1 = np.clip(b[:, 0], 0, w), np.clip(b[:, 1], 0, h)
    x2, y2 = np.clip(b[:, 0] + b[:, 2], 0, w), np.clip(b[:, 1] + b[:, 3], 0, h)
    scale = np.array([rgb.shape[1] / w, rgb.shape[0] / h] * 2, np.float32)
    boxes = np.stack([x1, y1, np.maximum(x2 - x1, 1), np.maximum(y2 - y1, 1)], 1) * scale
    return nms(Detections(boxes, dets.scores)[np.flatnonzero(on)])


def close_up_tiles(rgb: np.ndarray, model: Model, threshold: float, larger: np.ndarray | None = None) -> Detections | None:
    """The tiles of a close-up, too large for the detector's looks (``CLOSE_UP_SHARE`` of the photo's long side or
    more), as the close-up looks (``CLOSE_UP_LOOKS``) box them surely and tile-shaped, or squatter but in a row with
    such tiles (set05-1's fourth of four tiles, boxed 103 by 108 at 0.47: its pips, lying off the other three, kept
    the cut from being read as a close-up, and 8 of 12 were read), or unsurely where two looks box them alike
    (``seen_alike``); None where they box none. Where the smaller look boxes something that large only squat or
    unsurely, a tile filling the frame edge to edge, framed a little tight, the tighter look (``TIGHT_CLOSE_UP_LOOK``)
    is taken too (set01-1's 5 of bamboo alone, 137 by 149 at 0.47, is boxed 156 by 219 at 0.56 there).
    A box centred on a sure box of twice its area or more is a pip or a character of that tile: one tile filling the
    frame is too large for the larger look, which boxes its pips as tiles."""
    long_side = max(rgb.shape[:2])
    found = [detect_framed(rgb, model, threshold, side, larger) for side in CLOSE_UP_LOOKS]
    smallest = found[0]
    doubtful = (smallest.scores < CLOSE_UP_SURE) | (aspect(smallest.boxes) < CLOSE_UP_SHAPED)
    if ((smallest.boxes[:, 2:].min(axis=1) >= CLOSE_UP_SHARE * long_side) & doubtful).any():
        found.append(detect_framed(rgb, model, threshold, TIGHT_CLOSE_UP_LOOK, larger))
    every = Detections(np.concatenate([d.boxes for d in found]), np.concatenate([d.scores for d in found]))
    ratio = aspect(every.boxes)
    large = (every.boxes[:, 2:].min(axis=1) >= CLOSE_UP_SHARE * long_side) & (ratio <= MAX_ASPECT)
    look = np.concatenate([np.full(len(d), i) for i, d in enumerate(found)])
    big = large & ((every.scores >= CLOSE_UP_SURE) | seen_alike(every, look, large))
    shaped = big & (ratio >= CLOSE_UP_SHAPED)
    squat = np.flatnonzero(big & ~shaped)
    if len(squat) and shaped.any():  # boxed squat, but in a row with the tiles: a tile of theirs
        shaped[squat[in_a_row_with(every.boxes[squat], every.boxes[shaped])]] = True
    large = every[np.flatnonzero(shaped)]
    if not len(large):
        return None
    area = np.prod(large.boxes[:, 2:], axis=1)
    on_larger = (inside_which(large.centres, large.boxes) & (area[None, :] >= 2 * area[:, None])).any(axis=1)
    return nms(large[np.flatnonzero(~on_larger)])


def seen_alike(every: Detections, look: np.ndarray, large: np.ndarray) -> np.ndarray:
    """Which ``large`` boxes another look boxed alike (``ALIKE_IOU``), ``look`` saying which look boxed each: looks at
    two scales agreeing on one tile are evidence its score alone does not give."""
    alike: np.ndarray = (iou_matrix(every.boxes, every.boxes) >= ALIKE_IOU) & (look[:, None] != look[None]) & large[None, :]
    return large & alike.any(axis=1)


def clumps_dropped(close: Detections, tiles: Detections, sure: Detections) -> Detections | None:
    """A close-up's large tiles (``close``), less those on which lie ``CLUMP`` or more of the tile-shaped boxes the
    base looks found (``tiles``: those that showed the tiles' size, or every box of the base look where none did),
    covering ``CLUMP_COVER`` of it, or ``MORE_THAN_PIPS`` of the base look's ``sure`` ones however small: those are
    clumps of tiles (a 1922 print's four kongs, boxed as one tile at 0.57) or a hand's stretch of table; None where
    none is left. A tile filling the frame holds its pips and characters, small beside it, a few of them tile-shaped."""
    held, cover = tiles_held(close, tiles)
    kept = np.flatnonzero(((held < CLUMP) | (cover < CLUMP_COVER)) & (tiles_held(close, sure)[0] < MORE_THAN_PIPS))
    return close[kept] if len(kept) else None


def tiles_held(large: Detections, tiles: Detections) -> tuple[np.ndarray, np.ndarray]:
    """For each of the ``large`` boxes, how many of the tile-shaped ``tiles`` lie on it (by their centres) and what
    share of its area they cover."""
    shaped = tiles[np.flatnonzero(shaped_as_tiles(tiles.boxes))]
    if not len(shaped) or not len(large):
        return np.zeros(len(large), int), np.zeros(len(large))
    on = inside_which(shaped.centres, large.boxes)
    cover = (on * np.prod(shaped.boxes[:, 2:], axis=1)[:, None]).sum(axis=0) / np.prod(large.boxes[:, 2:], axis=1)
    return on.sum(axis=0), cover


def close_up_rather(tiles: Detections, close: Detections, size: tuple[int, int]) -> bool:
    """Whether a close-up's large tiles (``close``) are the photo's (``size``: its height and width) rather than the
    tiles the base looks found (``tiles``, as ``clumps_dropped`` takes them): none of those lies off them but where the
    frame cuts it. On them lie their pips and characters, and at the frame's edge the next tiles, cut; a tile whole
    beside them says the large ones are clumps or things beside a hand (leo-037 turned over: two stacked tiles boxed
    as one at 0.54, four tiles beside; a keyboard's 0.54 box beside a far hand; a bookshelf's books behind leo-059's
    hand, 0.55-0.59). Only those boxes are set against them, not every sure box of the base look: on the eleven real
    photos' close-ups, sure pips and characters lying between the large tiles would cost 16 of 491 tiles. The
    close-up looks read a few large tiles better than the base looks even where both see their size (three real
    tiles filling the frame: 12 of 12, not 6). Large tiles it is certain of (``CLOSE_UP_CERTAIN``), half of them or
    more, are the photo's however: behind leo-010's four tiles cut to the frame (0.85-0.92), the spines of the
    bookshelf were boxed as tiles, and the cut was read at their size (4 of 8 tiles in its two four-tile cuts); above
    leo-059's first four cut with the phone upright (0.69-0.85), two spines were, and none of the four was read."""
    if float(np.median(close.scores)) >= CLOSE_UP_CERTAIN:
        return True
    h, w = size
    cut = reaches_the_frame(tiles.boxes, (w, h), (FRAME_EDGE * w, FRAME_EDGE * h))
    return not (~within(tiles.centres, close.boxes) & ~cut).any()


def close_up_looks(rgb: np.ndarray, tiles: Detections, model: Model, threshold: float, taken: dict[int, Detections],
                   image: np.ndarray) -> Looks:
    """A close-up's looks: framed looks (``detect_framed``) at the long sides that make ``tiles`` (its large tiles)
    ``CLOSE_UP_TILES`` pixels; or, where the close-up detector was sure of none of them (``seen_alike``), those tiles
    themselves: looked at again, set05-1's north wind alone was boxed round its character, a third of it."""
    if tiles.scores.max() < CLOSE_UP_SURE:
        return Looks({CLOSE_UP_LOOKS[0]: tiles}, tiles, taken, image, close_up=True)
    tile = float(np.median(tiles.boxes[:, 2:].min(axis=1))) / max(rgb.shape[:2])
    found = {}
    for size in CLOSE_UP_TILES:
        side = round(size / tile)
        found[side] = detect_framed(rgb, model, threshold, side, image)
    return Looks(found, tiles, taken, image, close_up=True)


def sizes_by_orientation(dets: Detections, own: np.ndarray | None = None) -> Detections:
    """Give every box the median size of the photo's tiles of its orientation, then drop duplicates.

    The tiles of one set share one size; upright and sideways tiles are sized apart, so a sideways
    tile keeps its width and is still turned upright for the classifier. Used with a tile set, where
    the detector (trained on other sets) can misjudge a tile's extent but still finds its centre. The size is
    the boxes' that are the set's own tiles (``own``: its faces match them), never that of every box the detector
    is sure of: caption letters are, and sized as letters, the 1922 book's tiles were lost (example_11). Where two
    boxes sized alike overlap, the set's own tile is kept over a box its faces do not match (a tile's half, print).
    """
    if len(dets) < 3:
        return dets
    boxes = dets.boxes.copy()
    side = sideways(boxes)
    c = dets.centres
    sure = dets.scores >= CONFIDENT
    for turned in (False, True):
        mine = side == turned
        source = next((m for m in (mine & sure & own if own is not None else None, mine & sure) if m is not None and m.sum() >= 2), mine)
        if source.sum() == 0:
            continue
        wh = np.median(boxes[source, 2:], axis=0)
        boxes[mine, 2:] = wh
        boxes[mine, :2] = c[mine] - wh / 2
    return nms(dets.with_(boxes=boxes), iou=0.3, rank=None if own is None else dets.scores + own)
