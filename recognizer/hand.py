"""Step 4: groups -> the hand JSON of the scoring issue, every tile traceable to its box.

A photo may show an incomplete or impossible hand; the hand is built as seen and its
problems are reported, so the player can fix them on the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from recognizer.decode import Decoding
from recognizer.detections import Detections
from recognizer.geometry import size_factors
from recognizer.group import Group, GroupKind
from recognizer.labels import CLASSES
from scoring.errors import InvalidHandError
from scoring.hand import Hand, WinMethod
from scoring.melds import Meld
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
            "groups": [{"id": g.id, "kind": g.kind.value, "tiles": list(g.members), "concealed": g.concealed, "in_hand": g.in_hand} for g in self.groups],
            "hand": self.hand.to_dict(),
            "notation": str(self.hand),
            "problems": self.problems,
            "timings_ms": self.timings_ms,
            "turned": self.turned,
            "decoded": self.decoding.to_json() if self.decoding else None,
        }


def build_hand(dets: Detections, groups: list[Group], **context: Any) -> tuple[Hand, list[str]]:
    """Make a Hand from the groups (never raising on a hand that cannot be), and list its problems.

    ``context`` passes won_by, seat_wind, prevailing_wind through to the Hand.
    """
    def tiles(g: Group) -> list[Tile]:
        return [Tile(CLASSES[int(dets.codes[k])]) for k in g.members]

    concealed: list[Tile] = []
    melds: list[Meld] = []
    bonus: list[Tile] = []
    winning: Tile | None = None
    problems: list[str] = []
    trace: dict[str, Any] = {"concealed": [], "melds": [], "bonus": [], "winning_tile": None}
    short: list[tuple[Group, list[str]]] = []
    for g in groups:
        if not g.in_hand:
            continue
        if g.kind is GroupKind.CONCEALED:
            concealed += tiles(g)
            trace["concealed"] += list(g.members)
        elif g.kind is GroupKind.BONUS:
            bonus += tiles(g)
            trace["bonus"] += list(g.members)
        elif g.kind is GroupKind.WINNING:
            winning = tiles(g)[0]
            concealed.append(winning)
            trace["concealed"].append(g.members[0])
            trace["winning_tile"] = g.members[0]
        else:
            try:
                melds.append(Meld.of(tiles(g), concealed=g.concealed))
                trace["melds"].append(list(g.members))
            except InvalidHandError as exc:
                short.append((g, exc.problems))
    winning_set = None
    for g, found in short:
        claimed = _claimed_with(tiles(g), winning) if winning is not None and winning_set is None and not g.concealed else None
        if claimed is not None:
            winning_set = len(melds)
            melds.append(claimed)
            trace["melds"].append(list(g.members) + [trace["winning_tile"]])
            concealed.remove(winning)
            trace["concealed"].remove(trace["winning_tile"])
        else:
            problems += found
            concealed += tiles(g)
            trace["concealed"] += list(g.members)
    face_down_loose = [t for t in concealed if t.is_face_down]
    if face_down_loose:
        problems.append(f"{len(face_down_loose)} face-down tile(s) outside a kong: turn them face up and photograph again")
        concealed = [t for t in concealed if not t.is_face_down]
    won_by = context.pop("won_by", None)
    hand = Hand.from_parts(
        concealed + bonus,
        melds,
        winning_tile=winning,
        won_by=WinMethod.parse(won_by) if isinstance(won_by, str) else (won_by or (WinMethod.DISCARD if winning else WinMethod.WALL)),
        winning_set=winning_set,
        trace=trace,
        **context,
    )
    return hand, problems + hand.problems()


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
