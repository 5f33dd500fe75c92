"""A 1920s British rule book, from an OCR'd fragment: the score tables it leaves legible.

The fragment keeps the tables of pungs and kongs, the pairs that count, the doubles for all
hands and for the winner only, a list of worked hands with their doubles, the bonus scores and
"a different method of play" in which no one may call Mah-Jongg without three doubles (an
option here). In its tables the seasons and flowers count as sets, like dragons, and not one by
one. Several numbers are garbled or missing: each is listed, with the value chosen, in
``docs/rules-notes/british-1920s.md``.

>>> from scoring.hand import Hand
>>> from scoring.rulesets import score_hand
>>> h = Hand.parse("2C3C4C5D6D7DRDRD [WWWWWW] [7B8B9B]", winning_tile="RD", won_by="discard", seat_wind="W")
>>> score_hand(h, "british-1920s").total
56
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from scoring.arrange import Arrangement, Shape, arrangements
from scoring.context import ScoreContext
from scoring.engine import Citation, Option, Rule, RuleSet, ScoreLine, limit_rule, per_set_rule, points_rule, standard_tally
from scoring.errors import InvalidHandError
from scoring.hand import Flag, WinMethod
from scoring.melds import Meld
from scoring.rulesets import _common as c
from scoring.tiles import Suit

BOOK = "British rule book (1920s, OCR fragment)"
VERSION = "1"
SCORES = "The Scores and How to Calculate Them"

PUNGS_AND_KONGS = Citation(BOOK, SCORES, "Pungs (three of a kind); Kongs (four of a kind)")
PAIRS = Citation(BOOK, SCORES, "For the pair completing the hand")
DOUBLES_ALL = Citation(BOOK, SCORES, "Doubles: the following apply to all hands")
DOUBLES_WINNER = Citation(BOOK, SCORES, "Doubles: the following apply to the winner's hand only")
WORKED_HANDS = Citation(BOOK, SCORES, "Doubles: the worked hands (all pungs, all major pieces)")
LIMIT_HANDS = Citation(BOOK, SCORES, "Doubles: the worked hands, limit")
BONUS = Citation(BOOK, SCORES, "Bonus scores (winner's hand only)")
CHOSEN = Citation(BOOK, SCORES, "no limit in the fragment: 500 chosen, see docs/rules-notes/british-1920s.md")
DIFFERENT_METHOD = Citation(BOOK, "A Different Method of Play", "no Mah-Jongg without three doubles")

#: The fragment names no limit; we use the limit of the other books of the time (see the notes).
CHOSEN_LIMIT = 500
#: "Winning a Standing Hand" reads "gt <1005": we read 100.
STANDING_HAND = 100
REQUIRED_DOUBLES = 3


# --- points -------------------------------------------------------------------------------------


def pair_points(ctx: ScoreContext, rule: Rule) -> Iterable[ScoreLine]:
    """Pairs of a dragon, of own wind, of the wind of the round (values lost: 2 each, cumulative).

    "The above scores apply to all hands, winner and losers, alike", so a loser's pairs count.
    """
    return c.value_pair_lines(ctx, rule, "player's own wind", "wind of the round")


def flower_sets(ctx: ScoreContext) -> list[tuple[Suit, int]]:
    """Three or four flowers (or seasons), unmixed, held as a set: (family, how many)."""
    held = Counter(t.suit for t in c.bonus_tiles(ctx))
    return [(suit, n) for suit, n in held.items() if n >= 3]


def flower_set_points(ctx: ScoreContext, rule: Rule) -> Iterable[ScoreLine]:
    """Seasons and flowers count like dragons, as a set laid out on the table: pung 4, kong 16."""
    for suit, n in flower_sets(ctx):
        kind = "kong" if n == 4 else "pung"
        yield rule.line(f"{kind} of {c.FAMILY[suit]} (exposed)", points=16 if n == 4 else 4)


def flower_set_doubles(ctx: ScoreContext, rule: Rule) -> Iterable[ScoreLine]:
    for suit, n in flower_sets(ctx):
        yield rule.line(f"{'kong' if n == 4 else 'pung'} of {c.FAMILY[suit]}", doubles=1)


def dragon_set(ctx: ScoreContext, meld: Meld) -> tuple[str, int] | None:
    if meld.is_set_of_alike and meld.tile.is_dragon:
        return f"{c.set_name(meld)}: {c.DRAGON_NAMES[meld.tile.code]}", 1
    return None


# --- whole-hand doubles -------------------------------------------------------------------------


def one_suit_and_or_honours(ctx: ScoreContext) -> bool:
    """Only one suit, with or without winds and dragons."""
    return len(ctx.suits) == 1


def winners_one_suit(ctx: ScoreContext) -> bool:
    return c.winning_standard(ctx) and ctx.all_one_suit


def no_scoring_value(ctx: ScoreContext) -> bool:
    """Four chows and a pair that counts nothing, and no set of flowers: nothing in the hand scores."""
    if not (c.winning_standard(ctx) and ctx.all_chows and ctx.pair is not None):
        return False
    return not list(pair_points(ctx, PAIR_RULE)) and not flower_sets(ctx)


PAIR_RULE = Rule("pair", PAIRS, pair_points)

SCORING_RULES: tuple[Rule, ...] = (
    points_rule("mah-jongg", "going Mah-Jongg", 20, BONUS, lambda ctx: ctx.winner),
    points_rule("drawn-from-wall", "winning piece drawn from the wall", 2, BONUS, c.drew_winning_tile),
    points_rule("only-possible-piece", "winning with the only possible piece", 2, BONUS, c.only_place),
    Rule("standing-hand", BONUS,
         lambda ctx, r: [r.line("winning a standing hand", points=ctx.options["standing_hand"])]
         if ctx.winner and Flag.DELAYED_CALL in ctx.hand.flags else []),
    points_rule("no-scoring-value", "no scoring value in hand", 10, BONUS, no_scoring_value),
    points_rule("loose-tile", "winning with a loose tile", 10, BONUS, lambda ctx: c.won_with(ctx, WinMethod.LOOSE_TILE)),
    points_rule("last-piece", "winning with the last drawable piece from the wall", 10, BONUS,
                lambda ctx: c.won_with(ctx, WinMethod.LAST_TILE)),
    per_set_rule("set", PUNGS_AND_KONGS, c.set_points, values=c.SET_VALUES),
    Rule("flower-set", PUNGS_AND_KONGS, flower_set_points),
    PAIR_RULE,
    c.choice_rule("own-wind-set", "pung or kong in player's own wind", DOUBLES_ALL,
                  lambda ctx: c.set_of(ctx, ctx.own_wind), doubles=1),
    c.choice_rule("round-wind-set", "pung or kong in wind of the round", DOUBLES_ALL,
                  lambda ctx: c.set_of(ctx, ctx.round_wind), doubles=1),
    per_set_rule("dragon-set", DOUBLES_ALL, dragon_set, doubles=True),
    Rule("flower-set-double", DOUBLES_ALL, flower_set_doubles),
    c.choice_rule("one-suit", "hand of only one suit and/or winds and dragons", DOUBLES_ALL,
                  one_suit_and_or_honours, doubles=1),
    c.choice_rule("all-one-suit", "all one suit, chows and pungs", DOUBLES_WINNER,
                  lambda ctx: winners_one_suit(ctx) and bool(ctx.chows), doubles=3),
    c.choice_rule("all-one-suit-pungs", "all one suit, pungs only", DOUBLES_WINNER,
                  lambda ctx: winners_one_suit(ctx) and ctx.no_chows, doubles=4),
    c.choice_rule("all-honours", "winds and dragons only, no suit: 3 more doubles", DOUBLES_WINNER,
                  lambda ctx: c.winning_standard(ctx) and ctx.all_honours, doubles=3),
    c.choice_rule("all-pungs", "all pungs", WORKED_HANDS,
                  lambda ctx: c.winning_standard(ctx) and ctx.no_chows, doubles=1),
    c.choice_rule("all-major", "all major pieces (ones, nines, winds, dragons)", WORKED_HANDS,
                  lambda ctx: c.winning_standard(ctx) and ctx.all_heads, doubles=1),
)

def all_pairs(ctx: ScoreContext) -> bool:
    """Seven pairs, a kind held four times counting as two pairs."""
    return ctx.winner and ctx.shape in (Shape.SEVEN_PAIRS, Shape.PAIRS)


LIMIT_RULES: tuple[Rule, ...] = (
    limit_rule("pairs-of-honours", "pairs of winds and dragons", LIMIT_HANDS,
               lambda ctx: all_pairs(ctx) and ctx.all_honours),
    limit_rule("pairs-of-ones-and-nines", "pairs of ones and nines", LIMIT_HANDS,
               lambda ctx: all_pairs(ctx) and c.all_terminals(ctx)),
    limit_rule("hand-from-heaven", "hand from heaven: one and nine of each suit, each wind, each dragon, one paired",
               LIMIT_HANDS, c.thirteen_wonders),
)

#: The winner's one-suit lines stand in for the all-hands one-suit double; a pungs-only one-suit
#: hand is already "all pungs"; a hand of honours is valued by its own line alone.
EXCLUSIONS: dict[str, tuple[str, ...]] = {
    "all-one-suit": ("one-suit",),
    "all-one-suit-pungs": ("one-suit", "all-pungs"),
    "all-honours": ("all-pungs", "all-major"),
    **c.exclude_all_but_limits((r.id for r in LIMIT_RULES), (r.id for r in SCORING_RULES)),
}


# --- the three-doubles method -------------------------------------------------------------------


def doubles_of(lines: Iterable[ScoreLine]) -> int:
    return sum(line.doubles for line in lines)


def short_of_doubles(lines: list[ScoreLine], ctx: ScoreContext, options: Mapping[str, Any]) -> bool:
    """Under the three-doubles method, a winning hand (not a limit hand) with fewer than three doubles."""
    return (
        options["three_doubles"]
        and ctx.winner
        and not any(line.limit_hand for line in lines)
        and doubles_of(lines) < REQUIRED_DOUBLES
    )


def british_tally(lines: list[ScoreLine], ctx: ScoreContext, options: Mapping[str, Any]) -> tuple[int, int]:
    """Points doubled and capped at the limit; under the three-doubles method a hand short of three
    doubles is no Mah-Jongg: refused, unless another reading of it has them (then this reading is 0)."""
    if short_of_doubles(lines, ctx, options):
        most = max(
            doubles_of(BRITISH.lines_for(ScoreContext(ctx.hand, a, options)))
            for a in arrangements(ctx.hand) if BRITISH.accepts(a)
        )
        if most < REQUIRED_DOUBLES:
            raise InvalidHandError([
                f"{ctx.hand} has {most} double{'s' if most != 1 else ''}: under the three-doubles method "
                f"(--option three_doubles=yes) no one may call Mah-Jongg with fewer than {REQUIRED_DOUBLES}"
            ])
        return 0, 0
    return standard_tally(lines, ctx, options)


def limit_pairs(arrangement: Arrangement) -> bool:
    """Pairs make a hand only as a limit hand: all of winds and dragons, or all of ones and nines."""
    tiles = [p.tile for p in arrangement.pairs]
    return all(t.is_honour for t in tiles) or all(t.is_terminal for t in tiles)


@dataclass(frozen=True)
class BritishRuleSet(RuleSet):
    """Pairs are a hand only as the limit hands of winds and dragons or of ones and nines; the
    three-doubles method marks a reading that falls short."""

    def accepts(self, arrangement: Arrangement) -> bool:
        if arrangement.shape in (Shape.SEVEN_PAIRS, Shape.PAIRS) and not limit_pairs(arrangement):
            return False
        return super().accepts(arrangement)

    def lines_for(self, ctx: ScoreContext, *, limit_hands: bool = True) -> list[ScoreLine]:
        lines = super().lines_for(ctx, limit_hands=limit_hands)
        if short_of_doubles(lines, ctx, ctx.options):
            lines.append(ScoreLine("three-doubles", f"only {doubles_of(lines)} doubles this way: not a Mah-Jongg "
                                   "under the three-doubles method", DIFFERENT_METHOD))
        return lines


BRITISH = BritishRuleSet(
    name="british-1920s",
    title="British rule book (1920s), from an OCR'd fragment",
    version=VERSION,
    rules=SCORING_RULES + LIMIT_RULES,
    options=(
        Option.limit("limit", CHOSEN_LIMIT, "the limit on a hand's score, or none (the fragment names none: 500 chosen)"),
        Option.number("limit_hand_value", CHOSEN_LIMIT, "what a limit hand scores when playing without a limit"),
        Option.flag("flowers", True, "play with seasons and flowers, which count as sets like dragons"),
        Option.flag("three_doubles", False,
               "the different method of play: no Mah-Jongg without at least three doubles (limit hands excepted)"),
        Option.number("standing_hand", STANDING_HAND,
               "points for winning a standing hand (flag delayed-call); the OCR reads '<1005', taken as 100"),
    ),
    special_shapes=frozenset({Shape.THIRTEEN_HEADS, Shape.SEVEN_PAIRS, Shape.PAIRS}),
    exclusions=EXCLUSIONS,
    tally=british_tally,
    notes="Pung, kong and pair values, doubles for all hands and the winner, bonus scores, two limit hands; "
          "the three-doubles method as an option.",
    limit_citation=CHOSEN,
    settling="british-1920s",
)

RULE_SETS = (BRITISH,)
