"""Chinese Classical, as a modern guide writes it up: basic points, doubles, nine limit hands.

Every player scores the basic points of his pungs and kongs and the doubles for sets of
winds and dragons (the losers are paid the same as the winner); only the winner adds the
bonus points for going out, the whole-hand doubles and the doubles for the way he went out.
The total is rounded to the nearest ten after doubling and capped at the limit, 500.

Where the guide's tables and its settings table disagree, the settings table gives the default
and the other value is an option; each choice is in ``docs/rules-notes/chinese-classical.md``.

>>> from scoring.hand import Hand
>>> from scoring.rulesets import score_hand
>>> h = Hand.parse("2C3C4C5D6D7DRDRD [WWWWWW] [7B8B9B]", winning_tile="RD", won_by="discard", seat_wind="W")
>>> score_hand(h, "chinese-classical").total
60
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from scoring.arrange import Shape
from scoring.context import ScoreContext
from scoring.engine import (
    Citation,
    Option,
    Rule,
    RuleSet,
    ScoreLine,
    doubled,
    limit_rule,
    per_set_rule,
    points_rule,
    standard_tally,
)
from scoring.hand import WinMethod
from scoring.rulesets import _common as c

BOOK = "Chinese Classical (modern guide)"
VERSION = "1"

BASIC_POINTS = Citation(BOOK, "Points", "Basic Points")
BONUS_POINTS = Citation(BOOK, "Points", "Bonus Points")
DOUBLES_ALL = Citation(BOOK, "Doubles", "All players")
DOUBLES_WINNER = Citation(BOOK, "Doubles", "Winner only")
GOING_OUT = Citation(BOOK, "Doubles", "Winner only: going out")
LIMIT_HANDS_TABLE = Citation(BOOK, "Limit Hands", "")
SETTINGS = Citation(BOOK, "Settings", "Scores for patterns based on Pungs and Kongs")
SETTINGS_WHOLE_HAND = Citation(BOOK, "Settings", "Scores for patterns based on the whole hand")
SETTINGS_ROUNDING = Citation(BOOK, "Settings", "Rounding")
SETTINGS_LIMIT = Citation(BOOK, "Settings", "Limit points")
SETTINGS_LIMIT_HANDS = Citation(BOOK, "Settings", "Limit hands: Classical; special ways of going out")

#: Settings table: "Limit points 500".
BOOK_LIMIT = 500


def limit_hand(name: str) -> Citation:
    return Citation(BOOK, "Limit Hands", name)


# --- points -------------------------------------------------------------------------------------


def winners_pairs(ctx: ScoreContext, rule: Rule) -> Iterable[ScoreLine]:
    """2 points for a pair of dragons, of own wind, of the wind of the round; in the winner's hand
    only (the pair row's footnote), unless ``losers_pairs`` takes the settings table's general
    "the losers are paid the same as the winner" to cover pairs too. A pair of own wind that is
    also the round's counts both."""
    if ctx.winner or ctx.options["losers_pairs"]:
        return c.value_pair_lines(ctx, rule, "own wind", "wind of round")
    return ()


def concealed_hand_points(ctx: ScoreContext, rule: Rule) -> Iterable[ScoreLine]:
    points = ctx.options["concealed_hand_points"]
    if ctx.winner and points and c.nothing_declared_exposed(ctx):
        yield rule.line("concealed hand: nothing shown on the table", points=points)


# --- doubles ------------------------------------------------------------------------------------


def wind_and_dragon_sets(ctx: ScoreContext, rule: Rule) -> Iterable[ScoreLine]:
    """x1 for each pung or kong of own wind, of the wind of the round, of a dragon (cumulative)."""
    for meld in ctx.pungs_and_kongs:
        if meld.tile.is_dragon:
            yield rule.line(f"{c.set_name(meld)}: dragons", doubles=1)
        if meld.tile == ctx.own_wind:
            yield rule.line(f"{c.set_name(meld)}: own wind", doubles=1)
        if meld.tile == ctx.round_wind:
            yield rule.line(f"{c.set_name(meld)}: wind of round", doubles=1)


def chow_hand(ctx: ScoreContext) -> bool:
    """Four chows and a pair that is not a value pair (dragons, own wind, wind of round)."""
    return c.winning_standard(ctx) and ctx.all_chows and ctx.pair is not None and not ctx.is_scoring_pair(ctx.pair)


def terminals_and_honours(ctx: ScoreContext, rule: Rule) -> Iterable[ScoreLine]:
    if ctx.winner and ctx.all_heads:
        doubles = ctx.options["terminals_and_honours_doubles"]
        yield rule.line("all terminals and honours", doubles=doubles)


def winner_rules() -> tuple[Rule, ...]:
    return (
        points_rule("going-out", "going out", 20, BONUS_POINTS, lambda ctx: ctx.winner),
        Rule("concealed-hand", BONUS_POINTS, concealed_hand_points),
        points_rule("self-drawn", "self-drawn last tile", 2, BONUS_POINTS, c.drew_winning_tile),
        points_rule("out-on-pair", "out on a pair", 2, BONUS_POINTS, c.out_on_pair),
        points_rule("one-chance-chow", "out on a one-chance chow (1-2-X, X-8-9, 1-X-3)", 2, BONUS_POINTS,
                    c.one_chance_chow),
        c.choice_rule("fully-concealed", "fully concealed hand", DOUBLES_WINNER,
                      lambda ctx: ctx.winner and ctx.fully_concealed, doubles=1),
        c.choice_rule("chow-hand", "chow hand: no pungs, kongs or value pairs", DOUBLES_WINNER, chow_hand, doubles=1),
        c.choice_rule("pung-hand", "pung hand: no chows", DOUBLES_WINNER,
                      lambda ctx: c.winning_standard(ctx) and ctx.no_chows, doubles=1),
        Rule("terminals-and-honours", SETTINGS_WHOLE_HAND, terminals_and_honours),
        c.choice_rule("one-suit-with-honours", "one suit and honours", DOUBLES_WINNER,
                      lambda ctx: ctx.winner and ctx.one_suit_with_honours, doubles=1),
        c.choice_rule("one-suit", "one suit only", DOUBLES_WINNER,
                      lambda ctx: ctx.winner and ctx.all_one_suit, doubles=3),
        c.choice_rule("last-tile", "out on the last tile of the wall", GOING_OUT,
                      lambda ctx: c.won_with(ctx, WinMethod.LAST_TILE), doubles=1),
        c.choice_rule("last-discard", "out on the last discard", GOING_OUT, c.last_discard, doubles=1),
        c.choice_rule("supplement-tile", "out on a supplement tile", GOING_OUT,
                      lambda ctx: c.won_with(ctx, WinMethod.LOOSE_TILE), doubles=1),
        c.choice_rule("robbing-kong", "out by robbing a kong", GOING_OUT,
                      lambda ctx: c.won_with(ctx, WinMethod.ROBBED_KONG), doubles=1),
    )


ALL_PLAYERS: tuple[Rule, ...] = (
    per_set_rule("set", BASIC_POINTS, c.set_points, values=c.SET_VALUES),
    Rule("pair", BASIC_POINTS, winners_pairs),
    Rule("wind-or-dragon-set", DOUBLES_ALL, wind_and_dragon_sets),
    c.choice_rule("little-three-dragons", "little three dragons: two sets of dragons and a pair of the third",
                  SETTINGS, c.three_small_dragons, doubles=3),
)


# --- limit hands --------------------------------------------------------------------------------


def more_limit_hands(ctx: ScoreContext) -> bool:
    return bool(ctx.options["more_limit_hands"])


CLASSICAL_LIMIT_HANDS: tuple[Rule, ...] = (
    limit_rule("hidden-treasure", "hidden treasure: four concealed pungs (or kongs) and a pair",
               limit_hand("Hidden Treasure"), c.four_concealed_sets),
    limit_rule("three-great-scholars", "three great scholars: a pung or kong of each dragon",
               limit_hand("Three Great Scholars"), lambda ctx: c.winning_standard(ctx) and len(c.dragon_sets(ctx)) == 3),
    limit_rule("big-four-winds", "big four winds: a pung or kong of each wind",
               limit_hand("Big Four Winds"), lambda ctx: c.winning_standard(ctx) and len(c.wind_sets(ctx)) == 4),
    limit_rule("all-honours", "all honours: four pungs or kongs of winds and dragons, a pair of them",
               limit_hand("All honours"), lambda ctx: c.winning_standard(ctx) and ctx.all_honours),
    limit_rule("all-terminals", "all terminals: four pungs or kongs of terminals, a pair of them",
               limit_hand("All Terminals"), lambda ctx: c.winning_standard(ctx) and c.all_terminals(ctx)),
    limit_rule("nine-gates", "nine gates: 1112345678999 and one more of the suit, concealed",
               limit_hand("Nine Gates"), lambda ctx: c.nine_gates(ctx, waiting_on_all_nine=False)),
    limit_rule("thirteen-orphans", "thirteen orphans", limit_hand("Thirteen Orphans"), c.thirteen_wonders),
    limit_rule("heavenly-hand", "heavenly hand: East goes out with the dealt hand",
               limit_hand("Heavenly hand"), c.heavenly_hand),
    limit_rule("earthly-hand", "earthly hand: out on the dealer's first discard",
               limit_hand("Earthly hand"), c.earthly_hand),
)

#: In the guide's limit-hand table but not in its settings table's classical list: option ``more_limit_hands``.
MORE_LIMIT_HANDS: tuple[Rule, ...] = (
    limit_rule("all-green", "all green: green dragons and the 2, 3, 4, 6, 8 of bamboo",
               limit_hand("All Green"), lambda ctx: more_limit_hands(ctx) and c.all_green(ctx)),
    limit_rule("four-kongs", "four kongs", limit_hand("Four Kongs"),
               lambda ctx: more_limit_hands(ctx) and c.four_kongs(ctx)),
    limit_rule("little-four-winds", "little four winds: three wind sets and a pair of the fourth",
               limit_hand("Little Four Winds"),
               lambda ctx: more_limit_hands(ctx) and ctx.winner and c.four_small_winds(ctx)),
)
LIMIT_HANDS = CLASSICAL_LIMIT_HANDS + MORE_LIMIT_HANDS


# --- rounding and the tally ---------------------------------------------------------------------


def round_to_ten(value: int) -> int:
    """The nearest ten, a five going up (125 -> 130)."""
    return (value + 5) // 10 * 10


def classical_tally(lines: list[ScoreLine], ctx: ScoreContext, options: Mapping[str, Any]) -> tuple[int, int]:
    """Points doubled, rounded to the nearest ten (when ``rounding``), then capped at the limit."""
    if any(line.limit_hand for line in lines) or not options["rounding"]:
        return standard_tally(lines, ctx, options)
    rounded = round_to_ten(doubled(lines))
    limit = options.get("limit")
    return rounded, rounded if limit is None else min(rounded, limit)


@dataclass(frozen=True)
class ClassicalRuleSet(RuleSet):
    """Adds a line that shows the rounding, so the total can be followed line by line."""

    def lines_for(self, ctx: ScoreContext, *, limit_hands: bool = True) -> list[ScoreLine]:
        lines = super().lines_for(ctx, limit_hands=limit_hands)
        if ctx.options["rounding"] and not any(line.limit_hand for line in lines):
            raw = doubled(lines)
            if raw != round_to_ten(raw):
                lines.append(ScoreLine("rounding", f"rounded to the nearest ten after doubles: {raw} -> {round_to_ten(raw)}",
                                       SETTINGS_ROUNDING))
        return lines


def options() -> tuple[Option, ...]:
    return (
        Option.limit("limit", BOOK_LIMIT, "the limit on a hand's score, or none (settings table: 500)"),
        Option.number("limit_hand_value", BOOK_LIMIT, "what a limit hand scores when playing without a limit"),
        Option.flag("rounding", True, "round the total to the nearest ten after doubles (settings table: yes)"),
        Option.number("terminals_and_honours_doubles", 3,
               "doubles for all terminals and honours: 3 in the settings table, 1 in the doubles table", (1, 3)),
        Option.number("concealed_hand_points", 10,
               "bonus points for a concealed hand (bonus table: 10; the settings table lists none, 0)"),
        Option.flag("losers_pairs", False,
               "pairs of dragons and winds count in a loser's hand too (the settings table: 'the losers are paid "
               "the same as the winner'); by default the pair row's footnote keeps them to the winner"),
        Option.flag("more_limit_hands", False,
               "also pay all green, four kongs and little four winds as limit hands (the limit-hand table; "
               "the settings table's classical list leaves them out)"),
    )


WINNER = winner_rules()

CHINESE_CLASSICAL = ClassicalRuleSet(
    name="chinese-classical",
    title="Chinese Classical (modern guide)",
    version=VERSION,
    rules=WINNER + ALL_PLAYERS + LIMIT_HANDS,
    options=options(),
    special_shapes=frozenset({Shape.THIRTEEN_HEADS}),
    exclusions=c.exclude_all_but_limits((r.id for r in LIMIT_HANDS), (r.id for r in WINNER + ALL_PLAYERS)),
    tally=classical_tally,
    notes="Basic points for all players, bonus points and whole-hand doubles for the winner, doubles for "
          "wind and dragon sets for all; rounded to ten, limit 500; flowers and seasons not used.",
    limit_citation=SETTINGS_LIMIT,
    settling="chinese-classical",
)

RULE_SETS = (CHINESE_CLASSICAL,)
