"""Hands: notation in and out, JSON against the schema, every problem named at once."""

import json

import pytest

from scoring.arrange import Shape, arrangements, waiting_tiles
from scoring.errors import InvalidHandError, NotationError
from scoring.hand import Hand, WinMethod, hand_schema, parse_wind
from scoring.melds import Meld, MeldKind

BRIEF_EXAMPLE = "7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]"


def test_notation_round_trips() -> None:
    hand = Hand.parse(BRIEF_EXAMPLE, winning_tile="2D", won_by="discard")
    assert Hand.parse(str(hand), winning_tile="2D", won_by="discard") == hand
    assert hand.won_by is WinMethod.DISCARD


def test_json_round_trips_and_matches_the_schema() -> None:
    hand = Hand.parse("(XX1D1DXX) 2B3B4B EWEWEW RDRD 5C6C7C 1F", winning_tile="RD", won_by="wall", seat_wind="S")
    data = json.loads(hand.to_json())
    assert data["melds"][0] == {"kind": "kong", "tiles": ["1D"] * 4, "concealed": True}
    assert data["bonus"] == ["1F"]
    assert Hand.from_dict(data) == hand
    assert hand_schema()["$id"] == "pungchow/hand/v2"


def test_a_kong_with_face_down_ends_is_a_concealed_kong() -> None:
    meld = Meld.parse("(XX1D1DXX)")
    assert meld.kind is MeldKind.KONG and meld.concealed


@pytest.mark.parametrize(
    "text, problem",
    [
        ("1B1B1B1B1B2B3B4B5B6B7B8B9B", "5 of 1B"),
        ("1B2B3B", "has 14 tiles"),
        ("1B2B3B4B5B6B7B8B9B1C1C1C [2D3D2D]", "neither a pung"),
    ],
)
def test_impossible_hands_say_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(InvalidHandError, match=problem):
        Hand.parse(text)


def test_every_problem_is_reported_at_once() -> None:
    with pytest.raises(InvalidHandError) as err:
        Hand.parse("1B1B1B1B1B2B3B", winning_tile="9C")
    assert len(err.value.problems) == 3  # five 1B, wrong count, winning tile absent


def test_unknown_codes_and_unbalanced_brackets_are_notation_errors() -> None:
    with pytest.raises(NotationError, match="ZZ"):
        Hand.parse("ZZ1B")
    with pytest.raises(NotationError, match="bracket"):
        Hand.parse("1B2B3B [2D2D2D")


def test_json_that_breaks_the_schema_names_the_field() -> None:
    with pytest.raises(InvalidHandError, match="seat_wind"):
        Hand.from_dict({"concealed": [], "winner": True, "seat_wind": "X"})


def test_divider_finds_every_arrangement() -> None:
    # Pure double chows: three ways into sets and a pair, and seven pairs besides.
    hand = Hand.parse("1B1B2B2B3B3B4B4B5B5B6B6B7B7B", winning_tile="7B", won_by="wall")
    found = {str(a) for a in arrangements(hand)}
    assert found == {
        "(2B3B4B) (2B3B4B) (5B6B7B)* (5B6B7B) (1B1B)",
        "(1B2B3B) (1B2B3B) (5B6B7B)* (5B6B7B) (4B4B)",
        "(1B2B3B) (1B2B3B) (4B5B6B) (4B5B6B) (7B7B)*",
        "(1B1B) (2B2B) (3B3B) (4B4B) (5B5B) (6B6B) (7B7B)*",
    }


def test_the_nine_gates_wait_on_every_tile_of_the_suit() -> None:
    hand = Hand.parse("1B1B1B2B3B4B5B6B7B8B9B9B9B2B", winning_tile="2B", won_by="wall")
    assert [str(a) for a in arrangements(hand)] == ["(3B4B5B) (6B7B8B) (2B2B)* (1B1B1B) (9B9B9B)"]
    assert waiting_tiles(hand) == frozenset(Hand.parse("1B2B3B4B5B6B7B8B9B", check=False).concealed)


def test_special_shapes_are_found() -> None:
    heads = Hand.parse("1B9B1C9C1D9DEWSWWWNWRDGDWDWD", winning_tile="WD")
    assert [a.shape for a in arrangements(heads)] == [Shape.THIRTEEN_HEADS]
    pairs = Hand.parse("EWEWSWSWWWWWNWNWRDRDGDGDWDWD", winning_tile="WD")
    assert Shape.SEVEN_PAIRS in {a.shape for a in arrangements(pairs)}


@pytest.mark.parametrize("text, letter", [("S", "S"), ("south", "S"), (" North ", "N"), ("e", "E")])
def test_a_wind_is_named_by_its_letter_or_its_word(text: str, letter: str) -> None:
    assert parse_wind(text, "seat wind") == letter


@pytest.mark.parametrize("text", ["nope", "Q", "Sou", "", "EW"])
def test_any_other_wind_is_an_error_not_a_guess(text: str) -> None:
    with pytest.raises(NotationError, match="unknown seat wind"):
        parse_wind(text, "seat wind")
