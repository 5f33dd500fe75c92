"""Helpers the settlement tests share: a table from bare scores, and who paid whom in all."""

from __future__ import annotations

from scoring.engine import Citation
from scoring.settle import SEATS, Payment, Player, Settlement, Table
from scoring.settle.model import SEAT_NAMES


def table(scores: dict[str, int], winner: str | None = None, **kw: object) -> Table:
    """A table of players named after their seats, each with a score given as a number."""
    players = tuple(Player(SEAT_NAMES[s], s, v, winner=s == winner) for s, v in scores.items())
    return Table(players, **kw)  # type: ignore[arg-type]


def paid(s: Settlement) -> dict[tuple[str, str], int]:
    """Total paid from one seat to another, keyed by the first letters of (payer, payee)."""
    out: dict[tuple[str, str], int] = {}
    for p in s.payments:
        out[(p.payer[0], p.payee[0])] = out.get((p.payer[0], p.payee[0]), 0) + p.amount
    return out


def from_nets(net: dict[str, int], source: str = "") -> Settlement:
    """A settlement whose nets are ``net``, as the history keeps any deal settled at the table: each loser pays the
    winners in turn (by no book's rules: the history keeps what was settled, whatever the book)."""
    assert sum(net.values()) == 0, "a deal's nets sum to nothing"
    owed = {p: -v for p, v in net.items() if v < 0}
    due = {p: v for p, v in net.items() if v > 0}
    payments = []
    for payer in owed:
        for payee in due:
            amount = min(owed[payer], due[payee])
            if amount:
                payments.append(Payment(payer, payee, amount, "as settled at the table", Citation("the players", "", "")))
                owed[payer] -= amount
                due[payee] -= amount
    players = tuple(Player(name, SEATS[i] if i < len(SEATS) else None) for i, name in enumerate(net))
    return Settlement(Table(players, source=source), tuple(payments))
