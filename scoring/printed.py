"""A score as it was printed, read back: what a record (the history, a referee's copy) keeps of a scored hand.

A record keeps what the players were shown, not the rule book's objects: the arrangement as its text, each line with
its citation as printed. :meth:`PrintedScore.from_dict` reads what ``ScoreResult.to_dict`` prints, and
:meth:`PrintedScore.to_dict` prints it again unchanged, so a kept score is never silently altered on its way back.

>>> from scoring.api import Hand, score_hand
>>> result = score_hand(Hand.parse("7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]", winning_tile="2D", won_by="discard"), "harr-1922")
>>> kept = PrintedScore.from_dict(result.to_dict())
>>> kept.to_dict() == result.to_dict(), kept.total == result.total
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.engine import Citation, ScoreLine
from scoring.errors import PungChowError


class PrintedScoreError(PungChowError, ValueError):
    """What was kept is not a score as this program prints it."""


@dataclass(frozen=True)
class PrintedScore:
    """One scored hand as printed: the best arrangement's score, with the hand and every other arrangement's score.

    An alternative arrangement is printed without the hand, the reading or alternatives of its own: there they are None.
    ``without_limit`` is what a limit hand's lines alone come to; a record kept before it was printed has None.
    """

    rule_set: str
    version: str
    arrangement: str
    shape: str
    total: int
    uncapped: int
    lines: tuple[ScoreLine, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    without_limit: int | None = None
    hand: str | None = None
    reading: str | None = None
    alternatives: tuple[PrintedScore, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The score as ``ScoreResult.to_dict`` printed it (``Score.to_dict`` for an alternative)."""
        data: dict[str, Any] = {
            "rule_set": self.rule_set,
            "version": self.version,
            "arrangement": self.arrangement,
            "shape": self.shape,
            "total": self.total,
            "uncapped": self.uncapped,
            "lines": [line.to_dict() for line in self.lines],
            "options": dict(self.options),
        }
        if self.without_limit is not None:
            data["without_limit_hand"] = self.without_limit
        if self.hand is not None:
            data["hand"] = self.hand
        if self.reading is not None:
            data["reading"] = self.reading
        if self.alternatives is not None:
            data["alternatives"] = [alt.to_dict() for alt in self.alternatives]
        return data

    @classmethod
    def from_dict(cls, data: Any) -> PrintedScore:
        """The score :meth:`to_dict` printed, read back: ``from_dict(d).to_dict() == d`` for every ``d`` it prints.

        Anything else (a key missing or unknown, a number that is not whole) is refused, never half read.
        """
        try:
            return _score(data)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise PrintedScoreError(f"not a score as pungchow prints it ({type(exc).__name__}: {exc})") from None


def _score(data: Mapping[str, Any]) -> PrintedScore:
    alternatives = data.get("alternatives")
    score = PrintedScore(
        text(data["rule_set"]), text(data["version"]), text(data["arrangement"]), text(data["shape"]),
        whole(data["total"]), whole(data["uncapped"]), tuple(_line(line) for line in data["lines"]),
        dict(data["options"]),
        without_limit=None if "without_limit_hand" not in data else whole(data["without_limit_hand"]),
        hand=None if "hand" not in data else text(data["hand"]),
        reading=None if "reading" not in data else text(data["reading"]),
        alternatives=None if alternatives is None else tuple(_score(alt) for alt in alternatives),
    )
    if score.alternatives is not None and any(alt.hand is not None or alt.alternatives is not None for alt in score.alternatives):
        raise ValueError("an alternative arrangement names a hand or alternatives of its own")
    printed = score.to_dict()
    if printed != data:
        differ = sorted(key for key in set(printed) | set(data) if printed.get(key) != data.get(key))
        raise ValueError(f"{', '.join(differ)} not as printed")
    return score


def _line(data: Mapping[str, Any]) -> ScoreLine:
    return ScoreLine(text(data["rule"]), text(data["description"]), Citation(text(data["citation"]), "", ""),
                     whole(data["points"]), whole(data["doubles"]), yes(data["limit_hand"]))


# --- a printed record's fields read back: each refuses a value of another kind (the record is then damaged) ---


def whole(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{value!r} is not a whole number")
    return value


def whole_or_none(value: Any) -> int | None:
    return None if value is None else whole(value)


def text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not text")
    return value


def text_or_none(value: Any) -> str | None:
    return None if value is None else text(value)


def yes(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{value!r} is not true or false")
    return value
