"""The classifier's classes: every tile code, then "not a tile" for detector false alarms."""

from __future__ import annotations

from scoring.tiles import ALL_CODES, BONUS_CODES

NOT_A_TILE = "NT"
CLASSES: tuple[str, ...] = tuple(ALL_CODES) + (NOT_A_TILE,)
FACE_DOWN = "XX"
#: The bonus reader's classes: the eight flowers and seasons, then any other tile or no tile at all.
OTHER_THAN_BONUS = "other"
BONUS_LABELS: tuple[str, ...] = tuple(BONUS_CODES) + (OTHER_THAN_BONUS,)
