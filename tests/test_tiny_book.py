"""Adding a book is one module and one data file: a made-up pamphlet scores and settles a hand.

``tests/fixtures/tiny_book.py`` (with ``tiny_book.toml``) defines a rule set of two rules and its
own settling; registering them is all it takes for scoring, ``--rules all``, the value table and
the table file to know the book.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from pungchow.cli import main
from scoring.rulesets import get_rule_set, register, score_all, score_hand, unregister
from scoring.settle import register_settling, settle, table_from_dict
from scoring.settle.registry import unregister_settling

from conftest import because, book_hand
from fixtures import tiny_book


@pytest.fixture
def tiny() -> Iterator[None]:
    register(tiny_book.RULE_SET)
    register_settling(tiny_book.SETTLING_BOOK)
    try:
        yield
    finally:
        unregister(tiny_book.NAME)
        unregister_settling(tiny_book.NAME)


@pytest.mark.parametrize("entry", tiny_book.DATA["hand"], ids=lambda e: e["hand"])
def test_the_tiny_book_scores_its_hands_line_by_line(tiny: None, entry: dict[str, Any]) -> None:
    result = score_hand(book_hand(entry), "tiny")
    assert result.total == entry["total"]
    assert sorted(because(line) for line in result.lines) == sorted(entry["because"])
    assert all(line.citation.book == tiny_book.BOOK for line in result.lines)


def test_the_tiny_book_settles_with_its_own_rules(tiny: None) -> None:
    entry = tiny_book.DATA["hand"][1]
    winner = book_hand({**entry, "seat": "S"}).to_dict()
    table = table_from_dict({
        "schema": "pungchow/table", "version": 1, "rules": tiny_book.NAME,
        "players": [{"seat": "E", "score": 0}, {"seat": "S", "hand": winner}, {"seat": "W", "score": 0},
                    {"seat": "N", "score": 0}],
    })
    assert table.book == tiny_book.NAME and table.limit == tiny_book.DATA["limit"]
    settlement = settle(table)
    # The pamphlet's East does not pay double: each loser pays the winner's 20.
    assert {(p.payer, p.payee, p.amount) for p in settlement.payments} == {
        ("East", "South", 20), ("West", "South", 20), ("North", "South", 20)}
    assert all(str(p.citation).startswith(tiny_book.BOOK) for p in settlement.payments)


def test_the_tiny_book_is_known_everywhere_a_book_is(tiny: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert get_rule_set("tiny") is get_rule_set("tiny-1930")
    assert tiny_book.NAME in score_all(book_hand(tiny_book.DATA["hand"][0]))
    assert main(["rules", "tiny", "--table"]) == 0
    out = capsys.readouterr().out
    assert "+10  going out  (going-out)" in out and "x2  no chows anywhere in the hand  (no-chows)" in out


def test_without_registering_the_book_is_unknown() -> None:
    assert main(["rules", "tiny", "--table"]) == 2
