"""Harr, Pung Chow (1922): given this hand, this score, because these lines.

The worked examples of both parts live in ``tests/book_hands/harr_1922.toml``, one entry each;
the tests here read them, and check the rules the examples do not reach one by one.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from scoring import arrange
from scoring.arrange import waiting_tiles
from scoring.engine import ScoreResult
from scoring.errors import InvalidHandError, PungChowError
from scoring.hand import Hand
from scoring.rulesets import get_rule_set, score_hand
from scoring.rulesets.harr_1922 import BOOK, different_heads, washing_the_tiles
from scoring.tiles import PLAYING_TILES, Tile, parse_tiles

from conftest import because, book_hand, book_hands

EXAMPLES = book_hands("harr_1922")


def score(text: str, rules: str = "harr-1922", options: dict[str, Any] | None = None, **hand: Any) -> ScoreResult:
    return score_hand(Hand.parse(text, **hand), rules, options)


def lines_of(result: ScoreResult) -> Counter[str]:
    return Counter(because(line) for line in result.lines)


# --- the book's worked examples -------------------------------------------------------------------


def test_every_worked_example_is_here() -> None:
    ids = {e["id"] for e in EXAMPLES}
    assert {f"I-{n}" for n in range(1, 21)} <= ids
    assert {f"II-{n}" for n in range(1, 11)} <= ids


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_worked_example(example: dict[str, Any]) -> None:
    result = score_hand(book_hand(example), example["rules"])
    assert Counter(example["because"]) == lines_of(result), result.explain()
    assert result.uncapped == example.get("uncapped", example["total"])
    assert result.total == example["total"]
    assert all(line.citation.book == BOOK for line in result.lines)


def test_examples_that_differ_from_the_printed_score_say_why() -> None:
    """A printed score we do not reproduce is corrected by the book's errata or explained in the notes."""
    notes = (Path(__file__).parents[1] / "docs" / "rules-notes" / "harr-1922.md").read_text()
    for example in EXAMPLES:
        if example["book"] != example.get("uncapped", example["total"]) and "errata" not in example:
            assert f"Example {example['id']}" in notes, example["id"]


# --- Part I: rules the examples do not isolate ------------------------------------------------


def test_east_collects_double_is_settlement_not_score() -> None:
    """Example 20's last doubling (44032) is East's double payment, not a line of the hand."""
    example = next(e for e in EXAMPLES if e["id"] == "I-20")
    assert 2 * score_hand(book_hand(example), "harr-1922").total == 44032


def test_a_concealed_set_completed_by_the_winning_discard_counts_exposed() -> None:
    by_discard = score("2B2B2B5D5D [3C4C5C] [6D7D8D] [1C2C3C]", winning_tile="2B", won_by="discard")
    by_draw = score("2B2B2B5D5D [3C4C5C] [6D7D8D] [1C2C3C]", winning_tile="2B", won_by="wall")
    assert "set +2" in lines_of(by_discard)
    assert "set +4" in lines_of(by_draw)


def test_example_13_with_its_dragons_really_exposed_scores_352() -> None:
    """The printed "3 dragons (exposed) 8" cannot both be exposed and worth 8; exposed is 4."""
    result = score("1B1B1B5B5B [RDRDRD] [EWEWEW] [4B4B4B]", winning_tile="1B", won_by="discard")
    assert result.total == (20 + 10 + 4 + 4 + 4 + 2) * 8 == 352


def test_own_wind_mandarins_double_once_each() -> None:
    base = score("7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]", winning_tile="2D", won_by="discard", seat_wind="S")
    both = score("7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C] 2F 2S 3F", winning_tile="2D", won_by="discard", seat_wind="S")
    assert lines_of(both)["own-mandarin x2"] == 2
    assert both.total == base.total * 4


def test_a_hand_that_did_not_win_scores_its_sets_pairs_and_doubles_but_no_bonus() -> None:
    result = score("RDRDRD1B1B1B5C5CEWEW [9D9D9D]", winner=False, seat_wind="E")
    assert lines_of(result) == Counter(["set +8", "set +8", "set +4", "pair +2", "dragon-set x2"])
    assert result.total == 22 * 2


def test_part_one_has_no_limit_unless_the_table_sets_one() -> None:
    example = next(e for e in EXAMPLES if e["id"] == "I-20")
    capped = score_hand(book_hand(example), "harr-1922", {"limit": "1000"})
    assert (capped.total, capped.uncapped) == (1000, 22016)


def test_part_one_knows_no_single_heads_hand() -> None:
    with pytest.raises(InvalidHandError, match="not a complete hand"):
        score("1B9B1C9C1D9DEWSWWWNWRDGDWDWD", winning_tile="WD", won_by="wall")


def test_the_best_arrangement_is_chosen_and_the_others_returned() -> None:
    """Three pungs of 1-2-3 bamboo may be read as three chows; the pungs score more."""
    result = score("1B1B1B2B2B2B3B3B3B5D5D [RDRDRD]", winning_tile="5D", won_by="wall")
    assert lines_of(result)["set +8"] == 1 and lines_of(result)["set +4"] == 3
    assert result.alternatives and all(alt.total < result.total for alt in result.alternatives)
    assert {str(alt.arrangement) for alt in result.alternatives} == {"[RDRDRD] (1B2B3B) (1B2B3B) (1B2B3B) (5D5D)*"}


# --- Part II: bonuses, pairs and sequences ----------------------------------------------------

LIMIT = "harr-1922-limit"


def test_limit_game_winner_and_others_value_concealed_sets_differently() -> None:
    winner = score("2B2B2B9C9C9C5D6D7D3C4C5C8B8B", LIMIT, winning_tile="7D", won_by="discard")
    loser = score("2B2B2B9C9C9C5D6D3C4C5C8B8B", LIMIT, winner=False)
    assert Counter(["set +6", "set +10"]) <= lines_of(winner)
    assert Counter(["set +4", "set +8"]) == lines_of(loser)


@pytest.mark.parametrize(
    "pair, seat, round_, points",
    [("RD", "E", "E", 2), ("SW", "S", "E", 2), ("EW", "S", "E", 2), ("SW", "S", "S", 4), ("NW", "S", "E", 0)],
)
def test_other_hands_pairs(pair: str, seat: str, round_: str, points: int) -> None:
    result = score(f"2B2B2B9C9C9C5D6D3C4C5C{pair}{pair}", LIMIT, winner=False, seat_wind=seat, prevailing_wind=round_)
    assert result.total == 12 + points


@pytest.mark.parametrize(
    "pair, won_by, seat, round_, points",
    [
        ("5D", "discard", "E", "S", 2), ("5D", "wall", "E", "S", 4),
        ("9C", "discard", "E", "S", 4), ("9C", "wall", "E", "S", 6),
        ("SW", "discard", "S", "S", 6), ("SW", "wall", "S", "S", 8),
        ("SW", "wall", "S", "E", 6),
    ],
)
def test_final_pair_matched_by_the_winning_tile(pair: str, won_by: str, seat: str, round_: str, points: int) -> None:
    result = score(
        f"{pair}{pair} [2B2B2B] [3C4C5C] [6D7D8D] [1C2C3C]", LIMIT,
        winning_tile=pair, won_by=won_by, seat_wind=seat, prevailing_wind=round_,
    )
    assert lines_of(result)["final-pair " + f"+{points}"] == 1
    assert result.total == 10 + 2 + points


@pytest.mark.parametrize(
    "tiles, winning, won_by, points",
    [
        ("5C6C7C", "6C", "discard", 2),  # in the middle, by chow
        ("1C2C3C", "3C", "discard", 2),  # the only open end, by chow
        ("5C6C7C", "7C", "discard", 0),  # both ends open, by chow: nothing
        ("5C6C7C", "7C", "wall", 4),  # both ends open, by draw
        ("5C6C7C", "6C", "wall", 4),  # in the middle, by draw (example 8)
    ],
)
def test_filling_a_sequence_to_complete_the_hand(tiles: str, winning: str, won_by: str, points: int) -> None:
    result = score(f"{tiles}8D8D [2B2B2B] [3D4D5D] [6B7B8B]", LIMIT, winning_tile=winning, won_by=won_by)
    assert sum(line.points for line in result.lines if line.rule == "filled-sequence") == points


def test_no_other_score_than_mah_jongg_in_the_limit_game() -> None:
    result = score("5C6C7C8D8D [2B3B4B] [3D4D5D] [6B7B8B]", LIMIT, winning_tile="7C", won_by="discard")
    assert lines_of(result) == Counter(["mah-jongg +10", "no-other-score +10"])


@pytest.mark.parametrize("won_by, rule, kong", [("last-tile", "last-tile x2", 0), ("loose-tile", "loose-tile-win x2", 1)])
def test_last_tile_and_loose_tile_double_once(won_by: str, rule: str, kong: int) -> None:
    # A loose tile is drawn only after a kong: that hand's 2B are four (8 exposed), not three (2).
    result = score(f"5C6C7C8D8D [{'2B' * (3 + kong)}] [3D4D5D] [6B7B8B]", LIMIT, winning_tile="7C", won_by=won_by)
    assert lines_of(result)[rule] == 1
    assert result.total == (10 + (8 if kong else 2) + 4) * 2


def test_winning_on_the_first_tile_played_earns_half_the_limit() -> None:
    result = score(
        "5C6C7C8D8D [2B2B2B] [3D4D5D] [6B7B8B]", LIMIT, winning_tile="6C", won_by="discard",
        flags={"first-discard"}, seat_wind="S",
    )
    assert lines_of(result)["first-discard +150"] == 1
    assert "no-other-score +10" not in lines_of(result)


def test_going_out_with_the_fourth_tile_of_an_exposed_set_doubles_once() -> None:
    # Bonus 6 (p. 62): three 2B lie exposed and the player draws the last 2B, which goes out as
    # 2B3B4B. Mah-Jongg 10, three 2B exposed 2, sequence filled with both ends open by draw 4 = 16;
    # doubled once for the fourth tile = 32.
    drawn = score("2B3B4B8D8D [2B2B2B] [3D4D5D] [6B7B8B]", LIMIT, winning_tile="2B", won_by="wall")
    assert lines_of(drawn)["fourth-tile x2"] == 1
    assert drawn.total == (10 + 2 + 4) * 2
    # The book says "draws or pungs": the same fourth 2B taken from a discard into 1B-3B, a middle
    # fill by chow 2: (10 + 2 + 2) x2 = 28.
    taken = score("1B2B3B8D8D [2B2B2B] [3D4D5D] [6B7B8B]", LIMIT, winning_tile="2B", won_by="discard")
    assert lines_of(taken)["fourth-tile x2"] == 1
    assert taken.total == (10 + 2 + 2) * 2


@pytest.mark.parametrize(
    "hand, winning",
    [
        # Another tile of the sequence won: the 2B was not the winning tile.
        ("2B3B4B8D8D [2B2B2B] [3D4D5D] [6B7B8B]", "4B"),
        # The three 2B were held concealed, not an exposed set of three.
        ("2B2B2B2B3B4B8D8D [3D4D5D] [6B7B8B]", "2B"),
    ],
)
def test_the_fourth_tile_bonus_needs_that_tile_to_win_beside_an_exposed_three(hand: str, winning: str) -> None:
    result = score(hand, LIMIT, winning_tile=winning, won_by="wall")
    assert "fourth-tile x2" not in lines_of(result)


def test_a_fourth_tile_laid_on_the_set_never_wins_so_the_hand_is_refused() -> None:
    # A fourth tile laid on the set makes a kong and calls for a loose tile; it cannot be the tile that completes
    # the hand (four sets and a pair were already there), so a hand saying it did is refused, not scored.
    with pytest.raises(InvalidHandError, match="lies only in a kong"):
        score("5C6C7C8D8D [2B2B2B2B] [3D4D5D] [6B7B8B]", LIMIT, winning_tile="2B", won_by="wall")


def test_the_fourth_tile_bonus_needs_a_fourth_tile_in_the_hand() -> None:
    # Harr bonus 6: only three 2B in the hand, all in the exposed set: no fourth tile went out, no double.
    result = score("5C6C7C8D8D [2B2B2B] [3D4D5D] [6B7B8B]", LIMIT, winning_tile="2B", won_by="discard")
    assert "fourth-tile x2" not in lines_of(result)


def test_own_wind_set_doubles_once_and_twice_in_own_wind_round() -> None:
    hand = "5C6C7C8D8D [SWSWSW] [3D4D5D] [6B7B8B]"
    once = score(hand, LIMIT, winning_tile="7C", won_by="discard", seat_wind="S", prevailing_wind="E")
    twice = score(hand, LIMIT, winning_tile="7C", won_by="discard", seat_wind="S", prevailing_wind="S")
    assert (once.total, twice.total) == (14 * 2, 14 * 4)


def test_one_suit_and_no_sequence_doubles_are_the_winners_only() -> None:
    loser = score("1B1B1B2B2B2B3B3B3B4B4B5B5B", LIMIT, winner=False)
    assert all(line.doubles == 0 for line in loser.lines)


@pytest.mark.parametrize(
    "hand, winning, won_by, seat, rule",
    [
        ("EWEWEWSWSWSW5D5D [WWWWWW] [NWNWNW]", "5D", "wall", "E", "four-winds"),
        ("EWEWEWSWSW5D5D5D [WWWWWW] [NWNWNW]", "SW", "wall", "E", "three-winds-and-pair"),
        ("5D5D [2B2B2B2B] [3C3C3C3C] [6D6D6D6D] [7B7B7B7B]", "5D", "wall", "E", "all-kongs"),
        ("2B3B4B6D7D8D4C4C4CRDRDRD5D5D", None, "original-hand", "E", "east-original-hand"),
    ],
)
def test_limit_hands(hand: str, winning: str | None, won_by: str, seat: str, rule: str) -> None:
    result = score(hand, LIMIT, winning_tile=winning, won_by=won_by, seat_wind=seat)
    assert f"{rule} limit" in lines_of(result)
    assert all(line.limit_hand for line in result.lines)
    assert result.total == 300


def test_the_limit_is_the_tables_choice() -> None:
    example = next(e for e in EXAMPLES if e["id"] == "II-2")
    hand = book_hand(example)
    assert score_hand(hand, LIMIT, {"limit": "600"}).total == 600
    assert score_hand(hand, LIMIT, {"limit": "none"}).total == 640
    assert score_hand(hand, LIMIT, {"mah_jongg": "20", "limit": "400"}).uncapped == 50 * 16


def test_limit_game_options_are_the_books_defaults() -> None:
    rule_set = get_rule_set(LIMIT)
    assert rule_set.option("limit").default == 300
    assert rule_set.option("mah_jongg").default == 10


# --- washing the tiles ------------------------------------------------------------------------


@pytest.mark.parametrize("heads, points", [(8, 0), (9, 50), (10, 70), (11, 100), (12, 150), (13, 200)])
def test_washing_the_tiles_pays_by_the_number_of_different_heads(heads: int, points: int) -> None:
    assert washing_the_tiles(heads) == points


def test_washing_counts_different_heads_only() -> None:
    original = parse_tiles("1B1B9B1C9C1DEWEWSWRDGD2C3C")
    assert different_heads(original) == 9
    assert washing_the_tiles(different_heads(original)) == 50


def test_washing_the_tiles_rejects_an_impossible_count() -> None:
    with pytest.raises(PungChowError, match="0 to 13"):
        washing_the_tiles(14)


# --- the only place to win, and the waiting tiles behind it -------------------------------------

NINE_GATES = "1B1B1B2B3B4B5B6B7B8B9B9B9B"


@pytest.mark.parametrize("extra", [f"{n}B" for n in range(1, 10)])
def test_the_nine_gates_never_fill_the_only_place(extra: str) -> None:
    """Nine gates wait on every bamboo, so whichever one is drawn, it was not the only place."""
    hand = Hand.parse(NINE_GATES + extra, winning_tile=extra, won_by="wall")
    assert waiting_tiles(hand) == frozenset(parse_tiles("1B2B3B4B5B6B7B8B9B"))
    result = score_hand(hand, "harr-1922")
    assert "only-place-to-win +2" not in lines_of(result)
    assert lines_of(result)["all-one-suit x8"] == 1


def test_pruned_wait_search_agrees_with_trying_every_tile(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search skips tiles with nothing alike or near; trying all 34 must find the same waits."""
    rng = random.Random(1922)
    hands = []
    while len(hands) < 400:
        tiles: list[Tile] = []
        for _ in range(4):
            if rng.random() < 0.5:
                tiles += [rng.choice(PLAYING_TILES)] * 3
            else:
                start = rng.randrange(3) * 9 + rng.randrange(7)
                tiles += list(PLAYING_TILES[start : start + 3])
        tiles += [rng.choice(PLAYING_TILES)] * 2
        if max(Counter(tiles).values()) <= 4:
            hands.append(Hand(concealed=tuple(sorted(tiles)), winning_tile=rng.choice(tiles)))
    heads = [t for t in PLAYING_TILES if t.is_major]
    hands += [Hand(concealed=tuple(sorted(heads + [extra])), winning_tile=heads[0]) for extra in heads]
    pruned = [waiting_tiles(hand) for hand in hands]
    monkeypatch.setattr(arrange, "_could_complete", lambda counts, i, heads_too: True)
    assert pruned == [waiting_tiles(hand) for hand in hands]


def test_six_pairs_in_the_thirteen_tiles_do_not_spoil_the_only_place() -> None:
    # Part I has no seven-pairs hand, yet the wait search also tries seven pairs and single heads.
    # Here the thirteen tiles before EW read both as 123 123 567 567 + EW and as six pairs + EW:
    # either way EW alone completes the hand, so the bonus stands. Mah-Jongg 20, only place 2 = 22
    # (a pair of West is no scoring pair for South).
    result = score("1B1B2B2B3B3B5C5C6C6C7C7CEWEW", winning_tile="EW", won_by="discard", seat_wind="S")
    assert waiting_tiles(result.hand) == frozenset(parse_tiles("EW"))
    assert lines_of(result) == Counter({"mah-jongg +20": 1, "only-place-to-win +2": 1})
    assert result.total == 22


def test_special_shapes_never_add_a_wait_beside_four_sets_and_a_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    """Why the waits may count seven pairs and single heads for every rule set.

    Part I knows neither shape and Foster and the British fragment accept seven pairs only in
    limit hands, where the only-place bonus drops out anyway. A hand that is one tile from four
    sets and a pair and also from seven pairs waits on its single tile both ways; a hand one tile
    from single heads is all heads and never one tile from four sets and a pair. So on every hand
    the special shapes add no wait that four sets and a pair did not already have.
    """
    kinds = parse_tiles("1B2B3B4B5B6B7B8B9BEWRD")
    hands = [
        Hand(concealed=tuple(sorted([t for p in pairs for t in (p, p)] + [single, single])), winning_tile=single)
        for pairs in itertools.combinations(kinds, 6)
        for single in kinds
        if single not in pairs
    ]
    heads = [t for t in PLAYING_TILES if t.is_major]
    hands += [Hand(concealed=tuple(sorted(heads + [extra])), winning_tile=extra) for extra in heads]
    with_special = [waiting_tiles(hand) for hand in hands]
    # The special shapes are only tried when no set is declared; pretend one is.
    complete = arrange._is_complete
    monkeypatch.setattr(arrange, "_is_complete", lambda counts, declared: complete(counts, max(declared, 1)))
    standard_only = [waiting_tiles(hand) for hand in hands]
    ready = [(special, standard) for special, standard in zip(with_special, standard_only) if standard]
    assert len(ready) > 200
    assert all(special == standard for special, standard in ready)
