"""Foster, "The New American Code of Rules for Mah Jong", Part II (1924): laws 89 to 100.

The code scores three games from one set of tables: the Mixed-Hand game (the straight game),
the One-Double game and the Cleared-Hand game. The basic counts and the doubles for all hands
are the same in all three; the winner's bonus table differs by game (several doubles become
10 points in the Cleared-Hand game), and only the One-Double and Cleared-Hand games let a
hand that did not win keep its doubles for one suit, terminals and honours. Sixteen limit
hands score the limit, 500 (East pays and receives double, up to 1000).

Every reading the text leaves open is written down in ``docs/rules-notes/foster-1924.md``.

>>> from scoring.hand import Hand
>>> from scoring.rulesets import score_hand
>>> h = Hand.parse("2C3C4C5D6D7DRDRD [WWWWWW] [7B8B9B]", winning_tile="RD", won_by="discard", seat_wind="W")
>>> score_hand(h, "foster-1924-mixed").total
56
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from scoring.arrange import Arrangement, Shape
from scoring.context import ScoreContext
from scoring.engine import Citation, Option, Rule, RuleSet, ScoreLine, limit_rule, per_set_rule, points_rule
from scoring.hand import Flag, WinMethod
from scoring.melds import Meld, MeldKind
from scoring.rulesets import _common as c

BOOK = "Foster, American Code (1924)"
VERSION = "1"

BASIC_COUNTS = Citation(BOOK, "Part II", "Law 89: Basic Counts for All Hands")
DOUBLES_FOR_ALL = Citation(BOOK, "Part II", "Law 89: Doubles for All Hands")
WINNING_BONUS = Citation(BOOK, "Part II", "Law 89: Bonus Scores for Winning Hand Only")
ROBBING_A_KONG = Citation(BOOK, "Part II", "Law 90: Robbing a Kong")
ALL_SEQUENCE_HAND = Citation(BOOK, "Part II", "Law 91: All-Sequence Hand")
SPECIAL_BONUS = Citation(BOOK, "Part II", "Law 92: Special Bonus Hands")
THE_LIMIT = Citation(BOOK, "Part II", "Law 93: The Limit")
#: The bonus table's notes for hands that did not win: a loser's line never cites "winning hand only".
NON_WINNERS_STARRED = Citation(BOOK, "Part II", "Law 89: Bonus Scores table, note *: doubles also allowed to non-winning hands")
NON_WINNERS_DAGGER = Citation(BOOK, "Part II", "Law 89: Bonus Scores table, note †: 3 doubles for non-winners")


def limit_hand(number: str, name: str) -> Citation:
    return Citation(BOOK, "Part II", f"Law 100: Limit Hands, {number}. {name}")


#: Law 93: the limit, and the limit for or against East.
BOOK_LIMIT = 500
BOOK_EAST_LIMIT = 1000

MIXED, ONE_DOUBLE, CLEARED = "mixed", "one-double", "cleared"
GAMES = (MIXED, ONE_DOUBLE, CLEARED)
GAME_TITLES = {MIXED: "Mixed-Hand Game", ONE_DOUBLE: "One-Double Game", CLEARED: "Cleared-Hand Game"}


@dataclass(frozen=True)
class Worth:
    """What a line of the bonus table is worth in one game: points or doubles."""

    points: int = 0
    doubles: int = 0

    def __bool__(self) -> bool:
        return bool(self.points or self.doubles)


DOUBLE, TEN = Worth(doubles=1), Worth(points=10)
#: Rows of the bonus table that read "1 Double, 1 Double, 10 points".
DOUBLE_OR_TEN = {MIXED: DOUBLE, ONE_DOUBLE: DOUBLE, CLEARED: TEN}
#: "Filling only place to woo" has two entries for three games; the cleared cell is read as the blank
#: one, so the Cleared-Hand game has no such rule.
ONLY_PLACE = {MIXED: Worth(points=2), ONE_DOUBLE: Worth(points=2), CLEARED: Worth()}
#: Games whose non-winning hands keep the starred doubles (one suit, terminals, honours).
NON_WINNERS_KEEP_SUIT_DOUBLES = {MIXED: False, ONE_DOUBLE: True, CLEARED: True}


# --- basic counts for all hands -----------------------------------------------------------------


def pair_points(ctx: ScoreContext, meld: Meld) -> tuple[str, int] | None:
    """Dragons 2; own wind 2; prevailing wind 2; own wind when it prevails 4."""
    if meld.kind is not MeldKind.PAIR:
        return None
    tile = meld.tile
    if tile.is_dragon:
        return f"pair of {c.DRAGON_NAMES[tile.code]}", 2
    if tile == ctx.own_wind and tile == ctx.round_wind:
        return f"pair of own wind {tile} when prevailing", 4
    if tile == ctx.own_wind:
        return f"pair of player's own wind {tile}", 2
    if tile == ctx.round_wind:
        return f"pair of the prevailing wind {tile}", 2
    return None


def flowers_and_seasons(ctx: ScoreContext, rule: Rule) -> Iterable[ScoreLine]:
    for tile in c.bonus_tiles(ctx):
        yield rule.line(f"{c.FAMILY[tile.suit][:-1]} {tile}", points=4)


# --- doubles for all hands ----------------------------------------------------------------------


def dragon_set(ctx: ScoreContext, meld: Meld) -> tuple[str, int] | None:
    if meld.is_set_of_alike and meld.tile.is_dragon:
        return f"{c.set_name(meld)}: three (or four) {c.DRAGON_NAMES[meld.tile.code]}", 1
    return None


def own_flower_or_season(ctx: ScoreContext, rule: Rule) -> Iterable[ScoreLine]:
    """One double for each flower or season of the player's own number, unless it is in a bouquet."""
    complete = set(c.bouquets(ctx))
    for tile in c.own_bonus_tiles(ctx):
        if tile.suit not in complete:
            yield rule.line(f"player's own {c.FAMILY[tile.suit][:-1]} {tile}", doubles=1)


def bouquet(ctx: ScoreContext, rule: Rule) -> Iterable[ScoreLine]:
    """Four doubles for all four flowers (or all four seasons), own number's double included."""
    for suit in c.bouquets(ctx):
        yield rule.line(f"bouquet of four {c.FAMILY[suit]}", doubles=4)


# --- the winner's bonus table -------------------------------------------------------------------


def worth_rule(id: str, description: str, citation: Citation, worth: Worth, when: Callable[[ScoreContext], bool]) -> Rule:
    """A bonus table row in one game: its points or its doubles."""
    return c.choice_rule(id, description, citation, when, points=worth.points, doubles=worth.doubles)


def all_sequences_worthless_pair(ctx: ScoreContext) -> bool:
    """Four chows and a pair that counts nothing; drawing or filling the only place does not spoil it."""
    return c.winning_standard(ctx) and ctx.all_chows and ctx.pair is not None and pair_points(ctx, ctx.pair) is None


def last_available_tile(ctx: ScoreContext) -> bool:
    return c.won_with(ctx, WinMethod.LAST_TILE) or c.last_discard(ctx)


def suit_double(ctx: ScoreContext, game: str, holds: Callable[[ScoreContext], bool]) -> bool:
    """A starred double: the winner's always; a non-winner's in the games that allow it."""
    return holds(ctx) and (ctx.winner or NON_WINNERS_KEEP_SUIT_DOUBLES[game])


def starred_rule(id: str, description: str, game: str, holds: Callable[[ScoreContext], bool], doubles: int) -> Rule:
    """A starred row of the bonus table: the winner's line cites the table, a loser's its note *."""

    def find(ctx: ScoreContext, rule: Rule) -> Iterable[ScoreLine]:
        if suit_double(ctx, game, holds):
            line = rule.line(description, doubles=doubles)
            yield line if ctx.winner else replace(line, citation=NON_WINNERS_STARRED)

    return Rule(id, WINNING_BONUS, find)


def game_rules(game: str) -> tuple[Rule, ...]:
    """Every rule but the limit hands, with the bonus table's column for ``game``."""
    keep = NON_WINNERS_KEEP_SUIT_DOUBLES[game]
    rules: list[Rule] = [
        points_rule("woo", "Woo (completed hand)", 20, WINNING_BONUS, lambda ctx: ctx.winner),
        points_rule("drawing-winning-tile", "drawing the winning tile", 2, WINNING_BONUS, c.drew_winning_tile),
        per_set_rule("set", BASIC_COUNTS, c.set_points, values=c.SET_VALUES),
        per_set_rule("pair", BASIC_COUNTS, pair_points),
        Rule("flower", BASIC_COUNTS, flowers_and_seasons),
        per_set_rule("dragon-set", DOUBLES_FOR_ALL, dragon_set, doubles=True),
        c.choice_rule("own-wind-set", "three (or four) of player's own wind", DOUBLES_FOR_ALL,
                      lambda ctx: c.set_of(ctx, ctx.own_wind), doubles=1),
        c.choice_rule("prevailing-wind-set", "three (or four) of the prevailing wind", DOUBLES_FOR_ALL,
                      lambda ctx: c.set_of(ctx, ctx.round_wind), doubles=1),
        Rule("own-flower", DOUBLES_FOR_ALL, own_flower_or_season),
        Rule("bouquet", DOUBLES_FOR_ALL, bouquet),
        worth_rule("last-tile", "winning with the last available tile or the discard after it", WINNING_BONUS,
                   DOUBLE_OR_TEN[game], last_available_tile),
        worth_rule("loose-tile", "winning with the loose tile drawn after a kong", WINNING_BONUS,
                   DOUBLE_OR_TEN[game], lambda ctx: c.won_with(ctx, WinMethod.LOOSE_TILE)),
        worth_rule("robbing-kong", "robbing a kong", ROBBING_A_KONG, DOUBLE_OR_TEN[game],
                   lambda ctx: c.won_with(ctx, WinMethod.ROBBED_KONG)),
        worth_rule("all-sequences", "all sequences and a worthless pair", ALL_SEQUENCE_HAND,
                   DOUBLE_OR_TEN[game], all_sequences_worthless_pair),
        worth_rule("no-sequences", "no sequences", WINNING_BONUS, DOUBLE_OR_TEN[game],
                   lambda ctx: c.winning_standard(ctx) and ctx.no_chows),
        starred_rule("one-suit-with-honours", "all one suit, with honours", game, lambda x: x.one_suit_with_honours, 1),
        starred_rule("terminals-with-honours", "all terminals, with honours", game, c.terminals_with_honours, 1),
        starred_rule("all-one-suit", "all one suit, no honours", game, lambda x: x.all_one_suit, 3),
        worth_rule("delayed-call", "delayed call: one tile announced after East's first discard, hand unaltered",
                   SPECIAL_BONUS, DOUBLE,
                   lambda ctx: ctx.winner and not ctx.is_east and Flag.DELAYED_CALL in ctx.hand.flags),
        worth_rule("three-small-scholars", "three small scholars: two sets of dragons and a pair of the third",
                   SPECIAL_BONUS, DOUBLE_OR_TEN[game], lambda ctx: ctx.winner and c.three_small_dragons(ctx)),
        worth_rule("four-small-blessings", "four small blessings: three sets of winds and a pair of the fourth",
                   SPECIAL_BONUS, DOUBLE_OR_TEN[game], lambda ctx: ctx.winner and c.four_small_winds(ctx)),
    ]
    if ONLY_PLACE[game]:
        rules.insert(2, worth_rule("only-place", "filling the only place to woo", WINNING_BONUS, ONLY_PLACE[game],
                                   c.only_place))
    if keep:
        rules += [
            c.choice_rule("all-terminals-non-winner", "all terminals (a hand that did not win)", NON_WINNERS_DAGGER,
                          lambda ctx: not ctx.winner and c.all_terminals(ctx), doubles=3),
            c.choice_rule("all-honours-non-winner", "all honours (a hand that did not win)", NON_WINNERS_DAGGER,
                          lambda ctx: not ctx.winner and ctx.all_honours, doubles=3),
        ]
    return tuple(rules)


# --- limit hands (law 100) ----------------------------------------------------------------------

LIMIT_HANDS: tuple[Rule, ...] = (
    limit_rule("hidden-treasure", "the hidden treasure: four concealed triplets (or fours) and a pair, all drawn",
               limit_hand("I", "The Hidden Treasure"),
               lambda ctx: c.four_concealed_sets(ctx) and ctx.self_drawn),
    limit_rule("all-honours", "all honours: four triplets (or fours) and a pair of winds and dragons",
               limit_hand("II", "All Honours"), lambda ctx: c.winning_standard(ctx) and ctx.all_honours),
    limit_rule("all-terminals", "all terminals: four triplets (or fours) and a pair of ones and nines",
               limit_hand("III", "All Terminals"), lambda ctx: c.winning_standard(ctx) and c.all_terminals(ctx)),
    limit_rule("all-green", "all green: green dragons and the 2, 3, 4, 6, 8 of bamboos",
               limit_hand("IV", "All Green"), c.all_green),
    limit_rule("three-great-scholars", "the three great scholars: a set of each dragon",
               limit_hand("V", "The Three Great Scholars"),
               lambda ctx: c.winning_standard(ctx) and len(c.dragon_sets(ctx)) == 3),
    limit_rule("four-large-blessings", "the four large blessings: a set of each wind",
               limit_hand("VI", "The Four Large Blessings"),
               lambda ctx: c.winning_standard(ctx) and len(c.wind_sets(ctx)) == 4),
    limit_rule("all-kongs", "all kongs: four fours of a kind and any pair",
               limit_hand("VII", "All Kongs"), c.four_kongs),
    limit_rule("nine-united-sons", "nine united sons: 1112345678999 of one suit, concealed, completed by any tile of it",
               limit_hand("VIII", "Nine United Sons"), lambda ctx: c.nine_gates(ctx, waiting_on_all_nine=True)),
    limit_rule("thirteen-unique-wonders", "the thirteen unique wonders",
               limit_hand("IX", "The Thirteen Unique Wonders"), c.thirteen_wonders),
    limit_rule("heavenly-peace", "heavenly peace: East woos before discarding",
               limit_hand("X", "Heavenly Peace"), c.heavenly_hand),
    limit_rule("earthly-peace", "earthly peace: woo on East's first discard",
               limit_hand("XI", "Earthly Peace"), c.earthly_hand),
    limit_rule("moon-from-the-bottom-of-the-sea", "the moon from the bottom of the sea: the last tile of the wall, the one of circles",
               limit_hand("XII", "The Moon from the Bottom of the Sea"),
               lambda ctx: c.won_with(ctx, WinMethod.LAST_TILE, "1D")),
    limit_rule("plum-blossom-on-the-roof", "plum blossom on the roof: a loose tile after a kong, the five of circles",
               limit_hand("XIII", "Plum Blossom on the Roof"),
               lambda ctx: c.won_with(ctx, WinMethod.LOOSE_TILE, "5D")),
    limit_rule("scratching-a-carrying-pole", "scratching a carrying-pole: robbing a kong of the two of bamboos",
               limit_hand("XIV", "Scratching a Carrying-Pole"),
               lambda ctx: c.won_with(ctx, WinMethod.ROBBED_KONG, "2B")),
    limit_rule("kong-on-kong", "kong on kong: the second loose tile completes the hand",
               limit_hand("XV", "Kong on Kong"),
               lambda ctx: c.won_with(ctx, WinMethod.LOOSE_TILE) and Flag.KONG_ON_KONG in ctx.hand.flags),
    limit_rule("heavenly-twins", "the heavenly twins: seven different pairs of honours, or of one suit",
               limit_hand("XVI", "The Heavenly Twins"),
               lambda ctx: ctx.winner and ctx.shape is Shape.SEVEN_PAIRS and (ctx.all_honours or ctx.all_one_suit)),
)


def heavenly_twins_pairs(arrangement: Arrangement) -> bool:
    """Seven pairs make a hand only as the heavenly twins: all honours, or all one numbered suit."""
    tiles = [m.tile for m in arrangement.pairs]
    return all(t.is_honour for t in tiles) or (all(t.is_numbered for t in tiles) and len({t.suit for t in tiles}) == 1)


@dataclass(frozen=True)
class FosterRuleSet(RuleSet):
    """Law 100 admits seven pairs only as the heavenly twins; other seven-pair hands are not woo."""

    def accepts(self, arrangement: Arrangement) -> bool:
        if arrangement.shape is Shape.SEVEN_PAIRS and not heavenly_twins_pairs(arrangement):
            return False
        return super().accepts(arrangement)


def options() -> tuple[Option, ...]:
    return (
        Option.limit("limit", BOOK_LIMIT, "the limit on a hand's score, or none (law 93: 500)"),
        Option.limit("east_limit", BOOK_EAST_LIMIT,
               "the most East pays or receives on one hand (law 93: 1000); read by settlement, "
               "the hand's own score is capped at limit"),
        Option.number("limit_hand_value", BOOK_LIMIT,
               "what a limit hand scores when playing without a limit (law 100: a fixed value must be agreed)"),
        Option.flag("flowers", True, "play with the flowers and seasons (4 points each, own number a double)"),
    )


def foster_rule_set(game: str) -> RuleSet:
    """The rule set of one of the code's three games."""
    rules = game_rules(game)
    return FosterRuleSet(
        name=f"foster-1924-{game}",
        title=f"Foster, American Code (1924): {GAME_TITLES[game]}",
        version=VERSION,
        rules=rules + LIMIT_HANDS,
        options=options(),
        special_shapes=frozenset({Shape.THIRTEEN_HEADS, Shape.SEVEN_PAIRS}),
        exclusions=c.exclude_all_but_limits((r.id for r in LIMIT_HANDS), (r.id for r in rules)),
        notes=f"Law 89 basic counts and doubles for all hands, the {GAME_TITLES[game]} column of the bonus table, "
              "laws 90-92, the limit (law 93) and the sixteen limit hands (law 100).",
        limit_citation=THE_LIMIT,
        settling="foster-1924",
    )


FOSTER_MIXED = foster_rule_set(MIXED)
FOSTER_ONE_DOUBLE = foster_rule_set(ONE_DOUBLE)
FOSTER_CLEARED = foster_rule_set(CLEARED)

RULE_SETS = (FOSTER_MIXED, FOSTER_ONE_DOUBLE, FOSTER_CLEARED)
