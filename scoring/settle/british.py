"""A 1920s British rule book (OCR fragment): who bears the loss when a discard lets a special hand win.

The fragment holds only the liability rule: the player whose discard completes one of the stated
special hands pays the winner the losses of the other two losers as well as his own, and the
three losers then settle nothing between them. Its basic settling pages are lost, so the rest is
Harr's, cited as such.
"""

from __future__ import annotations

from scoring.engine import Citation
from scoring.settle import harr
from scoring.settle.core import Liability, SettlingBook
from scoring.settle.model import IncidentKind

BOOK = "British rule book (1920s, OCR fragment)"

LIABILITY = Citation(BOOK, "", "Penalties: discards that complete special hands")

RULES = harr.RULES

#: The special hands the surviving text names (the first condition is on a missing page part).
DANGEROUS_CONDITIONS: dict[str, str] = {
    "dragons": "a three-dragon hand with two sets of dragons exposed",
    "winds": "an all-wind hand with three sets of winds exposed",
    "terminals": "a hand of ones and nines with three sets of ones or nines exposed",
}

#: The fragment states no exception.
DISCARD_EXCEPTIONS: dict[str, str] = {}

NAME = "british-1920s"

#: The fragment's basic settling pages are lost: Harr's settling, with the fragment's liability rule.
SETTLING_BOOK = SettlingBook(
    name=NAME,
    title="the British fragment (1920s)",
    rules_for=lambda game: RULES,
    drawn_game=harr.EAST_POSITION,
    small_game=lambda game: harr.TWO_THREE,
    liability=Liability(DANGEROUS_CONDITIONS, DISCARD_EXCEPTIONS, LIABILITY),
    incidents={IncidentKind.DANGEROUS_DISCARD: harr.liable_discard(
        NAME, Liability(DANGEROUS_CONDITIONS, DISCARD_EXCEPTIONS, LIABILITY))},
    refusals={IncidentKind.FAULTY_CLAIM: harr.NO_FAULTY_CLAIM.format(NAME)},
)
