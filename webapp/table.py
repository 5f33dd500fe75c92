"""The table at the end of a deal: four players, who is East, who went out, and each hand.

Every hand is scored (the losers' too: in the classic books everybody scores and pays the
differences), then the settlement says who pays whom.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scoring import service
from scoring.api import Hand, ScoreResult, WinMethod
from scoring.errors import PungChowError, about
from scoring.settle.model import Incident, IncidentKind, Player, Settlement
from scoring.tiles import WINDS, Tile, Wind

SEATS = 4
NOTATION_SHOWN = 22  # characters of a hand shown in a folded seat's line: a phone's width


@dataclass(frozen=True)
class Seat:
    """One player at the table and the hand they showed (typed, or read from their photo).

    ``hand`` holds the tiles as read; the seat's wind, the round's and whether it went out come from the deal
    (:func:`hand_of`), so they follow a change of East or of the winner. Typing that does not read as a hand yet is
    kept as typed in ``unread``, for the seat's line to show and *Settle* to say why; the winning tile likewise
    (``winning_tile``, else ``winning_unread``).
    """

    player: str
    hand: Hand | None = None
    unread: str = ""
    winning_tile: Tile | None = None
    winning_unread: str = ""  # a typed winning tile that does not read as one ("2Q"), kept for *Settle* to say why
    won_by: WinMethod | None = None  # asked, never assumed: None until the player says how the winner went out
    photo_sha256: str | None = None
    thumbnail: bytes | None = field(default=None, repr=False)
    hand_id: int | None = None  # the hand saved from *Score a hand*: the deal links to it instead of keeping a copy
    plain: bool = False  # the player gives their score, not their hand (the table file's ``"score": 24``): a losing seat only
    score: int | None = None  # that plain score, settled as given; None until it is typed

    def __post_init__(self) -> None:
        """The hand keeps its tiles only (one read from a photo or the hand page brings its circumstances); how the
        winner went out may be given by name, as the page's chooser gives it ("" for not yet), and the winning tile
        as typed (read here, or kept as typed while it does not read)."""
        if self.hand is not None:
            object.__setattr__(self, "hand", tiles_of(self.hand))
        if isinstance(self.winning_tile, str):
            tile, unread = read_tile(self.winning_tile)
            object.__setattr__(self, "winning_tile", tile)
            object.__setattr__(self, "winning_unread", unread)
        if isinstance(self.won_by, str):
            object.__setattr__(self, "won_by", WinMethod.parse(self.won_by) if self.won_by else None)

    @property
    def shown(self) -> str:
        """The hand as the seat shows it: read, in notation; else as typed; "" when there is none."""
        return str(self.hand) if self.hand is not None else self.unread

    @property
    def winning_shown(self) -> str:
        """The winning tile as the seat shows it: its code when it reads, else as typed ("" for none)."""
        return self.winning_tile.code if self.winning_tile is not None else self.winning_unread


@dataclass(frozen=True)
class Deal:
    """One deal at the table, as the page fills it in: the four seats and their hands, who dealt (East), who went out, the
    round's wind. Settling turns it into the settlement's own ``scoring.settle.Table`` of scored players."""

    seats: tuple[Seat, ...]
    east: int = 0
    winner: int | None = 0
    prevailing_wind: str = "E"

    def seat_wind(self, index: int) -> str:
        """Winds go round the table from East in the order the players sit."""
        return WINDS[(index - self.east) % SEATS]

    @property
    def players(self) -> list[str]:
        return [s.player for s in self.seats]


def new_deal(players: Sequence[str] = ("Player 1", "Player 2", "Player 3", "Player 4")) -> Deal:
    return Deal(seats=tuple(Seat(p) for p in players))


def with_seat(table: Deal, index: int, **changes: Any) -> Deal:
    seats = list(table.seats)
    seats[index] = replace(seats[index], **changes)
    return replace(table, seats=tuple(seats))


def tiles_of(hand: Hand) -> Hand:
    """The hand's tiles as laid out (the set the winning tile completed marked), its circumstances left to the deal:
    what typing its notation reads."""
    return replace(hand, winning_tile=None, won_by=None, seat_wind=Wind.EAST, prevailing_wind=Wind.EAST, winner=False,
                   flags=frozenset())


def read_tiles(text: str) -> tuple[Hand | None, str]:
    """Typed notation as a seat keeps it: (the hand read, "") when it reads; (None, the text) while it does not.

    Only the tiles are read here; the circumstances are the deal's (:func:`hand_of`), which checks the whole hand.
    """
    if not text.strip():
        return None, ""
    try:
        return Hand.parse(text, winner=False, check=False), ""
    except PungChowError:
        return None, text


def read_tile(text: str) -> tuple[Tile | None, str]:
    """A typed winning tile as a seat keeps it: (the tile, "") when it reads; (None, the text) while it does not."""
    if not text.strip():
        return None, ""
    try:
        return Tile.parse(text), ""
    except PungChowError:
        return None, text


def with_typed_hand(table: Deal, index: int, text: str, **changes: Any) -> Deal:
    """The seat with the hand typed for it (read now, or kept as typed while it does not read)."""
    hand, unread = read_tiles(text)
    return with_seat(table, index, hand=hand, unread=unread, **changes)


def check_players(table: Deal) -> None:
    names = [s.player.strip() for s in table.seats]
    if len(names) != SEATS or not all(names) or len(set(names)) != SEATS:
        raise PungChowError("name the four players, each differently")


def hand_of(table: Deal, index: int) -> Hand:
    """The hand this seat showed, with its wind, the round's wind and whether it went out."""
    seat = table.seats[index]
    if not seat.shown.strip():
        raise PungChowError(f"{seat.player} has no hand yet: type it or read it from a photo")
    won = table.winner == index
    if won and seat.won_by is None:
        raise PungChowError(f"say how {seat.player} went out: off a discard, or from the wall")
    try:
        tiles = seat.hand if seat.hand is not None else Hand.parse(seat.unread, winner=False, check=False)  # says why not
        winning = seat.winning_tile if seat.winning_tile is not None or not seat.winning_unread.strip() \
            else Tile.parse(seat.winning_unread)  # says why not
        return Hand.from_parts(
            tiles.concealed + tiles.bonus,
            tiles.melds,
            winning_tile=winning if won else None,
            won_by=seat.won_by if won else None,
            seat_wind=table.seat_wind(index),
            prevailing_wind=table.prevailing_wind,
            winner=won,
            winning_set=tiles.winning_set,
        ).check()
    except PungChowError as exc:
        raise about(f"{seat.player}'s hand: ", exc) from None


def check_plain_scores(table: Deal) -> None:
    """A plain score stands for a losing hand only: the winner's hand decides how the deal is paid, so it is scored from its tiles."""
    for i, seat in enumerate(table.seats):
        if not seat.plain:
            continue
        if table.winner == i:
            raise PungChowError(f"{seat.player} went out: give the winning hand (typed or from a photo), "
                                "not a plain score; a plain score is for a losing seat")
        if seat.score is None:
            raise PungChowError(f"{seat.player} has no score yet: type it, or give the hand instead")
        if isinstance(seat.score, bool) or not isinstance(seat.score, int) or seat.score < 0:
            raise PungChowError(f"{seat.player}'s score must be a whole number of points, 0 or more; not {seat.score!r}")


def score_table(table: Deal, rules: str, options: Mapping[str, Any] | None = None) -> dict[str, ScoreResult]:
    """The score of every hand shown, under one rule set, by player name; a seat given as a plain score has none."""
    check_players(table)
    check_plain_scores(table)
    service.check_options(rules, options)
    results: dict[str, ScoreResult] = {}
    for i, seat in enumerate(table.seats):
        if seat.plain:
            continue
        try:
            results[seat.player] = service.score_one(hand_of(table, i), rules, options)
        except PungChowError as exc:
            if str(exc).startswith(seat.player):
                raise
            raise about(f"{seat.player}'s hand: ", exc) from None
    return results


def settle_table(table: Deal, results: Mapping[str, ScoreResult], rules: str, options: Mapping[str, Any] | None = None) -> Settlement:
    """Who pays whom, settled by the rule set's own book with its limit and East limit, as ``pungchow settle`` settles.

    A seat given as a plain score pays and is paid on that score, as the book's layouts do. Every other player keeps
    his scored hand, so the settlement checks the hands shown together as a table file's are (one set of tiles, one
    prevailing wind); a plain score has no hand to check. A deal nobody won is a drawn game: nothing is paid.
    """
    players = tuple(
        Player(seat.player, table.seat_wind(i), points(seat, results), winner=table.winner == i,
               detail=None if seat.plain else results[seat.player])
        for i, seat in enumerate(table.seats)
    )
    incident = Incident(IncidentKind.DRAWN_GAME) if table.winner is None else None
    return service.settle_scores(players, rules, options, incident=incident, source="pungchow app")


def points(seat: Seat, results: Mapping[str, ScoreResult]) -> int:
    """What the seat scored: its plain score as given, else its hand's total."""
    return seat.score if seat.plain and seat.score is not None else int(results[seat.player].total)


def plain_seats(table: Deal) -> list[str]:
    """The players whose score was typed, not scored from their hand."""
    return [s.player for s in table.seats if s.plain]


def seat_ready(table: Deal, index: int) -> bool:
    """The seat is filled in enough to settle: a losing seat's plain score, or a hand that reads (with how the winner went out)."""
    return seat_wants(table, index) is None


def seat_wants(table: Deal, index: int) -> str | None:
    """What the seat still wants before it can be settled, in a few words for its folded line; None when it is ready."""
    seat = table.seats[index]
    if seat.plain:
        return "the winning hand, not a score" if table.winner == index else "the score" if seat.score is None else None
    if not seat.shown.strip():
        return "the hand"
    if table.winner == index and seat.won_by is None:
        return "how they went out"
    try:
        hand_of(table, index)
    except PungChowError:
        return "a hand that reads (Settle says why)"
    return None


def seat_summary(table: Deal, index: int) -> str:
    """The seat's line when its editor is folded: who, which wind, the hand or score, and what it still wants (or done)."""
    seat = table.seats[index]
    who = f"{seat.player or f'Player {index + 1}'} — {Wind(table.seat_wind(index)).word}"
    who += " · went out" if table.winner == index else ""
    notation = seat.shown.strip()
    if seat.plain:
        shown = "score not typed yet" if seat.score is None else f"plain score {seat.score}"
    elif notation:
        shown = notation if len(notation) <= NOTATION_SHOWN else notation[:NOTATION_SHOWN] + "…"
    else:
        shown = "no hand yet"
    wants = seat_wants(table, index)
    return f"{who}: {shown} · {'done' if wants is None else f'needs {wants}'}"


def payment_rows(settlement: Settlement) -> list[dict[str, Any]]:
    """The who-pays-whom table: one row per payer, one column per receiver."""
    names = settlement.names
    return [{"pays": payer, **{f"to {payee}": row[j] for j, payee in enumerate(names)}} for payer, row in zip(names, settlement.grid())]


def transfers(settlement: Settlement) -> list[tuple[str, str, int]]:
    """(payer, payee, amount) for each pair of players, what one pays the other after what the other pays back."""
    names, pays = settlement.names, settlement.grid()
    return [(names[i], names[j], pays[i][j] - pays[j][i]) for i in range(len(names)) for j in range(len(names))
            if pays[i][j] - pays[j][i] > 0]


def payment_lines(settlement: Settlement) -> list[dict[str, Any]]:
    """Every payment with why it is due and where the book says so."""
    return [{"from": p.payer, "to": p.payee, "amount": p.amount, "why": p.reason, "citation": str(p.citation)}
            for p in settlement.payments]


def net_rows(settlement: Settlement) -> list[dict[str, Any]]:
    return [{"player": p, "net": v} for p, v in settlement.nets().items()]
