"""The evening's score sheet: each deal's net per player, the running totals, and the settle-up.

At the end of the evening nobody wants twelve payments: the settle-up is the fewest transfers
that bring every running total to 0. Players whose totals already cancel among themselves (a
group summing to 0) settle inside the group, so the fewest transfers is the number of players
owed or owing less the largest number of such groups; four players make this a small search.

>>> sheet = score_sheet(("Ann", "Bo", "Cy", "Di"), [(1, {"Ann": 48, "Bo": -16, "Cy": -16, "Di": -16}),
...                                                 (2, {"Ann": -8, "Bo": 24, "Cy": -8, "Di": -8})])
>>> dict(sheet.totals)
{'Ann': 40, 'Bo': 8, 'Cy': -24, 'Di': -24}
>>> [str(t) for t in settle_up(sheet.totals)]
['Cy pays Ann 24', 'Di pays Ann 16', 'Di pays Bo 8']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from scoring.errors import PungChowError

#: Above this many players the exact search for the fewest transfers would be slow; a table has four.
MAX_PLAYERS = 12


@dataclass(frozen=True)
class DealLine:
    """One row of the sheet: what each player won or lost in this deal, and where each stands after it."""

    deal: int
    net: Mapping[str, int]
    running: Mapping[str, int]


@dataclass(frozen=True)
class ScoreSheet:
    """The running score of one game, deal by deal, in the players' seat order."""

    players: tuple[str, ...]
    lines: tuple[DealLine, ...]

    @property
    def totals(self) -> Mapping[str, int]:
        """Where each player stands after the last deal (0 each before the first)."""
        return self.lines[-1].running if self.lines else {p: 0 for p in self.players}


@dataclass(frozen=True)
class Transfer:
    """One payment of the settle-up."""

    payer: str
    payee: str
    amount: int

    def __str__(self) -> str:
        return f"{self.payer} pays {self.payee} {self.amount}"


def score_sheet(players: Sequence[str], deals: Iterable[tuple[int, Mapping[str, int]]]) -> ScoreSheet:
    """The sheet from each settled deal's nets (in deal order); a name not at the table is a clear error.

    A deal's nets must cancel: what one player wins the others pay.
    """
    names = tuple(players)
    running = {p: 0 for p in names}
    lines: list[DealLine] = []
    for deal, net in sorted(deals, key=lambda d: d[0]):
        strangers = sorted(set(net) - set(names))
        if strangers:
            raise PungChowError(f"deal {deal} names {', '.join(strangers)}, who is not at this game's table "
                                f"({', '.join(names)}): settle it with the game's players")
        if sum(net.values()) != 0:
            raise PungChowError(f"deal {deal}'s payments do not cancel (they sum to {sum(net.values())}): it cannot go on the sheet")
        amounts = {p: int(net.get(p, 0)) for p in names}
        running = {p: running[p] + amounts[p] for p in names}
        lines.append(DealLine(deal, amounts, dict(running)))
    return ScoreSheet(names, tuple(lines))


def settle_up(totals: Mapping[str, int]) -> list[Transfer]:
    """The fewest transfers after which every player's total is 0, largest debts paid first within each group."""
    if sum(totals.values()) != 0:
        raise PungChowError(f"the totals sum to {sum(totals.values())}, not 0: they cannot be settled between the players")
    owed = [(name, amount) for name, amount in totals.items() if amount != 0]
    if len(owed) > MAX_PLAYERS:
        raise PungChowError(f"settling up is worked out for at most {MAX_PLAYERS} players, not {len(owed)}")
    transfers: list[Transfer] = []
    for group in _zero_sum_groups(tuple(amount for _, amount in owed)):
        transfers += _settle_group({owed[i][0]: owed[i][1] for i in group})
    return transfers


def _zero_sum_groups(amounts: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The players split into the most groups that each sum to 0 (indices into ``amounts``)."""
    n = len(amounts)
    full = (1 << n) - 1

    def total(mask: int) -> int:
        return sum(amounts[i] for i in range(n) if mask >> i & 1)

    @cache
    def best(mask: int) -> tuple[int, tuple[int, ...]]:
        """Most zero-sum groups ``mask`` splits into, and the first group of one such split (the mask sums to 0)."""
        if mask == 0:
            return 0, ()
        low = mask & -mask  # the lowest player is in the first group: each split is tried once
        found = (1, (mask,))
        sub = (mask - 1) & mask
        while sub:
            if sub & low and total(sub) == 0:
                rest = best(mask & ~sub)[0]
                if rest + 1 > found[0]:
                    found = (rest + 1, (sub,))
            sub = (sub - 1) & mask
        return found

    groups: list[tuple[int, ...]] = []
    mask = full
    while mask:
        first = best(mask)[1][0]
        groups.append(tuple(i for i in range(n) if first >> i & 1))
        mask &= ~first
    return groups


def _settle_group(group: Mapping[str, int]) -> list[Transfer]:
    """A group summing to 0 settled in one transfer fewer than its size: the biggest loser pays the biggest winner."""
    balance = dict(group)
    transfers: list[Transfer] = []
    while any(balance.values()):
        payer = min(balance, key=lambda p: (balance[p], p))
        payee = min(balance, key=lambda p: (-balance[p], p))
        amount = min(-balance[payer], balance[payee])
        transfers.append(Transfer(payer, payee, amount))
        balance[payer] += amount
        balance[payee] -= amount
    return transfers
