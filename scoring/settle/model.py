"""The table as data: who sits where, what each scored, what happened; and the payments that follow.

Settlement works from per-player scores, never from tiles, so the same code settles a table of
scored hands and the book's layouts, which print only each player's total.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from scoring.engine import Citation, ScoreResult
from scoring.errors import PungChowError
from scoring.printed import text_or_none, whole, whole_or_none, yes
from scoring.tiles import WINDS

#: The four seats in the order of play; East is the banker who pays and receives double.
SEATS: tuple[str, ...] = WINDS
SEAT_NAMES: dict[str, str] = {"E": "East", "S": "South", "W": "West", "N": "North"}
#: What a settlement's JSON (``Settlement.to_dict``) says it is.
SETTLEMENT_SCHEMA = "pungchow/settlement"
SETTLEMENT_VERSION = 1


class SettlementError(PungChowError, ValueError):
    """A table that cannot be settled as given (wrong number of hands, two winners, unknown seat)."""


class Book(str, Enum):
    """The names of the books whose settling this package holds; a table names its book by name
    (``Table.book`` is that name), and ``scoring.settle.registry`` finds the book's settling."""

    HARR = "harr-1922"
    FOSTER = "foster-1924"
    BRITISH = "british-1920s"
    CHINESE = "chinese-classical"


class HandedGame(str, Enum):
    """How many play: the books settle a two-, three- or four-hand game; five and six take turns."""

    TWO = "two-hand"
    THREE = "three-hand"
    FOUR = "four-hand"
    FIVE = "five-hand"
    SIX = "six-hand"

    @property
    def seated(self) -> int:
        """How many players hold a hand in one game (five and six play four at a time)."""
        return {HandedGame.TWO: 2, HandedGame.THREE: 3}.get(self, 4)

    @property
    def people(self) -> int:
        return {HandedGame.TWO: 2, HandedGame.THREE: 3, HandedGame.FOUR: 4, HandedGame.FIVE: 5, HandedGame.SIX: 6}[self]


class IncidentKind(str, Enum):
    """What can happen instead of (or on top of) a plain win."""

    FALSE_MAH_JONG = "false-mah-jong"
    DANGEROUS_DISCARD = "dangerous-discard"
    WASHING = "washing-the-tiles"
    DRAWN_GAME = "drawn-game"
    FAULTY_CLAIM = "faulty-claim"


@dataclass(frozen=True)
class Player:
    """One person at the table and the score his hand made this game.

    ``seat`` is None for a player sitting out (five- and six-hand games). A ``dead`` hand (wrong
    number of tiles) still plays but its score does not count, so it pays everyone (Harr, Part I).
    ``detail`` is the scoring of the player's hand when the table gave a hand rather than a number;
    ``score_lines`` are its lines as the settlement prints them, all that a settlement read back from its
    record (:meth:`Settlement.from_dict`) keeps of the hand.
    """

    name: str
    seat: str | None
    score: int = 0
    winner: bool = False
    dead: bool = False
    detail: ScoreResult | None = None
    score_lines: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.detail is not None and self.score_lines is None:
            object.__setattr__(self, "score_lines", tuple(str(line).strip() for line in self.detail.lines))

    @property
    def is_east(self) -> bool:
        return self.seat == "E"

    @property
    def counted_score(self) -> int:
        return 0 if self.dead else self.score


@dataclass(frozen=True)
class Incident:
    """A penalty, a washing of the tiles or a drawn game, with the facts the rule turns on.

    ``player`` is the offender, the discarder or the player washing the tiles. For a dangerous
    discard ``condition`` names which exposed combination made it dangerous and ``exception``
    any circumstance that excuses the discarder. ``claims`` counts faulty claims (Chinese Classical).
    """

    kind: IncidentKind
    player: str | None = None
    heads: int | None = None
    condition: str | None = None
    exception: str | None = None
    claims: int | None = None

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "kind", IncidentKind(self.kind))
        except ValueError:
            raise SettlementError(f"unknown incident {self.kind!r}; known: {', '.join(k.value for k in IncidentKind)}") from None


@dataclass(frozen=True)
class Table:
    """Everything settlement needs: players in seat order, the book, the game, the limit."""

    players: tuple[Player, ...]
    book: str = Book.HARR.value
    game: HandedGame = HandedGame.FOUR
    limit: int | None = None
    east_limit: int | None = None
    incident: Incident | None = None
    rules: str | None = None
    source: str = ""

    def __post_init__(self) -> None:
        """Accept the book and game by name too (``"foster-1924"``), as the page passes them; ``settle`` checks that
        a settling book of that name is known (``check_table``), so this data module needs no registry."""
        object.__setattr__(self, "book", self.book.value if isinstance(self.book, Book) else str(self.book))
        try:
            object.__setattr__(self, "game", HandedGame(self.game))
        except ValueError as exc:
            raise SettlementError(f"{exc}: games are {', '.join(g.value for g in HandedGame)}") from None
        object.__setattr__(self, "players", tuple(self.players))

    @property
    def seated(self) -> tuple[Player, ...]:
        return tuple(p for p in self.players if p.seat is not None)

    @property
    def winner(self) -> Player | None:
        return next((p for p in self.players if p.winner), None)

    def player(self, key: str) -> Player:
        """A player by name, else by seat letter (E, S, W, N): a player named "E" sitting South is found by his name."""
        for p in self.players:
            if p.name == key:
                return p
        for p in self.players:
            if p.seat is not None and p.seat == key.strip().upper():
                return p
        raise SettlementError(f"no player {key!r} at this table; players: {', '.join(p.name for p in self.players)}")

    @property
    def east_cap(self) -> int | None:
        """The most East pays or receives in one payment: the East limit, else double the limit."""
        if self.east_limit is not None:
            return self.east_limit
        return None if self.limit is None else 2 * self.limit


@dataclass(frozen=True)
class Payment:
    """One payment, with why it is due and where the rule is written."""

    payer: str
    payee: str
    amount: int
    reason: str
    citation: Citation

    def __str__(self) -> str:
        return f"{self.payer} pays {self.payee} {self.amount}: {self.reason} [{self.citation}]"

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount,
                "why": self.reason, "citation": str(self.citation)}


@dataclass(frozen=True)
class Settlement:
    """Every payment of one game, and the who-pays-whom table they add up to.

    ``grid()[i][j]`` is what player i pays player j in all; each player's net is what he
    receives less what he pays, so the nets always sum to zero.
    """

    table: Table
    payments: tuple[Payment, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.table.players)

    def grid(self) -> list[list[int]]:
        index = {name: i for i, name in enumerate(self.names)}
        cells = [[0] * len(index) for _ in index]
        for pay in self.payments:
            cells[index[pay.payer]][index[pay.payee]] += pay.amount
        return cells

    def nets(self) -> dict[str, int]:
        net = {name: 0 for name in self.names}
        for pay in self.payments:
            net[pay.payer] -= pay.amount
            net[pay.payee] += pay.amount
        return net

    def paid(self, payer: str, payee: str) -> int:
        """Total ``payer`` pays ``payee`` (names or seat letters)."""
        a, b = self.table.player(payer).name, self.table.player(payee).name
        return sum(p.amount for p in self.payments if p.payer == a and p.payee == b)

    def net(self, key: str) -> int:
        return self.nets()[self.table.player(key).name]

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SETTLEMENT_SCHEMA,
            "version": SETTLEMENT_VERSION,
            "book": self.table.book,
            "game": self.table.game.value,
            "limit": self.table.limit,
            "east_limit": self.table.east_cap,
            "rules": self.table.rules,
            "players": [_player_dict(p) for p in self.table.players],
            "payments": [p.to_dict() for p in self.payments],
            "table": {"players": list(self.names), "pays": self.grid()},
            "net": self.nets(),
            "notes": list(self.notes),
            "source": self.table.source,
        }


    @classmethod
    def from_dict(cls, data: Any) -> Settlement:
        """The settlement :meth:`to_dict` printed, read back: ``from_dict(d).to_dict() == d`` for every ``d`` it prints.

        A record keeps what was shown, so a scored hand comes back as its printed score lines, a citation as its
        printed text, and the East limit as the cap that was applied; the who-pays-whom grid and the nets are worked
        out again from the payments, and a record whose own disagree is refused, as is anything else.
        """
        try:
            return _settlement(data)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise SettlementError(f"not a settlement as pungchow writes it ({type(exc).__name__}: {exc})") from None


def _settlement(data: Mapping[str, Any]) -> Settlement:
    if (data["schema"], data["version"]) != (SETTLEMENT_SCHEMA, SETTLEMENT_VERSION):
        raise ValueError(f"schema {data['schema']!r} version {data['version']!r}")
    players = tuple(Player(str(p["name"]), text_or_none(p["seat"]), whole(p["score"]), yes(p["winner"]), yes(p["dead"]),
                           score_lines=None if "score_lines" not in p else tuple(str(line) for line in p["score_lines"]))
                    for p in data["players"])
    table = Table(players, book=str(data["book"]), game=HandedGame(data["game"]), limit=whole_or_none(data["limit"]),
                  east_limit=whole_or_none(data["east_limit"]), rules=text_or_none(data["rules"]), source=str(data["source"]))
    payments = tuple(Payment(str(p["from"]), str(p["to"]), whole(p["amount"]), str(p["why"]), Citation(str(p["citation"]), "", ""))
                     for p in data["payments"])
    settlement = Settlement(table, payments, tuple(str(note) for note in data["notes"]))
    printed = settlement.to_dict()
    if printed != data:
        differ = sorted(key for key in set(printed) | set(data) if printed.get(key) != data.get(key))
        raise ValueError(f"{', '.join(differ)} disagree with the payments and players it holds")
    return settlement




def _player_dict(player: Player) -> dict[str, Any]:
    """A player's line in the settlement JSON; a scored hand brings its score lines."""
    data: dict[str, Any] = {"name": player.name, "seat": player.seat, "score": player.score,
                            "winner": player.winner, "dead": player.dead}
    if player.score_lines is not None:
        data["score_lines"] = list(player.score_lines)
    return data
