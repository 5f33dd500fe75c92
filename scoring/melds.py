"""Sets of tiles: chow (a run of three), pung (three alike), kong (four alike) and pair (heads).

A meld prints as its tiles: ``[2D2D2D]`` exposed, ``(1D1D1D1D)`` concealed; a concealed kong
may be written with its face-down ends, ``(XX1D1DXX)``.

>>> Meld.parse("[2D2D2D]")
Meld(kind=<MeldKind.PUNG: 'pung'>, tiles=(Tile('2D'), Tile('2D'), Tile('2D')), concealed=False)
>>> str(Meld.parse("(XX1D1DXX)"))
'(1D1D1D1D)'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from scoring.errors import InvalidHandError, NotationError
from scoring.tiles import Tile, format_tiles, parse_tiles

#: What the marks in a printed arrangement mean: said once wherever arrangements are shown.
MARKS = "marks: [ ] a set laid out on the table, ( ) a set or pair kept concealed, * the set the winning tile completed"


class MeldKind(str, Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    PAIR = "pair"


@dataclass(frozen=True)
class Meld:
    """A set of tiles, and whether it was kept concealed in the hand."""

    kind: MeldKind
    tiles: tuple[Tile, ...]
    concealed: bool

    def __post_init__(self) -> None:
        problem = meld_problem(self.kind, self.tiles)
        if problem:
            raise InvalidHandError([problem])

    @classmethod
    def of(cls, tiles: list[Tile] | tuple[Tile, ...], concealed: bool) -> Meld:
        """Build the meld these tiles make; a face-down tile in four stands for the kong's tile."""
        tiles = tuple(tiles)
        faces = [t for t in tiles if not t.is_face_down]
        if len(tiles) == 4 and any(t.is_face_down for t in tiles):
            if not faces:
                raise InvalidHandError(["a kong of four face-down tiles: turn one face up so it can be scored"])
            if len(set(faces)) != 1:
                raise InvalidHandError([f"kong {format_tiles(tiles)} shows different faces"])
            tiles = (faces[0],) * 4
        elif any(t.is_face_down for t in tiles):
            raise InvalidHandError([f"face-down tiles only stand at the ends of a kong, not in {format_tiles(tiles)}"])
        kind = {2: MeldKind.PAIR, 4: MeldKind.KONG}.get(len(tiles))
        if kind is None:
            kind = MeldKind.PUNG if len(set(tiles)) == 1 else MeldKind.CHOW
        return cls(kind, tuple(sorted(tiles)), concealed)

    @classmethod
    def parse(cls, text: str) -> Meld:
        """Read ``[...]`` (exposed) or ``(...)`` (concealed)."""
        s = text.strip()
        if len(s) < 2 or (s[0], s[-1]) not in (("[", "]"), ("(", ")")):
            raise NotationError(f"a declared set is written [1D1D1D] (exposed) or (1D1D1D1D) (concealed), not {text!r}")
        tiles = parse_tiles(s[1:-1])
        if s[0] == "[" and any(t.is_face_down for t in tiles):
            shown = format_tiles(tuple(t for t in tiles if not t.is_face_down)[:1] * 4)
            raise InvalidHandError([f"{s}: face-down ends mark a concealed kong (its fourth tile drawn, not claimed): write it "
                                    f"({s[1:-1]}), or [{shown}] for an exposed kong"])
        return cls.of(tiles, concealed=s[0] == "(")

    def __str__(self) -> str:
        body = format_tiles(self.tiles)
        return f"({body})" if self.concealed else f"[{body}]"

    @property
    def tile(self) -> Tile:
        """The lowest tile: the one that names the set."""
        return self.tiles[0]

    @property
    def is_set_of_alike(self) -> bool:
        """A pung or a kong: Harr's "three (or four) of a kind"."""
        return self.kind in (MeldKind.PUNG, MeldKind.KONG)

    @property
    def exposed(self) -> bool:
        return not self.concealed


def meld_problem(kind: MeldKind, tiles: tuple[Tile, ...]) -> str | None:
    """Why these tiles are not this kind of meld, or None when they are."""
    written = format_tiles(tiles)
    if any(t.is_bonus for t in tiles):
        return f"bonus tiles are set aside, never part of a set: {written}"
    if any(t.is_face_down for t in tiles):
        return f"a set to score needs its faces: {written}"
    if kind is MeldKind.CHOW:
        if len(tiles) != 3:
            return f"a chow is three tiles, {written} has {len(tiles)}"
        ordered = sorted(tiles)
        if not (ordered[0].is_numbered and ordered[0].next_in_suit() == ordered[1] and ordered[1].next_in_suit() == ordered[2]):
            return (
                f"{written} is neither a pung (three alike) nor a chow (three numbers in a row of one suit)"
            )
        return None
    size = {MeldKind.PUNG: 3, MeldKind.KONG: 4, MeldKind.PAIR: 2}[kind]
    if len(tiles) != size:
        return f"a {kind.value} is {size} tiles, {written} has {len(tiles)}"
    if len(set(tiles)) != 1:
        return f"{written} is not a {kind.value}: its tiles must all be alike"
    return None
