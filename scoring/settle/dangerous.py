"""Does the winner's hand show the combination that made the discard dangerous?

When the table gives the winner's hand, a declared dangerous discard is checked against it, so a
wrong declaration cannot shift every loss onto one player. "Exposed at the time of discarding"
means the exposed sets less the one the winning discard itself completed.
"""

from __future__ import annotations

from collections.abc import Callable

from scoring.hand import Hand, WinMethod
from scoring.melds import Meld
from scoring.tiles import Tile


def _tiles(meld: Meld) -> list[Tile]:
    """A meld's tiles, a concealed kong's face-down ends read as its tile."""
    return [meld.tile] * len(meld.tiles) if meld.is_set_of_alike else list(meld.tiles)


def _all_tiles(hand: Hand) -> list[Tile]:
    return list(hand.concealed) + [t for m in hand.melds for t in _tiles(m)]


def exposed_before_discard(hand: Hand) -> list[list[Meld]]:
    """The possible sets on the table when the winning tile was discarded (one list per reading).

    If the winning tile completed an exposed set, that set was not yet on the table; a set marked
    ``*`` is that set. Unmarked, when the tile could have gone to more than one place (an exposed
    set, or the concealed tiles), each is a possible reading.
    """
    if hand.claimed_set is not None:
        return [[m for i, m in enumerate(hand.melds) if m.exposed and i != hand.winning_set]]
    exposed = [m for m in hand.melds if m.exposed]
    readings = [exposed[:i] + exposed[i + 1:] for i, m in enumerate(exposed) if hand.winning_tile in _tiles(m)]
    if not readings or hand.winning_tile in hand.concealed:
        readings.append(exposed)
    return readings


def _alike_sets(melds: list[Meld], test: Callable[[Tile], bool]) -> set[Tile]:
    return {m.tile for m in melds if m.is_set_of_alike and test(m.tile)}


def _one_suit(before: list[Meld], hand: Hand, win: Tile) -> bool:
    tiles = _all_tiles(hand)
    suits = {t.suit for t in tiles}
    if len(suits) != 1 or not win.is_numbered:
        return False
    return sum(1 for m in before for t in _tiles(m) if t.suit is win.suit) >= 9


def _heads(before: list[Meld], hand: Hand, win: Tile) -> bool:
    return all(t.is_major for t in _all_tiles(hand)) and sum(1 for m in before for t in _tiles(m) if t.is_major) >= 9


def _dragons(before: list[Meld], hand: Hand, win: Tile) -> bool:
    shown = _alike_sets(before, lambda t: t.is_dragon)
    return len(shown) >= 2 and win.is_dragon and win not in shown and _all_tiles(hand).count(win) >= 3


def _winds(before: list[Meld], hand: Hand, win: Tile) -> bool:
    shown = _alike_sets(before, lambda t: t.is_wind)
    return len(shown) >= 3 and win.is_wind and win not in shown


def _terminals(before: list[Meld], hand: Hand, win: Tile) -> bool:
    return all(t.is_terminal for t in _all_tiles(hand)) and len(_alike_sets(before, lambda t: t.is_terminal)) >= 3


CHECKS: dict[str, Callable[[list[Meld], Hand, Tile], bool]] = {
    "one-suit": _one_suit,
    "heads": _heads,
    "dragons": _dragons,
    "winds": _winds,
    "terminals": _terminals,
}


def condition_problem(hand: Hand, condition: str, description: str) -> str | None:
    """Why the winner's hand cannot have been won on a dangerous discard of this kind, or None."""
    if hand.won_by is not None and hand.won_by is not WinMethod.DISCARD:
        return f"the winner's hand was won by {hand.won_by.value}, not on a discard"
    if hand.winning_tile is None:
        return None
    check = CHECKS[condition]
    if any(check(before, hand, hand.winning_tile) for before in exposed_before_discard(hand)):
        return None
    return f"the winner's hand does not show {description} (won on {hand.winning_tile})"
