"""The readers' classes: the classifier's every tile code, then "not a tile" for detector false alarms; the bonus
reader's; the way-up reader's."""

from __future__ import annotations

from scoring.tiles import ALL_CODES, BONUS_CODES

NOT_A_TILE = "NT"
CLASSES: tuple[str, ...] = tuple(ALL_CODES) + (NOT_A_TILE,)
FACE_DOWN = "XX"
#: The bonus reader's classes: the eight flowers and seasons, then any other tile or no tile at all.
OTHER_THAN_BONUS = "other"
BONUS_LABELS: tuple[str, ...] = tuple(BONUS_CODES) + (OTHER_THAN_BONUS,)
#: The way-up reader's classes: a tile's crop as it stands is upright, or upside down (levelling asks it which way up a
#: photo taken square is, where the detector's sureness alone turned upright prints over).
WAY_UP_LABELS: tuple[str, ...] = ("upright", "upside down")
