"""The JSON schemas list the same winds, flags, ways of winning, books, games and incidents as the code.

A list written twice drifts (a flag in the code but not the schema made a hand unreadable from
its own JSON); these tests hold the schema's enums to the enums they describe.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scoring.hand import Flag, Hand, Wind, WinMethod, hand_schema
from scoring.settle.model import Book, HandedGame, IncidentKind
from scoring.settle.registry import settling_books

SCHEMAS = Path(__file__).resolve().parent.parent / "scoring" / "schema"


def schema(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    return data


def test_the_hand_schema_lists_every_wind_flag_and_way_of_winning() -> None:
    props = hand_schema()["properties"]
    winds = [w.value for w in Wind]
    assert props["seat_wind"]["enum"] == winds and props["prevailing_wind"]["enum"] == winds
    assert sorted(props["flags"]["items"]["enum"]) == sorted(f.value for f in Flag)
    assert [v for v in props["won_by"]["enum"] if v is not None] == [m.value for m in WinMethod]


def test_the_table_schema_lists_every_book_game_seat_and_incident() -> None:
    table = schema("table.v1.json")
    props, defs = table["properties"], table["$defs"]
    assert props["book"]["enum"] == [settling_books()[name].name for name in ("harr-1922", "foster-1924", "british-1920s",
                                                                               "chinese-classical")]
    assert props["book"]["enum"] == [b.value for b in Book]
    assert props["game"]["enum"] == [g.value for g in HandedGame]
    assert defs["incident"]["properties"]["kind"]["enum"] == [k.value for k in IncidentKind]
    seat = defs["player"]["properties"]["seat"]["enum"]
    assert seat == [w.value for w in Wind] + [None]


def test_every_flag_reads_back_from_its_own_json() -> None:
    for flag in Flag:
        kong_on_kong = flag is Flag.KONG_ON_KONG  # two kongs, and won with the loose tile after the second
        text = "1C1C1C2C2C2C5C5C (XX4C4CXX) [6C6C6C6C]" if kong_on_kong else "1C1C1C2C2C2C3C3C3C4C4C4C5C5C"
        hand = Hand.parse(text, winning_tile="5C", won_by="loose-tile" if kong_on_kong else "discard", seat_wind="S",
                          flags={flag.value})
        assert Hand.from_json(hand.to_json()) == hand
        assert hand.flags == {flag} and isinstance(next(iter(hand.flags)), Flag)


def test_winds_read_as_letters_or_words_and_print_as_letters() -> None:
    hand = Hand.parse("1C1C1C2C2C2C3C3C3C4C4C4C5C5C", seat_wind="south", prevailing_wind="W")
    assert (hand.seat_wind, hand.prevailing_wind) == (Wind.SOUTH, Wind.WEST)
    assert f"{hand.seat_wind}{hand.prevailing_wind}" == "SW" and hand.to_dict()["seat_wind"] == "S"
