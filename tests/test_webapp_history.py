"""The history store: games, hands as dispute records, settlements, and their exports."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from webapp.history import History, HistoryError, default_db_path
from webapp.review import Correction

from history_helpers import ANN, scored
from settle_helpers import from_nets

PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def save_one(store: History, game_id: int, **extra: object) -> int:
    return store.save_hand(
        game_id, deal=1, player="Ann", hand=ANN, rule_set="harr-1922", rule_version="1",
        options={"limit": None}, score=scored(),
        corrections=[Correction("replace", {"tile": 6, "was": "NW", "now": "SW"})], **extra,  # type: ignore[arg-type]
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
    assert again.player == "Ann" and again.total == 22 and again.arrangement == "[2D2D2D]* [5C6C7C] (6C7C8C) (7C8C9C) (SWSW)"
    assert again.hand == ANN and again.score is not None and again.score.total == 22, "the hand and its score come back typed"
    assert again.corrections == (Correction("replace", {"tile": 6, "was": "NW", "now": "SW"}),), "the corrections come back typed"
    assert again.recognised == {"tiles": ["NW"]}
    assert again.thumbnail == b"\xff\xd8jpeg" and again.photo_sha256 == "ab" * 32
    assert (again.rule_set, again.rule_version, again.options) == ("harr-1922", "1", {"limit": None})
    assert store.next_deal(game.id) == 2


def test_exports(tmp_path: Path) -> None:
    store = History(tmp_path / "h.sqlite3")
    game = store.new_game("", PLAYERS)
    save_one(store, game.id)
    store.save_settlement(game.id, deal=1, settlement=from_nets({"Ann": 66, "Bo": -22, "Cy": -22, "Di": -22}), rule_set="harr-1922",
                          rule_version="1", east="Ann")
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


def settle_deal(store: History, game_id: int, net: dict[str, int]) -> int:
    """A whole deal kept as the *Settle the table* page keeps it: the four hands and who paid whom."""
    from webapp.history import HandToKeep

    hands = [HandToKeep(p, ANN, "harr-1922", "1", {}, scored()) for p in PLAYERS]
    return store.save_deal(game_id, hands, settlement=from_nets(net), rule_set="harr-1922", rule_version="1", east="Ann")


def test_the_same_hand_saved_twice_is_one_record(tmp_path: Path) -> None:
    """A double tap on *Save* (or a second phone saving the same review) keeps the hand once."""
    store = History(tmp_path / "h.sqlite3")
    game = store.new_game("Friday", PLAYERS)
    first = save_one(store, game.id, save_key="review-7")
    again = save_one(store, game.id, save_key="review-7")
    assert again == first
    assert len(store.hands(game.id)) == 1
    assert save_one(store, game.id, save_key="review-8") != first, "another hand put up for review is another record"


def test_a_file_from_before_saving_was_idempotent_takes_the_mark(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.sqlite3"
    History(path)
    with sqlite3.connect(path) as db:  # the hands table as the first version wrote it
        db.execute("ALTER TABLE hands DROP COLUMN save_key")
    store = History(path)
    game = store.new_game("Friday", PLAYERS)
    assert save_one(store, game.id, save_key="k") == save_one(store, game.id, save_key="k")


def test_a_phone_opening_the_page_joins_the_latest_game(tmp_path: Path) -> None:
    store = History(tmp_path / "h.sqlite3")
    assert store.latest_game() is None
    store.new_game("Thursday", ["W", "X", "Y", "Z"])
    friday = store.new_game("Friday", PLAYERS)
    latest = History(tmp_path / "h.sqlite3").latest_game()
    assert latest is not None and (latest.id, latest.players) == (friday.id, tuple(PLAYERS))


def test_the_score_sheet_runs_over_the_deals_and_the_last_deal_can_be_undone(tmp_path: Path) -> None:
    store = History(tmp_path / "h.sqlite3")
    game = store.new_game("Friday", PLAYERS)
    settle_deal(store, game.id, {"Ann": 48, "Bo": -16, "Cy": -16, "Di": -16})
    settle_deal(store, game.id, {"Ann": -8, "Bo": 24, "Cy": -8, "Di": -8})
    settle_deal(store, game.id, {"Ann": -30, "Bo": -30, "Cy": 90, "Di": -30})
    sheet = store.score_sheet(game.id)
    assert [dict(line.running) for line in sheet.lines][-1] == {"Ann": 10, "Bo": -22, "Cy": 66, "Di": -54}
    assert store.undo_last_deal(game.id) == 3
    assert dict(store.score_sheet(game.id).totals) == {"Ann": 40, "Bo": 8, "Cy": -24, "Di": -24}
    assert {h.deal for h in store.hands(game.id)} == {1, 2}, "the undone deal's hands go with it"
    assert store.next_deal(game.id) == 3


def test_undo_with_nothing_played_undoes_nothing(tmp_path: Path) -> None:
    store = History(tmp_path / "h.sqlite3")
    game = store.new_game("Friday", PLAYERS)
    assert store.undo_last_deal(game.id) is None


def test_the_exports_carry_the_running_score_and_the_settle_up(tmp_path: Path) -> None:
    store = History(tmp_path / "h.sqlite3")
    game = store.new_game("Friday", PLAYERS)
    settle_deal(store, game.id, {"Ann": 48, "Bo": -16, "Cy": -16, "Di": -16})
    settle_deal(store, game.id, {"Ann": -8, "Bo": 24, "Cy": -8, "Di": -8})
    rows = list(csv.DictReader(io.StringIO(store.export_csv(game.id))))
    assert [(r["deal"], r["player"], r["running_total"]) for r in rows if r["player"] == "Bo"] == [
        ("1", "Bo", "-16"), ("2", "Bo", "8"), ("total", "Bo", "8")]
    sheet = json.loads(store.export_json(game.id))["score_sheet"]
    assert sheet["totals"] == {"Ann": 40, "Bo": 8, "Cy": -24, "Di": -24}
    left = dict(sheet["totals"])
    for t in sheet["settle_up"]:
        left[t["from"]] += t["amount"]
        left[t["to"]] -= t["amount"]
    assert left == dict.fromkeys(PLAYERS, 0) and len(sheet["settle_up"]) == 3


def test_a_deal_saved_twice_is_one_deal(tmp_path: Path) -> None:
    from webapp.history import HandToKeep

    store = History(tmp_path / "h.sqlite3")
    game = store.new_game("Friday", PLAYERS)
    hands = [HandToKeep(p, ANN, "harr-1922", "1", {}, scored()) for p in PLAYERS]
    net = {"Ann": 6, "Bo": -2, "Cy": -2, "Di": -2}
    first = store.save_deal(game.id, hands, settlement=from_nets(net), rule_set="harr-1922", rule_version="1", save_key="deal-a")
    again = store.save_deal(game.id, hands, settlement=from_nets(net), rule_set="harr-1922", rule_version="1", save_key="deal-a")
    assert first == again == 1
    assert len(store.hands(game.id)) == 4 and len(store.settlements(game.id)) == 1


def test_a_double_tap_on_undo_takes_back_one_deal(tmp_path: Path) -> None:
    store = History(tmp_path / "h.sqlite3")
    game = store.new_game("Friday", PLAYERS)
    settle_deal(store, game.id, {"Ann": 48, "Bo": -16, "Cy": -16, "Di": -16})
    settle_deal(store, game.id, {"Ann": -8, "Bo": 24, "Cy": -8, "Di": -8})
    assert store.undo_last_deal(game.id, 2) == 2
    assert store.undo_last_deal(game.id, 2) is None
    assert [line.deal for line in store.score_sheet(game.id).lines] == [1]
