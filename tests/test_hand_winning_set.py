"""One hand, one score: the set the winning tile completed, however the hand is written.

A photo of a hand won on a discard shows the claimed set laid out, so the recogniser writes it in
brackets; typed by hand the same tiles are often among the concealed ones. Both must score the
same: the set was concealed until the win (for every concealment rule) and is priced exposed.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from scoring.arrange import Shape
from scoring.errors import InvalidHandError, NotationError, PungChowError
from scoring.hand import FLAGS, Hand, WinMethod, hand_schema
from scoring.melds import Meld, MeldKind
from scoring.rulesets import rule_sets, score_hand
from scoring.tiles import PLAYING_TILES, Tile

from conftest import book_hands

EXAMPLES = book_hands("harr_1922")
RULE_SETS = list(rule_sets())


def total(text: str, rules: str, winning: str, won_by: str = "discard", **how: Any) -> int:
    return score_hand(Hand.parse(text, winning_tile=winning, won_by=won_by, **how), rules).total


# --- the four hands of the audit, with the books' values ----------------------------------------


@pytest.mark.parametrize("text", [
    "7C8C9C6C6C2C3C4C [3C4C5C] [1C2C3C]",   # as the recogniser writes it
    "7C8C9C6C6C2C3C4C [3C4C5C]* [1C2C3C]",  # with the mark
    "7C8C9C6C6C2C3C4C3C4C5C [1C2C3C]",       # typed with the claimed set concealed
])
def test_harr_part_one_example_9_scores_240_in_every_form(text: str) -> None:
    """20 Mah-Jongg + 10 no other score = 30, all one suit x8 = 240 (Part I, Example 9). Before
    the 3C came the hand waited on 3C and 6C, so "the only place" does not pay."""
    result = score_hand(Hand.parse(text, winning_tile="3C", won_by="discard"), "harr-1922")
    assert result.total == 240, result.explain()
    assert "only-place-to-win" not in {line.rule for line in result.lines}


@pytest.mark.parametrize("text", ["7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]", "7C8C9C6C7C8CSWSW [2D2D2D]* [5C6C7C]",
                                  "7C8C9C6C7C8CSWSW2D2D2D [5C6C7C]"])
def test_readme_example_under_the_limit_game_is_12(text: str) -> None:
    """Mah-Jongg 10 + three 2D exposed 2 = 12; the 2D completed the pung, it is not a fourth tile."""
    result = score_hand(Hand.parse(text, winning_tile="2D", won_by="discard"), "harr-1922-limit")
    assert result.total == 12, result.explain()
    assert "fourth-tile" not in {line.rule for line in result.lines}


@pytest.mark.parametrize("text, winning, points", [
    # going out 20, concealed hand 10, pung of 9B exposed 4 = 34 -> 30.
    ("2B3B4B5C6C7C3D4D5D6D6D [9B9B9B]", "9B", 30),
    ("2B3B4B5C6C7C3D4D5D6D6D [9B9B9B]*", "9B", 30),
    ("2B3B4B5C6C7C3D4D5D6D6D9B9B9B", "9B", 30),
    # a chow hand: going out 20, concealed hand 10 = 30, chow hand x2 = 60.
    ("1B2B3B7C8C9C7D8D9D5D5D [3C4C5C]", "3C", 60),
    ("1B2B3B7C8C9C7D8D9D5D5D [3C4C5C]*", "3C", 60),
    ("1B2B3B7C8C9C7D8D9D5D5D3C4C5C", "3C", 60),
])
def test_chinese_classical_concealed_hand_survives_the_brackets(text: str, winning: str, points: int) -> None:
    result = score_hand(Hand.parse(text, winning_tile=winning, won_by="discard"), "chinese-classical")
    assert result.total == points, result.explain()
    assert "concealed-hand" in {line.rule for line in result.lines}


def test_where_several_sets_can_hold_the_winning_tile_every_reading_is_scored_and_named() -> None:
    """7D completed [7D8D9D] (one-chance chow +2: 30 x8 = 240) or went to 5D6D7D with [7D8D9D]
    shown before the win (28 x8 = 224 -> 220): the higher is taken, and a line says so."""
    hand = Hand.parse("1D1D1D5D6D7D2D2D [3D4D5D] [7D8D9D]", winning_tile="7D", won_by="discard")
    result = score_hand(hand, "chinese-classical")
    assert result.total == 240
    assert result.reading_note is not None
    assert "completed [7D8D9D]" in result.reading_note and "went among the concealed tiles" in result.reading_note
    assert "220" in result.reading_note
    assert result.explain().splitlines()[1].strip().startswith("reading:")
    assert result.to_dict()["reading"] == result.reading_note
    marked = score_hand(Hand.parse("1D1D1D5D6D7D2D2D [3D4D5D] [7D8D9D]*", winning_tile="7D"), "chinese-classical")
    assert marked.total == 240 and marked.reading_note is None


def test_a_hand_with_one_reading_has_no_reading_line() -> None:
    result = score_hand(Hand.parse("7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]", winning_tile="2D"), "harr-1922")
    assert result.reading_note is None and "reading:" not in result.explain()


# --- notation and JSON ---------------------------------------------------------------------------


def test_the_mark_round_trips_through_notation_and_json() -> None:
    hand = Hand.parse("7C8C9C6C6C2C3C4C [3C4C5C]* [1C2C3C]", winning_tile="3C", won_by="discard")
    assert hand.winning_set == 0 and hand.claimed_set == Meld.parse("[3C4C5C]")
    assert str(hand) == "2C3C4C6C6C7C8C9C [3C4C5C]* [1C2C3C]"
    assert Hand.parse(str(hand), winning_tile="3C", won_by="discard") == hand
    data = json.loads(hand.to_json())
    assert data["version"] == 2
    assert data["melds"][0]["winning"] is True and "winning" not in data["melds"][1]
    assert Hand.from_json(hand.to_json()) == hand


@pytest.mark.parametrize("text, winning, problem", [
    ("7C8C9C6C6C2C3C4C [3C4C5C]* [1C2C3C]*", "3C", "only the one set"),
    ("7C8C9C6C6C2C3C4C * [3C4C5C] [1C2C3C]", "3C", "closing bracket"),
])
def test_a_misplaced_mark_is_a_notation_error(text: str, winning: str, problem: str) -> None:
    with pytest.raises(NotationError, match=problem):
        Hand.parse(text, winning_tile=winning)


@pytest.mark.parametrize("text, how, problem", [
    ("7C8C9C6C6C2C3C4C [3C4C5C]* [1C2C3C]", dict(winning_tile="7C"), "7C is not in it"),
    ("7C8C9C6C6C2C3C4C [3C4C5C]* [1C2C3C]", dict(), "say which tile"),
    ("7C8C9C6C6C2C3C4C [5D5D5D5D]* [1C2C3C]", dict(winning_tile="5D"), "never completes a kong"),
    ("7C8C9C6C6C2C3C [3C4C5C]* [1C2C3C]", dict(winner=False), "did not win"),
])
def test_a_mark_that_cannot_be_names_the_problem(text: str, how: dict[str, Any], problem: str) -> None:
    with pytest.raises(InvalidHandError, match=problem):
        Hand.parse(text, **how)


@pytest.mark.parametrize("flag", sorted(FLAGS))
def test_every_flag_round_trips_through_json(flag: str) -> None:
    seat = "S" if flag in ("first-discard", "delayed-call") else "E"
    won_by = "loose-tile" if flag == "kong-on-kong" else "discard"
    tiles = "1B2B3B4C5C6CEWEW (XX7D7DXX) [9D9D9D9D]" if flag == "kong-on-kong" else "1B2B3B4C5C6C7D8D9D2B3B4BEWEW"
    hand = Hand.parse(tiles, winning_tile="EW", won_by=won_by, seat_wind=seat, flags={flag})
    again = Hand.from_json(hand.to_json())
    assert again == hand and again.flags == {flag}


def test_the_schema_lists_exactly_the_flags_the_hand_knows() -> None:
    assert set(hand_schema()["properties"]["flags"]["items"]["enum"]) == set(FLAGS)


def test_a_version_1_hand_reads_as_version_2() -> None:
    data = {"schema": "pungchow/hand", "version": 1, "concealed": ["7C", "8C", "9C", "6C", "7C", "8C", "SW", "SW"],
            "melds": [{"kind": "pung", "tiles": ["2D"] * 3}, {"kind": "chow", "tiles": ["5C", "6C", "7C"]}],
            "winning_tile": "2D", "won_by": "discard", "winner": True, "flags": ["first-discard"], "seat_wind": "S"}
    hand = Hand.from_dict(data)
    assert hand.winning_set is None and hand.flags == {"first-discard"}
    assert json.loads(hand.to_json())["version"] == 2
    with pytest.raises(InvalidHandError, match="winning"):
        Hand.from_dict({**data, "version": 1, "melds": [{"kind": "pung", "tiles": ["2D"] * 3, "winning": 1}]})


def test_the_winning_tile_may_be_given_in_mpsz() -> None:
    hand = Hand.parse("123m456p789s11z [222z]*", winning_tile="2z")
    assert hand.winning_tile == Tile("SW") and hand.won_by is WinMethod.DISCARD
    with pytest.raises(NotationError, match="not one tile"):
        Hand.parse("123m456p789s11z [222z]", winning_tile="22z")


# --- the property: bracketed and concealed forms score alike under every rule set -----------------


def _bracketed(hand: Hand, rules: str) -> Hand | None:
    """The hand written as a photo shows it: the set its best reading completed laid out, marked."""
    result = score_hand(hand, rules)
    arrangement = result.arrangement
    meld = arrangement.winning_meld
    if meld is None or not arrangement.claimed:
        return None
    concealed = list(hand.concealed)
    for tile in meld.tiles:
        concealed.remove(tile)
    shown = Meld(meld.kind, meld.tiles, concealed=False)
    return Hand(tuple(concealed), hand.melds + (shown,), hand.bonus, hand.winning_tile, hand.won_by,
                hand.seat_wind, hand.prevailing_wind, hand.winner, hand.flags, winning_set=len(hand.melds)).check()


def _score_or_refusal(hand: Hand, rules: str) -> int | str:
    try:
        return score_hand(hand, rules).total
    except PungChowError as refused:
        return type(refused).__name__


def _random_hand(rng: random.Random) -> Hand:
    """Four sets and a pair from one set of tiles, won on a discard that completed one of the sets."""
    while True:
        left = {t: 4 for t in PLAYING_TILES}
        sets: list[list[Tile]] = []
        while len(sets) < 4:
            if rng.random() < 0.5:
                start = rng.choice([t for t in PLAYING_TILES if t.is_numbered and (t.rank or 0) <= 7])
                tiles = [start, Tile(f"{(start.rank or 0) + 1}{start.code[1]}"), Tile(f"{(start.rank or 0) + 2}{start.code[1]}")]
            else:
                tiles = [rng.choice(PLAYING_TILES)] * 3
            if all(left[t] >= tiles.count(t) for t in tiles):
                for t in tiles:
                    left[t] -= 1
                sets.append(tiles)
        pair = rng.choice([t for t, n in left.items() if n >= 2])
        won = rng.randrange(4)
        shown = {i for i in range(4) if i != won and rng.random() < 0.4}
        hidden = [t for i, tiles in enumerate(sets) if i not in shown for t in tiles]
        try:
            return Hand(tuple(sorted(hidden + [pair, pair])), tuple(Meld.of(sets[i], concealed=False) for i in sorted(shown)),
                        (), rng.choice(sets[won]), WinMethod.DISCARD, rng.choice("ESWN"), rng.choice("ESWN")).check()
        except InvalidHandError:
            continue


def _discard_hands() -> list[Hand]:
    hands = []
    for example in EXAMPLES:
        if example.get("won_by") == "discard":
            hands.append(Hand.parse(example["hand"], winning_tile=example.get("winning"), won_by="discard",
                                    seat_wind=example.get("seat", "E"), prevailing_wind=example.get("round", "E")))
    audit = [
        ("7C8C9C6C6C2C3C4C3C4C5C [1C2C3C]", "3C"), ("7C8C9C6C7C8CSWSW2D2D2D [5C6C7C]", "2D"),
        ("2B3B4B5C6C7C3D4D5D6D6D9B9B9B", "9B"), ("1B2B3B7C8C9C7D8D9D5D5D3C4C5C", "3C"),
        ("1D1D1D5D6D7D2D2D7D8D9D [3D4D5D]", "7D"), ("2C3C4C5D6D7DRDRDWWWWWW [7B8B9B]", "WW"),
        ("RDRDRDGDGDGDWDWDWD1B1B [2B3B4B]", "WD"), ("EWEWEW SWSWSW WWWWWW NWNW 9C9C9C", "NW"),
        ("1B1B1B2B3B4B5B6B7B8B9B9B9B5B", "5B"), ("1B9B1C9C1D9DEWSWWWNWRDGDWDWD", "WD"),
    ]
    hands += [Hand.parse(text, winning_tile=winning, won_by="discard") for text, winning in audit]
    rng = random.Random(13)
    hands += [_random_hand(rng) for _ in range(60)]
    return hands


DISCARD_HANDS = _discard_hands()


@pytest.mark.parametrize("rules", RULE_SETS)
def test_bracketed_and_concealed_forms_score_the_same(rules: str) -> None:
    """For every book hand, audit hand and generated hand won on a discard: the claimed set written
    concealed, laid out and marked, or laid out unmarked where nothing else can hold the tile,
    scores the same; a laid-out claimed set is read back as concealed in the hand before the win."""
    compared = 0
    for hand in DISCARD_HANDS:
        try:
            best = score_hand(hand, rules).best
        except PungChowError:
            continue
        assert best.reading is not None
        concealed_form = best.reading.hand
        expected = _score_or_refusal(concealed_form, rules)
        bracketed = _bracketed(concealed_form, rules)
        if bracketed is None:
            continue
        assert _score_or_refusal(bracketed, rules) == expected, f"{bracketed} vs {concealed_form}"
        unmarked = replace(bracketed, winning_set=None)
        tile = hand.winning_tile
        elsewhere = tile in unmarked.concealed or sum(tile in m.tiles for m in unmarked.melds if m.exposed) > 1
        if not elsewhere:
            assert _score_or_refusal(unmarked, rules) == expected, f"{unmarked} vs {concealed_form}"
        compared += 1
    assert compared >= 40


# --- lines a player can add up -------------------------------------------------------------------


def test_points_come_first_then_doubles_then_the_total() -> None:
    hand = Hand.parse("2C3C4C5D6D7DRDRD [WWWWWW] [7B8B9B]", winning_tile="RD", won_by="discard", seat_wind="W")
    result = score_hand(hand, "british-1920s")
    orders = [line.order for line in result.lines]
    assert orders == sorted(orders)
    text = result.explain().splitlines()
    points_at = next(i for i, line in enumerate(text) if line.strip().startswith("= ") and "points" in line)
    assert all(line.strip().startswith("+") for line in text[1:points_at])
    assert text[-1].strip() == f"= {result.total}" or text[-1].strip().startswith(f"= {result.total} after")


def test_a_capped_hand_cites_the_limit() -> None:
    hand = Hand.parse("1B1B1B5B5B5B7B7B7B8B8B [9B9B9B]", winning_tile="8B", won_by="wall")
    result = score_hand(hand, "foster-1924-mixed")
    text = result.explain()
    assert result.uncapped > result.total == 500
    assert "held to the limit 500" in text and "Law 93: The Limit" in text
    assert "East pays or receives up to 1000" in text


def test_a_limit_hand_shows_what_its_tiles_would_score_without_it() -> None:
    hand = Hand.parse("RDRDRDGDGDGDWDWDWD1B1B [2B3B4B]", winning_tile="WD", won_by="discard")
    for rules, limit in (("harr-1922-limit", 300), ("foster-1924-mixed", 500), ("chinese-classical", 500)):
        result = score_hand(hand, rules)
        assert result.total == limit and result.best.without_limit is not None and result.best.without_limit > limit
        assert f"without the limit hand these tiles would score {result.best.without_limit}" in result.explain()
        assert result.to_dict()["without_limit_hand"] == result.best.without_limit
    assert "East pays or receives up to 1000" in score_hand(hand, "foster-1924-mixed").explain()


LOSERS = ["1B1B1B9C9C9C1D1D9D9D [9B9B9B9B]", "EWEWEWSWSWNWNW [RDRDRD] [GDGDGD]", "1C1C1C2C3C4C5C6C7C9C [8C8C8C]",
          "(XX5B5BXX) [RDRDRD] EWEW 1C2C3C 7D9D"]


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("text", LOSERS)
def test_a_losers_line_never_cites_the_winners_table(rules: str, text: str) -> None:
    result = score_hand(Hand.parse(text, winner=False), rules)
    for line in result.lines:
        cited = str(line.citation).lower().replace("non-winning", "")
        assert "winning hand" not in cited and "winner only" not in cited and "winner's hand only" not in cited, line


@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_claimed_set_priced_exposed_is_printed_laid_out(rules: str) -> None:
    hand = Hand.parse("7C8C9C6C6C2C3C4C3C4C5C [1C2C3C]", winning_tile="3C", won_by="discard")
    for score in (score_hand(hand, rules).best, *score_hand(hand, rules).alternatives):
        meld = score.arrangement.winning_meld
        assert meld is not None and score.arrangement.shape is Shape.STANDARD
        if meld.kind is not MeldKind.PAIR:
            assert f"[{''.join(t.code for t in meld.tiles)}]*" in str(score.arrangement)
            assert f"({''.join(t.code for t in meld.tiles)})*" not in str(score.arrangement)


# --- the recogniser marks the set its winning tile completed ---------------------------------------


def test_the_recogniser_marks_the_set_the_winning_tile_set_apart_completes() -> None:
    """Two tiles laid out with the winning tile set apart beside them make the claimed set."""
    import numpy as np

    from recognizer.detections import Detections
    from recognizer.group import Group
    from recognizer.hand import build_hand, read_hand
    from recognizer.labels import CLASSES

    codes = ["7C", "8C", "9C", "6C", "6C", "2C", "3C", "4C", "4C", "5C", "1C", "2C", "3C", "3C"]
    dets = Detections(np.ones((len(codes), 4)), np.ones(len(codes)))
    dets.codes[:] = [CLASSES.index(c) for c in codes]
    groups = [Group(0, "concealed", tuple(range(8))), Group(1, "other", (8, 9)), Group(2, "chow", (10, 11, 12)),
              Group(3, "winning", (13,), concealed=True)]
    hand, problems = build_hand(dets, groups, won_by="discard")
    assert problems == []
    assert str(hand) == "2C3C4C6C6C7C8C9C [1C2C3C] [3C4C5C]*"
    assert read_hand(dets, groups, won_by="discard").trace.melds[1] == (8, 9, 13), "the claimed set's tiles: its two and the one set apart"
    assert score_hand(hand, "harr-1922").total == 240


def test_the_cli_reads_mpsz_winning_tiles_and_explains_its_marks_once(capsys: pytest.CaptureFixture[str]) -> None:
    from pungchow.cli import main

    assert main(["score", "123m456p789s11z [222z]", "--winning", "2z", "--rules", "all"]) == 0
    out = capsys.readouterr().out
    assert out.count("marks: [ ] a set laid out on the table, ( ) a set or pair kept concealed, * the set") == 1
    assert "[SWSWSW]*" in out and "(SWSWSW)*" not in out


def test_a_marked_set_was_not_on_the_table_when_the_dangerous_tile_was_discarded() -> None:
    from scoring.settle.dangerous import exposed_before_discard

    marked = Hand.parse("1B2B3B RDRD [GDGDGD] [WDWDWD]* [EWEWEW]", winning_tile="WD", won_by="discard")
    assert exposed_before_discard(marked) == [[Meld.parse("[GDGDGD]"), Meld.parse("[EWEWEW]")]]
