"""Step 1b: a photo taken at a slant is read turned level, so its rows run across and each tile stands in its box.

The classifier reads a tile from its upright box. A tile lying at thirty degrees fills that box with table
and its neighbours, and the corner number that alone tells a flower from a season falls outside it.
The slant is read from the edges inside the tiles found: a tile's outline and most of its strokes run
along its sides, so their directions, taken four-fold (a quarter turn looks alike), agree on it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from recognizer.detect import detect
from recognizer.detections import Detections
from recognizer.geometry import DETECT_LONG_SIDE, edge_direction
from recognizer.image import shrunk
from recognizer.models import Model, load_model

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
#: An upright photo is turned only when the detector's mean confidence that way is higher by this much.
CLEARLY_SURER = 0.03
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


def slant(rgb: np.ndarray, dets: Detections) -> tuple[float, float]:
    """The photo's slant in degrees (-45, 45], the way the tiles' sides run, and how far the tiles agree on it (0-1).

    Each sure tile votes the way its edges run (``geometry.edge_direction``: only the middle of its box is looked at,
    where a slanted tile is mostly tile, not table), as strongly as they run one way.
    """
    sure = dets[dets.scores >= SURE]
    if not len(sure):
        return 0.0, 0.0
    sure = sure[np.argsort(-sure.scores)[:TILES_LOOKED_AT]]
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    votes: list[complex] = []
    for box in sure.boxes:
        degrees, agreement = edge_direction(grey, box)
        votes.append(agreement * complex(np.exp(4j * np.radians(degrees))))  # angle four times the edges', as they were summed
    strength = sum(abs(v) for v in votes)
    if strength == 0.0:
        return 0.0, 0.0
    mean = sum(votes) / strength
    return float(np.degrees(np.angle(mean)) / 4.0), float(abs(mean))


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


def standing(look: Detections) -> float:
    """The share of a look's sure tiles that stand taller than wide (one half when it has none to go by).

    A tile's face is taller than wide, and a tile seen at a slant from the player's side shows its body below the face,
    so in a photo the right way up (or upside down) most tiles stand; turned a quarter, most lie."""
    sure = look[look.scores >= SURE]
    return float((sure.boxes[:, 3] > sure.boxes[:, 2]).mean()) if len(sure) else 0.5


def level(rgb: np.ndarray, dets: Detections, model: Model | None = None) -> Levelled | None:
    """The photo turned so its tiles stand level, or None when they already do.

    A slant of ``LEVEL_FROM`` degrees or more (the tiles agreeing) is turned out. Which of the four quarters then
    is up is found in two steps, each quarter looked at once at the detector's first scale. First the tiles' shape
    tells the upright pair from the sideways pair: where clearly more of them stand (``standing``), one of those two
    looks is up. Then the detector says which: it finds the tiles of a photo the right way up surest (a tile's body
    shows below its face). Its sureness alone chose badly between quarters: a detector fine-tuned on more scenes was
    surer of a real hand at 35 degrees turned a quarter on, its rows standing as columns. An upright photo is turned
    only when its tiles clearly lie or the detector is clearly surer another way (``CLEARLY_SURER``): a phone held
    sideways, a photo taken from across the table.
    """
    model = model or load_model("detector")
    degrees, agreement = slant(rgb, dets)
    slanted = abs(degrees) >= LEVEL_FROM and agreement >= AGREEMENT
    h, w = rgb.shape[:2]
    look = min(1.0, DETECT_LONG_SIDE / max(h, w))
    small = shrunk(rgb, look) if look < 1.0 else rgb
    turns = [(degrees if slanted else 0.0) + 90.0 * k for k in range(4)]
    turns = [t - 360.0 if t > 180.0 else t for t in turns]
    looks = [detect(turned(small, t)[0] if t else small, model, long_side=DETECT_LONG_SIDE) for t in turns]
    sure = [sureness(d) for d in looks]
    if not slanted:
        sure[0] += CLEARLY_SURER
    stands = [standing(d) for d in looks]
    upright_pair, sideways_pair = (stands[0] + stands[2]) / 2, (stands[1] + stands[3]) / 2
    kept = [0, 1, 2, 3]
    if abs(upright_pair - sideways_pair) >= STANDS_CLEARLY:
        kept = [0, 2] if upright_pair > sideways_pair else [1, 3]
    best = turns[max(kept, key=lambda k: sure[k])]
    if best == 0.0:
        return None
    found = dets[dets.scores >= SURE]
    tile = float(np.median(found.boxes[:, 2:].max(axis=1))) if len(found) else float(max(h, w))
    scale = min(1.0, TILE_PIXELS / max(tile, 1.0))
    image, m = turned(rgb, best, scale)
    levelled = Levelled(image, best, m, (w, h), detect(image, model))
    return replace(levelled, detections=levelled.on_photo(levelled.detections))


def read_level(rgb: np.ndarray, dets: Detections, model: Model | None = None) -> tuple[np.ndarray, Detections, Levelled | None]:
    """The photo and its tiles as the steps after this one read them: turned level when ``level`` says so (that
    turn returned too, to put boxes back), else as taken."""
    levelled = level(rgb, dets, model)
    return (rgb, dets, None) if levelled is None else (levelled.image, levelled.detections, levelled)
