"""Settle the table: four players' hands (typed, read from a photo each, or from the hand page) → who pays whom."""

from __future__ import annotations

import hashlib
import uuid

import streamlit as st

from scoring.api import Hand, ScoreResult, WinMethod, get_rule_set
from scoring.errors import PungChowError
from scoring.settle import Settlement
from scoring.tiles import WINDS, Tile, Wind
from webapp import reviewer, state
from webapp import table as tb
from webapp.history import HandRecord, HandToKeep, History, HistoryError
from webapp.photos import MAX_UPLOAD_MB, read_photo, thumbnail_jpeg
from webapp.recognition import Lesson, known_tilesets, learning_set, not_learnt, teach
from webapp.review import Review, to_hand
from webapp.scores import total_text
from webapp.text import markdown_rows, markdown_text
from webapp.widgets import (
    across_the_table_view,
    bring_into_view,
    current_game,
    game_caption,
    history,
    page_title,
    player_words,
    read_tiles_once,
    rule_set_chooser,
    show_breakdown,
    show_score_sheet,
    text_table,
    user_errors,
)

NOBODY = -1


def current_table() -> tb.Deal:
    """The deal being settled, kept in the session while the player fills it in."""
    if st.session_state[state.TABLE] is None:
        st.session_state[state.TABLE] = tb.new_deal()
    table: tb.Deal = st.session_state[state.TABLE]
    return table


def sit_the_game() -> None:
    """A table not yet filled in sits the players of the game this phone joined (drawn before the names' widgets)."""
    table = current_table()
    game = current_game(history())
    if game is None or len(game.players) != tb.SEATS or table.players == list(game.players):
        return
    if table.players == tb.new_deal().players and not any(s.shown for s in table.seats):
        put(tb.Deal(tuple(tb.Seat(p) for p in game.players), east=table.east, winner=table.winner,
                     prevailing_wind=table.prevailing_wind))
        for i, name in enumerate(game.players):
            st.session_state[f"w_player_{i}"] = name


def deal_key(table: tb.Deal, rules: str) -> str:
    """The mark a saved deal carries: the same deal saved twice (a double tap) is kept once; the next deal draws a new one."""
    if not st.session_state.get(state.DEAL_TOKEN):
        st.session_state[state.DEAL_TOKEN] = uuid.uuid4().hex
    seats = "|".join(f"{s.player}:{s.score if s.plain else s.shown}:{s.winning_shown}:{s.won_by.value if s.won_by else ''}"
                     for s in table.seats)
    digest = hashlib.sha256(f"{seats}|{table.east}|{table.winner}|{table.prevailing_wind}|{rules}".encode()).hexdigest()[:16]
    return f"{st.session_state[state.DEAL_TOKEN]}:{digest}"


def next_deal() -> None:
    """Clear the hands for the next deal; the deal passes to the next seat unless East went out (and the round's wind
    moves on when it comes back to the first East)."""
    table = current_table()
    east = table.east if table.winner == table.east else (table.east + 1) % tb.SEATS
    wind = table.prevailing_wind
    if east != table.east and east == 0:
        wind = WINDS[(WINDS.index(wind) + 1) % len(WINDS)]
    put(tb.Deal(tuple(tb.Seat(p) for p in table.players), east=east, winner=table.winner, prevailing_wind=wind))
    for i in range(tb.SEATS):
        st.session_state[reviewer.seat_slot(i).review] = None
        for name in ("w_seat_hand", "w_seat_winning"):
            st.session_state[f"{name}_{i}"] = ""
        st.session_state[f"w_seat_won_by_{i}"] = None
        st.session_state[f"w_seat_plain_{i}"] = False
        st.session_state[f"w_seat_score_{i}"] = None
    st.session_state[state.SEAT_OPEN] = 0
    st.session_state["w_east"] = east
    st.session_state["w_table_round"] = wind
    st.session_state["w_winner"] = None  # asked afresh each deal
    st.session_state[state.SETTLE_ASKED] = False
    st.session_state[state.SETTLEMENT] = None
    st.session_state[state.DEAL_TOKEN] = uuid.uuid4().hex


def put(table: tb.Deal) -> None:
    """Keep the edited table for the next run (every click reruns the page)."""
    st.session_state[state.TABLE] = table


def from_hand_page(index: int) -> None:
    """Take the hand checked on *Score a hand* for this player (linked to it, if it was saved)."""
    review = st.session_state[state.REVIEW]
    if review is None:
        st.session_state[state.MESSAGE] = "there is no hand on the Score a hand page yet"
        return
    hand, problems = to_hand(review)
    if hand is None or problems:
        st.session_state[state.MESSAGE] = "the hand on the Score a hand page still has problems: " + "; ".join(
            reviewer.player_words(p) for p in problems)
        return
    drop_seat_review(index)
    if hand.winner and st.session_state.get("w_winner") is None:
        st.session_state["w_winner"] = index  # the hand was checked as the winner's on Score a hand
    table = tb.with_seat(current_table(), index, hand=hand, unread="", winning_tile=hand.winning_tile, winning_unread="",
                         won_by=hand.won_by, hand_id=st.session_state.get(state.SAVED_HAND))
    st.session_state[f"w_seat_hand_{index}"] = str(hand)
    st.session_state[f"w_seat_winning_{index}"] = hand.winning_tile.code if hand.winning_tile else ""
    st.session_state[f"w_seat_won_by_{index}"] = hand.won_by.value if hand.won_by else None
    put(table)


def drop_seat_review(index: int) -> None:
    """The seat's hand is typed (or taken from the hand page) now, not read from its photo: the typing starts from it."""
    st.session_state[reviewer.seat_slot(index).review] = None
    seat = current_table().seats[index]
    st.session_state[f"w_seat_hand_{index}"] = seat.shown
    st.session_state[f"w_seat_winning_{index}"] = seat.winning_shown


def read_seat_photo(index: int) -> None:
    """Read one player's photo: its tiles get the same review as on *Score a hand*, and the winning tile starts afresh."""
    upload = st.session_state.get(f"w_seat_photo_{index}")
    if upload is None:
        return
    try:
        photo = read_photo(upload.getvalue(), upload.name)
        review = Review.from_recognition(read_tiles_once(photo, seat_tileset()))
    except PungChowError as exc:
        st.session_state[state.MESSAGE] = f"{current_table().seats[index].player}'s photo: {exc}"
        return
    reviewer.start(reviewer.seat_slot(index), review, photo)
    hand, winning = seat_hand(review)
    if winning is not None and st.session_state.get("w_winner") is None:
        st.session_state["w_winner"] = index  # the reader found a winning tile set apart in this player's photo
    st.session_state[f"w_seat_hand_{index}"] = "" if hand is None else str(hand)
    st.session_state[f"w_seat_winning_{index}"] = winning.code if winning is not None else ""
    put(tb.with_seat(current_table(), index, hand=hand, unread="", winning_tile=winning, winning_unread="", photo_sha256=photo.sha256,
                     thumbnail=thumbnail_jpeg(photo.image), hand_id=None))


def seat_tileset() -> str | None:
    """The set a seat's photo is read with: the one the last photo taught (on this page or *Score a hand*), if any."""
    learning = st.session_state.get(state.LEARNING_SET)
    return learning if learning in known_tilesets() else None


def learn_from_seat(index: int, every_tile: bool = False) -> Lesson | None:
    """Teach the player's set the tiles of a seat's photo they corrected or checked (``every_tile``: every tile of the
    hand, confirmed by saving the deal), as *Score a hand* teaches it (``recognition.teach``); what one photo taught is
    kept with that photo's review (its slot's version)."""
    slot = reviewer.seat_slot(index)
    review, photo = st.session_state.get(slot.review), st.session_state.get(slot.photo)
    if review is None or photo is None:
        return None
    token = st.session_state.get(slot.version, 0)
    kept = st.session_state.get(f"seat_lesson_{index}")
    lesson = kept[1] if kept and kept[0] == token else Lesson(learning_set(st.session_state.get(state.LEARNING_SET)))
    lesson = teach(lesson, photo.image, photo.name, review, every_tile)
    st.session_state[f"seat_lesson_{index}"] = (token, lesson)
    if lesson.tiles:
        st.session_state[state.LEARNING_SET] = lesson.tileset
    return lesson


def seat_hand(review: Review) -> tuple[Hand | None, Tile | None]:
    """The seat's tiles and its winning tile, as the review now reads them (None: not a hand yet; no winning tile marked)."""
    hand, _ = to_hand(review)
    winning = Tile(review.tile(review.winning_tile).code) if review.winning_tile is not None else None
    return (None if hand is None else tb.tiles_of(hand)), winning


def widget_value(key: str, value: object) -> None:
    """Seed a widget from the table once, so later changes made in callbacks are not fought over."""
    if key not in st.session_state:
        st.session_state[key] = value


def unfold(index: int) -> None:
    """A seat's line was tapped: open that seat and fold the others (one seat at a time, so a phone's page stays short)."""
    opened = bool(st.session_state.get(f"w_seat_open_{index}"))
    st.session_state[state.SEAT_OPEN] = index if opened else None


def sync_seat(index: int) -> tb.Deal:
    """Take this run's typing into the seat before its summary line is drawn (the line is drawn above the fields)."""
    table = current_table()
    seat = table.seats[index]
    review = st.session_state.get(reviewer.seat_slot(index).review)
    plain = bool(st.session_state.get(f"w_seat_plain_{index}", seat.plain))
    score = st.session_state.get(f"w_seat_score_{index}", seat.score) if plain else seat.score
    if review is not None:
        (hand, winning), unread, winning_unread = seat_hand(review), "", ""
    else:
        hand, unread = tb.read_tiles(st.session_state.get(f"w_seat_hand_{index}", seat.shown))
        winning, winning_unread = tb.read_tile(st.session_state.get(f"w_seat_winning_{index}", seat.winning_shown))
    if table.winner != index:
        winning, winning_unread = (seat.winning_tile, seat.winning_unread) if review is None else (None, "")
    won_by = win_method(st.session_state.get(f"w_seat_won_by_{index}")) if table.winner == index else seat.won_by
    changes = {"plain": plain, "score": None if score is None else int(score), "hand": hand, "unread": unread,
               "winning_tile": winning, "winning_unread": winning_unread, "won_by": won_by}
    if any(getattr(seat, name) != value for name, value in changes.items()):
        hand_id = seat.hand_id if (hand, unread) == (seat.hand, seat.unread) else None
        put(tb.with_seat(table, index, hand_id=hand_id, **changes))
        if review is None and st.session_state.get(state.SEAT_OPEN) == index and not tb.seat_ready(table, index):
            next_seat(index)
    return current_table()


def win_method(chosen: str | None) -> WinMethod | None:
    """The *Won by* chooser's answer (a way of winning's name, or None before one is chosen)."""
    return WinMethod(chosen) if chosen else None


def next_seat(index: int) -> None:
    """A typed seat just became ready: fold it and open the next seat still to fill in (all fold when none is left below it).

    A seat read from a photo stays open: its tiles are for the player to check first.
    """
    table = current_table()
    if tb.seat_ready(table, index):
        st.session_state[state.SEAT_OPEN] = next((j for j in range(index + 1, tb.SEATS) if not tb.seat_ready(table, j)), None)


def seat_editor(index: int) -> None:
    """One seat, folded to its summary line unless it is the one being filled in."""
    table = sync_seat(index)
    unfolded = st.session_state.get(state.SEAT_OPEN) == index
    with st.expander(markdown_text(tb.seat_summary(table, index)), expanded=unfolded, key=f"w_seat_open_{index}",
                     on_change=unfold, args=(index,)):
        seat_fields(index, table)


def seat_fields(index: int, table: tb.Deal) -> None:
    seat = table.seats[index]
    slot = reviewer.seat_slot(index)
    review = st.session_state.get(slot.review)
    with st.container(key=f"seat-{index}"):
        widget_value(f"w_seat_plain_{index}", seat.plain)
        plain = st.toggle("Just the score (no hand shown)", key=f"w_seat_plain_{index}", disabled=table.winner == index and not seat.plain,
                          help="A player who lost and keeps their tiles to themselves says their score; it is settled as given")
        if plain:
            widget_value(f"w_seat_score_{index}", seat.score)
            score = st.number_input("Score", key=f"w_seat_score_{index}", min_value=0, step=1, value=None, placeholder="points, e.g. 24")
            score = None if score is None else int(score)
            if (plain, score) != (seat.plain, seat.score):
                put(tb.with_seat(current_table(), index, plain=True, score=score))
            return
        if seat.plain:
            put(tb.with_seat(current_table(), index, plain=False))
        winning, winning_unread, won_by = seat.winning_tile, seat.winning_unread, seat.won_by
        if review is not None:
            lesson = None
            with user_errors():
                lesson = learn_from_seat(index)  # before the review is drawn, as on Score a hand
            reviewer.review_tiles(slot, with_circumstances=False, winner=table.winner == index)
            review = st.session_state[slot.review]
            if lesson is not None:
                st.caption(markdown_text(f"{lesson}: the next photo of the set reads those faces with what it learnt" if lesson.tiles
                                         else f"Each tile you correct or check here teaches your tile set {lesson.tileset}."))
            (hand, winning), unread, winning_unread = seat_hand(review), "", ""
            if table.winner != index:
                winning = None
            st.markdown(f"Hand read from the photo: `{'' if hand is None else hand}`")
            st.button("Type this hand instead", key=f"w_seat_type_{index}", on_click=drop_seat_review, args=(index,))
        else:
            widget_value(f"w_seat_hand_{index}", seat.shown)
            hand, unread = tb.read_tiles(st.text_input("Hand", key=f"w_seat_hand_{index}",
                                                       placeholder="7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]"))
        methods = [m.value for m in WinMethod]
        if table.winner == index:
            cols = st.columns(2)
            if review is None:
                widget_value(f"w_seat_winning_{index}", seat.winning_shown)
                winning, winning_unread = tb.read_tile(cols[0].text_input("Winning tile", key=f"w_seat_winning_{index}",
                                                                          placeholder="2D"))
            widget_value(f"w_seat_won_by_{index}", seat.won_by.value if seat.won_by else None)
            won_by = win_method(cols[1].selectbox("Won by", methods, key=f"w_seat_won_by_{index}", placeholder="how did they go out?",
                                                  format_func=reviewer.won_by_words))
        if (hand, unread, winning, winning_unread, won_by) != (seat.hand, seat.unread, seat.winning_tile, seat.winning_unread,
                                                                seat.won_by):
            put(tb.with_seat(current_table(), index, hand=hand, unread=unread, winning_tile=winning,
                             winning_unread=winning_unread, won_by=won_by,
                             hand_id=seat.hand_id if (hand, unread) == (seat.hand, seat.unread) else None))
        cols = st.columns(2)
        cols[0].button("Use the hand from Score a hand", key=f"w_seat_from_review_{index}", on_click=from_hand_page, args=(index,))
        cols[1].file_uploader("or a photo of this hand", key=f"w_seat_photo_{index}", on_change=read_seat_photo, args=(index,),
                              max_upload_size=MAX_UPLOAD_MB)


def show_settlement(table: tb.Deal, rules: str) -> None:
    options = st.session_state[state.RULE_OPTIONS].get(rules)
    results = tb.score_table(table, rules, options)
    st.subheader("Scores")
    st.table(markdown_rows(text_table([
        {"player": seat.player, "wind": Wind(table.seat_wind(i)).word, "went out": "yes" if table.winner == i else "",
         "arrangement": "plain score (no hand shown)" if seat.plain else str(results[seat.player].arrangement),
         "score": str(seat.score) if seat.plain else total_text(results[seat.player])}
        for i, seat in enumerate(table.seats)])))
    plain = tb.plain_seats(table)
    if plain:
        st.caption(markdown_text(f"Plain scores, as the players gave them (no hand to check): {', '.join(plain)}"))
    for player, result in results.items():
        with st.expander(markdown_text(f"{player}: {result.total}")):
            show_breakdown(result)
    settlement = tb.settle_table(table, results, rules, options)
    st.session_state[state.SETTLEMENT] = settlement
    st.subheader("Who pays whom")
    st.table(markdown_rows(text_table(tb.payment_rows(settlement))))
    st.markdown("**Net for the deal**")
    st.table(markdown_rows(text_table(tb.net_rows(settlement))))
    winner = "nobody: a drawn deal" if table.winner is None else f"{table.players[table.winner]} went out"
    across_the_table_view(f"Deal settled: {winner}", "Who pays whom",
                          [(str(amount), f"{payer} pays {payee}") for payer, payee, amount in tb.transfers(settlement)],
                          key="w_across_deal")
    with st.expander("Every payment, why, and where the book says so"):
        st.table(markdown_rows(text_table(tb.payment_lines(settlement))))
        for note in settlement.notes:
            st.caption(markdown_text(note))
    save_deal(table, rules, results, settlement)


def linked_hands(store: History, game_id: int, table: tb.Deal, results: dict[str, ScoreResult]) -> dict[int, HandRecord]:
    """Seats whose hand was saved from *Score a hand* into this game, as this very hand, in a deal not yet settled.

    The deal takes that hand's deal number and keeps no second copy, so the history shows it once.
    """
    settled = {s.deal for s in store.settlements(game_id)}
    linked: dict[int, HandRecord] = {}
    for i, seat in enumerate(table.seats):
        if seat.hand_id is None or seat.plain:
            continue
        try:
            record = store.hand(seat.hand_id)
        except HistoryError:
            continue
        if record.game_id == game_id and record.deal not in settled and record.notation == str(results[seat.player].hand):
            linked[i] = record
    deals = {r.deal for r in linked.values()}
    return linked if len(deals) == 1 else {}


def save_deal(table: tb.Deal, rules: str, results: dict[str, ScoreResult], settlement: Settlement) -> None:
    store = history()
    key = deal_key(table, rules)
    kept = store.deal_saved_under(key)
    if kept is not None:
        kept_game, kept_deal = kept
        with st.container(key="deal-saved"):
            st.success(f"Saved deal {kept_deal} of game {kept_game}.")
            st.button("Next deal", key="w_next_deal", on_click=next_deal, type="primary",
                      help="Clear the hands; East passes on unless East went out")
        bring_into_view("deal-saved")
        show_score_sheet(store, store.game(kept_game))
        return
    with st.expander("Save this deal to the history"):
        games = [g for g in store.games() if sorted(g.players) == sorted(table.players)]
        game_ids = [None] + [g.id for g in games]
        joined = current_game(store)
        first = game_ids.index(joined.id) if joined is not None and joined.id in game_ids else (1 if games else 0)
        game_id = st.selectbox("Game", game_ids, key=f"w_deal_game_{len(games)}", index=first,
                               format_func=lambda i: "a new game with these players" if i is None
                               else next(g.title for g in games if g.id == i))
        title = st.text_input("Title of the new game", key="w_deal_title") if game_id is None else ""
        if st.button("Save deal", key="w_save_deal"):
            if game_id is None:
                game_id = store.new_game(title, table.players).id
            st.session_state[state.GAME_ID] = game_id
            linked = linked_hands(store, game_id, table, results)
            version = get_rule_set(rules).version
            hands = [HandToKeep(seat.player, result.hand, rules, version, dict(result.best.options), result,
                                photo_sha256=seat.photo_sha256, thumbnail=seat.thumbnail)
                     for i, seat in enumerate(table.seats) if i not in linked and (result := results.get(seat.player)) is not None]
            unlearnt = []
            for i in range(4):
                try:  # every tile of a seat's photo is confirmed by saving the deal
                    learn_from_seat(i, every_tile=True)
                except PungChowError as exc:  # a set that cannot learn says why, after the save; the deal is saved all the same
                    unlearnt.append(player_words(exc))
            if unlearnt:
                st.session_state[state.MESSAGE] = not_learnt("the seats' photos", unlearnt[0])
            # A hand saved from *Score a hand* already is linked, not kept twice: the deal takes its number.
            store.save_deal(game_id, hands, settlement=settlement, rule_set=rules, rule_version=version,
                                   east=table.players[table.east], deal=next(iter(linked.values())).deal if linked else None,
                                   save_key=key)
            st.session_state[state.SCROLL_TO] = "deal-saved"
            st.rerun()  # drawn again as saved: no button left to save it a second time


page_title("Settle the table")

with user_errors():
    sit_the_game()
    table = current_table()
    game_caption(current_game(history()))
    st.markdown("**Players**, in their order round the table (counter-clockwise)")
    cols = st.columns(4)
    for i in range(4):
        widget_value(f"w_player_{i}", table.seats[i].player)
    names = [cols[i].text_input(f"Player {i + 1}", key=f"w_player_{i}") for i in range(4)]
    for i, name in enumerate(names):
        if name != table.seats[i].player:
            table = tb.with_seat(table, i, player=name)
    seat_cols = st.columns(3)
    east = seat_cols[0].selectbox("Who is East (the dealer)", range(4), index=table.east, key="w_east",
                             format_func=lambda i: names[i] or f"Player {i + 1}")
    # Asked, never assumed: a wrong winner would settle the deal the wrong way round without a word.
    winner = seat_cols[1].selectbox("Who went out", [NOBODY, 0, 1, 2, 3], index=None, placeholder="who went out?", key="w_winner",
                               format_func=lambda i: "nobody (a drawn deal)" if i == NOBODY else names[i] or f"Player {i + 1}")
    prevailing = seat_cols[2].selectbox("Prevailing wind", WINDS, index=WINDS.index(table.prevailing_wind), key="w_table_round",
                                   format_func=reviewer.wind_word)
    table = tb.Deal(table.seats, east=table.east if east is None else east, winner=None if winner in (NOBODY, None) else winner,
                     prevailing_wind=prevailing or table.prevailing_wind)
    put(table)
    for i in range(4):
        seat_editor(i)
    rules = rule_set_chooser(allow_all=False, key="w_table_rules")
    if rules is not None and st.button("Settle", key="w_settle", type="primary"):
        st.session_state[state.SETTLE_ASKED] = True
    if st.session_state.get(state.SETTLE_ASKED) and winner is None:
        st.error("Say who went out above (or nobody, for a drawn deal), then settle.")
    elif rules is not None and st.session_state.get(state.SETTLE_ASKED):
        try:
            show_settlement(current_table(), rules)
        except PungChowError as exc:
            st.error(player_words(exc))
