"""The classifier's classes: every tile code, then "not a tile" for detector false alarms."""

from __future__ import annotations

from scoring.tiles import ALL_CODES

NOT_A_TILE = "NT"
CLASSES: tuple[str, ...] = tuple(ALL_CODES) + (NOT_A_TILE,)
FACE_DOWN = "XX"
