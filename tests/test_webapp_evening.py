"""An evening at one table through the page (Streamlit's AppTest): one game joined from two phones,
a hand saved once however often Save is tapped, deals settled onto a running score sheet, the
last deal undone, and the settle-up at the end."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.test_webapp_app import APP, HAND, errors, needs_harr, score_shown, type_hand
from webapp.history import History

#: Three losers' hands that one set of tiles holds beside the winner's (a deal with more than four of a tile is refused);
#: each scores as a pung of dragons and a kong of simples laid out.
LOSERS = ("2B3B4B 5D5D9D9D [RDRDRD] [4D4D4D4D]", "2B3B4B 1D1D8D8D [GDGDGD] [3D3D3D3D]", "2B3B4B 1C1C2C2C [WDWDWD] [8B8B8B8B]")
PLAYERS = ["Ann", "Bo", "Cy", "Di"]


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "history.sqlite3"
    monkeypatch.setenv("PUNGCHOW_DB", str(path))
    return path


def phone() -> AppTest:
    """One more phone opening the page on the same history."""
    at = AppTest.from_file(APP, default_timeout=90)
    at.run()
    assert not at.exception
    return at


def settle_a_deal(at: AppTest, winner: int = 0) -> None:
    at.switch_page("views/table.py").run()
    for i in range(4):
        at.text_input(key=f"w_seat_hand_{i}").set_value(HAND if i == winner else LOSERS[(i - winner) % 4 - 1])
    at.selectbox(key="w_winner").set_value(winner)
    at.run()
    at.text_input(key=f"w_seat_winning_{winner}").set_value("2D")
    at.selectbox(key=f"w_seat_won_by_{winner}").set_value("discard")
    at.button(key="w_settle").click().run()
    assert errors(at) == []


@needs_harr
def test_save_tapped_twice_keeps_the_hand_once_and_offers_no_new_game(db: Path) -> None:
    at = phone()
    type_hand(at)
    at.text_input(key="w_save_title").set_value("Friday")
    at.text_input(key="w_save_players").set_value(", ".join(PLAYERS))
    at.button(key="w_save_hand").click().run()
    assert errors(at) == [] and "Saved as hand 1 of game 1" in at.success[0].value
    at.run()  # the next run: the hand is shown as saved, with no form to file it again
    assert [b for b in at.button if b.key == "w_save_hand"] == [], "after saving, Save is not offered again"
    assert not any("a new game" in str(o) for s in at.selectbox for o in s.options)
    assert "Saved as hand 1 of game 1" in at.success[0].value
    store = History(db)
    assert len(store.games()) == 1 and len(store.hands(1)) == 1


@needs_harr
def test_a_second_phone_joins_the_latest_game_with_its_players(db: Path) -> None:
    game = History(db).new_game("Friday", PLAYERS)
    second = phone()
    assert any("Friday" in c.value and all(p in c.value for p in PLAYERS) for c in second.caption), \
        "the page says which game it records into"
    type_hand(second)
    assert second.selectbox(key="w_save_game_1").value == game.id
    assert second.selectbox(key="w_save_player").options == PLAYERS
    second.button(key="w_save_hand").click().run()
    assert errors(second) == [] and f"of game {game.id}" in second.success[0].value
    second.switch_page("views/table.py").run()
    assert [second.text_input(key=f"w_player_{i}").value for i in range(4)] == PLAYERS, "Settle the table sits the game's players"


@needs_harr
def test_deals_go_on_a_running_score_sheet_and_the_last_can_be_undone(db: Path) -> None:
    History(db).new_game("Friday", PLAYERS)
    at = phone()
    settle_a_deal(at, winner=0)
    at.button(key="w_save_deal").click().run()
    assert errors(at) == [] and "Saved deal 1" in at.success[0].value
    at.run()  # a second tap finds the deal kept: nothing more is saved
    assert [b for b in at.button if b.key == "w_save_deal"] == []
    at.button(key="w_next_deal").click().run()
    assert at.text_input(key="w_seat_hand_0").value == "", "the next deal starts with no hands"
    assert at.selectbox(key="w_east").value == 0, "East went out: East deals again"
    settle_a_deal(at, winner=2)
    at.button(key="w_save_deal").click().run()
    store = History(db)
    assert len(store.settlements(1)) == 2 and len(store.hands(1)) == 8
    sheet = store.score_sheet(1)
    nets = [s.settlement.nets() for s in store.settlements(1) if s.settlement is not None]
    assert dict(sheet.totals) == {p: nets[0][p] + nets[1][p] for p in PLAYERS}, "the sheet's totals are the sum of the settlements"
    at.switch_page("views/history.py").run()
    assert errors(at) == []
    frame = at.dataframe[0].value
    assert frame["deal"].tolist() == ["1", "2"]
    assert any("To settle up" in m.value for m in at.markdown)
    settle_lines = [m.value for m in at.markdown if " pays " in m.value]
    assert settle_lines, "who transfers how much to whom"
    at.button(key="w_undo_deal_2").click().run()
    assert errors(at) == [] and any("Deal 2 taken back" in s.value for s in at.success)
    assert [line.deal for line in History(db).score_sheet(1).lines] == [1]


@needs_harr
def test_a_new_hand_does_not_carry_the_last_hands_message_or_score(db: Path) -> None:
    at = phone()
    type_hand(at)
    assert score_shown(at) == "22"
    at.session_state["w_said"] = ("success", "added #15 4C")
    at.run()
    assert any("added #15 4C" in s.value for s in at.success)
    type_hand(at, "7C8C9C6C7C8CSWSW [2D2D2D] [RDRDRD]")
    assert not any("added #15" in s.value for s in at.success), "the last hand's message is gone"
    type_hand(at, "7C8C9Q", winning="")
    assert any("9Q" in e for e in errors(at))
    assert len(at.metric) == 0, "a bad typed hand's error does not stand over the last hand's score"


@needs_harr
def test_a_mistapped_face_is_undone_and_leaves_no_trace_in_the_corrections(db: Path) -> None:
    at = phone()
    type_hand(at, "7C8C9C6C7C8CSWSW [2D2D2D] [RDRDRD]")
    assert score_shown(at) == "52"
    review = at.session_state["review"]
    red = next(t for t in review.tiles if t.code == "RD")
    version = at.session_state["review_version"]
    at.selectbox(key=f"w_pick_{version}").set_value(red.id).run()
    at.button(key=f"w_face_{version}_3D").click().run()  # the finger slipped: red dragon made a 3 of dots
    assert [c.action for c in at.session_state["review"].corrections] == ["replace"]
    at.button(key=f"w_undo_{version}_fix").click().run()
    assert errors(at) == []
    assert at.session_state["review"].tile(red.id).code == "RD"
    assert at.session_state["review"].corrections == (), "the taken-back correction is not recorded"
    assert any("took back" in s.value for s in at.success)
    assert score_shown(at) == "52"


@needs_harr
def test_who_went_out_is_asked_not_assumed(db: Path) -> None:
    at = phone()
    at.switch_page("views/table.py").run()
    assert at.selectbox(key="w_winner").value is None, "nobody is taken for the winner before the players say"
    for i in range(4):
        at.text_input(key=f"w_seat_hand_{i}").set_value(LOSERS[i % 3])
    at.button(key="w_settle").click().run()
    assert any("Say who went out" in e for e in errors(at))
    assert at.session_state["settlement"] is None


@needs_harr
def test_a_season_is_shown_apart_from_the_concealed_tiles(db: Path) -> None:
    at = phone()
    type_hand(at, "7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C] 1S")
    assert errors(at) == []
    captions = [c.value for c in at.caption]
    concealed = next(c for c in captions if c.startswith("Concealed tiles in hand"))
    assert concealed.startswith("Concealed tiles in hand (8)"), concealed
    assert any(c.startswith("Flowers and seasons (1)") for c in captions), captions
