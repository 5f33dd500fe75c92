"""Step 2: name every detected tile (code, confidence, top-3), optionally against a calibrated tile set."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Protocol

import cv2
import numpy as np

from recognizer.assignment import assign
from recognizer.detections import Detections
from recognizer.errors import BadPhotoError
from recognizer.geometry import (
    CROP_H,
    CROP_W,
    TILT_READ,
    box_key,
    crop_tile,
    crop_turned,
    reaches_the_frame,
    scaled,
    tilt_of,
    to_grey,
    to_input,
    upright_boxes,
)
from recognizer.labels import CLASSES, FACE_DOWN, NOT_A_TILE
from recognizer.models import Model, load_model
from scoring.tiles import BONUS_CODES

NT_INDEX = CLASSES.index(NOT_A_TILE)
XX_INDEX = CLASSES.index(FACE_DOWN)
WD_INDEX = CLASSES.index("WD")
BATCH = 64
#: Where the eight flowers and seasons sit among the classifier's classes.
BONUS_INDEX = np.array([CLASSES.index(c) for c in BONUS_CODES])


class LearntSet(Protocol):
    """What reading asks of a learnt tile set: ``recognizer.tileset.TileSet``, named here by what it does because
    that module builds on this one."""

    @property
    def calibrated(self) -> bool: ...

    def probabilities(self, crops: np.ndarray, probs: np.ndarray, emb: np.ndarray) -> np.ndarray: ...

    def with_examples(self, crops: np.ndarray, probs: np.ndarray, emb: np.ndarray) -> np.ndarray: ...


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    probs: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return probs


def crops_of(rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """(N, H, W, 3) uint8 classifier crops, one per box."""
    return np.stack([crop_tile(rgb, b) for b in boxes]) if len(boxes) else np.zeros((0, CROP_H, CROP_W, 3), np.uint8)


def run_classifier(crops: np.ndarray, model: Model | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Crops -> (probabilities (N, len(CLASSES)), unit embeddings (N, D)).

    Tiles lie either way up on a table (a photo taken across it shows the far sets upside down), so
    every crop is read as it is and turned half a turn, and the two readings' probabilities are
    averaged: a tile reads the same from both sides of the table, and two looks are surer than one.
    The embedding (for tile-set prototypes) is the crop's own, as calibrated.
    """
    model = model or load_model("classifier")
    if not len(crops):
        return np.zeros((0, len(CLASSES)), np.float32), np.zeros((0, embedding_size(model)), np.float32)
    probs, (embs,) = read_both_ways_up(model, crops)
    return probs, embs


def embedding_size(model: Model) -> int:
    """The length of the classifier's embedding (its second output)."""
    return int(model.session.get_outputs()[1].shape[1])


def read_both_ways_up(model: Model, crops: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """A model's first output as probabilities, each crop read as it is and turned half a turn, the two averaged;
    its other outputs as the upright crops give them. ``crops`` must not be empty."""
    probs: list[np.ndarray] = []
    others: list[list[np.ndarray]] = []
    for a in range(0, len(crops), BATCH // 2):
        part = crops[a:a + BATCH // 2]
        first, *rest = model.run(to_input(np.concatenate([part, part[:, ::-1, ::-1]])))
        p = softmax(first)
        probs.append((p[:len(part)] + p[len(part):]) / 2)
        others.append([r[:len(part)] for r in rest])
    return np.concatenate(probs), [np.concatenate(outs) for outs in zip(*others)]


#: A tile read this surely as a face (not blank, not a back, not "not a tile") shows the photo's face colour.
FACE_SURE = 0.6
#: Faces needed before the photo's face colour is trusted, and the most it is taken from (spread over the photo); in a
#: close-up whose every other tile is a sure face, those faces are all the photo has, and one is enough.
FACES_NEEDED, FACES_USED = 3, 32
#: Colour only decides between blank and back when the classifier gives each at least this much: one it all but
#: rules out (a wall's tiles seen edge on are white, and surely backs) stays ruled out.
TORN = 0.05
#: Paper colours closer than this to the faces' (OpenCV's 8-bit CIELAB, lightness 0-255 weighted ``LIGHTNESS_WEIGHT``) are a face...
FACE_NEAR = 8.0
#: ... and farther than this are not: a tile back.
BACK_FAR = 20.0
#: Light and shade move a face's lightness across a photo far more than its hue, so lightness (0-255) counts a quarter.
LIGHTNESS_WEIGHT = 0.25


def paper_colour(rgb: np.ndarray, box: np.ndarray) -> np.ndarray:
    """CIELAB colour (OpenCV's 8-bit scale) of a tile's bare face or back: the median of the brighter half of its middle,
    so ink does not count; NaN where the middle lies off the photo."""
    x, y, w, h = (float(v) for v in box)
    top, bottom = max(math.floor(y + 0.3 * h), 0), max(math.floor(y + 0.7 * h) + 1, 0)
    left, right = max(math.floor(x + 0.3 * w), 0), max(math.floor(x + 0.7 * w) + 1, 0)
    mid = rgb[top:bottom, left:right]
    if not mid.size:
        return np.full(3, np.nan, np.float32)
    lab = cv2.cvtColor(np.ascontiguousarray(mid.reshape(1, -1, 3)), cv2.COLOR_RGB2LAB).reshape(-1, 3).astype(np.float32)
    return np.asarray(np.median(lab[lab[:, 0] >= np.median(lab[:, 0])], axis=0), np.float32)


def blank_or_back(rgb: np.ndarray, boxes: np.ndarray, probs: np.ndarray, alone: bool = False) -> np.ndarray:
    """Probabilities with each blank white dragon told from a tile back by the colour of the photo's other faces.

    A blank white dragon and a plain back differ only in colour, which the classifier, trained on many
    sets, cannot know for this one; but one set has one face colour. Where the tiles read surely as faces
    say what it is, a tile the classifier finds blank or back (``TORN``) whose paper is that colour is a face (the
    white dragon), and one far from it is a back: the two readings trade places. Too few sure faces, or a colour
    between: unchanged. ``alone``: a tile photographed by itself is shown to be named, so torn, it is the blank face.
    """
    top = probs.argmax(axis=1)
    unsure = np.flatnonzero(np.isin(top, (WD_INDEX, XX_INDEX)) & (np.minimum(probs[:, WD_INDEX], probs[:, XX_INDEX]) >= TORN))
    trade = unsure[top[unsure] == XX_INDEX] if alone else _misread_by_colour(rgb, boxes, probs, top, unsure)
    out: np.ndarray = probs.copy()
    blank_back = np.array([WD_INDEX, XX_INDEX])
    out[np.ix_(trade, blank_back)] = probs[np.ix_(trade, blank_back[::-1])]
    return out


def _misread_by_colour(rgb: np.ndarray, boxes: np.ndarray, probs: np.ndarray, top: np.ndarray, unsure: np.ndarray) -> np.ndarray:
    """Of the ``unsure`` tiles, those read as backs whose paper is the faces' colour and those read blank far from it."""
    none = np.zeros(0, np.int64)
    faces = np.flatnonzero((probs.max(axis=1) >= FACE_SURE) & ~np.isin(top, (WD_INDEX, XX_INDEX, NT_INDEX)))
    if not len(unsure) or not len(faces) or len(faces) < min(FACES_NEEDED, len(probs) - len(unsure)):
        return none
    faces = faces[np.linspace(0, len(faces) - 1, min(len(faces), FACES_USED)).round().astype(np.int64)]
    papers = np.array([paper_colour(rgb, boxes[i]) for i in faces])
    papers = papers[np.isfinite(papers).all(axis=1)]
    if len(papers) < min(FACES_NEEDED, len(faces)):
        return none
    face_colour = np.median(papers, axis=0)
    weight = np.array([LIGHTNESS_WEIGHT, 1.0, 1.0], np.float32)
    distance = np.array([np.linalg.norm((paper_colour(rgb, boxes[i]) - face_colour) * weight) for i in unsure])
    misread = ((top[unsure] == XX_INDEX) & (distance < FACE_NEAR)) | ((top[unsure] == WD_INDEX) & (distance > BACK_FAR))
    return np.asarray(unsure[misread], np.int64)


#: A box the detector gives less than this, at the photo's edge, shows too little to be a tile on its looks alone.
EDGE_BOX_UNSURE = 0.6
#: A box within this many pixels of the photo's edge is cut by the frame.
AT_THE_EDGE = 2.0


def cut_by_the_frame(boxes: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Which boxes (x, y, w, h in the photo as taken, ``size`` its width and height) touch the photo's edge."""
    return reaches_the_frame(boxes, size, (AT_THE_EDGE, AT_THE_EDGE))


def no_blank_cut_by_the_frame(dets: Detections, probs: np.ndarray, cut: np.ndarray) -> np.ndarray:
    """Probabilities with "not a tile" for each box ``cut`` by the photo's frame that the detector is unsure of and
    that reads blank or as a back.

    A blank face and a back show nothing but their colour, and the frame may cut away the outline that makes them a
    tile: white paper, a wall or a book's pages at the photo's edge read so (leo's photos turned, the bookshelf behind
    the table: 7 such boxes on four turned photos, detector 0.36-0.54, none a tile). A face with marks still reads."""
    blank = np.isin(probs.argmax(axis=1), (WD_INDEX, XX_INDEX))
    out: np.ndarray = probs.copy()
    gone = cut & blank & (dets.scores < EDGE_BOX_UNSURE)
    out[gone] = 0.0
    out[gone, NT_INDEX] = 1.0
    return out


def with_probabilities(dets: Detections, probs: np.ndarray) -> Detections:
    """Fill codes, confidence, top-3, face-down flags and the full probabilities from class probabilities."""
    top = np.argsort(-probs, axis=1)[:, :3]
    top_p = np.take_along_axis(probs, top, axis=1)
    return dets.with_(codes=top[:, 0], confidence=top_p[:, 0], top3=top, top3_p=top_p, face_down=top[:, 0] == XX_INDEX, probs=probs)


def classify(rgb: np.ndarray, dets: Detections, tileset: LearntSet | None = None, model: Model | None = None,
             drop_not_tiles: bool = True, cut: np.ndarray | None = None,
             directions: dict[bytes, tuple[float, float]] | None = None) -> Detections:
    """Name each box; boxes the classifier calls "not a tile" are dropped.

    With a calibrated tile set (see recognizer.tileset), the set's own prototypes decide among its codes; without one,
    unsure tiles are read again at other framings and tiles lying askew are also read turned upright; a set's examples
    then add their evidence. Last, the photo's face colour tells blank white dragons from backs, and (without a
    calibrated set, whose own counts its prototypes already keep) no flower or season is read on two tiles.
    ``cut``: which boxes the photo's frame cuts (``cut_by_the_frame``), where a blank or a back is not enough.
    ``directions``: the way the edges run in boxes already looked at on ``rgb`` (``level.slant``'s), from which the
    tiles' tilts are read without measuring them again.
    """
    by_prototypes = tileset is not None and tileset.calibrated  # reads each tile as it stands: no tilts
    tilts = tilts_of(rgb, dets.boxes, directions) if directions and not by_prototypes else None
    probs, emb = face_readings(rgb, dets.boxes, tileset, model, reframe=True, tilts=tilts)
    probs = blank_or_back(rgb, dets.boxes, probs, alone=len(dets) == 1)
    if cut is not None:
        probs = no_blank_cut_by_the_frame(dets, probs, cut)
    if not by_prototypes:  # a calibrated set keeps its own counts
        probs = one_of_each_flower_and_season(probs)
    probs = not_a_tile_only_when_sure(probs)
    out = with_probabilities(dets, probs).with_(embedding=emb)
    if drop_not_tiles:
        out = out[out.codes != NT_INDEX]
    return out


#: A box is dropped as "not a tile" only when the reader gives that at least this chance. The reader taught keys, cards,
#: dominoes and counters as not tiles (``real-lite0-r4``) gives them 0.5-0.96; the printed tiles of Harr's second
#: photo that it calls not a tile, 0.17-0.52 (``models/MODEL_CARD.md``, issue 34).
NOT_A_TILE_SURE = 0.5


def not_a_tile_only_when_sure(probs: np.ndarray) -> np.ndarray:
    """Probabilities where a box read "not a tile" below ``NOT_A_TILE_SURE`` is read as its likeliest face instead, at
    the reader's own low chance for it: it is shown, unsure, for the player to check, not silently dropped. Not when
    that face is a blank or a back: a bare patch of table or paper, or a photo's turned corner, half looks like one."""
    faces = np.delete(probs, NT_INDEX, axis=1).argmax(axis=1)
    faces += faces >= NT_INDEX
    unsure = (probs.argmax(axis=1) == NT_INDEX) & (probs[:, NT_INDEX] < NOT_A_TILE_SURE) & ~np.isin(faces, (WD_INDEX, XX_INDEX))
    out: np.ndarray = probs.copy()
    out[unsure, NT_INDEX] = 0.0
    return out


def one_of_each_flower_and_season(probs: np.ndarray) -> np.ndarray:
    """Probabilities with no flower or season read on two tiles: a set has one of each of the eight.

    Where two tiles are read as the same one, the eight are given out among the tiles read as flowers or seasons so
    that together they are likeliest (``assign``), and each of those tiles loses the chances of the codes the others
    hold. Its other chances are not scaled up: a tile moved off its first reading shows the chance it gave its new
    one, low, so the player is asked to check it. More such tiles than eight (two sets on the table, or misreadings):
    left as read. A moved tile may fall to a face that is no flower at all, never to "not a tile". Harr's 1922 set
    holds two each of four flowers; read with its tile set, this is not applied.
    """
    top = probs.argmax(axis=1)
    read = np.flatnonzero(np.isin(top, BONUS_INDEX))
    if len(np.unique(top[read])) == len(read) or len(read) > len(BONUS_INDEX):
        return probs
    cost = np.zeros((len(BONUS_INDEX), len(BONUS_INDEX)))
    cost[: len(read)] = -np.log(probs[np.ix_(read, BONUS_INDEX)] + 1e-12)
    given = BONUS_INDEX[assign(cost)[: len(read)]]
    out: np.ndarray = probs.copy()
    for k, i in enumerate(read):
        out[i, np.delete(given, k)] = 0.0
        if given[k] != top[i]:
            out[i, NT_INDEX] = 0.0  # it was read as a tile: moved, it is still shown, never dropped
    return out


def face_probabilities(rgb: np.ndarray, boxes: np.ndarray, tileset: LearntSet | None = None, model: Model | None = None,
                       reframe: bool = False, tilts: np.ndarray | None = None) -> np.ndarray:
    """Each box's probabilities over CLASSES (``face_readings`` without the embeddings)."""
    return face_readings(rgb, boxes, tileset, model, reframe, tilts)[0]


def face_readings(rgb: np.ndarray, boxes: np.ndarray, tileset: LearntSet | None = None, model: Model | None = None,
                  reframe: bool = False, tilts: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Each box's probabilities over CLASSES (the classifier's, or a tile set's prototypes'), and the classifier's
    embedding of each box's crop as framed.

    Without a tile set (whose prototypes were learnt at its calibration photo's one framing, standing): with
    ``reframe`` (a photo's tiles) each tile is read as ``read_photo_tiles`` reads it; else tiles lying askew (``tilts``)
    are also read turned upright.

    The classifier reads flowers and seasons itself: trained on real sets' tiles at 160x120, it reads them better
    without the separate reader of rendered flowers that earlier, smaller classifiers needed (models/MODEL_CARD.md)."""
    crops = crops_of(rgb, boxes)
    if tileset is not None and tileset.calibrated and len(crops):
        probs, emb = run_classifier(crops, model)
        probs = tileset.probabilities(crops, probs, emb)
    elif reframe:
        probs, emb = read_photo_tiles(rgb, boxes, crops, model, tilts)
    else:
        probs, emb = run_classifier(crops, model)
        if tilts is not None:
            probs = also_read_upright(lambda c: run_classifier(c, model)[0], rgb, boxes, tilts, probs, (CROP_H, CROP_W))
    if tileset is not None and len(crops):
        probs = tileset.with_examples(crops, probs, emb)
    return probs, emb


#: A photo's tile read at least this surely as it stands (and, lying askew, turned upright: the two averaged) is not
#: read again turned half a turn. The HK crops of sets their fold's reader never saw (337) read one way only 0.938 and
#: both ways 0.958; both ways only under any threshold from 0.5 to 0.95, 0.958 with not one face changed, under 0.8
#: 82 % of them read once (models/MODEL_CARD.md, issue 39).
SURE_ONE_WAY = 0.8


def read_photo_tiles(rgb: np.ndarray, boxes: np.ndarray, crops: np.ndarray, model: Model | None = None,
                     tilts: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A photo's tiles (``crops``, cut from ``boxes``) read in as few classifier calls as the tiles need: probabilities
    over CLASSES and each crop's embedding.

    Every tile is read as it stands, and a tile lying askew (``tilts``, measured here when not given) turned upright
    too, in one call. A tile read surely so (``SURE_ONE_WAY``) keeps that reading. The others are read as a tile
    always was (``run_classifier``, ``also_read_upright``): turned half a turn as well, in a second call; and those
    still under ``READ_AGAIN_BELOW``, the least sure first (``REREAD_AT_MOST``), at the other ``REFRAMINGS`` both
    ways up, in a third. A photo whose tiles all read surely is one call."""
    model = model or load_model("classifier")
    if not len(crops):
        return run_classifier(crops, model)
    tilts = tilts_of(rgb, boxes) if tilts is None else tilts
    askew = np.flatnonzero(np.abs(tilts) >= TILT_READ)
    ways = [upright_boxes(boxes[i], float(tilts[i])) for i in askew]
    owner = np.repeat(askew, [len(tile) for tile in ways])
    upright = np.stack([crop_turned(rgb, way) for tile in ways for way in tile]) if len(owner) else crops[:0]
    first, emb = _outputs(model, np.concatenate([crops, upright]))
    stands, turned_upright = first[:len(crops)], first[len(crops):]
    one_way = _askew_averaged(stands, turned_upright, owner)
    unsure = np.flatnonzero(one_way.max(axis=1) < SURE_ONE_WAY)
    if not len(unsure):
        return one_way, emb[:len(crops)]
    again = np.isin(owner, unsure)
    flipped, _ = _outputs(model, np.concatenate([crops[unsure], upright[again]])[:, ::-1, ::-1])
    both = (stands[unsure] + flipped[:len(unsure)]) / 2
    both = read_again_where_unsure(rgb, boxes[unsure], both, model)
    both_upright = (turned_upright[again] + flipped[len(unsure):]) / 2
    probs = one_way.copy()
    probs[unsure] = _askew_averaged(both, both_upright, np.searchsorted(unsure, owner[again]))
    return probs, emb[:len(crops)]


def _outputs(model: Model, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One classifier call (in ``BATCH``-sized parts) on crops as they are: probabilities and embeddings."""
    probs, embs = [], []
    for a in range(0, len(crops), BATCH):
        logits, emb, *_ = model.run(to_input(crops[a:a + BATCH]))
        probs.append(softmax(logits))
        embs.append(emb)
    return np.concatenate(probs), np.concatenate(embs)


def _askew_averaged(stands: np.ndarray, upright: np.ndarray, owner: np.ndarray) -> np.ndarray:
    """Each tile's reading as it stands, averaged (as ``also_read_upright`` does) with the mean of its readings turned
    upright (``upright``, row k belonging to tile ``owner[k]``) where it has any."""
    if not len(owner):
        return stands
    each = np.zeros_like(stands)
    np.add.at(each, owner, upright)
    counts = np.bincount(owner, minlength=len(stands))
    out: np.ndarray = stands.copy()
    has = counts > 0
    out[has] = (stands[has] + each[has] / counts[has, None]) / 2
    return out


def tilts_of(rgb: np.ndarray, boxes: np.ndarray, directions: dict[bytes, tuple[float, float]] | None = None) -> np.ndarray:
    """How far each box's tile lies askew, in degrees (``geometry.tilt_of``); ``directions``: the way the edges run
    in boxes already looked at on this image (``level.slant``'s, by ``geometry.box_key``), not measured again."""
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    known = directions or {}
    return np.array([tilt_of(grey, b, known.get(box_key(b))) for b in boxes], np.float32)


def also_read_upright(read: Callable[[np.ndarray], np.ndarray], rgb: np.ndarray, boxes: np.ndarray, tilts: np.ndarray,
                      probs: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``probs`` (one row per box) with each tile lying askew (``TILT_READ``) also read turned upright, and the two
    readings averaged.

    The models learnt tiles standing in their boxes, or near it: a tile lying at 20 or 30 degrees, its upright box
    holding table and neighbours in its corners, they read far worse. Turned back by its tilt, it stands as they know
    it. ``read`` turns crops of ``size`` into probabilities; a tile that may lie either way (``upright_boxes``) is read
    both ways and those readings averaged first."""
    askew = np.flatnonzero(np.abs(tilts) >= TILT_READ)
    if not len(askew):
        return probs
    ways = [upright_boxes(boxes[i], float(tilts[i])) for i in askew]
    upright = read(np.stack([crop_turned(rgb, way, size=size) for tile in ways for way in tile]))
    owner = np.repeat(np.arange(len(askew)), [len(tile) for tile in ways])
    each = np.zeros((len(askew), upright.shape[1]))
    np.add.at(each, owner, upright)
    each /= np.bincount(owner)[:, None]
    out: np.ndarray = probs.copy()
    out[askew] = (probs[askew] + each) / 2
    return out


#: A margin row or column whose grey varies less than this (and matches the corner's colour) is a plain border.
PLAIN_BORDER_STD = 6.0


def single_tile_box(rgb: np.ndarray) -> np.ndarray:
    """The box of the one tile a tile image shows: the whole image less any plain border around it.

    The classifier saw each tile framed by its box grown ``CROP_CONTEXT`` times; a tight crop and the
    same crop on a plain mat must both come out framed that way, so the mat is trimmed off first.
    """
    grey = to_grey(rgb)
    h, w = grey.shape
    corner = float(np.median(np.concatenate([grey[0], grey[-1], grey[:, 0], grey[:, -1]])))

    def plain(line: np.ndarray) -> bool:
        return float(line.std()) < PLAIN_BORDER_STD and abs(float(line.mean()) - corner) < 2 * PLAIN_BORDER_STD

    top, bottom, left, right = 0, h, 0, w
    while bottom - top > h // 3 and plain(grey[top, left:right]):
        top += 1
    while bottom - top > h // 3 and plain(grey[bottom - 1, left:right]):
        bottom -= 1
    while right - left > w // 3 and plain(grey[top:bottom, left]):
        left += 1
    while right - left > w // 3 and plain(grey[top:bottom, right - 1]):
        right -= 1
    return np.array([left, top, right - left, bottom - top], np.float32)


#: A tile the classifier reads less surely than this is read again framed a little tighter and looser (shares of its
#: box), and the readings averaged: a detector's box is often a few pixels off, and the tile's framing is among these.
#: The reader trained on real tiles (label smoothing: a sure tile reads about 0.9) gains nothing from re-reading every
#: tile under 0.9, and that cost 40 % of the classify step. Leave-one-set-out (``bench/bench_real.py --folds``), HK
#: photos / book photos read right: under 0.9 re-read 0.950 / 0.842, under 0.5 the same, none 0.954 / 0.845.
READ_AGAIN_BELOW = 0.5
REFRAMINGS = (0.85, 0.92, 1.08)
#: At most this many tiles, the least sure first, are read again: a hand's worth, so a photo of a whole set stays quick.
REREAD_AT_MOST = 24


def read_again_where_unsure(rgb: np.ndarray, boxes: np.ndarray, probs: np.ndarray, model: Model | None = None) -> np.ndarray:
    """The classifier's probabilities with the least sure tiles (below ``READ_AGAIN_BELOW``) averaged over ``REFRAMINGS``
    too, every framing of them in one call."""
    sureness = probs.max(axis=1)
    unsure = np.flatnonzero(sureness < READ_AGAIN_BELOW)
    unsure = unsure[np.argsort(sureness[unsure], kind="stable")[:REREAD_AT_MOST]]
    if not len(unsure):
        return probs
    framed = np.concatenate([scaled(boxes[unsure], share) for share in REFRAMINGS])
    again = run_classifier(crops_of(rgb, framed), model)[0].reshape(len(REFRAMINGS), len(unsure), -1)
    out: np.ndarray = probs.copy()
    out[unsure] = (probs[unsure] + again.sum(axis=0)) / (1 + len(REFRAMINGS))
    return out


#: A tile image may be cut tight or loosely, with table and neighbours round the tile (a third of its size, say). It is
#: read whole and at each tighter framing (shares of the image less any plain mat, centred), and the whole framing's
#: reading stands unless a tighter one is surer by ``FRAMING_SURER``: the framing that fits the tile is the surest.
#: Measured (``bench/bench_real.py --only crops``; tests/test_recognizer_calibration.py): real HK face crops of sets the
#: reader never saw 0.955 (whole alone 0.958, the four averaged 0.929), the committed photos' tiles cut tight 56 of 57
#: and with a quarter of their size round them 51 of 57 (whole alone 29).
TILE_IMAGE_FRAMINGS = (1.0, 0.85, 0.72, 0.6)
FRAMING_SURER = 0.2
#: A tile image narrower or shorter than this cannot show a tile's face.
TILE_IMAGE_MIN_SIDE = 8


def read_framings(probs: np.ndarray) -> np.ndarray:
    """One reading from a tile image's framings (the first the whole image): the whole one's, unless a tighter one is
    surer of a face by ``FRAMING_SURER``; "not a tile" left out unless every framing says it.

    A loose framing shows neighbours and table and reads as "not a tile"; the image is of a tile all the same.
    """
    assert len(probs), "a tile image is read at one framing at least"
    framed = probs.copy()
    if not (framed.argmax(axis=1) == NT_INDEX).all():
        framed[:, NT_INDEX] = 0.0
    sure = np.delete(probs, NT_INDEX, axis=1).max(axis=1)
    best = int(sure.argmax())
    chosen = framed[best] if sure[best] > sure[0] + FRAMING_SURER else framed[0]
    out: np.ndarray = chosen / chosen.sum()
    return out


def classify_tile_image(rgb: np.ndarray, tileset: LearntSet | None = None, model: Model | None = None) -> Detections:
    """Name the one tile of a tile image (a crop of one tile, tight or loose, with or without a plain mat around it).

    With a tile set, the image is read at its one framing: the set's prototypes were learnt at the framing its
    calibration photo gave, and a tighter one would be compared with faces it never saw. Without one, a tile lying
    askew in the image is also read turned upright at each framing (``also_read_upright``).
    """
    h, w = rgb.shape[:2]
    if min(h, w) < TILE_IMAGE_MIN_SIDE:
        raise BadPhotoError(f"the tile image is {w}x{h} pixels, too small to show a tile; crop the whole tile from the photo "
                            f"(at least {TILE_IMAGE_MIN_SIDE} pixels a side; a tile a few dozen pixels tall reads best)")
    box = single_tile_box(rgb)[None]
    shares = TILE_IMAGE_FRAMINGS if tileset is None or not tileset.calibrated else TILE_IMAGE_FRAMINGS[:1]
    framings = np.concatenate([scaled(box, s) for s in shares])
    tilts = None if tileset is not None else np.repeat(tilts_of(rgb, box), len(framings))  # the tile's, at every framing
    probs = read_framings(face_probabilities(rgb, framings, tileset, model, tilts=tilts))[None]
    probs = blank_or_back(rgb, box, probs, alone=True)
    return with_probabilities(Detections(box, np.ones(1)), probs)
