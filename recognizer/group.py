"""Step 3: lay the named tiles out as the table does: rows, gaps, concealed hand, sets, bonus, winning tile.

Tiles whose boxes touch along a row form a run; runs are split at gaps. The concealed hand is
the nearest long run (with several hands on the table the winner's is nearest the camera);
runs of 3-4 tiles are declared sets, a kong with face-down ends is a concealed kong, a lone tile
set apart is the winning tile, and flowers/seasons are bonus tiles wherever they lie.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from recognizer.detections import UNSURE_BELOW, Detections
from recognizer.labels import CLASSES, FACE_DOWN
from scoring.errors import InvalidHandError
from scoring.melds import Meld
from scoring.tiles import BONUS_CODES, Tile

#: Two tiles are neighbours in a row when their centres differ across the row by less than this many tile heights
ROW_TOLERANCE = 0.3
#: and their distance along it exceeds the tile pitch by less than this fraction.
GAP = 0.15
#: A run of at least this many tiles can be a concealed hand.
MIN_CONCEALED = 5


class GroupKind(str, Enum):
    """What a group of tiles laid together is: the concealed hand, a declared set, the bonus tiles,
    the winning tile set apart, or tiles that make no set."""

    CONCEALED = "concealed"
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    BONUS = "bonus"
    WINNING = "winning"
    OTHER = "other"

    @property
    def is_set(self) -> bool:
        """A declared set (chow, pung, kong); the other kinds' tiles stay loose in the hand."""
        return self in (GroupKind.CHOW, GroupKind.PUNG, GroupKind.KONG)


@dataclass(frozen=True)
class Group:
    """Tiles laid together, left to right, of one :class:`GroupKind` (given by name or as the kind)."""

    id: int
    kind: GroupKind
    members: tuple[int, ...]
    concealed: bool = False
    in_hand: bool = True
    #: Why the reader set these boxes aside (``recognizer.hand_rows``); empty for the groups the table's layout makes.
    aside: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", GroupKind(self.kind))


def in_the_hand(groups: list[Group], count: int) -> np.ndarray:
    """Which of ``count`` boxes the groups count in the hand (not set aside)."""
    counted = np.zeros(count, bool)
    for g in groups:
        if g.in_hand:
            counted[list(g.members)] = True
    return counted


def clusters(near: np.ndarray) -> np.ndarray:
    """(N,) a label for each box's cluster: the boxes reached from it through boxes each ``near`` the next."""
    n = len(near)
    parent = np.arange(n)

    def root(k: int) -> int:
        while parent[k] != k:
            k = int(parent[k])
        return k

    for a, b in zip(*np.nonzero(np.triu(near, 1)), strict=True):
        parent[root(int(b))] = root(int(a))
    return np.array([root(k) for k in range(n)], np.int64)


def row_frame(dets: Detections) -> tuple[np.ndarray, float]:
    """Tile centres turned so rows run along +x (and +y points down the photo), and the tile pitch.

    Neighbouring tiles of a row touch, so each tile's nearest neighbour lies along its row: the
    dominant direction of those nearest-neighbour steps is the row direction, whatever the camera angle.
    """
    c = dets.centres.astype(np.float64)
    if len(c) < 2:
        return c, float(np.sqrt(np.prod(dets.boxes[:, 2:], axis=1)).mean()) if len(c) else 1.0
    dist = np.linalg.norm(c[:, None] - c[None], axis=2)
    np.fill_diagonal(dist, np.inf)
    nn = dist.argmin(axis=1)
    steps = c[nn] - c
    angle = np.arctan2(steps[:, 1], steps[:, 0])
    theta = 0.5 * np.arctan2(np.sin(2 * angle).sum(), np.cos(2 * angle).sum())
    u = np.array([np.cos(theta), np.sin(theta)])
    if u[0] < 0:
        u = -u
    v = np.array([-u[1], u[0]])
    if v[1] < 0:
        v = -v
    return np.stack([c @ u, c @ v], 1), float(np.median(dist.min(axis=1)))


def runs(dets: Detections) -> list[list[int]]:
    """Runs of touching tiles, each left to right along its row, ordered top to bottom."""
    n = len(dets)
    if n == 0:
        return []
    c, pitch = row_frame(dets)
    dist = np.linalg.norm(c[:, None] - c[None], axis=2)
    np.fill_diagonal(dist, np.inf)
    near = dist.min(axis=1)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        du = c[:, 0] - c[i, 0]
        ok = (du > 0.3 * pitch) & (np.abs(c[:, 1] - c[i, 1]) < ROW_TOLERANCE * pitch * 1.5)
        if not ok.any():
            continue
        j = int(np.where(ok, du, np.inf).argmin())
        if du[j] <= (1 + GAP) * min(near[i], near[j]):
            parent[find(j)] = find(i)
    comps: dict[int, list[int]] = {}
    for i in range(n):
        comps.setdefault(find(i), []).append(i)
    out = [sorted(m, key=lambda k: c[k, 0]) for m in comps.values()]
    return sorted(out, key=lambda m: (float(np.mean(c[m, 1])), float(np.min(c[m, 0]))))


def _tiles(dets: Detections, members: list[int]) -> list[Tile]:
    return [Tile(CLASSES[int(dets.codes[k])]) for k in members]


def _meld_kind(tiles: list[Tile]) -> Meld | None:
    try:
        return Meld.of(tiles, concealed=len(tiles) == 4 and tiles[0].is_face_down)
    except InvalidHandError:
        return None


def partition(dets: Detections, members: list[int]) -> list[list[int]] | None:
    """Split a run into consecutive sets of 3 or 4 tiles, or None when it cannot be."""
    n = len(members)
    best: list[list[list[int]] | None] = [None] * (n + 1)
    best[0] = []
    for end in range(1, n + 1):
        for size in (3, 4):
            start = end - size
            if start >= 0 and best[start] is not None and _meld_kind(_tiles(dets, members[start:end])):
                best[end] = best[start] + [members[start:end]]  # type: ignore[operator]
                break
    return best[n]


def _split_concealed_kongs(dets: Detections, members: list[int]) -> tuple[list[int], list[list[int]]]:
    """Pull XX a a XX runs out of a run: a concealed kong laid beside the hand."""
    rest, kongs, i = [], [], 0
    codes = [CLASSES[int(dets.codes[k])] for k in members]
    while i < len(members):
        window = codes[i:i + 4]
        if len(window) == 4 and window[0] == window[3] == FACE_DOWN and window[1] == window[2] != FACE_DOWN:
            kongs.append(members[i:i + 4])
            i += 4
        else:
            rest.append(members[i])
            i += 1
    return rest, kongs


def _concealed_likeness(dets: Detections, members: list[int], y: float) -> tuple[bool, bool, int, float]:
    """Rank runs as the concealed hand: 14 - 3k tiles (a pair left over), then not all sets, then long, then near."""
    n = len(members)
    return (n % 3 == 2 and n > 1, n >= 2 and partition(dets, members) is None, n, y)


#: Readings a kong's face-up tile cannot take: a back, not a tile, or a flower or season (a set has one of each).
NOT_A_KONG_FACE = frozenset(CLASSES.index(code) for code in (FACE_DOWN, "NT", *BONUS_CODES))


def one_face_for_a_kong(dets: Detections, b: int, c: int) -> int | None:
    """The playing face in both tiles' top-3 with the largest joint chance, or None when they share none."""
    def playing_faces(i: int) -> dict[int, float]:
        return {int(k): float(p) for k, p in zip(dets.top3[i], dets.top3_p[i]) if k >= 0 and k not in NOT_A_KONG_FACE}

    chance_b, chance_c = playing_faces(b), playing_faces(c)
    shared = chance_b.keys() & chance_c.keys()
    return max(shared, key=lambda k: chance_b[k] * chance_c[k]) if shared else None


def no_likelier_face(dets: Detections, k: int) -> bool:
    """Whether the reader finds "not a tile" at least as likely, for box ``k``, as any face its top-3 names (a back
    or "not a tile" is no face)."""
    xx, nt = CLASSES.index(FACE_DOWN), CLASSES.index("NT")
    chances = dict(zip(dets.top3[k].tolist(), dets.top3_p[k].tolist()))
    face = max((p for c, p in chances.items() if c not in (xx, nt) and c >= 0), default=0.0)
    return bool(chances.get(nt, 0.0) >= face)


def face_down_only_at_kong_ends(dets: Detections) -> Detections:
    """A tile lies face down at the ends of a concealed kong or among other backs: re-read a lone one in a row of three or more.

    A blank white dragon and a tile back look alike to the classifier; where the table says a face-down tile cannot be,
    take the best face among its top-3 (unless "not a tile" is likelier: it stays a back, and ``hand_rows.bare_table``
    takes it for the table between two sets) where that face is the white dragon or the back is read unsurely. A back
    read surely stays a back, for the hand's check to ask the player to turn it: a close-up of a kong's end and two of
    its faces read its yellow back at 0.90 as a season at 0.005. Where a kong's other end is face down, prefer face-down
    for this end if it is among the top-3. The two face-up tiles of a concealed kong are one face: read apart, one of
    them unsurely, both take the face their top-3s share that is likeliest for the pair (``one_face_for_a_kong``), each
    keeping its own chance of it, so the page asks. Kongs are taken left to right, four tiles each, as
    ``_split_concealed_kongs`` takes them: the two tiles between one kong's end and the next kong's start are not a
    kong.
    """
    xx, nt, wd = CLASSES.index(FACE_DOWN), CLASSES.index("NT"), CLASSES.index("WD")
    codes = dets.codes.copy()
    for run in runs(dets):
        kong_ends: set[int] = set()
        for s in range(len(run) - 3):
            a, b, c, d = run[s:s + 4]
            if codes[a] == codes[d] == xx or (codes[b] == codes[c] != xx and (codes[a] == xx or codes[d] == xx)):
                for end in (a, d):
                    if xx in dets.top3[end]:
                        kong_ends.add(end)
        backs = {k for k in run if codes[k] == xx} if sum(codes[k] == xx for k in run) >= 2 else set()
        for k in run:
            if k in kong_ends and codes[k] != xx:
                codes[k] = xx
            elif k not in kong_ends and k not in backs and codes[k] == xx and len(run) >= 3:
                faces = [c for c in dets.top3[k] if c not in (xx, nt) and c >= 0]
                if faces and not no_likelier_face(dets, k) and (faces[0] == wd or dets.confidence[k] < UNSURE_BELOW):
                    codes[k] = faces[0]  # else a patch of table (``hand_rows``) or a back surely read, for the player to turn
        s = 0
        while s < len(run) - 3:
            a, b, c, d = run[s:s + 4]
            if not codes[a] == codes[d] == xx:
                s += 1
                continue
            if xx != codes[b] != codes[c] != xx and min(dets.top3_p[b, 0], dets.top3_p[c, 0]) < UNSURE_BELOW:
                face = one_face_for_a_kong(dets, b, c)
                if face is not None:
                    codes[b] = codes[c] = face
            s += 4
    top3, top3_p = dets.top3.copy(), dets.top3_p.copy()
    for k in np.where(codes != dets.codes)[0]:
        order = sorted(range(3), key=lambda j: top3[k, j] != codes[k])
        top3[k], top3_p[k] = top3[k, order], top3_p[k, order]
    return dets.with_(codes=codes, confidence=top3_p[:, 0].copy(), top3=top3, top3_p=top3_p, face_down=codes == xx)


def group(dets: Detections) -> tuple[Detections, list[Group]]:
    """Assign every tile a group; returns the detections with ``group`` set and the groups."""
    dets = face_down_only_at_kong_ends(dets)
    all_runs = runs(dets)
    if not all_runs:
        return dets, []
    c, pitch = row_frame(dets)
    mh = 1.3 * pitch
    is_bonus = np.array([CLASSES[int(k)] in BONUS_CODES for k in dets.codes], bool)
    playing = [[k for k in r if not is_bonus[k]] for r in all_runs]
    long_runs = [i for i, r in enumerate(playing) if len(r) >= MIN_CONCEALED]
    row_y = [float(np.mean(c[r, 1])) if r else -np.inf for r in playing]
    hand_run = max(range(len(playing)), key=lambda i: _concealed_likeness(dets, playing[i], row_y[i]))
    others_above = any(row_y[i] < row_y[hand_run] - 0.6 * mh for i in long_runs if i != hand_run)
    groups: list[Group] = []

    def add(kind: GroupKind, members: list[int], concealed: bool = False, in_hand: bool = True) -> None:
        if members:
            groups.append(Group(len(groups) + 1, kind, tuple(members), concealed, in_hand))

    bonus = [k for r in all_runs for k in r if is_bonus[k]]
    concealed, kongs = _split_concealed_kongs(dets, playing[hand_run])
    winning: list[int] = []
    leftovers: list[int] = []
    melds: list[tuple[list[int], bool]] = [(k, True) for k in kongs]
    for i, members in enumerate(playing):
        if i == hand_run or not members:
            continue
        if others_above and row_y[i] < row_y[hand_run] - 0.6 * mh:
            add(GroupKind.OTHER, members, in_hand=False)
            continue
        if len(members) == 1 and not winning:
            winning = members
            continue
        parts = partition(dets, members)
        if parts is None:
            leftovers.extend(members)
        else:
            for p in parts:
                codes = [CLASSES[int(dets.codes[k])] for k in p]
                melds.append((p, len(p) == 4 and codes[0] == FACE_DOWN))
    add(GroupKind.CONCEALED, concealed + leftovers, concealed=True)
    for members, hidden in melds:
        meld = _meld_kind(_tiles(dets, members))
        add(GroupKind(meld.kind.value) if meld else GroupKind.OTHER, members, concealed=hidden)
    add(GroupKind.WINNING, winning, concealed=True)
    add(GroupKind.BONUS, bonus)
    gid = np.full(len(dets), -1, np.int64)
    for g in groups:
        gid[list(g.members)] = g.id
    return dets.with_(group=gid), groups
