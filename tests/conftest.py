"""What several test files share: reading the book-hands files and writing a score line as they do.

``tests/book_hands/<rule set module>.toml`` holds one book's worked hands, each with the lines it
must score (``because`` or ``lines``: "rule +points", "rule xfactor" or "rule limit").
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import tomllib

from scoring.engine import ScoreLine, ScoreResult
from scoring.hand import Hand

BOOK_HANDS = Path(__file__).with_name("book_hands")


def because(line: ScoreLine) -> str:
    """A score line as the book-hands files write it: rule id, then +points, xfactor or limit."""
    if line.limit_hand:
        return f"{line.rule} limit"
    if line.doubles:
        return f"{line.rule} x{2 ** line.doubles}"
    return f"{line.rule} {line.points:+d}"


def fired(result: ScoreResult) -> Counter[str]:
    """How many lines each rule gave the best arrangement."""
    return Counter(line.rule for line in result.lines)


def book_hand(entry: dict[str, Any]) -> Hand:
    """The hand of one book-hands entry; seat and round default to East."""
    return Hand.parse(
        entry["hand"],
        winning_tile=entry.get("winning"),
        won_by=entry.get("won_by"),
        seat_wind=entry.get("seat", "E"),
        prevailing_wind=entry.get("round", "E"),
        winner=entry.get("winner", True),
        flags=frozenset(entry.get("flags", ())),
    )


def book_hands(name: str, table: str = "example") -> list[dict[str, Any]]:
    """The entries of ``tests/book_hands/<name>.toml``."""
    entries: list[dict[str, Any]] = tomllib.loads((BOOK_HANDS / f"{name}.toml").read_text(encoding="utf-8"))[table]
    return entries


def all_book_hands() -> list[tuple[str, dict[str, Any]]]:
    """Every entry of every book-hands file, with the file's name."""
    out = []
    for path in sorted(BOOK_HANDS.glob("*.toml")):
        for entries in tomllib.loads(path.read_text(encoding="utf-8")).values():
            if isinstance(entries, list):
                out += [(path.stem, entry) for entry in entries if isinstance(entry, dict) and "hand" in entry]
    return out


@pytest.fixture(autouse=True)
def own_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's player has a data folder of their own: a tile corrected on the page teaches their set
    (kept in ``$PUNGCHOW_HOME/history.sqlite3``), which must never be the user's, nor another test's."""
    monkeypatch.setenv("PUNGCHOW_HOME", str(tmp_path / "pungchow-home"))
    monkeypatch.delenv("PUNGCHOW_DB", raising=False)
