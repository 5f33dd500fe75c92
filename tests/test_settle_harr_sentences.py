"""Every "collects X from East and Y from ..." sentence in Harr's worked examples, as settlements.

Each case gives the winner's seat and the hand's score (before East's double, which is a rule of
settling, not of scoring) and the amounts the book says he collects, errata applied. Where the
printed sentence cannot be right, ``printed`` keeps the book's words and the case is explained in
docs/rules-notes/settlement.md. The other hands score nothing here, so only the winner is paid.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from scoring.settle import Player, Table, settle
from scoring.settle.model import SEAT_NAMES, SEATS


@dataclass(frozen=True)
class Sentence:
    source: str
    seat: str
    score: int
    collects: dict[str, int]
    limit: int | None = None
    printed: str = ""


SENTENCES = [
    Sentence("Part I, Example 7 (p. 36), held by East: 11,520, doubled, 23,040 from each, 69,120 in all",
             "E", 11520, {"S": 23040, "W": 23040, "N": 23040}),
    Sentence("Part I, Example 8, if East: 368 from each", "E", 184, {"S": 368, "W": 368, "N": 368}),
    Sentence("Part I, Example 8, any other wind: 368 from East and 184 from the other two",
             "S", 184, {"E": 368, "W": 184, "N": 184}),
    Sentence("Part I, Example 9, if East: 480 from each of the other three", "E", 240, {"S": 480, "W": 480, "N": 480}),
    Sentence("Part I, Example 9, any other wind: 480 from East and 240 from the other two",
             "W", 240, {"E": 480, "S": 240, "N": 240}),
    Sentence("Part I, Example 11, North: 960 from East, 480 each from South and West",
             "N", 480, {"E": 960, "S": 480, "W": 480}),
    Sentence("Part I, Example 13, East: 768 from each player", "E", 384, {"S": 768, "W": 768, "N": 768}),
    Sentence("Part I, Example 14 (p. 41), West: erratum p. 41 makes the hand 1376, so 2752 from East and 1376 "
             "apiece from North and South", "W", 1376, {"E": 2752, "N": 1376, "S": 1376},
             printed="Collects 2688 from East Wind and 1344 apiece from North and South Winds."),
    Sentence("Part I, Example 15 (p. 42), East: 1792 from each player", "E", 896, {"S": 1792, "W": 1792, "N": 1792}),
    Sentence("Part I, Example 16, East: 1024 from each player", "E", 512, {"S": 1024, "W": 1024, "N": 1024}),
    Sentence("Part I, Example 17, South: 280 from East, 140 from North and West", "S", 140,
             {"E": 280, "N": 140, "W": 140}, printed="Collects double, or 280, from East wind; 140 from North and South"),
    Sentence("Part I, Example 18 (p. 44), North: erratum p. 44 makes the hand 228, so 456 from East, 228 from "
             "West and South", "N", 228, {"E": 456, "W": 228, "S": 228},
             printed="Collects double, or 472, from East wind: 236 from West and South winds"),
    Sentence("Part I, Example 19, West: 512 from East, 256 from North and South", "W", 256,
             {"E": 512, "N": 256, "S": 256}),
    Sentence("Part I, Example 20, East: 44,032 from each, 132,096 in all", "E", 22016,
             {"S": 44032, "W": 44032, "N": 44032}),
    Sentence("Part II, No. 1, East: 160 from each player", "E", 80, {"S": 160, "W": 160, "N": 160}),
    Sentence("Part II, No. 2, North: 1280 from East and 640 from the other two (no limit reached)",
             "N", 640, {"E": 1280, "S": 640, "W": 640}, limit=None),
    Sentence("Part II, No. 2, over the limit: double the limit from East, the limit from South and West",
             "N", 640, {"E": 600, "S": 300, "W": 300}, limit=300),
    Sentence("Part II, No. 3 (p. 72), North: erratum p. 72 makes the hand 32, so 64 from East, 32 from South and West",
             "N", 32, {"E": 64, "S": 32, "W": 32}, limit=300,
             printed="Player collects 104 from East Wind; 52 from South and West."),
    Sentence("Part II, No. 4 (p. 72), erratum: the player is East, so 768 from each of the other three",
             "E", 384, {"S": 768, "W": 768, "N": 768}, limit=None,
             printed="Players collect 768 from East; 384 from West and South."),
    Sentence("Part II, No. 5, single heads, a limit hand: double the limit from East, the limit from the others",
             "S", 300, {"E": 600, "W": 300, "N": 300}, limit=300),
    Sentence("Part II, No. 6, heads only, a limit hand: double the limit from East, the limit from the others",
             "W", 300, {"E": 600, "S": 300, "N": 300}, limit=300),
    Sentence("Part II, No. 7, three sets of dragons, a limit hand: double from East, the limit from the others",
             "N", 300, {"E": 600, "S": 300, "W": 300}, limit=300),
    Sentence("Part II, No. 7: in all limit hand cases East, if winner, collects double the limit from all",
             "E", 300, {"S": 600, "W": 600, "N": 600}, limit=300),
    Sentence("Part II, No. 8 (p. 74), South: 272 from East, 136 from North and West", "S", 136,
             {"E": 272, "N": 136, "W": 136}, limit=300),
    Sentence("Part II, No. 9, East: 320 from each player", "E", 160, {"S": 320, "W": 320, "N": 320}, limit=300),
    Sentence("Part II, No. 10, West: 128 from East and 64 from North and South", "W", 64,
             {"E": 128, "N": 64, "S": 64}, limit=300, printed="Player collects 128 from East and 64 from West and South."),
]


def table_for(case: Sentence) -> Table:
    players = tuple(Player(SEAT_NAMES[s], s, case.score if s == case.seat else 0, winner=s == case.seat) for s in SEATS)
    return Table(players, limit=case.limit)


@pytest.mark.parametrize("case", SENTENCES, ids=[c.source.split(":")[0] for c in SENTENCES])
def test_winner_collects_what_the_book_says(case: Sentence) -> None:
    s = settle(table_for(case))
    winner = SEAT_NAMES[case.seat]
    collected = {p.payer: p.amount for p in s.payments if p.payee == winner}
    assert collected == {SEAT_NAMES[seat]: amount for seat, amount in case.collects.items()}
    assert s.net(winner) == sum(case.collects.values())
    assert all(p.payee == winner for p in s.payments), "the other hands score nothing, so only the winner is paid"


def test_example_7_totals_69120_and_example_20_totals_132096() -> None:
    """The two totals the book prints for East's biggest hands."""
    example_7 = next(c for c in SENTENCES if c.source.startswith("Part I, Example 7 "))
    example_20 = next(c for c in SENTENCES if c.source.startswith("Part I, Example 20,"))
    assert settle(table_for(example_7)).net("E") == 69120
    assert settle(table_for(example_20)).net("E") == 132096


def test_cases_that_differ_from_print_are_in_the_rules_notes() -> None:
    from pathlib import Path

    notes = (Path(__file__).parents[1] / "docs" / "rules-notes" / "settlement.md").read_text(encoding="utf-8")
    for case in SENTENCES:
        if case.printed:
            assert case.printed in notes, f"{case.source}: explain the deviation in settlement.md"
