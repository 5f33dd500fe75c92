"""Training data: synthetic scenes carry exact labels, are reproducible, and cover every class."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from pungchow.cli import main
from pungchow_data.coco import ImageRecord, TileLabel, load_dataset, write_annotations
from pungchow_data.faces import (
    BACK_COLOURS,
    FACE_H,
    FACE_W,
    FAMILY_STYLES,
    STYLES,
    missing_fonts,
    recoloured,
    render_faces,
    style_available,
)
from pungchow_data.generate import GenerateConfig, generate
from pungchow_data.hands import Wall, random_hand
from pungchow_data.manifest import MANIFEST_PATH, sources, style_sources
from pungchow_data.scene import RenderedScene, random_layout, render_scene
from scoring.hand import Hand
from scoring.tiles import ALL_CODES

FIXTURE = Path(__file__).parent / "fixtures" / "data" / "synth-sample"
#: The renderer draws every face's text with fonts from Debian packages (.ci/run installs them).
pytestmark = pytest.mark.skipif(missing_fonts() is not None, reason=str(missing_fonts()))
needs_all_styles = pytest.mark.skipif(
    not all(style_available(s) for s in STYLES.values()), reason="fluffystuff tile art is not in ../shared/tile-art beside the repository (or PUNGCHOW_SHARED_DIR)"
)


def test_coco_round_trip(tmp_path: Path) -> None:
    im = ImageRecord("images/a.jpg", 100, 80, "s1", split="val", style="x",
                     tiles=[TileLabel("XX", (1, 2, 3, 4), quad=[(1, 2), (4, 2), (4, 6), (1, 6)], face_down=True, group=1)])
    write_annotations(tmp_path, [im], {"name": "t"}, [])
    ds = load_dataset(tmp_path)
    data = json.loads((tmp_path / "annotations.json").read_text())
    assert [c["name"] for c in data["categories"]] == list(ALL_CODES)
    assert data["annotations"][0]["category_id"] == ALL_CODES.index("XX") + 1
    t = ds.images[0].tiles[0]
    assert (t.code, t.face_down, t.group, t.bbox) == ("XX", True, 1, (1, 2, 3, 4))
    assert ds.images[0].split == "val" and ds.class_counts()["XX"] == 1


def _face_match(image: np.ndarray, quad: np.ndarray, faces: dict[str, np.ndarray]) -> str:
    """The code whose face looks most like what the quad holds (colour kept: a blank back and a blank WD differ by it)."""
    size = (FACE_W // 2, FACE_H // 2)
    dst = np.float32([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]])
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    crop = cv2.warpPerspective(image, m, size).astype(np.float32)
    inner = (slice(4, size[1] - 4), slice(4, size[0] - 4))

    def norm(a: np.ndarray) -> np.ndarray:
        a = a[inner]
        return (a - a.mean()) / (a.std() + 1e-3)

    c = norm(crop)
    best, score = "", -np.inf
    for code, face in faces.items():
        ref = cv2.resize(face[..., 2::-1], size, interpolation=cv2.INTER_AREA).astype(np.float32)
        s = float((c * norm(ref)).mean())
        if s > score:
            best, score = code, s
    return best


def quads_holding_another_tile(scene: RenderedScene, faces: dict[str, np.ndarray]) -> tuple[int, int]:
    """(labelled quads large enough to check, those whose picture matches another face best) in one rendered scene."""
    checked = wrong = 0
    for t in scene.record.tiles:
        quad = np.array(t.quad)
        if np.linalg.norm(quad[1] - quad[0]) < 30:
            continue
        checked += 1
        wrong += _face_match(scene.image, quad, faces) != t.code
    return checked, wrong


@pytest.mark.parametrize("style", [pytest.param("fluffy", marks=needs_all_styles), "hk-serif", "western", "bone-bamboo"])
def test_each_labelled_quad_holds_its_tile(style: str) -> None:
    faces = render_faces(style)
    checked = wrong = 0
    for i in range(3):
        scene = render_scene(np.random.default_rng([99, i]), STYLES[style], f"t{i}", photo_effects=False)
        h, w = scene.image.shape[:2]
        for t in scene.record.tiles:
            quad = np.array(t.quad)
            x, y, bw, bh = t.bbox
            assert x - 1 <= quad[:, 0].min() and quad[:, 0].max() <= x + bw + 1
            assert y - 1 <= quad[:, 1].min() and quad[:, 1].max() <= y + bh + 1
            assert 0 <= x and 0 <= y and x + bw <= w + 0.01 and y + bh <= h + 0.01
        n, bad = quads_holding_another_tile(scene, faces)
        checked, wrong = checked + n, wrong + bad
    assert checked >= 10
    assert wrong <= max(1, checked // 25), f"{wrong} of {checked} labelled quads hold another tile"


@needs_all_styles
def test_same_seed_same_bytes(tmp_path: Path) -> None:
    a, _ = generate(GenerateConfig(tmp_path / "a", count=3, seed=5, workers=1))
    b, _ = generate(GenerateConfig(tmp_path / "b", count=3, seed=5, workers=2))
    ja, jb = json.loads(a.read_text()), json.loads(b.read_text())
    ja["info"].pop("command"), jb["info"].pop("command")
    assert ja == jb
    for name in sorted(p.name for p in (tmp_path / "a" / "images").iterdir()):
        assert (tmp_path / "a" / "images" / name).read_bytes() == (tmp_path / "b" / "images" / name).read_bytes()
    c, _ = generate(GenerateConfig(tmp_path / "c", count=1, seed=6, workers=1))
    assert (tmp_path / "c" / "images" / "000000.jpg").read_bytes() != (tmp_path / "a" / "images" / "000000.jpg").read_bytes()


def test_recoloured_style_keeps_its_drawings_and_name() -> None:
    """A recoloured set is the same style (held-out styles stay held out) on another body."""
    rng = np.random.default_rng(4)
    variants = [recoloured(STYLES["hk-serif"], rng) for _ in range(40)]
    assert {v.name for v in variants} == {"hk-serif"}
    assert {v.back for v in variants} == set(BACK_COLOURS)
    assert {(v.dots, v.bamboo, v.font) for v in variants} == {("ornate", "sticks", "serif")}
    black_back = next(v for v in variants if v.back == "black")
    back = render_faces(black_back)["XX"][..., :3].astype(float)
    assert back.mean() < 60 < render_faces("hk-serif")["XX"][..., :3].mean()


def test_mix_bodies_recolours_about_that_share_and_is_reproducible(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, _ = generate(GenerateConfig(tmp_path / "a", count=2, seed=5, workers=1, styles=("hk-sans",)))
    b, _ = generate(GenerateConfig(tmp_path / "b", count=2, seed=5, workers=1, styles=("hk-sans",), mix_bodies=0.0))
    assert (tmp_path / "a/images/000000.jpg").read_bytes() == (tmp_path / "b/images/000000.jpg").read_bytes()
    c, _ = generate(GenerateConfig(tmp_path / "c", count=2, seed=5, workers=1, styles=("hk-sans",), mix_bodies=1.0))
    d, _ = generate(GenerateConfig(tmp_path / "d", count=2, seed=5, workers=1, styles=("hk-sans",), mix_bodies=1.0))
    assert (tmp_path / "c/images/000001.jpg").read_bytes() == (tmp_path / "d/images/000001.jpg").read_bytes()
    assert (tmp_path / "c/images/000001.jpg").read_bytes() != (tmp_path / "a/images/000001.jpg").read_bytes()
    assert "--mix-bodies 1.0" in json.loads(c.read_text())["info"]["command"]
    assert main(["data", "generate", str(tmp_path / "e"), "--count", "1", "--mix-bodies", "1.5"]) == 2
    assert "--mix-bodies must be a share between 0 and 1" in capsys.readouterr().err


def test_a_scaled_render_is_the_same_scene_larger(tmp_path: Path) -> None:
    """--scale 3 draws the photos a phone takes before an app downsizes them: the same tiles in the same places, three
    times the pixels; scale 1 keeps the old bytes."""
    a, _ = generate(GenerateConfig(tmp_path / "a", count=2, seed=5, workers=1, styles=("hk-sans",)))
    b, _ = generate(GenerateConfig(tmp_path / "b", count=2, seed=5, workers=1, styles=("hk-sans",), scale=1.0))
    big, _ = generate(GenerateConfig(tmp_path / "big", count=2, seed=5, workers=1, styles=("hk-sans",), scale=3.0))
    assert (tmp_path / "a/images/000001.jpg").read_bytes() == (tmp_path / "b/images/000001.jpg").read_bytes()
    small_ds, big_ds = load_dataset(a.parent), load_dataset(big.parent)
    for small_im, big_im in zip(small_ds.images, big_ds.images):
        assert (big_im.width, big_im.height) == (3 * small_im.width, 3 * small_im.height)
        assert cv2.imread(str(big_ds.image_path(big_im))).shape[:2] == (big_im.height, big_im.width)
        assert [t.code for t in big_im.tiles] == [t.code for t in small_im.tiles]
        small_boxes = np.array([t.bbox for t in small_im.tiles]) * 3
        assert np.abs(np.array([t.bbox for t in big_im.tiles]) - small_boxes).max() < 4.0
    assert "--scale 3" in json.loads(big.read_text())["info"]["command"]


def test_every_class_and_face_down_in_a_default_batch() -> None:
    """Every code (XX included) shows in the first 300 layouts of the default seed."""
    seen: Counter[str] = Counter()
    for i in range(300):
        rng = np.random.default_rng([0, i])
        layout, _ = random_layout(rng, STYLES["hk-serif"])
        seen.update(b.code for b in layout.bodies)
    assert set(seen) == set(ALL_CODES)


def test_hands_are_legal_and_groups_match_the_tiles() -> None:
    rng = np.random.default_rng(3)
    for _ in range(100):
        tiles = Wall()
        plan = random_hand(rng, tiles)
        assert plan.hand is not None
        again = Hand.from_dict(plan.hand.to_dict())
        assert again == plan.hand
        shown = [c for g in plan.groups if g.kind != "bonus" for c in g.shown]
        assert len(shown) == 14 + len(plan.hand.kongs)
        for g in plan.groups:
            if g.kind == "kong" and not g.exposed:
                assert g.shown[0] == g.shown[-1] == "XX"
    assert all(n >= 0 for n in tiles.left.values())


@needs_all_styles
def test_scene_records_are_consistent(tmp_path: Path) -> None:
    path, _ = generate(GenerateConfig(tmp_path, count=4, seed=11, workers=1))
    ds = load_dataset(tmp_path)
    for im in ds.images:
        assert (tmp_path / im.file_name).is_file()
        img = cv2.imread(str(tmp_path / im.file_name))
        assert img.shape[:2] == (im.height, im.width)
        group_ids = {g.id for g in im.groups}
        assert all(t.group in group_ids for t in im.tiles)
        assert all(t.face_down == (t.code == "XX") for t in im.tiles)
        assert im.hand is not None and Hand.from_dict(im.hand)
        assert im.style in STYLES and im.split in ("train", "val", "test")
    assert json.loads(path.read_text())["info"]["seed"] == 11


@needs_all_styles
def test_tile_crop_is_the_upright_face() -> None:
    from pungchow_data.coco import tile_crop

    ds = load_dataset(FIXTURE)
    im = ds.images[0]
    img = cv2.imread(str(FIXTURE / im.file_name))
    crop = tile_crop(img, im.tiles[0], (48, 64))
    assert crop.shape == (64, 48, 3)


@needs_all_styles
def test_committed_sample_still_regenerates() -> None:
    """The small sample in tests/fixtures was made by `pungchow data generate ... --count 4 --seed 2026`."""
    ds = load_dataset(FIXTURE)
    assert len(ds.images) == 4 and all((FIXTURE / im.file_name).is_file() for im in ds.images)
    rng = np.random.default_rng([2026, 0])
    style = ds.info["styles"][int(rng.integers(len(ds.info["styles"])))]
    scene = render_scene(rng, STYLES[style], "x")
    assert [t.code for t in scene.record.tiles] == [t.code for t in ds.images[0].tiles]
    assert np.allclose([t.bbox for t in scene.record.tiles], [t.bbox for t in ds.images[0].tiles], atol=0.5)


def test_manifest_lists_every_source_with_licence() -> None:
    known = sources()
    for name in [*STYLES, *FAMILY_STYLES]:
        for sid in style_sources(name):
            assert sid in known, f"style {name} draws on {sid}, which the manifest does not list"
    md = (MANIFEST_PATH.parent / "MANIFEST.md").read_text()
    for s in known.values():
        assert s.license and s.attribution and s.id in md


def test_cli_generate_sheet_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d"
    assert main(["data", "generate", str(out), "--count", "2", "--workers", "1", "--styles", "hk-sans", "--split", "test"]) == 0
    ds = load_dataset(out)
    assert {im.style for im in ds.images} == {"hk-sans"} and {im.split for im in ds.images} == {"test"}
    assert main(["data", "contact-sheet", str(out), str(tmp_path / "s.png")]) == 0
    assert cv2.imread(str(tmp_path / "s.png")) is not None
    assert main(["data", "generate", str(out), "--count", "1"]) == 2  # never over a dataset
    assert "already holds a dataset" in capsys.readouterr().err
    assert main(["data", "generate", str(tmp_path / "d2"), "--count", "1", "--styles", "nope"]) == 2
    assert main(["data", "contact-sheet", str(tmp_path / "missing"), str(tmp_path / "x.png")]) == 2
    assert "unknown tile style" in capsys.readouterr().err
