"""The way-up reader: a reader taught only "is this tile upright?", for levelling (issue 34).

    python -m recognizer.train.way_up PACK --weights LITE0.pth --fold K [--out RUN.pt] [--seconds S] [--batch N]

The product's classifier is trained and read both ways up, so its reading says nothing of which way up a photo is,
and levelling turns a photo over on the detector's sureness; a detector fine-tuned on anything new then turns upright
prints over. This trains EfficientNet-Lite0 from ImageNet weights on the pack's upright crops (renders, HK crops, HK
photo tiles turned to stand, book tiles; not leo, whose photos hold tiles either way, nor distractors), each shown as
it is or turned half a turn, to say which, each kind of crop drawn its share of a batch as the classifier's are
(``fit_real.sampler``); then reads fold K's real crops, unseen, both ways, and prints per group of faces the share
whose way up it tells. Faces that look alike upside down (many dots and bamboo, blanks, backs) cannot be told and are
counted apart. ``--fold -1`` learns from every crop (the reader that ships: ``export_real RUN.pt --name way_up``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from recognizer.labels import CLASSES, WAY_UP_LABELS
from recognizer.train.effnet import TileReader, load_imagenet
from recognizer.train.fit_real import INPUT, batch_input, decode_pack, optimiser, sampler, scheduled
from recognizer.train.realtiles import BOOK, HK_CROP, HK_PHOTO, RENDER
from scoring.tiles import Suit, Tile

#: Crops whose way up is known: they are cut standing.
UPRIGHT_KINDS = (RENDER, HK_CROP, HK_PHOTO, BOOK)
#: Faces with no way up at all: a blank, a back, not a tile.
NO_WAY_UP = ("WD", "XX", "NT")
#: The groups printed, each the suits it holds.
GROUPS = {"characters": (Suit.CHARACTERS,), "winds": (Suit.WINDS,), "dragons": (Suit.DRAGONS,),
          "flowers and seasons": (Suit.FLOWERS, Suit.SEASONS), "dots": (Suit.DOTS,), "bamboo": (Suit.BAMBOO,)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("pack", type=Path)
    p.add_argument("--weights", type=Path, required=True)
    p.add_argument("--fold", type=int, required=True)
    p.add_argument("--seconds", type=float, default=240.0)
    p.add_argument("--steps", type=int, default=1500)
    p.add_argument("--seed", type=int, default=41)
    p.add_argument("--batch", type=int, default=256, help="crops a step (64 on a CPU)")
    p.add_argument("--out", type=Path, help="save the reader here (float16 weights)")
    a = p.parse_args(argv)
    if a.out is not None and a.out.exists():
        print(f"{a.out} exists; name another file")
        return 2
    pack = decode_pack(a.pack)
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(a.seed)
    g = torch.Generator(device=dev)
    g.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    codes = np.array([CLASSES[k] for k in pack["label"]])
    known = np.isin(pack["kind"], UPRIGHT_KINDS) & ~np.isin(codes, NO_WAY_UP)
    train, share = sampler(pack["kind"], known & (pack["fold"] != a.fold) if a.fold >= 0 else known)
    held = np.flatnonzero(known & (pack["fold"] == a.fold) & (pack["kind"] != RENDER)) if a.fold >= 0 else np.zeros(0, int)
    images = torch.as_tensor(pack["images"], device=dev)
    tight = torch.as_tensor(pack["kind"] == HK_CROP, device=dev)
    model = TileReader(len(WAY_UP_LABELS))
    load_imagenet(model.backbone, a.weights)
    model = model.to(dev)
    opt, base = optimiser(model)
    start, step = time.time(), 0
    while (progress := max(step / a.steps, (time.time() - start) / a.seconds)) < 1.0:
        scheduled(opt, base, progress)
        model.train()
        pick = torch.as_tensor(rng.choice(train, a.batch, p=share), device=dev)
        x = batch_input(images, pick, tight, g, train=True, half_turns=False)
        over = torch.rand(len(pick), generator=g, device=dev) < 0.5  # label 1, WAY_UP_LABELS' upside down
        x = torch.where(over.view(-1, 1, 1, 1), x.flip(2, 3), x)
        with torch.autocast("cuda", torch.bfloat16, enabled=dev.type == "cuda"):
            logits = model(x)[0]
        loss = F.cross_entropy(logits.float(), over.long())
        opt.zero_grad(set_to_none=True)
        loss.backward()  # type: ignore[no-untyped-call]  # torch's Tensor.backward has no annotations
        opt.step()
        step += 1
    print(f"fold {a.fold}: {step} steps in {time.time() - start:.0f}s", flush=True)
    model.eval()
    if a.out is not None:
        state = {k: (v.half() if v.is_floating_point() else v) for k, v in model.state_dict().items()}
        torch.save({"state": state, "fold": a.fold, "classes": list(WAY_UP_LABELS), "input": INPUT}, a.out)
        print(f"fold {a.fold}: saved {a.out}", flush=True)
    if not len(held):
        return 0
    right = np.zeros(len(held), bool)
    with torch.no_grad(), torch.autocast("cuda", torch.bfloat16, enabled=dev.type == "cuda"):
        for s in range(0, len(held), 256):
            part = torch.as_tensor(held[s:s + 256], device=dev)
            x = batch_input(images, part, tight, g, train=False)
            # as the product reads: the crop as it stands and turned over; the upright one must read surer upright
            up = model(x)[0].float().softmax(1)[:, 0]
            down = model(x.flip(2, 3))[0].float().softmax(1)[:, 0]
            right[s:s + len(part)] = (up > down).cpu().numpy()
    suits = [Tile.parse(c).suit for c in codes[held]]
    for name, members in GROUPS.items():
        mine = np.array([suit in members for suit in suits], bool)
        if mine.any():
            print(f"fold {a.fold} way up {name}: {right[mine].sum()}/{mine.sum()}", flush=True)
    print(f"fold {a.fold} way up all: {right.sum()}/{len(right)}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
