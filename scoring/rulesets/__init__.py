"""The registry of rule sets, found by name or alias.

Each book's module defines its rule sets and lists them in ``RULE_SETS``; importing a module
registers nothing. The registry reads the books named in :data:`BOOKS` once, in that order, the
first time a rule set is asked for, so the order never depends on which module was imported first.
A rule set from elsewhere (a house book, a test's made-up book) is added with :func:`register`.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.engine import RuleSet, ScoreLine, ScoreResult, score_checked, score_with
from scoring.errors import InvalidHandError, UnknownRuleSetError
from scoring.hand import Hand

#: The modules of the books this package holds, in the order they are listed and scored side by side.
BOOKS: tuple[str, ...] = ("british_1920s", "chinese_classical", "foster_1924", "harr_1922")

_REGISTRY: dict[str, RuleSet] = {}
_ADDED: dict[str, RuleSet] = {}


def _book_rule_sets() -> dict[str, RuleSet]:
    if not _REGISTRY:
        found: dict[str, RuleSet] = {}
        for module in BOOKS:
            for rule_set in importlib.import_module(f"{__name__}.{module}").RULE_SETS:
                _check_new(rule_set, found)
                found[rule_set.name] = rule_set
        _REGISTRY.update(found)
    return _REGISTRY


def _check_new(rule_set: RuleSet, known: Mapping[str, RuleSet]) -> None:
    taken = {name for rs in known.values() for name in (rs.name, *rs.aliases)}
    clash = taken & {rule_set.name, *rule_set.aliases}
    if clash:
        raise ValueError(f"rule set {rule_set.name}: the name {', '.join(sorted(clash))} is taken")


def register(rule_set: RuleSet) -> RuleSet:
    """Add a rule set not among :data:`BOOKS` (a house book); its name and aliases must be new."""
    _check_new(rule_set, {**_book_rule_sets(), **_ADDED})
    _ADDED[rule_set.name] = rule_set
    return rule_set


def unregister(name: str) -> None:
    """Remove a rule set added with :func:`register` (the books' own stay)."""
    _ADDED.pop(name, None)


def rule_sets() -> dict[str, RuleSet]:
    """Every rule set by name: the books in :data:`BOOKS` order, then any added."""
    return {**_book_rule_sets(), **_ADDED}


def get_rule_set(name: str) -> RuleSet:
    """The rule set called ``name`` or one of its aliases (any case, spaces around ignored)."""
    known = rule_sets()
    wanted = name.strip().lower()
    for rule_set in known.values():
        if wanted == rule_set.name or wanted in rule_set.aliases:
            return rule_set
    raise UnknownRuleSetError(f"unknown rule set {name!r}; known: {', '.join(known)} (or all)")


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
    return score_each(hand, options)


def score_each(hand: Hand, options: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, ScoreResult | Refusal]:
    """``score_all`` for a hand already checked (``Hand.check``)."""
    results: dict[str, ScoreResult | Refusal] = {}
    for name, rs in rule_sets().items():
        try:
            results[name] = score_checked(rs, hand, (options or {}).get(name))
        except InvalidHandError as refused:  # one problem keeps its codes, for each surface to word
            results[name] = Refusal(name, refused.problems[0] if len(refused.problems) == 1 else str(refused))
    return results
