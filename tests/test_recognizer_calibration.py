"""Calibration a player would use, and tile sets on photos unlike their calibration photo.

The 1922 tests need only the shipped photos; the held-out-style tests render a western set with the
data generator's renderer and skip (with the reason) where its fonts are missing.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from pungchow.cli import main as cli_main
from recognizer.classify import classify_tile_image
from recognizer.errors import TileSetError
from recognizer.image import load_photo
from recognizer.level import turned
from recognizer.pipeline import better_tileset, recognize
from recognizer.tileset import (
    Calibration,
    builtin_tileset_dir,
    calibrate,
    check_layout,
    learn,
    load_tileset,
    own_tilesets,
    photo_rows,
    read_calibration,
    read_layout,
    save_tileset,
)

SOURCE = builtin_tileset_dir() / "pungchow-1922" / "source"
FIXTURES = Path(__file__).parent / "fixtures" / "photos"
LAYOUT_1922 = SOURCE / "layout.json"


# --- the 1922 set on a photo unlike its calibration photo ----------------------------------------

def captioned(rgb: np.ndarray, scale: float, pad: int = 60) -> np.ndarray:
    """The photo rescaled and set on a page with printed captions, figure labels and dot rows beside the tiles."""
    img = cv2.resize(rgb, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    img = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(245, 245, 240))
    h, w = img.shape[:2]
    for k, y in enumerate(range(pad + 20, h - pad, int(80 * scale) + 10)):
        cv2.putText(img, f"Fig {k + 1}. ABCDEFGH", (4, y), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (30, 30, 30), 1)
        cv2.putText(img, "o o o : . : 1 2 3", (w - pad + 2, y), cv2.FONT_HERSHEY_PLAIN, 0.7, (30, 30, 30), 1)
    ink = (20, 20, 20)
    cv2.putText(img, "Illustration No. 2. A complete set of Pung Chow tiles", (pad, pad - 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, ink, 1)
    cv2.putText(img, "The bamboos, the dots, the characters and the honours", (pad, h - pad + 30), cv2.FONT_HERSHEY_SIMPLEX, 0.6, ink, 1)
    return img


def read_at_places(rgb: np.ndarray, tileset: str | None, scale: float, pad: int) -> tuple[int, int, int]:
    """(tiles found at their place, read right, boxes on the captions) on a captioned copy of illustration 2."""
    want = json.loads((FIXTURES / "illustration_2.expected.json").read_text())["tiles"]
    d = recognize(rgb, tileset).detections
    found = right = 0
    for tile in want:
        dist = np.linalg.norm(d.centres - (np.array(tile["centre"]) * scale + pad), axis=1)
        k = int(dist.argmin())
        if dist[k] < 10 * scale:
            found += 1
            right += d.code(k) == tile["code"]
    h, w = rgb.shape[:2]
    c = d.centres
    on_captions = int(((c[:, 0] < pad) | (c[:, 0] > w - pad) | (c[:, 1] < pad) | (c[:, 1] > h - pad)).sum())
    return found, right, on_captions


@pytest.mark.parametrize("scale, found_at_least, at_least", [(1.6, 137, 135), (2.2, 142, 140)])
def test_1922_set_reads_larger_tiles_beside_printed_text(scale: float, found_at_least: int, at_least: int) -> None:
    """Illustration 2's tiles are 29 px wide, the calibration photo's 43: here 47 and 65 px, with captions all round.

    Measured with the classifier real15 + real16 + real17 averaged, the det7 + det9 detector (second look up to 800 px)
    and the bonus8 + bonus9 reader (bonus8 alone: the same), tiles askew read upright too: 1.6x 138 found, 136 right;
    2.2x 142 found, 140 right; without the set 82 and 89 right. The det7 detector: 1.6x 135 found, 129 right; 2.2x 142
    and 140; without the set 82 and 86 (real17 alone: 130 and 139, without the set 81 and 85). real15 + real16: 129 and
    140, without the set 80 and 84 (real15: 81 and 84, real16: 76 and 85). real11: 128 and 140, without the set 80 and 83 (real13:
    74 and 82). real12, and real11 + real12 averaged: 138 at 2.2x (two of the set's red and green dragons swapped).
    real9 + real10: 128 and 140, without the set 79 and 86; real5: 135/128 and 143/141, without the set 79 and 84;
    real3: 129 and 141 with the set, 140 at 2.2x before the reader's say after a set depended on its seeing a flower
    at all. (The real2 classifier with the earlier detector: 140/134 and 143/141 with the set, 56 and 55 without: the
    detector fitted to the real-set families finds 5 fewer of the 47 px tiles beside captions.)
    """
    rgb = captioned(load_photo(SOURCE / "illustration_2.jpg"), scale)
    found, right, on_captions = read_at_places(rgb, "pungchow-1922", scale, 60)
    assert on_captions == 0
    assert found >= found_at_least
    assert right >= at_least
    _, plain_right, _ = read_at_places(rgb, None, scale, 60)
    assert right > plain_right


def test_a_photo_of_a_calibrated_set_is_offered_that_set() -> None:
    rgb = load_photo(SOURCE / "illustration_2.jpg")
    offer = better_tileset(rgb, recognize(rgb))
    assert offer is not None and offer.name == "pungchow-1922"
    assert "--tileset pungchow-1922" in str(offer)
    assert better_tileset(rgb, recognize(rgb, "pungchow-1922"), "pungchow-1922") is None
    other = load_photo(FIXTURES / "leo-058.jpg")
    assert better_tileset(other, recognize(other)) is None
    assert better_tileset(rgb).name == "pungchow-1922"  # from the detector's boxes alone, as the page asks


def test_a_slanted_photo_of_a_calibrated_set_is_offered_that_set() -> None:
    """The offer reads the photo level, as ``recognize`` does: turned 30 degrees, the set's faces matched the
    upright boxes round its slanted tiles at 0.43, under the set's bar, and no set was offered."""
    rgb = turned(load_photo(SOURCE / "illustration_2.jpg"), 30.0)[0]
    result = recognize(rgb)
    assert result.turned != 0.0
    for offer in (better_tileset(rgb), better_tileset(rgb, result)):
        assert offer is not None and offer.name == "pungchow-1922"


# --- classify frames a tile image as training did ------------------------------------------------

def tile_crops(margin: float = 0.0) -> list[tuple[np.ndarray, str]]:
    """Crops of the labelled tiles of the committed photos: tight, or with ``margin`` (a share of the tile's long
    side) of the photo round them, neighbouring tiles and table included, as a person crops loosely."""
    expected = json.loads((FIXTURES / "expected.json").read_text())
    out = []
    for name, entry in expected.items():
        if not (FIXTURES / name).is_file():
            continue
        rgb = load_photo(FIXTURES / name)
        for tile in entry["tiles"]:
            x, y, w, h = (round(v) for v in tile["bbox"])
            m = round(margin * max(w, h))
            crop = np.ascontiguousarray(rgb[max(0, y - m):y + h + m, max(0, x - m):x + w + m])
            if min(crop.shape[:2]) >= 12:
                out.append((crop, tile["code"]))
    return out


def test_classify_reads_a_tight_crop_as_well_as_the_same_crop_on_a_plain_mat() -> None:
    crops = tile_crops()
    assert len(crops) >= 40
    tight = mat = 0
    for crop, code in crops:
        h, w = crop.shape[:2]
        framed = cv2.copyMakeBorder(crop, h // 8, h // 8, w // 8, w // 8, cv2.BORDER_CONSTANT, value=(70, 110, 80))
        tight += classify_tile_image(crop).code(0) == code
        mat += classify_tile_image(framed).code(0) == code
    assert tight >= mat - 1, (tight, mat, len(crops))
    assert tight >= 0.85 * len(crops)


def test_classify_finds_the_tile_in_a_loose_crop_of_the_photo() -> None:
    """A quarter of the tile's size of table and neighbours on each side: before the tile image was read at several
    framings, these read as "not a tile" or as a neighbour (leo's real tiles cut so: 0.39 right). The reader trained
    on real tiles reads 52 of the 57 loose and 56 tight (the earlier one, trained on renders and leo: 56 and 56); taught
    that things beside a hand are not tiles (real-lite0-r4), 51 and 56; with 7-bit weights, 50 and 56."""
    tight = sum(classify_tile_image(crop).code(0) == code for crop, code in tile_crops())
    loose_crops = tile_crops(margin=0.25)
    loose = sum(classify_tile_image(crop).code(0) == code for crop, code in loose_crops)
    assert loose >= 0.85 * len(loose_crops), (loose, len(loose_crops))
    assert loose >= tight - 0.12 * len(loose_crops), (loose, tight)


def test_classify_command_names_a_tile_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    crop, code = tile_crops()[0]
    path = tmp_path / "tile.png"
    cv2.imwrite(str(path), cv2.cvtColor(crop, cv2.COLOR_RGB2BGR))
    assert cli_main(["classify", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["code"] == code


def test_classify_command_says_a_tile_image_is_too_small(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A few pixels cannot show a tile: the command names the file and what to do, and keeps no traceback."""
    crop, _ = tile_crops()[0]
    good, tiny = tmp_path / "tile.png", tmp_path / "speck.png"
    cv2.imwrite(str(good), cv2.cvtColor(crop, cv2.COLOR_RGB2BGR))
    cv2.imwrite(str(tiny), np.full((1, 1, 3), 200, np.uint8))
    assert cli_main(["classify", str(good), str(tiny)]) == 2
    err = capsys.readouterr().err
    assert str(tiny) in err and "1x1 pixels, too small to show a tile" in err and "crop the whole tile" in err


# --- calibration refuses what it cannot learn from -----------------------------------------------

@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PUNGCHOW_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def layout_file(tmp_path: Path, rows: list[list[str]]) -> Path:
    path = tmp_path / "layout.json"
    path.write_text(json.dumps({"rows": rows}))
    return path


def test_duplicate_codes_and_too_few_tiles_are_refused(tmp_path: Path) -> None:
    with pytest.raises(TileSetError, match="more than once"):
        check_layout([["1D", "2D", "3D", "4D", "5D"], ["1D", "6D", "7D", "8D", "9D"]])
    with pytest.raises(TileSetError, match="at least"):
        read_layout(layout_file(tmp_path, [["1D", "2D", "3D"]]))
    bad = tmp_path / "bad.json"
    bad.write_text("rows: 1D")
    with pytest.raises(TileSetError, match="JSON"):
        read_layout(bad)


def test_a_layout_the_photo_does_not_hold_is_refused(tmp_path: Path) -> None:
    """Illustration 1 has rows of 9, 9, 9, 7 and 4; a layout of rows of 5 does not fit it."""
    rows = [["1D", "2D", "3D", "4D", "5D"], ["6D", "7D", "8D", "9D", "1C"]]
    with pytest.raises(TileSetError, match="the reader found rows of"):
        calibrate("x", SOURCE / "illustration_1.jpg", layout_file(tmp_path, rows))


def test_two_rows_of_five_are_refused_when_the_layout_wants_rows_of_nine(tmp_path: Path) -> None:
    rgb = load_photo(SOURCE / "illustration_1.jpg")
    cal = read_calibration(rgb, read_layout(LAYOUT_1922))
    x0, y0 = cal.boxes[0, :2].astype(int)
    x1, y1 = (cal.boxes[13, :2] + cal.boxes[13, 2:]).astype(int)  # the first five tiles of the first two rows
    two_rows = np.ascontiguousarray(rgb[max(0, y0 - 10):y1 + 10, max(0, x0 - 10):x1 + 10])
    rows = read_layout(LAYOUT_1922)[:2]
    with pytest.raises(TileSetError, match="the reader found rows of"):
        read_calibration(two_rows, rows)


def test_into_a_file_a_missing_folder_or_over_a_set_is_refused(tmp_path: Path, home: Path) -> None:
    photo = str(SOURCE / "illustration_1.jpg")
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    assert cli_main(["tileset", "add", "mine", photo, "--layout", str(LAYOUT_1922), "--into", str(a_file)]) == 2
    assert cli_main(["tileset", "add", "mine", photo, "--layout", str(LAYOUT_1922), "--into", str(tmp_path / "no" / "such")]) == 2
    assert cli_main(["tileset", "add", "mine", photo, "--layout", str(LAYOUT_1922)]) == 0
    before = kept_prototypes(home, "mine")
    assert cli_main(["tileset", "add", "mine", photo, "--layout", str(LAYOUT_1922)]) == 2
    assert kept_prototypes(home, "mine") == before
    assert cli_main(["tileset", "add", "mine", photo, "--layout", str(LAYOUT_1922), "--replace"]) == 0
    assert cli_main(["tileset", "add", "pungchow-1922", photo, "--layout", str(LAYOUT_1922)]) == 2
    assert own_tilesets() == ["mine"] and not (home / "tilesets").exists()


def kept_prototypes(home: Path, name: str) -> bytes:
    """A calibrated set's prototypes as the player's history file keeps them."""
    with sqlite3.connect(home / "history.sqlite3") as db:
        return bytes(db.execute("SELECT prototypes FROM tilesets WHERE name = ?", (name,)).fetchone()[0])


def test_a_user_set_never_shadows_a_built_in_one(home: Path) -> None:
    folder = home / "tilesets" / "pungchow-1922"
    folder.mkdir(parents=True)
    (folder / "tileset.json").write_text("{}")
    assert load_tileset("pungchow-1922").codes == load_tileset("pungchow-1922").codes
    assert len(load_tileset("pungchow-1922").codes) == 38


@pytest.mark.parametrize("name", ["../pungchow-1922", "/etc", "a/b", "", ".hidden"])
def test_set_names_with_path_parts_are_refused(name: str) -> None:
    with pytest.raises(TileSetError, match="tile set name"):
        load_tileset(name)


def test_damaged_set_files_are_clear_errors(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ts = learn("broken", read_calibration(SOURCE / "illustration_1.jpg", read_layout(LAYOUT_1922)))
    cal = read_calibration(SOURCE / "illustration_1.jpg", read_layout(LAYOUT_1922))
    history = save_tileset(ts, cal)
    with sqlite3.connect(history) as db:
        db.execute("UPDATE tilesets SET prototypes = substr(prototypes, 1, 200), changes = changes + 1")
    with pytest.raises(TileSetError, match="damaged or cut short"):
        load_tileset("broken")
    with sqlite3.connect(history) as db:
        db.execute("UPDATE tilesets SET meta = 'not json', changes = changes + 1")
    assert cli_main(["recognize", str(SOURCE / "illustration_2.jpg"), "--tileset", "broken"]) == 2
    assert "damaged" in capsys.readouterr().err


def test_a_wrong_assignment_can_be_fixed_before_saving() -> None:
    cal = read_calibration(SOURCE / "illustration_1.jpg", read_layout(LAYOUT_1922))
    fixed = cal.with_code(0, "2D")
    assert fixed.codes[:2] == ("2D", "1D") and sorted(fixed.codes) == sorted(cal.codes)
    assert cal.crops().shape[0] == len(cal.codes) == 38
    with pytest.raises(TileSetError, match="not a tile code"):
        cal.with_code(0, "ZZ")


# --- a style held out of training: calibrate from one photo, read others --------------------------

def western_calibration_photo(rows: list[list[str]], seed: int) -> np.ndarray:
    """One of each face of the held-out western style, in rows on a table, rendered as a photo."""
    scene = pytest.importorskip("pungchow_data.scene", reason="the data generator is not installed")
    from pungchow_data.faces import STYLES

    def rows_layout(rng: np.random.Generator, style: object) -> tuple[object, dict[str, float]]:
        w = 27.0
        h, d, gap = w * 1.35, w * STYLES["western"].thickness, w * 0.35
        layout = scene.Scene()
        layout.hands.append(scene.hidden_hand(13))
        for r, row in enumerate(rows):
            for c, code in enumerate(row):
                layout.bodies.append(scene._body(code, np.array([c * (w + gap), -r * (h + 2.2 * gap)]), 0.0, w, h, d, False, None))
        return layout, {"tilt": 8.0, "azimuth": 0.0, "distance": 1.5, "roll": 0.0, "fill": 0.9}

    original = scene.random_layout
    scene.random_layout = rows_layout
    try:
        return scene.render_scene(np.random.default_rng(seed), STYLES["western"], "calibration").image
    except OSError as exc:  # a missing font
        pytest.skip(f"the renderer cannot draw the western style here: {exc}")
    finally:
        scene.random_layout = original


WESTERN_ROWS = [["1B", "2B", "3B", "4B", "5B", "6B", "7B", "8B", "9B"], ["1C", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"],
                ["1D", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D"], ["EW", "SW", "WW", "NW", "RD", "GD", "WD"],
                ["1F", "2F", "3F", "4F", "1S", "2S", "3S", "4S"]]


@pytest.fixture(scope="module")
def western_set(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A western set calibrated from one rendered photo, in a throw-away home."""
    home = tmp_path_factory.mktemp("home")
    photo = tmp_path_factory.mktemp("photo") / "western.jpg"
    cv2.imwrite(str(photo), cv2.cvtColor(western_calibration_photo(WESTERN_ROWS, 0), cv2.COLOR_RGB2BGR))
    layout = photo.parent / "layout.json"
    layout.write_text(json.dumps({"rows": WESTERN_ROWS}))
    calibrate("western-test", photo, layout, out_dir=home)
    return str(home)


def read_rows(rgb: np.ndarray, tileset: str | None) -> int:
    d = recognize(rgb, tileset).detections
    want = [row[::-1] for row in WESTERN_ROWS[::-1]]
    got = [[d.code(k) for k in row] for row in photo_rows(d)]
    return sum(a == b for g, w in zip(got, want) for a, b in zip(g, w))


def test_a_held_out_style_reads_better_after_one_calibration_photo(western_set: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Other light, other arrangement (rows reversed), other photo size. Measured: 42 of 42 with the set, 40-41 without
    (before the bonus reader: 37-40 with the set, 33-34 without; the set named flowers by their paintings, 4S as 3S)."""
    monkeypatch.setenv("PUNGCHOW_HOME", western_set)
    monkeypatch.setattr("recognizer.tileset.user_tileset_dir", lambda: Path(western_set))
    for seed in (1, 2):
        rgb = western_calibration_photo([row[::-1] for row in WESTERN_ROWS[::-1]], seed)
        with_set, without = read_rows(rgb, "western-test"), read_rows(rgb, None)
        assert with_set >= 35
        assert with_set >= without


def test_a_held_out_style_set_does_not_spoil_scene_photos(western_set: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hands on tables, tilted and turned: the set may help or not, it must not make the reading worse."""
    monkeypatch.setattr("recognizer.tileset.user_tileset_dir", lambda: Path(western_set))
    from recognizer.evaluate import evaluate

    out = tmp_path / "western"
    done = subprocess.run([sys.executable, "-m", "pungchow", "data", "generate", str(out), "--count", "6", "--seed", "31",
                           "--styles", "western", "--split", "test", "--workers", "1"], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"the renderer cannot draw the western style here: {done.stderr.strip()[-200:]}")
    plain = evaluate(out, "test")
    with_set = evaluate(out, "test", "western-test")
    assert with_set["f1"] >= plain["f1"] - 0.03, (with_set["f1"], plain["f1"])


def test_reversed_layout_is_refused(tmp_path: Path) -> None:
    """Three rows of nine listed bottom to top and right to left: the usual faces read the layout backwards."""
    rows = WESTERN_ROWS[:3]
    rgb = western_calibration_photo(rows, 0)
    read_calibration(rgb, rows)
    with pytest.raises(TileSetError, match="reversed"):
        read_calibration(rgb, [row[::-1] for row in rows[::-1]])


def test_calibration_is_a_value_the_page_can_show() -> None:
    cal = read_calibration(SOURCE / "illustration_1.jpg", read_layout(LAYOUT_1922))
    assert isinstance(cal, Calibration)
    assert cal.photo_name == "illustration_1.jpg"
    assert cal.boxes.shape == (38, 4)


def test_the_page_can_offer_a_set_that_fits_the_photo() -> None:
    from webapp.photos import read_photo
    from webapp.recognition import load_reader, tileset_offer

    photo = read_photo((SOURCE / "illustration_2.jpg").read_bytes(), "illustration_2.jpg")
    reader = load_reader()
    assert "pungchow-1922" in (tileset_offer(reader, photo) or "")
    assert tileset_offer(reader, photo, "pungchow-1922") is None


def test_the_hand_page_offers_the_set_a_photo_looks_like(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("PUNGCHOW_DB", str(tmp_path / "history.sqlite3"))
    app = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "webapp" / "app.py"), default_timeout=90)
    app.run()
    app.file_uploader(key="w_upload").set_value(("illustration_2.jpg", (SOURCE / "illustration_2.jpg").read_bytes(), "image/jpeg")).run()
    assert not app.exception
    assert any("pungchow-1922" in box.value.replace("\\", "") for box in app.info)  # as rendered
