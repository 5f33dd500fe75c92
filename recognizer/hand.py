"""Step 4: groups -> the hand JSON of the scoring issue, every tile traceable to its box.

A photo may show an incomplete or impossible hand; the hand is built as seen and its
problems are reported, so the player can fix them on the page.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

import numpy as np

from recognizer.decode import Decoding
from recognizer.detections import Detections
from recognizer.geometry import size_factors
from recognizer.group import Group, GroupKind
from recognizer.labels import CLASSES
from scoring.errors import InvalidHandError
from scoring.hand import Hand, WinMethod
from scoring.melds import Meld, MeldKind
from scoring.tiles import Tile


@dataclass(frozen=True)
class Recognition:
    """Everything one photo gave: the tiles, the groups, the hand and what is wrong with it."""

    detections: Detections
    groups: list[Group]
    hand: Hand
    problems: list[str]
    #: (width, height) of the photo as read: a big JPEG is decoded smaller (``image.load_photo``), and the boxes are
    #: in these pixels.
    size: tuple[int, int]
    timings_ms: dict[str, float]
    #: Degrees anticlockwise the photo was turned to be read level (0: read as taken); rows run across it that way.
    turned: float = 0.0
    #: The photo's own (width, height), upright, when the reader was handed its file; None: handed pixels, ``size``.
    photo_size: tuple[int, int] | None = None
    #: The hand decoder's reading (``recognizer.decode``): the tiles it changed and why, and the runner-up.
    decoding: Decoding | None = None
    #: Which boxes each part of the hand came from; the record gives it as the hand's ``trace``.
    trace: Trace | None = None

    @property
    def own_size(self) -> tuple[int, int]:
        """The photo's own (width, height), in which ``--json`` gives the boxes."""
        return self.photo_size or self.size

    def boxes_at(self, width: int, height: int) -> np.ndarray:
        """The boxes (x, y, w, h) in the pixels of the photo stored ``width`` x ``height``, as its labels or a
        drawing on it count them: a phone's 12 MP photo is read at about a 1000 px long side."""
        fx, fy = size_factors(self.size, (width, height))
        if (fx, fy) == (1.0, 1.0):
            return self.detections.boxes
        out: np.ndarray = self.detections.boxes * np.array([fx, fy, fx, fy], np.float32)
        return out

    def to_json(self) -> dict[str, Any]:
        """The record of the reading; its boxes are in the photo's own pixels (``image``), whatever size it was read at
        (``read_at``)."""
        width, height = self.own_size
        return {
            "image": {"width": width, "height": height},
            "read_at": {"width": self.size[0], "height": self.size[1]},
            "tiles": self.detections.with_(boxes=self.boxes_at(width, height)).tile_dicts(),
            "groups": [{"id": g.id, "kind": g.kind.value, "tiles": list(g.members), "concealed": g.concealed, "in_hand": g.in_hand,
                        **({"set_aside": g.aside} if g.aside else {})}
                       for g in self.groups],
            "hand": {**self.hand.to_dict(), **({"trace": self.trace.to_json()} if self.trace else {})},
            "notation": str(self.hand),
            "problems": self.problems,
            "timings_ms": self.timings_ms,
            "turned": self.turned,
            "decoded": self.decoding.to_json() if self.decoding else None,
        }


class Trouble(str, Enum):
    """What keeps the laid-out tiles from being a hand; each surface words it for its own reader."""

    #: Tiles laid out together that make no set (``detail``: the scorer's words for what is wrong).
    NOT_A_SET = "not-a-set"
    #: Face-down tiles that are no end of a concealed kong.
    FACE_DOWN_LOOSE = "face-down-loose"


@dataclass(frozen=True)
class LayoutProblem:
    """One thing wrong with the tiles as laid out: its kind, the tiles it concerns (their ids) and the scorer's words."""

    trouble: Trouble
    tiles: tuple[int, ...]
    detail: str = ""
    group: int | None = None

    def __str__(self) -> str:
        """The recogniser's words: the fix is on the table, before the photo is taken again."""
        if self.trouble is Trouble.FACE_DOWN_LOOSE:
            return f"{len(self.tiles)} face-down tile(s) outside a kong: turn them face up and photograph again"
        return self.detail


@dataclass(frozen=True)
class Laid:
    """One group of tiles as it lies on the table: what it is, its tiles, and their ids (the reader's box
    indices, or the page's tile numbers), so every tile of the hand is traceable to where it lay."""

    kind: GroupKind
    tiles: tuple[Tile, ...]
    ids: tuple[int, ...]
    concealed: bool = False
    group: int | None = None


@dataclass(frozen=True)
class Trace:
    """For each part of the hand, the ids of the tiles it came from; the winning tile's, and how the photo showed it."""

    concealed: tuple[int, ...] = ()
    melds: tuple[tuple[int, ...], ...] = ()
    bonus: tuple[int, ...] = ()
    winning_tile: int | None = None
    winning_shown: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"concealed": list(self.concealed), "melds": [list(m) for m in self.melds], "bonus": list(self.bonus),
                "winning_tile": self.winning_tile, **({"winning_shown": self.winning_shown} if self.winning_shown else {})}


@dataclass(frozen=True)
class BuiltHand:
    """The hand built from laid-out tiles, what is wrong with the layout, and where each tile came from."""

    hand: Hand
    problems: tuple[LayoutProblem, ...]
    trace: Trace


def laid_out(dets: Detections, groups: list[Group]) -> list[Laid]:
    """The reader's groups in the hand, as tiles laid on the table."""
    return [Laid(g.kind, tuple(Tile(CLASSES[int(dets.codes[k])]) for k in g.members), tuple(g.members), g.concealed, g.id)
            for g in groups if g.in_hand]


def assemble(laid: list[Laid], *, winning_tile: Tile | None = None, **context: Any) -> BuiltHand:
    """The one Hand builder: recogniser and page both make their hand here (never raising on a hand that cannot be).

    A lone ``winning`` tile set apart joins the concealed tiles, or completes two tiles laid out beside it into the
    set it was claimed for (``[3C4C5C]*``); a group that makes no set goes back among the concealed tiles and is
    reported. ``winning_tile``: the winning tile when it lies in a set rather than apart. ``context`` passes won_by,
    seat_wind, prevailing_wind, winner, flags through to the Hand.
    """
    concealed: list[tuple[Tile, int]] = []
    bonus: list[tuple[Tile, int]] = []
    winning: tuple[Tile, int] | None = None
    problems: list[LayoutProblem] = []
    #: Each declared group in the order laid: its set, or None with what is wrong (a pair laid out: nothing yet).
    declared: list[tuple[Laid, Meld | None, list[str]]] = []
    for g in laid:
        if g.kind is GroupKind.CONCEALED:
            concealed += zip(g.tiles, g.ids)
        elif g.kind is GroupKind.BONUS:
            bonus += zip(g.tiles, g.ids)
        elif g.kind is GroupKind.WINNING:
            winning = (g.tiles[0], g.ids[0])
            concealed.append(winning)
        else:
            try:
                made = Meld.of(list(g.tiles), concealed=g.concealed)
                declared.append((g, made, []) if made.kind is not MeldKind.PAIR or g.concealed else (g, None, []))
            except InvalidHandError as exc:
                declared.append((g, None, exc.problems))
    melds: list[Meld] = []
    meld_ids: list[tuple[int, ...]] = []
    claimed: tuple[Meld, tuple[int, ...]] | None = None
    for g, meld, found in declared:
        if meld is None and winning is not None and claimed is None and not g.concealed:
            completed = _claimed_with(list(g.tiles), winning[0])
            if completed is not None:
                claimed = completed, g.ids + (winning[1],)
                concealed.remove(winning)
                continue
        if meld is None and not found:  # a pair laid out that no winning tile completes: the hand says what is wrong
            meld = Meld.of(list(g.tiles), concealed=g.concealed)
        if meld is not None:
            melds.append(meld)
            meld_ids.append(g.ids)
        else:
            problems += [LayoutProblem(Trouble.NOT_A_SET, g.ids, detail, g.group) for detail in found]
            concealed += zip(g.tiles, g.ids)
    winning_set = None
    if claimed is not None:  # laid out last, as the claim came last
        winning_set = len(melds)
        melds.append(claimed[0])
        meld_ids.append(claimed[1])
    face_down = [(t, i) for t, i in concealed if t.is_face_down]
    if face_down:
        problems.append(LayoutProblem(Trouble.FACE_DOWN_LOOSE, tuple(i for _, i in face_down)))
        concealed = [(t, i) for t, i in concealed if not t.is_face_down]
    hand = Hand.from_parts([t for t, _ in concealed + bonus], melds, winning_tile=winning[0] if winning else winning_tile,
                           winning_set=winning_set, **context)
    trace = Trace(tuple(i for _, i in concealed), tuple(meld_ids), tuple(i for _, i in bonus), winning[1] if winning else None,
                  SET_APART if winning else "")
    return BuiltHand(hand, tuple(problems), trace)


#: How the photo showed the winning tile, in the reader's words (``Trace.winning_shown``).
SET_APART = "set apart from the hand"
ARROW = "an arrow printed above it points at it"


def read_hand(dets: Detections, groups: list[Group], *, marked: int | None = None, **context: Any) -> BuiltHand:
    """The hand the reader's groups make; not told how it was won, the reader takes a winning tile set apart
    for a discard, and none for a win from the wall. ``marked``: the tile of the hand an arrow points at
    (``marks.winning_mark``), the winning tile where none is set apart."""
    laid = laid_out(dets, groups)
    won_by = context.pop("won_by", None)
    apart = any(g.kind is GroupKind.WINNING for g in laid)
    if won_by is None:
        won_by = WinMethod.DISCARD if apart else WinMethod.WALL
    context["won_by"] = WinMethod.parse(won_by) if isinstance(won_by, str) else won_by
    winning = Tile(CLASSES[int(dets.codes[marked])]) if marked is not None and not apart else None
    if winning is None or winning.is_face_down:
        return assemble(laid, **context)
    built = assemble(laid, winning_tile=winning, **context)
    return replace(built, trace=replace(built.trace, winning_tile=marked, winning_shown=ARROW))


def build_hand(dets: Detections, groups: list[Group], **context: Any) -> tuple[Hand, list[str]]:
    """Make a Hand from the groups (never raising on a hand that cannot be), and list its problems in the
    recogniser's words. ``context`` passes won_by, seat_wind, prevailing_wind through to the Hand."""
    built = read_hand(dets, groups, **context)
    return built.hand, [str(p) for p in built.problems] + built.hand.problems()


def _claimed_with(shown: list[Tile], winning: Tile) -> Meld | None:
    """The exposed set two shown tiles make with the winning tile set apart beside them, if any:
    the set the winning discard completed, which the hand marks (``[3C4C5C]*``)."""
    if len(shown) != 2:
        return None
    try:
        meld = Meld.of(shown + [winning], concealed=False)
    except InvalidHandError:
        return None
    return meld if meld.kind.value in ("chow", "pung") else None
