"""One hand under every rule set, side by side: ``pungchow score HAND --rules all`` and ``score_all``.

A hand that is complete under one book and not under another must not stop the table: the
book that refuses it shows its reason in its own row.
"""

from __future__ import annotations

import json

import pytest

from pungchow.cli import main
from scoring.engine import ScoreResult
from scoring.errors import InvalidHandError
from scoring.hand import Hand
from scoring.rulesets import Refusal, rule_sets, score_all

OUR_BOOKS = ("foster-1924-mixed", "foster-1924-one-double", "foster-1924-cleared", "chinese-classical", "british-1920s")


def test_every_book_is_registered_and_listed(capsys: pytest.CaptureFixture[str]) -> None:
    assert set(OUR_BOOKS) <= set(rule_sets())
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for name in OUR_BOOKS:
        assert name in out
    assert "--option east_limit=..." in out


def test_score_all_gives_every_book_its_total_and_lines() -> None:
    # Foster Mixed working (tests/test_foster_1924.py, first case): 56; Cleared: 52.
    hand = Hand.parse("2C3C4C5D6D7DRDRD [WWWWWW] [7B8B9B]", winning_tile="RD", won_by="discard", seat_wind="W")
    results = score_all(hand)
    assert set(results) == set(rule_sets())
    assert all(isinstance(r, ScoreResult) for r in results.values())
    assert results["foster-1924-mixed"].total == 56
    assert results["foster-1924-cleared"].total == 52
    # Chinese Classical (its first case): 56 rounded to 60; British (its first case): 56.
    assert results["chinese-classical"].total == 60
    assert results["british-1920s"].total == 56
    assert {line.rule for line in results["foster-1924-mixed"].lines} == {"woo", "only-place", "set", "pair", "own-wind-set"}


def test_a_hand_one_book_refuses_keeps_the_others() -> None:
    # Seven pairs of honours: Foster's heavenly twins (limit 500); Harr has no seven-pair hand.
    hand = Hand.parse("EWEWSWSWWWWWNWNWRDRDGDGDWDWD", winning_tile="WD", won_by="wall", seat_wind="S")
    results = score_all(hand)
    assert results["foster-1924-mixed"].total == 500
    assert results["british-1920s"].total == 500
    for name in ("harr-1922", "chinese-classical"):
        refused = results[name]
        assert isinstance(refused, Refusal)
        assert refused.total is None and f"not a complete hand under {name}" in refused.reason


def test_an_option_that_makes_one_book_refuse_leaves_the_rest() -> None:
    # British three-doubles method: one double is no Mah-Jongg there; the others still score.
    hand = Hand.parse("2C3C4C5D6D7DRDRD [WWWWWW] [7B8B9B]", winning_tile="RD", won_by="discard", seat_wind="W")
    results = score_all(hand, {"british-1920s": {"three_doubles": "yes"}})
    assert isinstance(results["british-1920s"], Refusal)
    assert "three-doubles method" in results["british-1920s"].reason
    assert results["foster-1924-mixed"].total == 56


def test_a_hand_that_cannot_exist_is_still_an_error() -> None:
    hand = Hand.parse("1B1B1B1B1B2B3B4B5B6B7B8B9B9B", check=False)
    with pytest.raises(InvalidHandError, match=r"five|5 of 1B"):
        score_all(hand)


def test_cli_rules_all_prints_a_row_per_book_with_reasons(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["score", "EWEWSWSWWWWWNWNWRDRDGDGDWDWD", "--winning", "WD", "--won-by", "wall", "--seat", "S", "--rules", "all"])
    out = capsys.readouterr().out
    assert code == 0
    table = out.split("side by side:")[1]
    rows = {line.split()[0]: line.split()[1] for line in table.strip().splitlines()}
    assert rows["foster-1924-mixed"] == "500"
    assert rows["harr-1922"] == "-"
    assert "not a complete hand under harr-1922" in table


def test_cli_rules_all_json(capsys: pytest.CaptureFixture[str]) -> None:
    main(["score", "EWEWSWSWWWWWNWNWRDRDGDGDWDWD", "--winning", "WD", "--won-by", "wall", "--rules", "all", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["foster-1924-cleared"]["total"] == 500
    assert data["foster-1924-cleared"]["lines"][0]["rule"] == "heavenly-twins"
    assert data["harr-1922"]["total"] is None and data["harr-1922"]["refused"]


def test_cli_passes_each_book_only_its_own_options(capsys: pytest.CaptureFixture[str]) -> None:
    # east_limit is Foster's; Harr does not know it, and the table still scores.
    code = main(["score", "2C3C4C5D6D7DRDRD [WWWWWW] [7B8B9B]", "--winning", "RD", "--seat", "W",
                 "--rules", "all", "--option", "east_limit=800"])
    assert code == 0
    assert "foster-1924-mixed" in capsys.readouterr().out


# --- a second look: hands worked by hand from the rule texts, every book side by side -----------
#
# Each case: the hand, how it was won, and the total under each book, with the working. H1 is
# Harr Part I (score card, p. 29), H2 Harr Part II (pp. 62-67), Fm/Fo/Fc Foster's three games
# (law 89), Br the British fragment, Cc the Chinese Classical guide.

SECOND_LOOK: list[tuple[str, str, dict[str, object], dict[str, int]]] = [
    (
        # A discard completes a pung held in the hand: it counts exposed (RD 4, not 8). East,
        # East round; waits on 2B or RD, so not the only place.
        # H1: 20 + 9C exposed 4 + RD exposed 4 = 28, red dragons x2 = 56. H2: 10 + 4 + 4 = 18 x2 = 36.
        # Fm: 20 + 4 + 4 = 28 x2 = 56. Br: the same, 56. Cc: 28 x2 = 56, rounded to 60.
        "a discard completing a concealed pung counts exposed",
        "2B2B3C4C5C6D7D8DRDRDRD [9C9C9C]", dict(winning_tile="RD", won_by="discard"),
        {"harr-1922": 56, "harr-1922-limit": 36, "foster-1924-mixed": 56, "british-1920s": 56, "chinese-classical": 60},
    ),
    (
        # A concealed kong shown with its ends face down, drawn to the only place (the pair).
        # H1: 20 + drawing 2 + only place 2 + four 1D concealed 32 + 9C exposed 4 = 60.
        "a concealed kong with face-down ends, the only place by draw",
        "2B2B3C4C5C6D7D8D(XX1D1DXX) [9C9C9C]", dict(winning_tile="2B", won_by="wall"),
        {"harr-1922": 60},
    ),
    (
        # Own wind pung in own wind round and the own flower: East, East round, flower 1F, season 3S.
        # H1: 20 + 2 + 8D concealed 4 + EW concealed 8 = 34; own wind x2, own mandarin x2 = 136.
        # H2: 10 + 6 + 10 = 26; own wind in own round x4, mandarin x2 = 208.
        # Fm: 20 + 2 + 4 + 8 + two bonus tiles 8 = 42; own wind, prevailing wind, own flower x8 = 336.
        # Br: 34 (bonus tiles score only as sets); own wind, wind of the round x4 = 136.
        # Cc: 20 + concealed hand 10 + self-drawn 2 + 4 + 8 = 44; fully concealed, own wind,
        # wind of round x8 = 352, rounded to 350.
        "own wind pung in own round, own flower",
        "EWEWEW2B3B4B5C6C7C8D8D8D9D9D 1F 3S", dict(winning_tile="8D", won_by="wall"),
        {"harr-1922": 136, "harr-1922-limit": 208, "foster-1924-mixed": 336, "british-1920s": 136,
         "chinese-classical": 350},
    ),
    (
        # All one suit, the pair punged (7C would have won too). South, East round.
        # H1: 20 + 1C concealed 8 + 8C concealed 4 = 32 x8 = 256.
        # H2: 10 + 10 + 6 + pair of heads punged 4 = 30 x8 = 240. Fm: 32 x8 = 256. Br: 32 x8 = 256.
        # Cc: 20 + concealed hand 10 + out on a pair 2 + 8 + 4 = 44 x8 = 352, rounded to 350.
        "all one suit",
        "1C1C1C2C3C4C5C6C7C8C8C8C9C9C", dict(winning_tile="9C", won_by="discard", seat_wind="S"),
        {"harr-1922": 256, "harr-1922-limit": 240, "foster-1924-mixed": 256, "british-1920s": 256,
         "chinese-classical": 350},
    ),
    (
        # Three dragon sets: the limit in Harr Part II (300), Foster (500), Chinese (500).
        # H1: 20 + 2 + only place 2 + WD 4 + RD 8 + GD 8 = 44, three dragons x8 = 352. Br: 352.
        "three sets of dragons",
        "RDRDRDGDGDGD2B3B4B5C5C [WDWDWD]", dict(winning_tile="5C", won_by="wall", seat_wind="W"),
        {"harr-1922": 352, "harr-1922-limit": 300, "foster-1924-mixed": 500, "british-1920s": 352,
         "chinese-classical": 500},
    ),
    (
        # Robbing a kong for a two-sided chow. North, East round.
        # H1: 20 + EW 4 + 9D 4 + pair of own wind 2 = 30. H2: 10 + 4 + 4 + 2 = 20.
        # Fm: 30; prevailing wind, robbing a kong x4 = 120. Fc: 30 + robbing 10 = 40 x2 = 80.
        # Br: 30 x2 (wind of the round) = 60. Cc: 30; wind of round, robbing x4 = 120.
        "robbing a kong",
        "2B3B4B5C6C7C [EWEWEW] [9D9D9D] NWNW", dict(winning_tile="4B", won_by="robbed-kong", seat_wind="N"),
        {"harr-1922": 30, "harr-1922-limit": 20, "foster-1924-mixed": 120, "foster-1924-cleared": 80,
         "british-1920s": 60, "chinese-classical": 120},
    ),
    (
        # The last tile of the wall, own wind pair in own wind round. North, North round.
        # H1: 20 + 2 + 4 + 4 + 2 = 32. H2: 10 + 4 + 4 + own wind pair in own round 4 + two-sided
        # fill by draw 4 = 26 x2 = 52. Fm: 20 + 2 + 4 + 4 + own wind when prevailing 4 = 34 x2 = 68.
        # Fc: 34 + 10 = 44. Br: 20 + 2 + 10 + 4 + 4 + 2 + 2 = 44. Cc: 34 x2 = 68, rounded to 70.
        "the last tile of the wall",
        "2B3B4B5C6C7C [EWEWEW] [9D9D9D] NWNW", dict(winning_tile="4B", won_by="last-tile", seat_wind="N",
                                                    prevailing_wind="N"),
        {"harr-1922": 32, "harr-1922-limit": 52, "foster-1924-mixed": 68, "foster-1924-cleared": 44,
         "british-1920s": 44, "chinese-classical": 70},
    ),
    (
        # Harr Part II: own wind pair in own wind round, punged (6) to complete. South, South round.
        "own wind pair punged in own wind round",
        "2B3B4B5C6C7C [EWEWEW] [9D9D9D] SWSW", dict(winning_tile="SW", won_by="discard", seat_wind="S",
                                                    prevailing_wind="S"),
        {"harr-1922-limit": 24},
    ),
    (
        # Four concealed sets, the pair taken from a discard: not Foster's hidden treasure ("all
        # tiles must be drawn"), but the Chinese guide's. South, East round; 9C the only place.
        # H1: 20 + no sequences 10 + only place 2 + 16 + 4 + 4 + 4 = 60.
        # H2: 10 + 16 + 6 + 6 + 6 + pair of heads punged 4 = 48, no sequences x2 = 96.
        # Fm: 20 + 2 + 16 + 12 = 50 x2 = 100.
        "four concealed sets, the pair on a discard",
        "2C2C2C5D5D5D7B7B7B(XX3D3DXX)9C9C", dict(winning_tile="9C", won_by="discard", seat_wind="S"),
        {"harr-1922": 60, "harr-1922-limit": 96, "foster-1924-mixed": 100, "chinese-classical": 500},
    ),
    (
        # A concealed kong of ones in a one-suit hand, drawn (7C would have won too). South.
        # H1: 20 + 2 + 32 + 4 = 58 x8 = 464. Fm: 464. Cc: 20 + 10 + 2 + 2 + 32 + 4 = 70 x16 = 1120 -> 500.
        "a concealed kong in a one-suit hand",
        "(XX1C1CXX)2C3C4C5C6C7C8C8C8C9C9C", dict(winning_tile="9C", won_by="wall", seat_wind="S"),
        {"harr-1922": 464, "harr-1922-limit": 300, "foster-1924-mixed": 464, "chinese-classical": 500},
    ),
]


@pytest.mark.parametrize("name, notation, how, totals", SECOND_LOOK, ids=[case[0] for case in SECOND_LOOK])
def test_a_second_look_hand_scores_as_worked_from_the_books(
    name: str, notation: str, how: dict[str, object], totals: dict[str, int]
) -> None:
    hand = Hand.parse(notation, **how)  # type: ignore[arg-type]
    results = score_all(hand)
    assert {book: results[book].total for book in totals} == totals


def test_a_second_look_loser_with_a_face_down_kong() -> None:
    """East, South round, did not win. H1/H2/Foster: 5B concealed kong 16 + RD exposed 4 + pair of
    own wind 2 = 22, red dragons x2 = 44. Chinese: the pair does not count for a loser: 20 x2 = 40."""
    hand = Hand.parse("(XX5B5BXX) [RDRDRD] EWEW 1C2C3C 7D9D", winner=False, prevailing_wind="S")
    results = score_all(hand)
    assert {book: r.total for book, r in results.items()} == {
        "harr-1922": 44, "harr-1922-limit": 44, "british-1920s": 44, "chinese-classical": 40,
        "foster-1924-mixed": 44, "foster-1924-one-double": 44, "foster-1924-cleared": 44,
    }
