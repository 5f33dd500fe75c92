"""Train the bonus reader: the second reading that tells the eight flowers and seasons apart.

    python -m recognizer.train.bonus --steps 6000 --threads 2 --out artifacts/bonus1
    python -m recognizer.train.bonus --steps 6000 --threads 2 --out artifacts/bonus1 --resume artifacts/bonus1/bonus-ckpt.pt
    python -m recognizer.train.export bonus artifacts/bonus1/bonus.pt --out models

A flower and a season differ only in a number 1-4 and a small name (梅蘭菊竹 / 春夏秋冬), each set marking them
its own way (``pungchow_data.realsets.OTHER_MARKS``); in the classifier's 64x48 crop those are a few pixels, so it
reads them about half the time. The reader sees the same framing at 128x96, drawn on the fly from the training
families and classic styles (the held-out families and styles stay out), half flowers and seasons, the rest any
other tile or no tile ("other").
Each crop is shrunk to a tile 18-80 px wide and blown up again most of the time: a photo's tile is
rarely as sharp as a drawn one, and the reader must not invent a number it cannot see.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from recognizer.geometry import BONUS_H, BONUS_W, CROP_CONTEXT, crop_tile, to_input
from recognizer.labels import BONUS_LABELS, OTHER_THAN_BONUS
from recognizer.train.augment import photometric
from recognizer.train.checkpoint import Checkpoint, start
from recognizer.train.nets import BonusReader
from recognizer.train.prepare import CACHE_CONTEXT, box_in_crop
from recognizer.train.realcrops import OTHER_CODES, RealCropSource, not_a_tile, tile_crop, unknown_styles
from scoring.tiles import BONUS_CODES

#: Drawn crops are this size at ``CACHE_CONTEXT``, so the tile box is as many pixels as in the reader's input.
DRAWN_SIZE = (round(BONUS_H * CACHE_CONTEXT / CROP_CONTEXT), round(BONUS_W * CACHE_CONTEXT / CROP_CONTEXT))
BONUS_SHARE = 0.5
NOT_A_TILE_SHARE = 0.06
#: Chance of shrinking a crop to a small tile and blowing it up again, and the tile widths (px) it shrinks to.
LOW_RES = 0.75
LOW_RES_WIDTH = (18.0, 80.0)
#: The classic styles drawn beside the training families (the held-out ``western`` and ``blue-ink`` stay out).
CLASSIC_STYLES = ("hk-serif", "hk-sans", "bone-bamboo", "hk-classic", "modern", "fluffy", "fluffy-dark")
OTHER = BONUS_LABELS.index(OTHER_THAN_BONUS)


#: Share of each batch cut from rendered and photographed scenes (``prepare_scenes``) when a scene cache is given:
#: scenes show tiles as a camera does (steep views, thick sides, neighbours, lying sideways), drawn crops do not.
SCENE_SHARE = 0.5
#: Chance of keeping a scene's tile that is not a flower or season (they outnumber the eight five to one).
SCENE_OTHER_KEEP = 0.3
#: Chance of a crop turned a quarter and squeezed, as a sideways tile in a box too square for ``crop_tile`` to turn.
QUARTER_TURN = 0.15
#: The tile whose face is a painting too: a bird on the 1 of bamboo, which a reader that has seen few birds takes for a
#: flower or season. ``--bird-share S`` draws it for a share S of the drawn "other" tiles (not the crops of no tile;
#: 0: as often as any other face).
BIRD = "1B"


def prepare_scenes(datasets: list[str], out: str, seed: int = 0) -> Path:
    """Cut every flower and season (and a share of the other tiles) of the datasets' train split at ``DRAWN_SIZE``."""
    from recognizer.coco import DatasetError, load_dataset
    from recognizer.labels import CLASSES

    rng = np.random.default_rng(seed)
    crops: list[np.ndarray] = []
    labels: list[int] = []
    for root in datasets:
        ds = load_dataset(root)
        for im in ds.split("train"):
            keep = [t for t in im.tiles if t.code in CLASSES and (t.code in BONUS_CODES or rng.random() < SCENE_OTHER_KEEP)]
            bgr = cv2.imread(str(ds.image_path(im)), cv2.IMREAD_COLOR) if keep else None
            if bgr is None:
                continue
            rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
            for t in keep:
                crops.append(crop_tile(rgb, np.array(t.bbox, np.float32), CACHE_CONTEXT, DRAWN_SIZE))
                labels.append(BONUS_LABELS.index(t.code) if t.code in BONUS_CODES else OTHER)
    if not crops:
        raise DatasetError(f"the train splits of {', '.join(datasets)} hold no readable labelled tiles: nothing to cut")
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, crops=np.stack(crops), labels=np.array(labels, np.int64))
    return path


class BonusCropSource:
    """(128x96 reader crop, BONUS_LABELS index) pairs drawn from a pool of sets."""

    def __init__(self, styles: list[str], rng: np.random.Generator, scenes: str | None = None,
                 bird_share: float = 0.0) -> None:
        self.sets = RealCropSource(styles, rng)
        self.rng = rng
        self.bird_share = bird_share
        self.scene_crops = self.scene_labels = None
        if scenes:
            with np.load(scenes) as z:
                self.scene_crops, self.scene_labels = z["crops"], z["labels"]
            bonus = self.scene_labels != OTHER
            # half the scene crops drawn are flowers and seasons, as in the drawn ones
            w = np.where(bonus, BONUS_SHARE / max(1, bonus.sum()), (1 - BONUS_SHARE) / max(1, (~bonus).sum()))
            self.scene_p = w / w.sum()

    def drawn(self) -> tuple[np.ndarray, int]:
        """One crop at ``DRAWN_SIZE`` (context ``CACHE_CONTEXT``) and its label."""
        rng = self.rng
        entry = self.sets.next_set()
        r = rng.random()
        if r < NOT_A_TILE_SHARE:
            return not_a_tile(rng, entry, DRAWN_SIZE), OTHER
        style, faces = entry
        if r < NOT_A_TILE_SHARE + BONUS_SHARE:
            code = BONUS_CODES[int(rng.integers(len(BONUS_CODES)))]
            return tile_crop(rng, style, faces, code, DRAWN_SIZE), BONUS_LABELS.index(code)
        if self.bird_share and rng.random() < self.bird_share:
            return tile_crop(rng, style, faces, BIRD, DRAWN_SIZE), OTHER
        code = OTHER_CODES[int(rng.integers(len(OTHER_CODES)))]
        return tile_crop(rng, style, faces, code, DRAWN_SIZE), OTHER

    def batch(self, n: int, train: bool = True) -> tuple[np.ndarray, np.ndarray]:
        n_scene = round(n * SCENE_SHARE) if self.scene_crops is not None else 0
        made = [self.drawn() for _ in range(n - n_scene)]
        if n_scene and self.scene_crops is not None and self.scene_labels is not None:
            picks = self.rng.choice(len(self.scene_p), size=n_scene, p=self.scene_p)
            made += [(self.scene_crops[i], int(self.scene_labels[i])) for i in picks]
        crops = np.stack([reader_crop(c, self.rng, train) for c, _ in made])
        return crops, np.array([label for _, label in made], np.int64)


def reader_crop(drawn: np.ndarray, rng: np.random.Generator, train: bool) -> np.ndarray:
    """Frame a drawn crop as ``read_flowers_and_seasons`` frames a detected box; in training jitter the box, the light and the sharpness."""
    box = np.array(box_in_crop(drawn.shape[:2]))
    if not train:
        return crop_tile(drawn, box, CROP_CONTEXT, (BONUS_H, BONUS_W))
    box[2] *= rng.uniform(0.93, 1.07)
    if rng.random() < QUARTER_TURN:
        from recognizer.train.train import sideways

        drawn, box = sideways(drawn, box, rng)
    shift = (rng.uniform(-0.08, 0.08), rng.uniform(-0.06, 0.06))
    c = crop_tile(drawn, box, CROP_CONTEXT * rng.uniform(0.9, 1.15), (BONUS_H, BONUS_W), shift=shift)
    if rng.random() < LOW_RES:
        f = rng.uniform(*LOW_RES_WIDTH) / (BONUS_W / CROP_CONTEXT)
        small = cv2.resize(c, (max(4, round(BONUS_W * f)), max(4, round(BONUS_H * f))), interpolation=cv2.INTER_AREA)
        if rng.random() < 0.4:
            ok, enc = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 90))])
            decoded = cv2.imdecode(enc, cv2.IMREAD_UNCHANGED) if ok else None
            small = small if decoded is None else decoded
        c = cv2.resize(small, (BONUS_W, BONUS_H), interpolation=cv2.INTER_LINEAR)
    return photometric(c, rng)


def train_bonus(styles: list[str], steps: int, out: str, batch: int = 64, seed: int = 0, lr: float = 3e-3,
                resume: str | None = None, checkpoint_every: float = 180.0, stop_at: int | None = None,
                scenes: str | None = None, init: str | None = None, bird_share: float = 0.0) -> None:
    """Train the reader (from scratch, or from ``init`` weights) on drawn crops and, with ``scenes``, crops cut from
    scenes; checkpoints as the classifier's (``OUT/bonus-ckpt.pt``, SIGTERM saves)."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    source = BonusCropSource(styles, rng, scenes, bird_share)
    val_source = BonusCropSource(styles, np.random.default_rng([seed, 7]), bird_share=bird_share)
    val_x, val_y = val_source.batch(512, train=False)
    model, opt, sched = start(BonusReader(), init, lr, steps, warm_up=0.1)
    ckpt = Checkpoint(out, "bonus", model, opt, sched, steps, {"rng": rng})
    first = ckpt.resume(resume) if resume else 1
    ckpt.save_on_sigterm()
    t0 = last = time.time()
    for step in range(first, min(steps, stop_at or steps) + 1):
        model.train()
        x, y = source.batch(batch)
        loss = F.cross_entropy(model(torch.from_numpy(to_input(x))), torch.from_numpy(y), label_smoothing=0.05)
        ckpt.optimise(loss, step)
        if step % 200 == 0 or step == steps:
            model.eval()
            with torch.no_grad():
                pred = model(torch.from_numpy(to_input(val_x))).argmax(1).numpy()
            bonus = val_y != OTHER
            print(f"bonus step {step}/{steps} loss {loss.item():.3f} val {np.mean(pred == val_y):.3f} "
                  f"flowers+seasons {np.mean(pred[bonus] == val_y[bonus]):.3f} other {np.mean(pred[~bonus] == OTHER):.3f} "
                  f"{time.time() - t0:.0f}s", flush=True)
        if time.time() - last > checkpoint_every:
            ckpt.save()
            last = time.time()
    ckpt.save()
    print(f"bonus reader done in {time.time() - t0:.0f}s", flush=True)


def main() -> None:
    from pungchow_data.realsets import family_names

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=6000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0, help="seed of the drawn crops and of the network's start")
    ap.add_argument("--out", default="artifacts/bonus")
    ap.add_argument("--families", nargs="+", default=["train"], help="real-set families to draw ('train' = all but the held-out ones)")
    ap.add_argument("--classic", nargs="*", default=list(CLASSIC_STYLES), help="classic styles drawn beside the families")
    ap.add_argument("--scenes", help="scene crops made by --prepare, drawn for half of each batch")
    ap.add_argument("--prepare", nargs="+", metavar="DATASET", help="cut the datasets' train-split tiles into --scenes and stop")
    ap.add_argument("--init", help="reader weights (OUT/bonus.pt) to start from")
    ap.add_argument("--bird-share", type=float, default=0.0,
                    help="share of the drawn 'other' tiles that are a 1 of bamboo's bird (0-1; default 0: as any other face)")
    ap.add_argument("--resume", help="checkpoint (OUT/bonus-ckpt.pt) to continue from, same --steps")
    ap.add_argument("--stop-at", type=int, help="end the run (checkpoint kept) after this step")
    ap.add_argument("--checkpoint-every", type=float, default=180.0, help="seconds between checkpoints")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    if args.steps < 1:
        ap.error(f"--steps must be at least 1, not {args.steps}")
    if not 0.0 <= args.bird_share <= 1.0:
        ap.error(f"--bird-share is a share of the drawn 'other' tiles, from 0 to 1, not {args.bird_share}")
    if unknown := unknown_styles(family_names(args.families) + list(args.classic)):
        ap.error(f"no family or classic style named {', '.join(unknown)} (--families, --classic)")
    for d in args.prepare or []:
        if not (Path(d) / "annotations.json").is_file():
            ap.error(f"{d} has no annotations.json: give dataset folders (pungchow data generate / import-leo)")
    for flag, f in (("--init", args.init), ("--resume", args.resume), ("--scenes", None if args.prepare else args.scenes)):
        if f and not Path(f).is_file():
            ap.error(f"{flag} {f}: no such file" + (" (make it with --prepare DATASETS --scenes FILE)" if flag == "--scenes" else ""))
    if args.prepare:
        if not args.scenes:
            ap.error("--prepare writes the file named by --scenes: give both")
        from recognizer.coco import DatasetError

        try:
            print(prepare_scenes(args.prepare, args.scenes))
        except DatasetError as exc:
            ap.error(str(exc))
        return
    train_bonus(family_names(args.families) + list(args.classic), args.steps, args.out, lr=args.lr, resume=args.resume,
                checkpoint_every=args.checkpoint_every, stop_at=args.stop_at, scenes=args.scenes, init=args.init,
                seed=args.seed, bird_share=args.bird_share)


if __name__ == "__main__":
    main()
