"""The view the player across the table can read (Streamlit's AppTest): a hand's score and a deal's
payments in large type, turned round for the player opposite when the phone lies between them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.test_webapp_app import APP, LOSERS, errors, needs_harr, type_hand
from tests.test_webapp_app import HAND as WINNER
from webapp import across

HAND = "7C8C9C6C7C8CSWSW [2D2D2D] [RDRDRD]"  # Harr: 26 points, doubled once for the red dragons: 52
PLAYERS = ["Ann", "Bo", "Cy", "Di"]


@pytest.fixture
def at(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("PUNGCHOW_DB", str(tmp_path / "history.sqlite3"))
    page = AppTest.from_file(APP, default_timeout=90)
    page.run()
    return page


def large_type(at: AppTest) -> list[str]:
    """The large-type views on the page, as HTML."""
    return [h.proto.body for h in at.get("html") if "across-the-table" in h.proto.body]


def big_answer(view: str) -> str:
    found = re.search(rf'font-size:{across.BIG_PX}px[^>]*>([^<]*)<', view)
    assert found, view
    return found.group(1)


@needs_harr
def test_the_score_in_large_type_turned_round_for_the_player_opposite(at: AppTest) -> None:
    type_hand(at, HAND)
    assert large_type(at) == [], "the large type is asked for, not forced on the one scoring"
    at.toggle(key="w_across").set_value(True).run()
    assert errors(at) == []
    [view] = large_type(at)
    assert big_answer(view) == "52"
    assert "= 26" in view and "Harr" in view and "rotate(180deg)" not in view
    at.toggle(key="w_across_turned").set_value(True).run()
    [view] = large_type(at)
    assert "rotate(180deg)" in view and big_answer(view) == "52"


@needs_harr
def test_who_pays_whom_in_large_type_after_a_deal(at: AppTest) -> None:
    at.switch_page("views/table.py").run()
    for i, name in enumerate(PLAYERS):
        at.text_input(key=f"w_player_{i}").set_value(name)
    at.selectbox(key="w_winner").set_value(0).run()
    at.text_input(key="w_seat_hand_0").set_value(WINNER)
    at.text_input(key="w_seat_winning_0").set_value("2D")
    at.selectbox(key="w_seat_won_by_0").set_value("discard")
    for i, loser in enumerate(LOSERS, start=1):  # hands one set of tiles holds: a deal with more is refused
        at.text_input(key=f"w_seat_hand_{i}").set_value(loser)
    at.run()
    at.button(key="w_settle").click().run()
    assert errors(at) == []
    at.toggle(key="w_across_deal").set_value(True).run()
    [view] = large_type(at)
    assert "Ann went out" in view and big_answer(view) == "Who pays whom"
    net = at.session_state["settlement"].nets()
    paid = {name: 0 for name in PLAYERS}
    for amount, payer, payee in re.findall(r"<td[^>]*>(\d+)</td><td[^>]*>(\w+) pays (\w+)</td>", view):
        paid[payer] -= int(amount)
        paid[payee] += int(amount)
    assert paid == net, "the lines in large type add up to each player's net for the deal"
