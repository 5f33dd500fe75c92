"""Tile faces of many styles, drawn by us (fonts and procedural shapes) or taken from CC0 art.

Every style is a named :class:`TileStyle`; :func:`render_faces` draws its 43 faces once
(``XX`` is the back) as RGBA arrays of one size, and the scene renderer only warps them.
Names matter: an evaluation set can hold some styles out of training.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from pungchow_data.characters import FLOWER_CHARS, NUMERALS, WIND_CHARS
from scoring.tiles import ALL_CODES

#: Face size in pixels (width, height); tiles in photos are rarely wider than this.
FACE_W, FACE_H = 96, 128
_SS = 3  # supersampling factor: PIL shapes are not anti-aliased

NOTO_DIR = Path(os.environ.get("PUNGCHOW_NOTO_DIR", "/usr/share/fonts/opentype/noto"))
DEJAVU_DIR = Path(os.environ.get("PUNGCHOW_DEJAVU_DIR", "/usr/share/fonts/truetype/dejavu"))
#: The shared folder beside the repository (as on the developers' machines and in CI).
SHARED_DIR = Path(os.environ.get("PUNGCHOW_SHARED_DIR", Path(__file__).resolve().parents[3] / "shared"))
FLUFFY_DIR = SHARED_DIR / "tile-art" / "fluffystuff-riichi"

RGB = tuple[int, int, int]

INK_RED: RGB = (190, 30, 35)
INK_GREEN: RGB = (20, 120, 60)
INK_BLUE: RGB = (25, 55, 150)
INK_BLACK: RGB = (25, 25, 30)

FACE_COLOURS: dict[str, RGB] = {"white": (246, 246, 240), "ivory": (240, 232, 205), "bone": (228, 218, 190)}
BACK_COLOURS: dict[str, RGB] = {
    "green": (30, 120, 70),
    "blue": (35, 70, 150),
    "yellow": (225, 180, 40),
    "orange": (220, 110, 30),
    "black": (30, 30, 32),
    "bamboo": (190, 150, 90),
}

CORNER_LETTERS = {"EW": "E", "SW": "S", "WW": "W", "NW": "N", "RD": "R", "GD": "G", "WD": "W"}


@dataclass(frozen=True)
class TileStyle:
    """How one set of tiles looks: the faces' drawing and the body's colours and shape."""

    name: str
    face: str = "ivory"
    back: str = "green"
    font: str = "serif"  # serif | sans  (Noto CJK)
    dots: str = "plain"  # plain | ornate
    bamboo: str = "sticks"  # sticks | ornate
    bird: bool = True  # the bird on 1 bamboo, else one big stick
    white_dragon: str = "frame"  # blank | frame | letter
    bonus: str = "character"  # character | picture
    corner_index: bool = False
    inks: tuple[RGB, RGB, RGB] = (INK_RED, INK_GREEN, INK_BLUE)
    art: str | None = None  # "Regular" / "Black": take playing faces from the fluffystuff CC0 art
    thickness: float = 0.65  # depth / width of the tile body
    face_layer: float = 0.55  # share of the depth in the face colour (the rest in the back colour)
    corner_radius: float = 0.10  # rounded corners, as a share of the width
    family: str | None = None  # a real-set family of :mod:`pungchow_data.realsets`: faces drawn per set
    variant: int = 0  # which set of the family (each scene draws its own)

    @property
    def face_rgb(self) -> RGB:
        return FACE_COLOURS[self.face]

    @property
    def back_rgb(self) -> RGB:
        return BACK_COLOURS[self.back]


#: The built-in styles. Names are stable: evaluation sets hold some out by name.
STYLES: dict[str, TileStyle] = {
    s.name: s
    for s in (
        TileStyle("fluffy", face="white", back="yellow", art="Regular", white_dragon="blank", thickness=0.7, face_layer=0.6),
        TileStyle("fluffy-dark", face="white", back="blue", art="Black", white_dragon="blank", thickness=0.7),
        TileStyle("hk-serif", face="ivory", back="green", font="serif", dots="ornate", bamboo="sticks", white_dragon="frame"),
        TileStyle("hk-sans", face="white", back="blue", font="sans", dots="plain", bamboo="sticks", white_dragon="blank",
                  bonus="picture", thickness=0.75),
        TileStyle("western", face="ivory", back="orange", font="sans", dots="plain", bamboo="ornate", bird=False,
                  white_dragon="frame", corner_index=True, bonus="picture", thickness=0.55),
        TileStyle("bone-bamboo", face="bone", back="bamboo", font="serif", dots="ornate", bamboo="ornate",
                  white_dragon="letter", corner_index=True, thickness=0.8, face_layer=0.5),
        TileStyle("hk-classic", face="white", back="yellow", font="serif", dots="plain", bamboo="ornate",
                  white_dragon="blank", bonus="picture", thickness=0.7, corner_radius=0.14),
        TileStyle("modern", face="bone", back="green", font="sans", dots="ornate", bamboo="sticks", bird=False,
                  white_dragon="letter", corner_index=True, inks=(INK_RED, INK_GREEN, INK_BLACK), thickness=0.5),
        TileStyle("blue-ink", face="white", back="black", font="sans", dots="ornate", bamboo="sticks",
                  white_dragon="frame", inks=(INK_RED, INK_BLUE, INK_BLUE), thickness=0.6),
    )
}


def _family_styles() -> dict[str, TileStyle]:
    from pungchow_data.realsets import FAMILIES

    bodies = (("ivory", "green"), ("white", "blue"), ("bone", "yellow"), ("ivory", "orange"), ("white", "green"), ("bone", "black"))
    return {
        name: TileStyle(name, face=bodies[i % len(bodies)][0], back=bodies[i % len(bodies)][1], family=name,
                        white_dragon="frame", thickness=0.6 + 0.05 * (i % 4), corner_radius=0.08 + 0.02 * (i % 3))
        for i, name in enumerate(FAMILIES)
    }


#: Styles of the sets people own (:mod:`pungchow_data.realsets`): chosen by name, or with ``--families``;
#: not in the default style list, so older commands keep rendering the same bytes.
FAMILY_STYLES: dict[str, TileStyle] = _family_styles()


def family_variant(style: TileStyle, rng: np.random.Generator) -> TileStyle:
    """Another physical set of the same family: fonts, inks, drawings and face colour drawn again."""
    return replace(style, variant=int(rng.integers(1 << 30))) if style.family else style


#: Ink triples (red, green, blue roles) real sets use: many Japanese sets print the green dragon in black.
INK_VARIANTS: tuple[tuple[RGB, RGB, RGB], ...] = (
    (INK_RED, INK_GREEN, INK_BLUE), (INK_RED, INK_GREEN, INK_BLACK), (INK_RED, INK_BLACK, INK_BLUE), (INK_RED, INK_BLACK, INK_BLACK),
)


def recoloured(style: TileStyle, rng: np.random.Generator) -> TileStyle:
    """The same face drawings on another body and in other inks: real sets come in any colours.

    The name is kept, so a held-out style stays held out by its drawings; the fluffystuff art
    keeps its own face colour and inks.
    """
    back = str(rng.choice(sorted(BACK_COLOURS)))
    if style.art is not None:
        return replace(style, back=back)
    face = str(rng.choice(sorted(FACE_COLOURS)))
    inks = INK_VARIANTS[int(rng.integers(len(INK_VARIANTS)))] if rng.random() < 0.5 else style.inks
    return replace(style, back=back, face=face, inks=inks)


#: Styles kept out of training by ``--holdout-styles``, to measure how the recognizer does on a set it never saw.
HOLDOUT_STYLES: tuple[str, ...] = ("western", "blue-ink")


def missing_fonts() -> str | None:
    """What font the renderer lacks and how to get it, or None: every style draws text with these."""
    if not (NOTO_DIR / "NotoSansCJK-Bold.ttc").is_file() or not (NOTO_DIR / "NotoSerifCJK-Bold.ttc").is_file():
        return f"Noto CJK fonts not found in {NOTO_DIR}: install fonts-noto-cjk or set PUNGCHOW_NOTO_DIR"
    if not (DEJAVU_DIR / "DejaVuSans-Bold.ttf").is_file():
        return f"DejaVu Sans Bold not found in {DEJAVU_DIR}: install fonts-dejavu-core or set PUNGCHOW_DEJAVU_DIR"
    return None


def style_available(style: TileStyle) -> bool:
    """Whether the art a style needs is on this machine (fonts are checked when styles resolve)."""
    if style.family is not None:
        from pungchow_data.realsets import FAMILIES, missing_family_fonts

        return missing_family_fonts(FAMILIES[style.family]) is None
    return style.art is None or (FLUFFY_DIR / "Export" / style.art).is_dir()


def _known(name: str) -> TileStyle:
    return STYLES[name] if name in STYLES else FAMILY_STYLES[name]


def resolve_styles(include: list[str] | None = None, exclude: list[str] | None = None) -> list[TileStyle]:
    """The styles named (all by default) less those excluded; unknown names are a user error."""
    from scoring.errors import PungChowError

    names = list(include) if include else [n for n in STYLES if style_available(STYLES[n])]
    for n in names + list(exclude or []):
        if n not in STYLES and n not in FAMILY_STYLES:
            raise PungChowError(f"unknown tile style {n!r}: use one of {', '.join([*STYLES, *FAMILY_STYLES])}")
    missing = [n for n in names if not style_available(_known(n))]
    family_missing = [n for n in missing if n in FAMILY_STYLES]
    if family_missing:
        from pungchow_data.realsets import FAMILIES, missing_family_fonts

        raise PungChowError(str(missing_family_fonts(FAMILIES[family_missing[0]])))
    if missing:
        raise PungChowError(
            f"style {missing[0]} needs the fluffystuff tile art in {FLUFFY_DIR / 'Export'}: "
            "set PUNGCHOW_SHARED_DIR to the folder holding tile-art/, or leave the style out"
        )
    missing_font = missing_fonts()
    if missing_font:
        raise PungChowError(missing_font)
    chosen = [_known(n) for n in names if n not in set(exclude or [])]
    if not chosen:
        raise PungChowError("no tile style left to render: --exclude-styles removed them all")
    return chosen


# --- fonts ---------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _cjk_font(kind: str, size: int) -> ImageFont.FreeTypeFont:
    file = "NotoSerifCJK-Bold.ttc" if kind == "serif" else "NotoSansCJK-Bold.ttc"
    return ImageFont.truetype(str(NOTO_DIR / file), size, index=3)  # index 3: Traditional Chinese


@lru_cache(maxsize=64)
def _latin_font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(DEJAVU_DIR / "DejaVuSans-Bold.ttf"), size)


def _text_centered(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, font: ImageFont.FreeTypeFont, fill: RGB) -> None:
    draw.text(xy, text, font=font, fill=fill, anchor="mm")


# --- procedural suits ----------------------------------------------------------------------------

#: Dot centres on a unit face (x, y in 0..1) for 1..9 dots, laid out as real sets do.
_DOT_LAYOUT: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.27), (0.5, 0.73)],
    3: [(0.25, 0.2), (0.5, 0.5), (0.75, 0.8)],
    4: [(0.3, 0.28), (0.7, 0.28), (0.3, 0.72), (0.7, 0.72)],
    5: [(0.28, 0.22), (0.72, 0.22), (0.5, 0.5), (0.28, 0.78), (0.72, 0.78)],
    6: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.52), (0.7, 0.52), (0.3, 0.8), (0.7, 0.8)],
    7: [(0.22, 0.14), (0.5, 0.25), (0.78, 0.36), (0.3, 0.6), (0.7, 0.6), (0.3, 0.85), (0.7, 0.85)],
    8: [(0.3, 0.13), (0.7, 0.13), (0.3, 0.38), (0.7, 0.38), (0.3, 0.62), (0.7, 0.62), (0.3, 0.87), (0.7, 0.87)],
    9: [(x, y) for y in (0.18, 0.5, 0.82) for x in (0.2, 0.5, 0.8)],
}
_DOT_RADIUS = {1: 0.36, 2: 0.2, 3: 0.15, 4: 0.17, 5: 0.15, 6: 0.14, 7: 0.12, 8: 0.11, 9: 0.12}


def _dot_colour(n: int, i: int, inks: tuple[RGB, RGB, RGB]) -> RGB:
    red, green, blue = inks
    if n == 1:
        return red
    if n == 5 and i == 2:
        return red
    if n == 7:
        return green if i < 3 else red
    if n in (6, 9):
        return red if (n == 6 and i >= 2) or (n == 9 and 3 <= i < 6) else blue
    return (blue, green)[i % 2] if n in (2, 4, 8) else (blue, red, green)[i % 3]


def _draw_dot(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: RGB, design: str) -> None:
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink, width=max(2, int(r * 0.22)))
    if design == "ornate":
        for k in range(8):
            a = k * math.pi / 4
            x, y = cx + 0.55 * r * math.cos(a), cy + 0.55 * r * math.sin(a)
            rr = r * 0.14
            draw.ellipse((x - rr, y - rr, x + rr, y + rr), fill=ink)
        rr = r * 0.3
        draw.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), outline=ink, width=max(1, int(r * 0.12)))
    else:
        rr = r * 0.45
        draw.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=ink)


def _draw_dots(draw: ImageDraw.ImageDraw, n: int, box: tuple[float, float, float, float], style: TileStyle) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    r = _DOT_RADIUS[n] * min(w, h * 0.8)
    for i, (u, v) in enumerate(_DOT_LAYOUT[n]):
        _draw_dot(draw, x0 + u * w, y0 + v * h, r, _dot_colour(n, i, style.inks), style.dots)


#: Stick positions for 2..9 bamboo: (x, y) centres on a unit face, and whether the stick lies flat.
_STICK_LAYOUT: dict[int, list[tuple[float, float]]] = {
    2: [(0.5, 0.27), (0.5, 0.73)],
    3: [(0.5, 0.27), (0.3, 0.73), (0.7, 0.73)],
    4: [(0.3, 0.27), (0.7, 0.27), (0.3, 0.73), (0.7, 0.73)],
    5: [(0.22, 0.27), (0.78, 0.27), (0.5, 0.5), (0.22, 0.73), (0.78, 0.73)],
    6: [(x, y) for y in (0.27, 0.73) for x in (0.2, 0.5, 0.8)],
    7: [(0.5, 0.17)] + [(x, y) for y in (0.5, 0.83) for x in (0.2, 0.5, 0.8)],
    8: [(x, y) for y in (0.27, 0.73) for x in (0.14, 0.38, 0.62, 0.86)],
    9: [(x, y) for y in (0.17, 0.5, 0.83) for x in (0.2, 0.5, 0.8)],
}


def _stick_colour(n: int, i: int, inks: tuple[RGB, RGB, RGB]) -> RGB:
    red, green, blue = inks
    if n in (5, 7) and i == (2 if n == 5 else 0):
        return red
    if n == 9:
        return (red, blue, green)[i % 3]
    if n == 8:
        return green if i < 4 else blue
    return green if i % 2 == 0 or n < 4 else blue


def _draw_stick(draw: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, ink: RGB, design: str) -> None:
    draw.rounded_rectangle((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), radius=w / 2, fill=ink)
    light = tuple(min(255, c + 90) for c in ink)
    draw.line((cx, cy - h / 2 + w * 0.6, cx, cy + h / 2 - w * 0.6), fill=light, width=max(1, int(w * 0.18)))
    draw.rectangle((cx - w * 0.62, cy - w * 0.12, cx + w * 0.62, cy + w * 0.12), fill=ink)
    if design == "ornate":
        for dy in (-h * 0.33, h * 0.33):
            draw.ellipse((cx - w * 0.55, cy + dy - w * 0.2, cx + w * 0.55, cy + dy + w * 0.2), fill=ink)


def _draw_bamboo(draw: ImageDraw.ImageDraw, n: int, box: tuple[float, float, float, float], style: TileStyle) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    rows = 3 if n in (7, 9) else 2
    sh = h / rows * 0.82
    sw = w * (0.13 if n == 8 else 0.16)
    for i, (u, v) in enumerate(_STICK_LAYOUT[n]):
        _draw_stick(draw, x0 + u * w, y0 + v * h, sw, sh, _stick_colour(n, i, style.inks), style.bamboo)


def _draw_bird(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], style: TileStyle) -> None:
    """The sparrow (or peacock) that 1 bamboo shows on Chinese sets: body, wing, tail, head."""
    red, green, blue = style.inks
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx, cy = x0 + 0.5 * w, y0 + 0.55 * h
    for k, ink in enumerate((green, blue, green)):
        a = math.radians(110 + 25 * k)
        tx, ty = cx + 0.55 * h * math.cos(a) * 0.6, cy + 0.45 * h * math.sin(a)
        draw.polygon([(cx, cy), (tx - 0.08 * w, ty), (tx + 0.08 * w, ty)], fill=ink)
    draw.ellipse((cx - 0.28 * w, cy - 0.18 * h, cx + 0.28 * w, cy + 0.12 * h), fill=green)
    draw.ellipse((cx - 0.15 * w, cy - 0.12 * h, cx + 0.18 * w, cy + 0.05 * h), fill=blue)
    hx, hy = cx + 0.22 * w, cy - 0.25 * h
    draw.ellipse((hx - 0.12 * w, hy - 0.09 * h, hx + 0.12 * w, hy + 0.09 * h), fill=green)
    draw.polygon([(hx + 0.1 * w, hy - 0.02 * h), (hx + 0.25 * w, hy + 0.02 * h), (hx + 0.1 * w, hy + 0.05 * h)], fill=red)
    draw.ellipse((hx + 0.02 * w, hy - 0.04 * h, hx + 0.07 * w, hy), fill=(250, 250, 250))
    draw.line((cx - 0.05 * w, cy + 0.1 * h, cx - 0.1 * w, cy + 0.3 * h), fill=red, width=max(2, int(w * 0.03)))
    draw.line((cx + 0.08 * w, cy + 0.1 * h, cx + 0.12 * w, cy + 0.3 * h), fill=red, width=max(2, int(w * 0.03)))


def _draw_flower_picture(draw: ImageDraw.ImageDraw, code: str, box: tuple[float, float, float, float], style: TileStyle) -> None:
    """A simple picture for a bonus tile: petals (flowers) or a sun/leaf motif (seasons)."""
    red, green, blue = style.inks
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    n = int(code[0])
    cx, cy = x0 + 0.5 * w, y0 + 0.55 * h
    draw.line((cx, cy, cx - 0.1 * w, y1 - 0.05 * h), fill=green, width=max(2, int(w * 0.05)))
    draw.ellipse((cx - 0.3 * w, cy + 0.1 * h, cx - 0.05 * w, cy + 0.2 * h), fill=green)
    petal = red if code[1] == "F" else (blue, red, (200, 120, 20), blue)[n - 1]
    petals = 4 + n if code[1] == "F" else 12
    r = 0.2 * w
    for k in range(petals):
        a = 2 * math.pi * k / petals
        px, py = cx + r * math.cos(a), cy - 0.15 * h + r * math.sin(a)
        pr = 0.09 * w if code[1] == "F" else 0.05 * w
        draw.ellipse((px - pr, py - pr, px + pr, py + pr), fill=petal)
    cr = 0.08 * w
    draw.ellipse((cx - cr, cy - 0.15 * h - cr, cx + cr, cy - 0.15 * h + cr), fill=(220, 170, 20) if code[1] == "F" else red)


# --- one face ------------------------------------------------------------------------------------


def _rounded_alpha(w: int, h: int, radius: float) -> Image.Image:
    mask = Image.new("L", (w * _SS, h * _SS), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w * _SS - 1, h * _SS - 1), radius=radius * w * _SS, fill=255)
    return mask.resize((w, h), Image.Resampling.LANCZOS)


def _face_canvas(style: TileStyle, colour: RGB) -> Image.Image:
    """A blank face with a faint vignette, so faces are not perfectly flat colour."""
    W, H = FACE_W * _SS, FACE_H * _SS
    img = Image.new("RGB", (W, H), colour)
    shade = Image.new("L", (W, H), 0)
    ImageDraw.Draw(shade).rounded_rectangle((0, 0, W - 1, H - 1), radius=style.corner_radius * W, outline=60, width=int(0.06 * W))
    shade = shade.filter(ImageFilter.GaussianBlur(0.05 * W))
    dark = Image.new("RGB", (W, H), tuple(int(c * 0.8) for c in colour))
    return Image.composite(dark, img, shade)


def _draw_corner(draw: ImageDraw.ImageDraw, code: str, ink: RGB) -> None:
    """The small Arabic numeral or letter Western sets print in the top-left corner."""
    label = CORNER_LETTERS.get(code) or code[0]
    _text_centered(draw, (0.16 * FACE_W * _SS, 0.13 * FACE_H * _SS), label, _latin_font(int(0.2 * FACE_W * _SS)), ink)


def _draw_playing_face(img: Image.Image, code: str, style: TileStyle) -> None:
    red, green, blue = style.inks
    W, H = img.size
    draw = ImageDraw.Draw(img)
    pad = 0.1 * W
    top = 0.2 * H if style.corner_index else pad
    box = (pad, top, W - pad, H - pad)
    numbered = code[0].isdigit()
    if numbered and code[1] == "C":
        n = int(code[0])
        numeral_ink = INK_BLACK if blue == INK_BLUE else blue
        _text_centered(draw, (W / 2, 0.3 * H), NUMERALS[n - 1], _cjk_font(style.font, int(0.5 * W)), numeral_ink)
        _text_centered(draw, (W / 2, 0.7 * H), "萬", _cjk_font(style.font, int(0.62 * W)), red)
    elif numbered and code[1] == "D":
        _draw_dots(draw, int(code[0]), box, style)
    elif numbered and code[1] == "B":
        if code == "1B" and style.bird:
            _draw_bird(draw, box, style)
        elif code == "1B":
            _draw_stick(draw, W / 2, H / 2, 0.22 * W, 0.7 * H, green, "ornate")
        else:
            _draw_bamboo(draw, int(code[0]), box, style)
    elif code in WIND_CHARS:
        wind_ink = INK_BLACK if blue == INK_BLUE else blue
        _text_centered(draw, (W / 2, H / 2), WIND_CHARS[code], _cjk_font(style.font, int(0.78 * W)), wind_ink)
    elif code == "RD":
        _text_centered(draw, (W / 2, H / 2), "中", _cjk_font(style.font, int(0.8 * W)), red)
    elif code == "GD":
        _text_centered(draw, (W / 2, H / 2), "發", _cjk_font(style.font, int(0.78 * W)), green)
    elif code == "WD":
        if style.white_dragon == "frame":
            m = 0.16 * W
            draw.rectangle((m, m * 1.2, W - m, H - m * 1.2), outline=blue, width=int(0.06 * W))
            draw.rectangle((m * 1.6, m * 1.8, W - m * 1.6, H - m * 1.8), outline=blue, width=int(0.025 * W))
        elif style.white_dragon == "letter":
            _text_centered(draw, (W / 2, H / 2), "白", _cjk_font(style.font, int(0.78 * W)), blue)
    if style.corner_index and not (code == "WD" and style.white_dragon == "blank"):
        _draw_corner(draw, code, red if (numbered and code[1] in "CD") or code == "RD" else (blue if code != "GD" else green))


def _draw_bonus_face(img: Image.Image, code: str, style: TileStyle) -> None:
    """Flowers and seasons carry a picture or a character, and their number 1-4 in a corner."""
    red, green, blue = style.inks
    W, H = img.size
    draw = ImageDraw.Draw(img)
    ink = red if code[1] == "F" else blue
    if style.bonus == "picture":
        _draw_flower_picture(draw, code, (0.1 * W, 0.2 * H, 0.9 * W, 0.95 * H), style)
    else:
        _text_centered(draw, (W / 2, 0.58 * H), FLOWER_CHARS[code], _cjk_font(style.font, int(0.7 * W)), ink if code[1] == "F" else green)
    _text_centered(draw, (0.8 * W, 0.12 * H), code[0], _latin_font(int(0.22 * W)), ink)
    if style.corner_index:
        _text_centered(draw, (0.2 * W, 0.12 * H), code[1], _latin_font(int(0.2 * W)), ink)


def _draw_back(style: TileStyle) -> Image.Image:
    """The back of a tile: its body colour, a little texture; bone-and-bamboo shows the dovetail."""
    W, H = FACE_W * _SS, FACE_H * _SS
    img = _face_canvas(style, style.back_rgb)
    if style.back == "bamboo":
        draw = ImageDraw.Draw(img)
        for k in range(9):
            x = (k + 0.5) * W / 9
            draw.line((x, 0, x + 0.03 * W, H), fill=(165, 125, 70), width=int(0.015 * W))
        draw.polygon([(0.35 * W, 0), (0.65 * W, 0), (0.58 * W, 0.12 * H), (0.42 * W, 0.12 * H)], fill=style.face_rgb)
    return img


_FLUFFY_NAMES: dict[str, str] = {
    **{f"{n}C": f"Man{n}" for n in range(1, 10)},
    **{f"{n}D": f"Pin{n}" for n in range(1, 10)},
    **{f"{n}B": f"Sou{n}" for n in range(1, 10)},
    "EW": "Ton", "SW": "Nan", "WW": "Shaa", "NW": "Pei", "RD": "Chun", "GD": "Hatsu", "WD": "Haku",
}


def _fluffy_face(style: TileStyle, code: str) -> Image.Image | None:
    """A fluffystuff face: its art scaled onto our face colour (the Black variant keeps its dark face)."""
    name = _FLUFFY_NAMES.get(code)
    if name is None or style.art is None:
        return None
    art = Image.open(FLUFFY_DIR / "Export" / style.art / f"{name}.png").convert("RGBA")
    W, H = FACE_W * _SS, FACE_H * _SS
    base = _face_canvas(style, style.face_rgb if style.art == "Regular" else (45, 45, 50))
    art = art.resize((int(W * 0.9), int(H * 0.9)), Image.Resampling.LANCZOS)
    base.paste(art, (int(W * 0.05), int(H * 0.05)), art)
    return base


def render_face(style: TileStyle, code: str) -> np.ndarray:
    """One face as an RGBA array of FACE_H x FACE_W (alpha: the rounded outline)."""
    img: Image.Image | None = None
    if code == "XX":
        img = _draw_back(style)
    elif style.family is not None:
        img = _real_set_face(style, code)
    elif style.art is not None:
        img = _fluffy_face(style, code)
    if img is None:
        face_colour = style.face_rgb if style.art != "Black" else (45, 45, 50)
        img = _face_canvas(style, face_colour)
        plain = replace(style, inks=(INK_RED, INK_GREEN, (235, 235, 240))) if style.art == "Black" else style
        if code[0].isdigit() and code[1] in "FS":
            _draw_bonus_face(img, code, plain)
        else:
            _draw_playing_face(img, code, plain)
    small = img.resize((FACE_W, FACE_H), Image.Resampling.LANCZOS).convert("RGBA")
    small.putalpha(_rounded_alpha(FACE_W, FACE_H, style.corner_radius))
    pixels: np.ndarray = np.asarray(small).copy()
    return pixels


def _real_set_face(style: TileStyle, code: str) -> Image.Image:
    """A face of one set of a real-set family, with the rim shading every face gets."""
    from pungchow_data.realsets import FAMILIES, draw_face

    drawn = draw_face(FAMILIES[style.family or ""], style.variant, code, FACE_W * _SS, FACE_H * _SS)
    r, g, b, *_ = drawn.getpixel((FACE_W * _SS // 2, 2))  # type: ignore[misc]  # an RGB face: three channels
    colour = (r, g, b)
    canvas = _face_canvas(style, colour)
    shade = np.asarray(canvas).astype(np.float32) / np.maximum(1.0, np.array(colour, np.float32))
    return Image.fromarray(np.clip(np.asarray(drawn).astype(np.float32) * shade, 0, 255).astype(np.uint8))


def _style(style: str | TileStyle) -> TileStyle:
    return _known(style) if isinstance(style, str) else style


@lru_cache(maxsize=128)
def render_faces(style: str | TileStyle) -> dict[str, np.ndarray]:
    """All 43 faces of a style (a name or a body variant), drawn once per process and reused by every scene."""
    chosen = _style(style)
    return {code: render_face(chosen, code) for code in ALL_CODES}


def face_pyramid(style: str | TileStyle, levels: int = 3) -> dict[str, tuple[np.ndarray, ...]]:
    """Each face at full, half and quarter size, so small tiles are warped without aliasing.

    A real-set family draws a new set for every scene, so its faces are not kept (the cache would only grow).
    """
    chosen = _style(style)
    if chosen.family is not None:
        return _pyramid(render_faces.__wrapped__(chosen), levels)
    return _cached_pyramid(chosen, levels)


@lru_cache(maxsize=128)
def _cached_pyramid(style: TileStyle, levels: int) -> dict[str, tuple[np.ndarray, ...]]:
    return _pyramid(render_faces(style), levels)


def _pyramid(faces: dict[str, np.ndarray], levels: int) -> dict[str, tuple[np.ndarray, ...]]:
    out: dict[str, tuple[np.ndarray, ...]] = {}
    for code, face in faces.items():
        chain = [face]
        for _ in range(levels - 1):
            chain.append(cv2.resize(chain[-1], (chain[-1].shape[1] // 2, chain[-1].shape[0] // 2), interpolation=cv2.INTER_AREA))
        out[code] = tuple(chain)
    return out


def face_sheet(style_name: str | TileStyle, columns: int = 11) -> Image.Image:
    """Every face of a style on one image, to check a style by eye."""
    faces = render_faces(style_name)
    rows = math.ceil(len(ALL_CODES) / columns)
    sheet = Image.new("RGB", (columns * (FACE_W + 6), rows * (FACE_H + 6)), (90, 110, 90))
    for i, code in enumerate(ALL_CODES):
        tile = Image.fromarray(faces[code])
        sheet.paste(tile, ((i % columns) * (FACE_W + 6) + 3, (i // columns) * (FACE_H + 6) + 3), tile)
    return sheet
