"""Step 1b: a photo taken at a slant is read turned level, so its rows run across and each tile stands in its box.

The classifier reads a tile from its upright box. A tile lying at thirty degrees fills that box with table
and its neighbours, and the corner number that alone tells a flower from a season falls outside it.
The slant is read from the edges inside the tiles found: a tile's outline and most of its strokes run
along its sides, so their directions, taken four-fold (a quarter turn looks alike), agree on it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache

import cv2
import numpy as np

from recognizer.classify import NT_INDEX, softmax
from recognizer.detect import MAX_LONG_SIDE, SMALLEST_LOOK, Looks, detect, scaled_look, tile_like
from recognizer.detections import Detections
from recognizer.geometry import CROP_H, CROP_W, DETECT_LONG_SIDE, box_key, crop_turned, edge_direction, to_input
from recognizer.image import shrunk
from recognizer.labels import CLASSES, NOT_A_TILE, WAY_UP_LABELS
from recognizer.models import Model, load_model
from scoring.tiles import Suit, Tile

#: A slant under this many degrees is left alone: the classifier is trained on tiles turned that little.
LEVEL_FROM = 10.0
#: How far the tiles must agree on their slant (0 none, 1 all one way) before it is believed.
AGREEMENT = 0.5
#: The tiles whose edges are looked at: the surest few are enough, and quick.
TILES_LOOKED_AT = 40
#: A detector confidence counted as sure.
SURE = 0.5
#: The levelled photo is made no larger than tiles of this many pixels on the long side need: the
#: bonus reader's crop (128 high for the box grown 1.2) is the largest any step reads.
TILE_PIXELS = 160
#: The detector says a photo taken square is upside down when it is surer of it turned over, standing and a quarter on
#: together, by this much (``over_gain``): 66 of the 67 leo hands turned over by 0.27-0.95 (leo-067 by 0.14: its
#: winds and dragons turn it, ``LEANS_OVER``), the 15 upright 1922 dev prints, whose faces alone sway it, by at most 0.18 (example_9).
UPSIDE_DOWN_CLEARLY = 0.22
#: ... and leans that way from this much: then the way-up reader is asked (``turned_over``). An upright phone photo's
#: gain is below it (every leo hand as taken -0.26 or less, the 12 MP sample +0.04: it costs them nothing more), and so
#: is every upright 1922 dev print's but example_9's (+0.18); leo-067 turned over leans +0.14, and its winds and
#: dragons read upside down. The HK set's jumble of loose tiles set01-4, most of whose characters and winds lie upside
#: down, leans +0.097: read either way up, its tiles read alike.
LEANS_OVER = 0.1
#: The tiles' faces say which way up a photo is when the way-up reader's vote (``way_up_vote``) is at least this far
#: from 0: the 15 book dev prints read by readers that never saw them +0.15 to +1.0 but one (illustration_11_2, a blurred
#: print, -0.36, which the detector is surer of as taken); leo hands of winds and dragons as taken +0.15 to +0.55, turned
#: over -0.21 to -0.64 (hands of dots and bamboo say nothing: ``way_up_vote`` reads characters, honours and bonus tiles).
FACES_CLEARLY = 0.15
#: The four ways up are looked at the base look where the tiles are this many pixels on their short side, else
#: where they are ``LOOK_TILE``: page 49's 10 px tiles showed no shape there (the detector then turned it a quarter).
LOOK_TILES = (16, 48)
LOOK_TILE = 24
#: A small slant is turned out only when the classifier reads the tiles' faces surer levelled, by this much
#: (``face_sureness``).
CLEARLY_BETTER_READ = 0.05
#: Fewer sure tiles than this (one or two, close up) cannot agree among themselves: their slant is believed as far as
#: each one's own edges agree (a close-up's middle is all face, and one 7 of dots' pips voted 27-42 degrees, each
#: agreeing 0.01-0.05), and a photo of them taken square is not turned over: the detector's sureness of one tile at
#: four turns is no evidence of its way up (a face-down tile it found at one quarter and not the other was).
FEW_TILES = 3
#: A slant of this many degrees or more is turned out where the faces read at least as well levelled; a smaller one (a
#: printed page's halftone edges read 10.5 degrees on an upright 1922 print, example_8) only where they read clearly
#: better (``CLEARLY_BETTER_READ``). A slant turned over as well is taken on the witnesses of its way up.
SURE_SLANT = 20.0
#: A slant of ``SURE_SLANT`` or more is believed only where the sure tiles' boxes are squarer than this (their median
#: long side over short side): a tile's upright box is 1.3-1.45 long, and slanted the box round it squares (the leo
#: hands and drawn scenes turned 30-60 degrees: 1.03-1.22). A real set's dots whose pips are four-leafed clovers set
#: on a slant (set07-1, three rows cut to the frame) read as a 44 degree slant, the agreement 0.98, in boxes 1.33 long.
SLANTED_BOXES = 1.25
#: The surest tiles looked at for the faces' way up (``way_up_vote``), and how many faces with a way up must be among
#: them: one misread face must not turn a photo.
WAY_UP_TILES = 24
WAY_UP_FACES = 2
#: Which of the classifier's classes are faces with a way up: characters, winds, red and green dragons, flowers and
#: seasons. A blank white dragon, a back or not a tile has none; many dots and bamboo look alike upside down.
HAS_A_WAY_UP = np.array([c not in (NOT_A_TILE, "WD") and Tile.parse(c).suit not in (Suit.DOTS, Suit.BAMBOO, Suit.BACK)
                         for c in CLASSES])
#: How many more of the sure tiles must stand (taller than wide) in one pair of opposite looks than in the other
#: before that pair is believed to hold the way up; closer than this, all four looks are compared by sureness.
STANDS_CLEARLY = 0.2


@dataclass(frozen=True)
class Levelled:
    """A photo turned level: ``image`` is the photo turned ``degrees`` anticlockwise (and scaled, so tiles are at most
    ``TILE_PIXELS``) onto a canvas that holds all of it; ``matrix`` (2 x 3) takes photo pixels to ``image`` pixels;
    ``detections`` are the tiles found on ``image``."""

    image: np.ndarray
    degrees: float
    matrix: np.ndarray
    photo_size: tuple[int, int]
    detections: Detections

    def back_on_photo(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Points (x, y) on the levelled image -> where they lie on the photo."""
        back = cv2.invertAffineTransform(self.matrix)
        return back[0, 0] * xs + back[0, 1] * ys + back[0, 2], back[1, 0] * xs + back[1, 1] * ys + back[1, 2]

    def on_photo(self, dets: Detections) -> Detections:
        """The detections whose middle lies on the photo: the levelled image's corners are filled with its border
        colour, and a box found there would come back as a sliver on the photo's edge."""
        px, py = self.back_on_photo(dets.centres[:, 0], dets.centres[:, 1])
        w, h = self.photo_size
        return dets[(px >= 0) & (px < w) & (py >= 0) & (py < h)]

    def to_photo(self, boxes: np.ndarray) -> np.ndarray:
        """Boxes (x, y, w, h) on the levelled image -> the upright boxes round them on the photo, inside it."""
        b = np.asarray(boxes, np.float32).reshape(-1, 4)
        if not len(b):
            return b
        xs = np.stack([b[:, 0], b[:, 0] + b[:, 2], b[:, 0] + b[:, 2], b[:, 0]], 1)
        ys = np.stack([b[:, 1], b[:, 1], b[:, 1] + b[:, 3], b[:, 1] + b[:, 3]], 1)
        px, py = self.back_on_photo(xs, ys)
        w, h = self.photo_size
        x1, y1 = np.clip(px.min(1), 0, w - 1), np.clip(py.min(1), 0, h - 1)
        x2, y2 = np.clip(px.max(1), x1 + 1, w), np.clip(py.max(1), y1 + 1, h)
        out: np.ndarray = np.stack([x1, y1, x2 - x1, y2 - y1], 1).astype(np.float32)
        return out


def slant(rgb: np.ndarray, dets: Detections, directions: dict[bytes, tuple[float, float]] | None = None) -> tuple[float, float]:
    """The photo's slant in degrees (-45, 45], the way the tiles' sides run, and how far the tiles agree on it (0-1).

    Each sure tile votes the way its edges run (``geometry.edge_direction``: only the middle of its box is looked at,
    where a slanted tile is mostly tile, not table), as strongly as they run one way; fewer than ``FEW_TILES`` agree as
    far as their own edges do. ``directions``: the edges' ways of boxes already looked at, by box, added to as more
    are; a box the merged tiles and one look share is looked at once.
    """
    sure = dets[dets.scores >= SURE]
    if not len(sure):
        return 0.0, 0.0
    sure = sure[np.argsort(-sure.scores)[:TILES_LOOKED_AT]]
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    known = {} if directions is None else directions
    votes: list[complex] = []
    for box in sure.boxes:
        key = box_key(box)
        if key not in known:
            known[key] = edge_direction(grey, box)
        degrees, agreement = known[key]
        votes.append(agreement * complex(np.exp(4j * np.radians(degrees))))  # angle four times the edges', as they were summed
    strength = sum(abs(v) for v in votes)
    if strength == 0.0:
        return 0.0, 0.0
    mean = sum(votes) / (strength if len(votes) >= FEW_TILES else len(votes))
    return float(np.degrees(np.angle(mean)) / 4.0), float(abs(mean))


def boxes_squared(dets: Detections) -> bool:
    """Whether the sure tiles' boxes are squarer than an upright tile's (``SLANTED_BOXES``), as boxes round slanted tiles
    are; True where none is sure (nothing to deny a slant)."""
    sure = dets[dets.scores >= SURE]
    if not len(sure):
        return True
    sides = np.sort(sure.boxes[:, 2:], axis=1)
    return float(np.median(sides[:, 1] / sides[:, 0])) < SLANTED_BOXES


def turned(rgb: np.ndarray, degrees: float, scale: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """The photo scaled and turned ``degrees`` anticlockwise onto a canvas that holds all of it, and the 2 x 3 matrix
    taking photo pixels there. A quarter turn is exact and quick; other turns fill the corners with the photo's
    border colour (repeating the border could draw half a tile there)."""
    small = shrunk(rgb, scale) if scale < 1.0 else rgb
    sh, sw = small.shape[:2]
    quarter = {90.0: (cv2.ROTATE_90_COUNTERCLOCKWISE, [[0.0, 1.0, 0.0], [-1.0, 0.0, float(sw)]]),
               -90.0: (cv2.ROTATE_90_CLOCKWISE, [[0.0, -1.0, float(sh)], [1.0, 0.0, 0.0]]),
               180.0: (cv2.ROTATE_180, [[-1.0, 0.0, float(sw)], [0.0, -1.0, float(sh)]])}
    if degrees in quarter:
        code, rows = quarter[degrees]
        image, m = cv2.rotate(small, code), np.array(rows)
    else:
        m = cv2.getRotationMatrix2D((sw / 2, sh / 2), degrees, 1.0)
        cos, sin = abs(m[0, 0]), abs(m[0, 1])
        out_w, out_h = int(np.ceil(sw * cos + sh * sin)), int(np.ceil(sw * sin + sh * cos))
        m[0, 2] += out_w / 2 - sw / 2
        m[1, 2] += out_h / 2 - sh / 2
        border = tuple(int(v) for v in np.median(np.concatenate([rgb[0], rgb[-1], rgb[:, 0], rgb[:, -1]]), axis=0))
        image = cv2.warpAffine(small, m, (out_w, out_h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=border)
    matrix: np.ndarray = m @ np.array([[scale, 0.0, 0.0], [0.0, scale, 0.0], [0.0, 0.0, 1.0]])
    return image, matrix


def sureness(look: Detections) -> float:
    """How sure the detector is of one look at the photo: its mean confidence over the tiles it found. Every look is
    taken the same way (once, at the first scale), so their sureness compares."""
    return float(look.scores.mean()) if len(look) else 0.0


def turned_over(gain: float, faces: float) -> bool:
    """Whether a photo taken standing is upside down, by two witnesses: the detector's ``gain`` turned over
    (``over_gain``) and the way-up reader's ``faces`` vote (``way_up_vote``). The detector must lean that way and the
    faces say so clearly, or the detector say so clearly and the faces not deny it. The detector alone turned upright
    prints over (printed faces sway its sureness; the four fine-tuned on more scenes turned one to three), the faces alone misread a
    blurred print, and they cannot tell a hand of dots and bamboo (the detector sees a real tile's body below its face)."""
    faces_over, faces_upright = faces <= -FACES_CLEARLY, faces >= FACES_CLEARLY
    return (faces_over and gain >= LEANS_OVER) or (gain >= UPSIDE_DOWN_CLEARLY and not faces_upright)


def over_gain(sure: list[float]) -> float:
    """How much surer the detector is of a photo taken square turned over than as taken, standing and a quarter on
    together, from its sureness (``sureness``) of the photo as taken, turned a quarter anticlockwise, turned over and
    turned a quarter clockwise.

    The detector learnt real tiles from the player's side, the body below the face, and from its training photos turned
    a quarter anticlockwise, the body to the right: a photo upside down it finds surer turned over both standing and
    turned a quarter, by about as much. A printed tile shows no body, and its face alone sways the detector one way in
    one look and not in the other: upright 1922 prints it was surer of turned over (example_4, example_9, page 49)
    were turned, though the classifier, reading both ways up, cannot tell them from upright (the way-up reader can)."""
    return (sure[2] + sure[3]) - (sure[0] + sure[1])


def standing(look: Detections) -> float:
    """The share of a look's sure tiles that stand taller than wide (one half when it has none to go by).

    A tile's face is taller than wide, and a tile seen at a slant from the player's side shows its body below the face,
    so in a photo the right way up (or upside down) most tiles stand; turned a quarter, most lie."""
    sure = look[look.scores >= SURE]
    return float((sure.boxes[:, 3] > sure.boxes[:, 2]).mean()) if len(sure) else 0.5


def surest_crops(image: np.ndarray, look: Detections, scale: float, most: int) -> np.ndarray:
    """The network input of a look's ``most`` surest tiles, cut from ``image`` (the photo, turned as the look saw it;
    the look's boxes scaled by ``scale`` on it) each as it stands in its box."""
    sure = look[look.scores >= SURE]
    sure = sure[np.argsort(-sure.scores)[:most]]
    if not len(sure):
        return np.zeros((0, 3, CROP_H, CROP_W), np.float32)
    return to_input(np.stack([crop_turned(image, (x + w / 2, y + h / 2, w, h, 0.0)) for x, y, w, h in sure.boxes / scale]))


def face_sureness(image: np.ndarray, look: Detections, scale: float, model: Model | None = None) -> float:
    """How surely the classifier reads a look's surest tiles as faces, on ``image``, the photo turned as the look saw it
    (the look's boxes found on it scaled by ``scale``), from the photo's own pixels, each tile read only the way it
    stands in its box: not also upside down (as the product reads it, so the way up is the question here), nor turned
    a quarter when lying (so a photo whose tiles lie reads worse than the same photo turned so they stand)."""
    x = surest_crops(image, look, scale, TILES_LOOKED_AT)
    if not len(x):
        return 0.0
    probs = softmax((model or load_model("classifier")).run(x)[0])
    return float(np.delete(probs, NT_INDEX, axis=1).max(axis=1).mean())


def way_up_vote(image: np.ndarray, look: Detections, scale: float, way_up_model: Model | None = None,
                classifier: Model | None = None) -> float:
    """Which way up a look's surest tiles read on ``image``, the photo turned as the look saw it (the look's boxes
    found on it scaled by ``scale``): from 1 (every face with a way up reads upright as it stands) to -1 (every one
    upside down); 0 where fewer than ``WAY_UP_FACES`` such faces are found.

    Each tile is read as it stands and turned over by the way-up reader, and votes the difference of the two readings'
    "upright", if the classifier reads it as a face with a way up (``HAS_A_WAY_UP``): readers that never saw a set or
    print told 242 of 243 of its characters and every wind, dragon and bonus tile the right way up, but dots and bamboo
    only 0.77, and a leo hand of bamboo turned over was read upright."""
    x = surest_crops(image, look, scale, WAY_UP_TILES)
    if len(x) < WAY_UP_FACES:
        return 0.0
    counted = HAS_A_WAY_UP[(classifier or load_model("classifier")).run(x)[0].argmax(axis=1)]
    if counted.sum() < WAY_UP_FACES:
        return 0.0
    x = x[counted]
    reader = way_up_model or load_model("way_up")
    upright = softmax(reader.run(np.concatenate([x, x[:, :, ::-1, ::-1]]))[0])[:, WAY_UP_LABELS.index("upright")]
    return float((upright[:len(x)] - upright[len(x):]).mean())


def look_side(dets: Detections, long_side: int) -> int:
    """The long side the four ways up are looked at: the detector's base look, or, where the tiles found are too
    large for it (a close-up: there it boxes their pips) or too small to show their shape, the look that makes them
    about ``LOOK_TILE`` pixels (never more than the photo's own)."""
    found = dets[dets.scores >= SURE]
    if not len(found):
        return DETECT_LONG_SIDE
    tile = float(np.median(found.boxes[:, 2:].min(axis=1))) * DETECT_LONG_SIDE / long_side
    if LOOK_TILES[0] <= tile <= LOOK_TILES[1]:
        return DETECT_LONG_SIDE
    return int(min(MAX_LONG_SIDE, long_side, max(SMALLEST_LOOK, DETECT_LONG_SIDE * LOOK_TILE / max(tile, 1.0))) // 32 * 32)


def at_long_side(rgb: np.ndarray, side: int, seen: Looks | None = None) -> np.ndarray:
    """The photo shrunk as the detector looks at it at ``side`` (``detect.scaled_look``, made from ``seen``'s where
    it serves), or as it is where ``side`` is no smaller: the same pixels, so a look ``detect`` took there serves as the
    photo as taken, and the turned looks compare with it."""
    if side >= max(rgb.shape[:2]):
        return rgb
    return scaled_look(rgb, side, seen.image if seen is not None else None)


def as_taken_look(rgb: np.ndarray, small: np.ndarray, side: int, model: Model, seen: Looks | None) -> Detections:
    """The detector's look at the photo ``rgb`` as taken, at ``side``, its boxes on the photo: the look ``detect``
    already took there (``seen``), else taken now on ``small`` (``at_long_side``'s image)."""
    if seen is not None and side in seen.taken:
        return tile_like(seen.taken[side])
    found = detect(small, model, long_side=side)
    return found.with_(boxes=found.boxes / min(1.0, side / max(rgb.shape[:2])))


def level(rgb: np.ndarray, dets: Detections, model: Model | None = None, seen: Looks | None = None,
          directions: dict[bytes, tuple[float, float]] | None = None, way_up_model: Model | None = None) -> Levelled | None:
    """The photo turned so its tiles stand level, or None when they already do.

    A slant of ``LEVEL_FROM`` degrees or more (the tiles agreeing, in ``dets`` or in one look at the tiles' scale,
    ``look_side``) is turned out where the classifier reads the faces surer levelled (``face_sureness``; one under
    ``SURE_SLANT`` clearly surer), and so is a quarter turn: a detector fine-tuned on more scenes boxed a print's tiles
    so that they seemed to lie, or their edges to slant 37 degrees, and turned it. Which of the four quarters then is up
    is found in two steps, each quarter looked at once at that scale. First the tiles' shape tells the upright pair from
    the sideways pair: where clearly more of them stand (``standing``), one of those two looks is up; a photo taken
    square (no slant) is never turned a quarter otherwise (page 49 of the 1922 book was, its tiles too small at the base
    look to show their shape). Then which of the pair is up. For a photo standing (taken square, or slanted less than
    ``SURE_SLANT``) two witnesses say it (``turned_over``): the detector, which finds the tiles of a photo the right way
    up surest (a tile's body shows below its face), and the way-up reader (``way_up_vote``), asked only where the
    detector leans towards turning it over (``LEANS_OVER``). The detector alone turned upright prints over (their faces
    sway it) and, fine-tuned on more scenes, four of them; the faces alone cannot tell a hand of dots and bamboo
    (slanted, with no face to tell it, it is turned over where the detector is surer of it so and the classifier reads
    its faces clearly better so, ``face_sureness``: a leo hand of dots turned over and slanted 10 degrees). Otherwise
    the detector's surest look of the pair is taken, and turned over where the detector hardly prefers it to its
    opposite (by less than ``LEANS_OVER``) and the faces clearly read it upside down:
    its sureness alone chose badly between quarters (a detector fine-tuned on more scenes was surer of a real hand at 35
    degrees turned a quarter on, its rows standing as columns). With a tile set, ``as_the_faces_match`` has the last
    word. The look as taken is ``detect``'s own where it took one at that scale (``seen``, its ``looks``): three looks
    to take, not four.
    ``directions``: the way the edges run in each box looked at (``slant``), for the caller to read the tiles' tilts by;
    ``way_up_model``: the way-up reader, else the shipped one. A close-up (``seen.close_up``) is read as taken: its
    tiles are too large for the looks levelling takes, where their pips stand as tiles (a 3 of dots filling the frame,
    its pips on a slant, was turned a quarter); the way its tiles' edges run is still measured into ``directions``,
    for the classifier to read a tile askew turned upright too.
    """
    if seen is not None and seen.close_up:
        if directions is not None:
            slant(rgb, dets, directions)
        return None
    model = model or load_model("detector")
    h, w = rgb.shape[:2]
    side = look_side(dets, max(h, w))
    look = min(1.0, side / max(h, w))
    small = at_long_side(rgb, side, seen)
    on_photo = as_taken_look(rgb, small, side, model, seen)  # one look's boxes, each fitted at one scale, may show it clearer
    as_taken = on_photo.with_(boxes=on_photo.boxes * look)
    directions = {} if directions is None else directions
    degrees, agreement = max(slant(rgb, dets, directions), slant(rgb, on_photo, directions), key=lambda s: s[1])
    slanted = abs(degrees) >= LEVEL_FROM and agreement >= AGREEMENT and (abs(degrees) < SURE_SLANT or boxes_squared(dets))
    turns = [(degrees if slanted else 0.0) + 90.0 * k for k in range(4)]
    turns = [t - 360.0 if t > 180.0 else t for t in turns]
    looks = [detect(turned(small, t)[0], model, long_side=side) if t else as_taken for t in turns]
    sure = [sureness(d) for d in looks]
    stands = [standing(d) for d in looks]
    upright_pair, sideways_pair = (stands[0] + stands[2]) / 2, (stands[1] + stands[3]) / 2
    kept = [0, 1, 2, 3] if slanted else [0, 2]  # a photo taken square is turned a quarter only where its tiles clearly lie
    if abs(upright_pair - sideways_pair) >= STANDS_CLEARLY:
        kept = [0, 2] if upright_pair > sideways_pair else [1, 3]
    taken_standing = (not slanted or abs(degrees) < SURE_SLANT) and kept == [0, 2]
    few = max(int((d.scores >= SURE).sum()) for d in looks) < FEW_TILES  # not the photo's sure tiles: turned over, fewer are

    @cache
    def view(t: float) -> np.ndarray:
        """The photo turned ``t`` degrees: a 12 MP photo is turned once, however often its faces are read."""
        return turned(rgb, t)[0] if t else rgb

    @cache
    def faces_read(k: int) -> float:
        """``face_sureness`` of look ``k`` (-1: the photo as taken), read once."""
        return face_sureness(view(turns[k]), looks[k], look) if k >= 0 else face_sureness(rgb, as_taken, look)

    if taken_standing:
        gain = over_gain(sure)
        leans = slanted and sure[2] > sure[0]  # slanted: the detector surer of it turned over standing is enough to ask
        faces = way_up_vote(view(turns[0]), looks[0], look, way_up_model) if gain >= LEANS_OVER or leans else 0.0
        over = turned_over(gain, faces) or (  # slanted, no face with a way up: the classifier reads them surer turned over
            leans and abs(faces) < FACES_CLEARLY and faces_read(2) >= faces_read(0) + CLEARLY_BETTER_READ)
        k = 2 if over and not few else 0
    else:  # the detector's surest look; turned over where it hardly prefers that to its opposite and the faces say so
        k = max(kept, key=lambda k: sure[k])
        opposite = (k + 2) % 4
        if sure[k] - sure[opposite] < LEANS_OVER and way_up_vote(view(turns[k]), looks[k], look, way_up_model) <= -FACES_CLEARLY:
            k = opposite
    best = turns[k]
    if best == 0.0:
        return None
    if k != 2:  # a slant or a quarter the faces do not read better: print edges or a print's boxes misread
        better = CLEARLY_BETTER_READ if not k and abs(degrees) < SURE_SLANT else 0.0
        if faces_read(k) < faces_read(-1) + better:
            return None
    found = dets[dets.scores >= SURE]
    tile = float(np.median(found.boxes[:, 2:].max(axis=1))) if len(found) else float(max(h, w))
    scale = min(1.0, TILE_PIXELS / max(tile, 1.0))
    image, m = turned(rgb, best, scale)
    levelled = Levelled(image, best, m, (w, h), detect(image, model))
    return replace(levelled, detections=levelled.on_photo(levelled.detections))


def read_level(rgb: np.ndarray, dets: Detections, model: Model | None = None, seen: Looks | None = None,
               directions: dict[bytes, tuple[float, float]] | None = None) -> tuple[np.ndarray, Detections, Levelled | None]:
    """The photo and its tiles as the steps after this one read them: turned level when ``level`` says so (that
    turn returned too, to put boxes back), else as taken; ``seen``: the looks ``dets`` were found at, when known;
    ``directions``: filled with the way the edges run in each box ``level`` looked at."""
    levelled = level(rgb, dets, model, seen, directions)
    return (rgb, dets, None) if levelled is None else (levelled.image, levelled.detections, levelled)


def as_the_faces_match(match: Callable[[np.ndarray, Detections], float], rgb: np.ndarray, dets: Detections,
                       read: tuple[np.ndarray, Detections, Levelled | None]) -> tuple[np.ndarray, Detections, Levelled | None, float]:
    """``read_level``'s reading (``read``) of the photo ``rgb`` with its tiles ``dets``, or the photo as taken where a
    tile set's faces (``match``: its face match of tiles on an image) match it at least as well as turned, and that
    match. The set's faces stand upright, as the detector's sureness does not say: upside-down 1922 prints it was
    surer of were turned, and the set then read 二万 and 三万 upside down as 七万."""
    image, found, levelled = read
    score = match(image, found)
    if levelled is not None and (as_taken := match(rgb, dets)) >= score:
        return rgb, dets, None, as_taken
    return image, found, levelled, score
