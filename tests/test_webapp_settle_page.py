"""*Settle the table* at a real table (Streamlit's AppTest): a losing player who keeps their tiles to
themselves says their score, and it is settled as given (as the table file's ``"score": 24`` is);
the four seats fold to one line each, so a phone's page holds one seat at a time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.testing.v1 import AppTest

from scoring.api import Hand
from scoring.settle import Settlement
from scoring.settle.books import settle
from scoring.settle.tablefile import table_from_dict
from scoring.tiles import Tile
from tests.test_webapp_app import APP, HAND, errors, needs_harr, type_hand
from webapp import table as tb
from webapp.history import History
from webapp.review import from_hand

LOSER = "1B2B3B 4D4D9D9D [RDRDRD] [WDWDWDWD]"  # no tile the winner holds too: one set of tiles
PLAYERS = ["Ann", "Bo", "Cy", "Di"]


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "history.sqlite3"
    monkeypatch.setenv("PUNGCHOW_DB", str(path))
    History(path).new_game("Friday", PLAYERS)
    return path


@pytest.fixture
def at(db: Path) -> AppTest:
    """The page on a history whose latest game is Ann, Bo, Cy and Di's; *Settle the table* open."""
    page = AppTest.from_file(APP, default_timeout=90)
    page.run()
    page.switch_page("views/table.py").run()
    assert errors(page) == []
    return page


def plain_score(at: AppTest, seat: int, points: int) -> None:
    at.toggle(key=f"w_seat_plain_{seat}").set_value(True).run()
    at.number_input(key=f"w_seat_score_{seat}").set_value(points).run()


def ann_wins_off_a_discard(at: AppTest) -> None:
    at.selectbox(key="w_winner").set_value(0).run()
    at.text_input(key="w_seat_hand_0").set_value(HAND)
    at.text_input(key="w_seat_winning_0").set_value("2D")
    at.selectbox(key="w_seat_won_by_0").set_value("discard")
    at.run()


def seats(at: AppTest) -> list[Any]:
    """The four seats' expanders, in seat order."""
    return [next(e for e in at.expander if e.proto.id.endswith(f"w_seat_open_{i}")) for i in range(4)]


def opened(at: AppTest) -> list[bool]:
    """Which seats are unfolded."""
    return [bool(e.proto.expanded) for e in seats(at)]


def seat_lines(at: AppTest) -> list[str]:
    """The four seats' folded lines, as the page shows them (markdown escapes taken out)."""
    return [e.label.replace("\\", "") for e in seats(at)]


def tap_seat_line(at: AppTest, seat: int) -> None:
    """A tap on a seat's line opens or folds it (AppTest has no tap for an expander: its state is sent as the browser does)."""
    line = seats(at)[seat]
    states = at._tree.get_widget_states()
    states.widgets.append(WidgetState(id=line.proto.id, bool_value=not line.proto.expanded))
    at._run(states)


def table_file_settlement(scores: dict[str, int]) -> Settlement:
    """The same deal as a table file: Ann's and Bo's hands, Cy's and Di's plain ``"score"``."""
    ann = Hand.parse(HAND, winning_tile="2D", won_by="discard", seat_wind="E", winner=True).to_dict()
    bo = Hand.parse(LOSER, seat_wind="S", winner=False).to_dict()
    data = {"rules": "harr-1922", "players": [
        {"name": "Ann", "seat": "E", "hand": ann, "winner": True}, {"name": "Bo", "seat": "S", "hand": bo},
        {"name": "Cy", "seat": "W", "score": scores["Cy"]}, {"name": "Di", "seat": "N", "score": scores["Di"]}]}
    return settle(table_from_dict(data))


@needs_harr
def test_a_losing_seat_given_as_a_plain_score_is_settled_on_it(at: AppTest) -> None:
    ann_wins_off_a_discard(at)
    at.text_input(key="w_seat_hand_1").set_value(LOSER).run()
    plain_score(at, 2, 24)
    plain_score(at, 3, 0)
    at.button(key="w_settle").click().run()
    assert errors(at) == []
    settlement = at.session_state["settlement"]
    book = table_file_settlement({"Cy": 24, "Di": 0})
    assert isinstance(settlement, Settlement), "the page keeps the settlement itself, as pungchow settle makes it"
    assert settlement.payments == book.payments and settlement.nets() == book.nets(), \
        "the page settles a plain score as the table file does"
    assert [p.score for p in settlement.table.players][2:] == [24, 0]
    deal = at.session_state["table"]
    assert deal.seats[1].hand == Hand.parse(LOSER, winner=False), "Bo's seat keeps his hand as read, not its notation"
    assert deal.seats[0].winning_tile == Tile("2D"), "Ann's seat keeps her winning tile as a tile, not its text"
    assert [p.detail.hand if p.detail else None for p in settlement.table.players][:2] == [tb.hand_of(deal, 0), tb.hand_of(deal, 1)]
    scores = at.table[0].value
    assert scores["score"].tolist()[2:] == ["24", "0"]
    assert all("plain score" in a for a in scores["arrangement"].tolist()[2:])
    captions = [c.value.replace("\\", "") for c in at.caption]
    assert any("Plain scores" in c and "Cy, Di" in c for c in captions), "the page says which seats are plain scores"
    assert "plain score 24" in seat_lines(at)[2]


@needs_harr
def test_a_plain_score_is_for_a_losing_seat_and_must_be_typed(at: AppTest) -> None:
    ann_wins_off_a_discard(at)
    at.text_input(key="w_seat_hand_1").set_value(LOSER).run()
    at.text_input(key="w_seat_hand_2").set_value(LOSER).run()
    at.toggle(key="w_seat_plain_3").set_value(True).run()
    at.button(key="w_settle").click().run()
    assert any("Di has no score yet" in e for e in errors(at)), errors(at)
    assert at.toggle(key="w_seat_plain_0").disabled, "the winner's hand is scored from its tiles"
    at.number_input(key="w_seat_score_3").set_value(16).run()
    at.selectbox(key="w_winner").set_value(3).run()
    assert any("Di went out" in e and "losing seat" in e for e in errors(at)), errors(at)


@needs_harr
def test_the_hands_shown_beside_a_plain_score_are_still_one_set_of_tiles(at: AppTest) -> None:
    """A plain score has no hand to check; the hands shown are checked together, as ``pungchow settle`` checks a table file's."""
    ann_wins_off_a_discard(at)
    at.text_input(key="w_seat_hand_1").set_value(LOSER).run()
    at.text_input(key="w_seat_hand_2").set_value(LOSER).run()
    plain_score(at, 3, 8)
    at.button(key="w_settle").click().run()
    assert any("the hands together hold 6 of RD" in e.replace("\\", "") for e in errors(at)), errors(at)
    assert at.session_state["settlement"] is None, "nothing is settled on hands no one set holds"
    plain_score(at, 2, 24)
    at.button(key="w_settle").click().run()
    assert errors(at) == [], "with Cy's hand given as a score, Ann's and Bo's hands are one set of tiles"


@needs_harr
def test_a_deal_of_a_saved_winner_and_three_plain_scores_is_saved_once(at: AppTest, db: Path) -> None:
    """The winner photographed and saved on *Score a hand*, the three others said their scores: the deal keeps no hand
    of its own, and a second tap on *Save deal* still finds it saved."""
    at.switch_page("views/hand.py").run()
    type_hand(at)
    at.button(key="w_save_hand").click().run()
    assert errors(at) == []
    at.switch_page("views/table.py").run()
    at.selectbox(key="w_winner").set_value(0).run()
    at.button(key="w_seat_from_review_0").click().run()
    for seat, points in ((1, 8), (2, 24), (3, 4)):
        plain_score(at, seat, points)
    at.button(key="w_settle").click().run()
    assert errors(at) == []
    at.button(key="w_save_deal").click().run()
    assert errors(at) == [] and any("Saved deal 1 of game 1" in s.value for s in at.success)
    at.run()  # a second tap comes after the page was drawn as saved: nothing left to save
    assert [b for b in at.button if b.key == "w_save_deal"] == []
    store = History(db)
    assert [s.deal for s in store.settlements(1)] == [1]
    assert [(h.player, h.deal) for h in store.hands(1)] == [("Ann", 1)], "the winner's saved hand is the deal's, kept once"
    assert store.score_sheet(1).totals == nets_of(store.settlements(1)[0].settlement)


@needs_harr
def test_the_seats_fold_to_one_line_each_and_open_one_at_a_time(at: AppTest) -> None:
    assert opened(at) == [True, False, False, False], "the first seat is open to fill in"
    ann_wins_off_a_discard(at)
    assert opened(at) == [False, True, False, False], "Ann's hand is ready: her seat folds and Bo's opens"
    at.text_input(key="w_seat_hand_1").set_value(LOSER).run()
    plain_score(at, 2, 24)
    assert opened(at) == [False, False, False, True]
    assert seat_lines(at) == ["Ann — East · went out: 6C7C7C8C8C9CSWSW [2D2D… · done",  # the tiles as read
                              "Bo — South: 1B2B3B4D4D9D9D [RDRDRD… · done",
                              "Cy — West: plain score 24 · done",
                              "Di — North: no hand yet · needs the hand"]
    tap_seat_line(at, 0)
    assert errors(at) == []
    assert opened(at) == [True, False, False, False], "opening Ann's seat folds Di's"
    tap_seat_line(at, 0)
    assert opened(at) == [False] * 4, "a tap on the open seat folds it"
    tap_seat_line(at, 3)
    at.text_input(key="w_seat_hand_3").set_value(LOSER).run()
    assert opened(at) == [False] * 4, "the last seat filled in: every seat folds, and Settle is next"


@needs_harr
def test_a_seat_read_from_a_photo_stays_open_for_its_tiles_to_be_checked(at: AppTest) -> None:
    at.selectbox(key="w_winner").set_value(0).run()
    at.session_state["seat_review_0"] = from_hand(Hand.parse(HAND, winning_tile="2D", won_by="discard"))
    at.run()
    at.selectbox(key="w_seat_won_by_0").set_value("discard").run()
    assert errors(at) == [] and "· done" in seat_lines(at)[0]
    assert opened(at) == [True, False, False, False]


def nets_of(settlement: Settlement | None) -> dict[str, int]:
    """The nets of a settlement read back from the history file (None: it could not be read)."""
    assert settlement is not None
    return settlement.nets()
