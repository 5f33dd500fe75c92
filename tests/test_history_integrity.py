"""The history under stress: two writers at once, a kill -9 mid-save, files it must not change.

A deal is its number, its hands and its settlement, written in one transaction: two sessions
saving at once never share a number or replace each other's settlement, and a process killed in
the middle of a save leaves no half-saved deal behind.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from scoring.settle import Settlement
from webapp.history import SCHEMA_VERSION, HandToKeep, History, HistoryError

from history_helpers import ANN, scored
from settle_helpers import from_nets

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ["Ann", "Bo", "Cy", "Di"]
DEALS_EACH = 25
#: A deal Bo lost to Ann by one point.
ONE = from_nets({"Ann": 1, "Bo": -1})


def keep(player: str, tag: str) -> HandToKeep:
    """A hand of a deal, tagged (as its photo's name) with the save that wrote it."""
    return HandToKeep(player, ANN, "harr-1922", "1", {"limit": None}, scored(), photo_name=tag)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "datasets"), str(ROOT / "tests"), env.get("PYTHONPATH", "")])
    return env


WRITER = textwrap.dedent("""
    import sys
    from settle_helpers import from_nets
    from history_helpers import ANN, scored
    from webapp.history import History, HandToKeep
    path, game, writer, count = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    store = History(path)
    for n in range(count):
        tag = f"{writer}-{n}"
        hands = [HandToKeep(p, ANN, "harr-1922", "1", {}, scored(), photo_name=tag) for p in ("Ann", "Bo", "Cy", "Di")]
        store.save_deal(game, hands, settlement=from_nets({"Ann": 1, "Bo": -1}, source=tag), rule_set="harr-1922",
                        rule_version="1", east="Ann")
""")


def test_two_processes_saving_deals_at_once_share_no_number_and_replace_nothing(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    game = History(path).new_game("race", PLAYERS)
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(game.id), name, str(DEALS_EACH)], env=_env(),
                                stderr=subprocess.PIPE, text=True) for name in ("a", "b")]
    for w in writers:
        _, err = w.communicate(timeout=300)
        assert w.returncode == 0, err
    store = History(path)
    settlements = store.settlements(game.id)
    hands = store.hands(game.id)
    tags = sorted(tag(s.settlement) for s in settlements)
    assert tags == sorted(f"{w}-{n}" for w in "ab" for n in range(DEALS_EACH)), "a settlement was replaced or lost"
    assert sorted(s.deal for s in settlements) == list(range(1, 2 * DEALS_EACH + 1))
    by_deal: dict[int, set[str]] = {}
    for h in hands:
        by_deal.setdefault(h.deal, set()).add(h.photo_name or "")
    assert len(hands) == 4 * 2 * DEALS_EACH
    for s in settlements:
        assert by_deal[s.deal] == {tag(s.settlement)}, f"deal {s.deal} mixes two saves"


def tag(settlement: Settlement | None) -> str:
    """Which save wrote the settlement: its source says."""
    assert settlement is not None
    return settlement.table.source


KILLED_MID_SAVE = textwrap.dedent("""
    import sys, time
    from scoring.settle import Settlement
    from settle_helpers import from_nets
    from history_helpers import ANN, scored
    from webapp.history import History, HandToKeep

    class SlowSettlement(Settlement):
        # Printed inside the deal's transaction, after its hands are written: says so, then waits to be killed.
        def to_dict(self):
            print("mid-save", flush=True)
            time.sleep(120)
            return super().to_dict()

    store = History(sys.argv[1])
    hands = [HandToKeep(p, ANN, "harr-1922", "1", {}, scored(), photo_name="killed") for p in ("Ann", "Bo", "Cy", "Di")]
    net = from_nets({"Ann": 1, "Bo": -1})
    store.save_deal(int(sys.argv[2]), hands, settlement=SlowSettlement(net.table, net.payments), rule_set="harr-1922", rule_version="1")
""")


def test_a_kill_9_in_the_middle_of_saving_a_deal_leaves_no_half_saved_deal(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    store = History(path)
    game = store.new_game("kill", PLAYERS)
    store.save_deal(game.id, [keep(p, "first") for p in PLAYERS], settlement=ONE, rule_set="harr-1922", rule_version="1")
    proc = subprocess.Popen([sys.executable, "-c", KILLED_MID_SAVE, str(path), str(game.id)], env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "mid-save", proc.stderr.read() if proc.stderr else ""
        with sqlite3.connect(path, timeout=0.1) as probe:  # the hands are written, uncommitted, under the write lock
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                probe.execute("BEGIN IMMEDIATE")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    after = History(path)
    assert [h.photo_name for h in after.hands(game.id)] == ["first"] * 4
    assert [s.deal for s in after.settlements(game.id)] == [1]
    assert after.save_deal(game.id, [keep(p, "next") for p in PLAYERS], settlement=from_nets({}), rule_set="harr-1922",
                            rule_version="1") == 2


def test_a_deal_is_settled_once_never_replaced(tmp_path: Path) -> None:
    store = History(tmp_path / "h.sqlite3")
    game = store.new_game("", PLAYERS)
    store.save_settlement(game.id, deal=1, settlement=ONE, rule_set="harr-1922", rule_version="1")
    with pytest.raises(HistoryError, match="settled already"):
        store.save_settlement(game.id, deal=1, settlement=from_nets({"Ann": 99, "Bo": -99}), rule_set="harr-1922", rule_version="1")
    assert kept(store, game.id) == ONE.to_dict()



def kept(store: History, game_id: int) -> dict[str, object]:
    """The game's first settlement as the history file keeps it."""
    settlement = store.settlements(game_id)[0].settlement
    assert settlement is not None
    return settlement.to_dict()


def test_a_deal_joins_a_hand_saved_before_it_and_keeps_it_once(tmp_path: Path) -> None:
    store = History(tmp_path / "h.sqlite3")
    game = store.new_game("", PLAYERS)
    first = store.save_hand(game.id, player="Ann", hand=ANN, rule_set="harr-1922", rule_version="1", options={}, score=None)
    deal = store.save_deal(game.id, [keep(p, "joined") for p in PLAYERS[1:]], settlement=ONE,
                           rule_set="harr-1922", rule_version="1", deal=store.hand(first).deal)
    assert deal == 1
    assert sorted(h.player for h in store.hands(game.id)) == sorted(PLAYERS)
    with pytest.raises(HistoryError, match="settled already"):
        store.save_deal(game.id, [keep("Ann", "again")], settlement=from_nets({"Ann": 99, "Bo": -99}),
                        rule_set="harr-1922", rule_version="1", deal=1)
    assert len(store.hands(game.id)) == 4 and kept(store, game.id) == ONE.to_dict()


def test_no_hand_joins_a_deal_already_settled_nor_a_deal_numbered_below_one(tmp_path: Path) -> None:
    store = History(tmp_path / "h.sqlite3")
    game = store.new_game("", PLAYERS)
    store.save_deal(game.id, [keep("Ann", "a"), keep("Bo", "b")], settlement=from_nets({"Ann": 10, "Bo": -10}),
                    rule_set="harr-1922", rule_version="1")
    with pytest.raises(HistoryError, match="settled already"):
        store.save_deal(game.id, [keep("Di", "late")], deal=1)
    with pytest.raises(HistoryError, match="settled already"):
        store.save_hand(game.id, deal=1, player="Di", hand=ANN, rule_set="harr-1922", rule_version="1",
                        options={}, score=None)
    for bad in (0, -1):
        with pytest.raises(HistoryError, match="start at 1"):
            store.save_deal(game.id, [keep("Di", "zero")], deal=bad)
    assert sorted(h.player for h in store.hands(game.id)) == ["Ann", "Bo"]


def test_hands_saved_without_a_deal_each_take_the_next_number(tmp_path: Path) -> None:
    store = History(tmp_path / "h.sqlite3")
    game = store.new_game("", PLAYERS)
    ids = [store.save_hand(game.id, player=p, hand=ANN, rule_set="harr-1922", rule_version="1", options={}, score=None)
           for p in PLAYERS[:3]]
    assert [store.hand(i).deal for i in ids] == [1, 2, 3]


def _newer(path: Path) -> None:
    History(path).new_game("from the future", PLAYERS)
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        db.execute("ALTER TABLE games ADD COLUMN colour TEXT")
        db.execute("CREATE TABLE venues (id INTEGER PRIMARY KEY, name TEXT)")


def test_a_history_from_a_newer_version_is_shown_read_only_and_its_version_kept(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    _newer(path)
    store = History(path)
    assert store.read_only and "newer" in store.read_only
    assert [g.title for g in store.games()] == ["from the future"]
    with pytest.raises(HistoryError, match="newer"):
        store.new_game("now", PLAYERS)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1


def test_another_programs_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "theirs.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL)")
    before = path.read_bytes()
    with pytest.raises(HistoryError, match="another program's database.*invoices"):
        History(path)
    assert path.read_bytes() == before
    with sqlite3.connect(path) as db:
        assert [r[0] for r in db.execute("SELECT name FROM sqlite_master")] == ["invoices"]


def test_a_read_only_history_can_be_browsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "ro" / "h.sqlite3"
    History(path).new_game("kept", PLAYERS)
    path.chmod(0o444)
    path.parent.chmod(0o555)
    if os.geteuid() == 0:  # root may write anything: let the check see what a user would
        monkeypatch.setattr("webapp.history.os.access", lambda *_: False)
    before = path.read_bytes()
    try:
        store = History(path)
        assert store.read_only and "read-only" in store.read_only
        assert [g.title for g in store.games()] == ["kept"]
        with pytest.raises(HistoryError, match="read-only"):
            store.new_game("new", PLAYERS)
        assert path.read_bytes() == before
    finally:
        path.parent.chmod(0o755)
        path.chmod(0o644)


def test_rows_that_are_not_json_are_shown_as_damaged(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    store = History(path)
    game = store.new_game("", PLAYERS)
    hand_id = store.save_hand(game.id, player="Ann", hand=ANN, rule_set="harr-1922", rule_version="1",
                              options={}, score=scored())
    store.save_settlement(game.id, deal=9, settlement=ONE, rule_set="harr-1922", rule_version="1")
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET players = 'Ann, Bo'")
        db.execute("UPDATE hands SET score = '{not json', corrections = '[' || ? || ']'", ("[" * 500 + "]" * 500,))
        db.execute("UPDATE settlements SET settlement = '[1, 2]'")
    assert store.games()[0].damaged and store.games()[0].players == ("?",)
    record = store.hand(hand_id)
    assert set(record.damaged) == {"score", "corrections"} and record.score is None and record.corrections == ()
    assert store.settlements(game.id)[0].damaged
    assert json.loads(store.export_json(game.id))["hands"][0]["damaged"] == ["corrections", "score"]
    assert store.export_csv(game.id).count("\n") == 2


def test_the_csv_export_never_hands_a_spreadsheet_a_formula(tmp_path: Path) -> None:
    store = History(tmp_path / "h.sqlite3")
    game = store.new_game("=HYPERLINK(\"http://x\",\"click\")", ["@SUM(A1)", "+1", "-2", "Di"])
    store.save_hand(game.id, player="@SUM(A1)", hand=ANN, rule_set="harr-1922", rule_version="1", options={},
                    score=scored())
    store.save_settlement(game.id, deal=1, settlement=from_nets({"@SUM(A1)": -22, "Di": 22}), rule_set="harr-1922", rule_version="1")
    text = store.export_csv(game.id)
    row = text.splitlines()[1]
    assert row.startswith("'=HYPERLINK") or row.startswith("\"'=HYPERLINK")
    assert "'@SUM(A1)" in row and ",-22," in row


def test_a_newer_history_whose_rows_this_version_cannot_read_is_one_message(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    store = History(path)
    game = store.new_game("future", PLAYERS)
    hand_id = store.save_hand(game.id, player="Ann", hand=ANN, rule_set="harr-1922", rule_version="1", options={}, score=None)
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        db.execute("ALTER TABLE hands RENAME COLUMN deal TO round_and_deal")
    with pytest.raises(HistoryError, match="rows this version cannot read"):
        History(path).hand(hand_id)
    with pytest.raises(HistoryError, match="could not be read"):
        History(path).hands(game.id)
