"""``settle(table)``: check the table, then apply its book's settling and any incident."""

from __future__ import annotations

from collections import Counter

from scoring.hand import Hand
from scoring.settle.core import SettlingRules, no_winner, plain_settlement, the_incident
from scoring.settle.model import SEATS, HandedGame, IncidentKind, Payment, Settlement, SettlementError, Table
from scoring.settle.registry import settling_book, settling_books
from scoring.tiles import COPIES_OF_A_TILE


def rules_for(table: Table) -> SettlingRules:
    return settling_book(table.book).rules_for(table.game)


def check_table(table: Table) -> None:
    """Every way the table cannot be settled, as one clear error."""
    for p in table.players:
        if p.seat is not None and p.seat not in SEATS:
            raise SettlementError(f"{p.name}: unknown seat {p.seat!r}; seats are E, S, W, N (or none for a player sitting out)")
        if p.score < 0:
            raise SettlementError(f"{p.name}: a score cannot be negative ({p.score})")
        if p.winner and p.seat is None:
            raise SettlementError(f"{p.name} sits out this game and cannot win it")
        if p.winner and p.dead:
            raise SettlementError(f"{p.name}'s hand is dead (wrong number of tiles) and cannot win")
    seats = [p.seat for p in table.seated]
    if len(set(seats)) != len(seats):
        raise SettlementError(f"two players in one seat: {', '.join(s for s in seats if s)}")
    names = [p.name for p in table.players]
    if len(set(names)) != len(names):
        raise SettlementError(f"two players share a name: {', '.join(names)}")
    book = settling_book(table.book)
    if table.game not in book.games:
        those = [b for b in settling_books().values() if table.game in b.games]
        raise SettlementError(f"only {' and '.join(b.title or b.name for b in those)} describes the {table.game.value} game: "
                              f"use book {' or '.join(b.name for b in those)}")
    wanted = table.game.seated
    if len(seats) != wanted:
        hint = "" if table.game is not HandedGame.FOUR else " (for fewer players say game: three-hand or two-hand)"
        raise SettlementError(f"a {table.game.value} game needs {wanted} hands at the table, got {len(seats)}{hint}")
    if len(table.players) > table.game.people:
        raise SettlementError(f"a {table.game.value} game has {table.game.people} players, got {len(table.players)}")
    if "E" not in seats:
        raise SettlementError("no one sits East: the table needs an East (the banker)")
    book.check_seats(table.game, [s for s in seats if s])
    winners = [p.name for p in table.players if p.winner]
    if len(winners) > 1:
        raise SettlementError(f"only one player can win a hand, got {len(winners)}: {', '.join(winners)}")
    for limit, what in ((table.limit, "limit"), (table.east_limit, "East limit")):
        if limit is not None and limit <= 0:
            raise SettlementError(f"the {what} must be a positive number of points, not {limit}")
    check_hands_agree([p.detail.hand for p in table.players if p.detail is not None])


def check_hands_agree(hands: list[Hand]) -> None:
    """The hands of one deal come from one set of tiles, in one round: four of a tile, one of a flower, one prevailing wind.

    Checked here, where the CLI's table file and the page's deal both come to be settled, so both refuse alike.
    """
    winds = sorted({str(h.prevailing_wind) for h in hands})
    if len(winds) > 1:
        raise SettlementError(f"the hands disagree on the prevailing wind ({', '.join(winds)}): one deal has one prevailing wind")
    counts = Counter(t for h in hands for t in h.tiles if not t.is_face_down)
    over = [f"{n} of {t}" for t, n in sorted(counts.items()) if n > COPIES_OF_A_TILE]
    over += [f"{n} of {t}" for t, n in sorted(Counter(t for h in hands for t in h.bonus).items()) if n > 1]
    if over:
        raise SettlementError(f"the hands together hold {', '.join(over)}, more than one set has (four of each tile, one of each "
                              "flower and season): check each hand's tiles")


def _incident_settlement(table: Table, rules: SettlingRules) -> tuple[list[Payment], list[str]]:
    """A drawn game pays nothing under every book; any other incident is settled as the book says, if it does."""
    incident = the_incident(table)
    book = settling_book(table.book)
    if incident.kind is IncidentKind.DRAWN_GAME:
        no_winner(table, "a drawn game")
        return [], [f"drawn game: no one won, so nothing is paid, and East keeps his seat [{book.drawn_game}]"]
    settle_incident = book.incidents.get(incident.kind)
    if settle_incident is None:
        raise SettlementError(book.refusal(incident.kind))
    return settle_incident(table, rules)


def settle(table: Table) -> Settlement:
    """Settle one game: every payment with its reason and citation, and the who-pays-whom table.

    >>> from scoring.settle.model import Player, Table
    >>> t = Table((Player("East", "E", 56), Player("South", "S", 10), Player("West", "W", 64),
    ...            Player("North", "N", 416, winner=True)))
    >>> s = settle(t)
    >>> s.paid("East", "North"), s.paid("South", "West"), s.paid("East", "West"), sum(s.nets().values())
    (832, 54, 16, 0)
    """
    check_table(table)
    rules = rules_for(table)
    if table.incident is None:
        payments, notes = plain_settlement(table, rules), list[str]()
    else:
        payments, notes = _incident_settlement(table, rules)
    if table.game in (HandedGame.TWO, HandedGame.THREE):
        cite = settling_book(table.book).small_game(table.game)
        how = "East neither pays nor receives double" if not rules.east_doubles else "settled as the four-hand game"
        notes.append(f"{table.game.value} game: {how} [{cite}]")
    return Settlement(table, tuple(p for p in payments if p.amount > 0), tuple(notes))

