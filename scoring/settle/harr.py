"""Harr, *Pung Chow* (1922): settling (Part I), the limit, penalties, washing the tiles (Part II).

Part I: the winner collects his score from each other player, then the three losers settle
their differences, the highest hand first; East pays and receives double throughout. Part II
caps every payment at the limit (double the limit where East pays or receives) and adds the
penalties, washing the tiles and the drawn game. Two and three play "in exactly the same way".
"""

from __future__ import annotations

from collections.abc import Mapping

from scoring.engine import Citation
from scoring.rulesets.harr_1922 import BOOK, LIMIT, WASHING, part_one, part_two, washing_the_tiles
from scoring.settle.core import (
    IncidentRule,
    Liability,
    SettlingBook,
    SettlingRules,
    incident_player,
    no_winner,
    plain_settlement,
    seat_order,
    the_incident,
    winner_collects,
)
from scoring.settle.dangerous import condition_problem
from scoring.settle.model import Incident, IncidentKind, Payment, Player, SettlementError, Table

SETTLING = part_one("Settling the Scores (p. 25)")
EAST_DOUBLE = SETTLING
EAST_POSITION = part_one("A. East Wind (p. 13)")
DRAW = part_two("Procedure of Play (p. 57): the last 14 tiles are never drawn")
PENALTY_FALSE = part_two("Penalties (p. 67), 1: false Mah-Jongg")
PENALTY_DISCARD = part_two("Penalties (p. 67), 2: the discard that lets a dangerous hand win")
TWO_THREE = part_two("Two and Three-Handed Games (p. 76)")

RULES = SettlingRules(BOOK, east_doubles=True, winner_rule=SETTLING, losers_rule=SETTLING,
                      east_rule=EAST_DOUBLE, limit_rule=LIMIT)

#: The four exposed combinations that make a discard dangerous (Penalties, 2).
DANGEROUS_CONDITIONS: dict[str, str] = {
    "one-suit": "nine or more tiles of one suit exposed, and the discard wins a hand all of that suit",
    "heads": "nine or more heads exposed, and the discard wins a hand all of heads",
    "dragons": "two sets of dragons exposed, and the discard of the third dragon makes the third set",
    "winds": "three sets of winds exposed, and the discard of the fourth wind wins",
}

#: What excuses the discarder (Penalties, 2, the italic exceptions; Note a).
DISCARD_EXCEPTIONS: dict[str, str] = {
    "two-doubles-waiting": "the discarder held two complete doubling honors and was waiting for the winning tile himself",
    "more-than-two-doubles": "the discarder was waiting for the winning tile, which would have given him more than two doubling honors",
    "no-choice": "the discarder had no choice: he held nothing else to discard (Note a)",
}


def false_mah_jong(table: Table, offender: Player) -> list[Payment]:
    """The false caller pays each other player half the limit; East receives or pays the full limit."""
    if table.limit is None:
        raise SettlementError("a false Mah-Jongg costs half the limit: give the table a limit (Harr, Part II)")
    if table.limit % 2:
        raise SettlementError(f"half the limit {table.limit} is not whole points: choose an even limit")
    payments = []
    for other in seat_order(table.players):
        if other is offender:
            continue
        if offender.is_east or other.is_east:
            amount, why = table.limit, "East receives or pays the full limit"
        else:
            amount, why = table.limit // 2, "half the limit"
        payments.append(Payment(offender.name, other.name, amount,
                                f"{offender.name} called Mah-Jongg on an incomplete hand: {why}", PENALTY_FALSE))
    return payments


def dangerous_discard(table: Table, rules: SettlingRules, winner: Player, discarder: Player, citation: Citation) -> list[Payment]:
    """The discarder pays the winner his own loss and every other loser's; nothing else is settled."""
    payments = []
    for owed in winner_collects(table, rules, winner):
        if owed.payer == discarder.name:
            reason = f"his own loss ({owed.reason})"
        else:
            reason = f"{owed.payer}'s loss, which the discarder bears ({owed.reason})"
        payments.append(Payment(discarder.name, winner.name, owed.amount, reason, citation))
    return payments


def check_dangerous_discard(incident: Incident, conditions: Mapping[str, str], exceptions: Mapping[str, str], book: str) -> None:
    if incident.condition not in conditions:
        raise SettlementError(
            f"a dangerous discard under {book} needs condition: one of {', '.join(conditions)}, not {incident.condition!r}")
    if incident.exception is not None and incident.exception not in exceptions:
        known = ", ".join(exceptions) or "none (the book states no exception)"
        raise SettlementError(f"unknown exception {incident.exception!r} for {book}; known: {known}")


def washing(table: Table, washer: Player, heads: int) -> list[Payment]:
    """Nine or more different heads in the original hand: each other player pays by the table, East single."""
    points = washing_the_tiles(heads)
    if points == 0:
        raise SettlementError(f"{washer.name} holds {heads} different heads: washing the tiles needs nine or more")
    return [Payment(other.name, washer.name, points,
                    f"{washer.name} washed the tiles with {heads} different heads (East neither pays nor collects double)",
                    WASHING)
            for other in seat_order(table.players) if other is not washer]


def liable_discard(book: str, liability: Liability) -> IncidentRule:
    """The dangerous-discard incident under ``book``: checked against the winner's hand when the
    table gives it; the discarder bears every loss unless the book excuses him."""

    def settle(table: Table, rules: SettlingRules) -> tuple[list[Payment], list[str]]:
        incident = the_incident(table)
        winner = table.winner
        if winner is None:
            raise SettlementError("a dangerous discard lets someone win: mark the winner")
        discarder = incident_player(table, incident.player, "a dangerous discard")
        if discarder is winner:
            raise SettlementError("the discarder cannot be the winner he discarded to")
        conditions, exceptions, citation = liability.conditions, liability.exceptions, liability.citation
        check_dangerous_discard(incident, conditions, exceptions, book)
        condition = conditions[incident.condition or ""]
        if winner.detail is not None:
            problem = condition_problem(winner.detail.hand, incident.condition or "", condition)
            if problem:
                raise SettlementError(f"a dangerous discard ({incident.condition}) is declared, but {problem}")
        if incident.exception is not None:
            note = (f"{discarder.name} let a dangerous hand win ({condition}) but is excused: "
                    f"{exceptions[incident.exception]}; the game settles as usual [{citation}]")
            return plain_settlement(table, rules), [note]
        note = (f"{discarder.name}'s discard let {winner.name} win with {condition}: "
                f"he bears every loser's loss, and all other scores are cancelled [{citation}]")
        return dangerous_discard(table, rules, winner, discarder, citation), [note]

    return settle


def _false_mah_jong(table: Table, rules: SettlingRules) -> tuple[list[Payment], list[str]]:
    no_winner(table, "a false Mah-Jongg ends the hand")
    offender = incident_player(table, the_incident(table).player, "a false Mah-Jongg")
    return false_mah_jong(table, offender), [f"{offender.name} called Mah-Jongg falsely; the hand is not scored"]


def _washing(table: Table, rules: SettlingRules) -> tuple[list[Payment], list[str]]:
    no_winner(table, "washing the tiles ends the hand before play")
    incident = the_incident(table)
    washer = incident_player(table, incident.player, "washing the tiles")
    if incident.heads is None:
        raise SettlementError("washing the tiles: say how many different heads the original hand held (incident.heads)")
    return washing(table, washer, incident.heads), ["the tiles are washed: reshuffled, the wall rebuilt, East keeps the wind box"]


NAME = "harr-1922"
LIABILITY = Liability(DANGEROUS_CONDITIONS, DISCARD_EXCEPTIONS, PENALTY_DISCARD)
NO_FAULTY_CLAIM = "{} states no payment for a faulty claim: settle it under chinese-classical"

SETTLING_BOOK = SettlingBook(
    name=NAME,
    title="Harr (1922)",
    rules_for=lambda game: RULES,
    drawn_game=EAST_POSITION,
    small_game=lambda game: TWO_THREE,
    liability=LIABILITY,
    incidents={
        IncidentKind.DANGEROUS_DISCARD: liable_discard(NAME, LIABILITY),
        IncidentKind.FALSE_MAH_JONG: _false_mah_jong,
        IncidentKind.WASHING: _washing,
    },
    refusals={IncidentKind.FAULTY_CLAIM: NO_FAULTY_CLAIM.format(NAME)},
    scores_with=lambda data: "harr-1922-limit" if data.get("limit") is not None else "harr-1922",
)
