"""How long scoring one hand takes: the median over many runs (goal: 1 ms or less).

The worst case is the nine gates, ``1B1B1B2B3B4B5B6B7B8B9B9B9B`` plus any bamboo: it has the
most arrangements and the most waiting tiles. Every rule set is timed on each of the nine, and
on the book's worked examples for comparison.

    python bench/bench_score.py [--repeat 200] [--rules harr-1922]
"""

from __future__ import annotations

import argparse
import statistics
import time
import tomllib
from pathlib import Path

from scoring.hand import Hand
from scoring.rulesets import rule_sets, score_hand

NINE_GATES = "1B1B1B2B3B4B5B6B7B8B9B9B9B"
BOOK_HANDS = Path(__file__).parents[1] / "tests" / "book_hands" / "harr_1922.toml"


def nine_gates_hands() -> list[Hand]:
    """The nine gates completed by each bamboo, drawn from the wall."""
    return [Hand.parse(NINE_GATES + f"{n}B", winning_tile=f"{n}B", won_by="wall") for n in range(1, 10)]


def book_hands() -> list[tuple[str, Hand]]:
    examples = tomllib.loads(BOOK_HANDS.read_text())["example"]
    return [
        (e["rules"], Hand.parse(e["hand"], winning_tile=e.get("winning"), won_by=e.get("won_by"),
                                seat_wind=e.get("seat", "E"), prevailing_wind=e.get("round", "E")))
        for e in examples
    ]


def median_ms(hand: Hand, rules: str, repeat: int) -> float:
    """Median wall time of ``score_hand`` on one hand, in milliseconds."""
    score_hand(hand, rules)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        score_hand(hand, rules)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="runs per hand (default 200)")
    parser.add_argument("--rules", action="append", help="rule set(s) to time (default: every one)")
    args = parser.parse_args()
    names = args.rules or list(rule_sets())
    for name in names:
        gates = [median_ms(hand, name, args.repeat) for hand in nine_gates_hands()]
        print(f"{name:<20} nine gates + any bamboo: median {statistics.median(gates):.3f} ms, worst {max(gates):.3f} ms")
    book = [median_ms(hand, rules, args.repeat) for rules, hand in book_hands()]
    print(f"{'harr book examples':<20} {len(book)} hands: median {statistics.median(book):.3f} ms, worst {max(book):.3f} ms")


if __name__ == "__main__":
    main()
