"""Read the hand again after the player's corrections: their tiles are facts, the decoder chooses the rest.

A photo's first reading is decoded as a whole (``recognizer.decode``), but with a tile missed or misread no winning
hand may be near, and a tile the reader was unsure of keeps its own face. Once the player puts those right, the hand is
another problem: in the sample photo with its 3 of characters missed, #9 keeps the reader's 3B; with the 3C added,
6B makes the chow 5B 6B 7B and the hand wins. So after every correction the hand is read again: each tile the player
set, added or confirmed is pinned to its face (a person's word is final), and each other tile takes the face among the
reader's guesses for it that makes the likeliest legal hand with the pinned ones. The page and ``pungchow photo
--tile/--add`` both read a corrected hand through :func:`reread`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from recognizer.decode import EVERY_BOOKS_SHAPES, Change, Layout, copies_in_a_set, decode
from recognizer.labels import CLASSES
from scoring.arrange import Shape
from scoring.errors import PungChowError
from scoring.tiles import BONUS_CODES


@dataclass(frozen=True)
class HandTile:
    """One tile of the hand as it stands: its number (``id``, as the page and the overlay draw it), its face now, the
    reader's guesses for it (face, probability; empty for a tile typed or added), whether the player set or confirmed
    it (``pinned``), and the set it is laid in (None: in hand)."""

    id: int
    code: str
    guesses: tuple[tuple[str, float], ...] = ()
    pinned: bool = False
    laid_in: int | None = None

    @property
    def fixed(self) -> bool:
        """A tile the decoder may not move: the player's word, or a tile with no guesses to choose from."""
        return self.pinned or not self.guesses


@dataclass(frozen=True)
class Reread:
    """The hand read again: each tile's face by number (``codes``), the tiles read otherwise than the reader's own best
    guess and why (``changes``, one line each), the face the runner-up reading gives a tile where it differs
    (``runner_up``), and whether no winning hand was near the tiles (``kept_own``; ``notes`` say what then)."""

    codes: tuple[tuple[int, str], ...]
    changes: tuple[Change, ...]
    runner_up: tuple[tuple[int, str], ...] = ()
    kept_own: bool = False
    notes: tuple[str, ...] = ()

    def code(self, tile: int) -> str:
        return dict(self.codes)[tile]

    def why(self, tile: int) -> str | None:
        """Why the decoder reads this tile otherwise than the reader did; None when it does not."""
        return next((c.why for c in self.changes if c.tile == tile), None)

    def other(self, tile: int) -> str | None:
        """The face the runner-up reading of the hand gives this tile, where it differs from the reading taken."""
        return dict(self.runner_up).get(tile)


def guesses_of(code: str, confidence: float | None, guesses: Iterable[tuple[str, float]]) -> tuple[tuple[str, float], ...]:
    """A recognised tile's candidates: the reader's guesses, and the face it shows now at the reader's confidence in it
    when the guesses leave it out (a face-down end the top 3 does not list); likeliest first."""
    found = {c: p for c, p in guesses if c in CLASSES}
    if confidence is not None and code not in found:
        found[code] = confidence
    return tuple(sorted(found.items(), key=lambda cp: -cp[1]))


def reread(tiles: Sequence[HandTile], shapes: frozenset[Shape] = EVERY_BOOKS_SHAPES,
           bonus_faces: Iterable[str] = BONUS_CODES) -> Reread:
    """The likeliest legal hand with every fixed tile as it is and every other tile one of its guesses.

    Sets of three or four tiles laid apart are read as sets; the rest of the hand (the concealed tiles, a winning tile
    set apart, flowers and seasons, a claimed set's two tiles) is read as a whole. The changes are told against each
    tile's own best guess, so a tile the decoder moved stays marked until the player vouches for it.
    """
    if len({t.id for t in tiles}) != len(tiles):
        raise PungChowError("two tiles of the hand share a number: number each tile once")
    unknown = sorted({t.code for t in tiles if t.code not in CLASSES})
    if unknown:
        raise PungChowError(f"unknown tile code {unknown[0]!r}: use the notation's codes (1B..9B, EW, RD, 1F, XX, ...)")
    probs = np.zeros((len(tiles), len(CLASSES)))
    for k, t in enumerate(tiles):
        for code, p in ((t.code, 1.0),) if t.fixed else t.guesses:
            probs[k, CLASSES.index(code)] = max(float(p), 1e-6)
    decoding = decode(probs, _layout(tiles), shapes, copies_in_a_set(bonus_faces), names=[f"#{t.id}" for t in tiles])
    best = decoding.best
    runner = decoding.runner_up
    changes = tuple(Change(tiles[c.tile].id, c.was, c.now, c.why) for c in decoding.changes)
    others = tuple((t.id, runner.code(k)) for k, t in enumerate(tiles)
                   if runner is not None and not t.fixed and runner.code(k) != best.code(k))
    return Reread(tuple((t.id, best.code(k)) for k, t in enumerate(tiles)), changes, others, decoding.kept_own, decoding.notes)


def _layout(tiles: Sequence[HandTile]) -> Layout:
    """Sets of three or four laid apart; everything else in hand, read as a whole."""
    laid: dict[int, list[int]] = {}
    for k, t in enumerate(tiles):
        if t.laid_in is not None:
            laid.setdefault(t.laid_in, []).append(k)
    sets = tuple(tuple(members) for members in laid.values() if len(members) in (3, 4))
    apart = {k for s in sets for k in s}
    return Layout(tuple(k for k in range(len(tiles)) if k not in apart), sets)
