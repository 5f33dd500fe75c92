"""A few classifier training steps on a handful of crops: the real-set crops, the ONNX start and --resume work."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch not installed (optional extra: pip install -e .[train])")
pytest.importorskip("onnx", reason="onnx not installed (optional extra: pip install -e .[train])")

from pungchow_data.faces import FAMILY_STYLES, style_available  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "tests" / "fixtures" / "data" / "synth-sample"
pytestmark = pytest.mark.skipif(not style_available(FAMILY_STYLES["real-kai"]),
                                reason="fonts of the real-kai family missing: apt-get install fonts-arphic-ukai")


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from recognizer.train.prepare import prepare

    out = tmp_path_factory.mktemp("cache")
    prepare([str(SAMPLE)], str(out), ("train", "val", "test"))
    for split in ("val", "test"):  # the 4-scene sample may leave a split empty: reuse train
        if not (out / f"{split}.pkl").stat().st_size > 200:
            (out / f"{split}.pkl").write_bytes((out / "train.pkl").read_bytes())
    return out


def test_onnx_start_computes_what_the_onnx_model_does(cache: Path, tmp_path: Path) -> None:
    """A TileClassifier exported to ONNX (batch norms folded in) and started from again computes what the ONNX does.

    The shipped classifier is another network (EfficientNet-Lite0, ``recognizer/train/effnet.py``), so the ONNX
    start is checked on a TileClassifier of its own, exported here."""
    import onnxruntime as ort

    from recognizer.geometry import to_input
    from recognizer.train.export import export
    from recognizer.train.nets import TileClassifier
    from recognizer.train.train import _load, classifier_batch, load_onnx_weights

    torch.manual_seed(0)
    torch.save(TileClassifier().state_dict(), tmp_path / "start.pt")
    onnx_path = str(export([tmp_path / "start.pt"], "classifier", tmp_path / "out", "test", {}))
    data = _load(str(cache), "train")
    rng = np.random.default_rng(0)
    model = TileClassifier()
    picks = rng.choice(len(data["crops"]), min(256, len(data["crops"])), replace=False)
    sample = to_input(classifier_batch(data["crops"], picks, rng, False))
    load_onnx_weights(model, onnx_path, torch.from_numpy(sample))
    x = to_input(classifier_batch(data["crops"], np.arange(min(16, len(data["crops"]))), rng, False))
    session = ort.InferenceSession(onnx_path, providers=["CPUExecutionProvider"])
    want = session.run(None, {"input": x})[0]
    model.eval()
    with torch.no_grad():
        got = model(torch.from_numpy(x))[0].numpy()
    assert np.abs(got - want).max() < 1e-3 * max(1.0, float(np.abs(want).max()))
    model.train()
    with torch.no_grad():  # batch statistics of the same crops: close to the evaluation-mode answer
        train_mode = model(torch.from_numpy(x))[0].numpy()
    assert (train_mode.argmax(1) == want.argmax(1)).mean() >= 0.7


def test_onnx_start_of_the_detector_computes_what_the_onnx_detector_does(cache: Path) -> None:
    import onnxruntime as ort

    from recognizer.geometry import to_input
    from recognizer.train.nets import TileDetector
    from recognizer.train.train import _load, detector_sample, load_onnx_weights

    det = _load(str(cache), "train")["det"]
    rng = np.random.default_rng(1)
    x = to_input(np.stack([detector_sample(det[i % len(det)], rng)[0] for i in range(8)]))
    model = TileDetector()
    load_onnx_weights(model, str(ROOT / "models" / "detector.onnx"), torch.from_numpy(x))
    session = ort.InferenceSession(str(ROOT / "models" / "detector.onnx"), providers=["CPUExecutionProvider"])
    want = session.run(None, {session.get_inputs()[0].name: x})[0]
    model.eval()
    with torch.no_grad():
        got = model(torch.from_numpy(x)).numpy()
    assert np.abs(got - want).max() < 1e-3 * max(1.0, float(np.abs(want).max()))


def test_few_steps_then_resume(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from recognizer.train import realcrops
    from recognizer.train import train as tr
    from recognizer.train.realcrops import RealCropSource

    monkeypatch.setattr(realcrops, "SET_POOL", 2)
    monkeypatch.setattr(tr, "HALF_TURN", 0.5)
    monkeypatch.setattr(tr, "QUARTER_TURN", 0.5)
    tr.train_classifier(str(cache), steps=4, out=str(tmp_path), batch=8, lr=1e-3, real_share=0.5, families=["real-kai"],
                        checkpoint_every=0.0, stop_at=2)
    ck = torch.load(tmp_path / "classifier-ckpt.pt", map_location="cpu", weights_only=False)
    assert ck["step"] == 2 and ck["steps"] == 4
    first = {k: v.clone() for k, v in ck["model"].items()}
    (tmp_path / "classifier-ckpt.pt").rename(tmp_path / "mid.pt")
    tr.train_classifier(str(cache), steps=4, out=str(tmp_path), batch=8, lr=1e-3, real_share=0.5, families=["real-kai"],
                        resume=str(tmp_path / "mid.pt"))
    again = torch.load(tmp_path / "classifier-ckpt.pt", map_location="cpu", weights_only=False)
    assert again["step"] == 4
    assert any(not torch.equal(first[k], again["model"][k]) for k in first if first[k].dtype.is_floating_point)
    with pytest.raises(SystemExit, match="same --steps"):
        tr.train_classifier(str(cache), steps=9, out=str(tmp_path), batch=8, resume=str(tmp_path / "mid.pt"))
    src = RealCropSource(["real-kai"], np.random.default_rng(3))
    crop, label = src.sample()
    assert crop.shape == (80, 60, 3) and 0 <= label < 44


def test_sideways_crop_keeps_a_square_box(cache: Path) -> None:
    from recognizer.geometry import CROP_H, CROP_W, crop_tile
    from recognizer.train.prepare import box_in_crop
    from recognizer.train.train import _load, sideways

    data = _load(str(cache), "train")
    rng = np.random.default_rng(1)
    for i in range(5):
        img, box = sideways(data["crops"][i], np.array(box_in_crop()), rng)
        assert 0.85 <= box[2] / box[3] <= 1.2  # crop_tile will not turn it back: the tile stays sideways
        assert box[0] >= 0 and box[0] + box[2] <= img.shape[1] + 1e-6 and box[1] + box[3] <= img.shape[0] + 1e-6
        assert crop_tile(img, box).shape == (CROP_H, CROP_W, 3)


def test_bonus_reader_few_steps_then_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from recognizer.geometry import BONUS_H, BONUS_W
    from recognizer.labels import BONUS_LABELS
    from recognizer.train import bonus, realcrops

    monkeypatch.setattr(realcrops, "SET_POOL", 1)
    source = bonus.BonusCropSource(["real-kai"], np.random.default_rng(5))
    crops, labels = source.batch(12)
    assert crops.shape == (12, BONUS_H, BONUS_W, 3) and set(labels) <= set(range(len(BONUS_LABELS)))
    monkeypatch.setattr(bonus.BonusCropSource, "batch", lambda self, n, train=True: (crops[:n], labels[:n]))
    bonus.train_bonus(["real-kai"], steps=4, out=str(tmp_path), batch=6, checkpoint_every=0.0, stop_at=2)
    ck = torch.load(tmp_path / "bonus-ckpt.pt", map_location="cpu", weights_only=False)
    assert ck["step"] == 2 and ck["steps"] == 4
    (tmp_path / "bonus-ckpt.pt").rename(tmp_path / "mid.pt")
    bonus.train_bonus(["real-kai"], steps=4, out=str(tmp_path), batch=6, resume=str(tmp_path / "mid.pt"))
    assert torch.load(tmp_path / "bonus-ckpt.pt", map_location="cpu", weights_only=False)["step"] == 4
    with pytest.raises(SystemExit, match="same --steps"):
        bonus.train_bonus(["real-kai"], steps=9, out=str(tmp_path), batch=6, resume=str(tmp_path / "mid.pt"))


@pytest.mark.parametrize(("args", "says"), [
    (["classifier", "--cache", "no-such-cache"], "has no train.pkl: make it with"),
    (["classifier", "--grey", "3"], "--grey is a share between 0 and 1"),
    (["detector", "--grids", "-0.5"], "--grids is a share between 0 and 1"),
    (["classifier", "--real-share", "0.3", "--families", "no-such-family"], "no family named no-such-family"),
    (["prepare", "--book", "no-such-realdev"], "has no book-1922/labels"),
    (["prepare", "--book-held-out", "example_1"], "no such book photo in --book"),
])
def test_trainer_refuses_bad_arguments_in_one_line(cache: Path, tmp_path: Path, args: list[str], says: str) -> None:
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "recognizer.train.train", *args]
    if "--cache" not in args:
        cmd += ["--cache", str(cache)]
    run = subprocess.run([*cmd, "--out", str(tmp_path / "out")], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2 and says in run.stderr and "Traceback" not in run.stderr
    assert not (tmp_path / "out").exists()  # refused before anything was written


def test_bonus_reader_bird_share_draws_that_share_of_other_crops_as_a_1_of_bamboo(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bird is the other face that is a painting: ``--bird-share 1`` makes every drawn "other" tile a 1 of bamboo,
    0 draws it as often as any other face."""
    from recognizer.train import bonus, realcrops

    monkeypatch.setattr(realcrops, "SET_POOL", 1)
    drawn: list[str] = []
    monkeypatch.setattr(bonus, "tile_crop", lambda rng, style, faces, code, size: drawn.append(code) or np.zeros((*size, 3), np.uint8))
    for share in (1.0, 0.0):
        drawn.clear()
        source = bonus.BonusCropSource(["real-kai"], np.random.default_rng(3), bird_share=share)
        for _ in range(120):
            source.drawn()
        others = [code for code in drawn if code not in bonus.BONUS_CODES]
        assert len(others) > 30
        assert (set(others) == {"1B"}) if share else (len(set(others)) > 10)


def test_bonus_trainer_refuses_an_unknown_family(tmp_path: Path) -> None:
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "recognizer.train.bonus", "--families", "no-such-family", "--out", str(tmp_path / "o")],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2 and "no family or classic style named no-such-family" in run.stderr and "Traceback" not in run.stderr


def test_export_of_two_runs_is_their_average(tmp_path: Path) -> None:
    """Averaged weights export as one network computing the midpoint's output; batch-norm counters are kept, not averaged."""
    import onnxruntime as ort

    from recognizer.geometry import CROP_H, CROP_W
    from recognizer.train.export import averaged, export
    from recognizer.train.nets import TileClassifier

    torch.manual_seed(0)
    first, second = TileClassifier().state_dict(), TileClassifier().state_dict()
    second = {k: v + 1.0 if v.is_floating_point() else v + 7 for k, v in second.items()}
    paths = [tmp_path / "a.pt", tmp_path / "b.pt"]
    torch.save(first, paths[0])
    torch.save(second, paths[1])
    mean = averaged(paths)
    for k, v in first.items():
        if v.is_floating_point():
            assert torch.allclose(mean[k], (v + second[k]) / 2)
        else:
            assert torch.equal(mean[k], second[k])
    model = TileClassifier()
    model.load_state_dict(mean)
    model.eval()
    x = torch.rand(2, 3, CROP_H, CROP_W)
    with torch.no_grad():
        want = model(x)[0].numpy()
    path = export(paths, "classifier", tmp_path / "out", "test", {})
    got = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {"input": x.numpy()})[0]
    assert np.abs(got - want).max() < 1e-3 * max(1.0, float(np.abs(want).max()))


@pytest.mark.parametrize("degrees", [-25.0, 15.0])
def test_a_tilted_training_tile_keeps_its_centre_and_its_box_holds_it(degrees: float) -> None:
    """``--tilt``: the crop turned about the tile, the box grown to the turned tile's bounds, as a detector boxes it."""
    from recognizer.train.prepare import box_in_crop
    from recognizer.train.train import tilted

    crop = np.full((80, 60, 3), 60, np.uint8)
    x, y, w, h = box_in_crop()
    crop[round(y):round(y + h), round(x):round(x + w)] = 240
    out, box = tilted(crop, np.array([x, y, w, h]), degrees)
    c, s = abs(np.cos(np.radians(degrees))), abs(np.sin(np.radians(degrees)))
    assert np.allclose(box[2:], [w * c + h * s, w * s + h * c])
    assert np.allclose(box[:2] + box[2:] / 2, [x + w / 2, y + h / 2])
    m = cv2.getRotationMatrix2D((x + w / 2, y + h / 2), degrees, 1.0)
    for u, v in ((x + 3, y + 3), (x + w - 3, y + 3), (x + w - 3, y + h - 3), (x + 3, y + h - 3)):
        tx, ty = m @ [u, v, 1.0]  # just inside a corner of the tile, turned
        assert out[round(ty), round(tx), 0] > 150, "the tile is turned whole"
        assert box[0] <= tx <= box[0] + box[2] and box[1] <= ty <= box[1] + box[3]


def test_second_look_samples_show_small_tiles_at_the_size_the_second_look_reads_them(tmp_path: Path) -> None:
    """Given a cache that keeps the photos at up to 800 px, a sample drawn as the second look has tiles of 12-28 px
    (0.5-1.15 of ``detect.SMALL_TILE``) cut from pixels the cache kept, never enlarged; one drawn as the first look
    has them 0.6-1.6 times their size at the first look's 384 px, as from a cache kept at 384."""
    from recognizer.detect import SMALL_TILE
    from recognizer.geometry import DETECT_LONG_SIDE
    from recognizer.train.prepare import prepare
    from recognizer.train.train import SECOND_LOOK_SIZES, _load, detector_sample

    prepare([str(SAMPLE)], str(tmp_path), ("train",), det_long_side=800)
    det = _load(str(tmp_path), "train")["det"]
    for item in det:
        h, w = cv2.imdecode(np.frombuffer(item["jpg"], np.uint8), cv2.IMREAD_COLOR).shape[:2]
        assert item["long_side"] == max(h, w) <= 800
    assert max(item["long_side"] for item in det) == 800  # the 1280 px scene is kept at 800, not 384
    assert min(item["long_side"] for item in det) == 686  # the 686 px scene is not enlarged
    rng = np.random.default_rng(2)
    for item in det:
        stored = float(np.median(item["boxes"][:, 2:].min(axis=1)))
        at_first_look = stored * DETECT_LONG_SIDE / item["long_side"]
        for _ in range(20):
            _, boxes = detector_sample(item, rng, second_look=1.0)
            tile = float(np.median(boxes[:, 2:].min(axis=1)))
            lo, hi = (SMALL_TILE * share for share in SECOND_LOOK_SIZES)
            assert lo - 1e-3 <= tile <= hi + 1e-3 or abs(tile - stored) < 1e-3  # or the cache's own pixels, when fewer
            assert tile <= stored + 1e-3
            _, boxes = detector_sample(item, rng)
            tile = float(np.median(boxes[:, 2:].min(axis=1)))
            assert 0.6 * at_first_look - 1e-3 <= tile <= 1.6 * at_first_look + 1e-3
    small = dict(det[0])  # a whole table far away: its tiles are under 12 px even in the kept pixels
    img = cv2.imdecode(np.frombuffer(small["jpg"], np.uint8), cv2.IMREAD_COLOR)
    shrink = 8.0 / float(np.median(small["boxes"][:, 2:].min(axis=1)))
    small["jpg"] = cv2.imencode(".jpg", cv2.resize(img, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA))[1].tobytes()
    small["boxes"] = small["boxes"] * shrink
    small["long_side"] = round(small["long_side"] * shrink)
    for _ in range(20):
        _, boxes = detector_sample(small, rng, second_look=1.0)
        assert float(np.median(boxes[:, 2:].min(axis=1))) == pytest.approx(8.0, abs=1e-3)


def test_close_up_samples_are_a_few_tiles_at_the_detectors_size_laid_in_their_borders_colour(tmp_path: Path) -> None:
    """A close-up sample cuts a run of one to six tiles of a row, scales it so its tiles are 14-48 px on their short
    side (smaller only where the cut would not fit the canvas), and lays it in a canvas of one colour, every box inside
    the canvas. A whole photo laid so keeps every tile's box."""
    from recognizer.train.prepare import prepare
    from recognizer.train.train import CLOSE_UP_TILE, DET_CROP, _load, close_up_sample, framed_photo_sample

    prepare([str(SAMPLE)], str(tmp_path), ("train",), det_long_side=800)
    det = _load(str(tmp_path), "train")["det"]
    rng = np.random.default_rng(5)
    sizes = []
    for _ in range(40):
        canvas, boxes = close_up_sample(det[int(rng.integers(len(det)))], rng)
        assert canvas.shape == (DET_CROP, DET_CROP, 3)
        assert len(boxes) >= 1 and (boxes[:, :2] >= -1e-3).all() and (boxes[:, :2] + boxes[:, 2:] <= DET_CROP + 1e-3).all()
        sizes.append(float(np.median(boxes[:, 2:].min(axis=1))))
        corners = np.array([canvas[0, 0], canvas[0, -1], canvas[-1, 0], canvas[-1, -1]], np.int16)
        assert (np.abs(corners - np.median(corners, axis=0)) <= 60).all()  # one fill, the photometric change aside
    assert np.median(sizes) >= CLOSE_UP_TILE[0] * 0.8 and max(sizes) <= CLOSE_UP_TILE[1] * 1.1
    canvas, boxes = framed_photo_sample(det[0], rng)
    assert canvas.shape == (DET_CROP, DET_CROP, 3) and len(boxes) == len(det[0]["boxes"])


def test_book_photos_join_the_detectors_images_but_those_held_out(tmp_path: Path) -> None:
    """Given a realdev folder with two labelled book photos (a settling layout's hands and one hand), the training
    split's detector images gain each photo ``BOOK_REPEAT`` times, every labelled tile a box (x, y, w, h scaled as the
    photo is kept), and none of the photo held out."""
    from recognizer.train.prepare import BOOK_REPEAT, prepare
    from recognizer.train.train import _load

    book = tmp_path / "realdev" / "book-1922"
    (book / "labels").mkdir(parents=True)
    (book / "photos").mkdir()
    for name, size in (("page", (600, 400)), ("example", (500, 300))):
        cv2.imwrite(str(book / "photos" / f"{name}.jpg"), np.full((size[1], size[0], 3), 250, np.uint8))
    rows = [{"tiles": ["1C", "??"], "boxes": [[10, 20, 50, 90], [50, 20, 90, 90]]}]
    (book / "labels" / "page.json").write_text(json.dumps({"image": "page.jpg", "hands": [{"rows": rows}, {"rows": rows}]}))
    (book / "labels" / "example.json").write_text(json.dumps({"image": "example.jpg", "rows": rows}))
    prepare([str(SAMPLE)], str(tmp_path / "cache"), ("train",), det_long_side=800, book=tmp_path / "realdev",
            book_held_out=["example"])
    books = [d for d in _load(str(tmp_path / "cache"), "train")["det"] if d["source"] == "book-1922"]
    assert len(books) == BOOK_REPEAT
    assert books[0]["boxes"].tolist() == [[10, 20, 40, 70], [50, 20, 40, 70]] * 2  # 600 px is kept as it is at 800
