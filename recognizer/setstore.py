"""The player's own tile sets, kept in the history file beside their hands (SQLite).

A set is one row of ``tilesets`` (its description as ``tileset.json`` held it, and a calibration's prototypes as
``prototypes.npz`` held them) and one row per example in ``tileset_examples``: its code, where it came from, the
classifier's embeddings of it (as it is and turned half a turn) and its grey face at ``examples.FACE_SIZE`` — all a
photo's reading needs. The crops themselves, needed only to show an example, to embed it again under another
classifier or to export the set, lie in ``tileset_crops``, read only when asked for: a set of thousands of examples
loads in tens of milliseconds. A correction adds rows; nothing is rewritten whole.

Every change is one transaction, so a set is never left half written; a full disk or a locked file is one
``TileSetError`` line and the set stays as it was. The built-in sets stay files (``models/tilesets``), never here.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from recognizer.errors import TileSetError

if TYPE_CHECKING:
    from recognizer.examples import Examples

DB_FILE = "history.sqlite3"
#: The history file's version (``PRAGMA user_version``) once it holds tile sets: an older Pung Chow opens such a file
#: read-only, as one written by a newer version, rather than taking these tables for another program's.
STORE_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tilesets (
    name TEXT PRIMARY KEY,
    meta TEXT NOT NULL,             -- JSON: what the set's tileset.json holds (codes, looks_like, classifier_sha256...)
    prototypes BLOB,                -- a calibration's prototypes.npz as a file holds it; NULL for a set of examples only
    changes INTEGER NOT NULL DEFAULT 0  -- counts every change: a photo read with the set before it learnt is read again
);
CREATE TABLE IF NOT EXISTS tileset_examples (
    id INTEGER PRIMARY KEY,         -- the order examples were learnt in
    tileset TEXT NOT NULL REFERENCES tilesets(name) ON DELETE CASCADE ON UPDATE CASCADE,
    code TEXT NOT NULL,
    source TEXT NOT NULL,           -- calibration:PHOTO, corrected:PHOTO or page:PHOTO #step
    embedded_by TEXT NOT NULL,      -- the classifier's sha256 that made the embeddings
    embedding BLOB NOT NULL,        -- float32, the crop as it is
    turned BLOB NOT NULL,           -- float32, the crop turned half a turn
    face BLOB NOT NULL,             -- uint8 grey face at examples.FACE_SIZE
    face_h INTEGER NOT NULL,
    face_w INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tileset_crops (
    id INTEGER PRIMARY KEY REFERENCES tileset_examples(id) ON DELETE CASCADE,
    height INTEGER NOT NULL,
    width INTEGER NOT NULL,
    crop BLOB NOT NULL              -- uint8 RGB rows of the classifier's crop
);
CREATE TABLE IF NOT EXISTS tileset_folders (
    name TEXT PRIMARY KEY,          -- a set folder of $PUNGCHOW_HOME/tilesets, read in once (its files are left there)
    taken_in TEXT NOT NULL          -- what became of it: 'read in', or why it was left out
);
CREATE INDEX IF NOT EXISTS examples_by_set ON tileset_examples(tileset, id);
"""
#: The tables and index above: the history knows them as its own.
SET_TABLES = frozenset({"tilesets", "tileset_examples", "tileset_crops", "tileset_folders", "examples_by_set"})


def history_file(environ: Mapping[str, str] | None = None) -> Path:
    """The player's history file, where their sets live too: ``$PUNGCHOW_DB``, else ``$PUNGCHOW_HOME/history.sqlite3``,
    else the user's data folder (``pungchow app --db FILE`` passes its file on as ``$PUNGCHOW_DB``)."""
    env = os.environ if environ is None else environ
    if env.get("PUNGCHOW_DB"):
        return Path(env["PUNGCHOW_DB"]).expanduser()
    if env.get("PUNGCHOW_HOME"):
        return Path(env["PUNGCHOW_HOME"]).expanduser() / DB_FILE
    base = Path(env["XDG_DATA_HOME"]).expanduser() if env.get("XDG_DATA_HOME") else Path.home() / ".local" / "share"
    return base / "pungchow" / DB_FILE


@dataclass(frozen=True)
class StoredSet:
    """One set as the file keeps it: its description, a calibration's prototypes (npz bytes) if any, and its examples
    (row ids in the order learnt, as ``examples``)."""

    name: str
    meta: dict[str, Any]
    prototypes: bytes | None
    examples: Examples
    ids: tuple[int, ...]
    changes: int


def _f32(a: np.ndarray) -> bytes:
    """Embeddings as kept: float32 (float16 would halve the bytes, but numpy widens it again 50 times slower)."""
    return np.ascontiguousarray(a, np.float32).tobytes()


def _grey_bytes(a: np.ndarray) -> bytes:
    return np.ascontiguousarray(np.clip(np.rint(a), 0, 255), np.uint8).tobytes()


@contextmanager
def transaction(db: sqlite3.Connection, immediate: bool) -> Iterator[sqlite3.Connection]:
    """One transaction on a connection opened with ``isolation_level=None``: committed when the block ends, rolled back
    when it raises; ``immediate`` takes the write lock before the first read. The sets and the hands share it."""
    db.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")
    try:
        yield db
    except BaseException:
        db.rollback()
        raise
    db.commit()


class SetStore:
    """The sets in one history file; one connection per call, each change one transaction."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @contextmanager
    def _connect(self, write: bool = False) -> Iterator[sqlite3.Connection]:
        """One transaction; the tables are made on the first write. Any failure is a TileSetError saying what to do."""
        what = f"the history file {self.path}"
        if not write and not self.path.is_file():
            db = sqlite3.connect(":memory:", isolation_level=None)  # nothing kept yet: an empty store, no file made
        else:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            except (OSError, sqlite3.Error) as exc:
                raise TileSetError(f"cannot open {what} that keeps your tile sets ({exc}); check the folder exists and is "
                                   "writable, or give another file with $PUNGCHOW_DB") from None
        try:
            db.execute("PRAGMA foreign_keys = ON")
            if write:
                version = int(db.execute("PRAGMA user_version").fetchone()[0])
                if version > STORE_VERSION:
                    raise TileSetError(f"{what} was written by a newer Pung Chow (version {version}); upgrade pungchow to "
                                       "change its tile sets")
                db.executescript(_SCHEMA)
                if version < STORE_VERSION:
                    db.execute(f"PRAGMA user_version = {STORE_VERSION}")
            with transaction(db, immediate=write):
                yield db
        except sqlite3.Error as exc:
            raise TileSetError(f"{what} could not be read or written ({exc}); nothing was changed: free some disk space or "
                               "close other programs using it, then try again") from None
        finally:
            db.close()

    @staticmethod
    def _has_tables(db: sqlite3.Connection) -> bool:
        return db.execute("SELECT 1 FROM sqlite_master WHERE name = 'tileset_examples'").fetchone() is not None

    def names(self) -> list[str]:
        with self._connect() as db:
            if not self._has_tables(db):
                return []
            return sorted(str(r[0]) for r in db.execute("SELECT name FROM tilesets"))

    def folders_taken_in(self) -> dict[str, str]:
        """The folders of ``$PUNGCHOW_HOME/tilesets`` already read in (or left out, and why), by name."""
        with self._connect() as db:
            if not self._has_tables(db):
                return {}
            return {str(n): str(t) for n, t in db.execute("SELECT name, taken_in FROM tileset_folders")}

    def changes(self, name: str) -> int | None:
        """How often the set changed (None: no such set here)."""
        with self._connect() as db:
            if not self._has_tables(db):
                return None
            row = db.execute("SELECT changes FROM tilesets WHERE name = ?", (name,)).fetchone()
        return None if row is None else int(row[0])

    def read(self, name: str, embedder: str) -> tuple[StoredSet, list[int]] | None:
        """The set ``name`` (None if not here), and the ids of its examples embedded by another classifier than
        ``embedder`` (to embed again). A row that does not hold together is a TileSetError naming the set."""
        from recognizer.examples import Examples

        with self._connect() as db:
            if not self._has_tables(db):
                return None
            row = db.execute("SELECT meta, prototypes, changes FROM tilesets WHERE name = ?", (name,)).fetchone()
            if row is None:
                return None
            rows = db.execute("SELECT id, code, source, embedded_by, embedding, turned, face, face_h, face_w FROM tileset_examples "
                              "WHERE tileset = ? ORDER BY id", (name,)).fetchall()
        again = f"remove it (pungchow tileset remove {name}) and import it again from a file you exported"
        try:
            meta = json.loads(row[0])
            if not isinstance(meta, dict):
                raise ValueError("its description is no JSON object")
            ids = tuple(int(r[0]) for r in rows)
            stale = [int(r[0]) for r in rows if r[3] != embedder]
            if rows:
                shape = (int(rows[0][7]), int(rows[0][8]))
                emb = np.frombuffer(b"".join(r[4] for r in rows), np.float32).reshape(len(rows), -1)
                turned = np.frombuffer(b"".join(r[5] for r in rows), np.float32).reshape(len(rows), -1)
                faces = np.frombuffer(b"".join(r[6] for r in rows), np.uint8).reshape(len(rows), *shape).astype(np.float32)
            else:
                emb = turned = np.zeros((0, 0), np.float32)
                faces = None
            examples = Examples.stored(tuple(str(r[1]) for r in rows), tuple(str(r[2]) for r in rows), emb, turned, faces,
                                       self.crop_reader(name, ids))
        except (ValueError, TypeError, json.JSONDecodeError) as exc:
            raise TileSetError(f"tile set {name!r} in {self.path} is damaged ({type(exc).__name__}: {str(exc)[:80]}); {again}") from None
        prototypes = None if row[1] is None else bytes(row[1])
        return StoredSet(name, meta, prototypes, examples, ids, int(row[2])), stale

    def crop_reader(self, name: str, ids: tuple[int, ...]) -> Callable[[], np.ndarray]:
        """What reads the crops of examples ``ids`` when they are first needed."""
        return lambda: self.crops(name, ids)

    def crops(self, name: str, ids: Sequence[int]) -> np.ndarray:
        """The crops of examples ``ids`` of set ``name``, in that order."""
        with self._connect() as db:
            got = {int(r[0]): (int(r[1]), int(r[2]), bytes(r[3])) for r in db.execute(
                "SELECT c.id, height, width, crop FROM tileset_crops c JOIN tileset_examples e ON e.id = c.id WHERE e.tileset = ?",
                (name,))}
        missing = [i for i in ids if i not in got]
        if missing:
            raise TileSetError(f"tile set {name!r} changed while it was open (example {missing[0]} is gone); open it again")
        if not ids:
            return np.zeros((0, 0, 0, 3), np.uint8)
        try:
            return np.stack([np.frombuffer(got[i][2], np.uint8).reshape(got[i][0], got[i][1], 3) for i in ids])
        except ValueError as exc:
            raise TileSetError(f"tile set {name!r} in {self.path} holds a damaged crop ({exc}); remove it (pungchow tileset "
                               f"remove {name}) and import it again from a file you exported") from None

    def create(self, name: str, meta: Mapping[str, Any], prototypes: bytes | None, examples: Examples, embedder: str,
               replace: bool = False) -> None:
        """A new set (or, with ``replace``, one whose description and calibration are replaced, its examples by
        ``examples``): never over a set of that name unless ``replace``."""
        with self._connect(write=True) as db:
            there = db.execute("SELECT 1 FROM tilesets WHERE name = ?", (name,)).fetchone() is not None
            if there and not replace:
                raise TileSetError(f"there is already a tile set {name!r}; choose another name, so that neither set is overwritten")
            if there:
                db.execute("DELETE FROM tileset_examples WHERE tileset = ?", (name,))
                db.execute("UPDATE tilesets SET meta = ?, prototypes = ?, changes = changes + 1 WHERE name = ?",
                           (json.dumps(dict(meta)), prototypes, name))
            else:
                db.execute("INSERT INTO tilesets (name, meta, prototypes) VALUES (?, ?, ?)", (name, json.dumps(dict(meta)), prototypes))
            _insert(db, name, examples, embedder)

    def append(self, name: str, examples: Examples, embedder: str) -> int:
        """Examples added to the set: rows added, nothing rewritten. Returns the set's count of changes after."""
        with self._connect(write=True) as db:
            if db.execute("UPDATE tilesets SET changes = changes + 1 WHERE name = ?", (name,)).rowcount == 0:
                raise TileSetError(f"there is no tile set {name!r} of yours; the page lists the sets you have")
            _insert(db, name, examples, embedder)
            return int(db.execute("SELECT changes FROM tilesets WHERE name = ?", (name,)).fetchone()[0])

    def forget(self, name: str, ids: Sequence[int]) -> None:
        with self._connect(write=True) as db:
            db.executemany("DELETE FROM tileset_examples WHERE tileset = ? AND id = ?", [(name, i) for i in ids])
            db.execute("UPDATE tilesets SET changes = changes + 1 WHERE name = ?", (name,))

    def embedded_again(self, name: str, ids: Sequence[int], emb: np.ndarray, turned: np.ndarray, embedder: str) -> None:
        """Examples ``ids`` embedded again by the classifier ``embedder`` (the reader changed)."""
        with self._connect(write=True) as db:
            db.executemany("UPDATE tileset_examples SET embedding = ?, turned = ?, embedded_by = ? WHERE tileset = ? AND id = ?",
                           [(_f32(e), _f32(t), embedder, name, i) for i, e, t in zip(ids, emb, turned)])

    def remove(self, name: str) -> bool:
        """The set and its examples gone from the file; False if there was none."""
        with self._connect(write=True) as db:
            return db.execute("DELETE FROM tilesets WHERE name = ?", (name,)).rowcount > 0

    def rename(self, name: str, new_name: str) -> None:
        with self._connect(write=True) as db:
            if db.execute("SELECT 1 FROM tilesets WHERE name = ?", (new_name,)).fetchone():
                raise TileSetError(f"there is already a tile set {new_name!r}; choose another name")
            meta = json.loads(db.execute("SELECT meta FROM tilesets WHERE name = ?", (name,)).fetchone()[0])
            db.execute("UPDATE tilesets SET name = ?, meta = ?, changes = changes + 1 WHERE name = ?",
                       (new_name, json.dumps({**meta, "name": new_name}), name))

    def take_in(self, name: str, what: str, stored: tuple[Mapping[str, Any], bytes | None, Examples] | None,
                embedder: str) -> None:
        """Note a folder of ``$PUNGCHOW_HOME/tilesets`` as read in (``stored`` gives its set) or left out (``what`` says
        why), in one transaction: a set of that name already here is never overwritten."""
        with self._connect(write=True) as db:
            if db.execute("SELECT 1 FROM tileset_folders WHERE name = ?", (name,)).fetchone():
                return
            if stored is not None and not db.execute("SELECT 1 FROM tilesets WHERE name = ?", (name,)).fetchone():
                meta, prototypes, examples = stored
                db.execute("INSERT INTO tilesets (name, meta, prototypes) VALUES (?, ?, ?)", (name, json.dumps(dict(meta)), prototypes))
                _insert(db, name, examples, embedder)
            db.execute("INSERT INTO tileset_folders (name, taken_in) VALUES (?, ?)", (name, what))


def _insert(db: sqlite3.Connection, name: str, examples: Examples, embedder: str) -> None:
    """Each example a row, its crop a row of its own (read only when shown, embedded again or exported)."""
    faces = examples.grey_faces
    for k in range(len(examples)):
        cur = db.execute("INSERT INTO tileset_examples (tileset, code, source, embedded_by, embedding, turned, face, face_h, face_w) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         (name, examples.codes[k], examples.sources[k], embedder, _f32(examples.embeddings[k]),
                          _f32(examples.turned[k]), _grey_bytes(faces[k]), faces.shape[1], faces.shape[2]))
        crop = examples.crops[k]
        db.execute("INSERT INTO tileset_crops (id, height, width, crop) VALUES (?, ?, ?, ?)",
                   (cur.lastrowid, crop.shape[0], crop.shape[1], np.ascontiguousarray(crop, np.uint8).tobytes()))
