"""A declared dangerous discard is checked against the winner's hand when the table gives it.

Harr, Part II, Penalties 2: the combination must have been exposed when the tile was discarded,
so the set the winning discard completed does not count towards it.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.hand import Hand
from scoring.settle import SettlementError, settle, table_from_dict


def table_json(notation: str, winning: str, condition: str, *, won_by: str = "discard", book: str = "harr-1922") -> dict[str, Any]:
    hand = Hand.parse(notation, winning_tile=winning, won_by=won_by, seat_wind="N").to_dict()
    hand.pop("schema"), hand.pop("version")
    return {
        "book": book, "rules": "harr-1922",
        "players": [{"seat": "E", "score": 10}, {"seat": "S", "score": 20}, {"seat": "W", "score": 30},
                    {"seat": "N", "hand": hand}],
        "incident": {"kind": "dangerous-discard", "player": "W", "condition": condition},
    }


SHOWN = [
    ("one-suit", "2B2B2B5B5B [1B2B3B] [4B5B6B] [7B8B9B]", "5B"),
    ("heads", "RDRDRD1C1C [1B1B1B] [9D9D9D] [EWEWEW]", "1C"),
    ("dragons", "WDWDWD1B2B3B5D5D [RDRDRD] [GDGDGD]", "WD"),
    ("winds", "NWNWNW5D5D [EWEWEW] [SWSWSW] [WWWWWW]", "NW"),
]


@pytest.mark.parametrize("condition, notation, winning", SHOWN)
def test_each_of_the_four_combinations_shown_puts_every_loss_on_the_discarder(condition: str, notation: str, winning: str) -> None:
    t = table_from_dict(table_json(notation, winning, condition))
    s = settle(t)
    north = t.player("N").score
    assert {(p.payer, p.payee) for p in s.payments} == {("West", "North")}
    assert s.paid("W", "N") == 2 * north + north + north


def test_the_set_the_discard_completed_was_not_yet_exposed() -> None:
    """Only one dragon set on the table before the discard of red dragon: no penalty can apply."""
    data = table_json("1B2B3B4B5B6B5D5D [RDRDRD] [GDGDGD]", "RD", "dragons")
    with pytest.raises(SettlementError, match="does not show two sets of dragons exposed"):
        settle(table_from_dict(data))


def test_the_wrong_combination_declared_is_an_error() -> None:
    data = table_json("NWNWNW5D5D [EWEWEW] [SWSWSW] [WWWWWW]", "NW", "dragons")
    with pytest.raises(SettlementError, match="dangerous discard \\(dragons\\) is declared"):
        settle(table_from_dict(data))


def test_a_hand_drawn_from_the_wall_was_not_discarded_to() -> None:
    data = table_json("WDWDWD1B2B3B5D5D [RDRDRD] [GDGDGD]", "WD", "dragons", won_by="wall")
    with pytest.raises(SettlementError, match="won by wall, not on a discard"):
        settle(table_from_dict(data))


def test_british_three_sets_of_ones_and_nines_then_a_hand_of_ones_and_nines() -> None:
    data = table_json("9C9C9C1C1C [1B1B1B] [9D9D9D] [1D1D1D]", "1C", "terminals", book="british-1920s")
    s = settle(table_from_dict(data))
    assert {(p.payer, p.payee) for p in s.payments} == {("West", "North")}
    data = table_json("9C9C9C1C1C [1B1B1B] [9D9D9D] [EWEWEW]", "1C", "terminals", book="british-1920s")
    with pytest.raises(SettlementError, match="ones and nines"):
        settle(table_from_dict(data))
