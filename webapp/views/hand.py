"""Score a hand: photo (or typed hand) in, every tile checked and corrected, the score line by line."""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

import streamlit as st

from scoring import service
from scoring.api import Hand, ScoreResult, WinMethod, get_rule_set, rule_sets
from scoring.errors import PungChowError
from scoring.rulesets import Refusal
from scoring.tiles import WINDS
from webapp import keyboard as kb
from webapp import review as rv
from webapp import reviewer, state
from webapp.history import HistoryError
from webapp.photos import MAX_UPLOAD_MB, THUMBNAIL_SIDE, Photo, kept_picture, photo_key, read_photo, thumbnail_jpeg
from webapp.recognition import Lesson, known_tilesets, learning_set, not_learnt, take_back, teach, tileset_offer
from webapp.scores import breakdown_rows, total_text
from webapp.text import markdown_text
from webapp.widgets import (
    across_the_table_view,
    bring_into_view,
    current_game,
    game_caption,
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


def start_review(new: rv.Review | None, photo: Photo | None = None) -> None:
    """A fresh hand to check: widgets drawn for the last one must not carry over."""
    reviewer.start(SLOT, new, photo)
    st.session_state[state.LOADED_HAND] = None
    st.session_state[state.SAVED_HAND] = None
    st.session_state[state.REVIEW_TOKEN] = uuid.uuid4().hex


# --- photo or typed hand in ---------------------------------------------------------------------


def photo_in() -> None:
    use_camera = st.toggle("Use the camera", key="w_use_camera", help="On a phone this opens the camera; otherwise upload a photo")
    if use_camera:
        upload = st.camera_input("Photograph the hand, tiles face up, sets laid out", key="w_camera", resolution="1080p")
    else:
        upload = st.file_uploader(f"Upload a photo of the hand (JPEG or PNG, up to {MAX_UPLOAD_MB} MB)", key="w_upload",
                                  max_upload_size=MAX_UPLOAD_MB)  # the uploader's own limit line says the same 20 MB
    tilesets = known_tilesets()
    data = upload.getvalue() if upload is not None else b""
    learning = st.session_state[state.LEARNING_SET]
    if upload is not None and learning in tilesets and not (st.session_state[state.PHOTO_KEY] or "").startswith(photo_key(data)):
        st.session_state["w_tileset"] = learning  # a new photo of the set is read with what the last one taught it
    tileset = st.selectbox("Tile set", [None] + tilesets, key="w_tileset", format_func=lambda n: n or "the usual faces",
                           help="A set calibrated on the Tile sets page, or one your corrections taught") if tilesets else None
    if upload is None:
        return
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
            st.warning(player_words(exc))
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
                                  key="w_typed_won_by", format_func=reviewer.won_by_words)
        if st.form_submit_button("Use this hand", key="w_use_typed"):
            if not text.strip():
                raise PungChowError("type the hand first, e.g. 7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]")
            try:
                typed = rv.from_notation(text, winning=winning.strip() or None, won_by=won_by)
            except PungChowError:
                start_review(None)  # the last hand's score must not stand under this hand's error
                raise
            start_review(typed)


def key_tap(action: Any, *args: Any) -> None:
    """One key of the tile keyboard; a tap that cannot be (a sixth tile of a kind, no set) is said above the keys."""
    try:
        st.session_state[state.KEYS] = action(st.session_state[state.KEYS], *args)
        st.session_state.pop("w_keys_said", None)
    except PungChowError as exc:
        st.session_state["w_keys_said"] = str(exc)


def use_keys(won_by: str | None) -> None:
    """Put the tapped hand up for review, its last tile the winning tile, won as the button said (None: asked there)."""
    keys: kb.Keys = st.session_state[state.KEYS]
    try:
        typed = rv.from_notation(keys.notation(), winning=keys.winning, won_by=won_by)
    except PungChowError as exc:
        st.session_state["w_keys_said"] = reviewer.player_words(exc)
        return
    start_review(typed)
    st.session_state[state.KEYS] = kb.Keys()
    st.session_state.pop("w_keys_said", None)
    st.session_state[state.SCROLL_TO] = "wonby-w" if won_by is None else "answer-w"


def keyboard_in() -> None:
    """Tap the tiles: one tap a tile, the last one the winning tile; then *Use these tiles*."""
    keys: kb.Keys = st.session_state[state.KEYS]
    st.markdown(reviewer.PAGE_CSS, unsafe_allow_html=True)
    with st.container(key="keyboard"):
        st.markdown(f"**Tap the tiles** ({keys.count}): `{keys.notation() or '…'}`"
                    + (f" — winning tile {keys.winning}" if keys.winning else ""))
        cols = st.columns(2)
        cols[0].button("Take back", key="w_keys_undo", on_click=key_tap, args=(kb.Keys.undo,), disabled=keys.before is None)
        cols[1].button("Exposed set", key="w_keys_expose", on_click=key_tap, args=(kb.Keys.expose,),
                       help="The last three or four tiles tapped were laid out on the table")
        # One tap puts the hand up and says how it was won: the two usual ways, or ask me (any other way, or not won).
        ways = st.columns(3)
        for col, (label, won_by) in zip(ways, (("Won off a discard", "discard"), ("Won from the wall", "wall"), ("Ask me how", None))):
            col.button(label, key=f"w_keys_use_{won_by or 'ask'}", on_click=use_keys, args=(won_by,),
                       type="primary" if won_by else "secondary", disabled=keys.count == 0)
        if st.session_state.get("w_keys_said"):
            st.error(st.session_state["w_keys_said"])
        reviewer.palette(SLOT, "keys", lambda code: (key_tap, kb.Keys.tap, code))


# --- score --------------------------------------------------------------------------------------


def score(review: rv.Review, summary: Any, answer: Any = None) -> None:
    """The score in full here; its total and what still stops it go to ``summary``, at the top of the page, and to
    ``answer``, just under *Won by*, where the last tap usually is."""
    places = [summary] + ([answer] if answer is not None else [])
    hand, problems = rv.to_hand(review)
    if problems or hand is None:
        text = "Fix these before the hand can be scored:\n\n" + "\n".join(f"- {reviewer.player_words(p)}" for p in problems)
        st.warning(text)
        for place in places:
            place.warning(text)
        return
    rules = rule_set_chooser()
    if rules is None:
        return
    won = ""
    if hand.winning_tile and hand.won_by:
        won = f" — winning tile {hand.winning_tile}, won by {reviewer.won_by_words(hand.won_by.value)}"
    st.markdown(f"**Hand:** `{hand}`{won}")
    options = st.session_state[state.RULE_OPTIONS]
    results = service.score_under(hand, service.ALL if rules == state.ALL_RULES else rules, options)
    if rules == state.ALL_RULES:
        for place in places:
            place.caption("Scored under every rule set: see below")
        sets = rule_sets()
        st.table(text_table([{"rule set": sets[name].title, "name": name, "version": sets[name].version,
                              "score": total_text(r) if isinstance(r, ScoreResult) else "—",
                              "note": reviewer.player_words(r.reason) if isinstance(r, Refusal) else ""}
                             for name, r in results.items()]))
        for name, r in results.items():
            if isinstance(r, ScoreResult):
                with st.expander(f"{sets[name].title}: {r.total}"):
                    show_breakdown(r)
        return
    result = next(iter(results.values()))
    assert isinstance(result, ScoreResult)
    matters = service.winning_tile_matters(result, rules, options.get(rules))
    for place in places:
        place.metric(f"Score under {get_rule_set(rules).title}", total_text(result))
        if matters is not None:
            place.warning(reviewer.player_words(matters.problem))
    across_the_table_view(f"Score under {get_rule_set(rules).title}", total_text(result),
                          [(row["value"], row["for"]) for row in breakdown_rows(result)])
    show_breakdown(result)
    save_hand(review, hand, rules, result)


def save_key(review: rv.Review, hand: Hand, rules: str, total: int) -> str:
    """The mark a save carries: the same hand, scored the same, saved twice (a double tap) is kept once; a corrected one anew."""
    digest = hashlib.sha256(f"{hand}|{rules}|{total}".encode()).hexdigest()[:16]
    if not st.session_state.get(state.REVIEW_TOKEN):
        st.session_state[state.REVIEW_TOKEN] = uuid.uuid4().hex
    return f"{st.session_state[state.REVIEW_TOKEN]}:{digest}"


def save_hand(review: rv.Review, hand: Hand, rules: str, result: ScoreResult) -> None:
    store = history()
    key = save_key(review, hand, rules, result.total)
    kept = store.saved_under(key)
    if kept is not None:
        st.session_state[state.SAVED_HAND] = kept.id
        game = store.game(kept.game_id)
        with st.container(key="hand-saved"):
            st.success(f"Saved as hand {kept.id} of game {kept.game_id} ({markdown_text(game.title)}), {markdown_text(kept.player)}'s.")
        bring_into_view("hand-saved")
        return
    with st.expander("Save this hand to the history"):
        games = store.games()
        game_ids: list[int | None] = [None] + [g.id for g in games]
        titles = {g.id: f"{g.title} ({', '.join(g.players)})" for g in games}
        joined = current_game(store)
        # Keyed by the games there are: a game started meanwhile on another phone is offered, not a stale "a new game".
        game_id = st.selectbox("Game", game_ids, index=game_ids.index(joined.id if joined else None), key=f"w_save_game_{len(games)}",
                               format_func=lambda i: "a new game" if i is None else titles[i])
        if game_id is None:
            title = st.text_input("Title of the new game", key="w_save_title")
            names = st.text_input("The four players, East first, separated by commas", value="Player 1, Player 2, Player 3, Player 4",
                                  key="w_save_players")
            player_choices = [n.strip() for n in names.split(",")]
        else:
            title = ""
            player_choices = list(store.game(game_id).players)
        seat_index = WINDS.index(review.seat_wind)
        player = st.selectbox("Whose hand", player_choices, index=min(seat_index, len(player_choices) - 1), key="w_save_player") \
            or player_choices[0]
        if st.button("Save hand", key="w_save_hand"):
            try:  # the player confirmed every tile of the hand by saving it
                learn_from_photo(review, every_tile=True)
            except PungChowError as exc:  # a set that cannot learn says why, after the save; the hand is saved all the same
                st.session_state[state.MESSAGE] = not_learnt("this photo", player_words(exc))
            if store.saved_under(key) is None and game_id is None:
                game_id = store.new_game(title, player_choices).id
            st.session_state[state.GAME_ID] = game_id
            photo = st.session_state[state.PHOTO]
            rs = get_rule_set(rules)
            hand_id = store.save_hand(
                game_id or 0, player=player, hand=hand,
                rule_set=rules, rule_version=rs.version, options=dict(result.best.options), score=result,
                corrections=review.corrections, recognised=review.recognised,
                photo_name=photo.name if photo else None, photo_sha256=photo.sha256 if photo else None,
                thumbnail=thumbnail_jpeg(photo.image) if photo else None, save_key=key,
            )
            st.session_state[state.SAVED_HAND] = hand_id
            st.session_state[state.SCROLL_TO] = "hand-saved"
            st.rerun()  # drawn again as saved: no form left to file it a second time


# --- the page -----------------------------------------------------------------------------------

page_title("Score a hand")
with user_errors():
    game_caption(current_game(history()))

with user_errors():
    photo_tab, typed_tab, keys_tab = st.tabs(["Photo", "Type the hand", "Tap the tiles"])
    with photo_tab, user_errors():
        photo_in()
    with typed_tab, user_errors():
        typed_in()
    with keys_tab, user_errors():
        keyboard_in()



def show_loaded_photo(hand_id: int) -> None:
    """A hand brought back from the history shows the photo it was read from: the copy the history keeps (the page is sent
    the photo's bytes, never a path on the player's phone), or a line saying why there is none."""
    try:
        record = history().hand(hand_id)
    except HistoryError:
        st.caption(f"Hand {hand_id} is no longer in the history (its deal was taken back), nor is its photo.")
        return
    name = markdown_text(record.photo_name or "no name")
    if record.thumbnail and kept_picture(record.thumbnail):
        st.image(record.thumbnail, caption=f"The photo hand {hand_id} was read from ({name}), as the history keeps it "
                 f"(at most {THUMBNAIL_SIDE} px a side)")
    elif record.photo_sha256 or record.thumbnail:
        why = "its copy in the history file is damaged" if record.thumbnail else "the history kept only its fingerprint"
        st.caption(f"Hand {hand_id} was read from a photo ({name}, sha256 {(record.photo_sha256 or '?')[:12]}…), but it cannot "
                   f"be shown: {why}. Upload the photo again to see it.")
    else:
        st.caption(f"Hand {hand_id} was typed, not photographed: it has no photo.")


def learn_from_photo(review: rv.Review, every_tile: bool = False) -> None:
    """Teach the player's set the tiles of this photo they corrected or checked (``every_tile``: all of them, the hand
    confirmed); what the photo taught is kept with the review it belongs to."""
    photo = st.session_state[state.PHOTO]
    if photo is None:
        return
    token = st.session_state[state.REVIEW_TOKEN]
    kept = st.session_state[state.LESSON]
    lesson = kept[1] if kept and kept[0] == token else Lesson(learning_set(st.session_state.get("w_tileset")))
    before = len(lesson.tiles)
    lesson = teach(lesson, photo.image, photo.name, review, every_tile)
    st.session_state[state.LESSON] = (token, lesson)
    said = st.session_state.get(f"{SLOT.prefix}_said")
    if len(lesson.tiles) > before and said and said[0] == "success" and "learnt by" not in said[1]:
        st.session_state[f"{SLOT.prefix}_said"] = ("success", f"{said[1]} · learnt by {lesson.tileset}")  # where the finger is
    if lesson.tiles:
        st.session_state[state.LEARNING_SET] = lesson.tileset


def take_back_lesson() -> None:
    """*Undo* beside what was learnt: the set forgets all this photo taught it, and learns nothing more from it."""
    token, lesson = st.session_state[state.LESSON]
    try:
        st.session_state[state.LESSON] = (token, take_back(lesson))
    except PungChowError as exc:
        st.session_state[state.MESSAGE] = player_words(exc)  # said once, at the top of the next run


def what_was_learnt() -> None:
    """Say what the photo's checks taught the player's set, with an undo; or which set they will teach."""
    kept = st.session_state[state.LESSON]
    if st.session_state[state.PHOTO] is None or not kept or kept[0] != st.session_state[state.REVIEW_TOKEN]:
        return
    lesson: Lesson = kept[1]
    with st.container(key="learnt"):
        if lesson.tiles:
            cols = st.columns([3, 1], vertical_alignment="center")
            cols[0].info(markdown_text(str(lesson)) + ". The next photo of the set reads those faces with what it learnt "
                         f"({markdown_text(lesson.holds)}; rename it, or forget one example, on the Tile sets page).")
            cols[1].button("Undo: forget them", key="w_learnt_undo", on_click=take_back_lesson, icon=":material/undo:")
        elif lesson.stopped:
            st.caption(f"{markdown_text(lesson.tileset)} forgot what this photo taught it, and learns nothing more from it.")
        else:
            st.caption(f"Each tile you correct or check here teaches your tile set {markdown_text(lesson.tileset)}.")


@st.fragment
def review_and_score() -> None:
    """Checking and scoring rerun on their own: a correction does not redraw the upload or read the photo again."""
    current: rv.Review | None = st.session_state[state.REVIEW]
    if current is None:
        return
    summary = st.container(key="summary")
    answer = None
    with user_errors():
        st.header("Check the tiles")
        if st.session_state[state.LOADED_HAND] is not None:
            st.caption(f"Hand {st.session_state[state.LOADED_HAND]} from the history, with the corrections it was saved with.")
            show_loaded_photo(st.session_state[state.LOADED_HAND])
        with user_errors():
            learn_from_photo(st.session_state[state.REVIEW])  # before the review is drawn: its line says what was learnt
        answer = reviewer.review_tiles(SLOT)
    with user_errors():
        what_was_learnt()
    st.header("Score")
    with user_errors():
        score(st.session_state[state.REVIEW], summary, answer)


review_and_score()
