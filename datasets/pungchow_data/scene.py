"""Render one photo of finished hands on a table, with an exact label for every tile.

Tiles are real boxes in 3-D (millimetres, table at z = 0) seen by a pinhole camera, so
perspective, tile thickness, standing tiles and occlusion order come out right and every label
is the projection of the very corners that were drawn. Faces are pre-rendered per style
(:mod:`pungchow_data.faces`) and only warped here, which keeps a scene at tens of milliseconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from pungchow_data.coco import GroupLabel, ImageRecord, TileLabel
from pungchow_data.faces import FACE_H, FACE_W, TileStyle, face_pyramid
from pungchow_data.hands import HandPlan, Wall, hidden_hand, random_hand
from scoring.tiles import WINDS

Vec = np.ndarray

#: Image sizes (width, height) a phone might deliver after the app downsizes it.
IMAGE_SIZES = ((960, 720), (1024, 576), (720, 960), (800, 800), (1280, 720), (640, 480))
IMAGE_SIZE_P = (0.3, 0.2, 0.15, 0.1, 0.1, 0.15)


@dataclass
class TileBody:
    """One tile in the world: centre of its visible face, its face axes, its size and what it shows."""

    code: str
    face_centre: Vec
    u: Vec  # unit vector along the face's width (left to right as read)
    v: Vec  # unit vector along the face's height (bottom to top as read)
    n: Vec  # unit normal out of the face
    width: float
    height: float
    depth: float
    standing: bool
    group: int | None
    label: bool = True

    def face_corners(self) -> Vec:
        """TL, TR, BR, BL of the visible face, as the face image is read."""
        c, u, v = self.face_centre, self.u * self.width / 2, self.v * self.height / 2
        return np.array([c - u + v, c + u + v, c + u - v, c - u - v])

    def back_corners(self) -> Vec:
        return self.face_corners() - self.n * self.depth

    def centre(self) -> Vec:
        return self.face_centre - self.n * self.depth / 2


@dataclass
class Camera:
    """A pinhole camera: world to camera axes, then an image-plane affine (scale, roll, offset)."""

    position: Vec
    right: Vec
    down: Vec
    forward: Vec
    affine: np.ndarray = field(default_factory=lambda: np.eye(3))

    def to_normalised(self, pts: Vec) -> Vec:
        d = pts - self.position
        z = d @ self.forward
        xy: np.ndarray = np.stack([(d @ self.right) / z, (d @ self.down) / z], axis=-1)
        return xy

    def project(self, pts: Vec) -> Vec:
        xy = self.to_normalised(pts)
        projected: np.ndarray = xy @ self.affine[:2, :2].T + self.affine[:2, 2]
        return projected

    def table_homography(self) -> np.ndarray:
        """Homography from table coordinates (x, y, z = 0) to image pixels."""
        p = self.position
        m = np.array(
            [
                [self.right[0], self.right[1], -self.right @ p],
                [self.down[0], self.down[1], -self.down @ p],
                [self.forward[0], self.forward[1], -self.forward @ p],
            ]
        )
        full: np.ndarray = self.affine @ m
        return full


def look_at(target: Vec, tilt_deg: float, azimuth_deg: float, distance: float) -> Camera:
    """A camera ``tilt`` degrees from straight down, on the player's side rotated by ``azimuth``."""
    t, a = math.radians(tilt_deg), math.radians(azimuth_deg)
    direction = np.array([math.sin(t) * math.sin(a), -math.sin(t) * math.cos(a), math.cos(t)])
    pos = target + distance * direction
    fwd = (target - pos) / np.linalg.norm(target - pos)
    far = np.array([-math.sin(a), math.cos(a), 0.0])
    right = np.cross(fwd, far)
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    return Camera(pos, right, down, fwd)


# --- laying hands out ----------------------------------------------------------------------------


@dataclass
class Scene:
    """Tiles in the world plus the groups and hands they belong to."""

    bodies: list[TileBody] = field(default_factory=list)
    groups: list[GroupLabel] = field(default_factory=list)
    hands: list[HandPlan] = field(default_factory=list)


def _rot(a: float) -> np.ndarray:
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


def lay_out_hand(
    rng: np.random.Generator,
    layout: Scene,
    plan: HandPlan,
    hand_index: int,
    origin: Vec,
    angle: float,
    size: tuple[float, float, float],
    standing_row: bool,
) -> None:
    """Put one hand's groups on the table: concealed row in front, declared sets behind or beside.

    ``origin`` is the left end of the front row, ``angle`` the row's direction (radians).
    """
    w, h, d = size
    gap = w * 0.04
    rot = _rot(angle)
    u2 = rot @ np.array([1.0, 0.0])
    v2 = rot @ np.array([0.0, 1.0])
    one_row = rng.random() < 0.3
    x_row = [0.0, 0.0, 0.0]
    sign = -1.0 if standing_row or rng.random() < 0.3 else 1.0  # -1: declared sets nearer the camera
    first = h + w * rng.uniform(0.3, 1.2) + (d if standing_row else 0)
    row_y = [0.0, sign * first, sign * (first + h + w * rng.uniform(0.2, 0.6))]
    wrap_after = int(rng.integers(2, 4)) if rng.random() < 0.35 else len(plan.groups)
    declared = 0
    for g in plan.groups:
        row = 0 if one_row else g.row
        if row == 1:
            row = 2 if declared >= wrap_after else 1  # a second row of declared sets
            declared += 1
        group_id = len(layout.groups) + 1
        kind = g.kind
        layout.groups.append(GroupLabel(group_id, kind, g.exposed, hand_index))
        if x_row[row] > 0:
            x_row[row] += w * rng.uniform(0.35, 1.0) if g.kind != "winning" else w * rng.uniform(0.6, 1.6)
        standing = (standing_row and row == 0 and kind == "concealed") or g.standing
        jitter = 0.0 if rng.random() < 0.5 else w * 0.03
        for code in g.shown:
            dx = x_row[row] + w / 2 + rng.normal(0, jitter)
            dy = row_y[row] + rng.normal(0, jitter)
            centre2 = origin + u2 * dx + v2 * dy
            yaw = angle + rng.normal(0, 0.02 if jitter else 0.003)
            layout.bodies.append(_body(code, centre2, yaw, w, h, d, standing, group_id))
            x_row[row] += w + gap


def _body(code: str, centre2: Vec, yaw: float, w: float, h: float, d: float, standing: bool, group: int | None) -> TileBody:
    u = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    along = np.array([-math.sin(yaw), math.cos(yaw), 0.0])
    c = np.array([centre2[0], centre2[1], 0.0])
    if standing:
        n = along if code == "XX" else -along  # a back stands with its back towards the other players
        face_centre = c + n * d / 2 + np.array([0, 0, h / 2])
        return TileBody(code, face_centre, u, np.array([0.0, 0.0, 1.0]), n, w, h, d, True, group)
    return TileBody(code, c + np.array([0, 0, d]), u, along, np.array([0.0, 0.0, 1.0]), w, h, d, False, group)


def random_layout(rng: np.random.Generator, style: TileStyle) -> tuple[Scene, dict[str, float]]:
    """One to four hands from one set, laid on a table, and the scene's camera settings."""
    w = rng.uniform(24, 30)
    size = (w, w * rng.uniform(1.3, 1.4), w * style.thickness * rng.uniform(0.9, 1.1))
    tiles = Wall()
    layout = Scene()
    standing = rng.random() < 0.2
    n_hands = int(rng.choice([1, 2, 3, 4], p=[0.6, 0.2, 0.1, 0.1]))
    seat = int(rng.integers(4))
    plan = random_hand(rng, tiles, winner=True, seat_wind=WINDS[seat])
    layout.hands.append(plan)
    lay_out_hand(rng, layout, plan, 0, np.array([0.0, 0.0]), 0.0, size, standing)
    row_len = max(b.face_centre[0] for b in layout.bodies) + w
    depth = 2.5 * size[1]
    side_by_side = rng.random() < 0.5
    for k in range(1, n_hands):
        far_side = side_by_side or k == 2
        if far_side and rng.random() < 0.3:
            other = hidden_hand(13)  # only the player opposite shows the camera a row of backs
        else:
            other = random_hand(rng, tiles, winner=False, seat_wind=WINDS[(seat + k) % 4])
        if side_by_side and other.hand is None:
            origin, angle = np.array([row_len, (depth + w) * k]), math.pi  # backs towards the camera
        elif side_by_side:
            origin, angle = np.array([0.0, (depth + w) * k]), 0.0
        else:
            # round the table, every other hand behind the winner's front row: the winner sits nearest the camera
            origin, angle = [
                (np.array([row_len + depth * 1.2, depth * 0.8]), math.pi / 2),
                (np.array([row_len, row_len * 0.9 + depth * 1.8]), math.pi),
                (np.array([-depth * 1.2, depth * 0.8 + row_len * 0.9]), -math.pi / 2),
            ][k - 1]
        layout.hands.append(other)
        lay_out_hand(rng, layout, other, k, origin, angle, size, standing and angle == 0.0 and other.hand is not None)
    tilt_hi = 70.0 if standing else 45.0
    tilt_lo = 35.0 if standing else 0.0
    camera = {
        "tilt": float(rng.uniform(tilt_lo, tilt_hi)),
        "azimuth": float(rng.normal(0, 12)),
        "distance": float(rng.uniform(1.1, 3.5)),
        "roll": float(rng.normal(0, 6) if rng.random() < 0.7 else rng.uniform(-180, 180)),
        "fill": float(rng.uniform(0.55, 0.95)),
    }
    return layout, camera


# --- table ---------------------------------------------------------------------------------------

#: A photo whose typical tile is narrower than this is rendered larger (up to MAX_SIDE pixels).
MIN_TILE_PX = 26
MAX_SIDE = 1600

#: A tile hidden by nearer tiles beyond this share of its outline is not labelled.
MIN_VISIBLE = 0.3
#: A face seen so edge-on that it covers less than this share of the tile's outline is not labelled.
MIN_FACE_SHARE = 0.12

TEXTURE_SIZE = 384
MM_PER_TEXEL = 2.5


def _smooth_noise(rng: np.random.Generator, size: int, cells: int) -> np.ndarray:
    small = rng.random((cells, cells)).astype(np.float32)
    small = np.concatenate([small, small[:1]], axis=0)
    small = np.concatenate([small, small[:, :1]], axis=1)
    return cv2.resize(small, (size + size // cells, size + size // cells), interpolation=cv2.INTER_CUBIC)[:size, :size]


def table_texture(rng: np.random.Generator) -> np.ndarray:
    """A tileable table surface: felt, wood, patterned cloth or a plain top (BGR uint8)."""
    s = TEXTURE_SIZE
    kind = str(rng.choice(["felt", "wood", "cloth", "plain"], p=[0.35, 0.3, 0.2, 0.15]))
    yy, xx = (a.astype(np.float32) for a in np.ogrid[0:s, 0:s])
    if kind == "felt":
        base = np.array(rng.choice([(60, 110, 30), (90, 120, 20), (120, 70, 30), (40, 40, 140), (70, 70, 70), (110, 100, 20)]), np.float32)
        img = base * (0.85 + 0.3 * _smooth_noise(rng, s, 8)[..., None])
        img = img + 6 * rng.standard_normal((s, s, 1), dtype=np.float32)
    elif kind == "wood":
        base = np.array(rng.choice([(40, 80, 140), (60, 110, 170), (30, 55, 95), (90, 140, 190)]), np.float32)
        waves = int(rng.integers(6, 20))
        grain = np.sin((yy / s * waves + 0.8 * _smooth_noise(rng, s, 4)) * 2 * math.pi)
        fine = np.sin((yy / s * waves * 7 + 2 * _smooth_noise(rng, s, 8)) * 2 * math.pi)
        img = base * (0.85 + 0.06 * grain[..., None] + 0.04 * fine[..., None])
        if rng.random() < 0.5:
            img = np.ascontiguousarray(np.rot90(img))
    elif kind == "cloth":
        a = np.array(rng.integers(30, 230, 3), np.float32)
        b = np.array(rng.integers(30, 230, 3), np.float32)
        period = int(rng.choice([16, 32, 64, 128]))
        pattern = str(rng.choice(["check", "stripe", "plaid"]))
        if pattern == "check":
            m = (((xx // period) + (yy // period)) % 2)[..., None]
        elif pattern == "stripe":
            m = ((xx // period) % 2)[..., None]
        else:
            m = (0.5 * ((xx // period) % 2) + 0.5 * ((yy // period) % 2))[..., None]
        m = np.broadcast_to(m, (s, s, 1))
        img = a * (1 - m) + b * m
        img *= 0.9 + 0.2 * _smooth_noise(rng, s, 8)[..., None]
    else:
        base = np.array(rng.choice([(235, 235, 235), (200, 205, 210), (60, 60, 60), (180, 200, 215)]), np.float32)
        img = base * (0.9 + 0.15 * _smooth_noise(rng, s, 4)[..., None])
    img = img + 3 * rng.standard_normal((s, s, 3), dtype=np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def _spot_off_the_tiles(rng: np.random.Generator, size: int, keep_out: tuple[float, float, float, float],
                        margin: float) -> tuple[float, float] | None:
    """A random point on the table at least ``margin`` px clear of the tiles' area (ten tries), or None."""
    x0, y0, x1, y1 = keep_out
    for _ in range(10):
        cx, cy = rng.uniform(0, size, 2)
        if not (x0 - margin < cx < x1 + margin and y0 - margin < cy < y1 + margin):
            return float(cx), float(cy)
    return None


def _draw_clutter(rng: np.random.Generator, tex: np.ndarray, keep_out: tuple[float, float, float, float]) -> None:
    """Cups, coins, phones, scoring sticks: things on the table that are not tiles."""
    for _ in range(int(rng.integers(0, 6))):
        spot = _spot_off_the_tiles(rng, tex.shape[0], keep_out, 40)
        if spot is None:
            continue
        cx, cy = spot
        colour = tuple(int(c) for c in rng.integers(0, 255, 3))
        kind = rng.integers(3)
        if kind == 0:
            r = int(rng.uniform(8, 45))
            cv2.circle(tex, (int(cx), int(cy)), r, colour, -1, cv2.LINE_AA)
            cv2.circle(tex, (int(cx), int(cy)), max(1, int(r * 0.8)), tuple(min(255, c + 30) for c in colour), 2, cv2.LINE_AA)
        elif kind == 1:
            box = cv2.boxPoints(((cx, cy), (rng.uniform(30, 80), rng.uniform(60, 150)), rng.uniform(0, 180)))
            cv2.fillConvexPoly(tex, box.astype(np.int32), colour, cv2.LINE_AA)
        else:
            for k in range(int(rng.integers(2, 7))):
                box = cv2.boxPoints(((cx + k * 6, cy), (4, rng.uniform(60, 80)), rng.uniform(-10, 10)))
                cv2.fillConvexPoly(tex, box.astype(np.int32), (235, 235, 235), cv2.LINE_AA)


def _draw_table_things(rng: np.random.Generator, tex: np.ndarray, keep_out: tuple[float, float, float, float]) -> None:
    """What else lies on a real table and is not a tile: printed pages, playing cards, dice and coins.

    Drawn only in real-set family scenes (older styles keep their bytes); the detector learns these are not tiles.
    """
    for _ in range(int(rng.integers(1, 6))):
        spot = _spot_off_the_tiles(rng, tex.shape[0], keep_out, 30)
        if spot is None:
            continue
        cx, cy = spot
        kind = int(rng.integers(4))
        angle = float(rng.uniform(0, 180))
        if kind == 0:  # a printed page: paper, lines of text (dark dashes at this scale), maybe a heading
            w, h = rng.uniform(60, 110), rng.uniform(80, 140)
            paper = tuple(int(c) for c in rng.integers(215, 250, 3))
            box = cv2.boxPoints(((cx, cy), (w, h), angle)).astype(np.int32)
            cv2.fillConvexPoly(tex, box, paper, cv2.LINE_AA)
            rot = cv2.getRotationMatrix2D((cx, cy), -angle, 1.0)
            ink = tuple(int(c) for c in rng.integers(10, 70, 3))
            for ly in np.arange(-h / 2 + 6, h / 2 - 4, rng.uniform(2.0, 4.0)):
                lx = -w / 2 + 5
                while lx < w / 2 - 8:
                    word = rng.uniform(2, 9)
                    a, b = rot @ np.array([cx + lx, cy + ly, 1.0]), rot @ np.array([cx + min(lx + word, w / 2 - 5), cy + ly, 1.0])
                    cv2.line(tex, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), ink, 1, cv2.LINE_AA)
                    lx += word + rng.uniform(1, 2.5)
        elif kind == 1:  # a playing card: white, corner index and a pip or picture in red or black
            box = cv2.boxPoints(((cx, cy), (25, 35), angle)).astype(np.int32)
            cv2.fillConvexPoly(tex, box, (245, 245, 245), cv2.LINE_AA)
            ink = (40, 40, 200) if rng.random() < 0.5 else (30, 30, 30)
            cv2.circle(tex, (int(cx), int(cy)), 4, ink, -1, cv2.LINE_AA)
            cv2.putText(tex, str(rng.choice(list("A23456789JQK"))), (int(cx - 11), int(cy - 8)), cv2.FONT_HERSHEY_PLAIN, 0.5, ink, 1,
                        cv2.LINE_AA)
        elif kind == 2:  # dice: small cubes with pips
            for k in range(int(rng.integers(1, 4))):
                dx, dy = cx + k * rng.uniform(8, 14), cy + rng.uniform(-6, 6)
                body = (240, 240, 240) if rng.random() < 0.7 else tuple(int(c) for c in rng.integers(0, 255, 3))
                box = cv2.boxPoints(((dx, dy), (7, 7), float(rng.uniform(0, 90)))).astype(np.int32)
                cv2.fillConvexPoly(tex, box, body, cv2.LINE_AA)
                for _ in range(int(rng.integers(1, 7))):
                    px, py = dx + rng.uniform(-2, 2), dy + rng.uniform(-2, 2)
                    cv2.circle(tex, (round(float(px)), round(float(py))), 0, (30, 30, 180) if rng.random() < 0.3 else (20, 20, 20), -1)
        else:  # coins: metal discs with a rim
            for k in range(int(rng.integers(1, 6))):
                r = float(rng.uniform(7, 11))
                metal = (60, 150, 200) if rng.random() < 0.5 else (190, 190, 195)
                c = (int(cx + k * rng.uniform(-12, 12)), int(cy + k * rng.uniform(-12, 12)))
                cv2.circle(tex, c, int(r), metal, -1, cv2.LINE_AA)
                cv2.circle(tex, c, int(r * 0.8), tuple(int(v * 0.8) for v in metal), 1, cv2.LINE_AA)


# --- drawing -------------------------------------------------------------------------------------


def _fit_camera(camera: Camera, pts: Vec, size: tuple[int, int], cfg: dict[str, float], rng: np.random.Generator) -> None:
    """Choose scale, roll and offset so every tile lies inside the frame, filling ``fill`` of it."""
    W, H = size
    xy = camera.to_normalised(pts)
    roll = math.radians(cfg["roll"])
    r = np.array([[math.cos(roll), -math.sin(roll)], [math.sin(roll), math.cos(roll)]])
    xy = xy @ r.T
    lo, hi = xy.min(0), xy.max(0)
    span = np.maximum(hi - lo, 1e-6)
    scale = min(W / span[0], H / span[1]) * cfg["fill"]
    free = np.array([W, H]) - span * scale
    offset = free * rng.uniform(0.1, 0.9, 2) - lo * scale
    a = np.eye(3)
    a[:2, :2] = r * scale
    a[:2, 2] = offset
    camera.affine = a


def _shade(colour: np.ndarray, normal: Vec, light: Vec, ambient: float) -> tuple[float, ...]:
    k = ambient + (1 - ambient) * max(0.0, float(normal @ light))
    return tuple(float(min(255.0, c * k)) for c in colour)


def _fill(img: np.ndarray, poly: np.ndarray, colour: tuple[float, ...]) -> None:
    cv2.fillConvexPoly(img, np.round(poly * 16).astype(np.int32), colour, cv2.LINE_AA, shift=4)


def _paste_face(img: np.ndarray, pyramid: tuple[np.ndarray, ...], quad: np.ndarray, gain: float) -> None:
    """Warp an RGBA face onto its quad, touching only the quad's bounding box.

    The smallest pyramid level still at least as wide as the tile is used, so small tiles blur
    like a camera would instead of aliasing.
    """
    H, W = img.shape[:2]
    x0, y0 = np.floor(quad.min(0)).astype(int)
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
    if x1 <= x0 or y1 <= y0:
        return
    side = max(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0]) * FACE_W / FACE_H)
    face = next((f for f in reversed(pyramid) if f.shape[1] >= side), pyramid[0])
    fh, fw = face.shape[:2]
    src = np.asarray([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    m = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
    patch = cv2.warpPerspective(face, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    alpha = patch[..., 3:4].astype(np.float32) / 255.0
    rgb = patch[..., 2::-1].astype(np.float32) * gain
    roi = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = np.clip(rgb * alpha + roi * (1 - alpha), 0, 255).astype(np.uint8)


def _glossy(pyramid: dict[str, tuple[np.ndarray, ...]], codes: set[str], rng: np.random.Generator) -> dict[str, tuple[np.ndarray, ...]]:
    """Half the scenes get a sheen: a soft bright band across every face, as glossy tiles show under a lamp."""
    if rng.random() >= 0.5:
        return pyramid
    strength = rng.uniform(0.08, 0.3) * 255
    angle = rng.uniform(0, 2 * math.pi)
    centre, width = rng.uniform(0.2, 0.8), rng.uniform(0.1, 0.35)
    out = dict(pyramid)
    for code in sorted(codes):
        levels = []
        for face in pyramid[code]:
            h, w = face.shape[:2]
            yy, xx = np.ogrid[0:h, 0:w]
            t = (xx / w - 0.5) * math.cos(angle) + (yy / h - 0.5) * math.sin(angle) + 0.5
            band = (strength * np.exp(-(((t - centre) / width) ** 2))).astype(np.float32)
            shiny = face.copy()
            shiny[..., :3] = np.clip(face[..., :3] + band[..., None], 0, 255).astype(np.uint8)
            levels.append(shiny)
        out[code] = tuple(levels)
    return out


def _draw_tile(img: np.ndarray, body: TileBody, camera: Camera, faces: dict[str, tuple[np.ndarray, ...]], style: TileStyle,
               light: Vec) -> tuple[np.ndarray, bool]:
    """Draw the visible sides then the face; return every visible corner and whether the face shows."""
    front = body.face_corners()
    back = body.back_corners()
    eye = camera.position
    face_bgr = np.array(style.face_rgb[::-1], np.float64)
    back_bgr = np.array(style.back_rgb[::-1], np.float64)
    near, far = (back_bgr, face_bgr) if body.code == "XX" else (face_bgr, back_bgr)
    layer = (1 - style.face_layer) if body.code == "XX" else style.face_layer
    split = front + (back - front) * layer
    visible: list[np.ndarray] = []
    sides = ((0, 1, body.v), (1, 2, body.u), (2, 3, -body.v), (3, 0, -body.u))
    for i, j, normal in sides:
        mid = (front[i] + front[j] + back[i] + back[j]) / 4
        if normal @ (eye - mid) <= 0:
            continue
        p_front = camera.project(np.array([front[i], front[j], split[j], split[i]]))
        p_back = camera.project(np.array([split[i], split[j], back[j], back[i]]))
        _fill(img, p_front, _shade(near, normal, light, 0.55))
        _fill(img, p_back, _shade(far, normal, light, 0.55))
        visible += [p_front, p_back]
    quad = camera.project(front)
    shows = bool(body.n @ (eye - body.face_centre) > 0)
    if shows:
        gain = 0.62 + 0.45 * max(0.0, float(body.n @ light))
        _paste_face(img, faces[body.code], quad, gain)
        visible.append(quad)
    return (np.concatenate(visible) if visible else quad), shows


def _shadows(img: np.ndarray, bodies: list[TileBody], camera: Camera, light: Vec, strength: float) -> np.ndarray:
    """Soft shadows cast on the table away from the light."""
    mask: np.ndarray = np.zeros(img.shape[:2], np.uint8)
    shift = -light[:2] / max(light[2], 0.3)
    for b in bodies:
        c = b.centre()
        foot = np.array([c[0], c[1], 0.0])
        hgt = b.height if b.standing else b.depth
        half = np.abs(b.u[:2]) * b.width / 2 + np.abs((b.v if not b.standing else b.n)[:2]) * (b.height if not b.standing else b.depth) / 2
        pts = []
        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            p = foot.copy()
            p[:2] += np.array([sx * half[0], sy * half[1]]) + shift * hgt * 0.6
            pts.append(p)
        cv2.fillConvexPoly(mask, np.round(camera.project(np.array(pts)) * 16).astype(np.int32), 255, cv2.LINE_AA, shift=4)
    k = max(3, int(img.shape[1] / 120) | 1)
    mask = cv2.GaussianBlur(mask, (k * 2 + 1, k * 2 + 1), 0)
    keep = 1.0 - (strength / 255.0) * mask.astype(np.float32)
    return cv2.multiply(img, cv2.merge([keep, keep, keep]), dtype=cv2.CV_8U)


#: Sensor noise is drawn for a tile this big and repeated: a full-frame draw costs more than the scene.
NOISE_TILE = 97


def _photo_effects(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Uneven light, colour cast, blur, low resolution and sensor noise.

    The light field is smooth, so it is computed at 1/8 scale and enlarged: most of the time
    of a scene would otherwise go here.
    """
    H, W = img.shape[:2]
    h, w = max(2, H // 8), max(2, W // 8)
    yy, xx = np.ogrid[0:h, 0:w]
    yy = yy.astype(np.float32) / h
    xx = xx.astype(np.float32) / w
    gx, gy = rng.normal(0, 0.25, 2)
    light = 1 + gx * (xx - 0.5) + gy * (yy - 0.5)
    if rng.random() < 0.5:
        cx, cy = rng.uniform(0, 1, 2)
        r2 = ((xx - cx) ** 2 * (W / max(W, H)) ** 2 + (yy - cy) ** 2 * (H / max(W, H)) ** 2).astype(np.float32)
        light = light + rng.uniform(0.1, 0.4) * np.exp(-r2 * rng.uniform(2, 8)) - 0.1
    light = light * rng.uniform(0.75, 1.2)
    cast = np.asarray(rng.normal(1, 0.05, 3), np.float32)
    field = cv2.resize(light.astype(np.float32), (W, H), interpolation=cv2.INTER_LINEAR)
    img = cv2.multiply(img, cv2.merge([field * c for c in cast]), dtype=cv2.CV_8U)
    if rng.random() < 0.35:
        s = float(rng.uniform(0.35, 0.8))
        small = cv2.resize(img, (max(32, int(W * s)), max(32, int(H * s))), interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (W, H), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.4:
        sigma = float(rng.uniform(0.5, 1.8))
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    elif rng.random() < 0.15:
        k = int(rng.integers(3, 9))
        kernel: np.ndarray = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        kernel = cv2.warpAffine(kernel, rot, (k, k))
        img = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
    sigma = float(rng.uniform(0, 7))
    if sigma > 1:
        tile = (sigma * rng.standard_normal((NOISE_TILE, NOISE_TILE, 3), dtype=np.float32)).astype(np.int16)
        noise = np.tile(tile, (H // NOISE_TILE + 1, W // NOISE_TILE + 1, 1))[:H, :W]
        img = np.clip(img.astype(np.int16) + noise, 0, 255).astype(np.uint8)
    return img


@dataclass
class RenderedScene:
    """The pixels (BGR) and the labels of one rendered photo."""

    image: np.ndarray
    record: ImageRecord
    jpeg_quality: int


def render_scene(rng: np.random.Generator, style: TileStyle, scene_id: str, photo_effects: bool = True,
                 scale: float = 1.0) -> RenderedScene:
    """Draw a whole photo: table, shadows, tiles far to near, camera effects; label every tile.

    ``photo_effects=False`` skips light, blur, noise and low resolution (tests compare faces). ``scale`` draws the same
    scene that many times larger: ``IMAGE_SIZES`` are photos an app has downsized, 4.2 gives a 12 MP phone's own photo,
    whose blur, noise and JPEG blocks, as many pixels as at scale 1, are that many times smaller beside its tiles.
    """
    layout, cfg = random_layout(rng, style)
    idx = rng.choice(len(IMAGE_SIZES), p=IMAGE_SIZE_P)
    W, H = (int(side * scale) // 2 * 2 for side in IMAGE_SIZES[idx])
    min_tile_px, max_side = MIN_TILE_PX * scale, MAX_SIDE * scale
    corners = np.concatenate([np.concatenate([b.face_corners(), b.back_corners()]) for b in layout.bodies])
    lo, hi = corners.min(0), corners.max(0)
    target = np.array([(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, 0.0])
    extent = float(max(hi[0] - lo[0], hi[1] - lo[1]))
    camera = look_at(target, cfg["tilt"], cfg["azimuth"], extent * cfg["distance"] + 200)
    fit_rng = np.random.default_rng(rng.integers(2**32))
    _fit_camera(camera, corners, (W, H), cfg, np.random.default_rng(fit_rng.integers(2**32)))
    tile_px = float(np.median([np.linalg.norm(np.diff(camera.project(b.face_corners()[:2]), axis=0)) for b in layout.bodies]))
    if tile_px < min_tile_px:
        grow = min(min_tile_px / tile_px, max_side / max(W, H))
        W, H = int(W * grow) // 2 * 2, int(H * grow) // 2 * 2
        _fit_camera(camera, corners, (W, H), cfg, np.random.default_rng(fit_rng.integers(2**32)))

    tex = table_texture(rng)
    origin = target[:2] - TEXTURE_SIZE * MM_PER_TEXEL / 2
    keep = ((lo[0] - origin[0]) / MM_PER_TEXEL, (lo[1] - origin[1]) / MM_PER_TEXEL,
            (hi[0] - origin[0]) / MM_PER_TEXEL, (hi[1] - origin[1]) / MM_PER_TEXEL)
    _draw_clutter(rng, tex, keep)
    if style.family is not None:
        _draw_table_things(rng, tex, keep)
    t = np.array([[MM_PER_TEXEL, 0, origin[0]], [0, MM_PER_TEXEL, origin[1]], [0, 0, 1]])
    hom = camera.table_homography() @ t
    img = cv2.warpPerspective(tex, hom, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
    _paint_beyond_horizon(img, camera, rng)

    az = rng.uniform(0, 2 * math.pi)
    light = np.array([math.cos(az) * 0.6, math.sin(az) * 0.6, rng.uniform(0.6, 1.2)])
    light /= np.linalg.norm(light)
    img = _shadows(img, layout.bodies, camera, light, float(rng.uniform(0.2, 0.55)))

    faces = _glossy(face_pyramid(style), {b.code for b in layout.bodies}, rng)
    order = sorted(range(len(layout.bodies)), key=lambda i: -np.linalg.norm(layout.bodies[i].centre() - camera.position))
    labels: list[TileLabel | None] = [None] * len(layout.bodies)
    owner = np.zeros((H, W), np.int32)  # which tile each pixel shows, to find tiles hidden by others
    drawn_area = np.zeros(len(layout.bodies) + 1)
    for i in order:
        body = layout.bodies[i]
        pts, shows = _draw_tile(img, body, camera, faces, style, light)
        hull = cv2.convexHull(np.round(pts * 16).astype(np.int32))
        cv2.fillConvexPoly(owner, hull, i + 1, cv2.LINE_8, shift=4)
        drawn_area[i + 1] = cv2.contourArea(hull.astype(np.float32) / 16)
        quad = camera.project(body.face_corners())
        if not shows or cv2.contourArea(quad.astype(np.float32)) < MIN_FACE_SHARE * drawn_area[i + 1]:
            continue
        x0, y0 = np.clip(pts.min(0), 0, [W, H])
        x1, y1 = np.clip(pts.max(0), 0, [W, H])
        labels[i] = TileLabel(
            code=body.code,
            bbox=(float(x0), float(y0), float(x1 - x0), float(y1 - y0)),
            quad=[(float(x), float(y)) for x, y in quad],
            face_down=body.code == "XX",
            standing=body.standing,
            group=body.group,
        )
    seen = np.bincount(owner.ravel(), minlength=len(drawn_area))
    for i, lab in enumerate(labels):
        if lab is not None and seen[i + 1] < MIN_VISIBLE * max(drawn_area[i + 1], 1.0):
            labels[i] = None
    if photo_effects:
        img = _photo_effects(rng, img)
    hands = [p.hand.to_dict() if p.hand is not None else None for p in layout.hands]
    record = ImageRecord(
        file_name="",
        width=W,
        height=H,
        scene=scene_id,
        style=style.name,
        source="pungchow-synthetic",
        license="CC0-1.0",
        hand=hands[0],
        hands=hands if len(hands) > 1 else [],
        groups=layout.groups,
        tiles=[lab for lab in labels if lab is not None],
    )
    return RenderedScene(img, record, int(rng.integers(35, 96)))


def _paint_beyond_horizon(img: np.ndarray, camera: Camera, rng: np.random.Generator) -> None:
    """Where a pixel's ray never meets the table (above the horizon), paint a dim wall instead."""
    H, W = img.shape[:2]
    inv = np.linalg.inv(camera.affine)

    def ray_z(px: np.ndarray) -> np.ndarray:
        n = (np.c_[px, np.ones(len(px))] @ inv.T)[:, :2]
        z: np.ndarray = n[:, 0] * camera.right[2] + n[:, 1] * camera.down[2] + camera.forward[2]
        return z

    corners = np.array([[0, 0], [W, 0], [0, H], [W, H]], np.float64)
    if (ray_z(corners) < -0.05).all():
        return
    yy, xx = np.mgrid[0:H, 0:W]
    z = ray_z(np.c_[xx.ravel(), yy.ravel()].astype(np.float64)).reshape(H, W)
    above = z >= -0.05
    if rng.random() < 0.5:
        img[above] = np.array(rng.integers(40, 200, 3), np.uint8)
        return
    # a shelf of books: vertical bands of random colours, darker towards the top
    edges = np.cumsum(rng.integers(6, 40, W // 6 + 2))
    colours = rng.integers(20, 230, (len(edges) + 1, 3)).astype(np.uint8)
    band = np.searchsorted(edges, np.arange(W))
    wall = np.broadcast_to(colours[band][None], (H, W, 3))
    shade = np.linspace(0.55, 1.0, H, dtype=np.float32)[:, None, None]
    img[above] = (wall * shade).astype(np.uint8)[above]
