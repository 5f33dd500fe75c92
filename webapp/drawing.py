"""Pictures for the page: the photo with every box the reader drew, and small tile faces.

Players recognise tiles by their faces, not by codes, so the palette shows pictures. The faces are
an asset shipped with the page (``webapp/assets/faces/CODE.png``, made by
``webapp/assets/make_faces.py``); the page never imports the training data's renderer.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from functools import lru_cache
from io import BytesIO
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from recognizer.hand import Recognition
from recognizer.image import load_photo
from scoring.argtypes import write_image
from scoring.errors import PungChowError
from scoring.tiles import Tile
from webapp.review import LOW_CONFIDENCE, Review, ReviewTile

#: Photos smaller than this on the long side are enlarged before boxes are drawn on them.
DRAW_LONG_SIDE = 2000
#: The palette's tile size in pixels (width, height).
TILE_W, TILE_H = 48, 64
#: The renderer's style the shipped faces were drawn in (``webapp/assets/make_faces.py``).
FACE_STYLE = "hk-serif"
FACES_DIR = Path(__file__).resolve().parent / "assets" / "faces"


SURE = (40, 170, 70)
UNSURE = (230, 140, 20)
DOUBTFUL = (220, 40, 40)
TYPED = (60, 120, 220)
CHOSEN = (200, 0, 200)


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu where installed, else PIL's own bitmap font: the numbers and legend on a photo."""
    try:
        return ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", size)
    except OSError:
        return ImageFont.load_default()


def box_colour(tile: ReviewTile) -> tuple[int, int, int]:
    """Green when sure, orange when unsure, red when doubtful, blue once the player vouched."""
    if tile.confidence is None:
        return TYPED
    if tile.confidence >= LOW_CONFIDENCE:
        return SURE
    return UNSURE if tile.confidence >= LOW_CONFIDENCE / 2 else DOUBTFUL


LEGEND = (("sure", SURE), ("unsure", UNSURE), ("doubtful", DOUBTFUL), ("checked by you", TYPED), ("not in the hand", (140, 140, 140)))


def draw_detections(image: np.ndarray, tiles: Iterable[ReviewTile], chosen: int | None = None, *, legend: bool = True) -> np.ndarray:
    """The photo (RGB) with each box numbered as on the page, its code and confidence, and a legend of the colours.

    The one drawing of boxes: the page's dispute record and ``pungchow recognize --overlay`` both use it.
    """
    img = Image.fromarray(np.ascontiguousarray(image))
    scale = max(1, min(3, round(DRAW_LONG_SIDE / max(img.size))))
    if scale > 1:
        # Small photos are drawn on enlarged: labels stay legible beside small tiles.
        img = img.resize((img.size[0] * scale, img.size[1] * scale), Image.Resampling.LANCZOS)
    draw = ImageDraw.Draw(img)
    tiles = [replace(t, box=(t.box[0] * scale, t.box[1] * scale, t.box[2] * scale, t.box[3] * scale)) for t in tiles if t.box is not None]
    widths = sorted(t.box[2] - t.box[0] for t in tiles if t.box is not None)
    tile_width = widths[len(widths) // 2] if widths else max(img.size) / 20
    line = max(2, round(tile_width / 25))
    font = _font(max(16, round(tile_width / 3)))
    small = _font(max(12, round(tile_width / 4.6)))
    for tile in sorted(tiles, key=lambda t: t.id == chosen):
        assert tile.box is not None
        x0, y0, x1, y1 = tile.box
        colour = CHOSEN if tile.id == chosen else box_colour(tile) if tile.in_hand else (140, 140, 140)
        draw.rectangle((x0, y0, x1, y1), outline=colour, width=line * (2 if tile.id == chosen else 1))
        # The number above the box, as on the page; the code and how sure, small, along the box's foot.
        number = f"#{tile.id}"
        left, top, right, bottom = draw.textbbox((0, 0), number, font=font)
        label_y = max(0, y0 - (bottom - top) - 2 * line)
        draw.rectangle((x0, label_y, x0 + (right - left) + 2 * line, label_y + (bottom - top) + 2 * line), fill=colour)
        draw.text((x0 + line - left, label_y + line - top), number, fill=(255, 255, 255), font=font)
        lines = [tile.code] + ([] if tile.confidence is None else [f"{tile.confidence:.0%}"])
        heights = [draw.textbbox((0, 0), t, font=small) for t in lines]
        foot = y1 - sum(b[3] - b[1] + line for b in heights) - line
        for text, (left, top, right, bottom) in zip(lines, heights):
            draw.rectangle((x0 + line, foot, x0 + line + (right - left) + 2 * line, foot + (bottom - top) + line), fill=colour)
            draw.text((x0 + 2 * line - left, foot + line // 2 - top), text, fill=(255, 255, 255), font=small)
            foot += bottom - top + line
    return np.asarray(_with_legend(img, line) if legend else img)


def recognition_overlay(image: np.ndarray, recognition: Recognition) -> np.ndarray:
    """What ``pungchow recognize --overlay`` writes: the reader's typed result drawn as the page draws it, numbers and all."""
    return draw_detections(image, Review.from_recognition(recognition, (image.shape[1], image.shape[0])).tiles)


def draw_overlay(photo: str | Path | bytes | np.ndarray, result: Recognition, out: str | Path) -> None:
    """Write the photo with each box numbered as the page numbers it, its code and confidence, and a legend of the
    colours: one drawing for the page and the command line. The photo is read again only when given as a file."""
    import cv2

    rgb = photo if isinstance(photo, np.ndarray) else load_photo(photo)
    img = cv2.cvtColor(recognition_overlay(rgb, result), cv2.COLOR_RGB2BGR)
    write_image(Path(out), img)  # whole or not at all: an old file replaced with --force survives a full disk


def _with_legend(img: Image.Image, pad: int) -> Image.Image:
    """Lines under the photo saying what each colour means, wrapped to the photo's width."""
    font = _font(max(14, img.size[0] // 60))
    probe = ImageDraw.Draw(img)
    entries: list[tuple[str, tuple[int, int, int] | None]] = [("the number is the tile's on the page:", None)]
    entries += [(name + (f" ({LOW_CONFIDENCE:.0%} or more)" if colour == SURE else ""), colour) for name, colour in LEGEND]
    text_h = round(probe.textbbox((0, 0), "Ag", font=font)[3])
    row_h = text_h + 2 * pad
    rows: list[list[tuple[str, Any, int]]] = [[]]
    x = 2 * pad
    for name, colour in entries:
        width = (row_h if colour else 0) + round(probe.textlength(name, font=font)) + 3 * pad
        if rows[-1] and x + width > img.size[0]:
            rows.append([])
            x = 2 * pad
        rows[-1].append((name, colour, x))
        x += width
    strip = Image.new("RGB", (img.size[0], img.size[1] + row_h * len(rows) + pad), (255, 255, 255))
    strip.paste(img, (0, 0))
    draw = ImageDraw.Draw(strip)
    for r, row in enumerate(rows):
        y = img.size[1] + pad + r * row_h
        for name, colour, x in row:
            if colour:
                draw.rectangle((x, y + pad, x + text_h, y + pad + text_h), fill=colour)
                x += row_h
            draw.text((x, y + pad), name, fill=(20, 20, 20), font=font)
    return strip


def tile_crop(image: np.ndarray, box: tuple[int, int, int, int], height: int = 96) -> Image.Image:
    """The photographed tile with a little of the table round it, at a height the fix panel shows."""
    x0, y0, x1, y1 = box
    margin = max(2, (x1 - x0) // 8)
    h, w = image.shape[:2]
    rows, cols = slice(max(0, y0 - margin), min(h, y1 + margin)), slice(max(0, x0 - margin), min(w, x1 + margin))
    crop = Image.fromarray(np.ascontiguousarray(image[rows, cols]))
    if crop.size[0] < 1 or crop.size[1] < 1:
        return Image.new("RGB", (TILE_W, TILE_H), (255, 255, 255))
    return crop.resize((max(1, round(crop.size[0] * height / crop.size[1])), height), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def tile_face(code: str) -> Image.Image:
    """A small picture of one tile face for the palette, read once per process from the shipped faces."""
    path = FACES_DIR / f"{Tile.parse(code).code}.png"
    try:
        with Image.open(path) as face:
            rgb: Image.Image = face.convert("RGB")
            return rgb
    except FileNotFoundError:
        raise PungChowError(f"the tile face {path} is missing from the install: reinstall Pung Chow, or run "
                            "webapp/assets/make_faces.py") from None


@lru_cache(maxsize=64)
def tile_face_png(code: str) -> bytes:
    """The face as PNG bytes (what ``st.image`` and the history's export take), encoded once per process."""
    buf = BytesIO()
    tile_face(code).save(buf, format="PNG")
    return buf.getvalue()


def tile_row(codes: Iterable[str], gap: int = 4) -> Image.Image:
    """Faces side by side: a set, or the whole hand, as the player would lay it out."""
    faces = [tile_face(c) for c in codes]
    if not faces:
        return Image.new("RGB", (TILE_W, TILE_H), (255, 255, 255))
    row = Image.new("RGB", (len(faces) * (TILE_W + gap) - gap, TILE_H), (255, 255, 255))
    for i, face in enumerate(faces):
        row.paste(face, (i * (TILE_W + gap), 0))
    return row
