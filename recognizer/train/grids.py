"""Detector scenes of tiles in touching grids on paper: old book photos, catalogue shots, calibration sheets.

Built from the training crops (faces only), drawn pale, grey and halftone-blurred, so the detector
also learns tile outlines that are a faint line between two white faces.
"""

from __future__ import annotations

import cv2
import numpy as np

from recognizer.train.prepare import CACHE_CONTEXT, CACHE_SIZE


def _face(crops: np.ndarray, labels: np.ndarray, nt: int, rng: np.random.Generator) -> np.ndarray:
    while True:
        i = int(rng.integers(len(crops)))
        if labels[i] != nt:
            break
    ch, cw = CACHE_SIZE
    bw, bh = cw / CACHE_CONTEXT, ch / CACHE_CONTEXT
    x0, y0 = round((cw - bw) / 2 + 0.1 * bw), round((ch - bh) / 2 + 0.08 * bh)
    return crops[i, y0:int(y0 + bh * 0.84), x0:int(x0 + bw * 0.8)]


LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def caption(img: np.ndarray, top: float, space: float, rng: np.random.Generator) -> None:
    """A line of dark print across the band ``space`` high below ``top``: words of random letters and figures, their
    baseline low in the band (a descender may touch the row below, as a book's caption sometimes does)."""
    size = img.shape[1]
    height = space * float(rng.uniform(0.35, 0.7))
    if height < 5:
        return
    scale = height / 22.0
    x = float(rng.uniform(0, size / 3))
    base = round(top + (space + height) / 2)
    ink = (int(rng.integers(0, 90)),) * 3
    while x < size:
        word = "".join(rng.choice(list(LETTERS), int(rng.integers(1, 9))))
        cv2.putText(img, word, (round(x), base), cv2.FONT_HERSHEY_SIMPLEX if rng.random() < 0.5 else cv2.FONT_HERSHEY_TRIPLEX,
                    scale, ink, max(1, round(scale * 1.5)), cv2.LINE_AA)
        x += (len(word) + 1) * 16 * scale


def grid_scene(crops: np.ndarray, labels: np.ndarray, nt: int, size: int, rng: np.random.Generator,
               captions: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A size x size paper-coloured image with blocks of tiles, and their boxes (x, y, w, h).

    ``captions`` of the gaps between rows hold a line of print (``caption``; ``detector --grid-captions``): a book's
    page labels its photos, and a detector also taught that print beside a hand is no tile must still box the tiles
    above and below the words. At 0 the scene is drawn as before captions were added, draw for draw.
    """
    paper = int(rng.integers(200, 256))
    img = np.full((size, size, 3), paper, np.uint8)
    boxes = []
    tw = float(rng.uniform(16, 46))
    th = tw * rng.uniform(1.15, 1.45)
    gap = 0.0 if rng.random() < 0.6 else float(rng.uniform(1, 0.4 * tw))
    y = float(rng.uniform(-th / 2, th))
    while y < size:
        x = float(rng.uniform(-tw / 2, tw))
        rows = int(rng.integers(1, 8))
        cols_blocks = []
        while x < size:
            cols = int(rng.integers(1, 10))
            cols_blocks.append((x, cols))
            x += cols * (tw + gap) + float(rng.uniform(0.3, 1.5)) * tw
        for bx, cols in cols_blocks:
            for r in range(rows):
                for c in range(cols):
                    x0, y0 = bx + c * (tw + gap), y + r * (th + gap)
                    face = _face(crops, labels, nt, rng)
                    tile = cv2.resize(face, (max(2, round(tw)), max(2, round(th))), interpolation=cv2.INTER_AREA)
                    xi, yi = round(x0), round(y0)
                    sx0, sy0 = max(0, xi), max(0, yi)
                    sx1, sy1 = min(size, xi + tile.shape[1]), min(size, yi + tile.shape[0])
                    if sx1 <= sx0 or sy1 <= sy0:
                        continue
                    img[sy0:sy1, sx0:sx1] = tile[sy0 - yi:sy1 - yi, sx0 - xi:sx1 - xi]
                    if rng.random() < 0.7:
                        cv2.rectangle(img, (xi, yi), (xi + tile.shape[1] - 1, yi + tile.shape[0] - 1), (int(rng.integers(90, 200)),) * 3, 1)
                    boxes.append([x0, y0, tile.shape[1], tile.shape[0]])
        y += rows * (th + gap)
        space = float(rng.uniform(0.3, 1.2)) * th
        if captions and rng.random() < captions:
            caption(img, y, space, rng)
        y += space
    grey: np.ndarray = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY).astype(np.float32)
    lo = float(rng.uniform(0, 90))
    grey = lo + grey * (255 - lo) / 255
    if rng.random() < 0.6:
        grey = cv2.GaussianBlur(grey, (3, 3), rng.uniform(0.5, 1.2))
    grey += rng.normal(0, rng.uniform(2, 8), grey.shape)
    out = np.repeat(np.clip(grey, 0, 255).astype(np.uint8)[..., None], 3, axis=2)
    return out, np.array(boxes, np.float32).reshape(-1, 4)
