"""Score a hand: photo (or typed hand) in, every tile checked and corrected, the score line by line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from scoring.api import WinMethod, get_rule_set
from scoring.errors import PungChowError
from scoring.hand import FLAGS
from scoring.tiles import ALL_CODES, WINDS
from webapp import review as rv
from webapp import state
from webapp.drawing import draw_detections, tile_face, tile_row
from webapp.photos import MAX_UPLOAD_MB, photo_key, read_photo, thumbnail_jpeg
from webapp.recognition import known_tilesets, read_tiles, tileset_offer
from webapp.scores import score_one, side_by_side, total_text
from webapp.widgets import history, page_title, reader, rule_set_chooser, show_breakdown, user_errors

WIND_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}
#: Faces per row beside the photo: a full hand in two rows stays legible on a phone.
TILES_PER_ROW = 7
#: Doubtful tiles named in the "check these first" line; the picker lists them all.
MAX_LISTED = 8


def edit(change: Callable[..., rv.Review], *args: Any, **kwargs: Any) -> None:
    """Apply one correction to the review; a player's mistake becomes a message for the next run."""
    try:
        st.session_state[state.REVIEW] = change(st.session_state[state.REVIEW], *args, **kwargs)
    except PungChowError as exc:
        st.session_state[state.MESSAGE] = str(exc)


def fix_and_advance(change: Callable[..., rv.Review], tile_id: int, *args: Any) -> None:
    """Correct or confirm the picked tile, then pick the next doubtful one, as a player works down the list."""
    edit(change, tile_id, *args)
    remaining = rv.tiles_to_check(st.session_state[state.REVIEW])
    if remaining:
        st.session_state[f"w_pick_{st.session_state[state.REVIEW_VERSION]}"] = remaining[0].id


def start_review(new: rv.Review, photo: Any = None) -> None:
    """A fresh hand to check: widgets drawn for the last one must not carry over."""
    st.session_state[state.REVIEW] = new
    st.session_state[state.PHOTO] = photo
    st.session_state[state.PICKED_TILE] = None
    st.session_state[state.REVIEW_VERSION] = st.session_state.get(state.REVIEW_VERSION, 0) + 1
    st.session_state[state.LOADED_HAND] = None


# --- photo or typed hand in ---------------------------------------------------------------------


def photo_in() -> None:
    use_camera = st.toggle("Use the camera", key="w_use_camera", help="On a phone this opens the camera; otherwise upload a photo")
    if use_camera:
        upload = st.camera_input("Photograph the hand, tiles face up, sets laid out", key="w_camera", resolution="1080p")
    else:
        upload = st.file_uploader("Upload a photo of the hand (JPEG or PNG)", key="w_upload", max_upload_size=MAX_UPLOAD_MB)
    tilesets = known_tilesets()
    tileset = st.selectbox("Tile set", [None] + tilesets, key="w_tileset", format_func=lambda n: n or "the usual faces",
                           help="A set calibrated on the Tile sets page") if tilesets else None
    if upload is None:
        return
    data = upload.getvalue()
    key = f"{photo_key(data)}:{tileset or ''}"
    if st.session_state[state.PHOTO_KEY] == key:
        return  # already read: a click elsewhere must not read the photo again
    photo = read_photo(data, upload.name)
    st.session_state[state.PHOTO_KEY] = key
    with st.status("Recognising the tiles…", expanded=False) as status:
        progress = st.progress(0.1, text="Loading the tile reader")
        try:
            loaded = reader()
            progress.progress(0.4, text="Finding and reading every tile")
            found = read_tiles(loaded, photo, tileset)
            offer = tileset_offer(loaded, photo, tileset)
        except PungChowError as exc:
            start_review(rv.Review(), photo)
            progress.progress(1.0, text="The tiles could not be read")
            status.update(label="The photo is kept; add its tiles below", state="error")
            st.warning(str(exc))
            return
        progress.progress(1.0, text=f"Read {len(found.tiles)} tiles")
        status.update(label=f"Read {len(found.tiles)} tiles: check them below", state="complete")
    start_review(found, photo)
    if offer:
        st.info(offer)


def typed_in() -> None:
    with st.form("w_typed_form"):
        text = st.text_input(
            "Hand notation",
            placeholder="7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]",
            help="Concealed tiles first, then each declared set: [2D2D2D] exposed, (XX1D1DXX) a concealed kong",
            key="w_notation",
        )
        cols = st.columns(2)
        winning = cols[0].text_input("Winning tile", placeholder="2D", key="w_typed_winning")
        won_by = cols[1].selectbox("Won by", [m.value for m in WinMethod], index=1, key="w_typed_won_by")
        if st.form_submit_button("Use this hand", key="w_use_typed"):
            if not text.strip():
                raise PungChowError("type the hand first, e.g. 7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]")
            start_review(rv.from_notation(text, winning=winning.strip() or None, won_by=won_by))


# --- review -------------------------------------------------------------------------------------


def show_tiles(review: rv.Review) -> None:
    """The photo with its boxes beside the hand laid out as faces."""
    photo = st.session_state[state.PHOTO]
    left, right = st.columns([3, 2]) if photo is not None else (None, st.container())
    if photo is not None and left is not None:
        left.image(draw_detections(photo.image, review.tiles, st.session_state[state.PICKED_TILE]),
                   caption="Green: sure · orange: unsure · red: doubtful · blue: checked by you", width="stretch")
    with right:
        for gid in [None] + [g.id for g in review.groups]:
            members = review.tiles_in(gid)
            if members or gid is None:
                st.caption(review.group_label(gid) if gid is not None else f"Concealed tiles in hand ({len(members)})")
                for start in range(0, max(1, len(members)), TILES_PER_ROW):
                    st.image(tile_row(t.code for t in members[start : start + TILES_PER_ROW]))


def fix_tile(review: rv.Review, version: int) -> None:
    unsure = rv.tiles_to_check(review)
    if unsure:
        more = f" and {len(unsure) - MAX_LISTED} more" if len(unsure) > MAX_LISTED else ""
        st.warning("Check these first: " + ", ".join(t.label for t in unsure[:MAX_LISTED]) + more)
    ordered = rv.tiles_in_review_order(review)
    if not ordered:
        st.info("No tiles yet: add them one by one below, or type the hand.")
        return
    ids = [t.id for t in ordered]
    picked = st.selectbox("Tile to fix (least sure first)", ids, key=f"w_pick_{version}",
                          format_func=lambda i: review.tile(i).label)
    st.session_state[state.PICKED_TILE] = picked
    tile = review.tile(picked)
    cols = st.columns([1, 4])
    cols[0].image(tile_face(tile.code), caption=tile.code)
    with cols[1]:
        if tile.alternatives:
            st.markdown("**The reader's other guesses**")
            alt_cols = st.columns(len(tile.alternatives))
            for col, (code, p) in zip(alt_cols, tile.alternatives):
                col.image(tile_face(code))
                col.button(f"{code} ({p:.0%})", key=f"w_alt_{version}_{picked}_{code}", on_click=fix_and_advance,
                           args=(rv.replace_tile, picked, code), disabled=code == tile.code)
        actions = st.columns(3)
        actions[0].button("It is right", key=f"w_confirm_{version}", on_click=fix_and_advance, args=(rv.confirm_tile, picked),
                          disabled=tile.confidence is None)
        actions[1].button("Delete this tile", key=f"w_delete_{version}", on_click=edit, args=(rv.delete_tile, picked))
        actions[2].button("Winning tile", key=f"w_win_{version}", on_click=edit, args=(rv.set_winning_tile, picked),
                          help="This tile completed the hand")
        targets: list[int | None] = [None] + [g.id for g in review.groups]
        move_cols = st.columns([3, 1])
        target = move_cols[0].selectbox("Move it to", targets, index=targets.index(tile.group), key=f"w_move_to_{version}_{picked}",
                                        format_func=review.group_label)
        move_cols[1].button("Move", key=f"w_move_{version}", on_click=edit, args=(rv.move_tile, picked, target))
    with st.expander("All tiles: pick the right face", expanded=False):
        palette("w_face", lambda code: (fix_and_advance, rv.replace_tile, picked, code), version)


def palette(prefix: str, action: Callable[[str], tuple[Any, ...]], version: int, columns: int = 9) -> None:
    """Every tile face as a picture with its button; ``action(code)`` gives the callback and its arguments."""
    for start in range(0, len(ALL_CODES), columns):
        cols = st.columns(columns)
        for col, code in zip(cols, ALL_CODES[start : start + columns]):
            callback, *args = action(code)
            col.image(tile_face(code))
            col.button(code, key=f"{prefix}_{version}_{code}", on_click=callback, args=tuple(args))


def edit_sets(review: rv.Review, version: int) -> None:
    for g in review.groups:
        cols = st.columns([3, 2, 2, 2])
        cols[0].markdown(f"**{review.group_label(g.id)}**")
        cols[1].checkbox("concealed", value=g.concealed, key=f"w_concealed_{version}_{g.id}_{g.concealed}",
                         on_change=edit, args=(rv.set_concealed, g.id, not g.concealed))
        cols[2].button("Concealed kong", key=f"w_ckong_{version}_{g.id}", on_click=edit, args=(rv.mark_concealed_kong, g.id),
                       disabled=len(review.tiles_in(g.id)) != 4 or g.concealed)
        cols[3].button("Break up", key=f"w_dissolve_{version}_{g.id}", on_click=edit, args=(rv.dissolve_group, g.id),
                       help="These tiles were never declared: put them back in hand")
    loose = review.tiles_in(None)
    if loose:
        cols = st.columns([4, 1])
        chosen = cols[0].multiselect("Declare a set from tiles in hand", [t.id for t in loose], key=f"w_newset_tiles_{version}",
                                     format_func=lambda i: review.tile(i).label)
        cols[1].button("Declare exposed set", key=f"w_newset_{version}", on_click=edit, args=(rv.new_group, chosen))


def add_missed(review: rv.Review, version: int) -> None:
    targets: list[int | None] = [None] + [g.id for g in review.groups]
    cols = st.columns([2, 3, 1])
    code = cols[0].selectbox("Missed tile", ALL_CODES, key=f"w_add_code_{version}")
    target = cols[1].selectbox("Goes into", targets, key=f"w_add_to_{version}", format_func=review.group_label)
    cols[2].image(tile_face(code))
    st.button("Add tile", key=f"w_add_{version}", on_click=edit, args=(rv.add_tile, code, target))


def circumstances(review: rv.Review, version: int) -> None:
    cols = st.columns(4)
    winner = cols[0].checkbox("Went out (the winner)", value=review.winner, key=f"w_winner_{version}")
    methods = [m.value for m in WinMethod]
    won_by = cols[1].selectbox("Won by", methods, index=methods.index(review.won_by.value), key=f"w_won_by_{version}",
                               disabled=not winner)
    seat = cols[2].selectbox("Seat wind", WINDS, index=WINDS.index(review.seat_wind), key=f"w_seat_{version}",
                             format_func=WIND_NAMES.get, help="East is the dealer: East pays and receives double")
    round_wind = cols[3].selectbox("Prevailing wind", WINDS, index=WINDS.index(review.prevailing_wind), key=f"w_round_{version}",
                                   format_func=WIND_NAMES.get)
    ids: list[int | None] = [None] + [t.id for t in review.tiles]
    current = review.winning_tile if review.winning_tile in ids else None
    winning = st.selectbox("Winning tile", ids, index=ids.index(current), key=f"w_winning_{version}_{current}",
                           format_func=lambda i: "not marked" if i is None else review.tile(i).label, disabled=not winner)
    flags = st.multiselect("Circumstances the tiles cannot show", sorted(FLAGS), default=sorted(review.flags),
                           key=f"w_flags_{version}", format_func=lambda f: f"{f}: {FLAGS[f]}")
    st.caption(f"This player is {'East, the dealer' if seat == 'E' else WIND_NAMES[seat]}.")
    if winner and review.winning_tile is None:
        st.info("Mark the winning tile (above, or with *Winning tile* beside a picked tile): some rules score the place it filled.")
    updated = rv.set_circumstances(review, won_by=won_by, seat_wind=seat, prevailing_wind=round_wind, winner=winner, flags=flags)
    if winning != review.winning_tile:
        updated = rv.set_winning_tile(updated, winning)
    if updated is not review:
        st.session_state[state.REVIEW] = updated
        st.rerun()


# --- score --------------------------------------------------------------------------------------


def score(review: rv.Review) -> None:
    hand, problems = rv.to_hand(review)
    if problems or hand is None:
        st.warning("Fix these before the hand can be scored:\n\n" + "\n".join(f"- {p}" for p in problems))
        return
    rules = rule_set_chooser()
    if rules is None:
        return
    st.markdown(f"**Hand:** `{hand}`" + (f" — winning tile {hand.winning_tile}, won by {hand.won_by.value}" if hand.winning_tile and hand.won_by else ""))
    options = st.session_state[state.RULE_OPTIONS]
    if rules == state.ALL_RULES:
        books = side_by_side(hand, options)
        st.table([{"rule set": b.title, "name": b.rules, "version": b.version,
                   "score": total_text(b.result) if b.result else "—", "note": b.problem or ""} for b in books])
        for b in books:
            if b.result is not None:
                with st.expander(f"{b.title}: {b.result.total}"):
                    show_breakdown(b.result)
        return
    result = score_one(hand, rules, options.get(rules))
    show_breakdown(result)
    save_hand(review, hand, rules, result)


def save_hand(review: rv.Review, hand: Any, rules: str, result: Any) -> None:
    with st.expander("Save this hand to the history"):
        store = history()
        games = store.games()
        game_ids: list[int | None] = [None] + [g.id for g in games]
        titles = {g.id: f"{g.title} ({', '.join(g.players)})" for g in games}
        current = st.session_state[state.GAME_ID] if st.session_state[state.GAME_ID] in game_ids else (games[0].id if games else None)
        game_id = st.selectbox("Game", game_ids, index=game_ids.index(current), key="w_save_game",
                               format_func=lambda i: "a new game" if i is None else titles[i])
        if game_id is None:
            title = st.text_input("Title of the new game", key="w_save_title")
            names = st.text_input("The four players, East first, separated by commas", value="Player 1, Player 2, Player 3, Player 4", key="w_save_players")
            player_choices = [n.strip() for n in names.split(",")]
        else:
            title = ""
            player_choices = list(store.game(game_id).players)
        seat_index = WINDS.index(review.seat_wind)
        player = st.selectbox("Whose hand", player_choices, index=min(seat_index, len(player_choices) - 1), key="w_save_player")
        if st.button("Save hand", key="w_save_hand"):
            if game_id is None:
                game_id = store.new_game(title, player_choices).id
            st.session_state[state.GAME_ID] = game_id
            photo = st.session_state[state.PHOTO]
            rs = get_rule_set(rules)
            hand_id = store.save_hand(
                game_id, deal=store.next_deal(game_id), player=player, hand=hand.to_dict(), notation=str(hand),
                rule_set=rules, rule_version=rs.version, options=dict(result.best.options), score=result.to_dict(),
                corrections=rv.corrections_as_dicts(review), recognised=review.recognised,
                photo_name=photo.name if photo else None, photo_sha256=photo.sha256 if photo else None,
                thumbnail=thumbnail_jpeg(photo.image) if photo else None,
            )
            st.success(f"Saved as hand {hand_id} of game {game_id}.")


# --- the page -----------------------------------------------------------------------------------

page_title("Score a hand")

with user_errors():
    photo_tab, typed_tab = st.tabs(["Photo", "Type the hand"])
    with photo_tab:
        with user_errors():
            photo_in()
    with typed_tab:
        with user_errors():
            typed_in()

current: rv.Review | None = st.session_state[state.REVIEW]
if current is not None:
    version = st.session_state.get(state.REVIEW_VERSION, 0)
    with user_errors():
        st.header("Check the tiles")
        if st.session_state[state.LOADED_HAND] is not None:
            st.caption(f"Hand {st.session_state[state.LOADED_HAND]} from the history, with the corrections it was saved with.")
        show_tiles(current)
        fix_tile(current, version)
        with st.expander("Sets: exposed, concealed, concealed kong", expanded=bool(current.groups)):
            edit_sets(current, version)
        with st.expander("Add a tile the reader missed"):
            add_missed(current, version)
        st.subheader("How it was won")
        circumstances(current, version)
        if current.corrections:
            with st.expander(f"Your corrections ({len(current.corrections)})"):
                st.json(rv.corrections_as_dicts(current))
    st.header("Score")
    with user_errors():
        score(st.session_state[state.REVIEW])
