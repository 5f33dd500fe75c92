"""Recognizer results the page's tests read: typed ``Recognition`` values whose hand the recognizer's
own hand builder made, so the page meets exactly what the recognizer gives it."""

from __future__ import annotations

import numpy as np

from recognizer.detections import Detections
from recognizer.group import Group, GroupKind
from recognizer.hand import Recognition, build_hand
from recognizer.labels import CLASSES

HAND = "7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]"


def misread_recognition() -> Recognition:
    """What the recognizer returns for a photo of HAND with one south wind misread as north: its
    typed result, the hand built by the recognizer's own hand builder from these boxes and groups."""
    codes = ["6C", "7C", "7C", "8C", "8C", "9C", "SW", "NW", "5C", "6C", "7C", "2D", "2D", "2D"]
    index = [CLASSES.index(c) for c in codes]
    confidence = [0.97] * len(codes)
    top3 = [[i, -1, -1] for i in index]
    top3_p = [[0.97, 0.0, 0.0] for _ in codes]
    confidence[7], top3[7], top3_p[7] = 0.45, [CLASSES.index(c) for c in ("NW", "SW", "WW")], [0.45, 0.41, 0.1]
    confidence[3], top3[3], top3_p[3] = 0.6, [CLASSES.index("8C"), CLASSES.index("9C"), -1], [0.6, 0.3, 0.0]
    groups = [Group(1, GroupKind.CONCEALED, tuple(range(8)), concealed=True),
              Group(2, GroupKind.CHOW, (8, 9, 10)), Group(3, GroupKind.PUNG, (11, 12, 13))]
    dets = Detections(np.array([[20.0 + 40 * i, 200.0, 36.0, 48.0] for i in range(len(codes))]), np.full(len(codes), 0.9),
                      codes=np.array(index), confidence=np.array(confidence), top3=np.array(top3), top3_p=np.array(top3_p),
                      face_down=np.zeros(len(codes), bool), group=np.array([1] * 8 + [2] * 3 + [3] * 3))
    hand, problems = build_hand(dets, groups)
    return Recognition(dets, groups, hand, problems, (640, 480), {})
