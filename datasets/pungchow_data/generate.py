"""Render a whole synthetic dataset, deterministic by seed, on a few worker processes.

Scene ``i`` of seed ``s`` draws every random number from ``default_rng([s, i])``, so the bytes
of an image depend only on (seed, index, style list), not on the number of workers or on timing.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from pungchow_data.coco import IMAGES_DIR, ImageRecord, write_annotations
from pungchow_data.faces import TileStyle, family_variant, recoloured, resolve_styles
from pungchow_data.manifest import synthetic_licenses
from pungchow_data.scene import render_scene

FORMAT_VERSION = 1


@dataclass(frozen=True)
class GenerateConfig:
    """What to render: how many scenes, from which seed, in which styles, into which split."""

    out: Path
    count: int
    seed: int = 0
    styles: tuple[str, ...] = ()
    split: str | None = None  # force every image into one split (a held-out style test set)
    workers: int = 2
    val_share: float = 0.1
    test_share: float = 0.1
    mix_bodies: float = 0.0  # share of scenes whose tiles get random back, face and ink colours
    scale: float = 1.0  # every photo this many times larger (``scene.render_scene``); 1 keeps the old bytes


def split_of(seed: int, index: int, val_share: float, test_share: float) -> str:
    """A scene's split, fixed by (seed, index) so a re-run never moves a scene between splits."""
    u = np.random.default_rng([seed, index, 7]).random()
    return "val" if u < val_share else "test" if u < val_share + test_share else "train"


def _render_one(job: tuple[int, int, tuple[TileStyle, ...], str, float, float]) -> tuple[int, ImageRecord]:
    seed, index, styles, out, mix_bodies, scale = job
    rng = np.random.default_rng([seed, index])
    style = styles[int(rng.integers(len(styles)))]
    if style.family:  # every scene of a real-set family shows another set of it (its own stream: old bytes kept)
        style = family_variant(style, np.random.default_rng([seed, index, 13]))
    if mix_bodies > 0:
        body_rng = np.random.default_rng([seed, index, 11])  # its own stream: mix 0 keeps the old bytes
        if body_rng.random() < mix_bodies:
            style = recoloured(style, body_rng)
    scene = render_scene(rng, style, scene_id=f"synth-{seed}-{index:06d}", scale=scale)
    ok, jpeg = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg_quality])
    if not ok:
        raise RuntimeError(f"could not encode scene {index}")
    name = f"{IMAGES_DIR}/{index:06d}.jpg"
    (Path(out) / name).write_bytes(jpeg.tobytes())
    scene.record.file_name = name
    return index, scene.record


def generate(config: GenerateConfig, progress: Callable[[int, int], None] | None = None) -> tuple[Path, float]:
    """Render ``config.count`` scenes into ``config.out``; return the annotations path and seconds taken."""
    start = time.perf_counter()
    styles = tuple(resolve_styles(list(config.styles) or None))
    out = Path(config.out)
    (out / IMAGES_DIR).mkdir(parents=True, exist_ok=True)
    jobs = [(config.seed, i, styles, str(out), config.mix_bodies, config.scale) for i in range(config.count)]
    records: list[ImageRecord | None] = [None] * config.count
    if config.workers > 1 and config.count > 1:
        ctx = mp.get_context("fork")
        with ctx.Pool(config.workers) as pool:
            for done, (i, rec) in enumerate(pool.imap_unordered(_render_one, jobs, chunksize=4), start=1):
                records[i] = rec
                if progress:
                    progress(done, config.count)
    else:
        for done, job in enumerate(jobs, start=1):
            i, rec = _render_one(job)
            records[i] = rec
            if progress:
                progress(done, config.count)
    final: list[ImageRecord] = []
    for i, made in enumerate(records):
        assert made is not None
        made.split = config.split or split_of(config.seed, i, config.val_share, config.test_share)
        final.append(made)
    info = {
        "name": "pungchow-synthetic",
        "description": "Synthetic finished mahjong hands rendered by pungchow_data (datasets/MANIFEST.md lists every source)",
        "version": FORMAT_VERSION,
        "seed": config.seed,
        "count": config.count,
        "styles": [s.name for s in styles],
        "licence": "CC0-1.0 for the renders; tile art and fonts keep their own licences (see licenses)",
        "command": f"pungchow data generate {out} --count {config.count} --seed {config.seed}"
        + (f" --styles {' '.join(s.name for s in styles)}" if config.styles else "")
        + (f" --split {config.split}" if config.split else "")
        + (f" --mix-bodies {config.mix_bodies}" if config.mix_bodies else "")
        + (f" --scale {config.scale:g}" if config.scale != 1.0 else ""),
    }
    path = write_annotations(out, final, info, synthetic_licenses([s.name for s in styles]))
    return path, time.perf_counter() - start


def summary(path: Path) -> dict[str, object]:
    """Image and tile counts per class of a written dataset, for the report and the note."""
    data = json.loads(Path(path).read_text())
    counts: dict[str, int] = {c["name"]: 0 for c in data["categories"]}
    images_with: dict[str, int] = {c["name"]: 0 for c in data["categories"]}
    per_image: dict[int, set[str]] = {}
    for a in data["annotations"]:
        counts[a["code"]] += 1
        per_image.setdefault(a["image_id"], set()).add(a["code"])
    for codes in per_image.values():
        for c in codes:
            images_with[c] += 1
    return {"images": len(data["images"]), "tiles": len(data["annotations"]), "tiles_per_class": counts, "images_per_class": images_with}
