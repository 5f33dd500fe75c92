"""Bad input the corpus (``tests/badinput/cases.txt``) cannot hold: a save killed midway, a disk that fills while a
file is replaced, a damaged history row, a name with a newline, the page meeting a damaged tile set.

Each failed on the code before issue 37: the history refused to open until something opened it read-write,
``--overlay OLD.png --force`` on a full disk left OLD.png empty, a text deal number crashed the next save.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pungchow.cli import main
from recognizer.errors import TileSetError
from recognizer.tileset import check_layout, check_name
from scoring.tiles import PLAYING_CODES
from webapp.history import History

from history_helpers import ANN

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "recognizer" / "samples" / "finished-hand.jpg"
PLAYERS = ["Ann", "Bob", "Cy", "Di"]
#: How many bytes a child may write to any one file before the "disk" is full (RLIMIT_FSIZE).
FULL_AFTER = 20_000


def _run(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "datasets")])}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], capture_output=True, text=True, env=env,
                          timeout=300, check=False)


def _killed_during_a_save(path: Path) -> None:
    """A process that dies by SIGKILL halfway through a save: its pages already spilled into the file, its journal hot."""
    done = _run("""
        import os, signal, sqlite3, sys
        db = sqlite3.connect(sys.argv[1], isolation_level=None)
        db.execute("PRAGMA cache_size = 1")
        db.execute("BEGIN IMMEDIATE")
        for _ in range(200):
            db.execute("INSERT INTO games (title, players, created_at) VALUES (?, '[]', '')", ("x" * 4000,))
        os.kill(os.getpid(), signal.SIGKILL)
    """, str(path))
    assert done.returncode == -9
    assert path.with_name(path.name + "-journal").stat().st_size > 0


def test_a_history_killed_during_a_save_opens_again_with_every_acknowledged_game(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    store = History(path)
    kept = store.new_game("before the kill", PLAYERS)
    _killed_during_a_save(path)
    reopened = History(path)
    assert [g.title for g in reopened.games()] == [kept.title]
    assert reopened.new_game("after the kill", PLAYERS).id > kept.id


def test_a_history_row_whose_deal_is_text_is_marked_and_the_next_deal_still_saves(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    store = History(path)
    game = store.new_game("g", PLAYERS)
    store.save_hand(game.id, player="Ann", hand=ANN, rule_set="harr-1922", rule_version="1", options={}, score=None)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE hands SET deal = 'second'")
    assert store.next_deal(game.id) == 1
    store.save_hand(game.id, player="Bob", hand=ANN, rule_set="harr-1922", rule_version="1", options={}, score=None)
    damaged = [h for h in store.hands(game.id) if h.damaged]
    assert [(h.player, h.deal, h.damaged) for h in damaged] == [("Ann", 0, ("deal",))]
    assert ",0,Ann," in store.export_csv(game.id)


def test_an_overlay_replaced_with_force_on_a_full_disk_keeps_the_old_file(tmp_path: Path) -> None:
    old = tmp_path / "old.png"
    shutil.copy(SAMPLE, tmp_path / "photo.jpg")
    old.write_bytes(b"the overlay drawn yesterday")
    done = _run(f"""
        import resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, ({FULL_AFTER}, {FULL_AFTER}))
        from pungchow.cli import main
        sys.exit(main(["recognize", sys.argv[1], "--overlay", sys.argv[2], "--force"]))
    """, str(tmp_path / "photo.jpg"), str(old))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert "cannot write the image" in done.stderr and "unchanged" in done.stderr
    assert old.read_bytes() == b"the overlay drawn yesterday"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.png", "photo.jpg"], "a half-written file was left behind"


def test_a_contact_sheet_on_a_full_disk_is_one_message_and_leaves_no_part_file(tmp_path: Path) -> None:
    sample = ROOT / "tests" / "fixtures" / "data" / "synth-sample"
    done = _run(f"""
        import resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, ({FULL_AFTER}, {FULL_AFTER}))
        from pungchow.cli import main
        sys.exit(main(["data", "contact-sheet", sys.argv[1], sys.argv[2]]))
    """, str(sample), str(tmp_path / "sheet.png"))
    assert done.returncode == 2 and "cannot write the image" in done.stderr, done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["mine\n", "mine\r", "mine\x1b[2J", "\nmine", "mine/..", "..", ""])
def test_a_tile_set_name_is_one_folder_name_with_nothing_after_it(name: str) -> None:
    with pytest.raises(TileSetError, match="tile set name"):
        check_name(name)


def test_tileset_add_with_a_newline_in_the_name_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    layout = ROOT / "tests" / "badinput" / "files" / "layout-nine.json"
    assert main(["tileset", "add", "mine\n", str(SAMPLE), "--layout", str(layout), "--into", str(tmp_path)]) == 2
    assert "tile set name 'mine\\n'" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_the_page_reads_a_photo_beside_a_damaged_tile_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's reading and its offer of a better set go on when one set of the folder is damaged."""
    from webapp.photos import read_photo
    from webapp.recognition import known_tilesets, load_reader, read_tiles, tileset_offer

    good = ROOT / "models" / "tilesets" / "pungchow-1922"
    folder = tmp_path / "tilesets" / "broken"
    shutil.copytree(good, folder)
    (folder / "tileset.json").write_text(json.dumps({**json.loads((good / "tileset.json").read_text()), "looks_like": "high"}))
    monkeypatch.setenv("PUNGCHOW_HOME", str(tmp_path))
    reader = load_reader()
    photo = read_photo(SAMPLE.read_bytes(), "hand.jpg")
    assert "broken" in known_tilesets()
    assert read_tiles(reader, photo).tiles
    assert tileset_offer(reader, photo) is None


def test_checking_a_long_layout_is_quick_and_names_the_count() -> None:
    """A layout of 20,007 codes was checked with ``list.count`` per code (a 1.2 MB layout ran over 600 s of CPU)."""
    rows = [list(PLAYING_CODES[:9])] * 2223
    started = time.process_time()
    with pytest.raises(TileSetError, match="lists 20,007 tiles"):
        check_layout(rows)
    assert time.process_time() - started < 0.5


def test_tileset_add_on_a_full_disk_is_one_message_and_keeps_the_set_it_replaces(tmp_path: Path) -> None:
    """Calibrating a set again with --replace when the disk fills: the old set's files stay whole, no part is left."""
    source = ROOT / "models" / "tilesets" / "pungchow-1922" / "source"
    old = tmp_path / "sets" / "mine"
    shutil.copytree(ROOT / "models" / "tilesets" / "pungchow-1922", old, ignore=shutil.ignore_patterns("source"))
    before = {p.name: p.read_bytes() for p in old.iterdir()}
    done = _run(f"""
        import resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, ({FULL_AFTER}, {FULL_AFTER}))
        from pungchow.cli import main
        sys.exit(main(["tileset", "add", "mine", sys.argv[1], "--layout", sys.argv[2], "--into", sys.argv[3], "--replace"]))
    """, str(source / "illustration_1.jpg"), str(source / "layout.json"), str(tmp_path / "sets"))
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "cannot save tile set 'mine'" in done.stderr
    assert {p.name: p.read_bytes() for p in old.iterdir()} == before
    assert sorted(p.name for p in (tmp_path / "sets").iterdir()) == ["mine"]
