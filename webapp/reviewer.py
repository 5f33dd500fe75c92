"""Checking the tiles read from one photo: the same review wherever a photo is read.

The *Score a hand* page and each seat of *Settle the table* draw it. The photo is a chart with
every box numbered; tapping a box picks that tile (Streamlit's own selection events on an Altair
chart, so no extra component to install or keep up). The numbers match the *check these first*
buttons and the picker; the fix panel shows the photographed tile beside the face it was read
as, then every face to tap.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from dataclasses import dataclass
from io import BytesIO
from typing import Any

import altair as alt
import streamlit as st
from PIL import Image

from scoring.api import WinMethod
from scoring.errors import PungChowError
from scoring.hand import FLAGS
from scoring.tiles import ALL_CODES, BONUS_CODES, WINDS, Wind
from webapp import review as rv
from webapp import state
from webapp.drawing import box_colour, tile_crop, tile_face, tile_face_png, tile_row
from webapp.photos import Photo
from webapp.widgets import bring_into_view
from webapp.widgets import player_words as player_words  # the views word errors through here

#: Faces per row of the hand: a full hand in two rows stays legible on a phone.
TILES_PER_ROW = 7
#: Width the photo chart is drawn at; narrower screens scale it down (see ``PAGE_CSS``).
CHART_WIDTH = 720
#: Long side of the photo sent to the browser: enough to tell the tiles apart.
SENT_LONG_SIDE = 1100
#: The palette's rows: a suit to a row, then winds and dragons, then flowers and seasons.
PALETTE_ROWS = [ALL_CODES[i : i + 9] for i in range(0, 27, 9)] + [ALL_CODES[27:34] + ("XX",), ALL_CODES[34:42]]
#: How a winner went out, in the player's words (the values stay the notation's).
WON_BY_WORDS = {"discard": "discard", "wall": "wall", "loose-tile": "loose tile", "last-tile": "last tile",
                "robbed-kong": "robbing a kong", "original-hand": "original hand"}
PICKED = "#c800c8"
ASIDE = "#8c8c8c"

#: On a narrow screen: the photo chart shrinks to the screen, the palette stays a grid of faces.
PAGE_CSS = """
<style>
[class*="st-key-photo-"] svg.marks { width: 100% !important; height: auto !important; max-width: 720px; }
[class*="st-key-photo-"] .vega-embed { width: 100% !important; }
[class*="st-key-palette-"] { max-width: 34rem; }
[class*="st-key-palette-"] [data-testid="stHorizontalBlock"] { flex-wrap: nowrap !important; gap: 0.2rem !important; }
[class*="st-key-palette-"] [data-testid="stColumn"] { min-width: 0 !important; width: auto !important; flex: 1 1 0 !important; }
[class*="st-key-palette-"] button { padding: 0.1rem 0.1rem !important; min-height: 2.2rem; width: 100%; }
[class*="st-key-palette-"] [data-testid="stImage"] img { max-width: 100%; height: auto; }
[class*="st-key-palette-"] [data-testid="stColumn"] > [data-testid="stVerticalBlock"] { position: relative; gap: 0 !important; }
[class*="st-key-palette-"] [data-testid="stColumn"] [data-testid="stElementContainer"]:has(.stButton) {
  position: absolute; inset: 0; width: 100% !important; }
[class*="st-key-palette-"] [data-testid="stColumn"] .stButton, [class*="st-key-palette-"] [data-testid="stColumn"] .stButton > div {
  height: 100%; }
[class*="st-key-palette-"] [data-testid="stColumn"] .stButton button {
  height: 100%; background: transparent; align-items: flex-end; padding-bottom: 0 !important; }
[class*="st-key-palette-"] [data-testid="stColumn"] [data-testid="stImage"] { padding-bottom: 1.3rem; }
[class*="st-key-tilefix-"] [data-testid="stHorizontalBlock"] { flex-wrap: nowrap !important; gap: 0.5rem !important; }
[class*="st-key-tilefix-"] [data-testid="stColumn"] { min-width: 0 !important; width: auto !important; }
[class*="st-key-check-"] [data-testid="stHorizontalBlock"] { flex-wrap: wrap !important; }
[class*="st-key-tilefix-"] img { max-height: 6rem; width: auto !important; }
[class*="st-key-check-"] [data-testid="stColumn"] { min-width: 5.5rem !important; flex: 0 0 auto !important; width: auto !important; }
[class*="st-key-wonby-"] [data-testid="stButtonGroup"] > div { flex-wrap: wrap !important; row-gap: 0.3rem; }
[class*="st-key-wonby-"] [data-testid="stButtonGroup"] button { flex: 0 0 auto !important; }
</style>
"""


@dataclass(frozen=True)
class Slot:
    """Where one review lives in the session, and the prefix of its widgets' keys."""

    review: str
    photo: str
    picked: str
    version: str
    prefix: str

    def key(self, name: str, *parts: object) -> str:
        """A widget key that a new hand (a new version) starts afresh."""
        return "_".join([f"{self.prefix}_{name}", str(st.session_state.get(self.version, 0)), *map(str, parts)])


def wind_word(letter: str) -> str:
    """A wind's letter as the page shows it ("S": South)."""
    return Wind(letter).word


def seat_slot(index: int) -> Slot:
    return Slot(f"seat_review_{index}", f"seat_photo_{index}", f"seat_picked_{index}", f"seat_version_{index}", f"w_s{index}")


def start(slot: Slot, new: rv.Review | None, photo: Photo | None = None) -> None:
    """A fresh hand to check: the widgets drawn for the last one must not carry over."""
    st.session_state[slot.review] = new
    st.session_state[slot.photo] = photo
    st.session_state[slot.version] = st.session_state.get(slot.version, 0) + 1
    st.session_state.pop(f"{slot.prefix}_said", None)  # what the last tap did was said of the last hand
    st.session_state.pop(reread_key(slot), None)
    st.session_state[undo_key(slot)] = []  # and its corrections cannot be taken back into this one
    first = rv.tiles_to_check(new)[:1] if new is not None else []
    st.session_state[slot.picked] = first[0].id if first else None
    if first:
        st.session_state[slot.key("pick")] = first[0].id


# --- edits ----------------------------------------------------------------------------------------


#: Corrections that can be taken back, the last first.
UNDO_DEPTH = 50


def undo_key(slot: Slot) -> str:
    """The reviews before each correction of this hand (``<prefix>_undo`` in the session), the last at the end."""
    return f"{slot.prefix}_undo"


def reread_key(slot: Slot) -> str:
    """The tiles the last correction's reading of the whole hand moved, one line each (``<prefix>_reread``)."""
    return f"{slot.prefix}_reread"


def edit(slot: Slot, change: Callable[..., rv.Review], *args: Any) -> None:
    """Apply one correction, keeping the review before it so it can be taken back; a player's mistake becomes a message.
    A correction to the tiles reads the hand again as a whole (``review.read_again``): the hand shown is the decoded one,
    and the tiles it moved are said."""
    before: rv.Review = st.session_state[slot.review]
    st.session_state.pop(reread_key(slot), None)
    try:
        corrected = change(before, *args)
    except PungChowError as exc:
        st.session_state[f"{slot.prefix}_said"] = ("error", player_words(exc))
        return
    after = corrected
    if corrected.tiles != before.tiles or corrected.groups != before.groups:
        after = rv.read_again(corrected)
        st.session_state[reread_key(slot)] = rv.read_again_changes(corrected, after)
    if after is not before:
        stack = st.session_state.setdefault(undo_key(slot), [])
        stack.append(before)
        del stack[:-UNDO_DEPTH]
    st.session_state[slot.review] = after


def undo(slot: Slot, where: str = "fix") -> None:
    """Take back the last correction: the review is as it was before it, its log without it. The page may grow above
    the button (a hand complete again shows its score at the top), so what was taken back is brought on screen."""
    stack: list[rv.Review] = st.session_state.get(undo_key(slot)) or []
    if not stack:
        return
    st.session_state[state.SCROLL_TO] = f"said-{slot.prefix}-{where}"
    undone: rv.Review = st.session_state[slot.review]
    st.session_state[slot.review] = stack.pop()
    st.session_state.pop(reread_key(slot), None)  # the hand is as it was read before that correction
    last = undone.corrections[-1] if undone.corrections else None
    st.session_state[f"{slot.prefix}_said"] = ("success", "took back: " + (rv.correction_text(last) if last else "the last change"))


def pick(slot: Slot, tile_id: int | None) -> None:
    st.session_state[slot.picked] = tile_id
    st.session_state[slot.key("pick")] = tile_id


def fix_and_advance(slot: Slot, change: Callable[..., rv.Review], tile_id: int, *args: Any) -> None:
    """Correct or confirm the picked tile, say so where the finger is (with the twins a pung's correction corrected too),
    then pick the next doubtful one."""
    before = st.session_state[slot.review]
    edit(slot, change, tile_id, *args)
    after: rv.Review = st.session_state[slot.review]
    if after is before:
        return
    tile = after.tile(tile_id)
    remaining = rv.tiles_to_check(after)
    said = f"#{tile.id} is {tile.code}" + (" (checked)" if change is rv.confirm_tile else "")
    if change is rv.replace_tile and (followed := rv.twins_words(after.corrections[-1])):
        said += f", and {followed}"
    if remaining:
        pick(slot, remaining[0].id)
        said += f"; next to check: #{remaining[0].id}"
    st.session_state[f"{slot.prefix}_said"] = ("success", said)


def add_and_say(slot: Slot, code: str) -> None:
    review: rv.Review = st.session_state[slot.review]
    target = st.session_state.get(slot.key("add_to"))
    edit(slot, rv.add_tile, code, target if target in [g.id for g in review.groups] else None)
    added: rv.Review = st.session_state[slot.review]
    if added is not review:
        st.session_state[f"{slot.prefix}_said"] = ("success", f"added #{added.tiles[-1].id} {code}")


# --- the photo ------------------------------------------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=16)
def photo_url(sha256: str, _image: Any) -> tuple[str, int, int]:
    """The photo as a data URL, shrunk for the browser; drawn once per photo (keyed by its hash)."""
    img = Image.fromarray(_image)
    width, height = img.size
    img.thumbnail((SENT_LONG_SIDE, SENT_LONG_SIDE))
    buf = BytesIO()
    img.save(buf, format="JPEG", quality=82)
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode(), width, height


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#" + "".join(f"{v:02x}" for v in rgb)


def box_rows(review: rv.Review, picked: int | None) -> list[dict[str, Any]]:
    """One row per box for the chart: where it is, its number, its colour and what a screen reader says."""
    rows = []
    for t in review.tiles:
        if t.box is None:
            continue
        colour = PICKED if t.id == picked else ASIDE if not t.in_hand else _hex(box_colour(t))
        rows.append({"id": t.id, "x0": t.box[0], "y0": t.box[1], "x1": t.box[2], "y1": t.box[3], "number": f"#{t.id}",
                     "colour": colour, "stroke": 5 if t.id == picked else 3, "dash": 0 if t.in_hand else 1,
                     "label": f"tile {t.label}"})
    return rows


def view_window(rows: list[dict[str, Any]], width: int, height: int) -> tuple[float, float, float, float]:
    """The part of the photo the tiles lie in, with a margin (and room above for the numbers): on a
    phone the tiles, not the table round them, fill the screen."""
    if not rows:
        return 0.0, 0.0, float(width), float(height)
    tile_w = sorted(r["x1"] - r["x0"] for r in rows)[len(rows) // 2]
    tile_h = sorted(r["y1"] - r["y0"] for r in rows)[len(rows) // 2]
    x0 = max(0.0, min(r["x0"] for r in rows) - 0.6 * tile_w)
    x1 = min(float(width), max(r["x1"] for r in rows) + 0.6 * tile_w)
    y0 = max(0.0, min(r["y0"] for r in rows) - 0.9 * tile_h)
    y1 = min(float(height), max(r["y1"] for r in rows) + 0.4 * tile_h)
    return x0, y0, x1, y1


def inline_data(rows: list[dict[str, Any]]) -> alt.Data:
    """Rows kept in each layer's own spec (``alt.Data``; Altair would move an ``InlineData`` to the chart's named
    datasets), where the page's tests read which tile is marked."""
    data: alt.Data = alt.Data(values=rows)  # type: ignore[no-untyped-call]
    return data


def photo_chart(url: str, width: int, height: int, rows: list[dict[str, Any]]) -> alt.LayerChart:
    """The photo as an image layer under one clickable box per tile, each numbered above its top edge."""
    left, top, right, bottom = view_window(rows, width, height)
    xs = alt.Scale(domain=[left, right], nice=False, zero=False)
    ys = alt.Scale(domain=[bottom, top], nice=False, zero=False)
    photo = alt.Chart(inline_data([{"url": url, "x": 0, "y": 0, "x2": width, "y2": height}])).mark_image(
        align="left", baseline="top", aspect=False, clip=True
    ).encode(x=alt.X("x:Q", scale=xs, axis=None), y=alt.Y("y:Q", scale=ys, axis=None), x2="x2:Q", y2="y2:Q", url="url:N")
    boxes = inline_data(rows)
    tap = alt.selection_point(name="tile", fields=["id"], on="click", clear=False, empty=False)
    rects = alt.Chart(boxes).mark_rect(fill="white", fillOpacity=0.06, cursor="pointer").encode(
        x=alt.X("x0:Q", scale=xs, axis=None), x2="x1:Q", y=alt.Y("y0:Q", scale=ys, axis=None), y2="y1:Q",
        stroke=alt.Stroke("colour:N", scale=None), strokeWidth=alt.StrokeWidth("stroke:Q", scale=None),
        strokeDash=alt.condition("datum.dash == 1", alt.value([6, 4]), alt.value([1, 0])),
        tooltip=alt.Tooltip("label:N"), description=alt.Description("label:N"),
    ).add_params(tap)
    tile_w = sorted(r["x1"] - r["x0"] for r in rows)[len(rows) // 2] if rows else (right - left) / 10
    size = max(14, min(30, round(0.42 * tile_w * CHART_WIDTH / (right - left))))
    text: dict[str, Any] = {"baseline": "bottom", "align": "left", "dx": 0, "dy": -2, "fontSize": size, "fontWeight": "bold"}
    backing = alt.Chart(boxes).mark_text(**text, stroke="white", strokeWidth=4, strokeJoin="round").encode(
        x=alt.X("x0:Q", scale=xs), y=alt.Y("y0:Q", scale=ys), text="number:N")
    numbers = alt.Chart(boxes).mark_text(**text).encode(
        x=alt.X("x0:Q", scale=xs), y=alt.Y("y0:Q", scale=ys), text="number:N", color=alt.Color("colour:N", scale=None))
    chart_height = round(CHART_WIDTH * (bottom - top) / (right - left))
    layered: alt.LayerChart = (photo + rects + backing + numbers).properties(width=CHART_WIDTH, height=chart_height, padding=0) \
        .configure_view(strokeWidth=0).configure(background="transparent")
    return layered


def tapped_tile(slot: Slot) -> None:
    """A tap on the photo picks that tile; the chart is then drawn afresh so the same tile can be tapped again."""
    counter = f"{slot.prefix}_chart_n"
    event = st.session_state.get(f"{slot.prefix}_photo_{st.session_state.get(counter, 0)}")
    chosen = ((event or {}).get("selection") or {}).get("tile") or []
    if chosen and chosen[0].get("id") is not None:
        pick(slot, int(chosen[0]["id"]))
        st.session_state[counter] = st.session_state.get(counter, 0) + 1
        st.session_state.pop(f"{slot.prefix}_said", None)
        st.session_state.pop(reread_key(slot), None)


def show_photo(slot: Slot, review: rv.Review, photo: Photo) -> None:
    url, width, height = photo_url(photo.sha256, photo.image)
    rows = box_rows(review, st.session_state.get(slot.picked))
    key = f"{slot.prefix}_photo_{st.session_state.get(f'{slot.prefix}_chart_n', 0)}"
    with st.container(key=f"photo-{slot.prefix}"):
        st.altair_chart(photo_chart(url, width, height, rows), on_select=lambda: tapped_tile(slot), key=key,
                        selection_mode="tile", width="content")
    st.caption("Tap a tile to fix it; the numbers match the lists. Green: sure · orange: unsure · red: doubtful · "
               "blue: checked by you · grey dashed: set aside, not in this hand · purple: the tile being fixed")
    if decoded := [t for t in rv.tiles_in_photo_order(review) if t.decoded and t.alternatives]:
        with st.container(key=f"decoded-{slot.prefix}"):
            st.caption("Read as one legal hand, the reader changed: " + "; ".join(
                f"#{t.id} {t.alternatives[0][0]} → {t.code} ({t.decoded})" for t in decoded) + ". Check these on the photo.")


def show_faces(slot: Slot, review: rv.Review) -> None:
    """The hand laid out as faces in photo order: the tiles in hand, each declared set, then the flowers and seasons."""
    loose = sorted(review.tiles_in(None), key=lambda t: t.id)
    bonus = [t for t in loose if t.code in BONUS_CODES]  # scored apart: never one of the concealed tiles
    rows: list[tuple[str, list[rv.ReviewTile]]] = [(f"Concealed tiles in hand ({len(loose) - len(bonus)})",
                                                    [t for t in loose if t.code not in BONUS_CODES])]
    rows += [(review.group_label(g.id), sorted(review.tiles_in(g.id), key=lambda t: t.id)) for g in review.groups]
    rows += [(f"Flowers and seasons ({len(bonus)})", bonus)] if bonus else []
    for n, (heading, members) in enumerate(rows):
        if not members and n > 0:  # the concealed tiles' line stays, empty or not
            continue
        st.caption(heading + (": " + " ".join(f"#{t.id}" for t in members) if members else ""))
        for start_at in range(0, max(1, len(members)), TILES_PER_ROW):
            st.image(tile_row(t.code for t in members[start_at : start_at + TILES_PER_ROW]))
    aside = [t for t in review.tiles if not t.in_hand]
    if aside:
        for why in sorted({t.aside for t in aside}):  # the reader's reason (keys beside the hand), or the player's own
            st.caption((f"Set aside: {why}: " if why else "Set aside, not in this hand: ")
                       + ", ".join(f"#{t.id} {t.code}" for t in aside if t.aside == why))
        st.button(f"Count these {len(aside)} instead of the concealed tiles", key=slot.key("swap"), on_click=edit,
                  args=(slot, rv.swap_aside), help="The reader took the wrong tiles for the hand: swap them in one tap")


# --- the fix panel --------------------------------------------------------------------------------


def check_first(slot: Slot, review: rv.Review) -> None:
    """The doubtful tiles, least sure first, as buttons: one tap picks it on the photo and in the panel."""
    unsure = rv.tiles_to_check(review)
    if not unsure:
        return
    st.markdown("**Check these first**")
    with st.container(key=f"check-{slot.prefix}"):
        cols = st.columns(min(len(unsure), 8))
        for col, t in zip(cols, unsure[:8]):
            col.button(t.label, key=slot.key("check", t.id), on_click=pick, args=(slot, t.id))
    if len(unsure) > 8:
        st.caption(f"and {len(unsure) - 8} more in the picker")


def said(slot: Slot, where: str) -> None:
    """What the last tap did, shown where the player is looking, with *Undo* beside it while there is a correction to take back."""
    message = st.session_state.get(f"{slot.prefix}_said")
    with st.container(key=f"said-{slot.prefix}-{where}"):
        if message:
            kind, text = message
            (st.error if kind == "error" else st.success)(text)
        if moved := st.session_state.get(reread_key(slot)):
            st.warning("Read again as one hand, the reader now reads " + ("; ".join(moved)) + ". Check it on the photo.")
        if st.session_state.get(undo_key(slot)):
            st.button("Undo the last correction", key=slot.key("undo", where), on_click=undo, args=(slot, where), icon=":material/undo:")
    bring_into_view(f"said-{slot.prefix}-{where}")


def palette(slot: Slot, name: str, action: Callable[[str], tuple[Any, ...]]) -> None:
    """Every face as a picture over its button, in a grid that stays a grid on a phone."""
    with st.container(key=f"palette-{slot.prefix}-{name}"):
        for row in PALETTE_ROWS:
            cols = st.columns(9)
            for col, code in zip(cols, row):
                callback, *args = action(code)
                col.image(tile_face_png(code), width="stretch")
                col.button(code, key=slot.key(name, code), on_click=callback, args=tuple(args), width="stretch")


def fix_panel(slot: Slot, review: rv.Review, photo: Photo | None) -> None:
    ordered = rv.tiles_in_photo_order(review)
    if not ordered:
        st.info("No tiles yet: add them one by one below, or type the hand.")
        return
    ids = [t.id for t in ordered]
    key = slot.key("pick")
    if key not in st.session_state or st.session_state[key] not in ids:
        current = st.session_state.get(slot.picked)
        st.session_state[key] = current if current in ids else None
    picked = st.selectbox("Tile to fix", ids, key=key, format_func=lambda i: review.tile(i).label,
                          placeholder="tap a tile on the photo, or pick it here")
    st.session_state[slot.picked] = picked
    if picked is None:
        said(slot, "fix")
        return
    tile = review.tile(picked)
    with st.container(key=f"tilefix-{slot.prefix}"):
        cols = st.columns([1, 1, 3])
        if photo is not None and tile.box is not None:
            cols[0].image(tile_crop(photo.image, tile.box), caption=f"#{tile.id} in the photo")
        cols[1].image(tile_face(tile.code), caption=f"read as {tile.code}")
    tile_actions(slot, review, tile)
    if tile.in_hand and review.groups:
        targets: list[int | None] = [None] + [g.id for g in review.groups]
        move_cols = st.columns([3, 1], vertical_alignment="bottom")
        target = move_cols[0].selectbox("Move it to", targets, index=targets.index(tile.group), key=slot.key("move_to", picked),
                                        format_func=review.group_label)
        move_cols[1].button("Move", key=slot.key("move"), on_click=edit, args=(slot, rv.move_tile, picked, target))
    st.markdown(f"**Tap the right face for #{tile.id}**")
    said(slot, "fix")
    palette(slot, "face", lambda code: (fix_and_advance, slot, rv.replace_tile, picked, code))


def tile_actions(slot: Slot, review: rv.Review, tile: rv.ReviewTile) -> None:
    """What can be done with the picked tile: the reader's other guesses, confirm, winning, set aside, delete."""
    picked = tile.id
    offers = rv.one_tap_faces(tile)
    if offers:
        st.caption("The reader's other guesses" + (", and the face the next likeliest hand gives it" if tile.other else ""))
        with st.container(key=f"offers-{slot.prefix}"):
            for col, (code, words) in zip(st.columns(len(offers)), offers):
                col.button(f"{code} ({words})", key=slot.key("alt", picked, code), on_click=fix_and_advance,
                           args=(slot, rv.replace_tile, picked, code))
    actions = st.columns(2) + st.columns(2)
    actions[0].button("It is right", key=slot.key("confirm"), on_click=fix_and_advance, args=(slot, rv.confirm_tile, picked),
                      disabled=tile.confidence is None or not tile.in_hand)
    actions[1].button("Winning tile", key=slot.key("win"), on_click=edit, args=(slot, rv.set_winning_tile, picked),
                      help="This tile completed the hand", disabled=not tile.in_hand or review.winning_tile == picked)
    if tile.in_hand:
        actions[2].button("Not in this hand", key=slot.key("aside"), on_click=edit, args=(slot, rv.set_in_hand, picked, False),
                          help="Another player's tile, or not a tile of the game")
    else:
        actions[2].button("Count it in this hand", key=slot.key("into"), on_click=edit, args=(slot, rv.set_in_hand, picked, True),
                          type="primary")
    actions[3].button("Delete this tile", key=slot.key("delete"), on_click=edit, args=(slot, rv.delete_tile, picked))


def add_missed(slot: Slot, review: rv.Review) -> None:
    targets: list[int | None] = [None] + [g.id for g in review.groups]
    st.selectbox("Goes into", targets, key=slot.key("add_to"), format_func=review.group_label)
    said(slot, "add")
    palette(slot, "add", lambda code: (add_and_say, slot, code))


def edit_sets(slot: Slot, review: rv.Review) -> None:
    for g in review.groups:
        cols = st.columns([3, 2, 2, 2])
        cols[0].markdown(f"**{review.group_label(g.id)}**: " + " ".join(f"#{t.id}" for t in review.tiles_in(g.id)))
        cols[1].checkbox("concealed", value=g.concealed, key=slot.key("concealed", g.id, g.concealed),
                         on_change=edit, args=(slot, rv.set_concealed, g.id, not g.concealed))
        cols[2].button("Concealed kong", key=slot.key("ckong", g.id), on_click=edit, args=(slot, rv.mark_concealed_kong, g.id),
                       disabled=len(review.tiles_in(g.id)) != 4 or g.concealed)
        cols[3].button("Break up", key=slot.key("dissolve", g.id), on_click=edit, args=(slot, rv.dissolve_group, g.id),
                       help="These tiles were never declared: put them back in hand")
    loose = sorted(review.tiles_in(None), key=lambda t: t.id)
    if loose:
        cols = st.columns([4, 1])
        chosen = cols[0].multiselect("Declare a set from tiles in hand", [t.id for t in loose], key=slot.key("newset_tiles"),
                                     format_func=lambda i: review.tile(i).label)
        cols[1].button("Declare exposed set", key=slot.key("newset"), on_click=edit, args=(slot, rv.new_group, chosen))


def winning_tile(slot: Slot, review: rv.Review, *, disabled: bool = False) -> None:
    """Which tile completed the hand; a tile the photo showed as the winning one (set apart, an arrow above it) is
    marked, and the page says how it was shown."""
    ids: list[int | None] = [None] + [t.id for t in sorted(review.hand_tiles, key=lambda t: t.id)]
    current = review.winning_tile if review.winning_tile in ids else None

    def chosen() -> None:
        edit(slot, rv.set_winning_tile, st.session_state[slot.key("winning", current)])

    st.selectbox("Winning tile", ids, index=ids.index(current), key=slot.key("winning", current), on_change=chosen,
                 format_func=lambda i: "not marked" if i is None else review.tile(i).label, disabled=disabled)
    if review.winning_from_reader and current is not None:
        st.caption(f"The reader took #{current} {review.tile(current).code}, {review.winning_from_reader}, for the winning "
                   "tile: change it if another tile completed the hand.")
    elif not disabled and current is None:
        st.caption("Mark the winning tile (here, or *Winning tile* beside a picked tile): some rules score the place it filled.")


def won_by_words(method: str) -> str:
    return WON_BY_WORDS.get(method, method.replace("-", " "))


def circumstances(slot: Slot, review: rv.Review) -> Any:
    """How the hand was won; returns the place just under *Won by*, where the score goes after the last tap."""
    def changed(**names: str) -> Callable[[], None]:
        def apply() -> None:
            values = {field: st.session_state[slot.key(key)] for field, key in names.items()}
            if "flags" in values:
                values["flags"] = list(values["flags"])
            edit(slot, lambda r: rv.set_circumstances(r, **values))
        return apply

    st.checkbox("Went out (the winner)", value=review.winner, key=slot.key("winner"), on_change=changed(winner="winner"))
    methods = [m.value for m in WinMethod]
    with st.container(key=f"wonby-{slot.prefix}"):
        # The buttons wrap onto a second row on a phone rather than run off its edge.
        st.segmented_control("Won by", methods, default=review.won_by.value if review.won_by else None, key=slot.key("won_by"),
                             on_change=changed(won_by="won_by"), disabled=not review.winner, format_func=won_by_words,
                             help="Off a discard, from the wall, ... : the page does not guess")
    bring_into_view(f"wonby-{slot.prefix}")  # asked for when a hand was just put up: this is the next tap
    if review.winner and review.won_by is None:
        st.info("How was it won? Tap *discard* or *wall* (or another way) above.")
    answer = st.container(key=f"answer-{slot.prefix}")
    bring_into_view(f"answer-{slot.prefix}")  # asked for when a hand was put up already won: its score is the answer
    cols = st.columns(2)
    cols[0].selectbox("Seat wind", WINDS, index=WINDS.index(review.seat_wind), key=slot.key("seat"), format_func=wind_word,
                      help="East is the dealer: East pays and receives double", on_change=changed(seat_wind="seat"))
    cols[1].selectbox("Prevailing wind", WINDS, index=WINDS.index(review.prevailing_wind), key=slot.key("round"),
                      format_func=wind_word, on_change=changed(prevailing_wind="round"))
    winning_tile(slot, review, disabled=not review.winner)
    st.multiselect("Circumstances the tiles cannot show", sorted(FLAGS), default=sorted(review.flags), key=slot.key("flags"),
                   format_func=lambda f: f"{f.replace('-', ' ')}: {FLAGS[f]}", on_change=changed(flags="flags"))
    return answer


def corrections(review: rv.Review) -> None:
    if review.corrections:
        with st.expander(f"Your corrections ({len(review.corrections)})"):
            st.markdown("\n".join(f"{n}. {rv.correction_text(c)}" for n, c in enumerate(review.corrections, 1)))


def review_tiles(slot: Slot, *, with_circumstances: bool = True, winner: bool = True) -> Any:
    """The whole review of one hand: the photo and faces, the fix panel, missed tiles, sets, how it was won.

    Returns the place under *Won by* (None without it), where the page puts the score: the last tap's answer where the finger is.
    """
    st.markdown(PAGE_CSS, unsafe_allow_html=True)
    review: rv.Review = st.session_state[slot.review]
    photo: Photo | None = st.session_state.get(slot.photo)
    if slot.key("pick") in st.session_state:
        # A tile picked in the list is the one the photo marks, in this very run (not the one picked before it).
        st.session_state[slot.picked] = st.session_state[slot.key("pick")]
    check_first(slot, review)
    # The fix panel sits beside the photo (under it on a phone): a tap on a tile shows its fix where the finger is.
    left, right = st.columns([3, 2]) if photo is not None else (None, st.container())
    if left is not None and photo is not None:
        with left:
            show_photo(slot, review, photo)
    with right:
        fix_panel(slot, review, photo)
    show_faces(slot, review)
    with st.expander("Add a tile the reader missed"):
        add_missed(slot, review)
    with st.expander("Sets: exposed, concealed, concealed kong", expanded=bool(review.groups) and with_circumstances):
        edit_sets(slot, review)
    answer = None
    if with_circumstances:
        st.subheader("How it was won")
        answer = circumstances(slot, review)
    elif winner:
        winning_tile(slot, review)
    corrections(review)
    return answer
