"""The registry of rule sets, found by name; every module in this package registers its own."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from typing import Any

from scoring.engine import RuleSet, ScoreResult, score_with
from scoring.errors import UnknownRuleSetError
from scoring.hand import Hand

_REGISTRY: dict[str, RuleSet] = {}


def register(rule_set: RuleSet) -> RuleSet:
    if rule_set.name in _REGISTRY:
        raise ValueError(f"rule set {rule_set.name} registered twice")
    _REGISTRY[rule_set.name] = rule_set
    return rule_set


def _load_all() -> None:
    for module in pkgutil.iter_modules(__path__):
        if not module.name.startswith("_"):
            importlib.import_module(f"{__name__}.{module.name}")


def rule_sets() -> dict[str, RuleSet]:
    """Every rule set by name, in the order they were registered."""
    if not _REGISTRY:
        _load_all()
    return dict(_REGISTRY)


def get_rule_set(name: str) -> RuleSet:
    known = rule_sets()
    try:
        return known[name.strip().lower()]
    except KeyError:
        raise UnknownRuleSetError(f"unknown rule set {name!r}; known: {', '.join(known)} (or all)") from None


def score_hand(hand: Hand, rules: str = "harr-1922", options: Mapping[str, Any] | None = None) -> ScoreResult:
    """Score a hand under a rule set found by name.

    >>> h = Hand.parse("7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]", winning_tile="2D", won_by="discard")
    >>> score_hand(h, "harr-1922").total > 0
    True
    """
    return score_with(get_rule_set(rules), hand, options)


def score_all(hand: Hand, options: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, ScoreResult]:
    """The same hand under every rule set, side by side (``--rules all``)."""
    return {name: score_with(rs, hand, (options or {}).get(name)) for name, rs in rule_sets().items()}
