"""Image geometry shared by training and inference, so both see tiles exactly alike."""

from __future__ import annotations

import cv2
import numpy as np

#: Classifier input (height, width): a standing tile is taller than wide.
CROP_H, CROP_W = 64, 48
#: A second reading of a possible flower or season (``recognizer.classify.read_flowers_and_seasons``): the same framing, twice
#: the pixels, so the corner number and name that alone tell the eight apart are big enough to read.
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


def scaled(boxes: np.ndarray, share: float) -> np.ndarray:
    """Boxes (x, y, w, h) grown or shrunk about their centres to ``share`` of their width and height."""
    b = np.asarray(boxes, np.float32).reshape(-1, 4)
    centre = b[:, :2] + b[:, 2:] / 2
    out: np.ndarray = np.concatenate([centre - share * b[:, 2:] / 2, share * b[:, 2:]], axis=1)
    return out


def crop_tile(image: np.ndarray, box: np.ndarray, context: float = CROP_CONTEXT, size: tuple[int, int] = (CROP_H, CROP_W), shift: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """Cut one tile out of an RGB image as a (H, W, 3) uint8 crop.

    ``box`` is (x, y, w, h); a box wider than tall (a tile lying sideways) is turned a quarter
    clockwise first so every crop is upright-ish. ``shift`` moves the centre by a fraction of
    the box (training jitter only).
    """
    x, y, w, h = (float(v) for v in box)
    cx, cy = x + w / 2 + shift[0] * w, y + h / 2 + shift[1] * h
    cw, ch = w * context, h * context
    out_h, out_w = size
    sideways = w > 1.2 * h
    if sideways:  # the matrices map output pixels to source pixels (WARP_INVERSE_MAP)
        sx, sy = ch / out_w, cw / out_h
        m = np.array([[0.0, -sy, cx + cw / 2], [sx, 0.0, cy - ch / 2]])
    else:
        sx, sy = cw / out_w, ch / out_h
        m = np.array([[sx, 0.0, cx - cw / 2], [0.0, sy, cy - ch / 2]])
    return cv2.warpAffine(image, m, (out_w, out_h), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)


def to_input(images: np.ndarray) -> np.ndarray:
    """uint8 (N, H, W, 3) RGB -> float32 (N, 3, H, W) normalised network input."""
    x = images.astype(np.float32) * (1.0 / 255.0)
    x = (x - MEAN) / STD
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))
