"""Tiles: 34 kinds, 8 bonus tiles and the face-down tile, in canonical codes.

Canonical codes are the ones the public Hong Kong tile datasets use: ``1B``..``9B`` bamboo,
``1C``..``9C`` characters, ``1D``..``9D`` dots, ``EW SW WW NW`` winds, ``RD GD WD`` dragons,
``1F``..``4F`` flowers, ``1S``..``4S`` seasons and ``XX`` a tile lying face down.
Harr's eight "mandarins" are bonus tiles numbered by wind (1 East ... 4 North), so they take
the flower and season codes.

>>> Tile.parse("5C")
Tile('5C')
>>> str(Tile.parse("rd"))
'RD'
>>> [str(t) for t in parse_mpsz("123m77z")]
['1C', '2C', '3C', 'RD', 'RD']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import cached_property

from scoring.errors import NotationError


class Suit(str, Enum):
    """The families a tile belongs to, named as the books name them."""

    BAMBOO = "B"
    CHARACTERS = "C"
    DOTS = "D"
    WINDS = "W"
    DRAGONS = "DR"
    FLOWERS = "F"
    SEASONS = "S"
    BACK = "X"


NUMBERED_SUITS = (Suit.BAMBOO, Suit.CHARACTERS, Suit.DOTS)


class Wind(str, Enum):
    """A seat or the round: East (the banker) first, then South, West and North in the order of play."""

    EAST = "E"
    SOUTH = "S"
    WEST = "W"
    NORTH = "N"

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    @property
    def word(self) -> str:
        """The wind as a player says it: East, South, West, North."""
        return self.name.title()

    @classmethod
    def parse(cls, text: object, what: str = "wind") -> Wind:
        """``E``/``east`` ... ``N``/``north`` -> the wind; anything else is an error, never a guess."""
        word = text.strip().upper() if isinstance(text, str) else ""
        for wind in cls:
            if word in (wind.value, wind.name):
                return wind
        raise NotationError(f"unknown {what} {text!r}: use E, S, W or N")


#: The winds' letters, East first, in the order of play: the seats and the rounds.
WINDS: tuple[str, ...] = tuple(w.value for w in Wind)
WIND_CODES = ("EW", "SW", "WW", "NW")
DRAGON_CODES = ("RD", "GD", "WD")

#: The 34 playing kinds in canonical order.
PLAYING_CODES: tuple[str, ...] = (
    tuple(f"{n}B" for n in range(1, 10))
    + tuple(f"{n}C" for n in range(1, 10))
    + tuple(f"{n}D" for n in range(1, 10))
    + WIND_CODES
    + DRAGON_CODES
)
#: A set holds four of each playing tile (Harr 1922: 136 playing tiles, 34 kinds).
COPIES_OF_A_TILE = 4
#: The 8 bonus tiles (flowers and seasons; Harr's mandarins).
BONUS_CODES: tuple[str, ...] = tuple(f"{n}F" for n in range(1, 5)) + tuple(f"{n}S" for n in range(1, 5))
FACE_DOWN_CODE = "XX"
#: Every code a tile can carry, in the order the recognizer's classes use.
ALL_CODES: tuple[str, ...] = PLAYING_CODES + BONUS_CODES + (FACE_DOWN_CODE,)

_CODE_RE = re.compile(r"^(?:[1-9][BCD]|[ESWN]W|[RGW]D|[1-4][FS]|XX)$")


@dataclass(frozen=True, order=False)
class Tile:
    """One tile face, identified by its canonical code."""

    code: str

    def __post_init__(self) -> None:
        if not _CODE_RE.match(self.code):
            raise NotationError(
                f"unknown tile code {self.code!r}: use 1B-9B, 1C-9C, 1D-9D, EW SW WW NW, RD GD WD, "
                "1F-4F, 1S-4S or XX"
            )

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read one canonical code, in either case."""
        return cls(text.strip().upper())

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Tile({self.code!r})"

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index

    @cached_property
    def index(self) -> int:
        """Position in :data:`ALL_CODES` (also the recognizer's class index)."""
        return ALL_CODES.index(self.code)

    @cached_property
    def suit(self) -> Suit:
        if self.code == FACE_DOWN_CODE:
            return Suit.BACK
        if self.code in WIND_CODES:
            return Suit.WINDS
        if self.code in DRAGON_CODES:
            return Suit.DRAGONS
        return Suit(self.code[1])

    @property
    def rank(self) -> int | None:
        """1-9 for numbered tiles, 1-4 for bonus tiles (their wind number), else None."""
        if self.suit in NUMBERED_SUITS or self.is_bonus:
            return int(self.code[0])
        return None

    @property
    def is_numbered(self) -> bool:
        return self.suit in NUMBERED_SUITS

    @property
    def is_terminal(self) -> bool:
        """A one or a nine of a numbered suit."""
        return self.is_numbered and self.rank in (1, 9)

    @property
    def is_simple(self) -> bool:
        """A two to eight of a numbered suit."""
        return self.is_numbered and not self.is_terminal

    @property
    def is_wind(self) -> bool:
        return self.suit is Suit.WINDS

    @property
    def is_dragon(self) -> bool:
        return self.suit is Suit.DRAGONS

    @property
    def is_honour(self) -> bool:
        """Winds and dragons: Harr's honor suit."""
        return self.is_wind or self.is_dragon

    @property
    def is_major(self) -> bool:
        """Ones, nines, winds and dragons: the tiles whose sets score double."""
        return self.is_terminal or self.is_honour

    @property
    def is_bonus(self) -> bool:
        return self.suit in (Suit.FLOWERS, Suit.SEASONS)

    @property
    def is_face_down(self) -> bool:
        return self.code == FACE_DOWN_CODE

    @property
    def wind(self) -> str | None:
        """The wind letter of a wind tile, or of a bonus tile by its number."""
        if self.is_wind:
            return self.code[0]
        if self.is_bonus:
            return WINDS[int(self.code[0]) - 1]
        return None

    def next_in_suit(self) -> Tile | None:
        """The tile one higher in a numbered suit (for chows), or None."""
        rank = self.rank
        if not self.is_numbered or rank is None or rank == 9:
            return None
        return Tile(f"{rank + 1}{self.code[1]}")


ALL_TILES: tuple[Tile, ...] = tuple(Tile(c) for c in ALL_CODES)
PLAYING_TILES: tuple[Tile, ...] = tuple(Tile(c) for c in PLAYING_CODES)


def wind_tile(wind: str) -> Tile:
    """The wind tile for a seat or round letter E, S, W or N."""
    letter = wind.strip().upper()[:1]
    if letter not in WINDS:
        raise NotationError(f"unknown wind {wind!r}: use E, S, W or N")
    return Tile(f"{letter}W")


_MPSZ_SUIT = {"m": "C", "p": "D", "s": "B"}
#: The longest hand notation read: a hand with four kongs and eight bonus tiles, bracketed and spaced, is under 120 characters.
MAX_NOTATION_CHARS = 300


def check_notation_length(text: str) -> str:
    """Refuse text far longer than any hand before parsing it (a pasted page, a runaway script)."""
    if len(text) > MAX_NOTATION_CHARS:
        raise NotationError(f"the hand notation is {len(text):,} characters; a hand is written in under {MAX_NOTATION_CHARS}: "
                            "type one hand, e.g. 7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]")
    return text


_MPSZ_HONOUR = {1: "EW", 2: "SW", 3: "WW", 4: "NW", 5: "WD", 6: "GD", 7: "RD"}
_MPSZ_RE = re.compile(r"([0-9]+)([mpsz])")


def parse_mpsz(text: str) -> list[Tile]:
    """Read riichi-style MPSZ notation (``123m456p789s1122z``; z = E S W N white green red).

    A red five written ``0`` reads as a plain five.
    """
    compact = text.replace(" ", "")
    if not compact:
        return []
    pos = 0
    tiles: list[Tile] = []
    for match in _MPSZ_RE.finditer(compact):
        if match.start() != pos:
            break
        digits, suit = match.groups()
        for d in digits:
            n = 5 if d == "0" and suit != "z" else int(d)
            if suit == "z":
                if n not in _MPSZ_HONOUR:
                    raise NotationError(f"MPSZ honour {d}z does not exist: z takes 1-7 (E S W N white green red)")
                tiles.append(Tile(_MPSZ_HONOUR[n]))
            else:
                tiles.append(Tile(f"{n}{_MPSZ_SUIT[suit]}"))
        pos = match.end()
    if pos != len(compact):
        raise NotationError(f"not MPSZ notation near {compact[pos:]!r}: write digits then m, p, s or z")
    return tiles


_CANONICAL_RUN_RE = re.compile(r"^(?:[0-9A-Za-z]{2})+$")
_MPSZ_FULL_RE = re.compile(r"^(?:[0-9]+[mpsz])+$")


def parse_tiles(text: str) -> list[Tile]:
    """Read a run of tiles in canonical codes (``7C8C9C SW``) or in MPSZ (``123m11z``).

    Lower-case m, p, s, z after digits mean MPSZ, so ``123s`` is three bamboo; canonical
    codes are read in either case otherwise (``rd`` is the red dragon).

    >>> [str(t) for t in parse_tiles("1B 2B3B")]
    ['1B', '2B', '3B']
    """
    compact = "".join(text.split())
    if not compact:
        return []
    if _MPSZ_FULL_RE.match(compact):
        return parse_mpsz(compact)
    if _CANONICAL_RUN_RE.match(compact):
        pairs = [compact[i : i + 2].upper() for i in range(0, len(compact), 2)]
        if all(_CODE_RE.match(p) for p in pairs):
            return [Tile(p) for p in pairs]
    bad = next(
        (compact[i : i + 2] for i in range(0, len(compact), 2) if not _CODE_RE.match(compact[i : i + 2].upper())),
        compact,
    )
    raise NotationError(
        f"unknown tile code {bad!r} in {text.strip()!r}: write two-character codes such as 1B 9C 5D EW RD 1F XX, "
        "or MPSZ such as 123m"
    )


def parse_tile(text: str) -> Tile:
    """Read exactly one tile, in canonical code or MPSZ (``2D``, ``rd``, ``2z``), as a hand is read."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise NotationError(f"{text.strip()!r} is not one tile: give one code such as 2D, RD or 2z")
    return tiles[0]


def format_tiles(tiles: list[Tile] | tuple[Tile, ...]) -> str:
    """Print tiles as canonical codes run together, the inverse of :func:`parse_tiles`."""
    return "".join(t.code for t in tiles)
