"""The table file and the CLI: hands are scored and settled; bad tables are one clear error (exit 2)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from pungchow.cli import main
from scoring.hand import Hand
from scoring.rulesets import score_hand
from scoring.settle import HandedGame, Player, SettlementError, Table, load_table, settle, table_from_dict

TABLES = Path(__file__).parent / "tables"


def layout_json(n: int = 3) -> dict[str, Any]:
    return json.loads((TABLES / f"harr-1922-layout-{n}.json").read_text(encoding="utf-8"))


def hands_json() -> dict[str, Any]:
    return json.loads((TABLES / "hands-harr-1922.json").read_text(encoding="utf-8"))


# --- hands in, scored under the table's rule set --------------------------------------------------


def test_hands_are_scored_as_winner_and_non_winners_and_settled_on_those_scores() -> None:
    data = hands_json()
    t = table_from_dict(data)
    for raw, player in zip(data["players"], t.players):
        hand = Hand.from_dict({**raw["hand"], "seat_wind": raw["seat"]})
        assert player.score == score_hand(hand, "harr-1922").total
    winner = t.winner
    assert winner is not None and winner.name == "Bob"
    s = settle(t)
    for other in t.players:
        if other is not winner:
            assert s.paid(other.name, "Bob") == winner.score * (2 if other.seat == "E" else 1)
    assert sum(s.nets().values()) == 0


def test_a_hand_and_a_number_can_sit_at_the_same_table() -> None:
    data = hands_json()
    data["players"][3] = {"name": "Di", "seat": "N", "score": 100}
    t = table_from_dict(data)
    assert t.player("Di").score == 100
    assert settle(t).paid("Cy", "Di") == 100 - t.player("Cy").score


def test_the_hand_s_seat_must_be_the_player_s() -> None:
    data = hands_json()
    data["players"][2]["hand"]["seat_wind"] = "N"
    with pytest.raises(SettlementError, match="Cy sits West but the hand says seat_wind N"):
        table_from_dict(data)


def test_a_bad_hand_inside_the_table_is_reported_with_its_path() -> None:
    data = hands_json()
    data["players"][0]["hand"]["concealed"][0] = "ZZ"
    with pytest.raises(SettlementError, match="players/0/hand/concealed/0"):
        table_from_dict(data)


def test_a_limit_on_the_table_scores_the_hands_under_the_limit_game() -> None:
    data = hands_json()
    del data["rules"]
    data["limit"] = 300
    t = table_from_dict(data)
    assert t.rules == "harr-1922-limit" and t.limit == 300


# --- bad tables --------------------------------------------------------------------------------


def test_three_hands_at_a_four_hand_table_is_an_error() -> None:
    data = layout_json()
    del data["players"][1]
    with pytest.raises(SettlementError, match="four-hand game needs 4 hands at the table, got 3"):
        settle(table_from_dict(data))


def test_two_winners_is_an_error() -> None:
    data = layout_json()
    data["players"][0]["winner"] = True
    with pytest.raises(SettlementError, match="only one player can win a hand, got 2: East, North"):
        settle(table_from_dict(data))


def test_an_unknown_seat_is_an_error() -> None:
    data = layout_json()
    data["players"][1]["seat"] = "Q"
    with pytest.raises(SettlementError, match="players/1/seat"):
        table_from_dict(data)
    players = (Player("East", "E", 0), Player("South", "X", 0), Player("West", "W", 0), Player("North", "N", 4, winner=True))
    with pytest.raises(SettlementError, match="unknown seat 'X'"):
        settle(Table(players))


@pytest.mark.parametrize("change, message", [
    (lambda d: d["players"][1].update(seat="E"), "two players in one seat"),
    (lambda d: d["players"][1].update(name="East"), "two players share a name"),
    (lambda d: d["players"][1].pop("score"), "South .South.: give the hand or the score"),
    (lambda d: d["players"][1].update(score=-4), "players/1/score"),
    (lambda d: d["players"][1].update(hand={"concealed": []}), "players/1"),
    (lambda d: d.update(game="seven-hand"), "game"),
    (lambda d: d.update(limit=0), "limit"),
    (lambda d: d.update(book="hoyle"), "book"),
    (lambda d: [p.update(winner=False) for p in d["players"]], "no winner"),
    (lambda d: (d.pop("book"), d.update(rules="zung-jung")), "which book settles"),
])
def test_each_bad_table_says_what_is_wrong(change: Any, message: str) -> None:
    data = copy.deepcopy(layout_json())
    change(data)
    with pytest.raises(SettlementError, match=message):
        settle(table_from_dict(data))


def test_a_table_with_no_east_is_an_error() -> None:
    players = (Player("South", "S", 0), Player("West", "W", 0), Player("North", "N", 4, winner=True))
    with pytest.raises(SettlementError, match="no one sits East"):
        settle(Table(players, game=HandedGame.THREE))


def test_an_incident_naming_no_one_at_the_table_is_an_error() -> None:
    data = layout_json()
    data["incident"] = {"kind": "dangerous-discard", "player": "Zed", "condition": "winds"}
    with pytest.raises(SettlementError, match="no player 'Zed'"):
        settle(table_from_dict(data))


def test_json_that_is_not_json_is_one_error() -> None:
    with pytest.raises(SettlementError, match="not valid JSON"):
        load_table("{players: }")


# --- the command line ---------------------------------------------------------------------------


def test_cli_bad_table_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = layout_json()
    data["players"][0]["winner"] = True
    path = tmp_path / "two-winners.json"
    path.write_text(json.dumps(data))
    assert main(["settle", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "only one player can win" in err


def test_cli_missing_file_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["settle", str(tmp_path / "nope.json")]) == 2
    assert "no table file" in capsys.readouterr().err


def test_cli_settles_a_table_of_hands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["settle", str(TABLES / "hands-harr-1922.json")]) == 0
    out = capsys.readouterr().out
    assert "Bob (South)" in out and "who pays whom" in out


def test_a_foster_rule_set_picks_foster_s_book_and_its_limits() -> None:
    """The rule set's name picks the book; its options give the limit (500) and East's (1000)."""
    from scoring.rulesets import rule_sets

    if "foster-1924-mixed" not in rule_sets():
        pytest.skip("the Foster rule sets are not in this tree yet")
    data = hands_json()
    data["rules"] = "foster-1924-mixed"
    t = table_from_dict(data)
    assert (t.book, t.limit, t.east_cap) == ("foster-1924", 500, 1000)
    data["limit"] = None
    t = table_from_dict(data)
    assert (t.limit, t.east_cap) == (None, None)
    data["limit"] = 400
    assert table_from_dict(data).east_cap == 800


def test_the_api_takes_book_game_and_incident_by_name() -> None:
    players = (Player("East", "E", 0), Player("West", "W", 100, winner=True))
    s = settle(Table(players, book="foster-1924", game="two-hand"))  # type: ignore[arg-type]
    assert s.paid("E", "W") == 100
    with pytest.raises(SettlementError, match="books are harr-1922, foster-1924, british-1920s, chinese-classical"):
        settle(Table(players, book="hoyle"))  # the table is data; settling it names the books
    from scoring.settle import Incident

    with pytest.raises(SettlementError, match="unknown incident 'fire'"):
        Incident("fire")  # type: ignore[arg-type]


def test_cli_table_file_that_is_not_utf8_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "table.json"
    path.write_bytes(b"\xff\xfe{")
    assert main(["settle", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not UTF-8 text" in err


def test_cli_folder_instead_of_table_file_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["settle", str(tmp_path)]) == 2
    assert "no table file" in capsys.readouterr().err


def test_the_settle_text_reads_every_hand_down_to_its_score(capsys: pytest.CaptureFixture[str]) -> None:
    """Losers' hands pay too: the text shows each hand the table gave, its lines and its total, before the payments."""
    assert main(["settle", str(TABLES / "hands-harr-1922.json")]) == 0
    out = capsys.readouterr().out
    assert out.index("Cy's hand, harr-1922:") < out.index("payments:")
    assert "three WW (heads, exposed)" in out and "= 8 after 1 double" in out
    assert "Di's hand, harr-1922: (1C2C3C) (4C5C6C) (7C8C9C) (1D2D3D) 5B" in out


def test_a_table_may_give_its_hands_in_notation() -> None:
    """Hands typed as `pungchow score` takes them (the winner's way out and winning tile beside it, the round on the
    table) settle exactly as the same hands given as JSON."""
    as_json = hands_json()
    typed = copy.deepcopy(as_json)
    typed["round"] = "E"
    for player in typed["players"]:
        hand = Hand.from_dict(player["hand"])
        player["hand"] = str(hand)
        if hand.winner:
            player["winner"] = True
            player["won_by"], player["winning"] = hand.won_by.value, str(hand.winning_tile)  # type: ignore[union-attr]
    want, got = settle(table_from_dict(as_json)), settle(table_from_dict(typed))
    assert got.nets() == want.nets() and [p.score for p in got.table.players] == [p.score for p in want.table.players]


def test_a_typed_hand_is_checked_as_a_typed_hand_is() -> None:
    """A loser given a way out, a JSON hand given one beside it, and a hand that does not parse: one line each."""
    typed = hands_json()
    typed["players"][2]["hand"] = "2B3B4B5B6B7B8C3D4D5D [WWWWWW]"
    typed["players"][2]["won_by"] = "wall"
    with pytest.raises(SettlementError, match="did not go out"):
        table_from_dict(typed)
    beside = hands_json()
    beside["players"][1]["won_by"] = "wall"
    with pytest.raises(SettlementError, match="says how it was won itself"):
        table_from_dict(beside)
    bad = hands_json()
    bad["players"][3]["hand"] = "5B1C2C3C4C5C6C7C8C9C1D2D3DZZ"
    with pytest.raises(SettlementError, match="Di's hand"):
        table_from_dict(bad)
