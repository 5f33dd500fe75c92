"""The training run's small helpers: which weights a lent GPU brings back, the running mean, captions on paper."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from recognizer.train.mean_or_last import main as mean_or_last
from recognizer.train.mean_or_last import tallies

LOG_LAST = """fold 2 unseen hk-crop: top-1 0.917 of 36 (33); flowers/seasons 1/4
fold 2 unseen hk-photo: top-1 0.903 of 31 (28); flowers/seasons 1/4
fold 2 unseen book: top-1 0.906 of 128 (116); flowers/seasons 0/0
"""
LOG_MEAN = """fold 2 mean-weights unseen hk-crop: top-1 0.944 of 36 ({crop}); flowers/seasons 2/4
fold 2 mean-weights unseen hk-photo: top-1 0.903 of 31 (28); flowers/seasons 1/4
fold 2 mean-weights unseen book: top-1 0.906 of 128 (116); flowers/seasons 0/0
"""


def run_dir(tmp_path: Path, mean_crop_right: int) -> Path:
    run = tmp_path / "run"
    run.mkdir()
    (run / "fold2.log").write_text(LOG_LAST + LOG_MEAN.format(crop=mean_crop_right))
    for name in ("final", "fold2"):
        (run / f"{name}.pt").write_bytes(b"last")
        (run / f"{name}-ema.pt").write_bytes(b"mean")
    return run


def test_the_logs_are_summed_per_kind_of_weights_and_of_crop(tmp_path: Path) -> None:
    t = tallies([run_dir(tmp_path, 34) / "fold2.log"])
    assert t["last"]["hk-crop"] == [33, 36, 1, 4]
    assert t["mean"]["hk-crop"] == [34, 36, 2, 4]
    assert t["last"]["book"] == [116, 128, 0, 0]


def test_the_mean_comes_back_when_its_readers_read_more_unseen_tiles(tmp_path: Path) -> None:
    run = run_dir(tmp_path, 34)
    assert mean_or_last([str(run), str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "final.pt").read_bytes() == b"mean"
    assert (tmp_path / "out" / "fold2.pt").read_bytes() == b"mean"
    assert not (tmp_path / "out" / "fold2-ema.pt").exists()


def test_a_tie_keeps_the_last_weights(tmp_path: Path) -> None:
    run = run_dir(tmp_path, 33)
    mean_or_last([str(run), str(tmp_path / "out")])
    assert (tmp_path / "out" / "fold2.pt").read_bytes() == b"last"


def test_a_run_without_a_mean_brings_back_its_last_weights(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "fold2.log").write_text(LOG_LAST)
    (run / "fold2.pt").write_bytes(b"last")
    mean_or_last([str(run), str(tmp_path / "out")])
    assert (tmp_path / "out" / "fold2.pt").read_bytes() == b"last"


def test_wrong_arguments_print_the_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert mean_or_last(["only-one"]) == 2
    assert "mean_or_last RUN_DIR OUT_DIR" in capsys.readouterr().out


def test_a_caption_is_printed_inside_its_band_between_rows_of_tiles() -> None:
    from recognizer.train.grids import caption

    img = np.full((256, 256, 3), 240, np.uint8)
    caption(img, 100.0, 30.0, np.random.default_rng(3))
    ink = (img < 200).any(axis=2).sum(axis=1)
    assert ink.sum(), "a 30 px band holds a line of print"
    assert np.flatnonzero(ink).min() >= 100
    assert ink[100:130].sum() >= 0.9 * ink.sum()


def test_a_band_too_narrow_for_print_stays_blank() -> None:
    from recognizer.train.grids import caption

    img = np.full((64, 64, 3), 240, np.uint8)
    caption(img, 10.0, 6.0, np.random.default_rng(0))
    assert (img == 240).all()


def test_the_running_mean_moves_towards_the_weights_and_forgets_the_start_quickly() -> None:
    torch = pytest.importorskip("torch", reason="torch not installed (optional extra: pip install -e .[train])")
    from recognizer.train.fit_real import followed

    model, mean = torch.nn.BatchNorm1d(2), torch.nn.BatchNorm1d(2)
    with torch.no_grad():
        model.weight.fill_(1.0)
        mean.weight.fill_(0.0)
    model.num_batches_tracked.fill_(5)
    followed(mean, model, 0, 0.998)  # the first step weighs 0.9: the ImageNet start is not remembered
    assert torch.allclose(mean.weight, torch.full((2,), 0.9))
    assert int(mean.num_batches_tracked) == 5
    followed(mean, model, 10_000, 0.998)  # late on, the decay asked for
    assert torch.allclose(mean.weight, torch.full((2,), 0.9 + 0.1 * 0.002))


def test_a_distractor_scene_boxes_only_the_hands_tiles_at_the_size_it_is_kept() -> None:
    from pungchow_data.faces import missing_fonts

    if missing_fonts() is not None:
        pytest.skip(f"the drawn hand needs the renderer's fonts: {missing_fonts()}")
    import cv2

    from pungchow_data.distractors import KINDS, TRAINING_SEEDS, draw_scene
    from recognizer.train.prepare import distractor_items

    items = list(distractor_items(2, 384))
    assert [i["source"] for i in items] == [f"distractor-{KINDS[0]}", f"distractor-{KINDS[1]}"]
    drawn = draw_scene(KINDS[1], TRAINING_SEEDS + 1)
    kept = cv2.imdecode(np.frombuffer(items[1]["jpg"], np.uint8), cv2.IMREAD_COLOR)
    s = 384 / max(drawn.image.shape[:2])
    assert max(kept.shape[:2]) == 384
    assert np.allclose(items[1]["boxes"], drawn.boxes * s)
    assert "long_side" not in items[1], "at the first look's side the detector reads it as the other scenes"
    first = draw_scene(KINDS[0], TRAINING_SEEDS)
    assert next(distractor_items(1, 800))["long_side"] == min(800, max(first.image.shape[:2])), "never enlarged"


def test_a_run_refuses_a_decay_that_is_no_decay_and_never_writes_over_a_kept_mean(tmp_path: Path,
                                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch", reason="torch not installed (optional extra: pip install -e .[train])")
    from recognizer.train.fit_real import main as fit_real

    pack, weights = tmp_path / "pack.npz", tmp_path / "lite0.pth"
    assert fit_real([str(pack), "--weights", str(weights), "--out", str(tmp_path / "run.pt"), "--ema", "1.0"]) == 2
    assert "--ema is a decay" in capsys.readouterr().out
    (tmp_path / "run-ema.pt").write_bytes(b"kept")
    assert fit_real([str(pack), "--weights", str(weights), "--out", str(tmp_path / "run.pt"), "--ema", "0.998"]) == 2
    assert "run-ema.pt exists" in capsys.readouterr().out
    assert (tmp_path / "run-ema.pt").read_bytes() == b"kept"


def test_a_run_starts_from_imagenet_or_from_a_trained_reader_one_of_the_two(tmp_path: Path,
                                                                             capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch", reason="torch not installed (optional extra: pip install -e .[train])")
    from recognizer.train.fit_real import main as fit_real

    out = tmp_path / "run.pt"
    for start in ([], ["--weights", "w.pth", "--init", "r.pt"]):
        assert fit_real([str(tmp_path / "pack.npz"), *start, "--out", str(out)]) == 2
        assert "--weights (ImageNet) or --init (a trained reader)" in capsys.readouterr().out
    assert fit_real([str(tmp_path / "pack.npz"), "--init", str(tmp_path / "gone.pt"), "--out", str(out)]) == 2
    assert "gone.pt is not a file" in capsys.readouterr().out
    (tmp_path / "r.pt").write_bytes(b"a reader")
    for wrong in (["--lr-scale", "-1"], ["--distractor-share", "1.5"], ["--batch", "0"]):
        assert fit_real([str(tmp_path / "pack.npz"), "--init", str(tmp_path / "r.pt"), "--out", str(out), *wrong]) == 2
        assert "--distractor-share a share from 0 to 1" in capsys.readouterr().out
    assert not out.exists()


def test_a_trained_reader_taught_more_starts_from_its_own_weights(tmp_path: Path) -> None:
    """A reader taught more at no learning rate keeps every weight it had: so it starts from the reader named, and
    the rates are the recipe's times the scale."""
    torch = pytest.importorskip("torch", reason="torch not installed (optional extra: pip install -e .[train])")
    from recognizer.train.effnet import EfficientNetLite0
    from recognizer.train.fit_real import main as fit_real

    weights = tmp_path / "lite0.pth"
    torch.save(EfficientNetLite0().state_dict(), weights)
    pack = str(tiny_pack(tmp_path / "pack.npz"))
    first, more = tmp_path / "first.pt", tmp_path / "more.pt"
    assert fit_real([pack, "--weights", str(weights), "--out", str(first), "--steps", "1", "--batch", "4"]) == 0
    assert fit_real([pack, "--init", str(first), "--lr-scale", "0", "--out", str(more), "--steps", "2", "--batch", "4",
                     "--distractor-share", "0.1"]) == 0
    before, after = torch.load(first)["state"], torch.load(more)["state"]
    learnt = [k for k in before if "running" not in k and "num_batches" not in k]
    assert learnt and all(torch.equal(before[k], after[k]) for k in learnt)


def test_the_distractors_take_the_share_of_each_batch_asked_for() -> None:
    pytest.importorskip("torch", reason="torch not installed (optional extra: pip install -e .[train])")
    from recognizer.train.fit_real import KIND_SHARE, sampler
    from recognizer.train.realtiles import DISTRACTOR, HK_CROP, RENDER

    kind = np.array([RENDER] * 6 + [HK_CROP] * 3 + [DISTRACTOR] * 3)
    everything = np.ones(len(kind), bool)
    for share in (KIND_SHARE[DISTRACTOR], 0.1, 0.3):
        idx, p = sampler(kind, everything, distractor_share=share)
        total = KIND_SHARE[RENDER] + KIND_SHARE[HK_CROP] + share
        assert p[kind[idx] == DISTRACTOR].sum() == pytest.approx(share / total)
        assert p[kind[idx] == RENDER].sum() == pytest.approx(KIND_SHARE[RENDER] / total)


def tiny_pack(path: Path) -> Path:
    """Twelve crops of noise, each a real kind and fold, packed as ``realtiles`` packs them."""
    import cv2

    from recognizer.labels import CLASSES
    from recognizer.train.realtiles import BOOK, HK_CROP, PACK_SIZE, RENDER

    rng = np.random.default_rng(0)
    kinds = [RENDER] * 4 + [HK_CROP] * 4 + [BOOK] * 4
    jpegs = [cv2.imencode(".jpg", rng.integers(0, 255, (*PACK_SIZE, 3), np.uint8))[1] for _ in kinds]
    np.savez(path, jpeg=np.concatenate(jpegs), offsets=np.cumsum([0] + [len(j) for j in jpegs]),
             label=np.array([CLASSES.index("1C"), CLASSES.index("EW")] * 6, np.int16), kind=np.array(kinds, np.int8),
             fold=np.array([-1] * 4 + [0, 1] * 4, np.int8), classes=np.array(CLASSES))
    return path


def test_a_way_up_run_is_saved_and_exported_as_the_way_up_reader_the_product_loads(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch", reason="torch not installed (optional extra: pip install -e .[train])")
    pytest.importorskip("onnx", reason="onnx not installed (optional extra: pip install -e .[train])")
    from recognizer.labels import WAY_UP_LABELS
    from recognizer.models import load_model
    from recognizer.train.effnet import EfficientNetLite0
    from recognizer.train.export_real import export
    from recognizer.train.way_up import main as way_up

    weights = tmp_path / "lite0.pth"
    torch.save(EfficientNetLite0().state_dict(), weights)
    run = tmp_path / "way-up.pt"
    args = [str(tiny_pack(tmp_path / "pack.npz")), "--weights", str(weights), "--fold", "-1", "--steps", "2", "--batch", "4"]
    assert way_up([*args, "--out", str(run)]) == 0
    assert torch.load(run)["classes"] == list(WAY_UP_LABELS)
    export(run, tmp_path / "models", "way_up")
    reader = load_model("way_up", str(tmp_path / "models"))
    assert reader.meta["labels"] == list(WAY_UP_LABELS)
    assert reader.run(np.zeros((2, 3, 160, 120), np.float32))[0].shape == (2, 2)


def test_a_way_up_run_never_writes_over_a_kept_reader(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch", reason="torch not installed (optional extra: pip install -e .[train])")
    from recognizer.train.way_up import main as way_up

    (tmp_path / "run.pt").write_bytes(b"kept")
    assert way_up([str(tmp_path / "pack.npz"), "--weights", "w.pth", "--fold", "-1", "--out", str(tmp_path / "run.pt")]) == 2
    assert "run.pt exists" in capsys.readouterr().out
    assert (tmp_path / "run.pt").read_bytes() == b"kept"
