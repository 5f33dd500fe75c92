"""The player's learnt sets are kept in their history file with their hands: they survive a restart, sets kept as
folders before are read in once (their files left, never over a set of the same name), and a damaged row or a full
disk is one line that loses nothing."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from pungchow.cli import main as cli_main
from recognizer.classify import crops_of
from recognizer.errors import TileSetError
from recognizer.examples import Examples
from recognizer.image import load_photo
from recognizer.tileset import (
    add_examples,
    builtin_tileset_dir,
    forget_examples,
    learnt_examples,
    list_tilesets,
    load_tileset,
    own_tilesets,
    read_all_tilesets,
)
from webapp.history import History

from history_helpers import ANN

ROOT = Path(__file__).resolve().parents[1]
PHOTO = builtin_tileset_dir() / "pungchow-1922" / "source" / "illustration_1.jpg"


def tiles_of_harrs_photo(*codes: str) -> Examples:
    """Examples cut from Harr's first photo, one per code (where they are cut matters not to how they are kept)."""
    rgb = load_photo(PHOTO)
    boxes = np.array([[40 + 60 * k, 40, 50, 70] for k in range(len(codes))], np.float32)
    return Examples.of_crops(crops_of(rgb, boxes), list(codes), "corrected:illustration_1.jpg")


def history_file() -> Path:
    return Path(os.environ["PUNGCHOW_HOME"]) / "history.sqlite3"


def test_a_learnt_set_is_kept_in_the_history_file_with_the_hands() -> None:
    """The set and a game's hand share one file; the history reads it as its own, and the set reads after a restart."""
    add_examples("kitchen-set", tiles_of_harrs_photo("1B", "2B"))
    history = History(history_file())
    game = history.new_game("Friday", ["Ann", "Bob", "Cy", "Di"])
    history.save_hand(game.id, player="Ann", hand=ANN, rule_set="harr-1922", rule_version="1", options={}, score=None)
    restarted = subprocess.run([sys.executable, "-c", "from recognizer.tileset import learnt_examples; "
                                "print(learnt_examples('kitchen-set').codes)"], capture_output=True, text=True, check=True,
                               env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "datasets")])})
    assert restarted.stdout.strip() == "('1B', '2B')"
    assert [h.player for h in History(history_file()).hands(game.id)] == ["Ann"]
    with sqlite3.connect(history_file()) as db:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"hands", "tilesets", "tileset_examples"} <= tables
    assert not (Path(os.environ["PUNGCHOW_HOME"]) / "tilesets").exists()  # no folder of files beside it


def test_a_correction_adds_rows_and_rewrites_none() -> None:
    """Learning more adds the new examples; those kept before keep their rows, untouched."""
    add_examples("growing", tiles_of_harrs_photo("1B", "2B"))
    with sqlite3.connect(history_file()) as db:
        before = db.execute("SELECT id, embedding, face FROM tileset_examples ORDER BY id").fetchall()
    add_examples("growing", tiles_of_harrs_photo("3B"))
    with sqlite3.connect(history_file()) as db:
        after = db.execute("SELECT id, embedding, face FROM tileset_examples ORDER BY id").fetchall()
    assert after[:2] == before and len(after) == 3
    assert learnt_examples("growing").codes == ("1B", "2B", "3B")


def test_an_older_history_file_takes_the_sets_and_keeps_its_hands() -> None:
    """A history file of version 1 (hands only) takes a set and is marked version 2, so an older Pung Chow opens it
    read-only rather than taking the sets' tables for another program's; its hands read as before."""
    history = History(history_file())
    game = history.new_game("Old", ["Ann", "Bob", "Cy", "Di"])
    with sqlite3.connect(history_file()) as db:
        db.execute("PRAGMA user_version = 1")
    add_examples("later-set", tiles_of_harrs_photo("1B"))
    with sqlite3.connect(history_file()) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 2
    assert History(history_file()).game(game.id).title == "Old"


def folder_set(name: str, *codes: str) -> Path:
    """A set kept the way sets were kept before the history file held them: a folder of files in $PUNGCHOW_HOME."""
    base = Path(os.environ["PUNGCHOW_HOME"]) / "tilesets"
    return add_examples(name, tiles_of_harrs_photo(*codes), out_dir=base)[1]


def digests(folder: Path) -> dict[str, str]:
    return {f.name: hashlib.sha256(f.read_bytes()).hexdigest() for f in sorted(folder.iterdir())}


def test_a_set_kept_as_a_folder_is_read_in_once_and_its_files_left() -> None:
    folder = folder_set("grandma-bone", "1B", "2B", "3B")
    files = digests(folder)
    assert own_tilesets() == ["grandma-bone"]
    assert learnt_examples("grandma-bone").codes == ("1B", "2B", "3B")
    with sqlite3.connect(history_file()) as db:
        assert db.execute("SELECT count(*) FROM tileset_examples WHERE tileset = 'grandma-bone'").fetchone()[0] == 3
    forget_examples("grandma-bone", [2])  # forgotten in the file ...
    assert learnt_examples("grandma-bone").codes == ("1B", "2B")  # ... and not read in again from the folder
    assert digests(folder) == files


def test_a_folder_never_overwrites_a_set_of_its_name() -> None:
    """A set kept in the file and a folder of the same name: the file's set stays as it is, the folder as it is."""
    add_examples("twin", tiles_of_harrs_photo("1B"))
    folder = folder_set("twin", "2B", "3B")
    files = digests(folder)
    assert learnt_examples("twin").codes == ("1B",)
    assert list_tilesets().count("twin") == 1
    assert digests(folder) == files


def test_a_damaged_set_in_the_file_is_one_line_and_the_others_read() -> None:
    add_examples("good-set", tiles_of_harrs_photo("1B"))
    add_examples("bad-set", tiles_of_harrs_photo("2B"))
    with sqlite3.connect(history_file()) as db:
        db.execute("UPDATE tilesets SET meta = '{not json' WHERE name = 'bad-set'")
        db.execute("UPDATE tileset_examples SET face = x'00' WHERE tileset = 'bad-set'")
        db.execute("UPDATE tilesets SET changes = changes + 1")  # as any change made by Pung Chow counts
    with pytest.raises(TileSetError, match=r"tile set 'bad-set' in .* is damaged .*; remove it .* and import it again") as err:
        load_tileset("bad-set")
    assert "\n" not in str(err.value)
    sets, damaged = read_all_tilesets()
    assert "good-set" in sets and "bad-set" not in sets and any("'bad-set'" in d for d in damaged)
    assert cli_main(["tileset", "remove", "bad-set"]) == 0
    assert own_tilesets() == ["good-set"]


def test_a_full_disk_while_learning_is_one_line_and_loses_nothing(tmp_path: Path) -> None:
    """The file may not grow (a full disk: the process's file size limit): `tileset learn` says so in one line, exit 2,
    and the set holds what it held."""
    add_examples("full-disk", tiles_of_harrs_photo("1B"))
    corrected = tmp_path / "c.json"
    corrected.write_text('{"tiles": [{"box": [40, 40, 50, 70], "code": "2B"}, {"box": [100, 40, 50, 70], "code": "3B"}]}')
    size = history_file().stat().st_size
    script = textwrap.dedent(f"""
        import resource, signal, sys
        from pungchow.cli import main
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, ({size}, {size}))
        sys.exit(main(["tileset", "learn", "full-disk", {str(PHOTO)!r}, "--corrected", {str(corrected)!r}]))
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "datasets")])})
    assert run.returncode == 2, run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and "free some disk space" in run.stderr
    assert learnt_examples("full-disk").codes == ("1B",)
