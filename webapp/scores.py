"""Scoring as the page shows it: the rows of a score's breakdown. Scoring itself, options and the
side-by-side table come from :mod:`scoring.service`, the same calls the command line makes."""

from __future__ import annotations

from typing import Any

from scoring.api import ScoreResult
from scoring.engine import Score
from scoring.service import total_text

__all__ = ["alternative_rows", "breakdown_rows", "total_text"]


def breakdown_rows(score: Score | ScoreResult) -> list[dict[str, str]]:
    """One row per score line: value, what was found and where the book says so (the rule's id is for the JSON, not the player)."""
    return [
        {"value": line.value, "for": line.description, "citation": str(line.citation)}
        for line in score.lines
    ]


def alternative_rows(result: ScoreResult) -> list[dict[str, Any]]:
    """Every other way to read the same tiles, with its score, best first."""
    return [{"arrangement": str(alt.arrangement), "total": alt.total, "lines": len(alt.lines)} for alt in result.alternatives]
