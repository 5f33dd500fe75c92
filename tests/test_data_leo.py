"""The leo-mahjong-v5 importer: un-stretched to 16:9, the export's boxes kept, split by scene."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np
import pytest

from pungchow_data.coco import load_dataset
from pungchow_data.leo import LEO_DIR, LEO_NAMES, import_leo, leo_code, read_export

pytestmark = pytest.mark.skipif(not (LEO_DIR / "data.yaml").is_file(), reason="leo-mahjong-v5 is not in ../shared/datasets beside the repository (or PUNGCHOW_SHARED_DIR)")


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("leo")
    import_leo(out)
    return out


def test_class_names_map_to_codes() -> None:
    assert leo_code("1_man") == "1C" and leo_code("9_pin") == "9D" and leo_code("5_sou") == "5B"
    assert [leo_code(n) for n in ("ton", "nan", "sya-", "pe-", "chun", "hatsu", "haku")] == ["EW", "SW", "WW", "NW", "RD", "GD", "WD"]
    assert leo_code("0") is None


def test_images_are_unstretched_to_16_9(imported: Path) -> None:
    ds = load_dataset(imported)
    assert len(ds.images) == 67
    for im in ds.images[:5]:
        img = cv2.imread(str(imported / im.file_name))
        assert img.shape[:2] == (640, 1138) == (im.height, im.width)


def test_boxes_reproduce_the_export(imported: Path) -> None:
    ds = load_dataset(imported)
    photos = read_export()
    assert len(photos) == len(ds.images)
    for photo, im in zip(photos, ds.images):
        expected = [
            ((x - w / 2) * im.width, (y - h / 2) * im.height, w * im.width, h * im.height, leo_code(LEO_NAMES[c]))
            for c, x, y, w, h in photo.rows
            if leo_code(LEO_NAMES[c])
        ]
        got = [(*t.bbox, t.code) for t in im.tiles]
        assert [e[4] for e in expected] == [g[4] for g in got]
        assert np.allclose([e[:4] for e in expected], [g[:4] for g in got], atol=0.01)
        # stretching the restored image back gives the export's pixels again
    original = cv2.imread(str(photos[0].image)).astype(np.float32)
    restored = cv2.imread(str(imported / ds.images[0].file_name))
    back = cv2.resize(restored, (640, 640), interpolation=cv2.INTER_AREA).astype(np.float32)
    assert np.abs(back - original).mean() < 6


def test_split_is_by_scene(imported: Path) -> None:
    ds = load_dataset(imported)
    splits: dict[str, set[str]] = defaultdict(set)
    for im in ds.images:
        splits[im.scene].add(im.split)
        assert im.license == "CC-BY-4.0" and im.source == "leo-mahjong-v5"
    assert all(len(s) == 1 for s in splits.values())
    assert {im.split for im in ds.images} == {"train", "val", "test"}
    assert "leomiurarobot" in ds.licenses[0]["attribution"]
