"""Chinese Classical settling: the guide's two worked tables, its penalties, the page's path,
and the book rules that came with them (Harr Part II's limit, the Chinese losers' pairs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.hand import Hand
from scoring.rulesets import get_rule_set, score_hand
from scoring.settle import Book, SettlementError, load_table, render, settle
from scoring.settle.tablefile import table_from_dict
from tests.settle_helpers import table

TABLES = Path(__file__).with_name("tables")


def settled(name: str):  # type: ignore[no-untyped-def]
    return settle(load_table((TABLES / f"chinese-classical-{name}.json").read_text()))


def test_the_guides_losers_table_settles_exactly() -> None:
    """West wins with 20 (East pays 40); South 80 collects 60 from East and 80 from North; East
    collects 100 from North: nets 0, +120, +80, -200 as the guide prints them."""
    s = settled("losers")
    assert s.table.book == Book.CHINESE and s.table.limit == 500
    assert s.nets() == {"East": 0, "South": 120, "West": 80, "North": -200}
    assert (s.paid("E", "S"), s.paid("N", "E"), s.paid("N", "S"), s.paid("E", "W")) == (60, 100, 80, 40)
    assert all("Chinese Classical" in str(p.citation) for p in s.payments)


def test_the_guides_score_sheet_settles_exactly() -> None:
    """Helen (South) wins with 40, Jack (East) holds 10: -60, -40, +160, -60 (Mike, Jack, Helen, Tim)."""
    s = settled("hand-10")
    assert s.nets() == {"Jack": -40, "Helen": 160, "Tim": -60, "Mike": -60}


def test_a_table_of_hands_is_scored_under_chinese_classical_and_settled() -> None:
    """West's claimed 9B pung is marked: concealed hand 10 kept, 30; East's pung of red dragons
    8 x2 = 16 -> 20; South's concealed 2B pung 4 -> 0; North nothing."""
    s = settled("hands")
    scores = {p.name: p.score for p in s.table.players}
    assert scores == {"East": 20, "South": 0, "West": 30, "North": 0}
    assert s.nets() == {"East": 20, "South": -70, "West": 120, "North": -70}


def test_a_faulty_out_costs_half_the_limit_east_double() -> None:
    s = settled("faulty-out")
    assert s.nets() == {"East": 500, "South": -1000, "West": 250, "North": 250}
    assert any("not scored" in note for note in s.notes)


def test_faulty_claims_pay_100_each_to_the_winner_on_top_of_the_settlement() -> None:
    plain, fined = settled("losers"), settled("faulty-claim")
    assert fined.paid("N", "W") - plain.paid("N", "W") == 200
    assert fined.nets()["North"] == plain.nets()["North"] - 200


def test_a_faulty_claim_by_the_winner_or_in_another_book_is_refused() -> None:
    data = json.loads((TABLES / "chinese-classical-faulty-claim.json").read_text())
    data["incident"]["player"] = "W"
    with pytest.raises(SettlementError, match="paid to the winner by another player"):
        settle(table_from_dict(data))
    data["incident"]["player"] = "N"
    data["book"] = "harr-1922"
    with pytest.raises(SettlementError, match="faulty claim"):
        settle(table_from_dict(data))


def test_chinese_classical_states_no_dangerous_discard() -> None:
    data = json.loads((TABLES / "chinese-classical-losers.json").read_text())
    data["incident"] = {"kind": "dangerous-discard", "player": "N", "condition": "dragons"}
    with pytest.raises(SettlementError, match="chinese-classical states no payment"):
        settle(table_from_dict(data))


def test_pungchow_settle_prints_the_chinese_table(capsys: pytest.CaptureFixture[str]) -> None:
    from pungchow.cli import main

    assert main(["settle", str(TABLES / "chinese-classical-losers.json")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("chinese-classical, four-hand game, limit 500")
    assert "Payments between losers" in out and render(settled("losers")) in out


def test_the_pages_settle_path_picks_the_chinese_book() -> None:
    from webapp import table as tb

    t = tb.new_deal(["Ann", "Bo", "Cy", "Di"])
    t = tb.with_typed_hand(t, 0, "2B3B4B5C6C7C3D4D5D6D6D [9B9B9B]*", winning_tile="9B", won_by="discard")
    losers = ("1B2B3B 4D4D9D9D [RDRDRD] [4C4C4C4C]", "4B5B6B 3D3D8D8D [GDGDGD] [3C3C3C3C]", "7B8B9B 1D1D5D5D [WDWDWD] [2C2C2C2C]")
    for i, loser in enumerate(losers, start=1):
        t = tb.with_typed_hand(t, i, loser)
    t = tb.Deal(t.seats, east=0, winner=0)
    results = tb.score_table(t, "chinese-classical")
    settlement = tb.settle_table(t, results, "chinese-classical")
    assert settlement.table.book == "chinese-classical"
    assert sum(settlement.nets().values()) == 0
    assert all("Chinese Classical" in line["citation"] for line in tb.payment_lines(settlement))


# --- Harr Part II's limit follows the Mah-Jongg bonus --------------------------------------------


@pytest.mark.parametrize("given, limit", [({}, 300), ({"mah_jongg": "20"}, 400), ({"mah_jongg": "20", "limit": "350"}, 350),
                                          ({"limit": "none"}, None)])
def test_harr_part_two_limit_follows_the_mah_jongg_bonus(given: dict[str, str], limit: int | None) -> None:
    assert get_rule_set("harr-1922-limit").resolve_options(given)["limit"] == limit


def test_a_limit_hand_under_a_20_point_mah_jongg_is_worth_400() -> None:
    hand = Hand.parse("RDRDRDGDGDGDWDWDWD1B1B [2B3B4B]", winning_tile="WD", won_by="discard")
    assert score_hand(hand, "harr-1922-limit", {"mah_jongg": 20}).total == 400
    assert score_hand(hand, "harr-1922-limit").total == 300


def test_a_harr_table_with_a_20_point_mah_jongg_settles_under_400() -> None:
    data = {"schema": "pungchow/table", "version": 1, "rules": "harr-1922-limit", "options": {"mah_jongg": 20},
            "players": [{"seat": s, "score": 0} for s in "ESW"] + [{"seat": "N", "score": 10, "winner": True}]}
    assert table_from_dict(data).limit == 400


# --- Chinese Classical losers' value pairs --------------------------------------------------------


def test_a_chinese_losers_value_pair_counts_only_with_the_option() -> None:
    """East, South round, did not win, rounding off: red dragons concealed 8, x2 = 16. The pair of
    own wind counts only with losers_pairs (the settings table's reading): 8 + 2 = 10, x2 = 20."""
    hand = Hand.parse("RDRDRD EWEW 1C2C3C 7D9D 4B5B7B", winner=False, prevailing_wind="S")
    footnote = score_hand(hand, "chinese-classical", {"rounding": "no"})
    settings = score_hand(hand, "chinese-classical", {"rounding": "no", "losers_pairs": "yes"})
    assert (footnote.total, settings.total) == (16, 20)
    assert "pair" in {line.rule for line in settings.lines} and "pair" not in {line.rule for line in footnote.lines}


def test_scores_given_as_numbers_settle_identically_to_a_built_table() -> None:
    s = settle(table({"E": 50, "S": 80, "W": 20, "N": 0}, winner="W", book="chinese-classical", limit=500))
    assert s.nets() == settled("losers").nets()
