"""The least-cost assignment of rows to columns: a set's faces to its tiles, a flower or season to each tile read as one."""

from __future__ import annotations

import numpy as np


def assign(cost: np.ndarray) -> np.ndarray:
    """The column given to each row of a square cost matrix so the total cost is least (Hungarian method with
    potentials; each row's search for a free column is one vectorised step per column visited)."""
    n = len(cost)
    u, v = np.zeros(n + 1), np.zeros(n + 1)
    owner = np.zeros(n + 1, np.int64)  # owner[j]: the row (1-based) holding column j; column 0 is the search's start
    way = np.zeros(n + 1, np.int64)
    for i in range(1, n + 1):
        owner[0], j0 = i, 0
        low = np.full(n + 1, np.inf)
        used = np.zeros(n + 1, bool)
        while True:
            used[j0] = True
            i0 = owner[j0]
            reduced = cost[i0 - 1] - u[i0] - v[1:]
            free = ~used[1:]
            better = free & (reduced < low[1:])
            low[1:][better] = reduced[better]
            way[1:][better] = j0
            j1 = int(np.argmin(np.where(free, low[1:], np.inf))) + 1
            delta = low[j1]
            u[owner[used]] += delta
            v[used] -= delta
            low[~used] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = int(way[j0])
            owner[j0] = owner[j1]
            j0 = j1
    col = np.zeros(n, np.int64)
    col[owner[1:] - 1] = np.arange(n)
    return col
