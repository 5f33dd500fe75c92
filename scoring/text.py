"""Text from a file or a player, made safe to print on one terminal line.

A name read from a table file could hold a new line (and forge a line of payments), a terminal
escape (and repaint the screen) or a right-to-left override (and turn "pays" round). Every such
character is written as its escape, so what is printed is what the file holds, on one line.

>>> one_line("Ann\\nBob pays Cy 500\\x1b[2J\\u202e")
'Ann\\\\nBob pays Cy 500\\\\x1b[2J\\\\u202e'
"""

from __future__ import annotations

import unicodedata


def control_characters(text: str) -> list[str]:
    """The characters of ``text`` that are not printed as themselves (Unicode's "other" categories: controls, format
    characters such as bidi overrides, lone surrogates, unassigned code points)."""
    return [ch for ch in text if unicodedata.category(ch).startswith("C")]


def one_line(text: object) -> str:
    """``text`` with every control or format character written as its escape (``\\n``, ``\\x1b``, ``\\u202e``)."""
    shown = str(text)
    if not control_characters(shown):
        return shown
    return "".join(ch.encode("unicode_escape", "backslashreplace").decode("ascii") if unicodedata.category(ch).startswith("C")
                   else ch for ch in shown)
