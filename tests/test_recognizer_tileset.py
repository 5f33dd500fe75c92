"""Calibration round trip, and the built-in 1922 set reading its own complete-set photo."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from pungchow.cli import main as cli_main
from recognizer.assignment import assign
from recognizer.blas import _openblas, one_blas_thread
from recognizer.classify import XX_INDEX, classify
from recognizer.errors import TileSetError
from recognizer.image import load_photo
from recognizer.labels import CLASSES
from recognizer.pipeline import recognize
from recognizer.tileset import (
    TileSet,
    builtin_tileset_dir,
    calibrate,
    complete_set_counts,
    in_the_rows_of,
    layout_boxes,
    list_tilesets,
    load_tileset,
    photo_rows,
    read_layout,
)
from scoring.tiles import PLAYING_CODES

SOURCE = builtin_tileset_dir() / "pungchow-1922" / "source"
FIXTURE = Path(__file__).parent / "fixtures" / "photos" / "illustration_2.expected.json"


def test_builtin_1922_set_is_listed() -> None:
    assert "pungchow-1922" in list_tilesets()


def read_1922_complete_set() -> tuple[int, int, list[str]]:
    """(tiles found at their place, tiles read right, what was misread) on Harr's complete-set photo."""
    want = json.loads(FIXTURE.read_text())["tiles"]
    d = recognize(SOURCE / "illustration_2.jpg", "pungchow-1922").detections
    found, right, wrong = 0, 0, []
    for tile in want:
        dist = np.linalg.norm(d.centres - np.array(tile["centre"]), axis=1)
        k = int(dist.argmin())
        if dist[k] < 10:
            found += 1
            right += d.code(k) == tile["code"]
            if d.code(k) != tile["code"]:
                wrong.append(f"{tile['code']} read as {d.code(k)}")
    return found, right, wrong


def test_1922_complete_set_is_read_tile_by_tile() -> None:
    """Illustration 2, read with the set calibrated from illustration 1 alone: every one of the 144 tiles."""
    found, right, wrong = read_1922_complete_set()
    assert (found, right) == (144, 144), wrong


def test_calibration_round_trip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUNGCHOW_HOME", str(tmp_path))
    layout = read_layout(SOURCE / "layout.json")
    assert cli_main(["tileset", "add", "my-set", str(SOURCE / "illustration_1.jpg"), "--layout", str(SOURCE / "layout.json")]) == 0
    ts = load_tileset("my-set")
    assert sorted(ts.codes) == sorted(c for row in layout for c in row)
    rgb = load_photo(SOURCE / "illustration_1.jpg")
    tiles = classify(rgb, layout_boxes(rgb, layout), ts, drop_not_tiles=False)
    rows = [[tiles.code(k) for k in row] for row in photo_rows(tiles)]
    assert rows == layout


def test_bad_layout_and_unknown_set_say_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUNGCHOW_HOME", str(tmp_path))
    bad = tmp_path / "layout.json"
    bad.write_text(json.dumps({"rows": [["1D", "ZZ"]]}))
    with pytest.raises(TileSetError, match="unknown tile codes"):
        calibrate("x", SOURCE / "illustration_1.jpg", bad)
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"rows": [["1D", "2D", "3D"], ["4D", "5D", "6D"], ["7D", "8D", "9D"], ["1C", "2C", "3C"]]}))
    with pytest.raises(TileSetError, match="the reader found rows of"):
        calibrate("x", SOURCE / "illustration_1.jpg", wrong)
    with pytest.raises(TileSetError, match="tileset add"):
        load_tileset("no-such-set")


def test_assignment_is_the_cheapest() -> None:
    rng = np.random.default_rng(3)
    for n in (1, 2, 3, 5, 6):
        for _ in range(20):
            cost = rng.normal(size=(n, n)).round(1)
            col = assign(cost)
            assert sorted(col) == list(range(n))
            cheapest = min(sum(cost[i, p[i]] for i in range(n)) for p in itertools.permutations(range(n)))
            assert cost[np.arange(n), col].sum() == pytest.approx(cheapest)


def test_complete_set_counts() -> None:
    codes_1922 = load_tileset("pungchow-1922").codes
    counts = complete_set_counts(codes_1922)
    assert counts is not None and counts.sum() == 144
    assert {c: int(n) for c, n in zip(codes_1922, counts) if c.endswith("F")} == {"1F": 2, "2F": 2, "3F": 2, "4F": 2}
    modern = PLAYING_CODES + tuple(f"{n}{s}" for s in "FS" for n in range(1, 5))
    assert complete_set_counts(modern).tolist() == [4] * 34 + [1] * 8  # type: ignore[union-attr]
    assert complete_set_counts(PLAYING_CODES).sum() == 136  # type: ignore[union-attr]
    assert complete_set_counts(PLAYING_CODES[:-1]) is None  # a set without every playing face
    assert complete_set_counts(PLAYING_CODES + ("1F", "2F", "3F")) is None  # 8 bonus tiles cannot share among 3


def bare_set(codes: tuple[str, ...]) -> TileSet:
    empty = np.zeros((0, 1), np.float32)
    return TileSet("bare", codes, np.zeros(0, np.int16), empty, empty, np.zeros(0, np.float32), np.zeros((len(codes), 2, 2), np.float32))


def test_complete_set_reading_gives_each_face_its_count() -> None:
    """136 tiles of a set without bonus faces, one 1B read as 2B (its second best): the assignment moves it back,
    since 2B is then read five times; a photo with far fewer tiles, face-down tiles or counts far from a set's is left as read."""
    ts = bare_set(PLAYING_CODES)
    truth = np.repeat(np.arange(34), 4)
    scores = np.full((136, 34), -5.0)
    scores[np.arange(136), truth] = 0.0
    scores[0, 1] = 0.5  # tile 0 is a 1B that looks a little more like 2B
    probs = np.full((136, len(CLASSES)), 0.001)
    read = truth.copy()
    read[0] = 1
    probs[np.arange(136), [CLASSES.index(PLAYING_CODES[k]) for k in read]] = 0.9
    fixed = ts.as_complete_set(probs, scores)
    assert [CLASSES[k] for k in fixed.argmax(1)] == [PLAYING_CODES[k] for k in truth]
    assert fixed[0].max() == pytest.approx(0.9)  # the set's confidence stays, the face changes
    missed = ts.as_complete_set(probs[:-3], scores[:-3])  # three tiles missed: still the whole set, the 1B still moves back
    assert [CLASSES[k] for k in missed.argmax(1)] == [PLAYING_CODES[k] for k in truth[:-3]]
    assert (ts.as_complete_set(probs[:120], scores[:120]) == probs[:120]).all()  # 120 tiles: not evidently the whole set
    down = probs.copy()
    down[5:, :] = 0.001
    down[5:, XX_INDEX] = 0.9
    assert (ts.as_complete_set(down, scores) == down).all()  # face-down tiles: not a complete set face up
    piled = np.full_like(probs, 0.001)
    piled[:, CLASSES.index("1B")] = 0.9  # 136 tiles all read as 1B: far from a complete set's counts
    assert (ts.as_complete_set(piled, scores) == piled).all()


def test_one_blas_thread_puts_the_count_back() -> None:
    calls = _openblas()
    if calls is None:
        pytest.skip("NumPy's OpenBLAS thread calls are not reachable here; one_blas_thread changes nothing")
    get, _ = calls
    before = get()
    with one_blas_thread():
        assert get() == 1
    assert get() == before


def test_a_refitted_look_keeps_the_rows_of_tiles_found_and_not_the_captions_above_and_below() -> None:
    """Held out, Harr's example 1 read with the 1922 set: the look the set's faces matched best boxed the caption over
    the page and the "In hand" under the hand, each sized as the set's tiles, and "In hand" was read as a north wind.
    The refitted boxes keep the tiles the usual reading found, and those in a row with them (a tile it missed), or in
    a column of tiles laid sideways; not the captions."""
    hand = [[12 + 45 * k, 70, 34, 44] for k in range(8)]
    found = np.array(hand[:3] + hand[4:], np.float32)  # the usual reading missed the fourth tile
    caption = [[344 + 22 * k, 0, 34, 44] for k in range(4)] + [[138, 178, 34, 44], [180, 179, 34, 44]]
    column = [[500, 60, 44, 34], [500, 96, 44, 34], [500, 132, 44, 34]]  # tiles laid sideways, one above the next
    fitted = np.array(hand + caption + column, np.float32)
    kept = in_the_rows_of(fitted, np.concatenate([found, np.array(column[:1], np.float32)]))
    assert kept[:8].all() and not kept[8:14].any() and kept[14:].all()
