"""Train the classifier or the detector on cached data; export ONNX with its sidecar afterwards.

    python -m recognizer.train.train prepare --data data/rec-synth-train2 data/rec-synth-train data/rec-leo --cache artifacts/cache3
    python -m recognizer.train.train classifier --cache artifacts/cache3 --steps 10000 --lr 3e-3 --threads 2 --out artifacts/r3
    python -m recognizer.train.train detector --cache artifacts/cache3 --steps 4000 --init artifacts/r3/detector.pt --grids 0.15 \
        --lr 8e-4 --out artifacts/r4
    python -m recognizer.train.export classifier artifacts/r3/classifier.pt --out models
    python -m recognizer.train.export detector artifacts/r4/detector.pt --out models
    # real-set families on the fly, upside-down crops, from the shipped weights; resumable (SIGTERM saves a checkpoint)
    python -m recognizer.train.train classifier --cache artifacts/cache-real --steps 8000 --lr 1e-3 --init-onnx models/classifier.onnx \
        --real-share 0.5 --threads 1 --out artifacts/real1
    python -m recognizer.train.train classifier --cache artifacts/cache-real --steps 8000 --lr 1e-3 --real-share 0.5 --threads 1 \
        --out artifacts/real1 --resume artifacts/real1/classifier-ckpt.pt

models/MODEL_CARD.md lists the whole chain of runs behind the shipped models, their data and times.
"""

from __future__ import annotations

import argparse
import math
import pickle
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from recognizer.detect import SMALL_TILE, framed
from recognizer.geometry import CROP_H, CROP_W, DETECT_LONG_SIDE, STRIDE, to_input
from recognizer.labels import CLASSES
from recognizer.train.augment import photometric
from recognizer.train.checkpoint import Checkpoint, start
from recognizer.train.grids import grid_scene
from recognizer.train.nets import TileClassifier, TileDetector
from recognizer.train.prepare import box_in_crop, prepare

LEO_WEIGHT = 8.0
#: Crop context is jittered by this factor: detected boxes run tighter or looser than labelled ones.
CONTEXT_JITTER = (0.9, 1.15)
#: Chance of permuting a training crop's colour channels (0 in the first run).
CHANNEL_SHUFFLE = 0.0
#: Chance of turning a training crop grey (halftone prints, old book photos). In grey a pale back and a blank
#: white dragon differ only in brightness, so a high share teaches the classifier to guess between them.
GREY = 0.25
#: Chance of turning a training crop half a turn: tiles read from across the table lie upside down
#: (and a sideways tile's crop, turned a quarter by ``crop_tile``, comes out either way up).
HALF_TURN = 0.0
#: Chance of a tile lying sideways in a box too square for ``crop_tile`` to turn (a sideways tile foreshortened
#: by the camera, or a photo taken from the side of the table): the crop is turned a quarter and squeezed.
QUARTER_TURN = 0.0
#: Largest tilt (degrees) of a training tile in the photo's plane, either way; half the crops are tilted (0: none).
#: A hand held a little askew, or a row laid in a curve, gives tilted tiles in boxes that fit them loosely.
TILT = 0.0


def _load(cache: str, split: str) -> dict[str, Any]:
    with open(Path(cache) / f"{split}.pkl", "rb") as f:
        data: dict[str, Any] = pickle.load(f)
    return data


def _weights(sources: list[str]) -> np.ndarray:
    w = np.array([LEO_WEIGHT if "leo" in s.lower() else 1.0 for s in sources])
    share: np.ndarray = w / w.sum()
    return share


# --- classifier -----------------------------------------------------------------------------

def sideways(crop: np.ndarray, box: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The cached crop turned a quarter either way and squeezed across, its box now nearly square (aspect 0.9-1.15)."""
    h, w = crop.shape[:2]
    turned = np.ascontiguousarray(np.rot90(crop, 1 if rng.random() < 0.5 else -1))  # (w, h)
    x, y, bw, bh = box
    nb = np.array([y, x, bh, bw], np.float64)  # the box in the turned crop (centred crops: symmetric)
    f = rng.uniform(0.9, 1.15) * nb[3] / nb[2]
    out = cv2.resize(turned, (max(2, round(h * f)), w), interpolation=cv2.INTER_AREA)
    nb[0] *= out.shape[1] / h
    nb[2] *= out.shape[1] / h
    return out, nb


def tilted(crop: np.ndarray, box: np.ndarray, degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """The crop turned ``degrees`` about the tile's centre, and the box that now holds the turned tile: wider and taller,
    as a detector's upright box round a tilted tile is. The corners the turn uncovers mirror the table next to them."""
    x, y, w, h = (float(v) for v in box)
    centre = (x + w / 2, y + h / 2)
    m = cv2.getRotationMatrix2D(centre, degrees, 1.0)
    out = cv2.warpAffine(crop, m, (crop.shape[1], crop.shape[0]), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101)
    c, s = abs(np.cos(np.radians(degrees))), abs(np.sin(np.radians(degrees)))
    tw, th = w * c + h * s, w * s + h * c
    return out, np.array([centre[0] - tw / 2, centre[1] - th / 2, tw, th], np.float64)


def classifier_batch(crops: np.ndarray, idx: np.ndarray, rng: np.random.Generator, train: bool) -> np.ndarray:
    from recognizer.geometry import CROP_CONTEXT, crop_tile
    box = np.array(box_in_crop())
    out = np.empty((len(idx), CROP_H, CROP_W, 3), np.uint8)
    for k, i in enumerate(idx):
        if train:
            shift = (rng.uniform(-0.08, 0.08), rng.uniform(-0.06, 0.06))
            ctx = CROP_CONTEXT * rng.uniform(CONTEXT_JITTER[0], CONTEXT_JITTER[1])
            b = box.copy()
            b[2] *= rng.uniform(0.93, 1.07)
            src = crops[i]
            if rng.random() < QUARTER_TURN:
                src, b = sideways(src, b, rng)
            if TILT and rng.random() < 0.5:
                src, b = tilted(src, b, float(rng.uniform(-TILT, TILT)))
            c = crop_tile(src, b, ctx, shift=shift)
            if rng.random() < HALF_TURN:
                c = np.ascontiguousarray(c[::-1, ::-1])
            out[k] = photometric(c, rng, grey_p=GREY, shuffle_p=CHANNEL_SHUFFLE)
        else:
            out[k] = crop_tile(crops[i], box, CROP_CONTEXT)
    return out


def train_classifier(cache: str, steps: int, out: str, batch: int = 64, seed: int = 0, init: str | None = None, lr: float = 3e-3,
                     init_onnx: str | None = None, real_share: float = 0.0, families: list[str] | None = None,
                     resume: str | None = None, checkpoint_every: float = 180.0, stop_at: int | None = None) -> None:
    """Train (or, from ``init`` / ``init_onnx``, fine-tune) the classifier on cached crops and, for ``real_share``
    of each batch, crops drawn on the fly from the real-set ``families``.

    Every ``checkpoint_every`` seconds, at the end and on SIGTERM, ``OUT/classifier-ckpt.pt`` holds the weights,
    optimiser, schedule, step and random states; ``resume`` continues from such a file, same schedule;
    ``stop_at`` ends the run (with a checkpoint) after that step, to train in sittings.
    """
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    tr, va = _load(cache, "train"), _load(cache, "val")
    p = _weights(tr["sources"])
    model = TileClassifier()
    if init_onnx:
        idx = rng.choice(len(tr["crops"]), size=min(512, len(tr["crops"])), replace=False)
        load_onnx_weights(model, init_onnx, torch.from_numpy(to_input(classifier_batch(tr["crops"], idx, rng, False))))
    model, opt, sched = start(model, init, lr, steps, warm_up=0.1)
    real = None
    if real_share > 0:
        from recognizer.train.realcrops import RealCropSource

        real = RealCropSource(list(families or []), np.random.default_rng([seed, 1]))
    ckpt = Checkpoint(out, "classifier", model, opt, sched, steps,
                      {"rng": rng, **({"real_rng": real.rng} if real is not None else {})})
    first = ckpt.resume(resume) if resume else 1
    ckpt.save_on_sigterm()
    t0 = last = time.time()
    n_real = round(batch * real_share) if real is not None else 0
    for step in range(first, min(steps, stop_at or steps) + 1):
        model.train()
        idx = rng.choice(len(p), size=batch - n_real, p=p)
        imgs = classifier_batch(tr["crops"], idx, rng, True)
        labels = tr["labels"][idx]
        if n_real and real is not None:
            made = [real.sample() for _ in range(n_real)]
            extra = classifier_batch(np.stack([m[0] for m in made]), np.arange(n_real), rng, True)
            imgs = np.concatenate([imgs, extra])
            labels = np.concatenate([labels, np.array([m[1] for m in made], np.int64)])
        x = torch.from_numpy(to_input(imgs))
        y = torch.from_numpy(labels)
        logits, _ = model(x)
        loss = F.cross_entropy(logits, y, label_smoothing=0.05)
        ckpt.optimise(loss, step)
        if step % 200 == 0 or step == steps:
            acc = evaluate_classifier(model, va, rng)
            print(f"classifier step {step}/{steps} loss {loss.item():.3f} val {acc} {time.time() - t0:.0f}s", flush=True)
        if time.time() - last > checkpoint_every:
            ckpt.save()
            last = time.time()
    ckpt.save()
    print(f"classifier done in {time.time() - t0:.0f}s", flush=True)


def _norm(layer: torch.nn.Sequential) -> tuple[torch.nn.BatchNorm2d, torch.Tensor, torch.Tensor]:
    """A folded convolution's batch norm with its running mean and variance (such a norm always tracks them)."""
    bn = layer[1]
    assert isinstance(bn, torch.nn.BatchNorm2d) and bn.running_mean is not None and bn.running_var is not None
    return bn, bn.running_mean, bn.running_var


def load_onnx_weights(model: torch.nn.Module, path: str, sample: torch.Tensor) -> None:
    """Start from a shipped ONNX network (classifier or detector): its convolutions have the batch norms
    folded in, so each norm is refitted to the statistics the folded convolution gives on ``sample``
    (a batch of network inputs), which makes the torch network compute what the ONNX one does in
    training mode and in evaluation mode alike."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(path).graph
    init = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    for node in graph.node:  # the exporter stores equal weights once and names the copies by Identity nodes
        if node.op_type == "Identity" and node.input[0] in init:
            init[node.output[0]] = init[node.input[0]]
    convs = [n for n in graph.node if n.op_type == "Conv"]
    folded = {id(m[0]): m for m in model.modules() if isinstance(m, torch.nn.Sequential) and len(m) == 3
              and isinstance(m[0], torch.nn.Conv2d) and isinstance(m[1], torch.nn.BatchNorm2d)}
    targets = [m for m in model.modules() if isinstance(m, torch.nn.Conv2d)]
    if len(convs) != len(targets) or any(tuple(init[n.input[1]].shape) != tuple(t.weight.shape) for n, t in zip(convs, targets)):
        raise SystemExit(f"{path} does not hold the same network as {type(model).__name__}: rebuild from scratch instead")
    for name, tensor in model.state_dict().items():  # linear layers keep their names in the ONNX file; folded convolutions do not
        if name in init and tuple(init[name].shape) == tuple(tensor.shape):
            tensor.copy_(torch.from_numpy(init[name].copy()))
    layers: list[torch.nn.Sequential] = []
    biases: list[torch.Tensor] = []
    for node, conv in zip(convs, targets):
        conv.weight.data = torch.from_numpy(init[node.input[1]].copy())
        bias = torch.from_numpy(init[node.input[2]].copy()) if len(node.input) > 2 else torch.zeros(conv.out_channels)
        if id(conv) in folded:
            layers.append(folded[id(conv)])
            biases.append(bias)
        elif conv.bias is not None:
            conv.bias.data = bias
    stats: list[tuple[torch.Tensor, torch.Tensor]] = []
    hooks = [layer[0].register_forward_hook(lambda m, i, o: stats.append((o.mean((0, 2, 3)), o.var((0, 2, 3))))) for layer in layers]
    for layer, b in zip(layers, biases):  # identity norms plus the folded bias: the ONNX network exactly
        bn, running_mean, running_var = _norm(layer)
        running_mean.zero_()
        running_var.fill_(1 - bn.eps)
        bn.weight.data.fill_(1.0)
        bn.bias.data = b.clone()
    model.eval()
    with torch.no_grad():
        model(sample)
    for h in hooks:
        h.remove()
    for layer, b, (mean, var) in zip(layers, biases, stats):
        bn, running_mean, running_var = _norm(layer)
        std = torch.sqrt(var + bn.eps)
        running_mean.copy_(mean)
        running_var.copy_(var)
        bn.weight.data = std.clone()
        bn.bias.data = mean + b


@torch.no_grad()
def evaluate_classifier(model: TileClassifier, data: dict[str, Any], rng: np.random.Generator) -> str:
    model.eval()
    res = {}
    srcs = np.array(["leo" if "leo" in s.lower() else "synth" for s in data["sources"]])
    preds = np.empty(len(data["labels"]), np.int64)
    for a in range(0, len(preds), 512):
        idx = np.arange(a, min(a + 512, len(preds)))
        logits, _ = model(torch.from_numpy(to_input(classifier_batch(data["crops"], idx, rng, False))))
        preds[idx] = logits.argmax(1).numpy()
    for s in ("leo", "synth"):
        m = srcs == s
        if m.any():
            res[s] = round(float((preds[m] == data["labels"][m]).mean()), 4)
    return str(res)


# --- detector -------------------------------------------------------------------------------

DET_CROP = 256


def _gaussian(hm: np.ndarray, cx: float, cy: float, sx: float, sy: float) -> None:
    h, w = hm.shape
    x0, x1 = max(0, int(cx - 3 * sx)), min(w, int(cx + 3 * sx) + 2)
    y0, y1 = max(0, int(cy - 3 * sy)), min(h, int(cy + 3 * sy) + 2)
    if x0 >= x1 or y0 >= y1:
        return
    xs = np.arange(x0, x1)[None, :]
    ys = np.arange(y0, y1)[:, None]
    g = np.exp(-((xs - cx) ** 2) / (2 * sx * sx) - ((ys - cy) ** 2) / (2 * sy * sy))
    hm[y0:y1, x0:x1] = np.maximum(hm[y0:y1, x0:x1], g)


#: The tile sizes (short side, as a share of ``detect.SMALL_TILE``) a sample drawn as the second look sees it spans:
#: a tile the second look scales to 24 px, or one it leaves smaller because the look stops at ``detect.MAX_LONG_SIDE``.
SECOND_LOOK_SIZES = (0.5, 1.15)


def detector_sample(item: dict[str, Any], rng: np.random.Generator, second_look: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """One augmented DET_CROP square and its boxes (x, y, w, h) in crop pixels.

    Most samples are the photo at the first look's scale (0.6-1.6 times it). A ``second_look`` share of them are
    scaled as the second look scales a photo of small tiles (``detect.second_look``), from the pixels the cache
    keeps (``prepare --det-long-side``): without them the detector learnt those tiles only from blurred enlargements.
    """
    img = _decoded(item)
    boxes = item["boxes"].copy()
    first_look = DETECT_LONG_SIDE / item.get("long_side", DETECT_LONG_SIDE)
    if second_look and len(boxes) and rng.random() < second_look:
        tile = float(np.median(boxes[:, 2:].min(axis=1)))
        s = min(1.0, SMALL_TILE * math.exp(rng.uniform(*np.log(SECOND_LOOK_SIZES))) / max(tile, 1.0))
    else:
        s = first_look * math.exp(rng.uniform(math.log(0.6), math.log(1.6)))
    img = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    boxes *= s
    img, boxes = _flipped_or_turned(img, boxes, rng)
    h, w = img.shape[:2]
    fill = rng.integers(0, 256, 3).astype(np.uint8)
    canvas = np.empty((DET_CROP, DET_CROP, 3), np.uint8)
    canvas[:] = fill
    if len(boxes) and rng.random() < 0.8:
        b = boxes[rng.integers(len(boxes))]
        cx, cy = b[0] + b[2] / 2 + rng.uniform(-DET_CROP / 3, DET_CROP / 3), b[1] + b[3] / 2 + rng.uniform(-DET_CROP / 3, DET_CROP / 3)
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    ox, oy = int(cx - DET_CROP / 2), int(cy - DET_CROP / 2)
    sx0, sy0 = max(0, ox), max(0, oy)
    sx1, sy1 = min(w, ox + DET_CROP), min(h, oy + DET_CROP)
    if sx1 > sx0 and sy1 > sy0:
        canvas[sy0 - oy:sy1 - oy, sx0 - ox:sx1 - ox] = img[sy0:sy1, sx0:sx1]
    boxes = boxes - np.array([ox, oy, 0, 0], np.float32)
    return photometric(canvas, rng, grey_p=0.2), boxes


#: A close-up sample: a run of this many neighbouring tiles of a row (drawn evenly from the list) fills the frame,
CLOSE_UP_RUNS = (1, 1, 2, 2, 3, 4, 5, 6)
#: this share of its width (the frame 0.6-0.8 as tall as wide, or taller where the tiles need it, as one tile does),
CLOSE_UP_FILL = (0.7, 0.98)
#: its tiles' short side this many pixels in the canvas (the detector's own range, 0.6-1.6 of the base look's tiles).
CLOSE_UP_TILE = (14.0, 48.0)
#: A whole photo laid in a canvas is scaled to a long side in this range: a wide look's clumps of far tiles.
FRAMED_PHOTO_SIDE = (48.0, 224.0)


def _decoded(item: dict[str, Any]) -> np.ndarray:
    bgr = cv2.imdecode(np.frombuffer(item["jpg"], np.uint8), cv2.IMREAD_COLOR)
    if bgr is None:
        raise ValueError("a cached detector image is not a JPEG: run prepare again")
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


def _flipped_or_turned(img: np.ndarray, boxes: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Half mirrored left to right, a quarter turned a quarter counter-clockwise, as ``detector_sample`` does."""
    if rng.random() < 0.5:
        img = np.ascontiguousarray(img[:, ::-1])
        boxes = boxes.copy()
        boxes[:, 0] = img.shape[1] - boxes[:, 0] - boxes[:, 2]
    if rng.random() < 0.25:
        w_old = img.shape[1]
        img = np.ascontiguousarray(np.rot90(img))  # counter-clockwise: (x, y) -> (y, W - x)
        boxes = np.stack([boxes[:, 1], w_old - boxes[:, 0] - boxes[:, 2], boxes[:, 3], boxes[:, 2]], 1)
    return img, boxes


def close_up_sample(item: dict[str, Any], rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A close-up of a few neighbouring tiles (``CLOSE_UP_RUNS``) cut from a cached photo as a player frames one pung
    or kong, scaled so its tiles are the detector's size, laid in a DET_CROP canvas of its border's colour
    (``detect.framed``, as the close-up looks lay a photo), and the boxes of the tiles at least 60 % inside the cut,
    clipped to it."""
    boxes = item["boxes"]
    if not len(boxes):
        return detector_sample(item, rng)
    img = _decoded(item)
    k = int(rng.integers(len(boxes)))
    cy = boxes[:, 1] + boxes[:, 3] / 2
    row = np.flatnonzero(np.abs(cy - cy[k]) < 0.3 * boxes[k, 3])
    row = row[np.argsort(boxes[row, 0])]
    n = int(rng.choice(CLOSE_UP_RUNS))
    at = int(np.flatnonzero(row == k)[0])
    first = int(rng.integers(max(0, at - n + 1), at + 1))
    run = boxes[row[first:first + n]]
    x1, y1 = run[:, 0].min(), run[:, 1].min()
    x2, y2 = (run[:, 0] + run[:, 2]).max(), (run[:, 1] + run[:, 3]).max()
    fill = rng.uniform(*CLOSE_UP_FILL)
    width = (x2 - x1) / fill
    height = max(rng.uniform(0.6, 0.8) * width, (y2 - y1) / fill)
    cx = (x1 + x2) / 2 + rng.uniform(-0.05, 0.05) * width
    cy0 = (y1 + y2) / 2 + rng.uniform(-0.05, 0.05) * height
    h, w = img.shape[:2]
    left, top = int(max(0, cx - width / 2)), int(max(0, cy0 - height / 2))
    right, bottom = int(min(w, cx + width / 2)), int(min(h, cy0 + height / 2))
    if right - left < 4 or bottom - top < 4:
        return detector_sample(item, rng)
    tile = float(np.median(run[:, 2:].min(axis=1)))
    s = math.exp(rng.uniform(*np.log(CLOSE_UP_TILE))) / max(tile, 1.0)
    s = min(s, (DET_CROP - 16) / max(right - left, bottom - top))
    cut = cv2.resize(img[top:bottom, left:right], None, fx=s, fy=s, interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    ch, cw = cut.shape[:2]
    b = (boxes - np.array([left, top, 0, 0], np.float32)) * s
    bx1, by1 = np.clip(b[:, 0], 0, cw), np.clip(b[:, 1], 0, ch)
    bx2, by2 = np.clip(b[:, 0] + b[:, 2], 0, cw), np.clip(b[:, 1] + b[:, 3], 0, ch)
    inside = (bx2 - bx1) * (by2 - by1) >= 0.6 * b[:, 2] * b[:, 3]
    b = np.stack([bx1, by1, bx2 - bx1, by2 - by1], 1)[inside]
    cut, b = _flipped_or_turned(cut, b, rng)
    ch, cw = cut.shape[:2]
    ox, oy = int(rng.integers(0, DET_CROP - cw + 1)), int(rng.integers(0, DET_CROP - ch + 1))
    canvas, _ = framed(cut, (DET_CROP, DET_CROP), (ox, oy))
    return photometric(canvas, rng, grey_p=0.2), b + np.array([ox, oy, 0, 0], np.float32)


def framed_photo_sample(item: dict[str, Any], rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A whole cached photo shrunk to a long side of ``FRAMED_PHOTO_SIDE`` and laid in a canvas, as the close-up looks
    see a photo of a whole hand or table: its tiles are a few pixels, and a clump of them is no tile."""
    img = _decoded(item)
    s = math.exp(rng.uniform(*np.log(FRAMED_PHOTO_SIDE))) / max(img.shape[:2])
    img = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    img, boxes = _flipped_or_turned(img, item["boxes"] * s, rng)
    ch, cw = img.shape[:2]
    ox, oy = int(rng.integers(0, DET_CROP - cw + 1)), int(rng.integers(0, DET_CROP - ch + 1))
    canvas, _ = framed(img, (DET_CROP, DET_CROP), (ox, oy))
    return photometric(canvas, rng, grey_p=0.2), boxes + np.array([ox, oy, 0, 0], np.float32)


def detector_targets(boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Heatmap (1, H, W), regression (4, H, W) and its mask (1, H, W) at stride STRIDE."""
    n = DET_CROP // STRIDE
    hm = np.zeros((n, n), np.float32)
    reg = np.zeros((4, n, n), np.float32)
    mask = np.zeros((n, n), np.float32)
    for x, y, w, h in boxes:
        cx, cy = (x + w / 2) / STRIDE, (y + h / 2) / STRIDE
        # a tile cut by the crop edge: visible part at least 60 %
        vis_w = min(x + w, DET_CROP) - max(x, 0)
        vis_h = min(y + h, DET_CROP) - max(y, 0)
        if vis_w <= 0 or vis_h <= 0 or vis_w * vis_h < 0.6 * w * h or w < 4 or h < 4:
            continue
        ix, iy = int(cx), int(cy)
        if not (0 <= ix < n and 0 <= iy < n):
            continue
        _gaussian(hm, cx - 0.5, cy - 0.5, max(0.6, w / STRIDE / 6), max(0.6, h / STRIDE / 6))
        hm[iy, ix] = 1.0
        reg[:, iy, ix] = (math.log(w / STRIDE), math.log(h / STRIDE), cx - ix, cy - iy)
        mask[iy, ix] = 1.0
    return hm[None], reg, mask[None]


def focal_loss(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    neg = 1 - pos
    pos_loss = -torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = -torch.log(1 - p) * p ** 2 * (1 - target) ** 4 * neg
    return (pos_loss.sum() + neg_loss.sum()) / pos.sum().clamp(min=1)


def train_detector(cache: str, steps: int, out: str, batch: int = 8, seed: int = 0, init: str | None = None,
                   grid_p: float = 0.0, lr: float = 2e-3, init_onnx: str | None = None, second_look: float = 0.0,
                   captions: float = 0.0, close_ups: float = 0.0, framed_photos: float = 0.0, name: str = "detector") -> None:
    """Train (or, from ``init`` / ``init_onnx``, fine-tune) the detector; ``close_ups`` of the samples are close-ups
    laid in a canvas (``close_up_sample``), ``framed_photos`` whole photos laid so (``framed_photo_sample``); of the
    rest, ``grid_p`` are grid scenes on paper (``captions`` of their gaps printed), ``second_look`` of the others are
    scaled as the second look scales small tiles (``detector_sample``). Saved as OUT/NAME.pt."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    tr = _load(cache, "train")
    det = tr["det"]
    p = _weights([d["source"] for d in det])
    nt = CLASSES.index("NT")
    model = TileDetector()
    if init_onnx:
        picks = rng.choice(len(det), size=min(64, len(det)), replace=False)
        load_onnx_weights(model, init_onnx, torch.from_numpy(to_input(np.stack([detector_sample(det[i], rng)[0] for i in picks]))))
    model, opt, sched = start(model, init, lr, steps, warm_up=0.05)
    t0 = time.time()
    for step in range(1, steps + 1):
        model.train()
        imgs, hms, regs, masks = [], [], [], []
        for i in rng.choice(len(det), size=batch, p=p):
            r = rng.random()
            if r < close_ups:
                img, boxes = close_up_sample(det[i], rng)
            elif r < close_ups + framed_photos:
                img, boxes = framed_photo_sample(det[i], rng)
            elif rng.random() < grid_p:
                img, boxes = grid_scene(tr["crops"], tr["labels"], nt, DET_CROP, rng, captions)
            else:
                img, boxes = detector_sample(det[i], rng, second_look)
            hm, reg, mask = detector_targets(boxes)
            imgs.append(img)
            hms.append(hm)
            regs.append(reg)
            masks.append(mask)
        x = torch.from_numpy(to_input(np.stack(imgs)))
        y = model(x)
        hm_t, reg_t, mask_t = (torch.from_numpy(np.stack(a)) for a in (hms, regs, masks))
        l_hm = focal_loss(y[:, :1], hm_t)
        l_reg = (F.l1_loss(y[:, 1:], reg_t, reduction="none") * mask_t).sum() / mask_t.sum().clamp(min=1)
        loss = l_hm + l_reg
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]  # torch's Tensor.backward has no annotations
        opt.step()
        sched.step()
        if step % 100 == 0 or step == steps:
            print(f"detector step {step}/{steps} heat {l_hm.item():.3f} reg {l_reg.item():.3f} {time.time() - t0:.0f}s", flush=True)
        if step % 1000 == 0:
            torch.save(model.state_dict(), Path(out) / f"{name}.pt")
    torch.save(model.state_dict(), Path(out) / f"{name}.pt")
    print(f"detector done in {time.time() - t0:.0f}s", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["prepare", "classifier", "detector"])
    ap.add_argument("--data", nargs="*", default=[])
    ap.add_argument("--mine", nargs="*", default=[], help="datasets among --data whose detector false alarms become not-a-tile crops")
    ap.add_argument("--cache", default="artifacts/cache")
    ap.add_argument("--out", default="artifacts")
    ap.add_argument("--steps", type=int, default=4000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0,
                    help="seed of the run's draws (a run continued from another's weights wants a new one)")
    ap.add_argument("--init", help="detector weights to fine-tune from")
    ap.add_argument("--grids", type=float, default=0.0, help="share of detector samples drawn as tile grids on paper")
    ap.add_argument("--grid-captions", type=float, default=0.0,
                    help="share of the gaps between a grid's rows that hold a line of print (recognizer/train/grids.py)")
    ap.add_argument("--second-look", type=float, default=0.0,
                    help="share of detector samples scaled as the second look scales small tiles (a cache made with --det-long-side)")
    ap.add_argument("--det-long-side", type=int, default=DETECT_LONG_SIDE,
                    help="prepare: long side the detector images are kept at (never scaled up above the first look's)")
    ap.add_argument("--distractor-scenes", type=int, default=0,
                    help="prepare: drawn hands beside keyboards, cards, dominoes, print, cloth or counters added to the detector images")
    ap.add_argument("--book", type=Path, help="prepare: ../shared/realdev, whose dev 1922 book photos join the detector images")
    ap.add_argument("--book-held-out", nargs="*", default=[], metavar="NAME",
                    help="prepare: book photos (names without suffix) kept out of --book, to be measured on")
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--leo-weight", type=float, default=LEO_WEIGHT, help="how much more often a leo photo's tile is drawn")
    ap.add_argument("--grey", type=float, default=GREY, help="chance of turning a crop grey")
    ap.add_argument("--channel-shuffle", type=float, default=CHANNEL_SHUFFLE, help="chance of permuting a crop's colour channels")
    ap.add_argument("--init-onnx", help="shipped ONNX network (models/classifier.onnx or models/detector.onnx) to fine-tune from")
    ap.add_argument("--resume", help="classifier checkpoint (OUT/classifier-ckpt.pt) to continue from, same --steps")
    ap.add_argument("--stop-at", type=int, help="end the classifier run after this step (checkpoint kept; go on with --resume)")
    ap.add_argument("--checkpoint-every", type=float, default=180.0, help="seconds between classifier checkpoints")
    ap.add_argument("--real-share", type=float, default=0.0, help="share of each classifier batch drawn on the fly from real-set families")
    ap.add_argument("--families", nargs="+", default=["train"], help="real-set families to draw ('train' = all but the held-out ones)")
    ap.add_argument("--quarter-turn", type=float, default=QUARTER_TURN, help="chance of a sideways tile squeezed into a square box")
    ap.add_argument("--half-turn", type=float, default=HALF_TURN, help="chance of turning a training crop upside down")
    ap.add_argument("--tilt", type=float, default=TILT, help="largest tilt in degrees, either way, of half the training crops")
    ap.add_argument("--bonus-share", type=float, default=None,
                    help="share of on-the-fly tile crops that are flowers and seasons (default 8/43)")
    ap.add_argument("--close-ups", type=float, default=0.0,
                    help="share of detector samples drawn as close-ups of a few tiles laid in a canvas (the close-up detector)")
    ap.add_argument("--framed-photos", type=float, default=0.0,
                    help="share of detector samples drawn as whole photos shrunk and laid in a canvas")
    ap.add_argument("--name", default="detector", help="the detector run's file name in --out (NAME.pt)")
    ap.add_argument("--context-min", type=float, default=CONTEXT_JITTER[0], help="smallest crop context jitter")
    args = ap.parse_args()
    shares = {"--grids": args.grids, "--grid-captions": args.grid_captions, "--second-look": args.second_look,
              "--grey": args.grey, "--channel-shuffle": args.channel_shuffle, "--real-share": args.real_share,
              "--quarter-turn": args.quarter_turn, "--half-turn": args.half_turn, "--bonus-share": args.bonus_share,
              "--close-ups": args.close_ups, "--framed-photos": args.framed_photos}
    for flag, share in shares.items():
        if share is not None and not 0.0 <= share <= 1.0:
            ap.error(f"{flag} is a share between 0 and 1, not {share}")
    if args.close_ups + args.framed_photos > 1.0:
        ap.error(f"--close-ups and --framed-photos are shares of one batch: together at most 1, not {args.close_ups + args.framed_photos}")
    if args.det_long_side < DETECT_LONG_SIDE:
        ap.error(f"--det-long-side is at least the detector's first look, {DETECT_LONG_SIDE} px, not {args.det_long_side}")
    if not 0.0 <= args.tilt <= 45.0:
        ap.error(f"--tilt is a largest tilt in degrees between 0 and 45 (beyond, a tile lies more sideways than upright), not {args.tilt}")
    labels = args.book / "book-1922" / "labels" if args.book is not None else None
    if labels is not None and not labels.is_dir():
        ap.error(f"--book {args.book} has no book-1922/labels: give the realdev folder (../shared/realdev)")
    if unknown := [n for n in args.book_held_out if labels is None or not (labels / f"{n}.json").is_file()]:
        ap.error(f"--book-held-out {' '.join(unknown)}: no such book photo in --book (names as its labels' files, "
                 "without .json)")
    if args.what != "prepare":
        for split in ("train", "val"):
            if not (Path(args.cache) / f"{split}.pkl").is_file():
                ap.error(f"--cache {args.cache} has no {split}.pkl: make it with "
                         f"python -m recognizer.train.train prepare --data DATASETS --cache {args.cache}")
    from pungchow_data.realsets import family_names
    from recognizer.train.realcrops import unknown_styles

    if args.what == "classifier" and args.real_share > 0 and (unknown := unknown_styles(family_names(args.families))):
        ap.error(f"--families: no family named {', '.join(unknown)} (give family names, 'train', 'heldout' or 'all')")
    torch.set_num_threads(args.threads)
    Path(args.out).mkdir(parents=True, exist_ok=True)
    if args.what == "prepare":
        if stray := [d for d in args.mine if d not in args.data]:
            ap.error(f"--mine {' '.join(stray)}: not among --data (a mined dataset is prepared like the others)")
        prepare(args.data, args.cache, ("train", "val", "test"), mine=tuple(args.mine), det_long_side=args.det_long_side,
                distractor_scenes=args.distractor_scenes, book=args.book, book_held_out=args.book_held_out)
    elif args.what == "classifier":
        globals().update(LEO_WEIGHT=args.leo_weight, CONTEXT_JITTER=(args.context_min, CONTEXT_JITTER[1]),
                         CHANNEL_SHUFFLE=args.channel_shuffle, GREY=args.grey, HALF_TURN=args.half_turn,
                         QUARTER_TURN=args.quarter_turn, TILT=args.tilt)
        if args.bonus_share is not None:
            from recognizer.train import realcrops

            realcrops.BONUS_SHARE = args.bonus_share
        train_classifier(args.cache, args.steps, args.out, seed=args.seed, init=args.init, lr=args.lr, init_onnx=args.init_onnx,
                         real_share=args.real_share, families=family_names(args.families), resume=args.resume,
                         checkpoint_every=args.checkpoint_every, stop_at=args.stop_at)
    else:
        train_detector(args.cache, args.steps, args.out, seed=args.seed, init=args.init, grid_p=args.grids, lr=args.lr,
                       init_onnx=args.init_onnx, second_look=args.second_look, captions=args.grid_captions,
                       close_ups=args.close_ups, framed_photos=args.framed_photos, name=args.name)


if __name__ == "__main__":
    main()
