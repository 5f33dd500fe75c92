"""`pungchow score`: a typed hand in, its score out line by line; a bad hand is one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pungchow.cli import main
from scoring.hand import Hand

BRIEF_HAND = "7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]"
BRIEF_ARGS = ["score", BRIEF_HAND, "--won-by", "discard", "--winning", "2D", "--rules", "harr-1922"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_scores_the_briefs_hand_line_by_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *BRIEF_ARGS)
    assert code == 0
    assert "Mah-Jongg" in out and "Part I, Score Card" in out
    assert out.rstrip().endswith("= 22")


def test_json_has_total_uncapped_lines_arrangement_and_alternatives(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *BRIEF_ARGS, "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["total"], data["uncapped"]) == (22, 22)
    assert data["arrangement"] == "[2D2D2D]* [5C6C7C] (6C7C8C) (7C8C9C) (SWSW)"
    assert data["alternatives"] == []
    assert [(line["rule"], line["points"], line["doubles"]) for line in data["lines"]] == [("mah-jongg", 20, 0), ("set", 2, 0)]
    assert all(line["citation"].startswith("Harr, Pung Chow (1922), Part I, ") for line in data["lines"])


def test_json_lists_the_other_arrangements_with_their_scores(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", "1B1B1B2B2B2B3B3B3B5D5D [RDRDRD]", "--winning", "5D", "--won-by", "wall", "--json")
    data = json.loads(out)
    assert code == 0 and data["total"] == 108
    assert [(alt["arrangement"], alt["total"]) for alt in data["alternatives"]] == [
        ("[RDRDRD] (1B2B3B) (1B2B3B) (1B2B3B) (5D5D)*", 56)
    ]


def test_limit_game_reports_the_capped_total_and_the_uncapped_score(capsys: pytest.CaptureFixture[str]) -> None:
    """Part II, Example 2: 640 over the book's limit of 300."""
    args = ["score", "9C9C9CNWNWNW3B3B3B5D5DRDRDRD", "--winning", "RD", "--won-by", "discard",
            "--seat", "N", "--round", "N", "--rules", "harr-1922-limit", "--json"]
    data = json.loads(run(capsys, *args)[1])
    assert (data["total"], data["uncapped"]) == (300, 640)
    data = json.loads(run(capsys, *args, "--limit", "600")[1])
    assert (data["total"], data["uncapped"]) == (600, 640)
    assert any(line["doubles"] == 2 and line["rule"] == "own-wind-set" for line in data["lines"])


def test_scores_a_hand_json_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hand.json"
    path.write_text(Hand.parse(BRIEF_HAND, winning_tile="2D", won_by="discard").to_json())
    code, out, _ = run(capsys, "score", str(path), "--json")
    assert code == 0 and json.loads(out)["total"] == 22


def test_rules_lists_both_harr_rule_sets_with_their_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--json")
    data = json.loads(out)
    assert code == 0
    help_text = data["harr-1922"]["options"][0]["help"]
    assert data["harr-1922"]["options"] == [{"name": "limit", "kind": "limit", "default": None, "help": help_text}]
    assert {o["name"]: o["default"] for o in data["harr-1922-limit"]["options"]} == {"limit": 300, "mah_jongg": 10}


@pytest.mark.parametrize(
    "hand, extra, problem",
    [
        ("7C8C9C6C7C8CSWQQ [2D2D2D] [5C6C7C]", [], "unknown tile code 'QQ'"),
        ("1B1B1B1B1B2B3B4B5B6B7B8B9B", [], "5 of 1B"),
        ("7C8C9C6C7C8CSW [2D2D2D] [5C6C7C]", [], "has 14 tiles"),
        ("7C8C9C6C7C8CSWSW [2D2D3D] [5C6C7C]", [], "neither a pung (three alike) nor a chow"),
        (BRIEF_HAND, ["--winning", "9B"], "the winning tile 9B is not in the hand"),
        ("(XX1D1DXX) 2B3B4B5B6B7BSWSW8C8C8C", ["--winning", "1D", "--won-by", "discard"], "lies only in a concealed kong"),
        ("1B2B3B4B5B6B7B8B9B1C2C4C5C6C", [], "not a complete hand"),
        (BRIEF_HAND, ["--rules", "nobody-1900"], "unknown rule set"),
        (BRIEF_HAND, ["--option", "colour=red"], "has no option 'colour'"),
        (BRIEF_HAND, ["--rules", "harr-1922-limit", "--limit", "lots"], "takes a whole number"),
    ],
)
def test_a_bad_hand_is_one_line_naming_the_problem_and_exit_2(
    capsys: pytest.CaptureFixture[str], hand: str, extra: list[str], problem: str
) -> None:
    code, out, err = run(capsys, "score", hand, *extra)
    assert code == 2
    assert out == ""
    assert err.startswith("pungchow: ") and err.count("\n") == 1
    assert problem in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "content, problem",
    [
        (b"\xff\xfe{", "is not UTF-8 text"),
        (b"{bad", "not valid JSON"),
        (b"[]", "is not of type 'object'"),
    ],
)
def test_a_bad_hand_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, problem: str
) -> None:
    path = tmp_path / "hand.json"
    path.write_bytes(content)
    code, out, err = run(capsys, "score", str(path))
    assert code == 2 and out == ""
    assert err.startswith("pungchow: ") and err.count("\n") == 1
    assert problem in err


def test_a_folder_given_as_the_hand_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "score", str(tmp_path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "no hand file" in err


def test_an_option_no_rule_set_knows_is_an_error_with_rules_all(capsys: pytest.CaptureFixture[str]) -> None:
    """A misspelt --option flower=no must not be dropped: every book would score the flowers."""
    code, out, err = run(capsys, "score", BRIEF_HAND, "--rules", "all", "--option", "flower=no")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "no rule set has an option 'flower'" in err


def test_rules_all_passes_each_book_only_the_options_it_knows(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", BRIEF_HAND, "--rules", "all", "--option", "mah_jongg=20", "--option", "flowers=no")
    assert code == 0 and "side by side" in out


def test_an_empty_hand_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """An empty argument is no file name: the message says the hand is empty, not that there is no file at ''."""
    code, out, err = run(capsys, "score", "")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "the hand is empty" in err and "no hand file" not in err
