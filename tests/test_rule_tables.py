"""A rule set prints its own value table (``pungchow rules NAME --table``), and it is the book's table.

Harr's score card for the game without a limit (Part I, p. 29) is copied here as numbers: the
points of each set exposed and concealed, the winner's bonus points, and how many times each
doubling honour doubles the score. The printed table must say the same, so a value changed in
the code without the book is caught.
"""

from __future__ import annotations

import re

import pytest

from pungchow.cli import main
from scoring.rulesets import get_rule_set, rule_sets

#: Harr, Part I, Combination Scores: (three or four, twos-to-eights or heads) -> (exposed, concealed).
HARR_SET_CARD = {
    ("pung", "simples"): (2, 4),
    ("pung", "heads"): (4, 8),
    ("kong", "simples"): (8, 16),
    ("kong", "heads"): (16, 32),
}
#: Harr, Part I, Winning Hand Bonus Scores, by rule id.
HARR_BONUS_CARD = {
    "mah-jongg": 20, "no-sequences": 10, "no-other-score": 10, "loose-tile-win": 10,
    "drawing-winning-piece": 2, "only-place-to-win": 2,
}
#: Harr, Part I, Doubling Honors: how many times the total doubles, by rule id (the dragons are per set).
HARR_DOUBLES_CARD = {"own-wind-set": 1, "one-suit-with-honors": 1, "all-one-suit": 3, "all-honors": 3, "original-hand": 3}


def printed_table(capsys: pytest.CaptureFixture[str], name: str) -> str:
    assert main(["rules", name, "--table"]) == 0
    return capsys.readouterr().out


def test_harr_prints_the_score_cards_set_values(capsys: pytest.CaptureFixture[str]) -> None:
    out = printed_table(capsys, "harr-1922")
    rows = {(m[1], m[2]): (int(m[3]), int(m[4]))
            for m in re.finditer(r"^\s+(pung|kong) of (simples|heads)\s+(\d+)\s+(\d+)$", out, re.M)}
    assert rows == HARR_SET_CARD


def test_harr_prints_the_score_cards_bonus_points_and_doubles(capsys: pytest.CaptureFixture[str]) -> None:
    out = printed_table(capsys, "harr-1922")
    values = {m[2]: m[1] for m in re.finditer(r"^\s+(\S+)\s+.*\(([a-z-]+)\) \[", out, re.M)}
    assert {rule: int(v) for rule, v in values.items() if v.startswith("+")} == HARR_BONUS_CARD
    assert {rule: int(v[1:]) for rule, v in values.items() if v.startswith("x")} == {
        rule: 2 ** n for rule, n in HARR_DOUBLES_CARD.items()}


def test_harr_part_two_prints_the_winners_table_and_the_others(capsys: pytest.CaptureFixture[str]) -> None:
    """Part II (p. 65): the winner's concealed threes are worth 6 and 10; the other hands keep 4 and 8."""
    out = printed_table(capsys, "harr-1922-limit")
    winner, others = out.split("(the hands that did not win)")
    assert re.search(r"pung of simples\s+2\s+6$", winner, re.M) and re.search(r"pung of heads\s+4\s+10$", winner, re.M)
    assert re.search(r"pung of simples\s+2\s+4$", others, re.M) and re.search(r"pung of heads\s+4\s+8$", others, re.M)


def test_the_value_table_is_read_from_the_rules_not_written_apart() -> None:
    """Every rule with a fixed value shows it; every set-value table is the one the rule prices from."""
    for rule_set in rule_sets().values():
        table = rule_set.value_table()
        for rule in rule_set.rules:
            if rule.value is not None:
                assert f"{rule.value:>7}  {rule.description}  ({rule.id})" in table
            if rule.values is not None:
                assert f"{rule.values[(True, True, True)]:>10}" in table


def test_a_limit_hand_is_listed_as_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    out = printed_table(capsys, "chinese-classical")
    assert re.search(r"^\s+limit  three great scholars", out, re.M)
    assert get_rule_set("chinese-classical").rules


def test_table_needs_a_name_and_a_name_alone_prints_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--table"]) == 2
    assert "name it" in capsys.readouterr().err
    assert main(["rules", "harr-1922"]) == 0
    assert capsys.readouterr().out == printed_table(capsys, "harr-1922")
    assert main(["rules", "nonesuch", "--table"]) == 2
    assert "unknown rule set" in capsys.readouterr().err
