"""Games and hands kept in SQLite, each hand a dispute record.

When a player later says "that was a pung of red dragons, not a chow", the record answers: the
photo (its hash and a thumbnail), what the reader saw, every correction the player made, the
arrangement chosen, the rule set with its version and options, the score and the settlement.
One file per user (``$PUNGCHOW_HOME/history.sqlite3`` or ``~/.local/share/pungchow/``), so it
survives upgrades and can be copied to another machine.
"""

from __future__ import annotations

import base64
import csv
import io
import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

from recognizer.setstore import SET_TABLES, STORE_VERSION, history_file, transaction
from scoring.engine import ScoreResult
from scoring.errors import Ask, Problem, PungChowError
from scoring.hand import Hand
from scoring.jsonfile import JsonInputError, load_json
from scoring.printed import PrintedScore
from scoring.settle import Settlement, SettlementError
from webapp.review import Correction
from webapp.sheet import ScoreSheet, score_sheet, settle_up
from webapp.text import spreadsheet_cell

#: 2: the file may also hold the player's tile sets (``recognizer.setstore``), which version 1 took for another program's.
SCHEMA_VERSION = STORE_VERSION
EXPORT_SCHEMA = "pungchow/game-export"
#: The game export's own version: a game is written as before whatever else the history file holds.
EXPORT_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    players TEXT NOT NULL,          -- JSON list of the four names, in seat order from East
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS hands (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    deal INTEGER NOT NULL,          -- which deal of the game: the four hands of one deal settle together
    player TEXT NOT NULL,
    created_at TEXT NOT NULL,
    photo_name TEXT,
    photo_sha256 TEXT,
    thumbnail BLOB,                 -- small JPEG of the photo
    recognised TEXT,                -- JSON: what the reader saw, before any correction
    corrections TEXT NOT NULL,      -- JSON list: every change the player made
    hand TEXT NOT NULL,             -- JSON: the hand as scored (scoring/schema/hand.v1.json)
    notation TEXT NOT NULL,
    arrangement TEXT,
    rule_set TEXT NOT NULL,
    rule_version TEXT NOT NULL,
    options TEXT NOT NULL,          -- JSON
    score TEXT,                     -- JSON: ScoreResult.to_dict(), lines and citations included
    total INTEGER,
    save_key TEXT                   -- the page's mark for one hand put up for review: saved twice, kept once
);
CREATE TABLE IF NOT EXISTS settlements (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    deal INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    east TEXT,
    rule_set TEXT NOT NULL,
    rule_version TEXT NOT NULL,
    settlement TEXT NOT NULL,       -- JSON: Settlement.to_dict()
    save_key TEXT,                  -- the page's mark for one deal: a deal whose every hand was kept already is saved once too
    PRIMARY KEY (game_id, deal)
);
CREATE INDEX IF NOT EXISTS hands_by_game ON hands(game_id, deal);
"""
#: The tables (and indexes) this program makes, the player's tile sets' among them; a file holding any other table
#: belongs to another program.
OUR_TABLES = frozenset({"games", "hands", "settlements", "hands_by_game"}) | SET_TABLES
#: How often a deal is tried again when its number was taken meanwhile.
DEAL_TRIES = 5

T = TypeVar("T")


class HistoryError(PungChowError):
    """The history file cannot be opened or does not hold what was asked for."""


def default_db_path(environ: Mapping[str, str] | None = None) -> Path:
    """Where the history lives: ``$PUNGCHOW_DB``, else ``$PUNGCHOW_HOME``, else the user's data directory."""
    return history_file(environ)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Game:
    id: int
    title: str
    players: tuple[str, ...]
    created_at: str
    damaged: bool = False


@dataclass(frozen=True)
class HandRecord:
    """One scored hand as the history keeps it; the JSON columns come back decoded, the hand and its score typed.

    ``hand`` is the hand as scored (``Hand.from_dict``) and ``score`` the score the players were shown
    (``PrintedScore.from_dict``); either is None when the file's copy does not read, and ``damaged`` names it.
    """

    id: int
    game_id: int
    deal: int
    player: str
    created_at: str
    photo_name: str | None
    photo_sha256: str | None
    thumbnail: bytes | None
    recognised: dict[str, Any] | None
    corrections: tuple[Correction, ...]
    hand: Hand | None
    notation: str
    arrangement: str | None
    rule_set: str
    rule_version: str
    options: dict[str, Any]
    score: PrintedScore | None
    total: int | None
    damaged: tuple[str, ...] = ()

    def to_dict(self, *, with_thumbnail: bool = True) -> dict[str, Any]:
        """The record as the game's export writes it, its hand and score as the history file keeps them."""
        data = {k: v for k, v in self.__dict__.items() if k != "thumbnail"}
        data["corrections"] = [c.to_dict() for c in self.corrections]
        data["hand"] = None if self.hand is None else self.hand.to_dict()
        data["score"] = None if self.score is None else self.score.to_dict()
        if with_thumbnail:
            data["thumbnail_jpeg_base64"] = base64.b64encode(self.thumbnail).decode() if self.thumbnail else None
        return data


@dataclass(frozen=True)
class SettlementRecord:
    game_id: int
    deal: int
    created_at: str
    east: str | None
    rule_set: str
    rule_version: str
    settlement: Settlement | None = None
    """As settled at the table, read back from its JSON (``Settlement.from_dict``); None when the file's copy is damaged."""
    damaged: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The record as the game's export writes it, its settlement as the history file keeps it."""
        return {"game_id": self.game_id, "deal": self.deal, "created_at": self.created_at, "east": self.east,
                "rule_set": self.rule_set, "rule_version": self.rule_version,
                "settlement": None if self.settlement is None else self.settlement.to_dict(), "damaged": self.damaged}


@dataclass(frozen=True)
class HandToKeep:
    """One hand of a deal about to be saved: what ``History.save_deal`` writes for each player.

    The hand and its score go in as they were scored; the history turns them into its JSON columns (and the hand's
    notation) as it writes them, and reads them back typed (:class:`HandRecord`).
    """

    player: str
    hand: Hand
    rule_set: str
    rule_version: str
    options: Mapping[str, Any]
    score: ScoreResult | None
    corrections: Sequence[Correction] = ()
    recognised: Mapping[str, Any] | None = None
    photo_name: str | None = None
    photo_sha256: str | None = None
    thumbnail: bytes | None = None


class History:
    """The SQLite store of games, hands and settlements; one connection per call, safe across reruns."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        #: Why this history cannot be written to (None when it can): a newer version's file, or one we may not write.
        self.read_only: str | None = None
        try:
            if self.path.exists():
                self._recover()
                self._inspect()
            if self.read_only is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with self._connect() as db:
                    db.executescript(_SCHEMA)
                    if db.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:  # version 1 files read as they are
                        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                    if "save_key" not in {r[1] for r in db.execute("PRAGMA table_info(hands)")}:
                        db.execute("ALTER TABLE hands ADD COLUMN save_key TEXT")  # a file from before saving was idempotent
                    if "save_key" not in {r[1] for r in db.execute("PRAGMA table_info(settlements)")}:
                        db.execute("ALTER TABLE settlements ADD COLUMN save_key TEXT")
        except (OSError, sqlite3.Error) as exc:
            raise HistoryError(Problem(f"cannot open the history file {self.path}: {exc}; ", Ask.OTHER_HISTORY)) from None

    def _recover(self) -> None:
        """Roll back a save cut short (kill -9, power lost): SQLite does so on the first read-write open, which the
        read-only look below cannot, so without this the file would stay unreadable however often it was retried."""
        journal = self.path.with_name(self.path.name + "-journal")
        if journal.exists() and os.access(self.path, os.W_OK) and os.access(self.path.parent, os.W_OK):
            db = sqlite3.connect(self.path, timeout=30)
            try:
                db.execute("SELECT count(*) FROM sqlite_master").fetchone()
            finally:
                db.close()

    def _inspect(self) -> None:
        """Look at an existing file without writing: whose it is, which version, whether we may write it."""
        with self._connect(write=False) as db:
            version = int(db.execute("PRAGMA user_version").fetchone()[0])
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")}
        foreign = sorted(tables - OUR_TABLES)
        newer_ours = version > SCHEMA_VERSION and {"games", "hands", "settlements"} <= tables
        if foreign and not newer_ours:
            raise HistoryError(f"{self.path} is another program's database (it holds {', '.join(foreign[:5])}), not a Pung Chow "
                               "history; pass another file with --db")
        if newer_ours:
            self.read_only = (f"the history file {self.path} was written by a newer Pung Chow (history version {version}; this one "
                              f"writes version {SCHEMA_VERSION}): it is shown read-only; upgrade pungchow to save to it")
        elif not os.access(self.path, os.W_OK) or not os.access(self.path.parent, os.W_OK):
            self.read_only = f"the history file {self.path} (or its folder) is read-only: it is shown, nothing can be saved to it"

    @contextmanager
    def _connect(self, *, write: bool = True, immediate: bool = False) -> Iterator[sqlite3.Connection]:
        """One connection, one transaction; ``immediate`` takes the write lock before the first read."""
        if write and self.read_only is not None:
            raise HistoryError(self.read_only)
        try:
            if write:
                db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            else:
                db = sqlite3.connect(self.path.resolve().as_uri() + "?mode=ro", timeout=30, uri=True, isolation_level=None)
        except sqlite3.Error as exc:
            raise HistoryError(f"cannot open the history file {self.path}: {exc}") from None
        db.row_factory = sqlite3.Row
        try:
            db.execute("PRAGMA foreign_keys = ON")
            with transaction(db, immediate):
                yield db
        except sqlite3.Error as exc:
            raise HistoryError(Problem(f"the history file {self.path} could not be read or written ({exc}): try again, or ",
                                       Ask.OTHER_HISTORY)) from None
        finally:
            db.close()

    def _decoded(self, decode: Callable[[sqlite3.Row], T], rows: Sequence[sqlite3.Row]) -> list[T]:
        """Rows as records; a row whose very shape this version cannot read (a key column gone) is one clear error."""
        try:
            return [decode(r) for r in rows]
        except (IndexError, KeyError, TypeError, ValueError) as exc:
            raise HistoryError(f"the history file {self.path} holds rows this version cannot read ({type(exc).__name__}: {exc}); "
                               "upgrade pungchow, or pass another file with --db") from None

    def _reading(self) -> AbstractContextManager[sqlite3.Connection]:
        return self._connect(write=self.read_only is None)

    # --- games --------------------------------------------------------------------------------

    def new_game(self, title: str, players: Sequence[str]) -> Game:
        names = tuple(p.strip() for p in players)
        if len(names) != 4 or not all(names) or len(set(names)) != 4:
            raise HistoryError("a game needs four different player names")
        created = _now()
        with self._connect() as db:
            cur = db.execute(
                "INSERT INTO games (title, players, created_at) VALUES (?, ?, ?)",
                (title.strip() or f"Game of {created[:10]}", json.dumps(list(names)), created),
            )
            game_id = int(cur.lastrowid or 0)
        return self.game(game_id)

    def game(self, game_id: int) -> Game:
        with self._reading() as db:
            row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise HistoryError(f"there is no game {game_id} in {self.path}")
        return self._decoded(_game, [row])[0]

    def games(self) -> list[Game]:
        """Every game, newest first."""
        with self._reading() as db:
            rows = db.execute("SELECT * FROM games ORDER BY id DESC").fetchall()
        return self._decoded(_game, rows)

    def latest_game(self) -> Game | None:
        """The game a phone joins when it opens the page: the one started last (None before any)."""
        games = self.games()
        return games[0] if games else None

    def next_deal(self, game_id: int) -> int:
        """The number the next deal of this game would take (1 for the first); saving takes its own, in its transaction."""
        with self._reading() as db:
            return _next_deal(db, game_id)

    # --- hands --------------------------------------------------------------------------------

    def save_hand(
        self,
        game_id: int,
        *,
        deal: int | None = None,
        player: str,
        hand: Hand,
        rule_set: str,
        rule_version: str,
        options: Mapping[str, Any],
        score: ScoreResult | None,
        corrections: Sequence[Correction] = (),
        recognised: Mapping[str, Any] | None = None,
        photo_name: str | None = None,
        photo_sha256: str | None = None,
        thumbnail: bytes | None = None,
        save_key: str | None = None,
    ) -> int:
        """Keep one scored hand as a deal of its own (or of ``deal``); returns its id.

        Without ``deal`` the next number is taken in the same transaction as the save, so two
        sessions saving at once never share a number. A hand saved again under the same
        ``save_key`` (a double tap on *Save*) is the record already kept: its id comes back, no copy is made.
        """
        keep = HandToKeep(player, hand, rule_set, rule_version, options, score, corrections, recognised,
                          photo_name, photo_sha256, thumbnail)
        self.game(game_id)
        with self._connect(immediate=True) as db:
            if save_key is not None:
                kept = db.execute("SELECT id FROM hands WHERE save_key = ?", (save_key,)).fetchone()
                if kept is not None:
                    return int(kept[0])
            if deal is not None:
                _check_open_deal(db, game_id, deal)
            hand_id = _insert_hand(db, game_id, _next_deal(db, game_id) if deal is None else deal, keep)
            db.execute("UPDATE hands SET save_key = ? WHERE id = ?", (save_key, hand_id))
            return hand_id

    def saved_under(self, save_key: str) -> HandRecord | None:
        """The hand kept under this mark, if it was saved already (by this tap or the one before it)."""
        with self._reading() as db:
            row = db.execute("SELECT * FROM hands WHERE save_key = ? ORDER BY id LIMIT 1", (save_key,)).fetchone()
        return None if row is None else self._decoded(_hand_record, [row])[0]

    def deal_saved_under(self, save_key: str) -> tuple[int, int] | None:
        """(game, deal) of the deal kept under this mark, if it was saved already: by a hand of it, or by its settlement
        (a deal whose winner was saved from *Score a hand* and whose losers gave plain scores keeps no hand of its own)."""
        with self._reading() as db:
            return _deal_under(db, save_key)

    def save_deal(
        self, game_id: int, hands: Sequence[HandToKeep], *, settlement: Settlement | None = None,
        rule_set: str = "", rule_version: str = "", east: str | None = None, deal: int | None = None,
        save_key: str | None = None,
    ) -> int:
        """Keep a whole deal (its number, every hand and the settlement) in one transaction; returns the deal's number.

        A kill in the middle leaves nothing of the deal; two sessions saving at once get different
        numbers (the number is read under the write lock, and a settlement's number is unique).
        With ``deal`` the hands join a deal already begun (hands saved one by one before the table
        settled); a deal settled already is refused, never replaced. A deal saved again under the
        same ``save_key`` (a double tap on *Save deal*) is the deal already kept: its number comes back.
        """
        self.game(game_id)
        for _ in range(1 if deal is not None else DEAL_TRIES):
            try:
                with self._connect(immediate=True) as db:
                    if save_key is not None:
                        kept = _deal_under(db, save_key)
                        if kept is not None:
                            return kept[1]
                    if deal is not None:
                        _check_open_deal(db, game_id, deal)
                    number = deal if deal is not None else _next_deal(db, game_id)
                    for keep in hands:
                        hand_id = _insert_hand(db, game_id, number, keep)
                        db.execute("UPDATE hands SET save_key = ? WHERE id = ?", (save_key, hand_id))
                    if settlement is not None:
                        _insert_settlement(db, game_id, number, settlement, rule_set, rule_version, east, save_key)
                    return number
            except HistoryError as exc:
                if "UNIQUE" not in str(exc):
                    raise
                if deal is not None:
                    raise HistoryError(f"deal {deal} of game {game_id} is settled already; a settlement is kept once, "
                                       "never replaced") from None
        raise HistoryError(f"could not find a free deal number in game {game_id} after {DEAL_TRIES} tries: save again")

    def hand(self, hand_id: int) -> HandRecord:
        with self._reading() as db:
            row = db.execute("SELECT * FROM hands WHERE id = ?", (hand_id,)).fetchone()
        if row is None:
            raise HistoryError(f"there is no hand {hand_id} in {self.path}")
        return self._decoded(_hand_record, [row])[0]

    def hands(self, game_id: int) -> list[HandRecord]:
        """The game's hands in the order they were played."""
        with self._reading() as db:
            rows = db.execute("SELECT * FROM hands WHERE game_id = ? ORDER BY deal, id", (game_id,)).fetchall()
        return self._decoded(_hand_record, rows)

    # --- settlements --------------------------------------------------------------------------

    def save_settlement(
        self, game_id: int, *, deal: int, settlement: Settlement, rule_set: str, rule_version: str, east: str | None = None
    ) -> None:
        """Keep who paid whom for one deal whose hands are already kept; a deal is settled once, never replaced."""
        self.game(game_id)
        try:
            with self._connect(immediate=True) as db:
                _insert_settlement(db, game_id, deal, settlement, rule_set, rule_version, east)
        except HistoryError as exc:
            if "UNIQUE" in str(exc):
                raise HistoryError(f"deal {deal} of game {game_id} is settled already; a settlement is kept once, never replaced") from None
            raise

    def settlements(self, game_id: int) -> list[SettlementRecord]:
        with self._reading() as db:
            rows = db.execute("SELECT * FROM settlements WHERE game_id = ? ORDER BY deal", (game_id,)).fetchall()
        return self._decoded(_settlement_record, rows)

    def score_sheet(self, game_id: int) -> ScoreSheet:
        """The game's running score: every settled deal's nets, in the seat order the game was started with."""
        game = self.game(game_id)
        deals: list[tuple[int, Mapping[str, int]]] = []
        for s in self.settlements(game_id):
            if s.damaged or s.settlement is None:
                raise HistoryError(f"deal {s.deal} of game {game_id} is damaged in the history file: its payments cannot be read")
            deals.append((s.deal, s.settlement.nets()))
        return score_sheet(game.players, deals)

    def _sheet_for_export(self, game_id: int) -> ScoreSheet | str:
        """The sheet, or why it cannot be drawn up: a damaged deal must not stop the rest of the record being exported."""
        try:
            return self.score_sheet(game_id)
        except PungChowError as exc:
            return str(exc)

    def undo_last_deal(self, game_id: int, deal: int | None = None) -> int | None:
        """Take back the game's last deal (its hands and its settlement) in one transaction; returns its number, None if none.

        Only the last: the sheet's earlier totals never change under the players' feet. With ``deal``,
        only if that deal is still the last, so a double tap on *Undo* takes back one deal, not two.
        """
        self.game(game_id)
        with self._connect(immediate=True) as db:
            last = _next_deal(db, game_id) - 1
            if last < 1 or (deal is not None and deal != last):
                return None
            deal = last
            db.execute("DELETE FROM hands WHERE game_id = ? AND deal = ?", (game_id, deal))
            db.execute("DELETE FROM settlements WHERE game_id = ? AND deal = ?", (game_id, deal))
            return deal

    # --- export -------------------------------------------------------------------------------

    def export_json(self, game_id: int) -> str:
        """The whole game, thumbnails included, as one JSON document a referee can read."""
        game = self.game(game_id)
        data = {
            "schema": EXPORT_SCHEMA,
            "version": EXPORT_VERSION,
            "game": {"id": game.id, "title": game.title, "players": list(game.players), "created_at": game.created_at},
            "hands": [h.to_dict() for h in self.hands(game_id)],
            "settlements": [s.to_dict() for s in self.settlements(game_id)],
            "score_sheet": _sheet_dict(self._sheet_for_export(game_id)),
        }
        return json.dumps(data, indent=2, default=str)

    def export_csv(self, game_id: int) -> str:
        """One row per hand (its payment and the player's running total after that deal), then the score sheet's totals."""
        game = self.game(game_id)
        net = _net_by_deal(self.settlements(game_id))
        sheet = self._sheet_for_export(game_id)
        running = {(line.deal, p): v for line in sheet.lines for p, v in line.running.items()} if isinstance(sheet, ScoreSheet) else {}
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["game", "deal", "player", "hand", "arrangement", "rule_set", "rule_version", "total",
                         "net_payment", "running_total", "corrections", "photo_sha256", "saved_at"])
        for h in self.hands(game_id):
            writer.writerow([spreadsheet_cell(cell) for cell in (
                game.title, h.deal, h.player, h.notation, h.arrangement or "", h.rule_set, h.rule_version,
                "" if h.total is None else h.total, net.get((h.deal, h.player), ""), running.get((h.deal, h.player), ""),
                len(h.corrections), h.photo_sha256 or "", h.created_at,
            )])
        for player, total in sheet.totals.items() if isinstance(sheet, ScoreSheet) else ():
            writer.writerow([spreadsheet_cell(cell) for cell in (
                game.title, "total", player, "", "", "", "", "", "", total, "", "", "")])
        return out.getvalue()


def _sheet_dict(sheet: ScoreSheet | str) -> dict[str, Any]:
    """The score sheet as the export writes it: each deal's nets and running totals, the totals, and the settle-up."""
    if isinstance(sheet, str):
        return {"damaged": sheet}
    return {
        "players": list(sheet.players),
        "deals": [{"deal": line.deal, "net": dict(line.net), "running": dict(line.running)} for line in sheet.lines],
        "totals": dict(sheet.totals),
        "settle_up": [{"from": t.payer, "to": t.payee, "amount": t.amount} for t in settle_up(sheet.totals)],
    }


def _net_by_deal(settlements: Sequence[SettlementRecord]) -> dict[tuple[int, str], int]:
    """Each player's net gain in each deal that can be read."""
    return {(s.deal, player): amount for s in settlements if s.settlement is not None for player, amount in s.settlement.nets().items()}


def _check_open_deal(db: sqlite3.Connection, game_id: int, deal: int) -> None:
    """Hands join only a deal that exists in numbering (1 and up) and is not settled yet: a settlement is final."""
    if isinstance(deal, bool) or not isinstance(deal, int) or deal < 1:
        raise HistoryError(f"deal numbers start at 1, not {deal!r}")
    if db.execute("SELECT 1 FROM settlements WHERE game_id = ? AND deal = ?", (game_id, deal)).fetchone():
        raise HistoryError(f"deal {deal} of game {game_id} is settled already; a settlement is kept once, never replaced")


def _next_deal(db: sqlite3.Connection, game_id: int) -> int:
    row = db.execute(
        "SELECT MAX(d) FROM (SELECT deal AS d FROM hands WHERE game_id = ? UNION ALL SELECT deal FROM settlements WHERE game_id = ?)"
        " WHERE typeof(d) = 'integer'",  # a damaged row's deal (text, say) never decides the next number
        (game_id, game_id),
    ).fetchone()
    return int(row[0] or 0) + 1


def _insert_hand(db: sqlite3.Connection, game_id: int, deal: int, keep: HandToKeep) -> int:
    """The hand kept as its JSON (``Hand.to_dict``) and notation, its score as printed (``ScoreResult.to_dict``), which
    ``Hand.from_dict`` and ``PrintedScore.from_dict`` read back exactly."""
    score = keep.score
    cur = db.execute(
        """INSERT INTO hands (game_id, deal, player, created_at, photo_name, photo_sha256, thumbnail,
           recognised, corrections, hand, notation, arrangement, rule_set, rule_version, options, score, total)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        (
            game_id, deal, keep.player, _now(), keep.photo_name, keep.photo_sha256, keep.thumbnail,
            json.dumps(keep.recognised) if keep.recognised is not None else None,
            json.dumps([c.to_dict() for c in keep.corrections]), json.dumps(keep.hand.to_dict()), str(keep.hand),
            None if score is None else str(score.arrangement), keep.rule_set, keep.rule_version,
            json.dumps(dict(keep.options), default=str),
            None if score is None else json.dumps(score.to_dict(), default=str),
            None if score is None else score.total,
        ),
    )
    return int(cur.lastrowid or 0)


def _insert_settlement(db: sqlite3.Connection, game_id: int, deal: int, settlement: Settlement, rule_set: str,
                       rule_version: str, east: str | None, save_key: str | None = None) -> None:
    """The settlement kept as its JSON (``Settlement.to_dict``), which ``Settlement.from_dict`` reads back exactly."""
    text = json.dumps(settlement.to_dict())
    db.execute(
        "INSERT INTO settlements (game_id, deal, created_at, east, rule_set, rule_version, settlement, save_key) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (game_id, deal, _now(), east, rule_set, rule_version, text, save_key),
    )


def _deal_under(db: sqlite3.Connection, save_key: str) -> tuple[int, int] | None:
    """(game, deal) kept under a deal's save mark: on its hands, else on its settlement."""
    row = db.execute("SELECT game_id, deal FROM hands WHERE save_key = ? ORDER BY id LIMIT 1", (save_key,)).fetchone()
    if row is None:
        try:
            row = db.execute("SELECT game_id, deal FROM settlements WHERE save_key = ? LIMIT 1", (save_key,)).fetchone()
        except sqlite3.OperationalError:  # an old file opened read-only: its settlements carry no mark, so none was saved here
            return None
    return None if row is None else (int(row[0]), int(row[1]))


def _column(row: sqlite3.Row, name: str) -> Any:
    """A column's value, None when a newer or damaged file lacks it."""
    try:
        return row[name]
    except (IndexError, KeyError):
        return None


def _decoded(row: sqlite3.Row, name: str, damaged: list[str]) -> Any:
    """A JSON column decoded; one that is not JSON is noted in ``damaged`` and read as None."""
    text = _column(row, name)
    if text is None:
        return None
    try:
        return load_json(text, f"history {name}")
    except (JsonInputError, TypeError):
        damaged.append(name)
        return None


def _deal(row: sqlite3.Row, damaged: list[str]) -> int:
    """A row's deal number; one that is not a whole number (a damaged file) is noted and read as 0, a deal no save takes."""
    deal = row["deal"]  # a file without the column is one this version cannot read (``History._decoded``)
    if isinstance(deal, int) and not isinstance(deal, bool):
        return deal
    damaged.append("deal")
    return 0


def _game(row: sqlite3.Row) -> Game:
    damaged: list[str] = []
    players = _decoded(row, "players", damaged)
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        players, damaged = ["?"], ["players"]
    return Game(int(row["id"]), str(_column(row, "title") or "?"), tuple(players), str(_column(row, "created_at") or ""), bool(damaged))


def _settlement_record(row: sqlite3.Row) -> SettlementRecord:
    damaged: list[str] = []
    settlement: Settlement | None = None
    try:
        settlement = Settlement.from_dict(_decoded(row, "settlement", damaged))
    except SettlementError:
        damaged = ["settlement"]
    deal = _deal(row, damaged)
    return SettlementRecord(row["game_id"], deal, str(_column(row, "created_at") or ""), _column(row, "east"),
                            str(_column(row, "rule_set") or "?"), str(_column(row, "rule_version") or "?"), settlement, bool(damaged))


def _typed(read: Callable[[Any], T], data: Any, name: str, damaged: list[str]) -> T | None:
    """A JSON column read as its type; one that does not read as one is noted in ``damaged`` and read as None."""
    if data is None:
        return None
    try:
        return read(data)
    except (PungChowError, KeyError, TypeError, ValueError):
        damaged.append(name)
        return None


def _corrections(data: list[Any] | None, damaged: list[str]) -> tuple[Correction, ...]:
    """Every correction kept, read back; a list holding anything that is not one is noted in ``damaged`` and read as none."""
    try:
        return tuple(Correction.from_dict(c) for c in data or ())
    except PungChowError:
        damaged.append("corrections")
        return ()


def _kept_hand(data: Any) -> Hand:
    """The hand as it was scored: checked then, so read back as it was kept, not judged again."""
    return Hand.from_dict(data, check=False)


def _hand_record(row: sqlite3.Row) -> HandRecord:
    damaged: list[str] = []

    def load(name: str, kind: type) -> Any:
        value = _decoded(row, name, damaged)
        if value is not None and not isinstance(value, kind):
            damaged.append(name)
            return None
        return value

    record = HandRecord(
        id=row["id"], game_id=row["game_id"], deal=_deal(row, damaged), player=str(_column(row, "player") or "?"),
        created_at=str(_column(row, "created_at") or ""), photo_name=_column(row, "photo_name"),
        photo_sha256=_column(row, "photo_sha256"), thumbnail=_column(row, "thumbnail"),
        recognised=load("recognised", dict), corrections=_corrections(load("corrections", list), damaged),
        hand=_typed(_kept_hand, load("hand", dict), "hand", damaged),
        notation=str(_column(row, "notation") or ""), arrangement=_column(row, "arrangement"),
        rule_set=str(_column(row, "rule_set") or ""), rule_version=str(_column(row, "rule_version") or ""),
        options=load("options", dict) or {}, score=_typed(PrintedScore.from_dict, load("score", dict), "score", damaged),
        total=_column(row, "total"),
    )
    if record.hand is None and "hand" not in damaged:
        damaged.append("hand")  # every hand is kept with its JSON: a row without one is damaged
    return replace(record, damaged=tuple(damaged)) if damaged else record
