"""The hand decoder on simulated hands of real tiles: hands read entirely right, tile by tile against the decoder.

    python bench/bench_decoder.py                  # 1000 hands, bonus tiles included, grouping known and unknown
    python bench/bench_decoder.py --hands 2000 --seed 1 --no-bonus
    python bench/bench_decoder.py --likeness 0     # the decoder without the photo's own likeness

Each hand is a legal hand (four sets and a pair, now and then a kong, 0-4 flowers and seasons) of one of the six
real Hong Kong sets in ``../shared/realdev/hk-sets`` (crops.csv: file, code, set), each tile a real crop of that set
of its face. Every crop is read once, as ``pungchow classify`` reads a tile image (``classify_tile_image``: the full
probability vector) and its embedding as the pipeline frames a tile (``run_classifier``); the readings are cached by
the installed classifier's (and bonus reader's, where one is installed) sha256, so a retrained model is read afresh. The crops never leave
``../shared``; without it the bench says so and stops.

"Grouping known": the photo shows each set apart (a laid-out group of three or four) and the pair and bonus tiles
loose; "unknown": every tile loose. A set of the bench's has one crop of most faces, so a pung's three tiles are
often one image: the likeness is then exact, which a photo's three real tiles are not.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "datasets")]

from recognizer.decode import BUDGET_STEPS, Layout, copies_in_a_set, decode  # noqa: E402
from recognizer.labels import CLASSES  # noqa: E402
from recognizer.likeness import pull_alike  # noqa: E402
from scoring.tiles import BONUS_CODES, PLAYING_CODES  # noqa: E402

HK_SETS = ROOT.parent / "shared" / "realdev" / "hk-sets"


@dataclass(frozen=True)
class Crops:
    """Every crop's code, set, probability vector and embedding."""

    codes: list[str]
    sets: list[str]
    probs: np.ndarray
    embedding: np.ndarray


def _cache_path() -> Path:
    from recognizer.models import models_dir, sha256

    installed = [models_dir() / f"{name}.onnx" for name in ("classifier", "bonus")]
    key = "-".join(sha256(path)[:12] for path in installed if path.is_file())  # the reader reads flowers itself since issue 40
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "pungchow"
    return base / f"bench_decoder-{key}.npz"


def read_crops(folder: Path) -> Crops:
    """Each crop read once by the product's classify path (cached under the models' sha256)."""
    rows = list(csv.DictReader((folder / "crops.csv").open()))
    cache = _cache_path()
    if cache.is_file():
        saved = np.load(cache)
        if len(saved["probs"]) == len(rows):
            return Crops([r["code"] for r in rows], [r["set"] for r in rows], saved["probs"], saved["embedding"])
    from recognizer.classify import classify_tile_image, crops_of, run_classifier, single_tile_box
    from recognizer.image import load_photo

    probs, embs = [], []
    started = time.perf_counter()
    for k, row in enumerate(rows):
        rgb = load_photo(folder / "crops" / row["file"])
        probs.append(classify_tile_image(rgb).probs[0])
        embs.append(run_classifier(crops_of(rgb, single_tile_box(rgb)[None]))[1][0])
        if sys.stderr.isatty():
            print(f"\rreading crops {k + 1}/{len(rows)}", end="", file=sys.stderr, flush=True)
    print(f"\nread {len(rows)} crops in {time.perf_counter() - started:.0f} s; cached in {cache}", file=sys.stderr)
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.savez(cache, probs=np.array(probs, np.float32), embedding=np.array(embs, np.float32))
    return read_crops(folder)


@dataclass(frozen=True)
class Hand:
    """One simulated hand: its tiles' crop indices and true codes, and which tiles lie together as sets."""

    crops: list[int]
    codes: list[str]
    sets: list[tuple[int, ...]]
    loose: list[int]
    bonus: list[int]


def make_hand(rng: np.random.Generator, crops: Crops, bonus: bool) -> Hand | None:
    """A legal hand of one set: four sets (chows, pungs, now and then a kong) and a pair, at most four of a face;
    0-4 of the set's flowers and seasons. None when the set lacks a face the draw needed."""
    name = str(rng.choice(sorted(set(crops.sets))))
    of_face: dict[str, list[int]] = {}
    for i, (code, s) in enumerate(zip(crops.codes, crops.sets)):
        if s == name:
            of_face.setdefault(code, []).append(i)
    faces = [c for c in PLAYING_CODES if c in of_face]
    used: dict[str, int] = {}
    groups: list[list[str]] = []
    for _ in range(4):
        for _try in range(50):
            kind = rng.choice(["chow", "pung", "kong"], p=[0.55, 0.4, 0.05])
            start = str(rng.choice(faces))
            if kind == "chow":
                if not start[0].isdigit() or int(start[0]) > 7:
                    continue
                group = [f"{int(start[0]) + k}{start[1]}" for k in range(3)]
            else:
                group = [start] * (3 if kind == "pung" else 4)
            if all(g in of_face and used.get(g, 0) + group.count(g) <= 4 for g in set(group)):
                break
        else:
            return None
        for g in group:
            used[g] = used.get(g, 0) + 1
        groups.append(group)
    pairs = [c for c in faces if used.get(c, 0) <= 2]
    pair = str(rng.choice(pairs))
    extras = [c for c in BONUS_CODES if c in of_face]
    n_bonus = int(rng.integers(0, min(4, len(extras)) + 1)) if bonus else 0
    flowers = [str(c) for c in rng.choice(extras, n_bonus, replace=False)] if n_bonus else []
    codes: list[str] = []
    sets: list[tuple[int, ...]] = []
    for group in groups:
        sets.append(tuple(range(len(codes), len(codes) + len(group))))
        codes += list(rng.permutation(group)) if rng.random() < 0.2 else group
    loose = [len(codes), len(codes) + 1]
    bonus = list(range(len(codes) + 2, len(codes) + 2 + len(flowers)))
    codes += [pair, pair] + flowers
    return Hand([int(rng.choice(of_face[c])) for c in codes], codes, sets, loose, bonus)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-bonus", action="store_true", help="no flowers or seasons in the hands")
    ap.add_argument("--likeness", type=float, default=None, help="the likeness pull's weight (default: the product's; 0: off)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not (HK_SETS / "crops.csv").is_file():
        print(f"skipped: the real dev crops are not here ({HK_SETS}); the bench reads them from ../shared beside the clone")
        return 0
    crops = read_crops(HK_SETS)
    rng = np.random.default_rng(args.seed)
    copies = copies_in_a_set()
    right = {"argmax": 0, "known": 0, "unknown": 0}
    tiles_right = {"argmax": 0, "known": 0, "unknown": 0}
    times: dict[str, list[float]] = {"known": [], "unknown": []}
    cpu: dict[str, list[float]] = {"known": [], "unknown": []}
    steps: dict[str, list[int]] = {"known": [], "unknown": []}
    kept_own = {"known": 0, "unknown": 0}
    cut_short = {"known": 0, "unknown": 0}
    n_hands = n_tiles = 0
    sizes: list[int] = []
    pull = {} if args.likeness is None else {"weight": args.likeness}
    while n_hands < args.hands:
        hand = make_hand(rng, crops, bonus=not args.no_bonus)
        if hand is None:
            continue
        n_hands += 1
        truth = np.array([CLASSES.index(c) for c in hand.codes])
        probs = crops.probs[hand.crops].astype(np.float64)
        n_tiles += len(truth)
        sizes.append(len(truth))
        own = probs.argmax(axis=1)
        right["argmax"] += int((own == truth).all())
        tiles_right["argmax"] += int((own == truth).sum())
        started, started_cpu = time.perf_counter(), time.process_time()
        pulled = pull_alike(probs, crops.embedding[hand.crops], **pull)
        pulled_ms, pulled_cpu = (time.perf_counter() - started) * 1000, (time.process_time() - started_cpu) * 1000
        layouts = {"known": Layout(tuple(hand.loose), tuple(hand.sets), tuple(hand.bonus)), "unknown": Layout(tuple(range(len(truth))))}
        for name, layout in layouts.items():
            started_cpu = time.process_time()
            d = decode(pulled, layout, copies=copies, own=own)
            cpu[name].append((time.process_time() - started_cpu) * 1000 + pulled_cpu)
            read = np.array(d.best.codes)
            right[name] += int((read == truth).all())
            tiles_right[name] += int((read == truth).sum())
            times[name].append(d.ms + pulled_ms)
            kept_own[name] += int(d.kept_own)
            cut_short[name] += int(not d.complete)
            steps[name].append(d.steps)
    report = {
        "hands": n_hands, "tiles": n_tiles, "tiles_per_hand": [min(sizes), max(sizes)], "bonus": not args.no_bonus,
        "likeness_weight": args.likeness,
        "hands_right": {k: round(v / n_hands, 3) for k, v in right.items()},
        "tiles_right": {k: round(v / n_tiles, 4) for k, v in tiles_right.items()},
        "kept_own": kept_own,
        "search_cut_short": cut_short,
        "search_steps": {k: {"median": int(np.median(v)), "p95": int(np.percentile(v, 95)), "max": int(np.max(v))}
                         for k, v in steps.items()},
        "decode_ms": {k: {"median": round(float(np.median(v)), 2), "p95": round(float(np.percentile(v, 95)), 2),
                          "max": round(float(np.max(v)), 2)} for k, v in times.items()},
        "decode_processor_ms": {k: {"median": round(float(np.median(v)), 2), "p95": round(float(np.percentile(v, 95)), 2),
                                    "max": round(float(np.max(v)), 2)} for k, v in cpu.items()},
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        weight = "default" if args.likeness is None else args.likeness
        print(f"{n_hands} hands of real crops ({report['tiles_per_hand'][0]}-{report['tiles_per_hand'][1]} tiles, "
              f"bonus tiles {'included' if not args.no_bonus else 'left out'}), likeness weight {weight}")
        print(f"  hands read entirely right: tile by tile {report['hands_right']['argmax']:.3f}, decoder with the grouping "
              f"known {report['hands_right']['known']:.3f}, unknown {report['hands_right']['unknown']:.3f}")
        print(f"  tiles right: tile by tile {report['tiles_right']['argmax']:.4f}, known {report['tiles_right']['known']:.4f}, "
              f"unknown {report['tiles_right']['unknown']:.4f}")
        print(f"  no legal hand near, tiles kept: known {kept_own['known']}, unknown {kept_own['unknown']}; search cut short "
              f"at its step budget: known {cut_short['known']}, unknown {cut_short['unknown']}")
        for k, v in report["search_steps"].items():
            print(f"  search steps, grouping {k}: median {v['median']}, p95 {v['p95']}, max {v['max']} (budget {BUDGET_STEPS})")
        for k, v in report["decode_ms"].items():
            c = report["decode_processor_ms"][k]
            print(f"  decode time, grouping {k}: median {v['median']} ms, p95 {v['p95']} ms, max {v['max']} ms "
                  f"(processor time: median {c['median']}, p95 {c['p95']}, max {c['max']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
