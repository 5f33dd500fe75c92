"""History: every game and hand kept, each hand a dispute record; reload a hand, export a game."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from scoring.tiles import Wind
from webapp import state
from webapp.history import HandRecord, HistoryError
from webapp.photos import kept_picture
from webapp.review import correction_text, from_hand
from webapp.scores import line_rows
from webapp.table import net_rows, payment_lines, payment_rows
from webapp.text import markdown_rows, markdown_text, options_text
from webapp.widgets import current_game, history, show_score_sheet, text_table, user_errors


def new_game_form() -> None:
    with st.form("w_new_game_form"):
        title = st.text_input("Title", placeholder="Friday at the Lees'", key="w_new_game_title")
        names = [st.text_input(f"{wind.word} player", key=f"w_new_game_{wind.word}") for wind in Wind]
        if st.form_submit_button("Start the game", key="w_new_game"):
            game = history().new_game(title, names)
            st.session_state[state.GAME_ID] = game.id
            st.success(f"Game {game.id} started: {markdown_text(game.title)}")


def load_into_review(record: HandRecord) -> None:
    """Put a kept hand back on the *Score a hand* page, with the corrections it was saved with."""
    if record.damaged:
        raise HistoryError(f"hand {record.id} is damaged in the history file ({', '.join(record.damaged)} unreadable): it cannot be loaded")
    if record.hand is None:
        raise HistoryError(f"hand {record.id} is damaged in the history file (hand unreadable): it cannot be loaded")
    review = from_hand(record.hand)
    st.session_state[state.REVIEW] = replace(review, corrections=record.corrections, recognised=record.recognised)
    st.session_state[state.PHOTO] = None
    st.session_state[state.PICKED_TILE] = None
    st.session_state[state.REVIEW_VERSION] = st.session_state.get(state.REVIEW_VERSION, 0) + 1
    st.session_state[state.LOADED_HAND] = record.id
    st.session_state[state.SAVED_HAND] = None
    st.session_state[state.REVIEW_TOKEN] = ""  # saved again, it is a new record: the next save draws a fresh mark
    st.session_state.pop("w_said", None)  # what the last tap did was said of another hand
    st.session_state.pop("w_undo", None)  # nor can the last hand's corrections be taken back into this one
    if record.rule_set:
        st.session_state[state.RULES] = record.rule_set
        st.session_state[state.RULE_OPTIONS][record.rule_set] = dict(record.options)


def undo_deal(game_id: int, deal: int) -> None:
    """Take back the last deal; a second tap (the deal is gone already) takes back nothing more."""
    undone = history().undo_last_deal(game_id, deal)
    st.session_state[state.UNDO_SAID] = f"Deal {deal} taken back." if undone else f"Deal {deal} was taken back already."


def show_record(record: HandRecord) -> None:
    cols = st.columns([1, 2])
    sha = record.photo_sha256[:12] if record.photo_sha256 else ""
    if record.thumbnail and kept_picture(record.thumbnail):
        cols[0].image(record.thumbnail, caption=f"photo {markdown_text(record.photo_name or '')} sha256 {sha}…")
    elif record.thumbnail or record.photo_sha256:
        cols[0].caption(f"photo {markdown_text(record.photo_name or '')} sha256 {sha}…: "
                        + ("its copy in the history file is damaged" if record.thumbnail else "no copy kept"))
    else:
        cols[0].caption("typed hand: no photo")
    with cols[1]:
        if record.damaged:
            st.warning(f"This record is damaged: {', '.join(record.damaged)} could not be read from the history file.")
        st.markdown(f"**{markdown_text(record.player)}**, deal {record.deal}: {markdown_text(record.notation)}")
        st.markdown(f"Rule set **{markdown_text(record.rule_set)}** version {markdown_text(record.rule_version)}, "
                    f"options: {markdown_text(options_text(record.options))}")
        if record.score is not None:
            st.markdown(f"Arrangement {markdown_text(record.score.arrangement)}: **{record.score.total}**")
            st.table(markdown_rows(text_table(line_rows(record.score.lines))))
        st.markdown(f"Corrections after reading: {len(record.corrections)}")
        if record.corrections:
            st.markdown("\n".join(f"{n}. {markdown_text(correction_text(c))}" for n, c in enumerate(record.corrections, 1)))
        if record.recognised:
            with st.expander("What the reader saw"):
                st.json(record.recognised, expanded=False)
        if st.button("Load into Score a hand", key=f"w_load_hand_{record.id}"):
            load_into_review(record)
            st.switch_page("views/hand.py")


st.title("History")
with user_errors():
    store = history()
    st.caption(f"History file: {markdown_text(store.path)}")
    if store.read_only:
        st.warning(store.read_only)
    games = store.games()
    with st.expander("Start a new game", expanded=not games):
        new_game_form()
        games = store.games()
    if not games:
        st.info("No game recorded yet: save a scored hand, or start a game above.")
        st.stop()
    ids = [g.id for g in games]
    joined = current_game(store)
    current = joined.id if joined is not None and joined.id in ids else ids[0]
    titles = {g.id: f"{g.title} — {', '.join(g.players)} ({g.created_at[:10]})" for g in games}
    game_id = st.selectbox("Game", ids, index=ids.index(current), key=f"w_history_game_{len(ids)}", format_func=titles.__getitem__) \
        or current
    st.session_state[state.GAME_ID] = game_id
    show_score_sheet(store, store.game(game_id))
    last = store.next_deal(game_id) - 1
    if last >= 1:
        st.button(f"Undo the last deal (deal {last})", key=f"w_undo_deal_{last}", on_click=undo_deal, args=(game_id, last),
                  help="Takes back the deal's hands and its payments, e.g. a deal saved by mistake")
    if st.session_state.get(state.UNDO_SAID):
        st.success(st.session_state.pop(state.UNDO_SAID))  # beside the Undo just tapped
    hands = store.hands(game_id)
    settlements = store.settlements(game_id)
    cols = st.columns(2)
    cols[0].download_button("Export game as JSON", store.export_json(game_id), file_name=f"pungchow-game-{game_id}.json",
                            mime="application/json", key="w_export_json")
    cols[1].download_button("Export game as CSV", store.export_csv(game_id), file_name=f"pungchow-game-{game_id}.csv",
                            mime="text/csv", key="w_export_csv")
    st.subheader(f"Hands ({len(hands)})")
    if hands:
        # A frame scrolls inside itself: the table fits a phone's width instead of running off it (it shows text, not markdown).
        st.dataframe(text_table([{"hand": h.id, "deal": h.deal, "player": h.player, "tiles": h.notation,
                                  "rule set": f"{h.rule_set} v{h.rule_version}", "score": h.total, "corrections": len(h.corrections),
                                  "photo": (h.photo_sha256 or "")[:12]} for h in hands]), hide_index=True, width="stretch")
        picked = st.selectbox("Open a hand", [h.id for h in hands], key="w_history_hand",
                              format_func=lambda i: next(f"hand {h.id}: {h.player}, deal {h.deal}, {h.total}" for h in hands if h.id == i))
        show_record(next(h for h in hands if h.id == picked))
    if settlements:
        st.subheader("Settlements")
        for s in settlements:
            with st.expander(markdown_text(f"Deal {s.deal} ({s.rule_set} v{s.rule_version}), East: {s.east or '?'}")):
                tables = [] if s.settlement is None else [payment_rows(s.settlement), net_rows(s.settlement), payment_lines(s.settlement)]
                if s.damaged or not tables:
                    st.warning("This settlement is damaged: it could not be read from the history file.")
                for rows in tables:
                    st.table(markdown_rows(text_table(rows)))
