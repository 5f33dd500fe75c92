"""Helpers the history tests share: a real hand and its real score, as the pages save them."""

from __future__ import annotations

from scoring.api import Hand, ScoreResult, score_hand

#: Ann's hand off a discard of the 2 of dots: 22 under Harr (1922).
ANN = Hand.parse("7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]", winning_tile="2D", won_by="discard")


def scored(hand: Hand = ANN, rules: str = "harr-1922") -> ScoreResult:
    """The hand's score under the rule set, as *Score a hand* and *Settle the table* score it."""
    return score_hand(hand, rules)
