"""Pieces of page shared by several pages: error display, cached resources, the rule-set chooser
and the score breakdown. Only drawing and widgets here; the logic they show lives in plain modules.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import streamlit as st
import streamlit.components.v1 as components

from recognizer.hand import Recognition
from scoring.api import Option, ScoreResult, get_rule_set, rule_sets
from scoring.engine import OptionKind
from scoring.errors import Ask, Problem, PungChowError, worded
from scoring.melds import MARKS
from webapp import recognition, state
from webapp.across import across_the_table
from webapp.history import Game, History, HistoryError, default_db_path
from webapp.photos import Photo
from webapp.scores import alternative_rows, breakdown_rows, total_text
from webapp.sheet import settle_up
from webapp.text import markdown_text


def text_table(rows: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Every cell as text: a column mixing numbers and words ("x2", 4) is one type for the table."""
    return [{k: "" if v is None else str(v) for k, v in row.items()} for row in rows]


def page_title(title: str) -> None:
    """The page's title, then the message an action left for this run (set under ``state.MESSAGE``)."""
    st.title(title)
    message = st.session_state.pop(state.MESSAGE, None)
    if message:
        st.error(markdown_text(message))


#: The command line's words in the scorer's messages, and the page's own controls they name there.
#: How the page asks for each choice a message names by code (``scoring.errors.Ask``): by its own controls.
PAGE_WORDS: Mapping[Ask, str] = {
    Ask.WON_BY: "*Won by*", Ask.WINNING: "*Winning tile*", Ask.CIRCUMSTANCE: "the circumstance",
    Ask.SCORE_AS_LOSER: "untick *Went out*", Ask.NOT_WON_BY: "tick *Went out* if it did",
    Ask.OTHER_HISTORY: "choose another history file when starting the page",
}


def player_words(message: object) -> str:
    """A message, problem or error as the page's markdown shows it: worded for the page (its controls, not the
    command line's flags), and every character of what the player or a file gave shown as itself (``markdown_text``:
    a file or player name never becomes a link or an image); the controls' names keep their emphasis."""
    if not isinstance(message, (Problem, PungChowError)):
        return markdown_text(str(message))
    held = {ask: f"PUNGCHOWASK{i}X" for i, ask in enumerate(Ask)}  # letters only: escaping leaves them as they are
    shown = markdown_text(worded(message, held))
    for ask, place in held.items():
        shown = shown.replace(place, PAGE_WORDS[ask])
    return shown


@contextmanager
def user_errors() -> Iterator[None]:
    """Show a player's mistake (bad notation, impossible hand, bad photo) as a message, not a traceback."""
    try:
        yield
    except PungChowError as exc:
        st.error(player_words(exc))


@st.cache_resource(show_spinner=False)
def open_history(path: str) -> History:
    """One store per file for the whole server; SQLite connections are opened per call."""
    return History(path)


@st.cache_resource(show_spinner=False)
def reader() -> recognition.Reader:
    """The recognizer with its ONNX sessions, loaded once per server (looked up on the module at
    call time, so a test can stand in for it)."""
    return recognition.load_reader()


@st.cache_data(show_spinner=False, max_entries=32)
def _recognised(sha256: str, tileset: str | None, stamp: str, _photo: Photo) -> Recognition:
    return recognition.recognise(reader(), _photo, tileset)


def read_tiles_once(photo: Photo, tileset: str | None = None) -> Recognition:
    """What the reader saw in this photo, read once per photo and tile set as it stands (keyed by the photo's hash and
    when the set last learnt: a photo read again after the set learnt from it is read with what it learnt)."""
    return _recognised(photo.sha256, tileset or None, recognition.tileset_stamp(tileset), photo)


def history() -> History:
    """The history the page records into (``--db``, else the user's data directory)."""
    if not st.session_state.get(state.HISTORY_PATH):
        st.session_state[state.HISTORY_PATH] = str(default_db_path())
    return open_history(st.session_state[state.HISTORY_PATH])


def bring_into_view(key: str) -> None:
    """Scroll the page so the container ``key`` is on screen: the answer to a tap whose rerun moved it below the fold.

    Asked for once (``state.SCROLL_TO``, set where the tap was handled), so a later rerun does not pull the page back.
    """
    if st.session_state.get(state.SCROLL_TO) != key:
        return
    nonce = st.session_state.pop(state.SCROLL_TO) and time.monotonic_ns()
    components.html(f"""<script>/* {nonce} */
      const find = () => window.parent.document.querySelector('.st-key-{key}');
      let tries = 0;
      const go = () => {{ const el = find(); if (el) el.scrollIntoView({{block: 'center'}}); else if (tries++ < 40) setTimeout(go, 50); }};
      go();
    </script>""", height=0)


def current_game(store: History) -> Game | None:
    """The game this phone records into: the one chosen here, else the latest, so a second phone joins the table's game."""
    chosen = st.session_state.get(state.GAME_ID)
    if chosen is not None:
        try:
            return store.game(chosen)
        except HistoryError:
            st.session_state[state.GAME_ID] = None
    return store.latest_game()


def game_caption(game: Game | None) -> None:
    """Which game this page records into, and with whom, so nobody files a hand under the wrong table."""
    if game is not None:
        st.caption(f"Game: {markdown_text(game.title)} — {markdown_text(', '.join(game.players))}")


def across_the_table_view(heading: str, answer: str, lines: Sequence[tuple[str, str]], *, key: str = "w_across") -> None:
    """The answer in large type for the player across the table, turned round when the phone lies between them."""
    cols = st.columns(2)
    if not cols[0].toggle("Across the table", key=key, help="The answer in large type, for the other players to read"):
        return
    turned = cols[1].toggle("Turn it round", key=f"{key}_turned", help="Upside down, for the player opposite")
    with st.container(key=f"across-{key}"):
        st.html(across_the_table(heading, answer, lines, turned=turned))


def show_score_sheet(store: History, game: Game) -> None:
    """The running score per player, deal by deal, and who transfers how much to whom to end the evening square."""
    sheet = store.score_sheet(game.id)
    with st.container(key="score-sheet"):
        st.subheader("Score sheet")
        if not sheet.lines:
            st.caption("No deal settled yet: settle one on *Settle the table* and save it.")
            return
        rows = [{"deal": str(line.deal), **{p: f"{line.running[p]} ({line.net[p]:+d})" for p in sheet.players}}
                for line in sheet.lines]
        st.dataframe(rows, hide_index=True, width="stretch")
        st.markdown("**Totals:** " + ", ".join(f"{markdown_text(p)} {t:+d}" for p, t in sheet.totals.items()))
        transfers = settle_up(sheet.totals)
        st.markdown("**To settle up at the end of the evening**" + (f" ({len(transfers)} payments)" if transfers else ""))
        st.markdown("\n".join(f"- {markdown_text(t.payer)} pays {markdown_text(t.payee)} **{t.amount}**" for t in transfers)
                    or "Everybody is square.")


def _option_widget(rules: str, option: Option, current: Any) -> Any:
    key = f"w_opt_{rules}_{option.name}"
    label = option.name.replace("_", " ")
    if option.kind is OptionKind.FLAG:
        return st.checkbox(label, value=bool(current), help=option.help, key=key)
    if option.kind is OptionKind.CHOICE:
        choices = list(option.choices or ())
        index = choices.index(current) if current in choices else 0
        return st.selectbox(label, choices, index=index, help=option.help, key=key, format_func=str)
    if option.kind is OptionKind.LIMIT:
        text = st.text_input(label, value="none" if current is None else str(current), help=option.help + " ('none' for no limit)", key=key)
        return option.parse(text)
    return option.parse(st.text_input(label, value=str(current), help=option.help, key=key))


def rule_set_chooser(*, allow_all: bool = True, key: str = "w_rules") -> str | None:
    """Pick a rule set (or all side by side) and its options; returns the name, or None when none exists."""
    sets = rule_sets()
    if not sets:
        st.warning("No rule set is installed yet, so hands cannot be scored.")
        return None
    names = list(sets) + ([state.ALL_RULES] if allow_all else [])
    current = st.session_state.get(state.RULES, state.DEFAULT_RULES)
    fallback = state.DEFAULT_RULES if state.DEFAULT_RULES in names else names[0]
    index = names.index(current if current in names else fallback)
    chosen: str = st.selectbox(
        "Rule set",
        names,
        index=index,
        key=key,
        format_func=lambda n: "All rule sets side by side" if n == state.ALL_RULES else f"{sets[n].title} ({n}, version {sets[n].version})",
    ) or names[index]  # a choice always stands: the list is never empty here
    st.session_state[state.RULES] = chosen
    shown = list(sets) if chosen == state.ALL_RULES else [chosen]
    with st.expander("Options of the rule set" + ("s" if len(shown) > 1 else "")), user_errors():
        for name in shown:
            rs = get_rule_set(name)
            if not rs.options:
                continue
            if len(shown) > 1:
                st.markdown(f"**{rs.title}**")
            saved = st.session_state[state.RULE_OPTIONS].setdefault(name, {})
            for option in rs.options:
                saved[option.name] = _option_widget(name, option, saved.get(option.name, option.default))
    return chosen


def show_breakdown(result: ScoreResult, *, heading: str | None = None) -> None:
    """The score line by line, each with its citation, the total, then the other arrangements."""
    if heading:
        st.subheader(heading)
    st.markdown(f"**Arrangement:** `{result.arrangement}`")
    st.caption(MARKS.capitalize())
    if result.reading_note:
        st.info(result.reading_note)
    rows = breakdown_rows(result)
    if rows:
        st.table(text_table(rows))
    else:
        st.info("No scoring line applies to this hand.")
    st.metric("Score", total_text(result))
    alternatives = alternative_rows(result)
    if alternatives:
        with st.expander(f"Other arrangements of these tiles ({len(alternatives)})"):
            st.table(text_table(alternatives))
            for alt in result.alternatives:
                st.markdown(f"`{alt.arrangement}`: {alt.total}")
                st.table(text_table(breakdown_rows(alt)))
