"""Our recognizer beside the peer (mahjong-detector 0.0.6) on the same labelled photos, same metrics.

The peer is never a dependency; install it only to run this bench:

    pip install mahjong-detector==0.0.6
    pungchow data import-leo data/leo
    python bench/bench_recognizer.py data/leo --split test      # or --split all
    python bench/bench_recognizer.py --latency PHOTO.jpg --runs 30   # ours alone, photo -> hand JSON
    python bench/bench_recognizer.py --latency PHOTO.jpg --tileset pungchow-1922   # the same, reading with a tile set
    python bench/bench_recognizer.py --make-12mp SOURCE.jpg OUT.jpg   # a 12-megapixel test photo: upscaled, noise sigma 4, quality 92

Both are matched at IoU >= 0.5 with the right code (recognizer.evaluate.Counts), timed per photo
(file -> tiles) on the same machine. The peer knows 34 riichi classes only (no flowers, seasons
or tile backs), so on sets with those it cannot reach full recall.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pungchow_data.coco import load_dataset  # noqa: E402
from recognizer.evaluate import Counts  # noqa: E402
from recognizer.pipeline import recognize  # noqa: E402

#: The peer's class names -> our codes (m characters, p dots, s bamboo; chun red, hatsu green, haku white).
PEER_CODES = {
    **{f"{n}m": f"{n}C" for n in range(1, 10)}, **{f"{n}p": f"{n}D" for n in range(1, 10)}, **{f"{n}s": f"{n}B" for n in range(1, 10)},
    "chun": "RD", "hatsu": "GD", "haku": "WD", "tou": "EW", "nan": "SW", "sha": "WW", "pe": "NW",
}


def peer_runner():  # type: ignore[no-untyped-def]
    try:
        from PIL import Image

        from mahjong_detector.predict import CLASS_NAMES, predict
        from mahjong_detector.preprocess import preprocess_image
    except ImportError:
        sys.exit("the peer is not installed: pip install mahjong-detector==0.0.6 (for this bench only)")

    def run(path: Path, size: tuple[int, int]) -> tuple[np.ndarray, list[str], np.ndarray]:
        img, padding = preprocess_image(Image.open(path))
        dets = predict(img, padding)
        boxes = np.array([[d.x1, d.y1, d.x2 - d.x1, d.y2 - d.y1] for d in dets], np.float32).reshape(-1, 4)
        return boxes, [PEER_CODES[CLASS_NAMES[d.class_id]] for d in dets], np.array([d.confidence for d in dets], np.float32)

    return run


def ours(path: Path, size: tuple[int, int]) -> tuple[np.ndarray, list[str], np.ndarray]:
    """Our boxes in the pixels of the labelled photo (``size``), as the peer's are: a big photo is read smaller."""
    res = recognize(path)
    d = res.detections
    return res.boxes_at(*size), [d.code(i) for i in range(len(d))], d.scores


def make_12mp(source: Path, out: Path) -> int:
    """A 12-megapixel phone-sized JPEG from a smaller photo (upscaled, sensor-like noise), for timing."""
    import cv2

    img = cv2.imread(str(source))
    if img is None:
        print(f"cannot read {source}", file=sys.stderr)
        return 2
    grow = (12e6 / (img.shape[0] * img.shape[1])) ** 0.5
    big = cv2.resize(img, None, fx=grow, fy=grow, interpolation=cv2.INTER_CUBIC).astype(np.float32)
    big += np.random.default_rng(0).normal(0, 4, big.shape).astype(np.float32)
    cv2.imwrite(str(out), np.clip(big, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 92])
    print(f"wrote {out} ({big.shape[1]}x{big.shape[0]})")
    return 0


def latency(photo: Path, runs: int, tileset_name: str | None = None) -> int:
    """Photo file -> hand JSON, timed end to end (models and tile set already loaded), with the share of each step."""
    from recognizer.tileset import load_tileset

    tileset = load_tileset(tileset_name) if tileset_name else None
    recognize(photo, tileset)
    total, cpu, steps = [], [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        res = recognize(photo, tileset)
        res.hand.to_json()
        total.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        steps.append(res.timings_ms)
    med = {k: round(float(np.median([s[k] for s in steps])), 1) for k in steps[0]}
    print(f"{photo} ({res.size[0]}x{res.size[1]} after reduced decode), {runs} runs, {len(res.detections)} tiles, "
          f"tile set {tileset_name or 'none'}")
    print(f"photo -> hand JSON: median {np.median(total):.1f} ms, p90 {np.percentile(total, 90):.1f} ms "
          f"(CPU time, all threads: median {np.median(cpu):.1f} ms); median per step {med}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dataset", nargs="?")
    ap.add_argument("--split", default="test", help="train, val, test or all (default test)")
    ap.add_argument("--latency", metavar="PHOTO", type=Path, help="time ours on one photo instead")
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--tileset", metavar="NAME", help="with --latency: read with this calibrated tile set")
    ap.add_argument("--make-12mp", nargs=2, metavar=("SOURCE", "OUT"), type=Path, help="write a 12-megapixel test photo (same shape as SOURCE) and stop")
    args = ap.parse_args()
    if args.make_12mp:
        return make_12mp(*args.make_12mp)
    if args.latency:
        return latency(args.latency, args.runs, args.tileset)
    if not args.dataset:
        ap.error("give a dataset folder, or --latency PHOTO")
    ds = load_dataset(args.dataset)
    images = list(ds.images) if args.split == "all" else ds.split(args.split)
    runners = {"pungchow": ours, "mahjong-detector 0.0.6": peer_runner()}
    tallies = {name: Counts() for name in runners}
    for im in images:
        path = ds.image_path(im)
        gt_boxes = np.array([t.bbox for t in im.tiles], np.float32).reshape(-1, 4)
        gt_codes = [t.code for t in im.tiles]
        for name, run in runners.items():
            run(path, (im.width, im.height))  # warm: model load and first-call costs are not per-photo latency
            t0 = time.perf_counter()
            boxes, codes, scores = run(path, (im.width, im.height))
            tallies[name].latency_ms.append((time.perf_counter() - t0) * 1000)
            tallies[name].add(gt_boxes, gt_codes, boxes, codes, scores)
    rows = [("precision", "precision"), ("recall", "recall"), ("F1", "f1"), ("photos all right", "images_all_right")]
    sums = {name: t.summary() for name, t in tallies.items()}
    names = list(runners)
    print(f"{args.dataset} [{args.split}]: {len(images)} photos, {sums[names[0]]['tiles']} tiles (IoU >= 0.5 and the right code)")
    print(f"{'':<22}" + "".join(f"{n:>26}" for n in names))
    for label, key in rows:
        print(f"{label:<22}" + "".join(f"{sums[n][key]:>26}" for n in names))
    for label, key in (("latency median ms", "median"), ("latency p90 ms", "p90")):
        print(f"{label:<22}" + "".join(f"{sums[n]['latency_ms'][key]:>26}" for n in names))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
