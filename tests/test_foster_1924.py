"""Foster, American Code (1924): given this hand, this score, because these lines.

Each hand is scored in all three games of the code (Mixed-Hand, One-Double, Cleared-Hand);
the working beside it is done by hand from laws 89-100 in
``../shared/rules/american-code-foster-1924.txt``. Seat and prevailing wind are East unless
a hand says otherwise.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from scoring.engine import ScoreResult
from scoring.errors import InvalidHandError, PungChowError, UnknownRuleSetError
from scoring.hand import Hand
from scoring.rulesets import get_rule_set, score_hand

MIXED, ONE_DOUBLE, CLEARED = "foster-1924-mixed", "foster-1924-one-double", "foster-1924-cleared"
GAMES = (MIXED, ONE_DOUBLE, CLEARED)


def score(text: str, rules: str, options: dict[str, Any] | None = None, **hand: Any) -> ScoreResult:
    return score_hand(Hand.parse(text, **hand), rules, options)


def fired(result: ScoreResult) -> Counter[str]:
    return Counter(line.rule for line in result.lines)


# Each case: the hand, how it was won, and per game (total, the rules that fired).
CASES: list[tuple[str, str, dict[str, Any], dict[str, tuple[int, list[str]]]]] = [
    (
        # West, East round. Woo 20; only place (nothing but RD completes it) 2; pung of WW exposed
        # (honours) 4; pair of red dragons 2 = 28. Own wind set: 1 double -> 56.
        # Cleared: the "filling only place" cell is blank -> 26 x 2 = 52.
        "own wind set, pair of dragons, only place",
        "2C3C4C5D6D7DRDRD [WWWWWW] [7B8B9B]",
        dict(winning_tile="RD", won_by="discard", seat_wind="W"),
        {
            MIXED: (56, ["woo", "only-place", "set", "pair", "own-wind-set"]),
            ONE_DOUBLE: (56, ["woo", "only-place", "set", "pair", "own-wind-set"]),
            CLEARED: (52, ["woo", "set", "pair", "own-wind-set"]),
        },
    ),
    (
        # South, drawn 5D to the pair (the only tile that completes it). Woo 20, drawing 2, only
        # place 2 = 24; all sequences and a worthless pair (law 91: drawing and only place do
        # not spoil it): 1 double -> 48. Cleared: 20 + 2 + 10 (all sequences) = 32.
        "all sequences and a worthless pair, drawn",
        "1B2B3B4C5C6C7D8D9D2B3B4B5D5D",
        dict(winning_tile="5D", won_by="wall", seat_wind="S"),
        {
            MIXED: (48, ["woo", "drawing-winning-tile", "only-place", "all-sequences"]),
            ONE_DOUBLE: (48, ["woo", "drawing-winning-tile", "only-place", "all-sequences"]),
            CLEARED: (32, ["woo", "drawing-winning-tile", "all-sequences"]),
        },
    ),
    (
        # South, East round; discard 5B to the pair, the only tile that completes it.
        # Woo 20, only place 2; RD exposed 4, EW exposed 4, 2C concealed (simples) 4, 9D concealed
        # (terminals) 8, pair of 5B 0 = 42. Doubles: red dragons, prevailing wind, no sequences
        # -> 42 x 8 = 336. Cleared: 40 + 10 (no sequences) = 50 x 4 = 200.
        "no sequences, dragons, prevailing wind",
        "[RDRDRD] [EWEWEW] 2C2C2C9D9D9D5B5B",
        dict(winning_tile="5B", won_by="discard", seat_wind="S"),
        {
            MIXED: (336, ["woo", "only-place", "set", "set", "set", "set", "dragon-set", "prevailing-wind-set", "no-sequences"]),
            ONE_DOUBLE: (336, ["woo", "only-place", "set", "set", "set", "set", "dragon-set", "prevailing-wind-set", "no-sequences"]),
            CLEARED: (200, ["woo", "set", "set", "set", "set", "dragon-set", "prevailing-wind-set", "no-sequences"]),
        },
    ),
    (
        # East in the East round wins on the loose tile 9C after his kong of East Wind.
        # Woo 20, drawing 2, only place (9C alone pairs) 2, kong EW exposed 16, 5C concealed 4 = 44.
        # Doubles: own wind, prevailing wind, loose tile, one suit with honours -> 44 x 16 = 704,
        # capped at the limit 500. Cleared: 20+2+16+4+10 (loose tile) = 52 x 8 = 416.
        "own and prevailing wind, loose tile, one suit with honours: over the limit",
        "1C2C3C5C5C5C9C9C [EWEWEWEW] [7C8C9C]",
        dict(winning_tile="9C", won_by="loose-tile"),
        {
            MIXED: (500, ["woo", "drawing-winning-tile", "only-place", "set", "set", "own-wind-set",
                          "prevailing-wind-set", "loose-tile", "one-suit-with-honours"]),
            ONE_DOUBLE: (500, ["woo", "drawing-winning-tile", "only-place", "set", "set", "own-wind-set",
                               "prevailing-wind-set", "loose-tile", "one-suit-with-honours"]),
            CLEARED: (416, ["woo", "drawing-winning-tile", "set", "set", "own-wind-set", "prevailing-wind-set",
                            "loose-tile", "one-suit-with-honours"]),
        },
    ),
    (
        # North, discard 4B robbed from a kong; 2B3B waited on 1B or 4B, so no only place.
        # Woo 20, EW exposed 4, pair of own wind NW 2 = 26. Doubles: prevailing wind, robbing a
        # kong (law 90) -> 104. Cleared: 26 + 10 (robbing) = 36 x 2 = 72.
        "robbing a kong",
        "4D5D6D2B3B4BNWNW [7C8C9C] [EWEWEW]",
        dict(winning_tile="4B", won_by="robbed-kong", seat_wind="N"),
        {
            MIXED: (104, ["woo", "set", "pair", "prevailing-wind-set", "robbing-kong"]),
            ONE_DOUBLE: (104, ["woo", "set", "pair", "prevailing-wind-set", "robbing-kong"]),
            CLEARED: (72, ["woo", "set", "pair", "prevailing-wind-set", "robbing-kong"]),
        },
    ),
    (
        # South draws 7C; 8C9C9C9C waited on 7C or 8C, so no only place. Woo 20, drawing 2,
        # 1C exposed (terminals) 4 = 26; all one suit, no honours: 3 doubles -> 208 in every game.
        "all one suit",
        "2C3C4C4C5C6C7C8C9C9C9C [1C1C1C]",
        dict(winning_tile="7C", won_by="wall", seat_wind="S"),
        {
            game: (208, ["woo", "drawing-winning-tile", "set", "all-one-suit"]) for game in GAMES
        },
    ),
    (
        # South draws the last tile of the wall, 5B, to the pair after a delayed call.
        # Woo 20, drawing 2, only place 2, WD concealed 8 = 32. Doubles: white dragons, last tile,
        # delayed call (law 92) -> 32 x 8 = 256. Cleared: 20+2+8+10 (last tile) = 40 x 4 = 160.
        "last tile of the wall and a delayed call",
        "1B2B3B4D5D6D7C8C9CWDWDWD5B5B",
        dict(winning_tile="5B", won_by="last-tile", seat_wind="S", flags={"delayed-call"}),
        {
            MIXED: (256, ["woo", "drawing-winning-tile", "only-place", "set", "dragon-set", "last-tile", "delayed-call"]),
            ONE_DOUBLE: (256, ["woo", "drawing-winning-tile", "only-place", "set", "dragon-set", "last-tile", "delayed-call"]),
            CLEARED: (160, ["woo", "drawing-winning-tile", "set", "dragon-set", "last-tile", "delayed-call"]),
        },
    ),
    (
        # West, discard 8D (6D7D waited on 5D or 8D). Woo 20, RD 4, GD 4, pair of white dragons 2
        # = 30. Doubles: two dragon sets, three small scholars -> 30 x 8 = 240.
        # Cleared: 30 + 10 (three small scholars) = 40 x 4 = 160.
        "three small scholars",
        "[RDRDRD] [GDGDGD] WDWD2B3B4B6D7D8D",
        dict(winning_tile="8D", won_by="discard", seat_wind="W"),
        {
            MIXED: (240, ["woo", "set", "set", "pair", "dragon-set", "dragon-set", "three-small-scholars"]),
            ONE_DOUBLE: (240, ["woo", "set", "set", "pair", "dragon-set", "dragon-set", "three-small-scholars"]),
            CLEARED: (160, ["woo", "set", "set", "pair", "dragon-set", "dragon-set", "three-small-scholars"]),
        },
    ),
    (
        # North, discard 5C (3C4C waited on 2C or 5C). Woo 20, EW 4, SW 4, WW 4, pair of own wind
        # NW 2 = 34. Doubles: prevailing wind EW, four small blessings, one suit with honours
        # -> 34 x 8 = 272. Cleared: 34 + 10 = 44 x 4 = 176.
        "four small blessings",
        "[EWEWEW] [SWSWSW] [WWWWWW] NWNW3C4C5C",
        dict(winning_tile="5C", won_by="discard", seat_wind="N"),
        {
            MIXED: (272, ["woo", "set", "set", "set", "pair", "prevailing-wind-set", "four-small-blessings",
                          "one-suit-with-honours"]),
            ONE_DOUBLE: (272, ["woo", "set", "set", "set", "pair", "prevailing-wind-set", "four-small-blessings",
                               "one-suit-with-honours"]),
            CLEARED: (176, ["woo", "set", "set", "set", "pair", "prevailing-wind-set", "four-small-blessings",
                            "one-suit-with-honours"]),
        },
    ),
    (
        # South draws 1C to the pair (the only tile). Woo 20, drawing 2, only place 2; 1B and 9D
        # concealed (terminals) 8 + 8, NW and RD exposed 4 + 4 = 48. Doubles: red dragons, no
        # sequences, all terminals with honours -> 48 x 8 = 384.
        # Cleared: 20 + 2 + 24 + 10 (no sequences) = 56 x 4 = 224.
        "all terminals with honours",
        "1B1B1B9D9D9D1C1C [NWNWNW] [RDRDRD]",
        dict(winning_tile="1C", won_by="wall", seat_wind="S"),
        {
            MIXED: (384, ["woo", "drawing-winning-tile", "only-place", "set", "set", "set", "set", "dragon-set",
                          "no-sequences", "terminals-with-honours"]),
            ONE_DOUBLE: (384, ["woo", "drawing-winning-tile", "only-place", "set", "set", "set", "set", "dragon-set",
                               "no-sequences", "terminals-with-honours"]),
            CLEARED: (224, ["woo", "drawing-winning-tile", "set", "set", "set", "set", "dragon-set", "no-sequences",
                            "terminals-with-honours"]),
        },
    ),
    (
        # South holds flowers 2F and 3F and season 2S. Base: woo 20, drawing 2, 5D... see case 2
        # (the all-sequence hand) = 24; flowers 3 x 4 = 12 -> 36. Doubles: own flower 2F, own
        # season 2S, all sequences -> 36 x 8 = 288. Cleared: 20 + 2 + 12 + 10 = 44 x 4 = 176.
        "own flower and own season",
        "1B2B3B4C5C6C7D8D9D2B3B4B5D5D 2F3F2S",
        dict(winning_tile="5D", won_by="wall", seat_wind="S"),
        {
            MIXED: (288, ["woo", "drawing-winning-tile", "only-place", "flower", "flower", "flower", "own-flower",
                          "own-flower", "all-sequences"]),
            ONE_DOUBLE: (288, ["woo", "drawing-winning-tile", "only-place", "flower", "flower", "flower",
                               "own-flower", "own-flower", "all-sequences"]),
            CLEARED: (176, ["woo", "drawing-winning-tile", "flower", "flower", "flower", "own-flower", "own-flower",
                            "all-sequences"]),
        },
    ),
    (
        # South holds all four flowers: 16 points and the bouquet's four doubles (the own flower 2F
        # is part of the bouquet, not a fifth double). 24 + 16 = 40; bouquet 4 doubles, all
        # sequences 1 -> 40 x 32 = 1280, capped at 500. Cleared: 20+2+16+10 = 48 x 16 = 768 -> 500.
        "a bouquet of four flowers",
        "1B2B3B4C5C6C7D8D9D2B3B4B5D5D 1F2F3F4F",
        dict(winning_tile="5D", won_by="wall", seat_wind="S"),
        {
            MIXED: (500, ["woo", "drawing-winning-tile", "only-place", "flower", "flower", "flower", "flower",
                          "bouquet", "all-sequences"]),
            ONE_DOUBLE: (500, ["woo", "drawing-winning-tile", "only-place", "flower", "flower", "flower", "flower",
                               "bouquet", "all-sequences"]),
            CLEARED: (500, ["woo", "drawing-winning-tile", "flower", "flower", "flower", "flower", "bouquet",
                            "all-sequences"]),
        },
    ),
    (
        # North did not win: pungs of 2B and 8B concealed 4 + 4, RD exposed 4 = 12; red dragons
        # 1 double -> 24. One-Double and Cleared games keep the starred double for one suit with
        # honours -> 48; the Mixed game refuses it to a non-winner.
        "a non-winner's one suit with honours",
        "2B2B2B4B5B6B7B8B8B8B [RDRDRD]",
        dict(seat_wind="N", winner=False),
        {
            MIXED: (24, ["set", "set", "set", "dragon-set"]),
            ONE_DOUBLE: (48, ["set", "set", "set", "dragon-set", "one-suit-with-honours"]),
            CLEARED: (48, ["set", "set", "set", "dragon-set", "one-suit-with-honours"]),
        },
    ),
    (
        # A non-winner of all dots: 1D concealed (terminals) 8, 9D exposed 4 = 12. Mixed: 12.
        # One-Double and Cleared: all one suit, 3 doubles -> 96.
        "a non-winner's all one suit",
        "1D1D1D3D4D5D7D [9D9D9D] [2D3D4D]",
        dict(seat_wind="W", winner=False),
        {
            MIXED: (12, ["set", "set"]),
            ONE_DOUBLE: (96, ["set", "set", "all-one-suit"]),
            CLEARED: (96, ["set", "set", "all-one-suit"]),
        },
    ),
    (
        # A non-winner of all terminals: 1B and 9C concealed 8 + 8, kong of 9B exposed 16 = 32;
        # the pairs of 1D and 9D count nothing. Mixed: 32. One-Double and Cleared (dagger note):
        # 3 doubles for a non-winner -> 256.
        "a non-winner's all terminals",
        "1B1B1B9C9C9C1D1D9D9D [9B9B9B9B]",
        dict(seat_wind="W", winner=False),
        {
            MIXED: (32, ["set", "set", "set"]),
            ONE_DOUBLE: (256, ["set", "set", "set", "all-terminals-non-winner"]),
            CLEARED: (256, ["set", "set", "set", "all-terminals-non-winner"]),
        },
    ),
    (
        # West, not winning, all honours: EW and SW concealed 8 + 8, NW exposed 4, pairs of green
        # and white dragons 2 + 2 = 24. Prevailing wind EW: 1 double -> 48 (Mixed).
        # One-Double and Cleared add 3 doubles for all honours -> 24 x 16 = 384.
        "a non-winner's all honours",
        "EWEWEWSWSWSWGDGDWDWD [NWNWNW]",
        dict(seat_wind="W", winner=False),
        {
            MIXED: (48, ["set", "set", "set", "pair", "pair", "prevailing-wind-set"]),
            ONE_DOUBLE: (384, ["set", "set", "set", "pair", "pair", "prevailing-wind-set", "all-honours-non-winner"]),
            CLEARED: (384, ["set", "set", "set", "pair", "pair", "prevailing-wind-set", "all-honours-non-winner"]),
        },
    ),
    (
        # Four concealed pungs, but won on a discard: not the hidden treasure (all tiles must be
        # drawn). Woo 20, only place 2, 1B 8, 5C 4, 9D 8, EW 8 (all concealed) = 50. Doubles:
        # prevailing wind, no sequences -> 200. Cleared: 48 + 10 = 58 x 2 = 116.
        "four concealed pungs on a discard",
        "1B1B1B5C5C5C9D9D9DEWEWEW2D2D",
        dict(winning_tile="2D", won_by="discard", seat_wind="S"),
        {
            MIXED: (200, ["woo", "only-place", "set", "set", "set", "set", "prevailing-wind-set", "no-sequences"]),
            ONE_DOUBLE: (200, ["woo", "only-place", "set", "set", "set", "set", "prevailing-wind-set", "no-sequences"]),
            CLEARED: (116, ["woo", "set", "set", "set", "set", "prevailing-wind-set", "no-sequences"]),
        },
    ),
]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name, text, hand, expected", CASES, ids=[c[0] for c in CASES])
def test_hand_in_each_game(name: str, text: str, hand: dict[str, Any], expected: dict, game: str) -> None:
    total, rules = expected[game]
    result = score(text, game, **hand)
    assert fired(result) == Counter(rules), result.explain()
    assert result.total == total, result.explain()


def test_over_the_limit_shows_the_uncapped_count() -> None:
    # Case 4 again: 44 points and four doubles make 704; the limit (law 93) caps it at 500.
    result = score("1C2C3C5C5C5C9C9C [EWEWEWEW] [7C8C9C]", MIXED, winning_tile="9C", won_by="loose-tile")
    assert (result.uncapped, result.total) == (704, 500)


def test_without_a_limit_the_count_stands_and_limit_hands_take_the_agreed_value() -> None:
    text = "1C2C3C5C5C5C9C9C [EWEWEWEW] [7C8C9C]"
    assert score(text, MIXED, {"limit": "none"}, winning_tile="9C", won_by="loose-tile").total == 704
    twins = "EWEWSWSWWWWWNWNWRDRDGDGDWDWD"
    assert score(twins, MIXED, {"limit": "none"}, winning_tile="WD", won_by="wall").total == 500
    agreed = {"limit": "none", "limit_hand_value": 800}
    assert score(twins, MIXED, agreed, winning_tile="WD", won_by="wall").total == 800


def test_the_limit_is_an_option() -> None:
    text = "1C2C3C5C5C5C9C9C [EWEWEWEW] [7C8C9C]"
    assert score(text, MIXED, {"limit": 1000}, winning_tile="9C", won_by="loose-tile").total == 704
    assert score(text, MIXED, {"limit": 300}, winning_tile="9C", won_by="loose-tile").total == 300


def test_east_limit_is_for_settlement_and_east_hand_is_capped_at_the_limit() -> None:
    # Law 93: 500, 1000 for East. East's own hand still counts 500; settlement doubles it.
    result = score("1C2C3C5C5C5C9C9C [EWEWEWEW] [7C8C9C]", MIXED, winning_tile="9C", won_by="loose-tile")
    assert result.total == 500
    assert result.best.options["east_limit"] == 1000


def test_playing_without_flowers_ignores_them() -> None:
    # Case "own flower and own season" without flowers: back to the all-sequence hand, 48.
    result = score("1B2B3B4C5C6C7D8D9D2B3B4B5D5D 2F3F2S", MIXED, {"flowers": "no"},
                   winning_tile="5D", won_by="wall", seat_wind="S")
    assert result.total == 48
    assert "flower" not in fired(result)


def test_a_worthy_pair_spoils_the_all_sequence_hand() -> None:
    # The all-sequence hand with a pair of own wind (South): woo 20, drawing 2, only place 2,
    # pair of own wind 2 = 26, no double.
    result = score("1B2B3B4C5C6C7D8D9D2B3B4BSWSW", MIXED, winning_tile="SW", won_by="wall", seat_wind="S")
    assert fired(result) == Counter(["woo", "drawing-winning-tile", "only-place", "pair"])
    assert result.total == 26


def test_winning_on_the_discard_after_the_last_tile() -> None:
    # Law 89 "or subsequent discard": case 7 won on that discard instead of drawing the last tile.
    # Woo 20, only place 2, WD concealed 8 = 30; dragons, last discard -> 120.
    result = score("1B2B3B4D5D6D7C8C9CWDWDWD5B5B", MIXED, winning_tile="5B", won_by="discard",
                   seat_wind="S", flags={"last-discard"})
    assert fired(result) == Counter(["woo", "only-place", "set", "dragon-set", "last-tile"])
    assert result.total == 120


def test_east_cannot_make_a_delayed_call() -> None:
    # Law 92 gives the delayed call to any player other than East.
    result = score("1B2B3B4D5D6D7C8C9CWDWDWD5B5B", MIXED, winning_tile="5B", won_by="wall", flags={"delayed-call"})
    assert "delayed-call" not in fired(result)


# --- the sixteen limit hands (law 100) -----------------------------------------------------------

LIMIT_HANDS: list[tuple[str, str, dict[str, Any]]] = [
    ("hidden-treasure", "1B1B1B5C5C5C9D9D9DEWEWEW2D2D", dict(winning_tile="2D", won_by="wall", seat_wind="S")),
    ("all-honours", "EWEWEWSWSWSWRDRDRDGDGDGDWDWD", dict(winning_tile="WD", won_by="discard", seat_wind="S")),
    ("all-terminals", "1B1B1B9B9B9B1C1C1C9C9C9C1D1D", dict(winning_tile="1D", won_by="discard", seat_wind="S")),
    ("all-green", "2B3B4B2B3B4B6B6B6BGDGDGD8B8B", dict(winning_tile="8B", won_by="discard", seat_wind="S")),
    ("three-great-scholars", "[RDRDRD] [GDGDGD] [WDWDWD] 1C2C3C5D5D", dict(winning_tile="3C", won_by="discard")),
    ("four-large-blessings", "[EWEWEW] [SWSWSW] [WWWWWW] [NWNWNW] 5D5D", dict(winning_tile="5D", won_by="discard")),
    ("all-kongs", "[1B1B1B1B] [5C5C5C5C] [RDRDRDRD] (9D9D9D9D) 7B7B", dict(winning_tile="7B", won_by="discard")),
    ("nine-united-sons", "1C1C1C2C3C4C5C6C7C8C9C9C9C5C", dict(winning_tile="5C", won_by="discard", seat_wind="S")),
    ("thirteen-unique-wonders", "1B9B1C9C1D9DEWSWWWNWRDGDWDWD", dict(winning_tile="WD", won_by="wall", seat_wind="S")),
    ("heavenly-peace", "1B2B3B4C5C6C7D8D9D2B3B4B5D5D", dict(won_by="original-hand")),
    ("earthly-peace", "1B2B3B4C5C6C7D8D9D2B3B4B5D5D",
     dict(winning_tile="5D", won_by="discard", seat_wind="S", flags={"first-discard"})),
    ("moon-from-the-bottom-of-the-sea", "1D2D3D4C5C6C7B8B9B2B3B4B5C5C",
     dict(winning_tile="1D", won_by="last-tile", seat_wind="S")),
    ("plum-blossom-on-the-roof", "3D4D5D4C5C6C7B8B9B2B2B [RDRDRDRD]",
     dict(winning_tile="5D", won_by="loose-tile", seat_wind="S")),
    ("scratching-a-carrying-pole", "2B3B4B4C5C6C7B8B9B5D5D [RDRDRD]",
     dict(winning_tile="2B", won_by="robbed-kong", seat_wind="S")),
    ("kong-on-kong", "3D4D5D7B8B9B2B2B [RDRDRDRD] [6C6C6C6C]",
     dict(winning_tile="5D", won_by="loose-tile", seat_wind="S", flags={"kong-on-kong"})),
    ("heavenly-twins", "EWEWSWSWWWWWNWNWRDRDGDGDWDWD", dict(winning_tile="WD", won_by="wall", seat_wind="S")),
]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("rule, text, hand", LIMIT_HANDS, ids=[c[0] for c in LIMIT_HANDS])
def test_each_limit_hand_scores_the_limit_and_nothing_else(rule: str, text: str, hand: dict[str, Any], game: str) -> None:
    # Law 100: a limit hand scores 500; its other lines drop out (only limit lines remain).
    result = score(text, game, **hand)
    assert rule in fired(result), result.explain()
    assert all(line.limit_hand for line in result.lines), result.explain()
    assert result.total == 500


def test_the_sixteen_limit_hands_are_all_tested() -> None:
    ids = {r.id for r in get_rule_set(MIXED).rules if r.citation.section.startswith("Law 100:")}
    assert ids == {rule for rule, _, _ in LIMIT_HANDS}
    assert len(ids) == 16


def test_heavenly_twins_of_one_suit() -> None:
    result = score("1B1B2B2B3B3B5B5B6B6B8B8B9B9B", MIXED, winning_tile="9B", won_by="discard", seat_wind="S")
    assert fired(result) == Counter(["heavenly-twins"])
    assert result.total == 500


def test_seven_pairs_of_mixed_suits_is_not_woo() -> None:
    with pytest.raises(InvalidHandError, match="not a complete hand"):
        score("1B1B2B2B3C3C5C5C6D6D8D8D9D9D", MIXED, winning_tile="9D", won_by="wall")


def test_nine_united_sons_must_wait_on_the_formation() -> None:
    # 1C1C1C2C3C4C5C5C6C7C8C9C9C waiting on 9C is not the 1112345678999 formation.
    result = score("1C1C1C2C3C4C5C5C6C7C8C9C9C9C", MIXED, winning_tile="9C", won_by="discard", seat_wind="S")
    assert "nine-united-sons" not in fired(result)
    assert "all-one-suit" in fired(result)


def test_the_special_tiles_must_be_the_named_ones() -> None:
    # The last tile of the wall that is not the one of circles is only the last-tile double.
    result = score("1D2D3D4C5C6C7B8B9B2B3B4B5C5C", MIXED, winning_tile="5C", won_by="last-tile", seat_wind="S")
    assert "moon-from-the-bottom-of-the-sea" not in fired(result)
    assert "last-tile" in fired(result)


def test_unknown_names_are_clear_errors() -> None:
    hand = Hand.parse("1B2B3B4C5C6C7D8D9D2B3B4B5D5D", winning_tile="5D", won_by="wall")
    with pytest.raises(UnknownRuleSetError, match="unknown rule set 'foster-1924'"):
        score_hand(hand, "foster-1924")
    with pytest.raises(UnknownRuleSetError, match="no option 'bouquets'"):
        score_hand(hand, MIXED, {"bouquets": "yes"})
    with pytest.raises(PungChowError, match="yes or no"):
        score_hand(hand, MIXED, {"flowers": "some"})


def test_every_line_cites_the_code() -> None:
    for game in GAMES:
        for rule in get_rule_set(game).rules:
            assert rule.citation.book == "Foster, American Code (1924)"
            assert rule.citation.part == "Part II" and rule.citation.section.startswith("Law ")


def test_limit_hand_citations_follow_law_100s_headings() -> None:
    # Law 100 numbers its sixteen hands I-XVI under these headings. Two headings are garbled in the
    # scanned text ("Nine United. Sons", "Bottom ofthe Sea"); the citations spell them as meant.
    headings = [
        "The Hidden Treasure", "All Honours", "All Terminals", "All Green", "The Three Great Scholars",
        "The Four Large Blessings", "All Kongs", "Nine United Sons", "The Thirteen Unique Wonders",
        "Heavenly Peace", "Earthly Peace", "The Moon from the Bottom of the Sea", "Plum Blossom on the Roof",
        "Scratching a Carrying-Pole", "Kong on Kong", "The Heavenly Twins",
    ]
    numerals = "I II III IV V VI VII VIII IX X XI XII XIII XIV XV XVI".split()
    cited = [r.citation.section for r in get_rule_set(MIXED).rules if r.citation.section.startswith("Law 100:")]
    assert cited == [f"Law 100: Limit Hands, {n}. {h}" for n, h in zip(numerals, headings)]
