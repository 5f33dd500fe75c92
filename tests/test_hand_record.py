"""A hand kept in the history is its JSON: the page hands the history a ``Hand`` and its ``ScoreResult``, and reads back
a ``Hand`` and a ``PrintedScore``. The SQLite layer alone turns them into text and back, and the two directions are exact
inverses on what is printed, so a record shows the very hand and score lines the players were shown."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from scoring.api import Hand, ScoreResult, score_hand
from scoring.printed import PrintedScore, PrintedScoreError
from webapp.history import HandToKeep, History
from webapp.review import Correction

from history_helpers import ANN, scored
from settle_helpers import from_nets

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
#: All terminals off a discard: a limit hand (its lines alone come to 108 under Foster).
ALL_TERMINALS = Hand.parse("1B1B1B9B9B9B1C1C1C9C9C9C1D1D", winning_tile="1D", won_by="discard", seat_wind="S")
#: 7D completed [7D8D9D] or went among the concealed tiles: two readings, the higher taken and said.
TWO_READINGS = Hand.parse("1D1D1D5D6D7D2D2D [3D4D5D] [7D8D9D]", winning_tile="7D", won_by="discard")


def results() -> list[ScoreResult]:
    return [scored(), score_hand(ALL_TERMINALS, "foster-1924-mixed"), score_hand(ALL_TERMINALS, "harr-1922-limit"),
            score_hand(TWO_READINGS, "chinese-classical")]


def test_reading_back_a_printed_score_prints_it_again_exactly() -> None:
    kinds = set()
    for result in results():
        printed = json.loads(json.dumps(result.to_dict()))  # as the history file keeps it
        kept = PrintedScore.from_dict(printed)
        assert kept.to_dict() == printed
        assert PrintedScore.from_dict(kept.to_dict()) == kept
        assert (kept.total, kept.arrangement, kept.hand) == (result.total, str(result.arrangement), str(result.hand))
        assert [str(line) for line in kept.lines] == [str(line) for line in result.lines], "each line as the player saw it"
        kinds |= {"limit"} if kept.without_limit is not None else set()
        kinds |= {"reading"} if kept.reading is not None else set()
        kinds |= {"alternatives"} if kept.alternatives else set()
    assert kinds == {"limit", "reading", "alternatives"}, "the examples cover every optional part of a printed score"


@pytest.mark.parametrize("spoil", [
    lambda d: d.update(total="22"),
    lambda d: d.update(extra=1),
    lambda d: d.pop("uncapped"),
    lambda d: d["lines"][0].update(points=True),
    lambda d: d["lines"][0].pop("citation"),
    lambda d: d["alternatives"].append({**d, "alternatives": []}),  # an alternative with alternatives of its own
])
def test_a_record_that_is_not_a_score_as_printed_is_refused(spoil: object) -> None:
    data = json.loads(json.dumps(scored().to_dict()))
    assert callable(spoil)
    spoil(data)
    with pytest.raises(PrintedScoreError, match="not a score as pungchow prints it"):
        PrintedScore.from_dict(data)


def test_the_history_keeps_the_hand_and_its_score_typed(tmp_path: Path) -> None:
    store = History(tmp_path / "h.sqlite3")
    game = store.new_game("Friday", PLAYERS)
    result = score_hand(ALL_TERMINALS, "foster-1924-mixed")
    fixes = (Correction("replace", {"tile": 6, "was": "NW", "now": "SW"}), Correction("new-set", {"tiles": [0, 1, 2]}))
    hand_id = store.save_hand(game.id, player="Ann", hand=ALL_TERMINALS, rule_set="foster-1924-mixed", rule_version="1",
                              options=dict(result.best.options), score=result, corrections=fixes)
    deal = store.save_deal(game.id, [HandToKeep(p, ANN, "harr-1922", "1", {"limit": None}, scored()) for p in PLAYERS],
                           settlement=from_nets({"Ann": 66, "Bo": -22, "Cy": -22, "Di": -22}), rule_set="harr-1922", rule_version="1")
    record = store.hand(hand_id)
    assert record.hand == ALL_TERMINALS and isinstance(record.score, PrintedScore)
    assert record.score == PrintedScore.from_dict(result.to_dict())
    assert (record.notation, record.arrangement, record.total) == (str(ALL_TERMINALS), str(result.arrangement), 500)
    assert record.score.without_limit == 108 and record.damaged == ()
    assert record.corrections == fixes and [Correction.from_dict(c.to_dict()) for c in fixes] == list(fixes)
    kept = [h for h in store.hands(game.id) if h.deal == deal]
    assert [h.hand for h in kept] == [ANN] * 4 and [h.score.total if h.score else None for h in kept] == [22] * 4
    exported = json.loads(store.export_json(game.id))["hands"][0]
    assert (exported["hand"], exported["score"]) == (ALL_TERMINALS.to_dict(), result.to_dict())


#: Ann's hand and its score exactly as this version writes them to the history file (hand JSON version 2).
TODAY_HAND = ('{"schema": "pungchow/hand", "version": 2, "concealed": ["6C", "7C", "7C", "8C", "8C", "9C", "SW", "SW"], '
              '"melds": [{"kind": "pung", "tiles": ["2D", "2D", "2D"], "concealed": false}, {"kind": "chow", "tiles": '
              '["5C", "6C", "7C"], "concealed": false}], "bonus": [], "winning_tile": "2D", "won_by": "discard", "seat_wind": "E", '
              '"prevailing_wind": "E", "winner": true}')
TODAY_SCORE = ('{"rule_set": "harr-1922", "version": "1", "arrangement": "[2D2D2D]* [5C6C7C] (6C7C8C) (7C8C9C) (SWSW)", '
               '"shape": "standard", "total": 22, "uncapped": 22, "lines": [{"rule": "mah-jongg", "description": "Mah-Jongg", '
               '"points": 20, "doubles": 0, "limit_hand": false, "citation": "Harr, Pung Chow (1922), Part I, Score Card: Winning '
               'Hand Bonus Scores (p. 29)"}, {"rule": "set", "description": "three 2D (2 to 8, exposed)", "points": 2, "doubles": 0, '
               '"limit_hand": false, "citation": "Harr, Pung Chow (1922), Part I, Score Card: Combination Scores (p. 29)"}], '
               '"options": {"limit": null}, "hand": "6C7C7C8C8C9CSWSW [2D2D2D] [5C6C7C]", "alternatives": []}')
#: A limit hand as the history kept it before a score printed what the lines alone come to (``without_limit_hand``),
#: with its hand in JSON version 1 (the winning set not marked).
OLD_HAND = ('{"schema": "pungchow/hand", "version": 1, "concealed": ["1B", "1B", "1B", "9B", "9B", "9B", "1C", "1C", "1C", '
            '"9C", "9C", "9C", "1D", "1D"], "melds": [], "bonus": [], "winning_tile": "1D", "won_by": "discard", '
            '"seat_wind": "S", "prevailing_wind": "E", "winner": true}')
OLD_SCORE = ('{"rule_set": "harr-1922-limit", "version": "1", "arrangement": "(1B1B1B) (9B9B9B) (1C1C1C) (9C9C9C) (1D1D)", '
             '"shape": "standard", "total": 300, "uncapped": 300, "lines": [{"rule": "all-terminals", "description": '
             '"all terminals", "points": 0, "doubles": 0, "limit_hand": true, "citation": "Harr, Pung Chow (1922)"}], '
             '"options": {}, "hand": "1B1B1B9B9B9B1C1C1C9C9C9C1D1D", "alternatives": []}')


def kept_row(tmp_path: Path, hand: str, score: str) -> tuple[History, int]:
    """A history file holding one hand row written as given, as an earlier or this version of the program wrote it."""
    store = History(tmp_path / "h.sqlite3")
    game = store.new_game("Friday", PLAYERS)
    with sqlite3.connect(store.path) as db:
        cur = db.execute("INSERT INTO hands (game_id, deal, player, created_at, corrections, hand, notation, arrangement, rule_set, "
                         "rule_version, options, score, total) VALUES (?, 1, 'Ann', '2026-11-22T20:00:00+00:00', '[]', ?, "
                         "'as kept', NULL, 'harr-1922', '1', '{}', ?, NULL)", (game.id, hand, score))
        hand_id = int(cur.lastrowid or 0)
    return store, hand_id


def test_a_row_written_in_todays_format_reads_back_as_it_was_written(tmp_path: Path) -> None:
    store, hand_id = kept_row(tmp_path, TODAY_HAND, TODAY_SCORE)
    record = store.hand(hand_id)
    assert record.damaged == () and record.hand == ANN and record.score is not None
    assert record.score.to_dict() == json.loads(TODAY_SCORE) and record.hand.to_dict() == json.loads(TODAY_HAND)
    assert record.score.total == 22 and record.score.lines[0].description == "Mah-Jongg"


def test_an_older_row_still_reads(tmp_path: Path) -> None:
    store, hand_id = kept_row(tmp_path, OLD_HAND, OLD_SCORE)
    record = store.hand(hand_id)
    assert record.damaged == () and record.hand is not None and record.score is not None
    assert str(record.hand) == "1B1B1B9B9B9B1C1C1C9C9C9C1D1D" and record.hand.winning_tile == ALL_TERMINALS.winning_tile
    assert record.score.total == 300 and record.score.without_limit is None
    assert record.score.to_dict() == json.loads(OLD_SCORE), "a score kept before is shown as it was kept"


def test_a_hand_or_score_that_does_not_read_is_shown_as_damaged(tmp_path: Path) -> None:
    store, hand_id = kept_row(tmp_path, '{"concealed": ["1B"]}', TODAY_SCORE.replace('"total": 22', '"total": "22"'))
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE hands SET corrections = '[{\"tile\": 6}]'")  # a correction that does not say what was done
    record = store.hand(hand_id)
    assert set(record.damaged) == {"hand", "score", "corrections"} and record.hand is None and record.score is None
    assert record.corrections == ()
