"""Words and small predicates the 1920s books and the Chinese Classical guide share.

All four books price a set of three or four from one table: twos to eights against heads
(terminals and honours), shown against concealed; only Harr's winning hand in Part II pays its
concealed threes more. They name the same special hands (three great scholars, nine gates,
thirteen wonders) and the same ways of winning. Each rule set module keeps its own words and
citations; this module holds the shared table and what reads a hand, so a rule still reads
like its sentence in the book.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from scoring.arrange import Shape
from scoring.context import ScoreContext
from scoring.engine import Citation, Rule, ScoreLine, fixed_value
from scoring.hand import Flag, WinMethod
from scoring.melds import Meld, MeldKind
from scoring.tiles import Suit, Tile

DRAGON_NAMES = {"RD": "red dragons", "GD": "green dragons", "WD": "white dragons"}
#: The tiles of "all green": green dragons and the 2, 3, 4, 6 and 8 of bamboos.
GREEN_TILES = frozenset(Tile(c) for c in ("GD", "2B", "3B", "4B", "6B", "8B"))
#: The counts of nine gates in one suit, by rank: 1112345678999.
NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)

#: Value of a set keyed by (kong, heads, concealed) -> points; heads are terminals and honours.
#: Every book prints this table (Harr's winning hand in Part II alone pays concealed threes more).
SET_VALUES: Mapping[tuple[bool, bool, bool], int] = {
    (False, False, False): 2, (False, False, True): 4,
    (False, True, False): 4, (False, True, True): 8,
    (True, False, False): 8, (True, False, True): 16,
    (True, True, False): 16, (True, True, True): 32,
}


# --- the words of the books ---------------------------------------------------------------------


def tile_class(tile: Tile) -> str:
    """Simples (2-8), terminals (1 and 9) or honours (winds and dragons)."""
    if tile.is_honour:
        return "honours"
    return "terminals" if tile.is_terminal else "simples"


def set_name(meld: Meld) -> str:
    kind = {MeldKind.KONG: "kong", MeldKind.PUNG: "pung", MeldKind.PAIR: "pair"}.get(meld.kind, "chow")
    return f"{kind} of {meld.tile}"


def exposure(ctx: ScoreContext, meld: Meld) -> str:
    return "concealed" if ctx.counts_as_concealed(meld) else "exposed"


def set_value(ctx: ScoreContext, meld: Meld, table: Mapping[tuple[bool, bool, bool], int] = SET_VALUES) -> int | None:
    """A pung or kong's points from ``table``, keyed by (kong, heads, concealed); None for chows and pairs."""
    if not meld.is_set_of_alike:
        return None
    return table[(meld.kind is MeldKind.KONG, meld.tile.is_major, ctx.counts_as_concealed(meld))]


def set_points(ctx: ScoreContext, meld: Meld) -> tuple[str, int] | None:
    """A pung or kong priced from :data:`SET_VALUES`; chows and pairs are priced elsewhere."""
    points = set_value(ctx, meld)
    if points is None:
        return None
    return f"{set_name(meld)} ({tile_class(meld.tile)}, {exposure(ctx, meld)})", points


def value_pair_lines(ctx: ScoreContext, rule: Rule, own_wind: str, round_wind: str) -> Iterable[ScoreLine]:
    """2 points for each pair of a dragon, of own wind, of the wind of the round, in the book's words.

    The British fragment and the Chinese Classical guide both count them cumulatively: a pair
    of own wind that is also the round's wind is two lines.
    """
    for pair in ctx.pairs:
        tile = pair.tile
        if tile.is_dragon:
            yield rule.line(f"pair of {DRAGON_NAMES[tile.code]}", points=2)
        if tile == ctx.own_wind:
            yield rule.line(f"pair of {own_wind} {tile}", points=2)
        if tile == ctx.round_wind:
            yield rule.line(f"pair of {round_wind} {tile}", points=2)


def winning_standard(ctx: ScoreContext) -> bool:
    """The player went out with four sets and a pair."""
    return ctx.winner and ctx.shape is Shape.STANDARD


def dragon_sets(ctx: ScoreContext) -> list[Meld]:
    return [m for m in ctx.pungs_and_kongs if m.tile.is_dragon]


def wind_sets(ctx: ScoreContext) -> list[Meld]:
    return [m for m in ctx.pungs_and_kongs if m.tile.is_wind]


def set_of(ctx: ScoreContext, tile: Tile) -> bool:
    return any(m.tile == tile for m in ctx.pungs_and_kongs)


def three_small_dragons(ctx: ScoreContext) -> bool:
    """Two sets of dragons and a pair of the third (Foster's three small scholars).

    A hand that did not win may hold several pairs; any pair of the third dragon will do.
    """
    return len(dragon_sets(ctx)) == 2 and any(p.tile.is_dragon for p in ctx.pairs)


def four_small_winds(ctx: ScoreContext) -> bool:
    """Three sets of winds and a pair of the fourth (Foster's four small blessings)."""
    return len(wind_sets(ctx)) == 3 and any(p.tile.is_wind for p in ctx.pairs)


def all_terminals(ctx: ScoreContext) -> bool:
    return bool(ctx.tiles) and all(t.is_terminal for t in ctx.tiles)


def terminals_with_honours(ctx: ScoreContext) -> bool:
    """Only ones, nines, winds and dragons, with at least one of each class."""
    return ctx.all_heads and ctx.has_honours and any(t.is_terminal for t in ctx.tiles)


def four_kongs(ctx: ScoreContext) -> bool:
    return winning_standard(ctx) and sum(m.kind is MeldKind.KONG for m in ctx.sets) == 4


def four_concealed_sets(ctx: ScoreContext) -> bool:
    """Four pungs or kongs, each concealed (a kong declared concealed counts)."""
    return (
        winning_standard(ctx)
        and len(ctx.pungs_and_kongs) == 4
        and all(ctx.counts_as_concealed(m) for m in ctx.pungs_and_kongs)
    )


def all_green(ctx: ScoreContext) -> bool:
    return winning_standard(ctx) and all(t in GREEN_TILES for t in ctx.tiles)


def nothing_declared_exposed(ctx: ScoreContext) -> bool:
    """No set shown on the table; a kong declared concealed does not count as shown."""
    return all(m.concealed for m in ctx.hand.melds)


def nine_gates(ctx: ScoreContext, *, waiting_on_all_nine: bool) -> bool:
    """A concealed one-suit hand of 1112345678999 and one more tile of the suit.

    With ``waiting_on_all_nine`` the thirteen tiles before the winning tile must be exactly
    the formation (Foster: "when completed by any tile of the suit"); otherwise the fourteen
    tiles need only contain it.
    """
    if not ctx.winner or not ctx.all_one_suit or not nothing_declared_exposed(ctx) or ctx.hand.melds:
        return False
    counts = Counter(t.rank for t in ctx.tiles)
    if waiting_on_all_nine and ctx.hand.winning_tile is not None:
        counts[ctx.hand.winning_tile.rank] -= 1
        return all(counts[rank] == n for rank, n in zip(range(1, 10), NINE_GATES))
    return all(counts[rank] >= n for rank, n in zip(range(1, 10), NINE_GATES))


def thirteen_wonders(ctx: ScoreContext) -> bool:
    return ctx.winner and ctx.shape is Shape.THIRTEEN_HEADS


def heavenly_hand(ctx: ScoreContext) -> bool:
    """East goes out on the fourteen tiles dealt him, before discarding."""
    return ctx.winner and ctx.is_east and ctx.won_by is WinMethod.ORIGINAL_HAND


def earthly_hand(ctx: ScoreContext) -> bool:
    """A player other than East goes out on East's first discard (flag ``first-discard``)."""
    return ctx.winner and not ctx.is_east and ctx.won_by is WinMethod.DISCARD and Flag.FIRST_DISCARD in ctx.hand.flags


def won_with(ctx: ScoreContext, method: WinMethod, code: str | None = None) -> bool:
    """Went out by ``method``, on the tile ``code`` when one is named."""
    if not ctx.winner or ctx.won_by is not method:
        return False
    return code is None or (ctx.hand.winning_tile is not None and ctx.hand.winning_tile.code == code)


def last_discard(ctx: ScoreContext) -> bool:
    """Won on the discard after the last tile of the wall was drawn (flag ``last-discard``)."""
    return ctx.winner and ctx.won_by is WinMethod.DISCARD and Flag.LAST_DISCARD in ctx.hand.flags


def drew_winning_tile(ctx: ScoreContext) -> bool:
    """The winner drew the last tile himself; going out on the deal is not a draw."""
    return ctx.winner and ctx.self_drawn and ctx.won_by is not WinMethod.ORIGINAL_HAND


def only_place(ctx: ScoreContext) -> bool:
    """No other tile would have completed the hand."""
    return ctx.winner and ctx.hand.winning_tile is not None and ctx.single_wait


def one_chance_chow(ctx: ScoreContext) -> bool:
    """The winning tile filled a chow in the middle (4-X-6) or at a closed end (1-2-X, X-8-9)."""
    meld, tile = ctx.winning_meld, ctx.hand.winning_tile
    if not ctx.winner or meld is None or tile is None or meld.kind is not MeldKind.CHOW:
        return False
    low, middle, high = meld.tiles
    return tile == middle or (tile == high and low.rank == 1) or (tile == low and high.rank == 9)


def out_on_pair(ctx: ScoreContext) -> bool:
    meld = ctx.winning_meld
    return ctx.winner and meld is not None and meld.kind is MeldKind.PAIR and ctx.hand.winning_tile is not None


# --- bonus tiles --------------------------------------------------------------------------------


def bonus_tiles(ctx: ScoreContext) -> tuple[Tile, ...]:
    """The flowers and seasons the player set aside, when the table plays with them."""
    return ctx.hand.bonus if ctx.options["flowers"] else ()


def own_bonus_tiles(ctx: ScoreContext) -> list[Tile]:
    """Flowers and seasons whose number is the player's seat (East 1 ... North 4)."""
    return [t for t in bonus_tiles(ctx) if t.wind == ctx.hand.seat_wind]


def bouquets(ctx: ScoreContext) -> list[Suit]:
    """Families (flowers, seasons) of which the player holds all four."""
    held = Counter(t.suit for t in bonus_tiles(ctx))
    return [suit for suit in (Suit.FLOWERS, Suit.SEASONS) if held[suit] == 4]


FAMILY = {Suit.FLOWERS: "flowers", Suit.SEASONS: "seasons"}


# --- rules and tallies --------------------------------------------------------------------------


def choice_rule(
    id: str,
    description: str,
    citation: Citation,
    when: Callable[[ScoreContext], bool],
    *,
    points: int = 0,
    doubles: int = 0,
) -> Rule:
    """A rule worth points or doubles (one of them), written once for the games that differ."""
    return Rule(id, citation, fixed_value, description, points=points, doubles=doubles, when=when)


def exclude_all_but_limits(limit_ids: Iterable[str], other_ids: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """A limit hand is paid the limit outright: every other line drops out."""
    others = tuple(dict.fromkeys(other_ids))
    return {limit_id: others for limit_id in limit_ids}

