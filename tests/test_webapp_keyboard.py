"""The tile keyboard (webapp/keyboard.py): a hand one tap per tile, sets laid out, every tap undone."""

from __future__ import annotations

import pytest

from scoring.api import Hand
from scoring.errors import PungChowError
from webapp.keyboard import MOST_TILES, Keys


def tapped(codes: str, keys: Keys | None = None) -> Keys:
    keys = keys or Keys()
    for code in codes.split():
        keys = keys.expose() if code == "|" else keys.tap(code)
    return keys


def test_a_concealed_hand_is_fourteen_taps_and_the_last_is_the_winning_tile() -> None:
    keys = tapped("7C 8C 9C 6C 7C 8C SW SW 5C 6C 7C 2D 2D 2D")
    assert keys.count == 14 and keys.winning == "2D"
    hand = Hand.parse(keys.notation(), winning_tile=keys.winning, won_by="discard")
    assert len(hand.concealed) == 14


def test_exposed_sets_are_laid_out_as_the_notation_writes_them() -> None:
    keys = tapped("2D 2D 2D | 5C 6C 7C | 1B 1B 1B 1B | 7C 8C 9C SW SW")
    assert keys.notation() == "7C8C9CSWSW [2D2D2D] [5C6C7C] [1B1B1B1B]"


def test_every_tap_is_taken_back_the_last_first() -> None:
    keys = tapped("2D 2D 2D | 5C")
    assert keys.undo().notation() == "[2D2D2D]"
    assert keys.undo().undo().notation() == "2D2D2D", "the set laid out goes back into the hand"
    assert Keys().undo() == Keys(), "nothing to take back at the start"


def test_what_is_not_a_set_cannot_be_laid_out() -> None:
    with pytest.raises(PungChowError, match="not a chow, pung or kong"):
        tapped("2D 5C 9B |")


def test_a_hand_has_a_most_tiles_and_faces_only() -> None:
    keys = tapped(" ".join(["1B"] * MOST_TILES))
    with pytest.raises(PungChowError, match=f"at most {MOST_TILES}"):
        keys.tap("1B")
    with pytest.raises(PungChowError, match="not a tile face"):
        Keys().tap("1Z")
