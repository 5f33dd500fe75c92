"""Chinese Classical (modern guide): settling between all players, and its two penalties.

The guide's payment scheme is the classic one: the winner collects the value of his hand from
each other player, and the losers pay each other the differences of their scores; East pays and
receives double throughout. Its settings table adds two penalties: a faulty out ends the deal and
costs the offender half the limit (East paying or receiving double), and each faulty claim costs
100 points paid to the winner. The readings are in ``docs/rules-notes/settlement.md``.
"""

from __future__ import annotations

from scoring.engine import Citation
from scoring.rulesets.chinese_classical import BOOK, BOOK_LIMIT
from scoring.settle import harr
from scoring.settle.core import (
    SettlingBook,
    SettlingRules,
    incident_player,
    no_winner,
    plain_settlement,
    seat_order,
    the_incident,
)
from scoring.settle.model import IncidentKind, Payment, Player, SettlementError, Table

EAST_DOUBLE = Citation(BOOK, "Points", "East is paid double and pays double")
LOSERS = Citation(BOOK, "Payments between losers", "losers pay each other the differences of their scores")
PAYMENT = Citation(BOOK, "Settings", "Payment: between all players, Chinese Classical scheme")
LIMIT = Citation(BOOK, "Settings", "Limit points")
FAULTY_OUT = Citation(BOOK, "Settings", "Penalties: faulty out")
FAULTY_CLAIM = Citation(BOOK, "Settings", "Penalties: faulty claims")
DEAL = Citation(BOOK, "Settings", "Passing of the deal: when non-dealer wins")

RULES = SettlingRules(BOOK, east_doubles=True, winner_rule=PAYMENT, losers_rule=LOSERS,
                      east_rule=EAST_DOUBLE, limit_rule=LIMIT)

#: What one faulty claim costs, paid to the winner.
FAULTY_CLAIM_POINTS = 100


def faulty_out(table: Table, offender: Player) -> list[Payment]:
    """The offender pays each other player half the limit; East pays or receives double that."""
    if table.limit is None:
        raise SettlementError("a faulty out costs half the limit: give the table a limit (the guide's is 500)")
    if table.limit % 2:
        raise SettlementError(f"half the limit {table.limit} is not whole points: choose an even limit")
    half = table.limit // 2
    payments = []
    for other in seat_order(table.players):
        if other is offender:
            continue
        east = offender.is_east or other.is_east
        amount = 2 * half if east else half
        why = f"half the limit {half}" + ("; East pays and receives double" if east else "")
        payments.append(Payment(offender.name, other.name, amount,
                                f"{offender.name} went out on a hand that was not complete: {why}", FAULTY_OUT))
    return payments


def faulty_claims(table: Table, offender: Player, claims: int) -> list[Payment]:
    """The plain settlement, and 100 points for each faulty claim paid by the offender to the winner.

    The guide doubles East's payments for the hand and for a faulty out, and says nothing of East
    for faulty claims: they are paid as stated, never doubled.
    """
    winner = table.winner
    if winner is None:
        raise SettlementError("faulty claims are paid to the winner: mark the winner")
    if offender is winner:
        raise SettlementError(f"{offender.name} won the hand: a faulty claim is paid to the winner by another player")
    if claims < 1:
        raise SettlementError(f"a faulty-claim incident needs at least one claim, not {claims}")
    fine = Payment(offender.name, winner.name, FAULTY_CLAIM_POINTS * claims,
                   f"{claims} faulty claim{'s' if claims != 1 else ''} at {FAULTY_CLAIM_POINTS} each, paid to the winner",
                   FAULTY_CLAIM)
    return plain_settlement(table, RULES) + [fine]


def _faulty_out(table: Table, rules: SettlingRules) -> tuple[list[Payment], list[str]]:
    no_winner(table, "a faulty out ends the deal")
    offender = incident_player(table, the_incident(table).player, "a faulty out")
    return faulty_out(table, offender), [
        f"{offender.name} went out falsely: the deal ends and the hand is not scored"
        + (" (the deal passes, the offender being East)" if offender.is_east else "")]


def _faulty_claims(table: Table, rules: SettlingRules) -> tuple[list[Payment], list[str]]:
    incident = the_incident(table)
    offender = incident_player(table, incident.player, "a faulty claim")
    return faulty_claims(table, offender, 1 if incident.claims is None else incident.claims), []


NAME = "chinese-classical"
NO_PENALTY = "chinese-classical states no payment for {} (its insurance penalties are none): settle the hand without it"

SETTLING_BOOK = SettlingBook(
    name=NAME,
    title="Chinese Classical",
    rules_for=lambda game: RULES,
    drawn_game=DEAL,
    small_game=lambda game: harr.TWO_THREE,
    incidents={IncidentKind.FALSE_MAH_JONG: _faulty_out, IncidentKind.FAULTY_CLAIM: _faulty_claims},
    refusals={kind: NO_PENALTY.format(kind.value) for kind in (IncidentKind.DANGEROUS_DISCARD, IncidentKind.WASHING)},
    scores_with=lambda data: NAME,
    limit=BOOK_LIMIT,
)
