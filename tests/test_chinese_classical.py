"""Chinese Classical (modern guide): given this hand, this score, because these lines.

The working beside each hand is done by hand from ``../shared/rules/chinese-classical-modern.md``:
points first, then doubled, then rounded to the nearest ten (settings table), capped at 500.
Seat and round are East unless a hand says otherwise.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from scoring.engine import ScoreResult
from scoring.errors import InvalidHandError, PungChowError, UnknownRuleSetError
from scoring.hand import Hand
from scoring.rulesets import get_rule_set, score_hand
from scoring.rulesets.chinese_classical import round_to_ten

from conftest import because, book_hand, book_hands, fired

RULES = "chinese-classical"


def score(text: str, options: dict[str, Any] | None = None, **hand: Any) -> ScoreResult:
    return score_hand(Hand.parse(text, **hand), RULES, options)


#: The worked hands, each with its working (``why``) and every line it scores (``because``).
EXAMPLES = book_hands("chinese_classical")


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{e['id']} ({e['rules']})")
def test_book_hand(example: dict[str, Any]) -> None:
    result = score_hand(book_hand(example), example["rules"])
    assert Counter(because(line) for line in result.lines) == Counter(example["because"]), result.explain()
    assert result.total == example["total"], result.explain()


def test_terminals_and_honours_as_one_double() -> None:
    # The doubles table's value: 48 points, pung hand and terminals-and-honours x4 = 192 -> 190.
    result = score("1B1B1B9D9D9D1C1C [NWNWNW] [9C9C9C]", {"terminals_and_honours_doubles": 1},
                   winning_tile="1C", won_by="wall", seat_wind="S")
    assert result.total == 190


def test_without_rounding() -> None:
    # Case 1 unrounded: 56; no rounding line.
    result = score("2C3C4C5D6D7DRDRD [WWWWWW] [7B8B9B]", {"rounding": "no"},
                   winning_tile="RD", won_by="discard", seat_wind="W")
    assert result.total == 56
    assert "rounding" not in fired(result)


def test_the_rounding_line_explains_the_total() -> None:
    result = score("2C3C4C5D6D7DRDRD [WWWWWW] [7B8B9B]", winning_tile="RD", won_by="discard", seat_wind="W")
    line = next(line for line in result.lines if line.rule == "rounding")
    assert (line.points, line.doubles) == (0, 0)
    assert "56 -> 60" in line.description


def test_rounding_goes_half_up_and_the_limit_follows_it() -> None:
    # 704 rounds to 700, then the limit 500 applies; without a limit 700 stands.
    result = score("1C2C3C5C5C5C9C9C [EWEWEWEW] [7C8C9C]", {"limit": "none"}, winning_tile="9C", won_by="loose-tile")
    assert result.total == 700
    assert [round_to_ten(v) for v in (124, 125, 126, 130)] == [120, 130, 130, 130]


def test_the_settings_table_has_no_concealed_hand_bonus_when_asked() -> None:
    # Case 2 with concealed_hand_points 0: 24 x4 = 96 -> 100.
    result = score("1B2B3B4C5C6C7D8D9D5B6B7B5D5D", {"concealed_hand_points": 0},
                   winning_tile="3B", won_by="wall", seat_wind="S")
    assert result.total == 100
    assert "concealed-hand" not in fired(result)


def test_a_concealed_hand_won_on_a_discard_keeps_the_bonus_points_but_not_the_double() -> None:
    # South claims 5B to complete a pung held in the hand. The bonus table's concealed hand (10)
    # sets no condition on the last tile; the doubles table's fully concealed hand needs it drawn.
    # Going out 20, concealed hand 10, 5B pung (completed by the discard, so melded) 2, pair of red
    # dragons 2 = 34, no doubles, rounded to 30.
    result = score("1B2B3B4C5C6C7D8D9D5B5B5BRDRD", winning_tile="5B", won_by="discard", seat_wind="S")
    assert fired(result) == Counter(["going-out", "concealed-hand", "set", "pair", "rounding"])
    assert result.total == 30


LIMIT_HANDS: list[tuple[str, str, dict[str, Any]]] = [
    # Won on a discard to the pair: the four pungs stay concealed, so it is the hidden treasure.
    ("hidden-treasure", "1B1B1B5C5C5C9D9D9DEWEWEW2D2D", dict(winning_tile="2D", won_by="discard", seat_wind="S")),
    ("three-great-scholars", "[RDRDRD] [GDGDGD] [WDWDWD] 1C2C3C5D5D", dict(winning_tile="3C", won_by="discard")),
    ("big-four-winds", "[EWEWEW] [SWSWSW] [WWWWWW] [NWNWNW] 5D5D", dict(winning_tile="5D", won_by="discard")),
    ("all-honours", "[EWEWEW] SWSWSWRDRDRDNWNWNWWDWD", dict(winning_tile="WD", won_by="discard", seat_wind="S")),
    ("all-terminals", "[1B1B1B] 9B9B9B1C1C1C9C9C9C1D1D", dict(winning_tile="1D", won_by="discard", seat_wind="S")),
    # The guide's nine gates needs only contain 1112345678999: here the extra tile is a 5.
    ("nine-gates", "1C1C1C2C3C4C5C5C6C7C8C9C9C9C", dict(winning_tile="9C", won_by="discard", seat_wind="S")),
    ("thirteen-orphans", "1B9B1C9C1D9DEWSWWWNWRDGDWDWD", dict(winning_tile="WD", won_by="wall", seat_wind="S")),
    ("heavenly-hand", "1B2B3B4C5C6C7D8D9D2B3B4B5D5D", dict(won_by="original-hand")),
    ("earthly-hand", "1B2B3B4C5C6C7D8D9D2B3B4B5D5D",
     dict(winning_tile="5D", won_by="discard", seat_wind="S", flags={"first-discard"})),
]


@pytest.mark.parametrize("rule, text, hand", LIMIT_HANDS, ids=[c[0] for c in LIMIT_HANDS])
def test_each_classical_limit_hand(rule: str, text: str, hand: dict[str, Any]) -> None:
    result = score(text, **hand)
    assert rule in fired(result), result.explain()
    assert all(line.limit_hand for line in result.lines)
    assert result.total == 500


MORE: list[tuple[str, str, dict[str, Any], int]] = [
    # Not a limit by default. Going out 20, concealed hand 10, out on a pair 2, 6B concealed 4,
    # GD concealed 8 = 44; dragons, one suit and honours x4 = 176 -> 180.
    ("all-green", "2B3B4B2B3B4B6B6B6BGDGDGD8B8B", dict(winning_tile="8B", won_by="discard", seat_wind="S"), 180),
    # Going out 20, out on a pair 2; kongs 1B exposed 16, 5C exposed 8, RD exposed 16, 9D
    # concealed 32 = 94; dragons, pung hand x4 = 376 -> 380.
    ("four-kongs", "[1B1B1B1B] [5C5C5C5C] [RDRDRDRD] (9D9D9D9D) 7B7B", dict(winning_tile="7B", won_by="discard"), 380),
    # North. Going out 20, EW SW WW exposed 4 each, pair of own wind NW 2 = 34; wind of round,
    # one suit and honours x4 = 136 -> 140.
    ("little-four-winds", "[EWEWEW] [SWSWSW] [WWWWWW] NWNW3C4C5C",
     dict(winning_tile="5C", won_by="discard", seat_wind="N"), 140),
]


@pytest.mark.parametrize("rule, text, hand, total", MORE, ids=[c[0] for c in MORE])
def test_the_guides_other_limit_hands_are_an_option(rule: str, text: str, hand: dict[str, Any], total: int) -> None:
    plain = score(text, **hand)
    assert rule not in fired(plain)
    assert plain.total == total, plain.explain()
    more = score(text, {"more_limit_hands": "yes"}, **hand)
    assert rule in fired(more)
    assert more.total == 500


def test_seven_pairs_is_not_a_hand_here() -> None:
    with pytest.raises(InvalidHandError, match="not a complete hand under chinese-classical"):
        score("EWEWSWSWWWWWNWNWRDRDGDGDWDWD", winning_tile="WD", won_by="wall")


def test_flowers_are_not_used() -> None:
    # The settings table: flowers and seasons not used. Case 1 with two flowers is still 60.
    result = score("2C3C4C5D6D7DRDRD [WWWWWW] [7B8B9B] 3F3S", winning_tile="RD", won_by="discard", seat_wind="W")
    assert result.total == 60


def test_options_and_names_are_checked() -> None:
    hand = Hand.parse("1B2B3B4C5C6C7D8D9D5B6B7B5D5D", winning_tile="3B", won_by="wall")
    with pytest.raises(PungChowError, match="one of 1, 3"):
        score_hand(hand, RULES, {"terminals_and_honours_doubles": "2"})
    with pytest.raises(UnknownRuleSetError, match="no option 'flowers'"):
        score_hand(hand, RULES, {"flowers": "yes"})
    with pytest.raises(UnknownRuleSetError, match="unknown rule set"):
        score_hand(hand, "chinese")


def test_every_rule_cites_the_guide() -> None:
    for rule in get_rule_set(RULES).rules:
        assert rule.citation.book == "Chinese Classical (modern guide)"
