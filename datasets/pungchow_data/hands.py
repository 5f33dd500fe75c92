"""Random finished hands, and how a player lays them out on the table for the photo.

A hand is drawn from one set of tiles (four of each playing tile, one of each bonus tile), so
several hands in one photo never show a fifth 5D. Each hand becomes groups in the words of the
format (concealed row, chow, pung, kong, bonus, winning) with the codes as they *show*: a
concealed kong shows ``XX`` at its ends, or four backs.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from scoring.hand import Hand
from scoring.tiles import BONUS_CODES, PLAYING_CODES, WINDS

SUITS = ("B", "C", "D")
HONOUR_CODES = tuple(c for c in PLAYING_CODES if not c[0].isdigit())
NUMBERED_CODES = tuple(c for c in PLAYING_CODES if c[0].isdigit())
#: Share of pungs, kongs and pairs made of winds and dragons.
HONOUR_SHARE = 0.4


@dataclass
class GroupPlan:
    """One group as laid on the table: its kind, whether exposed, and the codes that show."""

    kind: str
    exposed: bool
    shown: list[str]
    row: int = 0  # 0: the front row (concealed tiles), 1: the row behind it (declared sets, bonus)
    standing: bool = False


@dataclass
class HandPlan:
    """A hand and its layout; ``hand`` is None for a hand whose faces nobody can see."""

    hand: Hand | None
    groups: list[GroupPlan] = field(default_factory=list)


class Wall:
    """The wall: the tiles of the one physical set on the table not yet dealt into a hand."""

    def __init__(self) -> None:
        self.left: Counter[str] = Counter({c: 4 for c in PLAYING_CODES})
        self.left.update({c: 1 for c in BONUS_CODES})

    def take(self, codes: list[str]) -> bool:
        need = Counter(codes)
        if any(self.left[c] < n for c, n in need.items()):
            return False
        self.left.subtract(need)
        return True


def _draw_set(rng: np.random.Generator, tiles: Wall, kind: str) -> list[str] | None:
    """Take a chow, pung, kong or pair from the set, or None when the draw is not available."""
    for _ in range(20):
        if kind == "chow":
            suit = SUITS[rng.integers(3)]
            start = int(rng.integers(1, 8))
            codes = [f"{start + k}{suit}" for k in range(3)]
        else:
            # honours come only as pungs, kongs and pairs: draw them more often so classes stay near balanced
            pool = HONOUR_CODES if rng.random() < HONOUR_SHARE else NUMBERED_CODES
            code = pool[rng.integers(len(pool))]
            codes = [code] * {"pung": 3, "kong": 4, "pair": 2}[kind]
        if tiles.take(codes):
            return codes
    return None


def random_hand(rng: np.random.Generator, tiles: Wall, *, winner: bool = True, seat_wind: str = "E") -> HandPlan:
    """A legal hand (4 sets and a pair; a loser drops one tile) and its groups on the table."""
    for _ in range(50):
        plan = _try_hand(rng, tiles, winner=winner, seat_wind=seat_wind)
        if plan is not None:
            return plan
    raise RuntimeError("could not draw a hand from the remaining tiles")


def _try_hand(rng: np.random.Generator, tiles: Wall, *, winner: bool, seat_wind: str) -> HandPlan | None:
    snapshot = tiles.left.copy()
    sets: list[tuple[str, list[str], bool]] = []
    for _ in range(4):
        kind = str(rng.choice(["chow", "pung", "kong"], p=[0.45, 0.37, 0.18]))
        codes = _draw_set(rng, tiles, kind)
        if codes is None:
            tiles.left = snapshot
            return None
        sets.append((kind, codes, bool(rng.random() < 0.45)))
    pair = _draw_set(rng, tiles, "pair")
    if pair is None:
        tiles.left = snapshot
        return None
    concealed = list(pair)
    for kind, codes, exposed in sets:
        if not exposed and kind != "kong":
            concealed += codes
    if not winner:
        dropped = concealed.pop(int(rng.integers(len(concealed))))
        tiles.left[dropped] += 1
    bonus: list[str] = []
    n_bonus = int(rng.choice([0, 1, 2, 3, 4], p=[0.2, 0.25, 0.25, 0.15, 0.15]))
    for code in rng.permutation(BONUS_CODES)[:n_bonus]:
        if tiles.take([str(code)]):
            bonus.append(str(code))

    groups: list[GroupPlan] = []
    melds_text: list[str] = []
    for kind, codes, exposed in sets:
        if exposed:
            melds_text.append("[" + "".join(codes) + "]")
            shown = list(codes)
            groups.append(GroupPlan(kind, True, shown, row=1))
        elif kind == "kong":
            melds_text.append("(" + "".join(codes) + ")")
            shown = ["XX", codes[1], codes[2], "XX"] if rng.random() < 0.7 else ["XX"] * 4
            groups.append(GroupPlan("kong", False, shown, row=1))
    winning_tile: str | None = None
    won_by: str | None = None
    row = sorted(concealed, key=PLAYING_CODES.index) if rng.random() < 0.75 else [str(c) for c in rng.permutation(concealed)]
    if winner:
        won_by = "wall" if rng.random() < 0.5 else "discard"
        winning_tile = row[int(rng.integers(len(row)))] if row else None
        if winning_tile and rng.random() < 0.35:
            row.remove(winning_tile)
            groups.append(GroupPlan("winning", False, [winning_tile], row=0))
    groups.insert(0, GroupPlan("concealed", False, row, row=0))
    if bonus:
        groups.append(GroupPlan("bonus", True, bonus, row=1))
    notation = "".join(concealed) + " " + " ".join(melds_text) + " " + "".join(bonus)
    hand = Hand.parse(
        notation,
        winning_tile=winning_tile,
        won_by=won_by,
        seat_wind=seat_wind,
        prevailing_wind=WINDS[int(rng.integers(4))],
        winner=winner,
    )
    return HandPlan(hand, groups)


def hidden_hand(n: int = 13) -> HandPlan:
    """Another player's hand seen from behind: a standing row of backs, no hand to score."""
    return HandPlan(None, [GroupPlan("concealed", False, ["XX"] * n, row=0, standing=True)])
