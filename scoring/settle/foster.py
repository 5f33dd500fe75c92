"""Foster, "The New American Code of Rules for Mah Jong", Part II (1924), where it differs from Harr.

The code we hold is Part II only (Laws 89-100 and the games for 2, 3, 5 and 6). It sets the
limit at 500, 1000 for East (Law 93); in the two-hand game the loser pays the winner his full
score and East neither pays nor receives double; three play as East, South and North; five and
six take turns, East retiring after every game. Where it says nothing (how four settle, the
penalties) Harr's settling applies, and the citation says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scoring.engine import Citation
from scoring.rulesets.foster_1924 import BOOK_LIMIT
from scoring.settle.core import SettlingBook, SettlingRules
from scoring.settle.harr import EAST_DOUBLE, NO_FAULTY_CLAIM
from scoring.settle.harr import SETTLING as HARR_SETTLING_RULE
from scoring.settle.model import SEATS, HandedGame, IncidentKind, SettlementError

BOOK = "Foster, New American Code of Mah Jong (1924)"

LIMIT = Citation(BOOK, "Part II", "Law 93: The Limit")
EAST_POSITION = Citation(BOOK, "Part II", "Law 94: The East Position")
TWO_HAND = Citation(BOOK, "Part II", "Two Hand Game")
THREE_HAND = Citation(BOOK, "Part II", "Three Hand Game")
FIVE_HAND = Citation(BOOK, "Part II", "Game with Five Players")
SIX_HAND = Citation(BOOK, "Part II", "Game with Six Players")


def rules_for(game: HandedGame) -> SettlingRules:
    """Harr's settling with Foster's limit; no East double in the two-hand game."""
    if game is HandedGame.TWO:
        return SettlingRules(BOOK, east_doubles=False, winner_rule=TWO_HAND, losers_rule=TWO_HAND,
                             east_rule=TWO_HAND, limit_rule=LIMIT)
    return SettlingRules(BOOK, east_doubles=True, winner_rule=HARR_SETTLING_RULE, losers_rule=HARR_SETTLING_RULE,
                         east_rule=EAST_DOUBLE, limit_rule=LIMIT)


def check_seats(game: HandedGame, seats: Sequence[str]) -> None:
    """Two sit as East and West; three play with one wind empty, and East is always there."""
    if game is HandedGame.TWO and sorted(seats) != ["E", "W"]:
        raise SettlementError(f"Foster's two-hand game seats East and West, not {', '.join(seats)}")


def next_seating(seated: Mapping[str, str], waiting: Sequence[str]) -> tuple[dict[str, str], list[str]]:
    """Seats for the next game of five or six: East retires, the longest waiting comes in as North.

    ``seated`` maps seat letter to name, ``waiting`` lists those sitting out, longest first.
    South becomes East, West South, North West; East joins the end of the queue. Foster has
    East retire "whether won or drawn", so the result of the game does not matter.

    >>> next_seating({"E": "Ann", "S": "Bob", "W": "Cy", "N": "Di"}, ["Ed"])
    ({'E': 'Bob', 'S': 'Cy', 'W': 'Di', 'N': 'Ed'}, ['Ann'])
    """
    if sorted(seated) != sorted(SEATS):
        raise SettlementError("five or six play four at a time: give all four seats")
    if not 1 <= len(waiting) <= 2:
        raise SettlementError("five or six players: one or two sit out")
    nxt = {"E": seated["S"], "S": seated["W"], "W": seated["N"], "N": waiting[0]}
    return nxt, [*waiting[1:], seated["E"]]


NAME = "foster-1924"

SETTLING_BOOK = SettlingBook(
    name=NAME,
    title="Foster (1924)",
    rules_for=rules_for,
    drawn_game=EAST_POSITION,
    small_game=lambda game: TWO_HAND if game is HandedGame.TWO else THREE_HAND,
    games=frozenset(HandedGame),
    check_seats=check_seats,
    refusals={
        IncidentKind.DANGEROUS_DISCARD: "Foster's Part II states no discard penalty: settle it under harr-1922 or british-1920s",
        IncidentKind.FAULTY_CLAIM: NO_FAULTY_CLAIM.format(NAME),
    },
    limit=BOOK_LIMIT,
)
