"""Recognition of committed photos with the real shipped models, and bad photos handled cleanly."""

from __future__ import annotations

import json
from collections import Counter
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from pungchow.cli import main as cli_main
from recognizer.detect import detect, iou_matrix
from recognizer.geometry import DETECT_LONG_SIDE
from recognizer.errors import BadPhotoError
from recognizer.image import load_photo
from recognizer.pipeline import recognize

PHOTOS = Path(__file__).parent / "fixtures" / "photos"
EXPECTED = json.loads((PHOTOS / "expected.json").read_text())


def tile_f1(result, truth: list[dict]) -> float:  # type: ignore[no-untyped-def]
    d = result.detections
    gt = np.array([t["bbox"] for t in truth], np.float32).reshape(-1, 4)
    if len(d) == 0 or len(gt) == 0:
        return 0.0
    iou = iou_matrix(d.boxes, gt)
    used, right = set(), 0
    for i in np.argsort(-d.scores):
        j = int(iou[i].argmax())
        if iou[i, j] >= 0.5 and j not in used:
            used.add(j)
            right += d.code(int(i)) == truth[j]["code"]
    p, r = right / len(d), right / len(gt)
    return 2 * p * r / max(p + r, 1e-9)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_photo_is_read(name: str) -> None:
    want = EXPECTED[name]
    res = recognize(PHOTOS / name)
    assert tile_f1(res, want["tiles"]) >= want["min_f1"]
    if want.get("hand"):
        assert str(res.hand) == want["hand"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_tile_reads_the_same_either_way_up(name: str) -> None:
    """Tiles across the table lie upside down: each crop is read both ways up, so its reading cannot depend on which."""
    from recognizer.classify import crops_of, run_classifier

    rgb = cv2.cvtColor(cv2.imread(str(PHOTOS / name)), cv2.COLOR_BGR2RGB)
    crops = crops_of(rgb, np.array([t["bbox"] for t in EXPECTED[name]["tiles"]], np.float32))
    upright, _ = run_classifier(crops)
    upside_down, _ = run_classifier(np.ascontiguousarray(crops[:, ::-1, ::-1]))
    assert len(crops) and np.abs(upright - upside_down).max() < 1e-4


@pytest.mark.parametrize("distance", [4, 6])
def test_small_tiles_in_a_big_photo_get_a_second_look(distance: int) -> None:
    """The same hand photographed from further away: tiles a quarter or a sixth the size are still found. At a sixth
    (a whole table in an 11 MP photo) the second look must go past 640 px: there it found 10 of the 14."""
    name = "synth-000042.jpg"
    image = cv2.imread(str(PHOTOS / name))
    h, w = image.shape[:2]
    middle = distance // 2
    far = np.full((distance * h, distance * w, 3), image[0, 0], np.uint8)
    far[middle * h:(middle + 1) * h, middle * w:(middle + 1) * w] = image
    truth = np.array([t["bbox"] for t in EXPECTED[name]["tiles"]], np.float32) + np.array([middle * w, middle * h, 0, 0], np.float32)
    rgb = cv2.cvtColor(far, cv2.COLOR_BGR2RGB)

    def found(dets: object) -> int:
        iou = iou_matrix(dets.boxes, truth)  # type: ignore[attr-defined]
        return int((iou.max(axis=0) >= 0.5).sum()) if len(iou) else 0

    one_look, two_looks = found(detect(rgb, long_side=DETECT_LONG_SIDE)), found(detect(rgb))
    assert two_looks >= len(truth) - 1
    assert two_looks > one_look


def test_pungchow_photo_with_no_photo_reads_and_scores_the_sample(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's first command: the shipped sample hand, every tile read, scored line by line."""
    assert cli_main(["photo"]) == 0
    out, err = capsys.readouterr()
    assert "sample photo" in err
    hand = next(line for line in out.splitlines() if line.startswith("hand: "))
    # the declared sets are listed in the order they lie on the table, which the boxes' exact places decide
    read, _, shown = hand.partition("  winning tile 9B ")
    assert sorted(read.split()) == sorted(["hand:", "5B6B7B9B9B3C4C5C", "[7D7D7D]", "(1B1B1B1B)", "1S"])
    assert shown.endswith(", set apart from the hand)"), hand
    assert "four 1B (heads, concealed)" in out and "= 112" in out


@pytest.mark.parametrize("option, words", [(["--seat", "nope"], "unknown seat wind 'nope'"),
                                           (["--rules", "nope"], "unknown rule set 'nope'"),
                                           (["--limit", "abc"], "limit takes a whole number")])
def test_a_wrong_score_option_is_named_before_the_photo_is_read(option: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["photo", *option]) == 2
    out, err = capsys.readouterr()
    assert out == "" and words in err and "\n" not in err.strip()


def test_a_folder_is_not_a_photo(tmp_path: Path) -> None:
    with pytest.raises(BadPhotoError, match="is a folder; give the path of a JPEG or PNG photo"):
        load_photo(tmp_path)


def test_every_tile_is_traceable_to_its_box() -> None:
    name = sorted(EXPECTED)[0]
    out = recognize(PHOTOS / name).to_json()
    indices = out["hand"]["trace"]["concealed"] + [k for m in out["hand"]["trace"]["melds"] for k in m] + out["hand"]["trace"]["bonus"]
    assert all(0 <= k < len(out["tiles"]) for k in indices)
    for tile in out["tiles"]:
        assert len(tile["box"]) == 4 and len(tile["top3"]) == 3 and tile["top3"][0]["code"] == tile["code"]


def _png_header_only(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b"")


@pytest.mark.parametrize("make, words", [
    (lambda p: b"", "empty"),
    (lambda p: (PHOTOS / sorted(EXPECTED)[0]).read_bytes()[:5000], "truncated"),
    (lambda p: b"this is not a photo\n" * 10, "not an image"),
    (lambda p: _png_header_only(20000, 20000), "MP"),
])
def test_bad_photo_gives_a_clear_message(tmp_path: Path, capsys: pytest.CaptureFixture[str], make, words: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "photo.jpg"
    path.write_bytes(make(path))
    with pytest.raises(BadPhotoError, match=words):
        load_photo(path)
    assert cli_main(["recognize", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("pungchow: ") and "\n" not in err


def test_photo_without_tiles_reports_it(tmp_path: Path) -> None:
    felt = np.zeros((480, 640, 3), np.uint8)
    felt[:] = (40, 120, 30)
    path = tmp_path / "felt.jpg"
    cv2.imwrite(str(path), felt)
    res = recognize(path)
    assert len(res.detections) == 0
    assert "no tiles" in res.problems[0]


def test_exif_rotated_photo_reads_the_same(tmp_path: Path) -> None:
    from PIL import Image

    name = sorted(EXPECTED)[0]
    im = Image.open(PHOTOS / name)
    turned = im.transpose(Image.Transpose.ROTATE_90)  # stored sideways, EXIF 6 turns it back
    exif = turned.getexif()
    exif[0x0112] = 6
    path = tmp_path / "sideways.jpg"
    turned.save(path, quality=95, exif=exif.tobytes())
    a, b = recognize(PHOTOS / name), recognize(path)
    assert load_photo(path).shape == load_photo(PHOTOS / name).shape
    codes_a = Counter(a.detections.code(i) for i in range(len(a.detections)))
    codes_b = Counter(b.detections.code(i) for i in range(len(b.detections)))
    assert len(a.detections) == len(b.detections)
    assert sum((codes_a & codes_b).values()) >= len(a.detections) - 1  # re-encoding the JPEG may flip one unsure tile


def test_a_phone_size_photo_is_evaluated_in_its_own_pixels(tmp_path: Path) -> None:
    """A 12 MP photo is read at about a 1000 px long side; its labels count the photo's own pixels. The same photo
    and labels four times larger must score as the small one does (boxes compared unscaled, it scored 0)."""
    from recognizer.evaluate import evaluate
    from pungchow_data.coco import ImageRecord, TileLabel, write_annotations

    name = "synth-000042.jpg"
    truth = EXPECTED[name]["tiles"]
    scores = []
    for times in (1, 4):
        root = tmp_path / f"x{times}"
        (root / "images").mkdir(parents=True)
        bgr = cv2.imread(str(PHOTOS / name))
        bgr = cv2.resize(bgr, None, fx=times, fy=times, interpolation=cv2.INTER_CUBIC)
        cv2.imwrite(str(root / "images" / name), bgr, [cv2.IMWRITE_JPEG_QUALITY, 95])
        tiles = [TileLabel(t["code"], tuple(times * v for v in t["bbox"])) for t in truth]  # type: ignore[arg-type]
        record = ImageRecord(f"images/{name}", bgr.shape[1], bgr.shape[0], "s", split="test", tiles=tiles)
        write_annotations(root, [record], {"name": "t"}, [])
        scores.append(evaluate(root, "test"))
    small, big = scores
    assert max(load_photo(tmp_path / "x4" / "images" / name).shape) < 2500 < max(cv2.imread(str(tmp_path / "x4" / "images" / name)).shape)
    assert small["f1"] >= EXPECTED[name]["min_f1"]
    assert big["f1"] >= small["f1"] - 0.05
    assert big["detection_recall"] >= small["detection_recall"] - 0.05


def test_held_out_sets_at_a_phones_full_size_read_their_flowers_and_seasons(tmp_path: Path) -> None:
    """The first six scenes of the held-out families (never trained on), drawn as a 12 MP phone takes them and as an
    app downsizes them. At full size each flower's and season's corner number is a dozen pixels after reading at about
    1000 px, and all 15 were read (F1 0.986); downsized, with blur and JPEG at that size, it is a few pixels and 9 were
    (F1 0.919): the full-size photo must read at least as well, and nearly every tile. The reader trained on real tiles
    (with a third of the renders) reads these renders at full size F1 0.932 with 13 of 15, downsized 0.616 with 5;
    taught too that things beside a hand are not tiles (real-lite0-r4, a tenth fewer renders), 0.892 with 7 and 0.691
    with 6: on real sets' flowers and seasons the two read alike (models/MODEL_CARD.md), on these drawn ones r4 is
    worse."""
    from pungchow_data.faces import FAMILY_STYLES, style_available
    from pungchow_data.generate import GenerateConfig, generate
    from pungchow_data.realsets import HOLDOUT_FAMILIES
    from recognizer.evaluate import evaluate
    from recognizer.train.heldout import recall
    from scoring.tiles import BONUS_CODES

    if not all(style_available(FAMILY_STYLES[n]) for n in HOLDOUT_FAMILIES):
        pytest.skip("the held-out families' fonts are not installed (.ci/run installs them)")
    read = {}
    for scale in (1.0, 4.2):
        out = tmp_path / f"x{scale}"
        generate(GenerateConfig(out, count=6, seed=12, styles=tuple(HOLDOUT_FAMILIES), split="test", workers=1, scale=scale))
        s = evaluate(out, "test")
        read[scale] = (s["f1"], recall(s["per_class"], BONUS_CODES))
    (f1_small, bonus_small), (f1_full, bonus_full) = read[1.0], read[4.2]
    assert f1_full >= 0.88 and bonus_full >= 7 / 15, read
    assert f1_full >= f1_small and bonus_full >= bonus_small, read


def test_the_json_of_a_big_photo_gives_its_boxes_in_the_photos_own_pixels(tmp_path: Path) -> None:
    """A photo over 2000 px is read at half size or less; `--json` still gives each box in the photo's own pixels (its
    `image`), as anyone drawing on the photo or checking labels counts them, and says the size it was read at. Stored
    sideways with an EXIF turn, the size is the upright photo's. The page and `--overlay` draw on the photo as read:
    read back for that size, the boxes are the reader's own."""
    from PIL import Image

    from webapp.recognition import review_from_result

    name = "synth-000042.jpg"
    bgr = cv2.imread(str(PHOTOS / name))
    big = tmp_path / "big.jpg"
    cv2.imwrite(str(big), cv2.resize(bgr, None, fx=4, fy=4, interpolation=cv2.INTER_CUBIC), [cv2.IMWRITE_JPEG_QUALITY, 95])
    small, result = recognize(PHOTOS / name), recognize(big)
    out = result.to_json()
    assert out["image"] == {"width": 2560, "height": 1920} and out["read_at"] == {"width": 1280, "height": 960}
    boxes = np.array([t["box"] for t in out["tiles"]], np.float32)
    iou = iou_matrix(small.detections.boxes * 4, boxes)
    assert len(boxes) == len(small.detections) and (iou.max(axis=1) >= 0.8).all()
    drawn = review_from_result(out, result.size)
    reader = sorted((x, y, x + w, y + h) for x, y, w, h in result.detections.boxes.tolist())
    assert np.allclose(sorted(t.box for t in drawn.tiles if t.box is not None), reader, atol=1.0)
    assert review_from_result(small.to_json(), small.size).tiles == review_from_result(small.to_json()).tiles

    sideways = tmp_path / "sideways.jpg"
    im = Image.open(big).transpose(Image.Transpose.ROTATE_90)
    exif = im.getexif()
    exif[0x0112] = 6
    im.save(sideways, quality=95, exif=exif.tobytes())
    assert recognize(sideways).to_json()["image"] == {"width": 2560, "height": 1920}
