"""Pieces of page shared by several pages: error display, cached resources, the rule-set chooser
and the score breakdown. Only drawing and widgets here; the logic they show lives in plain modules.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import streamlit as st

from recognizer.hand import Recognition
from scoring.api import Option, ScoreResult, get_rule_set, rule_sets
from scoring.engine import OptionKind
from scoring.errors import PungChowError
from scoring.melds import MARKS
from webapp import recognition, state
from webapp.history import History, default_db_path
from webapp.scores import alternative_rows, breakdown_rows, total_text
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
_PAGE_WORDS = (("score it with --loser if it did not win", "untick *Went out* if it did not win"),
               ("drop --won-by or mark it the winner", "tick *Went out* if it did"),
               ("--won-by", "*Won by*"), ("--loser", "*Went out*"),
               ("pass another with --db", "choose another history file when starting the page"))


def player_words(message: str) -> str:
    """A message as the page's markdown shows it: every character of it as itself (``markdown_text``: a file or
    player name never becomes a link or an image), the command line's flags as the page's own controls."""
    shown = markdown_text(message)
    for flag, control in _PAGE_WORDS:
        shown = shown.replace(markdown_text(flag), control)
    return shown


@contextmanager
def user_errors() -> Iterator[None]:
    """Show a player's mistake (bad notation, impossible hand, bad photo) as a message, not a traceback."""
    try:
        yield
    except PungChowError as exc:
        st.error(player_words(str(exc)))


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
def _recognised(sha256: str, tileset: str | None, _photo: Any) -> Recognition:
    return recognition.recognise(reader(), _photo, tileset)


def read_tiles_once(photo: Any, tileset: str | None = None) -> Recognition:
    """What the reader saw in this photo, read once per photo and tile set (keyed by the photo's hash)."""
    return _recognised(photo.sha256, tileset or None, photo)


def history() -> History:
    """The history the page records into (``--db``, else the user's data directory)."""
    if not st.session_state.get(state.HISTORY_PATH):
        st.session_state[state.HISTORY_PATH] = str(default_db_path())
    return open_history(st.session_state[state.HISTORY_PATH])


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
    chosen = st.selectbox(
        "Rule set",
        names,
        index=index,
        key=key,
        format_func=lambda n: "All rule sets side by side" if n == state.ALL_RULES else f"{sets[n].title} ({n}, version {sets[n].version})",
    )
    st.session_state[state.RULES] = chosen
    shown = list(sets) if chosen == state.ALL_RULES else [chosen]
    with st.expander("Options of the rule set" + ("s" if len(shown) > 1 else "")):
        with user_errors():
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
