"""Settle the table: four players' hands (typed, read from a photo each, or from the hand page) → who pays whom."""

from __future__ import annotations

from typing import Any

import streamlit as st

from scoring.api import ScoreResult, WinMethod, get_rule_set
from scoring.errors import PungChowError
from scoring.tiles import WINDS
from webapp import state
from webapp import table as tb
from webapp.history import HandToKeep
from webapp.photos import MAX_UPLOAD_MB, read_photo, thumbnail_jpeg
from webapp.recognition import read_tiles
from webapp.review import to_hand
from webapp.scores import total_text
from webapp.widgets import history, page_title, reader, rule_set_chooser, show_breakdown, user_errors

WIND_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}
NOBODY = -1


def current_table() -> tb.Table:
    """The deal being settled, kept in the session while the player fills it in."""
    if st.session_state[state.TABLE] is None:
        st.session_state[state.TABLE] = tb.new_table()
    return st.session_state[state.TABLE]


def put(table: tb.Table) -> None:
    """Keep the edited table for the next run (every click reruns the page)."""
    st.session_state[state.TABLE] = table


def from_hand_page(index: int) -> None:
    """Take the hand checked on *Score a hand* for this player."""
    review = st.session_state[state.REVIEW]
    if review is None:
        st.session_state[state.MESSAGE] = "there is no hand on the Score a hand page yet"
        return
    hand, problems = to_hand(review)
    if hand is None or problems:
        st.session_state[state.MESSAGE] = "the hand on the Score a hand page still has problems: " + "; ".join(problems)
        return
    winning = hand.winning_tile.code if hand.winning_tile else ""
    won_by = hand.won_by.value if hand.won_by else "discard"
    table = tb.with_seat(current_table(), index, notation=str(hand), winning_tile=winning, won_by=won_by)
    st.session_state[f"w_seat_hand_{index}"] = str(hand)
    st.session_state[f"w_seat_winning_{index}"] = winning
    st.session_state[f"w_seat_won_by_{index}"] = won_by
    put(table)


def read_seat_photo(index: int) -> None:
    """Read one player's photo into their hand's notation (the tiles can be fixed on the hand page)."""
    upload = st.session_state.get(f"w_seat_photo_{index}")
    if upload is None:
        return
    try:
        photo = read_photo(upload.getvalue(), upload.name)
        review = read_tiles(reader(), photo)
        hand, _ = to_hand(review)
    except PungChowError as exc:
        st.session_state[state.MESSAGE] = f"{current_table().seats[index].player}'s photo: {exc}"
        return
    notation = str(hand) if hand is not None else ""
    st.session_state[f"w_seat_hand_{index}"] = notation
    put(tb.with_seat(current_table(), index, notation=notation, photo_sha256=photo.sha256, thumbnail=thumbnail_jpeg(photo.image)))


def widget_value(key: str, value: object) -> None:
    """Seed a widget from the table once, so later changes made in callbacks are not fought over."""
    if key not in st.session_state:
        st.session_state[key] = value


def seat_editor(index: int, table: tb.Table) -> None:
    seat = table.seats[index]
    wind = table.seat_wind(index)
    label = f"{seat.player or f'Player {index + 1}'} — {WIND_NAMES[wind]}" + (" (went out)" if table.winner == index else "")
    with st.expander(label, expanded=True):
        widget_value(f"w_seat_hand_{index}", seat.notation)
        notation = st.text_input("Hand", key=f"w_seat_hand_{index}", placeholder="7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]")
        winning, won_by = seat.winning_tile, seat.won_by
        if table.winner == index:
            cols = st.columns(2)
            widget_value(f"w_seat_winning_{index}", seat.winning_tile)
            winning = cols[0].text_input("Winning tile", key=f"w_seat_winning_{index}", placeholder="2D")
            methods = [m.value for m in WinMethod]
            widget_value(f"w_seat_won_by_{index}", seat.won_by)
            won_by = cols[1].selectbox("Won by", methods, key=f"w_seat_won_by_{index}")
        if (notation, winning, won_by) != (seat.notation, seat.winning_tile, seat.won_by):
            put(tb.with_seat(current_table(), index, notation=notation, winning_tile=winning, won_by=won_by))
        cols = st.columns(2)
        cols[0].button("Use the hand from Score a hand", key=f"w_seat_from_review_{index}", on_click=from_hand_page, args=(index,))
        cols[1].file_uploader("or a photo of this hand", key=f"w_seat_photo_{index}", max_upload_size=MAX_UPLOAD_MB,
                              on_change=read_seat_photo, args=(index,))


def show_settlement(table: tb.Table, rules: str) -> None:
    options = st.session_state[state.RULE_OPTIONS].get(rules)
    results = tb.score_table(table, rules, options)
    st.subheader("Scores")
    st.table([{"player": p, "wind": WIND_NAMES[table.seat_wind(i)], "went out": "yes" if table.winner == i else "",
               "arrangement": str(r.arrangement), "score": total_text(r)} for i, (p, r) in enumerate(results.items())])
    for player, result in results.items():
        with st.expander(f"{player}: {result.total}"):
            show_breakdown(result)
    settlement = tb.settle_table(table, results, rules, options)
    st.session_state[state.SETTLEMENT] = settlement
    st.subheader("Who pays whom")
    st.table(tb.payment_rows(settlement))
    st.markdown("**Net for the deal**")
    st.table(tb.net_rows(settlement))
    with st.expander("Every payment, why, and where the book says so"):
        st.table(tb.payment_lines(settlement))
        for note in settlement.get("notes", []):
            st.caption(note)
    save_deal(table, rules, results, settlement)


def save_deal(table: tb.Table, rules: str, results: dict[str, ScoreResult], settlement: dict[str, Any]) -> None:
    with st.expander("Save this deal to the history"):
        store = history()
        games = [g for g in store.games() if sorted(g.players) == sorted(table.players)]
        game_ids = [None] + [g.id for g in games]
        game_id = st.selectbox("Game", game_ids, key="w_deal_game", index=1 if games else 0,
                               format_func=lambda i: "a new game with these players" if i is None else next(g.title for g in games if g.id == i))
        title = st.text_input("Title of the new game", key="w_deal_title") if game_id is None else ""
        if st.button("Save deal", key="w_save_deal"):
            if game_id is None:
                game_id = store.new_game(title, table.players).id
            st.session_state[state.GAME_ID] = game_id
            version = get_rule_set(rules).version
            hands = [HandToKeep(player, result.hand.to_dict(), str(result.hand), rules, version, dict(result.best.options), result.to_dict(),
                                photo_sha256=table.seats[i].photo_sha256, thumbnail=table.seats[i].thumbnail)
                     for i, (player, result) in enumerate(results.items())]
            deal = store.save_deal(game_id, hands, settlement=settlement, rule_set=rules, rule_version=version,
                                   east=table.players[table.east])
            st.success(f"Saved deal {deal} of game {game_id}.")


page_title("Settle the table")

with user_errors():
    table = current_table()
    st.markdown("**Players**, in their order round the table (counter-clockwise)")
    cols = st.columns(4)
    for i in range(4):
        widget_value(f"w_player_{i}", table.seats[i].player)
    names = [cols[i].text_input(f"Player {i + 1}", key=f"w_player_{i}") for i in range(4)]
    for i, name in enumerate(names):
        if name != table.seats[i].player:
            table = tb.with_seat(table, i, player=name)
    cols = st.columns(3)
    east = cols[0].selectbox("Who is East (the dealer)", range(4), index=table.east, key="w_east", format_func=lambda i: names[i] or f"Player {i + 1}")
    winner = cols[1].selectbox("Who went out", [NOBODY, 0, 1, 2, 3], index=(table.winner if table.winner is not None else NOBODY) + 1,
                               key="w_winner", format_func=lambda i: "nobody (a drawn deal)" if i == NOBODY else names[i] or f"Player {i + 1}")
    prevailing = cols[2].selectbox("Prevailing wind", WINDS, index=WINDS.index(table.prevailing_wind), key="w_table_round",
                                   format_func=WIND_NAMES.get)
    table = tb.Table(table.seats, east=east, winner=None if winner == NOBODY else winner, prevailing_wind=prevailing)
    put(table)
    for i in range(4):
        seat_editor(i, current_table())
    rules = rule_set_chooser(allow_all=False, key="w_table_rules")
    if rules is not None and st.button("Settle", key="w_settle", type="primary"):
        st.session_state[state.SETTLE_ASKED] = True
    if rules is not None and st.session_state.get(state.SETTLE_ASKED):
        try:
            show_settlement(current_table(), rules)
        except PungChowError as exc:
            st.error(str(exc))
