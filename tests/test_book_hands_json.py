"""Every hand of every book-hands file survives its own JSON: read back equal, scored the same."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.hand import Hand
from scoring.rulesets import score_hand

from conftest import all_book_hands, because, book_hand

HANDS = all_book_hands()


def test_there_is_a_book_hands_file_for_every_book() -> None:
    assert {book for book, _ in HANDS} == {"harr_1922", "foster_1924", "british_1920s", "chinese_classical"}


@pytest.mark.parametrize("book, entry", HANDS, ids=[f"{b}:{e['id']}:{e['rules']}" for b, e in HANDS])
def test_a_book_hand_reads_back_from_its_json_and_scores_the_same(book: str, entry: dict[str, Any]) -> None:
    hand = book_hand(entry)
    again = Hand.from_json(hand.to_json())
    assert again == hand
    result = score_hand(again, entry["rules"])
    assert result.total == entry["total"]
    assert sorted(because(line) for line in result.lines) == sorted(entry["because"])
