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
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from scoring.errors import PungChowError

DB_FILE = "history.sqlite3"
SCHEMA_VERSION = 1
EXPORT_SCHEMA = "pungchow/game-export"

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
    total INTEGER
);
CREATE TABLE IF NOT EXISTS settlements (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    deal INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    east TEXT,
    rule_set TEXT NOT NULL,
    rule_version TEXT NOT NULL,
    settlement TEXT NOT NULL,       -- JSON: Settlement.to_dict()
    PRIMARY KEY (game_id, deal)
);
CREATE INDEX IF NOT EXISTS hands_by_game ON hands(game_id, deal);
"""


class HistoryError(PungChowError):
    """The history file cannot be opened or does not hold what was asked for."""


def default_db_path(environ: Mapping[str, str] | None = None) -> Path:
    """Where the history lives: ``$PUNGCHOW_DB``, else ``$PUNGCHOW_HOME``, else the user's data directory."""
    env = os.environ if environ is None else environ
    if env.get("PUNGCHOW_DB"):
        return Path(env["PUNGCHOW_DB"]).expanduser()
    if env.get("PUNGCHOW_HOME"):
        return Path(env["PUNGCHOW_HOME"]).expanduser() / DB_FILE
    base = Path(env["XDG_DATA_HOME"]).expanduser() if env.get("XDG_DATA_HOME") else Path.home() / ".local" / "share"
    return base / "pungchow" / DB_FILE


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Game:
    id: int
    title: str
    players: tuple[str, ...]
    created_at: str


@dataclass(frozen=True)
class HandRecord:
    """One scored hand as the history keeps it; the JSON columns come back decoded."""

    id: int
    game_id: int
    deal: int
    player: str
    created_at: str
    photo_name: str | None
    photo_sha256: str | None
    thumbnail: bytes | None
    recognised: dict[str, Any] | None
    corrections: list[dict[str, Any]]
    hand: dict[str, Any]
    notation: str
    arrangement: str | None
    rule_set: str
    rule_version: str
    options: dict[str, Any]
    score: dict[str, Any] | None
    total: int | None

    def to_dict(self, *, with_thumbnail: bool = True) -> dict[str, Any]:
        data = {k: v for k, v in self.__dict__.items() if k != "thumbnail"}
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
    settlement: dict[str, Any] = field(default_factory=dict)


class History:
    """The SQLite store of games, hands and settlements; one connection per call, safe across reruns."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as db:
                db.executescript(_SCHEMA)
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except (OSError, sqlite3.Error) as exc:
            raise HistoryError(f"cannot open the history file {self.path}: {exc}; pass another with --db") from None

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            db = sqlite3.connect(self.path, timeout=10)
        except sqlite3.Error as exc:
            raise HistoryError(f"cannot open the history file {self.path}: {exc}") from None
        db.row_factory = sqlite3.Row
        try:
            db.execute("PRAGMA foreign_keys = ON")
            with db:
                yield db
        except sqlite3.Error as exc:
            raise HistoryError(f"the history file {self.path} could not be read or written ({exc}): try again, or pass another with --db") from None
        finally:
            db.close()

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
        with self._connect() as db:
            row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise HistoryError(f"there is no game {game_id} in {self.path}")
        return Game(row["id"], row["title"], tuple(json.loads(row["players"])), row["created_at"])

    def games(self) -> list[Game]:
        """Every game, newest first."""
        with self._connect() as db:
            rows = db.execute("SELECT * FROM games ORDER BY id DESC").fetchall()
        return [Game(r["id"], r["title"], tuple(json.loads(r["players"])), r["created_at"]) for r in rows]

    def next_deal(self, game_id: int) -> int:
        """The number the next deal of this game takes (1 for the first)."""
        with self._connect() as db:
            row = db.execute(
                "SELECT MAX(d) FROM (SELECT deal AS d FROM hands WHERE game_id = ? UNION ALL SELECT deal FROM settlements WHERE game_id = ?)",
                (game_id, game_id),
            ).fetchone()
        return int(row[0] or 0) + 1

    # --- hands --------------------------------------------------------------------------------

    def save_hand(
        self,
        game_id: int,
        *,
        deal: int,
        player: str,
        hand: Mapping[str, Any],
        notation: str,
        rule_set: str,
        rule_version: str,
        options: Mapping[str, Any],
        score: Mapping[str, Any] | None,
        corrections: Sequence[Mapping[str, Any]] = (),
        recognised: Mapping[str, Any] | None = None,
        photo_name: str | None = None,
        photo_sha256: str | None = None,
        thumbnail: bytes | None = None,
    ) -> int:
        """Keep one scored hand; returns its id."""
        self.game(game_id)
        with self._connect() as db:
            cur = db.execute(
                """INSERT INTO hands (game_id, deal, player, created_at, photo_name, photo_sha256, thumbnail,
                   recognised, corrections, hand, notation, arrangement, rule_set, rule_version, options, score, total)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                (
                    game_id, deal, player, _now(), photo_name, photo_sha256, thumbnail,
                    json.dumps(recognised) if recognised is not None else None,
                    json.dumps(list(corrections)), json.dumps(dict(hand)), notation,
                    (score or {}).get("arrangement"), rule_set, rule_version,
                    json.dumps(dict(options), default=str),
                    json.dumps(dict(score), default=str) if score is not None else None,
                    (score or {}).get("total"),
                ),
            )
            return int(cur.lastrowid or 0)

    def hand(self, hand_id: int) -> HandRecord:
        with self._connect() as db:
            row = db.execute("SELECT * FROM hands WHERE id = ?", (hand_id,)).fetchone()
        if row is None:
            raise HistoryError(f"there is no hand {hand_id} in {self.path}")
        return _hand_record(row)

    def hands(self, game_id: int) -> list[HandRecord]:
        """The game's hands in the order they were played."""
        with self._connect() as db:
            rows = db.execute("SELECT * FROM hands WHERE game_id = ? ORDER BY deal, id", (game_id,)).fetchall()
        return [_hand_record(r) for r in rows]

    # --- settlements --------------------------------------------------------------------------

    def save_settlement(
        self, game_id: int, *, deal: int, settlement: Mapping[str, Any], rule_set: str, rule_version: str, east: str | None = None
    ) -> None:
        """Keep who paid whom for one deal (a second save of the same deal replaces the first)."""
        self.game(game_id)
        with self._connect() as db:
            db.execute(
                "INSERT OR REPLACE INTO settlements (game_id, deal, created_at, east, rule_set, rule_version, settlement)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, deal, _now(), east, rule_set, rule_version, json.dumps(dict(settlement), default=str)),
            )

    def settlements(self, game_id: int) -> list[SettlementRecord]:
        with self._connect() as db:
            rows = db.execute("SELECT * FROM settlements WHERE game_id = ? ORDER BY deal", (game_id,)).fetchall()
        return [
            SettlementRecord(r["game_id"], r["deal"], r["created_at"], r["east"], r["rule_set"], r["rule_version"], json.loads(r["settlement"]))
            for r in rows
        ]

    # --- export -------------------------------------------------------------------------------

    def export_json(self, game_id: int) -> str:
        """The whole game, thumbnails included, as one JSON document a referee can read."""
        game = self.game(game_id)
        data = {
            "schema": EXPORT_SCHEMA,
            "version": SCHEMA_VERSION,
            "game": {"id": game.id, "title": game.title, "players": list(game.players), "created_at": game.created_at},
            "hands": [h.to_dict() for h in self.hands(game_id)],
            "settlements": [s.__dict__ for s in self.settlements(game_id)],
        }
        return json.dumps(data, indent=2, default=str)

    def export_csv(self, game_id: int) -> str:
        """One row per hand: enough for a spreadsheet of the evening's scores and payments."""
        game = self.game(game_id)
        net = _net_by_deal(self.settlements(game_id))
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["game", "deal", "player", "hand", "arrangement", "rule_set", "rule_version", "total",
                         "net_payment", "corrections", "photo_sha256", "saved_at"])
        for h in self.hands(game_id):
            writer.writerow([
                game.title, h.deal, h.player, h.notation, h.arrangement or "", h.rule_set, h.rule_version,
                "" if h.total is None else h.total, net.get((h.deal, h.player), ""), len(h.corrections),
                h.photo_sha256 or "", h.created_at,
            ])
        return out.getvalue()


def _net_by_deal(settlements: Sequence[SettlementRecord]) -> dict[tuple[int, str], Any]:
    """Each player's net gain in each deal, read from the settlement's ``net`` mapping when it has one."""
    net: dict[tuple[int, str], Any] = {}
    for s in settlements:
        for player, amount in (s.settlement.get("net") or {}).items():
            net[(s.deal, player)] = amount
    return net


def _hand_record(row: sqlite3.Row) -> HandRecord:
    def load(name: str) -> Any:
        return json.loads(row[name]) if row[name] is not None else None

    return HandRecord(
        id=row["id"], game_id=row["game_id"], deal=row["deal"], player=row["player"], created_at=row["created_at"],
        photo_name=row["photo_name"], photo_sha256=row["photo_sha256"], thumbnail=row["thumbnail"],
        recognised=load("recognised"), corrections=load("corrections") or [], hand=load("hand"), notation=row["notation"],
        arrangement=row["arrangement"], rule_set=row["rule_set"], rule_version=row["rule_version"],
        options=load("options") or {}, score=load("score"), total=row["total"],
    )
