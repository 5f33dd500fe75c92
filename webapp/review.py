"""What the player checks and corrects before a hand is scored: the review state.

A :class:`Review` holds every tile the recognizer saw (or the player typed), the sets they are
grouped into, and the circumstances of the win. Every edit is a pure function that returns a
new review and appends a :class:`Correction`, so the dispute record can show exactly what the
player changed after the photo was read. The page keeps one review in ``st.session_state``.

>>> r = from_notation("7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]", winning="2D", won_by="discard")
>>> hand, problems = to_hand(r)
>>> str(hand), problems
('6C7C7C8C8C9CSWSW [2D2D2D] [5C6C7C]', [])
>>> r2 = replace_tile(r, r.tiles[0].id, "9C")
>>> r2.corrections[-1].action
'replace'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from recognizer.detections import UNSURE_BELOW
from recognizer.group import Group, GroupKind
from recognizer.hand import SET_APART, Laid, LayoutProblem, Trouble, assemble
from recognizer.labels import CLASSES
from recognizer.numbering import corners, photo_order
from recognizer.reread import HandTile, guesses_of, reread
from scoring.errors import InvalidHandError, NotationError, PungChowError
from scoring.hand import FLAGS, Hand, WinMethod, parse_wind
from scoring.tiles import ALL_CODES, FACE_DOWN_CODE, PLAYING_CODES, Tile, check_notation_length

#: Below this confidence a recognised tile is listed first for the player to check (the CLI's "unsure").
LOW_CONFIDENCE = UNSURE_BELOW

if TYPE_CHECKING:
    from recognizer.hand import Recognition

PixelBox = tuple[int, int, int, int]


@dataclass(frozen=True)
class ReadTile:
    """One box the reader found, as the review takes it: the code it read (a tile's, or the reader's
    own "not a tile"), the box (x0, y0, x1, y1), how sure it was, its runners-up, and whether the
    box lies in the hand or beside it."""

    code: str
    box: tuple[float, float, float, float] | None = None
    confidence: float = 1.0
    alternatives: tuple[tuple[str, float], ...] = ()
    in_hand: bool = True
    #: Why the reader set the box aside (``recognizer.hand_rows``: keys or dominoes beside the hand); empty otherwise.
    aside: str = ""

    @classmethod
    def of(cls, detection: ReadTile | dict[str, Any]) -> ReadTile:
        if isinstance(detection, ReadTile):
            return detection
        box = detection.get("box")
        return cls(str(detection["code"]), None if box is None else tuple(float(v) for v in box),  # type: ignore[arg-type]
                   float(detection.get("confidence", 1.0)),
                   tuple((str(c), float(p)) for c, p in detection.get("alternatives", ())),
                   bool(detection.get("in_hand", True)), str(detection.get("aside", "")))


@dataclass(frozen=True)
class ReviewTile:
    """One tile on the table: its code, where it lies in the photo and how sure the reader was.

    ``confidence`` is None once the player typed or confirmed the tile: a person's word is final.
    ``group`` is the id of the set it belongs to, or None for the concealed tiles in hand.
    """

    id: int
    code: str
    box: PixelBox | None = None
    confidence: float | None = None
    alternatives: tuple[tuple[str, float], ...] = ()
    group: int | None = None
    source: str = "typed"  # recognised | typed | added | corrected | confirmed | twin (took its pung twin's correction)
    in_hand: bool = True
    decoded: str | None = None
    """Why the hand, read as a whole, gives this tile another face than the reader's best guess; None when it does not."""
    other: str | None = None
    """The face the runner-up reading of the hand gives this tile, where it differs."""
    aside: str = ""
    """Why the reader set it aside (a key, a domino beside the hand); empty once the player says where it lies."""

    @property
    def label(self) -> str:
        """How the page names a tile: the number drawn on the photo, its face, how sure the reader was."""
        sure = "" if self.confidence is None else f" ({self.confidence:.0%}{', read as a hand' if self.decoded else ''})"
        aside = "" if self.in_hand else f", set aside: {self.aside}" if self.aside else ", not in this hand"
        return f"#{self.id} {self.code}{sure}{aside}"


@dataclass(frozen=True)
class ReviewGroup:
    """A declared set laid out on the table; ``concealed`` marks a concealed kong (or set)."""

    id: int
    concealed: bool = False


@dataclass(frozen=True)
class Correction:
    """One change the player made after reading, kept for the dispute record."""

    action: str
    detail: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, **self.detail}

    @classmethod
    def from_dict(cls, data: Any) -> Correction:
        """The correction :meth:`to_dict` printed, read back (``from_dict(d).to_dict() == d``); anything else is refused."""
        if not isinstance(data, dict) or not isinstance(data.get("action"), str):
            raise PungChowError(f"not a correction as pungchow writes it: {str(data)[:80]}")
        return cls(data["action"], {k: v for k, v in data.items() if k != "action"})


@dataclass(frozen=True)
class Review:
    """Everything the page lets the player correct before scoring one hand."""

    tiles: tuple[ReviewTile, ...] = ()
    groups: tuple[ReviewGroup, ...] = ()
    winning_tile: int | None = None
    won_by: WinMethod | None = None
    seat_wind: str = "E"
    prevailing_wind: str = "E"
    winner: bool = True
    flags: frozenset[str] = frozenset()
    corrections: tuple[Correction, ...] = ()
    recognised: dict[str, Any] | None = field(default=None, compare=False)
    #: How the photo showed the reader the winning tile ("set apart from the hand", an arrow above it); empty once the
    #: player chose it, or when the reader did not.
    winning_from_reader: str = ""

    @classmethod
    def from_recognition(cls, recognition: Recognition, drawn_size: tuple[int, int] | None = None) -> Review:
        """A review of what the recognizer read from a photo, from its typed result: every box it found,
        its groups by kind, its record kept for the dispute (``Recognition.to_json()``). With ``drawn_size``
        (width, height) the boxes are in the pixels of the picture they will be drawn on."""
        d = recognition.detections
        boxes = d.boxes if drawn_size is None else recognition.boxes_at(*drawn_size)
        tiles = [ReadTile(d.code(k), corners(boxes[k]),
                          float(d.confidence[k]),
                          tuple((CLASSES[int(c)], float(p)) for c, p in zip(d.top3[k], d.top3_p[k]) if c >= 0))
                 for k in range(len(d))]
        return from_reading(tiles, recognition.groups, recognition.to_json(), recognition.turned)

    @property
    def hand_tiles(self) -> list[ReviewTile]:
        """The tiles counted in this hand: every box but those the player or the reader set aside."""
        return [t for t in self.tiles if t.in_hand]

    @property
    def next_id(self) -> int:
        return max((t.id for t in self.tiles), default=-1) + 1

    @property
    def next_group_id(self) -> int:
        return max((g.id for g in self.groups), default=-1) + 1

    def tile(self, tile_id: int) -> ReviewTile:
        for t in self.tiles:
            if t.id == tile_id:
                return t
        raise PungChowError(f"there is no tile #{tile_id} in this hand any more: pick another")

    def group(self, group_id: int) -> ReviewGroup:
        for g in self.groups:
            if g.id == group_id:
                return g
        raise PungChowError(f"there is no set {group_id} in this hand any more: pick another")

    def tiles_in(self, group_id: int | None) -> list[ReviewTile]:
        return [t for t in self.tiles if t.group == group_id and t.in_hand]

    def group_label(self, group_id: int | None) -> str:
        """How the page names a set: its number and its tiles in notation."""
        if group_id is None:
            return "Concealed tiles in hand"
        g = self.group(group_id)
        body = "".join(t.code for t in self.tiles_in(group_id))
        position = [x.id for x in self.groups].index(group_id) + 1
        return f"Set {position} " + (f"({body})" if g.concealed else f"[{body}]")


def _check_code(code: str) -> str:
    canonical = Tile.parse(code).code
    if canonical not in ALL_CODES:
        raise NotationError(f"unknown tile code {code!r}")
    return canonical


def _log(review: Review, action: str, **detail: Any) -> tuple[Correction, ...]:
    return review.corrections + (Correction(action, detail),)


def _with_tile(review: Review, tile_id: int, **changes: Any) -> tuple[ReviewTile, ...]:
    review.tile(tile_id)
    return tuple(replace(t, **changes) if t.id == tile_id else t for t in review.tiles)


def _drop_empty_groups(tiles: tuple[ReviewTile, ...], groups: tuple[ReviewGroup, ...]) -> tuple[ReviewGroup, ...]:
    used = {t.group for t in tiles}
    return tuple(g for g in groups if g.id in used)


# --- building a review ------------------------------------------------------------------------


def from_hand(hand: Hand, *, source: str = "typed") -> Review:
    """A review of a hand the player typed (or loaded from history): every tile is certain."""
    tiles: list[ReviewTile] = []
    groups: list[ReviewGroup] = []
    winning_id: int | None = None
    for tile in hand.concealed + hand.bonus:
        tiles.append(ReviewTile(len(tiles), tile.code, source=source))
    for gid, meld in enumerate(hand.melds):
        groups.append(ReviewGroup(gid, concealed=meld.concealed))
        laid = list(meld.tiles)
        if gid == hand.winning_set and hand.winning_tile in laid and not meld.concealed:
            # The claimed set lies as the reader sees it: its two tiles, the winning discard set apart beside them.
            laid.remove(hand.winning_tile)
            winning_id = len(tiles) + len(laid)
        for tile in laid:
            tiles.append(ReviewTile(len(tiles), tile.code, group=gid, source=source))
        if len(laid) < len(meld.tiles) and hand.winning_tile is not None:
            tiles.append(ReviewTile(len(tiles), hand.winning_tile.code, source=source))
    if hand.winning_tile is not None and winning_id is None:
        winning_id = _find_winning(tiles, groups, hand.winning_tile.code)
    return Review(
        tiles=tuple(tiles),
        groups=tuple(groups),
        winning_tile=winning_id,
        won_by=hand.won_by,
        seat_wind=hand.seat_wind,
        prevailing_wind=hand.prevailing_wind,
        winner=hand.winner,
        flags=hand.flags,
    )


def _find_winning(tiles: Sequence[ReviewTile], groups: Sequence[ReviewGroup], code: str) -> int | None:
    """The tile that most likely came last: one in hand first, then in an exposed set."""
    concealed_sets = {g.id for g in groups if g.concealed}
    places: tuple[Callable[[ReviewTile], bool], ...] = (lambda t: t.group is None, lambda t: t.group not in concealed_sets, lambda t: True)
    for wanted in places:
        for t in reversed(tiles):
            if t.code == code and wanted(t):
                return t.id
    return None


def from_notation(
    text: str,
    *,
    winning: str | None = None,
    won_by: str | WinMethod | None = None,
    seat_wind: str = "E",
    prevailing_wind: str = "E",
    winner: bool = True,
) -> Review:
    """A review of typed notation; the hand need not be complete yet (the page shows what is missing),
    but a winning tile must be one of its tiles."""
    hand = Hand.parse(
        check_notation_length(text),
        winning_tile=winning or None,
        won_by=won_by if winner else None,
        seat_wind=seat_wind,
        prevailing_wind=prevailing_wind,
        winner=winner,
        check=False,
    )
    review = from_hand(hand)
    if hand.winning_tile is not None and review.winning_tile is None:
        raise NotationError(f"the winning tile {hand.winning_tile} is not in the hand {hand}: type it among the tiles, "
                            "or fix the winning tile")
    if won_by is None:
        # The page asks how the hand was won rather than taking the scorer's guess.
        review = replace(review, won_by=None)
    return review


def from_reading(tiles: Sequence[ReadTile], groups: Sequence[Group], recognised: dict[str, Any] | None = None,
                 turned: float = 0.0) -> Review:
    """A review of the boxes the reader found and the groups it laid them in (indices into ``tiles``).

    Every box is kept, so the player sees all the reader found: tiles of groups the reader took
    for no part of the hand (another player's rack, a caption's letters) are set aside, one tap
    from being counted. A group of kind ``winning`` marks the winning tile (kept only when the
    reader was sure of it), and so does the record's ``hand.trace.winning_tile`` where the photo showed it otherwise (an
    arrow printed above it). Tiles laid out together as no set the reader knows (kind ``other``) stay a set, as the
    recogniser's hand builder takes them: two of them beside the winning tile are the set it completed, any
    other the player sorts. A reading the decoder made is read again as one hand (:func:`read_again`), so a tile it
    gave another face than the reader's best guess says why.
    """
    in_hand: set[int] = set()
    sets: list[list[int]] = []
    concealed_sets: list[int] = []
    trace = ((recognised or {}).get("hand") or {}).get("trace") or {}
    winning = trace.get("winning_tile") if isinstance(trace.get("winning_tile"), int) else None
    shown = str(trace.get("winning_shown") or SET_APART)
    for g in groups:
        if not g.in_hand:
            continue
        in_hand.update(g.members)
        if g.kind in (GroupKind.CONCEALED, GroupKind.BONUS, GroupKind.WINNING):
            if g.kind is GroupKind.WINNING and g.members:
                winning, shown = g.members[0], SET_APART
            continue
        if g.concealed:
            concealed_sets.append(len(sets))
        sets.append(list(g.members))
    why = {k: g.aside for g in groups if g.aside for k in g.members}
    placed = [replace(t, in_hand=i in in_hand or not groups, aside=why.get(i, "")) for i, t in enumerate(tiles)]
    review = from_detections(placed, sets, concealed_sets, winning_index=winning if winning in in_hand else None,
                             winning_shown=shown, recognised=recognised, turned=turned)
    # A reading the decoder made is read again by the tiles' numbers, as after every correction, so a tile it moved is
    # marked with why; a record saved before the decoder is shown as it was saved.
    return read_again(review) if (recognised or {}).get("decoded") else review


def from_detections(
    detections: Iterable[ReadTile | dict[str, Any]],
    groups: Iterable[Iterable[int]] = (),
    concealed_groups: Iterable[int] = (),
    *,
    winning_index: int | None = None,
    winning_shown: str = SET_APART,
    recognised: dict[str, Any] | None = None,
    turned: float = 0.0,
) -> Review:
    """A review of what the recognizer read from a photo.

    ``detections`` are :class:`ReadTile` (or dicts of its fields); ``groups`` lists the detection
    indices of each declared set and ``concealed_groups`` the positions of concealed ones; the tiles
    are numbered in the order the photo reads (``photo_order``, ``turned`` as the reader turned it).
    ``winning_index``: the box the reader took for the winning tile, shown so in the photo as ``winning_shown`` says.
    """
    read = [ReadTile.of(d) for d in detections]
    order = photo_order([d.box for d in read], turned)
    new_id = {index: position for position, index in enumerate(order)}
    group_of: dict[int, int] = {}
    review_groups: list[ReviewGroup] = []
    hidden = set(concealed_groups)
    for gid, members in enumerate(groups):
        review_groups.append(ReviewGroup(gid, concealed=gid in hidden))
        for index in members:
            group_of[index] = gid
    tiles: list[ReviewTile] = []
    for i in order:
        det = read[i]
        if det.code not in ALL_CODES:
            continue  # the reader's own "not a tile": nothing for the player to check
        tiles.append(
            ReviewTile(
                id=new_id[i],
                code=det.code,
                box=tuple(round(v) for v in det.box) if det.box is not None else None,  # type: ignore[arg-type]
                confidence=det.confidence,
                alternatives=tuple((c, p) for c, p in det.alternatives if c in ALL_CODES)[:3],
                group=group_of.get(i),
                source="recognised",
                in_hand=det.in_hand,
                aside="" if det.in_hand else det.aside,
            )
        )
    used = {t.group for t in tiles}
    review_groups = [g for g in review_groups if g.id in used]
    review = Review(tiles=tuple(tiles), groups=tuple(review_groups), recognised=recognised)
    if winning_index is not None and winning_index in new_id:
        winner_id = new_id[winning_index]
        # a tile set apart is the winner only when surely read (an unsure box apart may be no tile of the hand); an
        # arrow marks the place, whatever the face read there, which the player checks as any unsure tile
        sure = winning_shown != SET_APART or any(t.id == winner_id and (t.confidence or 0.0) >= LOW_CONFIDENCE for t in tiles)
        if sure and any(t.id == winner_id and t.in_hand for t in tiles):
            review = replace(review, winning_tile=winner_id, winning_from_reader=winning_shown)
    return review


# --- the hand read again -----------------------------------------------------------------------


def read_again(review: Review) -> Review:
    """The hand read again as a whole (``recognizer.reread``): every tile the player typed, added, set or confirmed
    stays as it is, and each tile left to the reader takes the face among its guesses that makes the likeliest legal
    hand with them. A tile read otherwise than the reader's best guess carries why (``decoded``), so the page marks
    it for the player to check; a tile the runner-up reading gives another face carries that face (``other``)."""
    counted = [t for t in review.tiles if t.in_hand]
    if not any(t.confidence is not None for t in counted):
        return review  # every tile is the player's word: nothing is left to read
    said = [HandTile(t.id, t.code, guesses_of(t.code, t.confidence, t.alternatives), t.confidence is None, t.group) for t in counted]
    read = reread(said)
    guessed = {h.id: dict(h.guesses) for h in said if not h.fixed}

    def now(t: ReviewTile) -> ReviewTile:
        if t.id not in guessed:  # the player's word, or a tile set aside: not the decoder's to read
            return replace(t, decoded=None, other=None) if t.decoded or t.other else t
        code = read.code(t.id)
        return replace(t, code=code, confidence=guessed[t.id][code], decoded=read.why(t.id), other=read.other(t.id))

    tiles = tuple(now(t) for t in review.tiles)
    return review if tiles == review.tiles else replace(review, tiles=tiles)


def read_again_changes(before: Review, after: Review) -> list[str]:
    """The tiles reading the hand again moved, one line each for the player: which, from what, to what, why."""
    was = {t.id: t.code for t in before.tiles}
    return [f"#{t.id} {was[t.id]} → {t.code}: " + (t.decoded or "the reader's own best guess again, as no other reading is likelier")
            for t in after.tiles if t.id in was and was[t.id] != t.code]


# --- what to check first ----------------------------------------------------------------------


def tiles_to_check(review: Review, threshold: float = LOW_CONFIDENCE) -> list[ReviewTile]:
    """Recognised tiles the reader was unsure of, least sure first."""
    unsure = [t for t in review.tiles if t.in_hand and t.confidence is not None and t.confidence < threshold]
    return sorted(unsure, key=lambda t: (t.confidence, t.id))


def tiles_in_review_order(review: Review) -> list[ReviewTile]:
    """Every tile, least sure first; tiles the player already vouched for come last."""
    return sorted(review.tiles, key=lambda t: (not t.in_hand, t.confidence is None, t.confidence or 0.0, t.id))


def tiles_in_photo_order(review: Review) -> list[ReviewTile]:
    """Every tile by its number: the numbers follow the photo, row by row, left to right; added tiles last."""
    return sorted(review.tiles, key=lambda t: t.id)


def one_tap_faces(tile: ReviewTile) -> list[tuple[str, str]]:
    """The faces a picked tile offers as one tap each, with what each is: the reader's own best guess when the hand read
    as a whole shows another, its other guesses, and the face the runner-up reading of the hand gives it."""
    offers = [(c, f"{p:.0%}" + (", the reader's" if k == 0 and tile.decoded else "") + (", next likeliest hand" if c == tile.other else ""))
              for k, (c, p) in enumerate(tile.alternatives) if c != tile.code]
    if tile.other and tile.other != tile.code and all(c != tile.other for c, _ in offers):
        offers.append((tile.other, "next likeliest hand"))
    return offers


def replacement_choices(review: Review, tile_id: int) -> list[str]:
    """The codes to offer for a tile: the reader's top-3 first, then every other face."""
    tile = review.tile(tile_id)
    first = [c for c, _ in tile.alternatives if c != tile.code]
    return first + [c for c in ALL_CODES if c not in first and c != tile.code]


# --- edits ------------------------------------------------------------------------------------


#: Why a tile's twins take its correction, as the page and the CLI say it.
TWINS_WHY = "a pung is three of one face"


def twins(review: Review, tile_id: int) -> list[ReviewTile]:
    """The tiles a correction of this one corrects too: it lies in a set laid out as a pung or kong (three or four tiles,
    every face-up one the same face), and they are the set's other tiles of that face that are still the reader's (or
    followed an earlier correction of it). A pung is three of one face, so tiles the reader took for one face with it
    are that face too; a tile the player vouched for is never moved."""
    tile = review.tile(tile_id)
    if tile.group is None or not tile.in_hand or tile.code == FACE_DOWN_CODE:
        return []
    members = review.tiles_in(tile.group)
    if len(members) not in (3, 4) or {t.code for t in members if t.code != FACE_DOWN_CODE} != {tile.code}:
        return []
    return [t for t in members if t.id != tile_id and t.code == tile.code and (t.confidence is not None or t.source == "twin")]


def replace_tile(review: Review, tile_id: int, code: str) -> Review:
    """The player says this tile is really ``code``; in a pung or kong the reader read as one face, its twins
    (:func:`twins`) take the same face, as one correction that one undo takes back."""
    old = review.tile(tile_id)
    new_code = _check_code(code)
    if new_code == old.code and old.confidence is None:
        return review
    followers = {t.id for t in twins(review, tile_id)} if new_code != old.code and new_code in PLAYING_CODES else set()
    tiles = tuple(replace(t, code=new_code, confidence=None, source="corrected") if t.id == tile_id
                  else replace(t, code=new_code, confidence=None, source="twin", decoded=None, other=None) if t.id in followers
                  else t for t in review.tiles)
    detail: dict[str, Any] = {"tile": tile_id, "was": old.code, "now": new_code}
    if followers:
        detail["twins"] = sorted(followers)
    return replace(review, tiles=tiles, corrections=_log(review, "replace", **detail))


def twins_words(correction: Correction | dict[str, Any]) -> str:
    """What a correction did to the corrected tile's twins, for the player ("#5, #6 with it: a pung is three of one
    face"); empty when it moved none."""
    detail = correction.to_dict() if isinstance(correction, Correction) else correction
    followed = detail.get("twins") or []
    return f"{', '.join(f'#{t}' for t in followed)} with it: {TWINS_WHY}" if followed else ""


def confirm_tile(review: Review, tile_id: int) -> Review:
    """The player checked a doubtful tile and the reader was right."""
    old = review.tile(tile_id)
    if old.confidence is None:
        return review
    tiles = _with_tile(review, tile_id, confidence=None, source="confirmed")
    return replace(review, tiles=tiles, corrections=_log(review, "confirm", tile=tile_id, code=old.code))


def add_tile(review: Review, code: str, group: int | None = None) -> Review:
    """A tile the reader missed; it goes into hand, or into the set ``group``."""
    new_code = _check_code(code)
    if group is not None:
        review.group(group)
    tile = ReviewTile(review.next_id, new_code, group=group, source="added")
    return replace(review, tiles=review.tiles + (tile,), corrections=_log(review, "add", tile=tile.id, code=new_code, group=group))


def set_in_hand(review: Review, tile_id: int, in_hand: bool) -> Review:
    """Count a box in this hand, or set it aside (a tile of the next player's, a caption read as tiles)."""
    old = review.tile(tile_id)
    if old.in_hand == in_hand:
        return review
    tiles = _with_tile(review, tile_id, in_hand=in_hand, group=old.group if in_hand else None, aside="")
    return replace(
        review,
        tiles=tiles,
        groups=_drop_empty_groups(tuple(t for t in tiles if t.in_hand), review.groups),
        winning_tile=None if review.winning_tile == tile_id and not in_hand else review.winning_tile,
        corrections=_log(review, "into-hand" if in_hand else "aside", tile=tile_id, code=old.code),
    )


def swap_aside(review: Review) -> Review:
    """The reader took the wrong group for the hand (a caption's letters, not the row of tiles): in one
    step the tiles set aside are counted and the concealed tiles it had counted are set aside."""
    counted = [t.id for t in review.tiles if not t.in_hand]
    dropped = [t.id for t in review.tiles if t.in_hand and t.group is None]
    if not counted:
        return review
    tiles = tuple(replace(t, in_hand=not t.in_hand, aside="") if t.id in counted or t.id in dropped else t for t in review.tiles)
    return replace(
        review, tiles=tiles,
        winning_tile=None if review.winning_tile in dropped else review.winning_tile,
        corrections=_log(review, "swap-aside", counted=counted, aside=dropped),
    )


def delete_tile(review: Review, tile_id: int) -> Review:
    """A false detection (a shadow, a tile from the next player's rack)."""
    old = review.tile(tile_id)
    tiles = tuple(t for t in review.tiles if t.id != tile_id)
    return replace(
        review,
        tiles=tiles,
        groups=_drop_empty_groups(tiles, review.groups),
        winning_tile=None if review.winning_tile == tile_id else review.winning_tile,
        corrections=_log(review, "delete", tile=tile_id, code=old.code),
    )


def move_tile(review: Review, tile_id: int, group: int | None) -> Review:
    """Put a tile into another set, or back among the concealed tiles (``group=None``)."""
    old = review.tile(tile_id)
    if group is not None:
        review.group(group)
    if old.group == group:
        return review
    tiles = _with_tile(review, tile_id, group=group)
    return replace(
        review,
        tiles=tiles,
        groups=_drop_empty_groups(tiles, review.groups),
        corrections=_log(review, "move", tile=tile_id, code=old.code, was=old.group, now=group),
    )


def new_group(review: Review, tile_ids: Sequence[int], *, concealed: bool = False) -> Review:
    """Declare a new set from these tiles (an exposed pung the reader took for tiles in hand)."""
    if not tile_ids:
        raise PungChowError("pick the tiles of the new set first")
    for tid in tile_ids:
        review.tile(tid)
    gid = review.next_group_id
    chosen = set(tile_ids)
    tiles = tuple(replace(t, group=gid) if t.id in chosen else t for t in review.tiles)
    groups = _drop_empty_groups(tiles, review.groups + (ReviewGroup(gid, concealed),))
    return replace(
        review, tiles=tiles, groups=groups,
        corrections=_log(review, "new-set", group=gid, tiles=sorted(chosen), concealed=concealed),
    )


def dissolve_group(review: Review, group: int) -> Review:
    """These tiles were never declared: they go back into hand."""
    review.group(group)
    tiles = tuple(replace(t, group=None) if t.group == group else t for t in review.tiles)
    groups = tuple(g for g in review.groups if g.id != group)
    return replace(review, tiles=tiles, groups=groups, corrections=_log(review, "dissolve-set", group=group))


def set_concealed(review: Review, group: int, concealed: bool) -> Review:
    """Mark a set exposed or concealed (a concealed kong shows its faces only in the middle)."""
    old = review.group(group)
    if old.concealed == concealed:
        return review
    groups = tuple(replace(g, concealed=concealed) if g.id == group else g for g in review.groups)
    return replace(review, groups=groups, corrections=_log(review, "concealed" if concealed else "exposed", group=group))


def mark_concealed_kong(review: Review, group: int) -> Review:
    """Mark a set of four as a concealed kong; face-down ends take the face shown in the middle."""
    members = review.tiles_in(group)
    faces = {t.code for t in members if t.code != "XX"}
    if len(members) != 4 or len(faces) != 1:
        raise PungChowError(
            f"{review.group_label(group)} is not a kong: a concealed kong is four alike, the ends may lie face down"
        )
    return set_concealed(review, group, True)


def set_winning_tile(review: Review, tile_id: int | None) -> Review:
    """Which tile completed the hand (several rules and the discard check depend on it)."""
    if tile_id is not None and not review.tile(tile_id).in_hand:
        raise PungChowError(f"tile #{tile_id} is not in this hand: bring it into the hand first")
    if review.winning_tile == tile_id:
        return replace(review, winning_from_reader="") if review.winning_from_reader else review
    return replace(review, winning_tile=tile_id, winning_from_reader="",
                   corrections=_log(review, "winning-tile", tile=tile_id))


def set_circumstances(
    review: Review,
    *,
    won_by: str | WinMethod | None = None,
    seat_wind: str | None = None,
    prevailing_wind: str | None = None,
    winner: bool | None = None,
    flags: Iterable[str] | None = None,
) -> Review:
    """How the hand was won and where the player sat; only what changed is logged."""
    changes: dict[str, Any] = {}
    if won_by is not None:
        changes["won_by"] = WinMethod.parse(won_by) if isinstance(won_by, str) else won_by
    if seat_wind is not None:
        changes["seat_wind"] = parse_wind(seat_wind, "seat wind")
    if prevailing_wind is not None:
        changes["prevailing_wind"] = parse_wind(prevailing_wind, "prevailing wind")
    if winner is not None:
        changes["winner"] = bool(winner)
    if flags is not None:
        unknown = set(flags) - FLAGS.keys()
        if unknown:
            raise PungChowError(f"unknown circumstance {sorted(unknown)[0]!r}: use {', '.join(FLAGS)}")
        changes["flags"] = frozenset(flags)
    changed = {k: v for k, v in changes.items() if getattr(review, k) != v}
    if not changed:
        return review
    logged = {k: (v.value if isinstance(v, WinMethod) else sorted(v) if isinstance(v, frozenset) else v) for k, v in changed.items()}
    return replace(review, **changed, corrections=_log(review, "circumstances", **logged))


# --- to the scorer ----------------------------------------------------------------------------


def to_hand(review: Review) -> tuple[Hand | None, list[str]]:
    """The hand as the scorer reads it, and every problem that stops it being scored.

    Built by the recogniser's own hand builder (``recognizer.hand.assemble``) from the tiles as the player left
    them, so the page shows, saves and settles the hand the reader would: a winning tile beside two tiles of a
    set it completed makes the claimed set (``[3C4C5C]*``). A hand with problems is still returned, so the page
    can show it.
    """
    problems: list[str] = []
    if review.winner and review.won_by is None:
        problems.append("say how the hand was won: off a discard, or from the wall")
    winning: ReviewTile | None = None
    if review.winner and review.winning_tile is not None and review.tile(review.winning_tile).in_hand:
        winning = review.tile(review.winning_tile)
        winning = winning if winning.code != "XX" else None
    apart = winning is not None and winning.group is None
    loose = [t for t in review.tiles_in(None) if not (apart and winning is not None and t.id == winning.id)]
    laid = [_laid(GroupKind.CONCEALED, loose)]
    laid += [_laid(GroupKind.OTHER, review.tiles_in(g.id), g.concealed, g.id) for g in review.groups]
    if apart and winning is not None:
        laid.append(_laid(GroupKind.WINNING, [winning]))
    built = assemble(
        laid,
        winning_tile=Tile(winning.code) if winning is not None and not apart else None,
        won_by=review.won_by if review.winner else None,
        seat_wind=review.seat_wind,
        prevailing_wind=review.prevailing_wind,
        winner=review.winner,
        flags=review.flags,
    )
    problems += [_problem_words(review, p) for p in built.problems]
    return built.hand, problems + built.hand.problems()


def _laid(kind: GroupKind, tiles: Sequence[ReviewTile], concealed: bool = False, group: int | None = None) -> Laid:
    return Laid(kind, tuple(Tile(t.code) for t in tiles), tuple(t.id for t in tiles), concealed, group)


def _problem_words(review: Review, problem: LayoutProblem) -> str:
    """A layout problem in the page's words: the fix is a tap away, not a new photo."""
    if problem.trouble is Trouble.FACE_DOWN_LOOSE:
        return "a face-down tile (XX) lies among the concealed tiles: put it in its kong, or delete it"
    return f"{review.group_label(problem.group)}: {problem.detail}"


def scoreable_hand(review: Review) -> Hand:
    """The hand, or InvalidHandError naming everything still to fix."""
    hand, problems = to_hand(review)
    if problems or hand is None:
        raise InvalidHandError(problems)
    return hand


def _set_name(group: Any) -> str:
    return "the concealed tiles" if group is None else f"set {int(group) + 1}"


def correction_text(correction: Correction) -> str:
    """One correction as a player would say it ("#7 was NW, is SW"), for the page and the history."""
    c = correction.to_dict()
    tile = f"#{c['tile']}" if c.get("tile") is not None else "the winning tile"
    action = c.get("action")
    if action == "replace":
        return f"{tile} was read as {c.get('was')}, it is {c.get('now')}" + (f", and {twins_words(c)}" if c.get("twins") else "")
    if action == "confirm":
        return f"{tile} {c.get('code')}: checked, the reader was right"
    if action == "add":
        return f"added {tile} {c.get('code')}, missed by the reader, to {_set_name(c.get('group'))}"
    if action == "delete":
        return f"deleted {tile} {c.get('code')}: not a tile"
    if action == "aside":
        return f"{tile} {c.get('code')} set aside: not part of this hand"
    if action == "swap-aside":
        return ("counted " + ", ".join(f"#{t}" for t in c.get("counted", [])) + " in this hand and set aside "
                + (", ".join(f"#{t}" for t in c.get("aside", [])) or "nothing"))
    if action == "into-hand":
        return f"{tile} {c.get('code')} counted in this hand"
    if action == "move":
        return f"moved {tile} {c.get('code')} from {_set_name(c.get('was'))} to {_set_name(c.get('now'))}"
    if action == "new-set":
        return "declared a set of " + ", ".join(f"#{t}" for t in c.get("tiles", []))
    if action == "dissolve-set":
        return f"broke up {_set_name(c.get('group'))}: its tiles were never declared"
    if action in ("concealed", "exposed"):
        return f"{_set_name(c.get('group'))} marked {action}"
    if action == "winning-tile":
        return "winning tile: not marked" if c.get("tile") is None else f"winning tile: #{c['tile']}"
    if action == "circumstances":
        return "; ".join(f"{k.replace('_', ' ')}: {', '.join(v) if isinstance(v, list) else v}" for k, v in c.items() if k != "action")
    return ", ".join(f"{k} {v}" for k, v in c.items())
