"""The numbers the tiles of a photo carry: row by row from the top, left to right, as a player reads the table.

One numbering for the overlay, ``pungchow recognize`` and the page, so "tile #7" names one tile everywhere.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def corners(box: Sequence[float]) -> tuple[float, float, float, float]:
    """The reader's x, y, w, h as the corners x0, y0, x1, y1."""
    x, y, w, h = (float(v) for v in box)
    return x, y, x + w, y + h


def photo_order(boxes: Sequence[Sequence[float] | None], turned: float = 0.0) -> list[int]:
    """Indices of the boxes as a player reads the table: row by row from the top, left to right.

    A box starts a new row when its middle lies below the current row by more than half a tile's
    height; boxes without a place keep their order, after the others. A photo the reader ``turned``
    (degrees anticlockwise) to read level is read that way up: its rows run across the turned photo.
    """
    placed = [i for i, b in enumerate(boxes) if b is not None]
    if not placed:
        return list(range(len(boxes)))
    cos, sin = math.cos(math.radians(turned)), math.sin(math.radians(turned))
    across: dict[int, float] = {}
    down: dict[int, float] = {}
    heights: list[float] = []
    for i in placed:
        x0, y0, x1, y1 = (float(v) for v in boxes[i])  # type: ignore[union-attr]
        x, y = (x0 + x1) / 2, (y0 + y1) / 2
        across[i], down[i] = cos * x + sin * y, cos * y - sin * x
        heights.append(abs(sin) * (x1 - x0) + abs(cos) * (y1 - y0))
    half = max(1.0, sorted(heights)[len(heights) // 2] / 2)
    rows: list[list[int]] = []
    row_middle = float("-inf")
    for i in sorted(placed, key=lambda i: down[i]):
        if down[i] - row_middle > half:
            rows.append([])
            row_middle = down[i]
        rows[-1].append(i)
    ordered = [i for row in rows for i in sorted(row, key=lambda i: across[i])]
    return ordered + [i for i, b in enumerate(boxes) if b is None]
