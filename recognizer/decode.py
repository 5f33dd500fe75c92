"""Step 4: read the hand, not the tiles one by one.

A photo of a finished hand is one legal hand from one set: four sets and a pair (or a limit hand of the
book's own shape), at most four of any tile, one of each flower and season. Each tile's reading is a
probability over every face; the most probable reading of the whole photo that the rules allow is often
not the tiles' own best faces taken one by one ("7C 7C 7C 7C 7C" cannot be; "1C 1C 7C" beside them is a pung
misread). The decoder finds that reading and the runner-up, and says which tiles it changed and why.

A reading's distance from the tiles' own is the log of how many times less likely it is (the tiles' losses,
``log p(own face) - log p(face read)``, summed). Readings farther than ``NEAR`` are not considered: when no legal
hand is that near, the tiles keep their own faces (only the count rule is applied) and the decoder says so.
The search is exact among each tile's ``CANDIDATES`` likeliest faces within ``NEAR`` (branch and bound: a
reading is dropped once its loss reaches the runner-up's).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import lru_cache
from itertools import combinations
from typing import Any

import numpy as np

from recognizer.detections import UNSURE_BELOW, Detections
from recognizer.group import Group, clusters, in_the_hand, row_frame
from recognizer.labels import CLASSES, FACE_DOWN, NOT_A_TILE
from scoring.arrange import HEAD_KINDS, Shape
from scoring.tiles import BONUS_CODES, COPIES_OF_A_TILE, PLAYING_CODES

#: A legal reading at most this many times less likely than the tiles' own (log of 1000) is near enough to take.
NEAR = math.log(1000.0)
#: Faces considered per tile, its likeliest first.
CANDIDATES = 6
#: Search steps (``_Search.steps``: each node the search visits, each choice it tries, each tile it orders) the
#: search may take before it stops and keeps what it found (``Decoding.complete`` then says so); the fallbacks when
#: no hand is near take a quarter of it each. Steps, not time, so the same probabilities read the same on any machine
#: however busy: a budget of processor time read 134 of the 1922 illustration's tiles right at 1.6x under load and
#: 142 on a quiet machine. Measured on the 635 decodings of bench/bench_decoder_photos.py, bench/bench_decoder.py
#: (300 hands) and tests/test_recognizer_calibration.py's 1922 photos, 2 cores: a step costs 0.4-1.8 us (median 0.83)
#: where searches run long; at 12000 steps (about 10 ms, at most ~22, as under the 12 ms of processor time this
#: replaces) all 635 read as that clock read them on a quiet machine. The 1922 illustration at 2.2x reads 2 tiles
#: fewer right below 9000 steps; the book's page49 (52 tiles), read by the leave-one-set-out reader that never saw it,
#: needs 14000 (at 12000 it read 2 tiles fewer, tile F1 0.800 -> 0.764). 16000 leaves a margin over both: a search
#: cut short takes about 13 ms (at most ~30).
BUDGET_STEPS = 16_000

_PLAYING = [CLASSES.index(c) for c in PLAYING_CODES]
_BONUS = frozenset(CLASSES.index(c) for c in BONUS_CODES)
_XX = CLASSES.index(FACE_DOWN)
_NT = CLASSES.index(NOT_A_TILE)
_HEADS = [_PLAYING[i] for i in HEAD_KINDS]


def copies_in_a_set(bonus_faces: Iterable[str] = BONUS_CODES) -> np.ndarray:
    """How many tiles of each class one set holds: four of each playing face, the eight bonus tiles shared evenly
    among the set's bonus faces (one each of the eight flowers and seasons; two each of Harr's four mandarins),
    any number face down (a photo may show a set's backs), and no "not a tile"."""
    faces = [CLASSES.index(c) for c in bonus_faces]
    copies = np.zeros(len(CLASSES), np.int64)
    copies[_PLAYING] = COPIES_OF_A_TILE
    if faces:
        copies[faces] = len(BONUS_CODES) // len(faces)
    copies[_XX] = len(PLAYING_CODES) * COPIES_OF_A_TILE + len(BONUS_CODES)
    return copies


class Unit(str, Enum):
    """What a few tiles of a reading make together."""

    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    PAIR = "pair"
    SINGLE = "single"
    """One head of thirteen different heads."""
    BONUS = "bonus"
    LOOSE = "loose"
    """A tile of a hand that is not complete: only the count rule binds it."""


_SETS = (Unit.CHOW, Unit.PUNG, Unit.KONG)


class HandShape(str, Enum):
    """The shape a reading of the whole photo takes."""

    STANDARD = "four sets and a pair"
    THIRTEEN_HEADS = "thirteen different heads, one paired"
    SEVEN_PAIRS = "seven pairs"
    COUNT_RULE = "the tiles' own faces, at most four of each"


@dataclass(frozen=True)
class Layout:
    """What the photo shows apart: ``sets``, each one set laid out left to right (a declared chow, pung or kong; a
    concealed kong with face-down ends), ``bonus``, and ``loose``, the tiles left to read as a whole (the concealed
    hand, the winning tile, tiles that may be flowers or seasons). Indices are the detections'."""

    loose: tuple[int, ...]
    sets: tuple[tuple[int, ...], ...] = ()
    bonus: tuple[int, ...] = ()
    """Tiles laid aside as flowers and seasons: each is one, which one its reading among the eight says."""

    @property
    def placed(self) -> set[int]:
        """Every tile the layout reads: loose, in a set, or laid aside as a bonus tile."""
        return set(self.loose + self.bonus) | {t for s in self.sets for t in s}


@dataclass(frozen=True)
class Change:
    """A tile the decoder read as another face than its own best, and why."""

    tile: int
    was: str
    now: str
    why: str

    def __str__(self) -> str:
        return f"tile {self.tile}: {self.was} -> {self.now}, {self.why}"

    def to_json(self) -> dict[str, Any]:
        return {"tile": self.tile, "from": self.was, "to": self.now, "why": self.why}


@dataclass(frozen=True)
class HandReading:
    """One reading of the photo: a face for every tile read (``codes``, by detection index), the shape the faces make,
    how many times less likely it is than the tiles' own (``log_ratio``, natural log), and the units it splits into
    (kind, faces, tiles)."""

    codes: tuple[int, ...]
    shape: HandShape
    log_ratio: float
    units: tuple[tuple[Unit, tuple[int, ...], tuple[int, ...]], ...] = ()

    def code(self, tile: int) -> str:
        return CLASSES[self.codes[tile]]

    def __str__(self) -> str:
        sets = [" ".join(CLASSES[c] for c in faces) for kind, faces, _ in self.units if kind is not Unit.LOOSE]
        loose = [CLASSES[c] for kind, faces, _ in self.units if kind is Unit.LOOSE for c in faces]
        return " | ".join(sets + ([" ".join(loose)] if loose else []))

    def to_json(self) -> dict[str, Any]:
        return {"reading": str(self), "shape": self.shape.value, "log_ratio": round(self.log_ratio, 3),
                "times_less_likely": round(math.exp(min(self.log_ratio, 700.0)), 2)}


@dataclass(frozen=True)
class Decoding:
    """The decoder's answer: the reading taken (``best``), the runner-up, the tiles it changed, whether it kept the
    tiles' own faces for want of a legal hand near them (``kept_own``), and how long it took."""

    best: HandReading
    runner_up: HandReading | None
    changes: tuple[Change, ...]
    kept_own: bool
    ms: float
    complete: bool = True
    """False when the search ran out of its steps (``BUDGET_STEPS``) before proving its answer the likeliest."""
    steps: int = 0
    """The search steps taken, the fallbacks' included: what the budget counts."""
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {
            "shape": self.best.shape.value,
            "reading": str(self.best),
            "log_ratio": round(self.best.log_ratio, 3),
            "changes": [c.to_json() for c in self.changes],
            "runner_up": self.runner_up.to_json() if self.runner_up else None,
            "kept_own": self.kept_own,
            "notes": list(self.notes),
            "ms": round(self.ms, 2),
        }


def _unit_faces() -> dict[Unit, list[tuple[int, ...]]]:
    """Every chow, pung, kong and pair of playing faces, as class indices."""
    suits = [_PLAYING[s * 9:(s + 1) * 9] for s in range(3)]
    return {
        Unit.CHOW: [tuple(suit[r:r + 3]) for suit in suits for r in range(7)],
        Unit.PUNG: [(c,) * 3 for c in _PLAYING],
        Unit.KONG: [(c,) * 4 for c in _PLAYING],
        Unit.PAIR: [(c,) * 2 for c in _PLAYING],
    }


_UNIT_FACES = _unit_faces()


#: A reading's units: (kind, faces, tiles) each.
Units = tuple[tuple[Unit, tuple[int, ...], tuple[int, ...]], ...]
#: A reading as the search keeps it: (tile, face) for every tile read.
Faces = tuple[tuple[int, int], ...]


@dataclass
class _Search:
    """Branch and bound: the two least-loss distinct readings within ``cap``. ``candidates`` each tile's faces,
    least loss first."""

    candidates: list[list[tuple[float, int]]]
    copies: list[int]
    every: np.ndarray
    """(N, C) each tile's loss for every face it may be (``_losses``): the count rule's exact reading weighs them all,
    since a face read too often must go somewhere, and the likeliest few may all be full."""
    cap: float = NEAR
    found: dict[Faces, tuple[float, HandShape, Units]] = field(default_factory=dict)
    bound: float = NEAR
    allowed: int = BUDGET_STEPS
    steps: int = 0
    """Steps taken by this search: the loops count each choice tried, ``out_of_steps`` each node visited."""
    stopped: bool = False
    earlier: int = 0
    """Steps taken by the searches before this one (the fallbacks start afresh)."""
    solved: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[np.ndarray, float, int] | None] = field(default_factory=dict)
    """``least_under_the_count_rule``'s answers, by (the tiles, sorted; the room of each face)."""

    def least(self, tiles: Sequence[int], room: np.ndarray) -> tuple[dict[int, int], float, int] | None:
        """``least_under_the_count_rule`` for these tiles and room (each tile's face, the loss, the moves), solved once
        per search: the fallback asks it of the whole photo before it reads it."""
        key = (tuple(sorted(tiles)), tuple(int(r) for r in room))
        if key not in self.solved:
            self.solved[key] = least_under_the_count_rule(self.every[list(key[0])], room)
        least = self.solved[key]
        if least is None:
            return None
        return dict(zip(key[0], (int(f) for f in least[0]))), least[1], least[2]

    def out_of_steps(self) -> bool:
        """Count a node visited; whether the steps allowed are spent (the search then stops where it is)."""
        self.steps += 1
        self.stopped = self.stopped or self.steps > self.allowed
        return self.stopped

    def restart(self, allowed: int) -> None:
        """A fresh count of ``allowed`` steps for the next search (a fallback's)."""
        self.earlier += self.steps
        self.allowed, self.steps, self.stopped = allowed, 0, False

    @classmethod
    def of(cls, loss: np.ndarray, copies: np.ndarray, every: np.ndarray) -> _Search:
        candidates = [sorted((float(row[f]), int(f)) for f in np.flatnonzero(np.isfinite(row))) for row in loss]
        return cls(candidates, [int(c) for c in copies], every)

    def limit(self, cap: float) -> None:
        """Look only at readings less than ``cap`` from the tiles' own."""
        self.cap = cap
        self.bound = min([cap] + ([max(v[0] for v in self.found.values())] if len(self.found) >= 2 else []))

    def offer(self, faces: Faces, loss: float, shape: HandShape, units: Units) -> None:
        """Keep a reading if it is among the two best distinct ones so far; the bound is the second's loss."""
        old = self.found.get(faces)
        if old is not None and old[0] <= loss:
            return
        self.found[faces] = (loss, shape, units)
        if len(self.found) > 2:
            del self.found[max(self.found, key=lambda k: self.found[k][0])]
        if len(self.found) == 2:
            self.bound = min(self.cap, max(v[0] for v in self.found.values()))


def _losses(probs: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """(N, C) losses: ``log p(best) - log p(face)`` for every allowed face, inf for the rest and where the probability
    is 0: a tile the player fixed (probability 1 on its face) is never moved, however many of its face there are."""
    p = np.where(allowed[None, :], probs, 0.0)
    own = probs.max(axis=1, keepdims=True)
    with np.errstate(divide="ignore"):
        loss: np.ndarray = np.maximum(np.log(np.maximum(own, 1e-30)) - np.log(p), 0.0)
    return loss


def _candidates(every: np.ndarray) -> np.ndarray:
    """(N, C) the losses ``every`` (``_losses``) kept for each tile's ``CANDIDATES`` likeliest faces within ``NEAR``,
    inf elsewhere: the faces the search tries."""
    loss: np.ndarray = every.copy()
    order = np.argsort(loss, axis=1)[:, CANDIDATES:]
    np.put_along_axis(loss, order, np.inf, axis=1)
    loss[loss > NEAR] = np.inf
    return loss


_PERMS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
_CHOWS = np.array(_UNIT_FACES[Unit.CHOW])
_SAME = np.array(_PLAYING)


def _set_choices(loss: np.ndarray, tiles: tuple[int, ...]) -> list[tuple[float, Unit, tuple[int, ...], tuple[int, ...]]]:
    """The sets a laid-out group of 3 or 4 tiles can be, least loss first: (loss, kind, the set's faces, each tile's
    face in the group's order). A set lies either way, so a chow's tiles may take its faces in any order; a
    concealed kong's ends are its face-down tiles."""
    sub = loss[list(tiles)]
    found: list[tuple[float, Unit, tuple[int, ...], tuple[int, ...]]] = []
    if len(tiles) == 3:
        pungs = sub[:, _SAME].sum(axis=0)
        found += [(float(pungs[k]), Unit.PUNG, (int(c),) * 3, (int(c),) * 3) for k, c in enumerate(_SAME)]
        by_order = np.stack([sub[0, _CHOWS[:, p[0]]] + sub[1, _CHOWS[:, p[1]]] + sub[2, _CHOWS[:, p[2]]] for p in _PERMS])
        best = by_order.argmin(axis=0)
        for k, chow in enumerate(_CHOWS):
            p = _PERMS[int(best[k])]
            found.append((float(by_order[best[k], k]), Unit.CHOW, tuple(int(c) for c in chow), tuple(int(chow[i]) for i in p)))
    elif len(tiles) == 4:
        kongs = sub[:, _SAME].sum(axis=0)
        hidden = sub[0, _XX] + sub[3, _XX] + sub[1, _SAME] + sub[2, _SAME]
        found += [(float(kongs[k]), Unit.KONG, (int(c),) * 4, (int(c),) * 4) for k, c in enumerate(_SAME)]
        found += [(float(hidden[k]), Unit.KONG, (_XX, int(c), int(c), _XX), (_XX, int(c), int(c), _XX)) for k, c in enumerate(_SAME)]
    return sorted((f for f in found if f[0] < NEAR), key=lambda f: f[0])


@dataclass(frozen=True)
class _Need:
    """How many units of each kind the loose tiles must make, and whether no face may repeat among them."""

    shape: HandShape
    counts: tuple[tuple[Unit, int], ...]
    distinct: bool = False


def _needs(sets_laid: int, shapes: frozenset[Shape]) -> list[_Need]:
    """The shapes a hand with ``sets_laid`` sets laid out may complete."""
    needs = [_Need(HandShape.STANDARD, ((Unit.PAIR, 1), (Unit.CHOW, 4 - sets_laid)))] if sets_laid <= 4 else []
    if sets_laid == 0 and Shape.THIRTEEN_HEADS in shapes:
        needs.append(_Need(HandShape.THIRTEEN_HEADS, ((Unit.PAIR, 1), (Unit.SINGLE, 12)), distinct=True))
    if sets_laid == 0 and Shape.SEVEN_PAIRS in shapes:
        needs.append(_Need(HandShape.SEVEN_PAIRS, ((Unit.PAIR, 7),), distinct=True))
    return needs


@lru_cache(maxsize=16)
def _loose_units(need: _Need) -> dict[int, list[tuple[Unit, tuple[int, ...], tuple[tuple[int, int], ...]]]]:
    """For each face, the units holding it that the shape allows: the unit's kind, its faces (that face first) and
    how many of each face it takes."""
    kinds = {kind for kind, _ in need.counts}
    units: list[tuple[Unit, tuple[int, ...]]] = []
    if Unit.CHOW in kinds:  # "sets": chows, pungs and kongs share the one count
        units += [(k, f) for k in _SETS for f in _UNIT_FACES[k]]
    if Unit.PAIR in kinds:
        heads = set(_HEADS)
        units += [(Unit.PAIR, f) for f in _UNIT_FACES[Unit.PAIR] if need.shape is not HandShape.THIRTEEN_HEADS or f[0] in heads]
    if Unit.SINGLE in kinds:
        units += [(Unit.SINGLE, (h,)) for h in _HEADS]
    by_face: dict[int, list[tuple[Unit, tuple[int, ...], tuple[tuple[int, int], ...]]]] = {}
    for kind, faces in units:
        for face in set(faces):
            others = list(faces)
            others.remove(face)
            by_face.setdefault(face, []).append((kind, (face, *others), tuple((f, faces.count(f)) for f in set(faces))))
    for b in _BONUS:
        by_face.setdefault(b, []).append((Unit.BONUS, (b,), ((b, 1),)))
    return by_face


def _search_loose(search: _Search, loose: Sequence[int], need: _Need, start: float, counts: list[int],
                  laid: Units, laid_faces: dict[int, int]) -> None:
    """Every split of the loose tiles into the shape's units within the bound, each complete one offered. The
    first tile not yet in a unit (the surest first) anchors the next unit; its other tiles are taken in order, so
    no unit is built twice from one set of tiles."""
    cand, copies = search.candidates, search.copies
    second = {t: _second(cand[t]) for t in loose}
    order = sorted(loose, key=lambda t: (len(cand[t]), -second[t]))
    search.steps += len(order)
    position = {t: i for i, t in enumerate(order)}
    holders: dict[int, list[tuple[float, int]]] = {}  # the tiles that may show each face, least loss first
    for t in order:
        for cost, face in cand[t]:
            holders.setdefault(face, []).append((cost, t))
    for tiles in holders.values():
        tiles.sort()
    by_face = _loose_units(need)
    left = dict(need.counts)
    wanted = [left.get(Unit.CHOW, 0), left.get(Unit.PAIR, 0), left.get(Unit.SINGLE, 0)]  # sets, pairs, single heads
    slot = {Unit.CHOW: 0, Unit.PUNG: 0, Unit.KONG: 0, Unit.PAIR: 1, Unit.SINGLE: 2}
    bonus_room = [sum(copies[b] - counts[b] for b in _BONUS)]
    taken: dict[int, int] = {}
    units: list[tuple[Unit, tuple[int, ...], tuple[int, ...]]] = []
    used_kinds: set[int] = set()
    n = len(order)

    def step(done: float, cursor: int) -> None:
        if search.out_of_steps():
            return
        while cursor < n and order[cursor] in taken:
            cursor += 1
        if cursor == n:
            if wanted == [0, 0, 0]:
                faces = dict(laid_faces)
                faces.update(taken)
                search.offer(tuple(sorted(faces.items())), done, need.shape, laid + tuple(units))
            return
        remaining = n - len(taken)
        least = 3 * wanted[0] + 2 * wanted[1] + wanted[2]
        if not least <= remaining <= least + wanted[0] + bonus_room[0]:
            return
        must_change = not _completes(tuple(own_left), tuple(wanted), need.shape, bonus_room[0])
        if must_change and done + min(second[t] for t in order[cursor:] if t not in taken) >= search.bound:
            return
        anchor = order[cursor]
        for first, face in cand[anchor]:
            if done + first >= search.bound:
                break
            if need.distinct and face in used_kinds:
                continue
            for kind, shown, takes in by_face.get(face, ()):
                search.steps += 1
                if kind is not Unit.BONUS and not wanted[slot[kind]]:
                    continue
                if any(counts[f] + k > copies[f] for f, k in takes):
                    continue
                fill(done + first, cursor, kind, shown, 1, [anchor])
                if search.stopped:
                    return

    def fill(done: float, cursor: int, kind: Unit, faces: tuple[int, ...], k: int, members: list[int]) -> None:
        if done >= search.bound or search.out_of_steps():
            return
        if k < len(faces):
            face = faces[k]
            after = position[members[-1]] if k > 1 and faces[k - 1] == face else cursor
            for cost, t in holders.get(face, ()):
                search.steps += 1
                if done + cost >= search.bound:
                    break
                if position[t] <= after or t in taken or t in members:
                    continue
                fill(done + cost, cursor, kind, faces, k + 1, members + [t])
                if search.stopped:
                    return
            return
        for t, f in zip(members, faces):
            taken[t] = f
            own_left[cand[t][0][1]] -= 1
        for f in faces:
            counts[f] += 1
        if kind is Unit.BONUS:
            bonus_room[0] -= 1
        else:
            wanted[slot[kind]] -= 1
        if need.distinct:
            used_kinds.add(faces[0])
        units.append((kind, faces, tuple(members)))
        step(done, cursor + 1)
        units.pop()
        if need.distinct:
            used_kinds.discard(faces[0])
        if kind is Unit.BONUS:
            bonus_room[0] += 1
        else:
            wanted[slot[kind]] += 1
        for f in faces:
            counts[f] -= 1
        for t in members:
            del taken[t]
            own_left[cand[t][0][1]] += 1

    own_left = [0] * len(CLASSES)
    for t in order:
        own_left[cand[t][0][1]] += 1
    step(start, 0)


def _second(candidates: list[tuple[float, int]]) -> float:
    """The least a tile's reading can move off its own face."""
    return candidates[1][0] if len(candidates) > 1 else math.inf


@lru_cache(maxsize=65536)
def _completes(faces: tuple[int, ...], wanted: tuple[int, int, int], shape: HandShape, bonus_room: int) -> bool:
    """Whether tiles of these faces (a count per class) make the units still wanted (sets, pairs, single heads)
    and bonus tiles: the search's test of the tiles' own faces, the count rule aside."""
    sets, pairs, singles = wanted
    bonus = sum(faces[b] for b in _BONUS)
    if bonus > bonus_room or any(faces[b] > 1 for b in _BONUS) or faces[_XX] or faces[_NT]:
        return False
    playing = [faces[c] for c in _PLAYING]
    if shape is HandShape.SEVEN_PAIRS:
        return all(k in (0, 2) for k in playing) and playing.count(2) == pairs
    if shape is HandShape.THIRTEEN_HEADS:
        heads = [faces[c] for c in _HEADS]
        return sum(playing) == sum(heads) and all(k <= 2 for k in heads) and heads.count(2) == pairs and heads.count(1) == singles
    return _sets_and_pairs(tuple(playing), sets, pairs)


@lru_cache(maxsize=65536)
def _sets_and_pairs(counts: tuple[int, ...], sets: int, pairs: int) -> bool:
    """Whether playing-face counts split into exactly ``sets`` chows, pungs or kongs and ``pairs`` pairs."""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return sets == 0 and pairs == 0
    c = list(counts)
    for size, kind_sets, kind_pairs in ((3, 1, 0), (4, 1, 0), (2, 0, 1)):
        if c[i] >= size and sets >= kind_sets and pairs >= kind_pairs:
            c[i] -= size
            if _sets_and_pairs(tuple(c), sets - kind_sets, pairs - kind_pairs):
                return True
            c[i] += size
    if sets and i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        return _sets_and_pairs(tuple(c), sets - 1, pairs)
    return False


#: A chain of moves counts as cheaper only by more than this: rounding in the losses' sums is not a saving.
NO_SHORTER = 1e-12


def least_under_the_count_rule(loss: np.ndarray, room: np.ndarray) -> tuple[np.ndarray, float, int] | None:
    """The faces (one per row of ``loss``, (T, C) each tile's loss for each face, inf where it may not be read so) of
    least total loss such that no face ``c`` is read more than ``room[c]`` times; with that loss and the moves it took.
    None when no such reading exists.

    Each tile starts at its own least-loss face; while a face is read too often, one tile's worth is moved along the
    cheapest chain of moves (a tile of face a read as b, a tile of b read as c, ... until a face with room) found by
    Bellman-Ford over the faces (successive shortest paths: every step keeps the reading the least for what has been
    placed, so the last is the least of all). Exact, and about 10 ms for a whole set's 150 tiles misread on 24 (at most
    ~50), where a search of the readings one tile at a time is cut short long before it proves one. A chain that
    rounding error turns into a loop reads None, as no reading would."""
    tiles, faces = loss.shape
    if tiles and not np.isfinite(loss).any(axis=1).all():
        return None
    face = loss.argmin(axis=1) if tiles else np.zeros(0, np.int64)
    load = np.bincount(face, minlength=faces)
    rows, columns = np.arange(tiles), np.arange(faces)
    moves = 0
    while (over := np.flatnonzero(load > room)).size:
        extra = loss - loss[rows, face][:, None]  # what moving each tile from its face to another costs
        edge = np.full((faces, faces), np.inf)
        by_face = np.argsort(face, kind="stable")
        held, first = np.unique(face[by_face], return_index=True)
        edge[held] = np.minimum.reduceat(extra[by_face], first, axis=0)
        dist = np.full(faces, np.inf)
        came = np.full(faces, -1)
        dist[over[0]] = 0.0
        for _ in range(faces):
            through = dist[:, None] + edge
            best_from = through.argmin(axis=0)
            best = through[best_from, columns]
            shorter = best < dist - NO_SHORTER
            if not shorter.any():
                break
            dist[shorter] = best[shorter]
            came[shorter] = best_from[shorter]
        free = np.flatnonzero((load < room) & np.isfinite(dist))
        if not free.size:
            return None
        to = int(free[np.argmin(dist[free])])
        walked = {to}
        while to != over[0]:
            a = int(came[to])
            if a < 0 or a in walked:  # a chain gone round in rounding error: read nothing rather than loop
                return None
            walked.add(a)
            mover = int(np.flatnonzero(face == a)[np.argmin(extra[face == a, to])])
            face[mover] = to
            load[a] -= 1
            load[to] += 1
            to = a
        moves += 1
    return face, float(loss[rows, face].sum()), moves


def _search_count_rule(search: _Search, tiles: Sequence[int], counts: list[int], start: float,
                       laid: Units, laid_faces: dict[int, int]) -> None:
    """Each tile its likeliest face such that no face is read more often than a set holds it: the least such reading
    (``least_under_the_count_rule``, exact) first, then the search for a runner-up, the surest tiles taken first, as
    long as its steps last."""
    cand, copies = search.candidates, search.copies
    order = sorted(tiles, key=lambda t: -_second(cand[t]))
    taken: dict[int, int] = {}
    search.steps += len(order)
    least = search.least(order, np.array(copies) - np.array(counts))
    if least is None:
        return
    faces, total, moves = least
    search.steps += moves

    def offer(loose: dict[int, int], loss: float) -> None:
        every = dict(laid_faces)
        every.update(loose)
        search.offer(tuple(sorted(every.items())), loss, HandShape.COUNT_RULE,
                     laid + tuple((Unit.LOOSE, (loose[t],), (t,)) for t in tiles))

    if start + total < search.bound:
        offer(faces, start + total)

    def step(done: float, k: int) -> None:
        if search.out_of_steps():
            return
        if k == len(order):
            offer(taken, done)
            return
        t = order[k]
        for cost, face in cand[t]:
            search.steps += 1
            if done + cost >= search.bound:
                break
            if counts[face] >= copies[face]:
                continue
            counts[face] += 1
            taken[t] = face
            step(done + cost, k + 1)
            counts[face] -= 1
            del taken[t]
            if search.stopped:
                return

    step(start, 0)


#: The search looks this near first, and farther only when it has not found two readings: a hand misread on a tile
#: or two is proved with little search.
CAPS = (1.0, 3.0, NEAR)


def decode(probs: np.ndarray, layout: Layout, shapes: frozenset[Shape] = frozenset({Shape.THIRTEEN_HEADS, Shape.SEVEN_PAIRS}),
           copies: np.ndarray | None = None, own: np.ndarray | None = None, budget: int = BUDGET_STEPS,
           names: Sequence[str] | None = None) -> Decoding:
    """The likeliest legal reading of the photo's tiles, and the runner-up.

    ``probs`` (N, len(CLASSES)) each tile's probabilities; ``layout`` which tiles lie as sets and which are read as a
    whole; ``shapes`` the limit hands of the chosen book that are not four sets and a pair; ``copies`` how many of each
    face the set holds (``copies_in_a_set``); ``own`` the faces the tiles were read as before (default: each tile's
    likeliest), against which the changes are told; ``budget`` the search steps it may take (``BUDGET_STEPS``; the
    fallbacks a quarter each), so the same probabilities always give the same reading; ``names`` how a change's
    reason names the other tiles of its set (default: their indices). Tiles in no part of the layout are read last,
    with the room the hand leaves (``_with_the_rest``).
    """
    started = time.perf_counter()
    copies = copies_in_a_set() if copies is None else copies
    own = probs.argmax(axis=1) if own is None else np.asarray(own)
    every = _losses(probs, copies > 0)
    loss = _candidates(every)
    search = _Search.of(loss, copies, every)
    search.restart(budget)
    needs = _needs(len(layout.sets), shapes) if _may_be_complete(layout, copies) else []
    choices = _laid_choices(loss, probs, layout, copies)
    for cap in CAPS:
        search.limit(cap)
        def loose(counts: list[int], done: float, laid: Units, faces: dict[int, int]) -> None:
            for need in needs:
                _search_loose(search, layout.loose, need, done, counts, laid, faces)

        _search_sets(search, choices, layout, loose)
        if len(search.found) >= 2:
            break
    kept_own = bool(needs) and not search.found
    rest_joins = True
    notes: list[str] = []
    if not search.found and (layout.sets or layout.bonus):  # no whole hand: each set laid apart is still a set
        search.limit(NEAR)
        search.restart(budget // 4)
        _search_sets(search, choices, layout, lambda counts, done, laid, faces: _search_count_rule(
            search, layout.loose, counts, done, laid, faces))
    if not search.found:
        search.limit(math.inf)
        search.restart(budget // 4)
        placed = layout.placed
        rest = tuple(t for t in range(len(probs)) if t not in placed)
        rest_joins = _one_set(search, sorted(placed), copies)
        everyone = tuple(sorted(placed)) + (rest if rest_joins else ())
        _search_count_rule(search, everyone, [0] * len(CLASSES), 0.0, (), {})
    if kept_own:
        notes.append(f"no winning hand is within {math.exp(NEAR):.0f} times the tiles' own reading: the tiles keep their own "
                     "faces (at most four of each; a set laid apart read as a set); check the tiles the reader is unsure of")
    ranked = sorted(search.found.items(), key=lambda kv: kv[1][0])
    readings = [_reading(faces, v, own) for faces, v in ranked]
    if not readings:  # no reading within reach even tile by tile: every tile as read
        units = tuple((Unit.LOOSE, (int(own[t]),), (t,)) for t in range(len(own)))
        readings = [HandReading(tuple(int(c) for c in own), HandShape.COUNT_RULE, 0.0, units)]
    if rest_joins:
        readings = [_with_the_rest(r, search, layout, copies) for r in readings]
    best = readings[0]
    named = list(names) if names is not None else [str(t) for t in range(len(own))]
    changes = tuple(_why(t, int(own[t]), best, probs, copies, named) for t in range(len(own)) if best.codes[t] != own[t])
    return Decoding(best, readings[1] if len(readings) > 1 else None, changes, kept_own, (time.perf_counter() - started) * 1000,
                    complete=not search.stopped, steps=search.earlier + search.steps, notes=tuple(notes))


def _one_set(search: _Search, placed: Sequence[int], copies: np.ndarray) -> bool:
    """Whether the photo's other tiles can be of the hand's set: the count rule read over every tile in the photo is
    within ``NEAR`` of it read over the hand's alone. A set sold laid out, or a table's four hands, is one set, and
    its tiles a little misread cost little to keep to its count; a printed page of hands composed apart (Harr's
    page 47 shows seven 9C, six 8C, each read surely) would cost far more, and its tiles are read as they are."""
    everyone = search.least(range(len(search.every)), copies)
    hand = search.least(placed, copies)
    return everyone is not None and hand is not None and everyone[1] - hand[1] <= NEAR


def _with_the_rest(reading: HandReading, search: _Search, layout: Layout, copies: np.ndarray) -> HandReading:
    """The reading with the photo's other tiles (other hands on the table, a whole set laid out, tiles set aside) read
    too: all may be of one set, so they share its count of each face with the hand. The hand is read first; the rest
    take the least-loss faces the room it leaves allows (``least_under_the_count_rule``) when that is within ``NEAR``
    of their own (``_one_set``'s reason); otherwise, or where no such reading exists, they keep their own. The
    reading's ``log_ratio`` and units stay the hand's: the rest are no part of the hand that was weighed."""
    placed = layout.placed
    rest = [t for t in range(len(reading.codes)) if t not in placed]
    if not rest:
        return reading
    room = copies - np.bincount([reading.codes[t] for t in placed], minlength=len(copies))
    least = search.least(rest, np.maximum(room, 0))
    if least is None or least[1] > NEAR:
        return reading
    codes = list(reading.codes)
    for t, face in least[0].items():
        codes[t] = face
    return HandReading(tuple(codes), reading.shape, reading.log_ratio, reading.units)


def _may_be_complete(layout: Layout, copies: np.ndarray) -> bool:
    """Whether the tiles are enough, and not too many, for a winning hand."""
    sets = len(layout.sets)
    if sets > 4:
        return False
    n = len(layout.loose)
    bonus = int(sum(copies[b] for b in _BONUS)) - len(layout.bonus)
    return 3 * (4 - sets) + 2 <= n <= 4 * (4 - sets) + 2 + bonus


def _bonus_choices(probs: np.ndarray, tile: int, copies: np.ndarray) -> list[tuple[float, Unit, tuple[int, ...], tuple[int, ...]]]:
    """The flowers and seasons a tile laid aside as one can be, least loss first (against its likeliest of them)."""
    faces = [b for b in sorted(_BONUS) if copies[b] > 0]
    p = np.maximum(probs[tile, faces], 1e-30)
    loss = np.log(p.max()) - np.log(p)
    return sorted((float(v), Unit.BONUS, (f,), (f,)) for v, f in zip(loss, faces) if v < NEAR)


Choices = list[list[tuple[float, Unit, tuple[int, ...], tuple[int, ...]]]]


def _laid_choices(loss: np.ndarray, probs: np.ndarray, layout: Layout, copies: np.ndarray) -> Choices:
    """What each laid-out set, then each bonus tile laid aside, can be."""
    return [_set_choices(loss, s) for s in layout.sets] + [_bonus_choices(probs, t, copies) for t in layout.bonus]


def _search_sets(search: _Search, choices: Choices, layout: Layout,
                 then: Callable[[list[int], float, Units, dict[int, int]], None]) -> None:
    """Choose a set for each laid-out group, and a face for each bonus tile laid aside (least loss first, within the
    bound), then read the loose tiles."""
    groups = list(layout.sets) + [(t,) for t in layout.bonus]
    counts = [0] * len(CLASSES)
    laid: list[tuple[Unit, tuple[int, ...], tuple[int, ...]]] = []
    faces: dict[int, int] = {}

    def step(k: int, done: float) -> None:
        if search.out_of_steps():
            return
        if k == len(choices):
            then(counts, done, tuple(laid), dict(faces))
            return
        for cost, kind, shown, each in choices[k]:
            search.steps += 1
            if done + cost >= search.bound:
                break
            if any(counts[f] + shown.count(f) > search.copies[f] for f in shown):
                continue
            for f in shown:
                counts[f] += 1
            laid.append((kind, shown, groups[k]))
            faces.update(zip(groups[k], each))
            step(k + 1, done + cost)
            laid.pop()
            for f in shown:
                counts[f] -= 1
            if search.stopped:
                return

    step(0, 0.0)


def _reading(faces: Faces, value: tuple[float, HandShape, Units], own: np.ndarray) -> HandReading:
    loss, shape, units = value
    codes = [int(c) for c in own]
    for t, c in faces:
        codes[t] = c
    return HandReading(tuple(codes), shape, loss, units)


def _why(tile: int, was: int, reading: HandReading, probs: np.ndarray, copies: np.ndarray, names: Sequence[str]) -> Change:
    """Say why a tile was read as another face: the set it completes, or the count rule."""
    now = reading.codes[tile]
    odds = f"{CLASSES[now]} read at {probs[tile, now]:.2f} against {probs[tile, was]:.2f}"
    for kind, faces, members in reading.units:
        if tile not in members:
            continue
        if kind is Unit.LOOSE:
            return _loose_why(tile, was, now, reading, probs, copies, odds)
        if kind is Unit.BONUS:
            return Change(tile, CLASSES[was], CLASSES[now], f"a set holds {int(copies[now])} of each flower and season ({odds})")
        others = [names[m] for m in sorted(members) if m != tile]
        shown = " ".join(CLASSES[f] for f in (sorted(faces) if kind is Unit.CHOW else faces))
        return Change(tile, CLASSES[was], CLASSES[now],
                      f"it makes the {kind.value} {shown} with tile{'s' if len(others) > 1 else ''} {', '.join(others)} "
                      f"({reading.shape.value}; {odds})")
    return _loose_why(tile, was, now, reading, probs, copies, odds)  # a tile outside the hand


def _loose_why(tile: int, was: int, now: int, reading: HandReading, probs: np.ndarray, copies: np.ndarray,
               odds: str) -> Change:
    """Why a tile in no set moved: its own face is read as often as a set holds it, or the tiles that look like it
    pulled it (the pipeline decodes the pulled probabilities, ``likeness.pull_alike``, against the tiles' own faces,
    so a tile whose likeliest face is now another was moved by its look-alikes)."""
    if reading.codes.count(was) >= copies[was]:
        return Change(tile, CLASSES[was], CLASSES[now], f"a set holds at most {int(copies[was])} {CLASSES[was]} ({odds})")
    if int(np.argmax(probs[tile])) == now:
        return Change(tile, CLASSES[was], CLASSES[now], f"the tiles that look like it read {CLASSES[now]} ({odds})")
    return Change(tile, CLASSES[was], CLASSES[now], odds)


#: The book shapes other than four sets and a pair that a photo is read for when no book is named: every book's.
EVERY_BOOKS_SHAPES = frozenset({Shape.THIRTEEN_HEADS, Shape.SEVEN_PAIRS})


def layout_of(groups: Sequence[Group]) -> Layout:
    """The layout the grouping found: declared sets (and concealed kongs) apart, the rest of the hand loose; tiles
    of other hands on the table are left out."""
    sets = tuple(g.members for g in groups if g.in_hand and g.kind.is_set and len(g.members) in (3, 4))
    laid = {t for s in sets for t in s}
    loose = tuple(t for g in groups if g.in_hand for t in g.members if t not in laid)
    return Layout(loose, sets)


def read_the_hand(dets: Detections, groups: list[Group], shapes: frozenset[Shape] = EVERY_BOOKS_SHAPES,
                  bonus_faces: Iterable[str] = BONUS_CODES, names: Sequence[str] | None = None
                  ) -> tuple[Detections, list[Group], Decoding | None]:
    """The pipeline's step: the tiles read as the likeliest legal hand (alike tiles pulled together first,
    ``likeness.pull_alike``), grouped again when a tile changed; ``names`` how the reasons name the tiles (their
    numbers on the photo). None when the tiles carry no probabilities."""
    from recognizer.hand_rows import group_again
    from recognizer.likeness import pull_alike

    if not len(dets) or not dets.probs.any():
        return dets, groups, None
    probs = pull_alike(dets.probs.astype(np.float64), dets.embedding)
    decoding = decode(probs, layout_of(groups), shapes, copies_in_a_set(bonus_faces), own=dets.codes, names=names)
    if not decoding.changes:
        return dets, groups, decoding
    codes = np.array(decoding.best.codes, np.int64)
    confidence = dets.probs[np.arange(len(dets)), codes]
    regrouped, groups = group_again(dets.with_(codes=codes, confidence=confidence, face_down=codes == _XX), groups)
    return regrouped, groups, decoding


#: The most of a hand's lone boxes ``whole_without`` sets aside together: a domino's two halves by a hand; two keys
#: side by side and a third two rows below, deep in a keyboard (drawn scene 4008).
EXTRA_BOXES = 3
#: Boxes lying apart from every other tile, this many together at most (``laid_apart``): two keys side by side, a
#: domino's two halves. A kong laid apart is four, its ends never apart from its middle tiles.
APART_TOGETHER = 2
#: A lone box the decoder reads as a face its reader gave under this chance is no tile of the hand but a thing beside it
#: (``whole_without``): the drawn scenes' domino halves, a key and a printed word were made flowers and seasons read at
#: 0.01-0.02, against 0.10-0.63 for what the reader saw; a printed word read as a 4 of bamboo at 0.33 was made a 7 of
#: bamboo at 0.03, the fourth of the hand's three, a kong among its loose tiles (drawn scene 4806).
FACE_UNREAD = 0.05
#: Nor is a flower or season the detector boxed less surely than this and the reader read unsurely (``UNSURE_BELOW``): a playing
#: card's corner below a whole hand, boxed at 0.34 and read as the fourth flower at 0.11 (drawn scene 4408), where the
#: hand's own tiles are boxed at 0.85-0.98.
BARELY_BOXED = 0.5
#: The most of a hand's boxes no tile is seen over that ``whole_without`` weighs setting aside, beside those laid apart:
#: each more is more readings of the hand to try.
UNSEEN_AT_MOST = 4
#: A box whose nearest neighbour's centre is farther than this many tile pitches lies apart from the hand's tiles: a
#: drawn concealed kong's end lay 1.13 pitches from its kong (drawn scene 3609), tiles in a row 1.0-1.15.
APART = 1.5


def whole_without(dets: Detections, groups: list[Group], shapes: frozenset[Shape] = EVERY_BOOKS_SHAPES,
                  bonus_faces: Iterable[str] = BONUS_CODES, names: Sequence[str] | None = None,
                  no_tile_over: Callable[[], np.ndarray] | None = None
                  ) -> tuple[Detections, list[Group], Decoding | None, tuple[int, ...]]:
    """``read_the_hand``; where it reads no whole hand, the hand read again with one, then two, then three
    (``EXTRA_BOXES``), of its boxes laid apart from every tile (``laid_apart``) set aside, the fewest that leave a whole
    hand, the likeliest such reading; and the boxes so set aside. A printed word by the hand joins it as a tile laid
    apart, read as a wind at 0.19, and no hand is whole with it; a domino's blank half three tiles below a whole hand
    is read as a back, and two blank halves above one as white dragons, surely (0.87-0.88, drawn scene 4210: how
    surely a box is read says nothing of whether it is the hand's, where it lies does). The winning tile or a flower
    laid apart is no box too many: without it the hand is a tile short, or it was whole with it, read as a flower. A
    kong's end a little apart from its kong is not laid apart from every tile, and stays (drawn scene 3609: set aside,
    the kong read as a pung made the hand whole). A hand whole only by reading a box laid apart as a flower or a season
    nothing showed there, or as a face its reader all but ruled out (``_made_up``), is no whole hand: a flower counts
    for the winner, and a face the reader did not see there is the decoder's guess, not the photo's.

    ``no_tile_over`` (the pipeline's beside detector) says over which boxes no tile is seen at all. It looks at the
    whole photo again, so it is asked only where the hand is not whole, or holds a flower or season read unsurely, or
    reads four loose tiles as a kong. The hand's boxes no tile is seen over may then be set aside too, wherever they
    lie (``UNSEEN_AT_MOST``); a flower or season read on one, or a loose kong holding one, is made up: a blank domino
    half by the frame's corner read as a fourth white dragon beside the hand's three, a printed word beside the
    flowers read as a season at 0.09 (drawn scenes 4803, 4807)."""
    from recognizer.hand_rows import group_apart

    read = read_the_hand(dets, groups, shapes, bonus_faces, names)
    if read[2] is None:
        return (*read, ())
    alone = laid_apart(dets, groups)
    laid = layout_of(groups)
    loose_kong = _kong_among_loose(read[2], laid)
    unseen: list[int] = []
    if no_tile_over is not None and (read[2].best.shape is HandShape.COUNT_RULE or _unsure_bonus(dets, groups, read[2])
                                     or loose_kong):
        unseen = _unseen(dets, groups, no_tile_over())
        alone = sorted(set(alone) | set(unseen))
    made_up = _made_up(dets, read[2], alone, unseen) or sorted(loose_kong & set(unseen))
    if read[2].best.shape is not HandShape.COUNT_RULE and not made_up:
        return (*read, ())
    aside = tuple(k for g in groups if g.aside for k in g.members)
    copies = copies_in_a_set(bonus_faces)
    for many in range(1, EXTRA_BOXES + 1):
        if not _may_be_complete(replace(laid, loose=laid.loose[many:]), copies):
            continue  # that many fewer tiles are still too many (a whole set laid out), or too few
        whole: list[tuple[float, tuple[Detections, list[Group], Decoding], tuple[int, ...]]] = []
        for extra in combinations(alone, many):
            without = group_apart(dets, tuple(sorted(aside + extra)))
            if not _may_be_complete(layout_of(without[1]), copies):
                continue
            again = read_the_hand(*without, shapes, bonus_faces, names)
            if again[2] is not None and again[2].best.shape is not HandShape.COUNT_RULE \
                    and not _made_up(dets, again[2], [k for k in alone if k not in extra], unseen) \
                    and not _kong_among_loose(again[2], layout_of(without[1])) & set(unseen):
                whole.append((again[2].best.log_ratio, (again[0], again[1], again[2]), extra))
        if whole:
            _, best, extra = min(whole, key=lambda w: w[0])
            return (*best, extra)
    return (*read, ())


def laid_apart(dets: Detections, groups: list[Group]) -> list[int]:
    """The hand's boxes lying apart from every tile, alone or with one other (``APART_TOGETHER``): boxes whose centres
    are within ``APART`` tile pitches of each other lie together, and these lie together with no more. The winning
    tile may lie so, or things beside the hand: a word, a domino's halves, two keys; never a kong's end."""
    held = in_the_hand(groups, len(dets))
    if len(dets) < 2:
        return [int(k) for k in np.flatnonzero(held)]
    c, pitch = row_frame(dets)
    cluster = clusters(np.linalg.norm(c[:, None] - c[None], axis=2) <= APART * pitch)
    size = np.bincount(cluster, minlength=len(dets))
    return [int(k) for k in np.flatnonzero(held & (size[cluster] <= APART_TOGETHER))]


def _made_up(dets: Detections, decoding: Decoding, alone: Sequence[int], unseen: Sequence[int] = ()) -> list[int]:
    """Which of the boxes laid ``alone`` the decoding reads as a face nothing showed there: one their reader all but
    ruled out (``FACE_UNREAD``), however surely it read something else (a back is no tile of a hand but a kong's end,
    so the decoder moves it to any face that fits: a key read as a back at 0.84, drawn scene 4008, was made a flower),
    or a flower or season the detector barely boxed (``BARELY_BOXED``) and the reader read unsurely, or one read on
    a box no tile is seen over at all (``unseen``)."""
    codes = decoding.best.codes
    return [k for k in alone if dets.probs[k, codes[k]] < FACE_UNREAD or (codes[k] in _BONUS and (
        k in unseen or (dets.scores[k] < BARELY_BOXED and dets.confidence[k] < UNSURE_BELOW)))]


def _unsure_bonus(dets: Detections, groups: list[Group], decoding: Decoding) -> bool:
    """Whether the decoding reads any of the hand's boxes as a flower or season its reader was unsure of."""
    codes = decoding.best.codes
    return any(codes[k] in _BONUS and dets.probs[k, codes[k]] < UNSURE_BELOW for k in np.flatnonzero(in_the_hand(groups, len(dets))))


def _kong_among_loose(decoding: Decoding, layout: Layout) -> set[int]:
    """The tiles the decoding reads as a kong among the loose tiles: a hand laid so is a tile too many unless that
    kong was meant (a set's four laid in its row), so one of them may be no tile."""
    loose = set(layout.loose)
    return {t for kind, _, tiles in decoding.best.units if kind is Unit.KONG and loose.issuperset(tiles) for t in tiles}


def _unseen(dets: Detections, groups: list[Group], no_tile: np.ndarray) -> list[int]:
    """The hand's boxes no tile is seen over (``no_tile``), the ``UNSEEN_AT_MOST`` the detector boxed least surely."""
    held = in_the_hand(groups, len(dets)) & no_tile
    least = sorted(np.flatnonzero(held), key=lambda k: float(dets.scores[k]))
    return sorted(int(k) for k in least[:UNSEEN_AT_MOST])


for _laid in range(5):  # the units each shape allows, built once at import rather than in a photo's first decoding
    for _need in _needs(_laid, EVERY_BOOKS_SHAPES):
        _loose_units(_need)
