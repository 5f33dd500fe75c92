"""The settling every book shares: the winner collects from each, then the losers settle up.

A book differs only in data (whether East doubles, where each rule is written), so each rule
family is a ``SettlingRules`` value; its incidents are in its own module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from scoring.engine import Citation
from scoring.settle.model import SEATS, HandedGame, Incident, IncidentKind, Payment, Player, SettlementError, Table


@dataclass(frozen=True)
class SettlingRules:
    """One book's settling, as data.

    ``east_doubles`` says whether East pays and receives double in this game; ``winner_rule``,
    ``losers_rule``, ``east_rule`` and ``limit_rule`` cite where the book says so.
    """

    book: str
    east_doubles: bool
    winner_rule: Citation
    losers_rule: Citation
    east_rule: Citation
    limit_rule: Citation


def seat_order(players: tuple[Player, ...]) -> list[Player]:
    """Seated players East first, then South, West, North (the order the book names payers)."""
    return sorted((p for p in players if p.seat is not None), key=lambda p: SEATS.index(p.seat or "E"))


@dataclass(frozen=True)
class Amount:
    """A payment's amount and how it was reached, so its reason and citation can say so."""

    value: int
    east_double: bool = False
    capped_at: int | None = None

    def how(self) -> str:
        parts = ["East pays and receives double"] if self.east_double else []
        if self.capped_at is not None:
            parts.append(f"capped at {'the East limit' if self.east_double else 'the limit'} {self.capped_at}")
        return "; ".join(parts)


def capped(points: int, a: Player, b: Player, table: Table, rules: SettlingRules) -> Amount:
    """What one player pays another for ``points``: doubled where East is one of the two, capped.

    The cap is the limit, or the East limit (double the limit unless set) where East pays or
    receives, so a payment never exceeds what the limit allows however large the hand.
    """
    east = rules.east_doubles and (a.is_east or b.is_east)
    amount = points * 2 if east else points
    cap = table.east_cap if east else table.limit
    if cap is not None and amount > cap:
        return Amount(cap, east, cap)
    return Amount(amount, east)


def _citation(rules: SettlingRules, base: Citation, amount: Amount, held_to_limit: bool) -> Citation:
    """The rule the payment rests on, with East's double and the limit where they applied."""
    cites = [base]
    if amount.east_double:
        cites.append(rules.east_rule)
    if amount.capped_at is not None or held_to_limit:
        cites.append(rules.limit_rule)
    return _cite(*cites)


def limited(player: Player, table: Table) -> int:
    """The score that settles: nothing for a dead hand, and no more than the limit.

    The limit bounds what a hand can score (Harr, Part II, p. 60), so a score given above it
    counts as the limit; differences between limited scores then stay within the limit too.
    """
    score = player.counted_score
    return score if table.limit is None else min(score, table.limit)


def _cite(*citations: Citation) -> Citation:
    """One citation for a payment that rests on several sections of the same book."""
    first = citations[0]
    sections = []
    for c in citations:
        part_section = c.section if c.part == first.part else f"{c.part}, {c.section}"
        if part_section not in sections:
            sections.append(part_section)
    return Citation(first.book, first.part, "; ".join(sections))


def winner_collects(table: Table, rules: SettlingRules, winner: Player) -> list[Payment]:
    """The winner collects his full score from each other seated player (East double)."""
    payments = []
    for loser in seat_order(table.players):
        if loser is winner:
            continue
        score = limited(winner, table)
        amount = capped(score, winner, loser, table, rules)
        over = f" (the limit {table.limit})" if score < winner.score else ""
        reason = "; ".join(x for x in (f"{winner.name} won with {winner.score}{over}", amount.how()) if x)
        cite = _citation(rules, rules.winner_rule, amount, bool(over))
        payments.append(Payment(loser.name, winner.name, amount.value, reason, cite))
    return payments


def losers_settle(table: Table, rules: SettlingRules, winner: Player | None) -> list[Payment]:
    """The other players settle their differences, the highest hand first.

    The highest collects the difference from each of the rest, then the next highest from those
    below him, and so on. A dead hand counts nothing. Equal hands owe each other nothing.
    """
    losers = [p for p in seat_order(table.players) if p is not winner]
    losers.sort(key=lambda p: -limited(p, table))
    payments = []
    for i, high in enumerate(losers):
        for low in losers[i + 1:]:
            a, b = limited(high, table), limited(low, table)
            difference = a - b
            if difference <= 0:
                continue
            amount = capped(difference, high, low, table, rules)
            dead = f" ({low.name}'s hand is dead and counts nothing)" if low.dead else ""
            over = f" (scores held to the limit {table.limit})" if (a, b) != (high.counted_score, low.counted_score) else ""
            reason = "; ".join(x for x in (f"difference {a} - {b} = {difference}{dead}{over}", amount.how()) if x)
            cite = _citation(rules, rules.losers_rule, amount, bool(over))
            payments.append(Payment(low.name, high.name, amount.value, reason, cite))
    return payments


def plain_settlement(table: Table, rules: SettlingRules) -> list[Payment]:
    """A game won with no incident: the winner collects, then the losers settle."""
    winner = table.winner
    if winner is None:
        raise SettlementError("no winner: mark one player as the winner, "
                              "or give the incident (drawn-game, washing-the-tiles, false-mah-jong)")
    return winner_collects(table, rules, winner) + losers_settle(table, rules, winner)



#: Settles one incident: the payments and the notes that explain them.
IncidentRule = Callable[[Table, SettlingRules], tuple[list[Payment], list[str]]]

FOUR_OR_FEWER = frozenset({HandedGame.TWO, HandedGame.THREE, HandedGame.FOUR})


@dataclass(frozen=True)
class Liability:
    """A book's rule that the discarder of a dangerous tile bears every loser's loss: the exposed
    combinations that make a discard dangerous, what excuses the discarder, and where it is written."""

    conditions: Mapping[str, str]
    exceptions: Mapping[str, str]
    citation: Citation


def _any_seats(game: HandedGame, seats: Sequence[str]) -> None:
    """Most books seat a short game in any winds."""


@dataclass(frozen=True)
class SettlingBook:
    """One book's settling, as data and small functions, found by name in ``scoring.settle.registry``.

    ``rules_for`` gives the settling rules of a game; ``drawn_game`` cites why a drawn game pays
    nothing; ``small_game`` cites how two or three play; ``incidents`` settles what the book prices
    and ``refusals`` says what to do about the rest; ``scores_with`` names the rule set that scores
    hands under this book when the table names none, and ``limit`` the book's limit.
    """

    name: str
    rules_for: Callable[[HandedGame], SettlingRules]
    drawn_game: Citation
    small_game: Callable[[HandedGame], Citation]
    title: str = ""
    games: frozenset[HandedGame] = FOUR_OR_FEWER
    check_seats: Callable[[HandedGame, Sequence[str]], None] = _any_seats
    liability: Liability | None = None
    incidents: Mapping[IncidentKind, IncidentRule] = field(default_factory=dict)
    refusals: Mapping[IncidentKind, str] = field(default_factory=dict)
    scores_with: Callable[[Mapping[str, object]], str] | None = None
    limit: int | None = None

    def refusal(self, kind: IncidentKind) -> str:
        return self.refusals.get(kind) or f"{self.name} states no payment for {kind.value}: settle it under harr-1922"


def no_winner(table: Table, what: str) -> None:
    if table.winner is not None:
        raise SettlementError(f"{what}: no one wins the hand, so {table.winner.name} cannot be the winner")


def incident_player(table: Table, key: str | None, what: str) -> Player:
    if key is None:
        raise SettlementError(f"{what}: say which player (incident.player)")
    player = table.player(key)
    if player.seat is None:
        raise SettlementError(f"{what}: {player.name} sits out this game")
    return player


def the_incident(table: Table) -> Incident:
    if table.incident is None:
        raise SettlementError("no incident to settle")
    return table.incident
