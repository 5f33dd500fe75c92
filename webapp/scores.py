"""Scoring as the page shows it: the rows of a score's breakdown. Scoring itself, options and the
side-by-side table come from :mod:`scoring.service`, the same calls the command line makes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.api import ScoreResult
from scoring.engine import Score, ScoreLine, doubled
from scoring.service import total_text

__all__ = ["alternative_rows", "breakdown_rows", "line_rows", "total_text"]


def breakdown_rows(score: Score | ScoreResult) -> list[dict[str, str]]:
    """One row per score line: value, what was found and where the book says so (the rule's id is for the JSON, not the player).

    Read down as the book adds up: the points, their subtotal, the doubles and the total they make (the
    command line's ``= 26 points`` and ``= 52 after 1 double``), so a player can check each step.
    """
    return line_rows(score.lines)


def line_rows(score_lines: Sequence[ScoreLine]) -> list[dict[str, str]]:
    """The breakdown's rows for these lines, with the subtotals (see :func:`breakdown_rows`)."""
    lines = sorted(score_lines, key=lambda line: line.order)
    points = [line for line in lines if line.order == 0]
    doubling = [line for line in lines if line.order == 1]
    rows = [_row(line) for line in points]
    if doubling:
        rows.append(_subtotal(sum(line.points for line in points), "points"))
        rows += [_row(line) for line in doubling]
        count = sum(line.doubles for line in doubling)
        rows.append(_subtotal(doubled(points + doubling), f"after {count} double{'s' if abs(count) != 1 else ''}"))
    return rows + [_row(line) for line in lines if line.order > 1]


def _row(line: ScoreLine) -> dict[str, str]:
    return {"value": line.value, "for": line.description, "citation": str(line.citation)}


def _subtotal(running: int, after: str) -> dict[str, str]:
    return {"value": f"= {running}", "for": after, "citation": ""}


def alternative_rows(result: ScoreResult) -> list[dict[str, Any]]:
    """Every other way to read the same tiles, with its score, best first."""
    return [{"arrangement": str(alt.arrangement), "total": alt.total, "lines": len(alt.lines)} for alt in result.alternatives]
