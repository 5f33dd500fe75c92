"""What a rule looks at: one hand, one arrangement of it, and the table's chosen options.

The predicates here are the book's own words ("all one suit", "own wind", "heads") so that a
rule reads like its sentence in the book.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from scoring.arrange import Arrangement, Shape, waiting_tiles
from scoring.hand import Hand, WinMethod
from scoring.melds import Meld, MeldKind
from scoring.tiles import NUMBERED_SUITS, Suit, Tile, wind_tile


@dataclass(frozen=True)
class ScoreContext:
    hand: Hand
    arrangement: Arrangement
    options: Mapping[str, Any] = field(default_factory=dict)

    # --- the hand's circumstances ----------------------------------------------------------------

    @property
    def winner(self) -> bool:
        return self.hand.winner

    @property
    def won_by(self) -> WinMethod | None:
        return self.hand.won_by

    @property
    def self_drawn(self) -> bool:
        """The winning tile was drawn, not taken from a discard."""
        return bool(self.hand.won_by and self.hand.won_by.self_drawn)

    @property
    def own_wind(self) -> Tile:
        return wind_tile(self.hand.seat_wind)

    @property
    def round_wind(self) -> Tile:
        return wind_tile(self.hand.prevailing_wind)

    @property
    def is_east(self) -> bool:
        return self.hand.seat_wind == "E"

    # --- the arrangement ------------------------------------------------------------------------

    @property
    def shape(self) -> Shape:
        return self.arrangement.shape

    @property
    def sets(self) -> tuple[Meld, ...]:
        """Chows, pungs and kongs (no pairs)."""
        return self.arrangement.melds

    @cached_property
    def pungs_and_kongs(self) -> tuple[Meld, ...]:
        return tuple(m for m in self.sets if m.is_set_of_alike)

    @cached_property
    def chows(self) -> tuple[Meld, ...]:
        return tuple(m for m in self.sets if m.kind is MeldKind.CHOW)

    @property
    def pairs(self) -> tuple[Meld, ...]:
        return self.arrangement.pairs

    @property
    def pair(self) -> Meld | None:
        return self.arrangement.pair

    @property
    def winning_meld(self) -> Meld | None:
        return self.arrangement.winning_meld

    def counts_as_concealed(self, meld: Meld) -> bool:
        """A set is concealed unless declared exposed, or completed by the winning discard.

        Most books treat a set in the hand that a discard completes at the end as exposed,
        since the player had to show it to claim the discard.
        """
        if not meld.concealed:
            return False
        if self.won_by in (WinMethod.DISCARD, WinMethod.ROBBED_KONG) and self.winning_meld == meld:
            return meld.kind is MeldKind.PAIR
        return True

    # --- the tiles ------------------------------------------------------------------------------

    @cached_property
    def tiles(self) -> tuple[Tile, ...]:
        return self.hand.tiles

    @cached_property
    def suits(self) -> frozenset[Suit]:
        """The numbered suits present."""
        return frozenset(t.suit for t in self.tiles if t.is_numbered)

    @property
    def has_honours(self) -> bool:
        return any(t.is_honour for t in self.tiles)

    @property
    def all_one_suit(self) -> bool:
        """Clean: every tile of one numbered suit, no honours."""
        return len(self.suits) == 1 and not self.has_honours

    @property
    def one_suit_with_honours(self) -> bool:
        """Mixed: one numbered suit plus winds or dragons."""
        return len(self.suits) == 1 and self.has_honours

    @property
    def all_honours(self) -> bool:
        return bool(self.tiles) and all(t.is_honour for t in self.tiles)

    @property
    def all_heads(self) -> bool:
        """Only ones, nines, winds and dragons."""
        return bool(self.tiles) and all(t.is_major for t in self.tiles)

    @property
    def no_chows(self) -> bool:
        return self.shape is Shape.STANDARD and not self.chows

    @property
    def all_chows(self) -> bool:
        return self.shape is Shape.STANDARD and len(self.chows) == 4

    @cached_property
    def waits(self) -> frozenset[Tile]:
        """Tiles that would have completed the hand in place of the winning tile."""
        return waiting_tiles(self.hand)

    @cached_property
    def single_wait(self) -> bool:
        """Only one tile would have completed the hand (stops looking at the second)."""
        if "waits" in self.__dict__:
            return len(self.waits) == 1
        return len(waiting_tiles(self.hand, enough=2)) == 1

    @property
    def fully_concealed(self) -> bool:
        """Nothing declared exposed (concealed kongs allowed) and not finished on a discard."""
        return all(m.concealed for m in self.hand.melds) and self.self_drawn

    def is_scoring_pair(self, pair: Meld) -> bool:
        """A pair of dragons, of the player's own wind or of the round's wind."""
        tile = pair.tile
        return tile.is_dragon or tile in (self.own_wind, self.round_wind)


__all__ = ["NUMBERED_SUITS", "ScoreContext"]
