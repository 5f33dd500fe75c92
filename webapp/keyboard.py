"""The tile keyboard: a hand entered one tap per tile, as players at the table ask for.

Tiles go into the hand in the order tapped; the last one tapped is the winning tile. Tapping
*Exposed set* after the tiles of a set lays them out as a declared set. Every tap can be taken
back, the last first.

>>> keys = Keys()
>>> for code in "2D 2D 2D".split():
...     keys = keys.tap(code)
>>> keys = keys.expose()
>>> for code in "7C 8C 9C 6C 7C 8C SW SW 5C 6C 7C".split():
...     keys = keys.tap(code)
>>> keys.notation(), keys.winning
('7C8C9C6C7C8CSWSW5C6C7C [2D2D2D]', '7C')
>>> keys.undo().notation()
'7C8C9C6C7C8CSWSW5C6C [2D2D2D]'
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.errors import PungChowError
from scoring.melds import Meld
from scoring.tiles import ALL_CODES, Tile

#: Most tiles a hand can hold: four kongs and a pair, and eight flowers and seasons.
MOST_TILES = 4 * 4 + 2 + 8


@dataclass(frozen=True)
class Keys:
    """What has been tapped so far; ``before`` is the state one tap ago (None at the start), so undo is exact."""

    tiles: tuple[str, ...] = ()
    exposed: tuple[tuple[str, ...], ...] = ()
    before: Keys | None = None

    def tap(self, code: str) -> Keys:
        """One more tile, of the face tapped."""
        if code not in ALL_CODES:
            raise PungChowError(f"{code!r} is not a tile face: tap one of the faces shown")
        if self.count >= MOST_TILES:
            raise PungChowError(f"a hand holds at most {MOST_TILES} tiles: take one back, or use the hand")
        return Keys(self.tiles + (code,), self.exposed, self)

    def expose(self) -> Keys:
        """The last three or four tiles tapped form a set laid out on the table (a chow, pung or kong)."""
        for size in (4, 3):
            if len(self.tiles) >= size and _is_set(self.tiles[-size:]):
                return Keys(self.tiles[:-size], self.exposed + (self.tiles[-size:],), self)
        raise PungChowError("the last three or four tiles tapped are not a chow, pung or kong: tap the set's tiles, then Exposed set")

    def undo(self) -> Keys:
        """Take back the last tap (a tile, or a set laid out); at the start, nothing changes."""
        return self.before if self.before is not None else self

    @property
    def count(self) -> int:
        return len(self.tiles) + sum(len(s) for s in self.exposed)

    @property
    def winning(self) -> str | None:
        """The last tile tapped into the hand: the one that completed it."""
        return self.tiles[-1] if self.tiles else None

    def notation(self) -> str:
        """The hand as the notation writes it: concealed tiles, then each exposed set in brackets."""
        return " ".join(["".join(self.tiles)] + [f"[{''.join(s)}]" for s in self.exposed]).strip()


def _is_set(codes: tuple[str, ...]) -> bool:
    """A chow, pung or kong of faces (a kong's hidden ends are typed in the notation instead)."""
    if "XX" in codes:
        return False
    try:
        Meld.of([Tile.parse(c) for c in codes], concealed=False)
    except PungChowError:
        return False
    return True
