"""The page under hostile input (AppTest): names that are markdown, a history it must not write,
damaged rows, a winning tile that is not in the hand, a notation a page long, a photo too wide."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from scoring.api import ScoreResult
from webapp.history import SCHEMA_VERSION, History

from history_helpers import ANN, scored
from settle_helpers import from_nets

APP = str(Path(__file__).resolve().parents[1] / "webapp" / "app.py")
EVIL = "Ann![p](http://127.0.0.1:8611/p.png)"


def started(db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("PUNGCHOW_DB", str(db))
    at = AppTest.from_file(APP, default_timeout=90)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def shown_markdown(at: AppTest) -> list[str]:
    """Every piece of markdown the page asked Streamlit to render (text, notices, expander labels)."""
    texts = [m.value for m in at.markdown] + [s.value for s in at.success] + [w.value for w in at.warning]
    texts += [e.label for e in at.expander] + [c.value for c in at.caption]
    for table in at.table:
        texts += [str(v) for v in table.value.to_numpy().ravel()] + [str(c) for c in table.value.columns]
    return texts


def scored_with_a_line(description: str) -> ScoreResult:
    """Ann's score with its first line's description replaced: text the history shows back on the page."""
    result = scored()
    return replace(result, best=replace(result.best, lines=(replace(result.best.lines[0], description=description),)))


def test_player_names_and_titles_never_render_as_markdown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "h.sqlite3"
    store = History(db)
    game = store.new_game(f"Friday {EVIL}", [EVIL, "Bo", "Cy", "Di"])
    store.save_hand(game.id, player=EVIL, hand=ANN, rule_set="harr-1922", rule_version="1",
                    options={}, score=scored_with_a_line(EVIL))
    store.save_settlement(game.id, deal=1, settlement=from_nets({EVIL: 2, "Bo": -2}), rule_set="harr-1922", rule_version="1", east=EVIL)
    at = started(db, monkeypatch)
    at.switch_page("views/history.py").run()
    assert not at.exception, [e.value for e in at.exception]
    texts = shown_markdown(at)
    assert any("Ann\\!\\[p\\]" in t for t in texts), texts
    assert not [t for t in texts if "](" in t or "![" in t]


def test_a_history_from_a_newer_version_is_browsed_read_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "h.sqlite3"
    History(db).new_game("future", ["Ann", "Bo", "Cy", "Di"])
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    at = started(db, monkeypatch)
    at.switch_page("views/history.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("newer" in w.value and "read-only" in w.value for w in at.warning)
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1


def test_a_damaged_history_row_is_shown_as_damaged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "h.sqlite3"
    store = History(db)
    game = store.new_game("g", ["Ann", "Bo", "Cy", "Di"])
    store.save_hand(game.id, player="Ann", hand=ANN, rule_set="harr-1922", rule_version="1", options={}, score=None)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET players = 'not json'")
        conn.execute("UPDATE hands SET hand = '{', options = '[1]'")
    at = started(db, monkeypatch)
    at.switch_page("views/history.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("damaged" in w.value for w in at.warning)


def type_hand(at: AppTest, notation: str, winning: str) -> None:
    at.text_input(key="w_notation").set_value(notation)
    at.text_input(key="w_typed_winning").set_value(winning)
    at.button(key="w_use_typed").click()
    at.run()


def test_a_typed_winning_tile_not_in_the_hand_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = started(tmp_path / "h.sqlite3", monkeypatch)
    type_hand(at, "7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]", "9B")
    assert not at.exception
    assert any("9B" in e.value and "not in the hand" in e.value for e in at.error)


def test_a_notation_a_page_long_is_refused_before_parsing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = started(tmp_path / "h.sqlite3", monkeypatch)
    type_hand(at, "1D" * 25_000, "")
    assert not at.exception
    assert any("50,000 characters" in e.value.replace("\\", "") for e in at.error)  # as rendered: the escapes gone


def test_a_photo_too_wide_is_refused_by_its_true_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = started(tmp_path / "h.sqlite3", monkeypatch)
    wide = cv2.imencode(".png", np.zeros((1000, 12500, 3), np.uint8))[1].tobytes()
    at.file_uploader(key="w_upload").set_value(("wide.png", wide, "image/png")).run()
    assert not at.exception
    assert any("12500x1000" in e.value for e in at.error), [e.value for e in at.error]


def test_a_layout_nested_100000_deep_is_refused_on_the_tile_set_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUNGCHOW_HOME", str(tmp_path / "home"))
    at = started(tmp_path / "h.sqlite3", monkeypatch)
    at.switch_page("views/tilesets.py").run()
    at.text_input(key="w_tileset_name").set_value("deep")
    photo = cv2.imencode(".jpg", np.full((480, 640, 3), (40, 110, 50), np.uint8))[1].tobytes()
    at.file_uploader(key="w_tileset_photo").set_value(("set.jpg", photo, "image/jpeg"))
    at.file_uploader(key="w_tileset_layout").set_value(("layout.json", b"[" * 100_000 + b"]" * 100_000, "application/json"))
    at.button(key="w_tileset_add").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("nested deeper than the 64 levels" in e.value for e in at.error), [e.value for e in at.error]
