"""Foster's American code (1924) and the British fragment, where they differ from Harr."""

from __future__ import annotations

import pytest

from scoring.settle import Book, Incident, IncidentKind, Player, SettlementError, Table, settle, table_from_dict
from scoring.settle.foster import next_seating
from scoring.settle.model import HandedGame

from settle_helpers import paid, table


def foster_json(players: list[dict[str, object]], **kw: object) -> dict[str, object]:
    return {"schema": "pungchow/table", "version": 1, "book": "foster-1924", "players": players, **kw}


# --- Foster: the limit (Law 93) ------------------------------------------------------------------


def test_foster_limit_is_500_and_1000_for_east_unless_agreed() -> None:
    """North's 640 is held to 500: East pays 1000, South and West 500 each."""
    t = table_from_dict(foster_json([{"seat": "E", "score": 0}, {"seat": "S", "score": 0},
                                     {"seat": "W", "score": 0}, {"seat": "N", "score": 640, "winner": True}]))
    assert (t.limit, t.east_cap) == (500, 1000)
    s = settle(t)
    assert paid(s) == {("E", "N"): 1000, ("S", "N"): 500, ("W", "N"): 500}
    assert any("Law 93" in str(p.citation) for p in s.payments)


def test_an_agreed_limit_replaces_foster_s() -> None:
    t = table_from_dict(foster_json([{"seat": "E", "score": 0}, {"seat": "S", "score": 0},
                                     {"seat": "W", "score": 0}, {"seat": "N", "score": 640, "winner": True}], limit=None))
    assert paid(settle(t))[("E", "N")] == 1280


# --- Foster: two, three, five and six players -----------------------------------------------------


def test_two_hand_game_no_east_double() -> None:
    """The non-winner pays the winner the full amount of his score; East neither pays nor receives double."""
    assert paid(settle(table({"E": 30, "W": 100}, winner="W", book=Book.FOSTER, game=HandedGame.TWO))) == {("E", "W"): 100}
    assert paid(settle(table({"E": 100, "W": 30}, winner="E", book=Book.FOSTER, game=HandedGame.TWO))) == {("W", "E"): 100}


def test_two_hand_game_seats_east_and_west() -> None:
    with pytest.raises(SettlementError, match="East and West"):
        settle(table({"E": 30, "S": 100}, winner="S", book=Book.FOSTER, game=HandedGame.TWO))


@pytest.mark.parametrize("seats", ["ESN", "EWN", "ESW"])
def test_three_hand_game_leaves_one_wind_empty_and_east_still_doubles(seats: str) -> None:
    """Three play East, South, North; as East passes, the empty wind moves round (no South, then no North)."""
    scores = dict(zip(seats, (20, 10, 50)))
    winner = seats[2]
    s = settle(table(scores, winner=winner, book=Book.FOSTER, game=HandedGame.THREE))
    assert paid(s) == {("E", winner): 100, (seats[1], winner): 50, (seats[1], "E"): 20}


def test_five_hand_game_settles_the_four_at_the_table_and_not_the_one_sitting_out() -> None:
    players = (Player("Ann", "E", 80), Player("Bob", "S", 48), Player("Cy", "W", 64),
               Player("Di", "N", 184, winner=True), Player("Ed", None))
    s = settle(Table(players, book=Book.FOSTER, game=HandedGame.FIVE))
    assert s.nets()["Ed"] == 0 and s.grid()[4] == [0] * 5 and [row[4] for row in s.grid()] == [0] * 5
    assert s.paid("Ann", "Di") == 368 and sum(s.nets().values()) == 0


def test_five_and_six_hand_games_are_foster_s_only_and_need_four_at_the_table() -> None:
    players = (Player("Ann", "E", 0), Player("Bob", "S", 0), Player("Cy", "W", 0), Player("Di", "N", 10, winner=True), Player("Ed", None))
    with pytest.raises(SettlementError, match="only Foster"):
        settle(Table(players, book=Book.HARR, game=HandedGame.FIVE))
    with pytest.raises(SettlementError, match="needs 4 hands"):
        settle(Table(players[1:], book=Book.FOSTER, game=HandedGame.FIVE))


def test_five_players_east_retires_after_every_game_and_the_waiting_player_comes_in_as_north() -> None:
    seats, waiting = next_seating({"E": "Ann", "S": "Bob", "W": "Cy", "N": "Di"}, ["Ed"])
    assert (seats, waiting) == ({"E": "Bob", "S": "Cy", "W": "Di", "N": "Ed"}, ["Ann"])


def test_six_players_the_one_who_sat_out_longer_comes_in_first() -> None:
    """The one drew first, then the nine; thereafter whoever has sat out longer re-enters."""
    seats, waiting = next_seating({"E": "A", "S": "B", "W": "C", "N": "D"}, ["one", "nine"])
    assert seats["N"] == "one" and waiting == ["nine", "A"]
    seats, waiting = next_seating(seats, waiting)
    assert seats == {"E": "C", "S": "D", "W": "one", "N": "nine"} and waiting == ["A", "B"]
    seats, waiting = next_seating(seats, waiting)
    assert seats["N"] == "A" and waiting == ["B", "C"]


def test_foster_drawn_game_pays_nothing_and_a_false_woo_has_no_stated_payment() -> None:
    s = settle(table({"E": 0, "S": 0, "W": 0, "N": 0}, book=Book.FOSTER, limit=500, incident=Incident(IncidentKind.DRAWN_GAME)))
    assert s.payments == () and any("Law 94" in n for n in s.notes)
    with pytest.raises(SettlementError, match="states no payment"):
        settle(table({"E": 0, "S": 0, "W": 0, "N": 0}, book=Book.FOSTER, limit=500,
                     incident=Incident(IncidentKind.FALSE_MAH_JONG, player="S")))


# --- the British fragment: liability ---------------------------------------------------------------

LAYOUT_4 = {"E": 80, "S": 48, "W": 64, "N": 184}


@pytest.mark.parametrize("condition", ["dragons", "winds", "terminals"])
def test_british_discarder_pays_the_losses_of_the_other_two_and_the_losers_settle_nothing(condition: str) -> None:
    """West's discard completes North's special hand: he pays his own 184, East's 368 and South's 184."""
    s = settle(table(LAYOUT_4, winner="N", book=Book.BRITISH,
                     incident=Incident(IncidentKind.DANGEROUS_DISCARD, player="W", condition=condition)))
    assert paid(s) == {("W", "N"): 736}
    assert all(str(p.citation).startswith("British rule book") for p in s.payments)


def test_british_fragment_names_three_special_hands_and_no_exception() -> None:
    with pytest.raises(SettlementError, match="dragons, winds, terminals"):
        settle(table(LAYOUT_4, winner="N", book=Book.BRITISH,
                     incident=Incident(IncidentKind.DANGEROUS_DISCARD, player="W", condition="one-suit")))
    with pytest.raises(SettlementError, match="states no exception"):
        settle(table(LAYOUT_4, winner="N", book=Book.BRITISH,
                     incident=Incident(IncidentKind.DANGEROUS_DISCARD, player="W", condition="winds", exception="no-choice")))


def test_british_plain_game_settles_as_harr() -> None:
    assert paid(settle(table(LAYOUT_4, winner="N", book=Book.BRITISH))) == paid(settle(table(LAYOUT_4, winner="N")))
