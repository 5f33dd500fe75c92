"""Classifier crops drawn on the fly from the real-set families, and not-a-tile crops of what a table holds.

Each crop is made exactly like a cached one (``prepare.CACHE_SIZE``, the labelled box grown by
``prepare.CACHE_CONTEXT`` round its centre), so ``train.classifier_batch`` jitters, frames and
augments both alike. Tiles come from many sets of each family, lie any way up (upright or turned
half a turn, side band below, above or beside the face), with shadows, on any table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from recognizer.labels import CLASSES, NOT_A_TILE
from recognizer.train.prepare import CACHE_CONTEXT, CACHE_SIZE, box_in_crop
from scoring.tiles import BONUS_CODES

if TYPE_CHECKING:
    from pungchow_data.faces import TileStyle

#: Sets kept drawn at once; one is replaced every ``SET_REFRESH`` crops (drawing a set takes ~0.6 s).
SET_POOL = 24
SET_REFRESH = 400
NT_SHARE = 0.12
#: Share of tile crops that are flowers and seasons; None: drawn like any other code (8 of 43). A run can ask for
#: more, because their corner number is the one small detail that alone names them.
BONUS_SHARE: float | None = None
#: The tile codes other than flowers and seasons (and not-a-tile): what the rest of a ``BONUS_SHARE`` run draws from.
OTHER_CODES = tuple(c for c in CLASSES if c not in BONUS_CODES and c != NOT_A_TILE)
PRINT_CHARS = (
    "東南西北中發白萬一二三四五六七八九梅蘭菊竹春夏秋冬的是在了不和有大這主中人上為們地個用工時要動國產以我到他會作來分生對於學下級就"
    "年階義發成部民可出能方進同行面說種過命度革而多子後自社加小機也經力線本電高量長黨得實家定深法表著水理化爭現所二起政三好十戰無農使"
    "性前等反體合斗路圖把結第里正新開論之物從當兩些還天資事隊批如應形想制心樣干都向變關點育重其思與間內去因件日利相由壓員氣業代全組數"
    "果期導平各基或月毛然問比展那它最及外沒看治提五解系林者米群頭意只明四道馬認次文通但條較克又公孔領軍流入接席位情運器並飛原油放立題"
    "質指建區驗活眾很教決特此常石強極土少已根共直團統式轉別造切九你取西持總料連任志觀調七麼山程百報更見必真保熱委手改管處己將修支識病"
    "象幾先老光專什六型具示復安帶每東增則完風回南廣勞輪科北打積車計給節做務被整聯步類集號列溫裝即毫知軸研單色堅據速防史拉世設達爾場織"
    "歷花受求傳口斷況采精金界品判參層止邊清至萬確究書術狀廠須離再目海交權且兒青才證低越際八試規斯近注辦布門鐵需走議縣兵固除般引齒千勝"
    "細影濟白格效置推空配刀葉率述今選養德話查差半敵始片施響收華覺備名紅續均藥標記難存測士身緊液派准斤角降維板許破述技消底床田勢端感往"
    "神便賀村構照容非搞亞磨族火段算適講按值美態黃易彪服早班麥削信排台聲該擊素張密害侯草何樹肥繼右屬市嚴徑螺檢左頁抗蘇顯苦英快稱壞移約"
    "巴材省黑武培著河帝僅針怎植京助升王眼她抓含苗副雜普談圍食射源例致酸舊卻充足短劃劑宣環落首尺波承粉踐府魚隨考刻靠夠滿夫失包住促枝局"
    "菌杆周護岩師舉曲春元超負砂封換太模貧減陽揚江析畝木言球朝醫校古呢稻宋聽唯輸滑站另衛字鼓剛寫劉微略范供阿塊某功套友限項余倒卷創律雨"
    "讓骨遠幫初皮播優占死毒圈偉季訓控激找叫雲互跟裂糧粒母練塞鋼頂策雙留誤礎吸阻故寸盾晚絲女散焊功株親院冷徹彈錯散商視藝滅版烈零室輕血"
    "倍缺厘泵察絕富城沖噴壤簡否柱李望盤磁雄似困鞏益洲脫投送奴側潤蓋揮距觸星松送獲興獨官混紀依未突架寬冬章濕偏紋吃執閥礦寨責熟穩奪硬價"
    "努翻奇甲預職評讀背協損棉侵灰雖矛厚羅泥辟告卵箱掌氧恩愛停曾溶營終綱孟錢待盡俄縮沙退陳討奮械載胞幼哪剝迫旋征槽倒握擔仍呀鮮吧卡粗介"
    "鑽逐弱腳怕鹽末陰豐霧冠丙街萊貝輻腸付吉滲瑞驚頓擠秒懸姆爛森糖聖凹陶詞遲蠶億矩"
)
LATIN_TEXT = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 .,-"


class RealCropSource:
    """Draws labelled crops from a rotating pool of real-set family sets; cheap after the pool is full."""

    def __init__(self, family_names: list[str], rng: np.random.Generator) -> None:
        from pungchow_data.faces import FAMILY_STYLES, STYLES, style_available

        known = {**STYLES, **FAMILY_STYLES}
        if unknown := unknown_styles(family_names):
            raise ValueError(f"no family or style named {', '.join(unknown)}: known ones are {', '.join(sorted(known))}")
        self.styles = [known[n] for n in family_names if style_available(known[n])]
        if not self.styles:
            raise RuntimeError(f"none of the families {family_names} has its fonts on this machine")
        self.rng = rng
        self.pool: list[tuple[TileStyle, dict[str, np.ndarray]]] = []
        self.drawn = 0
        self.nt = CLASSES.index(NOT_A_TILE)

    def _set(self) -> tuple[TileStyle, dict[str, np.ndarray]]:
        from pungchow_data.faces import render_faces

        rng = self.rng
        if len(self.pool) < SET_POOL or self.drawn % SET_REFRESH == 0:
            style = another_set(self.styles[int(rng.integers(len(self.styles)))], rng)
            faces = render_faces.__wrapped__(style)  # not cached: every set is new
            entry = (style, faces)
            if len(self.pool) < SET_POOL:
                self.pool.append(entry)
            else:
                self.pool[int(rng.integers(SET_POOL))] = entry
            return entry
        return self.pool[int(rng.integers(len(self.pool)))]

    def next_set(self) -> tuple[TileStyle, dict[str, np.ndarray]]:
        """The set (style, faces) to draw the next crop from, counted toward the pool's refresh."""
        entry = self._set()
        self.drawn += 1
        return entry

    def sample(self) -> tuple[np.ndarray, int]:
        """One (CACHE_SIZE RGB crop, class index)."""
        self.drawn += 1
        rng = self.rng
        if rng.random() < NT_SHARE:
            return not_a_tile(rng, self._set()), self.nt
        style, faces = self._set()
        if BONUS_SHARE is None:
            code = CLASSES[int(rng.integers(len(CLASSES) - 1))]  # every class but NT; XX is the back
        else:
            pool = BONUS_CODES if rng.random() < BONUS_SHARE else OTHER_CODES
            code = pool[int(rng.integers(len(pool)))]
        return tile_crop(rng, style, faces, code), CLASSES.index(code)


def unknown_styles(names: list[str]) -> list[str]:
    """The names that are neither a real-set family nor a classic style (what a crop source can draw)."""
    from pungchow_data.faces import FAMILY_STYLES, STYLES

    return [n for n in names if n not in STYLES and n not in FAMILY_STYLES]


def another_set(style: TileStyle, rng: np.random.Generator) -> TileStyle:
    """Another physical set of a style: a family draws its fonts, inks and drawings again; a classic style
    (named beside the families) keeps its drawings on another body in other inks."""
    from pungchow_data.faces import family_variant, recoloured

    return family_variant(style, rng) if style.family else recoloured(style, rng)


# --- pieces ---------------------------------------------------------------------------------------

def background(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A patch of felt, wood, cloth or a plain top (RGB), with noise."""
    base = rng.integers(20, 235, 3).astype(np.float32)
    kind = rng.integers(4)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == 0:
        img = base * (0.9 + 0.1 * np.sin(yy / rng.uniform(2, 8) + rng.uniform(0, 6)))[..., None]
    elif kind == 1:
        other = rng.integers(20, 235, 3).astype(np.float32)
        p = rng.uniform(4, 20)
        m = (((xx // p) + (yy // p)) % 2)[..., None]
        img = base * (1 - m) + other * m
    else:
        img = np.broadcast_to(base, (h, w, 3)).copy()
    img = img + rng.normal(0, rng.uniform(2, 10), (h, w, 3))
    patch: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    return patch


def _sprite(face: np.ndarray, style: TileStyle, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The tile as seen: the face and a band of its side (face layer, then back colour), RGB and alpha."""
    fh, fw = face.shape[:2]
    band = int(fh * rng.uniform(0.0, 0.35)) if rng.random() < 0.8 else 0
    side = str(rng.choice(["below", "above", "left", "right"], p=[0.55, 0.15, 0.15, 0.15]))
    face_rgb = np.array(style.face_rgb, np.float32)
    back_rgb = np.array(style.back_rgb, np.float32)
    shade = rng.uniform(0.55, 0.85)
    if side in ("below", "above"):
        strip = np.zeros((band, fw, 3), np.float32)
        split = int(band * style.face_layer)
        strip[:split] = face_rgb * shade
        strip[split:] = back_rgb * shade
        if side == "above":
            strip = strip[::-1]
        rgb = np.concatenate([face[..., :3].astype(np.float32), strip] if side == "below" else [strip, face[..., :3].astype(np.float32)], 0)
        alpha = np.concatenate([face[..., 3:].astype(np.float32), np.full((band, fw, 1), 255.0)] if side == "below"
                               else [np.full((band, fw, 1), 255.0), face[..., 3:].astype(np.float32)], 0)
    else:
        band = int(band * 0.6)
        strip = np.zeros((fh, band, 3), np.float32)
        split = int(band * style.face_layer)
        strip[:, :split] = face_rgb * shade
        strip[:, split:] = back_rgb * shade
        if side == "left":
            strip = strip[:, ::-1]
        parts = [face[..., :3].astype(np.float32), strip] if side == "right" else [strip, face[..., :3].astype(np.float32)]
        rgb = np.concatenate(parts, 1)
        a_parts = [face[..., 3:].astype(np.float32), np.full((fh, band, 1), 255.0)]
        alpha = np.concatenate(a_parts if side == "right" else a_parts[::-1], 1)
    # light: a gradient across the face, sometimes a specular streak
    h, w = rgb.shape[:2]
    g = np.linspace(rng.uniform(0.8, 1.05), rng.uniform(0.9, 1.15), h if rng.random() < 0.5 else w, dtype=np.float32)
    rgb = rgb * (g[:, None, None] if len(g) == h else g[None, :, None])
    if rng.random() < 0.2:
        x = rng.uniform(0, w)
        xx = np.arange(w, dtype=np.float32)
        rgb = rgb + 60 * np.exp(-((xx - x) ** 2) / (2 * (0.08 * w) ** 2))[None, :, None]
    return np.clip(rgb, 0, 255), alpha / 255.0


def _canvas(rng: np.random.Generator, size: tuple[int, int]) -> tuple[np.ndarray, int, tuple[float, float, float, float]]:
    """A table top to draw a crop of ``size`` on, ``scale`` times larger (at least 240 rows, shrunk afterwards:
    smooth edges), and the tile's box on it."""
    scale = max(2, -(-240 // size[0]))
    canvas = background(rng, size[0] * scale, size[1] * scale)
    x, y, bw, bh = box_in_crop(size)
    return canvas, scale, (x * scale, y * scale, bw * scale, bh * scale)


def _paste(canvas: np.ndarray, rgb: np.ndarray, alpha: np.ndarray, box: tuple[float, float, float, float], rng: np.random.Generator,
           perspective: float = 0.08) -> None:
    """Warp a sprite into ``box`` (x, y, w, h) with a little perspective, cast a soft shadow, composite."""
    h, w = rgb.shape[:2]
    x, y, bw, bh = box
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = np.array([[x, y], [x + bw, y], [x + bw, y + bh], [x, y + bh]], np.float32)
    dst += rng.uniform(-perspective, perspective, (4, 2)).astype(np.float32) * np.array([bw, bh], np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    H, W = canvas.shape[:2]
    warped = cv2.warpPerspective(rgb, m, (W, H), flags=cv2.INTER_AREA)
    a = cv2.warpPerspective(np.ascontiguousarray(alpha.reshape(h, w), np.float32), m, (W, H), flags=cv2.INTER_LINEAR)[..., None]
    off = rng.uniform(-0.08, 0.08, 2) * np.array([bw, bh])
    shadow = cv2.GaussianBlur(np.roll(np.roll(a[..., 0], int(off[1]), 0), int(off[0]), 1), (0, 0), max(0.5, 0.05 * bw))
    base = canvas.astype(np.float32) * (1 - rng.uniform(0.2, 0.5) * shadow[..., None])
    out = base * (1 - a) + warped * a
    canvas[:] = np.clip(out, 0, 255).astype(np.uint8)


def tile_crop(rng: np.random.Generator, style: TileStyle, faces: dict[str, np.ndarray], code: str,
              size: tuple[int, int] = CACHE_SIZE) -> np.ndarray:
    """A crop of one tile of ``code`` (cache-sized unless ``size`` says otherwise), its neighbours often touching it."""
    ch, cw = size
    canvas, _, (x, y, bw, bh) = _canvas(rng, size)
    codes = list(faces)
    if rng.random() < 0.6:  # neighbours in a row, touching or nearly
        gap = rng.uniform(-0.02, 0.08) * bw
        for dx in (-1, 1):
            other = faces[codes[int(rng.integers(len(codes)))]]
            rgb, a = _sprite(other, style, rng)
            _paste(canvas, rgb, a, (x + dx * (bw + gap), y + rng.uniform(-0.05, 0.05) * bh, bw, bh), rng)
    rgb, a = _sprite(faces[code], style, rng)
    _paste(canvas, rgb, a, (x, y, bw, bh), rng)
    crop = cv2.resize(canvas, (cw, ch), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(crop[::-1, ::-1]) if rng.random() < 0.5 else crop


def close_up(rng: np.random.Generator, style: TileStyle, faces: dict[str, np.ndarray], code: str,
             width: float) -> tuple[np.ndarray, np.ndarray]:
    """A photo of one tile ``width`` px wide at its centre (with its neighbours, side and shadow, either way up),
    and its (1, 4) box: how a close-up of a tile reaches the pipeline."""
    size = (round(width * 4 / 3 * CACHE_CONTEXT), round(width * CACHE_CONTEXT))
    rgb = cv2.resize(tile_crop(rng, style, faces, code, (320, 240)), size[::-1], interpolation=cv2.INTER_AREA)
    box = np.array([[(size[1] - width) / 2, (size[0] - width * 4 / 3) / 2, width, width * 4 / 3]], np.float32)
    return rgb, box


def not_a_tile(rng: np.random.Generator, entry: tuple[TileStyle, dict[str, np.ndarray]], size: tuple[int, int] = CACHE_SIZE) -> np.ndarray:
    """Printed text, dice pips, table clutter, a tile's side or a crop between two tiles."""
    style, faces = entry
    ch, cw = size
    canvas, scale, (x, y, bw, bh) = _canvas(rng, size)
    kind = rng.integers(5)
    if kind == 0:
        canvas[:] = np.clip(np.array(rng.integers(200, 256, 3)) + rng.normal(0, 4, canvas.shape), 0, 255).astype(np.uint8)
        _print_text(canvas, rng)
    elif kind == 1:
        _dice(canvas, (x + bw * 0.1, y + bh * 0.2, bw * 0.8, bw * 0.8), rng)
    elif kind == 2:
        for _ in range(int(rng.integers(1, 5))):
            colour = tuple(int(c) for c in rng.integers(0, 255, 3))
            c = (int(rng.uniform(0, cw * scale)), int(rng.uniform(0, ch * scale)))
            if rng.random() < 0.5:
                cv2.circle(canvas, c, int(rng.uniform(10, 60)), colour, -1, cv2.LINE_AA)
            else:
                box = cv2.boxPoints((c, (rng.uniform(10, 150), rng.uniform(10, 150)), rng.uniform(0, 180)))
                cv2.fillConvexPoly(canvas, box.astype(np.int32), colour, cv2.LINE_AA)
    elif kind == 3:  # a tile seen edge-on: only its side, face layer and back layer
        codes = list(faces)
        rgb, a = _sprite(faces[codes[int(rng.integers(len(codes)))]], style, rng)
        side = np.zeros((20, 96, 3), np.float32)
        side[:10] = np.array(style.face_rgb, np.float32) * rng.uniform(0.6, 0.9)
        side[10:] = np.array(style.back_rgb, np.float32) * rng.uniform(0.6, 0.9)
        _paste(canvas, side, np.ones((20, 96), np.float32), (x - bw * 0.2, y + bh * rng.uniform(0.2, 0.7), bw * 1.4, bh * 0.25), rng)
    else:  # between two tiles: half of each
        codes = list(faces)
        for dx in (-0.5, 0.5):
            rgb, a = _sprite(faces[codes[int(rng.integers(len(codes)))]], style, rng)
            _paste(canvas, rgb, a, (x + dx * bw * rng.uniform(0.9, 1.1), y, bw, bh), rng)
    crop = cv2.resize(canvas, (cw, ch), interpolation=cv2.INTER_AREA)
    return crop


def _print_text(canvas: np.ndarray, rng: np.random.Generator) -> None:
    from PIL import Image, ImageDraw

    from pungchow_data.realsets import FAMILIES, _cjk, _latin, family_fonts

    img = Image.fromarray(canvas)
    d = ImageDraw.Draw(img)
    fonts = [k for f in FAMILIES.values() for k in family_fonts(f)]
    size = int(rng.uniform(10, 40))
    ink = tuple(int(c) for c in rng.integers(0, 90, 3))
    cjk = rng.random() < 0.6 and fonts
    y = rng.uniform(-size, size)
    while y < canvas.shape[0]:
        if cjk:
            line = "".join(rng.choice(list(PRINT_CHARS), int(rng.integers(2, 10))))
            font = _cjk(fonts[int(rng.integers(len(fonts)))], size)
        else:
            line = "".join(rng.choice(list(LATIN_TEXT), int(rng.integers(4, 20))))
            font = _latin(size)
        d.text((rng.uniform(-size, size), y), line, font=font, fill=ink)
        y += size * rng.uniform(1.2, 1.8)
    canvas[:] = np.asarray(img)


def _dice(canvas: np.ndarray, box: tuple[float, float, float, float], rng: np.random.Generator) -> None:
    x, y, w, h = box
    body = tuple(int(c) for c in (rng.integers(200, 256, 3) if rng.random() < 0.7 else rng.integers(0, 256, 3)))
    cv2.rectangle(canvas, (int(x), int(y)), (int(x + w), int(y + h)), body, -1, cv2.LINE_AA)
    n = int(rng.integers(1, 7))
    spots = {1: [(0.5, 0.5)], 2: [(0.25, 0.25), (0.75, 0.75)], 3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
             4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
             5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
             6: [(0.25, u) for u in (0.2, 0.5, 0.8)] + [(0.75, u) for u in (0.2, 0.5, 0.8)]}[n]
    pip = (200, 20, 30) if n in (1, 4) else (20, 20, 20)
    for u, v in spots:
        cv2.circle(canvas, (int(x + u * w), int(y + v * h)), max(2, int(0.09 * w)), pip, -1, cv2.LINE_AA)

