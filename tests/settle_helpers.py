"""Helpers the settlement tests share: a table from bare scores, and who paid whom in all."""

from __future__ import annotations

from scoring.settle import Player, Settlement, Table
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
