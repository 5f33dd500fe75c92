"""A settlement kept in the history is its JSON: ``Settlement.to_dict`` prints it, ``Settlement.from_dict`` reads it back.

The two are exact inverses on what is printed, so a deal read back from the history file shows the very payments,
nets and score lines that were settled at the table, and the page works with the typed ``Settlement`` throughout.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.settle import Book, HandedGame, Incident, IncidentKind, Player, Settlement, SettlementError, Table, load_table, settle

TABLES = sorted((Path(__file__).resolve().parent / "tables").glob("*.json"))


def settlements() -> list[Settlement]:
    """Every table file the tests settle (hands scored line by line, faulty claims, the book's layouts), a five-hand
    game with a player sitting out, a drawn game, and a limit with an East limit of its own."""
    out = [settle(load_table(path.read_text(encoding="utf-8"))) for path in TABLES]
    five = (Player("Ann", "E", 80), Player("Bob", "S", 48), Player("Cy", "W", 64), Player("Di", "N", 184, winner=True),
            Player("Ed", None))
    out.append(settle(Table(five, book=Book.FOSTER, game=HandedGame.FIVE)))
    four = tuple(Player(name, seat, 20) for name, seat in zip(("Ann", "Bo", "Cy", "Di"), "ESWN"))
    out.append(settle(Table(four, incident=Incident(IncidentKind.DRAWN_GAME))))
    four = (*four[:3], Player("Di", "N", 900, winner=True))
    out.append(settle(Table(four, limit=300, east_limit=500)))
    return out


def test_reading_back_what_was_printed_prints_it_again_exactly() -> None:
    assert len(TABLES) >= 10
    for settlement in settlements():
        printed = json.loads(json.dumps(settlement.to_dict()))  # as the history file keeps it
        read = Settlement.from_dict(printed)
        assert read.to_dict() == printed
        assert Settlement.from_dict(read.to_dict()) == read
        assert read.nets() == settlement.nets() and read.grid() == settlement.grid()
        assert [str(p) for p in read.payments] == [str(p) for p in settlement.payments]


def test_a_scored_hand_comes_back_as_its_score_lines() -> None:
    scored = next(s for s in settlements() if any(p.detail is not None for p in s.table.players))
    read = Settlement.from_dict(scored.to_dict())
    for before, after in zip(scored.table.players, read.table.players):
        assert after.detail is None and after.score_lines == before.score_lines
        assert (before.detail is None) == (before.score_lines is None)


@pytest.mark.parametrize("spoil", [
    lambda d: d.update(schema="pungchow/hand"),
    lambda d: d.update(version=2),
    lambda d: d["net"].update(East=d["net"]["East"] + 1),  # nets that the payments do not add up to
    lambda d: d["payments"][0].update(amount=str(d["payments"][0]["amount"])),
    lambda d: d["payments"][0].update(to="Nobody"),
    lambda d: d["players"][0].update(score=True),
    lambda d: d.pop("notes"),
    lambda d: d.update(extra=1),
])
def test_a_record_that_is_not_a_settlement_as_printed_is_refused(spoil: object) -> None:
    settlement = settle(load_table((Path(__file__).resolve().parent / "tables" / "harr-1922-layout-1.json").read_text()))
    data = json.loads(json.dumps(settlement.to_dict()))
    assert callable(spoil)
    spoil(data)
    with pytest.raises(SettlementError, match="not a settlement as pungchow writes it"):
        Settlement.from_dict(data)
