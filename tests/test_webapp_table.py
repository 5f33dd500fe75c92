"""The table model: seats, winds from who is East, every hand scored for the settlement."""

from __future__ import annotations

import pytest

from scoring.api import rule_sets
from scoring.errors import PungChowError
from scoring.service import ALL, score_under
from scoring.tiles import Tile
from webapp import table as tb
from webapp.scores import breakdown_rows

WINNER = "7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]"
#: Three losers' hands that one set of tiles holds beside the winner's (a deal with more than four of a tile is refused);
#: each scores as a pung of dragons and a kong of simples laid out.
LOSERS = ("2B3B4B 5D5D9D9D [RDRDRD] [4D4D4D4D]", "2B3B4B 1D1D8D8D [GDGDGD] [3D3D3D3D]", "2B3B4B 1C1C2C2C [WDWDWD] [8B8B8B8B]")
needs_harr = pytest.mark.skipif("harr-1922" not in rule_sets(), reason="the harr-1922 rule set is not installed")


def full_table(east: int = 0, winner: int | None = 0) -> tb.Deal:
    table = tb.new_deal(["Ann", "Bo", "Cy", "Di"])
    table = tb.with_typed_hand(table, 0, WINNER, winning_tile="2D", won_by="discard")
    for i, loser in enumerate(LOSERS, start=1):
        table = tb.with_typed_hand(table, i, loser)
    return tb.Deal(table.seats, east=east, winner=winner)


def test_winds_go_round_from_east() -> None:
    table = full_table(east=2)
    assert [table.seat_wind(i) for i in range(4)] == ["W", "N", "E", "S"]
    assert tb.hand_of(table, 2).seat_wind == "E"
    assert tb.hand_of(table, 0).winner and not tb.hand_of(table, 1).winner


def test_missing_or_wrong_hands_name_the_player() -> None:
    table = tb.with_typed_hand(full_table(), 3, "")
    with pytest.raises(PungChowError, match="Di has no hand"):
        tb.hand_of(table, 3)
    with pytest.raises(PungChowError, match="four players"):
        tb.score_table(tb.with_seat(full_table(), 1, player="Ann"), "harr-1922")


@needs_harr
def test_every_hand_is_scored() -> None:
    results = tb.score_table(full_table(), "harr-1922")
    assert list(results) == ["Ann", "Bo", "Cy", "Di"]
    assert results["Ann"].total == 22
    with pytest.raises(PungChowError, match="Bo's hand"):
        tb.score_table(tb.with_typed_hand(full_table(), 1, "1B2B3B"), "harr-1922")


@needs_harr
def test_breakdown_and_side_by_side() -> None:
    from scoring.api import Hand, ScoreResult

    hand = Hand.parse(WINNER, winning_tile="2D", won_by="discard")
    books = score_under(hand, ALL)
    assert set(books) >= {"harr-1922"}
    harr = books["harr-1922"]
    assert isinstance(harr, ScoreResult)
    rows = breakdown_rows(harr)
    assert rows[0]["value"] == "+20" and "Harr" in rows[0]["citation"]
    assert harr.lines[0].value == "+20"


@needs_harr
def test_settlement_of_a_scored_table() -> None:
    table = full_table(east=1)
    results = tb.score_table(table, "harr-1922")
    settlement = tb.settle_table(table, results, "harr-1922")
    assert sum(settlement.nets().values()) == 0
    assert settlement.table.book == "harr-1922"
    rows = tb.payment_rows(settlement)
    assert [r["pays"] for r in rows] == ["Ann", "Bo", "Cy", "Di"]
    assert rows[1]["to Ann"] == 2 * rows[2]["to Ann"], "East (Bo) pays the winner double"
    assert all(line["citation"] for line in tb.payment_lines(settlement))
    assert {r["player"] for r in tb.net_rows(settlement)} == {"Ann", "Bo", "Cy", "Di"}


@needs_harr
def test_a_drawn_deal_pays_nothing() -> None:
    table = tb.with_typed_hand(full_table(winner=None), 0, "7C8C9C6C7C8CSWSW5C6C [2D2D2D]")
    results = tb.score_table(table, "harr-1922")
    settlement = tb.settle_table(table, results, "harr-1922")
    assert settlement.payments == () and set(settlement.nets().values()) == {0}
    assert any("drawn" in note for note in settlement.notes)


def test_table_cells_are_text_so_a_column_has_one_type() -> None:
    from webapp.widgets import text_table

    rows = text_table([{"value": 4, "for": "pung"}, {"value": "x2", "for": None}])
    assert rows == [{"value": "4", "for": "pung"}, {"value": "x2", "for": ""}]


@needs_harr
def test_the_page_shows_words_not_identifiers() -> None:
    """Rule ids (own-mandarin) and Python values ({'limit': None}, True) are for the JSON; the player reads words."""
    from scoring.api import Hand, ScoreResult
    from webapp.reviewer import won_by_words
    from webapp.text import options_text

    hand = Hand.parse(WINNER, winning_tile="2D", won_by="discard")
    harr = score_under(hand, ALL)["harr-1922"]
    assert isinstance(harr, ScoreResult)
    assert all(set(row) == {"value", "for", "citation"} for row in breakdown_rows(harr))
    assert options_text({"limit": None}) == "limit none"
    assert [won_by_words(m) for m in ("loose-tile", "robbed-kong", "original-hand")] == ["loose tile", "robbing a kong", "original hand"]


def test_a_folded_seat_says_what_it_still_needs() -> None:
    """Each seat of *Settle the table* folds to one line: who, which wind, the hand or plain score, and what is missing."""
    table = full_table()
    assert tb.seat_summary(table, 0) == "Ann — East · went out: 6C7C7C8C8C9CSWSW [2D2D… · done"  # the tiles as read
    assert tb.seat_summary(tb.with_seat(table, 0, won_by=""), 0).endswith("· needs how they went out")
    assert tb.seat_summary(tb.with_typed_hand(table, 1, "1B2B3Q"), 1) == "Bo — South: 1B2B3Q · needs a hand that reads (Settle says why)"
    assert tb.seat_summary(tb.with_typed_hand(table, 2, ""), 2) == "Cy — West: no hand yet · needs the hand"
    assert tb.seat_summary(tb.with_seat(table, 3, plain=True), 3) == "Di — North: score not typed yet · needs the score"
    assert tb.seat_summary(tb.with_seat(table, 3, plain=True, score=24), 3) == "Di — North: plain score 24 · done"
    assert tb.seat_summary(tb.with_seat(table, 0, plain=True, score=24), 0).endswith("· needs the winning hand, not a score")


def test_the_winning_tile_is_kept_as_a_tile() -> None:
    """The winner's seat keeps the tile that completed the hand as a tile (typed " 2d " is the 2 of dots), not as text;
    a typed tile that does not read is kept as typed, and settling says what is wrong with it."""
    table = tb.with_seat(full_table(), 0, winning_tile=" 2d ")
    assert table.seats[0].winning_tile == Tile("2D") and table.seats[0].winning_unread == ""
    assert tb.hand_of(table, 0).winning_tile == Tile("2D")
    typo = tb.with_seat(full_table(), 0, winning_tile="2Q")
    assert (typo.seats[0].winning_tile, typo.seats[0].winning_unread, typo.seats[0].winning_shown) == (None, "2Q", "2Q")
    assert tb.seat_summary(typo, 0).endswith("· needs a hand that reads (Settle says why)")
    with pytest.raises(PungChowError, match="Ann's hand: unknown tile code '2Q'"):
        tb.hand_of(typo, 0)
