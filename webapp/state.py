"""The keys the page keeps in ``st.session_state``: everything the player has read in or corrected.

Streamlit reruns the page script on every click, so what the player did must live here, under
these names and nowhere else:

``review``           the :class:`webapp.review.Review` being checked on the *Score a hand* page
``photo``            the :class:`webapp.photos.Photo` it was read from (None for a typed hand)
``photo_key``        sha256 (and tile set) of the last upload read, so a rerun does not read it twice
``review_version``   counts the hands put up for review; widget keys carry it so a new hand starts clean
``message``          a player's mistake caught in a button's callback, shown once on the next run
``picked_tile``      id of the tile the player is fixing (None: none picked)
``rules``            the rule-set name chosen, or :data:`ALL_RULES` for every book side by side
``rule_options``     {rule-set name: {option name: value}} as the player set them
``table``            the :class:`webapp.table.Deal` of the *Settle the table* page: its four seats, each hand a ``Hand``
``settlement``       the last :class:`scoring.settle.Settlement` worked out there, or None
``settle_asked``     the player pressed *Settle*; the settlement follows every later edit
``seat_open``        the seat unfolded on *Settle the table* (one at a time; None: all folded to their summary lines)
``history_path``     the SQLite file (``--db``; default :func:`webapp.history.default_db_path`)
``game_id``          the game being recorded, or None before one is started
``loaded_hand``      id of the hand reloaded from the history onto *Score a hand* (None: a new hand)
``review_token``     a fresh mark for each hand put up for review: saving it twice keeps it once
``deal_token``       a fresh mark for each deal on *Settle the table*: saving it twice keeps it once
``undo_said``        what the last *Undo the last deal* did, shown once beside it on *History*
``scroll_to``        the key of the container the next run scrolls into view (the answer to a tap), once
``keys``             the :class:`webapp.keyboard.Keys` tapped so far on the tile keyboard
``saved_hand``       id the hand on *Score a hand* was saved under, so a deal that uses it links to it, not a copy
``lesson``           (review token, :class:`webapp.recognition.Lesson`): what the photo on *Score a hand* taught the player's set
``learning_set``     the set the last photo's corrections taught: the next photo is read with it
``seat_review_N``    the review of seat N's photo on *Settle the table* (with ``seat_photo_N``, ``seat_picked_N``, ``seat_version_N``)

Widget keys start with ``w_`` and are never read outside the page that draws them.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import TYPE_CHECKING, Any

from scoring import service
from webapp.keyboard import Keys

if TYPE_CHECKING:
    from streamlit.runtime.state import SessionStateProxy

REVIEW = "review"
PHOTO = "photo"
PHOTO_KEY = "photo_key"
PICKED_TILE = "picked_tile"
REVIEW_VERSION = "review_version"
MESSAGE = "message"
RULES = "rules"
RULE_OPTIONS = "rule_options"
TABLE = "table"
SETTLEMENT = "settlement"
SETTLE_ASKED = "settle_asked"
SEAT_OPEN = "seat_open"
HISTORY_PATH = "history_path"
GAME_ID = "game_id"
LOADED_HAND = "loaded_hand"
SAVED_HAND = "saved_hand"
REVIEW_TOKEN = "review_token"
DEAL_TOKEN = "deal_token"
UNDO_SAID = "undo_said"
SCROLL_TO = "scroll_to"
KEYS = "keys"
LESSON = "lesson"
LEARNING_SET = "learning_set"

#: The choice that scores the hand under every rule set side by side.
ALL_RULES = service.ALL
DEFAULT_RULES = "harr-1922"

DEFAULTS: dict[str, Any] = {
    REVIEW: None,
    PHOTO: None,
    PHOTO_KEY: None,
    PICKED_TILE: None,
    REVIEW_VERSION: 0,
    RULES: DEFAULT_RULES,
    RULE_OPTIONS: {},
    TABLE: None,
    SETTLEMENT: None,
    SETTLE_ASKED: False,
    SEAT_OPEN: 0,
    HISTORY_PATH: None,
    GAME_ID: None,
    LOADED_HAND: None,
    SAVED_HAND: None,
    REVIEW_TOKEN: "",
    DEAL_TOKEN: "",
    KEYS: Keys(),
    LESSON: None,
    LEARNING_SET: None,
}


def init(session: MutableMapping[str, Any] | SessionStateProxy) -> None:
    """Give every documented key its starting value, leaving what the player already set."""
    for key, value in DEFAULTS.items():
        if key not in session:
            session[key] = value.copy() if isinstance(value, dict) else value
