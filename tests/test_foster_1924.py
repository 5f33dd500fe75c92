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

from conftest import because, book_hand, book_hands, fired

MIXED, ONE_DOUBLE, CLEARED = "foster-1924-mixed", "foster-1924-one-double", "foster-1924-cleared"
GAMES = (MIXED, ONE_DOUBLE, CLEARED)


def score(text: str, rules: str, options: dict[str, Any] | None = None, **hand: Any) -> ScoreResult:
    return score_hand(Hand.parse(text, **hand), rules, options)


#: The worked hands, each with its working (``why``) and every line it scores (``because``).
EXAMPLES = book_hands("foster_1924")


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{e['id']} ({e['rules']})")
def test_book_hand(example: dict[str, Any]) -> None:
    result = score_hand(book_hand(example), example["rules"])
    assert Counter(because(line) for line in result.lines) == Counter(example["because"]), result.explain()
    assert result.total == example["total"], result.explain()


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
    numerals = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV", "XVI"]
    cited = [r.citation.section for r in get_rule_set(MIXED).rules if r.citation.section.startswith("Law 100:")]
    assert cited == [f"Law 100: Limit Hands, {n}. {h}" for n, h in zip(numerals, headings)]
