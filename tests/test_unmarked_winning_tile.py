"""A winning hand scored with no winning tile marked: when the tile that came last changes the total, the player is
told each total and asked for the tile, on the command line and on the page; when it changes nothing, nothing is said.

Harr's Example 7 as the book photographs it (p. 36): white dragons punged off a discard to go out, a pair of north
winds, a concealed kong of green dragons, an exposed kong of east winds and a pung of red dragons; seat South. By the
errata the punged white dragons count exposed: 5504. A photo shows the tiles but not which one was claimed.
"""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from pungchow.cli import main as cli_main
from scoring import service
from scoring.hand import Hand
from scoring.tiles import Tile
from tests.test_webapp_app import app, score_shown, type_hand

__all__ = ["app"]  # the page fixture, shared with the page's own tests

EXAMPLE_7 = "WDWDWDNWNW (GDGDGDGD) [EWEWEWEW] [RDRDRD]"
#: Example 6 as photographed (p. 35): 1D and 4D pungs, a 2D pair drawn, a concealed kong of 9D, 7D pung exposed.
EXAMPLE_6 = "1D1D1D4D4D4D2D2D (9D9D9D9D) [7D7D7D]"


def test_example_7_with_no_winning_tile_says_what_each_tile_would_score() -> None:
    hand = Hand.parse(EXAMPLE_7, won_by="discard", seat_wind="S")
    matters = service.winning_tile_matters(service.score_one(hand, "harr-1922"), "harr-1922")
    assert matters is not None
    totals = dict(matters.totals)
    assert totals[5504] == (Tile("WD"),)  # the book's hand, after the errata: the claimed white pung counts exposed
    assert matters.scored == 5760  # with none marked every concealed set counts concealed: the book's misprint
    assert "5504 if it was WD" in str(matters) and "(--winning)" in str(matters)


def test_the_same_hand_with_the_winning_tile_given_says_nothing() -> None:
    hand = Hand.parse(EXAMPLE_7, won_by="discard", seat_wind="S", winning_tile="WD")
    assert service.winning_tile_matters(service.score_one(hand, "harr-1922"), "harr-1922") is None


def test_a_drawn_hand_whose_every_tile_scores_alike_says_nothing() -> None:
    """Example 6's 2D filled no only place (3D would have won too), nor would 1D or 4D: 624 whichever came last."""
    hand = Hand.parse(EXAMPLE_6, won_by="wall")
    assert service.winning_tile_matters(service.score_one(hand, "harr-1922"), "harr-1922") is None
    assert service.score_one(hand, "harr-1922").total == 624


def test_pungchow_score_prints_the_choice_and_its_json_carries_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["score", EXAMPLE_7, "--won-by", "discard", "--seat", "S"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().splitlines()[-1].startswith("note: the winning tile is not marked")
    assert cli_main(["score", EXAMPLE_7, "--won-by", "discard", "--seat", "S", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == 5760 and "5504 if it was WD" in data["winning_tile_not_marked"]
    assert cli_main(["score", EXAMPLE_7, "--won-by", "discard", "--seat", "S", "--winning", "WD", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == 5504 and "winning_tile_not_marked" not in data


def test_the_page_words_it_with_its_own_control() -> None:
    from webapp.widgets import player_words

    hand = Hand.parse(EXAMPLE_7, won_by="discard", seat_wind="S")
    matters = service.winning_tile_matters(service.score_one(hand, "harr-1922"), "harr-1922")
    assert matters is not None
    assert "*Winning tile*" in player_words(matters.problem) and "--winning" not in player_words(matters.problem)


def test_the_page_asks_for_the_winning_tile_when_it_turns_the_score(app: AppTest) -> None:
    type_hand(app, EXAMPLE_7, winning="", won_by="discard")
    asked = [w.value for w in app.warning if "winning tile is not marked" in w.value]
    assert asked and "*Winning tile*" in asked[0] and "if it was WD" in asked[0]
    type_hand(app, EXAMPLE_7, winning="WD", won_by="discard")
    assert not [w.value for w in app.warning if "winning tile is not marked" in w.value]
    assert score_shown(app) != ""
