"""Harr, *Pung Chow* (1922): Part I, the game without a limit, and Part II, the limit game.

Part I scores every hand from one card: bonus scores for the winner, combination scores for
everyone (a set made without help of a discard counts twice as much) and doubling honors.
Part II has its own tables: the winner's concealed sets and final pair are worth more than the
others', the winning tile earns points for the place it filled, seven hands are worth the limit
outright, and a hand of nine or more different heads "washes the tiles" before play.

Where the book's worked examples disagree with these rules, the rules win; every such case is
written down in ``docs/rules-notes/harr-1922.md``.

>>> from scoring.hand import Hand
>>> from scoring.rulesets import score_hand
>>> h = Hand.parse("7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]", winning_tile="2D", won_by="discard")
>>> score_hand(h, "harr-1922").total
22
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from scoring.arrange import Shape
from scoring.context import ScoreContext
from scoring.engine import (
    Citation,
    Option,
    Rule,
    RuleSet,
    ScoreLine,
    doubles_rule,
    fixed_value,
    limit_rule,
    per_set_rule,
    points_rule,
    standard_tally,
)
from scoring.errors import PungChowError
from scoring.hand import Flag, WinMethod
from scoring.melds import Meld, MeldKind
from scoring.rulesets import _common as c
from scoring.tiles import COPIES_OF_A_TILE, Tile, format_tiles

BOOK = "Harr, Pung Chow (1922)"
VERSION = "1"
#: Part II's scores changed in version 2: bonus 6 (the fourth tile) now pays the position the book
#: describes, so hands saved under version 1 may differ.
PART_TWO_VERSION = "2"


def part_one(section: str) -> Citation:
    return Citation(BOOK, "Part I", section)


def part_two(section: str) -> Citation:
    return Citation(BOOK, "Part II", section)


SCORE_CARD_BONUS = part_one("Score Card: Winning Hand Bonus Scores (p. 29)")
SCORE_CARD_SETS = part_one("Score Card: Combination Scores (p. 29)")
SCORE_CARD_DOUBLES = part_one("Score Card: Doubling Honors (p. 29)")
MANDARINS = part_one("Use of the Mandarins (p. 29)")

LIMIT = part_two("The Limit Hand (p. 60)")
WASHING = part_two("Washing the Tiles (p. 61)")
BONUS = part_two("Bonus Scores (p. 62)")
LIMIT_HANDS = part_two("Limit Hands (p. 62)")
WINNING_VALUES = part_two("Scoring Values: Winning Hand (p. 65)")
OTHER_VALUES = part_two("Scoring Values: Other Hands (p. 65)")
DOUBLING = part_two("Doubling Honor Scores (p. 67)")

#: The limit the book names first: 300 when Mah-Jongg is worth 10 (400 when it is worth 20).
BOOK_LIMIT = 300
#: The limit that goes with each Mah-Jongg bonus the book names (Part II, p. 60).
LIMIT_FOR_MAH_JONGG: Mapping[int, int] = {10: 300, 20: 400}

# --- words of the book --------------------------------------------------------------------------


def heads_or_simples(tile: Tile) -> str:
    """The book's two classes of set: heads (ones, nines, winds, dragons) and twos to eights."""
    return "heads" if tile.is_major else "2 to 8"


def set_name(meld: Meld) -> str:
    size = "four" if meld.kind is MeldKind.KONG else "three"
    return f"{size} {meld.tile}"


def in_own_wind_round(ctx: ScoreContext) -> bool:
    return ctx.hand.seat_wind == ctx.hand.prevailing_wind


def set_values(table: Mapping[tuple[bool, bool, bool], int]) -> Callable[[ScoreContext, Meld], tuple[str, int] | None]:
    """Value a pung or kong from a table keyed by (kong, heads, concealed), in the book's words."""

    def value(ctx: ScoreContext, meld: Meld) -> tuple[str, int] | None:
        points = c.set_value(ctx, meld, table)
        if points is None:
            return None
        return f"{set_name(meld)} ({heads_or_simples(meld.tile)}, {c.exposure(ctx, meld)})", points

    return value


def dragon_doubles(ctx: ScoreContext, meld: Meld) -> tuple[str, int] | None:
    if meld.is_set_of_alike and meld.tile.is_dragon:
        return f"{set_name(meld)}: a set of {c.DRAGON_NAMES[meld.tile.code]}", 1
    return None


def own_mandarins(id: str, citation: Citation) -> Rule:
    """Each bonus tile of the player's own wind doubles his score once."""

    def find(ctx: ScoreContext, rule: Rule) -> Iterable[ScoreLine]:
        for tile in ctx.hand.bonus:
            if tile.wind == ctx.hand.seat_wind:
                yield rule.line(f"mandarin {tile} of own wind", doubles=1)

    return Rule(id, citation, find)


def nothing_else(id: str, description: str, points: int, citation: Citation, others: tuple[Rule, ...]) -> Rule:
    """A winning bonus for a hand on which no rule in ``others`` finds any points."""

    def when(ctx: ScoreContext) -> bool:
        return c.winning_standard(ctx) and not any(line.points for r in others for line in r.apply(ctx))

    return Rule(id, citation, fixed_value, description, points=points, when=when)


# --- Part I: the game without a limit -----------------------------------------------------------

def part_one_pair(ctx: ScoreContext, meld: Meld) -> tuple[str, int] | None:
    """Only a pair of dragons or of the player's own wind scores, and only 2 points."""
    if meld.kind is not MeldKind.PAIR:
        return None
    if meld.tile.is_dragon:
        return f"pair of {c.DRAGON_NAMES[meld.tile.code]}", 2
    if meld.tile == ctx.own_wind:
        return f"pair of own wind ({meld.tile})", 2
    return None


_p1_sets = per_set_rule("set", SCORE_CARD_SETS, set_values(c.SET_VALUES), values=c.SET_VALUES)
_p1_pair = per_set_rule("pair", SCORE_CARD_SETS, part_one_pair)
_p1_loose = points_rule(
    "loose-tile-win", "winning on a draw from the loose tiles", 10, SCORE_CARD_BONUS,
    lambda ctx: ctx.winner and ctx.won_by is WinMethod.LOOSE_TILE,
)
_p1_drawing = points_rule(
    "drawing-winning-piece", "drawing the winning piece", 2, SCORE_CARD_BONUS,
    c.drew_winning_tile,
)
_p1_only_place = points_rule(
    "only-place-to-win", "filling in the only place to win", 2, SCORE_CARD_BONUS,
    c.only_place,
)
_p1_no_sequences = points_rule(
    "no-sequences", "no sequences in hand or on table", 10, SCORE_CARD_BONUS,
    lambda ctx: c.winning_standard(ctx) and ctx.no_chows,
)

PART_ONE_RULES: tuple[Rule, ...] = (
    points_rule("mah-jongg", "Mah-Jongg", 20, SCORE_CARD_BONUS, lambda ctx: ctx.winner),
    _p1_no_sequences,
    nothing_else(
        "no-other-score", "no other score than Mah-Jongg in hand or on table", 10, SCORE_CARD_BONUS,
        (_p1_sets, _p1_pair, _p1_loose, _p1_drawing, _p1_only_place, _p1_no_sequences),
    ),
    _p1_loose,
    _p1_drawing,
    _p1_only_place,
    _p1_sets,
    _p1_pair,
    per_set_rule("dragon-set", SCORE_CARD_DOUBLES, dragon_doubles, doubles=True),
    doubles_rule(
        "own-wind-set", "three (or four) of own wind", 1, SCORE_CARD_DOUBLES,
        lambda ctx: c.set_of(ctx, ctx.own_wind),
    ),
    doubles_rule(
        "one-suit-with-honors", "all one suit except honor pieces", 1, SCORE_CARD_DOUBLES,
        lambda ctx: ctx.one_suit_with_honours,
    ),
    doubles_rule("all-one-suit", "all one suit", 3, SCORE_CARD_DOUBLES, lambda ctx: ctx.all_one_suit),
    doubles_rule("all-honors", "all honor pieces", 3, SCORE_CARD_DOUBLES, lambda ctx: ctx.all_honours),
    doubles_rule(
        "original-hand", "winning on the original hand as drawn from the wall", 3, SCORE_CARD_DOUBLES,
        lambda ctx: ctx.winner and ctx.won_by is WinMethod.ORIGINAL_HAND,
    ),
    own_mandarins("own-mandarin", MANDARINS),
)

HARR_1922 = RuleSet(
    name="harr-1922",
    title="Harr, Pung Chow (1922), Part I: playing without a limit",
    version=VERSION,
    rules=PART_ONE_RULES,
    options=(
        Option.limit("limit", None, "a cap on any hand's score; Part I plays without one (none)"),
    ),
    notes="Winner's bonus scores, combination scores for all four players, doubling honors for all four.",
    limit_citation=LIMIT,
)


# --- Part II: the limit game --------------------------------------------------------------------

#: The winning hand's table: concealed threes are worth 6 and 10 where other hands get 4 and 8.
WINNER_SETS = {**c.SET_VALUES, (False, False, True): 6, (False, True, True): 10}


def limit_game_set(ctx: ScoreContext, meld: Meld) -> tuple[str, int] | None:
    """The winner's concealed pungs are worth more than the others' (6 and 10, not 4 and 8)."""
    return set_values(WINNER_SETS if ctx.winner else c.SET_VALUES)(ctx, meld)


def completed_pair(ctx: ScoreContext) -> Meld | None:
    """The final pair, when the winning tile is what matched it."""
    return ctx.winning_meld if c.out_on_pair(ctx) else None


def final_pair_value(ctx: ScoreContext) -> tuple[str, int] | None:
    """Pair matched by the winning tile: 2/4 for twos to eights, 4/6 for heads, 6/8 for own wind
    in own wind round (punged / drawn)."""
    pair = completed_pair(ctx)
    if pair is None:
        return None
    drawn = c.drew_winning_tile(ctx)
    how = "drawn" if drawn else "punged"
    tile = pair.tile
    if tile == ctx.own_wind and in_own_wind_round(ctx):
        return f"pair of own wind {tile} in own wind round, {how} to complete hand", 8 if drawn else 6
    if tile.is_major:
        return f"pair of heads {tile}, {how} to complete hand", 6 if drawn else 4
    return f"pair of {tile} (2 to 8), {how} to complete hand", 4 if drawn else 2


def limit_game_pair(ctx: ScoreContext, meld: Meld) -> tuple[str, int] | None:
    """A pair that did not complete the hand: dragons, own wind, round wind 2; own wind in own
    wind round 4 (the table for other hands, which the book's example 8 also gives the winner)."""
    if meld.kind is not MeldKind.PAIR or meld == completed_pair(ctx):
        return None
    tile = meld.tile
    if tile.is_dragon:
        return f"pair of {c.DRAGON_NAMES[tile.code]}", 2
    if tile == ctx.own_wind and in_own_wind_round(ctx):
        return f"pair of own wind {tile} in own wind round", 4
    if tile == ctx.own_wind:
        return f"pair of own wind {tile}", 2
    if tile == ctx.round_wind:
        return f"pair of the wind of the round {tile}", 2
    return None


def filled_sequence(ctx: ScoreContext) -> tuple[str, int] | None:
    """Winning tile completing a chow: 2 by chow in the middle or the only open end; 4 by draw.

    The table prices a drawn two-sided fill at 4 and the examples price drawn middle (example 8)
    and drawn end (example 10) fills at 4 too; a chowed two-sided fill earns nothing.
    """
    meld = ctx.winning_meld
    tile = ctx.hand.winning_tile
    if not ctx.winner or meld is None or tile is None or meld.kind is not MeldKind.CHOW:
        return None
    if tile == meld.tiles[1]:
        place = "in the middle"
    elif c.one_chance_chow(ctx):
        place = "on the only open end"
    else:
        place = "with both ends open"
    if c.drew_winning_tile(ctx):
        return f"filling a sequence {place} by draw to complete hand: {format_tiles(meld.tiles)}", 4
    if place != "with both ends open":
        return f"filling a sequence {place} by chow to complete hand: {format_tiles(meld.tiles)}", 2
    return None


def value_rule(id: str, citation: Citation, value: Callable[[ScoreContext], tuple[str, int] | None]) -> Rule:
    def find(ctx: ScoreContext, rule: Rule) -> Iterable[ScoreLine]:
        found = value(ctx)
        if found:
            yield rule.line(found[0], points=found[1])

    return Rule(id, citation, find)


def book_limit(options: Mapping[str, Any]) -> int:
    """The limit that goes with the table's Mah-Jongg bonus: 300 with 10, 400 with 20 (300 otherwise)."""
    return LIMIT_FOR_MAH_JONGG.get(options["mah_jongg"], BOOK_LIMIT)


def limit_of(ctx: ScoreContext) -> int:
    limit = ctx.options.get("limit")
    return book_limit(ctx.options) if limit is None else int(limit)


def first_discard_bonus(ctx: ScoreContext, rule: Rule) -> Iterable[ScoreLine]:
    if ctx.winner and Flag.FIRST_DISCARD in ctx.hand.flags:
        yield rule.line("winning on the first tile played: half the limit", points=limit_of(ctx) // 2)


def own_wind_set_doubles(ctx: ScoreContext, rule: Rule) -> Iterable[ScoreLine]:
    if c.set_of(ctx, ctx.own_wind):
        if in_own_wind_round(ctx):
            yield rule.line(f"set of own wind {ctx.own_wind} in own wind round", doubles=2)
        else:
            yield rule.line(f"set of own wind {ctx.own_wind}", doubles=1)


def fourth_tile_of_exposed_set(ctx: ScoreContext) -> bool:
    """Bonus 6: the winning tile is the fourth of a kind whose other three lie in the winner's
    exposed set of three, drawn or taken from a discard.

    Laying a fourth tile on a set never completes a hand (a kong calls for a loose tile, and
    that loose tile would be the winning tile), and the book bars taking a discard to make a
    fourth for an exposed set. So the bonus is for going out with that fourth tile used in
    another set (a sequence: no pair or three of it is left). Robbing a kong cannot give it.
    """
    tile = ctx.hand.winning_tile
    if not ctx.winner or tile is None or ctx.won_by is WinMethod.ROBBED_KONG:
        return False
    fourth = ctx.hand.tiles.count(tile) == COPIES_OF_A_TILE  # the three laid out and the winning tile beside them
    return fourth and any(m.kind is MeldKind.PUNG and not m.concealed and m.tile == tile for m in ctx.hand.melds)


def sets_by_table(ctx: ScoreContext, rule: Rule) -> Iterable[ScoreLine]:
    """Each pung or kong from the winner's table or the other hands' table, citing the one used."""
    for meld in ctx.arrangement.sets:
        found = limit_game_set(ctx, meld)
        if found:
            line = rule.line(found[0], points=found[1])
            yield line if ctx.winner else replace(line, citation=OTHER_VALUES)


_p2_sets = Rule("set", WINNING_VALUES, sets_by_table, values=WINNER_SETS, other_values=c.SET_VALUES)
_p2_final_pair = value_rule("final-pair", WINNING_VALUES, final_pair_value)
_p2_pair = per_set_rule("pair", OTHER_VALUES, limit_game_pair)
_p2_sequence = value_rule("filled-sequence", WINNING_VALUES, filled_sequence)
_p2_first_discard = Rule("first-discard", BONUS, first_discard_bonus)

PART_TWO_LIMIT_HANDS: tuple[Rule, ...] = (
    limit_rule(
        "single-heads", "single heads: one of each head, one of them paired", LIMIT_HANDS,
        lambda ctx: ctx.winner and ctx.shape is Shape.THIRTEEN_HEADS,
    ),
    limit_rule(
        "heads-only", "sets of heads only with a pair of heads", LIMIT_HANDS,
        lambda ctx: c.winning_standard(ctx) and ctx.all_heads,
    ),
    limit_rule(
        "four-winds", "four different sets of winds (the four happinesses)", LIMIT_HANDS,
        lambda ctx: c.winning_standard(ctx) and len(c.wind_sets(ctx)) == 4,
    ),
    limit_rule(
        "three-winds-and-pair", "three sets of winds with a pair of the fourth wind", LIMIT_HANDS,
        lambda ctx: c.winning_standard(ctx) and len(c.wind_sets(ctx)) == 3
        and ctx.pair is not None and ctx.pair.tile.is_wind,
    ),
    limit_rule(
        "all-kongs", "four sets of four of a kind", LIMIT_HANDS,
        c.four_kongs,
    ),
    limit_rule(
        "east-original-hand", "East Wind winning on his original draw from the wall", LIMIT_HANDS,
        c.heavenly_hand,
    ),
    limit_rule(
        "three-dragons", "three sets of dragons (the three Doctors of Literature)", LIMIT_HANDS,
        lambda ctx: c.winning_standard(ctx) and len(c.dragon_sets(ctx)) == 3,
    ),
)

PART_TWO_SCORES: tuple[Rule, ...] = (
    Rule(
        "mah-jongg", WINNING_VALUES,
        lambda ctx, r: [r.line("Mah-Jongg", points=ctx.options["mah_jongg"])] if ctx.winner else [],
    ),
    nothing_else(
        "no-other-score", "no other score than Mah-Jongg in hand or on table", 10, BONUS,
        (_p2_sets, _p2_final_pair, _p2_pair, _p2_sequence, _p2_first_discard),
    ),
    _p2_sets,
    _p2_final_pair,
    _p2_pair,
    _p2_sequence,
    _p2_first_discard,
    doubles_rule(
        "last-tile", "winning tile drawn from the last tile of the wall", 1, BONUS,
        lambda ctx: ctx.winner and ctx.won_by is WinMethod.LAST_TILE,
    ),
    doubles_rule(
        "loose-tile-win", "winning on a draw from a loose tile", 1, BONUS,
        lambda ctx: ctx.winner and ctx.won_by is WinMethod.LOOSE_TILE,
    ),
    doubles_rule(
        "fourth-tile", "going out with the fourth tile of an exposed set of three", 1, BONUS,
        fourth_tile_of_exposed_set,
    ),
    Rule("own-wind-set", DOUBLING, own_wind_set_doubles),
    per_set_rule("dragon-set", DOUBLING, dragon_doubles, doubles=True),
    doubles_rule(
        "one-suit-with-honors", "all one suit except winds or dragons", 1, DOUBLING,
        lambda ctx: ctx.winner and ctx.one_suit_with_honours,
    ),
    doubles_rule(
        "no-sequences", "no sequences (Tei Tei Woo)", 1, DOUBLING,
        lambda ctx: c.winning_standard(ctx) and ctx.no_chows,
    ),
    doubles_rule(
        "all-one-suit", "entirely of one suit", 3, DOUBLING,
        lambda ctx: ctx.winner and ctx.all_one_suit,
    ),
    own_mandarins("own-mandarin", MANDARINS),
)


def limit_game_tally(lines: list[ScoreLine], ctx: ScoreContext, options: Mapping[str, Any]) -> tuple[int, int]:
    """Points doubled, capped at the limit; a limit hand is worth the limit.

    With the limit taken off (``--limit none``) ordinary hands are uncapped and a limit hand is
    worth the book's limit for the Mah-Jongg bonus (300 with 10), so that it still scores.
    """
    if options.get("limit") is None:
        options = {**options, "limit_hand_value": book_limit(options)}
    return standard_tally(lines, ctx, options)


@dataclass(frozen=True)
class LimitGameRuleSet(RuleSet):
    """The limit follows the Mah-Jongg bonus (300 with 10, 400 with 20) unless the table sets it."""

    def resolve_options(self, given: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
        values = dict(super().resolve_options(given))
        if "limit" not in {name.replace("-", "_") for name in (given or {})}:
            values["limit"] = book_limit(values)
        return MappingProxyType(values)


HARR_1922_LIMIT = LimitGameRuleSet(
    name="harr-1922-limit",
    title="Harr, Pung Chow (1922), Part II: playing with a limit",
    version=PART_TWO_VERSION,
    rules=PART_TWO_SCORES + PART_TWO_LIMIT_HANDS,
    options=(
        Option.limit(
            "limit", BOOK_LIMIT,
            "the limit on one hand; unless set it follows mah_jongg (the book: 300 with a 10-point Mah-Jongg, "
            "400 with 20; 600 is popular in America)",
        ),
        Option.number("mah_jongg", 10, "points for Mah-Jongg (the book: generally 10, 20 by agreement)"),
    ),
    special_shapes=frozenset({Shape.THIRTEEN_HEADS}),
    exclusions=c.exclude_all_but_limits((r.id for r in PART_TWO_LIMIT_HANDS), (r.id for r in PART_TWO_SCORES)),
    tally=limit_game_tally,
    notes="Winner's table and other hands' table, bonus scores, doubling honors, seven limit hands.",
    limit_citation=LIMIT,
)

RULE_SETS = (HARR_1922, HARR_1922_LIMIT)


# --- washing the tiles --------------------------------------------------------------------------

#: Different heads in an original hand, and what each other player pays (Part II, p. 61).
WASHING_THE_TILES: Mapping[int, int] = {9: 50, 10: 70, 11: 100, 12: 150, 13: 200}


def different_heads(tiles: Iterable[Tile]) -> int:
    """How many different heads (ones, nines, winds, dragons) the tiles hold."""
    return len({t for t in tiles if t.is_major})


def washing_the_tiles(heads: int) -> int:
    """Points each other player pays a player whose original hand holds ``heads`` different heads.

    Fewer than nine heads do not wash the tiles (0). East neither collects nor pays double here,
    and the hand is not played: the tiles are reshuffled and the wall built again.
    """
    if not 0 <= heads <= 13:
        raise PungChowError(f"a hand holds 0 to 13 different heads, not {heads}")
    return WASHING_THE_TILES.get(heads, 0)
