"""Faces told apart by their tone: one picture printed in different inks, read in a grey photo.

Harr's 1922 set draws its red, green and white dragons as the same dragon in three inks. In a black-and-white print
the three differ only in how dark the ink is, and every photo's exposure moves every tone, so neither the general
reader nor a set's examples from other photos can tell them apart tile by tile (held out, 27 of the 41 tiles the book's
learnt set misread were one dragon read as another). Within one photo the order holds: the red dragon's ink is the
darkest, the white's the lightest. So a tile's tone is taken relative to the other tiles of its own photo, and a set
compares it with its examples' tones, each taken relative to the other tiles of the photo it came from.

Which faces are told apart this way is the set's to say: two faces whose examples look alike (``ALIKE``) form a group;
a set whose dragons are different pictures (every Hong Kong set) has no group, and reads as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: Two codes whose examples are at least this alike (the mean of the cosine between their examples' mean embeddings and
#: the correlation between their mean grey faces) are one picture in different inks. The 1922 dragons pair at
#: 0.77-0.89 in the book's photos; the nearest other pairs (8 and 9 of characters, the south and west winds) at 0.62-0.67.
ALIKE = 0.72
#: ... and more than this share of the pairs of one code's example and the other's are alike at least ``PAIR_ALIKE``:
#: a wrong example (a tile of one face named as another) brings the two codes' means together, but not most pairs.
PAIR_ALIKE = 0.5
MOST_PAIRS = 0.5
#: Grey faces (mean faces, or a pair of examples) that correlate at least this much are one picture, whatever the
#: classifier's embedding says: a reader that never saw Harr's set embeds his white dragon apart from the red (cosine
#: 0.41) though their grey faces correlate 0.95. On the book's labelled tiles only dragons of different inks correlate
#: so; other faces of different codes at most 0.85.
SAME_PICTURE = 0.9
#: A photo's tones are taken relative to the 90th percentile of its tiles' tones outside every group (its darkest
#: inks), and only where it has at least this many such tiles.
REFERENCE_TILES = 3
REFERENCE_PERCENTILE = 90.0
#: A code's examples' relative tones are taken as spreading at least this much (one photo's three white dragons lie
#: 0.04-0.1 apart).
LEAST_SPREAD = 0.05
#: A code's tones are known from this many examples of known relative tone.
KNOWN_EXAMPLES = 2
#: Log odds per unit of log likelihood of the tile's tone under a code's examples' tones, against the group's best.
WEIGHT = 3.0
#: A face's ink is the mean of its darkest this share of pixels, and its light the pixel this far up from its darkest.
INK_SHARE = 0.2
LIGHT = 0.9


def tones(centres: np.ndarray) -> np.ndarray:
    """(N,) the ink contrast of each grey face's centre (``examples.face_centres``): its light less its ink (``LIGHT``,
    ``INK_SHARE``), over its light."""
    if not len(centres):
        return np.zeros(0, np.float32)
    core = np.sort(centres.reshape(len(centres), -1), axis=1)
    light = core[:, int(core.shape[1] * LIGHT)]
    ink = core[:, : max(1, int(core.shape[1] * INK_SHARE))].mean(axis=1)
    return np.asarray((light - ink) / np.maximum(light, 1.0), np.float32)


def relative(tone: np.ndarray, reference: np.ndarray) -> np.ndarray | None:
    """``tone`` over the photo's reference (``reference``: the tones of its tiles outside every group), or None where
    the photo has too few such tiles to say."""
    if len(reference) < REFERENCE_TILES:
        return None
    return np.asarray(tone / max(float(np.percentile(reference, REFERENCE_PERCENTILE)), 1e-3), np.float32)


def _alike(embedded: np.ndarray, pictured: np.ndarray) -> np.ndarray:
    """How alike faces are: the mean of their embeddings' and grey faces' correlations, or 1 where the grey faces
    alone are one picture (``SAME_PICTURE``)."""
    out: np.ndarray = np.maximum((embedded + pictured) / 2, np.where(pictured >= SAME_PICTURE, 1.0, 0.0))
    return out


def alike_groups(classes: np.ndarray, embeddings: np.ndarray, faces: np.ndarray) -> tuple[frozenset[int], ...]:
    """The groups of codes (class indices) whose examples are one picture in different inks (``ALIKE``): ``classes``,
    ``embeddings`` and ``faces`` (unit face centres) one row per example."""
    seen = np.unique(classes)
    if len(seen) < 2:
        return ()

    def unit(v: np.ndarray) -> np.ndarray:
        return np.asarray(v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-6))

    centre = unit(np.stack([embeddings[classes == c].mean(axis=0) for c in seen]))
    face = unit(np.stack([faces[classes == c].mean(axis=0) for c in seen]))
    near = _alike(centre @ centre.T, face @ face.T)
    emb = unit(embeddings)
    groups: list[set[int]] = []
    for i, j in zip(*np.nonzero(np.triu(near >= ALIKE, k=1))):
        a, b = int(seen[i]), int(seen[j])
        of_a, of_b = classes == a, classes == b
        pairs = _alike(emb[of_a] @ emb[of_b].T, faces[of_a] @ faces[of_b].T)
        if (pairs >= PAIR_ALIKE).mean() <= MOST_PAIRS:  # alike only through a few examples: a wrong one named as the other
            continue
        joined = [g for g in groups if a in g or b in g]
        merged = {a, b}.union(*joined)
        groups = [g for g in groups if g not in joined] + [merged]
    return tuple(frozenset(g) for g in groups)


@dataclass(frozen=True)
class ToneOf:
    """What a set's examples say of one group's tones: per code of the group with ``KNOWN_EXAMPLES`` examples of known
    relative tone or more, their mean and spread."""

    group: frozenset[int]
    means: dict[int, float]
    spreads: dict[int, float]

    def evidence(self, tone: float) -> dict[int, float]:
        """Log odds for each code of the group with known tones: 0 for the one the tile's tone fits best, less for
        the others; a code without known tones gets none (it may be the face the set has not seen)."""
        fit = {c: -0.5 * ((tone - m) / self.spreads[c]) ** 2 - float(np.log(self.spreads[c] / LEAST_SPREAD))
               for c, m in self.means.items()}
        best = max(fit.values())
        return {c: WEIGHT * (v - best) for c, v in fit.items()}


def tones_of_groups(groups: Sequence[frozenset[int]], classes: np.ndarray, sources: Sequence[str],
                    tone: np.ndarray) -> tuple[ToneOf, ...]:
    """Each group's codes' relative tones, from the examples: each example's tone over the reference of the examples
    that came with it (one source: one photo's corrected tiles, or one hand saved on the page). A group with fewer
    than two codes of known tone says nothing."""
    in_group = np.isin(classes, [c for g in groups for c in g])
    by_source: dict[str, list[int]] = {}
    for k, s in enumerate(sources):
        by_source.setdefault(s, []).append(k)
    rel = np.full(len(classes), np.nan, np.float32)
    for rows in by_source.values():
        idx = np.array(rows)
        r = relative(tone[idx], tone[idx][~in_group[idx]])
        if r is not None:
            rel[idx] = r
    out = []
    for g in groups:
        means, spreads = {}, {}
        for c in sorted(g):
            known = rel[(classes == c) & np.isfinite(rel)]
            if len(known) >= KNOWN_EXAMPLES:
                means[c], spreads[c] = float(known.mean()), max(float(known.std()), LEAST_SPREAD)
        if len(means) >= 2:
            out.append(ToneOf(g, means, spreads))
    return tuple(out)


def tone_evidence(groups: Sequence[frozenset[int]], known: Sequence[ToneOf], likeliest: np.ndarray, tone: np.ndarray,
                  n_classes: int, faces: np.ndarray) -> np.ndarray:
    """(N, n_classes) log odds for the photo's tiles: each tile read as a code of a group with known tones, its tone
    relative to the photo's tiles read as faces (``faces``, a mask: not "not a tile", not a back) of no group."""
    out = np.zeros((len(likeliest), n_classes), np.float32)
    if not known or not len(likeliest):
        return out
    rel = relative(tone, tone[faces & ~np.isin(likeliest, [c for g in groups for c in g])])
    if rel is None:
        return out
    for k, code in enumerate(likeliest):
        for t in known:
            if int(code) in t.group:
                for c, v in t.evidence(float(rel[k])).items():
                    out[k, c] = v
    return out
