"""Scoring as the page shows it: one rule set or all side by side, each line with its citation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.api import Hand, RuleSet, ScoreLine, ScoreResult, get_rule_set, rule_sets, score_hand
from scoring.engine import Score
from scoring.errors import PungChowError


def value_text(line: ScoreLine) -> str:
    """What a line is worth, as a player says it: +2, x2, limit."""
    if line.limit_hand:
        return "limit"
    if line.doubles:
        return f"x{2 ** line.doubles}" if line.doubles > 0 else f"/{2 ** -line.doubles}"
    return f"{line.points:+d}"


def breakdown_rows(score: Score | ScoreResult) -> list[dict[str, str]]:
    """One row per score line: value, what was found, the rule's id and where it is written."""
    return [
        {"value": value_text(line), "for": line.description, "rule": line.rule, "citation": str(line.citation)}
        for line in score.lines
    ]


def total_text(score: Score | ScoreResult) -> str:
    if score.total != score.uncapped:
        return f"{score.total} (capped at the limit; {score.uncapped} before the cap)"
    return str(score.total)


def option_defaults(rule_set: RuleSet) -> dict[str, Any]:
    return {o.name: o.default for o in rule_set.options}


def known_options(rules: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Only the options this rule set has: a table's choices for one book never break another."""
    names = {o.name for o in get_rule_set(rules).options}
    return {k: v for k, v in (options or {}).items() if k in names}


def score_one(hand: Hand, rules: str, options: Mapping[str, Any] | None = None) -> ScoreResult:
    return score_hand(hand, rules, known_options(rules, options))


@dataclass(frozen=True)
class BookScore:
    """One rule set's verdict on a hand: a score, or why that book cannot score it."""

    rules: str
    title: str
    version: str
    result: ScoreResult | None
    problem: str | None = None


def side_by_side(hand: Hand, options_by_rules: Mapping[str, Mapping[str, Any]] | None = None) -> list[BookScore]:
    """The hand under every rule set; a book that rejects the hand says why instead of hiding."""
    out: list[BookScore] = []
    for name, rs in rule_sets().items():
        try:
            result = score_one(hand, name, (options_by_rules or {}).get(name))
            out.append(BookScore(name, rs.title, rs.version, result))
        except PungChowError as exc:
            out.append(BookScore(name, rs.title, rs.version, None, str(exc)))
    return out


def alternative_rows(result: ScoreResult) -> list[dict[str, Any]]:
    """Every other way to read the same tiles, with its score, best first."""
    return [{"arrangement": str(alt.arrangement), "total": alt.total, "lines": len(alt.lines)} for alt in result.alternatives]
