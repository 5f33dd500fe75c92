"""Harr (1922), Part II: the limit, the penalties, washing the tiles, the drawn game; two and three play.

Scores are given as numbers, as the book states its rules; each test says the rule it checks.
"""

from __future__ import annotations

import pytest

from scoring.settle import Incident, IncidentKind, Player, SettlementError, Table, settle
from scoring.settle.model import HandedGame

from settle_helpers import paid, table

LAYOUT_4 = {"E": 80, "S": 48, "W": 64, "N": 184}


# --- the limit (Part II, The Limit Hand, p. 60) --------------------------------------------------


def test_losers_settle_up_to_the_limit_and_up_to_double_the_limit_with_east() -> None:
    """Limit 300. West holds 350 uncapped; South's and East's hands are dead and count nothing.

    West collects the limit, 300, from South, and double the limit, 600, from East; neither more.
    """
    players = (Player("East", "E", 120, dead=True), Player("South", "S", 90, dead=True),
               Player("West", "W", 350), Player("North", "N", 20, winner=True))
    s = settle(Table(players, limit=300))
    assert paid(s)[("S", "W")] == 300 and paid(s)[("E", "W")] == 600
    assert "Part II, The Limit Hand (p. 60)" in str(next(p.citation for p in s.payments if p.payer == "East" and p.payee == "West"))


def test_a_score_given_above_the_limit_counts_as_the_limit() -> None:
    """The limit bounds what a hand can score: West's 2562 (layout 2) counts 300 under a limit of 300.

    So West collects (300 - 4) x 2 = 592 from East and 300 - 8 = 292 from South.
    """
    s = settle(table({"E": 4, "S": 8, "W": 2562, "N": 22}, winner="N", limit=300))
    assert paid(s)[("E", "W")] == 592 and paid(s)[("S", "W")] == 292
    assert paid(s)[("E", "N")] == 44


def test_an_east_limit_given_separately_caps_east_payments() -> None:
    s = settle(table({"E": 0, "S": 0, "W": 0, "N": 400}, winner="N", limit=400, east_limit=600))
    assert paid(s) == {("E", "N"): 600, ("S", "N"): 400, ("W", "N"): 400}


def test_limits_change_nothing_below_them() -> None:
    """Layout 4 under a limit of 300 settles exactly as without one."""
    assert paid(settle(table(LAYOUT_4, winner="N", limit=300))) == paid(settle(table(LAYOUT_4, winner="N")))


# --- penalty 1: false Mah-Jongg --------------------------------------------------------------------


def test_false_mah_jongg_pays_half_the_limit_to_each_and_the_full_limit_to_east() -> None:
    """South calls Mah-Jongg on an incomplete hand, limit 300: 150 to West and North, 300 to East."""
    s = settle(table({"E": 0, "S": 0, "W": 0, "N": 0}, limit=300,
                     incident=Incident(IncidentKind.FALSE_MAH_JONG, player="S")))
    assert paid(s) == {("S", "E"): 300, ("S", "W"): 150, ("S", "N"): 150}
    assert all("Penalties (p. 67), 1" in str(p.citation) for p in s.payments)


def test_east_calling_false_mah_jongg_pays_the_full_limit_to_each() -> None:
    s = settle(table({"E": 0, "S": 0, "W": 0, "N": 0}, limit=400,
                     incident=Incident(IncidentKind.FALSE_MAH_JONG, player="E")))
    assert paid(s) == {("E", "S"): 400, ("E", "W"): 400, ("E", "N"): 400}


def test_false_mah_jongg_needs_a_limit_and_ends_the_hand() -> None:
    with pytest.raises(SettlementError, match="half the limit"):
        settle(table({"E": 0, "S": 0, "W": 0, "N": 0}, incident=Incident(IncidentKind.FALSE_MAH_JONG, player="S")))
    with pytest.raises(SettlementError, match="cannot be the winner"):
        settle(table(LAYOUT_4, winner="N", limit=300, incident=Incident(IncidentKind.FALSE_MAH_JONG, player="S")))


# --- penalty 2: the discard that lets a dangerous hand win ----------------------------------------


def discard(player: str, condition: str = "dragons", exception: str | None = None) -> Incident:
    return Incident(IncidentKind.DANGEROUS_DISCARD, player=player, condition=condition, exception=exception)


@pytest.mark.parametrize("condition", ["one-suit", "heads", "dragons", "winds"])
def test_the_discarder_bears_every_loss_and_all_other_scores_are_cancelled(condition: str) -> None:
    """Layout 4's hands, but South's discard let North win with one of the four exposed combinations.

    South pays North East's 368, West's 184 and his own 184: 736. East, West and North settle
    nothing more; the losers' differences are cancelled (Note b).
    """
    s = settle(table(LAYOUT_4, winner="N", incident=discard("S", condition)))
    assert paid(s) == {("S", "N"): 736}
    assert s.nets() == {"East": 0, "South": -736, "West": 0, "North": 736}
    assert all("Penalties (p. 67), 2" in str(p.citation) for p in s.payments)


def test_an_east_discarder_pays_his_own_double_and_the_others_singles() -> None:
    s = settle(table(LAYOUT_4, winner="N", incident=discard("E", "winds")))
    assert paid(s) == {("E", "N"): 368 + 184 + 184}


def test_the_discarders_burden_is_capped_as_each_loss_would_have_been() -> None:
    """Limit 300, North's hand at the limit: East's share is 600, the others' 300 each."""
    s = settle(table({"E": 10, "S": 20, "W": 30, "N": 300}, winner="N", limit=300, incident=discard("W", "heads")))
    assert paid(s) == {("W", "N"): 1200}


@pytest.mark.parametrize("exception", ["two-doubles-waiting", "more-than-two-doubles", "no-choice"])
def test_an_excused_discarder_pays_only_his_own_and_the_game_settles_as_usual(exception: str) -> None:
    """The italic exceptions (two doubling honors and waiting; waiting for more than two) and Note a."""
    s = settle(table(LAYOUT_4, winner="N", incident=discard("S", "dragons", exception)))
    assert paid(s) == paid(settle(table(LAYOUT_4, winner="N")))
    assert any("excused" in n for n in s.notes)


def test_a_dangerous_discard_needs_a_known_condition_a_winner_and_another_player() -> None:
    with pytest.raises(SettlementError, match="one-suit, heads, dragons, winds"):
        settle(table(LAYOUT_4, winner="N", incident=discard("S", "terminals")))
    with pytest.raises(SettlementError, match="mark the winner"):
        settle(table(LAYOUT_4, incident=discard("S")))
    with pytest.raises(SettlementError, match="cannot be the winner"):
        settle(table(LAYOUT_4, winner="N", incident=discard("N")))
    with pytest.raises(SettlementError, match="unknown exception"):
        settle(table(LAYOUT_4, winner="N", incident=discard("S", "dragons", "felt-lucky")))


# --- washing the tiles (p. 61) and the drawn game (p. 57) ----------------------------------------


@pytest.mark.parametrize("heads, each", [(9, 50), (10, 70), (11, 100), (12, 150), (13, 200)])
def test_washing_the_tiles_collects_by_the_table_and_east_pays_single(heads: int, each: int) -> None:
    s = settle(table({"E": 0, "S": 0, "W": 0, "N": 0}, limit=300,
                     incident=Incident(IncidentKind.WASHING, player="S", heads=heads)))
    assert paid(s) == {("E", "S"): each, ("W", "S"): each, ("N", "S"): each}


def test_east_washing_the_tiles_collects_single_too() -> None:
    s = settle(table({"E": 0, "S": 0, "W": 0, "N": 0}, incident=Incident(IncidentKind.WASHING, player="E", heads=10)))
    assert paid(s) == {("S", "E"): 70, ("W", "E"): 70, ("N", "E"): 70}


def test_eight_heads_do_not_wash_the_tiles() -> None:
    with pytest.raises(SettlementError, match="nine or more"):
        settle(table({"E": 0, "S": 0, "W": 0, "N": 0}, incident=Incident(IncidentKind.WASHING, player="W", heads=8)))


def test_a_drawn_game_pays_nothing_and_east_keeps_his_seat() -> None:
    s = settle(table(LAYOUT_4, limit=300, incident=Incident(IncidentKind.DRAWN_GAME)))
    assert s.payments == () and all(v == 0 for v in s.nets().values())
    assert any("East keeps his seat" in n for n in s.notes)
    with pytest.raises(SettlementError, match="no one wins"):
        settle(table(LAYOUT_4, winner="N", incident=Incident(IncidentKind.DRAWN_GAME)))


# --- two and three play "in exactly the same way" (p. 76) ----------------------------------------


def test_harr_three_hand_game_settles_like_four_with_east_double() -> None:
    """No West: North wins 50; East pays 100, South 50; then East (20) collects 10 doubled from South (10)."""
    s = settle(table({"E": 20, "S": 10, "N": 50}, winner="N", game=HandedGame.THREE))
    assert paid(s) == {("E", "N"): 100, ("S", "N"): 50, ("S", "E"): 20}
    assert s.grid() == [[0, 0, 100], [20, 0, 50], [0, 0, 0]]


def test_harr_two_hand_game_keeps_east_double() -> None:
    s = settle(table({"E": 30, "W": 100}, winner="W", game=HandedGame.TWO))
    assert paid(s) == {("E", "W"): 200}


# --- Part I, Mah-Jongg or Mah-Diao (p. 24): a dead hand --------------------------------------------


def test_a_dead_hand_counts_nothing_so_it_pays_every_player() -> None:
    """Layout 3 with West's hand dead (wrong number of tiles): his 64 does not count.

    He pays North 416 as before, South 10 and East 56 doubled, 112; South still pays East 92.
    """
    players = (Player("East", "E", 56), Player("South", "S", 10), Player("West", "W", 64, dead=True),
               Player("North", "N", 416, winner=True))
    s = settle(Table(players))
    assert paid(s) == {("E", "N"): 832, ("S", "N"): 416, ("W", "N"): 416,
                       ("W", "E"): 112, ("W", "S"): 10, ("S", "E"): 92}
