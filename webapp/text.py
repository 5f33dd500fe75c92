"""Text a player typed, made safe to show in Streamlit's markdown (titles, names, notation)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from scoring.text import one_line

_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")


def markdown_text(text: object) -> str:
    """``text`` shown as itself: every ASCII punctuation mark backslash-escaped, so a name like
    ``Ann![p](http://x/p.png)`` is never an image, a link, a colour directive or an emoji, and a
    new line never starts a heading.

    >>> markdown_text("Ann![p](http://x)")
    'Ann\\\\!\\\\[p\\\\]\\\\(http\\\\:\\\\/\\\\/x\\\\)'
    """
    return _PUNCTUATION.sub(r"\\\1", one_line(" ".join(str(text).split())))


def spreadsheet_cell(value: object) -> object:
    """A CSV cell a spreadsheet shows as text: text starting with = + - @ (or a tab or return) gets a leading '.

    >>> spreadsheet_cell("=HYPERLINK(1)"), spreadsheet_cell(-22), spreadsheet_cell("Ann")
    ("'=HYPERLINK(1)", -22, 'Ann')
    """
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def markdown_rows(rows: Sequence[Mapping[str, object]]) -> list[dict[str, object]]:
    """Rows for ``st.table`` (which renders its cells as markdown) with every text cell escaped; numbers kept."""
    return [{markdown_text(key): markdown_text(value) if isinstance(value, str) else value for key, value in row.items()} for row in rows]


def options_text(options: Mapping[str, object]) -> str:
    """A rule set's options as a player reads them, not as Python prints them.

    >>> options_text({"limit": None, "east_doubles": True, "cap": 300})
    'limit none, east doubles yes, cap 300'
    >>> options_text({})
    'the book as written'
    """
    def word(value: object) -> str:
        return "none" if value is None else "yes" if value is True else "no" if value is False else str(value)

    return ", ".join(f"{name.replace('_', ' ')} {word(value)}" for name, value in options.items()) or "the book as written"
