"""The service the CLI and the page both call: one way to check options, score side by side, word a
total and settle a deal."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from pungchow.cli import main as cli_main
from scoring import service
from scoring.errors import UnknownRuleSetError
from scoring.hand import Hand
from scoring.rulesets import Refusal, get_rule_set, register, unregister
from scoring.settle.model import SettlementError
from webapp import table as tb

WINNER = "7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]"
#: Three losers' hands that one set of tiles holds beside the winner's (a deal with more than four of a tile is refused);
#: each scores as a pung of dragons and a kong of simples laid out.
LOSERS = ("2B3B4B 5D5D9D9D [RDRDRD] [4D4D4D4D]", "2B3B4B 1D1D8D8D [GDGDGD] [3D3D3D3D]", "2B3B4B 1C1C2C2C [WDWDWD] [8B8B8B8B]")


def deal() -> tb.Deal:
    table = tb.new_deal(["Ann", "Bo", "Cy", "Di"])
    table = tb.with_typed_hand(table, 0, WINNER, winning_tile="2D", won_by="discard")
    for i, loser in enumerate(LOSERS, start=1):
        table = tb.with_typed_hand(table, i, loser)
    return table


def test_page_refuses_an_option_the_rule_set_lacks_as_the_cli_does(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(UnknownRuleSetError, match="harr-1922 has no option 'flower'"):
        tb.score_table(deal(), "harr-1922", {"flower": "no"})
    assert cli_main(["score", WINNER, "--winning", "2D", "--option", "flower=no"]) == 2
    assert "harr-1922 has no option 'flower'" in capsys.readouterr().err


def test_page_settles_under_fosters_east_limit_as_a_table_file_does() -> None:
    from scoring.settle.tablefile import table_from_dict

    options = {"east_limit": "800", "limit": "400"}
    results = tb.score_table(deal(), "foster-1924-mixed", options)
    page = tb.settle_table(deal(), results, "foster-1924-mixed", options)
    assert (page.table.book, page.table.limit, page.table.east_cap) == ("foster-1924", 400, 800)
    players = [{"name": p, "seat": tb.Deal(deal().seats).seat_wind(i), "score": int(results[p].total),
                "winner": i == 0} for i, p in enumerate(deal().players)]
    from_file = table_from_dict({"rules": "foster-1924-mixed", "options": {"east_limit": 800, "limit": 400},
                                 "players": players})
    assert (from_file.limit, from_file.east_cap) == (400, 800)


def test_an_unknown_settling_book_is_refused_not_settled_as_harrs() -> None:
    register(replace(get_rule_set("harr-1922"), name="house-nowhere", aliases=(), settling="nowhere"))
    try:
        results = tb.score_table(deal(), "house-nowhere")
        with pytest.raises(SettlementError, match="unknown book 'nowhere'"):
            tb.settle_table(deal(), results, "house-nowhere")
    finally:
        unregister("house-nowhere")


def test_side_by_side_is_the_cli_s_json(capsys: pytest.CaptureFixture[str]) -> None:
    hand = Hand.parse(WINNER, winning_tile="2D", won_by="discard")
    results = service.score_under(hand, service.ALL)
    assert cli_main(["score", WINNER, "--winning", "2D", "--rules", "all", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert {n: r["total"] for n, r in printed.items()} == {n: r.total for n, r in results.items()}
    assert service.total_text(results["harr-1922"]) == str(results["harr-1922"].total)


def test_seven_pairs_are_refused_by_one_book_side_by_side_and_raise_under_it_alone() -> None:
    hand = Hand.parse("1B1B2B2B3B3B4D4D5D5DRDRDGDGD", winning_tile="GD", won_by="wall")
    results = service.score_under(hand, service.ALL)
    refused = [n for n, r in results.items() if isinstance(r, Refusal)]
    assert refused and all(service.total_text(results[n]) == "-" for n in refused)
    assert any(f"  {refused[0]}" in line and "not a complete hand" in line for line in service.side_by_side_lines(results))
    with pytest.raises(Exception, match="not a complete hand"):
        service.score_under(hand, refused[0])
