"""Calibration round trip, and the built-in 1922 set reading its own complete-set photo."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pungchow.cli import main as cli_main
from recognizer.classify import classify
from recognizer.errors import TileSetError
from recognizer.image import load_photo
from recognizer.pipeline import recognize
from recognizer.tileset import builtin_tileset_dir, calibrate, layout_boxes, list_tilesets, load_tileset, photo_rows, read_layout

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


def test_1922_complete_set_is_mostly_read() -> None:
    """Measured with the shipped models: all 144 found, 140 read right (see models/MODEL_CARD.md)."""
    found, right, wrong = read_1922_complete_set()
    assert found == 144
    assert right >= 139, wrong


@pytest.mark.xfail(reason="issue 6 target not reached: 4 of the 144 tiles of the 1922 photo are misread (RD, GD and WD differ only by grey level; one mandarin letter; MODEL_CARD.md); "
                          "strict, so reaching it shows up here", strict=True)
def test_1922_complete_set_is_read_tile_by_tile() -> None:
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
    with pytest.raises(TileSetError, match="rows hold"):
        calibrate("x", SOURCE / "illustration_1.jpg", wrong)
    with pytest.raises(TileSetError, match="tileset add"):
        load_tileset("no-such-set")
