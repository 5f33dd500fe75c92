"""Each input limit and check of issue 15, one test apiece: the JSON loader, photos, model sidecars,
tables, options given through the API, and the skips of a fresh machine."""

from __future__ import annotations

import io
import json
import os
import shutil
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from recognizer.errors import BadPhotoError, ModelFileError
from recognizer.image import MAX_FULL_DECODE_PIXELS, _whole_jpeg, exif_orientation, load_photo
from recognizer.models import load_model, models_dir, sha256
from scoring.api import Hand, score_hand
from scoring.errors import PungChowError
from scoring.jsonfile import MAX_DEPTH, JsonInputError, load_json, load_json_file
from scoring.settle.books import settle
from scoring.settle.model import SettlementError
from scoring.settle.tablefile import table_from_dict

TABLES = Path(__file__).parent / "tables"
SAMPLE = Path(__file__).resolve().parents[1] / "recognizer" / "samples" / "finished-hand.jpg"
HAND = "7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]"


# --- the JSON loader -----------------------------------------------------------------------------

def test_depth_is_bounded_and_brackets_in_strings_do_not_count() -> None:
    assert load_json('{"a": "[[[[{{{{"}', "hand") == {"a": "[[[[{{{{"}
    with pytest.raises(JsonInputError, match="nested deeper than the 64 levels"):
        load_json("[" * 100_000 + "]" * 100_000, "hand")
    assert load_json("[" * MAX_DEPTH + "]" * MAX_DEPTH, "hand") is not None


@pytest.mark.parametrize("text, words", [
    ('{"x": ' + "7" * 5000 + "}", "5000 digits"),
    ('{"x": NaN}', "NaN is not a JSON number"),
    ('{"x": -Infinity}', "-Infinity is not a JSON number"),
    ('{"x": 1e400}', "too big"),
    ("{", "not valid JSON"),
    (b"\xff\xfe{}", "not UTF-8"),
])
def test_values_json_cannot_hold_sensibly_are_refused_with_a_message(text: str | bytes, words: str) -> None:
    with pytest.raises(JsonInputError, match=words):
        load_json(text, "table")


def test_a_bom_is_accepted_and_size_is_checked_before_reading(tmp_path: Path) -> None:
    assert load_json(b"\xef\xbb\xbf[1]", "hand") == [1]
    assert load_json("\ufeff[1]", "hand") == [1]
    big = tmp_path / "big.json"
    big.write_text("[" + "1," * 600 + "1]")
    with pytest.raises(JsonInputError, match="more than the 1,000 we read"):
        load_json_file(big, "layout", max_bytes=1000)


# --- photos --------------------------------------------------------------------------------------

def test_a_jpeg_with_a_trailer_after_its_end_is_whole_and_a_cut_one_is_not() -> None:
    data = SAMPLE.read_bytes()
    assert _whole_jpeg(data) and _whole_jpeg(data + b"MotionPhoto_Data" + bytes(50_000))
    assert not _whole_jpeg(data[: len(data) // 2])
    progressive = io.BytesIO()
    Image.new("RGB", (300, 200), (200, 10, 10)).save(progressive, "JPEG", progressive=True)
    assert _whole_jpeg(progressive.getvalue()) and not _whole_jpeg(progressive.getvalue()[:-200])
    assert load_photo(data + b"\x00" * 4096).shape[2] == 3


def test_exif_orientation_stored_as_text_or_junk_reads_as_a_number() -> None:
    assert [exif_orientation(v) for v in (6, "6", "8\x00", b"3", (5,), "top-left", None, 0, 42)] == [6, 6, 8, 3, 5, 1, 1, 1, 1]


def _png_claiming(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 16, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(64))) + chunk(b"IEND", b""))


def test_a_big_png_is_refused_from_its_header_before_any_pixel_is_decoded() -> None:
    side = int(MAX_FULL_DECODE_PIXELS ** 0.5) + 10
    with pytest.raises(BadPhotoError, match=f"{side}x{side} PNG"):
        load_photo(_png_claiming(side, side))


def test_a_16_bit_rgba_png_is_read_as_8_bit_rgb() -> None:
    rgba = np.zeros((300, 400, 4), np.uint16)
    rgba[..., 2] = 65535
    rgba[..., 3] = 65535
    rgb = load_photo(cv2.imencode(".png", rgba)[1].tobytes())
    assert rgb.dtype == np.uint8 and rgb.shape == (300, 400, 3) and tuple(rgb[0, 0]) == (255, 0, 0)


def test_a_fifo_and_a_device_are_named_for_what_they_are(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.jpg")
    (tmp_path / "zero.jpg").symlink_to("/dev/zero")
    for name in ("pipe.jpg", "zero.jpg"):
        with pytest.raises(BadPhotoError, match="not a regular file"):
            load_photo(tmp_path / name)


# --- model sidecars ------------------------------------------------------------------------------

def _copied_models(tmp_path: Path) -> Path:
    for name in ("classifier.onnx", "classifier.json"):
        shutil.copy(models_dir() / name, tmp_path / name)
    return tmp_path


def test_a_sidecar_holding_a_list_or_not_utf8_is_refused(tmp_path: Path) -> None:
    folder = _copied_models(tmp_path)
    (folder / "classifier.json").write_text("[1, 2]")
    with pytest.raises(ModelFileError, match="holds a list"):
        load_model.__wrapped__("classifier", str(folder))
    (folder / "classifier.json").write_bytes(b"\xff\xfe\x00{")
    with pytest.raises(ModelFileError, match="not UTF-8"):
        load_model.__wrapped__("classifier", str(folder))


def test_a_truncated_model_whose_sidecar_sha256_matches_it_is_refused(tmp_path: Path) -> None:
    folder = _copied_models(tmp_path)
    onnx = folder / "classifier.onnx"
    onnx.write_bytes(onnx.read_bytes()[:5000])
    meta = json.loads((folder / "classifier.json").read_text())
    (folder / "classifier.json").write_text(json.dumps({**meta, "sha256": sha256(onnx)}))
    with pytest.raises(ModelFileError, match="not a model onnxruntime can load"):
        load_model.__wrapped__("classifier", str(folder))


# --- tables and options --------------------------------------------------------------------------

def _table() -> dict:
    return json.loads((TABLES / "hands-harr-1922.json").read_text())


def test_six_red_dragons_across_two_hands_do_not_settle() -> None:
    table = _table()
    table["players"][2]["hand"]["melds"][0]["tiles"] = ["RD"] * 3
    with pytest.raises(SettlementError, match="6 of RD"):
        settle(table_from_dict(table))  # checked where the CLI and the page both settle


def test_hands_of_one_deal_agree_on_the_prevailing_wind() -> None:
    table = _table()
    table["players"][3]["hand"]["prevailing_wind"] = "W"
    with pytest.raises(SettlementError, match="prevailing wind"):
        settle(table_from_dict(table))  # checked where the CLI and the page both settle


@pytest.mark.parametrize("limit", [True, 10.5, float("nan"), [1], 0, -3, "500"])
def test_a_table_limit_is_a_whole_number_of_at_least_one(limit: object) -> None:
    table = {**_table(), "rules": "harr-1922-limit", "limit": limit}
    with pytest.raises(SettlementError, match="limit"):
        table_from_dict(table)
    if limit == "500":
        return  # as an option, text is read as the command line reads it: "500" is 500
    options = {**_table(), "rules": "harr-1922-limit", "options": {"limit": limit}}
    with pytest.raises(SettlementError, match="options"):
        table_from_dict(options)


def test_a_player_named_after_a_seat_letter_is_found_by_name() -> None:
    table = table_from_dict({"players": [
        {"name": "Ann", "seat": "E", "score": 0}, {"name": "E", "seat": "S", "score": 0},
        {"name": "Bo", "seat": "W", "score": 0}, {"name": "Cy", "seat": "N", "score": 0}],
        "incident": {"kind": "washing-the-tiles", "player": "E", "heads": 9}})
    assert table.player("E").seat == "S" and table.player("W").name == "Bo"
    settlement = settle(table)
    assert settlement.nets()["E"] > 0 and settlement.nets()["Ann"] < 0


@pytest.mark.parametrize("limit", [True, 1.5, -0.5, 0, [1], float("nan")])
def test_the_api_refuses_a_limit_that_is_not_a_whole_number_of_at_least_one(limit: object) -> None:
    hand = Hand.parse(HAND, winning_tile="2D", won_by="discard")
    with pytest.raises(PungChowError, match="limit"):
        score_hand(hand, "foster-1924-mixed", {"limit": limit})
    assert score_hand(hand, "foster-1924-mixed", {"limit": 10}).total == 10


# --- a fresh machine -----------------------------------------------------------------------------

def test_skip_reasons_name_the_shared_folder_as_the_code_reads_it() -> None:
    tests = Path(__file__).parent
    text = "\n".join(p.read_text() for p in tests.glob("test_*.py") if p.name != Path(__file__).name)
    assert "/work/shared" not in text
    assert "../shared" in (tests / "test_data_leo.py").read_text()
