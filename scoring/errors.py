"""Errors a player can cause, each with a message that says what is wrong and what to do.

The command line and the page print these as one line; anything else escaping is a bug.
"""

from __future__ import annotations


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
