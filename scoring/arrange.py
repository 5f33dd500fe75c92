"""The hand divider: every lawful way to split a hand into sets and a pair.

A player may see a split the scorer did not pick, so we find them all and let each rule set
keep the best. Special shapes the books allow outside "four sets and a pair" are found too:
thirteen different heads with one paired (Harr's single heads, Foster's thirteen unique wonders)
and seven pairs (Foster's heavenly twins, when the pairs qualify).

>>> from scoring.hand import Hand
>>> h = Hand.parse("1B1B2B2B3B3B4B4B5B5B6B6B7B7B", winning_tile="7B", won_by="wall")
>>> sorted(a.shape.value for a in arrangements(h))
['seven-pairs', 'standard', 'standard', 'standard']
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from enum import Enum
from functools import cached_property

from scoring.hand import Hand, WinMethod
from scoring.melds import Meld, MeldKind
from scoring.tiles import PLAYING_TILES, Tile, format_tiles


class Shape(str, Enum):
    STANDARD = "standard"
    """Four sets (chows, pungs, kongs) and a pair."""
    THIRTEEN_HEADS = "thirteen-heads"
    """One of each head (ones, nines, winds, dragons), one of them paired."""
    SEVEN_PAIRS = "seven-pairs"
    """Seven pairs, all different."""
    PAIRS = "pairs"
    """Seven pairs with one kind paired twice (four alike as two pairs): the British fragment's
    "pairs of ones and nines" needs it, there being only six ones and nines."""
    INCOMPLETE = "incomplete"
    """A hand that did not go out: its sets, its pairs and the loose tiles left over."""


@dataclass(frozen=True)
class Arrangement:
    """One reading of a hand: its sets (declared and concealed), pairs and loose tiles.

    ``winning_set`` is the index in ``sets`` of the set the winning tile completed (a pair
    counts), or None when there is no winning tile. ``claimed`` says that set was claimed from
    a discard: it was concealed until the win but is laid out and priced as exposed, so it
    prints in the exposed brackets, ``[3C4C5C]*``.
    """

    shape: Shape
    sets: tuple[Meld, ...]
    loose: tuple[Tile, ...] = ()
    winning_set: int | None = None
    claimed: bool = False

    def __str__(self) -> str:
        parts = []
        for i, meld in enumerate(self.sets):
            if i == self.winning_set:
                body = f"[{format_tiles(meld.tiles)}]" if self.claimed else str(meld)
                parts.append(f"{body}*")
            else:
                parts.append(str(meld))
        if self.loose:
            parts.append(format_tiles(self.loose))
        return " ".join(parts)

    @cached_property
    def melds(self) -> tuple[Meld, ...]:
        """Chows, pungs and kongs, without pairs."""
        return tuple(m for m in self.sets if m.kind is not MeldKind.PAIR)

    @cached_property
    def pairs(self) -> tuple[Meld, ...]:
        return tuple(m for m in self.sets if m.kind is MeldKind.PAIR)

    @property
    def pair(self) -> Meld | None:
        """The hand's pair (the "final pair"), when it has exactly one."""
        return self.pairs[0] if len(self.pairs) == 1 else None

    @property
    def winning_meld(self) -> Meld | None:
        return self.sets[self.winning_set] if self.winning_set is not None else None


#: Ways of winning on another player's tile: the set it completes is claimed and laid out.
CLAIMED_WINS = (WinMethod.DISCARD, WinMethod.ROBBED_KONG)


@dataclass(frozen=True)
class Reading:
    """Where the winning tile went: the hand as it stood before the last tile, and what it completed.

    ``hand`` has the claimed set (if any) back among the concealed tiles, where it was until the
    win; ``claimed`` is that set as the divider builds it, and only arrangements whose winning
    set it is belong to this reading. ``declared_may_win`` is False on a win from another
    player's tile, whose declared sets were all on the table before it.
    """

    hand: Hand
    claimed: Meld | None = None
    declared_may_win: bool = True
    why: str = ""
    shown_at: int | None = None
    """Where the claimed set stood among the declared sets as written, so it prints there again."""

    def admits(self, arrangement: Arrangement) -> bool:
        if self.claimed is not None:
            return arrangement.winning_meld == self.claimed
        declared = len(self.hand.melds)
        return self.declared_may_win or arrangement.winning_set is None or arrangement.winning_set >= declared

    def mark(self, arrangement: Arrangement) -> Arrangement:
        """Mark the winning set as claimed when a discard (or a robbed kong) completed it."""
        meld = arrangement.winning_meld
        declared = arrangement.winning_set is not None and arrangement.winning_set < len(self.hand.melds)
        if meld is None or meld.kind is MeldKind.PAIR or declared or self.hand.won_by not in CLAIMED_WINS:
            return arrangement
        if self.shown_at is None or arrangement.winning_set is None:
            return replace(arrangement, claimed=True)
        sets = list(arrangement.sets)
        sets.insert(self.shown_at, sets.pop(arrangement.winning_set))
        return replace(arrangement, sets=tuple(sets), winning_set=self.shown_at, claimed=True)


def before_the_claim(hand: Hand, index: int) -> tuple[Hand, Meld]:
    """The hand with declared set ``index`` back among the concealed tiles, and that set as concealed."""
    meld = hand.melds[index]
    unclaimed = replace(
        hand,
        concealed=tuple(sorted(hand.concealed + meld.tiles)),
        melds=hand.melds[:index] + hand.melds[index + 1:],
        winning_set=None,
    )
    return unclaimed, Meld(meld.kind, meld.tiles, concealed=True)


def readings(hand: Hand) -> list[Reading]:
    """Every place the winning tile may have gone, each as the hand stood before it came.

    A set marked ``*`` is the one; won from another player's tile, an exposed set holding the
    winning tile may be the claimed one, and so may the concealed tiles when they hold it too;
    otherwise (a drawn tile) the hand is read as written.
    """
    tile = hand.winning_tile
    if not hand.winner or tile is None:
        return [Reading(hand)]
    if hand.winning_set is not None:
        unclaimed, claimed = before_the_claim(hand, hand.winning_set)
        return [Reading(unclaimed, claimed, why=f"{hand.melds[hand.winning_set]}* is marked as completed by {tile}",
                        shown_at=hand.winning_set)]
    if hand.won_by not in CLAIMED_WINS:
        return [Reading(hand)]
    found: list[Reading] = []
    seen: set[Meld] = set()
    for i, meld in enumerate(hand.melds):
        if meld.exposed and meld.kind is not MeldKind.KONG and tile in meld.tiles and meld not in seen:
            seen.add(meld)
            unclaimed, claimed = before_the_claim(hand, i)
            found.append(Reading(unclaimed, claimed, why=f"{tile} completed {meld}, claimed from the discard", shown_at=i))
    if not found:
        return [Reading(hand)]
    if tile in hand.concealed:
        shown = ", ".join(str(m) for m in seen)
        found.append(Reading(hand, declared_may_win=False,
                             why=f"{tile} went among the concealed tiles; {shown} lay on the table before the win"))
    return found


def _counts(tiles: tuple[Tile, ...]) -> list[int]:
    c = Counter(tiles)
    return [c.get(t, 0) for t in PLAYING_TILES]


def _chow_start(i: int) -> bool:
    """Kind ``i`` (index in PLAYING_TILES) can start a chow: a numbered tile of rank 1-7."""
    return i < 27 and i % 9 <= 6


def _set_splits(counts: list[int], start: int = 0) -> list[list[tuple[str, int]]]:
    """Every split of ``counts`` into pungs and chows, as lists of (kind, first tile index)."""
    i = start
    while i < len(counts) and counts[i] == 0:
        i += 1
    if i == len(counts):
        return [[]]
    found: list[list[tuple[str, int]]] = []
    if counts[i] >= 3:
        counts[i] -= 3
        found += [[("pung", i)] + rest for rest in _set_splits(counts, i)]
        counts[i] += 3
    if _chow_start(i) and counts[i + 1] and counts[i + 2]:
        for k in (i, i + 1, i + 2):
            counts[k] -= 1
        found += [[("chow", i)] + rest for rest in _set_splits(counts, i)]
        for k in (i, i + 1, i + 2):
            counts[k] += 1
    return found


def _meld(kind: str, i: int) -> Meld:
    if kind == "pung":
        return Meld(MeldKind.PUNG, (PLAYING_TILES[i],) * 3, concealed=True)
    if kind == "pair":
        return Meld(MeldKind.PAIR, (PLAYING_TILES[i],) * 2, concealed=True)
    return Meld(MeldKind.CHOW, tuple(PLAYING_TILES[i : i + 3]), concealed=True)


def _with_winning_set(shape: Shape, declared: tuple[Meld, ...], concealed_sets: list[Meld], hand: Hand) -> list[Arrangement]:
    """One arrangement per distinct set the winning tile could have completed."""
    sets = tuple(declared) + tuple(sorted(concealed_sets, key=lambda m: (m.kind.value, m.tiles)))
    tile = hand.winning_tile
    if tile is None:
        return [Arrangement(shape, sets)]
    seen: set[Meld] = set()
    found = []
    for i, meld in enumerate(sets):
        if tile in meld.tiles and meld not in seen:
            if i < len(declared) and meld.kind is MeldKind.KONG and meld.concealed:
                continue
            seen.add(meld)
            found.append(Arrangement(shape, sets, winning_set=i))
    return found


HEAD_KINDS = tuple(i for i, t in enumerate(PLAYING_TILES) if t.is_major)


def arrangements(hand: Hand) -> list[Arrangement]:
    """Every arrangement of ``hand``; for a hand that did not go out, its best partial reading."""
    declared = tuple(hand.melds)
    counts = _counts(hand.concealed)
    if not hand.winner:
        return [_incomplete(declared, counts)]
    found: list[Arrangement] = []
    seen: set[tuple[object, ...]] = set()
    for p in range(len(counts)):
        if counts[p] < 2:
            continue
        counts[p] -= 2
        for split in _set_splits(counts):
            key = (p, tuple(sorted(split)))
            if key in seen:
                continue
            seen.add(key)
            concealed_sets = [_meld("pair", p)] + [_meld(kind, i) for kind, i in split]
            found += _with_winning_set(Shape.STANDARD, declared, concealed_sets, hand)
        counts[p] += 2
    if not declared and sum(counts) == 14:
        found += _special_shapes(counts, hand)
    return found


def _special_shapes(counts: list[int], hand: Hand) -> list[Arrangement]:
    """Thirteen different heads with one paired; seven different pairs."""
    found: list[Arrangement] = []
    if all(counts[i] >= 1 for i in HEAD_KINDS) and sum(counts[i] for i in HEAD_KINDS) == 14:
        paired = next(i for i in HEAD_KINDS if counts[i] == 2)
        singles = tuple(PLAYING_TILES[i] for i in HEAD_KINDS if i != paired)
        won_on_pair = hand.winning_tile == PLAYING_TILES[paired]
        found.append(
            Arrangement(Shape.THIRTEEN_HEADS, (_meld("pair", paired),), loose=singles, winning_set=0 if won_on_pair else None)
        )
    if sorted(c for c in counts if c) == [2] * 7:
        pairs = [_meld("pair", i) for i, c in enumerate(counts) if c == 2]
        found += _with_winning_set(Shape.SEVEN_PAIRS, (), pairs, hand)
    elif all(c in (0, 2, 4) for c in counts) and 4 in counts:
        pairs = [_meld("pair", i) for i, c in enumerate(counts) for _ in range(c // 2)]
        found += _with_winning_set(Shape.PAIRS, (), pairs, hand)
    return found


def _incomplete(declared: tuple[Meld, ...], counts: list[int]) -> Arrangement:
    """A non-winning hand read for what scores: three or more alike as a pung, two alike as a pair.

    Runs left among the loose tiles are shown as chows, since a player reads them that way.
    """
    counts = list(counts)
    sets: list[Meld] = []
    for i, n in enumerate(counts):
        if n >= 3:
            sets.append(_meld("pung", i))
            counts[i] -= 3
    for i in range(len(counts)):
        while _chow_start(i) and counts[i] and counts[i + 1] and counts[i + 2]:
            sets.append(_meld("chow", i))
            for k in (i, i + 1, i + 2):
                counts[k] -= 1
    for i, n in enumerate(counts):
        if n >= 2:
            sets.append(_meld("pair", i))
            counts[i] -= 2
    loose = tuple(t for i, t in enumerate(PLAYING_TILES) for _ in range(counts[i]))
    return Arrangement(Shape.INCOMPLETE, declared + tuple(sets), loose=loose)


def _splits_into_sets(counts: list[int], start: int = 0) -> bool:
    """Whether ``counts`` splits into pungs and chows (stops at the first way found)."""
    i = start
    while i < len(counts) and counts[i] == 0:
        i += 1
    if i == len(counts):
        return True
    if counts[i] >= 3:
        counts[i] -= 3
        ok = _splits_into_sets(counts, i)
        counts[i] += 3
        if ok:
            return True
    if _chow_start(i) and counts[i + 1] and counts[i + 2]:
        for k in (i, i + 1, i + 2):
            counts[k] -= 1
        ok = _splits_into_sets(counts, i)
        for k in (i, i + 1, i + 2):
            counts[k] += 1
        return ok
    return False


def _is_complete(counts: list[int], declared: int) -> bool:
    """Whether concealed ``counts`` plus ``declared`` sets make a winning shape."""
    for p, n in enumerate(counts):
        if n >= 2:
            counts[p] -= 2
            ok = _splits_into_sets(counts)
            counts[p] += 2
            if ok:
                return True
    if declared == 0 and sum(counts) == 14:
        if all(counts[i] >= 1 for i in HEAD_KINDS) and sum(counts[i] for i in HEAD_KINDS) == 14:
            return True
        if sorted(c for c in counts if c) == [2] * 7:
            return True
    return False


def _could_complete(counts: list[int], i: int, heads_too: bool) -> bool:
    """Whether adding kind ``i`` can join a set or pair: a tile alike, or a suit neighbour next to it
    (every chow holding ``i`` holds ``i - 1`` or ``i + 1``).

    With no declared sets any missing head might complete thirteen different heads.
    """
    if counts[i] or (heads_too and i in HEAD_KINDS):
        return True
    if i >= 27:
        return False
    rank = i % 9
    return (rank > 0 and counts[i - 1] > 0) or (rank < 8 and counts[i + 1] > 0)


def waiting_tiles(hand: Hand, *, enough: int | None = None) -> frozenset[Tile]:
    """The tiles that would have completed this winning hand, had its winning tile been missing.

    Harr's "filling in the only place to win" pays when this is a single tile. ``enough`` stops
    the search once that many are found (two settle "the only place").

    Seven pairs and single heads are tried whatever the rule set. That never changes the answer
    for a hand that went out with four sets and a pair: its thirteen tiles, if one from seven
    pairs, wait on the same single tile both ways, and all-heads tiles are never one from four sets
    and a pair (tests/test_harr_1922.py checks this). Every rule set that has these shapes pays them
    as limit hands, where the only-place bonus drops out.
    """
    if hand.winning_tile is None:
        return frozenset()
    concealed = list(hand.concealed)
    melds = list(hand.melds)
    if hand.winning_tile in concealed:
        concealed.remove(hand.winning_tile)
    else:
        meld = next(m for m in melds if hand.winning_tile in m.tiles)
        melds.remove(meld)
        rest = list(meld.tiles)
        rest.remove(hand.winning_tile)
        concealed += rest
    counts = _counts(tuple(concealed))
    in_melds = Counter(t for m in melds for t in m.tiles)
    waits = set()
    heads_too = not melds
    for i, tile in enumerate(PLAYING_TILES):
        if counts[i] + in_melds[tile] >= 4 or not _could_complete(counts, i, heads_too):
            continue
        counts[i] += 1
        if _is_complete(counts, len(melds)):
            waits.add(tile)
        counts[i] -= 1
        if enough is not None and len(waits) >= enough:
            break
    return frozenset(waits)
