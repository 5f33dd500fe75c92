"""One hand under every rule set, side by side: ``pungchow score HAND --rules all`` and ``score_all``.

A hand that is complete under one book and not under another must not stop the table: the
book that refuses it shows its reason in its own row.
"""

from __future__ import annotations

import json

import pytest

from pungchow.cli import main
from scoring.errors import InvalidHandError
from scoring.hand import Hand
from scoring.rulesets import Refusal, rule_sets, score_all
from scoring.engine import ScoreResult

OUR_BOOKS = ("foster-1924-mixed", "foster-1924-one-double", "foster-1924-cleared", "chinese-classical", "british-1920s")


def test_every_book_is_registered_and_listed(capsys: pytest.CaptureFixture[str]) -> None:
    assert set(OUR_BOOKS) <= set(rule_sets())
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for name in OUR_BOOKS:
        assert name in out
    assert "--option east_limit=..." in out


def test_score_all_gives_every_book_its_total_and_lines() -> None:
    # Foster Mixed working (tests/test_foster_1924.py, first case): 56; Cleared: 52.
    hand = Hand.parse("2C3C4C5D6D7DRDRD [WWWWWW] [7B8B9B]", winning_tile="RD", won_by="discard", seat_wind="W")
    results = score_all(hand)
    assert set(results) == set(rule_sets())
    assert all(isinstance(r, ScoreResult) for r in results.values())
    assert results["foster-1924-mixed"].total == 56
    assert results["foster-1924-cleared"].total == 52
    # Chinese Classical (its first case): 56 rounded to 60; British (its first case): 56.
    assert results["chinese-classical"].total == 60
    assert results["british-1920s"].total == 56
    assert {line.rule for line in results["foster-1924-mixed"].lines} == {"woo", "only-place", "set", "pair", "own-wind-set"}


def test_a_hand_one_book_refuses_keeps_the_others() -> None:
    # Seven pairs of honours: Foster's heavenly twins (limit 500); Harr has no seven-pair hand.
    hand = Hand.parse("EWEWSWSWWWWWNWNWRDRDGDGDWDWD", winning_tile="WD", won_by="wall", seat_wind="S")
    results = score_all(hand)
    assert results["foster-1924-mixed"].total == 500
    assert results["british-1920s"].total == 500
    for name in ("harr-1922", "chinese-classical"):
        refused = results[name]
        assert isinstance(refused, Refusal)
        assert refused.total is None and f"not a complete hand under {name}" in refused.reason


def test_an_option_that_makes_one_book_refuse_leaves_the_rest() -> None:
    # British three-doubles method: one double is no Mah-Jongg there; the others still score.
    hand = Hand.parse("2C3C4C5D6D7DRDRD [WWWWWW] [7B8B9B]", winning_tile="RD", won_by="discard", seat_wind="W")
    results = score_all(hand, {"british-1920s": {"three_doubles": "yes"}})
    assert isinstance(results["british-1920s"], Refusal)
    assert "three-doubles method" in results["british-1920s"].reason
    assert results["foster-1924-mixed"].total == 56


def test_a_hand_that_cannot_exist_is_still_an_error() -> None:
    hand = Hand.parse("1B1B1B1B1B2B3B4B5B6B7B8B9B9B", check=False)
    with pytest.raises(InvalidHandError, match="five|5 of 1B"):
        score_all(hand)


def test_cli_rules_all_prints_a_row_per_book_with_reasons(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["score", "EWEWSWSWWWWWNWNWRDRDGDGDWDWD", "--winning", "WD", "--won-by", "wall", "--seat", "S", "--rules", "all"])
    out = capsys.readouterr().out
    assert code == 0
    table = out.split("side by side:")[1]
    rows = {line.split()[0]: line.split()[1] for line in table.strip().splitlines()}
    assert rows["foster-1924-mixed"] == "500"
    assert rows["harr-1922"] == "-"
    assert "not a complete hand under harr-1922" in table


def test_cli_rules_all_json(capsys: pytest.CaptureFixture[str]) -> None:
    main(["score", "EWEWSWSWWWWWNWNWRDRDGDGDWDWD", "--winning", "WD", "--won-by", "wall", "--rules", "all", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["foster-1924-cleared"]["total"] == 500
    assert data["foster-1924-cleared"]["lines"][0]["rule"] == "heavenly-twins"
    assert data["harr-1922"]["total"] is None and data["harr-1922"]["refused"]


def test_cli_passes_each_book_only_its_own_options(capsys: pytest.CaptureFixture[str]) -> None:
    # east_limit is Foster's; Harr does not know it, and the table still scores.
    code = main(["score", "2C3C4C5D6D7DRDRD [WWWWWW] [7B8B9B]", "--winning", "RD", "--seat", "W",
                 "--rules", "all", "--option", "east_limit=800"])
    assert code == 0
    assert "foster-1924-mixed" in capsys.readouterr().out
