"""A hand on *Score a hand* as a player checks it (Streamlit's AppTest): one loaded from the History
comes back with the photo it was read from, or a line saying why that photo cannot be shown; the
score's lines add up step by step, as the command line prints them (``= 26 points``)."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest
from streamlit.testing.v1 import AppTest

from scoring.api import Hand
from scoring.service import score_one
from tests.test_webapp_app import APP, errors, needs_harr, type_hand
from webapp.history import History
from webapp.photos import thumbnail_jpeg
from webapp.scores import breakdown_rows

HAND = "7C8C9C6C7C8CSWSW [2D2D2D] [RDRDRD]"  # Harr: 20 + 2 + 4 = 26 points, doubled once for the red dragons: 52
SAMPLE = Path(__file__).resolve().parents[1] / "recognizer" / "samples" / "finished-hand.jpg"
SHA = "ab" * 32


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "history.sqlite3"
    monkeypatch.setenv("PUNGCHOW_DB", str(path))
    return path


def keep_hand(store: History, **photo: object) -> int:
    """A scored hand kept in a game of its own, with what ``photo`` says of the picture it was read from."""
    hand = Hand.parse(HAND, winning_tile="2D", won_by="discard")
    result = score_one(hand, "harr-1922")
    game = store.games()[0] if store.games() else store.new_game("Friday", ["Ann", "Bo", "Cy", "Di"])
    return store.save_hand(game.id, player="Ann", hand=hand, rule_set="harr-1922",
                           rule_version="1", options={}, score=result, **photo)  # type: ignore[arg-type]


def load(db: Path, hand_id: int) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90)
    at.run()
    at.switch_page("views/history.py").run()
    at.selectbox(key="w_history_hand").set_value(hand_id).run()
    at.button(key=f"w_load_hand_{hand_id}").click().run()
    assert errors(at) == []
    assert at.session_state["loaded_hand"] == hand_id
    return at


def images(at: AppTest) -> list[str]:
    """The captions of the pictures on the page."""
    return [img.caption for element in at.get("image") for img in element.proto.imgs]


@needs_harr
@pytest.mark.skipif(not SAMPLE.exists(), reason="the sample photo is not installed")
def test_a_hand_loaded_from_the_history_shows_its_photo(db: Path) -> None:
    photo = cv2.cvtColor(cv2.imread(str(SAMPLE)), cv2.COLOR_BGR2RGB)
    hand_id = keep_hand(History(db), photo_name="finished-hand.jpg", photo_sha256=SHA, thumbnail=thumbnail_jpeg(photo))
    at = load(db, hand_id)
    assert any(f"The photo hand {hand_id} was read from (finished-hand.jpg)" in c.replace("\\", "") for c in images(at)), images(at)


@needs_harr
def test_a_photo_the_history_cannot_show_is_said_so(db: Path) -> None:
    store = History(db)
    fingerprint_only = keep_hand(store, photo_name="lost.jpg", photo_sha256=SHA)
    damaged = keep_hand(store, photo_name="torn.jpg", photo_sha256=SHA, thumbnail=b"\xff\xd8 not a picture")
    typed = keep_hand(store)
    said = {hand_id: [c.value.replace("\\", "") for c in load(db, hand_id).caption] for hand_id in (fingerprint_only, damaged, typed)}
    assert any("lost.jpg, sha256 abababababab…), but it cannot be shown: the history kept only its fingerprint" in c
               for c in said[fingerprint_only]), said[fingerprint_only]
    assert any("torn.jpg" in c and "its copy in the history file is damaged" in c for c in said[damaged]), said[damaged]
    assert any(f"Hand {typed} was typed, not photographed" in c for c in said[typed]), said[typed]


@needs_harr
def test_the_score_adds_up_line_by_line_as_the_command_line_prints_it(db: Path) -> None:
    result = score_one(Hand.parse(HAND, winning_tile="2D", won_by="discard"), "harr-1922")
    rows = breakdown_rows(result)
    assert [row["value"] for row in rows] == ["+20", "+2", "+4", "= 26", "x2", "= 52"]
    subtotals = [line.strip() for line in result.explain().splitlines() if line.strip().startswith("=")]
    assert [f"{row['value']} {row['for']}" for row in rows if row["value"].startswith("=")] == subtotals
    at = AppTest.from_file(APP, default_timeout=90)
    at.run()
    type_hand(at, HAND)
    assert errors(at) == []
    shown = at.table[0].value
    assert shown["value"].tolist() == ["+20", "+2", "+4", "= 26", "x2", "= 52"], "the page's breakdown has the subtotals"


@needs_harr
def test_a_kept_hand_on_the_history_adds_up_as_the_command_line_prints_it(db: Path) -> None:
    """The History page reads the lines the history kept (not a fresh score), and shows the same subtotals."""
    hand_id = keep_hand(History(db))
    at = AppTest.from_file(APP, default_timeout=90)
    at.run()
    at.switch_page("views/history.py").run()
    at.selectbox(key="w_history_hand").set_value(hand_id).run()
    assert errors(at) == []
    shown = at.table[0].value
    assert [v.replace("\\", "") for v in shown["value"].tolist()] == ["+20", "+2", "+4", "= 26", "x2", "= 52"]
    assert "Harr" in shown["citation"].tolist()[0]
