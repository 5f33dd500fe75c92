"""Bring your own set: learn one set's look from its examples, and from one photo of one of each tile laid in rows.

A set is a growing collection of examples (``recognizer.examples``): every tile of a corrected recognition
(``pungchow tileset learn``), of the page's corrections, and of a calibration photo. A calibration also
derives prototypes, described next, that read a photo of the whole set on their own.

Calibration crops every tile of the photo, makes jittered copies, and stores for each the
classifier's embedding, a grey template of the top-left corner (where old sets print an index
letter) and its grey level (dragons of a black-and-white photo differ by it), plus one grey face
template per code. Reading a photo of the set refits the detector's boxes to the set's faces
(scale per photo, size per orientation, one size factor), then names each tile that shows one of
the set's faces squarely by its nearest prototype plus the face template's best alignment; other
tiles, face-down and not-a-tile stay with the classifier, so a set only ever adds to it.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import tempfile
import zipfile
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass
from dataclasses import replace as with_fields
from functools import cached_property
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from recognizer.assignment import assign
from recognizer.classify import NT_INDEX, XX_INDEX, crops_of, run_classifier
from recognizer.detect import CONFIDENT, detect, grown, in_a_row_with, iou_matrix, sideways, sizes_by_orientation
from recognizer.detections import Detections
from recognizer.errors import TileSetError
from recognizer.examples import (
    EXAMPLES_FILE,
    CorrectedTile,
    Examples,
    classifier_id,
    embed,
    examples_from_photo,
    load_examples,
    read_corrected,
    save_meta,
)
from recognizer.geometry import CROP_CONTEXT, CROP_H, CROP_W, crop_tile, scaled, to_grey
from recognizer.image import load_photo, load_photo_sized
from recognizer.labels import CLASSES
from recognizer.models import load_model, models_dir
from recognizer.setstore import SetStore, history_file
from scoring.jsonfile import JsonInputError, load_json_file
from scoring.tiles import ALL_CODES, COPIES_OF_A_TILE, PLAYING_CODES

#: Weights of the template similarity and the grey-level difference against the embedding's cosine.
TEMPLATE_WEIGHT = 3.0
CORNER_WEIGHT = 0.5
GREY_WEIGHT = 2.0
TEMPERATURE = 0.05
JITTER_COPIES = 24
#: Box size factors tried when fitting the detector's boxes to the set's faces.
RESCALE_FACTORS = (0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4)
#: Boxes sampled to score each size factor.
RESCALE_SAMPLE = 16
#: Faces matched again at full resolution per crop, the likeliest by the half-resolution match.
FINE_CODES = 6
#: ... of those, only the ones whose half-resolution match is within this of the crop's best.
FINE_MARGIN = 0.15
#: A tile whose best face match reaches this is read by the set; below it, by the classifier alone.
TRUST_MATCH = 0.6
#: The usual boxes are refitted to the set only when its faces match them at least this well (coarse median).
REFIT_MATCH = 0.65
#: A reading the classifier is this sure of stands unless the tile matches one of the set's faces at least OVERRULE_MATCH.
SURE_CLASSIFIER = 0.97
OVERRULE_MATCH = 0.75
#: Where the classifier is less sure than this, a face match of FAINT_MATCH is enough for the set to read the tile.
UNSURE_CLASSIFIER = 0.5
FAINT_MATCH = 0.5
#: Usual boxes the set's faces match this well are not compared with the detector's other scales.
GOOD_MATCH = 0.8
#: How much better the set's faces must match another scale's boxes than the usual reading's to use them.
OTHER_LOOK_MARGIN = 0.03
#: A photo whose boxes match a set's faces less than this (median best match) is not of that set.
LOOKS_LIKE = 0.55
#: A layout cell's height over width must lie in this range, or the photo's row holds another number of tiles.
MIN_CELL_ASPECT, MAX_CELL_ASPECT = 0.9, 2.2
#: A complete set: four tiles of each playing face (``COPIES_OF_A_TILE``), and eight bonus tiles.
BONUS_TILES = 8
#: A photo is read as a complete set only when the tile-by-tile reading already fits its counts on this share of tiles.
COMPLETE_AGREEMENT = 0.9
#: ... and when at least this share of a complete set's tiles is found face up (a few may be missed or hidden).
COMPLETE_FOUND = 0.95
#: The fewest distinct faces a calibration may learn from.
MIN_TILES = 9
_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
#: The largest tileset.json read (a set's is about 1 kB), and the most a prototypes.npz may unpack to (a
#: set's is under 1 MB; a zip bomb claims gigabytes).
MAX_META_BYTES = 1_000_000
MAX_PROTOTYPE_BYTES = 64_000_000


def complete_set_counts(codes: tuple[str, ...]) -> np.ndarray | None:
    """Tiles of each code in a complete set: four of each playing face, and ``BONUS_TILES`` shared evenly among
    the set's bonus faces (one each of eight flowers and seasons; two each of Harr's four mandarins). None when
    the set's codes cannot make one (not every playing face calibrated, or bonus faces that cannot share evenly)."""
    if set(PLAYING_CODES) - set(codes):
        return None
    bonus = len(codes) - len(PLAYING_CODES)
    if bonus and BONUS_TILES % bonus:
        return None
    return np.array([COPIES_OF_A_TILE if c in PLAYING_CODES else BONUS_TILES // bonus for c in codes], np.int64)


def user_tileset_dir() -> Path:
    home = os.environ.get("PUNGCHOW_HOME")
    base = Path(home) if home else Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "pungchow"
    return base / "tilesets"


def builtin_tileset_dir() -> Path:
    return models_dir() / "tilesets"


def _features(crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The top-left corner (where old sets print an index letter) as a zero-mean unit-norm grey template,
    and the grey level of the face centre relative to the photo's typical tile."""
    grey = to_grey(crops)
    n, h, w = grey.shape
    corner = np.stack([cv2.resize(g[: int(h * 0.35), : int(w * 0.45)], (12, 12), interpolation=cv2.INTER_AREA)
                       for g in grey]).reshape(n, -1)
    level = grey[:, h // 4: 3 * h // 4, w // 4: 3 * w // 4].mean(axis=(1, 2)) / 255.0
    level = level - np.median(level)

    def norm(a: np.ndarray) -> np.ndarray:
        a = a - a.mean(axis=1, keepdims=True)
        unit: np.ndarray = a / np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-6)
        return unit

    return norm(corner), level


def _unit(rows: np.ndarray) -> np.ndarray:
    """Rows made zero-mean and unit-length, so a dot product is their correlation."""
    rows = rows - rows.mean(axis=1, keepdims=True)
    unit: np.ndarray = rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-6)
    return unit


def _slide_all(grey: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """The same as _slide in one matrix product: for small crops (half resolution), where one OpenCV call
    per face costs more in calls than in arithmetic. Each window's norm comes from integral images."""
    n = grey.shape[0]
    th, tw = faces.shape[1:]
    if not n:
        return np.zeros((0, len(faces)), np.float32)
    unit = _unit(faces.reshape(len(faces), -1))
    windows = np.lib.stride_tricks.sliding_window_view(grey, (th, tw), axis=(1, 2))
    py, px = windows.shape[1:3]
    dot = windows.reshape(n * py * px, th * tw) @ unit.T
    g = grey.astype(np.float64)
    sums = [np.pad(a.cumsum(1).cumsum(2), ((0, 0), (1, 0), (1, 0))) for a in (g, g * g)]
    s1, s2 = (c[:, th:, tw:] - c[:, :-th, tw:] - c[:, th:, :-tw] + c[:, :-th, :-tw] for c in sums)
    spread = np.sqrt(np.maximum(s2 - s1 * s1 / (th * tw), 1e-6)).astype(np.float32).reshape(-1, 1)
    best: np.ndarray = (dot / spread).reshape(n, py * px, -1).max(axis=1)
    return best


def _slide(grey: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """(N, K) best normalised correlation of each face anywhere inside each (N, H, W) grey crop."""
    out = np.zeros((len(grey), len(faces)), np.float32)
    if not len(grey):
        return out
    n, h, w = grey.shape
    th = faces.shape[1]
    mosaic = np.ascontiguousarray(grey.reshape(n * h, w))
    rows = (np.arange(n)[:, None] * h + np.arange(h - th + 1)[None, :]).ravel()
    for k, face in enumerate(faces):
        r = cv2.matchTemplate(mosaic, np.ascontiguousarray(face), cv2.TM_CCOEFF_NORMED)
        out[:, k] = r[rows].reshape(n, -1).max(axis=1)
    return out


def _halved(grey: np.ndarray) -> np.ndarray:
    """(N, H, W) grey images at half size (2x2 means), for fast face matching."""
    n, h, w = grey.shape
    g = grey[:, : h // 2 * 2, : w // 2 * 2]
    halved: np.ndarray = g.reshape(n, h // 2, 2, w // 2, 2).mean(axis=(2, 4))
    return halved


def crops_of_context(rgb: np.ndarray, boxes: np.ndarray, context: float) -> np.ndarray:
    """Crops of the boxes grown by ``context``, at the classifier's scale per box unit."""
    size = (round(CROP_H * context / CROP_CONTEXT), round(CROP_W * context / CROP_CONTEXT))
    return np.stack([crop_tile(rgb, b, context, size) for b in boxes])


def _templates(crops: np.ndarray) -> np.ndarray:
    """The central part of each face in grey, to slide over a query crop a few pixels each way."""
    grey = to_grey(crops)
    _, h, w = grey.shape
    dy, dx = round(h * 0.15), round(w * 0.15)
    return np.ascontiguousarray(grey[:, dy:h - dy, dx:w - dx])


@dataclass(frozen=True)
class TileSet:
    """One set: its examples, and where it was calibrated, the prototypes per code derived from the calibration."""

    name: str
    codes: tuple[str, ...]
    labels: np.ndarray
    embeddings: np.ndarray
    corners: np.ndarray
    levels: np.ndarray
    templates: np.ndarray
    #: Below this face match (see match_score) a photo is not of this set and is read without it.
    looks_like: float = LOOKS_LIKE
    examples: Examples | None = None

    @property
    def calibrated(self) -> bool:
        """Whether the set has a calibration's prototypes, which read a tile on their own where its face matches."""
        return len(self.codes) > 0

    @classmethod
    def of_examples(cls, name: str, examples: Examples) -> TileSet:
        """A set known only by its examples: read by the general reader with the examples' evidence added."""
        none = np.zeros((0, 0), np.float32)
        return cls(name, (), np.zeros(0, np.int16), none, none, np.zeros(0, np.float32), np.zeros((0, 0, 0), np.float32), examples=examples)

    def with_examples(self, crops: np.ndarray, probs: np.ndarray, emb: np.ndarray) -> np.ndarray:
        """``probs`` with the set's examples' evidence added (``Examples.read``); unchanged for a set without examples."""
        return probs if self.examples is None else self.examples.read(crops, probs, emb)

    @cached_property
    def half_faces(self) -> np.ndarray:
        """The face templates at half size, made once per set for the coarse match."""
        return _halved(self.templates)

    def scores(self, crops: np.ndarray, emb: np.ndarray, faces: np.ndarray | None = None) -> np.ndarray:
        """(N, len(codes)) best prototype score of each code (``faces``: the crops' aligned_match, if known)."""
        corner, level = _features(crops)
        s = emb @ self.embeddings.T + CORNER_WEIGHT * corner @ self.corners.T
        s -= GREY_WEIGHT * np.abs(level[:, None] - self.levels[None, :])
        out = np.full((len(crops), len(self.codes)), -np.inf, np.float32)
        for k in range(len(self.codes)):
            m = self.labels == k
            if m.any():
                out[:, k] = s[:, m].max(axis=1)
        return out + TEMPLATE_WEIGHT * (self.aligned_match(crops) if faces is None else faces)

    def aligned_match(self, crops: np.ndarray, coarse: bool = False) -> np.ndarray:
        """(N, len(codes)) normalised cross-correlation of each code's face, best over small shifts.

        Crops are stacked into one tall image and each face is slid over it once (OpenCV's matcher), so
        a photo of many tiles costs one call per code, not one per tile and code; only shifts that keep
        the face inside one crop count. ``coarse`` matches at half resolution (for comparing whole photos);
        otherwise the half-resolution match picks each crop's ``FINE_CODES`` likeliest faces and only those
        are matched again at full resolution (the rest score -1).
        """
        grey = to_grey(crops)
        rough = _slide_all(_halved(grey), self.half_faces)
        if coarse or not len(crops):
            return rough
        out = np.full_like(rough, -1.0)
        likely = np.argsort(-rough, axis=1)[:, :FINE_CODES]
        near = np.take_along_axis(rough, likely, axis=1) >= rough.max(axis=1, keepdims=True) - FINE_MARGIN
        for k, face in enumerate(self.templates):
            which = np.nonzero(((likely == k) & near).any(axis=1))[0]
            if len(which):
                out[which, k] = _slide(grey[which], face[None])[:, 0]
        return out

    def match_score(self, rgb: np.ndarray, dets: Detections, limit: int = 32, coarse: bool = True,
                    refuse_below: float | None = None) -> float:
        """How much the photo's boxes look like this set's faces: the median best face match of up to ``limit`` boxes.

        With ``refuse_below``, the boxes are matched every other one first, and once more than half of them match under
        it the median is under it too: the rest are left unmatched and the best match so far, itself under
        ``refuse_below``, is returned as the median's bound. A photo of another set is refused in half the time."""
        if not len(dets) or not self.calibrated:
            return 0.0
        sample = dets[np.linspace(0, len(dets) - 1, min(limit, len(dets))).round().astype(np.int64)]
        crops = crops_of(rgb, sample.boxes)
        if refuse_below is None:
            return float(np.median(self.aligned_match(crops, coarse).max(axis=1)))
        order = np.r_[0:len(crops):2, 1:len(crops):2]
        more_than_half = len(crops) // 2 + 1
        first = self.aligned_match(crops[order[:more_than_half]], coarse).max(axis=1)
        if (first < refuse_below).all():
            return float(first.max())
        rest = self.aligned_match(crops[order[more_than_half:]], coarse).max(axis=1)
        return float(np.median(np.concatenate([first, rest])))

    def probabilities(self, crops: np.ndarray, probs: np.ndarray, emb: np.ndarray) -> np.ndarray:
        """The set's face probabilities where a tile shows one of its faces squarely, keeping face-down and not-a-tile.

        A tile that matches none of the set's faces well (turned, tilted, half hidden, or of another set)
        keeps the classifier's reading, which was trained on all of those: the set only ever adds.
        """
        faces = self.aligned_match(crops)
        s = self.scores(crops, emb, faces) / TEMPERATURE
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        keep = probs[:, XX_INDEX] + probs[:, NT_INDEX]
        out = np.zeros_like(probs)
        out[:, XX_INDEX], out[:, NT_INDEX] = probs[:, XX_INDEX], probs[:, NT_INDEX]
        for k, code in enumerate(self.codes):
            out[:, CLASSES.index(code)] = p[:, k] * (1 - keep)
        best = faces.max(axis=1)
        sure = probs.max(axis=1)
        square = (best >= TRUST_MATCH) & ((sure < SURE_CLASSIFIER) | (best >= OVERRULE_MATCH))
        square |= (sure < UNSURE_CLASSIFIER) & (best >= FAINT_MATCH)  # the classifier is guessing: a fair face match beats it
        return self.as_complete_set(np.where(square[:, None], out, probs), s)

    def as_complete_set(self, probs: np.ndarray, scores: np.ndarray) -> np.ndarray:
        """When the photo evidently shows the whole set, each face read at most as often as a complete set holds it.

        Evident means: the set knows every playing face, nearly as many tiles read face up as a complete set
        has (``COMPLETE_FOUND`` of complete_set_counts, never more), and the tile-by-tile reading already fits
        those counts on at least ``COMPLETE_AGREEMENT`` of the tiles (a pile of this set's tiles, not a hand, not
        two sets mixed). Then the faces are given out by the assignment that maximises the set's total score: a
        tile whose best face is already taken four times goes to its next best (where tiles were missed, a face
        may be read fewer times than the set holds it). Each changed tile keeps its row's probabilities, with
        the assigned face's and the top face's swapped.
        """
        counts = complete_set_counts(self.codes)
        top = probs.argmax(axis=1)
        up = np.nonzero((top != XX_INDEX) & (top != NT_INDEX))[0]
        if counts is None or not COMPLETE_FOUND * counts.sum() <= len(up) <= counts.sum():
            return probs
        index = np.array([CLASSES.index(c) for c in self.codes])
        read = np.array([np.nonzero(index == t)[0][0] if t in index else -1 for t in top[up]])
        fits = sum(min(int((read == k).sum()), int(n)) for k, n in enumerate(counts))
        if fits < COMPLETE_AGREEMENT * len(up):
            return probs
        slots = np.repeat(np.arange(len(self.codes)), counts)
        cost = np.zeros((len(slots), len(slots)))  # rows past the tiles found: the missed tiles, free to take any face
        cost[: len(up)] = -np.nan_to_num(scores[up][:, slots], neginf=-1e9)
        given = slots[assign(cost)[: len(up)]]
        out: np.ndarray = probs.copy()
        for row, k in zip(up, given):
            want, was = index[k], top[row]
            out[row, want], out[row, was] = probs[row, was], probs[row, want]
        return out

    def rescale(self, rgb: np.ndarray, dets: Detections, factors: tuple[float, ...] = RESCALE_FACTORS) -> Detections:
        """Grow or shrink every box by the one factor under which the set's faces match best.

        The detector's boxes run tighter or looser than the calibration's; one set, one factor, found on
        a coarse grid and then refined twice around the best (the match falls off within a few per cent).
        Each factor's score is match_score on a sample of ``RESCALE_SAMPLE`` boxes; the factors of one
        round are matched in one batch (one matrix product, not one per factor).
        """
        if len(dets) == 0:
            return dets
        sample = dets[np.linspace(0, len(dets) - 1, min(RESCALE_SAMPLE, len(dets))).round().astype(np.int64)]
        seen: dict[float, float] = {}

        def best_of(fs: tuple[float, ...]) -> float:
            new = [f for f in dict.fromkeys(round(f, 4) for f in fs) if f not in seen]
            if new:
                crops = np.concatenate([crops_of(rgb, scaled(sample.boxes, f)) for f in new])
                match = self.aligned_match(crops, coarse=True).max(axis=1).reshape(len(new), len(sample))
                seen.update(zip(new, (float(m) for m in np.median(match, axis=1))))
            return max(fs, key=lambda f: seen[round(f, 4)])

        best = best_of(factors)
        for step in (0.05, 0.025):
            best = best_of((best - step, best, best + step))
        return dets.with_(boxes=scaled(dets.boxes, best))

    def fit(self, rgb: np.ndarray, plain: Detections, looks: Callable[[], list[Detections]], match: float | None = None) -> Detections:
        """The boxes this set's faces fit best.

        Only when the set's faces already match the usual reading's boxes well (a photo of this set,
        taken square on) are the boxes refitted: the usual reading's, or, unless they match very well, the
        detector's look at another scale when the faces match that look's boxes clearly better (one photo's
        tiles can be any size),
        each sized per orientation, then rescaled. Otherwise the usual boxes stay, so a set never makes
        the boxes of a turned or tilted photo worse. ``looks`` gives the other scales' boxes, only if needed;
        ``match`` is the usual boxes' match_score, if known.
        """
        start = match if match is not None else self.match_score(rgb, plain)
        if not len(plain) or start < REFIT_MATCH:
            return plain
        own = self.own_tiles(rgb, plain)
        best = sizes_by_orientation(plain, own)
        if start < GOOD_MATCH:
            best_score, best_own = self.match_score(rgb, best) + OTHER_LOOK_MARGIN, int(own.sum())
            for look in looks():
                if not len(look):
                    continue
                own = self.own_tiles(rgb, look)
                sized = sizes_by_orientation(look, own)
                score = self.match_score(rgb, sized)
                if score > best_score and own.sum() >= best_own:  # never a look that boxes fewer of the set's tiles
                    best, best_score, best_own = sized, score, int(own.sum())
        fitted = self.rescale(rgb, best)
        unsure = np.nonzero(fitted.scores < CONFIDENT)[0]
        unlike = unsure[self.aligned_match(crops_of(rgb, fitted.boxes[unsure]), coarse=True).max(axis=1, initial=-1.0) < TRUST_MATCH]
        fitted = fitted[np.setdiff1d(np.arange(len(fitted)), unlike)]  # an unsure box unlike every face: print, not a tile
        return fitted[in_the_rows_of(fitted.boxes, plain.boxes)]

    def own_tiles(self, rgb: np.ndarray, dets: Detections) -> np.ndarray:
        """Which boxes show one of this set's faces (``TRUST_MATCH``): the set's own tiles, not print beside them."""
        return np.asarray(self.aligned_match(crops_of(rgb, dets.boxes), coarse=True).max(axis=1, initial=-1.0) >= TRUST_MATCH)

    def prototypes_npz(self) -> bytes:
        """The calibration's prototypes as a ``prototypes.npz`` holds them."""
        out = io.BytesIO()
        np.savez_compressed(out, labels=self.labels, embeddings=self.embeddings.astype(np.float16),
                            corners=self.corners.astype(np.float16), levels=self.levels.astype(np.float32),
                            templates=self.templates.astype(np.float32))
        return out.getvalue()

    def save(self, folder: Path, meta: dict[str, Any]) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "prototypes.npz").write_bytes(self.prototypes_npz())
        (folder / "tileset.json").write_text(json.dumps({"name": self.name, "codes": list(self.codes), **meta}, indent=2) + "\n")


#: A refitted box boxes a tile the usual reading found where it overlaps that tile's box this much (IoU).
ON_A_TILE_FOUND = 0.3


def in_the_rows_of(fitted: np.ndarray, plain: np.ndarray) -> np.ndarray:
    """Which refitted boxes (``fitted``) box a tile the usual reading found (``plain``, ``ON_A_TILE_FOUND``) or lie in a
    row or a column with those, growing along it (``detect.in_a_row_with``). Another look's caption letters, each
    sized as the set's tiles, lie above or below the rows: held out, Harr's example 1 read the "In hand" under its hand
    as a north wind, and the caption over it as eight more boxes."""
    keep = iou_matrix(fitted, plain).max(axis=1) >= ON_A_TILE_FOUND if len(plain) and len(fitted) else np.zeros(len(fitted), bool)
    lying = sideways(fitted)
    across = fitted[:, [1, 0, 3, 2]]  # a column of tiles laid sideways down a page is a row of them, turned
    return grown(keep, lambda kept: in_a_row_with(fitted, fitted[kept]) | (lying & in_a_row_with(across, across[kept & lying])))


def check_name(name: str) -> str:
    """A set's name is one folder name: no path parts, so no set is read or written outside its folder."""
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name):
        raise TileSetError(f"tile set name {name!r}: use letters, digits, '.', '_' or '-' (at most 64, starting with a letter or digit)")
    return name


def load_tileset(name: str) -> TileSet:
    """A built-in set (``models/tilesets/NAME``) or one of the player's (kept in their history file); a built-in is
    never shadowed. A set still only in a folder of ``$PUNGCHOW_HOME/tilesets`` (one that could not be read in) is read
    from there, or says what is wrong with it."""
    check_name(name)
    folder = builtin_tileset_dir() / name
    if (folder / "tileset.json").is_file():
        return _read_folder(name, folder)
    store = player_store()
    found = _read_stored(store, name)
    if found is not None:
        return found
    folder = user_tileset_dir() / name
    if (folder / "tileset.json").is_file():
        return _read_folder(name, folder)
    known = ", ".join(list_tilesets()) or "none"
    raise TileSetError(f"no tile set named {name!r} (known: {known}); "
                       f"start one with `pungchow tileset learn {name} PHOTO --corrected FILE` "
                       f"or `pungchow tileset add {name} PHOTO --layout LAYOUT.json`")


def player_store() -> SetStore:
    """The player's sets in their history file, with any set folder of ``$PUNGCHOW_HOME/tilesets`` read in once."""
    store = SetStore(history_file())
    _take_in_folders(store)
    return store


def _take_in_folders(store: SetStore) -> None:
    """Sets kept as folders (before sets lived in the history file) read into it once. The folders' files are left as
    they are; a folder whose set is already in the file under its name is left out and never overwrites it; a folder
    that does not read stays a folder, and naming it says what is wrong with it."""
    base = user_tileset_dir()
    names = [n for n in list_tilesets_in(base) if n not in set(list_tilesets_in(builtin_tileset_dir()))]
    if not names:
        return
    try:
        done = store.folders_taken_in()
        kept = set(store.names())
        for name in (n for n in names if n not in done):
            try:
                ts = _read_folder(name, base / name)
            except TileSetError:
                continue
            if name in kept:
                store.take_in(name, f"left in {base / name}: a set named {name!r} was kept already", None, classifier_id())
                continue
            npz = base / name / "prototypes.npz"
            prototypes = npz.read_bytes() if ts.calibrated and npz.is_file() else None
            meta = _read_meta(name, base / name)
            store.take_in(name, "read in", (meta, prototypes, ts.examples or Examples.empty()), classifier_id())
    except (TileSetError, OSError):
        return  # the history file cannot take them now: the folders are still read as folders


#: Sets read from a history file, kept while unchanged: (file, name) -> (its changes, the classifier, the set). A photo
#: read with a set the process has read before costs one look at the set's count of changes, not a read of its rows.
_READ: dict[tuple[Path, str], tuple[int, str, TileSet]] = {}


def _read_stored(store: SetStore, name: str) -> TileSet | None:
    """The player's set ``name`` from the history file (None: not there), read once while it is unchanged."""
    embedder = classifier_id()
    changes = store.changes(name)
    if changes is None:
        return None
    key = (store.path.resolve(), name)
    kept = _READ.get(key)
    if kept is not None and kept[:2] == (changes, embedder):
        return kept[2]
    ts = _read_rows(store, name, embedder)
    if ts is not None:
        _READ[key] = (changes, embedder, ts)
    return ts


def _read_rows(store: SetStore, name: str, embedder: str) -> TileSet | None:
    """The set's rows read and checked; examples embedded by another classifier are embedded again from their crops
    and written back."""
    found = store.read(name, embedder)
    if found is None:
        return None
    kept, stale = found
    examples = kept.examples
    if stale:
        where = np.isin(np.array(kept.ids), stale)
        crops = examples.crops[where]
        upright, turned = embed(crops)
        same = examples.embeddings.shape[1:] == upright.shape[1:]  # another classifier may embed in another size
        emb = examples.embeddings.copy() if same else np.zeros((len(examples), upright.shape[1]), np.float32)
        back = examples.turned.copy() if same else np.zeros_like(emb)
        emb[where], back[where] = upright, turned
        examples = Examples(examples.codes, examples.sources, emb, back, examples.stored_faces, lambda: kept.examples.crops)
        with contextlib.suppress(TileSetError):  # a read-only file: the set is embedded again on each load, and still reads
            store.embedded_again(name, [i for i, w in zip(kept.ids, where) if w], upright, turned, embedder)
    return _set_of(name, kept.meta, examples, kept.prototypes, f"{store.path} (set {name})",
                   f"calibrate it again: pungchow tileset add {name} PHOTO --layout LAYOUT.json --replace")


def _read_meta(name: str, folder: Path) -> dict[str, Any]:
    """A set's description, read with the bounded JSON reader (a damaged or oversized file is named, never a traceback)."""
    again = f"calibrate it again: pungchow tileset add {name} PHOTO --layout LAYOUT.json --replace"
    try:
        meta = load_json_file(folder / "tileset.json", "tile set", max_bytes=MAX_META_BYTES)
    except JsonInputError as exc:
        raise TileSetError(f"tile set {name!r}: {folder / 'tileset.json'} is damaged ({exc}); {again}") from None
    if not isinstance(meta, dict):
        raise TileSetError(f"tile set {name!r}: {folder / 'tileset.json'} is damaged (it is no JSON object, so its \"codes\" are "
                           f"not a list of tile codes); {again}")
    return meta


def _read_folder(name: str, folder: Path, writable: bool = False) -> TileSet:
    """One set's files read and checked; anything wrong with them is a TileSetError naming the set."""
    again = f"calibrate it again: pungchow tileset add {name} PHOTO --layout LAYOUT.json --replace"
    try:
        return _read_set_files(name, folder, again, writable)
    except TileSetError:
        raise
    except (OSError, ValueError, KeyError, TypeError, EOFError, RecursionError, MemoryError, zipfile.BadZipFile) as exc:
        raise TileSetError(f"tile set {name!r} in {folder} is damaged ({type(exc).__name__}); {again}") from None


def _read_set_files(name: str, folder: Path, again: str, writable: bool) -> TileSet:
    """The set in ``folder``: its examples (embedded again, and written back where the folder is writable, when the
    classifier changed) and its calibration's prototypes (``_set_of``)."""
    meta = _read_meta(name, folder)
    examples = None
    if (folder / EXAMPLES_FILE).is_file():
        examples, redone = load_examples(folder, name, meta.get("examples_embedded_by"))
        if redone and writable:
            try:
                examples.save(folder)
                save_meta(folder, name, examples, meta)
            except OSError:
                pass  # read-only: the set is embedded again on each load, and still reads
    npz = folder / "prototypes.npz"
    return _set_of(name, meta, examples, npz.read_bytes() if npz.is_file() else None, str(npz), again)


def _set_of(name: str, meta: dict[str, Any], examples: Examples | None, prototypes: bytes | None, where: str, again: str) -> TileSet:
    """The set its description, examples and calibration's prototypes (a ``prototypes.npz`` as bytes) make, checked:
    prototypes derived again from the calibration's examples when the classifier changed (a set calibrated before
    examples were kept is refused then, with the command that rebuilds it)."""
    if prototypes is None:
        if examples is None:
            raise TileSetError(f"tile set {name!r}: {where} holds neither examples nor a calibration; {again}")
        return TileSet.of_examples(name, examples)
    codes = meta.get("codes")
    if not isinstance(codes, list) or not codes or not all(isinstance(c, str) and c in ALL_CODES for c in codes):
        raise TileSetError(f"tile set {name!r}: its tileset.json in {where} is damaged (its \"codes\" are not a list of tile "
                           f"codes); {again}")
    looks_like = meta.get("looks_like", LOOKS_LIKE)
    if isinstance(looks_like, bool) or not isinstance(looks_like, (int, float)) or not 0.0 <= looks_like <= 1.0:
        raise TileSetError(f"tile set {name!r}: its tileset.json in {where} is damaged (\"looks_like\" is {str(looks_like)[:20]!r}, "
                           f"not a number from 0 to 1); {again}")
    if meta.get("classifier_sha256") != load_model("classifier").meta["sha256"]:
        calibration = examples.without(np.array([s.startswith("calibration:") for s in examples.sources])) if examples else None
        if calibration is None or not len(calibration):
            raise TileSetError(f"tile set {name!r} was calibrated with another classifier; {again}")
        return prototypes_of(name, calibration, float(looks_like), examples)
    try:
        with zipfile.ZipFile(io.BytesIO(prototypes)) as packed:
            unpacked = sum(info.file_size for info in packed.infolist())
        if unpacked > MAX_PROTOTYPE_BYTES:
            raise TileSetError(f"tile set {name!r}: {where} unpacks to {unpacked:,} bytes, more than the {MAX_PROTOTYPE_BYTES:,} "
                               f"a set holds; {again}")
        with np.load(io.BytesIO(prototypes), allow_pickle=False) as z:
            arrays = {k: z[k] for k in ("labels", "embeddings", "corners", "levels", "templates")}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise TileSetError(f"tile set {name!r}: {where} is damaged or cut short ({exc}); {again}") from None
    n = len(arrays["labels"])
    if any(len(arrays[k]) != n for k in ("embeddings", "corners", "levels")) or len(arrays["templates"]) != len(codes):
        raise TileSetError(f"tile set {name!r}: {where} does not match its tileset.json; {again}")
    return TileSet(name, tuple(codes), arrays["labels"], arrays["embeddings"].astype(np.float32), arrays["corners"].astype(np.float32),
                   arrays["levels"].astype(np.float32), arrays["templates"].astype(np.float32), float(looks_like), examples)


def prototypes_of(name: str, calibration: Examples, looks_like: float = LOOKS_LIKE, examples: Examples | None = None) -> TileSet:
    """A calibration's prototypes derived again from its stored tiles (one per face, as found; no jittered copies)."""
    codes = tuple(dict.fromkeys(calibration.codes))
    first = np.array([calibration.codes.index(c) for c in codes])
    corner, level = _features(calibration.crops)
    labels = np.array([codes.index(c) for c in calibration.codes], np.int16)
    return TileSet(name, codes, labels, calibration.embeddings, corner, level, _templates(calibration.crops[first]), looks_like, examples)


@dataclass(frozen=True)
class SetSummary:
    """What the page shows of the set being learnt: its name, the faces it has examples of, how many examples, and
    where it is kept (the player's history file, or the folder ``--into`` named)."""

    name: str
    faces_seen: tuple[str, ...]
    examples: int
    calibrated: bool
    folder: Path

    def __str__(self) -> str:
        how = ", calibrated" if self.calibrated else ""
        return f"tile set {self.name!r}: {self.examples} examples of {len(self.faces_seen)} faces{how}"


def summary_of(ts: TileSet, folder: Path) -> SetSummary:
    ex = ts.examples or Examples.empty()
    return SetSummary(ts.name, ex.faces_seen, len(ex), ts.calibrated, folder)


#: The player's own copy of a built-in set is named this way (``learnt_copy_of``).
OWN_COPY = "{}-mine"


def learnt_copy_of(builtin: str) -> str:
    """The name of the player's own set that learns from photos read with built-in set ``builtin``: a copy of its
    calibration that their corrections join, so the next photo keeps both (a built-in set itself is never written)."""
    return OWN_COPY.format(check_name(builtin))


def add_examples(name: str, new: Examples, out_dir: Path | None = None, based_on: str | None = None) -> tuple[TileSet, Path]:
    """Add examples to the player's set ``name``, creating it if new (a new set ``based_on`` a built-in one starts as a
    copy of its calibration and examples). The set lives in the player's history file: the examples are added as rows
    in one transaction, nothing rewritten. With ``out_dir``, the set is a folder of files there instead (replaced whole)."""
    check_name(name)
    if out_dir is not None:
        return _add_to_folder(name, new, out_dir)
    if (builtin_tileset_dir() / name).is_dir():
        raise TileSetError(f"{name!r} is a built-in tile set; learn into a set of your own (e.g. {name}-mine)")
    store = player_store()
    current = _read_stored(store, name)
    if current is None and (user_tileset_dir() / name / "tileset.json").is_file():
        _read_folder(name, user_tileset_dir() / name)  # a folder that did not read in says what is wrong with it
    if current is not None:
        key, was = (store.path.resolve(), name), store.changes(name)
        changes = store.append(name, new, classifier_id())
        grown = with_fields(current, examples=(current.examples or Examples.empty()) + new)
        if was is not None and changes == was + 1:  # nobody else changed it meanwhile: the set read stays read, grown
            _READ[key] = (changes, classifier_id(), grown)
        return grown, store.path
    meta: dict[str, Any] = {"name": name}
    prototypes = None
    examples = new
    if based_on is not None:
        source = builtin_tileset_dir() / check_name(based_on)
        if not (source / "tileset.json").is_file():
            raise TileSetError(f"there is no built-in tile set {based_on!r} to start a set of your own from")
        built_in = _read_folder(based_on, source)
        meta = {**_read_meta(based_on, source), "name": name, "copied_from": based_on}
        prototypes = (source / "prototypes.npz").read_bytes() if (source / "prototypes.npz").is_file() else None
        examples = (built_in.examples or Examples.empty()) + new
    store.create(name, meta, prototypes, examples, classifier_id())
    found = _read_stored(store, name)
    assert found is not None
    return found, store.path


def _add_to_folder(name: str, new: Examples, base: Path) -> tuple[TileSet, Path]:
    """``--into DIR``: the set as files in its own folder there (as ``models/tilesets`` holds the built-in ones)."""
    if base.exists() and not base.is_dir():
        raise TileSetError(f"{base} is a file; give the folder that holds tile sets")
    folder = base / name
    if (folder / "tileset.json").is_file():
        current: TileSet | None = _read_folder(name, folder, writable=True)
        meta = _read_meta(name, folder)
    else:
        if folder.exists() and any(folder.iterdir()):
            raise TileSetError(f"{folder} exists and is not a tile set; choose another name, or move that folder away")
        current, meta = None, {"name": name}
    examples = ((current.examples if current is not None else None) or Examples.empty()) + new
    try:
        folder.mkdir(parents=True, exist_ok=True)
        examples.save(folder)
        save_meta(folder, name, examples, meta)
    except OSError as exc:
        raise TileSetError(f"cannot write tile set {name!r} in {folder}: {exc.strerror or exc}; free some space or give "
                           "another folder with --into") from None
    return (with_fields(current, examples=examples) if current is not None else TileSet.of_examples(name, examples)), folder


def learn_tiles(name: str, rgb: np.ndarray, tiles: list[CorrectedTile], photo_name: str = "photo", out_dir: Path | None = None,
                source: str = "page", based_on: str | None = None) -> SetSummary:
    """The page's way in: the player's checked or corrected tiles of a photo (boxes in ``rgb``'s pixels) join set ``name``
    (a new one ``based_on`` a built-in set starts from its calibration)."""
    ts, folder = add_examples(name, examples_from_photo(rgb, tiles, f"{source}:{photo_name}"), out_dir, based_on)
    return summary_of(ts, folder)


def learn_from_corrected(name: str, photo: str | Path, corrected: str | Path, out_dir: Path | None = None) -> SetSummary:
    """``pungchow tileset learn``: every tile of a corrected recognition of ``photo`` joins set ``name``."""
    check_name(name)
    tiles, size = read_corrected(corrected)
    rgb, own = load_photo_sized(photo)
    if size is not None and size != own:
        raise TileSetError(f"{corrected} is the recognition of a {size[0]}x{size[1]} photo, but {photo} is {own[0]}x{own[1]}; "
                           "give the photo it was made from")
    ts, folder = add_examples(name, examples_from_photo(rgb, tiles, f"corrected:{Path(photo).name}", own), out_dir)
    return summary_of(ts, folder)


def _own_set(name: str) -> tuple[SetStore, TileSet]:
    """The player's own set ``name`` and where it is kept: a built-in set is never changed, and a set must exist."""
    check_name(name)
    if (builtin_tileset_dir() / name).is_dir():
        raise TileSetError(f"{name!r} is a built-in tile set; it has no examples of yours to forget or export")
    store = player_store()
    ts = _read_stored(store, name)
    if ts is None:
        if (user_tileset_dir() / name / "tileset.json").is_file():
            _read_folder(name, user_tileset_dir() / name)  # says what is wrong with the folder that did not read in
        raise TileSetError(f"there is no tile set {name!r} of yours; the page lists the sets you have")
    return store, ts


def set_changes(name: str | None) -> int | None:
    """How often the player's set ``name`` has changed (None: no such set of theirs): a photo read with the set before it
    learnt is read again after."""
    if not name:
        return None
    try:
        return player_store().changes(check_name(name))
    except TileSetError:
        return None


def own_tilesets() -> list[str]:
    """The player's own sets (in their history file; the built-in sets are the reader's, not theirs)."""
    builtin = set(list_tilesets_in(builtin_tileset_dir()))
    return [n for n in player_store().names() if n not in builtin]


def list_tilesets_in(base: Path) -> list[str]:
    """The sets in one folder of sets (a folder no set may be named is not a set)."""
    return sorted(p.parent.name for p in base.glob("*/tileset.json") if _NAME_RE.fullmatch(p.parent.name)) if base.is_dir() else []


def learnt_examples(name: str) -> Examples:
    """The examples of the player's own set ``name``, in the order they were learnt (the page numbers them so)."""
    return _own_set(name)[1].examples or Examples.empty()


def forget_examples(name: str, which: Collection[int] | None = None) -> SetSummary:
    """Forget the examples at places ``which`` of the player's set ``name`` (as ``learnt_examples`` numbers them), or
    with None every example learnt from a photo: a wrong correction taken back, or the set started again. The tiles of
    a calibration stay while the set is calibrated (its prototypes are derived from them when the reader changes)."""
    store, ts = _own_set(name)
    kept = store.read(name, classifier_id())
    assert kept is not None
    ex = ts.examples or Examples.empty()
    calibration = np.array([s.startswith("calibration:") and ts.calibrated for s in ex.sources], bool)
    if which is None:
        forget = ~calibration
    else:
        outside = sorted(k for k in which if not 0 <= k < len(ex))
        if outside:
            raise TileSetError(f"tile set {name!r} has {len(ex)} examples; there is no example {outside[0] + 1} to forget")
        forget = np.zeros(len(ex), bool)
        forget[list(which)] = True
        if (forget & calibration).any():
            raise TileSetError(f"example {int(np.flatnonzero(forget & calibration)[0]) + 1} of {name!r} is a tile of its calibration; "
                               "calibrate the set again to change those")
    store.forget(name, [i for i, f in zip(kept[0].ids, forget) if f])
    return summary_of(with_fields(ts, examples=ex.without(~forget)), store.path)


def forget_learnt(name: str, sources: Collection[str]) -> SetSummary:
    """Forget the examples of the player's set ``name`` learnt under ``sources`` (as ``learn_tiles`` names them): the
    page's undo of what one photo taught, or of a tile corrected again. Examples already forgotten are no error."""
    gone = set(sources)
    return forget_examples(name, [k for k, s in enumerate(learnt_examples(name).sources) if s in gone])


def rename_tileset(name: str, new_name: str) -> SetSummary:
    """The player's set ``name`` called ``new_name`` from now on (the page starts one as "my-set"); a name already
    taken, by a set of theirs or a built-in one, is refused, never overwritten."""
    store, _ = _own_set(name)
    check_name(new_name)
    if new_name in list_tilesets():
        raise TileSetError(f"there is already a tile set {new_name!r}; choose another name")
    store.rename(name, new_name)
    ts = _read_stored(store, new_name)
    assert ts is not None
    return summary_of(ts, store.path)


def remove_tileset(name: str) -> str:
    """The player's set ``name`` gone from their history file, readable or not (a damaged set is removed this way, then
    imported again); a built-in set is never removed, and a folder's files are left."""
    check_name(name)
    if (builtin_tileset_dir() / name).is_dir():
        raise TileSetError(f"{name!r} is a built-in tile set; it is the reader's, not yours to remove")
    store = player_store()
    if not store.remove(name):
        raise TileSetError(f"there is no tile set {name!r} of yours; `pungchow tileset list` names them")
    return f"tile set {name!r} removed from {store.path}"


def export_tileset(name: str) -> bytes:
    """The player's set ``name`` as one zip file (its description, examples and any calibration), to keep or move."""
    store, ts = _own_set(name)
    kept = store.read(name, classifier_id())
    assert kept is not None
    examples = ts.examples or Examples.empty()
    with tempfile.TemporaryDirectory(prefix="pungchow-export-") as tmp:
        folder = Path(tmp)
        examples.save(folder)
        save_meta(folder, name, examples, kept[0].meta)
        if kept[0].prototypes is not None:
            (folder / "prototypes.npz").write_bytes(kept[0].prototypes)
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            for f in SET_FILES:
                if (folder / f).is_file():
                    z.write(folder / f, f"{name}/{f}")
    return out.getvalue()


#: The files a set's folder holds, and so all an exported set may bring in.
SET_FILES = ("tileset.json", EXAMPLES_FILE, "prototypes.npz")
#: An imported set unpacks to at most this many megabytes (20,000 examples' crops at 160x120 take about 1,100).
MOST_IMPORTED_MB = 2048


def import_tileset(data: bytes, what: str = "the file") -> SetSummary:
    """A set exported with ``export_tileset`` (one zip file) made the player's again, under the name it was exported
    with. A set of that name already here is never overwritten; a file that is not a whole set is refused whole."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            entries = [i for i in z.infolist() if not i.is_dir()]
            names = {i.filename.partition("/")[0] for i in entries}
            files = {i.filename.partition("/")[2]: i for i in entries}
            if len(names) != 1 or not set(files) <= set(SET_FILES) or "tileset.json" not in files:
                raise TileSetError(f"{what} is not an exported tile set (one folder holding {', '.join(SET_FILES[:2])}); "
                                   "export the set again from the Tile sets page")
            (name,) = names
            check_name(name)
            if sum(i.file_size for i in entries) > MOST_IMPORTED_MB << 20:
                raise TileSetError(f"{what} unpacks to more than {MOST_IMPORTED_MB} MB, more than a set of 20,000 examples; "
                                   "is it a tile set exported from the page?")
            contents = {f: z.read(i) for f, i in files.items()}
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise TileSetError(f"{what} is not an exported tile set ({exc}); export the set again from the Tile sets page") from None
    if name in list_tilesets():
        raise TileSetError(f"there is already a tile set {name!r}; rename yours on the Tile sets page first "
                           "(`pungchow tileset list` names them), so that neither set is overwritten")
    with tempfile.TemporaryDirectory(prefix=f"pungchow-import-{name}-") as tmp:
        staging = Path(tmp)
        try:
            for f, content in contents.items():
                (staging / f).write_bytes(content)
        except OSError as exc:
            raise TileSetError(f"cannot unpack {what} ({exc.strerror or exc}); free some disk space, then import again") from None
        ts = _read_folder(name, staging)
        meta = {k: v for k, v in _read_meta(name, staging).items() if k not in ("examples", "faces_seen", "examples_embedded_by")}
        prototypes = (staging / "prototypes.npz").read_bytes() if (staging / "prototypes.npz").is_file() else None
        store = player_store()
        store.create(name, meta, prototypes, ts.examples or Examples.empty(), classifier_id())
    found = _read_stored(store, name)
    assert found is not None
    return summary_of(found, store.path)


def list_tilesets() -> list[str]:
    """Every set: the built-in ones, the player's, and any folder of theirs not read into the history file yet."""
    return sorted(set(list_tilesets_in(builtin_tileset_dir())) | set(player_store().names()) | set(list_tilesets_in(user_tileset_dir())))


def read_all_tilesets() -> tuple[dict[str, TileSet], list[str]]:
    """Every set, each read on its own: one damaged set is left out and named (second list), so it never stops a photo
    being read without it."""
    sets: dict[str, TileSet] = {}
    damaged: list[str] = []
    for name in list_tilesets():
        try:
            sets[name] = load_tileset(name)
        except TileSetError as exc:
            damaged.append(f"{exc} (skipped)")
    return sets, damaged


@dataclass(frozen=True)
class Suggestion:
    """A calibrated set that would read a photo better, by its own face match."""

    name: str
    match: float
    current: float

    current_name: str | None = None

    def __str__(self) -> str:
        against = f", {self.current_name!r}'s {self.current:.2f}" if self.current_name else ""
        return (f"this photo looks like tile set {self.name!r} (its faces match {self.match:.2f}{against}): "
                f"read it with --tileset {self.name}")


def suggest_tileset(rgb: np.ndarray, dets: Detections, current: str | None = None,
                    sets: dict[str, TileSet] | None = None) -> Suggestion | None:
    """The calibrated set whose faces match the photo's tiles best, when it looks like one and would beat ``current``;
    among ``sets`` when given (read once by the caller), else among every set that reads."""
    if not len(dets):
        return None
    scores: dict[str, tuple[float, float]] = {}
    for name, ts in (read_all_tilesets()[0] if sets is None else sets).items():
        scores[name] = (ts.match_score(rgb, dets, refuse_below=None if name == current else ts.looks_like), ts.looks_like)
    base = scores.get(current, (0.0, 1.0))[0] if current else 0.0
    fits = [(m, n) for n, (m, need) in scores.items() if n != current and m >= need and m > base + OTHER_LOOK_MARGIN]
    if not fits:
        return None
    match, name = max(fits)
    return Suggestion(name, match, base, current)


def read_layout(path: str | Path) -> list[list[str]]:
    """The layout file: {"rows": [[code, ...], ...]} (or a bare list of rows), codes row by row."""
    try:
        data = load_json_file(path, "layout", max_bytes=MAX_META_BYTES)
    except JsonInputError as exc:
        raise TileSetError(f"cannot read layout {path}: {exc}; it must be JSON like {{\"rows\": [[\"1D\", \"2D\"], [\"EW\"]]}}") from None
    rows = data.get("rows") if isinstance(data, dict) else data
    return check_layout(rows, str(path))


def check_layout(rows: object, where: str = "the layout") -> list[list[str]]:
    """Rows of known, distinct codes, enough of them to learn a set from."""
    if not isinstance(rows, list) or not rows or not all(isinstance(r, list) and r for r in rows):
        raise TileSetError(f"{where} needs \"rows\": a list of non-empty lists of tile codes")
    most = len(ALL_CODES) - 1  # every face but XX, once
    count = sum(len(r) for r in rows)
    if count > most:
        raise TileSetError(f"{where} lists {count:,} tiles; a set has {most} different faces: lay out one tile of each, each code once")
    bad = [c for r in rows for c in r if not isinstance(c, str) or c not in ALL_CODES or c == "XX"]
    if bad:
        raise TileSetError(f"{where} has unknown tile codes {[str(c)[:8] for c in bad[:10]]}; use codes like 1D, 9C, EW, RD, 1F")
    codes = [c for r in rows for c in r]
    twice = sorted(code for code, n in Counter(codes).items() if n > 1)
    if twice:
        raise TileSetError(f"{where} names {twice} more than once; lay out one tile of each face, each code once")
    if len(codes) < MIN_TILES:
        raise TileSetError(f"{where} has only {len(codes)} tiles; lay out at least {MIN_TILES} different faces "
                           "(ideally all 34, plus flowers and seasons) so the set can be told apart")
    return [[str(c) for c in r] for r in rows]


def photo_rows(dets: Detections) -> list[list[int]]:
    """Cluster boxes into rows by their vertical centre, each row left to right."""
    if len(dets) == 0:
        return []
    c = dets.centres
    mh = float(np.median(dets.boxes[:, 3]))
    order = np.argsort(c[:, 1])
    rows: list[list[int]] = [[int(order[0])]]
    for k in order[1:]:
        if c[k, 1] - np.mean(c[rows[-1], 1]) > 0.5 * mh:
            rows.append([])
        rows[-1].append(int(k))
    return [sorted(r, key=lambda k: c[k, 0]) for r in rows]


def match_layout(dets: Detections, layout: list[list[str]]) -> list[tuple[int, str]]:
    """Pair boxes with layout codes: photo rows in order, skipping rows whose count fits no layout row (counters, labels)."""
    rows = photo_rows(dets)
    pairs: list[tuple[int, str]] = []
    r = 0
    for want in layout:
        while r < len(rows) and len(rows[r]) != len(want):
            r += 1
        if r == len(rows):
            counts = [len(x) for x in photo_rows(dets)]
            raise TileSetError(
                f"the reader found rows of {counts} tiles in the photo (what it boxed, not what the photo may hold) but the "
                f"layout lists rows of {[len(x) for x in layout]}; photograph the tiles in the layout's rows, with a clear "
                "gap between rows, on a plain background")
        pairs += list(zip(rows[r], want))
        r += 1
    return pairs


def layout_boxes(rgb: np.ndarray, layout: list[list[str]]) -> Detections | None:
    """Boxes from the layout itself: bands of tiles on a plain background, each band cut into its row's count.

    Used when the detector's boxes do not fit the layout (a set drawn unlike any it was trained on):
    the calibration photo is by definition tiles in rows on a plain background, so the rows show
    as bands of non-background pixels; bands much thinner than a tile (counters, captions) are skipped.
    """
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    background = float(np.percentile(grey, 90))
    mask = (cv2.GaussianBlur(grey, (5, 5), 0) < background - 7).astype(np.uint8)
    ink = mask.mean(axis=1)
    bands, start = [], None
    for y, v in enumerate(np.append(ink, 0)):
        if v > 0.15 and start is None:
            start = y
        elif v <= 0.15 and start is not None:
            bands.append((start, y))
            start = None
    if not bands:
        return None
    tallest = max(b - a for a, b in bands)
    bands = [(a, b) for a, b in bands if b - a >= 0.6 * tallest]
    if len(bands) < len(layout):
        return None
    boxes = []
    for (y0, y1), row in zip(bands, layout):
        xs = np.where(mask[y0:y1].mean(axis=0) > 0.3)[0]
        if len(xs) == 0:
            return None
        x0, x1 = float(xs.min()), float(xs.max() + 1)
        w = (x1 - x0) / len(row)
        if not MIN_CELL_ASPECT <= (y1 - y0) / w <= MAX_CELL_ASPECT:
            return None  # the band holds another number of tiles than the layout's row
        boxes += [[x0 + k * w, float(y0), w, float(y1 - y0)] for k in range(len(row))]
    return Detections(np.array(boxes), np.ones(len(boxes)))


@dataclass(frozen=True)
class Calibration:
    """What one calibration photo shows: a box per laid-out tile and the code the layout gives it.

    Kept apart from the learnt set so a player can see each code's crop and fix a wrong assignment
    (``with_code``) before the set is learnt and saved.
    """

    photo: np.ndarray
    photo_name: str
    layout: list[list[str]]
    boxes: np.ndarray
    codes: tuple[str, ...]

    def crops(self) -> np.ndarray:
        """(N, H, W, 3) each tile as the classifier sees it, in layout order."""
        return crops_of(self.photo, self.boxes)

    def with_code(self, index: int, code: str) -> Calibration:
        """The same calibration with tile ``index`` given ``code`` (swapping with the tile that had it)."""
        if code not in ALL_CODES or code == "XX":
            raise TileSetError(f"{code!r} is not a tile code; use codes like 1D, 9C, EW, RD, 1F")
        codes = list(self.codes)
        if code in codes:
            codes[codes.index(code)] = codes[index]
        codes[index] = code
        return Calibration(self.photo, self.photo_name, self.layout, self.boxes, tuple(codes))

    def with_codes(self, codes: list[str] | tuple[str, ...]) -> Calibration:
        """The same tiles with the player's codes, one per tile, each code once."""
        if len(codes) != len(self.codes):
            raise TileSetError(f"give one code per tile: {len(self.codes)} tiles, {len(codes)} codes")
        check_layout([list(codes)], "the corrected codes")
        return Calibration(self.photo, self.photo_name, self.layout, self.boxes, tuple(str(c) for c in codes))


def read_calibration(photo: str | Path | np.ndarray, layout: list[list[str]], photo_name: str = "") -> Calibration:
    """Find the laid-out tiles of a calibration photo and pair them with the layout's codes, or say what is wrong."""
    layout = check_layout(layout)
    rgb = photo if isinstance(photo, np.ndarray) else load_photo(photo)
    dets = detect(rgb)
    probs, _ = run_classifier(crops_of(rgb, dets.boxes))
    # every tile of one set is one size: a box the detector drew a little tight or loose would teach the set a face
    # framed unlike every photo it will read (the 1922 calibration photo's 1, 2 and 4 of characters)
    dets = sizes_by_orientation(dets[probs.argmax(1) != NT_INDEX])
    try:
        pairs = match_layout(dets, layout)
    except TileSetError:
        banded = layout_boxes(rgb, layout)
        if banded is None:
            raise
        dets = banded
        pairs = match_layout(dets, layout)
    boxes = np.stack([dets.boxes[k] for k, _ in pairs])
    cal = Calibration(rgb, photo_name or (Path(photo).name if not isinstance(photo, np.ndarray) else "photo"), layout, boxes,
                      tuple(code for _, code in pairs))
    check_orientation(cal)
    return cal


def check_orientation(cal: Calibration) -> None:
    """Refuse a layout read backwards (photo turned round, or rows listed bottom to top): the usual faces then
    agree with the layout reversed on clearly more tiles than with the layout as given."""
    probs, _ = run_classifier(cal.crops())
    read = [CLASSES[int(k)] for k in probs.argmax(1)]
    ahead = sum(r == c for r, c in zip(read, cal.codes))
    back = sum(r == c for r, c in zip(read, cal.codes[::-1]))
    if back >= max(3, 2 * ahead) and back >= 0.3 * len(read):
        raise TileSetError(f"the photo seems to hold the layout reversed: {back} of {len(read)} tiles read as the layout backwards, "
                           f"{ahead} as given; turn the photo the right way up, or list the rows top to bottom, left to right")


def learn(name: str, cal: Calibration, seed: int = 0) -> TileSet:
    """The set's prototypes from its calibration: each tile cropped as found, plus jittered copies."""
    codes = cal.codes
    rng = np.random.default_rng(seed)
    crops, labels = [], []
    for box, code in zip(cal.boxes, cal.codes):
        for j in range(JITTER_COPIES):
            if j == 0:
                c = crop_tile(cal.photo, box)
            else:
                b = box.copy()
                b[2:] *= rng.uniform(0.93, 1.07, 2)
                c = crop_tile(cal.photo, b, shift=(rng.uniform(-0.06, 0.06), rng.uniform(-0.05, 0.05)))
                c = np.clip(c.astype(np.float32) * rng.uniform(0.9, 1.1) + rng.uniform(-12, 12), 0, 255).astype(np.uint8)
                if rng.random() < 0.3:
                    c = cv2.GaussianBlur(c, (3, 3), 0)
            crops.append(c)
            labels.append(codes.index(code))
    crops_a = np.stack(crops)
    _, emb = run_classifier(crops_a)
    corner, level = _features(crops_a)
    first = np.arange(len(codes)) * JITTER_COPIES
    return TileSet(name, codes, np.array(labels, np.int16), emb, corner, level, _templates(crops_a[first]))


def save_tileset(ts: TileSet, cal: Calibration, out_dir: Path | None = None, replace: bool = False) -> Path:
    """Keep the set in the player's history file (or with ``out_dir``, as files in a folder there) all at once; never
    over another set unless ``replace``. What the player taught a set calibrated again stays; an earlier calibration's
    tiles give way to this one's. Returns where it is kept."""
    base, folder = set_destination(ts.name, out_dir, replace)
    meta = {"name": ts.name, "codes": list(ts.codes), **_calibration_meta(ts, cal)}
    if out_dir is None:
        store = player_store()
        current = _read_stored(store, ts.name)
        kept = (current.examples if current is not None else None) or Examples.empty()
        learnt = kept.without(np.array([not s.startswith("calibration:") for s in kept.sources], bool))
        examples = Examples.of_crops(cal.crops(), list(cal.codes), f"calibration:{cal.photo_name}") + learnt
        store.create(ts.name, meta, ts.prototypes_npz(), examples, classifier_id(), replace=current is not None)
        return store.path
    try:
        return _write_set(ts, cal, base, folder)
    except OSError as exc:
        raise TileSetError(f"cannot save tile set {ts.name!r} in {base}: {exc.strerror or exc}; "
                           "free some space or give a writable folder with --into") from None


def _calibration_meta(ts: TileSet, cal: Calibration) -> dict[str, Any]:
    """What a set's description says of its calibration."""
    return {"photo": cal.photo_name, "layout": cal.layout, "tiles": len(cal.codes), "copies_per_tile": JITTER_COPIES,
            "looks_like": ts.looks_like, "classifier_sha256": load_model("classifier").meta["sha256"]}


def set_destination(name: str, out_dir: Path | None = None, replace: bool = False) -> tuple[Path, Path]:
    """Where a calibration will keep the set (the history file twice, or the folder of sets and the set's own folder),
    checked before any photo is read."""
    check_name(name)
    if out_dir is None:
        if (builtin_tileset_dir() / name).is_dir():
            raise TileSetError(f"{name!r} is a built-in tile set; choose another name for yours (e.g. {name}-mine)")
        store = player_store()
        current = _read_stored(store, name) if name in store.names() else None
        if current is not None and current.calibrated and not replace:
            raise TileSetError(f"a tile set named {name!r} already exists; choose another name, or add --replace to calibrate it again")
        return store.path, store.path
    base = out_dir
    if base.exists() and not base.is_dir():
        raise TileSetError(f"--into {base} is a file; give the folder that holds tile sets")
    if not base.exists() and not base.parent.is_dir():
        raise TileSetError(f"--into {base}: its parent folder {base.parent} does not exist; create it or give another folder")
    folder = base / name
    if folder.exists() and not folder.is_dir():
        raise TileSetError(f"{folder} is a file, not a tile set's folder: move it away or choose another name "
                           "(--replace never overwrites a file)")
    if (folder / "prototypes.npz").exists() and not replace:
        raise TileSetError(f"a tile set named {name!r} already exists in {base}; "
                           "choose another name, or add --replace to calibrate it again")
    return base, folder


def _write_set(ts: TileSet, cal: Calibration, base: Path, folder: Path) -> Path:
    """Write the set's files beside ``folder`` first, then move them in: a failed write leaves the old set as it was.
    What the player taught the set stays; an earlier calibration's tiles give way to this one's."""
    learnt = Examples.empty()
    if (folder / EXAMPLES_FILE).exists():
        kept = _read_folder(ts.name, folder, writable=True).examples or Examples.empty()
        learnt = kept.without(np.array([not s.startswith("calibration:") for s in kept.sources], bool))
    examples = Examples.of_crops(cal.crops(), list(cal.codes), f"calibration:{cal.photo_name}") + learnt
    base.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{ts.name}-", dir=base))
    try:
        ts.save(tmp, _calibration_meta(ts, cal))
        examples.save(tmp)
        save_meta(tmp, ts.name, examples, json.loads((tmp / "tileset.json").read_text()))
        if folder.is_dir():  # replace the set's own files; anything else kept there (a source/ folder) stays
            for part in tmp.iterdir():
                os.replace(part, folder / part.name)
        else:
            tmp.rename(folder)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
    return folder


def calibrate(name: str, photo: str | Path, layout_path: str | Path, out_dir: Path | None = None, seed: int = 0,
              replace: bool = False) -> tuple[TileSet, Path]:
    """Learn a set from a photo of one of each tile in the layout's rows, and save it."""
    set_destination(name, out_dir, replace)
    layout = read_layout(layout_path)
    cal = read_calibration(photo, layout, Path(photo).name)
    ts = learn(name, cal, seed)
    return ts, save_tileset(ts, cal, out_dir, replace)
