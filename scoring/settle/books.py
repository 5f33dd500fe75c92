"""``settle(table)``: check the table, then apply its book's settling and any incident."""

from __future__ import annotations

from scoring.settle import british, chinese, foster, harr
from scoring.settle.core import SettlingRules, plain_settlement
from scoring.settle.dangerous import condition_problem
from scoring.settle.model import SEATS, Book, Game, IncidentKind, Payment, Player, Settlement, SettlementError, Table


def rules_for(table: Table) -> SettlingRules:
    if table.book is Book.FOSTER:
        return foster.rules_for(table.game)
    if table.book is Book.BRITISH:
        return british.RULES
    if table.book is Book.CHINESE:
        return chinese.RULES
    return harr.RULES


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
    if table.game in (Game.FIVE, Game.SIX) and table.book is not Book.FOSTER:
        raise SettlementError(f"only Foster (1924) describes the {table.game.value} game: use book foster-1924")
    wanted = table.game.seated
    if len(seats) != wanted:
        hint = "" if table.game is not Game.FOUR else " (for fewer players say game: three-hand or two-hand)"
        raise SettlementError(f"a {table.game.value} game needs {wanted} hands at the table, got {len(seats)}{hint}")
    if len(table.players) > table.game.people:
        raise SettlementError(f"a {table.game.value} game has {table.game.people} players, got {len(table.players)}")
    if "E" not in seats:
        raise SettlementError("no one sits East: the table needs an East (the banker)")
    if table.book is Book.FOSTER:
        foster.check_seats(table.game, [s for s in seats if s])
    winners = [p.name for p in table.players if p.winner]
    if len(winners) > 1:
        raise SettlementError(f"only one player can win a hand, got {len(winners)}: {', '.join(winners)}")
    for limit, what in ((table.limit, "limit"), (table.east_limit, "East limit")):
        if limit is not None and limit <= 0:
            raise SettlementError(f"the {what} must be a positive number of points, not {limit}")


def _no_winner(table: Table, what: str) -> None:
    if table.winner is not None:
        raise SettlementError(f"{what}: no one wins the hand, so {table.winner.name} cannot be the winner")


def _incident_player(table: Table, key: str | None, what: str) -> Player:
    if key is None:
        raise SettlementError(f"{what}: say which player (incident.player)")
    player = table.player(key)
    if player.seat is None:
        raise SettlementError(f"{what}: {player.name} sits out this game")
    return player


def _dangerous_discard(table: Table, rules: SettlingRules) -> tuple[list[Payment], list[str]]:
    incident = table.incident
    assert incident is not None
    winner = table.winner
    if winner is None:
        raise SettlementError("a dangerous discard lets someone win: mark the winner")
    discarder = _incident_player(table, incident.player, "a dangerous discard")
    if discarder is winner:
        raise SettlementError("the discarder cannot be the winner he discarded to")
    if table.book is Book.BRITISH:
        conditions, exceptions, citation = british.DANGEROUS_CONDITIONS, british.DISCARD_EXCEPTIONS, british.LIABILITY
    elif table.book is Book.HARR:
        conditions, exceptions, citation = harr.DANGEROUS_CONDITIONS, harr.DISCARD_EXCEPTIONS, harr.PENALTY_DISCARD
    else:
        raise SettlementError("Foster's Part II states no discard penalty: settle it under harr-1922 or british-1920s")
    harr.check_dangerous_discard(incident, conditions, exceptions, table.book.value)
    if winner.detail is not None:
        problem = condition_problem(winner.detail.hand, incident.condition or "", conditions[incident.condition or ""])
        if problem:
            raise SettlementError(f"a dangerous discard ({incident.condition}) is declared, but {problem}")
    if incident.exception is not None:
        note = (f"{discarder.name} let a dangerous hand win ({conditions[incident.condition or '']}) but is excused: "
                f"{exceptions[incident.exception]}; the game settles as usual [{citation}]")
        return plain_settlement(table, rules), [note]
    note = (f"{discarder.name}'s discard let {winner.name} win with {conditions[incident.condition or '']}: "
            f"he bears every loser's loss, and all other scores are cancelled [{citation}]")
    return harr.dangerous_discard(table, rules, winner, discarder, citation), [note]


def _incident_settlement(table: Table, rules: SettlingRules) -> tuple[list[Payment], list[str]]:
    incident = table.incident
    assert incident is not None
    kind = incident.kind
    if kind is IncidentKind.DRAWN_GAME:
        _no_winner(table, "a drawn game")
        cite = {Book.FOSTER: foster.EAST_POSITION, Book.CHINESE: chinese.DEAL}.get(table.book, harr.EAST_POSITION)
        return [], [f"drawn game: no one won, so nothing is paid, and East keeps his seat [{cite}]"]
    if table.book is Book.CHINESE:
        return _chinese_penalty(table)
    if kind is IncidentKind.DANGEROUS_DISCARD:
        return _dangerous_discard(table, rules)
    if kind is IncidentKind.FAULTY_CLAIM:
        raise SettlementError(f"{table.book.value} states no payment for a faulty claim: settle it under chinese-classical")
    if table.book is not Book.HARR:
        raise SettlementError(f"{table.book.value} states no payment for {kind.value}: settle it under harr-1922")
    if kind is IncidentKind.FALSE_MAH_JONG:
        _no_winner(table, "a false Mah-Jongg ends the hand")
        offender = _incident_player(table, incident.player, "a false Mah-Jongg")
        return harr.false_mah_jong(table, offender), [f"{offender.name} called Mah-Jongg falsely; the hand is not scored"]
    if kind is IncidentKind.WASHING:
        _no_winner(table, "washing the tiles ends the hand before play")
        washer = _incident_player(table, incident.player, "washing the tiles")
        if incident.heads is None:
            raise SettlementError("washing the tiles: say how many different heads the original hand held (incident.heads)")
        return harr.washing(table, washer, incident.heads), ["the tiles are washed: reshuffled, the wall rebuilt, East keeps the wind box"]
    raise SettlementError(f"unknown incident {kind!r}")


def _chinese_penalty(table: Table) -> tuple[list[Payment], list[str]]:
    """The guide's penalties: a faulty out (false-mah-jong) and faulty claims; nothing else."""
    incident = table.incident
    assert incident is not None
    if incident.kind is IncidentKind.FALSE_MAH_JONG:
        _no_winner(table, "a faulty out ends the deal")
        offender = _incident_player(table, incident.player, "a faulty out")
        return chinese.faulty_out(table, offender), [
            f"{offender.name} went out falsely: the deal ends and the hand is not scored"
            + (" (the deal passes, the offender being East)" if offender.is_east else "")]
    if incident.kind is IncidentKind.FAULTY_CLAIM:
        offender = _incident_player(table, incident.player, "a faulty claim")
        return chinese.faulty_claims(table, offender, 1 if incident.claims is None else incident.claims), []
    raise SettlementError(f"chinese-classical states no payment for {incident.kind.value} "
                          "(its insurance penalties are none): settle the hand without it")


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
        payments, notes = plain_settlement(table, rules), []
    else:
        payments, notes = _incident_settlement(table, rules)
    if table.game in (Game.TWO, Game.THREE):
        cite = foster.TWO_HAND if (table.book is Book.FOSTER and table.game is Game.TWO) else (
            foster.THREE_HAND if table.book is Book.FOSTER else harr.TWO_THREE)
        how = "East neither pays nor receives double" if not rules.east_doubles else "settled as the four-hand game"
        notes.append(f"{table.game.value} game: {how} [{cite}]")
    return Settlement(table, tuple(p for p in payments if p.amount > 0), tuple(notes))

