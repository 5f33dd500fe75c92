"""Errors a player can cause, each with a message that says what is wrong and what to do.

The command line and the page print these as one line; anything else escaping is a bug. A message that asks for
a choice the player makes (how the hand was won, the winning tile) names it by code (:class:`Ask`), and each
surface words it: the command line by its flags, the page by its controls.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum


class Ask(Enum):
    """A choice a message asks the player to make or undo; each surface names it its own way."""

    WON_BY = "how the hand was won"
    WINNING = "the winning tile"
    CIRCUMSTANCE = "a circumstance the tiles cannot show"
    SCORE_AS_LOSER = "score the hand as one that did not win"
    NOT_WON_BY = "say the hand won, or give no way of winning"
    OTHER_HISTORY = "use another history file"


#: How the command line asks for each choice: by its flags.
CLI_WORDS: Mapping[Ask, str] = {
    Ask.WON_BY: "--won-by", Ask.WINNING: "--winning", Ask.CIRCUMSTANCE: "--flag", Ask.SCORE_AS_LOSER: "score it with --loser",
    Ask.NOT_WON_BY: "drop --won-by or mark it the winner", Ask.OTHER_HISTORY: "pass another with --db",
}


class Problem(str):
    """A message in parts, text and :class:`Ask` codes. As text it reads as the command line words it (so it prints,
    joins and goes into JSON as before); :meth:`worded` words it for another surface.

    >>> p = Problem("give how the hand was won (", Ask.WON_BY, ")")
    >>> str(p), p.worded({Ask.WON_BY: "*Won by*"})
    ('give how the hand was won (--won-by)', 'give how the hand was won (*Won by*)')
    """

    parts: tuple[str | Ask, ...]

    def __new__(cls, *parts: str | Ask) -> Problem:
        made = super().__new__(cls, _worded(parts, CLI_WORDS))
        made.parts = parts
        return made

    def worded(self, words: Mapping[Ask, str]) -> str:
        return _worded(self.parts, words)


def _worded(parts: tuple[str | Ask, ...], words: Mapping[Ask, str]) -> str:
    return "".join(words[p] if isinstance(p, Ask) else p for p in parts)


def worded(message: object, words: Mapping[Ask, str]) -> str:
    """A message, a problem or an error in one surface's words: an impossible hand's problems joined as its text joins them."""
    if isinstance(message, InvalidHandError):
        return "; ".join(worded(p, words) for p in message.problems)
    if isinstance(message, BaseException) and len(message.args) == 1 and isinstance(message.args[0], Problem):
        return message.args[0].worded(words)
    return message.worded(words) if isinstance(message, Problem) else str(message)


def about(prefix: str, exc: PungChowError) -> PungChowError:
    """``exc`` said of one thing (``"Bo's hand: "``), its codes kept for each surface to word."""
    def said(message: object) -> Problem:
        return Problem(prefix, *(message.parts if isinstance(message, Problem) else (str(message),)))

    if isinstance(exc, InvalidHandError) and exc.problems:
        return InvalidHandError([said(exc.problems[0]), *exc.problems[1:]])
    return PungChowError(said(exc.args[0] if len(exc.args) == 1 else exc))


class PungChowError(Exception):
    """Base of every error the user can trigger (bad notation, impossible hand, bad photo)."""


class NotationError(PungChowError, ValueError):
    """The text is not tile or hand notation."""


class InvalidHandError(PungChowError, ValueError):
    """The notation parses, but no such hand can exist at the table.

    Carries every problem found, not just the first, so a player fixes them all at once.
    """

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


class UnknownRuleSetError(PungChowError, KeyError):
    """A rule-set or option name that is not in the registry."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown rule set"
