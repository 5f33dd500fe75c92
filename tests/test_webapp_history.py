"""The history store: games, hands as dispute records, settlements, and their exports."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from webapp.history import History, HistoryError, default_db_path

PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def save_one(store: History, game_id: int, **extra: object) -> int:
    return store.save_hand(
        game_id, deal=1, player="Ann", hand={"concealed": ["1B"]}, notation="1B", rule_set="harr-1922", rule_version="1",
        options={"limit": None}, score={"total": 22, "arrangement": "[2D2D2D]*", "lines": []},
        corrections=[{"action": "replace", "tile": 6, "was": "NW", "now": "SW"}], **extra,  # type: ignore[arg-type]
    )


def test_default_path_follows_the_environment(tmp_path: Path) -> None:
    assert default_db_path({"PUNGCHOW_DB": str(tmp_path / "x.db")}) == tmp_path / "x.db"
    assert default_db_path({"PUNGCHOW_HOME": str(tmp_path)}) == tmp_path / "history.sqlite3"
    assert default_db_path({"XDG_DATA_HOME": str(tmp_path)}) == tmp_path / "pungchow" / "history.sqlite3"
    assert default_db_path({}).parts[-3:] == ("share", "pungchow", "history.sqlite3")


def test_a_hand_is_kept_with_everything_a_dispute_needs(tmp_path: Path) -> None:
    store = History(tmp_path / "sub" / "h.sqlite3")
    game = store.new_game("Friday", PLAYERS)
    hand_id = save_one(store, game.id, recognised={"tiles": ["NW"]}, photo_name="p.jpg", photo_sha256="ab" * 32, thumbnail=b"\xff\xd8jpeg")
    again = History(tmp_path / "sub" / "h.sqlite3").hand(hand_id)
    assert again.player == "Ann" and again.total == 22 and again.arrangement == "[2D2D2D]*"
    assert again.corrections[0]["was"] == "NW"
    assert again.recognised == {"tiles": ["NW"]}
    assert again.thumbnail == b"\xff\xd8jpeg" and again.photo_sha256 == "ab" * 32
    assert (again.rule_set, again.rule_version, again.options) == ("harr-1922", "1", {"limit": None})
    assert store.next_deal(game.id) == 2


def test_exports(tmp_path: Path) -> None:
    store = History(tmp_path / "h.sqlite3")
    game = store.new_game("", PLAYERS)
    save_one(store, game.id)
    store.save_settlement(game.id, deal=1, settlement={"net": {"Ann": 66, "Bo": -22}}, rule_set="harr-1922", rule_version="1", east="Ann")
    data = json.loads(store.export_json(game.id))
    assert data["schema"] == "pungchow/game-export"
    assert data["game"]["players"] == PLAYERS
    assert data["hands"][0]["corrections"][0]["now"] == "SW"
    assert data["settlements"][0]["settlement"]["net"]["Ann"] == 66
    rows = list(csv.DictReader(io.StringIO(store.export_csv(game.id))))
    assert rows[0]["player"] == "Ann" and rows[0]["total"] == "22" and rows[0]["net_payment"] == "66"


def test_bad_games_and_files_are_user_errors(tmp_path: Path) -> None:
    store = History(tmp_path / "h.sqlite3")
    with pytest.raises(HistoryError):
        store.new_game("x", ["Ann", "Ann", "Bo", "Cy"])
    with pytest.raises(HistoryError):
        store.hand(42)
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(HistoryError):
        History(blocker / "h.sqlite3")


def test_a_file_that_is_not_a_database_is_a_user_error(tmp_path: Path) -> None:
    bogus = tmp_path / "h.sqlite3"
    bogus.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(HistoryError, match="history file"):
        History(bogus)
