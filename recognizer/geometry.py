"""Image geometry shared by training and inference, so both see tiles exactly alike."""

from __future__ import annotations

import math

import cv2
import numpy as np

#: Classifier input (height, width): a standing tile is taller than wide.
CROP_H, CROP_W = 160, 120
#: The input of the bonus reader that earlier classifiers needed (retired by issue 40; its training code,
#: ``recognizer/train/bonus.py``, still makes one).
BONUS_H, BONUS_W = 128, 96
#: The crop spans the box grown by this factor, so a slightly-off box still holds the whole face.
CROP_CONTEXT = 1.2
#: Detector works on the photo scaled to this long side.
DETECT_LONG_SIDE = 384
#: Detector output stride (heatmap cell size in detector pixels).
STRIDE = 4
#: Input values are (rgb / 255 - MEAN) / STD.
MEAN = 0.5
STD = 0.25


def size_factors(size: tuple[float, float], to: tuple[float, float]) -> tuple[float, float]:
    """The (x, y) factors taking pixels of an image ``size`` (width, height) to the same image at ``to``: a big photo is
    read smaller than it is. (1, 1) where either size is not known (not above 0)."""
    if min(size) <= 0 or min(to) <= 0:
        return 1.0, 1.0
    return to[0] / size[0], to[1] / size[1]


def scaled(boxes: np.ndarray, share: float) -> np.ndarray:
    """Boxes (x, y, w, h) grown or shrunk about their centres to ``share`` of their width and height."""
    b = np.asarray(boxes, np.float32).reshape(-1, 4)
    centre = b[:, :2] + b[:, 2:] / 2
    out: np.ndarray = np.concatenate([centre - share * b[:, 2:] / 2, share * b[:, 2:]], axis=1)
    return out


def crop_tile(image: np.ndarray, box: np.ndarray, context: float = CROP_CONTEXT, size: tuple[int, int] = (CROP_H, CROP_W),
              shift: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """Cut one tile out of an RGB image as a (H, W, 3) uint8 crop.

    ``box`` is (x, y, w, h); a box wider than tall (a tile lying sideways) is turned a quarter
    clockwise first so every crop is upright-ish. ``shift`` moves the centre by a fraction of
    the box (training jitter only).
    """
    x, y, w, h = (float(v) for v in box)
    cx, cy = x + w / 2 + shift[0] * w, y + h / 2 + shift[1] * h
    sideways = w > 1.2 * h
    return crop_turned(image, (cx, cy, h, w, 90.0) if sideways else (cx, cy, w, h, 0.0), context, size)


#: A tile lying askew by at least this many degrees is also read turned upright (``upright_boxes``); less, and its
#: upright box frames it as well as a turned one would.
TILT_READ = 5.0
#: From this tilt on, a box cannot tell a tile standing up from one lying sideways (at 45 degrees both fill a square),
#: so both are read.
TILT_EITHER_WAY = 35.0
#: A tile's face is about three quarters as wide as it is tall, as the classifier's crop is.
FACE_ASPECT = CROP_W / CROP_H
#: A tile's tilt is believed when its edges agree on their direction at least this much (``edge_direction``). On the
#: held-out scenes 83 % of tiles reach it, and their tilt is then within 5 degrees four times in five; on the 1922
#: photo, whose fine outlines and rings of dots run every way, 39 boxes of 132 do, one of them tilted 5 degrees or more.
TILT_AGREED = 0.2
#: Edges are looked at on the box scaled to at most this many pixels along its long side: enough for a tile's, and quick.
EDGE_SIDE = 48


def edge_direction(grey: np.ndarray, box: np.ndarray) -> tuple[float, float]:
    """The way the edges in the middle of ``box`` run, in degrees (-45 to 45, clockwise on the photo; a quarter turn
    counts as none), and how far they agree on it (0: every way, 1: all one way).

    A tile's outline, the lines of its characters and bamboo, and the rows of its dots run along its own sides, so the
    photo's edges in its box point mostly along them. Only the middle of the box is looked at, where a tile lying askew
    is mostly tile, not table; stronger edges count more (squared). (0, 0) for a box too small to look at, or blank.
    One measure for a photo's slant (``level.slant``, every sure tile's voting) and for one tile's tilt (``tilt_of``).
    """
    x, y, w, h = (float(v) for v in scaled(box, 0.7)[0])
    patch = grey[max(0, int(y)):int(y + h) + 1, max(0, int(x)):int(x + w) + 1]
    if patch.shape[0] < 4 or patch.shape[1] < 4:
        return 0.0, 0.0
    shrink = min(1.0, EDGE_SIDE / max(w, h, 1.0))
    if shrink < 1.0:
        patch = cv2.resize(patch, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    p = patch.astype(np.float32)
    gx = cv2.Sobel(p, cv2.CV_32F, 1, 0, ksize=-1)
    gy = cv2.Sobel(p, cv2.CV_32F, 0, 1, ksize=-1)
    m2 = gx * gx + gy * gy
    total = float(m2.sum())
    if total <= 0.0:
        return 0.0, 0.0
    vote = complex(((gx + 1j * gy) ** 4 / np.maximum(m2, 1e-6)).sum()) / total  # |vote| <= 1, angle four times the edges'
    return float(np.degrees(np.angle(vote)) / 4.0), float(abs(vote))


def tilt_of(grey: np.ndarray, box: np.ndarray, direction: tuple[float, float] | None = None) -> float:
    """How far (degrees, -45 to 45, clockwise on the photo) the tile in ``box`` lies askew of its upright box: the way
    its edges run (``edge_direction``, or ``direction`` where it was measured already), or 0 where they agree on no
    direction (``TILT_AGREED``: rings of dots, a faint outline, a box of table), so the tile is read as it stands."""
    degrees, agreement = edge_direction(grey, box) if direction is None else direction
    return degrees if agreement >= TILT_AGREED else 0.0


def box_key(box: np.ndarray) -> bytes:
    """A box's own numbers as bytes: the way the edges in a box run, measured once, is found again by it."""
    return np.asarray(box, np.float64).tobytes()


def upright_boxes(box: np.ndarray, tilt: float) -> list[tuple[float, float, float, float, float]]:
    """The tile in upright ``box`` (x, y, w, h) lying ``tilt`` degrees askew, as turned boxes (centre x, centre y, width,
    height, degrees): turned by their degrees, each frames the tile standing up.

    The upright box is the turned tile's bounds, so its width and height give the tile's own: their sum is the tile's
    width plus height times (cos + sin) of the tilt, their difference the tile's times (cos - sin). Near 45 degrees the
    difference says nothing, so the tile is taken at ``FACE_ASPECT`` and both ways it may lie are given.
    """
    x, y, w, h = (float(v) for v in box)
    cx, cy = x + w / 2, y + h / 2
    c, s = abs(math.cos(math.radians(tilt))), abs(math.sin(math.radians(tilt)))
    total = (w + h) / (c + s)
    if abs(tilt) < TILT_EITHER_WAY:
        diff = min(max((w - h) / (c - s), -total / 2), total / 2)
        tw, th = (total + diff) / 2, (total - diff) / 2
        return [(cx, cy, th, tw, tilt + 90.0) if tw > th else (cx, cy, tw, th, tilt)]
    short, long = total * FACE_ASPECT / (1 + FACE_ASPECT), total / (1 + FACE_ASPECT)
    return [(cx, cy, short, long, tilt), (cx, cy, short, long, tilt + 90.0)]


def crop_turned(image: np.ndarray, turned: tuple[float, float, float, float, float], context: float = CROP_CONTEXT,
                size: tuple[int, int] = (CROP_H, CROP_W)) -> np.ndarray:
    """Cut the tile in a turned box (``upright_boxes``) out of an RGB image, turned back to stand up, its box grown
    ``context``; ``crop_tile`` is the same cut of an upright box (turned 0, or 90 for a tile lying sideways)."""
    cx, cy, w, h, degrees = turned
    out_h, out_w = size
    a = math.radians(degrees)
    sx, sy = w * context / out_w, h * context / out_h
    m = np.array([[math.cos(a) * sx, -math.sin(a) * sy, 0.0], [math.sin(a) * sx, math.cos(a) * sy, 0.0]])
    m[:, 2] = np.array([cx, cy]) - m[:, :2] @ np.array([out_w / 2, out_h / 2])
    return cv2.warpAffine(image, m, (out_w, out_h), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)


#: The weights of red, green and blue in a pixel's grey (ITU-R 601 luma).
LUMA = np.array([0.299, 0.587, 0.114], np.float32)


def to_grey(rgb: np.ndarray) -> np.ndarray:
    """float32 grey of uint8 RGB pixels (an image, or a stack of crops): every grey the recognizer compares."""
    return np.asarray(rgb.astype(np.float32) @ LUMA)


#: A page: at least this share of the photo lies within ``FLAT`` greys of its lightest tenth, the bare paper (the 1922
#: book's photos 0.37-0.91, a catalogue's white backdrop 0.3-0.6; a hand on a table 0.10-0.20).
PAGE_SHARE, FLAT = 0.35, 10


def paper_grey(rgb: np.ndarray) -> float | None:
    """The grey of the bare paper a printed page's (or a scan's) tiles lie on, or None where the photo is no page.
    Judged on every fourth pixel: a phone photo of a table is told in a millisecond."""
    sample = to_grey(rgb[::4, ::4])
    paper = float(np.percentile(sample, 90))
    return paper if float(np.mean(sample >= paper - FLAT)) >= PAGE_SHARE else None


def reaches_the_frame(boxes: np.ndarray, size: tuple[float, float], margin: tuple[float, float]) -> np.ndarray:
    """Which boxes (x, y, w, h) come within ``margin`` (across, down) of the edge of an image ``size`` (width,
    height): boxes the frame cuts."""
    x, y, w, h = (boxes[:, k] for k in range(4))
    (width, height), (mx, my) = size, margin
    return np.asarray((x <= mx) | (y <= my) | (x + w >= width - mx) | (y + h >= height - my))


def to_input(images: np.ndarray) -> np.ndarray:
    """uint8 (N, H, W, 3) RGB -> float32 (N, 3, H, W) normalised network input, (rgb / 255 - MEAN) / STD.

    Worked in place in the one array returned: a batch of crops' float copies, made one per step, cost a photo's
    reading several times the arithmetic (17 crops: 10 ms, in place 1.6 ms, the same values to the bit)."""
    x = np.empty((images.shape[0], images.shape[3], images.shape[1], images.shape[2]), np.float32)
    np.copyto(x, images.transpose(0, 3, 1, 2), casting="unsafe")
    x *= np.float32(1.0 / 255.0)
    x -= np.float32(MEAN)
    x /= np.float32(STD)
    return x
