"""The view the player across the table can read: the phone laid flat between the players, the answer
in large type, and turned round for whoever sits opposite.

Everything shown is text the players typed or the scorer wrote, so every piece is escaped: a name
like ``<b>Ann</b>`` is shown as itself, never as markup.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

#: Type sizes in CSS pixels: the answer reads from a metre away on a phone; its lines from across a card table.
BIG_PX = 96
LINE_PX = 26


def across_the_table(heading: str, answer: str, lines: Sequence[tuple[str, str]] = (), *, turned: bool = False) -> str:
    """HTML for one answer in large type: a heading, the answer (a score, who pays whom) and a few lines of ``(value, what)``;
    ``turned`` shows it upside down, for the player opposite when the phone lies on the table.

    >>> view = across_the_table("Ann under Harr", "52", [("+20", "Mah-Jongg"), ("x2", "<red> dragons")], turned=True)
    >>> "rotate(180deg)" in view and "&lt;red&gt; dragons" in view and ">52<" in view
    True
    """
    rows = "".join(
        f'<tr><td style="text-align:right;padding-right:0.6em;white-space:nowrap">{html.escape(value)}</td>'
        f"<td style=\"text-align:left\">{html.escape(what)}</td></tr>"
        for value, what in lines
    )
    turn = "transform:rotate(180deg);" if turned else ""
    return (
        f'<div class="across-the-table" style="{turn}text-align:center;padding:0.5em 0;line-height:1.2">'
        f'<div style="font-size:{LINE_PX}px">{html.escape(heading)}</div>'
        f'<div style="font-size:{BIG_PX}px;font-weight:700">{html.escape(answer)}</div>'
        + (f'<table style="margin:0 auto;font-size:{LINE_PX}px;border:none">{rows}</table>' if rows else "")
        + "</div>"
    )
