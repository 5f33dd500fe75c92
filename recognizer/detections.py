"""The one record that flows through the steps detect -> classify -> group -> hand."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from recognizer.labels import CLASSES

#: A tile read with less confidence than this is one the player should check: the CLI lists it as
#: "unsure" with its alternatives, the page lists it first and colours it. One value for both: 0.80,
#: the page's, because a wrong tile the player is not asked about costs more than one extra look.
UNSURE_BELOW = 0.80


@dataclass(frozen=True)
class Detections:
    """N tiles found in one photo, as parallel numpy arrays (photo pixel coordinates).

    ``boxes`` (N, 4) x, y, w, h; ``scores`` (N,) detector confidence; ``codes`` (N,) class
    index into CLASSES (-1 until classified); ``confidence`` (N,) classifier probability of that
    code; ``top3`` (N, 3) class indices and ``top3_p`` (N, 3) their probabilities;
    ``face_down`` (N,) bool; ``group`` (N,) group id (-1 until grouped); ``probs`` (N, len(CLASSES)) every class's
    probability, which the hand decoder weighs (zeros until classified); ``embedding`` (N, D) the classifier's unit
    embedding of each crop (D as the model gives it; (N, 0) when not kept), by which tiles alike are told.
    """

    boxes: np.ndarray
    scores: np.ndarray
    codes: np.ndarray = field(default=None)  # type: ignore[arg-type]
    confidence: np.ndarray = field(default=None)  # type: ignore[arg-type]
    top3: np.ndarray = field(default=None)  # type: ignore[arg-type]
    top3_p: np.ndarray = field(default=None)  # type: ignore[arg-type]
    face_down: np.ndarray = field(default=None)  # type: ignore[arg-type]
    group: np.ndarray = field(default=None)  # type: ignore[arg-type]
    probs: np.ndarray = field(default=None)  # type: ignore[arg-type]
    embedding: np.ndarray = field(default=None)  # type: ignore[arg-type]

    def __post_init__(self) -> None:
        boxes = np.asarray(self.boxes, np.float32).reshape(-1, 4)
        n = len(boxes)
        defaults: dict[str, tuple[np.ndarray, Any, tuple[int, ...]]] = {
            "scores": (np.ones(n, np.float32), np.float32, (n,)),
            "codes": (np.full(n, -1, np.int64), np.int64, (n,)),
            "confidence": (np.zeros(n, np.float32), np.float32, (n,)),
            "top3": (np.full((n, 3), -1, np.int64), np.int64, (n, 3)),
            "top3_p": (np.zeros((n, 3), np.float32), np.float32, (n, 3)),
            "face_down": (np.zeros(n, bool), bool, (n,)),
            "group": (np.full(n, -1, np.int64), np.int64, (n,)),
            "probs": (np.zeros((n, len(CLASSES)), np.float32), np.float32, (n, len(CLASSES))),
        }
        embedding = np.zeros((n, 0), np.float32) if self.embedding is None else np.asarray(self.embedding, np.float32)
        if embedding.ndim != 2 or len(embedding) != n:
            raise ValueError(f"Detections.embedding has shape {embedding.shape}, expected ({n}, D)")
        object.__setattr__(self, "embedding", embedding)
        object.__setattr__(self, "boxes", boxes)
        for name, (default, dtype, shape) in defaults.items():
            value = getattr(self, name)
            arr = default if value is None else np.asarray(value, dtype).reshape(shape)
            if arr.shape != shape:
                raise ValueError(f"Detections.{name} has shape {arr.shape}, expected {shape}")
            object.__setattr__(self, name, arr)
        if n and ((boxes[:, 2] <= 0) | (boxes[:, 3] <= 0)).any():
            raise ValueError("Detections: every box needs a positive width and height")
        if n and ((self.codes < -1) | (self.codes >= len(CLASSES))).any():
            raise ValueError("Detections: a code index is outside CLASSES")

    def __len__(self) -> int:
        return len(self.boxes)

    def __getitem__(self, index: np.ndarray | slice | list[int]) -> Detections:
        """Keep the tiles a boolean mask, index array or slice selects."""
        return Detections(**{name: getattr(self, name)[index] for name in self._fields()})

    @staticmethod
    def _fields() -> tuple[str, ...]:
        return ("boxes", "scores", "codes", "confidence", "top3", "top3_p", "face_down", "group", "probs", "embedding")

    def with_(self, **changes: np.ndarray) -> Detections:
        return replace(self, **changes)

    @property
    def centres(self) -> np.ndarray:
        return self.boxes[:, :2] + self.boxes[:, 2:] / 2

    def code(self, i: int) -> str:
        return CLASSES[int(self.codes[i])] if self.codes[i] >= 0 else "?"

    def tile_dicts(self) -> list[dict[str, Any]]:
        """JSON-ready tiles, each traceable to its box by its index."""
        out: list[dict[str, Any]] = []
        for i in range(len(self)):
            out.append({
                "index": i,
                "box": [round(float(v), 1) for v in self.boxes[i]],
                "score": round(float(self.scores[i]), 3),
                "code": self.code(i),
                "confidence": round(float(self.confidence[i]), 3),
                "top3": [{"code": CLASSES[int(c)], "p": round(float(p), 3)} for c, p in zip(self.top3[i], self.top3_p[i]) if c >= 0],
                "face_down": bool(self.face_down[i]),
                "group": int(self.group[i]),
            })
        return out
