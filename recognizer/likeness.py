"""The photo's own likeness: tiles of one face in one photo look alike, so they are read alike.

A pung's three tiles are one face of one set, in one light; the classifier reads each alone and may split them
("1C 1C 7C"). Tiles whose crops the classifier embeds close together (cosine of its unit embeddings at least
``ALIKE``) lend each other their readings: each tile's probabilities are mixed with those of the tiles like it, in
proportion to how alike they are. Tiles of different faces embed apart and lend nothing. This needs no tile set:
it compares the photo's crops with each other, so it works on sets no render ever drew.
"""

from __future__ import annotations

import numpy as np

#: Crops at least this alike (cosine of the classifier's embeddings) are taken for one face; the pull grows from 0
#: here to full at identical crops.
ALIKE = 0.9
#: How much a tile as alike as can be counts against the tile's own reading.
WEIGHT = 0.5


def likeness(embedding: np.ndarray, alike: float = ALIKE) -> np.ndarray:
    """(N, N) how alike each two tiles are, 0 (below ``alike``) to 1 (identical crops), 0 on the diagonal."""
    unit = embedding / np.maximum(np.linalg.norm(embedding, axis=1, keepdims=True), 1e-12)
    cos = unit @ unit.T
    out: np.ndarray = np.clip((cos - alike) / (1.0 - alike), 0.0, 1.0)
    np.fill_diagonal(out, 0.0)
    return out


def pull_alike(probs: np.ndarray, embedding: np.ndarray, weight: float | None = None, alike: float | None = None) -> np.ndarray:
    """Each tile's probabilities mixed with those of the tiles that look like it (``likeness``, times ``weight``;
    None: ``WEIGHT`` and ``ALIKE``). Without embeddings (a reading that kept none) the probabilities are returned as
    they are."""
    weight = WEIGHT if weight is None else weight
    alike = ALIKE if alike is None else alike
    if embedding.ndim != 2 or embedding.shape[1] == 0 or len(probs) < 2 or weight <= 0:
        return probs
    near = weight * likeness(embedding, alike)
    mixed: np.ndarray = (probs + near @ probs) / (1.0 + near.sum(axis=1, keepdims=True))
    return mixed
