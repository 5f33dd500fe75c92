"""The evening's score sheet and the settle-up at the end of it (webapp/sheet.py)."""

from __future__ import annotations

import itertools
import random

import pytest

from scoring.errors import PungChowError
from webapp.sheet import Transfer, score_sheet, settle_up

PLAYERS = ("Ann", "Bo", "Cy", "Di")


def test_the_sheet_keeps_a_running_total_deal_by_deal() -> None:
    sheet = score_sheet(PLAYERS, [
        (2, {"Ann": -8, "Bo": 24, "Cy": -8, "Di": -8}),  # given out of order: the sheet reads in deal order
        (1, {"Ann": 48, "Bo": -16, "Cy": -16, "Di": -16}),
        (3, {"Ann": 0, "Bo": 0, "Cy": 0, "Di": 0}),  # a drawn deal: nothing paid
    ])
    assert [line.deal for line in sheet.lines] == [1, 2, 3]
    assert [dict(line.running) for line in sheet.lines] == [
        {"Ann": 48, "Bo": -16, "Cy": -16, "Di": -16},
        {"Ann": 40, "Bo": 8, "Cy": -24, "Di": -24},
        {"Ann": 40, "Bo": 8, "Cy": -24, "Di": -24},
    ]
    assert dict(sheet.totals) == {"Ann": 40, "Bo": 8, "Cy": -24, "Di": -24}


def test_an_empty_sheet_stands_at_zero() -> None:
    assert dict(score_sheet(PLAYERS, []).totals) == dict.fromkeys(PLAYERS, 0)


def test_a_deal_that_does_not_cancel_or_names_a_stranger_is_refused() -> None:
    with pytest.raises(PungChowError, match="do not cancel"):
        score_sheet(PLAYERS, [(1, {"Ann": 10, "Bo": -5, "Cy": 0, "Di": 0})])
    with pytest.raises(PungChowError, match="Ed, who is not at this game's table"):
        score_sheet(PLAYERS, [(1, {"Ann": 10, "Ed": -10})])


def balances_after(totals: dict[str, int], transfers: list[Transfer]) -> dict[str, int]:
    left = dict(totals)
    for t in transfers:
        assert t.amount > 0 and t.payer != t.payee
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    return left


def fewest_by_brute_force(totals: dict[str, int]) -> int:
    """Players owed or owing, less the most groups among them summing to 0: tried over every partition."""
    owed = [v for v in totals.values() if v]
    best = 0

    def partitions(items: list[int]) -> list[list[list[int]]]:
        if not items:
            return [[]]
        first, rest = items[0], items[1:]
        out = []
        for part in partitions(rest):
            out.append([[first], *part])
            for i in range(len(part)):
                out.append(part[:i] + [[first, *part[i]]] + part[i + 1:])
        return out

    for part in partitions(owed):
        if all(sum(g) == 0 for g in part):
            best = max(best, len(part))
    return len(owed) - best


def test_two_pairs_that_cancel_settle_in_two_transfers_not_three() -> None:
    totals = {"Ann": 30, "Bo": -30, "Cy": 12, "Di": -12}
    transfers = settle_up(totals)
    assert sorted(map(str, transfers)) == ["Bo pays Ann 30", "Di pays Cy 12"]


def test_everyone_square_needs_no_transfer() -> None:
    assert settle_up(dict.fromkeys(PLAYERS, 0)) == []


def test_the_settle_up_brings_every_total_to_zero_in_the_fewest_transfers() -> None:
    rng = random.Random(36)
    for _ in range(300):
        n = rng.choice([4, 4, 5, 6])
        values = [rng.choice([-48, -24, -16, -8, 0, 8, 16, 24, 48]) for _ in range(n - 1)]
        values.append(-sum(values))
        totals = {f"P{i}": v for i, v in enumerate(values)}
        transfers = settle_up(totals)
        assert balances_after(totals, transfers) == dict.fromkeys(totals, 0)
        assert len(transfers) == fewest_by_brute_force(totals), totals


def test_totals_that_do_not_sum_to_zero_cannot_be_settled() -> None:
    with pytest.raises(PungChowError, match="sum to 4, not 0"):
        settle_up({"Ann": 4, "Bo": 0})


def test_every_order_of_the_players_settles_in_as_few_transfers() -> None:
    totals = {"Ann": 40, "Bo": 8, "Cy": -24, "Di": -24}
    counts = {len(settle_up(dict(order))) for order in itertools.permutations(totals.items())}
    assert counts == {3}
