"""A finished hand as seen at the table: the contract between recognizer, scorer and page.

Notation: concealed tiles first, then each declared set in brackets, ``[2D2D2D]`` exposed and
``(1D1D1D1D)`` or ``(XX1D1DXX)`` a concealed kong; bonus tiles may stand anywhere outside
brackets. A ``*`` right after a set marks it as the set the winning tile completed
(``[3C4C5C]*``): a photo of a hand won on a discard shows that set laid out, but it was concealed
until the win. How the hand was won travels beside the notation (``--winning``, ``--won-by``).

>>> h = Hand.parse("7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]", winning_tile="2D", won_by="discard")
>>> str(h)
'6C7C7C8C8C9CSWSW [2D2D2D] [5C6C7C]'
>>> Hand.from_json(h.to_json()) == h
True
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Any

from scoring.errors import Ask, InvalidHandError, NotationError, Problem
from scoring.jsonfile import JsonInputError, load_json, schema_problems
from scoring.melds import Meld, MeldKind
from scoring.tiles import COPIES_OF_A_TILE, Tile, format_tiles, parse_tile, parse_tiles
from scoring.tiles import Wind as Wind  # the one Wind, named here too: a hand's seat and round

SCHEMA_PATH = Path(__file__).with_name("schema") / "hand.v2.json"
SCHEMA_ID = "pungchow/hand"
#: Version 2 adds the mark on the set the winning tile completed (``"winning": true``) and the
#: ``first-discard`` flag; a version 1 file reads unchanged (:func:`migrate_hand_json`).
SCHEMA_VERSION = 2


class WinMethod(str, Enum):
    """How the last tile came to the winner; several bonuses and limit hands depend on it."""

    WALL = "wall"
    DISCARD = "discard"
    LOOSE_TILE = "loose-tile"
    LAST_TILE = "last-tile"
    ROBBED_KONG = "robbed-kong"
    ORIGINAL_HAND = "original-hand"

    @classmethod
    def parse(cls, text: str) -> WinMethod:
        try:
            return cls(text.strip().lower())
        except ValueError:
            names = ", ".join(m.value for m in cls)
            raise NotationError(f"unknown way of winning {text!r}: use one of {names}") from None

    @property
    def self_drawn(self) -> bool:
        """The winning tile came from the wall, not from another player."""
        return self in (WinMethod.WALL, WinMethod.LOOSE_TILE, WinMethod.LAST_TILE, WinMethod.ORIGINAL_HAND)


def parse_wind(text: str, what: str) -> Wind:
    """``E``/``east`` ... ``N``/``north`` -> the wind; anything else is an error, never a guess."""
    return Wind.parse(text, what)


class Flag(str, Enum):
    """A circumstance of the win that the tiles cannot show, as some books score it."""

    KONG_ON_KONG = "kong-on-kong"
    DELAYED_CALL = "delayed-call"
    LAST_DISCARD = "last-discard"
    FIRST_DISCARD = "first-discard"

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    @property
    def description(self) -> str:
        return _FLAG_DESCRIPTIONS[self]


_FLAG_DESCRIPTIONS: dict[Flag, str] = {
    Flag.KONG_ON_KONG: "the loose tile after a kong made a second kong, and the next loose tile won (Foster limit XV)",
    Flag.DELAYED_CALL: "the player announced a one-tile wait after East's first discard and won unaltered (Foster law 92)",
    Flag.LAST_DISCARD: "won on the discard that followed the last tile of the wall (Foster law 89)",
    Flag.FIRST_DISCARD: "won on the first tile played in the hand (Harr Part II, bonus 5: half the limit)",
}

#: Each flag's name and what it means (the CLI's and the page's choices).
FLAGS: dict[str, str] = {flag.value: flag.description for flag in Flag}

#: Where the books say how each way of winning comes about: a hand that contradicts them cannot have
#: happened at the table, so it is refused with the rule, never scored (``Hand.problems``).
ROBBING_A_KONG = "Foster, American Code (1924), Part II, Law 90: Robbing a Kong"
LOOSE_TILES = "Harr, Pung Chow (1922), Part I, Four of a Kind: the loose tile"
HEAVENLY_PEACE = "Foster, American Code (1924), Part II, Law 100: Limit Hands, X. Heavenly Peace"
KONG_ON_KONG = "Foster, American Code (1924), Part II, Law 100: Limit Hands, XV. Kong on Kong"
FIRST_CARD_PLAYED = "Harr, Pung Chow (1922), Part II, Bonus Scores (p. 62), 5; Foster, Law 100, XI. Earthly Peace"


def _as_flag(value: Flag | str) -> Flag | str:
    """``value`` as a :class:`Flag` when it names one; otherwise as given, for ``problems`` to report."""
    try:
        return Flag(value)
    except ValueError:
        return value


def _as_enum(kind: type[Enum], value: object) -> object:
    """``value`` as a member of ``kind`` when it names one; otherwise as given, for ``problems`` to report."""
    try:
        return kind(value)
    except ValueError:
        return value


_BRACKET_RE = re.compile(r"(\[[^\]]*\]|\([^)]*\))(\*?)")
#: The mark after a set that the winning tile completed.
WINNING_MARK = "*"


@dataclass(frozen=True)
class Hand:
    """One player's tiles at the end of a hand, and the circumstances that affect its score."""

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    bonus: tuple[Tile, ...] = ()
    winning_tile: Tile | None = None
    won_by: WinMethod | None = None
    seat_wind: Wind = Wind.EAST
    prevailing_wind: Wind = Wind.EAST
    winner: bool = True
    flags: frozenset[Flag | str] = frozenset()
    """The circumstances; a name that is no :class:`Flag` stays text, for :meth:`problems` to name."""
    winning_set: int | None = None
    """Index in ``melds`` of the set the winning tile completed, when the hand says so (``*``)."""

    def __post_init__(self) -> None:
        """Winds and flags given by name become the enums; an unknown one stays for ``problems`` to name."""
        object.__setattr__(self, "seat_wind", _as_enum(Wind, self.seat_wind))
        object.__setattr__(self, "prevailing_wind", _as_enum(Wind, self.prevailing_wind))
        object.__setattr__(self, "flags", frozenset(_as_flag(f) for f in self.flags))

    @classmethod
    def from_parts(
        cls,
        loose: list[Tile] | tuple[Tile, ...],
        melds: list[Meld] | tuple[Meld, ...] = (),
        *,
        winning_tile: str | Tile | None = None,
        won_by: str | WinMethod | None = None,
        seat_wind: str | Wind = Wind.EAST,
        prevailing_wind: str | Wind = Wind.EAST,
        winner: bool = True,
        flags: frozenset[str] | set[str] | tuple[str, ...] | frozenset[Flag] = frozenset(),
        winning_set: int | None = None,
    ) -> Hand:
        """A hand from loose tiles and declared sets: the bonus tiles set apart, the rest sorted, tiles,
        winds and the way of winning read from their names. Nothing is checked here."""
        return cls(
            concealed=tuple(sorted(t for t in loose if not t.is_bonus)),
            melds=tuple(melds),
            bonus=tuple(sorted(t for t in loose if t.is_bonus)),
            winning_tile=parse_tile(winning_tile) if isinstance(winning_tile, str) else winning_tile,
            won_by=WinMethod.parse(won_by) if isinstance(won_by, str) else won_by,
            seat_wind=parse_wind(seat_wind, "seat wind"),
            prevailing_wind=parse_wind(prevailing_wind, "prevailing wind"),
            winner=winner,
            flags=frozenset(_as_flag(f) for f in flags),
            winning_set=winning_set,
        )

    # --- notation -----------------------------------------------------------------------------

    @classmethod
    def parse(
        cls,
        text: str,
        *,
        winning_tile: str | Tile | None = None,
        won_by: str | WinMethod | None = None,
        seat_wind: str = "E",
        prevailing_wind: str = "E",
        winner: bool = True,
        flags: frozenset[str] | set[str] | tuple[str, ...] = frozenset(),
        check: bool = True,
    ) -> Hand:
        """Read hand notation; raises NotationError or InvalidHandError with every problem."""
        melds: list[Meld] = []
        loose: list[Tile] = []
        marked: list[int] = []
        pos = 0
        for match in _BRACKET_RE.finditer(text):
            loose.extend(_loose_tiles(text[pos : match.start()]))
            if match.group(2):
                marked.append(len(melds))
            melds.append(Meld.parse(match.group(1)))
            pos = match.end()
        rest = text[pos:]
        if any(c in rest for c in "[]()"):
            raise NotationError(f"unbalanced bracket in {text.strip()!r}: close every [ with ] and ( with )")
        loose.extend(_loose_tiles(rest))
        if len(marked) > 1:
            raise NotationError(f"{len(marked)} sets are marked {WINNING_MARK}: mark only the one set the winning tile completed")
        if any(t.is_face_down for t in loose):
            raise InvalidHandError(["a face-down tile (XX) belongs only at the end of a declared kong, e.g. (XX1D1DXX)"])
        hand = cls.from_parts(
            loose, melds, winning_tile=winning_tile, won_by=won_by, seat_wind=seat_wind,
            prevailing_wind=prevailing_wind, winner=winner, flags=flags, winning_set=marked[0] if marked else None,
        )
        if hand.winner and hand.won_by is None:
            hand = replace(hand, won_by=WinMethod.WALL if hand.winning_tile is None else WinMethod.DISCARD)
        if check:
            hand.check()
        return hand

    def __str__(self) -> str:
        parts = [format_tiles(self.concealed)] if self.concealed else []
        parts += [f"{m}{WINNING_MARK}" if i == self.winning_set else str(m) for i, m in enumerate(self.melds)]
        if self.bonus:
            parts.append(format_tiles(self.bonus))
        return " ".join(parts)

    # --- what the hand holds ------------------------------------------------------------------

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """Every playing tile, concealed and declared (kongs count four)."""
        return self.concealed + tuple(t for m in self.melds for t in m.tiles)

    @property
    def kongs(self) -> tuple[Meld, ...]:
        return tuple(m for m in self.melds if m.kind is MeldKind.KONG)

    @property
    def claimed_set(self) -> Meld | None:
        """The declared set marked as completed by the winning tile, or None."""
        return self.melds[self.winning_set] if self.winning_set is not None else None

    # --- validation ---------------------------------------------------------------------------

    def problems(self) -> list[str]:
        """Every reason this hand cannot exist at the table (empty when it can)."""
        found: list[str] = []
        counts = Counter(self.tiles)
        for tile, n in sorted(counts.items()):
            if n > COPIES_OF_A_TILE:
                found.append(f"{n} of {tile}: a set has only four of each tile")
        for tile, n in sorted(Counter(self.bonus).items()):
            if n > 1:
                found.append(f"{n} of bonus tile {tile}: a set has only one")
        for meld in self.melds:
            if meld.kind is MeldKind.PAIR:
                found.append(f"{meld} is a pair: only chows, pungs and kongs are declared; leave pairs with the concealed tiles")
        size = len(self.concealed) + sum(min(3, len(meld.tiles)) for meld in self.melds)  # a kong counts as three
        expected = 14 if self.winner else 13
        if size != expected:
            role = "a winning hand" if self.winner else "a hand that did not win"
            found.append(
                f"{role} has {expected} tiles counting each kong as three; this one has {size}"
            )
        if self.winning_tile is not None:
            if not self.winner:
                found.append("a hand that did not win has no winning tile")
            elif self.winning_tile.is_bonus or self.winning_tile.is_face_down:
                found.append(f"the winning tile {self.winning_tile} must be a playing tile")
            elif self.winning_tile not in self.tiles:
                found.append(f"the winning tile {self.winning_tile} is not in the hand")
            elif self.won_by is WinMethod.DISCARD and self._only_in_concealed_kongs(self.winning_tile):
                found.append(f"the winning tile {self.winning_tile} lies only in a concealed kong, which a discard cannot complete")
            else:
                found += self._winning_tile_problems(self.winning_tile)
        found += self._winning_set_problems()
        found += self._way_of_winning_problems()
        for flag in sorted(str(f) for f in self.flags if not isinstance(f, Flag)):
            found.append(f"unknown circumstance {flag!r}: use {', '.join(FLAGS)}")
        if not self.winner and self.won_by is not None:
            found.append(Problem("a hand that did not win was not won by any method: ", Ask.NOT_WON_BY))
        for name, wind in (("seat wind", self.seat_wind), ("prevailing wind", self.prevailing_wind)):
            if not isinstance(wind, Wind):
                found.append(f"unknown {name} {wind!r}: use E, S, W or N")
        return found

    def _winning_set_problems(self) -> list[str]:
        """A set marked as completed by the winning tile must be able to have been."""
        if self.winning_set is None:
            return []
        if not 0 <= self.winning_set < len(self.melds):
            return [f"the set marked {WINNING_MARK} (number {self.winning_set + 1}) "
                    f"is not among the hand's {len(self.melds)} declared sets"]
        meld = self.melds[self.winning_set]
        if not self.winner:
            return [f"{meld}{WINNING_MARK}: a hand that did not win has no set completed by a winning tile"]
        if meld.kind is MeldKind.KONG:
            return [f"{meld}{WINNING_MARK}: the winning tile never completes a kong (a kong calls for a loose tile); "
                    "mark the set the last tile completed"]
        if self.winning_tile is None:
            return [Problem(f"{meld}{WINNING_MARK} is marked as completed by the winning tile: say which tile that was (",
                            Ask.WINNING, ")")]
        if self.winning_tile not in meld.tiles:
            return [f"{meld}{WINNING_MARK} is marked as completed by the winning tile, but {self.winning_tile} is not in it"]
        return []

    def _winning_tile_problems(self, tile: Tile) -> list[str]:
        """Where the winning tile lies must fit how it came: never only in a kong, never beside a pair of itself when
        robbed from a kong, never only in a set laid out before the win when drawn from the wall."""
        outside_kongs = tile in self.concealed or any(tile in m.tiles for m in self.melds if m.kind is not MeldKind.KONG)
        if not outside_kongs:
            return [f"the winning tile {tile} lies only in a kong, and a winning tile never completes a kong (a kong calls "
                    f"for a loose tile, which is then the winning tile): give the tile the hand went out with"]
        held = Counter(self.tiles)[tile]
        if self.won_by is WinMethod.ROBBED_KONG and held > 1:
            return [Problem(f"robbing a kong takes the fourth {tile} from another player's exposed three, so the winner holds no "
                            f"other {tile}; this hand holds {held} [{ROBBING_A_KONG}]: give how the hand was won (", Ask.WON_BY, ")")]
        laid_out = self._laid_out()
        hidden = tile in self.concealed or any(tile in m.tiles for i, m in enumerate(self.melds) if i not in laid_out)
        if self.won_by is not None and self.won_by.self_drawn and not hidden:
            return [Problem(f"the winning tile {tile} was drawn ({self.won_by.value}), so it completed concealed tiles, but it lies "
                            f"only in {' '.join(str(laid_out[i]) for i in laid_out if tile in laid_out[i].tiles)}, laid out before "
                            f"the win: mark that set {WINNING_MARK} if the win completed it, or give how the hand was won (",
                            Ask.WON_BY, ")")]
        return []

    def _laid_out(self) -> dict[int, Meld]:
        """The sets exposed before the win, by index: every exposed set but the one the winning tile completed."""
        return {i: m for i, m in enumerate(self.melds) if m.exposed and i != self.winning_set}

    def _way_of_winning_problems(self) -> list[str]:
        """How the hand was won, and the circumstances flagged, must fit the tiles and the seat."""
        if not self.winner:
            return []
        found: list[str] = []
        laid_out = list(self._laid_out().values())
        if self.won_by is WinMethod.LOOSE_TILE and not self.kongs and not self.bonus:
            found.append(Problem(f"a loose tile is drawn only after a kong (or a bonus tile), and this hand has neither [{LOOSE_TILES}]: "
                                 "give how the hand was won (", Ask.WON_BY, "), or the kong and bonus tiles it holds"))
        if self.won_by is WinMethod.ORIGINAL_HAND and laid_out:
            found.append(Problem(f"a hand won on its original draw has laid nothing out, but this one shows "
                                 f"{' '.join(str(m) for m in laid_out)} [{HEAVENLY_PEACE}]: give how the hand was won (", Ask.WON_BY,
                                 "), or write those sets concealed"))
        if Flag.KONG_ON_KONG in self.flags and (len(self.kongs) < 2 or self.won_by is not WinMethod.LOOSE_TILE):
            found.append(Problem("kong on kong is a win on the loose tile drawn after a second kong made with the first kong's loose "
                                 "tile: it needs two kongs and ", Ask.WON_BY, f" loose-tile, and this hand has {len(self.kongs)} kong(s), "
                                 f"won by {self.won_by.value if self.won_by else 'no method'} [{KONG_ON_KONG}]: drop ", Ask.CIRCUMSTANCE,
                                 " kong-on-kong or fix the hand"))
        if Flag.FIRST_DISCARD in self.flags and (self.won_by is not WinMethod.DISCARD or self.seat_wind is Wind.EAST):
            why = "East plays the first tile, so East cannot win on it" if self.seat_wind is Wind.EAST else \
                f"the first tile played is East's discard, and this hand was won by {self.won_by.value if self.won_by else 'no method'}"
            found.append(Problem(f"first-discard: {why} [{FIRST_CARD_PLAYED}]: drop ", Ask.CIRCUMSTANCE,
                                 " first-discard or fix the seat and ", Ask.WON_BY))
        return found

    def _only_in_concealed_kongs(self, tile: Tile) -> bool:
        elsewhere = tile in self.concealed or any(tile in m.tiles for m in self.melds if not (m.kind is MeldKind.KONG and m.concealed))
        return not elsewhere

    def check(self) -> Hand:
        """Raise InvalidHandError naming every problem; return the hand when there are none."""
        found = self.problems()
        if found:
            raise InvalidHandError(found)
        return self

    # --- JSON ---------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "schema": SCHEMA_ID,
            "version": SCHEMA_VERSION,
            "concealed": [t.code for t in self.concealed],
            "melds": [
                {"kind": m.kind.value, "tiles": [t.code for t in m.tiles], "concealed": m.concealed}
                | ({"winning": True} if i == self.winning_set else {})
                for i, m in enumerate(self.melds)
            ],
            "bonus": [t.code for t in self.bonus],
            "winning_tile": self.winning_tile.code if self.winning_tile else None,
            "won_by": self.won_by.value if self.won_by else None,
            "seat_wind": str(self.seat_wind),
            "prevailing_wind": str(self.prevailing_wind),
            "winner": self.winner,
        }
        if self.flags:
            data["flags"] = sorted(str(f) for f in self.flags)
        return data

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Any, *, check: bool = True) -> Hand:
        """Build a hand from its JSON form (version 1 or 2), validated against the schema file first."""
        data = migrate_hand_json(data)
        validate_hand_json(data)
        melds = []
        marked = [i for i, m in enumerate(data.get("melds", [])) if m.get("winning")]
        if len(marked) > 1:
            raise InvalidHandError([f"{len(marked)} sets are marked winning: mark only the one the winning tile completed"])
        for m in data.get("melds", []):
            if not m.get("concealed", False) and "XX" in m["tiles"]:
                raise InvalidHandError([f"meld {''.join(m['tiles'])} is exposed but has face-down tiles, which mark a concealed kong: "
                                        "set \"concealed\": true, or give its four faces"])
            meld = Meld.of([Tile.parse(c) for c in m["tiles"]], concealed=bool(m.get("concealed", False)))
            if meld.kind.value != m["kind"]:
                raise InvalidHandError([f"meld {format_tiles(meld.tiles)} is a {meld.kind.value}, not a {m['kind']}"])
            melds.append(meld)
        loose = [Tile.parse(c) for c in [*data.get("concealed", []), *data.get("bonus", [])]]
        hand = cls.from_parts(
            loose, melds,
            winning_tile=Tile.parse(data["winning_tile"]) if data.get("winning_tile") else None,
            won_by=WinMethod.parse(data["won_by"]) if data.get("won_by") else None,
            seat_wind=data.get("seat_wind", "E"),
            prevailing_wind=data.get("prevailing_wind", "E"),
            winner=bool(data.get("winner", True)),
            flags=frozenset(data.get("flags", [])),
            winning_set=marked[0] if marked else None,
        )
        return hand.check() if check else hand

    @classmethod
    def from_json(cls, text: str, *, check: bool = True) -> Hand:
        try:
            data = load_json(text, "hand")
        except JsonInputError as exc:
            raise NotationError(str(exc)) from None
        return cls.from_dict(data, check=check)


_SCHEMA_CACHE: dict[str, Any] = {}


def _loose_tiles(text: str) -> list[Tile]:
    if WINNING_MARK in text:
        raise NotationError(
            f"a {WINNING_MARK} marks the set the winning tile completed: "
            f"write it right after that set's closing bracket, e.g. [3C4C5C]{WINNING_MARK}"
        )
    return parse_tiles(text)


def migrate_hand_json(data: Any) -> Any:
    """A version 1 hand as version 2: the same fields, no set marked as the winning one.

    Files without a version are read as version 1. Anything that is not an object is left for
    the schema to refuse.
    """
    if isinstance(data, dict) and data.get("version", 1) == 1:
        return {**data, "version": SCHEMA_VERSION}
    return data


def hand_schema() -> dict[str, Any]:
    """The versioned JSON Schema of the hand file (``scoring/schema/hand.v2.json``)."""
    if "hand" not in _SCHEMA_CACHE:
        _SCHEMA_CACHE["hand"] = json.loads(SCHEMA_PATH.read_text())
    schema: dict[str, Any] = _SCHEMA_CACHE["hand"]
    return schema


def validate_hand_json(data: Any) -> None:
    """Raise InvalidHandError listing every way ``data`` breaks the hand schema."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(hand_schema())
    problems = schema_problems(validator.iter_errors(data), "hand")
    if problems:
        raise InvalidHandError(problems)
