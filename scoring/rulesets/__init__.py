"""The registry of rule sets, found by name; every module in this package registers its own."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.engine import RuleSet, ScoreLine, ScoreResult, score_with
from scoring.errors import InvalidHandError, UnknownRuleSetError
from scoring.hand import Hand

_REGISTRY: dict[str, RuleSet] = {}


def register(rule_set: RuleSet) -> RuleSet:
    if rule_set.name in _REGISTRY:
        raise ValueError(f"rule set {rule_set.name} registered twice")
    _REGISTRY[rule_set.name] = rule_set
    return rule_set


_loaded = False


def _load_all() -> None:
    global _loaded
    for module in pkgutil.iter_modules(__path__):
        if not module.name.startswith("_"):
            importlib.import_module(f"{__name__}.{module.name}")
    _loaded = True


def rule_sets() -> dict[str, RuleSet]:
    """Every rule set by name, in the order they were registered.

    Loads every module of the package once, even when one of them was imported directly first
    (a module that imports ``harr_1922`` must not hide the other books).
    """
    if not _loaded:
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


@dataclass(frozen=True)
class Refusal:
    """A rule set that does not score this hand, and its reason: one row of the side-by-side table.

    A hand complete under one book may not be under another (seven pairs, a required number of
    doubles); that rule set's row says why instead of stopping the whole table.
    """

    rule_set: str
    reason: str
    total: None = None
    uncapped: None = None
    lines: tuple[ScoreLine, ...] = ()
    alternatives: tuple[ScoreResult, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"rule_set": self.rule_set, "total": None, "refused": self.reason, "lines": []}

    def explain(self) -> str:
        return f"{self.rule_set}: not scored: {self.reason}"


def score_all(hand: Hand, options: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, ScoreResult | Refusal]:
    """The same hand under every rule set, side by side (``--rules all``).

    A hand that cannot exist at the table raises InvalidHandError as ``score_hand`` does; a hand
    that one rule set will not score (not a complete hand there) gets a :class:`Refusal` in that
    rule set's place, and the other rule sets still score it.
    """
    hand.check()
    results: dict[str, ScoreResult | Refusal] = {}
    for name, rs in rule_sets().items():
        try:
            results[name] = score_with(rs, hand, (options or {}).get(name))
        except InvalidHandError as refused:
            results[name] = Refusal(name, str(refused))
    return results
