"""British 1920s (OCR fragment): given this hand, this score, because these lines.

The working beside each hand is done by hand from the legible parts of
``../shared/rules/british-1920s-ocr-fragment.txt``; where the OCR lost a number the value
chosen is the one in ``docs/rules-notes/british-1920s.md`` (pairs 2, limit 500, standing hand
100). Seat and round are East unless a hand says otherwise.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from scoring.engine import ScoreResult
from scoring.errors import InvalidHandError, PungChowError, UnknownRuleSetError
from scoring.hand import Hand
from scoring.rulesets import get_rule_set, score_hand

from conftest import because, book_hand, book_hands, fired

RULES = "british-1920s"


def score(text: str, options: dict[str, Any] | None = None, **hand: Any) -> ScoreResult:
    return score_hand(Hand.parse(text, **hand), RULES, options)


def doubles(result: ScoreResult) -> int:
    return sum(line.doubles for line in result.lines)


#: The worked hands, each with its working (``why``) and every line it scores (``because``).
EXAMPLES = book_hands("british_1920s")


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{e['id']} ({e['rules']})")
def test_book_hand(example: dict[str, Any]) -> None:
    result = score_hand(book_hand(example), example["rules"])
    assert Counter(because(line) for line in result.lines) == Counter(example["because"]), result.explain()
    assert result.total == example["total"], result.explain()


def test_worked_hand_six_doubles() -> None:
    # The book: 2 sets of dragons (2), 3 of own wind (1), 3 of another wind, pair of ones:
    # all pungs 1, all one suit 1, all major pieces 1 -> 6 doubles. 20 + 2 (only piece) +
    # 4 x 4 exposed = 38 x 64 = 2432, limit 500.
    result = score("[RDRDRD] [GDGDGD] [SWSWSW] [WWWWWW] 1C1C", winning_tile="1C", won_by="discard", seat_wind="S")
    assert doubles(result) == 6
    assert fired(result) == Counter(["mah-jongg", "only-possible-piece", "set", "set", "set", "set", "dragon-set",
                                     "dragon-set", "own-wind-set", "all-pungs", "one-suit", "all-major"])
    assert (result.uncapped, result.total) == (2432, 500)


def test_worked_hand_five_doubles_without_the_major_pair() -> None:
    # "Similar hand ... pair of some other than ones or nines": 5 doubles.
    result = score("[RDRDRD] [GDGDGD] [SWSWSW] [WWWWWW] 5C5C", winning_tile="5C", won_by="discard", seat_wind="S")
    assert doubles(result) == 5
    assert "all-major" not in fired(result)


def test_worked_hand_four_doubles_with_a_pung_for_the_chow() -> None:
    # "Similar hand to above, but with Pung of one suit, no Chow": 4 doubles. 20; SW 4, RD 4,
    # 2C concealed 4, 7C exposed by the discard 2 = 34 x 16 = 544, limit 500.
    result = score("[SWSWSW] [RDRDRD] 2C2C2C7C7C7CNWNW", winning_tile="7C", won_by="discard", seat_wind="S")
    assert doubles(result) == 4
    assert (result.uncapped, result.total) == (544, 500)


def test_all_honours_three_more_doubles() -> None:
    # North, East round; discard NW (the only piece). 20 + 2; EW SW RD exposed 4 each, WD
    # concealed 8, pair of own wind 2 = 44; wind of round, two dragons, 3 more doubles = 6
    # -> 2816, limit 500. All pungs and all major are not added to a hand of honours.
    result = score("[EWEWEW] [SWSWSW] [RDRDRD] WDWDWDNWNW", winning_tile="NW", won_by="discard", seat_wind="N")
    assert fired(result) == Counter(["mah-jongg", "only-possible-piece", "set", "set", "set", "set", "pair",
                                     "round-wind-set", "dragon-set", "dragon-set", "all-honours"])
    assert (result.uncapped, result.total) == (2816, 500)


def test_playing_without_flowers() -> None:
    result = score("1B2B3B4C5C6C7D8D9D2B3B4B5D5D 1F2F3F", {"flowers": "no"}, winning_tile="5D", won_by="wall",
                   seat_wind="S")
    assert result.total == 34


def test_two_flowers_are_no_set() -> None:
    result = score("1B2B3B4C5C6C7D8D9D2B3B4B5D5D 1F2F", winning_tile="5D", won_by="wall", seat_wind="S")
    assert result.total == 34


@pytest.mark.parametrize("rule, text", [
    ("pairs-of-honours", "EWEWSWSWWWWWNWNWRDRDGDGDWDWD"),
    ("hand-from-heaven", "1B9B1C9C1D9DEWSWWWNWRDGDWDWD"),
])
def test_limit_hands(rule: str, text: str) -> None:
    result = score(text, winning_tile="WD", won_by="wall", seat_wind="S")
    assert fired(result) == Counter([rule])
    assert result.total == 500


def test_seven_pairs_of_suits_is_no_hand() -> None:
    with pytest.raises(InvalidHandError, match="not a complete hand under british-1920s"):
        score("1B1B2B2B3B3B5B5B6B6B8B8B9B9B", winning_tile="9B", won_by="wall")


# --- the different method: no Mah-Jongg without three doubles -------------------------------------


def test_three_doubles_refuses_a_hand_with_one() -> None:
    with pytest.raises(InvalidHandError, match="has 1 double: under the three-doubles method"):
        score("2C3C4C5D6D7DRDRD [WWWWWW] [7B8B9B]", {"three_doubles": "yes"},
              winning_tile="RD", won_by="discard", seat_wind="W")


def test_three_doubles_lets_the_worked_hand_through() -> None:
    result = score("[SWSWSW] [RDRDRD] 2C3C4C7C7C7CNWNW", {"three_doubles": "yes"},
                   winning_tile="4C", won_by="discard", seat_wind="S")
    assert result.total == 256


def test_three_doubles_lets_a_limit_hand_through() -> None:
    result = score("EWEWSWSWWWWWNWNWRDRDGDGDWDWD", {"three_doubles": "yes"}, winning_tile="WD", won_by="wall")
    assert result.total == 500


def test_three_doubles_takes_the_reading_that_has_them() -> None:
    # 1C1C1C2C2C2C3C3C3C read as three pungs: red dragons, one suit, all pungs = 3 doubles.
    # 20 + 2 (drawn); 1C concealed 8, 2C 4, 3C 4, RD exposed 4 = 42 x 8 = 336.
    # Read as three chows it has 2 doubles: that reading is no Mah-Jongg, worth 0.
    result = score("1C1C1C2C2C2C3C3C3C5C5C [RDRDRD]", {"three_doubles": "yes"},
                   winning_tile="5C", won_by="wall", seat_wind="S")
    assert result.total == 336
    assert "all-pungs" in fired(result)
    chows = [alt for alt in result.alternatives if "three-doubles" in {line.rule for line in alt.lines}]
    assert chows and all(alt.total == 0 for alt in chows)


def test_three_doubles_does_not_touch_losers() -> None:
    result = score("2B2B2B4B5B6B7B8B8B8B [RDRDRD]", {"three_doubles": "yes"}, seat_wind="N", winner=False)
    assert result.total == 48


def test_options_and_names_are_checked() -> None:
    hand = Hand.parse("1B2B3B4C5C6C7D8D9D2B3B4B5D5D", winning_tile="5D", won_by="wall")
    with pytest.raises(UnknownRuleSetError, match="no option 'three_double'"):
        score_hand(hand, RULES, {"three_double": "yes"})
    with pytest.raises(PungChowError, match="whole number"):
        score_hand(hand, RULES, {"standing_hand": "lots"})
    with pytest.raises(UnknownRuleSetError, match="unknown rule set"):
        score_hand(hand, "british")


def test_every_rule_cites_the_fragment() -> None:
    for rule in get_rule_set(RULES).rules:
        assert rule.citation.book == "British rule book (1920s, OCR fragment)"


def test_pairs_of_ones_and_nines_is_a_limit_hand() -> None:
    """Seven pairs of ones and nines need one kind twice (there are six): four 1B are two pairs."""
    from scoring.arrange import Shape

    hand = Hand.parse("1B1B1B1B9B9B1C1C9C9C1D1D9D9D", winning_tile="1B", won_by="wall")
    result = score_hand(hand, "british-1920s")
    assert result.total == 500 and [line.rule for line in result.lines] == ["pairs-of-ones-and-nines"]
    assert result.arrangement.shape is Shape.PAIRS
    assert score_hand(hand, "british-1920s", {"limit": "none"}).total == 500
    for other in ("harr-1922", "foster-1924-mixed", "chinese-classical"):
        with pytest.raises(InvalidHandError):
            score_hand(hand, other)


def test_repeated_pairs_of_simples_are_no_hand() -> None:
    hand = Hand.parse("2B2B2B2B3C3C4C4C5D5D6D6D8B8B", winning_tile="8B", won_by="wall")
    with pytest.raises(InvalidHandError):
        score_hand(hand, "british-1920s")
