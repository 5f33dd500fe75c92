"""Things on a table that are not tiles, drawn beside a finished hand: keys, cards, dominoes, print, cloth, stones.

The reader must box none of them and count none in the hand. They are drawn here by OpenCV alone (no outside
pictures, nothing to license), once for the distractor bench (``bench/bench_distractors.py``, seeds 3400 on) and once
for the reader's not-a-tile crops (``recognizer.train.realtiles --distractor-scenes``, seeds ``TRAINING_SEEDS`` on, so
the bench's scenes are never trained on).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from pungchow_data import scene
from pungchow_data.faces import STYLES
from pungchow_data.hands import Wall, random_hand

KINDS = ("none", "keyboard", "cards", "dominoes", "text", "cloth", "stones")
#: Tile styles the hands are drawn in, one after another.
HAND_STYLES = ("hk-serif", "hk-sans", "modern", "hk-classic")
#: Training scenes' seeds start here, far from the bench's (3400 on).
TRAINING_SEEDS = 1_000_000
#: A part of the photo: x, y, width, height in pixels.
Area = tuple[int, int, int, int]


# --- the distractors, drawn ----------------------------------------------------------------------


def _ink(rng: np.random.Generator, lo: int, hi: int) -> tuple[int, int, int]:
    return tuple(int(c) for c in rng.integers(lo, hi, 3))  # type: ignore[return-value]


def _rounded(img: np.ndarray, x: int, y: int, w: int, h: int, r: int, colour: tuple[int, ...]) -> None:
    """A filled rectangle with round corners of radius ``r``."""
    r = max(1, min(r, w // 2, h // 2))
    cv2.rectangle(img, (x + r, y), (x + w - r, y + h), colour, -1, cv2.LINE_AA)
    cv2.rectangle(img, (x, y + r), (x + w, y + h - r), colour, -1, cv2.LINE_AA)
    for cx, cy in ((x + r, y + r), (x + w - r, y + r), (x + r, y + h - r), (x + w - r, y + h - r)):
        cv2.circle(img, (cx, cy), r, colour, -1, cv2.LINE_AA)


def draw_keyboard(img: np.ndarray, area: Area, tile: float, rng: np.random.Generator) -> None:
    """A laptop keyboard: a grey deck with rows of light rounded keys, each with a letter or digit."""
    x0, y0, w, h = area
    cv2.rectangle(img, (x0, y0), (x0 + w, y0 + h), _ink(rng, 40, 90), -1)
    key = max(8, int(tile * rng.uniform(0.75, 1.0)))
    pitch = int(key * 1.18)
    light = rng.random() < 0.7
    face = _ink(rng, 215, 245) if light else _ink(rng, 25, 45)
    letter = (40, 40, 40) if light else (225, 225, 225)
    rows = ("1234567890-=", "QWERTYUIOP[]", "ASDFGHJKL;'", "ZXCVBNM,./")
    for r, keys in enumerate(rows * 3):
        y = y0 + pitch // 3 + r * pitch
        if y + key > y0 + h:
            break
        x = x0 + pitch // 3 + (r % 4) * key // 3
        for ch in keys * 3:
            if x + key > x0 + w:
                break
            _rounded(img, x, y, key, key, key // 6, face)
            cv2.putText(img, ch, (x + key // 5, y + key // 2), cv2.FONT_HERSHEY_SIMPLEX, key / 70, letter, max(1, key // 30),
                        cv2.LINE_AA)
            x += pitch


def _suit(img: np.ndarray, centre: tuple[int, int], size: int, suit: str, colour: tuple[int, ...]) -> None:
    """A heart, diamond, club or spade, near enough, ``size`` pixels across."""
    cx, cy = centre
    s = max(2, size // 2)
    if suit == "diamond":
        cv2.fillConvexPoly(img, np.array([(cx, cy - s), (cx + s * 3 // 4, cy), (cx, cy + s), (cx - s * 3 // 4, cy)], np.int32), colour,
                           cv2.LINE_AA)
        return
    lobes = ((cx - s // 2, cy - s // 4), (cx + s // 2, cy - s // 4)) if suit in ("heart", "spade") else \
        ((cx, cy - s // 2), (cx - s // 2, cy + s // 5), (cx + s // 2, cy + s // 5))
    for lx, ly in lobes:
        cv2.circle(img, (lx, ly if suit != "spade" else 2 * cy - ly), max(1, s // 2), colour, -1, cv2.LINE_AA)
    tip = cy + s if suit != "spade" else cy - s
    if suit in ("heart", "spade"):
        cv2.fillConvexPoly(img, np.array([(cx - s, cy), (cx + s, cy), (cx, tip)], np.int32), colour, cv2.LINE_AA)
    if suit in ("club", "spade"):
        cv2.line(img, (cx, cy), (cx, cy + s), colour, max(1, s // 4), cv2.LINE_AA)


def _card(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """One playing card face, its corner indices and suit marks."""
    cw, ch = size
    card = np.full((ch, cw, 3), 248, np.uint8)
    cv2.rectangle(card, (0, 0), (cw - 1, ch - 1), (170, 170, 170), 1)
    suit = str(rng.choice(["heart", "diamond", "club", "spade"]))
    colour = (40, 40, 200) if suit in ("heart", "diamond") else (25, 25, 25)
    rank = str(rng.choice(list("A23456789") + ["10", "J", "Q", "K"]))
    scale = cw / 90
    cv2.putText(card, rank, (cw // 14, ch // 7), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, max(1, cw // 40), cv2.LINE_AA)
    _suit(card, (cw // 9, ch // 4), cw // 8, suit, colour)
    if rank in ("J", "Q", "K"):
        cv2.rectangle(card, (cw // 5, ch // 6), (cw * 4 // 5, ch * 5 // 6), colour, max(1, cw // 40))
        cv2.putText(card, rank, (cw * 2 // 5, ch * 3 // 5), cv2.FONT_HERSHEY_SIMPLEX, scale * 2, colour, max(1, cw // 25), cv2.LINE_AA)
    else:
        n = 1 if rank == "A" else 10 if rank == "10" else int(rank)
        for k in range(n):
            col, row = (k % 2, k // 2) if n > 1 else (0.5, 2)
            px = int(cw * (0.35 + 0.3 * col)) if n > 1 else cw // 2
            py = int(ch * (0.2 + 0.6 * row / max(1, (n - 1) // 2))) if n > 2 else int(ch * (0.35 + 0.3 * k)) if n == 2 else ch // 2
            _suit(card, (px, py), cw // 6 if n > 1 else cw // 3, suit, colour)
    return card


def _paste_turned(img: np.ndarray, patch: np.ndarray, centre: tuple[float, float], angle: float) -> None:
    """Paste ``patch`` turned ``angle`` degrees about ``centre``, clipped to the photo."""
    ph, pw = patch.shape[:2]
    m = cv2.getRotationMatrix2D((pw / 2, ph / 2), angle, 1.0)
    m[:, 2] += np.array(centre) - (pw / 2, ph / 2)
    h, w = img.shape[:2]
    warped = cv2.warpAffine(patch, m, (w, h), flags=cv2.INTER_LINEAR)
    mask = cv2.warpAffine(np.full((ph, pw), 255, np.uint8), m, (w, h), flags=cv2.INTER_LINEAR)
    a = (mask.astype(np.float32) / 255)[..., None]
    img[:] = (img * (1 - a) + warped * a).astype(np.uint8)


def draw_cards(img: np.ndarray, area: Area, tile: float, rng: np.random.Generator) -> None:
    """Two to five playing cards, about twice a tile's width, fanned or laid side by side."""
    x0, y0, w, h = area
    cw = int(tile * rng.uniform(1.7, 2.2))
    ch = int(cw * 1.4)
    n = int(rng.integers(2, 6))
    fanned = rng.random() < 0.5
    for k in range(n):
        cx = x0 + cw * 0.7 + k * (cw * (0.45 if fanned else 1.1))
        cy = y0 + h / 2 + rng.uniform(-0.1, 0.1) * h
        if cx + cw / 2 > x0 + w:
            break
        angle = (k - n / 2) * 12 if fanned else float(rng.uniform(-8, 8))
        _paste_turned(img, _card((cw, ch), rng), (cx, min(max(cy, y0 + ch / 2), y0 + h - ch / 2)), angle)


def _domino(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """One domino face up: a white oblong, a bar across its middle, 0-6 black pips each end."""
    dw, dh = size
    d = np.full((dh, dw, 3), 200, np.uint8)
    _rounded(d, 0, 0, dw - 1, dh - 1, dw // 8, _ink(rng, 232, 252))
    cv2.line(d, (dw // 8, dh // 2), (dw - dw // 8, dh // 2), (30, 30, 30), max(1, dw // 25), cv2.LINE_AA)
    spots = {0: (), 1: ((1, 1),), 2: ((0, 0), (2, 2)), 3: ((0, 0), (1, 1), (2, 2)), 4: ((0, 0), (0, 2), (2, 0), (2, 2)),
             5: ((0, 0), (0, 2), (1, 1), (2, 0), (2, 2)), 6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2))}
    for half in (0, 1):
        for col, row in spots[int(rng.integers(0, 7))]:
            cx, cy = int(dw * (0.25 + 0.25 * col)), int(dh * half / 2 + dh / 2 * (0.22 + 0.28 * row))
            cv2.circle(d, (cx, cy), max(1, dw // 11), (20, 20, 20), -1, cv2.LINE_AA)
    return d


def draw_dominoes(img: np.ndarray, area: Area, tile: float, rng: np.random.Generator) -> None:
    """Dominoes face up in a row, as a game of dominoes lays them: each a tile's width, twice as long as wide."""
    x0, y0, w, h = area
    dw = int(tile * rng.uniform(0.85, 1.05))
    dh = 2 * dw
    lying = h < dh * 1.2 and w >= dh * 2
    pitch = (dh if lying else dw) * rng.uniform(1.05, 1.4)
    k = 0
    while True:
        cx = x0 + (dh if lying else dw) * 0.6 + k * pitch
        if cx + (dh if lying else dw) / 2 > x0 + w or k >= 8:
            break
        cy = y0 + h / 2
        _paste_turned(img, _domino((dw, dh), rng), (cx, cy), 90.0 if lying else float(rng.normal(0, 2)))
        k += 1


WORDS = ("the", "winner", "pays", "east", "wind", "double", "table", "score", "limit", "hand", "round", "dealer", "each",
         "player", "draws", "from", "wall", "discard", "chow", "pung", "kong", "flower", "season", "bonus", "points")


def draw_text(img: np.ndarray, area: Area, tile: float, rng: np.random.Generator) -> None:
    """A printed page: paper, then lines of words in a book's type, a heading above them."""
    x0, y0, w, h = area
    cv2.rectangle(img, (x0, y0), (x0 + w, y0 + h), _ink(rng, 225, 252), -1)
    line = max(8, int(tile * rng.uniform(0.25, 0.45)))
    ink = _ink(rng, 10, 60)
    font = int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX]))
    y = y0 + line * 2
    heading = " ".join(str(rng.choice(WORDS)).upper() for _ in range(2))
    cv2.putText(img, heading, (x0 + line, y), font, line / 18, ink, max(1, line // 8), cv2.LINE_AA)
    y += int(line * 1.8)
    while y < y0 + h - line // 2:
        x = x0 + line
        while True:
            word = str(rng.choice(WORDS))
            (tw, _), _ = cv2.getTextSize(word, font, line / 30, 1)
            if x + tw > x0 + w - line:
                break
            cv2.putText(img, word, (x, y), font, line / 30, ink, 1, cv2.LINE_AA)
            x += tw + line // 2
        y += int(line * 1.4)


def draw_stones(img: np.ndarray, area: Area, tile: float, rng: np.random.Generator) -> None:
    """Stone counters: black and white discs about half to three quarters of a tile's width, each with a highlight."""
    x0, y0, w, h = area
    for _ in range(int(rng.integers(6, 16))):
        r = int(tile * rng.uniform(0.25, 0.4))
        if w <= 2 * r or h <= 2 * r:
            return
        cx, cy = int(rng.integers(x0 + r, x0 + w - r)), int(rng.integers(y0 + r, y0 + h - r))
        white = rng.random() < 0.5
        body = _ink(rng, 215, 240) if white else _ink(rng, 15, 40)
        cv2.circle(img, (cx + r // 6, cy + r // 5), r, (0, 0, 0), -1, cv2.LINE_AA)
        cv2.circle(img, (cx, cy), r, body, -1, cv2.LINE_AA)
        cv2.circle(img, (cx - r // 3, cy - r // 3), max(1, r // 4), tuple(min(255, c + 40) for c in body), -1, cv2.LINE_AA)


def cloth_texture(rng: np.random.Generator) -> np.ndarray:
    """A tableful of patterned cloth (BGR, ``scene.TEXTURE_SIZE`` square): checks, stripes or small flowers."""
    s = scene.TEXTURE_SIZE
    a, b = np.array(_ink(rng, 30, 230), np.float32), np.array(_ink(rng, 30, 230), np.float32)
    pattern = str(rng.choice(["check", "stripe", "flowers"]))
    yy, xx = np.mgrid[0:s, 0:s]
    period = int(rng.choice([6, 8, 12, 16]))
    if pattern == "check":
        m = (((xx // period) + (yy // period)) % 2).astype(np.float32)
    elif pattern == "stripe":
        m = (((xx + yy * int(rng.integers(0, 2))) // period) % 2).astype(np.float32)
    else:
        m = np.zeros((s, s), np.float32)
    img = np.ascontiguousarray(a * (1 - m[..., None]) + b * m[..., None]).astype(np.uint8)
    if pattern == "flowers":
        for _ in range(int(s * s / 300)):
            cx, cy = (int(v) for v in rng.integers(0, s, 2))
            petal = tuple(int(c) for c in b)
            for k in range(5):
                t = 2 * math.pi * k / 5
                cv2.circle(img, (int(cx + 3 * math.cos(t)), int(cy + 3 * math.sin(t))), 2, petal, -1, cv2.LINE_AA)
            cv2.circle(img, (cx, cy), 1, (40, 200, 230), -1, cv2.LINE_AA)
    return img


DRAWERS: dict[str, Callable[[np.ndarray, Area, float, np.random.Generator], None]] = {
    "keyboard": draw_keyboard, "cards": draw_cards, "dominoes": draw_dominoes, "text": draw_text, "stones": draw_stones,
}


# --- the scene -----------------------------------------------------------------------------------


@contextlib.contextmanager
def one_hand_from_above(kind: str) -> Iterator[None]:
    """While this holds, ``render_scene`` lays out one finished hand, seen from above at a phone's angle, filling half
    the frame (room beside it for a distractor); with ``kind`` cloth, the table is a patterned cloth, else a plain
    or wooden top."""

    def layout(rng: np.random.Generator, style: Any) -> tuple[scene.Scene, dict[str, float]]:
        w = rng.uniform(24, 30)
        size = (w, w * rng.uniform(1.3, 1.4), w * style.thickness)
        plan = random_hand(rng, Wall(), winner=True)
        out = scene.Scene(hands=[plan])
        scene.lay_out_hand(rng, out, plan, 0, np.array([0.0, 0.0]), 0.0, size, False)
        return out, {"tilt": float(rng.uniform(0, 25)), "azimuth": float(rng.normal(0, 6)), "distance": float(rng.uniform(1.5, 2.5)),
                     "roll": float(rng.normal(0, 3)), "fill": float(rng.uniform(0.5, 0.6))}

    def table(rng: np.random.Generator) -> np.ndarray:
        if kind == "cloth":
            return cloth_texture(rng)
        base = np.array(rng.choice([(200, 205, 210), (150, 170, 190), (60, 110, 170), (90, 120, 70)]), np.float32)
        return np.clip(base + 4 * rng.standard_normal((scene.TEXTURE_SIZE, scene.TEXTURE_SIZE, 3)), 0, 255).astype(np.uint8)

    kept = scene.random_layout, scene.table_texture, scene._draw_clutter
    scene.random_layout, scene.table_texture = layout, table
    scene._draw_clutter = lambda *args: None  # the distractor under test is the only thing beside the hand
    try:
        yield
    finally:
        scene.random_layout, scene.table_texture, scene._draw_clutter = kept


def free_band(size: tuple[int, int], tiles: np.ndarray, margin: float) -> Area:
    """The largest band of the photo beside the hand (left, right, above or below its tiles, ``margin`` clear)."""
    W, H = size
    x0, y0 = tiles[:, :2].min(0) - margin
    x1, y1 = (tiles[:, :2] + tiles[:, 2:]).max(0) + margin
    bands = [(0, 0, int(x0), H), (int(x1), 0, W - int(x1), H), (0, 0, W, int(y0)), (0, int(y1), W, H - int(y1))]
    return max(bands, key=lambda b: max(0, b[2]) * max(0, b[3]))


@dataclass(frozen=True)
class Drawn:
    """One photo drawn: its pixels (BGR), the hand's tiles (boxes, codes), the hand laid out and the distractor's band."""

    image: np.ndarray
    boxes: np.ndarray
    codes: tuple[str, ...]
    hand: dict[str, Any] | None
    winning_apart: bool
    band: Area


def draw_scene(kind: str, seed: int) -> Drawn:
    """One hand beside one kind of distractor (``none``: the hand alone; ``cloth``: under it), fixed by ``seed``."""
    rng = np.random.default_rng(seed)
    style = STYLES[HAND_STYLES[seed % len(HAND_STYLES)]]
    with one_hand_from_above(kind):
        drawn = scene.render_scene(rng, style, f"{kind}-{seed}", photo_effects=False)
    img = drawn.image.copy()
    tiles = drawn.record.tiles
    boxes = np.array([t.bbox for t in tiles], np.float32).reshape(-1, 4)
    tile_w = float(np.median(np.minimum(boxes[:, 2], boxes[:, 3])))
    band = free_band((img.shape[1], img.shape[0]), boxes, 0.4 * tile_w)
    if kind in DRAWERS and band[2] > 2 * tile_w and band[3] > 2 * tile_w:
        x, y, w, h = band
        inner = (x + int(0.15 * tile_w), y + int(0.15 * tile_w), w - int(0.3 * tile_w), h - int(0.3 * tile_w))
        DRAWERS[kind](img, inner, tile_w, rng)
    img = scene._photo_effects(rng, img)
    return Drawn(img, boxes, tuple(t.code for t in tiles), drawn.record.hand, any(g.kind == "winning" for g in drawn.record.groups),
                 band)
