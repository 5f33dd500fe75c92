"""One path per job: the page and the CLI build a hand and settle a deal the same way, so they give one answer."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pungchow.cli import main as cli_main
from recognizer.detections import Detections
from recognizer.group import Group
from recognizer.hand import build_hand
from recognizer.labels import CLASSES
from scoring.errors import PungChowError
from webapp import review as rv
from webapp import table as tb

# --- one Hand builder ------------------------------------------------------------------------------

#: Eight tiles in hand, two tiles of a chow laid out, a chow declared, and the winning 3C set apart beside them.
CODES = ["7C", "8C", "9C", "6C", "6C", "2C", "3C", "4C", "4C", "5C", "1C", "2C", "3C", "3C"]
GROUPS = [Group(0, "concealed", tuple(range(8))), Group(1, "other", (8, 9)), Group(2, "chow", (10, 11, 12)),
          Group(3, "winning", (13,), concealed=True)]


def reading() -> tuple[Detections, list[Group]]:
    boxes = np.array([[40 * i, 0, 36, 48] for i in range(len(CODES))], np.float32)
    dets = Detections(boxes, np.ones(len(CODES)))
    dets.codes[:] = [CLASSES.index(c) for c in CODES]
    dets.confidence[:] = 0.99
    return dets, GROUPS


def test_the_page_builds_the_hand_the_recogniser_builds_claimed_set_and_all() -> None:
    """The winning 3C set apart beside 4C 5C completed the chow on a discard: both surfaces show ``[3C4C5C]*``."""
    dets, groups = reading()
    recognised, problems = build_hand(dets, groups, won_by="discard")
    assert problems == [] and str(recognised) == "2C3C4C6C6C7C8C9C [1C2C3C] [3C4C5C]*"
    tiles = [rv.ReadTile(dets.code(k), rv.corners(dets.boxes[k]), 0.99) for k in range(len(dets))]
    review = rv.set_circumstances(rv.from_reading(tiles, groups), won_by="discard")
    on_page, page_problems = rv.to_hand(review)
    assert page_problems == []
    assert str(on_page) == str(recognised)
    assert on_page == recognised


# --- one settlement path ---------------------------------------------------------------------------

WINNER = "7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]"
#: Two losers with a pung of red dragons each: six red dragons in one deal, where a set has four.
SIX_RED_DRAGONS = ["1B2B3B 4D4D9D9D [RDRDRD] [4C4C4C4C]", "4B5B6B 3D3D8D8D [RDRDRD] [3C3C3C3C]",
                   "7B8B9B 1D1D5D5D [WDWDWD] [2C2C2C2C]"]


def test_the_page_refuses_six_red_dragons_as_pungchow_settle_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tb.with_typed_hand(tb.new_deal(["Ann", "Bo", "Cy", "Di"]), 0, WINNER, winning_tile="2D", won_by="discard")
    for i, loser in enumerate(SIX_RED_DRAGONS, start=1):
        table = tb.with_typed_hand(table, i, loser)
    results = tb.score_table(table, "harr-1922")
    with pytest.raises(PungChowError, match="the hands together hold 6 of RD") as refused:
        tb.settle_table(table, results, "harr-1922")

    players = [{"name": p, "seat": table.seat_wind(i), "winner": i == 0,
                "hand": results[p].hand.to_dict()} for i, p in enumerate(table.players)]
    path = tmp_path / "deal.json"
    path.write_text(json.dumps({"rules": "harr-1922", "players": players}), encoding="utf-8")
    assert cli_main(["settle", str(path)]) == 2
    assert str(refused.value) in capsys.readouterr().err
