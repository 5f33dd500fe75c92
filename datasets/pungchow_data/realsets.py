"""Faces that look like the sets people own: brush numerals over a red 萬, ringed dots, a bird on 1 bamboo,
a blue-framed white dragon, small paintings on the flowers and seasons, corner indices on Western sets.

A *family* is a house style: its fonts, its inks and which drawings it uses. Every set drawn from a
family varies (``variant`` seeds the set; each face varies again within the set), so a family is
many sets, and whole families can be held out of training to measure generalisation.
"""

from __future__ import annotations

import math
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from pungchow_data.characters import FLOWER_CHARS as BONUS_NAMES
from pungchow_data.characters import NUMERALS, SIMPLIFIED
from pungchow_data.characters import WIND_CHARS as WINDS

#: Any one thing a set's design picks from a family's choices.
T = TypeVar("T")

RGB = tuple[int, int, int]
Box = tuple[float, float, float, float]

#: Debian font packages and the files they install; ``index`` picks the Traditional Chinese face of a collection.
FONT_FILES: dict[str, tuple[str, str, int]] = {
    # key: (path, Debian package, index)
    "ukai": ("/usr/share/fonts/truetype/arphic/ukai.ttc", "fonts-arphic-ukai", 2),
    "uming": ("/usr/share/fonts/truetype/arphic/uming.ttc", "fonts-arphic-uming", 2),
    "bkai": ("/usr/share/fonts/truetype/arphic-bkai00mp/bkai00mp.ttf", "fonts-arphic-bkai00mp", 0),
    "bsmi": ("/usr/share/fonts/truetype/arphic-bsmi00lp/bsmi00lp.ttf", "fonts-arphic-bsmi00lp", 0),
    "cns-kai": ("/usr/share/fonts/truetype/cns11643/TW-Kai-98_1.ttf", "fonts-cns11643-kai", 0),
    "cwtex-kai": ("/usr/share/fonts/truetype/cwtex/cwkai.ttf", "fonts-cwtex-kai", 0),
    "cwtex-fs": ("/usr/share/fonts/truetype/cwtex/cwfs.ttf", "fonts-cwtex-fs", 0),
    "wenkai": ("/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Regular.ttf", "fonts-lxgw-wenkai", 0),
    "wenkai-bold": ("/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Bold.ttf", "fonts-lxgw-wenkai", 0),
    "zenhei": ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", "fonts-wqy-zenhei", 0),
    "microhei": ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", "fonts-wqy-microhei", 0),
    "noto-serif": ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", "fonts-noto-cjk", 3),
    "noto-serif-regular": ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", "fonts-noto-cjk", 3),
    "noto-sans": ("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", "fonts-noto-cjk", 3),
    "noto-serif-black": ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Black.ttc", "fonts-noto-cjk-extra", 3),
    "noto-serif-light": ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Light.ttc", "fonts-noto-cjk-extra", 3),
    "noto-sans-black": ("/usr/share/fonts/opentype/noto/NotoSansCJK-Black.ttc", "fonts-noto-cjk-extra", 3),
    "cns-sung": ("/usr/share/fonts/truetype/cns11643/TW-Sung-98_1.ttf", "fonts-cns11643-sung", 0),
    "hanazono": ("/usr/share/fonts/truetype/hanazono/HanaMinA.ttf", "fonts-hanazono", 0),
    "bizud-mincho": ("/usr/share/fonts/truetype/bizud-mincho/BIZUDMincho-Regular.ttf", "fonts-morisawa-bizud-mincho", 0),
    "ipaex-mincho": ("/usr/share/fonts/opentype/ipaexfont-mincho/ipaexm.ttf", "fonts-ipaexfont-mincho", 0),
    "klee": ("/usr/share/fonts/truetype/klee/KleeOne-SemiBold.ttf", "fonts-klee", 0),
    "seto": ("/usr/share/fonts/truetype/seto/setofont.ttf", "fonts-seto", 0),
    # GB 2312 faces: simplified forms only, so only the mainland family (simplified sets) draws with them
    "gkai": ("/usr/share/fonts/truetype/arphic-gkai00mp/gkai00mp.ttf", "fonts-arphic-gkai00mp", 0),
    "gbsn": ("/usr/share/fonts/truetype/arphic-gbsn00lp/gbsn00lp.ttf", "fonts-arphic-gbsn00lp", 0),
}
LATIN_FILES = ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf")

INK_RED: RGB = (185, 28, 32)
INK_GREEN: RGB = (22, 115, 62)
INK_BLUE: RGB = (28, 60, 150)
INK_BLACK: RGB = (28, 26, 30)
FACES: tuple[RGB, ...] = ((244, 242, 232), (238, 228, 200), (228, 216, 186), (248, 248, 244), (236, 232, 214))

#: Western corner indices: suits by number, winds by letter, dragons C (red), F (green), P (white).
CORNER = {"EW": "E", "SW": "S", "WW": "W", "NW": "N", "RD": "C", "GD": "F", "WD": "P"}


@dataclass(frozen=True)
class Family:
    """A house style: fonts, inks and drawings a maker uses; each set drawn from it varies within these."""

    name: str
    fonts: tuple[str, ...]
    numeral_inks: tuple[RGB, ...] = (INK_BLUE, INK_BLACK)
    wind_inks: tuple[RGB, ...] = (INK_BLUE, INK_BLACK)
    birds: tuple[str, ...] = ("peacock", "sparrow", "stick")
    drawn_birds: float = 0.0  # share of sets whose bird is their own drawing (``_drawn_bird``), not one of ``birds``
    marked_otherwise: float = 0.0  # share of sets marking flowers and seasons in one of ``OTHER_MARKS``, not ``CORNERS``
    carved: float = 0.0  # share of sets whose characters are cut by hand (``Carving``), not printed as the font draws them
    formal_five: float = 0.0  # share of sets printing the 5 of characters 伍, the formal numeral, not 五
    sides_by_kind: float = 0.0  # share of sets putting a flower's number top-right and a season's top-left (``SIDES_BY_KIND``)
    potted: float = 0.0  # share of sets painting their flowers and seasons in a pot on a stand (``POTTED``)
    dot_centres: tuple[str, ...] = ("flower", "concentric")
    paintings: tuple[str, ...] = ("plum", "orchid", "chrysanthemum", "bamboo", "figure", "scene")
    white_dragon: tuple[str, ...] = ("frame", "double", "blank")
    corner_index: float = 0.0  # share of sets with Western corner indices
    arabic_on_characters: float = 0.2  # share of sets with a small Arabic numeral beside the character suit
    simplified: float = 0.0  # share of sets printing the simplified forms (mainland sets)


#: Share of a training family's sets that draw a bird of their own: real makers draw many birds (sparrows,
#: peacocks, phoenixes, ducks, owls...), and a classifier shown three drawings reads a fourth as something else.
DRAWN_BIRDS = 0.6

#: How a set marks which flower or season a tile is. Most print an Arabic number in one top corner and the name
#: (梅蘭菊竹 / 春夏秋冬) in the other; others print a Chinese numeral instead, ring the number, put the name in a bottom
#: corner, or print the number alone (then flowers in red, seasons in blue or green). A reader that has seen one way
#: leans on where the number sits, not what it says.
CORNERS = "corners"
OTHER_MARKS: tuple[str, ...] = ("chinese-numeral", "ringed", "name-below", "number-only", "name-only")
#: Share of a training family's sets that mark their flowers and seasons in one of ``OTHER_MARKS``.
MARKED_OTHERWISE = 0.5
#: Share of a training family's sets laid out as the dev HK sets are: a flower's name top-left and its number top-right,
#: a season's the other way round, so the side the number sits on says flower or season as much as its ink does.
SIDES_BY_KIND = 0.5
#: Share of a training family's sets whose flower and season paintings stand in a pot on a little stand, as many HK sets
#: paint them (some of those print only the name above the pot: ``name-only`` marks).
POTTED = 0.4
#: Share of a training family's sets whose characters are cut by hand: a carver follows no font file, so strokes come
#: out heavier or lighter, the character wider or narrower, and every line wavers a little (``Carving``).
CARVED = 0.6
#: Share of a training family's sets that print the 5 of characters 伍, as many Chinese and most Japanese sets do: the
#: formal numeral, written where 五 could be altered. A reader that has seen only 五 takes 伍萬 for 4 of characters.
FORMAL_FIVE = 0.5
#: The formal five.
FIVE_FORMALLY = "伍"

#: Families kept out of training (``--exclude-families`` default of the training commands), for the held-out measure.
HOLDOUT_FAMILIES: tuple[str, ...] = ("real-wenkai", "real-cwtex")


def _trained_on(family: Family) -> Family:
    """A training family: a share of its sets draw a bird of their own, mark flowers and seasons another way, cut their
    characters by hand and print the formal five. The held-out families never do, so the crane and the corner marks
    they keep stay what the held-out measure asks about."""
    return replace(family, drawn_birds=DRAWN_BIRDS, marked_otherwise=MARKED_OTHERWISE, carved=CARVED,
                   formal_five=FORMAL_FIVE, sides_by_kind=SIDES_BY_KIND, potted=POTTED)


FAMILIES: dict[str, Family] = {
    f.name: f if f.name in HOLDOUT_FAMILIES else _trained_on(f)
    for f in (
        Family("real-kai", fonts=("ukai", "bkai", "cns-kai"), birds=("peacock", "sparrow", "stick")),
        Family("real-ming", fonts=("uming", "bsmi", "noto-serif", "noto-serif-regular"), birds=("sparrow", "peacock"),
               dot_centres=("concentric", "flower"), white_dragon=("frame", "double", "letter")),
        Family("real-hei", fonts=("zenhei", "microhei", "noto-sans"), wind_inks=(INK_BLUE, INK_BLACK, INK_GREEN),
               birds=("peacock", "stick"), white_dragon=("frame", "blank", "letter")),
        Family("real-western", fonts=("ukai", "uming", "noto-serif"), corner_index=1.0, birds=("sparrow", "peacock", "stick"),
               white_dragon=("frame", "double", "letter")),
        Family("real-song", fonts=("cns-sung", "hanazono", "bizud-mincho", "ipaex-mincho", "noto-serif-black", "noto-serif-light"),
               birds=("sparrow", "stick", "peacock"), white_dragon=("frame", "double", "letter", "blank"), corner_index=0.2),
        Family("real-hand", fonts=("klee", "seto", "noto-sans-black"), numeral_inks=(INK_BLUE, INK_BLACK, INK_GREEN),
               wind_inks=(INK_BLUE, INK_BLACK, INK_GREEN), birds=("peacock", "sparrow"), corner_index=0.1),
        Family("real-mainland", fonts=("gkai", "gbsn", "zenhei", "noto-sans-black"), simplified=1.0,
               birds=("peacock", "stick", "sparrow"), white_dragon=("frame", "blank", "double")),
        # held out by default: fonts and drawings no training family uses
        Family("real-wenkai", fonts=("wenkai", "wenkai-bold"), wind_inks=(INK_BLUE, INK_BLACK, INK_GREEN),
               birds=("crane", "sparrow"), dot_centres=("sun", "flower"), corner_index=0.3),
        Family("real-cwtex", fonts=("cwtex-kai", "cwtex-fs"), birds=("crane", "peacock"), dot_centres=("sun", "concentric"),
               white_dragon=("double", "frame", "blank"), corner_index=0.5),
    )
}


def font_path(key: str) -> str | None:
    """The file of a font by its key: the Debian path, else a file of the same name that fontconfig knows."""
    path, _, _ = FONT_FILES[key]
    if Path(path).is_file():
        return path
    return _fontconfig_files().get(Path(path).name)


@lru_cache(maxsize=1)
def _fontconfig_files() -> dict[str, str]:
    if not shutil.which("fc-list"):
        return {}
    out = subprocess.run(["fc-list", "-f", "%{file}\\n"], capture_output=True, text=True).stdout
    return {Path(f).name: f for f in out.splitlines() if f}


def family_fonts(family: Family) -> list[str]:
    return [k for k in family.fonts if font_path(k)]


def missing_family_fonts(family: Family) -> str | None:
    """One line saying which packages a family needs, or None when at least one of its fonts is here."""
    if family_fonts(family):
        return None
    if not _latin_file():
        return "DejaVu fonts not found: install fonts-dejavu-core"
    packages = sorted({FONT_FILES[k][1] for k in family.fonts})
    return f"style family {family.name} has none of its fonts: install {' or '.join(packages)}"


def printed_characters(family: Family) -> str:
    """Every Chinese character a family's sets may print (the simplified forms too where its sets use them)."""
    text = (NUMERALS + (FIVE_FORMALLY if family.formal_five > 0 else "") + "萬發中白" + "".join(WINDS.values())
            + "".join(BONUS_NAMES.values()))
    simplified = "".join(SIMPLIFIED.get(c, c) for c in text)
    return simplified if family.simplified >= 1 else text + simplified if family.simplified > 0 else text


def missing_glyphs(key: str, text: str) -> str:
    """The characters of ``text`` that font ``key`` cannot draw (it would print its empty-box glyph instead)."""
    font = _cjk(key, 40)
    tofu = bytes(font.getmask("\U0010fffd"))
    return "".join(c for c in text if bytes(font.getmask(c)) == tofu)


@lru_cache(maxsize=1)
def _latin_file() -> str | None:
    for p in LATIN_FILES:
        if Path(p).is_file():
            return p
    if shutil.which("fc-match"):
        out = subprocess.run(["fc-match", "-f", "%{file}", "sans:bold"], capture_output=True, text=True).stdout.strip()
        if out and Path(out).is_file():
            return out
    return None


@lru_cache(maxsize=256)
def _cjk(key: str, size: int) -> ImageFont.FreeTypeFont:
    _, _, index = FONT_FILES[key]
    return ImageFont.truetype(str(font_path(key)), size, index=index)


@lru_cache(maxsize=64)
def _latin(size: int, serif: bool = False) -> ImageFont.FreeTypeFont:
    path = LATIN_FILES[1] if serif and Path(LATIN_FILES[1]).is_file() else _latin_file()
    return ImageFont.truetype(str(path), size)


# --- a set: the choices one maker made --------------------------------------------------------------

@dataclass(frozen=True)
class Carving:
    """How a hand-cut set's characters differ from the font they follow: strokes thickened (or thinned) by ``weight``,
    the character stretched across by ``width``, every line moved by a smooth waver whose spread is ``waver`` (both
    shares of the character's size)."""

    weight: float = 0.0
    width: float = 1.0
    waver: float = 0.0


#: A character printed as the font draws it.
PRINTED = Carving()


def _carving(rng: np.random.Generator) -> Carving:
    """One carver's hand: heavier strokes more often than lighter (thinning a fine font soon breaks its strokes)."""
    return Carving(weight=float(rng.uniform(-0.012, 0.035)), width=float(rng.uniform(0.82, 1.18)), waver=float(rng.uniform(0.01, 0.05)))


@dataclass(frozen=True)
class SetDesign:
    """Everything fixed across one physical set (a family's variant)."""

    font: str
    face: RGB
    numeral_ink: RGB
    wind_ink: RGB
    bird: str
    dot_centre: str
    white_dragon: str
    corner_index: bool
    arabic: bool
    bonus_number_right: bool
    paint_style: int
    stroke: float  # ink weight factor for drawn shapes
    engraved: bool
    bonus_ink: RGB | None  # one ink for every flower and season number, or None: flowers red, seasons blue or green
    bonus_size: float  # height of a flower's or season's number and name, as a share of the face width
    simplified: bool
    bonus_marks: str = CORNERS  # how flowers and seasons say which they are: ``CORNERS`` or one of ``OTHER_MARKS``
    carving: Carving = PRINTED  # how the characters (numerals, 萬, winds, dragons) differ from the font
    formal_five: bool = False  # the 5 of characters printed 伍 (``FORMAL_FIVE``)
    sides_by_kind: bool = False  # a flower's number top-right, a season's top-left, whatever ``bonus_number_right`` says
    potted: bool = False  # flowers and seasons painted in a pot on a stand


def design(family: Family, variant: int) -> SetDesign:
    rng = np.random.default_rng([variant, 9173])
    fonts = family_fonts(family) or list(family.fonts)
    def pick(seq: Sequence[T]) -> T:
        return seq[int(rng.integers(len(seq)))]

    r, g, b = (int(np.clip(c + rng.integers(-8, 9), 0, 255)) for c in pick(FACES))
    face = (r, g, b)
    made = SetDesign(
        font=pick(fonts), face=face, numeral_ink=pick(family.numeral_inks), wind_ink=pick(family.wind_inks),
        bird=pick(family.birds), dot_centre=pick(family.dot_centres), white_dragon=pick(family.white_dragon),
        corner_index=bool(rng.random() < family.corner_index), arabic=bool(rng.random() < family.arabic_on_characters),
        bonus_number_right=bool(rng.random() < 0.5), paint_style=int(rng.integers(1 << 16)),
        stroke=float(rng.uniform(0.8, 1.3)), engraved=bool(rng.random() < 0.6),
        bonus_ink=None if rng.random() < 0.5 else pick((INK_RED, INK_BLUE, INK_GREEN, INK_BLACK)),
        bonus_size=float(rng.uniform(0.17, 0.27)), simplified=bool(rng.random() < family.simplified),
    )
    # drawn from a stream of its own, so a set's other choices are the same whatever the family's share of drawn birds
    if np.random.default_rng([variant, 5531]).random() < family.drawn_birds:
        made = replace(made, bird="drawn")
    marks = np.random.default_rng([variant, 5532])  # the same for the way flowers and seasons are marked
    if marks.random() < family.marked_otherwise:
        made = marked(made, str(marks.choice(OTHER_MARKS)))
    cut = np.random.default_rng([variant, 5534])  # and for a hand-cut set's characters
    if cut.random() < family.carved:
        made = replace(made, carving=_carving(cut))
    if np.random.default_rng([variant, 5535]).random() < family.formal_five:  # and for the formal five
        made = replace(made, formal_five=True)
    if np.random.default_rng([variant, 5536]).random() < family.sides_by_kind:  # and for the number's side by kind
        made = replace(made, sides_by_kind=True)
    if np.random.default_rng([variant, 5537]).random() < family.potted:  # and for the pot
        made = replace(made, potted=True)
    return made


def marked(s: SetDesign, marks: str) -> SetDesign:
    """The set with its flowers and seasons marked ``marks``; printing the number alone, with no name, it inks flowers
    red and seasons blue or green, since the ink is then what tells a flower from a season."""
    return replace(s, bonus_marks=marks, bonus_ink=None if marks == "number-only" else s.bonus_ink)


def printed(s: SetDesign, text: str) -> str:
    """The characters as this set prints them (simplified forms on mainland sets)."""
    return "".join(SIMPLIFIED.get(c, c) for c in text) if s.simplified else text


# --- drawing helpers ------------------------------------------------------------------------------

def _jit(ink: RGB, rng: np.random.Generator, amount: int = 14) -> RGB:
    return tuple(int(np.clip(c + rng.integers(-amount, amount + 1), 0, 255)) for c in ink)  # type: ignore[return-value]


def _text(layer: Image.Image, xy: tuple[float, float], text: str, font: ImageFont.FreeTypeFont, ink: RGB, angle: float = 0.0,
          carving: Carving = PRINTED) -> None:
    """Text centred at ``xy``, turned by ``angle`` degrees (a brush numeral is never perfectly upright), cut as ``carving`` says."""
    if carving == PRINTED and abs(angle) < 0.5:
        ImageDraw.Draw(layer).text(xy, text, font=font, fill=ink + (255,), anchor="mm")
        return
    if carving == PRINTED:
        size = int(font.size * 1.6)
        tmp = Image.new("RGBA", (size, size), (0, 0, 0, 0))
        ImageDraw.Draw(tmp).text((size / 2, size / 2), text, font=font, fill=ink + (255,), anchor="mm")
    else:
        tmp = _carved_glyph(xy, text, font, ink, carving)
    if abs(angle) >= 0.5:
        tmp = tmp.rotate(angle, resample=Image.Resampling.BICUBIC)
    layer.alpha_composite(tmp, (int(xy[0] - tmp.width / 2), int(xy[1] - tmp.height / 2)))


def _carved_glyph(xy: tuple[float, float], text: str, font: ImageFont.FreeTypeFont, ink: RGB, carving: Carving) -> Image.Image:
    """A hand-cut character on a square of its own, for ``_text`` to turn and place. The waver is fixed by the character
    and its place, so a tile draws alike every time."""
    size = int(font.size * 1.8)
    glyph = Image.new("L", (size, size), 0)
    ImageDraw.Draw(glyph).text((size / 2, size / 2), text, font=font, fill=255, anchor="mm")
    a: np.ndarray = np.asarray(glyph, np.float32)
    k = round(abs(carving.weight) * font.size)
    if k:
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
        a = cv2.dilate(a, disc) if carving.weight > 0 else cv2.erode(a, disc)
    rng = np.random.default_rng([sum(map(ord, text)), int(xy[0]), int(xy[1]), int(font.size)])
    shift = [cv2.resize(rng.normal(0, carving.waver * font.size, (4, 4)).astype(np.float32), (size, size), interpolation=cv2.INTER_CUBIC)
             for _ in range(2)]
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    sx = (xx - size / 2) / carving.width + size / 2 + shift[0]
    a = cv2.remap(a, sx, yy + shift[1], cv2.INTER_LINEAR, borderValue=0.0)
    tmp = Image.new("RGBA", (size, size), ink + (0,))
    tmp.putalpha(Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)))
    return tmp


def _ellipse(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, **kw: object) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), **kw)  # type: ignore[arg-type]


_DOTS: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.27), (0.5, 0.73)],
    3: [(0.24, 0.2), (0.5, 0.5), (0.76, 0.8)],
    4: [(0.29, 0.28), (0.71, 0.28), (0.29, 0.72), (0.71, 0.72)],
    5: [(0.27, 0.22), (0.73, 0.22), (0.5, 0.5), (0.27, 0.78), (0.73, 0.78)],
    6: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.52), (0.7, 0.52), (0.3, 0.8), (0.7, 0.8)],
    7: [(0.22, 0.14), (0.5, 0.25), (0.78, 0.36), (0.3, 0.6), (0.7, 0.6), (0.3, 0.85), (0.7, 0.85)],
    8: [(0.3, 0.13), (0.7, 0.13), (0.3, 0.38), (0.7, 0.38), (0.3, 0.62), (0.7, 0.62), (0.3, 0.87), (0.7, 0.87)],
    9: [(x, y) for y in (0.18, 0.5, 0.82) for x in (0.2, 0.5, 0.8)],
}
_DOT_R = {1: 0.4, 2: 0.21, 3: 0.16, 4: 0.18, 5: 0.16, 6: 0.145, 7: 0.125, 8: 0.115, 9: 0.125}


def _dot_ink(n: int, i: int) -> RGB:
    if n == 1 or (n == 5 and i == 2):
        return INK_RED
    if n == 7:
        return INK_GREEN if i < 3 else INK_RED
    if n == 6:
        return INK_GREEN if i < 2 else INK_RED
    if n == 9:
        return (INK_BLUE, INK_RED, INK_GREEN)[i // 3]
    if n == 3:
        return (INK_BLUE, INK_RED, INK_GREEN)[i]
    return (INK_BLUE, INK_GREEN)[i % 2]


def _ring(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: RGB, centre: str, stroke: float, rng: np.random.Generator) -> None:
    """One dot: a ring with a flower-like, concentric or sun centre."""
    w = max(2, int(r * 0.2 * stroke))
    _ellipse(d, cx, cy, r, outline=ink, width=w)
    if centre == "flower":
        petals = int(rng.choice([5, 6, 8]))
        for k in range(petals):
            a = 2 * math.pi * k / petals + rng.uniform(-0.1, 0.1)
            _ellipse(d, cx + 0.45 * r * math.cos(a), cy + 0.45 * r * math.sin(a), 0.22 * r, fill=ink)
        _ellipse(d, cx, cy, 0.16 * r, fill=(240, 220, 120) if rng.random() < 0.5 else INK_RED)
    elif centre == "concentric":
        _ellipse(d, cx, cy, 0.62 * r, outline=ink, width=max(1, w // 2))
        _ellipse(d, cx, cy, 0.3 * r, fill=ink)
    else:  # sun: radial ticks round a solid core
        for k in range(12):
            a = 2 * math.pi * k / 12
            d.line((cx + 0.35 * r * math.cos(a), cy + 0.35 * r * math.sin(a), cx + 0.72 * r * math.cos(a), cy + 0.72 * r * math.sin(a)),
                   fill=ink, width=max(1, w // 2))
        _ellipse(d, cx, cy, 0.28 * r, fill=ink)


def _medallion(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, s: SetDesign, rng: np.random.Generator) -> None:
    """The 1 of dots: a large ornate medallion, scalloped rim, petals and rings in three inks."""
    rim = INK_GREEN if rng.random() < 0.5 else INK_BLUE
    lobes = int(rng.choice([12, 16, 20]))
    for k in range(lobes):
        a = 2 * math.pi * k / lobes
        _ellipse(d, cx + 0.92 * r * math.cos(a), cy + 0.92 * r * math.sin(a), 0.14 * r, fill=rim)
    _ellipse(d, cx, cy, 0.88 * r, fill=s.face, outline=rim, width=max(2, int(0.06 * r)))
    _ellipse(d, cx, cy, 0.72 * r, outline=INK_RED, width=max(2, int(0.08 * r)))
    petals = int(rng.choice([6, 8, 10]))
    for k in range(petals):
        a = 2 * math.pi * (k + 0.5) / petals
        _ellipse(d, cx + 0.45 * r * math.cos(a), cy + 0.45 * r * math.sin(a), 0.17 * r, fill=INK_BLUE if k % 2 else INK_GREEN)
    _ellipse(d, cx, cy, 0.25 * r, fill=INK_RED)
    _ellipse(d, cx, cy, 0.1 * r, fill=(240, 220, 120))


def _stick(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, ink: RGB, rng: np.random.Generator) -> None:
    """A bamboo stick: two or three joints, a paler centre line, a slight bow."""
    bow = rng.uniform(-0.06, 0.06) * w
    d.rounded_rectangle((cx - w / 2 + bow, cy - h / 2, cx + w / 2 + bow, cy + h / 2), radius=w / 2.5, fill=ink)
    light = tuple(min(255, c + 100) for c in ink)
    d.line((cx + bow, cy - h / 2 + w * 0.5, cx + bow, cy + h / 2 - w * 0.5), fill=light, width=max(1, int(w * 0.16)))
    for f in (-0.25, 0.25) if rng.random() < 0.5 else (0.0,):
        y = cy + f * h
        d.rectangle((cx - w * 0.6 + bow, y - w * 0.1, cx + w * 0.6 + bow, y + w * 0.1), fill=ink)


_STICKS: dict[int, list[tuple[float, float]]] = {
    2: [(0.5, 0.27), (0.5, 0.73)],
    3: [(0.5, 0.27), (0.3, 0.73), (0.7, 0.73)],
    4: [(0.3, 0.27), (0.7, 0.27), (0.3, 0.73), (0.7, 0.73)],
    5: [(0.22, 0.27), (0.78, 0.27), (0.5, 0.5), (0.22, 0.73), (0.78, 0.73)],
    6: [(x, y) for y in (0.27, 0.73) for x in (0.2, 0.5, 0.8)],
    7: [(0.5, 0.17)] + [(x, y) for y in (0.5, 0.83) for x in (0.2, 0.5, 0.8)],
    8: [(x, y) for y in (0.27, 0.73) for x in (0.14, 0.38, 0.62, 0.86)],
    9: [(x, y) for y in (0.17, 0.5, 0.83) for x in (0.2, 0.5, 0.8)],
}


def _stick_ink(n: int, i: int) -> RGB:
    if (n == 5 and i == 2) or (n == 7 and i == 0) or (n == 9 and i % 3 == 1):
        return INK_RED
    if n == 9:
        return INK_BLUE if i % 3 == 0 else INK_GREEN
    if n == 8:
        return INK_GREEN if i < 4 else INK_BLUE
    return INK_GREEN if i % 2 == 0 or n < 4 else INK_BLUE


def _bird(d: ImageDraw.ImageDraw, kind: str, box: Box, rng: np.random.Generator) -> None:
    """1 bamboo: a peacock (tail fan of eyes), a sparrow on a twig, a crane (long neck and legs), an ornate stick,
    or a set's own drawing (``drawn``)."""
    if kind == "drawn":
        _drawn_bird(d, box, rng)
        return
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    flip = -1 if rng.random() < 0.3 else 1
    cx, cy = x0 + w / 2, y0 + h * 0.55
    if kind == "stick":
        _stick(d, cx, cy - 0.05 * h, 0.24 * w, 0.8 * h, INK_GREEN, rng)
        for dy in (-0.3, 0.3):
            _ellipse(d, cx, cy - 0.05 * h + dy * h, 0.16 * w, fill=INK_RED)
        return
    if kind == "peacock":
        for k in range(7):
            a = math.radians(200 + k * 20)
            tx, ty = cx + 0.48 * w * math.cos(a) * flip, cy + 0.1 * h + 0.42 * h * math.sin(a) * -1
            d.line((cx, cy + 0.12 * h, tx, ty), fill=INK_GREEN, width=max(2, int(0.03 * w)))
            _ellipse(d, tx, ty, 0.07 * w, fill=INK_GREEN)
            _ellipse(d, tx, ty, 0.035 * w, fill=INK_BLUE)
        d.ellipse((cx - 0.14 * w, cy - 0.05 * h, cx + 0.14 * w, cy + 0.2 * h), fill=INK_BLUE)
        d.line((cx, cy, cx + 0.08 * w * flip, cy - 0.2 * h), fill=INK_BLUE, width=max(3, int(0.07 * w)))
        hx, hy = cx + 0.09 * w * flip, cy - 0.23 * h
        _ellipse(d, hx, hy, 0.06 * w, fill=INK_BLUE)
        for k in range(3):
            d.line((hx, hy, hx + (k - 1) * 0.04 * w, hy - 0.08 * h), fill=INK_GREEN, width=2)
        d.polygon([(hx + 0.05 * w * flip, hy), (hx + 0.13 * w * flip, hy + 0.02 * h), (hx + 0.05 * w * flip, hy + 0.03 * h)], fill=INK_RED)
        d.line((cx - 0.04 * w, cy + 0.19 * h, cx - 0.06 * w, cy + 0.38 * h), fill=INK_RED, width=max(2, int(0.025 * w)))
        d.line((cx + 0.04 * w, cy + 0.19 * h, cx + 0.06 * w, cy + 0.38 * h), fill=INK_RED, width=max(2, int(0.025 * w)))
        return
    if kind == "crane":
        d.ellipse((cx - 0.3 * w, cy - 0.05 * h, cx + 0.22 * w, cy + 0.15 * h), fill=(235, 235, 230), outline=INK_BLACK,
                  width=max(2, int(0.02 * w)))
        d.polygon([(cx - 0.3 * w * flip, cy + 0.02 * h), (cx - 0.45 * w * flip, cy + 0.12 * h), (cx - 0.2 * w * flip, cy + 0.12 * h)],
                  fill=INK_BLACK)
        nx, ny = cx + 0.2 * w * flip, cy - 0.35 * h
        d.line((cx + 0.15 * w * flip, cy, nx, ny), fill=INK_BLACK, width=max(3, int(0.05 * w)))
        _ellipse(d, nx, ny, 0.055 * w, fill=(235, 235, 230), outline=INK_BLACK, width=2)
        _ellipse(d, nx, ny - 0.03 * w, 0.03 * w, fill=INK_RED)
        d.polygon([(nx + 0.04 * w * flip, ny), (nx + 0.22 * w * flip, ny + 0.04 * h), (nx + 0.04 * w * flip, ny + 0.02 * h)],
                  fill=(200, 160, 60))
        for dx in (-0.05, 0.05):
            d.line((cx + dx * w, cy + 0.14 * h, cx + dx * w * 1.5, cy + 0.42 * h), fill=INK_BLACK, width=max(2, int(0.02 * w)))
        d.line((x0 + 0.1 * w, cy + 0.42 * h, x1 - 0.1 * w, cy + 0.42 * h), fill=INK_GREEN, width=max(2, int(0.03 * w)))
        return
    # sparrow on a twig
    d.line((x0 + 0.05 * w, cy + 0.25 * h, x1 - 0.05 * w, cy + 0.15 * h), fill=(120, 80, 40), width=max(3, int(0.04 * w)))
    for k in range(3):
        lx = x0 + (0.2 + 0.3 * k) * w
        d.ellipse((lx - 0.08 * w, cy + 0.22 * h, lx + 0.08 * w, cy + 0.3 * h), fill=INK_GREEN)
    d.polygon([(cx - 0.1 * w * flip, cy + 0.05 * h), (cx - 0.42 * w * flip, cy + 0.3 * h), (cx - 0.3 * w * flip, cy + 0.34 * h)],
              fill=INK_BLUE)
    d.ellipse((cx - 0.25 * w, cy - 0.15 * h, cx + 0.25 * w, cy + 0.15 * h), fill=INK_GREEN)
    d.ellipse((cx - 0.12 * w, cy - 0.08 * h, cx + 0.15 * w, cy + 0.06 * h), fill=INK_BLUE)
    hx, hy = cx + 0.22 * w * flip, cy - 0.18 * h
    _ellipse(d, hx, hy, 0.11 * w, fill=INK_RED if rng.random() < 0.5 else INK_GREEN)
    _ellipse(d, hx + 0.03 * w * flip, hy - 0.02 * h, 0.025 * w, fill=(250, 250, 250))
    d.polygon([(hx + 0.09 * w * flip, hy - 0.01 * h), (hx + 0.2 * w * flip, hy + 0.02 * h), (hx + 0.09 * w * flip, hy + 0.04 * h)],
              fill=(200, 150, 40))


_BIRD_INKS: tuple[RGB, ...] = (INK_GREEN, INK_BLUE, INK_RED, INK_BLACK, (120, 80, 40), (205, 150, 40), (110, 60, 140), (30, 130, 140))


def _blob(d: ImageDraw.ImageDraw, cx: float, cy: float, a: float, b: float, angle: float, **kw: object) -> None:
    """An ellipse with semi-axes ``a`` (along ``angle`` radians) and ``b``, turned: a body, a wing, a tail."""
    t = np.linspace(0, 2 * math.pi, 28, endpoint=False)
    ca, sa = math.cos(angle), math.sin(angle)
    pts = [(cx + a * math.cos(u) * ca - b * math.sin(u) * sa, cy + a * math.cos(u) * sa + b * math.sin(u) * ca) for u in t]
    d.polygon(pts, **kw)  # type: ignore[arg-type]


def _drawn_bird(d: ImageDraw.ImageDraw, box: Box, rng: np.random.Generator) -> None:
    """A bird of the set's own drawing: perch, tail, body, wing, head, crest, beak and legs each varied.

    Necks stay short and legs short: the crane, long in both, is the held-out families' drawing, kept
    unseen so that the held-out measure asks whether a bird never shown is still read as 1 bamboo.
    """
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    f = 1 if rng.random() < 0.5 else -1  # the way the bird faces
    inks = [_jit(_BIRD_INKS[i], rng, 20) for i in rng.permutation(len(_BIRD_INKS))]
    body_ink, wing_ink, head_ink, tail_ink = inks[0], inks[1], inks[int(rng.integers(0, 3))], inks[int(rng.integers(1, 4))]
    lw = max(2, int(w * rng.uniform(0.02, 0.045)))
    cx, cy = x0 + w * (0.5 + rng.uniform(-0.08, 0.08)), y0 + h * rng.uniform(0.42, 0.6)
    a, b = w * rng.uniform(0.2, 0.34), h * rng.uniform(0.09, 0.17)
    tilt = math.radians(rng.uniform(-35, 15)) * f  # head up, tail down
    front = (cx + a * math.cos(tilt) * f, cy + a * math.sin(tilt) * f - b * 0.3)
    back = (cx - a * math.cos(tilt) * f * 0.9, cy - a * math.sin(tilt) * f * 0.9 + b * 0.2)
    perch = str(rng.choice(["twig", "branch", "grass", "bamboo", "water", "none"]))
    foot_y = cy + b + h * rng.uniform(0.02, 0.1)
    if perch in ("twig", "branch"):
        d.line((x0 + 0.04 * w, foot_y + rng.uniform(-0.05, 0.05) * h, x1 - 0.04 * w, foot_y + rng.uniform(-0.05, 0.05) * h),
               fill=(110, 75, 40), width=lw * (2 if perch == "branch" else 1))
        for _ in range(int(rng.integers(2, 6))):
            lx = x0 + rng.uniform(0.1, 0.9) * w
            blossom = perch == "branch" and rng.random() < 0.5
            _ellipse(d, lx, foot_y + rng.uniform(-0.04, 0.04) * h, w * (0.035 if blossom else 0.05), fill=INK_RED if blossom else INK_GREEN)
    elif perch == "grass":
        for _ in range(int(rng.integers(4, 9))):
            gx = x0 + rng.uniform(0.05, 0.95) * w
            d.line((gx, y1 - 0.02 * h, gx + rng.uniform(-0.08, 0.08) * w, y1 - rng.uniform(0.08, 0.2) * h), fill=INK_GREEN, width=lw)
    elif perch == "bamboo":
        _stick(d, x0 + w * (0.15 if f > 0 else 0.85), (y0 + y1) / 2, 0.1 * w, 0.85 * h, INK_GREEN, rng)
    elif perch == "water":
        for k in range(2):
            yy = y1 - (0.04 + 0.07 * k) * h
            wave = [(x0 + u * w, yy + 0.02 * h * math.sin(u * 12)) for u in np.linspace(0.05, 0.95, 12)]
            d.line(wave, fill=INK_BLUE, width=max(1, lw // 2))
    tail = str(rng.choice(["fan", "streamers", "wedge", "fork", "eyes"]))
    spread = rng.uniform(0.5, 1.3)
    n_feathers = int(rng.integers(3, 8))
    for k in range(n_feathers if tail in ("fan", "streamers", "eyes") else 0):
        u = (k / max(1, n_feathers - 1) - 0.5) * spread
        ang = math.pi + tilt * f + u + (0.5 if tail == "streamers" else 0.25)
        length = w * rng.uniform(0.25, 0.5) * (1.5 if tail == "streamers" else 1)
        droop = 1 if tail == "streamers" else -1 if u < -0.3 else 0.6
        tx, ty = back[0] + length * math.cos(ang) * f, back[1] + length * abs(math.sin(ang)) * droop
        if tail == "streamers":
            mid = ((back[0] + tx) / 2, (back[1] + ty) / 2 - 0.08 * h)
            d.line([back, mid, (tx, ty)], fill=tail_ink, width=lw, joint="curve")
        else:
            d.line((back[0], back[1], tx, ty), fill=tail_ink, width=lw)
        if tail == "eyes":
            _ellipse(d, tx, ty, 0.05 * w, fill=inks[4])
            _ellipse(d, tx, ty, 0.025 * w, fill=inks[5])
    if tail in ("wedge", "fork"):
        length, half = w * rng.uniform(0.2, 0.35), h * rng.uniform(0.05, 0.1)
        ang = math.pi + tilt * f + rng.uniform(-0.2, 0.5)
        tx, ty = back[0] + length * math.cos(ang) * f, back[1] + length * abs(math.sin(ang))
        if tail == "wedge":
            d.polygon([(back[0], back[1] - half * 0.5), (tx, ty - half), (tx, ty + half), (back[0], back[1] + half * 0.5)], fill=tail_ink)
        else:
            for s in (-1, 1):
                notch = (back[0] - 0.3 * (back[0] - tx), back[1] + s * half * 0.3)
                d.polygon([(back[0], back[1]), (tx, ty + s * half * 1.5), notch], fill=tail_ink)
    legs = rng.random() < 0.6
    if legs:
        leg_ink = inks[int(rng.integers(0, 3))] if rng.random() < 0.5 else INK_RED
        for dx in (-0.06, 0.05):
            lx = cx + dx * w
            d.line((lx, cy + b * 0.7, lx + 0.02 * w * f, min(foot_y, cy + b + 0.12 * h)), fill=leg_ink, width=max(2, lw // 2))
    outlined = rng.random() < 0.3
    if outlined:
        _blob(d, cx, cy, a, b, tilt * f, fill=_jit((238, 232, 215), rng, 10), outline=body_ink, width=lw)
    else:
        _blob(d, cx, cy, a, b, tilt * f, fill=body_ink)
    if rng.random() < 0.4:
        for _ in range(int(rng.integers(3, 8))):
            _ellipse(d, cx + rng.uniform(-0.6, 0.6) * a, cy + rng.uniform(-0.4, 0.4) * b, 0.02 * w, fill=inks[5])
    if rng.random() < 0.85:
        _blob(d, cx - 0.1 * a * f, cy - 0.1 * b, a * rng.uniform(0.5, 0.8), b * rng.uniform(0.45, 0.8),
              tilt * f + rng.uniform(-0.3, 0.3), fill=wing_ink)
        for k in range(int(rng.integers(0, 4))):
            yy = cy - 0.1 * b + (k - 1) * b * 0.25
            d.line((cx - 0.5 * a * f, yy, cx + 0.2 * a * f, yy - 0.1 * b), fill=inks[6], width=max(1, lw // 2))
    neck = rng.uniform(0.02, 0.1) * h
    r = w * rng.uniform(0.07, 0.12)
    hx, hy = front[0] + 0.02 * w * f, front[1] - neck - r * 0.5
    d.line((front[0], front[1], hx, hy), fill=head_ink if not outlined else body_ink, width=int(r * 1.2))
    _ellipse(d, hx, hy, r, fill=head_ink)
    if rng.random() < 0.4:
        for k in range(int(rng.integers(2, 5))):
            d.line((hx, hy - r * 0.6, hx + (k - 1.5) * 0.03 * w - 0.03 * w * f, hy - r - rng.uniform(0.03, 0.09) * h),
                   fill=inks[int(rng.integers(0, 4))], width=max(1, lw // 2))
    beak, beak_ink = w * rng.uniform(0.06, 0.15), ((205, 150, 40), INK_RED, INK_BLACK)[int(rng.integers(3))]
    tip = (hx + (r * 0.7 + beak) * f, hy + r * rng.uniform(-0.1, 0.4))
    d.polygon([(hx + r * 0.7 * f, hy - r * 0.35), tip, (hx + r * 0.7 * f, hy + r * 0.35)], fill=beak_ink)
    _ellipse(d, hx + r * 0.3 * f, hy - r * 0.2, max(1.5, r * 0.28), fill=(250, 250, 245))
    _ellipse(d, hx + r * 0.35 * f, hy - r * 0.2, max(1.0, r * 0.14), fill=INK_BLACK)


# --- flowers and seasons: small paintings --------------------------------------------------------

_PAINTING_FOR = {"1F": "plum", "2F": "orchid", "3F": "chrysanthemum", "4F": "bamboo"}


def _painting(d: ImageDraw.ImageDraw, kind: str, box: Box, rng: np.random.Generator, stroke: float) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    lw = max(2, int(0.03 * w * stroke))
    brown, pink = (105, 70, 40), (215, 80, 110)
    if kind == "plum":
        pts = [(x0 + 0.1 * w, y1 - 0.05 * h)]
        for _ in range(4):
            px, py = pts[-1]
            pts.append((px + rng.uniform(0.1, 0.25) * w, py - rng.uniform(0.15, 0.25) * h))
        d.line(pts, fill=brown, width=lw * 2)
        for px, py in pts[1:]:
            for _ in range(2):
                bx, by = px + rng.uniform(-0.12, 0.12) * w, py + rng.uniform(-0.08, 0.08) * h
                for k in range(5):
                    a = 2 * math.pi * k / 5
                    _ellipse(d, bx + 0.05 * w * math.cos(a), by + 0.05 * w * math.sin(a), 0.04 * w,
                             fill=pink if rng.random() < 0.6 else INK_RED)
                _ellipse(d, bx, by, 0.02 * w, fill=(240, 210, 80))
    elif kind == "orchid":
        base = (x0 + 0.5 * w, y1 - 0.05 * h)
        for _ in range(5):
            a = math.radians(rng.uniform(-60, 60))
            tip = (base[0] + 0.45 * w * math.sin(a), base[1] - 0.75 * h * math.cos(a) * rng.uniform(0.6, 1.0))
            mid = ((base[0] + tip[0]) / 2 + 0.1 * w, (base[1] + tip[1]) / 2)
            d.line([base, mid, tip], fill=INK_GREEN, width=lw)
        for _ in range(3):
            fx, fy = x0 + rng.uniform(0.25, 0.75) * w, y0 + rng.uniform(0.15, 0.45) * h
            for k in range(3):
                a = 2 * math.pi * k / 3 + 0.5
                d.ellipse((fx + 0.06 * w * math.cos(a) - 0.04 * w, fy + 0.06 * w * math.sin(a) - 0.025 * w,
                           fx + 0.06 * w * math.cos(a) + 0.04 * w, fy + 0.06 * w * math.sin(a) + 0.025 * w), fill=(150, 90, 170))
    elif kind == "chrysanthemum":
        d.line((x0 + 0.5 * w, y1 - 0.02 * h, x0 + 0.45 * w, y0 + 0.45 * h), fill=INK_GREEN, width=lw)
        for sx, sy in ((0.35, 0.7), (0.6, 0.8)):
            d.ellipse((x0 + (sx - 0.12) * w, y0 + (sy - 0.04) * h, x0 + (sx + 0.12) * w, y0 + (sy + 0.04) * h), fill=INK_GREEN)
        petal = (230, 170, 30) if rng.random() < 0.6 else INK_RED
        cx, cy = x0 + 0.45 * w, y0 + 0.35 * h
        for k in range(24):
            a = 2 * math.pi * k / 24
            d.line((cx, cy, cx + 0.3 * w * math.cos(a), cy + 0.22 * h * math.sin(a)), fill=petal, width=max(2, lw // 2 + 1))
        _ellipse(d, cx, cy, 0.07 * w, fill=(150, 90, 20))
    elif kind == "bamboo":
        for k in range(2):
            sx = x0 + (0.35 + 0.3 * k) * w
            d.line((sx, y1, sx + 0.03 * w, y0 + 0.05 * h), fill=INK_GREEN, width=lw * 2)
            for j in range(3):
                jy = y0 + (0.25 + 0.25 * j) * h
                d.line((sx - 0.04 * w, jy, sx + 0.06 * w, jy), fill=(10, 80, 40), width=lw)
        for _ in range(6):
            lx, ly = x0 + rng.uniform(0.15, 0.85) * w, y0 + rng.uniform(0.1, 0.6) * h
            a = rng.uniform(-0.8, 0.8)
            d.polygon([(lx, ly), (lx + 0.25 * w * math.cos(a), ly + 0.25 * w * math.sin(a) - 0.03 * h),
                       (lx + 0.25 * w * math.cos(a), ly + 0.25 * w * math.sin(a) + 0.03 * h)], fill=INK_GREEN)
    elif kind == "figure":
        robe = (INK_BLUE, INK_RED, INK_GREEN, (150, 90, 170))[int(rng.integers(4))]
        fx, fy = x0 + rng.uniform(0.4, 0.6) * w, y0 + 0.3 * h
        _ellipse(d, fx, fy, 0.1 * w, fill=(235, 200, 170), outline=INK_BLACK, width=2)
        d.pieslice((fx - 0.12 * w, fy - 0.12 * w, fx + 0.12 * w, fy + 0.05 * w), 180, 360, fill=INK_BLACK)
        d.polygon([(fx, fy + 0.08 * h), (fx - 0.25 * w, y1 - 0.05 * h), (fx + 0.25 * w, y1 - 0.05 * h)], fill=robe)
        d.line((fx - 0.15 * w, fy + 0.3 * h, fx + 0.2 * w, fy + 0.2 * h), fill=robe, width=lw * 2)
        if rng.random() < 0.6:  # a fan or a lantern
            _ellipse(d, fx + 0.28 * w, fy + 0.15 * h, 0.07 * w, fill=INK_RED)
    else:  # scene: hills, sun or moon, a boat or a hut
        sky = rng.random() < 0.5
        _ellipse(d, x0 + 0.72 * w, y0 + 0.2 * h, 0.09 * w, fill=INK_RED if sky else (240, 200, 60))
        hill = INK_GREEN if rng.random() < 0.6 else INK_BLUE
        d.polygon([(x0, y0 + 0.7 * h), (x0 + 0.3 * w, y0 + 0.35 * h), (x0 + 0.55 * w, y0 + 0.65 * h),
                   (x0 + 0.8 * w, y0 + 0.45 * h), (x1, y0 + 0.7 * h)], fill=hill)
        d.line((x0, y0 + 0.8 * h, x1, y0 + 0.8 * h), fill=INK_BLUE, width=lw)
        if rng.random() < 0.5:
            d.polygon([(x0 + 0.3 * w, y0 + 0.86 * h), (x0 + 0.7 * w, y0 + 0.86 * h), (x0 + 0.62 * w, y0 + 0.93 * h),
                       (x0 + 0.38 * w, y0 + 0.93 * h)], fill=(105, 70, 40))
        else:
            d.rectangle((x0 + 0.15 * w, y0 + 0.55 * h, x0 + 0.35 * w, y0 + 0.72 * h), fill=(150, 100, 60))
            d.polygon([(x0 + 0.1 * w, y0 + 0.56 * h), (x0 + 0.25 * w, y0 + 0.45 * h), (x0 + 0.4 * w, y0 + 0.56 * h)], fill=INK_RED)


_POT_INKS: tuple[RGB, ...] = (INK_BLUE, INK_RED, INK_GREEN, (150, 100, 60))


def _pot(d: ImageDraw.ImageDraw, box: Box, s: SetDesign) -> None:
    """A flower pot on a little stand, as HK sets paint under their flowers and seasons: a rimmed bowl over splayed
    feet. The same in every tile of a set (no random draw), so the painting above it varies as it always did."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    ink = _POT_INKS[s.paint_style % len(_POT_INKS)] + (255,)
    lw = max(2, int(0.04 * w * s.stroke))
    d.rectangle((x0, y0, x1, y0 + 0.12 * h), outline=ink, width=lw)
    d.polygon([(x0 + 0.05 * w, y0 + 0.12 * h), (x1 - 0.05 * w, y0 + 0.12 * h), (x1 - 0.18 * w, y0 + 0.7 * h),
               (x0 + 0.18 * w, y0 + 0.7 * h)], outline=ink, width=lw)
    stand = (150, 100, 60, 255)
    d.line((x0 + 0.15 * w, y0 + 0.75 * h, x1 - 0.15 * w, y0 + 0.75 * h), fill=stand, width=lw)
    for fx in (0.22, 0.78):
        d.line((x0 + fx * w, y0 + 0.75 * h, x0 + (fx + (0.1 if fx > 0.5 else -0.1)) * w, y1), fill=stand, width=lw)


# --- one face ------------------------------------------------------------------------------------

def _ink_layer(face: Image.Image, ink: Image.Image, s: SetDesign, rng: np.random.Generator) -> Image.Image:
    """Lay the ink on the face: engraved sets show a dark rim below-right of every stroke and grain in the ink."""
    a = np.asarray(ink)[..., 3].astype(np.float32) / 255.0
    if s.engraved:
        rim = np.roll(np.roll(a, 2, 0), 2, 1)
        shade = np.clip(rim - a, 0, 1)[..., None] * 0.35
        base = np.asarray(face).astype(np.float32) * (1 - shade)
    else:
        base = np.asarray(face).astype(np.float32)
    grain = 1.0 + rng.normal(0, 0.06, a.shape)[..., None] if s.engraved else 1.0
    col = np.asarray(ink)[..., :3].astype(np.float32) * grain
    out = base * (1 - a[..., None]) + col * a[..., None]
    return Image.fromarray(np.clip(out, 0, 255).astype(np.uint8))


def _bonus_marks(ink: Image.Image, s: SetDesign, code: str, W: int, H: int, rng: np.random.Generator) -> None:
    """A flower's or season's number and name, as the set marks them (``SetDesign.bonus_marks``).

    The random draws are the same whatever the marks, so a set marked in corners draws as it always did."""
    num_ink = s.bonus_ink or (INK_RED if code[1] == "F" else INK_BLUE if rng.random() < 0.6 else INK_GREEN)
    number_right = code[1] == "F" if s.sides_by_kind else s.bonus_number_right
    nx, cx = (0.82, 0.18) if number_right else (0.18, 0.82)
    top = 0.1 * H * s.bonus_size / 0.2
    size = int(s.bonus_size * W)
    serif = rng.random() < 0.5
    name_ink = num_ink if rng.random() < 0.5 else INK_BLACK
    if s.bonus_marks == "chinese-numeral":
        _text(ink, (nx * W, top), NUMERALS[int(code[0]) - 1], _cjk(s.font, size), num_ink)
    elif s.bonus_marks != "name-only":
        _text(ink, (nx * W, top), code[0], _latin(size, serif=serif), num_ink)
    if s.bonus_marks == "ringed":
        r, lw = 0.62 * size, max(1, round(0.08 * size * s.stroke))
        ImageDraw.Draw(ink).ellipse((nx * W - r, top - r, nx * W + r, top + r), outline=num_ink + (255,), width=lw)
    if s.bonus_marks != "number-only":
        name_y = H - top if s.bonus_marks == "name-below" else top
        _text(ink, (cx * W, name_y), printed(s, BONUS_NAMES[code]), _cjk(s.font, int(0.9 * s.bonus_size * W)), name_ink)


def draw_face(family: Family, variant: int, code: str, width: int, height: int) -> Image.Image:
    """One face of set ``variant`` of ``family`` as an RGB image (``width`` x ``height``, supersampled by the caller)."""
    return draw_set_face(design(family, variant), variant, code, width, height)


def draw_set_face(s: SetDesign, variant: int, code: str, width: int, height: int) -> Image.Image:
    """One face of a set as designed; ``variant`` seeds what varies from tile to tile within the set."""
    rng = np.random.default_rng([variant, sum(ord(c) * 31 ** i for i, c in enumerate(code)), 4242])
    W, H = width, height
    face = Image.new("RGB", (W, H), s.face)
    ink = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(ink)
    def font(size: float) -> ImageFont.FreeTypeFont:
        return _cjk(s.font, max(8, int(size * rng.uniform(0.92, 1.06))))

    def tilt() -> float:
        return float(rng.uniform(-4, 4))
    dx, dy = rng.uniform(-0.03, 0.03) * W, rng.uniform(-0.02, 0.02) * H
    top = 0.17 * H if s.corner_index else 0.07 * H
    box = (0.1 * W + dx, top + dy, 0.9 * W + dx, 0.93 * H + dy)
    if code[0].isdigit() and code[1] == "C":
        n = int(code[0])
        numeral = FIVE_FORMALLY if n == 5 and s.formal_five else NUMERALS[n - 1]
        _text(ink, (W / 2 + dx, 0.3 * H + dy), numeral, font(0.56 * W), _jit(s.numeral_ink, rng), tilt(), s.carving)
        _text(ink, (W / 2 + dx, 0.7 * H + dy), printed(s, "萬"), font(0.66 * W), _jit(INK_RED, rng), tilt(), s.carving)
        if s.arabic and not s.corner_index:
            ImageDraw.Draw(ink).text((0.86 * W, 0.1 * H), code[0], font=_latin(int(0.15 * W)), fill=INK_RED + (255,), anchor="mm")
    elif code[0].isdigit() and code[1] == "D":
        n = int(code[0])
        x0, y0, x1, y1 = box
        r = _DOT_R[n] * min(x1 - x0, (y1 - y0) * 0.8)
        if n == 1:
            _medallion(d, (x0 + x1) / 2, (y0 + y1) / 2, r * 1.05, s, rng)
        else:
            for i, (u, v) in enumerate(_DOTS[n]):
                _ring(d, x0 + u * (x1 - x0), y0 + v * (y1 - y0), r, _jit(_dot_ink(n, i), rng), s.dot_centre, s.stroke, rng)
    elif code[0].isdigit() and code[1] == "B":
        n = int(code[0])
        x0, y0, x1, y1 = box
        if n == 1:
            _bird(d, s.bird, box, rng)
        else:
            rows = 3 if n in (7, 9) else 2
            sw, sh = (x1 - x0) * (0.13 if n == 8 else 0.16) * s.stroke ** 0.5, (y1 - y0) / rows * 0.82
            for i, (u, v) in enumerate(_STICKS[n]):
                _stick(d, x0 + u * (x1 - x0), y0 + v * (y1 - y0), sw, sh, _jit(_stick_ink(n, i), rng), rng)
    elif code in WINDS:
        below_index = 0.04 * H if s.corner_index else 0
        _text(ink, (W / 2 + dx, H / 2 + dy + below_index), printed(s, WINDS[code]), font(0.8 * W), _jit(s.wind_ink, rng), tilt(), s.carving)
    elif code == "RD":
        _text(ink, (W / 2 + dx, H / 2 + dy), "中", font(0.82 * W), _jit(INK_RED, rng), tilt(), s.carving)
    elif code == "GD":
        _text(ink, (W / 2 + dx, H / 2 + dy), printed(s, "發"), font(0.8 * W), _jit(INK_GREEN, rng), tilt(), s.carving)
    elif code == "WD":
        m = rng.uniform(0.13, 0.2) * W
        lw = max(2, int(0.05 * W * s.stroke))
        if s.white_dragon in ("frame", "double", "letter"):
            d.rectangle((m, m * 1.25, W - m, H - m * 1.25), outline=INK_BLUE + (255,), width=lw)
        if s.white_dragon == "double":
            d.rectangle((m * 1.6, m * 1.9, W - m * 1.6, H - m * 1.9), outline=INK_BLUE + (255,), width=max(1, lw // 2))
        if s.white_dragon == "letter":
            letter = "白" if rng.random() < 0.5 else "B"
            f = font(0.42 * W) if letter == "白" else _latin(int(0.38 * W))
            _text(ink, (W / 2, H / 2), letter, f, INK_BLUE)
    elif code in BONUS_NAMES:
        kind = (_PAINTING_FOR[code] if code[1] == "F" and rng.random() < 0.7
                else str(rng.choice(list(_PAINTING_FOR.values()) + ["figure", "scene"] * 2)))
        if s.potted:
            _pot(d, (0.22 * W, 0.7 * H, 0.78 * W, 0.95 * H), s)
        _painting(d, kind, (0.12 * W, 0.22 * H, 0.88 * W, 0.72 * H if s.potted else 0.95 * H), rng, s.stroke)
        _bonus_marks(ink, s, code, W, H, rng)
    if s.corner_index and code not in BONUS_NAMES and not (code == "WD" and s.white_dragon == "blank"):
        label = CORNER.get(code) or code[0]
        colour = INK_RED if code[1:] in ("C", "D") or code == "RD" else INK_GREEN if code == "GD" else INK_BLUE
        _text(ink, (0.15 * W, 0.09 * H), label, _latin(int(0.16 * W)), colour)
    ink = ink.filter(ImageFilter.GaussianBlur(0.4))
    return _ink_layer(face, ink, s, rng)


def family_names(names: list[str]) -> list[str]:
    """Expand 'all', 'train' and 'heldout' into family names; other names are checked by the style resolver."""
    out: list[str] = []
    for n in names:
        if n == "all":
            out += list(FAMILIES)
        elif n == "train":
            out += [f for f in FAMILIES if f not in HOLDOUT_FAMILIES]
        elif n in ("heldout", "held-out"):
            out += list(HOLDOUT_FAMILIES)
        else:
            out.append(n)
    return list(dict.fromkeys(out))
