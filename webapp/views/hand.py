"""Score a hand: photo (or typed hand) in, every tile checked and corrected, the score line by line."""

from __future__ import annotations

from typing import Any

import streamlit as st

from scoring import service
from scoring.api import ScoreResult, WinMethod, get_rule_set, rule_sets
from scoring.errors import PungChowError
from scoring.rulesets import Refusal
from scoring.tiles import WINDS
from webapp import review as rv
from webapp import reviewer, state
from webapp.photos import MAX_UPLOAD_MB, photo_key, read_photo, thumbnail_jpeg
from webapp.recognition import known_tilesets, tileset_offer
from webapp.scores import total_text
from webapp.text import markdown_text
from webapp.widgets import (
    history,
    page_title,
    player_words,
    read_tiles_once,
    reader,
    rule_set_chooser,
    show_breakdown,
    text_table,
    user_errors,
)

#: The review on this page; its widgets keep the ``w_`` keys the page always had.
SLOT = reviewer.Slot(state.REVIEW, state.PHOTO, state.PICKED_TILE, state.REVIEW_VERSION, "w")


def start_review(new: rv.Review, photo: Any = None) -> None:
    """A fresh hand to check: widgets drawn for the last one must not carry over."""
    reviewer.start(SLOT, new, photo)
    st.session_state[state.LOADED_HAND] = None
    st.session_state[state.SAVED_HAND] = None


# --- photo or typed hand in ---------------------------------------------------------------------


def photo_in() -> None:
    use_camera = st.toggle("Use the camera", key="w_use_camera", help="On a phone this opens the camera; otherwise upload a photo")
    if use_camera:
        upload = st.camera_input("Photograph the hand, tiles face up, sets laid out", key="w_camera", resolution="1080p")
    else:
        upload = st.file_uploader(f"Upload a photo of the hand (JPEG or PNG, up to {MAX_UPLOAD_MB} MB)", key="w_upload")
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
            progress.progress(0.4, text="Finding and reading every tile")
            found = rv.Review.from_recognition(read_tiles_once(photo, tileset))
            offer = tileset_offer(reader(), photo, tileset)
        except PungChowError as exc:
            start_review(rv.Review(), photo)
            progress.progress(1.0, text="The tiles could not be read")
            status.update(label="The photo is kept; add its tiles below", state="error")
            st.warning(player_words(str(exc)))
            return
        progress.progress(1.0, text=f"Read {len(found.tiles)} tiles")
        status.update(label=f"Read {len(found.tiles)} tiles: check them below", state="complete")
    start_review(found, photo)
    if offer:
        st.info(markdown_text(offer))


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
        won_by = cols[1].selectbox("Won by", [m.value for m in WinMethod], index=None, placeholder="ask me after",
                                  key="w_typed_won_by")
        if st.form_submit_button("Use this hand", key="w_use_typed"):
            if not text.strip():
                raise PungChowError("type the hand first, e.g. 7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]")
            start_review(rv.from_notation(text, winning=winning.strip() or None, won_by=won_by))


# --- score --------------------------------------------------------------------------------------


def score(review: rv.Review, summary: Any) -> None:
    """The score in full here; its total and what still stops it go to ``summary``, at the top of the page."""
    hand, problems = rv.to_hand(review)
    if problems or hand is None:
        text = "Fix these before the hand can be scored:\n\n" + "\n".join(f"- {reviewer.player_words(p)}" for p in problems)
        st.warning(text)
        summary.warning(text)
        return
    rules = rule_set_chooser()
    if rules is None:
        return
    st.markdown(f"**Hand:** `{hand}`" + (f" — winning tile {hand.winning_tile}, won by {hand.won_by.value}" if hand.winning_tile and hand.won_by else ""))
    options = st.session_state[state.RULE_OPTIONS]
    results = service.score_under(hand, service.ALL if rules == state.ALL_RULES else rules, options)
    if rules == state.ALL_RULES:
        summary.caption("Scored under every rule set: see below")
        sets = rule_sets()
        st.table(text_table([{"rule set": sets[name].title, "name": name, "version": sets[name].version,
                              "score": total_text(r) if isinstance(r, ScoreResult) else "—",
                              "note": r.reason if isinstance(r, Refusal) else ""} for name, r in results.items()]))
        for name, r in results.items():
            if isinstance(r, ScoreResult):
                with st.expander(f"{sets[name].title}: {r.total}"):
                    show_breakdown(r)
        return
    result = next(iter(results.values()))
    assert isinstance(result, ScoreResult)
    summary.metric(f"Score under {get_rule_set(rules).title}", total_text(result))
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
                game_id, player=player, hand=hand.to_dict(), notation=str(hand),
                rule_set=rules, rule_version=rs.version, options=dict(result.best.options), score=result.to_dict(),
                corrections=rv.corrections_as_dicts(review), recognised=review.recognised,
                photo_name=photo.name if photo else None, photo_sha256=photo.sha256 if photo else None,
                thumbnail=thumbnail_jpeg(photo.image) if photo else None,
            )
            st.session_state[state.SAVED_HAND] = hand_id
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



@st.fragment
def review_and_score() -> None:
    """Checking and scoring rerun on their own: a correction does not redraw the upload or read the photo again."""
    current: rv.Review | None = st.session_state[state.REVIEW]
    if current is None:
        return
    summary = st.container(key="summary")
    with user_errors():
        st.header("Check the tiles")
        if st.session_state[state.LOADED_HAND] is not None:
            st.caption(f"Hand {st.session_state[state.LOADED_HAND]} from the history, with the corrections it was saved with.")
        reviewer.review_tiles(SLOT)
    st.header("Score")
    with user_errors():
        score(st.session_state[state.REVIEW], summary)


review_and_score()
